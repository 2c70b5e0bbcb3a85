//! A man on the board (side, piece, royal or not, square) and how messages name him:
//! `White's queen on e1`, with XBoard's usual names of the piece letters.

use super::size::BoardSize;
use super::square::{Color, Square};
use crate::piece::PieceId;

/// A man on the board. He carries his piece both ways: the id, which move generation indexes
/// the move tables with, and the letter, which every text about him (messages, FEN) shows,
/// so that text needs no piece set at hand; and his board, for the name of his square. Both come from one set, where the position was
/// checked.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Man {
    /// Its side.
    pub color: Color,
    /// Its piece, in the piece set of the geometry its position was checked with.
    pub piece: PieceId,
    /// Its piece letter, upper case.
    pub letter: char,
    /// Whether it is its side's royal man.
    pub royal: bool,
    /// Where it stands.
    pub square: Square,
    /// The board it stands on, for the square's name.
    pub board: BoardSize,
}

impl Man {
    /// e.g. `White's queen on e1`, `Black's king on e8`, `White's royal knight on b1`.
    pub fn describe(&self) -> String {
        format!("{}'s {}", self.color.name(), self.name_on())
    }

    /// e.g. `queen on e1`, `royal knight on b1` (no colour).
    pub(super) fn name_on(&self) -> String {
        let name = piece_name(self.letter);
        if self.royal && self.letter != 'K' {
            format!("royal {name} on {}", self.board.square_name(self.square))
        } else {
            format!("{name} on {}", self.board.square_name(self.square))
        }
    }
}

/// The usual (XBoard) name of a piece letter, for messages: `K` → `king`, `H` → `nightrider`;
/// a letter without a usual name gives `piece X`.
pub fn piece_name(letter: char) -> String {
    let name = match letter.to_ascii_uppercase() {
        'K' => "king",
        'Q' => "queen",
        'R' => "rook",
        'B' => "bishop",
        'N' => "knight",
        'A' => "archbishop",
        'C' => "chancellor",
        'F' => "ferz",
        'E' => "alfil",
        'W' => "wazir",
        'M' => "commoner",
        'H' => "nightrider",
        'G' => "grasshopper",
        'D' => "dabbaba",
        'P' => "pawn",
        l => return format!("piece {l}"),
    };
    name.to_string()
}
