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
//! Black's illegal slots, and White's wins of a distance join it as the loss step gathers from
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
/// and, while a step of that side runs, its candidates. One bit per slot, packed: slot i of
/// the layer is bit i − (first slot) of the words, so a block's slots (a set of squares `S`)
/// start anywhere in a word unless a block is a whole number of words (on the 8×8 board,
/// one word), and neighbouring blocks may share a word: writes to a shared word are atomic
/// ORs and ANDs.
pub(super) struct NoEscape<S> {
    /// The first block held (the layer's), and how many.
    first: u64,
    blocks: u64,
    /// Slots of a block.
    len: usize,
    /// Whether each block is a whole number of words (its sets' lanes, one for one).
    aligned: bool,
    words: Vec<AtomicU64>,
    set: PhantomData<S>,
}

impl<S: SquareSet> NoEscape<S> {
    /// No slots, of the blocks `blocks` of a table (the layer in work: no move of the
    /// layer's own reaches another), each of `len` slots.
    pub(super) fn new(blocks: Range<u64>, len: usize) -> NoEscape<S> {
        let bits = (blocks.end - blocks.start) * len as u64;
        // A block's last lane may read one word past its own.
        let words = bits.div_ceil(64) as usize + 1;
        NoEscape {
            first: blocks.start,
            blocks: blocks.end - blocks.start,
            len,
            aligned: len == 64 * S::LANES,
            words: memory::filled(words, || AtomicU64::new(0)),
            set: PhantomData,
        }
    }

    /// The first bit of block `w`.
    #[inline]
    fn offset(&self, w: u64) -> usize {
        (w - self.first) as usize * self.len
    }

    /// The first word of block `w`, in a set whose blocks are whole words.
    #[inline]
    fn first_word(&self, w: u64) -> usize {
        (w - self.first) as usize * S::LANES
    }

    /// Calls `f(word, bits)` for the parts of `bits`, a set of block `w`'s slots, that lie in
    /// each word (empty parts left out): a word shared by two lanes gets both parts at once.
    #[inline]
    fn for_each_part(&self, w: u64, bits: S, mut f: impl FnMut(&AtomicU64, u64)) {
        let o = self.offset(w);
        let (i, shift) = (o / 64, o % 64);
        let bits = bits & S::below(self.len);
        let used = self.len.div_ceil(64);
        // The high bits of lane k − 1 that spill into word i + k.
        let mut carry = 0;
        for k in 0..used {
            let lane = bits.lane(k);
            let part = lane << shift | carry;
            carry = if shift > 0 { lane >> (64 - shift) } else { 0 };
            if part != 0 {
                f(&self.words[i + k], part);
            }
        }
        if carry != 0 {
            f(&self.words[i + used], carry);
        }
    }

    /// Sets the slots to the illegal ones of `table` (its bytes, a whole number of blocks),
    /// before any distance: then no position is won yet.
    pub(super) fn start_from(&self, table: &[u8]) {
        (0..self.blocks).into_par_iter().for_each(|k| {
            let w = self.first + k;
            let held = NoEscape::<S>::held(&BlockBytes::of_block(table, w, self.len), 0);
            if self.aligned {
                let i = self.first_word(w);
                (0..S::LANES).for_each(|k| self.words[i + k].store(held.lane(k), Relaxed));
            } else {
                self.for_each_part(w, held, |word, bits| {
                    word.fetch_or(bits, Relaxed);
                });
            }
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
    #[inline]
    pub(super) fn word(&self, w: u64) -> S {
        if self.aligned {
            let i = self.first_word(w);
            return S::from_lanes(|k| self.words[i + k].load(Relaxed));
        }
        let o = self.offset(w);
        let (i, shift) = (o / 64, o % 64);
        let used = self.len.div_ceil(64);
        let lanes = S::from_lanes(|k| {
            if k >= used {
                return 0;
            }
            let low = self.words[i + k].load(Relaxed) >> shift;
            match shift {
                0 => low,
                _ => low | self.words[i + k + 1].load(Relaxed) << (64 - shift),
            }
        });
        lanes & S::below(self.len)
    }

    /// Whether the set holds slot `i`.
    #[inline]
    pub(super) fn contains(&self, i: u64) -> bool {
        let bit = (i - self.first * self.len as u64) as usize;
        self.words[bit / 64].load(Relaxed) & 1 << (bit % 64) != 0
    }

    /// Starts loading the words of block `w` into the caches, for a read or an `or` soon
    /// after.
    #[inline]
    pub(super) fn prefetch(&self, w: u64) {
        if let Some(word) = w
            .checked_sub(self.first)
            .and_then(|_| self.words.get(self.offset(w) / 64))
        {
            bytes::prefetch_line(word);
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
        if self.aligned {
            let i = self.first_word(w);
            (0..S::LANES).fold(false, |added, k| {
                or(&self.words[i + k], bits.lane(k)) | added
            })
        } else {
            let mut added = false;
            self.for_each_part(w, bits, |word, bits| added |= or(word, bits));
            added
        }
    }

    /// The slots of block `w` beyond `own`, the block's slots of the set itself (which it
    /// must hold), leaving it `own`: the candidates parked there. No other thread may write
    /// the block meanwhile (its neighbours, which may share its words, they may).
    #[inline]
    pub(super) fn unpark(&self, w: u64, own: S) -> S {
        let bits = self.word(w);
        debug_assert!(
            bits & own == own,
            "block {w}: the set lost some of its slots"
        );
        let parked = bits & !own;
        if !parked.is_empty() {
            if self.aligned {
                let i = self.first_word(w);
                for k in 0..S::LANES {
                    self.words[i + k].store(own.lane(k), Relaxed);
                }
            } else {
                self.for_each_part(w, parked, |word, bits| {
                    word.fetch_and(!bits, Relaxed);
                });
            }
        }
        parked
    }

    /// Adds the slots `won` of block `w`, which no other thread writes meanwhile (its
    /// neighbours, which may share its words, they may).
    #[inline]
    pub(super) fn add_alone(&self, w: u64, won: S) {
        if self.aligned {
            let i = self.first_word(w);
            for k in 0..S::LANES {
                let word = &self.words[i + k];
                word.store(word.load(Relaxed) | won.lane(k), Relaxed);
            }
        } else {
            self.for_each_part(w, won, |word, bits| {
                word.fetch_or(bits, Relaxed);
            });
        }
    }
}
