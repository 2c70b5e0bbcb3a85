//! Per side to move, the positions that a move into saves nothing for the side that made it:
//! the illegal ones (the move left its royal attacked, or was no move at all), and those won
//! for the side to move there in at most the distance reached (a side's wins in n join as its
//! win step at n finds or collects them). One bit per slot, so that the loss checks, which
//! read them at random for every move of every candidate, read an eighth of the memory of
//! the table's bytes: for a 5-man table, little enough to stay in the processor's last-level
//! cache.
//!
//! The set of the side whose step runs is not read meanwhile: that step parks its candidates
//! in it (`candidates.rs`). A build of White's side alone, whose steps stand for Black's too,
//! holds one set, Black's, laid out as Black's positions, so that White's loss checks read it
//! a word per block and move as a build of both sides does: White's positions stand in it at
//! the slots of their images under the colour swap (Black's positions). The first pass sets
//! Black's illegal slots, and White's wins of a distance join it as they are recorded
//! (`held_wins.rs`), or, where their images lie in no tiles, as the loss step gathers from
//! them (`images.rs`). Its steps park their candidates in White's table instead.

use crate::board::SquareSet;
use crate::egt::bytes::{self, BlockBytes};
use crate::egt::memory;
use crate::egt::value::ILLEGAL;
use rayon::prelude::*;
use std::marker::PhantomData;
use std::ops::Range;
use std::sync::atomic::{AtomicU64, Ordering::Relaxed};

/// The slots of one side's table that are illegal or won in at most the distance reached,
/// and, while a step of that side runs, its candidates. One bit per slot, a block's slots (a
/// set of squares `S`) in two parts: its whole words (its first lanes: one on the 8×8 board,
/// where a block is a word), each block's in its own words; and the bits of its last lane
/// that fill no word (16 of the 80 slots on 10×8, of the 144 on 12×12), packed one block after
/// the other in words of their own, so that the set takes no more than a bit per slot. Where
/// a block's part of a word is a power of two, it lies in one word; otherwise it may span two.
/// Neighbouring blocks share the words of their last parts: writes to those are atomic ORs
/// and ANDs.
pub(super) struct NoEscape<S> {
    /// The first block held (the layer's), and how many.
    first: u64,
    blocks: u64,
    /// Slots of a block.
    len: usize,
    /// Whole words of a block, and the bits of its last part (less than a word).
    full: usize,
    tail: usize,
    /// Whether a block is its set's lanes, one word each (8×8, 16×16): then the loops over
    /// its words have a length the compiler knows.
    aligned: bool,
    /// Whether a block is one whole word and a last part that lies in one word (10×8: 64 and
    /// 16 bits): then a block is read and ORed without the general case's loops and tests.
    lean: bool,
    /// The blocks' whole words, `full` a block.
    heads: Vec<AtomicU64>,
    /// The blocks' last parts, `tail` bits a block.
    tails: Vec<AtomicU64>,
    set: PhantomData<S>,
}

/// The words of a set of `blocks` blocks of `len` slots: the blocks' whole words, and those
/// of their last parts (with one to spare: a part that spans two words may read one past the
/// last block's). What the memory budget reckons for a set.
pub(crate) fn words(blocks: u64, len: usize) -> (u64, u64) {
    let (full, tail) = (len as u64 / 64, len as u64 % 64);
    let tails = match tail {
        0 => 0,
        _ => (blocks * tail).div_ceil(64) + 1,
    };
    (blocks * full, tails)
}

impl<S: SquareSet> NoEscape<S> {
    /// No slots, of the blocks `blocks` of a table (the layer in work: no move of the
    /// layer's own reaches another), each of `len` slots.
    pub(super) fn new(blocks: Range<u64>, len: usize) -> NoEscape<S> {
        let count = blocks.end - blocks.start;
        let (full, tail) = (len / 64, len % 64);
        let (head_words, tail_words) = words(count, len);
        NoEscape {
            first: blocks.start,
            blocks: count,
            len,
            full,
            tail,
            aligned: full == S::LANES,
            lean: full == 1 && tail > 0 && 64 % tail == 0,
            heads: memory::filled(head_words as usize, || AtomicU64::new(0)),
            tails: memory::filled(tail_words as usize, || AtomicU64::new(0)),
            set: PhantomData,
        }
    }

    /// The first whole word of block `w`.
    #[inline]
    fn head(&self, w: u64) -> usize {
        (w - self.first) as usize * self.full
    }

    /// The word and the bit where block `w`'s last part starts.
    #[inline]
    fn tail_at(&self, w: u64) -> (usize, usize) {
        let bit = (w - self.first) as usize * self.tail;
        (bit / 64, bit % 64)
    }

    /// Block `w`'s last part (`tail` bits).
    #[inline]
    fn tail_bits(&self, w: u64) -> u64 {
        let (i, shift) = self.tail_at(w);
        let mut bits = self.tails[i].load(Relaxed) >> shift;
        if shift + self.tail > 64 {
            bits |= self.tails[i + 1].load(Relaxed) << (64 - shift);
        }
        bits & self.tail_mask()
    }

