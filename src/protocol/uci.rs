//! The UCI protocol, spoken when the first line is `uci`.
//!
//! Standard lines are parsed with vampirc-uci; `position` is parsed here, with our FEN and
//! move code, because the crate rejects fairy letters. Every output line is written here.
//! Under DTM a win in N moves is `score mate N` and a loss `score mate -N` (no limit on N);
//! a draw is `score cp 0`. Under DTC the distance is to a conversion, not to mate, so the score
//! is `cp 10000-N` for a win and `cp -(10000-N)` for a loss, as in the XBoard mode.
//! `go` always answers with `bestmove`: `bestmove 0000` when there is no move to make (mate,
//! stalemate, or a position the engine cannot play, explained by an `info string`). The search
//! limits of `go` are ignored (every answer is a table look-up), but after `go infinite` or
//! `go ponder` the `bestmove` is held until `stop` (or `ponderhit`), as UCI asks.
//!
//! Options: `Endgame` (the start-up endgame), `Promotion` (the promotion pieces; empty,
//! `<empty>` or `default` for the board's list), `Metric`, `RuleMoves` (the rule of DTZ
//! tables), `Threads`, `TableMemory` (MB; 0 keeps
//! the start-up budget), `PieceFile`, `TablePath` (the table directory; empty for none),
//! `NullMove`, `StalemateWins`, `BareKingLoses`, and the
//! board: `UCI_Variant` as Fairy-Stockfish names its variants (`chess`, `normal`, `fairy`,
//! `berolina`: 8×8; `capablanca`, `gothic`: 10×8; a `WxH` is read too; not `janus`, whose J is its
//! Archbishop where ours is the Dragon King) and `Board` (`WxH`, any
//! size from 3x3 to 16x16). A change of any but `Threads`, `TableMemory` and `TablePath` rebuilds the
//! tables; a new board also sets up its start position. python-chess sets `UCI_Variant` itself
//! before every `position` when the engine has it (`chess` for its 8×8 boards), and does
//! not let its users set it: `Board` is the option for them.

use super::{one_line, Input, Protocol, MAX_TABLE_MEMORY, MAX_THREADS};
use crate::board::fen::FenError;
use crate::board::promotion::default_letters;
use crate::board::{BoardSize, Setup};
use crate::config::parse_rule_moves;
use crate::egt::dtz::MAX_RULE_MOVES;
use crate::egt::progress::BuildEvent;
use crate::egt::rules::NullMove;
use crate::egt::table::Metric;
use crate::egt::value::Value;
use crate::engine::game::standard_start;
use crate::engine::{Command, Event, Options, Thinking, Unplayable};
use crate::piece::PieceSet;
use crate::protocol::xboard::{promotion_shown, promotion_value};
use std::cell::RefCell;
use std::collections::VecDeque;
use vampirc_uci::{parse_one, UciMessage, UciTimeControl};

/// The `UCI_Variant` names read, each with its board's files and ranks: Fairy-Stockfish's
/// names of the variants whose pieces we have (its `chess` and `normal` are orthodox chess,
/// `fairy` its 8×8 base for fairy pieces, `berolina` chess with the Berolina pawn, which a
/// piece file gives ours; `capablanca` and `gothic` are 10×8 with the Archbishop and
/// Chancellor that are our A and C). The first of a board is the one shown.
const VARIANTS: [(&str, u32, u32); 6] = [
    ("chess", 8, 8),
    ("normal", 8, 8),
    ("fairy", 8, 8),
    ("berolina", 8, 8),
    ("capablanca", 10, 8),
    ("gothic", 10, 8),
];

/// The board of a `UCI_Variant` value: a name of [`VARIANTS`] (any case) or `WxH`.
fn variant_board(value: &str) -> Option<BoardSize> {
    let lower = value.to_ascii_lowercase();
    match VARIANTS.iter().find(|(name, ..)| *name == lower) {
        Some(&(_, files, ranks)) => BoardSize::new(files, ranks).ok(),
        None => lower.parse().ok(),
    }
}

/// The `UCI_Variant` shown for a board: the first name of [`VARIANTS`] on it, else `WxH`.
fn variant_name(board: BoardSize) -> String {
    VARIANTS
        .iter()
        .find(|&&(_, files, ranks)| BoardSize::new(files, ranks) == Ok(board))
        .map_or_else(|| board.to_string(), |(name, ..)| name.to_string())
}

/// The UCI side of a session.
#[derive(Default)]
pub struct Uci {
    /// The `go`s read whose `bestmove` has not been written yet, oldest first: true for one
    /// (`infinite`, `ponder`) whose `bestmove` waits for `stop`.
    pending: RefCell<VecDeque<bool>>,
    /// A `bestmove` line held until `stop`.
    held: RefCell<Option<String>>,
    /// The pieces of the start-up, whose letters the shown default of `Promotion` keeps
    /// (`None`: the board's list as it is).
    pieces: Option<PieceSet>,
}

