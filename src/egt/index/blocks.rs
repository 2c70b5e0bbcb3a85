//! The block-man layout: when a non-royal man is alone in his group, he is the last digit of
//! the index (the *block man*), and the table is made of *blocks*, 64 consecutive slots that
//! differ only in his square. A move of any other man takes a whole block to one other block
//! ([`BlockMove`]); where a symmetry fixes a block's other men, the block is folded
//! ([`Fold`]) and only half of its slots are positions ([`BlockShape`]).

use super::pairs::{PairSlot, NO_PAIR};
use super::slices::Slices;
use super::Indexer;
use crate::board::{Square, Sym};
use crate::egt::material::Squares;

/// Slots of a block: the squares of the 8×8 board, the only board with blocks (a block is
/// one word of the builder's bitmaps, its slot x the square x of the board's symmetries).
const BLOCK: usize = 64;

impl Indexer {
    /// Whether the table is made of blocks: runs of 64 slots, aligned on multiples of 64,
    /// that differ only in the square of one man, the *block man* (there is one on the 8×8
    /// board when a non-royal man that is no pawn is alone in his group: the last such man in
    /// man order). Block b holds slots 64·b .. 64·b + 63, slot 64·b + x with the block man on
    /// square x. With pawns, a slice is a whole number of blocks.
    pub fn has_blocks(&self) -> bool {
        self.block_man.is_some()
    }

    /// The block man (see `has_blocks`).
    pub fn block_man(&self) -> Option<usize> {
        self.block_man
    }

    /// The squares of every man but the block man in block `block` (the block man's entry
    /// is 0), or `None` if two of them share a square (every slot of the block is a hole).
    /// With pawns, they stand as their slice has them (its own orientation).
    #[inline]
    pub fn block_men(&self, block: u64) -> Option<Squares> {
        let sq = self.digits(block * BLOCK as u64)?;
        let bm = self.block_man.expect("a table with blocks");
        let mut others = 0u64;
        for i in (0..self.men).filter(|&i| i != bm) {
            if others & 1 << sq[i] != 0 {
                return None;
            }
            others |= 1 << sq[i];
        }
        Some(sq)
    }

    /// Which of the slots of block `block` are canonical positions: `sq` are its men
    /// (`block_men`). Only a block whose royal pair is fixed by a symmetry h can have holes:
    /// when h also fixes the other men, the block man on x and on h(x) give the same
    /// position. With pawns (on 8×8, where the mirror fixes no square), a block is whole or a
    /// hole: whole where its slice keeps its royal pair as it is.
    #[inline]
    pub fn block_shape(&self, block: u64, sq: &Squares) -> BlockShape {
        if let Some(s) = &self.slices {
            let slice = (block / (s.size / BLOCK as u64)) as u32;
            let (_, mask) =
                s.pair_slots(slice, &self.pair_slot)[sq[0] as usize * BLOCK + sq[1] as usize];
            return if mask == 1 {
                BlockShape::Whole
            } else {
                BlockShape::Hole
            };
        }
        if self.is_plain(sq) {
            return BlockShape::Whole;
        }
        // Where its slots are canonical: in itself, folded into itself, or in another block.
        match self.block_of(sq) {
            BlockMove::Block(_) => BlockShape::Whole,
            BlockMove::Folded(_, _, fold) => BlockShape::Half(fold),
            BlockMove::Mapped(..) | BlockMove::Off => BlockShape::Hole,
        }
    }

    /// Where the slots of a block go when man `i` (not the block man) moves: `sq` are the
    /// block's men (`block_men` of a block that is no hole) and `moved` the men after the
    /// move. The same as `block_of(moved)`, cheaper.
    #[inline]
    pub fn block_after_move(
        &self,
        block: u64,
        sq: &Squares,
        i: usize,
        moved: &Squares,
    ) -> BlockMove {
        let (first, pair_slot) = match &self.slices {
            // The block's placement is in its slice's orientation (see `block_men`).
            Some(s) => {
                let per_slice = s.size / BLOCK as u64;
                let slice = block / per_slice;
                (
                    slice * per_slice,
                    s.pair_slots(slice as u32, &self.pair_slot),
                )
            }
            None => (0, &self.pair_slot[..]),
        };
        let pair_of = |sq: &Squares| pair_slot[sq[0] as usize * BLOCK + sq[1] as usize];
        if i >= 2 && self.strides[i] != 0 && pair_of(sq).1 == 1 {
            let stride = (self.strides[i] / BLOCK as u64) as i64;
            return BlockMove::Block(
                (block as i64 + (moved[i] as i64 - sq[i] as i64) * stride) as u64,
            );
        }
        if i < 2 {
            let (pair, mask) = pair_of(moved);
            if pair != NO_PAIR && mask == 1 {
                let per_pair = self.rest / BLOCK as u64;
                return BlockMove::Block(
                    first + pair as u64 * per_pair + (block - first) % per_pair,
                );
            }
        }
        match &self.slices {
            // A man but a pawn keeps the slice and its orientation.
            Some(_) if !self.is_pawn(i) => self.block_in_slice(first, pair_of(moved), moved),
            _ => self.block_of(moved),
        }
    }

