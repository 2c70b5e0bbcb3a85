//! Provisional values: wins and losses written at a distance the iterations have not reached
//! yet (by the first pass's captures, by seeds, or by a loss check whose capture reaches a
//! longer win). They join the frontier when the iterations reach their distance.
//!
//! They are counted per byte, which tells when a distance has any and when the build may
//! stop; and each block keeps the smallest provisional byte it may hold, so that collecting a
//! distance reads only the blocks that hold one, not the whole table.

use crate::board::{Color, SquareSet};
use crate::egt::bytes::{self, BlockBytes};
use crate::egt::value::{loss_of, win_of, ILLEGAL, NOT_LOST};
use rayon::prelude::*;
use std::ops::Range;
use std::sync::atomic::{AtomicU64, AtomicU8, Ordering::Relaxed};

/// Bytes that can be provisional values: wins and losses. As a block's smallest provisional
/// byte, `UNKNOWN` (0) means none.
#[inline]
fn is_value(b: u8) -> bool {
    win_of(b).is_some() || loss_of(b).is_some()
}

/// Blocks per parallel task of `take`.
const CHUNK: usize = 1024;

/// Blocks due whose reads `take` starts ahead of the one it works on.
const AHEAD: usize = 8;

/// The provisional values of both sides' tables.
pub(super) struct Pending {
    /// Per side, per byte: how many were written.
    counts: [Vec<AtomicU64>; 2],
    /// Per side, per block from `start` on: at most the smallest provisional byte in it (0:
    /// none).
    first: [Vec<AtomicU8>; 2],
    /// The first block held (the layer's).
    start: u64,
    /// Slots of a block.
    len: usize,
}

impl Pending {
    /// No provisional values yet, in the blocks `blocks` of the tables of the sides `held`
    /// (the layer in work), each of `len` slots.
    pub(super) fn new(blocks: Range<u64>, len: usize, held: &[Color]) -> Pending {
        let first = |c: Color| match held.contains(&c) {
            true => blocks.clone().map(|_| AtomicU8::new(0)).collect(),
            false => Vec::new(),
        };
        Pending {
            counts: [0, 1].map(|_| (0..256).map(|_| AtomicU64::new(0)).collect()),
            first: Color::BOTH.map(first),
            start: blocks.start,
            len,
        }
    }

    /// Counts `n` bytes `byte` written for side `c`: provisional values if they are wins
    /// or losses (other bytes are not counted).
    pub(super) fn count(&self, c: Color, byte: u8, n: u64) {
        if is_value(byte) {
            self.counts[c.index()][byte as usize].fetch_add(n, Relaxed);
        }
    }

    /// Counts one provisional value of `byte` for side `c` just written into block `w` (by
    /// the one thread that works on that block).
    pub(super) fn add(&self, c: Color, w: u64, byte: u8) {
        self.count(c, byte, 1);
        let first = &self.first[c.index()][(w - self.start) as usize];
        let old = first.load(Relaxed);
        if old == 0 || byte < old {
            first.store(byte, Relaxed);
        }
    }

    /// Whether any provisional value of `byte` was written for side `c`.
    pub(super) fn any(&self, c: Color, byte: u8) -> bool {
        self.counts[c.index()][byte as usize].load(Relaxed) > 0
    }

    /// Whether any provisional value of a byte above `byte` was written, for either side.
    pub(super) fn any_beyond(&self, byte: u8) -> bool {
        self.counts.iter().any(|counts| {
            counts[byte as usize + 1..]
                .iter()
                .any(|n| n.load(Relaxed) > 0)
        })
    }

    /// Finds, for every block of side `c`'s table `table` that it holds, its smallest
    /// provisional byte: once the first pass and the seeds have written them.
    pub(super) fn index_blocks(&self, c: Color, table: &[u8]) {
        let start = self.start;
        self.first[c.index()]
            .par_iter()
            .enumerate()
            .with_min_len(1024)
            .for_each(|(k, first)| {
                first.store(self.smallest_above(table, start + k as u64, 0), Relaxed)
            });
    }

