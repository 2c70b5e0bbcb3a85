//! What the engine is told ([`Command`]) and what it says ([`Event`]), free of protocol text:
//! a protocol turns its lines into commands and renders events as its lines.

use super::unplayable::Unplayable;
use crate::board::{BoardSize, Color, Move, Setup, Square};
use crate::egt::dtz::Class;
use crate::egt::probe::ScoredMove;
use crate::egt::rules::NullMove;
use crate::egt::table::Metric;
use crate::egt::value::Value;
use std::path::PathBuf;

/// A request to the engine. Commands are carried out in the order given; one that needs the
/// tables while a build runs waits, and every later command waits behind it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Command {
    /// A new game from the standard start position; the engine plays Black, force mode ends.
    NewGame,
    /// Set up a position (a new game from it); the side the engine plays is unchanged.
    SetPosition(Box<Setup>),
    /// Set up a position and play these moves (coordinate notation) from it, as UCI's
    /// `position`: if a move is not legal the position cannot be played (and says why).
    SetGame(Box<Setup>, Vec<String>),
    /// The position given could not be read: the board cannot be played until the next one.
    SetUnplayable(Unplayable),
    /// Put `Color` on move in the current setup; the engine plays the other side.
    SetSideToMove(Color),
    /// Start editing a copy of the current setup.
    EditBegin,
    /// Edit: empty the board.
    EditClear,
    /// Edit: put a man on a square.
    EditPlace {
        /// The square.
        square: Square,
        /// The man's side.
        color: Color,
        /// Its letter (any case).
        letter: char,
    },
    /// Edit: empty a square.
    EditEmpty(Square),
    /// Edit: done; the edited setup becomes the position (side to move unchanged).
    EditEnd,
    /// The opponent's (or, in force mode, anyone's) move, in coordinate notation.
    Move(String),
    /// Take back this many moves (1: undo, 2: remove).
    Undo(usize),
    /// Play no side: moves are only recorded.
    Force,
    /// Play the side to move, and move now.
    Go,
    /// Play the side not on move.
    PlayOther,
    /// The game is over: play no side until a new position.
    Result,
    /// Show thinking output for the engine's moves (true) or not.
    Post(bool),
    /// Start (true) or stop (false) analysing: every position reached is valued and shown.
    Analyze(bool),
    /// While analysing: report the current analysis' status.
    AnalysisStatus,
    /// The best move for the side to move.
    Hint,
    /// Every legal move with its value.
    Book,
    /// The opponent offers a draw: accepted when the position is a draw.
    DrawOffer,
    /// XBoard's `ping`: answer with [`Event::Synced`] once every earlier command is complete.
    /// A build running in the background is not a command: it is not waited for (XBoard
    /// shows no thinking output, build progress included, while a `ping` is unanswered).
    Sync(String),
    /// UCI's `isready`: answer with [`Event::Synced`] once every earlier command is complete
    /// and the running build, if any, is over (UCI's "ready after initialising").
    SyncAfterBuild(String),
    /// The game's variant (the pieces the GUI uses).
    Variant(Variant),
    /// Distance metric of the tables: a change rebuilds them.
    Metric(Metric),
    /// The board: a change rebuilds the tables and, if the position is of another board,
    /// sets up the new board's start position.
    Board(BoardSize),
    /// Threads for the following builds (0: one per core).
    Threads(usize),
    /// The memory budget of the table builds, in MB; 0: the start-up budget (`--memory`,
    /// `engine.ini`'s `memory`). A build refused for want of memory may be tried again.
    TableMemory(u64),
    /// The start-up endgame (e.g. `KQ.KR`): a change builds it into new tables; a bad spec is
    /// refused and changes nothing.
    Endgame(String),
    /// Read the piece definitions from this file: a change rebuilds the tables; an unreadable
    /// or malformed file is refused and changes nothing.
    PieceFile(PathBuf),
    /// The table directory (`None`: none): tables are loaded from it and saved to it from now
    /// on. A running build is restarted, so that what the directory holds is loaded.
    TableDir(Option<PathBuf>),
    /// What a pawn may promote to: upper-case letters in order of preference (`None`: the
    /// board's default list). A change rebuilds the tables; letters the pieces do not define
    /// or a royal letter of the endgame are refused and change nothing.
    Promotion(Option<String>),
    /// Who may pass: a change rebuilds the tables.
    NullMove(NullMove),
    /// The moves of the rule of DTZ tables (0: none): a change rebuilds DTZ tables.
    RuleMoves(u16),
    /// Whether a stalemated side has lost: a change rebuilds the tables.
    StalemateWins(bool),
    /// Whether a side left with only its royal (the other having more) has lost: a change
    /// rebuilds the tables.
    BareRoyalLoses(bool),
}

/// The variants the engine knows (XBoard's names).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Variant {
    /// Orthodox chess letters.
    Normal,
    /// XBoard's catch-all 8×8 variant: fairy letters whose moves the engine describes.
    Fairy,
    /// XBoard's 10×8 variants `capablanca` and `gothic`: their Archbishop A and Chancellor C
    /// move as ours, XBoard knows them, and nothing is described.
    Capablanca,
}