impl Uci {
    /// The protocol for an engine of these pieces.
    pub fn new(pieces: PieceSet) -> Uci {
        Uci {
            pieces: Some(pieces),
            ..Uci::default()
        }
    }

    /// The answer to `uci`: identification, options (their defaults the values in force,
    /// threads 0 shown as one per core), `uciok`.
    fn identify(&self, options: &Options) -> Vec<Input> {
        let default_threads = if options.threads == 0 {
            std::thread::available_parallelism().map_or(1, |n| n.get())
        } else {
            options.threads
        };
        let null_moves = [
            NullMove::None,
            NullMove::Black,
            NullMove::White,
            NullMove::Both,
        ]
        .map(|n| format!(" var {n}"))
        .concat();
        let string_default = |s: &str| {
            if s.is_empty() {
                "<empty>".to_string()
            } else {
                s.to_string()
            }
        };
        [
            format!("id name fairy-egt {}", env!("CARGO_PKG_VERSION")),
            "id author the fairy-egt developers".to_string(),
            format!(
                "option name Endgame type string default {}",
                string_default(&options.endgame)
            ),
            format!(
                "option name Promotion type string default {}",
                string_default(&match &self.pieces {
                    Some(pieces) => promotion_shown(options, pieces),
                    None => (options.promotion.clone())
                        .unwrap_or_else(|| default_letters(options.board).to_string()),
                })
            ),
            format!(
                "option name Metric type combo default {} var dtm var dtc var dtz",
                options.metric
            ),
            format!(
                "option name Threads type spin default {default_threads} min 1 max {MAX_THREADS}"
            ),
            format!("option name TableMemory type spin default 0 min 0 max {MAX_TABLE_MEMORY}"),
            format!(
                "option name RuleMoves type spin default {} min 0 max {MAX_RULE_MOVES}",
                options.rule_moves
            ),
            format!(
                "option name PieceFile type string default {}",
                string_default(&options.piece_file.path.display().to_string())
            ),
            format!(
                "option name TablePath type string default {}",
                string_default(
                    &(options.tables.as_ref()).map_or(String::new(), |d| d.display().to_string())
                )
            ),
            format!(
                "option name NullMove type combo default {}{null_moves}",
                options.rules.null_move
            ),
            format!(
                "option name StalemateWins type check default {}",
                options.rules.stalemate_wins
            ),
            format!(
                "option name BareKingLoses type check default {}",
                options.rules.bare_royal_loses
            ),
            Uci::variant_option(options.board),
            format!("option name Board type string default {}", options.board),
            "uciok".to_string(),
        ]
        .into_iter()
        .map(Input::Reply)
        .collect()
    }

    /// The `UCI_Variant` combo: its default the board in force (a `WxH` the names do not
    /// cover is a choice of its own, so that the default is one of the choices).
    fn variant_option(board: BoardSize) -> String {
        let shown = variant_name(board);
        let mut vars: Vec<String> = VARIANTS.iter().map(|(n, ..)| n.to_string()).collect();
        if !vars.contains(&shown) {
            vars.push(shown.clone());
        }
        let vars: String = vars.iter().map(|v| format!(" var {v}")).collect();
        format!("option name UCI_Variant type combo default {shown}{vars}")
    }