    /// Where the slots of the placements `sq` (the block man's square left open) are, in a
    /// table with blocks.
    #[inline]
    pub fn block_of(&self, sq: &Squares) -> BlockMove {
        if let Some(s) = &self.slices {
            return self.block_of_sliced(s, sq);
        }
        let (pair, mask) = self.pair_slot[sq[0] as usize * BLOCK + sq[1] as usize];
        if pair == NO_PAIR {
            return BlockMove::Off;
        }
        let per_pair = self.rest / BLOCK as u64;
        let block = |rest: u64| pair as u64 * per_pair + rest / BLOCK as u64;
        if mask == 1 {
            return BlockMove::Block(block(self.rest_plain(sq)));
        }
        // One element of G, or two (then they differ by the symmetry h fixing the new pair),
        // map the pair onto its canonical pair: the one giving the smaller rest wins, and on
        // a tie h fixes the other men too, so the block man's square decides.
        let k = mask.trailing_zeros() as usize;
        let rest = self.rest_of(&self.images[k], sq);
        let others = mask & !(1 << k);
        if others != 0 {
            let k2 = others.trailing_zeros() as usize;
            debug_assert_eq!(
                others.count_ones(),
                1,
                "two royals are fixed by one reflection"
            );
            let rest2 = self.rest_of(&self.images[k2], sq);
            let (own, image) = (rest / BLOCK as u64, rest2 / BLOCK as u64);
            if image < own {
                return BlockMove::Mapped(block(rest2), self.syms[k2]);
            }
            if image == own {
                let (a, b) = self.pairs[pair as usize];
                let fixing = self.pair_slot[a as usize * BLOCK + b as usize].1 & !1;
                let fold = self.folds[fixing.trailing_zeros() as usize];
                return BlockMove::Folded(block(rest), self.syms[k], fold);
            }
        }
        if k == 0 {
            BlockMove::Block(block(rest))
        } else {
            BlockMove::Mapped(block(rest), self.syms[k])
        }
    }

    /// `block_of` with pawns: the placement is turned to its slice's orientation, and then,
    /// in a slice that is its own mirror image, its royal pair to the canonical one. On 8×8
    /// the mirror fixes no pair, so at most one of the two turns is the mirror, and no block
    /// is folded. `Off` also when a pawn stands on his first or last rank.
    #[inline]
    fn block_of_sliced(&self, s: &Slices, sq: &Squares) -> BlockMove {
        let Some((slice, orientation)) = s.locate(sq) else {
            return BlockMove::Off;
        };
        let sq = self.oriented(sq, orientation);
        let pair = s.pair_slots(slice, &self.pair_slot)[sq[0] as usize * BLOCK + sq[1] as usize];
        let first = slice as u64 * (s.size / BLOCK as u64);
        match (self.block_in_slice(first, pair, &sq), orientation) {
            (BlockMove::Block(b), 1) => BlockMove::Mapped(b, self.syms[1]),
            (to, _) => to,
        }
    }

    /// `block_of` for placements `sq` in their slice's orientation, whose slice starts at
    /// block `first` and whose royal pair has the slot `pair` in that slice.
    #[inline]
    fn block_in_slice(&self, first: u64, (pair, mask): PairSlot, sq: &Squares) -> BlockMove {
        if pair == NO_PAIR {
            return BlockMove::Off;
        }
        let first = first + pair as u64 * (self.rest / BLOCK as u64);
        if mask == 1 {
            return BlockMove::Block(first + self.rest_plain(sq) / BLOCK as u64);
        }
        // In a slice that is its own mirror image, the mirror takes the pair to its
        // canonical one (the mirror fixes no pair on 8×8).
        debug_assert_eq!(mask, 2, "{sq:?}");
        BlockMove::Mapped(
            first + self.rest_of(&self.images[1], sq) / BLOCK as u64,
            self.syms[1],
        )
    }
}

/// Where the 64 slots of a block go when a man other than the block man moves.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BlockMove {
    /// Nowhere: the royals would attack each other (every such position is illegal).
    Off,
    /// To block `b`, the block man staying on his square.
    Block(u64),
    /// To block `b` under symmetry `g`: the slot with the block man on x goes to the slot
    /// with him on `g.square(x)`.
    Mapped(u64, Sym),
    /// To block `b` under symmetry `g`, into a block that is folded: the slot with the block
    /// man on x goes to the slot `fold.square(g.square(x))`.
    Folded(u64, Sym, Fold),
}

/// Which slots of a block are canonical positions (men sharing a square aside).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BlockShape {
    /// All of them.
    Whole,
    /// Those that `Fold` keeps: the block's men are fixed by a symmetry.
    Half(Fold),
    /// None: the block's men are the image of another block's.
    Hole,
}

