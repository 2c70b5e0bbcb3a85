//! The two tables of a build, one byte per position for each side to move, and the *phase
//! rule* that lets the builder read them as plain bytes. This is the only module that sees
//! the tables' `AtomicU8`s as `u8`s.
//!
//! # The phase rule
//! A step of side c (a win or a loss step, see `win_step.rs` and `loss_step.rs`) writes only
//! c's table and reads only the opponent's: it holds a [`Writer`] of c's table and
//! [`Frozen`] views of the other. (A build of White's side alone, whose steps stand for
//! Black's too, reads White's table for the opponent's frontier: its gathers park their
//! candidates in that same table, so they read it through the writer, a relaxed atomic load
//! per byte, [`Writer::load`].) At any time a side's table has frozen views out or writers
//! out, never both: [`Sides::frozen`] and [`Sides::writer`] count them per side and
//! panic when asked for the other kind, so a step that would write a table it is also
//! reading as plain bytes stops at once. The count is a few atomic operations per step, not
//! per position: it is checked in release builds too. A frozen view is a plain `&[u8]`,
//! which the compiler may read in vectors; that is sound because nothing writes the table
//! while the view is out, the writers being the only way to write it.
//!
//! # Where the atomics stay
//! The threads of a pass write one table at the same time, each its own slots (in the first
//! pass a royal pair's, in a step a word's), through one shared [`Writer`]: its stores are
//! relaxed atomic stores, plain byte moves on the machine, which need no unsafe code. The end
//! of a pass (rayon's join) orders its writes before the next pass's reads.
//!
//! Within a step the mover's own bytes are also read, a block at a time, through
//! [`Writer::word`]: `Candidates::check_blocks` hands each block to one task, which reads the
//! word's bytes before it writes them; [`Word::store`] takes the word mutably, so the borrow
//! checker ends the plain view of its bytes before the first store.

use crate::board::Color;
use crate::egt::bytes::{self, BlockBytes};
use crate::egt::value::CANDIDATE;
use std::ops::Deref;
use std::sync::atomic::{
    AtomicIsize, AtomicU8,
    Ordering::{AcqRel, Acquire, Relaxed},
};

/// The tables of both sides, with the views and writers of each that are out.
pub(super) struct Sides<'t> {
    tables: &'t [Vec<AtomicU8>; 2],
    /// Slots of a block (`Indexer::block_len`).
    block: usize,
    /// Per side: the number of frozen views out (positive) or of writers out (negative).
    out: [AtomicIsize; 2],
}

impl<'t> Sides<'t> {
    /// The tables `tables`, indexed by side to move, of blocks of `block` slots, with nothing
    /// out.
    pub(super) fn new(tables: &'t [Vec<AtomicU8>; 2], block: usize) -> Sides<'t> {
        Sides {
            tables,
            block,
            out: [AtomicIsize::new(0), AtomicIsize::new(0)],
        }
    }

    /// Side `c`'s table as plain bytes, until the view is dropped.
    ///
    /// # Panics
    /// If a writer of side `c`'s table is out.
    pub(super) fn frozen(&self, c: Color) -> Frozen<'_> {
        let out = self.enter(c, VIEW);
        let table = &self.tables[c.index()];
        // SAFETY: AtomicU8 has the size, alignment and bit validity of u8, and nothing writes
        // the table while the view lives: writers are the only way to write it, and `out`
        // refuses them until the view is dropped.
        let bytes = unsafe { std::slice::from_raw_parts(table.as_ptr().cast::<u8>(), table.len()) };
        Frozen { bytes, _out: out }
    }

    /// A writer of side `c`'s table, for a step of side `c` (or the first pass and seeds).
    ///
    /// # Panics
    /// If a frozen view of side `c`'s table is out.
    pub(super) fn writer(&self, c: Color) -> Writer<'_> {
        Writer {
            bytes: &self.tables[c.index()],
            block: self.block,
            _out: self.enter(c, WRITER),
        }
    }

    /// Counts one more view or writer (`kind`) of side `c`'s table out; panics if the other
    /// kind is out.
    fn enter(&self, c: Color, kind: isize) -> Out<'_> {
        let out = &self.out[c.index()];
        if let Err(n) = out.fetch_update(AcqRel, Acquire, |n| (n * kind >= 0).then_some(n + kind)) {
            let (asked, held) = if kind == VIEW {
                ("a frozen view", "writer")
            } else {
                ("a writer", "frozen view")
            };
            panic!(
                "phase rule broken: {asked} of {c:?}'s table asked for while {} {held}(s) of it are out",
                n.abs()
            );
        }
        Out { out, kind }
    }
}

/// `Sides::out`'s count of a frozen view.
const VIEW: isize = 1;
/// `Sides::out`'s count of a writer.
const WRITER: isize = -1;

/// A view or writer counted out, until dropped.
struct Out<'t> {
    out: &'t AtomicIsize,
    kind: isize,
}

impl Drop for Out<'_> {
    fn drop(&mut self) {
        self.out.fetch_sub(self.kind, AcqRel);
    }
}

