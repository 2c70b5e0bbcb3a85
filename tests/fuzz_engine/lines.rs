//! The lines fed to the engine: real command words of XBoard and UCI with random and mutated
//! arguments, positions biased toward cheap endgames, legal and illegal moves, option lines,
//! clocks with huge and negative numbers, the engine's own output echoed back, random text.
//! Boards change too (XBoard's `variant` with a size, UCI's `Board` and `UCI_Variant`, valid
//! and not): positions and moves are then made on the engine's new board, with fewer men on
//! the larger ones.

use super::fuzz::{garbage, mutate, number, Rng};
use fairy_egt::board::geometry::Geometry;
use fairy_egt::board::BoardSize;
use fairy_egt::board::{Color, Position, Setup};
use fairy_egt::engine::game::check;
use fairy_egt::protocol::Dialect;
use std::collections::VecDeque;
use std::path::PathBuf;

/// Letters of the shipped piece file (besides K), orthodox ones more often.
const PIECES: &[char] = &[
    'Q', 'R', 'B', 'N', 'Q', 'R', 'B', 'N', 'A', 'C', 'F', 'E', 'W', 'M', 'H', 'I', 'J', 'D', 'X',
    'Z', 'Y', 'O', 'G', 'U', 'T',
];

/// Letters no shipped piece has, and the pawn.
const UNKNOWN: &[char] = &['P', 'V', 'L', 'S'];

/// Four-man endgames: each case draws one or two of them, so that most of its positions
/// reuse tables already built (a four-man build takes 0.03–0.4 s in the test profile).
const FOUR_MEN: &[&str] = &[
    "KQ.KR", "KR.KB", "KR.KN", "KQ.KQ", "KB.KB", "KN.KN", "KBB.K", "KBN.K", "KNN.K", "KFW.K",
    "KA.KR", "KC.KN", "KM.KW", "KE.KF", "KQ.KH", "KRR.K", "KA.KA", "KX.KZ", "KO.KU", "KG.KT",
];

/// Five-man endgames, built only within the run's budget (about 10 s each in the test
/// profile).
const FIVE_MEN: &[&str] = &["KBN.KN", "KRN.KR", "KQ.KNN", "KRR.KR"];

/// Start-up endgames of the cases: small, so that a new engine is ready at once.
pub const STARTUP: &[&str] = &["KQ.K", "KR.K", "KA.K", "KN.K", "KQ.K", "KR.K", "KR.KN"];

/// One line to feed, with what happens to a build it starts.
#[derive(Clone, Debug)]
pub struct Step {
    /// The line, without its line end.
    pub line: String,
    /// A build the line starts stays running while this many more lines are read (0: it is
    /// done before the next line).
    pub defer: usize,
    /// A build the line starts fails (the engine must survive a failed build).
    pub fail: bool,
}

/// A line of a block, chosen when the block is, or when it is fed.
enum Queued {
    Line(String),
    /// A move in the position of the moment.
    Move,
}

/// Generates the lines of one case.
pub struct Lines {
    rng: Rng,
    dialect: Dialect,
    /// The case's four-man endgames.
    four_men: Vec<&'static str>,
    /// Whether five-man positions may be set up.
    five_men: bool,
    /// Piece files for UCI's `PieceFile` option.
    piece_files: Vec<PathBuf>,
    /// Lines of a block already chosen (handshake, edit block, a game).
    queued: VecDeque<Queued>,
}

impl Lines {
    /// The lines of a case in `dialect`, starting with its handshake.
    pub fn new(mut rng: Rng, dialect: Dialect, five_men: bool, piece_files: Vec<PathBuf>) -> Lines {
        let four_men = (0..rng.between(1, 2))
            .map(|_| *rng.pick(FOUR_MEN))
            .collect();
        let queued = match dialect {
            Dialect::Uci => VecDeque::from([Queued::Line("uci".to_string())]),
            Dialect::XBoard if rng.one_in(10) => VecDeque::new(),
            Dialect::XBoard => VecDeque::from([
                Queued::Line("xboard".to_string()),
                Queued::Line("protover 2".to_string()),
            ]),
        };
        Lines {
            rng,
            dialect,
            four_men,
            five_men,
            piece_files,
            queued,
        }
    }

