//! A frontier: the positions of one side decided at the distance just reached, the ones the
//! next step un-moves from. Their bytes in the table already say which they are (a win or a
//! loss in exactly that distance), so the frontier keeps only which blocks of 64 slots hold
//! them, one bit per block, and reads their slots back from the table: a 64th of the memory
//! of a bit per slot.

use super::bitmap::{for_each_bit, Bitmap};
use crate::egt::bytes::{self, Bytes64};

/// The blocks of one side's table that hold the frontier.
pub(super) struct Frontier(Bitmap);

impl Frontier {
    /// An empty frontier of the blocks `blocks` of a table (the layer in work).
    pub(super) fn new(blocks: std::ops::Range<u64>) -> Frontier {
        Frontier(Bitmap::new(blocks))
    }

    /// Marks block `w` as holding frontier slots (if `slots`, the ones found, is not empty).
    #[inline]
    pub(super) fn mark(&self, w: u64, slots: u64) {
        if slots != 0 {
            self.0.set(w);
        }
    }

    /// Marks the blocks 64·k + b for the bits b of `blocks`.
    #[inline]
    pub(super) fn mark_blocks(&self, k: u64, blocks: u64) {
        self.0.or_word(k, blocks);
    }

    pub(super) fn clear(&self) {
        self.0.clear();
    }

    /// Calls `f(w, slots)` for every marked block w and its slots whose byte in `table` is
    /// `byte`, the frontier's value.
    pub(super) fn for_each(&self, table: &[u8], byte: u8, f: impl Fn(u64, u64) + Sync) {
        self.0.for_each_word(|k, marks| {
            for_each_bit(marks, |b| {
                let w = k * 64 + b as u64;
                // Frontier blocks are far apart, too far for the processor to guess the next
                // one: its read starts while this one is worked on.
                let later = marks >> b >> 1;
                if later != 0 {
                    bytes::prefetch(table, w + 1 + later.trailing_zeros() as u64);
                }
                let slots = Bytes64::of_word(table, w).equal(byte);
                if slots != 0 {
                    f(w, slots);
                }
            })
        });
    }

    /// The marked blocks, in order.
    #[cfg(test)]
    pub(super) fn blocks(&self) -> Vec<u64> {
        let blocks = std::sync::Mutex::new(Vec::new());
        self.0.for_each_word(|k, marks| {
            for_each_bit(marks, |b| blocks.lock().unwrap().push(k * 64 + b as u64))
        });
        let mut blocks = blocks.into_inner().unwrap();
        blocks.sort_unstable();
        blocks
    }
}
