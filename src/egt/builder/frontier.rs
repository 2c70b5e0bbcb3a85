//! A frontier: the positions of one side decided at the distance just reached, the ones the
//! next step un-moves from. Their bytes in the table already say which they are (a win or a
//! loss in exactly that distance), so the frontier keeps only which blocks hold them, one
//! bit per block, and reads their slots back from the table: a 64th of the memory of a bit
//! per slot on the 8×8 board. From one side, Black's frontiers of losses list their slots
//! too, while they are few (`slot_list.rs`).

use super::bitmap::{for_each_bit, Bitmap};
use super::slot_list::{SlotList, ThreadList};
use crate::board::SquareSet;
use crate::egt::bytes::{self, BlockBytes};

/// The blocks of one side's table that hold the frontier.
pub(super) struct Frontier {
    blocks: Bitmap,
    /// Slots of a block.
    len: usize,
    /// The frontier's slots, where it lists them ([`Frontier::listing`]).
    list: Option<SlotList>,
}

/// Marks slots of a frontier, one at a time, and lists them where the frontier lists its
/// slots ([`Frontier::lister`]). The marks of blocks in one word of the frontier's bits
/// (64 consecutive blocks, where a block's images under the colour swap lie) are held
/// back and set together, in one write: when the next mark is in another word, and when
/// the lister is dropped. It may mark the slots of many blocks one after the other, but
/// must be told when each block's are marked ([`Lister::end_block`]).
pub(super) struct Lister<'a> {
    blocks: &'a Bitmap,
    list: Option<ThreadList<'a>>,
    /// The word of blocks whose marks are held back, and the marks.
    held: (u64, u64),
}

impl Lister<'_> {
    /// Marks block `w`, which holds `slot`, and lists the slot.
    #[inline]
    pub(super) fn mark(&mut self, w: u64, slot: u64) {
        if w / 64 != self.held.0 {
            self.set_held();
            self.held.0 = w / 64;
        }
        self.held.1 |= 1 << (w % 64);
        if let Some(list) = &mut self.list {
            list.push(slot);
        }
    }

    /// Marks the blocks 64·k + b for the bits b of `blocks`, of 64 slots each, and lists their
    /// slot s.
    #[inline]
    pub(super) fn mark_word(&mut self, k: u64, s: u8, blocks: u64) {
        if k != self.held.0 {
            self.set_held();
            self.held.0 = k;
        }
        self.held.1 |= blocks;
        if let Some(list) = &mut self.list {
            for_each_bit(blocks, |b| {
                list.push((k * 64 + u64::from(b)) * 64 + u64::from(s))
            });
        }
    }

    /// Ends the marks of one block's slots (at most a block's slots are listed between two
    /// ends): stops listing if the list was given up, or if this thread's share of it is
    /// outgrown, which gives it up.
    #[inline]
    pub(super) fn end_block(&mut self) {
        if self.list.as_mut().is_some_and(|list| !list.keeps_listing()) {
            self.list = None;
        }
    }

    /// Sets the marks held back.
    #[inline]
    fn set_held(&mut self) {
        if self.held.1 != 0 {
            self.blocks.add_word(self.held.0, self.held.1);
            self.held.1 = 0;
        }
    }
}

impl Drop for Lister<'_> {
    fn drop(&mut self) {
        self.set_held();
    }
}

impl Frontier {
    /// An empty frontier of the blocks `blocks` of a table (the layer in work), each of
    /// `len` slots.
    pub(super) fn new(blocks: std::ops::Range<u64>, len: usize) -> Frontier {
        Frontier {
            blocks: Bitmap::new(blocks),
            len,
            list: None,
        }
    }

    /// [`Frontier::new`], which also lists its slots while they are at most `most`
    /// ([`Frontier::lister`], [`Frontier::take_listed`]).
    pub(super) fn listing(blocks: std::ops::Range<u64>, len: usize, most: u64) -> Frontier {
        Frontier {
            list: Some(SlotList::new(most)),
            ..Frontier::new(blocks, len)
        }
    }