/// How a game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GameEnd {
    /// `winner` has checkmated.
    Mate {
        /// The side that mates.
        winner: Color,
    },
    /// The side to move has no legal move and is not in check.
    Stalemate,
    /// Stalemate under the stalemate-wins rule: `winner` stalemated the other side.
    StalemateWin {
        /// The side that stalemated.
        winner: Color,
    },
    /// Under the bare-royal-loses rule, `winner` has left the other side its royal alone.
    Bared {
        /// The side with more than its royal.
        winner: Color,
    },
    /// Only the royals are left, and the tables call it a draw.
    BareRoyals,
    /// The half-move clock has reached the draw rule's plies (`moves` moves: 50 in chess).
    RuleDraw {
        /// The rule's moves.
        moves: u16,
    },
}

impl std::fmt::Display for GameEnd {
    /// The PGN result with its reason, e.g. `1-0 {White mates}`.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        if let GameEnd::RuleDraw { moves } = self {
            return write!(f, "1/2-1/2 {{{moves}-move rule}}");
        }
        f.write_str(match self {
            GameEnd::Mate {
                winner: Color::White,
            } => "1-0 {White mates}",
            GameEnd::Mate {
                winner: Color::Black,
            } => "0-1 {Black mates}",
            GameEnd::Stalemate => "1/2-1/2 {Stalemate}",
            GameEnd::StalemateWin {
                winner: Color::White,
            } => "1-0 {White wins by stalemate}",
            GameEnd::StalemateWin {
                winner: Color::Black,
            } => "0-1 {Black wins by stalemate}",
            GameEnd::Bared {
                winner: Color::White,
            } => "1-0 {White bares the Black royal}",
            GameEnd::Bared {
                winner: Color::Black,
            } => "0-1 {Black bares the White royal}",
            GameEnd::BareRoyals => "1/2-1/2 {Insufficient material}",
            GameEnd::RuleDraw { .. } => unreachable!("written above"),
        })
    }
}

/// The engine's analysis of a position: its value and the perfect line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Thinking {
    /// Value for the side to move.
    pub value: Value,
    /// The metric of the distance in `value`.
    pub metric: Metric,
    /// The position's class under the 50-move rule from the game's half-move clock, where
    /// the engine plays within the rule: a cursed win or blessed loss is scored as a draw
    /// that leans, ±1 centipawn ([`Thinking::rule_score`]).
    pub rule: Option<Class>,
    /// The perfect line (for a draw, only the first drawing move; empty where the game is
    /// over).
    pub pv: Vec<Move>,
    /// How the game stands over in the position, if it does (the line is then empty).
    pub end: Option<GameEnd>,
    /// Table probes made.
    pub nodes: u64,
    /// Time taken, in centiseconds.
    pub centis: u64,
}

impl Thinking {
    /// The score in centipawns where the rule makes the game a draw that the tables call
    /// won or lost: +1 for a cursed win, −1 for a blessed loss (`None`: the metric's score
    /// stands). A GUI shows +0.01 or −0.01: a draw, and which side it leans to.
    pub fn rule_score(&self) -> Option<i64> {
        match self.rule {
            Some(Class::CursedWin) => Some(1),
            Some(Class::BlessedLoss) => Some(-1),
            _ => None,
        }
    }
}

/// Something the engine says.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Event {
    /// Thinking output before a move, or the analysis of the current position.
    Thinking(Thinking),
    /// The engine's move (already played on its board).
    Move(Move),
    /// The game is over, claimed after the engine's move or on its turn.
    GameEnd(GameEnd),
    /// Asked to move, the engine made no move (the game is over or the position cannot be
    /// played; said after the reason).
    NoMove,
    /// Asked to move in a position it cannot play (after [`Event::NotPlayable`] said why), the
    /// engine gives the game up for `side`, the side it was to play: a GUI whose clock runs
    /// for it would otherwise wait for a move forever. It then plays no side.
    Resign {
        /// The side the engine was to move for.
        side: Color,
        /// Why it cannot play.
        reason: Unplayable,
    },
    /// A move that is not legal here (nothing changed).
    IllegalMove {
        /// The move as received.
        text: String,
        /// Why it is not legal.
        reason: String,
    },
    /// The position cannot be played (pawns, too many men, unknown letter, no royal, …).
    NotPlayable(Unplayable),
    /// A command that is refused, or not understood (nothing changed).
    Rejected {
        /// What kind of refusal, e.g. `unknown command`.
        kind: String,
        /// The command or the detail.
        detail: String,
    },
    /// Every command before the matching [`Command::Sync`] or [`Command::SyncAfterBuild`] is
    /// complete.
    Synced(String),
    /// The best move for the side to move.
    Hint(Move),
    /// Every legal move with its value, best first.
    Book(Vec<ScoredMove>),
    /// The draw offer is accepted.
    AcceptDraw,
    /// A requested table build finished.
    TableReady {
        /// The endgame built.
        material: String,
        /// Time the build took.
        took: std::time::Duration,
    },
    /// The table directory did not do as asked (a saved table refused and built again, a
    /// table not saved); the engine went on.
    TableNotice(String),
    /// A requested table build failed.
    BuildFailed {
        /// The endgame.
        material: String,
        /// Why.
        reason: String,
    },
    /// The variant was set, on this board.
    Variant(Variant, BoardSize),
    /// Status of the analysis in progress.
    AnalysisStatus {
        /// Time spent, in centiseconds.
        centis: u64,
        /// Probes made.
        nodes: u64,
        /// Plies of the line.
        plies: usize,
        /// Legal moves in the position.
        moves: usize,
    },
    /// A remark for logs and debug output.
    Note(String),
}