    /// The next line, given the engine's current position (if it can be played).
    pub fn next(&mut self, position: Option<&Position>, geometry: &Geometry) -> Step {
        let line = match self.queued.pop_front() {
            Some(Queued::Line(line)) => line,
            Some(Queued::Move) => self.move_text(position, geometry),
            None => match self.dialect {
                Dialect::XBoard => self.xboard(position, geometry),
                Dialect::Uci => self.uci(geometry),
            },
        };
        let defer = if self.rng.one_in(6) {
            self.rng.between(1, 6)
        } else {
            0
        };
        let fail = self.rng.one_in(150);
        Step { line, defer, fail }
    }

    fn xboard(&mut self, position: Option<&Position>, geometry: &Geometry) -> String {
        if self.rng.one_in(4000) {
            return "quit".to_string();
        }
        let r = &mut self.rng;
        match r.weighted(&[14, 22, 12, 8, 4, 8, 5, 6, 2, 2, 3, 5, 2, 10, 3]) {
            0 => format!("setboard {}", self.fen(geometry)),
            1 => {
                let mv = self.move_text(position, geometry);
                match self.rng.below(20) {
                    0..=11 => mv,
                    12..=18 => format!("usermove {mv}"),
                    _ => "usermove".to_string(),
                }
            }
            2 => r
                .pick(&[
                    "new",
                    "force",
                    "go",
                    "go",
                    "playother",
                    "white",
                    "black",
                    "result 1-0",
                    "result *",
                    "?",
                    "draw",
                    "hint",
                    "bk",
                    "post",
                    "nopost",
                    "computer",
                    "random",
                    "hard",
                    "easy",
                    "name Fuzzy",
                    "rating 2000 1500",
                    "ics -",
                ])
                .to_string(),
            3 => r.pick(&["undo", "remove", "undo", "remove 3"]).to_string(),
            4 => {
                self.edit_block();
                self.next_queued()
            }
            5 => match r.below(8) {
                0 => "ping".to_string(),
                1 => format!("ping {}", garbage(r, 12)),
                2 => format!("ping {} {}", number(r), number(r)),
                _ => format!("ping {}", number(r)),
            },
            6 => r.pick(&["analyze", "exit", ".", ".", "hint"]).to_string(),
            7 => self.clock(),
            8 => self.xboard_option(),
            9 => match r.below(4) {
                0 => format!("memory {}", number(r)),
                1 => format!("cores {}", number(r)),
                2 => format!("egtpath syzygy {}", garbage(r, 10)),
                _ => format!("nps {}", number(r)),
            },
            10 => match r.below(6) {
                0 => "xboard".to_string(),
                1 => format!("protover {}", number(r)),
                2 => format!("accepted {}", garbage(r, 8)),
                3 => "rejected ping".to_string(),
                _ => format!(
                    "variant {}",
                    r.pick(&[
                        "fairy",
                        "normal",
                        "fairy",
                        "capablanca",
                        "gothic",
                        "",
                        "FAIRY",
                        "6x6+0_fairy",
                        "5x5_fairy",
                        "7x5+0_fairy",
                        "10x8+0_fairy",
                        "4x4+0_fairy",
                        "8x8+0_fairy",
                        "3x3_fairy",
                        "17x17+0_fairy",
                        "2x9+0_fairy",
                        "10x8+2_fairy",
                        "6x6+0_xiangqi",
                        "x+0_fairy",
                        "99999999999x8+0_fairy",
                    ])
                ),
            },
            11 => garbage(r, 60),
            12 => r
                .pick(&[
                    "pong 1",
                    "move e2e4",
                    "feature done=1",
                    "Error (unknown command): x",
                    "Illegal move: e2e4",
                    "tellusererror x",
                    "1-0 {White mates}",
                    "offer draw",
                    "0 100005 0 0 a1a2",
                    "# debug",
                ])
                .to_string(),
            13 => {
                let line = self.xboard(position, geometry);
                mutate(&mut self.rng, &line)
            }
            _ => {
                self.game_block(geometry);
                self.next_queued()
            }
        }
    }

    /// The next line of the block just queued.
    fn next_queued(&mut self) -> String {
        match self.queued.pop_front() {
            Some(Queued::Line(line)) => line,
            _ => unreachable!("blocks start with a fixed line"),
        }
    }

