//! A [`Move`] (from one square to another) and its coordinate text (`d1d8`): writing it,
//! reading it, and why a text is refused ([`MoveError`]). Which moves are legal is
//! `position.rs`'s.

use super::square::{parse_square, square_name, Color, Square};
use std::fmt;
use thiserror::Error;

/// A move: the man on `from` goes to `to`, capturing what stands there.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Move {
    /// The square moved from.
    pub from: Square,
    /// The square moved to.
    pub to: Square,
}

impl Move {
    /// Coordinate notation, e.g. `d1d8`.
    pub fn text(&self) -> String {
        format!("{}{}", square_name(self.from), square_name(self.to))
    }

    /// Reads coordinate notation (`d1d8`, squares in either case, spaces around ignored),
    /// whether or not the move is legal anywhere: [`Position::parse_move`] checks that.
    ///
    /// [`Position::parse_move`]: super::Position::parse_move
    pub fn parse(text: &str) -> Result<Move, MoveError> {
        let t = text.trim();
        let lower = t.to_ascii_lowercase();
        let malformed = || MoveError::Malformed {
            text: t.to_string(),
        };
        if !lower.is_ascii() || lower.len() < 4 || lower.len() > 5 {
            return Err(malformed());
        }
        let (Some(from), Some(to)) = (parse_square(&lower[0..2]), parse_square(&lower[2..4]))
        else {
            return Err(malformed());
        };
        if lower.len() == 5 {
            return Err(if lower.as_bytes()[4].is_ascii_alphabetic() {
                MoveError::Promotion {
                    text: t.to_string(),
                }
            } else {
                malformed()
            });
        }
        Ok(Move { from, to })
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
    #[error("{} has no man on {}", color.name(), square_name(*square))]
    NoOwnMan {
        /// The side to move.
        color: Color,
        /// The from-square.
        square: Square,
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

    #[test]
    fn coordinate_text() {
        let mv = Move::parse(" E2E8 ").unwrap();
        assert_eq!(mv, Move { from: 12, to: 60 });
        assert_eq!(mv.to_string(), "e2e8");
        assert_eq!(Move::parse(&mv.text()), Ok(mv));
        // Well-formed is all it checks: e2e2 is no move anywhere, but it is coordinate text.
        assert_eq!(Move::parse("e2e2"), Ok(Move { from: 12, to: 12 }));

        let text_err = |t: &str| Move::parse(t).unwrap_err().to_string();
        assert_eq!(
            text_err("e2e9"),
            "malformed move 'e2e9': expected coordinate notation such as d1d8"
        );
        assert_eq!(
            text_err("e2é8"),
            "malformed move 'e2é8': expected coordinate notation such as d1d8"
        );
        assert_eq!(
            text_err("e2e8x1"),
            "malformed move 'e2e8x1': expected coordinate notation such as d1d8"
        );
        assert_eq!(
            text_err("e2e71"),
            "malformed move 'e2e71': expected coordinate notation such as d1d8"
        );
        assert_eq!(
            text_err("e2e8q"),
            "move 'e2e8q' has a promotion letter, but there is no promotion here"
        );
    }
}
