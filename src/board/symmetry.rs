//! The 8 symmetries of the square board (the dihedral group D4, `crate::symmetry`) acting on
//! the squares and the sets of squares of the 8×8 board, by bit twiddling, as the builder's
//! block-wise work there uses them; `BoardSize::image` maps squares of any board, and
//! [`Sym::set_image`] sets of squares of any board a rank at a time (`Indexer::image`, a
//! block's set: its mirrors by a bit reversal and a row reversal up to 128 squares, a set of
//! a few squares through a table of images, the rest a rank at a time).

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

    /// Image of a set of squares of a board of `files` × `ranks` squares (up to 16 × 16),
    /// held in the bits of `lanes` (square s at bit s), a rank at a time: each rank's bits
    /// are taken out as one row of a 16 × 16 matrix, which is transposed as four 8 × 8
    /// bitboards, its rows reversed for a mirror of files and put in reverse order for a
    /// mirror of ranks. A transpose needs a square board.
    pub fn set_image(self, lanes: [u64; 4], files: usize, ranks: usize) -> [u64; 4] {
        debug_assert!(files <= 16 && ranks <= 16 && (!self.transposes() || files == ranks));
        let mask = (1u64 << files) - 1;
        let mut rows = [0u16; 16];
        for (r, row) in rows.iter_mut().enumerate().take(ranks) {
            let at = r * files;
            let (k, shift) = (at / 64, at % 64);
            let mut bits = lanes[k] >> shift;
            if shift + files > 64 {
                bits |= lanes[k + 1] << (64 - shift);
            }
            *row = (bits & mask) as u16;
        }
        if self.transposes() {
            rows = transpose_rows(rows);
        }
        if self.0 & 1 != 0 {
            rows.iter_mut()
                .for_each(|row| *row = row.reverse_bits() >> (16 - files));
        }
        if self.0 & 2 != 0 {
            rows[..ranks].reverse();
        }
        let mut out = [0u64; 4];
        for (r, &row) in rows.iter().enumerate().take(ranks) {
            let at = r * files;
            let (k, shift) = (at / 64, at % 64);
            out[k] |= (row as u64) << shift;
            if shift + files > 64 {
                out[k + 1] |= (row as u64) >> (64 - shift);
            }
        }
        out
    }
}

/// The transpose of a 16 × 16 bit matrix given by its rows (bit x of row y ↔ bit y of row
/// x): its four 8 × 8 quarters as bitboards, each transposed, the off-diagonal two swapped.
fn transpose_rows(rows: [u16; 16]) -> [u16; 16] {
    // Quarter (i, j): rows 8i.., the bits 8j.. of each.
    let quarter = |i: usize, j: usize| {
        (0..8).fold(0u64, |b, r| {
            b | ((rows[8 * i + r] >> (8 * j)) as u64 & 0xff) << (8 * r)
        })
    };
    let t = [[0, 0], [0, 1], [1, 0], [1, 1]].map(|[i, j]| transpose(quarter(j, i)));
    let mut out = [0u16; 16];
    for (y, row) in out.iter_mut().enumerate() {
        let (i, r) = (y / 8, y % 8);
        let low = (t[2 * i] >> (8 * r)) & 0xff;
        let high = (t[2 * i + 1] >> (8 * r)) & 0xff;
        *row = (low | high << 8) as u16;
    }
    out
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
    use crate::board::test_random::TestRandom;
    use crate::board::{for_each_bit, Bits256, SquareSet};

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

    /// On every board shape from 3 × 3 to 16 × 16, a set's image a rank at a time is the set
    /// of its squares' images, for every symmetry of the shape, for sets of every density.
    #[test]
    fn sets_of_any_board_map_as_their_squares_do() {
        let mut random = TestRandom::new(0x9e37_79b9_7f4a_7c15);
        for files in 3..=16u32 {
            for ranks in 3..=16u32 {
                let board = BoardSize::new(files, ranks).unwrap();
                for g in board.symmetries() {
                    for one_in in [1, 2, 5] {
                        let set: Bits256 = random.set(board.squares(), one_in);
                        let mut want = Bits256::default();
                        for_each_bit(set, |s| want |= Bits256::bit(board.image(g, s)));
                        let lanes = std::array::from_fn(|k| set.lane(k));
                        let got = g.set_image(lanes, files as usize, ranks as usize);
                        assert_eq!(Bits256::from_lanes(|k| got[k]), want, "{board} {g:?}");
                    }
                }
            }
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
