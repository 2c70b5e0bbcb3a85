//! Block-wise work of the iterations. In a table with blocks (see `Indexer::has_blocks`) the
//! 64 slots of a block differ only in the square of the block man, so a move of any other man
//! takes the whole block to one other block: one cache line of the table read, or one bitmap
//! word written, for all 64 placements at once, where slot-by-slot work would touch it once
//! per placement. The block man's own moves stay inside the block.
//!
//! Only blocks whose royal pair is plain are worked on this way (their slots are all
//! canonical as they stand); the builder handles the others slot by slot.

use super::bitmap::{for_each_bit, Bitmap};
use super::bytes::Bytes64;
use super::Build;
use crate::board::Color;
use crate::egt::index::{BlockMove, Squares};
use crate::egt::value::{win_byte, ILLEGAL};

impl Build<'_> {
    /// The men of block `w` (the block man's entry is 0) when the block can be worked on as a
    /// whole: the table has blocks, the other men stand on distinct squares, and their royal
    /// pair is plain.
    pub(super) fn plain_block(&self, w: u64) -> Option<Squares> {
        if !self.ix.has_blocks() {
            return None;
        }
        let sq = self.ix.block_men(w)?;
        self.ix.is_plain(&sq).then_some(sq)
    }

    /// Sets in `into` (positions with `mover` to move) every predecessor, by a move of
    /// `mover`, of the slots `frontier` of the plain block `w` whose men are `sq`.
    pub(super) fn gather_block(
        &self,
        w: u64,
        frontier: u64,
        sq: &Squares,
        mover: Color,
        into: &Bitmap,
    ) {
        let bm = self.men.block_man();
        let others = self.men.others_of_block(sq);
        self.men
            .for_each_unmove_of_block(sq, others, mover, |i, origin, path| {
                let slots = frontier & !path;
                if slots == 0 {
                    return false;
                }
                let mut moved = *sq;
                moved[i] = origin;
                match self.ix.block_after_move(w, sq, i, &moved) {
                    BlockMove::Off => {}
                    BlockMove::Block(b) => into.or_word(b, slots),
                    BlockMove::Mapped(b, g) => into.or_word(b, g.bitboard(slots)),
                    BlockMove::Scattered => for_each_bit(slots, |x| {
                        moved[bm] = x;
                        if let Some(p) = self.ix.index(&moved) {
                            into.set(p);
                        }
                    }),
                }
                true
            });
        if self.men.color(bm) == mover {
            let mut origins = 0u64;
            for_each_bit(frontier, |x| {
                origins |= self.men.unmove_origins(bm, x, others);
            });
            into.or_word(w, origins);
        }
    }

    /// Of the slots `alive` of the plain block `w` (men `sq`, side `c` to move), those
    /// whose every quiet move reaches a position won for the opponent in at most n; and the
    /// set of slots that have a legal quiet move. `opponent_table` holds the bytes of the
    /// opponent's table.
    pub(super) fn quiet_losers_of_block(
        &self,
        w: u64,
        mut alive: u64,
        sq: &Squares,
        c: Color,
        n: u16,
        opponent_table: &[u8],
    ) -> (u64, u64) {
        let bm = self.men.block_man();
        let others = self.men.others_of_block(sq);
        let opponent = c.flip();
        let mut moving = 0u64;
        // The block man's own moves first: they stay in the block, one read for all of them.
        if self.men.color(bm) == c {
            let (illegal, won) = won_masks(opponent_table, w, n);
            for_each_bit(alive, |x| {
                let legal = self.men.quiet_targets(bm, x, others) & !illegal;
                if legal != 0 {
                    moving |= 1 << x;
                }
                if legal & !won != 0 {
                    alive &= !(1 << x);
                }
            });
            if alive == 0 {
                return (0, moving);
            }
        }
        self.men
            .for_each_quiet_of_block(sq, others, c, |i, to, path| {
                let slots = alive & !path;
                if slots == 0 {
                    return true;
                }
                let mut moved = *sq;
                moved[i] = to;
                let (illegal, won) = match self.ix.block_after_move(w, sq, i, &moved) {
                    BlockMove::Off => (!0, 0),
                    BlockMove::Block(b) => won_masks(opponent_table, b, n),
                    BlockMove::Mapped(b, g) => {
                        let (illegal, won) = won_masks(opponent_table, b, n);
                        let back = g.inverse();
                        (back.bitboard(illegal), back.bitboard(won))
                    }
                    BlockMove::Scattered => {
                        let (mut illegal, mut won) = (0u64, 0u64);
                        for_each_bit(slots, |x| {
                            moved[bm] = x;
                            let next = self.ix.index(&moved);
                            match next.and_then(|p| self.won_within(opponent, p, n)) {
                                None => illegal |= 1 << x,
                                Some(Some(_)) => won |= 1 << x,
                                Some(None) => {}
                            }
                        });
                        (illegal, won)
                    }
                };
                let legal = slots & !illegal;
                moving |= legal;
                alive &= !(legal & !won);
                alive != 0
            });
        (alive, moving)
    }
}

/// For the slots of block `b` of a table's bytes: the illegal ones, and those won in at
/// most n.
#[inline]
fn won_masks(table: &[u8], b: u64, n: u16) -> (u64, u64) {
    let bytes = Bytes64::of_word(table, b);
    // Won in d ≤ n: an even byte 2d with 0 < 2d ≤ 2n.
    let won = bytes.even_up_to(win_byte(n));
    (bytes.equal(ILLEGAL), won)
}