/// One side's table as plain bytes, which nothing writes while the view lives.
pub(super) struct Frozen<'t> {
    bytes: &'t [u8],
    _out: Out<'t>,
}

impl Deref for Frozen<'_> {
    type Target = [u8];

    #[inline]
    fn deref(&self) -> &[u8] {
        self.bytes
    }
}

/// The right to write one side's table, shared by the threads of a step.
pub(super) struct Writer<'t> {
    bytes: &'t [AtomicU8],
    block: usize,
    _out: Out<'t>,
}

impl Writer<'_> {
    /// The byte of slot `index`, which no other thread writes meanwhile.
    #[inline]
    pub(super) fn load(&self, index: u64) -> u8 {
        self.bytes[index as usize].load(Relaxed)
    }

    /// Sets slot `index` to `byte`.
    #[inline]
    pub(super) fn store(&self, index: u64, byte: u8) {
        self.bytes[index as usize].store(byte, Relaxed);
    }

    /// Starts loading block `w` of the table into the caches (see `bytes::prefetch`).
    #[inline]
    pub(super) fn prefetch(&self, w: u64) {
        bytes::prefetch(self.bytes, w, self.block);
    }

    /// Parks slot `index` as a candidate: its byte becomes `CANDIDATE` if `parks` says so of
    /// it (other threads may park it too, or read the block, meanwhile); returns whether it
    /// did.
    #[inline]
    pub(super) fn park(&self, index: u64, parks: impl Fn(u8) -> bool) -> bool {
        let byte = &self.bytes[index as usize];
        let parked = parks(byte.load(Relaxed));
        if parked {
            byte.store(CANDIDATE, Relaxed);
        }
        parked
    }

    /// Starts loading the byte of slot `index` into the caches.
    #[inline]
    pub(super) fn prefetch_slot(&self, index: u64) {
        if let Some(byte) = self.bytes.get(index as usize) {
            bytes::prefetch_line(byte);
        }
    }

    /// Block `w` of the table (slots B·w to B·w + B − 1), to be read and then written.
    ///
    /// # Safety
    /// No other thread may write word `w` while the result lives: the task that holds it is
    /// the only one that works on word `w` (as `Candidates::check_blocks` hands out blocks).
    #[inline]
    pub(super) unsafe fn word(&self, w: u64) -> Word<'_> {
        Word {
            bytes: &self.bytes[w as usize * self.block..][..self.block],
        }
    }
}

/// One block of the table of a step's mover, owned by one task of the step.
pub(super) struct Word<'t> {
    bytes: &'t [AtomicU8],
}

impl Word<'_> {
    /// The word's bytes, as plain bytes (read before any of them is written).
    #[inline]
    pub(super) fn bytes(&self) -> BlockBytes<'_> {
        // SAFETY: AtomicU8 has the size, alignment and bit validity of u8. Only the task that
        // holds this word writes its bytes (`Writer::word`), through `store`, which borrows
        // the word mutably and so cannot be called while this view lives.
        let plain = unsafe {
            std::slice::from_raw_parts(self.bytes.as_ptr().cast::<u8>(), self.bytes.len())
        };
        BlockBytes::new(plain)
    }

    /// Sets slot `x` of the block (slot B·w + x of the table) to `byte`.
    #[inline]
    pub(super) fn store(&mut self, x: u8, byte: u8) {
        self.bytes[x as usize].store(byte, Relaxed);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::egt::value::UNKNOWN;

    fn tables() -> [Vec<AtomicU8>; 2] {
        [0, 1].map(|_| (0..128).map(|_| AtomicU8::new(UNKNOWN)).collect())
    }

    /// A step writes its side while reading the other; views of one side may be many; once
    /// a step's writer is dropped, the side it wrote may be read, and what it wrote is there.
    #[test]
    fn a_step_writes_its_side_and_reads_the_other() {
        let tables = tables();
        let sides = Sides::new(&tables, 64);
        {
            let writer = sides.writer(Color::White);
            let (a, b) = (sides.frozen(Color::Black), sides.frozen(Color::Black));
            writer.store(70, 4);
            // SAFETY: one thread, one word.
            let mut word = unsafe { writer.word(1) };
            assert_eq!(word.bytes().equal::<u64>(4), 1 << 6);
            word.store(7, 6);
            assert_eq!((a[70], b[70]), (UNKNOWN, UNKNOWN));
        }
        let white = sides.frozen(Color::White);
        assert_eq!((white[70], white[71]), (4, 6));
        let _black = sides.writer(Color::Black);
    }

    #[test]
    #[should_panic(expected = "phase rule broken: a writer of White's table")]
    fn writing_a_frozen_side_panics() {
        let tables = tables();
        let sides = Sides::new(&tables, 64);
        let _view = sides.frozen(Color::White);
        let _writer = sides.writer(Color::White);
    }

    #[test]
    #[should_panic(expected = "phase rule broken: a frozen view of Black's table")]
    fn reading_a_side_being_written_panics() {
        let tables = tables();
        let sides = Sides::new(&tables, 64);
        let _writer = sides.writer(Color::Black);
        let _view = sides.frozen(Color::Black);
    }
}
