//! The win half of distance n: every position with a move to a position lost in n−1 (the
//! opponent's loss frontier, un-moved from by `gather.rs`) that is not yet won in fewer moves
//! is won in n. The positions won in n are the frontier of the loss half.

use super::bitmap::for_each_bit;
use super::far::Kind;
use super::frontier::Frontier;
use super::step_times::Step;
use super::Build;
use crate::board::{Color, SquareSet};
use crate::egt::value::{NOT_LOST, UNKNOWN};
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
            let lost = (self.far.code(Kind::Loss, n - 1), win);
            self.gather(c, Kind::Win, self.lost_at(n - 1), lost, true);
            let passes = self.rules.null_move.allows(c);
            let len = self.ix.block_len() as u64;
            let improved = self.check_candidates(c, Kind::Win, win, won, |w, bits, word| {
                let bytes = word.bytes();
                // Undecided, or won in more than n: a provisional win (ILLEGAL and
                // NOT_LOST are odd; no loss moves into a loss, LOSS_NEW_ODD included).
                let longer = bytes.even::<S>() & !bytes.at_most::<S>(win);
                let undecided = bytes.equal::<S>(UNKNOWN) | bytes.equal::<S>(NOT_LOST);
                let mut improves = bits & (undecided | longer) & !self.fixed_word(c, w);
                if passes {
                    // Reached by un-passing: a stalemated side may not pass.
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
            });
            let time = start.elapsed();
            self.step_times.add(Step::Win, c, time);
            log::trace!(
                "{}: distance {n}, {}'s wins: {found} collected, {improved} found, {:.4} s",
                self.name,
                c.name(),
                time.as_secs_f64()
            );
            found + improved
        };
        let count = self.sides_built().iter().map(|&c| step(c)).sum();
        for &c in self.sides_built() {
            self.settle_far(c, &self.lost_at(n - 1)[c.index()], Kind::Loss, n - 1);
        }
        self.lost_at(n - 1).iter().for_each(Frontier::clear);
        count
    }
}
