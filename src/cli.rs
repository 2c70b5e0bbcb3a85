//! Command-line options → [`Command`].

use fairy_egt::board::BoardSize;
use fairy_egt::config::{parse_rule_moves, promotion_letters, MAX_THREADS};
use fairy_egt::egt::dtz::MAX_RULE_MOVES;
use fairy_egt::egt::rules::{NullMove, ParseNullMoveError};
use fairy_egt::egt::table::{Metric, ParseMetricError};
use lexopt::prelude::*;
use std::path::PathBuf;

/// What the user asked for.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Command {
    /// Build the tables and print their statistics.
    Build { common: Common, json: bool },
    /// Build, then value a position and show every move and the perfect line.
    Probe { common: Common, fen: String },
    /// Build, then print the value of each FEN read from a file (`-`: stdin), one a line.
    ProbeMany { common: Common, fens: PathBuf },
    /// Print the legal moves of each FEN, one line per FEN (no table is built).
    Moves { common: Common, fens: Fens },
    /// Build, then let the engine play itself from a position, printing every move.
    Play { common: Common, fen: Option<String> },
    /// Build, then serve the table explorer (a page and a JSON API) on `bind`:`port`.
    Explore {
        common: Common,
        bind: std::net::IpAddr,
        port: u16,
    },
    /// Engine mode (no command given): speak XBoard, or UCI when the first line is `uci`, on
    /// stdin/stdout.
    Engine { common: Common },
    /// Print the usage text.
    Help,
    /// Print the version.
    Version,
}

/// The FENs a command reads: one given with `--fen`, or a file of one FEN a line
/// (`--fens FILE`; `-` is stdin).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Fens {
    /// `--fen FEN`.
    One(String),
    /// `--fens FILE`.
    File(PathBuf),
}

/// Options every command takes.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Common {
    /// The endgame, e.g. `KQ.KR`; `None`: the one of `engine.ini`.
    pub endgame: Option<String>,
    /// `--config FILE`; `None`: `engine.ini` in the working directory, if there is one.
    pub config: Option<PathBuf>,
    /// `--pieces FILE`, overriding `engine.ini`.
    pub pieces: Option<PathBuf>,
    /// `--metric dtm|dtc|dtz`, overriding `engine.ini`.
    pub metric: Option<Metric>,
    /// `--rule-moves N`: the moves of the rule of DTZ tables (0: none), overriding
    /// `engine.ini`.
    pub rule_moves: Option<u16>,
    /// `--threads N` (0 = all cores), overriding `engine.ini`.
    pub threads: Option<usize>,
    /// `--board WxH`, overriding `engine.ini`.
    pub board: Option<BoardSize>,
    /// `--promotion LETTERS`: what a pawn may promote to, upper case, overriding
    /// `engine.ini`.
    pub promotion: Option<String>,
    /// `--memory MB`: most memory the tables may take (0 = most of the available memory),
    /// overriding `engine.ini`.
    pub memory: Option<u64>,
    /// `--no-symmetry`: index every placement, to check the symmetry folding.
    pub no_symmetry: bool,
    /// `-0` / `--null-move[=SIDE]`: who may pass, overriding `engine.ini`.
    pub null_move: Option<NullMove>,
    /// `-s` / `--stalemate-wins` (a stalemated side has lost); only switches the rule on.
    pub stalemate_wins: bool,
    /// `-b` / `--bare-king-loses` (a bare royal loses); only switches the rule on.
    pub bare_king_loses: bool,
    /// `-f FILE` / `--seed FILE`: `Some(None)` for `--seed -` (no seeds), overriding
    /// `engine.ini`.
    pub seed: Option<Option<PathBuf>>,
    /// `--report FILE`: `Some(None)` for `--report -` (no report), overriding `engine.ini`.
    pub report: Option<Option<PathBuf>>,
    /// `--tables DIR`: the table directory, `Some(None)` for `--tables -` (none), overriding
    /// `engine.ini`.
    pub tables: Option<Option<PathBuf>>,
}

