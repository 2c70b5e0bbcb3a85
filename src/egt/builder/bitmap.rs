//! Sets of slots, one bit each, that threads update concurrently. Word w holds slots
//! 64·w .. 64·w + 63, which in a table with blocks is exactly block w.

use crate::egt::memory;
use rayon::prelude::*;
use std::sync::atomic::{AtomicU64, Ordering::Relaxed};

/// A set of slots of one table, for one side to move.
pub(super) struct Bitmap(Vec<AtomicU64>);

impl Bitmap {
    /// An empty set of `bits` slots.
    pub(super) fn new(bits: u64) -> Bitmap {
        Bitmap(memory::filled(bits.div_ceil(64) as usize, || {
            AtomicU64::new(0)
        }))
    }

    #[inline]
    pub(super) fn set(&self, i: u64) {
        self.0[(i / 64) as usize].fetch_or(1 << (i % 64), Relaxed);
    }

    /// The bits of word `w`.
    #[inline]
    pub(super) fn word(&self, w: u64) -> u64 {
        self.0[w as usize].load(Relaxed)
    }

    /// Adds `bits` to word `w`.
    #[inline]
    pub(super) fn or_word(&self, w: u64, bits: u64) {
        if bits != 0 {
            self.0[w as usize].fetch_or(bits, Relaxed);
        }
    }

    pub(super) fn clear(&self) {
        self.0.par_iter().for_each(|w| w.store(0, Relaxed));
    }

    /// Replaces every non-empty word by `keep(w, bits)` (a subset of its bits), each word
    /// owned by one thread. Returns the number of bits kept.
    pub(super) fn filter_words(&self, keep: impl Fn(u64, u64) -> u64 + Sync) -> u64 {
        self.0
            .par_iter()
            .enumerate()
            .with_min_len(64)
            .map(|(w, word)| {
                let bits = word.load(Relaxed);
                if bits == 0 {
                    return 0;
                }
                let kept = keep(w as u64, bits) & bits;
                if kept != bits {
                    word.store(kept, Relaxed);
                }
                kept.count_ones() as u64
            })
            .sum()
    }

    /// Calls `f(w, bits)` for every non-empty word.
    pub(super) fn for_each_word(&self, f: impl Fn(u64, u64) + Sync) {
        self.0
            .par_iter()
            .enumerate()
            .with_min_len(256)
            .for_each(|(w, word)| {
                let bits = word.load(Relaxed);
                if bits != 0 {
                    f(w as u64, bits);
                }
            });
    }
}

/// Calls `f(b)` for every set bit b of `bits`, lowest first.
#[inline]
pub(super) fn for_each_bit(mut bits: u64, mut f: impl FnMut(u8)) {
    while bits != 0 {
        f(bits.trailing_zeros() as u8);
        bits &= bits - 1;
    }
}