    /// What marks slots of the frontier one at a time, and lists them if it lists its slots
    /// and has not outgrown its list. It holds the calling thread's list until it is
    /// dropped.
    #[inline]
    pub(super) fn lister(&self) -> Lister<'_> {
        Lister {
            blocks: &self.blocks,
            list: (self.list.as_ref())
                .filter(|l| !l.given_up())
                .map(SlotList::own),
            held: (0, 0),
        }
    }

    /// Where the frontier has listed all its slots, calls `f(state, w, slots)` for every
    /// block w that holds any, with them, in parallel runs of blocks each with a `state()`
    /// of its own, and returns true; the list is emptied, the marks are kept.
    pub(super) fn take_listed<S: SquareSet, T>(
        &self,
        state: impl Fn() -> T + Sync,
        f: impl Fn(&mut T, u64, S) + Sync,
    ) -> bool {
        (self.list.as_ref()).is_some_and(|l| l.take(self.len as u64, state, f))
    }

    /// Marks block `w` as holding frontier slots (if `slots`, the ones found, is not empty).
    #[inline]
    pub(super) fn mark<S: SquareSet>(&self, w: u64, slots: S) {
        if !slots.is_empty() {
            self.blocks.set(w);
        }
    }

    /// Whether block `w` is marked.
    #[inline]
    pub(super) fn holds(&self, w: u64) -> bool {
        self.blocks.contains(w)
    }

    /// The marks of blocks 64·k to 64·k + 63, block 64·k + b's in bit b.
    #[inline]
    pub(super) fn word(&self, k: u64) -> u64 {
        self.blocks.word(k)
    }

    /// Marks the blocks 64·k + b for the bits b of `blocks`.
    #[inline]
    pub(super) fn mark_blocks(&self, k: u64, blocks: u64) {
        self.blocks.or_word(k, blocks);
    }

    /// Calls `f(k, marks)` for every word k of the marked blocks' bits (blocks 64·k + b for
    /// the bits b of `marks`) that holds any.
    pub(super) fn for_each_word(&self, f: impl Fn(u64, u64) + Sync) {
        self.blocks.for_each_word(f);
    }

    /// How many blocks are marked.
    pub(super) fn count(&self) -> u64 {
        self.blocks.count()
    }

    pub(super) fn clear(&self) {
        self.blocks.clear();
        if let Some(list) = &self.list {
            list.clear();
        }
    }

    /// Calls `f(w, slots)` for every marked block w and its slots whose byte in `table` is
    /// `byte`, the frontier's value.
    pub(super) fn for_each<S: SquareSet>(&self, table: &[u8], byte: u8, f: impl Fn(u64, S) + Sync) {
        self.for_each_with(table, byte, || (), |_, w, slots| f(w, slots));
    }

    /// `for_each` with a state for each run of blocks, as `for_each_read` gives it.
    pub(super) fn for_each_with<S: SquareSet, T>(
        &self,
        table: &[u8],
        byte: u8,
        state: impl Fn() -> T + Sync,
        f: impl Fn(&mut T, u64, S) + Sync,
    ) {
        self.for_each_read(
            |w| BlockBytes::of_block(table, w, self.len).equal::<S>(byte),
            |w| bytes::prefetch(table, w, self.len),
            state,
            f,
        );
    }

    /// Calls `f(state, w, slots(w))` for every marked block w whose `slots(w)`, the frontier's
    /// slots read from the table, are not empty; `prefetch(w)` starts the read of a block's
    /// bytes. The blocks are worked on in runs of up to 64, each run with a `state()` of its
    /// own (a gather's [`Batch`](super::candidates::Batch), which then holds the writes of
    /// many blocks).
    pub(super) fn for_each_read<S: SquareSet, T>(
        &self,
        slots: impl Fn(u64) -> S + Sync,
        prefetch: impl Fn(u64) + Sync,
        state: impl Fn() -> T + Sync,
        f: impl Fn(&mut T, u64, S) + Sync,
    ) {
        self.blocks.for_each_word(|k, marks| {
            let mut state = state();
            for_each_bit(marks, |b| {
                let w = k * 64 + b as u64;
                // Frontier blocks are far apart, too far for the processor to guess the next
                // one: its read starts while this one is worked on.
                let later = marks >> b >> 1;
                if later != 0 {
                    prefetch(w + 1 + later.trailing_zeros() as u64);
                }
                let slots = slots(w);
                if !slots.is_empty() {
                    f(&mut state, w, slots);
                }
            })
        });
    }

    /// The marked blocks, in order.
    #[cfg(test)]
    pub(super) fn blocks(&self) -> Vec<u64> {
        let blocks = std::sync::Mutex::new(Vec::new());
        self.blocks.for_each_word(|k, marks| {
            for_each_bit(marks, |b| blocks.lock().unwrap().push(k * 64 + b as u64))
        });
        let mut blocks = blocks.into_inner().unwrap();
        blocks.sort_unstable();
        blocks
    }
}