    /// A game as a GUI plays it: a position, moves (captures often), perhaps an option
    /// changed mid-game, moves taken back, then the engine asked to move or analyse.
    fn game_block(&mut self, geometry: &Geometry) {
        let mut lines = vec![Queued::Line("force".to_string())];
        lines.push(Queued::Line(format!(
            "setboard {}",
            self.playable_fen(geometry)
        )));
        for _ in 0..self.rng.between(1, 4) {
            lines.push(Queued::Move);
        }
        if self.rng.one_in(2) {
            let change = match self.rng.below(6) {
                0 => "Metric=dtc",
                1 => "Metric=dtm",
                2 => "NullMove=white",
                3 => "StalemateWins=1",
                4 => "BareKingLoses=1",
                _ => "Endgame=KR.K",
            };
            lines.push(Queued::Line(format!("option {change}")));
        }
        for _ in 0..self.rng.between(0, 3) {
            let take_back = *self.rng.pick(&["undo", "remove"]);
            lines.push(Queued::Line(take_back.to_string()));
        }
        let ask = *self.rng.pick(&["go", "analyze", "hint", "bk"]);
        lines.push(Queued::Line(ask.to_string()));
        self.queued.extend(lines);
    }

    fn uci(&mut self, geometry: &Geometry) -> String {
        if self.rng.one_in(4000) {
            return "quit".to_string();
        }
        match self.rng.weighted(&[25, 15, 5, 10, 1, 4, 5, 5, 10]) {
            0 => self.position_line(geometry),
            1 => self.go(),
            2 => self.rng.pick(&["stop", "stop", "ponderhit"]).to_string(),
            3 => self
                .rng
                .pick(&["isready", "isready", " isready ", "ISREADY"])
                .to_string(),
            4 => self.uci_option(),
            5 => self
                .rng
                .pick(&[
                    "ucinewgame",
                    "uci",
                    "debug on",
                    "debug off",
                    "register later",
                    "register name fuzz code 42",
                ])
                .to_string(),
            6 => self.echo(),
            7 => garbage(&mut self.rng, 60),
            _ => {
                let line = self.uci(geometry);
                mutate(&mut self.rng, &line)
            }
        }
    }

    /// A FEN: usually a legal position of a cheap endgame; sometimes too many men, pawns,
    /// unknown letters, a missing royal, odd trailing fields, or a mutated or random one.
    fn fen(&mut self, geometry: &Geometry) -> String {
        let r = &mut self.rng;
        let men: Vec<(Color, char)> = match r.weighted(&[80, 5, 5, 3, 3, 4]) {
            0 => return self.playable_fen(geometry),
            1 => {
                // Too many men (more than 6).
                let mut men = vec![(Color::White, 'K'), (Color::Black, 'K')];
                for _ in 0..r.between(5, 14) {
                    men.push((*r.pick(&Color::BOTH), *r.pick(PIECES)));
                }
                men
            }
            2 => vec![
                (Color::White, 'K'),
                (Color::Black, 'K'),
                (*r.pick(&Color::BOTH), *r.pick(UNKNOWN)),
            ],
            3 => vec![(Color::White, 'K'), (Color::White, *r.pick(PIECES))],
            4 => vec![
                (Color::White, 'K'),
                (Color::White, 'K'),
                (Color::Black, 'K'),
            ],
            _ => {
                let fen = self.playable_fen(geometry);
                return if self.rng.one_in(5) {
                    garbage(&mut self.rng, 50)
                } else {
                    mutate(&mut self.rng, &fen)
                };
            }
        };
        let setup = self.place(&men, geometry.board());
        self.with_fields(&setup)
    }

