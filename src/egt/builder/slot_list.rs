//! A frontier's slots listed as they are marked, for a build from one side.
//!
//! There, Black's frontiers hold the blocks of the images of White's decided slots
//! (`images.rs`), and the step after finds the slots again by reading, for every slot of each
//! marked block, its image's byte: 64 images worked out and looked up for the two or three
//! slots a block of a loss frontier holds. Marking a slot works out its image anyway, so
//! the slot is listed then, and the step reads the list instead: while the frontier is
//! small. A list holds at most `most` slots, 8 bytes each; beyond, it is given up until the
//! frontier is cleared, and the step reads the images as before.
//!
//! Each thread lists into a list of its own, on cache lines of its own, in chunks that
//! growing never copies: marking shares no write with another thread.

use crate::board::SquareSet;
use rayon::prelude::*;
use std::sync::atomic::{AtomicBool, Ordering::Relaxed};
use std::sync::{Mutex, MutexGuard};

/// Slots of a chunk of a thread's list, at most: a list grows by whole chunks, never copied.
const CHUNK: u64 = 1 << 14;

/// The most slots a thread lists between two looks at its share: a block's (16 × 16).
const AT_ONCE: u64 = 256;

/// Slots a parallel task of [`SlotList::take`] works on, about (a run ends at a block's end).
const RUN: usize = 1024;

/// Blocks of a layer per slot its lists of losses may hold: a list is given up beyond.
const BLOCKS_PER_SLOT: u64 = 8;

/// The most slots a frontier of a layer of `blocks` blocks lists.
pub(super) fn most_listed(blocks: &std::ops::Range<u64>) -> u64 {
    (blocks.end - blocks.start) / BLOCKS_PER_SLOT
}

/// Slots of a chunk of a list whose threads' shares are `share` slots each: as long as a
/// share and a block, to keep a small table's lists small.
fn chunk_len(share: u64) -> u64 {
    CHUNK.min(share + AT_ONCE)
}

/// Bytes a frontier's list takes at most in a layer of `blocks` blocks, built on `threads`
/// threads: its slots, and per thread, a block listed past its share and a chunk begun.
pub(crate) fn list_bytes(blocks: u64, threads: u64) -> u64 {
    let (most, lists) = (most_listed(&(0..blocks)), threads + 1);
    8 * (most + lists * (AT_ONCE + chunk_len(most / lists)))
}

/// A thread's chunks: all full but the last.
type Chunks = Vec<Vec<u64>>;

/// The slots of a frontier, listed while they are at most `most`.
pub(super) struct SlotList {
    lists: Vec<Own>,
    /// Set once a thread's list outgrew its share of `most`.
    given_up: AtomicBool,
    /// Each thread's share of `most`.
    share: u64,
    /// Slots of a chunk of a thread's list.
    chunk: usize,
}

/// One thread's list, alone on its cache lines.
#[repr(align(128))]
#[derive(Default)]
struct Own(Mutex<Chunks>);

/// The calling thread's list, held while it lists the slots of one block or of several, one
/// after the other; at the end of each, and dropped, it gives the lists up if this one
/// outgrew its share.
pub(super) struct ThreadList<'a> {
    of: &'a SlotList,
    own: MutexGuard<'a, Chunks>,
}

impl SlotList {
    /// An empty list of at most `most` slots, for the threads of the current pool.
    pub(super) fn new(most: u64) -> SlotList {
        let lists = rayon::current_num_threads() + 1;
        let share = most / lists as u64;
        SlotList {
            lists: (0..lists).map(|_| Own::default()).collect(),
            given_up: AtomicBool::new(false),
            share,
            chunk: chunk_len(share) as usize,
        }
    }

    /// Whether the list was given up: it outgrew `most` since it was last cleared.
    #[inline]
    pub(super) fn given_up(&self) -> bool {
        self.given_up.load(Relaxed)
    }

