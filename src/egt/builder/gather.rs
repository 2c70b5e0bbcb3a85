//! Un-moving from a frontier: the candidates of a step are the predecessors of the
//! opponent's positions decided at the distance just reached. Blocks are un-moved from as a
//! whole where the table has them (`blocks.rs`), other slots one by one.

use super::bitmap::for_each_bit;
use super::candidates::{Batch, Slots};
use super::far::Kind;
use super::frontier::Frontier;
use super::no_escape::NoEscape;
use super::Build;
use crate::board::{Color, SquareSet};

impl<S: SquareSet> Build<'_, S> {
    /// Sets the candidates (empty: the last step's checks took them) of the mover's step of
    /// `kind` (its wins of the distance reached have the byte `win`), parked where the
    /// mover's steps park them (`Build::parking`), to every predecessor, with `mover` to
    /// move, of the positions of the other side in its frontier of `frontiers` (of value
    /// `byte`): the positions before the mover's last move. Only bits are set here, at
    /// random; the table is then read in index order by the caller's filter, which keeps the
    /// big table's accesses local. Unless `unmove`, nothing is un-moved: only a loss step
    /// from one side reads the frontier, to add it to the no-escape set (below).
    pub(super) fn gather(
        &self,
        mover: Color,
        kind: Kind,
        frontiers: &[Frontier; 2],
        (byte, win): (u8, u8),
        unmove: bool,
    ) {
        let unpass = self.rules.null_move.allows(mover);
        let len = self.ix.block_len();
        match self.parking(mover) {
            Some(_) if !unmove => {}
            Some(set) => {
                // Read before the step writes the mover's table.
                let table = self.sides.frozen(mover.flip());
                let into = self.candidates.parked_in(Slots::Set(set), len);
                // A loss step's checks read the opponent's set, which no one writes meanwhile.
                let closed = (kind == Kind::Loss).then(|| &self.no_escape[mover.flip().index()]);
                frontiers[mover.flip().index()].for_each_with(
                    &table,
                    byte,
                    || Batch::new(&into),
                    |batch, w, bits| self.gather_from(w, bits, mover, unpass, closed, batch),
                );
            }
            // From one side: Black's frontier holds the blocks of the images of White's
            // frontier (`images.rs`), whose slots are read in White's table, in which the
            // candidates are parked: its bytes are read through the writer, as other threads
            // park candidates (never in the frontier's images: a position lost or won is no
            // candidate). A loss step's frontier is Black's wins of the distance reached,
            // which join Black's no-escape set here, a block at a time, before the step's
            // checks read it; until then, the set holds none of a frontier's slots, whose
            // images are not read.
            None => {
                let table = self.sides.writer(Color::White);
                let into = self
                    .candidates
                    .parked_in(self.slots(mover, kind, &table, win), len);
                let no_escape = &self.no_escape[Color::Black.index()];
                let white = (&frontiers[Color::White.index()], byte);
                frontiers[Color::Black.index()].for_each_read(
                    |w| {
                        let load = |p| table.load(p);
                        let closed = no_escape.word(w);
                        let prefetch = |p| table.prefetch_slot(p);
                        let bits = self.image_frontier(w, closed, white, load, prefetch);
                        if kind == Kind::Loss {
                            no_escape.or(w, bits);
                        }
                        bits
                    },
                    |_| {},
                    || Batch::new(&into),
                    |batch, w, bits| {
                        if unmove {
                            self.gather_from(w, bits, mover, unpass, None, batch)
                        }
                    },
                );
            }
        }
    }

    /// Parks, through `batch`, the predecessors, with `mover` to move, of the slots `bits` of
    /// the frontier's block `w` (by un-passing too if `unpass`: the mover may pass). With
    /// `closed`, the no-escape set a loss step's checks read, the block man's un-moves in a
    /// block leave out the predecessors that his own moves let escape (`gather_block`).
    fn gather_from(
        &self,
        w: u64,
        bits: S,
        mover: Color,
        unpass: bool,
        closed: Option<&NoEscape<S>>,
        batch: &mut Batch<S>,
    ) {
        if self.cancelled() {
            return;
        }
        if unpass {
            // The same placements with the mover to move, before it passed.
            batch.add(w, bits);
        }
        if let Some(block) = self.block(w) {
            return self.gather_block(w, bits, &block, mover, closed, batch);
        }
        let len = self.ix.block_len() as u64;
        for_each_bit(bits, |b| {
            let z = w * len + b as u64;
            let sq = self.ix.decode(z).expect("frontier slots are positions");
            let plain = self.ix.is_plain(&sq);
            self.men
                .for_each_unmove(&sq, self.men.occupancy(&sq), mover, |i, _, pred| {
                    if let Some(p) = self.ix.after_move(z, plain, &sq, i, pred) {
                        let (w, x) = self.ix.block_and_square(p);
                        batch.add(w, S::bit(x));
                    }
                });
        });
    }
}
