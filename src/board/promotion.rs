//! What a pawn may become on its last rank: a [`Promotion`] (piece, letter, place in the
//! board's list), the board's default list, and why a list is refused ([`PromotionError`]).

use super::size::BoardSize;
use crate::piece::{PieceId, PieceSet, PAWN};
use thiserror::Error;

/// A piece a pawn may promote to. Ordered by its place in the promotion list, so that among
/// equal moves the earlier piece (the Queen by default) comes first.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Promotion {
    /// Its place in the board's promotion list, from 0.
    pub order: u8,
    /// The piece type.
    pub piece: PieceId,
    /// Its letter, upper case.
    pub letter: char,
}

/// Why a promotion list is refused.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum PromotionError {
    /// The list is empty.
    #[error("the promotion list is empty: expected piece letters such as QRBN")]
    Empty,
    /// A letter the piece definitions do not define.
    #[error("promotion piece '{letter}' is not in the piece definitions (defined: {defined})")]
    Undefined {
        /// The letter as given.
        letter: char,
        /// The letters the piece file defines.
        defined: String,
    },
    /// The pawn itself, or a letter given twice.
    #[error("promotion piece '{letter}' {}", if *letter == PAWN { "is the pawn: a pawn promotes to another piece" } else { "is given twice" })]
    Repeated {
        /// The letter.
        letter: char,
    },
}

/// The board's default promotion letters: Q R B N A C on 10×8 (Capablanca), Q R B N on
/// every other board.
pub fn default_letters(board: BoardSize) -> &'static str {
    if (board.files(), board.ranks()) == (10, 8) {
        "QRBNAC"
    } else {
        "QRBN"
    }
}

/// The promotions of `letters` (either case), in order.
pub fn promotions(pieces: &PieceSet, letters: &str) -> Result<Vec<Promotion>, PromotionError> {
    let mut out: Vec<Promotion> = Vec::new();
    for (order, l) in letters.chars().enumerate() {
        let letter = l.to_ascii_uppercase();
        let Some(piece) = pieces.id(letter).filter(|_| l.is_ascii_alphabetic()) else {
            return Err(PromotionError::Undefined {
                letter: l,
                defined: pieces.letters(),
            });
        };
        if letter == PAWN || out.iter().any(|p| p.letter == letter) {
            return Err(PromotionError::Repeated { letter });
        }
        out.push(Promotion {
            order: order as u8,
            piece,
            letter,
        });
    }
    if out.is_empty() {
        return Err(PromotionError::Empty);
    }
    Ok(out)
}

/// The board's default promotions, leaving out letters the piece set does not define.
pub fn default_promotions(pieces: &PieceSet, board: BoardSize) -> Vec<Promotion> {
    let letters: String = default_letters(board)
        .chars()
        .filter(|&l| pieces.id(l).is_some())
        .collect();
    promotions(pieces, &letters).unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn defaults_and_errors() {
        let set = PieceSet::standard();
        let letters = |p: &[Promotion]| p.iter().map(|p| p.letter).collect::<String>();
        let b8 = BoardSize::STANDARD;
        let capa = BoardSize::new(10, 8).unwrap();
        assert_eq!(letters(&default_promotions(&set, b8)), "QRBN");
        assert_eq!(letters(&default_promotions(&set, capa)), "QRBNAC");
        assert_eq!(
            letters(&default_promotions(&set, BoardSize::new(5, 5).unwrap())),
            "QRBN"
        );
        let p = promotions(&set, "nq").unwrap();
        assert_eq!(letters(&p), "NQ");
        assert_eq!((p[0].order, p[1].order), (0, 1));
        assert!(p[0] < p[1]);
        let e = promotions(&set, "QV").unwrap_err();
        assert!(matches!(e, PromotionError::Undefined { letter: 'V', .. }));
        assert!(e
            .to_string()
            .contains("'V' is not in the piece definitions"));
        assert!(matches!(
            promotions(&set, "Q1"),
            Err(PromotionError::Undefined { letter: '1', .. })
        ));
        assert_eq!(
            promotions(&set, "QRQ"),
            Err(PromotionError::Repeated { letter: 'Q' })
        );
        assert_eq!(promotions(&set, ""), Err(PromotionError::Empty));
    }
}
