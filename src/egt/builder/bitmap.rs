//! Sets of numbers, one bit each, that threads update concurrently: the blocks of a table
//! (the frontiers, the candidates' blocks) or its slots (the seeded ones). Word w holds
//! numbers 64·w .. 64·w + 63. A set covers a range of them (of a layer of a pawn table, or
//! of the whole table), and holds words for it alone.
//!
//! A frontier is a small part of a big table, so each set also keeps a summary, one bit per
//! group of 64 words, set when a word of the group may be non-empty: passes over the set and
//! clearing it visit only the marked groups, not the whole set at every distance.

use crate::board::SquareSet;
use crate::egt::memory;
use rayon::prelude::*;
use std::ops::Range;
use std::sync::atomic::{AtomicU64, Ordering::Relaxed};

/// Words per group of the summary.
pub(super) const GROUP: usize = 64;

/// A set of slots of one table, for one side to move.
pub(super) struct Bitmap {
    /// The number of the first word held.
    first: u64,
    words: Vec<AtomicU64>,
    /// Bit g: group g (words GROUP·g .. GROUP·g + GROUP − 1) may hold set bits.
    summary: Vec<AtomicU64>,
}

impl Bitmap {
    /// An empty set that may hold the slots `bits`.
    pub(super) fn new(bits: Range<u64>) -> Bitmap {
        let first = bits.start / 64;
        let words = (bits.end.div_ceil(64) - first) as usize;
        Bitmap {
            first,
            words: memory::filled(words, || AtomicU64::new(0)),
            summary: (0..words.div_ceil(GROUP).div_ceil(64))
                .map(|_| AtomicU64::new(0))
                .collect(),
        }
    }

    /// A set that holds every number of `bits`.
    pub(super) fn full(bits: Range<u64>) -> Bitmap {
        let set = Bitmap::new(bits.clone());
        if bits.is_empty() {
            return set;
        }
        for (k, word) in set.words.iter().enumerate() {
            let w = set.first + k as u64;
            let low = bits.start.saturating_sub(w * 64).min(64);
            let high = (bits.end - w * 64).min(64);
            let below = |n: u64| <u64 as SquareSet>::below(n as usize);
            word.store(below(high) & !below(low), Relaxed);
        }
        for g in 0..set.words.len().div_ceil(GROUP) {
            set.mark(g * GROUP, |mark, bit| {
                mark.fetch_or(bit, Relaxed);
            });
        }
        set
    }

    /// Adds number `i`, as `add_word` adds bits.
    #[inline]
    pub(super) fn set(&self, i: u64) {
        self.add_word(i / 64, 1 << (i % 64));
    }

    /// Starts loading the word that holds number `i` into the caches, for a `set` soon after.
    #[inline]
    pub(super) fn prefetch(&self, i: u64) {
        if let Some(word) = self.words.get(self.local(i / 64)) {
            crate::egt::bytes::prefetch_line(word);
        }
    }

    /// Whether slot `i` is in the set.
    #[inline]
    pub(super) fn contains(&self, i: u64) -> bool {
        self.word(i / 64) & 1 << (i % 64) != 0
    }

    /// The bits of word `w`.
    #[inline]
    pub(super) fn word(&self, w: u64) -> u64 {
        self.words[self.local(w)].load(Relaxed)
    }

    /// The place of word `w` among the words held.
    #[inline]
    fn local(&self, w: u64) -> usize {
        (w - self.first) as usize
    }

    /// Adds `bits` to word `w`, reading it first: bits set already cost no locked write.
    #[inline]
    pub(super) fn add_word(&self, w: u64, bits: u64) {
        if self.word(w) & bits != bits {
            self.or_word(w, bits);
        }
    }

    /// Adds `bits` to word `w`.
    #[inline]
    pub(super) fn or_word(&self, w: u64, bits: u64) {
        if bits != 0 {
            let w = self.local(w);
            self.words[w].fetch_or(bits, Relaxed);
            self.mark(w, |mark, bit| {
                mark.fetch_or(bit, Relaxed);
            });
        }
    }

    /// Takes `bits` out of word `w`.
    #[inline]
    pub(super) fn remove_word(&self, w: u64, bits: u64) {
        let word = &self.words[self.local(w)];
        // Read first: a word that holds none of them costs no locked write.
        if word.load(Relaxed) & bits != 0 {
            word.fetch_and(!bits, Relaxed);
        }
    }

