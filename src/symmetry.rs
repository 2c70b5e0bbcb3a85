//! The symmetry group of the square board, the dihedral group D4, as it acts on steps: the
//! layer below both the pieces (which measure their own symmetry with it) and the board
//! (which also maps squares and sets of squares with it, `board/symmetry.rs`).

/// One symmetry of the board, acting on steps `(dx, dy)` (and, through `board`, on squares).
///
/// Encoded by three bits: bit 0 mirrors files (left-right), bit 1 mirrors ranks (up-down),
/// bit 2 swaps files and ranks (transpose, applied first).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Sym(pub u8);

impl Sym {
    /// The identity.
    pub const IDENTITY: Sym = Sym(0);

    /// The up-down mirror (ranks reversed), used to give Black's men their orientation.
    pub const FLIP_RANKS: Sym = Sym(2);

    /// The left-right mirror (files reversed).
    pub const FLIP_FILES: Sym = Sym(1);

    /// All 8 symmetries, identity first.
    pub fn all() -> impl Iterator<Item = Sym> {
        (0..8u8).map(Sym)
    }

    /// Whether it swaps files and ranks (a diagonal mirror or a quarter turn): only a
    /// square board has these.
    #[inline]
    pub fn transposes(self) -> bool {
        self.0 & 4 != 0
    }

    /// Image of a step (dx, dy).
    pub fn step(self, dx: i8, dy: i8) -> (i8, i8) {
        let (mut x, mut y) = if self.0 & 4 != 0 { (dy, dx) } else { (dx, dy) };
        if self.0 & 1 != 0 {
            x = -x;
        }
        if self.0 & 2 != 0 {
            y = -y;
        }
        (x, y)
    }

    /// The symmetry that undoes `self`.
    #[inline]
    pub fn inverse(self) -> Sym {
        // Mirrors alone undo themselves; with the transpose, undoing it last turns a file
        // mirror into a rank mirror and back.
        if self.0 & 4 != 0 {
            Sym(4 | (self.0 & 1) << 1 | (self.0 & 2) >> 1)
        } else {
            self
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn eight_distinct_symmetries_whose_inverses_undo_them() {
        let images: std::collections::HashSet<_> =
            Sym::all().map(|s| (s.step(1, 2), s.step(0, 1))).collect();
        assert_eq!(images.len(), 8);
        for s in Sym::all() {
            for (dx, dy) in [(1, 2), (0, 1), (-3, 1)] {
                let (x, y) = s.step(dx, dy);
                assert_eq!(s.inverse().step(x, y), (dx, dy), "{s:?}");
            }
        }
        assert_eq!(Sym::FLIP_RANKS.step(1, 2), (1, -2));
    }
}
