//! The 8 symmetries of the square board (the dihedral group D4, `crate::symmetry`) acting on
//! the squares and the sets of squares of the 8×8 board, by bit twiddling, as the builder's
//! block-wise work there uses them; `BoardSize::image` maps squares of any board (and
//! `Indexer::image` a block's set of squares on any board: its mirrors by a bit reversal and
//! a row reversal up to 128 squares, the rest through a table of images).

use super::size::BoardSize;
use super::square::Square;

pub use crate::symmetry::Sym;

/// The 8×8 board's actions of a symmetry: on squares and on sets of squares.
impl Sym {
    /// Image of a square of the 8×8 board.
    #[inline]
    pub fn square(self, sq: Square) -> Square {
        BoardSize::STANDARD.image(self, sq)
    }

    /// Image of a set of squares (bit `s` set → bit `self.square(s)` set), by bit twiddling.
    #[inline]
    pub fn bitboard(self, mut b: u64) -> u64 {
        if self.0 & 4 != 0 {
            b = transpose(b);
        }
        if self.0 & 1 != 0 {
            // Files reversed: the bits of every rank (byte) reversed.
            b = b.reverse_bits().swap_bytes();
        }
        if self.0 & 2 != 0 {
            b = b.swap_bytes();
        }
        b
    }
}

/// Mirrors a set of squares in the a1–h8 diagonal (file ↔ rank) with three delta swaps.
#[inline]
fn transpose(mut b: u64) -> u64 {
    for (mask, shift) in [
        (0x0f0f_0f0f_0000_0000u64, 28),
        (0x3333_0000_3333_0000, 14),
        (0x5500_5500_5500_5500, 7),
    ] {
        let t = mask & (b ^ (b << shift));
        b ^= t ^ (t >> shift);
    }
    b
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn symmetries_are_distinct_bijections() {
        let mut images = std::collections::HashSet::new();
        for s in Sym::all() {
            let img: Vec<u8> = (0..64).map(|q| s.square(q)).collect();
            let mut sorted = img.clone();
            sorted.sort();
            assert_eq!(sorted, (0..64).collect::<Vec<u8>>());
            images.insert(img);
        }
        assert_eq!(images.len(), 8);
    }

    #[test]
    fn bitboards_follow_squares_and_inverses_undo() {
        for g in Sym::all() {
            for s in 0..64u8 {
                assert_eq!(g.bitboard(1 << s), 1 << g.square(s), "{g:?} on {s}");
                assert_eq!(g.inverse().square(g.square(s)), s);
            }
            let b = 0x0123_4567_89ab_cdefu64;
            assert_eq!(g.inverse().bitboard(g.bitboard(b)), b);
        }
    }

    #[test]
    fn steps_follow_squares() {
        // d4 + (1,2) = e6 for every symmetry image.
        for s in Sym::all() {
            let (dx, dy) = s.step(1, 2);
            let from = s.square(27);
            let to = s.square(44);
            assert_eq!(to as i8 - from as i8, dy * 8 + dx);
        }
    }
}