    /// `setoption name NAME value VALUE`, with `board` the board in force.
    fn set_option(&mut self, name: &str, value: Option<&str>, board: BoardSize) -> Vec<Input> {
        let name = name.trim();
        let value = value.unwrap_or("").trim();
        let bad = |expected: &str| {
            vec![Input::Reply(one_line(&format!(
                "info string option {name}: expected {expected}, found '{value}'"
            )))]
        };
        let check = |value: &str| match value.to_ascii_lowercase().as_str() {
            "true" => Some(true),
            "false" => Some(false),
            _ => None,
        };
        let cmd = match name.to_ascii_lowercase().as_str() {
            "metric" => match value.parse::<Metric>() {
                Ok(m) => Command::Metric(m),
                Err(_) => return bad("dtm, dtc or dtz"),
            },
            "threads" => match value.parse::<usize>() {
                Ok(n) if (1..=MAX_THREADS).contains(&n) => Command::Threads(n),
                _ => return bad(&format!("a number of threads from 1 to {MAX_THREADS}")),
            },
            "rulemoves" => match parse_rule_moves(value) {
                Some(n) => Command::RuleMoves(n),
                None => {
                    return bad(&format!(
                        "a whole number of moves from 0 (no rule) to {MAX_RULE_MOVES}"
                    ))
                }
            },
            "tablememory" => match value.parse::<u64>() {
                Ok(mb) if mb <= MAX_TABLE_MEMORY => Command::TableMemory(mb),
                _ => {
                    return bad(&format!(
                        "megabytes from 0 (the start-up budget) to {MAX_TABLE_MEMORY}"
                    ))
                }
            },
            "uci_variant" => match variant_board(value) {
                Some(b) if b == board => return vec![],
                Some(b) => Command::Board(b),
                None => {
                    return bad(
                        "chess, normal, fairy or berolina (8x8), capablanca or gothic (10x8), \
                         or a board WxH such as 12x12",
                    )
                }
            },
            "board" => match value.parse::<BoardSize>() {
                Ok(b) if b == board => return vec![],
                Ok(b) => Command::Board(b),
                Err(_) => return bad("files x ranks, each 3 to 16, such as 10x8"),
            },
            "endgame" => Command::Endgame(value.to_string()),
            "promotion" => match promotion_value(value) {
                Ok(letters) => Command::Promotion(letters),
                Err(e) => {
                    return vec![Input::Reply(one_line(&format!(
                        "info string option {name}: {e}"
                    )))]
                }
            },
            "piecefile" => Command::PieceFile(value.into()),
            "tablepath" => match value {
                "" | "<empty>" => Command::TableDir(None),
                dir => Command::TableDir(Some(dir.into())),
            },
            "nullmove" => match value.parse::<NullMove>() {
                Ok(n) => Command::NullMove(n),
                Err(_) => return bad("none, black, white or both"),
            },
            "stalematewins" => match check(value) {
                Some(on) => Command::StalemateWins(on),
                None => return bad("true or false"),
            },
            "barekingloses" => match check(value) {
                Some(on) => Command::BareRoyalLoses(on),
                None => return bad("true or false"),
            },
            _ => {
                return vec![Input::Reply(one_line(&format!(
                    "info string unknown option '{name}'"
                )))]
            }
        };
        vec![Input::Engine(cmd)]
    }

    /// `position startpos|fen FEN [moves M …]`: play no side, set up, play the moves. Its
    /// words are read in any case, as the other commands are. A line that cannot be read
    /// leaves a position that cannot be played (the next `go` answers `bestmove 0000`).
    fn position(&self, line: &str, board: BoardSize) -> Vec<Input> {
        let words: Vec<&str> = line.split_whitespace().collect();
        let moves_at = words
            .iter()
            .position(|w| w.eq_ignore_ascii_case("moves"))
            .unwrap_or(words.len());
        let keyword = words.get(1).map(|w| w.to_ascii_lowercase());
        let setup = match keyword.as_deref() {
            Some("startpos") if moves_at == 2 => Ok(standard_start(board)),
            Some("fen") if moves_at > 2 => Setup::from_fen(&words[2..moves_at].join(" "), board)
                .map_err(|e| match e {
                    FenError::RankCount { .. } | FenError::RankFiles { .. } => {
                        Unplayable::OtherBoard { error: e, board }
                    }
                    e => Unplayable::BadFen(e),
                }),
            _ => Err(Unplayable::BadPositionLine(line.to_string())),
        };
        let moves: Vec<String> = words
            .iter()
            .skip(moves_at + 1)
            .map(|m| m.to_string())
            .collect();
        vec![
            Input::Engine(Command::Force),
            Input::Engine(match setup {
                Ok(setup) => Command::SetGame(Box::new(setup), moves),
                Err(reason) => Command::SetUnplayable(reason),
            }),
        ]
    }

    /// The `info` line of a thinking event.
    fn info(t: &Thinking) -> String {
        let score = match (t.rule_score(), t.value, t.metric) {
            (Some(cp), ..) => format!("cp {cp}"),
            (None, Value::Draw, _) => "cp 0".to_string(),
            (None, Value::Win(n), Metric::Dtm) => format!("mate {n}"),
            (None, Value::Loss(n), Metric::Dtm) => format!("mate -{n}"),
            (None, Value::Win(n), Metric::Dtc) => format!("cp {}", 10_000 - i64::from(n)),
            (None, Value::Loss(n), Metric::Dtc) => format!("cp {}", -(10_000 - i64::from(n))),
            (None, v, Metric::Dtz(rule)) => format!("cp {}", rule.centipawns(v)),
        };
        let pv: Vec<String> = t.pv.iter().map(|m| m.text()).collect();
        let mut line = format!(
            "info depth {} score {score} time {} nodes {}",
            t.pv.len().max(1),
            t.centis * 10,
            t.nodes
        );
        if !pv.is_empty() {
            line.push_str(" pv ");
            line.push_str(&pv.join(" "));
        }
        line
    }