/// The usage text.
pub const USAGE: &str = "\
usage: fairy-egt [ENDGAME] [OPTIONS]           (engine mode: XBoard or UCI)
       fairy-egt play [ENDGAME] [--fen FEN] [OPTIONS]
       fairy-egt build [ENDGAME] [--json] [OPTIONS]
       fairy-egt probe [ENDGAME] --fen FEN [OPTIONS]
       fairy-egt probe [ENDGAME] --fens FILE [OPTIONS]
       fairy-egt moves [ENDGAME] (--fen FEN | --fens FILE) [OPTIONS]
       fairy-egt explore [ENDGAME] [--port N] [--bind ADDR] [OPTIONS]

  (none)   engine mode: an XBoard/WinBoard engine on stdin/stdout (a UCI engine when the
           first line it reads is 'uci') that builds the endgame at once and plays any
           position of it (or of another endgame of at most 6 men, built on demand)
           perfectly, e.g.
           xboard -fcp \"fairy-egt KQ.KR\" -fd DIR -initialMode EditPosition -variant fairy
           polyglot -noini -ec \"fairy-egt KQ.KR\"   (UCI mode wrapped for XBoard)
  play     build, then let the engine play itself from the FEN's position (default: a
           position of the endgame's longest win for White), printing every move with
           its value and the result

  build    build the endgame table (and every smaller one reachable by captures) and
           print its statistics; --json prints one JSON object instead
  probe    build, then print the value of the FEN's position, every legal move with the
           value it leaves (best marked *), and the perfect-play line; with --fens,
           the value of each FEN of FILE (one a line, - for stdin): win in 35, draw,
           loss in 4, or error: ... for a position that is not usable
  moves    print the legal moves of the FEN's position in coordinate notation, sorted,
           on one line (empty when there are none); with --fens, one line per FEN of
           FILE (- for stdin). A FEN that is not a position gets 'error' and its line
           number and reason on stderr; the others go on, then the exit code is 2.
           Builds nothing: only the pieces and the royals of ENDGAME are used, and the
           positions may hold any men of the piece file
  explore  build, then serve the table explorer: a page that shows a position, every
           move's value, click to play; and a JSON API shaped like Lichess's tablebase
           API (GET /api?fen=FEN, also /standard?fen=FEN). Prints its address
           (http://127.0.0.1:PORT/) on stdout. --port N (default 8000; 0: any free
           port), --bind ADDR (default 127.0.0.1: this machine only)

ENDGAME is White's men, '.', Black's men, e.g. KQ.KR, KBN.KN, KA.KR (KQvKR also works);
the first letter of a side is its royal piece. Default: the endgame of engine.ini.