    /// Calls `f(state, w, slots)` for every block w of side `c`'s table `table` that holds
    /// slots of value `byte`, the provisional values of the distance the iterations have
    /// reached (bytes below it are no longer provisional), in parallel runs of blocks each
    /// with a `state()` of its own, and moves each such block on to its next provisional
    /// byte. Returns how many slots were found. Bytes must be taken in rising
    /// order: a block moved on past a byte is not visited for it again.
    pub(super) fn take<S: SquareSet, T>(
        &self,
        c: Color,
        byte: u8,
        table: &[u8],
        state: impl Fn() -> T + Sync,
        f: impl Fn(&mut T, u64, S) + Sync,
    ) -> u64 {
        let due = |first: &AtomicU8| {
            let b = first.load(Relaxed);
            b != 0 && b <= byte
        };
        self.first[c.index()]
            .par_chunks(CHUNK)
            .enumerate()
            .map(|(k, chunk)| {
                let block = |i: usize| self.start + (k * CHUNK + i) as u64;
                // The blocks due are scattered: the reads of the next `AHEAD` are started
                // before the first is worked on, in a ring of their indices.
                let (mut ahead, mut first, mut held, mut scan) = ([0; AHEAD], 0, 0, 0);
                let (mut found, mut state) = (0, state());
                loop {
                    while held < AHEAD {
                        let Some(j) = chunk[scan..].iter().position(due).map(|j| scan + j) else {
                            scan = chunk.len();
                            break;
                        };
                        bytes::prefetch(table, block(j), self.len);
                        ahead[(first + held) % AHEAD] = j;
                        (held, scan) = (held + 1, j + 1);
                    }
                    if held == 0 {
                        break;
                    }
                    let i = ahead[first];
                    (first, held) = ((first + 1) % AHEAD, held - 1);
                    let w = block(i);
                    let slots = BlockBytes::of_block(table, w, self.len).equal::<S>(byte);
                    if !slots.is_empty() {
                        f(&mut state, w, slots);
                    }
                    chunk[i].store(self.smallest_above(table, w, byte), Relaxed);
                    found += slots.count() as u64;
                }
                found
            })
            .sum()
    }
}

impl Pending {
    /// The smallest provisional byte above `floor` in block `w` of `table` (0: none).
    #[inline]
    fn smallest_above(&self, table: &[u8], w: u64, floor: u8) -> u8 {
        // ILLEGAL is 255, which `min_above` gives when there is none.
        match BlockBytes::of_block(table, w, self.len).min_above(floor, NOT_LOST) {
            ILLEGAL => 0,
            b => b,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::bitmap::for_each_bit;
    use super::*;
    use crate::egt::value::{loss_byte, win_byte, MAX_DIRECT, UNKNOWN};
    use std::sync::Mutex;

    /// Taking the bytes in the iterations' order (loss 0, then win n and loss n for n = 1, 2,
    /// …) finds every provisional value exactly once, at its own byte, including one added
    /// while the iterations run, and none of the bytes that are not values; blocks due
    /// side by side and on either side of a task's edge included.
    #[test]
    fn take_finds_each_provisional_value_at_its_distance() {
        let blocks = 2 * CHUNK as u64 + 5;
        let mut table = vec![UNKNOWN; 64 * blocks as usize];
        let edge = 64 * CHUNK;
        let written = [
            (edge - 60, win_byte(2)),
            (edge, win_byte(2)),
            (edge + 64, loss_byte(4)),
            (2 * edge + 4 * 64 + 63, win_byte(9)),
            (3, loss_byte(0)),
            (70, win_byte(2)),
            (71, win_byte(2)),
            (72, loss_byte(1)),
            (130, win_byte(9)),
            (131, ILLEGAL),
            (200, NOT_LOST),
            (201, win_byte(1)),
            (300, loss_byte(4)),
            (310, win_byte(MAX_DIRECT)),
        ];
        for (slot, byte) in written {
            table[slot] = byte;
        }
        let pending = Pending::new(0..blocks, 64, &Color::BOTH);
        pending.index_blocks(Color::White, &table);
        let late = (260, loss_byte(6));
        let mut order = vec![loss_byte(0)];
        order.extend((1..=MAX_DIRECT).flat_map(|n| [win_byte(n), loss_byte(n)]));
        let found = Mutex::new(Vec::new());
        for byte in order {
            if byte == loss_byte(3) {
                table[late.0] = late.1;
                pending.add(Color::White, late.0 as u64 / 64, late.1);
            }
            pending.take(
                Color::White,
                byte,
                &table,
                || (),
                |_, w, slots: u64| {
                    for_each_bit(slots, |k| {
                        found.lock().unwrap().push((w * 64 + k as u64, byte))
                    })
                },
            );
        }
        let mut found = found.into_inner().unwrap();
        found.sort_unstable();
        let mut want: Vec<(u64, u8)> = written
            .iter()
            .chain([&late])
            .filter(|(_, b)| is_value(*b))
            .map(|&(s, b)| (s as u64, b))
            .collect();
        want.sort_unstable();
        assert_eq!(found, want);
    }
}
