//! The candidates of a step: the slots it checks, found by un-moving from a frontier. The
//! gather that finds them ORs one scattered bitmap word per un-move, a hundred million times
//! for a 5-man table. An atomic OR is a locked instruction on x86, which holds the thread until
//! its cache line arrives; so each thread ORs into a bitmap of its own, its *lane*, with plain
//! writes, and the step reads the union of the lanes.
//!
//! A lane costs one bit per slot, so there are lanes only up to `MAX_LANES` threads: with
//! more, all threads share one bitmap and OR atomically.

use super::bitmap::Bitmap;
use rayon::prelude::*;

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

    pub(super) fn clear(&self) {
        self.lanes.iter().for_each(Bitmap::clear);
    }

    /// Calls `check(w, bits)`, in parallel, for every word w of the candidates with its bits
    /// (of every lane), which returns the slots it keeps of them; returns how many are kept.
    pub(super) fn check_words(&self, check: impl Fn(u64, u64) -> u64 + Sync) -> u64 {
        let mut groups: Vec<usize> = self.lanes.iter().flat_map(Bitmap::groups).collect();
        groups.sort_unstable();
        groups.dedup();
        groups
            .into_par_iter()
            .map(|g| {
                self.lanes[0]
                    .words_of(g)
                    .map(|(w, _)| {
                        let bits = self.lanes.iter().fold(0, |b, lane| b | lane.word(w));
                        if bits == 0 {
                            0
                        } else {
                            (check(w, bits) & bits).count_ones() as u64
                        }
                    })
                    .sum::<u64>()
            })
            .sum()
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
    use super::*;
    use std::sync::Mutex;

    /// Whatever the number of threads, and lanes shared or not, a step sees every slot set
    /// by any thread, once, and counts the slots kept; clearing empties the candidates.
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
                let count = candidates.check_words(|w, bits| {
                    let mut found = found.lock().unwrap();
                    (0..64)
                        .filter(|b| bits & 1 << b != 0)
                        .for_each(|b| found.push(w * 64 + b));
                    bits & 0x5555_5555_5555_5555
                });
                let mut found = found.into_inner().unwrap();
                found.sort_unstable();
                assert_eq!(found, want, "{threads} threads");
                let even = want.iter().filter(|&&i| i % 2 == 0).count();
                assert_eq!(count, even as u64, "{threads} threads");
                candidates.clear();
                assert_eq!(candidates.check_words(|_, bits| bits), 0);
            });
        }
    }
}
