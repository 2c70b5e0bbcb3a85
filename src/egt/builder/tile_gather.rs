//! From one side, a loss step that marks blocks (`Build::marks_blocks`) un-moves from a word
//! of Black's frontier blocks at once where it read them as a tile (`images.rs`). The 64
//! blocks of a word differ only in the square of the block man's partner, and White's wins
//! whose images they are sit one to a block: block by block, each of them walked its men's
//! un-moves and marked each block it reached, for a few slots. Here the un-moves of every man
//! but the block man and the partner are walked once for the word, and each takes the word to
//! another word of blocks, the partner's square kept: one write marks the blocks it reaches
//! of all 64. Only the partner's un-moves and the block man's are worked out block by block.
//!
//! The step's candidates are their blocks alone, so a block is marked exactly when some slot
//! of the frontier in the blocks it comes from has a predecessor in it, as block by block.

use super::bitmap::for_each_bit;
use super::candidates::{Held, Parked, Writes};
use super::Build;
use crate::board::{Color, SquareSet};
use crate::egt::index::{BlockMove, BlockShape, Indexer};
use crate::egt::men::Men;

/// Most words of blocks a step holds back before it marks them ([`Held`]).
const MARKS: usize = 32;

/// The blocks 64·k + b for the bits b of `blocks`, to mark in a [`Parked`] that keeps blocks
/// only.
#[derive(Clone, Copy, Default)]
struct Marks {
    k: u64,
    blocks: u64,
}

impl<S: SquareSet> Writes<Marks> for Parked<'_, S> {
    #[inline]
    fn prefetch(&self, marks: Marks) {
        self.prefetch_blocks(marks.k);
    }

    #[inline]
    fn write(&self, marks: Marks) {
        self.add_blocks(marks.k, marks.blocks);
    }
}

impl<S: SquareSet> Build<'_, S> {
    /// Marks in `into`, which keeps blocks only, the blocks of the predecessors, with
    /// `mover` to move, of the slots `found[q]` of Black's blocks 64·k + q (those of a
    /// frontier's word read as a tile, the partner on square q), by un-passing too if
    /// `unpass`. Returns false, having marked nothing, where the men move by lame leaps or
    /// hops or the word's blocks are no tile: the caller un-moves block by block.
    pub(super) fn gather_tile(
        &self,
        k: u64,
        found: &[S; 64],
        mover: Color,
        unpass: bool,
        into: &Parked<S>,
    ) -> bool {
        debug_assert!(self.has_tiles() && into.blocks_only());
        if self.men.has_special_moves() {
            return false;
        }
        if self.cancelled() {
            return true;
        }
        let mut out = Held::<_, _, MARKS>::new(into);
        tile_predecessors(self.ix, self.men, k, found, mover, unpass, |k, blocks| {
            if blocks != 0 {
                out.push(Marks { k, blocks });
            }
        })
    }
}

/// Calls `mark(k', blocks)` for the blocks 64·k' + b, b the bits of `blocks`, that hold
/// predecessors, with `mover` to move, of the slots `found[q]` of the blocks 64·k + q of a
/// table stored once on the 8×8 board (whose layout has the block man's partner, the man who
/// takes his place under the colour swap, as the block's lowest digit), by un-passing too if
/// `unpass`; each block at least once. Returns false, having marked nothing, where the
/// word's blocks are not all of one placement of the royal pair that no symmetry moves or
/// fixes.
fn tile_predecessors<S: SquareSet>(
    ix: &Indexer,
    men: &Men<S>,
    k: u64,
    found: &[S; 64],
    mover: Color,
    unpass: bool,
    mut mark: impl FnMut(u64, u64),
) -> bool {
    let marks = (0..64)
        .filter(|&q| !found[q].is_empty())
        .fold(0u64, |m, q| m | 1 << q);
    if marks == 0 {
        return true;
    }
    let q0 = u64::from(marks.trailing_zeros());
    let Some(sq) = ix.block_men(k * 64 + q0) else {
        return false;
    };
    if !ix.is_plain(&sq) || ix.block_shape(k * 64 + q0, &sq) != BlockShape::Whole {
        return false;
    }
    let bm = men.block_man();
    let partner = ix.colour_swap().expect("a table stored once").carrier(bm);
    debug_assert_eq!(u64::from(sq[partner]), q0);
    // Every man but the block man and the partner.
    let occupied = men.others_of_block(&sq) & !S::bit(sq[partner]);
    if unpass {
        // The same placements with the mover to move, before it passed.
        mark(k, marks);
    }
    let moves = ix.block_moves(k * 64 + q0, &sq);
    men.for_each_unmove_of_tile(&sq, occupied, mover, partner, |i, o, allowed| {
        // The partners off the un-move's path whose blocks have a slot off it too.
        let mut reached = 0u64;
        for_each_bit(marks & allowed.lane(0), |q| {
            if !(found[q as usize] & allowed).is_empty() {
                reached |= 1 << q;
            }
        });
        if reached == 0 {
            // Further along the ray, the path only grows.
            return false;
        }
        let mut moved = sq;
        moved[i] = o;
        match moves.after(&sq, i, &moved) {
            BlockMove::Off => {}
            // A royal pair placed as it stands: the partner's square is the block's
            // lowest digit, so with him on q the block is b − q0 + q, all in the word
            // that b − q0 starts (a royal pair's blocks are whole words: the partner's
            // 64 squares are one of their digits).
            BlockMove::Block(b) if ix.is_plain(&moved) => {
                debug_assert!((b - q0).is_multiple_of(64));
                mark((b - q0) / 64, reached);
            }
            // A royal's un-move into a pair that a symmetry places or fixes, which
            // may take the partner's square too: block by block.
            _ => for_each_bit(reached, |q| {
                moved[partner] = q;
                mark_block(&mut mark, ix.block_of(&moved));
            }),
        }
        true
    });
    // The partner's un-moves and the block man's, block by block.
    let own = |i: usize| men.color(i) == mover && !men.is_pawn(i);
    let (partner_moves, block_man_moves) = (own(partner), own(bm));
    let mut unmoved = 0u64;
    for_each_bit(marks, |q| {
        let (w, frontier) = (k * 64 + u64::from(q), found[q as usize]);
        let mut at = sq;
        at[partner] = q;
        if partner_moves {
            let moves = ix.block_moves(w, &at);
            men.for_each_unmove_of_man(partner, q, occupied, |o, allowed| {
                if (frontier & allowed).is_empty() {
                    return false;
                }
                let mut moved = at;
                moved[partner] = o;
                mark_block(&mut mark, moves.after(&at, partner, &moved));
                true
            });
        }
        if block_man_moves
            && !men
                .unmove_origins_of_set(bm, frontier, occupied | S::bit(q))
                .is_empty()
        {
            unmoved |= 1 << q;
        }
    });
    mark(k, unmoved);
    true
}

