//! `engine.ini` → [`EngineConfig`].
//!
//! The file is `key = value` lines; `#` or `;` starts a comment running to the end of the
//! line; blank lines are ignored; an `[engine]` section header may stand before the keys.
//! Keys are case-insensitive and `_` may be written for `-`. Unknown keys, bad values, keys
//! given twice and other sections are errors naming the file, the line and what was expected.
//! Relative paths (`pieces`, `seed`, `report`, `tables`, given or default) are taken relative to the
//! directory of the ini file. The shipped `engine.ini` documents every key.

use crate::board::BoardSize;
use crate::egt::dtz::MAX_RULE_MOVES;
use crate::egt::rules::NullMove;
use crate::egt::table::Metric;
use crate::settings_file;
use std::path::{Path, PathBuf};

/// Most build threads anyone may ask for (`threads` here, `--threads`, and the `Threads`
/// option of either protocol): more would only make rayon start idle threads.
pub const MAX_THREADS: usize = 256;

/// Everything `engine.ini` sets. [`Default`] gives the documented defaults, with paths
/// relative to the current directory.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EngineConfig {
    /// The endgame built at start-up, e.g. `KQ.KR` (`endgame`, default `KQ.KR`).
    pub endgame: String,
    /// Distance measured (`metric`, default dtm).
    pub metric: Metric,
    /// Moves of the rule under which a DTZ table counts (`rule-moves`, default 50; 0: none),
    /// as given: [`EngineConfig::metric_with_rule`] puts it into a DTZ metric.
    pub rule_moves: u16,
    /// Worker threads; 0 = one per core (`threads`, default 0).
    pub threads: usize,
    /// The piece-definition file (`pieces`, default `piecedef.ini`).
    pub pieces: PathBuf,
    /// Whether `pieces` was named by the user (here by the `pieces` key): a named file must
    /// exist, while the default `piecedef.ini` may be missing (the built-in definitions
    /// stand in for it).
    pub pieces_named: bool,
    /// Which side may pass (`null-move`, default none).
    pub null_move: NullMove,
    /// Stalemating the opponent wins (`stalemate-wins`, default false).
    pub stalemate_wins: bool,
    /// A side left with its royal piece alone, while the other has more, has lost
    /// (`bare-king-loses`, default false).
    pub bare_king_loses: bool,
    /// A file of positions whose values are fixed (`seed`, default none).
    pub seed: Option<PathBuf>,
    /// Where the build report is written, `None` for no report (`report`, default `rep2.txt`).
    pub report: Option<PathBuf>,
    /// Most memory the tables may take, in MB; 0 = 90 % of the memory available at start
    /// (`memory`, default 0).
    pub memory: u64,
    /// The board, files x ranks (`board`, default 8x8).
    pub board: BoardSize,
    /// What a pawn may promote to, upper-case letters in order of preference (`promotion`,
    /// default none: the board's list, Q R B N, on 10x8 Q R B N A C). Checked here for its
    /// form (letters, none twice, not the pawn P); whether the piece file defines them, and
    /// that none is a royal letter of the endgame, is checked once the pieces are read:
    /// `promotion_line` then names the line.
    pub promotion: Option<String>,
    /// The line of the `promotion` key, for errors found once the pieces are read.
    pub promotion_line: Option<usize>,
    /// The table directory: tables are loaded from it instead of built, and saved to it once
    /// built (`tables`, default none).
    pub tables: Option<PathBuf>,
}

impl Default for EngineConfig {
    fn default() -> EngineConfig {
        EngineConfig {
            endgame: "KQ.KR".to_string(),
            metric: Metric::Dtm,
            rule_moves: 50,
            threads: 0,
            pieces: PathBuf::from("piecedef.ini"),
            pieces_named: false,
            null_move: NullMove::None,
            stalemate_wins: false,
            bare_king_loses: false,
            seed: None,
            report: Some(PathBuf::from("rep2.txt")),
            memory: 0,
            board: BoardSize::STANDARD,
            promotion: None,
            promotion_line: None,
            tables: None,
        }
    }
}

