//! The loss half of distance n: each undecided predecessor of a position won in n (found by
//! `gather.rs`) is checked once by a forward look at all its moves, and is lost when every
//! move reaches a position won for the opponent in at most n (in n, or later when a capture
//! reaches a longer win). The positions of this table that moves reach are read from the
//! opponent's no-escape bits (`no_escape.rs`), not from its table. Tables with blocks look at
//! a block's quiet moves for all its slots at a time (`blocks.rs`). Where the frontier of wins
//! is a large share of the blocks still open, a step checks every undecided position instead,
//! without the gather (`open_blocks.rs`); in a large table, every undecided position of the
//! blocks the gather marked (`Build::marks_blocks`).
//!
//! The quiet moves and the pass of a candidate that all reach such positions reach wins in at
//! most n, and one of them a win in exactly n: the candidate was found from it, and were they
//! all shorter, it would have been settled at the distance of the longest. So they count as n,
//! and only exits (captures, pawn moves, promotions), valued from the smaller tables and the
//! finished layers, can make the loss longer.
//!
//! A DTZ build counts plies: a loss is one ply longer than the longest win it moves into, so
//! the step of distance n finds the losses of n + 1 (`Build::loss_target`); an exit's value
//! already counts that ply (`dtz::after_zeroing`).

use super::bitmap::for_each_bit;
use super::exits::Exits;
use super::far::Kind;
use super::no_escape::NoEscape;
use super::open_blocks::Cost;
use super::sides::Word;
use super::step_times::Step;
use super::{Build, MAX_DISTANCE};
use crate::board::{Color, SquareSet};
use crate::egt::material::Squares;
use crate::egt::men::Occupancy;
use crate::egt::value::{Value, UNKNOWN};
use std::cell::RefCell;
use std::sync::atomic::Ordering::Relaxed;
use std::time::Instant;