    /// The `bestmove` line answering the oldest `go`: written now, or held until `stop`.
    fn best(&self, text: String) -> Option<String> {
        let until_stop = self.pending.borrow_mut().pop_front().unwrap_or(false);
        if until_stop {
            *self.held.borrow_mut() = Some(text);
            None
        } else {
            Some(text)
        }
    }

    /// `go`: the engine moves; with `until_stop` (infinite, ponder) its answer waits for
    /// `stop`.
    fn go(&self, until_stop: bool) -> Vec<Input> {
        // A `go` before the last one's held answer was released: release it now.
        let mut out = self.stop();
        self.pending.borrow_mut().push_back(until_stop);
        out.push(Input::Engine(Command::Go));
        out
    }

    /// `stop` (or `ponderhit`): the held `bestmove`, if any, goes out now; a `go` still
    /// waiting is answered as soon as it can be.
    fn stop(&self) -> Vec<Input> {
        for until_stop in self.pending.borrow_mut().iter_mut() {
            *until_stop = false;
        }
        self.held
            .borrow_mut()
            .take()
            .map(Input::Reply)
            .into_iter()
            .collect()
    }
}

/// The GUI's commands that vampirc-uci parses here (`position` is parsed by us). A line
/// starting with any other word never reaches the crate: the engine's own messages sent back
/// (`info depth 300`, `bestmove …`, `option …`, which the crate parses too, panicking on some
/// numbers) and unknown words are ignored, as UCI asks.
const CRATE_COMMANDS: [&str; 10] = [
    "uci",
    "debug",
    "isready",
    "setoption",
    "register",
    "ucinewgame",
    "stop",
    "ponderhit",
    "quit",
    "go",
];

/// The words of `go` whose number vampirc-uci reads into a byte, panicking above 255.
const BYTE_LIMITS: [&str; 3] = ["depth", "mate", "movestogo"];

/// A `go` line with every number that vampirc-uci would read into a byte made at most 255:
/// the digits after one of [`BYTE_LIMITS`] (any case) and spaces or tabs, wherever its grammar
/// finds that word, even glued to the word before (`go winc 5movestogo 300`). The engine
/// ignores these limits.
fn clamp_byte_limits(line: &str) -> String {
    let lower = line.to_ascii_lowercase().into_bytes();
    let mut out = String::with_capacity(line.len());
    // `line[..copied]` is in `out`; every index below is at an ASCII byte of `line`.
    let mut copied = 0;
    let mut at = 0;
    while at < lower.len() {
        let Some(word) = BYTE_LIMITS
            .iter()
            .find(|w| lower[at..].starts_with(w.as_bytes()))
        else {
            at += 1;
            continue;
        };
        at += word.len();
        let spaces = lower[at..]
            .iter()
            .take_while(|&&b| b == b' ' || b == b'\t')
            .count();
        let digits = lower[at + spaces..]
            .iter()
            .take_while(|b| b.is_ascii_digit())
            .count();
        let start = at + spaces;
        at = start + digits;
        // The grammar reads at most three digits.
        let read = &line[start..start + digits.min(3)];
        if spaces > 0 && read.parse::<u16>().is_ok_and(|n| n > 255) {
            out.push_str(&line[copied..start]);
            out.push_str("255");
            copied = at;
        }
    }
    out.push_str(&line[copied..]);
    out
}

impl Protocol for Uci {
    fn read(&mut self, line: &str, options: &Options) -> Vec<Input> {
        // Trimmed: vampirc-uci also panics on a `go` that ends in a space.
        let line = line.trim();
        let word = line.split_whitespace().next().unwrap_or("");
        if word.eq_ignore_ascii_case("position") {
            return self.position(line, options.board);
        }
        if !CRATE_COMMANDS.iter().any(|c| word.eq_ignore_ascii_case(c)) {
            return Vec::new();
        }
        let is_go = word.eq_ignore_ascii_case("go");
        let message = match is_go {
            true => parse_one(&clamp_byte_limits(line)),
            false => parse_one(line),
        };
        match message {
            UciMessage::Uci => self.identify(options),
            UciMessage::IsReady => {
                vec![Input::Engine(Command::SyncAfterBuild(
                    "readyok".to_string(),
                ))]
            }
            UciMessage::SetOption { name, value } => {
                self.set_option(&name, value.as_deref(), options.board)
            }
            UciMessage::UciNewGame => vec![Input::Engine(Command::Force)],
            UciMessage::Go { time_control, .. } => self.go(matches!(
                time_control,
                Some(UciTimeControl::Infinite | UciTimeControl::Ponder)
            )),
            // A `go` with words the crate does not know (`go depth -1`, `go fast`): the
            // limits are ignored anyway.
            UciMessage::Unknown(..) if is_go => self.go(line
                .split_whitespace()
                .any(|w| w == "infinite" || w == "ponder")),
            UciMessage::Stop | UciMessage::PonderHit => self.stop(),
            UciMessage::Quit => vec![Input::Quit],
            // debug, register: nothing to do. Unknown lines are ignored, as UCI asks.
            _ => Vec::new(),
        }
    }

