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
    /// `moves`) by man `i`'s un-move from `origin`; where `batch` keeps only the blocks
    /// (`Batch::blocks_only`), some slots of the right block.
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
            // Only the block counts, and a symmetry's image of slots is no empty set.
            BlockMove::Mapped(b, _) | BlockMove::Folded(b, ..) if batch.blocks_only() => {
                batch.add(b, slots)
            }
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
            .for_each_quiet_of_block(sq, others, c, |i, to, allowed| {
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

/// Where side `c` has a legal non-capturing move in a block (men `sq`, the other men on
/// `others`), asked slot by slot (`QuietMoves::has`) and found for the whole block as first
/// needed: off the squares where the royal may be boxed in (a cheap superset); where he has a
/// safe step; where the block man, the mover's, has a move to a square on which he leaves the
/// royal unattacked; and, on the few squares left, man by man.
pub(super) struct QuietMoves<'b, 'a, S: SquareSet> {
    build: &'b Build<'a, S>,
    sq: Squares,
    others: S,
    c: Color,
    /// The squares of the block man on which c's royal is attacked.
    attacked: Option<S>,
    boxed: Option<S>,
    steps: Option<S>,
    /// The squares from which the block man, c's, has a move that leaves the royal safe.
    moves: Option<S>,
    /// Whether the block man is c's (and no pawn).
    own: bool,
}

impl<'b, 'a, S: SquareSet> QuietMoves<'b, 'a, S> {
    /// Nothing found yet, for side `c` in the block of men `sq`; `attacked`, if known, the
    /// squares of the block man on which c's royal is attacked.
    pub(super) fn new(
        build: &'b Build<'a, S>,
        sq: &Squares,
        c: Color,
        attacked: Option<S>,
    ) -> Self {
        let bm = build.men.block_man();
        QuietMoves {
            build,
            sq: *sq,
            others: build.men.others_of_block(sq),
            c,
            attacked,
            boxed: None,
            steps: None,
            moves: None,
            own: build.men.color(bm) == c && !build.men.is_pawn(bm),
        }
    }

    /// Whether side c has a legal non-capturing move (but a pawn's) with the block man on
    /// square x.
    #[inline]
    pub(super) fn has(&mut self, x: Square) -> bool {
        !self.boxed().contains(x)
            || self.steps().contains(x)
            || self.block_man_moves().contains(x)
            || self.others_move(x)
    }

    /// Of the squares `slots` of the block man, those where side c has a legal non-capturing
    /// move (but a pawn's).
    pub(super) fn of(&mut self, slots: S) -> S {
        let boxed = slots & self.boxed();
        if boxed.is_empty() {
            return slots;
        }
        let mut kept = slots;
        for_each_bit(boxed & !self.steps() & !self.block_man_moves(), |x| {
            if !self.others_move(x) {
                kept &= !S::bit(x);
            }
        });
        kept
    }

    /// A superset of the squares where the royal has no legal step.
    #[inline]
    fn boxed(&mut self) -> S {
        let (men, sq, others, c) = (&self.build.men, &self.sq, self.others, self.c);
        *(self.boxed).get_or_insert_with(|| men.royal_boxed_in_block(sq, others, c))
    }

    /// The squares where the royal has a legal step.
    #[inline]
    fn steps(&mut self) -> S {
        let (men, sq, others, c) = (&self.build.men, &self.sq, self.others, self.c);
        *(self.steps).get_or_insert_with(|| men.royal_steps_in_block(sq, others, c))
    }

    /// The squares from which the block man, if c's, has a move to a square on which he
    /// leaves the royal unattacked (none if he is not c's).
    #[inline]
    fn block_man_moves(&mut self) -> S {
        if !self.own {
            return S::default();
        }
        let (build, sq, others, c) = (self.build, &self.sq, self.others, self.c);
        let attacked = &mut self.attacked;
        *self.moves.get_or_insert_with(|| {
            let men = &build.men;
            let attacked =
                *attacked.get_or_insert_with(|| men.royal_attacked_in_block(sq, others, c));
            let safe = S::below(build.ix.block_len()) & !attacked & !others;
            men.unmove_origins_of_set(men.block_man(), safe, others)
        })
    }

    /// Whether a man of side c but the royal and the block man (if c's) has a legal
    /// non-capturing move with the block man on x.
    fn others_move(&self, x: Square) -> bool {
        let (men, c) = (&self.build.men, self.c);
        let bm = men.block_man();
        let mut s = self.sq;
        s[bm] = x;
        let known = |i| i == c.index() || (self.own && i == bm);
        men.has_quiet_move_among(&s, men.occupancy(&s), c, |i| !known(i))
    }
}
