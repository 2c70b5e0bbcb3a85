//! The candidates of a step: the slots it checks, found by un-moving from a frontier. The
//! gather that finds them ORs one scattered word per un-move, a hundred million times for a
//! 5-man table, from every thread (an atomic OR each).
//!
//! The candidates' slots cost no memory of their own: they are *parked* in the mover's
//! [`NoEscape`] set, which no step reads while the mover's own steps run. A candidate is never
//! in that set already (a candidate is undecided, or at most provisionally won, and the set
//! holds illegal slots and finished wins), so the check tells the two apart by the table's
//! bytes, and puts the set back as it reads each word. Here only the blocks that hold
//! candidates are kept, a bit each.
//!
//! A build of White's side alone holds one set, Black's, in which White's positions stand at
//! their images' slots (`no_escape.rs`): its steps park their candidates in White's table
//! instead. A slot's byte becomes `CANDIDATE` where the step may change it ([`parks`]), and
//! the check puts `UNKNOWN` back. In a table too large for that (`Build::marks_blocks`; of
//! both sides too off 8×8, where each candidate parked would miss the caches in two or three
//! words), a loss step parks nothing: it marks the blocks, and checks every undecided slot of
//! them.

use super::bitmap::{for_each_bit, Bitmap};
use super::far::Kind;
use super::frontier::Frontier;
use super::no_escape::NoEscape;
use super::sides::{Word, Writer};
use super::Build;
use crate::board::{Color, SquareSet};
use crate::egt::value::{CANDIDATE, NOT_LOST, UNKNOWN};
use rayon::prelude::*;

/// The blocks that hold the candidates of a step.
pub(super) struct Candidates(Bitmap);

/// Where a step parks its candidates' slots (see the module doc).
pub(super) enum Slots<'a, S> {
    /// In the mover's no-escape set, besides the set's own slots.
    Set(&'a NoEscape<S>),
    /// In the mover's table, as `CANDIDATE` bytes in place of those [`parks`] names: `None`
    /// for a loss step, `Some(byte of its wins)` for a win step.
    Table(&'a Writer<'a>, Option<u8>),
    /// Nowhere: only their blocks are marked, and the check takes every undecided slot of a
    /// marked block (a loss step in a large table, `Build::marks_blocks`).
    Blocks,
}

/// Whether a step parks a candidate whose byte is `byte` in the table: an undecided one, and,
/// for a win step whose wins have the byte `win`, one never lost or provisionally won in more
/// moves, which that step improves too (`win_step.rs`). The check puts `UNKNOWN` back in
/// place of `CANDIDATE`, and a win step then wins every such slot that has a legal move; one
/// that had another byte than `UNKNOWN` has one (the capture that gave it its byte), so its
/// byte is not needed again.
#[inline]
pub(super) fn parks(byte: u8, win: Option<u8>) -> bool {
    byte == UNKNOWN
        || win.is_some_and(|win| {
            byte == NOT_LOST || (byte.is_multiple_of(2) && byte > win && byte != CANDIDATE)
        })
}

/// Where a gather puts the candidates of one side to move: their slots parked as `slots`
/// says, their blocks in the candidates.
pub(super) struct Parked<'a, S> {
    blocks: &'a Bitmap,
    slots: Slots<'a, S>,
    /// Slots of a block.
    len: u64,
}

impl Candidates {
    /// No candidates, in the blocks `blocks` of a table (the layer in work).
    pub(super) fn new(blocks: std::ops::Range<u64>) -> Candidates {
        Candidates(Bitmap::new(blocks))
    }

    /// How many blocks hold candidates.
    pub(super) fn count(&self) -> u64 {
        self.0.count()
    }

    /// The candidates of a side, parked in `slots`, of blocks of `len` slots.
    pub(super) fn parked_in<'a, S>(&'a self, slots: Slots<'a, S>, len: usize) -> Parked<'a, S> {
        Parked {
            blocks: &self.0,
            slots,
            len: len as u64,
        }
    }

