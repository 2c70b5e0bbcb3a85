//! Endgame specs (`KQ.KR`, `KQvKR`) and the material they name.

use crate::board::{Color, Position, Square};
use crate::piece::{PieceId, PieceSet};
use thiserror::Error;

/// Most men an endgame may have (royals included).
pub const MAX_MEN: usize = 6;

/// Squares of an endgame's men in canonical man order.
pub type Squares = [Square; MAX_MEN];

/// One man of an endgame, without its square. Like a board's `Man`, he carries his piece's
/// id, for the move tables, and its letter, for the endgame's name.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct ManKind {
    /// Its side.
    pub color: Color,
    /// Its piece, in the piece set the material was read with.
    pub piece: PieceId,
    /// Upper-case piece letter.
    pub letter: char,
    /// Whether it is its side's royal man.
    pub royal: bool,
}

/// An endgame's men in canonical order: White's royal, Black's royal, then White's other men
/// and Black's other men, each sorted by letter. Removing a man keeps the order canonical.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Material {
    men: Vec<ManKind>,
}

/// A malformed endgame spec.
#[derive(Debug, Error, PartialEq, Eq)]
pub enum SpecError {
    /// No `.` or `v` between the sides.
    #[error("endgame '{0}': expected White's men, '.' (or 'v'), Black's men, e.g. KQ.KR")]
    NoSeparator(String),
    /// A side without men.
    #[error("endgame '{spec}': {side} has no men (each side needs at least its royal)")]
    EmptySide { spec: String, side: &'static str },
    /// A letter that no piece definition has.
    #[error("endgame '{spec}': unknown piece letter '{letter}' (defined: {known})")]
    UnknownLetter {
        spec: String,
        letter: char,
        known: String,
    },
    /// More men than the builder supports.
    #[error("endgame '{spec}': {count} men, at most {MAX_MEN} are supported")]
    TooManyMen { spec: String, count: usize },
}

impl Material {
    /// Parses `KQ.KR` or `KQvKR`: White's men, a separator, Black's men; the first letter of a
    /// side is its royal man. Letters must be defined in `pieces`; the men carry their ids.
    pub fn parse(spec: &str, pieces: &PieceSet) -> Result<Material, SpecError> {
        let spec = spec.trim();
        let (white, black) = spec
            .split_once('.')
            .or_else(|| spec.split_once('v'))
            .ok_or_else(|| SpecError::NoSeparator(spec.to_string()))?;
        let mut men = Vec::new();
        for (color, side) in [(Color::White, white), (Color::Black, black)] {
            if side.is_empty() {
                return Err(SpecError::EmptySide {
                    spec: spec.to_string(),
                    side: color.name(),
                });
            }
            for (i, ch) in side.chars().enumerate() {
                let Some(piece) = pieces.id(ch).filter(|_| ch.is_ascii_alphabetic()) else {
                    return Err(SpecError::UnknownLetter {
                        spec: spec.to_string(),
                        letter: ch,
                        known: pieces.letters(),
                    });
                };
                men.push(ManKind {
                    color,
                    piece,
                    letter: pieces.letter(piece),
                    royal: i == 0,
                });
            }
        }
        if men.len() > MAX_MEN {
            return Err(SpecError::TooManyMen {
                spec: spec.to_string(),
                count: men.len(),
            });
        }
        Ok(Material::from_men(men))
    }

    /// The material of the given men (exactly one royal per side), put in canonical order.
    pub fn from_men(mut men: Vec<ManKind>) -> Material {
        men.sort_by_key(|m| (!m.royal, m.color, m.letter));
        Material { men }
    }

    /// The men in canonical order.
    pub fn men(&self) -> &[ManKind] {
        &self.men
    }

    /// Number of men.
    pub fn len(&self) -> usize {
        self.men.len()
    }

    /// Always false: an endgame has both royals.
    pub fn is_empty(&self) -> bool {
        self.men.is_empty()
    }

    /// The royal letters, White's then Black's.
    pub fn royals(&self) -> [char; 2] {
        [self.men[0].letter, self.men[1].letter]
    }

    /// Canonical name, e.g. `KBN.KN`.
    pub fn name(&self) -> String {
        let side = |c: Color| -> String {
            self.men
                .iter()
                .filter(|m| m.color == c)
                .map(|m| m.letter)
                .collect()
        };
        format!("{}.{}", side(Color::White), side(Color::Black))
    }

    /// The material after man `i` (not a royal) is captured.
    pub fn without(&self, i: usize) -> Material {
        let mut men = self.men.clone();
        men.remove(i);
        Material { men }
    }

    /// Every smaller material reachable by captures, each once, smallest first.
    pub fn sub_materials(&self) -> Vec<Material> {
        let mut found: Vec<Material> = Vec::new();
        let mut todo = vec![self.clone()];
        while let Some(m) = todo.pop() {
            for i in 2..m.len() {
                let sub = m.without(i);
                if !found.contains(&sub) {
                    found.push(sub.clone());
                    todo.push(sub);
                }
            }
        }
        found.sort_by_key(|m| (m.len(), m.name()));
        found
    }
}

/// The material of a position and its men's squares in the material's order.
pub fn material_of(pos: &Position) -> (Material, Squares) {
    let mut men: Vec<(ManKind, u8)> = pos
        .men()
        .iter()
        .map(|m| {
            (
                ManKind {
                    color: m.color,
                    piece: m.piece,
                    letter: m.letter,
                    royal: m.royal,
                },
                m.square,
            )
        })
        .collect();
    men.sort_by_key(|(k, _)| (!k.royal, k.color, k.letter));
    let mut sq = [0; MAX_MEN];
    for (slot, (_, s)) in sq.iter_mut().zip(&men) {
        *slot = *s;
    }
    (
        Material::from_men(men.into_iter().map(|(k, _)| k).collect()),
        sq,
    )
}

impl std::fmt::Display for Material {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.name())
    }
}