/// What is wrong with a configuration file.
#[derive(Debug, thiserror::Error)]
pub enum ConfigError {
    /// The file could not be read.
    #[error("{}: cannot read the configuration: {error}", path.display())]
    Read {
        /// The file.
        path: PathBuf,
        /// Why not.
        error: settings_file::ReadError,
    },
    /// A line of the file is wrong.
    #[error("{file}:{line}: {message}")]
    Syntax {
        /// The file, as given.
        file: String,
        /// 1-based line number.
        line: usize,
        /// What was expected and what was found.
        message: String,
    },
}

impl ConfigError {
    /// The 1-based line of a syntax error.
    pub fn line(&self) -> Option<usize> {
        match self {
            ConfigError::Syntax { line, .. } => Some(*line),
            ConfigError::Read { .. } => None,
        }
    }
}

/// The keys, in the order the shipped `engine.ini` documents them.
const KEYS: [&str; 14] = [
    "endgame",
    "board",
    "promotion",
    "metric",
    "rule-moves",
    "threads",
    "memory",
    "pieces",
    "null-move",
    "stalemate-wins",
    "bare-king-loses",
    "seed",
    "report",
    "tables",
];

/// The value of a key that names a file or directory, or `-` for none; `None` when it is
/// empty (an error).
fn optional_path(value: &str) -> Option<Option<PathBuf>> {
    match value {
        "" => None,
        "-" => Some(None),
        path => Some(Some(PathBuf::from(path))),
    }
}

/// Reads and parses a configuration file.
pub fn load_config(path: &Path) -> Result<EngineConfig, ConfigError> {
    let text = settings_file::read(path).map_err(|error| ConfigError::Read {
        path: path.to_path_buf(),
        error,
    })?;
    parse_config(&text, path)
}