impl<S: SquareSet> Build<'_, S> {
    /// Distance n: every undecided predecessor of a position won in n whose moves all reach
    /// positions won for the opponent in at most n is lost (at `loss_target(n)`: in n, or in
    /// n + 1 plies; or later when a capture reaches a longer win, in which case it waits for
    /// that distance). Each candidate is checked once however many of its successors were
    /// won in n. Returns how many positions were lost at `loss_target(n)`, of the sides
    /// built.
    pub(super) fn loss_step(&self, n: u16) -> u64 {
        let target = self.loss_target(n);
        let step = |c: Color| {
            let lost = self.lost_at(target);
            let win = self.far.code(Kind::Win, n);
            // Every open block, or the candidates (`open_blocks.rs`). Checked so, a position
            // that passing cannot save must have a legal quiet move to lose.
            let start = Instant::now();
            let read = &self.won[self.frontier_read(c).index()];
            let (open, blocks) = self.checks_open(c, read);
            // Every undecided slot of the blocks checked, not each of them a predecessor.
            let every = open || self.marks_blocks(c);
            let moved = !every || self.rules.null_move.allows(c);
            self.gather(c, Kind::Loss, &self.won, (win, win), !open);
            let (gathered, candidates) = (Instant::now(), self.candidates.count());
            // The opponent's set holds the opponent's positions at their own slots, from one
            // side too (`no_escape.rs`).
            let no_escape = &self.no_escape[c.flip().index()];
            let len = self.ix.block_len() as u64;
            let check = |w, bits: S, word: &mut Word| {
                let bytes = word.bytes();
                let undecided = bits & bytes.equal::<S>(UNKNOWN) & !self.fixed_word(c, w);
                if undecided.is_empty() {
                    return undecided;
                }
                if let Some(block) = self.block(w) {
                    let (mut losers, escaped) =
                        self.quiet_losers_of_block(w, undecided, &block, c, no_escape);
                    // Checked open, `undecided` is all of the block's (seeds aside).
                    if escaped && open {
                        self.open.mark_escaped(c, w);
                    }
                    if !moved {
                        losers = self.with_quiet_move(&block.0, losers, c);
                    }
                    return self.settle_block_losers(w, &block.0, losers, c, word, n, no_escape);
                }
                let mut kept = S::default();
                for_each_bit(undecided, |b| {
                    let p = w * len + b as u64;
                    let sq = self.ix.decode(p).expect("undecided slots are positions");
                    let d = self.all_moves_lose(p, &sq, c, no_escape, n, moved);
                    if self.settle_loss(c, word, p, d, target) {
                        kept |= S::bit(b);
                    }
                });
                kept
            };
            let kept = match open {
                true => self.check_open(c, Kind::Loss, lost, check),
                false => self.check_candidates(c, Kind::Loss, win, lost, check),
            };
            let (time, checks) = (start.elapsed(), gathered.elapsed());
            self.step_times.add(Step::Loss, c, time);
            log::trace!(
                "{}: distance {n}, {}'s losses: {} {blocks} {} blocks, {candidates} candidate \
                 blocks, gather {:.4} s, checks {:.4} s, {kept} lost",
                self.name,
                c.name(),
                if open { "checked" } else { "un-moved from" },
                if open { "open" } else { "frontier" },
                (time - checks).as_secs_f64(),
                checks.as_secs_f64(),
            );
            if open {
                self.costs.timed(c, Cost::Open, blocks, time);
            } else {
                self.costs.timed(c, Cost::Gathered, blocks, time);
                self.costs.timed(c, Cost::Candidate, candidates, checks);
            }
            kept
        };
        self.sides_built().iter().map(|&c| step(c)).sum()
    }

    /// Settles the slots `losers` of block `w` (men `sq`, side `c` to move, its word of c's
    /// table `word`), whose quiet moves all reach slots of `no_escape` at step n, as
    /// `other_moves_lose` says; returns those lost at the step's target. Their exits are
    /// valued for the block at once, as the first pass does.
    #[allow(clippy::too_many_arguments)]
    fn settle_block_losers(
        &self,
        w: u64,
        sq: &Squares,
        losers: S,
        c: Color,
        word: &mut Word,
        n: u16,
        no_escape: &NoEscape<S>,
    ) -> S {
        if losers.is_empty() {
            return losers;
        }
        let target = self.loss_target(n);
        // Where passing is not allowed, a loser whose exits lose in at most the target (or
        // who has none) is lost in what its quiet moves give: at the target
        // (`other_moves_lose`).
        let bulk = !self.rules.null_move.allows(c) && target <= MAX_DISTANCE;
        let code = self.far.code(Kind::Loss, target);
        if bulk && self.exit_bounds.within(c, w, target) {
            for_each_bit(losers, |x| word.store(x, code));
            return losers;
        }
        let len = self.ix.block_len();
        EXITS.with_borrow_mut(|exits| {
            exits.resize(len, Exits::default());
            let others = self.men.others_of_block(sq);
            let exiting = self.exits_in_block(sq, others, losers, c, exits);
            let mut kept = S::default();
            let mut slow = losers;
            if bulk {
                kept = losers & !exiting;
                for_each_bit(kept, |x| word.store(x, code));
                slow = losers & exiting;
            }
            let bm = self.men.block_man();
            for_each_bit(slow, |x| {
                let mut s = *sq;
                s[bm] = x;
                let p = w * len as u64 + x as u64;
                // The pass reaches the same slot.
                let occ = || self.men.occupancy(&s);
                let d = self.other_moves_lose(p, &s, occ, c, no_escape, n, exits[x as usize]);
                if self.settle_loss(c, word, p, d, target) {
                    kept |= S::bit(x);
                }
            });
            kept
        })
    }

    /// Stores the outcome `d` of `all_moves_lose` for slot `p` of side `c`, in `word`, the
    /// block that holds it, where the step finds the losses of distance `target`: a loss at
    /// `target` (returns true: `p` joins the frontier), a loss waiting for a later distance,
    /// or nothing.
    fn settle_loss(&self, c: Color, word: &mut Word, p: u64, d: Option<u16>, target: u16) -> bool {
        let Some(d) = d else {
            return false;
        };
        let (w, x) = self.ix.block_and_square(p);
        if d > MAX_DISTANCE {
            self.too_long.store(true, Relaxed);
            false
        } else if d == target {
            word.store(x, self.far.code(Kind::Loss, target));
            true
        } else {
            let byte = self.far.provisional(c, p, Value::Loss(d));
            word.store(x, byte);
            if self.far.is_direct(d) {
                self.pending.add(c, w, byte);
            }
            false
        }
    }

    /// If every legal move of side `c` (and its pass, where allowed) reaches a position won
    /// for the opponent (a slot of `no_escape` for positions of this table, at step n), the
    /// longest such win. `None` also when `c` has no legal move: mate and stalemate were
    /// settled in the first pass (a stalemated side may not pass). Unless `moved` (the
    /// position was found by un-moving, or its pass is checked), it needs a legal quiet move.
    fn all_moves_lose(
        &self,
        index: u64,
        sq: &Squares,
        c: Color,
        no_escape: &NoEscape<S>,
        n: u16,
        moved: bool,
    ) -> Option<u16> {
        let occ = self.men.occupancy(sq);
        let plain = self.ix.is_plain(sq);
        let closed = self.men.for_each_quiet(sq, occ, c, |i, t| {
            let mut s2 = *sq;
            s2[i] = t;
            (self.ix.after_move(index, plain, sq, i, &s2))
                .is_none_or(|next| no_escape.contains(next))
        });
        if !closed || !(moved || self.men.has_quiet_move(sq, occ, c)) {
            return None;
        }
        let exits = self.exits_of(sq, occ, c);
        self.other_moves_lose(index, sq, || occ, c, no_escape, n, exits)
    }

    /// `all_moves_lose` once every quiet move is known to reach a slot of `no_escape`, given
    /// what the exits give side `c` (`exits`): the exits and the pass, which reaches slot
    /// `passed` of `no_escape`. `occ` gives the placement's occupancy, asked for only where
    /// passing is allowed.
    #[allow(clippy::too_many_arguments)]
    fn other_moves_lose(
        &self,
        passed: u64,
        sq: &Squares,
        occ: impl Fn() -> Occupancy<S>,
        c: Color,
        no_escape: &NoEscape<S>,
        n: u16,
        exits: Exits,
    ) -> Option<u16> {
        // An exit that wins or draws: not lost.
        if exits.best_win().is_some() || exits.draws() {
            return None;
        }
        // Where passing is not allowed, every candidate was found by a legal quiet move.
        let quiet = !self.rules.null_move.allows(c) || self.men.has_quiet_move(sq, occ(), c);
        if !quiet && exits.worst_loss().is_none() {
            return None;
        }
        // Each quiet move and the pass reach a win in at most n, one of them in n (see the
        // module doc): the loss they give, n or (counting plies) n + 1.
        let reached = self.loss_target(n);
        let mut longest = exits.worst_loss().unwrap_or(0);
        if quiet {
            longest = longest.max(reached);
        }
        if self.may_pass(c, || self.men.royal_attacked(sq, occ().all(), c)) {
            if !no_escape.contains(passed) {
                return None;
            }
            longest = longest.max(reached);
        }
        Some(longest)
    }
}

thread_local! {
    /// Room for what the exits give each slot of a block (`settle_block_losers`), one per
    /// thread.
    static EXITS: RefCell<Vec<Exits>> = const { RefCell::new(Vec::new()) };
}