    fn render(&self, event: &Event) -> Vec<String> {
        self.lines(event).iter().map(|l| one_line(l)).collect()
    }

    fn progress(&self, event: &BuildEvent) -> Option<String> {
        Some(format!("info string {event}"))
    }
}

impl Uci {
    /// The lines of an event, before [`one_line`] makes each fit one line.
    fn lines(&self, event: &Event) -> Vec<String> {
        match event {
            Event::Synced(_) => vec!["readyok".to_string()],
            Event::Thinking(t) => vec![Uci::info(t)],
            Event::Move(m) => self
                .best(format!("bestmove {}", m.text()))
                .into_iter()
                .collect(),
            Event::NoMove => self.best("bestmove 0000".to_string()).into_iter().collect(),
            // UCI has no resignation: `bestmove 0000` (NoMove) follows.
            Event::Resign { .. } => vec![],
            Event::GameEnd(end) => vec![format!("info string game over: {end}")],
            Event::NotPlayable(reason) => {
                vec![format!("info string cannot play this position: {reason}")]
            }
            Event::IllegalMove { text, reason } => {
                vec![format!("info string illegal move {text}: {reason}")]
            }
            Event::Rejected { kind, detail } => vec![format!("info string {kind}: {detail}")],
            Event::TableReady { material, took } => {
                vec![format!(
                    "info string {material} ready in {:.2} s",
                    took.as_secs_f64()
                )]
            }
            Event::TableNotice(text) => vec![format!("info string {text}")],
            Event::BuildFailed { material, reason } => {
                vec![format!("info string cannot build {material}: {reason}")]
            }
            Event::Note(text) => vec![format!("info string {text}")],
            _ => Vec::new(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::egt::rules::Rules;
    use crate::settings::PieceFile;

    fn uci() -> Uci {
        Uci::default()
    }

    /// The options of a KQ.KR engine with 2 threads.
    fn options() -> Options {
        Options {
            promotion: None,
            tables: None,
            endgame: "KQ.KR".to_string(),
            metric: Metric::Dtm,
            rule_moves: 50,
            threads: 2,
            piece_file: PieceFile {
                path: "piecedef.ini".into(),
                named: false,
            },
            rules: Rules::default(),
            board: BoardSize::STANDARD,
        }
    }

    fn replies(inputs: &[Input]) -> Vec<String> {
        inputs
            .iter()
            .filter_map(|i| match i {
                Input::Reply(s) => Some(s.clone()),
                _ => None,
            })
            .collect()
    }

    #[test]
    fn identification_lists_the_options() {
        let mut u = uci();
        let options = Options {
            promotion: None,
            tables: None,
            endgame: "KR.K".to_string(),
            metric: Metric::Dtc,
            rule_moves: 50,
            threads: 0,
            piece_file: PieceFile {
                path: "p.ini".into(),
                named: true,
            },
            rules: Rules {
                null_move: NullMove::Black,
                stalemate_wins: true,
                bare_royal_loses: false,
            },
            board: BoardSize::STANDARD,
        };
        let lines = replies(&u.read("uci", &options));
        assert_eq!(lines.last().map(String::as_str), Some("uciok"));
        for want in [
            "option name Endgame type string default KR.K",
            "option name Metric type combo default dtc var dtm var dtc var dtz",
            "option name PieceFile type string default p.ini",
            "option name TablePath type string default <empty>",
            "option name TableMemory type spin default 0 min 0 max 16000000",
            "option name RuleMoves type spin default 50 min 0 max 10000",
            "option name NullMove type combo default black var none var black var white var both",
            "option name StalemateWins type check default true",
            "option name BareKingLoses type check default false",
            "option name Promotion type string default QRBN",
        ] {
            assert!(lines.iter().any(|l| l == want), "{want}: {lines:?}");
        }
    }

    #[test]
    fn the_promotion_option_shows_the_letters_in_force() {
        let pieces = crate::piece::parse::parse_piece_defs("K: K\nQ: Q\nN: N\nA: BN", "p.ini")
            .expect("pieces");
        let mut u = Uci::new(pieces);
        let mut o = options();
        o.board = BoardSize::new(10, 8).unwrap();
        let lines = replies(&u.read("uci", &o));
        assert!(lines.contains(&"option name Promotion type string default QNA".to_string()));
        o.promotion = Some("NQ".into());
        let lines = replies(&u.read("uci", &o));
        assert!(lines.contains(&"option name Promotion type string default NQ".to_string()));
        for (line, want) in [
            ("setoption name Promotion value qn", Some("QN".to_string())),
            ("setoption name Promotion value <empty>", None),
            ("setoption name Promotion value default", None),
        ] {
            assert_eq!(
                u.read(line, &o),
                vec![Input::Engine(Command::Promotion(want))],
                "{line}"
            );
        }
        assert_eq!(
            replies(&u.read("setoption name Promotion value QPN", &o)),
            vec!["info string option Promotion: 'P' is the pawn: a pawn promotes to another piece"]
        );
    }

    #[test]
    fn options_become_commands() {
        let mut u = uci();
        for (line, want) in [
            (
                "setoption name NullMove value both",
                Command::NullMove(NullMove::Both),
            ),
            (
                "setoption name StalemateWins value true",
                Command::StalemateWins(true),
            ),
            ("setoption name RuleMoves value 75", Command::RuleMoves(75)),
            (
                "setoption name BareKingLoses value false",
                Command::BareRoyalLoses(false),
            ),
            (
                "setoption name Endgame value KR.K",
                Command::Endgame("KR.K".into()),
            ),
            (
                "setoption name Metric value dtc",
                Command::Metric(Metric::Dtc),
            ),
            ("setoption name Threads value 3", Command::Threads(3)),
            (
                "setoption name TableMemory value 300",
                Command::TableMemory(300),
            ),
            (
                "setoption name PieceFile value x.ini",
                Command::PieceFile("x.ini".into()),
            ),
            (
                "setoption name TablePath value /var/tables/fairy egt",
                Command::TableDir(Some("/var/tables/fairy egt".into())),
            ),
            (
                "setoption name TablePath value <empty>",
                Command::TableDir(None),
            ),
            ("setoption name TablePath value", Command::TableDir(None)),
        ] {
            assert_eq!(
                u.read(line, &options()),
                vec![Input::Engine(want)],
                "{line}"
            );
        }
        let bad = replies(&u.read("setoption name StalemateWins value maybe", &options()));
        assert!(bad[0].starts_with("info string option StalemateWins: expected true"));
        let bad = replies(&u.read("setoption name TableMemory value 16000001", &options()));
        assert_eq!(
            bad,
            vec![
                "info string option TableMemory: expected megabytes from 0 (the start-up budget) \
                 to 16000000, found '16000001'"
                    .to_string()
            ]
        );
        let unknown = replies(&u.read("setoption name Hash value 16", &options()));
        assert_eq!(
            unknown,
            vec!["info string unknown option 'Hash'".to_string()]
        );
        // Echoed input never splits a line (found by the fuzz test).
        let unknown = replies(&u.read("setoption name H\u{0}a\u{1b}sh", &options()));
        assert_eq!(
            unknown,
            vec!["info string unknown option 'H?a?sh'".to_string()]
        );
        let bad = replies(&u.read("setoption name Metric value d\u{7f}tm", &options()));
        assert_eq!(
            bad,
            vec!["info string option Metric: expected dtm, dtc or dtz, found 'd?tm'".to_string()]
        );
    }

    fn board(text: &str) -> BoardSize {
        text.parse().unwrap()
    }

    #[test]
    fn the_board_in_force_is_shown_as_variant_and_board() {
        let mut u = uci();
        for (size, variant, extra) in [
            ("8x8", "chess", ""),
            ("10x8", "capablanca", ""),
            ("12x12", "12x12", " var 12x12"),
        ] {
            let options = Options {
                promotion: None,
                tables: None,
                board: board(size),
                ..options()
            };
            let lines = replies(&u.read("uci", &options));
            for want in [
                format!(
                    "option name UCI_Variant type combo default {variant} var chess var normal \
                     var fairy var berolina var capablanca var gothic{extra}"
                ),
                format!("option name Board type string default {size}"),
            ] {
                assert!(lines.contains(&want), "{want}: {lines:?}");
            }
            assert_eq!(lines.last().map(String::as_str), Some("uciok"));
        }
    }

    #[test]
    fn variant_and_board_options_choose_the_board() {
        let mut u = uci();
        for (line, want) in [
            ("setoption name UCI_Variant value capablanca", "10x8"),
            ("setoption name UCI_Variant value Gothic", "10x8"),
            ("setoption name UCI_Variant value 12x12", "12x12"),
            ("setoption name Board value 10x8", "10x8"),
            ("setoption name Board value 16x3", "16x3"),
            ("setoption name board value 12X12", "12x12"),
        ] {
            assert_eq!(
                u.read(line, &options()),
                vec![Input::Engine(Command::Board(board(want)))],
                "{line}"
            );
        }
        // The board in force already: nothing to do (python-chess sends `chess` often).
        for line in [
            "setoption name UCI_Variant value chess",
            "setoption name UCI_Variant value fairy",
            "setoption name UCI_Variant value normal",
            "setoption name Board value 8x8",
        ] {
            assert_eq!(u.read(line, &options()), vec![], "{line}");
        }
        let on_10x8 = Options {
            promotion: None,
            tables: None,
            board: board("10x8"),
            ..options()
        };
        assert_eq!(
            u.read("setoption name UCI_Variant value chess", &on_10x8),
            vec![Input::Engine(Command::Board(BoardSize::STANDARD))]
        );
        assert_eq!(
            u.read("setoption name UCI_Variant value capablanca", &on_10x8),
            vec![]
        );
        // A bad value says what was expected and changes nothing.
        assert_eq!(
            replies(&u.read("setoption name UCI_Variant value shogi", &options())),
            vec![
                "info string option UCI_Variant: expected chess, normal, fairy or berolina \
                 (8x8), capablanca or gothic (10x8), or a board WxH such as 12x12, found 'shogi'"
                    .to_string()
            ]
        );
        for value in ["2x8", "17x17", "x", ""] {
            assert_eq!(
                replies(&u.read(&format!("setoption name Board value {value}"), &options())),
                vec![format!(
                    "info string option Board: expected files x ranks, each 3 to 16, such as \
                     10x8, found '{value}'"
                )],
                "{value}"
            );
        }
    }

    #[test]
    fn positions_are_read_on_the_board_in_force() {
        let u = uci();
        let v = u.position(
            "position fen 9k/10/10/10/10/10/10/K3C4r w - - 0 1",
            board("10x8"),
        );
        let [_, Input::Engine(Command::SetGame(setup, _))] = &v[..] else {
            panic!("{v:?}")
        };
        assert_eq!(setup.board[4], Some((crate::board::Color::White, 'C')));
        assert_eq!(setup.board[79], Some((crate::board::Color::Black, 'K')));
        let v = u.position(
            "position fen 11k/12/R11/12/12/12/12/12/12/12/12/11K w - - 0 1 moves a10a1",
            board("12x12"),
        );
        let [_, Input::Engine(Command::SetGame(_, moves))] = &v[..] else {
            panic!("{v:?}")
        };
        assert_eq!(moves, &["a10a1".to_string()]);
        // An 8×8 FEN on 10×8: the reason names the board in force and how to change it.
        let v = u.position("position fen 7k/8/8/8/8/8/8/K6R w - - 0 1", board("10x8"));
        let [_, Input::Engine(Command::SetUnplayable(reason))] = &v[..] else {
            panic!("{v:?}")
        };
        assert_eq!(
            u.render(&Event::NotPlayable(reason.clone())),
            vec![
                "info string cannot play this position: position: bad FEN: FEN rank 8 has 8 \
                 files, expected 10: the board in force is 10x8 (setoption name Board value \
                 WxH, or name UCI_Variant, chooses another)"
                    .to_string()
            ]
        );
        let v = u.position("position fen 7k/8/8/8/8/8/8/K6R w - - 0 1", board("8x10"));
        let [_, Input::Engine(Command::SetUnplayable(reason))] = &v[..] else {
            panic!("{v:?}")
        };
        assert!(
            matches!(reason, Unplayable::OtherBoard { .. }),
            "{reason:?}"
        );
    }

    #[test]
    fn positions_with_fairy_letters_and_moves() {
        let u = uci();
        let v = u.position(
            "position fen 8/8/8/8/2r5/8/2k5/A6Q w - - 0 1 moves a1b3 c4c3",
            BoardSize::STANDARD,
        );
        let [Input::Engine(Command::Force), Input::Engine(Command::SetGame(setup, moves))] = &v[..]
        else {
            panic!("{v:?}")
        };
        assert_eq!(setup.board[0], Some((crate::board::Color::White, 'A')));
        assert_eq!(moves, &["a1b3".to_string(), "c4c3".to_string()]);
        // In any case, as `go` and `isready` are read.
        let mut u = uci();
        assert_eq!(
            u.read(
                "POSITION Fen 8/8/8/8/2r5/8/2k5/A6Q w - - 0 1 MOVES a1b3 c4c3",
                &options()
            ),
            v
        );
        assert_eq!(
            u.read("Position STARTPOS", &options()),
            u.read("position startpos", &options())
        );
        let v = u.position(
            "position fen 8/8/8/8/2r5/8/2k5/K6Z5 w - - 0 1",
            BoardSize::STANDARD,
        );
        assert!(matches!(
            &v[1],
            Input::Engine(Command::SetUnplayable(Unplayable::OtherBoard { .. }))
        ));
        let v = u.position(
            "position fen 8/8/8/8/2r5/8/2k5/K6! w - - 0 1",
            BoardSize::STANDARD,
        );
        assert!(matches!(
            &v[1],
            Input::Engine(Command::SetUnplayable(Unplayable::BadFen(_)))
        ));
        let v = u.position("position nonsense", BoardSize::STANDARD);
        assert!(matches!(&v[1], Input::Engine(Command::SetUnplayable(_))));
        let v = u.position("position \u{1b}[2J", BoardSize::STANDARD);
        let [_, Input::Engine(Command::SetUnplayable(reason))] = &v[..] else {
            panic!("{v:?}")
        };
        assert_eq!(
            u.render(&Event::NotPlayable(reason.clone())),
            vec![
                "info string cannot play this position: position: expected 'position startpos' \
                  or 'position fen FEN', then 'moves …', found 'position ?[2J'"
                    .to_string()
            ]
        );
    }

    #[test]
    fn infinite_search_holds_bestmove_until_stop() {
        let mut u = uci();
        assert_eq!(
            u.read("go infinite", &options()),
            vec![Input::Engine(Command::Go)]
        );
        let mv = crate::board::Move::new(0, 1, BoardSize::STANDARD);
        assert!(u.render(&Event::Move(mv)).is_empty());
        assert_eq!(
            replies(&u.read("stop", &options())),
            vec!["bestmove a1b1".to_string()]
        );
        assert!(u.read("stop", &options()).is_empty());
        u.read("go wtime 1000 btime 1000", &options());
        assert_eq!(
            u.render(&Event::Move(mv)),
            vec!["bestmove a1b1".to_string()]
        );
        assert_eq!(
            u.render(&Event::NotPlayable(Unplayable::Building)),
            vec!["info string cannot play this position: the tables are being built".to_string()]
        );
        assert_eq!(u.render(&Event::NoMove), vec!["bestmove 0000".to_string()]);
        // A stop before the engine answers: the answer goes out at once.
        u.read("go infinite", &options());
        u.read("stop", &options());
        assert_eq!(
            u.render(&Event::Move(mv)),
            vec!["bestmove a1b1".to_string()]
        );
    }

    /// Lines on which vampirc-uci panics when given them as they are (found by the fuzz
    /// test): no panic hook or catch hides a panic any more, so reading them must not panic.
    #[test]
    fn lines_that_trip_the_parser_are_read_without_panicking() {
        let mut u = uci();
        for line in [
            "go depth 300",
            "GO MATE 999",
            "go movestogo 99999",
            "go winc 5movestogo 300",
            "go wtime 10 btime 10 movestogo\t4000 depth 256",
            "go ",
            "go depth 5 \t",
        ] {
            assert_eq!(
                u.read(line, &options()).last(),
                Some(&Input::Engine(Command::Go)),
                "{line}"
            );
        }
        for line in [
            "info depth 300",
            "info seldepth 999 score mate 1",
            "info currline 999 e2e4",
            "bestmove e2e4 ponder e7e5",
            "option name X type spin min 99999999999999999999",
        ] {
            assert_eq!(u.read(line, &options()), vec![], "{line}");
        }
    }

    #[test]
    fn byte_limits_are_clamped_where_the_grammar_reads_them() {
        assert_eq!(clamp_byte_limits("go depth 300"), "go depth 255");
        assert_eq!(
            clamp_byte_limits("go DePtH\t 9999 mate 12"),
            "go DePtH\t 255 mate 12"
        );
        assert_eq!(
            clamp_byte_limits("go winc 5movestogo 256 nodes 999"),
            "go winc 5movestogo 255 nodes 999"
        );
        // Three digits are read: 2555 is read as 255, 0300 as 30.
        assert_eq!(clamp_byte_limits("go depth 2555"), "go depth 2555");
        assert_eq!(clamp_byte_limits("go depth 0300"), "go depth 0300");
        assert_eq!(
            clamp_byte_limits("go depth300 é mate"),
            "go depth300 é mate"
        );
    }

    #[test]
    fn garbage_is_ignored() {
        let mut u = uci();
        for line in [
            "go nodes 999999999999999999999999",
            "setoption",
            "setoption name",
            "position",
            "position fen",
            "position startpos moves",
            "\u{0}\u{7f}ééé",
            "go searchmoves z9z9",
            "isready now please",
        ] {
            let _ = u.read(line, &options());
        }
        assert_eq!(u.read("isreadyfoo", &options()), vec![]);
        assert_eq!(
            u.read("isready now please", &options()),
            vec![Input::Engine(Command::SyncAfterBuild("readyok".into()))]
        );
    }
}
