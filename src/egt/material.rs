//! Endgame specs (`KQ.KR`, `KQvKR`) and the material they name.

use crate::board::{Color, Position, Square};
use crate::piece::{PieceId, PieceSet, PAWN};
use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hash, Hasher};
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

impl ManKind {
    /// Whether he is a pawn (the letter `P`).
    pub fn is_pawn(&self) -> bool {
        self.letter == PAWN
    }

    /// His place in canonical man order: royals first, then by side, a side's pawns after
    /// its other men, then by letter. Without pawns this is the order of (royal, side,
    /// letter), so pawnless names and table keys are those of before pawns.
    pub fn sort_key(&self) -> (bool, Color, bool, char) {
        (!self.royal, self.color, self.is_pawn(), self.letter)
    }
}

/// Where each man of a material goes in another: entry j is the new place of man j.
pub type Perm = [usize; MAX_MEN];

/// An endgame's men in canonical order: White's royal, Black's royal, then White's other men
/// and Black's other men, each sorted by letter with the pawns last (`KRP.KR`). Removing a
/// man keeps the order canonical.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Material {
    men: Vec<ManKind>,
}

/// One word for the whole material: a table set looks its tables up by material at every
/// probe, where hashing each field of each man took a quarter of a forward search's time
/// (see [`MaterialMap`]).
impl Hash for Material {
    fn hash<H: Hasher>(&self, state: &mut H) {
        let word = self.men.iter().fold(0u64, |word, m| {
            let man = (m.letter as u64) << 10
                | (m.piece.index() as u64) << 2
                | (m.color.index() as u64) << 1
                | u64::from(m.royal);
            word.rotate_left(21) ^ man
        });
        state.write_u64(word);
    }
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
    /// A side's royal man is the pawn.
    #[error("endgame '{spec}': {side}'s royal man is the pawn P; the first letter of a side is its royal piece, which cannot be a pawn")]
    RoyalPawn { spec: String, side: &'static str },
}

/// A map keyed by material, hashed by [`WordHasher`]: a table set's tables, looked up at every
/// probe.
///
/// ```
/// use fairy_egt::egt::material::{Material, MaterialMap};
/// use fairy_egt::piece::PieceSet;
///
/// let pieces = PieceSet::standard();
/// let mut tables = MaterialMap::default();
/// tables.insert(Material::parse("KQ.KR", &pieces).unwrap(), "KQ.KR's table");
/// let asked = Material::parse("KQvKR", &pieces).unwrap();
/// assert_eq!(tables.get(&asked), Some(&"KQ.KR's table"));
/// assert_eq!(tables.get(&Material::parse("KR.KQ", &pieces).unwrap()), None);
/// ```
pub type MaterialMap<V> = HashMap<Material, V, BuildHasherDefault<WordHasher>>;

/// A hasher for keys that hash as one word, such as [`Material`]: it mixes the word with a
/// multiply instead of a keyed SipHash, which costs several times more. The keys are the
/// program's own (no one can choose them to collide), so the keyed hash buys nothing.
#[derive(Clone, Copy, Debug, Default)]
pub struct WordHasher(u64);

impl Hasher for WordHasher {
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.write_u64(u64::from(b));
        }
    }

    fn write_u64(&mut self, word: u64) {
        self.0 = (self.0.rotate_left(5) ^ word).wrapping_mul(0x9e37_79b9_7f4a_7c15);
    }

    fn finish(&self) -> u64 {
        // The map takes its bucket from the low bits and a tag from the high ones: fold the
        // well-mixed high half down.
        self.0 ^ (self.0 >> 29)
    }
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
                if i == 0 && pieces.letter(piece) == PAWN {
                    return Err(SpecError::RoyalPawn {
                        spec: spec.to_string(),
                        side: color.name(),
                    });
                }
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
        men.sort_by_key(ManKind::sort_key);
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

    /// Whether both sides have the same men (`KQ.KQ`, `KNN.KNN`): then the colour swap maps
    /// the endgame onto itself.
    ///
    /// ```
    /// use fairy_egt::egt::material::Material;
    /// use fairy_egt::piece::PieceSet;
    ///
    /// let pieces = PieceSet::standard();
    /// assert!(Material::parse("KRN.KRN", &pieces).unwrap().is_colour_symmetric());
    /// assert!(!Material::parse("KBN.KN", &pieces).unwrap().is_colour_symmetric());
    /// ```
    pub fn is_colour_symmetric(&self) -> bool {
        let side = |c: Color| {
            self.men
                .iter()
                .filter(move |m| m.color == c)
                .map(|m| m.letter)
        };
        side(Color::White).eq(side(Color::Black))
    }

    /// The material with the sides' men exchanged: the endgame seen by the other side
    /// (`KN.KNN` for `KNN.KN`); itself when [`Material::is_colour_symmetric`].
    ///
    /// ```
    /// use fairy_egt::egt::material::Material;
    /// use fairy_egt::piece::PieceSet;
    ///
    /// let pieces = PieceSet::standard();
    /// let knn_kn = Material::parse("KNN.KN", &pieces).unwrap();
    /// assert_eq!(knn_kn.colour_swapped().name(), "KN.KNN");
    /// assert_eq!(knn_kn.colour_swapped().colour_swapped(), knn_kn);
    /// ```
    pub fn colour_swapped(&self) -> Material {
        let men = (self.men.iter())
            .map(|m| ManKind {
                color: m.color.flip(),
                ..*m
            })
            .collect();
        Material::from_men(men)
    }

    /// The material after man `i` (not a royal) is captured.
    pub fn without(&self, i: usize) -> Material {
        let mut men = self.men.clone();
        men.remove(i);
        Material { men }
    }

    /// Number of pawns, both sides.
    pub fn pawns(&self) -> usize {
        self.men.iter().filter(|m| m.is_pawn()).count()
    }

    /// The material after pawn `i` promotes to `piece` (with its `letter`), and where each
    /// man goes in the new material's order (the promoted man is put among his side's men
    /// by his new letter).
    ///
    /// # Panics
    /// If man `i` is not a pawn or `letter` is the pawn's.
    pub fn promoted(&self, i: usize, piece: PieceId, letter: char) -> (Material, Perm) {
        assert!(
            self.men[i].is_pawn() && letter != PAWN,
            "{}: man {i} promoting to {letter}",
            self.name()
        );
        let mut men = self.men.clone();
        men[i] = ManKind {
            piece,
            letter,
            ..men[i]
        };
        // A stable sort of the men's numbers keeps identical men in their order.
        let mut order: Vec<usize> = (0..men.len()).collect();
        order.sort_by_key(|&j| men[j].sort_key());
        let mut perm = [0; MAX_MEN];
        for (place, &j) in order.iter().enumerate() {
            perm[j] = place;
        }
        let men = order.iter().map(|&j| men[j]).collect();
        (Material { men }, perm)
    }

    /// The materials one move of this one leads into, each once: a capture (man `j` taken),
    /// a promotion of a pawn to each of the `promotions` (piece, letter), and a capture by a
    /// pawn of an enemy man that promotes (never of a pawn: the victim stands on the
    /// promotion rank, where no pawn stands) — the tables a build of this one reads.
    pub fn exits(&self, promotions: &[(PieceId, char)]) -> Vec<Material> {
        let pawns = || (2..self.len()).filter(|&i| self.men[i].is_pawn());
        let promoted = |m: &Material, i: usize| -> Vec<Material> {
            (promotions.iter())
                .map(|&(p, l)| m.promoted(i, p, l).0)
                .collect()
        };
        let mut exits: Vec<Material> = (2..self.len()).map(|j| self.without(j)).collect();
        exits.extend(pawns().flat_map(|i| promoted(self, i)));
        for i in pawns() {
            let victims = (2..self.len())
                .filter(|&j| self.men[j].color != self.men[i].color && !self.men[j].is_pawn());
            for j in victims {
                let at = if j < i { i - 1 } else { i };
                exits.extend(promoted(&self.without(j), at));
            }
        }
        exits.sort_by_key(Material::name);
        exits.dedup();
        exits
    }

    /// Every material a game from this one can reach by captures, promotions to the
    /// `promotions` (piece, letter) and captures that promote, each once, in dependency order:
    /// by count of men, then of pawns, then by name. A capture takes a man away and a
    /// promotion a pawn, so every table comes after all the tables its own exits lead to.
    pub fn sub_materials(&self, promotions: &[(PieceId, char)]) -> Vec<Material> {
        let mut found: Vec<Material> = Vec::new();
        let mut todo = vec![self.clone()];
        while let Some(m) = todo.pop() {
            for sub in m.exits(promotions) {
                if !found.contains(&sub) {
                    found.push(sub.clone());
                    todo.push(sub);
                }
            }
        }
        found.sort_by_key(|m| (m.len(), m.pawns(), m.name()));
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
    men.sort_by_key(|(k, _)| k.sort_key());
    let mut sq = [0; MAX_MEN];
    for (slot, (_, s)) in sq.iter_mut().zip(&men) {
        *slot = *s;
    }
    // Sorted already: the canonical order.
    let men = men.into_iter().map(|(k, _)| k).collect();
    (Material { men }, sq)
}

