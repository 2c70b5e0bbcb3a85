//! A build from one side (`Build::swap`): White's table stands for Black's positions too, at
//! their images under the colour swap. White's steps read the other side's positions in the
//! layout of Black's, so that they work block by block as a build of both sides does: the
//! no-escape set is Black's (`no_escape.rs`), and White's frontiers hold the blocks of the
//! images of White's decided slots, Black's positions, which the next step un-moves from.
//! What the frontier's slots are, the table's bytes at their images say.
//!
//! The swap takes a block (the block man varying) to a line of the table (the man who takes
//! his place varying, `ColourSwap::carrier`): a block's images are found a line at a time
//! (`Indexer::line`), and read or set one slot at a time, with their reads started together.
//!
//! On the 8×8 board, where the block man's partner is the digit before him
//! (`Indexer::partner_moved`), the 64 blocks of a frontier word (the partner's square
//! varying) have their images in 64 consecutive blocks of White's table, one slot of each per
//! block: a *tile* of 64 × 64 slots. A frontier's word of blocks is read as its tile at once
//! (`image_frontier_tile`): each of White's 64 blocks read as a row of bits, and the 64 × 64
//! bits transposed, instead of each block's 64 images found and read one by one. A row is
//! one compare of the block's 64 bytes, read as plain bytes: so only where nothing writes
//! White's table meanwhile, in a loss step that marks blocks (`Build::marks_blocks`).

use super::bitmap::for_each_bit;
use super::frontier::Frontier;
use super::Build;
use crate::board::{Square, SquareSet};
use crate::egt::index::ColourSwap;
use crate::egt::material::Squares;

/// How many images' bytes a frontier's read starts together.
const READ_TOGETHER: usize = 16;

/// Fewest marked blocks of a frontier word whose images are read as a tile: below, reading
/// their images one by one reads fewer of White's blocks.
const TILE_FROM: u32 = 4;

/// From one side, on the 8×8 board: where the images of a word of White's blocks lie, one
/// whose placement is plain (the block man's partner varying from block to block, on the
/// block's index modulo 64): the image of block 64·v + q's slot x (the block man on x, his
/// partner on q) is slot turn[q'] of Black's block corner / 64 + turn[x'], x' and q' the
/// squares' images under the swap. So the images of a block's slots lie at one slot of 64
/// consecutive blocks, those of the word's blocks in one word of Black's blocks, a tile.
pub(super) struct WordImages<'a, S> {
    /// White's word of blocks: blocks 64·v to 64·v + 63.
    word: u64,
    /// The first slot of Black's word of blocks that holds the images.
    corner: u64,
    /// The symmetry's action on the squares that takes the images to their slots.
    turn: &'a [Square],
    /// The squares of the men but the block man and his partner.
    others: S,
    swap: &'a ColourSwap,
}

impl<S: SquareSet> WordImages<'_, S> {
    /// Where the images of the slots `slots` of White's block `w`, of this word, lie: `(k,
    /// s, blocks)`, slot s of Black's blocks 64·k + b for the bits b of `blocks` (none for
    /// a hole, the partner on another man's square).
    #[inline]
    pub(super) fn of(&self, w: u64, slots: S) -> (u64, Square, u64) {
        debug_assert_eq!(w / 64, self.word);
        let q = (w % 64) as Square;
        let image = |x: Square| self.turn[self.swap.square(x) as usize];
        let mut blocks = 0u64;
        if (self.others & S::bit(q)).is_empty() {
            for_each_bit(slots & !(self.others | S::bit(q)), |x| {
                blocks |= 1 << image(x)
            });
        }
        (self.corner / 4096, image(q), blocks)
    }
}

