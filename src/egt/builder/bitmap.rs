//! Sets of slots, one bit each, that threads update concurrently. Word w holds slots
//! 64·w .. 64·w + 63, which in a table with blocks is exactly block w.
//!
//! A frontier is a small part of a big table, so each set also keeps a summary, one bit per
//! group of 64 words, set when a word of the group may be non-empty: passes over the set and
//! clearing it visit only the marked groups, not the whole set at every distance.

use crate::egt::memory;
use rayon::prelude::*;
use std::sync::atomic::{AtomicU64, Ordering::Relaxed};

/// Words per group of the summary.
const GROUP: usize = 64;

/// A set of slots of one table, for one side to move.
pub(super) struct Bitmap {
    words: Vec<AtomicU64>,
    /// Bit g: group g (words GROUP·g .. GROUP·g + GROUP − 1) may hold set bits.
    summary: Vec<AtomicU64>,
}

impl Bitmap {
    /// An empty set of `bits` slots.
    pub(super) fn new(bits: u64) -> Bitmap {
        let words = bits.div_ceil(64) as usize;
        Bitmap {
            words: memory::filled(words, || AtomicU64::new(0)),
            summary: (0..words.div_ceil(GROUP).div_ceil(64))
                .map(|_| AtomicU64::new(0))
                .collect(),
        }
    }

    #[inline]
    pub(super) fn set(&self, i: u64) {
        self.or_word(i / 64, 1 << (i % 64));
    }

    /// The bits of word `w`.
    #[inline]
    pub(super) fn word(&self, w: u64) -> u64 {
        self.words[w as usize].load(Relaxed)
    }

    /// Adds `bits` to word `w`.
    #[inline]
    pub(super) fn or_word(&self, w: u64, bits: u64) {
        if bits != 0 {
            self.words[w as usize].fetch_or(bits, Relaxed);
            let g = w as usize / GROUP;
            let mark = &self.summary[g / 64];
            // Read first: once marked, the summary's cache line is only read, not fought over.
            if mark.load(Relaxed) & 1 << (g % 64) == 0 {
                mark.fetch_or(1 << (g % 64), Relaxed);
            }
        }
    }

    /// The marked groups, in order.
    fn groups(&self) -> Vec<usize> {
        let mut groups = Vec::new();
        for (k, mark) in self.summary.iter().enumerate() {
            let mut bits = mark.load(Relaxed);
            while bits != 0 {
                groups.push(k * 64 + bits.trailing_zeros() as usize);
                bits &= bits - 1;
            }
        }
        groups
    }

    /// The words of group `g`, with their numbers.
    #[inline]
    fn words_of(&self, g: usize) -> impl Iterator<Item = (u64, &AtomicU64)> {
        let first = g * GROUP;
        self.words[first..(first + GROUP).min(self.words.len())]
            .iter()
            .enumerate()
            .map(move |(k, word)| ((first + k) as u64, word))
    }

    pub(super) fn clear(&self) {
        self.groups().into_par_iter().for_each(|g| {
            self.words_of(g)
                .for_each(|(_, word)| word.store(0, Relaxed));
        });
        self.summary.iter().for_each(|mark| mark.store(0, Relaxed));
    }

    /// Replaces every non-empty word by `keep(w, bits)` (a subset of its bits), each word
    /// owned by one thread. Returns the number of bits kept.
    pub(super) fn filter_words(&self, keep: impl Fn(u64, u64) -> u64 + Sync) -> u64 {
        self.groups()
            .into_par_iter()
            .map(|g| {
                let mut kept_here = 0u64;
                let mut any = false;
                for (w, word) in self.words_of(g) {
                    let bits = word.load(Relaxed);
                    if bits == 0 {
                        continue;
                    }
                    let kept = keep(w, bits) & bits;
                    if kept != bits {
                        word.store(kept, Relaxed);
                    }
                    any |= kept != 0;
                    kept_here += kept.count_ones() as u64;
                }
                if !any {
                    self.summary[g / 64].fetch_and(!(1 << (g % 64)), Relaxed);
                }
                kept_here
            })
            .sum()
    }

    /// Calls `f(w, bits)` for every non-empty word.
    pub(super) fn for_each_word(&self, f: impl Fn(u64, u64) + Sync) {
        self.groups().into_par_iter().for_each(|g| {
            for (w, word) in self.words_of(g) {
                let bits = word.load(Relaxed);
                if bits != 0 {
                    f(w, bits);
                }
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

#[cfg(test)]
mod tests {
    use super::*;

    /// Bits set from several threads are all found by the passes, and clearing empties the
    /// set, across many groups.
    #[test]
    fn passes_visit_exactly_the_set_bits() {
        let size = 64 * GROUP as u64 * 130 + 17;
        let set = Bitmap::new(size);
        let bits: Vec<u64> = (0..5000u64).map(|k| k * 7919 % size).collect();
        bits.par_iter().for_each(|&i| set.set(i));
        let found = std::sync::Mutex::new(Vec::new());
        set.for_each_word(|w, b| {
            for_each_bit(b, |x| found.lock().unwrap().push(w * 64 + x as u64))
        });
        let mut found = found.into_inner().unwrap();
        found.sort_unstable();
        let mut want = bits.clone();
        want.sort_unstable();
        want.dedup();
        assert_eq!(found, want);
        // Keep only even slots: the odd ones are gone from later passes.
        let kept = set.filter_words(|_, b| b & 0x5555_5555_5555_5555);
        assert_eq!(kept, want.iter().filter(|&&i| i % 2 == 0).count() as u64);
        set.for_each_word(|w, b| assert_eq!(b & !0x5555_5555_5555_5555, 0, "word {w}"));
        set.clear();
        assert_eq!(set.filter_words(|_, b| b), 0);
        assert!((0..size.div_ceil(64)).all(|w| set.word(w) == 0));
    }
}
