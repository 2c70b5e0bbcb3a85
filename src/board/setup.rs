//! The unchecked [`Setup`]: a board of (colour, letter) men and a side to move, as read from
//! a FEN (`fen.rs` reads and writes its text) or built in XBoard's edit mode. Checking it
//! into a legal [`Position`](super::Position) is `position.rs`'s.

use super::size::BoardSize;
use super::square::{Color, Square};

/// An unchecked position, e.g. as read from a FEN or built in XBoard's edit mode.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Setup {
    /// The man on each square (colour, letter), indexed by [`Square`].
    pub board: Vec<Option<(Color, char)>>,
    /// The board's size.
    pub size: BoardSize,
    /// The side to move.
    pub side_to_move: Color,
    /// The FEN's en-passant square, if it names one: the square a pawn just passed over
    /// with a double step. Only its text is checked here; whether a double step could have
    /// made it is [`Position::new`](super::Position::new)'s to check.
    pub en_passant: Option<Square>,
    /// The FEN's half-move clock: plies since the last capture or pawn move, which the
    /// 50-move rule counts (0 where the FEN has none).
    pub halfmove: u32,
}

impl Setup {
    /// An empty board of the given size.
    pub fn empty(size: BoardSize, side_to_move: Color) -> Setup {
        Setup {
            board: vec![None; size.squares()],
            size,
            side_to_move,
            en_passant: None,
            halfmove: 0,
        }
    }

    /// The men, by ascending square: (square, colour, letter as stored).
    pub fn men(&self) -> impl Iterator<Item = (Square, Color, char)> + '_ {
        self.board
            .iter()
            .enumerate()
            .filter_map(|(sq, m)| m.map(|(color, letter)| (sq as Square, color, letter)))
    }
}