/// Parses the text of a configuration file; `file` names it in errors and its directory is
/// the base of relative paths.
pub fn parse_config(text: &str, file: &Path) -> Result<EngineConfig, ConfigError> {
    let file_name = file.display().to_string();
    let base = file.parent().unwrap_or(Path::new(""));
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let error = |line: usize, message: String| ConfigError::Syntax {
        file: file_name.clone(),
        line,
        message,
    };

    let mut config = EngineConfig::default();
    let mut seen: Vec<(&'static str, usize)> = Vec::new();
    let mut section_line: Option<usize> = None;
    for (index, raw) in text.lines().enumerate() {
        let line_no = index + 1;
        let line = raw.split(['#', ';']).next().unwrap_or("").trim();
        if line.is_empty() {
            continue;
        }
        if let Some(inner) = line.strip_prefix('[') {
            let name = inner.strip_suffix(']').map(str::trim);
            match name {
                Some(n) if n.eq_ignore_ascii_case("engine") => {
                    if let Some(first) = section_line {
                        return Err(error(
                            line_no,
                            format!("section [engine] is given twice (first on line {first})"),
                        ));
                    }
                    if let Some(&(key, key_line)) = seen.first() {
                        return Err(error(
                            line_no,
                            format!(
                                "expected [engine] before the first key, found it after '{key}' \
                                 on line {key_line}"
                            ),
                        ));
                    }
                    section_line = Some(line_no);
                }
                Some(n) => {
                    return Err(error(
                        line_no,
                        format!("expected the section [engine], found [{n}]"),
                    ))
                }
                None => {
                    return Err(error(
                        line_no,
                        format!("expected a section header '[engine]', found '{line}'"),
                    ))
                }
            }
            continue;
        }
        let Some((raw_key, raw_value)) = line.split_once('=') else {
            return Err(error(
                line_no,
                format!("expected 'key = value', found '{line}'"),
            ));
        };
        let key_text = raw_key.trim();
        let value = raw_value.trim();
        let normal = key_text.to_ascii_lowercase().replace('_', "-");
        let Some(key) = KEYS.iter().copied().find(|k| *k == normal) else {
            let found = if key_text.is_empty() {
                "nothing".to_string()
            } else {
                format!("'{key_text}'")
            };
            return Err(error(
                line_no,
                format!("expected a key ({}), found {found}", KEYS.join(", ")),
            ));
        };
        if let Some(&(_, first)) = seen.iter().find(|(k, _)| *k == key) {
            return Err(error(
                line_no,
                format!("key '{key}' is given twice (first on line {first})"),
            ));
        }
        seen.push((key, line_no));
        let bad = |expected: &str| {
            let found = if value.is_empty() {
                "nothing".to_string()
            } else {
                format!("'{value}'")
            };
            error(
                line_no,
                format!("expected {expected} for '{key}', found {found}"),
            )
        };
        match key {
            "endgame" => {
                if value.is_empty() || value.contains(char::is_whitespace) {
                    return Err(bad("an endgame such as KQ.KR"));
                }
                config.endgame = value.to_string();
            }
            "metric" => {
                config.metric = value.parse().map_err(|_| bad("dtm, dtc or dtz"))?;
            }
            "rule-moves" => {
                config.rule_moves = parse_rule_moves(value).ok_or_else(|| {
                    bad(&format!(
                        "a whole number of moves from 0 (no rule) to {MAX_RULE_MOVES}"
                    ))
                })?;
            }
            "threads" => {
                config.threads = match value.parse::<usize>() {
                    Ok(n) if n <= MAX_THREADS && value.chars().all(|c| c.is_ascii_digit()) => n,
                    _ => {
                        return Err(bad(&format!(
                            "a whole number of threads from 0 (one per core) to {MAX_THREADS}"
                        )))
                    }
                };
            }
            "memory" => {
                config.memory = match value.parse::<u64>() {
                    Ok(n) if value.chars().all(|c| c.is_ascii_digit()) => n,
                    _ => {
                        return Err(bad(
                            "a whole number of megabytes (0 = most of the available memory)",
                        ))
                    }
                };
            }
            "board" => {
                config.board = value
                    .parse()
                    .map_err(|_| bad("files x ranks, each 3 to 16, such as 10x8"))?;
            }
            "promotion" => {
                config.promotion = Some(
                    promotion_letters(value)
                        .map_err(|why| error(line_no, format!("'promotion': {why}")))?,
                );
                config.promotion_line = Some(line_no);
            }
            "pieces" => {
                if value.is_empty() {
                    return Err(bad("a file name"));
                }
                config.pieces = PathBuf::from(value);
                config.pieces_named = true;
            }
            "null-move" => {
                config.null_move = value
                    .parse()
                    .map_err(|_| bad("none, white, black or both"))?;
            }
            "stalemate-wins" => {
                config.stalemate_wins = parse_bool(value).ok_or_else(|| bad(BOOL_EXPECTED))?;
            }
            "bare-king-loses" => {
                config.bare_king_loses = parse_bool(value).ok_or_else(|| bad(BOOL_EXPECTED))?;
            }
            "seed" => {
                config.seed =
                    optional_path(value).ok_or_else(|| bad("a file name, or - for none"))?;
            }
            "report" => {
                config.report =
                    optional_path(value).ok_or_else(|| bad("a file name, or - for none"))?;
            }
            "tables" => {
                config.tables =
                    optional_path(value).ok_or_else(|| bad("a directory, or - for none"))?;
            }
            _ => {}
        }
    }

    // Relative paths are relative to the ini file's directory.
    config.pieces = resolve(base, &config.pieces);
    config.seed = config.seed.map(|p| resolve(base, &p));
    config.report = config.report.map(|p| resolve(base, &p));
    config.tables = config.tables.map(|p| resolve(base, &p));
    config.metric = config.metric_with_rule();
    Ok(config)
}

/// The moves of a rule as written (`rule-moves`, `--rule-moves`, the option `RuleMoves`): a
/// whole number from 0 (no rule) to [`MAX_RULE_MOVES`].
pub fn parse_rule_moves(text: &str) -> Option<u16> {
    text.trim().parse().ok().filter(|&n| n <= MAX_RULE_MOVES)
}

impl EngineConfig {
    /// The metric, a DTZ one under the rule of `rule_moves`.
    pub fn metric_with_rule(&self) -> Metric {
        self.metric.under_rule(self.rule_moves)
    }
}

/// What is wrong with the form of a list of promotion letters, on one line.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum PromotionLettersError {
    /// No letter at all.
    #[error("expected piece letters such as QRBN, found nothing")]
    Empty,
    /// A character that is no letter.
    #[error("expected piece letters such as QRBN, found '{found}' in '{value}'")]
    NotALetter {
        /// The character.
        found: char,
        /// The list as given.
        value: String,
    },
    /// The pawn's letter.
    #[error("'{0}' is the pawn: a pawn promotes to another piece")]
    Pawn(char),
    /// A letter given twice.
    #[error("'{letter}' is given twice in '{value}'")]
    Twice {
        /// The letter, upper case.
        letter: char,
        /// The list as given.
        value: String,
    },
}