    /// The bits of a block's last part, in the lowest bits of a word.
    #[inline]
    fn tail_mask(&self) -> u64 {
        (1 << self.tail) - 1
    }

    /// Calls `f(word, bits)` for the parts of `bits`, bits of block `w`'s last part, that
    /// lie in each word (empty ones left out).
    #[inline]
    fn for_each_tail_part(&self, w: u64, bits: u64, mut f: impl FnMut(&AtomicU64, u64)) {
        let bits = bits & self.tail_mask();
        if bits == 0 {
            return;
        }
        let (i, shift) = self.tail_at(w);
        if bits << shift != 0 {
            f(&self.tails[i], bits << shift);
        }
        if shift + self.tail > 64 && bits >> (64 - shift) != 0 {
            f(&self.tails[i + 1], bits >> (64 - shift));
        }
    }

    /// Sets the slots to the illegal ones of `table` (its bytes, a whole number of blocks),
    /// before any distance: then no position is won yet.
    pub(super) fn start_from(&self, table: &[u8]) {
        (0..self.blocks).into_par_iter().for_each(|k| {
            let w = self.first + k;
            let held = NoEscape::<S>::held(&BlockBytes::of_block(table, w, self.len), 0);
            self.add_alone(w, held);
        });
    }

    /// The slots of a block that the set holds, from the block's bytes in the table: the
    /// illegal ones, and the wins up to byte `won`, the byte of the wins of the distance
    /// reached (`Far::code`).
    #[inline(always)]
    pub(super) fn held(bytes: &BlockBytes, won: u8) -> S {
        bytes.equal::<S>(ILLEGAL) | bytes.even_up_to::<S>(won)
    }

    /// The slots of block `w`.
    #[inline(always)]
    pub(super) fn word(&self, w: u64) -> S {
        let i = self.head(w);
        if self.aligned {
            return S::from_lanes(|k| self.heads[i + k].load(Relaxed));
        }
        if self.lean {
            let (t, shift) = self.tail_at(w);
            let head = self.heads[i].load(Relaxed);
            let tail = self.tails[t].load(Relaxed) >> shift & self.tail_mask();
            return S::from_lanes(|k| [head, tail, 0, 0][k]);
        }
        // The sets have at most four lanes.
        let mut lanes = [0; 4];
        for (k, lane) in lanes.iter_mut().enumerate().take(self.full) {
            *lane = self.heads[i + k].load(Relaxed);
        }
        if self.tail > 0 {
            lanes[self.full] = self.tail_bits(w);
        }
        S::from_lanes(|k| lanes[k])
    }

    /// Whether the set holds slot `i`.
    #[inline]
    pub(super) fn contains(&self, i: u64) -> bool {
        let bit = (i - self.first * self.len as u64) as usize;
        if self.tail == 0 {
            // The whole words of the blocks, one after the other, are the slots in order.
            return self.heads[bit / 64].load(Relaxed) & 1 << (bit % 64) != 0;
        }
        let (w, x) = (self.first + (bit / self.len) as u64, bit % self.len);
        match x / 64 < self.full {
            true => self.heads[self.head(w) + x / 64].load(Relaxed) & 1 << (x % 64) != 0,
            false => self.tail_bits(w) & 1 << (x % 64) != 0,
        }
    }

    /// Starts loading the words of block `w` into the caches, for a read or an `or` soon
    /// after.
    #[inline]
    pub(super) fn prefetch(&self, w: u64) {
        if w < self.first {
            return;
        }
        if let Some(word) = self.heads.get(self.head(w)) {
            bytes::prefetch_line(word);
        }
        if self.tail > 0 {
            if let Some(word) = self.tails.get(self.tail_at(w).0) {
                bytes::prefetch_line(word);
            }
        }
    }

    /// Starts loading the words of the blocks 64·k to 64·k + 63 (those the layer holds) into
    /// the caches, for `or`s soon after.
    #[inline]
    pub(super) fn prefetch_word_of_blocks(&self, k: u64) {
        let end = self.first + self.blocks;
        let blocks = (k * 64).clamp(self.first, end)..(k * 64 + 64).clamp(self.first, end);
        if blocks.is_empty() {
            return;
        }
        // Eight words a cache line.
        let heads = self.head(blocks.start)..self.head(blocks.end);
        heads
            .step_by(8)
            .for_each(|i| bytes::prefetch_line(&self.heads[i]));
        if self.tail > 0 {
            let tails = self.tail_at(blocks.start).0..=self.tail_at(blocks.end - 1).0;
            tails
                .step_by(8)
                .for_each(|i| bytes::prefetch_line(&self.tails[i]));
        }
    }

