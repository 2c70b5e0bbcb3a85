//! From one side (`images.rs`), on the 8×8 board: White's wins join Black's no-escape set as
//! they are recorded, at their images' slots, so that the loss step need not read them back
//! from White's table (`Build::gather`). A White block's images lie one in each of 64
//! consecutive blocks of Black's, a word of blocks (`Build::image_frontier_tile`), and the
//! White blocks a thread records one after the other mostly have theirs in the same word (a
//! plain block's all at one slot: `Build::image_word`, `Recorder`). So
//! each thread holds back the bits of the word of blocks it adds to, a tile of 64 blocks, and
//! sets them together when it moves to another word and at the end of each parallel part of
//! the win step (`HeldWins::set_all`); and it starts the reads of a word's bits (8 cache
//! lines) when it moves to it. A locked OR for each image, or the bits set without those
//! reads started, cost the win step what the loss step's gathers saved, and a lock taken for
//! each block recorded cost a quarter of what this costs the win step (docs/SPEED.md).
//!
//! The tile's bits are set with plain stores, no locked OR: the images of one word of White's
//! blocks fill one word of Black's blocks, and no other, so a word of Black's blocks is added
//! to only by the task that records the White word whose images it holds, which each
//! parallel part of a win step gives one task (the blocks of a word of blocks, as
//! `Pending::take`, `Candidates::check_blocks` and `Build::check_blocks_of` hand them out);
//! and every tile is set before the next part begins.

use super::bitmap::for_each_bit;
use super::no_escape::NoEscape;
use crate::board::{Square, SquareSet};
use std::marker::PhantomData;
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering::Relaxed};

/// No word of blocks yet.
const NONE: u64 = u64::MAX;

/// Per thread of the pool, the bits it holds back, of a set of blocks of one word (64 slots:
/// the 8×8 board's).
pub(super) struct HeldWins<S> {
    threads: Vec<Tile>,
    set: PhantomData<S>,
}

/// The bits of a word of 64 blocks, held back by one thread, alone on its cache lines. The
/// first thread of the pool's index that adds through it (`me`) owns it, and it alone then
/// writes it, with plain loads and stores (atomics that take no lock), but at the end of a
/// step, when no thread adds.
#[repr(align(128))]
struct Tile {
    /// The owner (`me`), 0 while there is none.
    owner: AtomicUsize,
    /// Which word of blocks (`NONE`: none).
    word: AtomicU64,
    /// The blocks that hold bits: block 64 · word + q at bit q.
    blocks: AtomicU64,
    /// Block 64 · word + q's bits, at q.
    bits: [AtomicU64; 64],
}

/// The calling thread's tile, to add bits to the set `set` through.
pub(super) struct Holder<'a, S> {
    tile: &'a Tile,
    set: &'a NoEscape<S>,
}

/// A number that tells the calling thread from every other running thread: the address of
/// a thread-local.
fn me() -> usize {
    thread_local!(static ME: u8 = const { 0 });
    ME.with(|me| me as *const u8 as usize)
}

impl<S: SquareSet> HeldWins<S> {
    /// None held, for the threads of the current pool.
    pub(super) fn new() -> HeldWins<S> {
        let tile = || Tile {
            owner: AtomicUsize::new(0),
            word: AtomicU64::new(NONE),
            blocks: AtomicU64::new(0),
            bits: std::array::from_fn(|_| AtomicU64::new(0)),
        };
        HeldWins {
            threads: (0..rayon::current_num_threads()).map(|_| tile()).collect(),
            set: PhantomData,
        }
    }

    /// The calling thread's tile, for bits of `set`; `None` for a thread outside the pool,
    /// or one whose tile another thread owns (a thread of another pool), which sets its bits
    /// at once.
    #[inline]
    pub(super) fn holder<'a>(&'a self, set: &'a NoEscape<S>) -> Option<Holder<'a, S>> {
        debug_assert_eq!(S::LANES, 1, "a block is a word");
        let tile = self.threads.get(rayon::current_thread_index()?)?;
        let (me, owner) = (me(), tile.owner.load(Relaxed));
        let owns = owner == me
            || (owner == 0 && (tile.owner.compare_exchange(0, me, Relaxed, Relaxed)).is_ok());
        owns.then_some(Holder { tile, set })
    }