/// Promotion letters as given (`QRBN`, `qrbn`, `Q R B N`, `Q,R,B,N`), upper case: their form
/// only (letters, none twice, not the pawn P; `promotion::promotions` checks them against the
/// pieces).
///
/// ```
/// use fairy_egt::config::{promotion_letters, PromotionLettersError};
/// assert_eq!(promotion_letters("q, r b n").unwrap(), "QRBN");
/// assert_eq!(promotion_letters("QP"), Err(PromotionLettersError::Pawn('P')));
/// ```
pub fn promotion_letters(value: &str) -> Result<String, PromotionLettersError> {
    let letters: String = value
        .chars()
        .filter(|c| !c.is_whitespace() && *c != ',')
        .collect();
    if letters.is_empty() {
        return Err(PromotionLettersError::Empty);
    }
    let mut out = String::new();
    for c in letters.chars() {
        if !c.is_ascii_alphabetic() {
            return Err(PromotionLettersError::NotALetter {
                found: c,
                value: value.to_string(),
            });
        }
        let upper = c.to_ascii_uppercase();
        if upper == crate::piece::PAWN {
            return Err(PromotionLettersError::Pawn(upper));
        }
        if out.contains(upper) {
            return Err(PromotionLettersError::Twice {
                letter: upper,
                value: value.to_string(),
            });
        }
        out.push(upper);
    }
    Ok(out)
}

/// `path` taken relative to `base` unless it is absolute.
fn resolve(base: &Path, path: &Path) -> PathBuf {
    if path.is_absolute() {
        path.to_path_buf()
    } else {
        base.join(path)
    }
}

const BOOL_EXPECTED: &str = "true or false (also yes/no, on/off, 1/0)";

