//! Block-wise work of the iterations. In a table with blocks (see `Indexer::has_blocks`) the
//! 64 slots of a block differ only in the square of the block man, so a move of any other man
//! takes the whole block to one other block: one cache line of the table read, or one bitmap
//! word written, for all 64 placements at once, where slot-by-slot work would touch it once
//! per placement. The block man's own moves stay inside the block.
//!
//! A block whose men a symmetry fixes (the block man aside) is *folded*: only half its slots
//! are canonical, the others standing for the same positions (`Fold`). Its own slots are read
//! through the fold; moves into such a block fold the slots they reach.

use super::bitmap::for_each_bit;
use super::candidates::{Batch, Parked};
use super::no_escape::NoEscape;
use super::Build;
use crate::board::{Color, SquareSet};
use crate::egt::index::{BlockMove, BlockShape, Fold};
use crate::egt::material::Squares;

impl<S: SquareSet> Build<'_, S> {
    /// The men of block `w` (the block man's entry is 0), and its fold if it has one, when
    /// the block can be worked on as a whole: the table has blocks, its men move plainly
    /// (see `blockwise`), and the block holds positions (the other men stand on distinct
    /// squares, and they are canonical).
    pub(super) fn block(&self, w: u64) -> Option<(Squares, Option<Fold>)> {
        if !self.blockwise() {
            return None;
        }
        let sq = self.ix.block_men(w)?;
        match self.ix.block_shape(w, &sq) {
            BlockShape::Whole => Some((sq, None)),
            BlockShape::Half(fold) => Some((sq, Some(fold))),
            BlockShape::Hole => None,
        }
    }

    /// Whether the build works block by block: the table has blocks, and every man moves by
    /// plain leaps and rides (a lame leap or a hop of one man may depend on the block man in
    /// ways the block-wise work does not model; such tables are worked slot by slot).
    pub(super) fn blockwise(&self) -> bool {
        self.ix.has_blocks() && self.men.blockwise()
    }

    /// Sets in `into` (positions with `mover` to move) every predecessor, by a move of
    /// `mover`, of the slots `frontier` of block `w` whose men are `sq` and fold `fold`.
    pub(super) fn gather_block(
        &self,
        w: u64,
        frontier: u64,
        (sq, fold): &(Squares, Option<Fold>),
        mover: Color,
        into: &Parked,
    ) {
        let bm = self.men.block_man();
        let others = self.men.others_of_block(sq);
        let mut batch = Batch::new(into);
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
                    BlockMove::Block(b) => batch.add(b, slots),
                    BlockMove::Mapped(b, g) => batch.add(b, g.bitboard(slots)),
                    BlockMove::Folded(b, g, f) => batch.add(b, f.fold(g.bitboard(slots))),
                }
                true
            });
        if self.men.color(bm) == mover {
            let mut origins = 0u64;
            for_each_bit(frontier, |x| {
                origins |= self.men.unmove_origins(bm, x, others).low64();
            });
            // In a folded block, an origin may stand for the slot of its mirror image.
            batch.add(w, fold.map_or(origins, |f| f.fold(origins)));
        }
    }

    /// Of the slots `alive` of block `w` (men `sq`, fold `fold`, side `c` to move), those
    /// whose every quiet move reaches a slot of `no_escape`, the opponent's positions that are
    /// illegal or won in at most the distance reached.
    pub(super) fn quiet_losers_of_block(
        &self,
        w: u64,
        mut alive: u64,
        (sq, fold): &(Squares, Option<Fold>),
        c: Color,
        no_escape: &NoEscape,
    ) -> u64 {
        let bm = self.men.block_man();
        let others = self.men.others_of_block(sq);
        // The block man's own moves first: they stay in the block, one read for all of them.
        if self.men.color(bm) == c {
            let mut closed = no_escape.word(w);
            if let Some(f) = fold {
                // The block man's moves may land on slots that stand for others.
                closed = f.unfold(closed);
            }
            // Walk the fewer: the candidates' moves, or the moves into the open squares
            // (a move from x reaches y exactly when x is an origin of an un-move from y).
            let open = !closed & !others.low64();
            if open.count_ones() < alive.count_ones() {
                let mut escaping = 0;
                for_each_bit(open, |y| {
                    escaping |= self.men.unmove_origins(bm, y, others).low64();
                });
                alive &= !escaping;
            } else {
                for_each_bit(alive, |x| {
                    if self.men.quiet_targets(bm, x, others).low64() & !closed != 0 {
                        alive &= !(1 << x);
                    }
                });
            }
            if alive == 0 {
                return 0;
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
                let closed = match self.ix.block_after_move(w, sq, i, &moved) {
                    BlockMove::Off => !0,
                    BlockMove::Block(b) => no_escape.word(b),
                    BlockMove::Mapped(b, g) => g.inverse().bitboard(no_escape.word(b)),
                    BlockMove::Folded(b, g, f) => g.inverse().bitboard(f.unfold(no_escape.word(b))),
                };
                alive &= !(slots & !closed);
                alive != 0
            });
        alive
    }
}
