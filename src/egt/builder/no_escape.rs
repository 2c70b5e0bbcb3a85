//! Per side to move, the positions that a move into saves nothing for the side that made it:
//! the illegal ones (the move left its royal attacked, or was no move at all), and those won
//! for the side to move there in at most the distance reached (a side's wins in n join as its
//! win step at n finds or collects them). One bit per slot, so that the loss checks, which
//! read them at random for every move of every candidate, read an eighth of the memory of
//! the table's bytes: for a 5-man table, little enough to stay in the processor's last-level
//! cache, with each block's 64 slots in one word.
//!
//! The set of the side whose step runs is not read meanwhile: that step parks its candidates
//! in it (`candidates.rs`).

use crate::egt::bytes::{self, Bytes64};
use crate::egt::memory;
use crate::egt::value::ILLEGAL;
use rayon::prelude::*;
use std::ops::Range;
use std::sync::atomic::{AtomicU64, Ordering::Relaxed};

/// The slots of one side's table that are illegal or won in at most the distance reached,
/// and, while a step of that side runs, its candidates.
pub(super) struct NoEscape {
    /// The first block held (the layer's).
    first: u64,
    words: Vec<AtomicU64>,
}

impl NoEscape {
    /// No slots, of the blocks `blocks` of a table (the layer in work: no move of the
    /// layer's own reaches another).
    pub(super) fn new(blocks: Range<u64>) -> NoEscape {
        NoEscape {
            first: blocks.start,
            words: memory::filled((blocks.end - blocks.start) as usize, || AtomicU64::new(0)),
        }
    }

    /// The word of block `w`.
    #[inline]
    fn at(&self, w: u64) -> &AtomicU64 {
        &self.words[(w - self.first) as usize]
    }

    /// Sets the slots to the illegal ones of `table` (its bytes, a whole number of 64-byte
    /// words), before any distance: then no position is won yet.
    pub(super) fn start_from(&self, table: &[u8]) {
        let start = self.first;
        self.words.par_iter().enumerate().for_each(|(k, word)| {
            let w = start + k as u64;
            word.store(NoEscape::held(&Bytes64::of_word(table, w), 0), Relaxed)
        });
    }

    /// The slots of a block that the set holds, from the block's bytes in the table: the
    /// illegal ones, and the wins up to byte `won`, the byte of the wins of the distance
    /// reached (`Far::code`).
    #[inline]
    pub(super) fn held(bytes: &Bytes64, won: u8) -> u64 {
        bytes.equal(ILLEGAL) | bytes.even_up_to(won)
    }

    /// The slots of block (word) `w`.
    #[inline]
    pub(super) fn word(&self, w: u64) -> u64 {
        self.at(w).load(Relaxed)
    }

    /// Whether the set holds slot `i`.
    #[inline]
    pub(super) fn contains(&self, i: u64) -> bool {
        self.word(i / 64) & 1 << (i % 64) != 0
    }

    /// Starts loading the word of block `w` into the caches, for a read or an `or` soon
    /// after.
    #[inline]
    pub(super) fn prefetch(&self, w: u64) {
        if let Some(word) = w
            .checked_sub(self.first)
            .and_then(|k| self.words.get(k as usize))
        {
            bytes::prefetch_line(word);
        }
    }

    /// Adds the slots `bits` of block `w` (candidates parked here, see `candidates.rs`).
    #[inline]
    pub(super) fn or(&self, w: u64, bits: u64) {
        let word = self.at(w);
        // Read first: a word that holds them already costs no locked write.
        if word.load(Relaxed) & bits != bits {
            word.fetch_or(bits, Relaxed);
        }
    }

    /// The slots of block `w` beyond `own`, the block's slots of the set itself (which it
    /// must hold), leaving it `own`: the candidates parked there. No other thread may write
    /// the block meanwhile.
    #[inline]
    pub(super) fn unpark(&self, w: u64, own: u64) -> u64 {
        let word = self.at(w);
        let bits = word.load(Relaxed);
        debug_assert_eq!(bits & own, own, "block {w}: the set lost some of its slots");
        if bits != own {
            word.store(own, Relaxed);
        }
        bits & !own
    }

    /// Adds the slots `won` of block `w`, which no other thread writes meanwhile.
    #[inline]
    pub(super) fn add_alone(&self, w: u64, won: u64) {
        let word = self.at(w);
        word.store(word.load(Relaxed) | won, Relaxed);
    }
}