impl<S: SquareSet> Build<'_, S> {
    /// From one side: the slots of Black's block `w`, but those of `not`, that belong to the
    /// frontier `frontier` of White's slots of value `byte`: those whose images lie in its
    /// blocks, and whose images' bytes, read by `load`, are `byte` (`prefetch` starts the read
    /// of a slot's byte).
    pub(super) fn image_frontier(
        &self,
        w: u64,
        not: S,
        (frontier, byte): (&Frontier, u8),
        load: impl Fn(u64) -> u8,
        prefetch: impl Fn(u64),
    ) -> S {
        let len = self.ix.block_len() as u64;
        // The reads of a few images are started together, then made.
        let read = |images: &[(Square, u64)], found: &mut S| {
            images.iter().for_each(|&(_, p)| prefetch(p));
            for &(x, p) in images {
                if load(p) == byte {
                    *found |= S::bit(x);
                }
            }
        };
        let (mut found, mut images, mut count) = (S::default(), [(0, 0); READ_TOGETHER], 0);
        self.for_each_image(w, S::below(len as usize) & !not, |x, p| {
            if frontier.holds(self.ix.block_and_square(p).0) {
                images[count] = (x, p);
                count += 1;
                if count == READ_TOGETHER {
                    read(&images, &mut found);
                    count = 0;
                }
            }
        });
        read(&images[..count], &mut found);
        found
    }

    /// Whether a frontier's words of blocks may have their images in tiles: from one side, in
    /// a table of blocks without pawns on the 8×8 board, built block by block.
    pub(super) fn has_tiles(&self) -> bool {
        self.swap.is_some()
            && S::LANES == 1
            && self.ix.block_len() == 64
            && self.ix.slice_count().is_none()
            && self.setup_blockwise()
    }

    /// From one side, in a table that `has_tiles`: the frontier's slots, as `image_frontier` finds
    /// them, of Black's blocks 64·k + q for the bits q of `marks` (their slots of `not(w)`
    /// left out), read as one tile of White's table: `row(v)` gives the slots of White's
    /// block v whose byte is the frontier's, and `frontier` holds White's blocks. The slots
    /// of block 64·k + q are at index q. `None` where the blocks' images form no tile (the
    /// block man's partner is not the digit before him, or a symmetry fixes the royal pair),
    /// or where too few blocks are marked: then each block is read alone.
    pub(super) fn image_frontier_tile(
        &self,
        k: u64,
        marks: u64,
        not: impl Fn(u64) -> S,
        frontier: &Frontier,
        row: impl Fn(u64) -> u64,
    ) -> Option<[S; 64]> {
        let swap = self.swap.as_ref()?;
        debug_assert!(self.has_tiles());
        if marks.count_ones() < TILE_FROM {
            return None;
        }
        let images = self.word_images(k * 64 + u64::from(marks.trailing_zeros()))?;
        let (corner, turn) = (images.corner, images.turn);
        let held = frontier.word(corner / 4096);
        // Row x: of White's block holding the images of the block man on x, the slots whose
        // byte is the frontier's; its bit b, the partner's image's turn b.
        let mut rows = [0u64; 64];
        for (x, r) in rows.iter_mut().enumerate() {
            let t = turn[swap.square(x as Square) as usize];
            if held >> t & 1 != 0 {
                *r = row(corner / 64 + u64::from(t));
            }
        }
        transpose(&mut rows);
        let others = images.others;
        let mut found = [S::default(); 64];
        for_each_bit(marks, |q| {
            if !(others & S::bit(q)).is_empty() {
                // The partner on another man's square: no positions.
                return;
            }
            let w = k * 64 + u64::from(q);
            let row = rows[turn[swap.square(q) as usize] as usize];
            found[q as usize] = S::from_lanes(|_| row) & !(others | S::bit(q)) & !not(w);
        });
        Some(found)
    }

    /// From one side: calls `f(x, slot)` for each square x of `squares` where block `w` holds
    /// a position, with the slot of its image under the colour swap (an illegal position's
    /// image has a slot too, whose byte says so).
    pub(super) fn for_each_image(&self, w: u64, squares: S, mut f: impl FnMut(Square, u64)) {
        let swap = self.swap.expect("a build from one side");
        if !self.setup_blockwise() {
            let len = self.ix.block_len() as u64;
            return for_each_bit(squares, |x| {
                let z = w * len + x as u64;
                if let Some(sq) = self.ix.decode(z) {
                    f(x, self.as_held(z, &sq).0);
                }
            });
        }
        let Some((sq, positions)) = self.block_positions(w) else {
            return;
        };
        self.for_each_image_slot(&sq, squares & positions, swap, |x, p| {
            if let Some(p) = p {
                f(x, p);
            }
        });
    }

    /// In a table set up block by block: the men of block w, and the squares of its block
    /// man where it holds a position (`None`: a hole).
    fn block_positions(&self, w: u64) -> Option<(Squares, S)> {
        let (sq, fold) = self.block_men(w)?;
        let board = S::below(self.ix.block_len());
        let positions = fold.map_or(board, |f| f.keep::<S>()) & !self.men.others_of_block(&sq);
        Some((sq, positions))
    }

    /// From one side, in a table that `has_tiles`: where the images of the word of White's
    /// blocks that holds block `w` lie, where they form a tile (see [`WordImages`]). `None`
    /// where block w is a hole, its placement is not plain, or the block man's partner is not
    /// the digit before him.
    pub(super) fn word_images(&self, w: u64) -> Option<WordImages<'_, S>> {
        let swap = self.swap?;
        debug_assert!(self.has_tiles());
        let sq = self.ix.block_men(w)?;
        if !self.ix.is_plain(&sq) {
            return None;
        }
        // The images of the block man's squares x, the partner on q: the slots
        // corner + 64 · turn[x'] + turn[q'], x' and q' the squares' images.
        let (base, turn) = self.image_line(swap, &sq)?;
        let partner = swap.carrier(self.men.block_man());
        debug_assert_eq!(u64::from(sq[partner]), w % 64);
        let corner = base - u64::from(turn[swap.square(sq[partner]) as usize]);
        debug_assert_eq!(corner % 4096, 0);
        Some(WordImages {
            word: w / 64,
            corner,
            turn,
            others: self.men.others_of_block(&sq) & !S::bit(sq[partner]),
            swap,
        })
    }

    /// From one side, in a table that `has_tiles`: where the images of block w's slots
    /// `slots` lie at one slot s of blocks of one word of blocks k, as they do where the
    /// block's placement is plain (its images a line of stride 64 from the word's start):
    /// `(k, s, blocks)`, the blocks 64·k + b for the bits b of `blocks`. `None` elsewhere,
    /// and for a hole.
    pub(super) fn image_word(&self, w: u64, slots: S) -> Option<(u64, Square, u64)> {
        let swap = self.swap?;
        let (sq, positions) = self.block_positions(w)?;
        let (base, turn) = self.image_line(swap, &sq)?;
        if base / 64 % 64 != 0 {
            return None;
        }
        let mut blocks = 0u64;
        for_each_bit(slots & positions, |x| {
            blocks |= 1 << turn[swap.square(x) as usize]
        });
        Some((base / 4096, (base % 64) as Square, blocks))
    }

    /// From one side: the slots of the images under `swap` of placement `sq` with the block
    /// man on each square x, `base + 64 · turn[x']` (x' the square's image, `Indexer::line`),
    /// as `(base, turn)`, where they form a line of stride 64: the man who takes his place,
    /// his partner, is the digit before him in the index. `None` elsewhere.
    fn image_line(&self, swap: &ColourSwap, sq: &Squares) -> Option<(u64, &[Square])> {
        let carrier = swap.carrier(self.men.block_man());
        let (base, stride, turn) = self.ix.line(&swap.placement(sq, self.ix.men()), carrier)?;
        (stride == 64).then_some((base, turn))
    }

    /// Calls `f(x, slot)` for each square x of `squares`, with the slot in White's table of
    /// the image under `swap` of placement `sq` with the block man on x (`None`: no slot, an
    /// illegal position). The images form a line of the table, the man who takes the block
    /// man's place (`ColourSwap::carrier`) varying (`Indexer::line`), unless a symmetry fixes
    /// their royal pair or there is none.
    #[inline(always)]
    fn for_each_image_slot(
        &self,
        sq: &Squares,
        squares: S,
        swap: &ColourSwap,
        mut f: impl FnMut(Square, Option<u64>),
    ) {
        let carrier = swap.carrier(self.men.block_man());
        let mut image = swap.placement(sq, self.ix.men());
        match self.ix.line(&image, carrier) {
            Some((base, stride, turn)) => for_each_bit(squares, |x| {
                f(
                    x,
                    Some(base + stride * turn[swap.square(x) as usize] as u64),
                )
            }),
            None => for_each_bit(squares, |x| {
                image[carrier] = swap.square(x);
                f(x, self.ix.index(&image))
            }),
        }
    }
}