    /// Sets every thread's bits held back in `set`, once no thread adds any: at the end of
    /// each parallel part of the step (see the module).
    pub(super) fn set_all(&self, set: &NoEscape<S>) {
        for tile in &self.threads {
            tile.set_in(set);
        }
    }
}

impl Tile {
    /// Sets the bits held back in `set`, which no other thread writes in this word of
    /// blocks meanwhile (see the module), and holds none.
    fn set_in<S: SquareSet>(&self, set: &NoEscape<S>) {
        let word = self.word.load(Relaxed);
        for_each_bit(self.blocks.load(Relaxed), |q| {
            let bits = self.bits[q as usize].load(Relaxed);
            set.add_alone(word * 64 + u64::from(q), S::from_lanes(|_| bits));
            self.bits[q as usize].store(0, Relaxed);
        });
        self.word.store(NONE, Relaxed);
        self.blocks.store(0, Relaxed);
    }
}

impl<S: SquareSet> Holder<'_, S> {
    /// Adds slot x of the blocks 64·k + q for the bits q of `blocks` to the set, now or
    /// later.
    #[inline]
    pub(super) fn add_blocks(&mut self, k: u64, x: Square, blocks: u64) {
        if k != self.tile.word.load(Relaxed) {
            self.tile.set_in(self.set);
            self.tile.word.store(k, Relaxed);
            self.set.prefetch_word_of_blocks(k);
        }
        let held = &self.tile.blocks;
        held.store(held.load(Relaxed) | blocks, Relaxed);
        for_each_bit(blocks, |q| {
            let bits = &self.tile.bits[q as usize];
            bits.store(bits.load(Relaxed) | 1 << x, Relaxed);
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Bits added through holders of several threads, in several words of blocks, each word
    /// by one task in each of two parallel parts, are all in the set once they are set; a
    /// thread outside the pool, or of another pool whose index is taken, has no holder.
    #[test]
    fn held_bits_reach_the_set() {
        let set = NoEscape::<u64>::new(0..300, 64);
        let held = HeldWins::<u64>::new();
        assert!(held.holder(&set).is_none(), "outside the pool");
        let adds: Vec<(u64, Square)> = (0..2000u64)
            .map(|i| ((i * 37 + i / 7) % 300, (i * 11 % 64) as Square))
            .collect();
        for part in 0..2 {
            if part > 0 {
                held.set_all(&set);
            }
            rayon::scope(|s| {
                for task in 0..3 {
                    let (held, set, adds) = (&held, &set, &adds);
                    // This part's adds to the words of blocks k of this task, words mixed.
                    let mine = (adds.iter().skip(part).step_by(2))
                        .filter(move |(b, _)| (b / 64 + part as u64) % 3 == task);
                    s.spawn(move |_| match held.holder(set) {
                        Some(mut holder) => {
                            mine.for_each(|&(b, x)| holder.add_blocks(b / 64, x, 1 << (b % 64)))
                        }
                        None => mine.for_each(|&(b, x)| _ = set.or(b, 1 << x)),
                    });
                }
            });
        }
        // Every tile is owned by a thread of the pool.
        assert!(rayon::broadcast(|_| held.holder(&set).is_some())
            .iter()
            .all(|&h| h));
        let other = rayon::ThreadPoolBuilder::new()
            .num_threads(1)
            .build()
            .unwrap();
        assert!(
            other.install(|| held.holder(&set).is_none()),
            "tile 0 is owned"
        );
        let mut expected = vec![0u64; 300];
        for &(b, x) in &adds {
            expected[b as usize] |= 1 << x;
        }
        let now: Vec<u64> = (0..300).map(|b| set.word(b)).collect();
        assert_ne!(now, expected, "the last words of blocks are held back");
        held.set_all(&set);
        for (b, bits) in expected.iter().enumerate() {
            assert_eq!(set.word(b as u64), *bits, "block {b}");
        }
    }
}