    /// Calls `check(state, w, bits)`, in parallel, for every block w that holds candidates
    /// parked in `parked` (the no-escape set of the side whose table is `table`, or that
    /// table), with their bits, each parallel task with a `state()` of its own; `check`
    /// returns the slots it keeps of them. Marks the blocks that keep
    /// any in `kept`, and returns how many slots are kept. A set's own bits of a block are read
    /// from the block's bytes in `table` before `check` sees it (`NoEscape::held`, `won` being
    /// the byte of the side's wins at the distance reached). Before a thread checks a block,
    /// it calls `ahead(w)` for the next block it will check, which may start the reads that
    /// check needs. The candidates are taken: each block's bits in `parked` are put back to
    /// the set's own (or to `UNKNOWN` in the table) as they are read, and none are left for
    /// the next step.
    pub(super) fn check_blocks<S: SquareSet, T>(
        &self,
        parked: &Slots<S>,
        table: &Writer,
        won: u8,
        kept: &Frontier,
        ahead: impl Fn(u64) + Sync,
        (state, check): (impl Fn() -> T + Sync, impl Fn(&mut T, u64, S) -> S + Sync),
    ) -> u64 {
        let kept_slots = self
            .0
            .groups()
            .into_par_iter()
            .map(|g| {
                let (mut count, mut state) = (0, state());
                for (k, _) in self.0.words_of(g) {
                    let marks = self.0.take_word(k);
                    let mut blocks = 0u64;
                    for_each_bit(marks, |b| {
                        let w = k * 64 + b as u64;
                        let later = marks >> b >> 1;
                        if later != 0 {
                            let next = w + 1 + later.trailing_zeros() as u64;
                            ahead(next);
                            if let Slots::Set(set) = parked {
                                set.prefetch(next);
                            }
                        }
                        let bits = {
                            // SAFETY: this task is the only one that works on block w.
                            let mut word = unsafe { table.word(w) };
                            match parked {
                                Slots::Set(set) => {
                                    set.unpark(w, NoEscape::held(&word.bytes(), won))
                                }
                                Slots::Table(..) => {
                                    let bits = word.bytes().equal::<S>(CANDIDATE);
                                    for_each_bit(bits, |x| word.store(x, UNKNOWN));
                                    bits
                                }
                                Slots::Blocks => word.bytes().equal::<S>(UNKNOWN),
                            }
                        };
                        if bits.is_empty() {
                            return;
                        }
                        let slots = check(&mut state, w, bits) & bits;
                        if !slots.is_empty() {
                            blocks |= 1 << b;
                            count += slots.count() as u64;
                        }
                    });
                    // One atomic OR for the word's 64 blocks, not one per block (each a barrier
                    // to the check's table writes).
                    kept.mark_blocks(k, blocks);
                }
                count
            })
            .sum();
        self.0.unmark();
        kept_slots
    }
}

impl<S: SquareSet> Build<'_, S> {
    /// The check of side `c`'s step of `kind` of its candidates (`Candidates::check_blocks`,
    /// `won` the byte of c's wins at the distance reached), parked where such steps park them
    /// (`Build::parking`): `check(w, bits, word)` gets each block's candidates and its word of
    /// c's table, and returns the slots it keeps, decided as `kind` says at the distance
    /// reached: they join c's frontier of `kept` and are recorded (`Recorder::record`). Returns
    /// how many it kept; a cancelled build checks nothing more.
    pub(super) fn check_candidates(
        &self,
        c: Color,
        kind: Kind,
        won: u8,
        kept: &[Frontier; 2],
        check: impl Fn(u64, S, &mut Word) -> S + Sync,
    ) -> u64 {
        let table = self.sides.writer(c);
        let parked = self.slots(c, kind, &table, won);
        self.candidates.check_blocks(
            &parked,
            &table,
            won,
            &kept[c.index()],
            |w| table.prefetch(w),
            (
                || self.recorder(c, kind, kept),
                |recorder, w, bits| {
                    if self.cancelled() {
                        return S::default();
                    }
                    // SAFETY: check_blocks gives block w to this task only.
                    let mut word = unsafe { table.word(w) };
                    let slots = check(w, bits, &mut word) & bits;
                    recorder.record(w, slots);
                    slots
                },
            ),
        )
    }
}