/// Transposes a 64 × 64 matrix of bits: bit c of row r becomes bit r of row c. The two
/// off-diagonal quarters swap places, then each quarter is transposed the same way, in place.
fn transpose(rows: &mut [u64; 64]) {
    let (mut half, mut mask) = (32, 0x0000_0000_ffff_ffff_u64);
    while half != 0 {
        for start in (0..64).step_by(2 * half) {
            for r in start..start + half {
                let t = (rows[r] >> half ^ rows[r + half]) & mask;
                rows[r] ^= t << half;
                rows[r + half] ^= t;
            }
        }
        half /= 2;
        mask ^= mask << half;
    }
}

#[cfg(test)]
mod tests {
    use super::transpose;

    /// Bit c of row r becomes bit r of row c, for a matrix with every kind of row.
    #[test]
    fn a_tile_is_transposed() {
        let mut state = 0x9e37_79b9_7f4a_7c15_u64;
        let rows: [u64; 64] = std::array::from_fn(|r| {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            match r {
                0 => 0,
                1 => u64::MAX,
                _ => state,
            }
        });
        let mut t = rows;
        transpose(&mut t);
        for (r, row) in rows.iter().enumerate() {
            for (c, column) in t.iter().enumerate() {
                assert_eq!(column >> r & 1, row >> c & 1, "row {r}, bit {c}");
            }
        }
        transpose(&mut t);
        assert_eq!(t, rows);
    }
}
