//! Block-wise work of the iterations. In a table with blocks (see `Indexer::has_blocks`) the
//! slots of a block differ only in the square of the block man, so a move of any other man
//! takes the whole block to one other block: a cache line or two of the table read, or one
//! set of squares written, for all its placements at once, where slot-by-slot work would
//! touch it once per placement. The block man's own moves stay inside the block.
//!
//! A block whose men a symmetry fixes (the block man aside) is *folded*: only half its slots
//! are canonical, the others standing for the same positions (`Fold`). Its own slots are read
//! through the fold; moves into such a block fold the slots they reach.

use super::bitmap::for_each_bit;
use super::candidates::Batch;
use super::no_escape::NoEscape;
use super::Build;
use crate::board::{Color, Square, SquareSet};
use crate::egt::index::{BlockMove, BlockMoves, BlockShape, Fold};
use crate::egt::material::Squares;

impl<S: SquareSet> Build<'_, S> {
    /// The men of block `w` (the block man's entry is 0), and its fold if it has one, when
    /// the steps work on it as a whole (the first pass does, see `setup_blockwise`) and the
    /// block holds positions (the other men stand on distinct squares, and they are
    /// canonical). A build from one side works its blocks so too: the other side's positions
    /// are read in the layout of Black's (see `images.rs`).
    pub(super) fn block(&self, w: u64) -> Option<(Squares, Option<Fold>)> {
        if !self.setup_blockwise() {
            return None;
        }
        self.block_men(w)
    }

    /// `block`'s men and fold of block `w`, for a table with blocks.
    pub(super) fn block_men(&self, w: u64) -> Option<(Squares, Option<Fold>)> {
        let sq = self.ix.block_men(w)?;
        match self.ix.block_shape(w, &sq) {
            BlockShape::Whole => Some((sq, None)),
            BlockShape::Half(fold) => Some((sq, Some(fold))),
            BlockShape::Hole => None,
        }
    }

    /// Whether the first pass works block by block: the table has blocks, and its pawns
    /// capture plainly (`Men::blockwise`), unless the recipe asks for slot-by-slot work.
    pub(super) fn setup_blockwise(&self) -> bool {
        self.blocks && self.ix.has_blocks() && self.men.blockwise()
    }

    /// Sets, through `batch` (positions with `mover` to move), every predecessor, by a move of
    /// `mover`, of the slots `frontier` of block `w` whose men are `sq` and fold `fold`. With
    /// `closed` (a loss step's: the opponent's no-escape set, which its checks read), the
    /// block man's un-moves within the block leave out the predecessors from which one of his
    /// own moves reaches a slot of the block off that set: their check would find that escape
    /// first (`own_quiet_losers`), and they stay candidates through the other men's un-moves.
    pub(super) fn gather_block(
        &self,
        w: u64,
        frontier: S,
        (sq, fold): &(Squares, Option<Fold>),
        mover: Color,
        closed: Option<&NoEscape<S>>,
        batch: &mut Batch<S>,
    ) {
        let bm = self.men.block_man();
        let others = self.men.others_of_block(sq);
        let moves = self.ix.block_moves(w, sq);
        self.men
            .for_each_unmove_of_block(sq, others, mover, |i, origin, allowed| {
                let slots = frontier & allowed;
                if slots.is_empty() {
                    return false;
                }
                self.add_predecessors(&moves, sq, i, origin, slots, batch);
                true
            });
        if self.men.has_special_moves() {
            self.men.for_each_special_unmove_of_block(
                sq,
                others,
                mover,
                &mut |i, origin, allowed| {
                    let slots = frontier & allowed;
                    if !slots.is_empty() {
                        self.add_predecessors(&moves, sq, i, origin, slots, batch);
                    }
                },
            );
        }
        if self.men.color(bm) == mover {
            let mut origins = self.men.unmove_origins_of_set(bm, frontier, others);
            if let Some(set) = closed {
                origins = self.own_quiet_losers(w, fold, origins, others, set);
            }
            // In a folded block, an origin may stand for the slot of its mirror image.
            batch.add(w, fold.map_or(origins, |f| self.ix.fold(&f, origins)));
        }
    }

    /// Adds to `batch` the predecessors of the slots `slots` of a block (men `sq`, its moves
    /// `moves`) by man `i`'s un-move from `origin`.
    #[inline(always)]
    fn add_predecessors(
        &self,
        moves: &BlockMoves,
        sq: &Squares,
        i: usize,
        origin: Square,
        slots: S,
        batch: &mut Batch<'_, '_, S>,
    ) {
        let mut moved = *sq;
        moved[i] = origin;
        match moves.after(sq, i, &moved) {
            BlockMove::Off => {}
            BlockMove::Block(b) => batch.add(b, slots),
            BlockMove::Mapped(b, g) => batch.add(b, self.ix.image(g, slots)),
            BlockMove::Folded(b, g, f) => batch.add(b, self.ix.fold(&f, self.ix.image(g, slots))),
        }
    }

    /// Of the slots `slots` of a block (men `sq`, its moves `moves`), those from which man
    /// `i`'s move to `to` reaches a slot off `no_escape`.
    #[inline(always)]
    fn escaping(
        &self,
        moves: &BlockMoves,
        sq: &Squares,
        i: usize,
        to: Square,
        slots: S,
        no_escape: &NoEscape<S>,
    ) -> S {
        let closed = self.targets(moves, sq, i, to, &|b| no_escape.word(b));
        slots & !closed.unwrap_or(!S::default())
    }

    /// The slots of a block (men `sq`, its moves `moves`) from which man `i`'s move to `to`
    /// reaches a slot of `set(b)`, a set of slots of the block b it lands in; `None` where
    /// the move reaches no position.
    #[inline(always)]
    pub(super) fn targets(
        &self,
        moves: &BlockMoves,
        sq: &Squares,
        i: usize,
        to: Square,
        set: &impl Fn(u64) -> S,
    ) -> Option<S> {
        let mut moved = *sq;
        moved[i] = to;
        Some(match moves.after(sq, i, &moved) {
            BlockMove::Off => return None,
            BlockMove::Block(b) => set(b),
            BlockMove::Mapped(b, g) => self.ix.image(g.inverse(), set(b)),
            BlockMove::Folded(b, g, f) => self.ix.image(g.inverse(), self.ix.unfold(&f, set(b))),
        })
    }

    /// Of the slots `alive` of block `w` (men `sq`, fold `fold`, side `c` to move), those
    /// whose every quiet move reaches a slot of `no_escape`, the opponent's positions that are
    /// illegal or won in at most the distance reached; and whether the block man's own moves
    /// alone let every slot of `alive` escape.
    pub(super) fn quiet_losers_of_block(
        &self,
        w: u64,
        mut alive: S,
        (sq, fold): &(Squares, Option<Fold>),
        c: Color,
        no_escape: &NoEscape<S>,
    ) -> (S, bool) {
        let bm = self.men.block_man();
        let others = self.men.others_of_block(sq);
        // The block man's own moves first: they stay in the block, one read for all of them.
        if self.men.color(bm) == c {
            alive = self.own_quiet_losers(w, fold, alive, others, no_escape);
            if alive.is_empty() {
                return (alive, true);
            }
        }
        let moves = self.ix.block_moves(w, sq);
        self.men
            .for_each_quiet_of_block(sq, others, c, false, |i, to, allowed| {
                let slots = alive & allowed;
                if !slots.is_empty() {
                    alive &= !self.escaping(&moves, sq, i, to, slots, no_escape);
                }
                !alive.is_empty()
            });
        if self.men.has_special_moves() && !alive.is_empty() {
            self.men
                .for_each_special_quiet_of_block(sq, others, c, &mut |i, to, allowed| {
                    let slots = alive & allowed;
                    if !slots.is_empty() {
                        alive &= !self.escaping(&moves, sq, i, to, slots, no_escape);
                    }
                    !alive.is_empty()
                });
        }
        (alive, false)
    }

    /// Of the slots `alive` of block `w` (fold `fold`, the other men on `others`), those
    /// whose block man's moves all land on slots of the block that `no_escape` holds.
    #[inline(always)]
    fn own_quiet_losers(
        &self,
        w: u64,
        fold: &Option<Fold>,
        mut alive: S,
        others: S,
        no_escape: &NoEscape<S>,
    ) -> S {
        let mut closed = no_escape.word(w);
        if let Some(f) = fold {
            // The block man's moves may land on slots that stand for others.
            closed = self.ix.unfold(f, closed);
        }
        let bm = self.men.block_man();
        // A move from x reaches y exactly when x is an origin of an un-move from y: the
        // un-moves from the open squares, all at once where the block man's moves allow, or
        // else the fewer of the candidates' moves and the un-moves, walked square by square.
        let board = S::below(self.ix.block_len());
        let open = board & !closed & !others;
        if self.men.moves(bm).retro_slides().is_some() || open.count() < alive.count() {
            alive &= !self.men.unmove_origins_of_set(bm, open, others);
        } else {
            for_each_bit(alive, |x| {
                if !(self.men.quiet_targets(bm, x, others) & !closed).is_empty() {
                    alive &= !S::bit(x);
                }
            });
        }
        alive
    }
}