impl std::fmt::Display for Material {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.name())
    }
}

/// The standard pieces, with the orthodox pawn `P` (`fmWfceFifmnD`), for tests of pawn
/// materials.
#[cfg(test)]
pub(crate) fn pieces_with_pawn() -> PieceSet {
    let set = PieceSet::standard();
    assert!(set.pawn().is_some(), "the shipped piece file defines P");
    set
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(spec: &str) -> Material {
        Material::parse(spec, &pieces_with_pawn()).unwrap()
    }

    /// The promotions of the standard board, as (piece, letter).
    fn qrbn() -> Vec<(PieceId, char)> {
        let set = pieces_with_pawn();
        "QRBN".chars().map(|l| (set.id(l).unwrap(), l)).collect()
    }

    #[test]
    fn pawns_come_last_on_each_side_and_pawnless_names_stay() {
        for (spec, name) in [
            ("KPR.KR", "KRP.KR"),
            ("KPB.K", "KBP.K"),
            ("KP.KPN", "KP.KNP"),
            ("KPQP.KR", "KQPP.KR"),
            ("KNB.KR", "KBN.KR"),
            ("KRQ.KNA", "KQR.KAN"),
        ] {
            assert_eq!(parse(spec).name(), name, "{spec}");
        }
        let m = parse("KPR.KPN");
        let pawns: Vec<bool> = m.men().iter().map(ManKind::is_pawn).collect();
        assert_eq!(pawns, [false, false, false, true, false, true]);
        assert_eq!(m.pawns(), 2);
    }

    /// The permutation of a promotion takes every man to his place in the new material: the
    /// same man (the promoted one with his new letter), and no two men to one place.
    #[test]
    fn a_promotion_moves_each_man_to_his_new_place() {
        let set = pieces_with_pawn();
        for spec in ["KRP.KR", "KPP.KB", "KP.KNP", "KQP.KRP", "KP.K"] {
            let m = parse(spec);
            for i in (0..m.len()).filter(|&i| m.men()[i].is_pawn()) {
                for l in "QRBNA".chars() {
                    let (to, perm) = m.promoted(i, set.id(l).unwrap(), l);
                    assert_eq!(to.len(), m.len());
                    assert_eq!(to.pawns(), m.pawns() - 1, "{spec} {i} {l}");
                    assert_eq!(to, Material::from_men(to.men().to_vec()), "canonical");
                    let mut seen = [false; MAX_MEN];
                    for (j, man) in m.men().iter().enumerate() {
                        let new = to.men()[perm[j]];
                        assert!(!seen[perm[j]], "{spec}: two men to {}", perm[j]);
                        seen[perm[j]] = true;
                        if j == i {
                            assert_eq!((new.letter, new.color, new.royal), (l, man.color, false));
                        } else {
                            assert_eq!(new, *man, "{spec} {i} {l}: man {j}");
                        }
                    }
                }
            }
        }
        let (to, perm) = parse("KRP.KR").promoted(3, set.id('Q').unwrap(), 'Q');
        assert_eq!(
            (to.name(), &perm[..5]),
            ("KQR.KR".to_string(), &[0, 1, 3, 2, 4][..])
        );
    }

    /// The pawn cannot be a side's royal man.
    #[test]
    fn a_royal_pawn_is_refused() {
        let pieces = pieces_with_pawn();
        for spec in ["PK.K", "K.P", "KP.PQ"] {
            let e = Material::parse(spec, &pieces).unwrap_err();
            assert!(matches!(e, SpecError::RoyalPawn { .. }), "{spec}: {e}");
            assert!(e.to_string().contains("cannot be a pawn"), "{e}");
        }
        assert!(Material::parse("KP.KP", &pieces).is_ok());
    }

    /// Every material's exits (captures, promotions, captures that promote) are in its list,
    /// and each material of the list comes after the exits of its own.
    #[test]
    fn sub_materials_close_over_exits_in_dependency_order() {
        let promos = qrbn();
        let exits = |m: &Material| -> Vec<Material> {
            let mut out: Vec<Material> = (2..m.len()).map(|j| m.without(j)).collect();
            for i in (2..m.len()).filter(|&i| m.men()[i].is_pawn()) {
                out.extend(promos.iter().map(|&(p, l)| m.promoted(i, p, l).0));
            }
            out
        };
        for spec in ["KP.K", "KRP.KR", "KP.KP", "KPP.KB"] {
            let m = parse(spec);
            let subs = m.sub_materials(&promos);
            for (k, s) in subs.iter().chain([&m]).enumerate() {
                for e in exits(s) {
                    let at = subs.iter().position(|x| *x == e);
                    assert!(at.is_some_and(|at| at < k), "{spec}: {e} for {s}");
                }
            }
            let mut unique = subs.clone();
            unique.dedup();
            assert_eq!(unique.len(), subs.len(), "{spec}");
        }
        let names: Vec<String> = parse("KP.K")
            .sub_materials(&promos)
            .iter()
            .map(Material::name)
            .collect();
        assert_eq!(names, ["K.K", "KB.K", "KN.K", "KQ.K", "KR.K"]);
        // Without pawns the promotions change nothing.
        for spec in ["KQ.KR", "KBN.KN", "KRR.K"] {
            assert_eq!(
                parse(spec).sub_materials(&promos),
                parse(spec).sub_materials(&[])
            );
        }
    }
}