/// Calls `mark` for the block a move reaches, if any, alone.
#[inline(always)]
fn mark_block(mark: &mut impl FnMut(u64, u64), reached: BlockMove) {
    match reached {
        BlockMove::Off => {}
        BlockMove::Block(b) | BlockMove::Mapped(b, _) | BlockMove::Folded(b, ..) => {
            mark(b / 64, 1 << (b % 64))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::geometry::{AnyTables, Geometry};
    use crate::board::test_random::TestRandom;
    use crate::egt::material::Material;
    use crate::piece::PieceSet;
    use std::collections::BTreeSet;

    /// A tile's un-moves reach exactly the blocks that un-moving from each of its slots, one
    /// at a time, reaches: in tables stored once on 8×8 with riders, leapers and both, the
    /// mover's men on either side of the partner or none, with and without un-passing, on
    /// random sparse tiles of random royal pairs (those that no symmetry moves or fixes).
    #[test]
    fn a_tile_reaches_the_blocks_its_slots_unmove_into() {
        let g = Geometry::new(&PieceSet::standard());
        let AnyTables::Narrow(tables) = g.tables() else {
            panic!("the 8×8 board's sets are one word")
        };
        let mut rng = TestRandom::new(0x2545_f491_4f6c_dd1d);
        for spec in ["KQ.KQ", "KRN.KRN", "KAN.KAN", "KBR.KBR"] {
            let material = Material::parse(spec, g.pieces()).unwrap();
            let ix = Indexer::new(&material, &g, true);
            let men = Men::new(&material, tables).with_blocks_of(&ix);
            let partner = ix.colour_swap().unwrap().carrier(men.block_man());
            let mut tiles = 0;
            while tiles < 300 {
                let k = rng.below(ix.size() / 64 / 64);
                let found: [u64; 64] = std::array::from_fn(|q| {
                    let w = k * 64 + q as u64;
                    match ix.block_men(w) {
                        Some(sq)
                            if usize::from(sq[partner]) == q
                                && ix.block_shape(w, &sq) == BlockShape::Whole
                                && rng.below(3) == 0 =>
                        {
                            rng.set::<u64>(64, 6) & !men.others_of_block(&sq)
                        }
                        _ => 0,
                    }
                });
                for (mover, unpass) in [(Color::White, false), (Color::Black, true)] {
                    let mut tiled = BTreeSet::new();
                    let done = tile_predecessors(&ix, &men, k, &found, mover, unpass, |k, b| {
                        for_each_bit(b, |q| {
                            tiled.insert(k * 64 + u64::from(q));
                        })
                    });
                    if !done {
                        continue;
                    }
                    let mut slot_by_slot = BTreeSet::new();
                    for (q, &slots) in found.iter().enumerate() {
                        let w = k * 64 + q as u64;
                        for_each_bit(slots, |x| {
                            let z = w * 64 + u64::from(x);
                            let sq = ix.decode(z).expect("a tile's slots are positions");
                            if unpass {
                                slot_by_slot.insert(w);
                            }
                            let plain = ix.is_plain(&sq);
                            men.for_each_unmove(&sq, men.occupancy(&sq), mover, |i, _, pred| {
                                if let Some(p) = ix.after_move(z, plain, &sq, i, pred) {
                                    slot_by_slot.insert(p / 64);
                                }
                            });
                        });
                    }
                    assert_eq!(tiled, slot_by_slot, "{spec}, tile {k}, {mover:?} un-moving");
                    tiles += 1;
                }
            }
        }
    }
}