/// `true`/`false`, `yes`/`no`, `on`/`off`, `1`/`0`, in any case.
fn parse_bool(value: &str) -> Option<bool> {
    match value.to_ascii_lowercase().as_str() {
        "true" | "yes" | "on" | "1" => Some(true),
        "false" | "no" | "off" | "0" => Some(false),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::Color;
    use crate::egt::dtz::Rule;

    fn parse(text: &str) -> Result<EngineConfig, ConfigError> {
        parse_config(text, Path::new("engine.ini"))
    }

    fn ok(text: &str) -> EngineConfig {
        parse(text).unwrap_or_else(|e| panic!("{e}"))
    }

    /// Expects an error on `line` whose one-line message contains `needle`.
    fn expect_error(text: &str, line: usize, needle: &str) {
        match parse(text) {
            Ok(c) => panic!("{text:?} parsed: {c:?}"),
            Err(e) => {
                let shown = e.to_string();
                assert_eq!(e.line(), Some(line), "{shown}");
                assert!(
                    shown.starts_with(&format!("engine.ini:{line}: ")),
                    "{shown}"
                );
                assert!(shown.contains(needle), "{shown:?} lacks {needle:?}");
                assert!(!shown.contains('\n'));
            }
        }
    }

    #[test]
    fn defaults() {
        let c = EngineConfig::default();
        assert_eq!(c.endgame, "KQ.KR");
        assert_eq!(c.metric, Metric::Dtm);
        assert_eq!(c.threads, 0);
        assert_eq!(c.pieces, PathBuf::from("piecedef.ini"));
        assert!(!c.pieces_named);
        assert_eq!(c.null_move, NullMove::None);
        assert!(!c.stalemate_wins);
        assert!(!c.bare_king_loses);
        assert_eq!(c.seed, None);
        assert_eq!(c.report, Some(PathBuf::from("rep2.txt")));
        assert_eq!(c.memory, 0);
        assert_eq!(ok(""), c);
        assert_eq!(ok("# nothing but comments\n\n; here\n[engine]\n"), c);
    }

    #[test]
    fn every_key() {
        let c = ok("[engine]\n\
                    endgame = KBN.K\n\
                    metric = DTC\n\
                    threads = 3\n\
                    memory = 2500\n\
                    pieces = my/pieces.ini\n\
                    null-move = black\n\
                    stalemate-wins = yes\n\
                    bare-king-loses = true  # shatranj\n\
                    seed = seed.txt ; fixed values\n\
                    report = -\n");
        assert_eq!(c.endgame, "KBN.K");
        assert_eq!(c.metric, Metric::Dtc);
        assert_eq!(c.threads, 3);
        assert_eq!(c.memory, 2500);
        assert_eq!(c.pieces, PathBuf::from("my/pieces.ini"));
        assert!(c.pieces_named);
        assert_eq!(c.null_move, NullMove::Black);
        assert!(c.stalemate_wins);
        assert!(c.bare_king_loses);
        assert_eq!(c.seed, Some(PathBuf::from("seed.txt")));
        assert_eq!(c.report, None);
    }

    #[test]
    fn key_spelling_and_spacing() {
        let c = ok("NULL_MOVE=Both\n  Stalemate_Wins   =   off\r\nreport=out/rep.txt");
        assert_eq!(c.null_move, NullMove::Both);
        assert!(!c.stalemate_wins);
        assert_eq!(c.report, Some(PathBuf::from("out/rep.txt")));
    }

    #[test]
    fn booleans() {
        for (v, want) in [
            ("true", true),
            ("YES", true),
            ("on", true),
            ("1", true),
            ("false", false),
            ("No", false),
            ("off", false),
            ("0", false),
        ] {
            assert_eq!(
                ok(&format!("bare-king-loses = {v}")).bare_king_loses,
                want,
                "{v}"
            );
        }
        expect_error("\nstalemate-wins = maybe", 2, "expected true or false");
        expect_error(
            "bare-king-loses =",
            1,
            "for 'bare-king-loses', found nothing",
        );
    }

    #[test]
    fn metric_and_null_move_values() {
        assert_eq!("dtm".parse::<Metric>(), Ok(Metric::Dtm));
        assert_eq!("DtC".parse::<Metric>(), Ok(Metric::Dtc));
        assert_eq!(Metric::Dtc.name(), "dtc");
        assert_eq!(Metric::Dtm.to_string(), "dtm");
        let fifty = Metric::Dtz(crate::egt::dtz::Rule::FIFTY_MOVES);
        assert_eq!(" DTZ".parse::<Metric>(), Ok(fifty));
        assert_eq!(fifty.name(), "dtz");
        let e = "dtn".parse::<Metric>().err().map(|e| e.to_string());
        assert_eq!(e.as_deref(), Some("expected dtm, dtc or dtz, found 'dtn'"));
        for n in [
            NullMove::None,
            NullMove::White,
            NullMove::Black,
            NullMove::Both,
        ] {
            assert_eq!(n.name().parse::<NullMove>(), Ok(n));
        }
        assert!(NullMove::White.allows(Color::White));
        assert!(!NullMove::White.allows(Color::Black));
        assert!(NullMove::Both.allows(Color::Black));
        assert!(!NullMove::None.allows(Color::White));
        expect_error(
            "rule-moves = 10001",
            1,
            "expected a whole number of moves from 0 (no rule) to 10000 for 'rule-moves', found '10001'",
        );
        let c = parse_config("metric = dtz\nrule-moves = 20\n", Path::new("engine.ini")).unwrap();
        assert_eq!(c.metric, Metric::Dtz(Rule::moves(20)));
        expect_error(
            "metric = dtn",
            1,
            "expected dtm, dtc or dtz for 'metric', found 'dtn'",
        );
        expect_error(
            "null-move = sometimes",
            1,
            "expected none, white, black or both",
        );
    }

    #[test]
    fn threads_values() {
        assert_eq!(ok("threads = 0").threads, 0);
        assert_eq!(ok("threads=16").threads, 16);
        expect_error("threads = -1", 1, "expected a whole number of threads");
        expect_error("threads = +2", 1, "found '+2'");
        expect_error("threads = two", 1, "found 'two'");
        expect_error("threads = 99999999999999999999999", 1, "whole number");
        assert_eq!(ok("threads = 256").threads, 256);
        expect_error("threads = 257", 1, "from 0 (one per core) to 256");
    }

    #[test]
    fn memory_values() {
        assert_eq!(ok("memory = 0").memory, 0);
        assert_eq!(ok("memory=300").memory, 300);
        expect_error("memory = 1.5", 1, "expected a whole number of megabytes");
        expect_error("memory = -4", 1, "found '-4'");
        expect_error("memory = 4GB", 1, "for 'memory', found '4GB'");
        expect_error("memory =", 1, "found nothing");
    }

    #[test]
    fn endgame_values() {
        assert_eq!(ok("endgame = KQvKR").endgame, "KQvKR");
        expect_error(
            "endgame =",
            1,
            "expected an endgame such as KQ.KR for 'endgame'",
        );
        expect_error("endgame = KQ KR", 1, "found 'KQ KR'");
    }

    #[test]
    fn paths_are_relative_to_the_ini_directory() {
        let c = parse_config(
            "pieces = p.ini\nseed = s/seed.txt\nreport = /tmp/abs.txt",
            Path::new("/etc/egt/engine.ini"),
        )
        .unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(c.pieces, PathBuf::from("/etc/egt/p.ini"));
        assert_eq!(c.seed, Some(PathBuf::from("/etc/egt/s/seed.txt")));
        assert_eq!(c.report, Some(PathBuf::from("/tmp/abs.txt")));
        // Defaults too.
        let d =
            parse_config("", Path::new("/etc/egt/engine.ini")).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(d.pieces, PathBuf::from("/etc/egt/piecedef.ini"));
        assert_eq!(d.report, Some(PathBuf::from("/etc/egt/rep2.txt")));
        assert_eq!(d.seed, None);
        expect_error("pieces = ", 1, "expected a file name for 'pieces'");
        expect_error("seed =", 1, "expected a file name, or - for none");
        expect_error("report=", 1, "or - for none");
        assert_eq!(ok("seed = -").seed, None);
        let t = parse_config("tables = egt", Path::new("/etc/egt/engine.ini")).unwrap();
        assert_eq!(t.tables, Some(PathBuf::from("/etc/egt/egt")));
        assert_eq!(d.tables, None);
        assert_eq!(ok("tables = -").tables, None);
        expect_error(
            "tables =",
            1,
            "expected a directory, or - for none for 'tables'",
        );
    }

    #[test]
    fn the_board_is_files_by_ranks() {
        assert_eq!(ok("").board, BoardSize::STANDARD);
        assert_eq!(ok("board = 10x8").board, BoardSize::new(10, 8).unwrap());
        assert_eq!(ok("board=12X12").board.to_string(), "12x12");
        for bad in ["board = 10", "board = 2x8", "board = 17x17", "board ="] {
            expect_error(
                bad,
                1,
                "expected files x ranks, each 3 to 16, such as 10x8 for 'board'",
            );
        }
    }

    #[test]
    fn promotion_letters_are_checked_for_their_form() {
        assert_eq!(ok("").promotion, None);
        let c = ok("board = 10x8\npromotion = qa n");
        assert_eq!(c.promotion.as_deref(), Some("QAN"));
        assert_eq!(c.promotion_line, Some(2));
        assert_eq!(ok("promotion = Q,R").promotion.as_deref(), Some("QR"));
        expect_error(
            "promotion =",
            1,
            "'promotion': expected piece letters such as QRBN, found nothing",
        );
        expect_error("\npromotion = QP", 2, "'promotion': 'P' is the pawn");
        expect_error("promotion = QRQ", 1, "'Q' is given twice in 'QRQ'");
        expect_error("promotion = Q2", 1, "found '2' in 'Q2'");
    }

    #[test]
    fn errors_name_the_line_and_what_was_expected() {
        expect_error(
            "threads = 1\ncolour = white",
            2,
            "expected a key (endgame, board, promotion, metric,",
        );
        expect_error("threads = 1\ncolour = white", 2, "found 'colour'");
        expect_error("= 3", 1, "expected a key (endgame, board, promotion, metric, rule-moves, threads, memory, pieces, null-move, stalemate-wins, bare-king-loses, seed, report, tables), found nothing");
        expect_error(
            "\n\nthreads 4",
            3,
            "expected 'key = value', found 'threads 4'",
        );
        expect_error(
            "metric = dtm\n\nmetric = dtc",
            3,
            "key 'metric' is given twice (first on line 1)",
        );
        expect_error("threads = 1\nthreads = 1", 2, "given twice");
        expect_error(
            "null_move = white\nnull-move = black",
            2,
            "key 'null-move' is given twice",
        );
        expect_error(
            "[uci]\nthreads = 1",
            1,
            "expected the section [engine], found [uci]",
        );
        expect_error(
            "[engine",
            1,
            "expected a section header '[engine]', found '[engine'",
        );
        expect_error(
            "[engine]\n[engine]",
            2,
            "section [engine] is given twice (first on line 1)",
        );
        expect_error(
            "threads = 1\n[engine]",
            2,
            "expected [engine] before the first key",
        );
    }

    #[test]
    fn unreadable_file_names_path_and_reason() {
        let e = load_config(Path::new("/nonexistent-fairy-egt/engine.ini"))
            .err()
            .map(|e| e.to_string())
            .unwrap_or_default();
        assert!(
            e.starts_with("/nonexistent-fairy-egt/engine.ini: cannot read"),
            "{e}"
        );
        assert!(e.contains("No such file"), "{e}");
    }

    #[test]
    fn the_shipped_engine_ini_gives_the_defaults() {
        let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("engine.ini");
        let c = load_config(&path).unwrap_or_else(|e| panic!("{e}"));
        let dir = Path::new(env!("CARGO_MANIFEST_DIR"));
        // It names the shipped piece file, which must then be there.
        let want = EngineConfig {
            pieces: dir.join("piecedef.ini"),
            pieces_named: true,
            report: Some(dir.join("rep2.txt")),
            ..EngineConfig::default()
        };
        assert_eq!(c, want);
    }
}