    /// The calling thread's list (a thread outside the pool shares one).
    #[inline]
    pub(super) fn own(&self) -> ThreadList<'_> {
        let i = rayon::current_thread_index().map_or(0, |i| i + 1) % self.lists.len();
        ThreadList {
            of: self,
            own: self.lists[i].0.lock().expect("no panic holds it"),
        }
    }

    /// Unless the list was given up, calls `f(state, w, slots)` for each block w that holds
    /// slots listed, of blocks of `len` slots, with those slots, and returns true. The blocks
    /// are worked on in parallel runs, each with a `state()` of its own, in order within a
    /// run. The list is emptied.
    pub(super) fn take<S: SquareSet, T>(
        &self,
        len: u64,
        state: impl Fn() -> T + Sync,
        f: impl Fn(&mut T, u64, S) + Sync,
    ) -> bool {
        if self.given_up() {
            return false;
        }
        let lists: Vec<Chunks> = (self.lists.iter())
            .map(|l| std::mem::take(&mut *l.0.lock().expect("no panic holds it")))
            .collect();
        let mut slots = Vec::with_capacity(lists.iter().flatten().map(Vec::len).sum());
        // Each chunk freed once copied: the slots are held about once, not twice.
        for chunk in lists.into_iter().flatten() {
            slots.extend_from_slice(&chunk);
        }
        slots.par_sort_unstable();
        let mut runs = Vec::new();
        let mut at = 0;
        while at < slots.len() {
            let mut end = (at + RUN).min(slots.len());
            while end < slots.len() && slots[end] / len == slots[end - 1] / len {
                end += 1;
            }
            runs.push(&slots[at..end]);
            at = end;
        }
        runs.into_par_iter().for_each(|mut run| {
            let mut state = state();
            while let Some(&first) = run.first() {
                let w = first / len;
                let mut bits = S::default();
                let mut k = 0;
                while k < run.len() && run[k] / len == w {
                    bits |= S::bit((run[k] - w * len) as u8);
                    k += 1;
                }
                f(&mut state, w, bits);
                run = &run[k..];
            }
        });
        true
    }

    /// Empties the list, and takes it up again if it was given up.
    pub(super) fn clear(&self) {
        for list in &self.lists {
            *list.0.lock().expect("no panic holds it") = Chunks::default();
        }
        self.given_up.store(false, Relaxed);
    }
}

impl ThreadList<'_> {
    /// Lists `slot`. Between two looks at its share (`keeps_listing`, and the drop), a
    /// thread lists at most a block's slots.
    #[inline]
    pub(super) fn push(&mut self, slot: u64) {
        let chunks = &mut *self.own;
        if chunks.last().is_none_or(|c| c.len() == self.of.chunk) {
            chunks.push(Vec::with_capacity(self.of.chunk));
        }
        chunks.last_mut().expect("a chunk was pushed").push(slot);
    }

    /// How many slots the thread's list holds.
    fn len(&self) -> u64 {
        let full = self.own.len().saturating_sub(1) * self.of.chunk;
        (full + self.own.last().map_or(0, Vec::len)) as u64
    }

    /// Whether the list goes on: false once it was given up, or if this thread's list
    /// outgrew its share, which gives it up (and empties this thread's list). To be asked
    /// at least once every [`AT_ONCE`] slots listed.
    #[inline]
    pub(super) fn keeps_listing(&mut self) -> bool {
        if self.len() > self.of.share {
            self.of.given_up.store(true, Relaxed);
            *self.own = Chunks::default();
        }
        !self.of.given_up()
    }
}

impl Drop for ThreadList<'_> {
    fn drop(&mut self) {
        self.keeps_listing();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::Mutex;

    /// The blocks taken from `list`, of `len` slots, with their slots; `None` if it was given
    /// up.
    fn taken(list: &SlotList, len: u64) -> Option<Vec<(u64, u128)>> {
        let seen = Mutex::new(Vec::new());
        let took = list.take(
            len,
            || (),
            |_, w, bits: u128| seen.lock().unwrap().push((w, bits)),
        );
        let mut seen = seen.into_inner().unwrap();
        seen.sort_unstable();
        took.then_some(seen)
    }

    /// Whatever the number of threads listing, the list gives each block once with all its
    /// slots listed (a slot listed twice once), on blocks of 64 and 80 slots; taken, it is
    /// empty; outgrown, it is given up until cleared, and then lists again.
    #[test]
    fn a_list_gives_each_block_its_slots_until_it_is_outgrown() {
        for len in [64u64, 80] {
            let slots: Vec<u64> = (0..30_000u64).map(|k| k * 7919 % 1_000_003).collect();
            let mut want = std::collections::BTreeMap::<u64, u128>::new();
            for &s in &slots {
                *want.entry(s / len).or_default() |= 1 << (s % len);
            }
            let want: Vec<(u64, u128)> = want.into_iter().collect();
            for threads in [1, 2, 3] {
                let pool = rayon::ThreadPoolBuilder::new()
                    .num_threads(threads)
                    .build()
                    .unwrap();
                pool.install(|| {
                    let list = SlotList::new(1 << 20);
                    slots.par_chunks(37).for_each(|chunk| {
                        let mut own = list.own();
                        chunk.iter().for_each(|&s| own.push(s));
                        // Listed twice: one slot of the block.
                        own.push(chunk[0]);
                    });
                    assert_eq!(taken(&list, len).as_ref(), Some(&want), "{threads} threads");
                    assert_eq!(taken(&list, len), Some(Vec::new()));
                    // Outgrown: given up, then cleared and listing again.
                    let small = SlotList::new(100);
                    slots.par_chunks(37).for_each(|chunk| {
                        let mut own = small.own();
                        chunk.iter().for_each(|&s| own.push(s));
                    });
                    assert!(small.given_up());
                    assert_eq!(taken(&small, len), None);
                    small.clear();
                    small.own().push(len + 3);
                    assert_eq!(taken(&small, len), Some(vec![(1, 1 << 3)]));
                });
            }
        }
    }
}