/// A block whose men (the block man aside) a symmetry h fixes: its slots x and h(x) are the
/// same position, and only the smaller of the two squares is its canonical slot.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Fold {
    sym: Sym,
    keep: u64,
    fixed: u64,
}

impl Fold {
    pub(super) fn new(sym: Sym) -> Fold {
        let squares = |test: &dyn Fn(Square) -> bool| {
            (0..BLOCK as Square)
                .filter(|&x| test(x))
                .fold(0u64, |k, x| k | 1 << x)
        };
        Fold {
            sym,
            keep: squares(&|x| x <= sym.square(x)),
            fixed: squares(&|x| x == sym.square(x)),
        }
    }

    /// The canonical slots.
    #[inline]
    pub fn keep(&self) -> u64 {
        self.keep
    }

    /// The squares the symmetry maps onto themselves (canonical slots, each standing for
    /// half as many placements as the other canonical slots).
    #[inline]
    pub fn fixed(&self) -> u64 {
        self.fixed
    }

    /// The canonical slot of square `x`.
    #[inline]
    pub fn square(&self, x: Square) -> Square {
        if self.keep & 1 << x != 0 {
            x
        } else {
            self.sym.square(x)
        }
    }

    /// The canonical slots of the squares in `bits`.
    #[inline]
    pub fn fold(&self, bits: u64) -> u64 {
        bits & self.keep | self.sym.bitboard(bits & !self.keep)
    }

    /// The squares whose canonical slot is in `bits` (a set of canonical slots).
    #[inline]
    pub fn unfold(&self, bits: u64) -> u64 {
        let kept = bits & self.keep;
        kept | self.sym.bitboard(kept)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::geometry::Geometry;
    use crate::egt::material::Material;
    use crate::piece::PieceSet;

    fn material(spec: &str, set: &PieceSet) -> Material {
        Material::parse(spec, set).unwrap()
    }

    /// Blocks fold and move as the index says: a block's canonical slots are those its shape
    /// names, and when a man other than the block man goes to any square, each slot of the
    /// block goes where `block_after_move` says, folded blocks and symmetric royal pairs
    /// included; with pawns, pawn moves to other slices (and their mirror images) too.
    #[test]
    fn blocks_fold_and_move_as_the_index_says() {
        let set = PieceSet::standard();
        let geo = Geometry::new(&set);
        for spec in [
            "KQ.KR", "KBN.K", "KRR.KN", "KRP.K", "KP.KR", "KRP.KR", "KNP.KP",
        ] {
            let ix = Indexer::new(&material(spec, &set), &geo, true);
            let bm = ix.block_man().expect("a table with blocks");
            let pawns = spec.contains('P');
            let (mut halves, mut folded, mut checked) = (0, 0, 0);
            let step = if pawns { ix.size() / 64 / 400 } else { 29 } as usize;
            for w in (0..ix.size() / 64).step_by(step) {
                let Some(sq) = ix.block_men(w) else { continue };
                let others = (0..ix.men)
                    .filter(|&i| i != bm)
                    .fold(0u64, |o, i| o | 1 << sq[i]);
                let canonical = match ix.block_shape(w, &sq) {
                    BlockShape::Whole => !0,
                    BlockShape::Half(f) => {
                        halves += 1;
                        f.keep()
                    }
                    BlockShape::Hole => 0,
                };
                for x in (0..64u8).filter(|&x| others & 1 << x == 0) {
                    let slot = w * 64 + x as u64;
                    assert_eq!(
                        ix.decode(slot).is_some(),
                        canonical & 1 << x != 0,
                        "{spec} {slot}"
                    );
                }
                if canonical == 0 {
                    continue;
                }
                for i in (0..ix.men).filter(|&i| i != bm) {
                    for t in (0..64u8).filter(|&t| others & 1 << t == 0) {
                        let mut moved = sq;
                        moved[i] = t;
                        let to = ix.block_after_move(w, &sq, i, &moved);
                        folded += usize::from(matches!(to, BlockMove::Folded(..)));
                        let occupied = others & !(1 << sq[i]) | 1 << t;
                        for x in (0..64u8).filter(|&x| occupied & 1 << x == 0) {
                            moved[bm] = x;
                            let slot = match to {
                                BlockMove::Off => None,
                                BlockMove::Block(b) => Some(b * 64 + x as u64),
                                BlockMove::Mapped(b, g) => Some(b * 64 + g.square(x) as u64),
                                BlockMove::Folded(b, g, f) => {
                                    Some(b * 64 + f.square(g.square(x)) as u64)
                                }
                            };
                            assert_eq!(slot, ix.index(&moved), "{spec} {moved:?} from {sq:?}");
                            checked += 1;
                        }
                    }
                }
            }
            // With pawns (on 8×8) no block is folded: the mirror fixes no royal pair.
            assert!(
                (halves > 0 && folded > 0) != pawns && checked > 100_000,
                "{spec}: {halves} {folded} {checked}"
            );
        }
    }
}
