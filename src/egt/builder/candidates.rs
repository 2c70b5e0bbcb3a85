//! The candidates of a step: the slots it checks, found by un-moving from a frontier. The
//! gather that finds them ORs one scattered bitmap word per un-move, a hundred million times
//! for a 5-man table. An atomic OR is a locked instruction on x86, which holds the thread until
//! its cache line arrives; so each thread ORs into a bitmap of its own, its *lane*, with plain
//! writes, and the step reads the union of the lanes.
//!
//! A lane costs one bit per slot, so there are lanes only up to `MAX_LANES` threads: with
//! more, all threads share one bitmap and OR atomically.

use super::bitmap::{Bitmap, GROUP};
use super::frontier::Frontier;
use rayon::prelude::*;

// A group of candidate words is one word of a frontier's blocks.
const _: () = assert!(GROUP == 64);

/// The most threads that get a lane of their own.
const MAX_LANES: usize = 2;

/// The candidates of a step, one lane per thread of the build.
pub(super) struct Candidates {
    lanes: Vec<Bitmap>,
    /// Whether threads share the one lane.
    shared: bool,
}

/// The lane of one thread.
pub(super) struct Lane<'a> {
    bitmap: &'a Bitmap,
    shared: bool,
}

impl Candidates {
    /// No candidates, in a table of `bits` slots built by `threads` threads (rayon's pool
    /// that will run the steps).
    pub(super) fn new(bits: u64, threads: usize) -> Candidates {
        let shared = threads > MAX_LANES;
        let lanes = if shared { 1 } else { threads.max(1) };
        Candidates {
            lanes: (0..lanes).map(|_| Bitmap::new(bits)).collect(),
            shared,
        }
    }

    /// The lane of the calling thread, one of the pool's.
    #[inline]
    pub(super) fn lane(&self) -> Lane<'_> {
        let thread = rayon::current_thread_index().expect("steps run on the build's threads");
        Lane {
            bitmap: &self.lanes[thread % self.lanes.len()],
            shared: self.shared,
        }
    }

    /// Calls `check(w, bits)`, in parallel, for every word w of the candidates with its bits
    /// (of every lane), which returns the slots it keeps of them; marks the blocks that keep
    /// any in `kept`, and returns how many slots are kept. Before a thread checks a word, it
    /// calls `ahead(w)` for the next word it will check, which may start the reads that check
    /// needs. The candidates are taken: none are left for the next step, each word being
    /// cleared as it is read rather than in a pass of its own.
    pub(super) fn check_words(
        &self,
        kept: &Frontier,
        ahead: impl Fn(u64) + Sync,
        check: impl Fn(u64, u64) -> u64 + Sync,
    ) -> u64 {
        let kept_slots = Bitmap::groups_of_any(&self.lanes)
            .into_par_iter()
            .map(|g| {
                // The group's non-empty words first, so that each check knows the next one.
                let mut words = [(0u64, 0u64); GROUP];
                let mut n = 0;
                for (w, _) in self.lanes[0].words_of(g) {
                    let bits = self.lanes.iter().fold(0, |b, lane| b | lane.take_word(w));
                    if bits != 0 {
                        words[n] = (w, bits);
                        n += 1;
                    }
                }
                let words = &words[..n];
                let mut count = 0;
                let mut blocks = 0u64;
                for (k, &(w, bits)) in words.iter().enumerate() {
                    if let Some(&(next, _)) = words.get(k + 1) {
                        ahead(next);
                    }
                    let slots = check(w, bits) & bits;
                    if slots != 0 {
                        blocks |= 1 << (w % GROUP as u64);
                        count += slots.count_ones() as u64;
                    }
                }
                // The group's words are the blocks of one word of the frontier: marked with one
                // atomic OR, not one per block (each a barrier to the check's table writes).
                kept.mark_blocks(g as u64, blocks);
                count
            })
            .sum();
        self.lanes.iter().for_each(Bitmap::unmark);
        kept_slots
    }
}

