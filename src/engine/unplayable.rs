//! Why the engine cannot play a position ([`Unplayable`]): its set-up, a move played to it,
//! the line that should have given it, or the tables it needs. The texts are what the
//! protocols show after their "cannot play this position".

use crate::board::fen::FenError;
use crate::board::move_text::MoveError;
use crate::board::position::PositionError;
use crate::board::BoardSize;
use crate::egt::builder::BuildError;
use crate::egt::material::{Material, MAX_MEN};
use crate::egt::probe::ProbeError;
use thiserror::Error;

/// Why a position cannot be played.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum Unplayable {
    /// The set-up has pawns (this many), and the piece file defines no pawn `P`.
    #[error(
        "the position has pawns ({0}), and the piece file defines no pawn: add the line \
         'P: fmWfceFifmnD' (the orthodox pawn) to it"
    )]
    Pawns(usize),
    /// The set-up has more men (this many) than any table holds.
    #[error("the position has {0} men; fairy-egt's tables hold at most {MAX_MEN}")]
    TooManyMen(usize),
    /// The set-up is not a legal position (unknown letter, missing royal, …).
    #[error(transparent)]
    Illegal(#[from] PositionError),
    /// A move of a UCI `position` line is not legal where it is played.
    #[error("move {number} ({text}) cannot be played: {error}")]
    IllegalMove {
        /// Its number in the line, from 1.
        number: usize,
        /// The move as received.
        text: String,
        /// Why it is not legal.
        error: MoveError,
    },
    /// The FEN of a UCI `position` line does not read.
    #[error("position: bad FEN: {0}")]
    BadFen(FenError),
    /// The FEN of a UCI `position` line has the ranks or files of a board other than the
    /// one in force.
    #[error(
        "position: bad FEN: {error}: the board in force is {board} (setoption name Board value \
         WxH, or name UCI_Variant, chooses another)"
    )]
    OtherBoard {
        /// Why the FEN does not read on this board.
        error: FenError,
        /// The board in force.
        board: BoardSize,
    },
    /// A UCI `position` line that is neither `startpos` nor `fen FEN` (the line as read).
    #[error(
        "position: expected 'position startpos' or 'position fen FEN', then 'moves …', found \
         '{0}'"
    )]
    BadPositionLine(String),
    /// The tables are with the builder.
    #[error("the tables are being built")]
    Building,
    /// The table of the position's endgame could not be built.
    #[error("the table of {0} could not be built: {1}")]
    BuildFailed(Material, BuildError),
    /// The table of the position's endgame is not built (yet).
    #[error("the table of {0} is not built")]
    NotBuilt(Material),
    /// The tables cannot answer for the position.
    #[error(transparent)]
    Probe(#[from] ProbeError),
}
