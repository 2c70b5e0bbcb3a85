//! A [`Move`] (from one square to another) and its coordinate text (`d1d8`): writing it,
//! reading it, and why a text is refused ([`MoveError`]). Which moves are legal is
//! `position.rs`'s.

use super::size::BoardSize;
use super::square::{Color, Square};
use std::fmt;
use thiserror::Error;

/// A move: the man on `from` goes to `to`, capturing what stands there. It carries its
/// board, whose width its squares' names depend on.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Move {
    /// The square moved from.
    pub from: Square,
    /// The square moved to.
    pub to: Square,
    /// The board.
    pub board: BoardSize,
}

impl Move {
    /// Coordinate notation, e.g. `d1d8`, `j1j8`, `a10a1`.
    pub fn text(&self) -> String {
        format!(
            "{}{}",
            self.board.square_name(self.from),
            self.board.square_name(self.to)
        )
    }

    /// Reads coordinate notation on `board` (`d1d8`, `a10a1`, squares in either case, spaces
    /// around ignored), whether or not the move is legal anywhere: [`Position::parse_move`]
    /// checks that.
    ///
    /// [`Position::parse_move`]: super::Position::parse_move
    pub fn parse(text: &str, board: BoardSize) -> Result<Move, MoveError> {
        let t = text.trim();
        let lower = t.to_ascii_lowercase();
        let malformed = || MoveError::Malformed {
            text: t.to_string(),
        };
        if !lower.is_ascii() {
            return Err(malformed());
        }
        let Some((from, rest)) = board.parse_square_prefix(&lower) else {
            return Err(malformed());
        };
        let Some((to, rest)) = board.parse_square_prefix(rest) else {
            return Err(malformed());
        };
        match rest.as_bytes() {
            [] => Ok(Move { from, to, board }),
            [c] if c.is_ascii_alphabetic() => Err(MoveError::Promotion {
                text: t.to_string(),
            }),
            _ => Err(malformed()),
        }
    }
}

impl fmt::Display for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.text())
    }
}

/// Why a move text was refused.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum MoveError {
    /// Not coordinate notation.
    #[error("malformed move '{text}': expected coordinate notation such as d1d8")]
    Malformed {
        /// The text (trimmed).
        text: String,
    },
    /// A fifth, promotion-like letter.
    #[error("move '{text}' has a promotion letter, but there is no promotion here")]
    Promotion {
        /// The text (trimmed).
        text: String,
    },
    /// The from-square does not hold a man of the side to move.
    #[error("{} has no man on {}", color.name(), board.square_name(*square))]
    NoOwnMan {
        /// The side to move.
        color: Color,
        /// The from-square.
        square: Square,
        /// The board.
        board: BoardSize,
    },
    /// Well-formed, own man, but not a legal move.
    #[error("illegal move {mv}: {reason}")]
    Illegal {
        /// The move.
        mv: Move,
        /// Why, e.g. `the rook on c4 does not move to c8`.
        reason: String,
    },
}

#[cfg(test)]
mod tests {
    use super::*;

    const B8: BoardSize = BoardSize::STANDARD;

    #[test]
    fn coordinate_text() {
        let mv = Move::parse(" E2E8 ", B8).unwrap();
        assert_eq!(
            mv,
            Move {
                from: 12,
                to: 60,
                board: B8
            }
        );
        assert_eq!(mv.to_string(), "e2e8");
        assert_eq!(Move::parse(&mv.text(), B8), Ok(mv));
        // Well-formed is all it checks: e2e2 is no move anywhere, but it is coordinate text.
        assert_eq!(
            Move::parse("e2e2", B8),
            Ok(Move {
                from: 12,
                to: 12,
                board: B8
            })
        );

        let text_err = |t: &str| Move::parse(t, B8).unwrap_err().to_string();
        for bad in ["e2e9", "e2é8", "e2e8x1", "e2e71", "j1j8", "a10a1"] {
            assert_eq!(
                text_err(bad),
                format!("malformed move '{bad}': expected coordinate notation such as d1d8")
            );
        }
        assert_eq!(
            text_err("e2e8q"),
            "move 'e2e8q' has a promotion letter, but there is no promotion here"
        );
    }

    #[test]
    fn wide_and_tall_boards_name_their_squares() {
        let capa = BoardSize::new(10, 8).unwrap();
        let mv = Move::parse("j1j8", capa).unwrap();
        assert_eq!((mv.from, mv.to, mv.text()), (9, 79, "j1j8".to_string()));
        let big = BoardSize::new(12, 12).unwrap();
        let mv = Move::parse("a10l12", big).unwrap();
        assert_eq!(
            (mv.from, mv.to, mv.text()),
            (108, 143, "a10l12".to_string())
        );
        assert!(Move::parse("a13a1", big).is_err());
        assert!(Move::parse("m1a1", big).is_err());
    }
}