    /// The FEN of a legal position (when one is found) of 2, 3 or 4 men, or rarely 5.
    fn playable_fen(&mut self, geometry: &Geometry) -> String {
        let board = geometry.board();
        // Off 8×8 the harness fails on purpose any build larger than four men on 6×6 (a
        // board of up to 256 squares would take minutes): four men only up to 36 squares,
        // three up to 100, two beyond.
        let weights = match board.squares() {
            _ if board == BoardSize::STANDARD => [5, 55, 35, 1],
            0..=36 => [5, 55, 35, 0],
            37..=100 => [5, 55, 0, 0],
            _ => [1, 0, 0, 0],
        };
        let spec = match self.rng.weighted(&weights) {
            0 => "K.K".to_string(),
            1 => {
                let x = *self.rng.pick(PIECES);
                if self.rng.one_in(3) {
                    format!("K.K{x}")
                } else {
                    format!("K{x}.K")
                }
            }
            3 if self.five_men => self.rng.pick(FIVE_MEN).to_string(),
            _ => self.rng.pick(&self.four_men).to_string(),
        };
        let (white, black) = spec.split_once('.').expect("specs have a period");
        let men: Vec<(Color, char)> = white
            .chars()
            .map(|c| (Color::White, c))
            .chain(black.chars().map(|c| (Color::Black, c)))
            .collect();
        let mut setup = self.place(&men, board);
        for _ in 0..10 {
            if check(&setup, geometry, ['K', 'K']).is_ok() {
                break;
            }
            setup = self.place(&men, board);
        }
        self.with_fields(&setup)
    }

    /// The men on distinct random squares of `board`, a random side to move.
    fn place(&mut self, men: &[(Color, char)], board: BoardSize) -> Setup {
        let mut setup = Setup::empty(board, *self.rng.pick(&Color::BOTH));
        for &man in men.iter().take(board.squares()) {
            loop {
                let sq = self.rng.below(board.squares());
                if setup.board[sq].is_none() {
                    setup.board[sq] = Some(man);
                    break;
                }
            }
        }
        setup
    }

    /// The FEN of a setup, with the usual trailing fields or odd ones.
    fn with_fields(&mut self, setup: &Setup) -> String {
        let fen = setup.to_fen();
        let r = &mut self.rng;
        match r.below(12) {
            0 => cut_fields(&fen, 2).to_string(),
            1 => format!(
                "{} KQkq e3 {} {}",
                cut_fields(&fen, 2),
                number(r),
                number(r)
            ),
            2 => format!("{} - - 0 1 extra", cut_fields(&fen, 2)),
            3 => cut_fields(&fen, 1).to_string(),
            _ => fen,
        }
    }

    /// A move: legal in the current position most often, else coordinates that may be
    /// illegal, malformed or mutated.
    fn move_text(&mut self, position: Option<&Position>, geometry: &Geometry) -> String {
        let mut legal = position
            .map(|p| p.legal_moves(geometry))
            .unwrap_or_default();
        let r = &mut self.rng;
        // Captures half the time there are some: they change the endgame (and its table).
        if let Some(pos) = position.filter(|_| r.one_in(2)) {
            let captures: Vec<_> = legal
                .iter()
                .copied()
                .filter(|&m| pos.captured(m).is_some())
                .collect();
            if !captures.is_empty() {
                legal = captures;
            }
        }
        let board = geometry.board();
        let square = |r: &mut Rng| {
            let file = (b'a' + r.below(board.files() as usize) as u8) as char;
            format!("{file}{}", r.between(1, board.ranks() as usize))
        };
        match r.below(10) {
            0..=5 if !legal.is_empty() => r.pick(&legal).text(),
            6 => format!("{}{}", square(r), square(r)),
            7 => {
                let text = format!("{}{}", square(r), square(r));
                format!("{text}{}", r.pick(&["q", "n", "Q", "x", "=", "+", "#"]))
            }
            8 => r
                .pick(&[
                    "e2e4", "a7a8q", "Q@e4", "z9z9", "a0a1", "a10a1", "e2e4e5", "h1h1", "0000",
                    "e2-e4", "Ke2", "E2E4", "@@@@", "a1a1a",
                ])
                .to_string(),
            _ => {
                let base = match legal.is_empty() {
                    true => format!("{}{}", square(r), square(r)),
                    false => r.pick(&legal).text(),
                };
                mutate(r, &base)
            }
        }
    }

