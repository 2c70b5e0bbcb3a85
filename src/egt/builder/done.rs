//! The finished part of a table with pawns while its later layers are built: the values of
//! the slots of the layers built before (see `Indexer::layers`), which a pawn's move reaches
//! from the layer in work. Nothing writes them any more, so they are read as a built table's.

use crate::board::Color;
use crate::egt::index::{ColourSwap, Indexer};
use crate::egt::material::Squares;
use crate::egt::table::{far_distance, read_placement, read_side_held, Table};
use crate::egt::value::{decode, Value};
use std::sync::atomic::{AtomicU8, Ordering::Relaxed};

/// The slots of a table below `end`, finished.
pub(super) struct Done<'a> {
    pub(super) ix: &'a Indexer,
    /// The table's bytes, per side to move (the slots from `end` on are in work).
    pub(super) data: &'a [Vec<AtomicU8>; 2],
    /// Per side to move, the exceptions of the finished slots, sorted (see `Table::far`).
    pub(super) far: &'a [Vec<u64>; 2],
    /// The first slot not finished.
    pub(super) end: u64,
    /// The colour swap, when White's side stands for Black's (`Build::swap`).
    pub(super) swap: Option<&'a ColourSwap>,
}

/// Values of a finished table that the first pass reads, block by block where it can: a
/// smaller table, or the finished layers of the table in work.
pub(super) trait Finished {
    /// The table's index.
    fn indexer(&self) -> &Indexer;

    /// Value of slot `index` with `stm` to move; `None` if it is no legal position.
    fn value_at(&self, index: u64, stm: Color) -> Option<Value>;

    /// Value of a placement with `stm` to move; `None` if the position is illegal.
    #[inline]
    fn value(&self, sq: &Squares, stm: Color) -> Option<Value> {
        self.value_at(self.indexer().index(sq)?, stm)
    }

    /// Side `stm`'s bytes from slot `start` on, where the table holds them itself (nothing to
    /// read through: see `swapped`), so that a block's values are read from its bytes at
    /// once; `None` otherwise, and the values are read slot by slot.
    fn held_bytes(&self, start: u64, stm: Color) -> Option<&[AtomicU8]>;

    /// Where side `stm`'s values are read when not from the table's own bytes: the colour
    /// swap, and the table holding the images, read with the other side to move (Black's
    /// side of a table that holds White's alone, `Table::is_stored_once`; every position of
    /// a table read from the colour-swapped material's, `Table::mirrored`).
    #[inline]
    fn swapped(&self, _stm: Color) -> Option<(&ColourSwap, &Self)> {
        None
    }
}

impl Finished for Table {
    #[inline]
    fn indexer(&self) -> &Indexer {
        Table::indexer(self)
    }

    #[inline]
    fn value_at(&self, index: u64, stm: Color) -> Option<Value> {
        Table::value_at(self, index, stm)
    }

    #[inline]
    fn value(&self, sq: &Squares, stm: Color) -> Option<Value> {
        Table::value(self, sq, stm)
    }

    #[inline]
    fn swapped(&self, stm: Color) -> Option<(&ColourSwap, &Self)> {
        self.read_through(stm)
    }

    #[inline]
    fn held_bytes(&self, start: u64, stm: Color) -> Option<&[AtomicU8]> {
        match self.read_through(stm) {
            None => self.data[stm.index()].get(start as usize..),
            Some(_) => None,
        }
    }
}

impl Finished for Done<'_> {
    #[inline]
    fn indexer(&self) -> &Indexer {
        self.ix
    }

    #[inline]
    fn value_at(&self, index: u64, stm: Color) -> Option<Value> {
        read_side_held(self.ix, self.swapped(stm).is_some(), index, stm, |i, c| {
            debug_assert!(i < self.end, "slot {i} is not finished");
            let byte = self.data[c.index()][i as usize].load(Relaxed);
            decode(byte, || far_distance(&self.far[c.index()], i))
        })
    }

    #[inline]
    fn value(&self, sq: &Squares, stm: Color) -> Option<Value> {
        read_placement(self.ix, self.swapped(stm).is_some(), sq, stm, |i, c| {
            self.value_at(i, c)
        })
    }

    #[inline]
    fn swapped(&self, stm: Color) -> Option<(&ColourSwap, &Self)> {
        (self.swap.filter(|_| stm == Color::Black)).map(|swap| (swap, self))
    }

    #[inline]
    fn held_bytes(&self, start: u64, stm: Color) -> Option<&[AtomicU8]> {
        match self.swapped(stm) {
            None => self.data[stm.index()].get(start as usize..self.end as usize),
            Some(_) => None,
        }
    }
}
