//! The win half of distance n: every position with a move to a position lost in n−1 (the
//! opponent's loss frontier, un-moved from by `gather.rs`, or, where fewer blocks may still be
//! won than that frontier holds, looked for from them: `win_pull.rs`) that is not yet won in
//! fewer moves is won in n. The positions won in n are the frontier of the loss half.

use super::bitmap::for_each_bit;
use super::far::Kind;
use super::frontier::Frontier;
use super::sides::Word;
use super::step_times::Step;
use super::win_pull::improvable;
use super::Build;
use crate::board::{Color, SquareSet};
use std::time::Instant;

impl<S: SquareSet> Build<'_, S> {
    /// Distance n: every predecessor of a position lost in n−1 that is not yet won in fewer
    /// moves is won in n. Returns how many positions were won in n, of the sides built.
    pub(super) fn win_step(&self, n: u16) -> u64 {
        // The loss step of n − 1 has un-moved from the wins of n − 1.
        for &c in self.sides_built() {
            self.settle_far(c, &self.won[c.index()], Kind::Win, n - 1);
        }
        self.won.iter().for_each(Frontier::clear);
        let win = self.far.code(Kind::Win, n);
        let step = |c: Color| {
            let start = Instant::now();
            let won = &self.won;
            let found = self.collect(c, n, Kind::Win, won);
            self.set_held_wins();
            let lost = (self.far.code(Kind::Loss, n - 1), win);
            let frontier = self.lost_at(n - 1)[c.flip().index()].count();
            // Pulled into the blocks a win may improve, or pushed from the frontier
            // (`win_pull.rs`).
            let (pulled, blocks) = self.pulls_wins(c, frontier, win);
            let improved = if pulled {
                self.pull_wins(c, n, lost, won)
            } else {
                self.gather(c, Kind::Win, self.lost_at(n - 1), lost, true);
                self.check_candidates(c, Kind::Win, win, won, |w, bits, word| {
                    self.push_wins(w, bits, word, c, win)
                })
            };
            let time = start.elapsed();
            self.step_times.add(Step::Win, c, time);
            self.win_step_timed(c, pulled, blocks, time);
            log::trace!(
                "{}: distance {n}, {}'s wins: {found} collected, {improved} found {} {blocks} {} blocks, {:.4} s",
                self.name,
                c.name(),
                if pulled { "in" } else { "from" },
                if pulled { "open" } else { "frontier" },
                time.as_secs_f64()
            );
            found + improved
        };
        let count = self.sides_built().iter().map(|&c| step(c)).sum();
        self.set_held_wins();
        for &c in self.sides_built() {
            self.settle_far(c, &self.lost_at(n - 1)[c.index()], Kind::Loss, n - 1);
        }
        self.lost_at(n - 1).iter().for_each(Frontier::clear);
        count
    }

    /// Sets the wins held back (`held_wins.rs`), at the end of each parallel part of a win
    /// step, where they are.
    fn set_held_wins(&self) {
        if self.holds_wins_back() {
            self.held_wins
                .set_all(&self.no_escape[Color::Black.index()]);
        }
    }

    /// Wins, in the byte `win`, the candidates `bits` of side `c`'s block `w` (its word of
    /// c's table `word`) that a win improves, and returns them.
    fn push_wins(&self, w: u64, bits: S, word: &mut Word, c: Color, win: u8) -> S {
        let mut improves = bits & improvable::<S>(&word.bytes(), win) & !self.fixed_word(c, w);
        if self.rules.null_move.allows(c) {
            // Reached by un-passing: a stalemated side may not pass.
            let len = self.ix.block_len() as u64;
            for_each_bit(improves, |b| {
                let sq = self
                    .ix
                    .decode(w * len + b as u64)
                    .expect("candidates are positions");
                if !self.men.has_legal_move(&sq, self.men.occupancy(&sq), c) {
                    improves &= !S::bit(b);
                }
            });
        }
        for_each_bit(improves, |b| word.store(b, win));
        improves
    }
}