    /// `edit`, a few edit-mode lines, and (usually) the `.` that ends the block.
    fn edit_block(&mut self) {
        let r = &mut self.rng;
        let mut lines = vec!["edit".to_string()];
        if r.one_in(2) {
            lines.push("#".to_string());
        }
        for _ in 0..r.between(0, 8) {
            let square = format!("{}{}", (b'a' + r.below(8) as u8) as char, r.between(1, 8));
            let line = match r.below(10) {
                0 => "c".to_string(),
                1 => format!("x{square}"),
                2 => format!("{}{square}", r.pick(UNKNOWN)),
                3 => garbage(r, 5),
                4 => format!("ping {}", number(r)),
                5 => format!("{}{square}", r.pick(PIECES).to_ascii_lowercase()),
                _ => format!("{}{square}", r.pick(&['K', 'K', 'Q', 'R', 'A', 'C', 'N'])),
            };
            lines.push(line);
        }
        if !r.one_in(10) {
            lines.push(".".to_string());
        }
        self.queued.extend(lines.into_iter().map(Queued::Line));
    }

    /// `level`, `st`, `sd`, `time`, `otim` with numbers of every size.
    fn clock(&mut self) -> String {
        let r = &mut self.rng;
        match r.below(6) {
            0 => format!("level {} {} {}", number(r), number(r), number(r)),
            1 => format!(
                "level {} {}:{} {}",
                number(r),
                number(r),
                number(r),
                number(r)
            ),
            2 => format!("st {}", number(r)),
            3 => format!("sd {}", number(r)),
            4 => format!("time {}", number(r)),
            _ => format!("otim {} {}", number(r), garbage(r, 4)),
        }
    }

    /// `option NAME=VALUE`: now and then a valid change (each one rebuilds the tables).
    fn xboard_option(&mut self) -> String {
        let r = &mut self.rng;
        let (name, value) = match r.below(8) {
            0 => (
                "Metric",
                r.pick(&["dtm", "dtc", "DTC", "dtx", ""]).to_string(),
            ),
            1 => ("Threads", number(r)),
            2 => ("Endgame", self.endgame()),
            3 => (
                "NullMove",
                self.rng
                    .pick(&["none", "white", "black", "both", "all", ""])
                    .to_string(),
            ),
            4 => (
                "StalemateWins",
                self.rng.pick(&["1", "0", "true", "2"]).to_string(),
            ),
            5 => (
                "BareKingLoses",
                self.rng.pick(&["0", "1", "false", "yes"]).to_string(),
            ),
            6 => ("Hash", number(&mut self.rng)),
            _ => return format!("option {}", garbage(&mut self.rng, 20)),
        };
        format!("option {name}={value}")
    }

    /// `setoption name NAME value VALUE`, with the same options as XBoard's and PieceFile.
    fn uci_option(&mut self) -> String {
        let r = &mut self.rng;
        let (name, value) = match r.below(12) {
            0 => ("Metric", r.pick(&["dtm", "dtc", "dtx"]).to_string()),
            10 => ("Board", board_name(r)),
            11 => (
                "UCI_Variant",
                r.pick(&[
                    "chess",
                    "normal",
                    "fairy",
                    "capablanca",
                    "gothic",
                    "janus",
                    "xiangqi",
                    "",
                ])
                .to_string(),
            ),
            1 => ("Threads", number(r)),
            2 => ("Endgame", self.endgame()),
            3 => {
                let file = r.pick(&self.piece_files).display().to_string();
                ("PieceFile", file)
            }
            4 => (
                "NullMove",
                self.rng
                    .pick(&["none", "white", "black", "both", ""])
                    .to_string(),
            ),
            5 => (
                "StalemateWins",
                self.rng.pick(&["true", "false", "1"]).to_string(),
            ),
            6 => (
                "BareKingLoses",
                self.rng.pick(&["false", "true", "no"]).to_string(),
            ),
            7 => ("Hash", number(&mut self.rng)),
            8 => {
                return self
                    .rng
                    .pick(&["setoption", "setoption name", "setoption name  value x"])
                    .to_string()
            }
            _ => return format!("setoption name {}", garbage(&mut self.rng, 20)),
        };
        if self.rng.one_in(10) {
            format!("setoption name {name}")
        } else {
            format!("setoption name {name} value {value}")
        }
    }

    /// An endgame for the `Endgame` option: small ones, sometimes bad ones.
    fn endgame(&mut self) -> String {
        let r = &mut self.rng;
        match r.below(10) {
            0 => format!("K{}.K{}", r.pick(PIECES), r.pick(PIECES)),
            1 => "KQRBN.K".to_string(),
            2 => format!("K{}vK", r.pick(PIECES)),
            3 => format!("{}K.K", r.pick(PIECES)),
            4 => garbage(r, 8),
            5 => mutate(r, "KQ.KR"),
            _ => format!("K{}.K", r.pick(PIECES)),
        }
    }