impl<S: SquareSet> Build<'_, S> {
    /// Where side `c`'s step of `kind` parks its candidates (`Build::parking`): its
    /// no-escape set, or `table`, c's, where a win step's wins have the byte `win`.
    pub(super) fn slots<'a>(
        &'a self,
        c: Color,
        kind: Kind,
        table: &'a Writer,
        win: u8,
    ) -> Slots<'a, S> {
        match (self.parking(c), kind) {
            (_, Kind::Loss) if self.marks_blocks(c) => Slots::Blocks,
            (Some(set), _) => Slots::Set(set),
            (None, Kind::Win) => Slots::Table(table, Some(win)),
            (None, _) => Slots::Table(table, None),
        }
    }
}

impl<S: SquareSet> Parked<'_, S> {
    /// Adds the slots `bits` of block `w`. The block is marked only where a slot was parked:
    /// slots the set holds already (illegal, or won in at most the distance reached), or
    /// whose bytes the step may not change, are no candidates, and a block of only such
    /// slots is not checked.
    #[inline]
    pub(super) fn or_word(&self, w: u64, bits: S) {
        if bits.is_empty() {
            return;
        }
        let parked = match self.slots {
            Slots::Set(set) => set.or(w, bits),
            Slots::Table(table, win) => {
                let mut parked = false;
                for_each_bit(bits, |x| {
                    parked |= table.park(w * self.len + x as u64, |byte| parks(byte, win))
                });
                parked
            }
            Slots::Blocks => true,
        };
        if parked {
            self.blocks.set(w);
        }
    }

    /// Whether only the blocks are kept, not their slots (`Slots::Blocks`).
    #[inline]
    pub(super) fn blocks_only(&self) -> bool {
        matches!(self.slots, Slots::Blocks)
    }

    /// Marks the blocks 64·k + b for the bits b of `blocks`, where only the blocks are kept
    /// ([`Parked::blocks_only`]).
    #[inline]
    pub(super) fn add_blocks(&self, k: u64, blocks: u64) {
        debug_assert!(self.blocks_only());
        self.blocks.add_word(k, blocks);
    }

    /// Starts loading what [`Parked::add_blocks`] of word `k` writes.
    #[inline]
    pub(super) fn prefetch_blocks(&self, k: u64) {
        self.blocks.prefetch(k * 64);
    }

    /// Starts loading what adding slots `bits` of block `w` writes.
    #[inline]
    fn prefetch(&self, w: u64, bits: S) {
        self.blocks.prefetch(w);
        match self.slots {
            Slots::Set(set) => set.prefetch(w),
            Slots::Table(table, _) => table.prefetch_slot(w * self.len + bits.lowest() as u64),
            Slots::Blocks => {}
        }
    }
}

/// What a [`Held`] writes to: `prefetch` starts loading what writing `item` reads, `write`
/// writes it.
pub(super) trait Writes<T> {
    fn prefetch(&self, item: T);
    fn write(&self, item: T);
}

/// Writes to `W` held back, up to `N` at a time, so that the reads they need are started
/// together before any is made: in a table too big for the caches (6 men) their misses then
/// overlap instead of each write waiting for its own. Whatever it holds is written when it is
/// full and when it is dropped.
pub(super) struct Held<'w, W: Writes<T>, T: Copy + Default, const N: usize> {
    to: &'w W,
    items: [T; N],
    len: usize,
}

impl<'w, W: Writes<T>, T: Copy + Default, const N: usize> Held<'w, W, T, N> {
    /// Nothing held yet, for `to`.
    pub(super) fn new(to: &'w W) -> Self {
        Held {
            to,
            items: [T::default(); N],
            len: 0,
        }
    }

    /// What it writes to.
    #[inline]
    pub(super) fn to(&self) -> &'w W {
        self.to
    }

    /// Holds one more write, first making those held if there are `N`.
    #[inline]
    pub(super) fn push(&mut self, item: T) {
        if self.len == N {
            self.flush();
        }
        self.items[self.len] = item;
        self.len += 1;
    }

    fn flush(&mut self) {
        let items = &self.items[..self.len];
        items.iter().for_each(|&item| self.to.prefetch(item));
        items.iter().for_each(|&item| self.to.write(item));
        self.len = 0;
    }
}

impl<W: Writes<T>, T: Copy + Default, const N: usize> Drop for Held<'_, W, T, N> {
    fn drop(&mut self) {
        self.flush();
    }
}

impl<S: SquareSet> Writes<(u64, S)> for Parked<'_, S> {
    #[inline]
    fn prefetch(&self, (w, bits): (u64, S)) {
        Parked::prefetch(self, w, bits);
    }

    #[inline]
    fn write(&self, (w, bits): (u64, S)) {
        self.or_word(w, bits);
    }
}