    /// Adds the slots `bits` of block `w`, which other threads may write meanwhile (candidates
    /// parked here, see `candidates.rs`; from one side, Black's illegal slots and wins too).
    /// Returns whether the set lacked any of them when this thread looked: of threads adding
    /// the same slot, at least the one that set it says so.
    #[inline(always)]
    pub(super) fn or(&self, w: u64, bits: S) -> bool {
        // Read first: a word that holds them already costs no locked write. The old value
        // of the locked OR is not asked for, which would make it a compare-and-swap loop.
        let or = |word: &AtomicU64, bits: u64| {
            let lacks = word.load(Relaxed) & bits != bits;
            if lacks {
                word.fetch_or(bits, Relaxed);
            }
            lacks
        };
        let i = self.head(w);
        if self.aligned {
            return (0..S::LANES).fold(false, |added, k| {
                or(&self.heads[i + k], bits.lane(k)) | added
            });
        }
        if self.lean {
            let (t, shift) = self.tail_at(w);
            let tail = bits.lane(1) & self.tail_mask();
            let added = or(&self.heads[i], bits.lane(0));
            return (tail != 0 && or(&self.tails[t], tail << shift)) | added;
        }
        let mut added = false;
        for k in 0..self.full {
            added |= or(&self.heads[i + k], bits.lane(k));
        }
        if self.tail > 0 {
            self.for_each_tail_part(w, bits.lane(self.full), |word, bits| {
                added |= or(word, bits)
            });
        }
        added
    }

    /// The slots of block `w` beyond `own`, the block's slots of the set itself (which it
    /// must hold), leaving it `own`: the candidates parked there. No other thread may write
    /// the block meanwhile (its neighbours, which may share its last part's words, they may).
    #[inline]
    pub(super) fn unpark(&self, w: u64, own: S) -> S {
        let bits = self.word(w);
        debug_assert!(
            bits & own == own,
            "block {w}: the set lost some of its slots"
        );
        let parked = bits & !own;
        if !parked.is_empty() {
            let i = self.head(w);
            for k in 0..self.full {
                self.heads[i + k].store(own.lane(k), Relaxed);
            }
            if self.tail > 0 {
                self.for_each_tail_part(w, parked.lane(self.full), |word, bits| {
                    word.fetch_and(!bits, Relaxed);
                });
            }
        }
        parked
    }

    /// Adds the slots `won` of block `w`, which no other thread writes meanwhile (its
    /// neighbours, which may share its last part's words, they may).
    #[inline]
    pub(super) fn add_alone(&self, w: u64, won: S) {
        let i = self.head(w);
        for k in 0..self.full {
            let word = &self.heads[i + k];
            word.store(word.load(Relaxed) | won.lane(k), Relaxed);
        }
        if self.tail > 0 {
            self.for_each_tail_part(w, won.lane(self.full), |word, bits| {
                word.fetch_or(bits, Relaxed);
            });
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::bitmap::for_each_bit;
    use super::*;
    use crate::board::{Bits192, Bits256};

    /// Random adds, unparks and lone adds on blocks of `len` slots, next to each other, against
    /// a plain list of the slots held: every block reads back its own slots.
    fn holds_what_was_put<S: SquareSet>(len: usize) {
        let blocks = 5..23u64;
        let set = NoEscape::<S>::new(blocks.clone(), len);
        let mut model = vec![false; (blocks.end * len as u64) as usize];
        let mut seed = 0x9e37_79b9_7f4a_7c15u64 ^ len as u64;
        let mut random = move || {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed
        };
        let read = |model: &[bool], w: u64| {
            (0..len)
                .filter(|&x| model[w as usize * len + x])
                .fold(S::default(), |s, x| s | S::bit(x as u8))
        };
        for _ in 0..400 {
            let w = blocks.start + random() % (blocks.end - blocks.start);
            let lanes: Vec<u64> = (0..S::LANES).map(|_| random() & random()).collect();
            let bits = S::from_lanes(|k| lanes[k]) & S::below(len);
            match random() % 3 {
                0 => {
                    let lacked = !(bits & !read(&model, w)).is_empty();
                    assert_eq!(set.or(w, bits), lacked, "len {len}, block {w}");
                }
                1 => set.add_alone(w, bits),
                _ => {
                    // Keep some of the block's slots as the set's own.
                    let own = read(&model, w) & bits;
                    assert_eq!(set.unpark(w, own), read(&model, w) & !own);
                    for x in 0..len as u64 {
                        model[(w * len as u64 + x) as usize] = own.contains(x as u8);
                    }
                    continue;
                }
            }
            for_each_bit(bits, |x| model[(w * len as u64 + x as u64) as usize] = true);
        }
        for w in blocks.clone() {
            assert!(set.word(w) == read(&model, w), "len {len}, block {w}");
            for x in 0..len as u64 {
                let i = w * len as u64 + x;
                assert_eq!(set.contains(i), model[i as usize], "len {len}, slot {i}");
            }
        }
    }

    #[test]
    fn blocks_of_every_board_hold_their_own_slots() {
        for len in [9, 16, 25, 36, 49, 64] {
            holds_what_was_put::<u64>(len);
        }
        for len in [80, 81, 100, 121, 128] {
            holds_what_was_put::<u128>(len);
        }
        for len in [144, 169, 192] {
            holds_what_was_put::<Bits192>(len);
        }
        for len in [144, 169, 196, 225, 256] {
            holds_what_was_put::<Bits256>(len);
        }
    }
}