    /// `position …`: a FEN or the start position, with legal moves, illegal ones, or none.
    fn position_line(&mut self, geometry: &Geometry) -> String {
        let r = &mut self.rng;
        match r.below(12) {
            0 => return "position startpos".to_string(),
            1 => {
                return format!(
                    "position startpos moves {}",
                    r.pick(&["e2e4", "e2e4 e7e5", "a1a1"])
                )
            }
            2 => {
                return r
                    .pick(&[
                        "position",
                        "position fen",
                        "position fen moves",
                        "position moves e2e4",
                    ])
                    .to_string()
            }
            _ => {}
        }
        let fen = self.fen(geometry);
        let mut line = format!("position fen {fen}");
        let start = Setup::from_fen(&fen, geometry.board())
            .ok()
            .and_then(|s| check(&s, geometry, ['K', 'K']).ok());
        if let Some(mut pos) = start {
            if self.rng.one_in(2) {
                line.push_str(" moves");
                for _ in 0..self.rng.between(1, 6) {
                    let moves = pos.legal_moves(geometry);
                    if moves.is_empty() {
                        break;
                    }
                    let mv = *self.rng.pick(&moves);
                    line.push(' ');
                    line.push_str(&mv.text());
                    pos = pos.play(mv);
                }
                if self.rng.one_in(4) {
                    line.push_str(" h8a1");
                }
            }
        }
        line
    }

    /// `go` with limits of every size, in any order, glued together as vampirc-uci's
    /// grammar allows, or with words it does not know.
    fn go(&mut self) -> String {
        let r = &mut self.rng;
        let mut line = r.pick(&["go", "go", "GO", "Go"]).to_string();
        for _ in 0..r.between(0, 3) {
            let part = match r.below(12) {
                0 => "infinite".to_string(),
                1 => "ponder".to_string(),
                2 => format!("depth {}", number(r)),
                3 => format!("mate {}", number(r)),
                4 => format!("movestogo {}", number(r)),
                5 => format!("nodes {}", number(r)),
                6 => format!("movetime {}", number(r)),
                7 => format!("wtime {} btime {}", number(r), number(r)),
                8 => format!("winc {}movestogo {}", r.below(100), number(r)),
                9 => format!("searchmoves e2e4 {}", garbage(r, 5)),
                10 => format!("DEPTH\t{}", number(r)),
                _ => garbage(r, 8),
            };
            line.push(' ');
            line.push_str(&part);
        }
        line
    }

    /// A line a UCI engine writes, sent back to it (as a confused GUI or a loop might).
    fn echo(&mut self) -> String {
        let r = &mut self.rng;
        match r.below(8) {
            0 => format!("info depth {} seldepth {}", number(r), number(r)),
            1 => format!(
                "info score mate {} cp {} time {}",
                number(r),
                number(r),
                number(r)
            ),
            2 => format!("info currline {} e2e4 nodes {}", number(r), number(r)),
            3 => "bestmove e2e4 ponder e7e5".to_string(),
            4 => format!(
                "option name X type spin default 1 min {} max {}",
                number(r),
                number(r)
            ),
            5 => format!("id name {}", garbage(r, 10)),
            6 => r
                .pick(&[
                    "readyok",
                    "uciok",
                    "copyprotection checking",
                    "registration ok",
                ])
                .to_string(),
            _ => format!("info string {}", garbage(r, 20)),
        }
    }
}

/// A board for UCI's `Board` option: small ones most often (their tables build at once),
/// sometimes 10×8 or the largest, or one that does not exist.
fn board_name(r: &mut Rng) -> String {
    r.pick(&[
        "8x8", "6x6", "6x6", "5x5", "5x5", "7x5", "4x4", "3x3", "10x8", "16x16", "2x2", "17x8",
        "8x", "x", "0x0", "10 x 8", "6X6",
    ])
    .to_string()
}

/// The first `n` space-separated fields of a FEN.
fn cut_fields(fen: &str, n: usize) -> &str {
    match fen.match_indices(' ').nth(n - 1) {
        Some((at, _)) => &fen[..at],
        None => fen,
    }
}