impl Lane<'_> {
    /// Adds `bits` to word `w`.
    #[inline]
    pub(super) fn or_word(&self, w: u64, bits: u64) {
        if self.shared {
            self.bitmap.or_word(w, bits);
        } else {
            self.bitmap.or_word_alone(w, bits);
        }
    }

    /// Adds slot `i`.
    #[inline]
    pub(super) fn set(&self, i: u64) {
        self.or_word(i / 64, 1 << (i % 64));
    }
}

#[cfg(test)]
mod tests {
    use super::super::bitmap::for_each_bit;
    use super::*;
    use std::sync::Mutex;

    /// Whatever the number of threads, and lanes shared or not, a step sees every slot set
    /// by any thread, once, counts the slots kept and marks their blocks; each word checked
    /// but the first of its group was announced ahead; checking empties the candidates.
    #[test]
    fn steps_see_the_union_of_the_lanes() {
        let size = 64 * 64 * 300 + 5;
        let slots: Vec<u64> = (0..20_000u64).map(|k| k * 7919 % size).collect();
        let mut want = slots.clone();
        want.sort_unstable();
        want.dedup();
        for threads in [1, 2, 3, 5] {
            let pool = rayon::ThreadPoolBuilder::new()
                .num_threads(threads)
                .build()
                .unwrap();
            pool.install(|| {
                let candidates = Candidates::new(size, rayon::current_num_threads());
                slots.par_iter().for_each(|&i| candidates.lane().set(i));
                let found = Mutex::new(Vec::new());
                let announced = Mutex::new(Vec::new());
                let kept = Frontier::new(size.div_ceil(64));
                let count = candidates.check_words(
                    &kept,
                    |w| announced.lock().unwrap().push(w),
                    |w, bits| {
                        let mut found = found.lock().unwrap();
                        (0..64)
                            .filter(|b| bits & 1 << b != 0)
                            .for_each(|b| found.push(w * 64 + b));
                        bits & 0x5555_5555_5555_5555
                    },
                );
                let mut found = found.into_inner().unwrap();
                found.sort_unstable();
                assert_eq!(found, want, "{threads} threads");
                let mut words: Vec<u64> = want.iter().map(|i| i / 64).collect();
                words.dedup();
                let first_of_group =
                    |k: usize| k == 0 || words[k - 1] / GROUP as u64 != words[k] / GROUP as u64;
                let ahead: Vec<u64> = (0..words.len())
                    .filter(|&k| !first_of_group(k))
                    .map(|k| words[k])
                    .collect();
                let mut announced = announced.into_inner().unwrap();
                announced.sort_unstable();
                assert_eq!(announced, ahead, "{threads} threads");
                let even = want.iter().filter(|&&i| i % 2 == 0).count();
                assert_eq!(count, even as u64, "{threads} threads");
                let mut keeping: Vec<u64> = want
                    .iter()
                    .filter(|&&i| i % 2 == 0)
                    .map(|i| i / 64)
                    .collect();
                keeping.dedup();
                assert_eq!(kept.blocks(), keeping, "{threads} threads");
                // The check took the candidates: the next step sees only its own.
                let next: Vec<u64> = want.iter().step_by(1000).map(|i| i ^ 1).collect();
                next.par_iter().for_each(|&i| candidates.lane().set(i));
                let seen = Frontier::new(size.div_ceil(64));
                let found = Mutex::new(Vec::new());
                candidates.check_words(
                    &seen,
                    |_| {},
                    |w, bits| {
                        for_each_bit(bits, |b| found.lock().unwrap().push(w * 64 + b as u64));
                        0
                    },
                );
                let mut found = found.into_inner().unwrap();
                found.sort_unstable();
                assert_eq!(found, next, "{threads} threads");
                let none = Frontier::new(size.div_ceil(64));
                assert_eq!(candidates.check_words(&none, |_| {}, |_, bits| bits), 0);
                assert!(none.blocks().is_empty() && seen.blocks().is_empty());
            });
        }
    }
}