options:
  --metric dtm|dtc|dtz
                     distance to mate (default), to conversion, or to zeroing (a capture
                     or pawn move) under the 50-move rule, with cursed wins
  --rule-moves N     the rule of --metric dtz: N moves without a capture or pawn move
                     make a draw (default 50; 0: no rule)
  -m                 distance to mate (EGTgen's -m)
  -0, --null-move[=white|black|both]
                     the side may pass when not stalemated or in check (-0 and a
                     bare --null-move: Black, as in EGTgen)
  -s, --stalemate-wins
                     a stalemated side has lost
  -b, --bare-king-loses
                     a side left with its royal alone, while the other has more, has lost
  -f, --seed FILE    fix the values of the positions in FILE (lines 'SQUARES VALUE', e.g.
                     c1d1c6b5 draw) before the build of ENDGAME; - for none
  --report FILE      write the statistics of every build to FILE (default rep2.txt in the
                     working directory, or engine.ini's report); - for none
  --tables DIR       the table directory: every table built is saved there, and loaded
                     from there when a later run needs it (a stale, truncated or corrupted
                     file is reported and rebuilt); - for none (default: engine.ini's
                     tables, else none)
  --board WxH        the board, files x ranks, each 3 to 16 (default 8x8; 10x8 for
                     Capablanca material)
  --promotion LETTERS
                     the pieces a pawn may promote to, in order of preference, e.g. QN
                     (default: the board's, QRBN, on 10x8 QRBNAC); each must be in the
                     piece file, not P, not a royal of ENDGAME
  --threads N        worker threads, 0 = all cores (default), at most 256
  --memory MB        most memory the tables may take, in MB (10^6 bytes); a build that
                     needs more is refused before it starts (default 0: 90% of the
                     memory available at start)
  --pieces FILE      piece definitions (default: engine.ini's, else piecedef.ini)
  --config FILE      settings file (default: engine.ini in the working directory)
  --no-symmetry      do not fold the table by the pieces' symmetry (slower; for checking)
  -xboard            accepted and ignored (EGTgen's engine-mode flag)
  -h, --help         this text
  -V, --version      the version

Options may stand in any order, before or after ENDGAME (fairy-egt -xboard -m -0 KQ.KR).
Command-line options win over engine.ini.
";

/// A command-line error: the message says what was expected.
#[derive(Debug, thiserror::Error)]
#[error("{0}")]
pub struct CliError(String);

impl From<lexopt::Error> for CliError {
    fn from(e: lexopt::Error) -> CliError {
        CliError(e.to_string())
    }
}

/// Parses the arguments (without the program name).
pub fn parse_args(args: impl IntoIterator<Item = std::ffi::OsString>) -> Result<Command, CliError> {
    // EGTgen's `-xboard` would read as the short flags -x -b -o …: drop it first.
    let args = args.into_iter().filter(|a| a != "-xboard");
    let mut parser = lexopt::Parser::from_args(args);
    let mut sub: Option<String> = None;
    let mut common = Common::default();
    let mut json = false;
    let mut fen: Option<String> = None;
    let mut fens: Option<PathBuf> = None;
    let mut bind = std::net::IpAddr::from([127, 0, 0, 1]);
    let mut port: u16 = 8000;
    while let Some(arg) = parser.next()? {
        match arg {
            Short('h') | Long("help") => return Ok(Command::Help),
            Short('V') | Long("version") => return Ok(Command::Version),
            Long("json") => json = true,
            Long("no-symmetry") => common.no_symmetry = true,
            Short('m') => common.metric = Some(Metric::Dtm),
            Short('0') => common.null_move = Some(NullMove::Black),
            Long("null-move") => {
                common.null_move = Some(match parser.optional_value() {
                    None => NullMove::Black,
                    Some(v) => {
                        let v = v.string()?;
                        v.parse().map_err(|e: ParseNullMoveError| {
                            CliError(format!("--null-move: {e}"))
                        })?
                    }
                })
            }
            Short('s') | Long("stalemate-wins") => common.stalemate_wins = true,
            Short('b') | Long("bare-king-loses") => common.bare_king_loses = true,
            Short('f') | Long("seed") => common.seed = Some(path_or_none(parser.value()?)),
            Long("report") => common.report = Some(path_or_none(parser.value()?)),
            Long("tables") => common.tables = Some(path_or_none(parser.value()?)),
            Long("fen") => fen = Some(parser.value()?.string()?),
            Long("fens") => fens = Some(parser.value()?.into()),
            Long("port") => {
                let v = parser.value()?.string()?;
                port = v.parse().map_err(|_| {
                    CliError(format!(
                        "--port: expected a port number from 0 (any free port) to 65535, \
                         found '{v}'"
                    ))
                })?;
            }
            Long("bind") => {
                let v = parser.value()?.string()?;
                bind = v.parse().map_err(|_| {
                    CliError(format!(
                        "--bind: expected an IP address such as 127.0.0.1 or 0.0.0.0, found '{v}'"
                    ))
                })?;
            }
            Long("config") => common.config = Some(parser.value()?.into()),
            Long("pieces") => common.pieces = Some(parser.value()?.into()),
            Long("metric") => {
                let v = parser.value()?.string()?;
                common.metric = Some(
                    v.parse()
                        .map_err(|e: ParseMetricError| CliError(format!("--metric: {e}")))?,
                );
            }
            Long("board") => {
                let v = parser.value()?.string()?;
                common.board = Some(v.parse().map_err(|e| CliError(format!("--board: {e}")))?);
            }
            Long("promotion") => {
                let v = parser.value()?.string()?;
                common.promotion =
                    Some(promotion_letters(&v).map_err(|e| CliError(format!("--promotion: {e}")))?);
            }
            Long("threads") => {
                let v = parser.value()?.string()?;
                common.threads = Some(v.parse().ok().filter(|&n| n <= MAX_THREADS).ok_or_else(
                    || {
                        CliError(format!(
                            "--threads: expected a whole number from 0 (one per core) to \
                                 {MAX_THREADS}, found '{v}'"
                        ))
                    },
                )?);
            }
            Long("rule-moves") => {
                let v = parser.value()?.string()?;
                common.rule_moves = Some(parse_rule_moves(&v).ok_or_else(|| {
                    CliError(format!(
                        "--rule-moves: expected a whole number of moves from 0 (no rule) to \
                         {MAX_RULE_MOVES}, found '{v}'"
                    ))
                })?);
            }
            Long("memory") => {
                let v = parser.value()?.string()?;
                common.memory = Some(v.parse().map_err(|_| {
                    CliError(format!(
                        "--memory: expected a whole number of megabytes, found '{v}'"
                    ))
                })?);
            }
            Value(v) => {
                let v = v.string()?;
                if sub.is_none() && common.endgame.is_none() && looks_like_endgame(&v) {
                    common.endgame = Some(v);
                } else if sub.is_none() && common.endgame.is_none() {
                    sub = Some(v);
                } else if common.endgame.is_none() {
                    common.endgame = Some(v);
                } else {
                    return Err(CliError(format!(
                        "unexpected argument '{v}' (one endgame only)"
                    )));
                }
            }
            _ => return Err(arg.unexpected().into()),
        }
    }
    match sub.as_deref() {
        Some("build") => Ok(Command::Build { common, json }),
        Some("probe") => match (fen, fens) {
            (Some(fen), None) => Ok(Command::Probe { common, fen }),
            (None, Some(fens)) => Ok(Command::ProbeMany { common, fens }),
            _ => Err(CliError(
                "probe needs either --fen FEN or --fens FILE".into(),
            )),
        },
        Some("moves") => match (fen, fens) {
            (Some(fen), None) => Ok(Command::Moves {
                common,
                fens: Fens::One(fen),
            }),
            (None, Some(file)) => Ok(Command::Moves {
                common,
                fens: Fens::File(file),
            }),
            _ => Err(CliError(
                "moves needs either --fen FEN or --fens FILE".into(),
            )),
        },
        Some("play") => Ok(Command::Play { common, fen }),
        Some("explore") => Ok(Command::Explore { common, bind, port }),
        Some(other) => Err(CliError(format!(
            "unknown command '{other}' (expected build, probe, moves, play, explore, or an endgame such as \
             KQ.KR for engine mode)"
        ))),
        None => Ok(Command::Engine { common }),
    }
}

/// A file argument, `None` for `-`.
fn path_or_none(value: std::ffi::OsString) -> Option<PathBuf> {
    (value != "-").then(|| PathBuf::from(value))
}

/// Whether a first argument names an endgame (engine mode) rather than a command: it has a
/// `.` (`KQ.KR`), or a `v` between two runs of upper-case letters (`KQvKR`).
fn looks_like_endgame(arg: &str) -> bool {
    let upper = |s: &str| !s.is_empty() && s.chars().all(|c| c.is_ascii_uppercase());
    arg.contains('.')
        || arg
            .split_once('v')
            .is_some_and(|(w, b)| upper(w) && upper(b))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(args: &[&str]) -> Result<Command, CliError> {
        parse_args(args.iter().map(std::ffi::OsString::from))
    }

    #[test]
    fn build_with_options() {
        let c = parse(&[
            "build",
            "KC.KR",
            "--metric",
            "dtc",
            "--threads",
            "2",
            "--memory",
            "300",
            "--json",
        ])
        .unwrap();
        let Command::Build { common, json } = c else {
            panic!("not build: {c:?}")
        };
        assert!(json);
        assert_eq!(common.endgame.as_deref(), Some("KC.KR"));
        assert_eq!(common.metric, Some(Metric::Dtc));
        assert_eq!(common.threads, Some(2));
        assert_eq!(common.memory, Some(300));
    }

    #[test]
    fn probe_needs_a_fen() {
        assert!(parse(&["probe", "KQ.KR"])
            .unwrap_err()
            .to_string()
            .contains("--fen"));
        let c = parse(&["probe", "KQ.KR", "--fen", "8/8/8/8/8/8/8/K6k w - - 0 1"]).unwrap();
        assert!(matches!(c, Command::Probe { .. }));
    }

    #[test]
    fn moves_reads_one_fen_or_a_file() {
        let c = parse(&["moves", "KU.KT", "--fens", "-"]).unwrap();
        let Command::Moves { common, fens } = c else {
            panic!("not moves: {c:?}")
        };
        assert_eq!(common.endgame.as_deref(), Some("KU.KT"));
        assert_eq!(fens, Fens::File(PathBuf::from("-")));
        let c = parse(&["moves", "--fen", "8/8/8/8/8/8/8/K6k w - - 0 1"]).unwrap();
        assert!(matches!(
            c,
            Command::Moves {
                fens: Fens::One(_),
                ..
            }
        ));
        assert!(parse(&["moves", "KQ.K"])
            .unwrap_err()
            .to_string()
            .contains("--fens FILE"));
    }

    #[test]
    fn engine_mode_and_play() {
        assert_eq!(
            parse(&[]).unwrap(),
            Command::Engine {
                common: Common::default()
            }
        );
        let Command::Engine { common } = parse(&["KQvKR", "--metric", "dtc"]).unwrap() else {
            panic!("not engine mode")
        };
        assert_eq!(common.endgame.as_deref(), Some("KQvKR"));
        assert_eq!(common.metric, Some(Metric::Dtc));
        let c = parse(&["play", "KC.KR", "--fen", "8/8/8/8/8/8/8/K6k w - - 0 1"]).unwrap();
        let Command::Play { common, fen } = c else {
            panic!("not play: {c:?}")
        };
        assert_eq!(common.endgame.as_deref(), Some("KC.KR"));
        assert!(fen.is_some());
        assert!(matches!(
            parse(&["play"]),
            Ok(Command::Play { fen: None, .. })
        ));
        assert!(parse(&["KQ.KR", "KR.K"]).is_err());
    }

    #[test]
    fn rule_flags_in_egtgen_order() {
        let Command::Engine { common } = parse(&["-xboard", "-m", "-0", "KQ.KR"]).unwrap() else {
            panic!("not engine mode")
        };
        assert_eq!(common.endgame.as_deref(), Some("KQ.KR"));
        assert_eq!(common.metric, Some(Metric::Dtm));
        assert_eq!(common.null_move, Some(NullMove::Black));
        let c = parse(&[
            "build",
            "-s",
            "KR.K",
            "--null-move=both",
            "-b",
            "-f",
            "seeds.txt",
            "--report",
            "-",
        ])
        .unwrap();
        let Command::Build { common, .. } = c else {
            panic!("not build: {c:?}")
        };
        assert_eq!(common.endgame.as_deref(), Some("KR.K"));
        assert_eq!(common.null_move, Some(NullMove::Both));
        assert!(common.stalemate_wins && common.bare_king_loses);
        assert_eq!(common.seed, Some(Some(PathBuf::from("seeds.txt"))));
        assert_eq!(common.report, Some(None));
        let Command::Build { common, .. } =
            parse(&["build", "--null-move", "KR.K", "--report", "r.txt", "-sb"]).unwrap()
        else {
            panic!("not build")
        };
        assert_eq!(common.null_move, Some(NullMove::Black));
        assert_eq!(common.endgame.as_deref(), Some("KR.K"));
        assert_eq!(common.report, Some(Some(PathBuf::from("r.txt"))));
        assert!(common.stalemate_wins && common.bare_king_loses);
        assert_eq!(common.tables, None);
        let Command::Engine { common } = parse(&["KR.K", "--tables", "my tables"]).unwrap() else {
            panic!("not engine mode")
        };
        assert_eq!(common.tables, Some(Some(PathBuf::from("my tables"))));
        let Command::Play { common, .. } = parse(&["play", "--tables", "-"]).unwrap() else {
            panic!("not play")
        };
        assert_eq!(common.tables, Some(None));
        assert!(parse(&["--null-move=sometimes"])
            .unwrap_err()
            .to_string()
            .contains("sometimes"));
        assert!(parse(&["-f"]).is_err());
    }

    #[test]
    fn promotion_letters() {
        let Command::Engine { common } = parse(&["KP.K", "--promotion", "qn"]).unwrap() else {
            panic!("not engine mode")
        };
        assert_eq!(common.promotion.as_deref(), Some("QN"));
        for (bad, why) in [
            ("", "found nothing"),
            ("QP", "'P' is the pawn"),
            ("NN", "'N' is given twice"),
        ] {
            let e = parse(&["build", "--promotion", bad])
                .unwrap_err()
                .to_string();
            assert!(e.starts_with("--promotion: ") && e.contains(why), "{e}");
        }
    }

    #[test]
    fn bad_options_are_named() {
        assert!(parse(&["build", "--metric", "dtn"])
            .unwrap_err()
            .to_string()
            .contains("dtn"));
        assert!(parse(&["build", "--rule-moves", "-1"])
            .unwrap_err()
            .to_string()
            .contains("--rule-moves: expected a whole number"));
        assert!(parse(&["build", "--threads", "x"])
            .unwrap_err()
            .to_string()
            .contains("'x'"));
        assert!(parse(&["build", "--threads", "257"])
            .unwrap_err()
            .to_string()
            .contains("from 0 (one per core) to 256, found '257'"));
        assert!(parse(&["build", "--threads", "256"]).is_ok());
        assert!(parse(&["build", "--memory", "lots"])
            .unwrap_err()
            .to_string()
            .contains("--memory: expected a whole number of megabytes, found 'lots'"));
        assert!(parse(&["build", "--frobnicate"])
            .unwrap_err()
            .to_string()
            .contains("frobnicate"));
        assert!(parse(&["launch"])
            .unwrap_err()
            .to_string()
            .contains("launch"));
        assert!(parse(&["build", "KQ.K", "KR.K"])
            .unwrap_err()
            .to_string()
            .contains("KR.K"));
    }
}
