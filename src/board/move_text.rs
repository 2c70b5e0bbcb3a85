//! A [`Move`] (from one square to another, perhaps promoting) and its coordinate text
//! (`d1d8`, `e7e8q`): writing it, reading it ([`MoveText`]), and why a text is refused
//! ([`MoveError`]). Which moves are legal is `position.rs`'s.

use super::promotion::Promotion;
use super::size::BoardSize;
use super::square::{Color, Square};
use std::fmt;
use thiserror::Error;

/// A move: the man on `from` goes to `to`, capturing what stands there, and a pawn reaching
/// its last rank becomes the `promotion` piece. It carries its board, whose width its
/// squares' names depend on. Moves sort by (from, to, promotion order).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Move {
    /// The square moved from.
    pub from: Square,
    /// The square moved to.
    pub to: Square,
    /// The board.
    pub board: BoardSize,
    /// What a pawn becomes, if the move promotes.
    pub promotion: Option<Promotion>,
}

/// A move as read from text, not yet checked against a position: the squares and the
/// promotion letter (upper case), if any.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MoveText {
    /// The square moved from.
    pub from: Square,
    /// The square moved to.
    pub to: Square,
    /// The promotion letter, upper case.
    pub promotion: Option<char>,
}

impl Move {
    /// A move that does not promote.
    pub fn new(from: Square, to: Square, board: BoardSize) -> Move {
        Move {
            from,
            to,
            board,
            promotion: None,
        }
    }

    /// The same move, promoting to `promotion`.
    pub fn promoting(self, promotion: Promotion) -> Move {
        Move {
            promotion: Some(promotion),
            ..self
        }
    }

    /// Coordinate notation, e.g. `d1d8`, `j1j8`, `a10a1`, with the promotion letter in lower
    /// case (`e7e8q`, `j7j8c`).
    pub fn text(&self) -> String {
        let mut text = format!(
            "{}{}",
            self.board.square_name(self.from),
            self.board.square_name(self.to)
        );
        if let Some(p) = self.promotion {
            text.push(p.letter.to_ascii_lowercase());
        }
        text
    }

    /// Reads coordinate notation on `board` (`d1d8`, `a10a1`, `e7e8q`, squares and letter in
    /// either case, spaces around ignored), whether or not the move is legal anywhere:
    /// [`Position::parse_move`] checks that.
    ///
    /// [`Position::parse_move`]: super::Position::parse_move
    pub fn parse(text: &str, board: BoardSize) -> Result<MoveText, MoveError> {
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
        let promotion = match rest.as_bytes() {
            [] => None,
            [c] if c.is_ascii_alphabetic() => Some(c.to_ascii_uppercase() as char),
            _ => return Err(malformed()),
        };
        Ok(MoveText {
            from,
            to,
            promotion,
        })
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
    /// A promotion letter on a move that does not promote.
    #[error("move '{text}' has a promotion letter, but it is no pawn reaching its last rank")]
    NotAPromotion {
        /// The text (trimmed).
        text: String,
    },
    /// A pawn reaching its last rank, without a promotion letter.
    #[error("move '{text}' takes a pawn to its last rank: add the piece it becomes ({allowed}), e.g. {text}{}", allowed.chars().next().unwrap_or('q').to_ascii_lowercase())]
    PromotionNeeded {
        /// The text (trimmed).
        text: String,
        /// The promotion letters, upper case.
        allowed: String,
    },
    /// A promotion letter that is not one of the board's promotion pieces.
    #[error("a pawn cannot become '{letter}' here: the promotion pieces are {allowed}")]
    NotPromotionPiece {
        /// The letter, as given.
        letter: char,
        /// The promotion letters, upper case.
        allowed: String,
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
        let read = Move::parse(" E2E8 ", B8).unwrap();
        let text = |from, to, promotion| MoveText {
            from,
            to,
            promotion,
        };
        assert_eq!(read, text(12, 60, None));
        let mv = Move::new(12, 60, B8);
        assert_eq!(mv.to_string(), "e2e8");
        assert_eq!(Move::parse(&mv.text(), B8), Ok(read));
        // Well-formed is all it checks: e2e2 is no move anywhere, but it is coordinate text.
        assert_eq!(Move::parse("e2e2", B8), Ok(text(12, 12, None)));
        // A promotion letter is read in either case and written in lower case.
        assert_eq!(Move::parse("e7e8Q", B8), Ok(text(52, 60, Some('Q'))));
        assert_eq!(Move::parse("e2e1n", B8), Ok(text(12, 4, Some('N'))));
        let set = crate::piece::PieceSet::standard();
        let queen = Promotion {
            order: 0,
            piece: set.id('Q').unwrap(),
            letter: 'Q',
        };
        assert_eq!(Move::new(52, 60, B8).promoting(queen).text(), "e7e8q");

        let text_err = |t: &str| Move::parse(t, B8).unwrap_err().to_string();
        for bad in [
            "e2e9", "e2é8", "e2e8x1", "e2e71", "j1j8", "a10a1", "e7e8qq", "e7e8=",
        ] {
            assert_eq!(
                text_err(bad),
                format!("malformed move '{bad}': expected coordinate notation such as d1d8")
            );
        }
    }

    #[test]
    fn wide_and_tall_boards_name_their_squares() {
        let capa = BoardSize::new(10, 8).unwrap();
        let mv = Move::parse("j1j8", capa).unwrap();
        assert_eq!((mv.from, mv.to), (9, 79));
        assert_eq!(Move::new(9, 79, capa).text(), "j1j8");
        assert_eq!(Move::parse("j7j8c", capa).unwrap().promotion, Some('C'));
        let big = BoardSize::new(12, 12).unwrap();
        let mv = Move::parse("a10l12", big).unwrap();
        assert_eq!((mv.from, mv.to), (108, 143));
        assert_eq!(Move::new(108, 143, big).text(), "a10l12");
        assert!(Move::parse("a13a1", big).is_err());
        assert!(Move::parse("m1a1", big).is_err());
    }
}
