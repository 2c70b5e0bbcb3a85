//! The finished part of a table with pawns while its later layers are built: the values of
//! the slots of the layers built before (see `Indexer::layers`), which a pawn's move reaches
//! from the layer in work. Nothing writes them any more, so they are read as a built table's.

use crate::board::Color;
use crate::egt::index::Indexer;
use crate::egt::material::Squares;
use crate::egt::table::far_distance;
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
}

impl Done<'_> {
    /// Value of a placement of the finished part with `stm` to move; `None` if the position
    /// is illegal.
    #[inline]
    pub(super) fn value(&self, sq: &Squares, stm: Color) -> Option<Value> {
        let index = self.ix.index(sq)?;
        debug_assert!(index < self.end, "slot {index} is not finished");
        let byte = self.data[stm.index()][index as usize].load(Relaxed);
        decode(byte, || far_distance(&self.far[stm.index()], index))
    }
}
