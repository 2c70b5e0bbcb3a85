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
    /// A royal piece of the endgame: a promotion would give a side a second royal.
    #[error("promotion piece '{letter}' is a royal piece of the endgame {endgame}: a pawn may not promote to it")]
    Royal {
        /// The letter.
        letter: char,
        /// The endgame, e.g. `KP.K`.
        endgame: String,
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

/// The promotions of `letters` (either case), in order, for the endgame `endgame` whose
/// royal letters are `royals`: as [`promotions`], and none may be a royal letter.
pub fn promotions_for(
    pieces: &PieceSet,
    letters: &str,
    royals: [char; 2],
    endgame: &str,
) -> Result<Vec<Promotion>, PromotionError> {
    let list = promotions(pieces, letters)?;
    match list.iter().find(|p| royals.contains(&p.letter)) {
        Some(p) => Err(PromotionError::Royal {
            letter: p.letter,
            endgame: endgame.to_string(),
        }),
        None => Ok(list),
    }
}

/// The board's default promotion letters for an endgame whose royal letters are `royals`:
/// [`default_letters`], less the letters the piece set does not define and the royals.
pub fn default_letters_for(pieces: &PieceSet, board: BoardSize, royals: [char; 2]) -> String {
    default_letters(board)
        .chars()
        .filter(|&l| pieces.id(l).is_some() && !royals.contains(&l))
        .collect()
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
        assert!(matches!(
            promotions(&set, "QP"),
            Err(PromotionError::Repeated { letter: 'P' })
        ));
    }

    #[test]
    fn royal_letters_are_refused_and_left_out_of_the_default() {
        let set = PieceSet::standard();
        let b8 = BoardSize::STANDARD;
        assert_eq!(default_letters_for(&set, b8, ['K', 'K']), "QRBN");
        assert_eq!(default_letters_for(&set, b8, ['Q', 'K']), "RBN");
        let capa = BoardSize::new(10, 8).unwrap();
        assert_eq!(default_letters_for(&set, capa, ['K', 'A']), "QRBNC");
        assert_eq!(
            promotions_for(&set, "QN", ['K', 'K'], "KP.K").map(|p| p.len()),
            Ok(2)
        );
        let e = promotions_for(&set, "QK", ['K', 'K'], "KP.K").unwrap_err();
        assert_eq!(
            e,
            PromotionError::Royal {
                letter: 'K',
                endgame: "KP.K".into()
            }
        );
        assert!(e
            .to_string()
            .contains("'K' is a royal piece of the endgame KP.K"));
        // The other errors come first.
        assert!(matches!(
            promotions_for(&set, "", ['K', 'K'], "KP.K"),
            Err(PromotionError::Empty)
        ));
    }
}