    /// The bits of word `w`, leaving it empty, in a set that no other thread writes
    /// meanwhile: a plain read and write, not a locked swap.
    #[inline]
    pub(super) fn take_word(&self, w: u64) -> u64 {
        let word = &self.words[self.local(w)];
        let bits = word.load(Relaxed);
        if bits != 0 {
            word.store(0, Relaxed);
        }
        bits
    }

    /// Puts `bits` in word `w`, whose group is marked, in a set that no other thread writes
    /// meanwhile (as `take_word` takes them).
    #[inline]
    pub(super) fn put_word(&self, w: u64, bits: u64) {
        self.words[self.local(w)].store(bits, Relaxed);
    }

    /// Forgets the marked groups once their words are all empty (see `take_word`): the set
    /// is then empty, without a pass over its words.
    pub(super) fn unmark(&self) {
        debug_assert!(self
            .groups()
            .into_iter()
            .all(|g| self.words_of(g).all(|(_, word)| word.load(Relaxed) == 0)));
        self.summary.iter().for_each(|mark| mark.store(0, Relaxed));
    }

    /// Marks the group of the word held at `w` in the summary with `or(summary word, bit)`
    /// unless it is marked already.
    #[inline]
    fn mark(&self, w: usize, or: impl FnOnce(&AtomicU64, u64)) {
        let g = w / GROUP;
        let mark = &self.summary[g / 64];
        // Read first: once marked, the summary's cache line is only read, not fought over.
        if mark.load(Relaxed) & 1 << (g % 64) == 0 {
            or(mark, 1 << (g % 64));
        }
    }

    /// The marked groups, in order.
    pub(super) fn groups(&self) -> Vec<usize> {
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
    pub(super) fn words_of(&self, g: usize) -> impl Iterator<Item = (u64, &AtomicU64)> {
        let start = g * GROUP;
        let first = self.first + start as u64;
        self.words[start..(start + GROUP).min(self.words.len())]
            .iter()
            .enumerate()
            .map(move |(k, word)| (first + k as u64, word))
    }

    /// How many numbers the set holds.
    pub(super) fn count(&self) -> u64 {
        (self.groups().into_iter())
            .flat_map(|g| self.words_of(g))
            .map(|(_, word)| u64::from(word.load(Relaxed).count_ones()))
            .sum()
    }

    pub(super) fn clear(&self) {
        self.groups().into_par_iter().for_each(|g| {
            self.words_of(g)
                .for_each(|(_, word)| word.store(0, Relaxed));
        });
        self.summary.iter().for_each(|mark| mark.store(0, Relaxed));
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

pub(super) use crate::board::for_each_bit;

#[cfg(test)]
mod tests {
    use super::*;

    /// Bits set from several threads are all found by the passes, and clearing empties the
    /// set, across many groups.
    #[test]
    fn passes_visit_exactly_the_set_bits() {
        let size = 64 * GROUP as u64 * 130 + 17;
        // A set from the middle of a word on, as a layer's blocks may start.
        let start = 64 * 1000 + 9;
        let set = Bitmap::new(start..size);
        let bits: Vec<u64> = (0..5000u64)
            .map(|k| k * 7919 % size)
            .filter(|&b| b >= start)
            .collect();
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
        set.clear();
        let empty = std::sync::atomic::AtomicBool::new(true);
        set.for_each_word(|_, _| empty.store(false, Relaxed));
        assert!(empty.into_inner());
        assert!((start / 64..size.div_ceil(64)).all(|w| set.word(w) == 0));
    }

    /// A full set holds its range, from the middle of a word to the middle of another, and
    /// counts it; its passes visit every word.
    #[test]
    fn a_full_set_holds_its_range() {
        for (start, end) in [(9, 64 * GROUP as u64 * 3 + 17), (64, 128), (5, 40), (0, 0)] {
            let set = Bitmap::full(start..end);
            let found = std::sync::Mutex::new(Vec::new());
            set.for_each_word(|w, b| {
                for_each_bit(b, |x| found.lock().unwrap().push(w * 64 + x as u64))
            });
            let mut found = found.into_inner().unwrap();
            found.sort_unstable();
            assert_eq!(found, (start..end).collect::<Vec<_>>());
            assert_eq!(set.count(), end - start);
        }
    }
}