/// Most words a [`Batch`] holds (a block's un-moves are fewer in the usual endgames).
const BATCH: usize = 48;

/// Slots to add to a [`Parked`], held back a few at a time ([`Held`]).
pub(super) struct Batch<'p, 'a, S: SquareSet>(Held<'p, Parked<'a, S>, (u64, S), BATCH>);

impl<'p, 'a, S: SquareSet> Batch<'p, 'a, S> {
    /// An empty batch for `into`.
    pub(super) fn new(into: &'p Parked<'a, S>) -> Batch<'p, 'a, S> {
        Batch(Held::new(into))
    }

    /// Whether only the blocks added are kept, not their slots (`Slots::Blocks`).
    #[inline]
    pub(super) fn blocks_only(&self) -> bool {
        self.0.to().blocks_only()
    }

    /// Adds the slots `bits` of block `w`.
    #[inline]
    pub(super) fn add(&mut self, w: u64, bits: S) {
        if !bits.is_empty() {
            self.0.push((w, bits));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::sides::Sides;
    use super::*;
    use crate::board::Color;
    use crate::egt::value::{ILLEGAL, UNKNOWN};
    use std::sync::atomic::AtomicU8;
    use std::sync::Mutex;

    /// Whatever the number of threads, a step sees every slot parked (in batches) by any
    /// thread that is not the set's own (or, parked in the table, that is undecided), once;
    /// counts the slots kept and marks their blocks; checks only the blocks where a slot was
    /// parked, and announces each of them but the first of its word; leaves the set (or the
    /// table) as it was; and takes the candidates, so that the next step sees only its own.
    /// For blocks of one word (8×8), and of 80 and 144 slots, whose sets share words with
    /// their neighbours.
    #[test]
    fn steps_see_the_parked_slots_and_put_the_set_back() {
        for in_table in [false, true] {
            steps_see_parked::<u64>(64, in_table);
            steps_see_parked::<u128>(80, in_table);
            steps_see_parked::<crate::board::Bits192>(144, in_table);
            steps_see_parked::<crate::board::Bits256>(144, in_table);
        }
    }

    /// A loss step parks undecided slots in the table; a win step those it may improve too:
    /// never lost, or provisionally won in more moves than its own wins.
    #[test]
    fn a_step_parks_in_the_table_what_it_may_change() {
        use crate::egt::value::{loss_byte, win_byte, WIN_LATER};
        let win = win_byte(5);
        for (byte, loss_step, win_step) in [
            (UNKNOWN, true, true),
            (NOT_LOST, false, true),
            (win_byte(6), false, true),
            (win_byte(5), false, false),
            (win_byte(1), false, false),
            (loss_byte(3), false, false),
            (loss_byte(9), false, false),
            (WIN_LATER, false, true),
            (ILLEGAL, false, false),
            (CANDIDATE, false, false),
        ] {
            assert_eq!(parks(byte, None), loss_step, "{byte}");
            assert_eq!(parks(byte, Some(win)), win_step, "{byte}");
        }
    }

    fn steps_see_parked<S: SquareSet>(len: u64, in_table: bool) {
        let size: u64 = len * 64 * 300 + 5;
        let blocks = size.div_ceil(len);
        // The set's own slots: every seventh, the table's illegal ones.
        let own = |w: u64| {
            (0..len)
                .filter(|b| (w * len + b).is_multiple_of(7))
                .fold(S::default(), |m, b| m | S::bit(b as u8))
        };
        let slots: Vec<u64> = (0..20_000u64).map(|k| k * 7919 % size).collect();
        let mut want: Vec<u64> = slots.iter().copied().filter(|i| i % 7 != 0).collect();
        want.sort_unstable();
        want.dedup();
        let at = |k: u64| {
            if k.is_multiple_of(7) {
                ILLEGAL
            } else {
                UNKNOWN
            }
        };
        for threads in [1, 2, 3, 5] {
            let pool = rayon::ThreadPoolBuilder::new()
                .num_threads(threads)
                .build()
                .unwrap();
            pool.install(|| {
                // The table's bytes say which slots are the set's own: its illegal ones.
                let bytes = [0, 1].map(|_| {
                    (0..blocks * len)
                        .map(|i| AtomicU8::new(at(i)))
                        .collect::<Vec<_>>()
                });
                let sides = Sides::new(&bytes, len as usize);
                let table = sides.writer(Color::White);
                let set = NoEscape::<S>::new(0..blocks, len as usize);
                (0..blocks).for_each(|w| set.add_alone(w, own(w)));
                let parked = || match in_table {
                    false => Slots::Set(&set),
                    true => Slots::Table(&table, None),
                };
                let candidates = Candidates::new(0..blocks);
                // In batches of 100 slots: each is flushed when full, and when dropped.
                slots.par_chunks(100).for_each(|chunk| {
                    let into = candidates.parked_in(parked(), len as usize);
                    let mut batch = Batch::new(&into);
                    chunk
                        .iter()
                        .for_each(|&i| batch.add(i / len, S::bit((i % len) as u8)));
                });
                let found = Mutex::new(Vec::new());
                let announced = Mutex::new(Vec::new());
                let kept = Frontier::new(0..blocks, len as usize);
                let count = candidates.check_blocks(
                    &parked(),
                    &table,
                    0,
                    &kept,
                    |w| announced.lock().unwrap().push(w),
                    (
                        || (),
                        |_, w, bits: S| {
                            let mut found = found.lock().unwrap();
                            for_each_bit(bits, |b| found.push(w * len + b as u64));
                            // The even slots (the block length is even).
                            bits & S::from_lanes(|_| 0x5555_5555_5555_5555)
                        },
                    ),
                );
                let mut found = found.into_inner().unwrap();
                found.sort_unstable();
                assert_eq!(found, want, "{threads} threads");
                assert!(
                    (0..blocks).all(|w| set.word(w) == own(w)),
                    "{threads} threads"
                );
                assert!(
                    (0..blocks * len).all(|i| table.load(i) == at(i)),
                    "{threads} threads"
                );
                // Only blocks with a slot parked are checked: a block whose slots were all
                // the set's own is not.
                let mut marked: Vec<u64> = want.iter().map(|i| i / len).collect();
                marked.sort_unstable();
                marked.dedup();
                let ahead: Vec<u64> = (0..marked.len())
                    .filter(|&k| k > 0 && marked[k - 1] / 64 == marked[k] / 64)
                    .map(|k| marked[k])
                    .collect();
                let mut announced = announced.into_inner().unwrap();
                announced.sort_unstable();
                assert_eq!(announced, ahead, "{threads} threads");
                let even = want.iter().filter(|&&i| i % 2 == 0).count();
                assert_eq!(count, even as u64, "{threads} threads");
                let mut keeping: Vec<u64> = want
                    .iter()
                    .filter(|&&i| i % 2 == 0)
                    .map(|i| i / len)
                    .collect();
                keeping.dedup();
                assert_eq!(kept.blocks(), keeping, "{threads} threads");
                // The check took the candidates: the next step sees only its own.
                let next: Vec<u64> = want.iter().step_by(1000).map(|i| i + 1).collect();
                next.par_iter().for_each(|&i| {
                    let into = candidates.parked_in(parked(), len as usize);
                    Batch::new(&into).add(i / len, S::bit((i % len) as u8));
                });
                let seen = Frontier::new(0..blocks, len as usize);
                let found = Mutex::new(Vec::new());
                candidates.check_blocks(
                    &parked(),
                    &table,
                    0,
                    &seen,
                    |_| {},
                    (
                        || (),
                        |_, w, bits| {
                            for_each_bit(bits, |b| found.lock().unwrap().push(w * len + b as u64));
                            S::default()
                        },
                    ),
                );
                let mut found = found.into_inner().unwrap();
                found.sort_unstable();
                let mut next: Vec<u64> = next.into_iter().filter(|i| i % 7 != 0).collect();
                next.dedup();
                assert_eq!(found, next, "{threads} threads");
                let none = Frontier::new(0..blocks, len as usize);
                assert_eq!(
                    candidates.check_blocks(
                        &parked(),
                        &table,
                        0,
                        &none,
                        |_| {},
                        (|| (), |_, _, bits| bits)
                    ),
                    0
                );
                assert!(none.blocks().is_empty() && seen.blocks().is_empty());
            });
        }
    }
}
