//! Un-moving from a frontier: the candidates of a step are the predecessors of the
//! opponent's positions decided at the distance just reached. Blocks are un-moved from as a
//! whole where the table has them (`blocks.rs`), other slots one by one; from one side, a loss
//! step that marks blocks un-moves from a word of 64 blocks read as a tile at once
//! (`tile_gather.rs`).

use super::bitmap::for_each_bit;
use super::candidates::{Batch, Parked, Slots};
use super::far::Kind;
use super::frontier::Frontier;
use super::no_escape::NoEscape;
use super::Build;
use crate::board::{Color, SquareSet};
use crate::egt::bytes::{self, BlockBytes};

/// How a gather from one side reads White's table: `load` a slot's byte, `prefetch` starts
/// its read, and, where a frontier's word of blocks may be read as a tile (the table
/// `Build::has_tiles`, and nothing writes it meanwhile), `row(v)` the slots of White's block
/// v with the frontier's byte.
struct ImageReads<L, P, R> {
    load: L,
    prefetch: P,
    row: Option<R>,
}

impl<S: SquareSet> Build<'_, S> {
    /// Sets the candidates (empty: the last step's checks took them) of the mover's step of
    /// `kind` (its wins of the distance reached have the byte `win`), parked where the
    /// mover's steps park them (`Build::parking`), to every predecessor, with `mover` to
    /// move, of the positions of the other side in its frontier of `frontiers` (of value
    /// `byte`): the positions before the mover's last move. Only bits are set here, at
    /// random; the table is then read in index order by the caller's filter, which keeps the
    /// big table's accesses local. Unless `unmove`, nothing is un-moved: only a loss step
    /// from one side reads the frontier, to add it to the no-escape set (below), where the
    /// wins did not join it as they were recorded (`Build::holds_wins_back`).
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
            Some(_) => {
                // Read before the step writes the mover's table.
                let table = self.sides.frozen(mover.flip());
                // Where the step's check takes them: the set, or (a loss step of a large
                // table) the marked blocks alone.
                let writer = self.sides.writer(mover);
                let into = (self.candidates).parked_in(self.slots(mover, kind, &writer, win), len);
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
            // frontier (`images.rs`), whose slots are read in White's table. A loss step's
            // frontier is Black's wins of the distance reached, which join Black's no-escape
            // set here, a block at a time, before the step's checks read it, unless they
            // joined it as they were recorded; until then, the set holds none of a frontier's
            // slots, whose images are not read. A loss step
            // that marks its candidates' blocks writes nothing in White's table meanwhile: its
            // bytes are read as plain bytes, a block's at once.
            None if kind == Kind::Loss && self.marks_blocks(mover) => {
                let table = self.sides.frozen(Color::White);
                let into = self.candidates.parked_in(Slots::Blocks, len);
                let reads = ImageReads {
                    load: |p| table[p as usize],
                    prefetch: |p| bytes::prefetch_line(&table[p as usize]),
                    row: (self.has_tiles())
                        .then_some(|v| BlockBytes::of_block(&table, v, len).equal(byte)),
                };
                self.gather_images(mover, kind, frontiers, byte, unmove, &into, reads);
            }
            // Otherwise the candidates are parked in White's table: its bytes are read through
            // the writer, a byte at a time, as other threads park candidates (never in the
            // frontier's images: a position lost or won is no candidate). A tile read so, 64
            // bytes of each of its blocks, took no less time than the blocks' images read
            // one by one (KRN.KRN's win steps).
            None => {
                let table = self.sides.writer(Color::White);
                let into = self
                    .candidates
                    .parked_in(self.slots(mover, kind, &table, win), len);
                let reads = ImageReads {
                    load: |p| table.load(p),
                    prefetch: |p| table.prefetch_slot(p),
                    row: None::<fn(u64) -> u64>,
                };
                self.gather_images(mover, kind, frontiers, byte, unmove, &into, reads);
            }
        }
    }

    /// From one side: for each block w of Black's frontier of `frontiers`, finds its slots
    /// (in a win step, from the frontier's list where it lists them all: `slot_list.rs`),
    /// those whose images in White's table, read as `reads` says, have the byte `byte` and
    /// lie in White's frontier (`image_frontier`, or, where `reads` has rows,
    /// `image_frontier_tile` for a word of blocks at once where their images form a tile); in
    /// a loss step adds them to Black's no-escape set, unless they joined it as they were
    /// recorded (`Build::holds_wins_back`: then the set's slots are not left out, and
    /// nothing is read unless `unmove`); and, if `unmove`, parks their predecessors, with
    /// `mover` to move, in `into` (a tile's at once where `into` keeps blocks only).
    #[allow(clippy::too_many_arguments)]
    fn gather_images(
        &self,
        mover: Color,
        kind: Kind,
        frontiers: &[Frontier; 2],
        byte: u8,
        unmove: bool,
        into: &Parked<S>,
        reads: ImageReads<
            impl Fn(u64) -> u8 + Sync,
            impl Fn(u64) + Sync,
            impl Fn(u64) -> u64 + Sync,
        >,
    ) {
        // The loss step's frontier holds Black's wins of the distance reached: where they are
        // in Black's set already, a slot of the set may be one of them.
        let joined = kind == Kind::Loss && self.holds_wins_back();
        if joined && !unmove {
            return;
        }
        let unpass = self.rules.null_move.allows(mover);
        // A win step's frontier, Black's losses, lists its slots while they are few: they
        // are un-moved from without their images read.
        if kind == Kind::Win
            && frontiers[Color::Black.index()].take_listed(
                || Batch::new(into),
                |batch, w, bits| self.gather_from(w, bits, mover, unpass, None, batch),
            )
        {
            return;
        }
        let no_escape = &self.no_escape[Color::Black.index()];
        let white = (&frontiers[Color::White.index()], byte);
        let not = |w| match joined {
            true => S::default(),
            false => no_escape.word(w),
        };
        frontiers[Color::Black.index()].for_each_word(|k, marks| {
            let tile = (reads.row.as_ref())
                .and_then(|row| self.image_frontier_tile(k, marks, not, white.0, row));
            // A loss step that marks blocks un-moves from a tile at once (`tile_gather.rs`).
            let tiled = unmove
                && into.blocks_only()
                && (tile.as_ref())
                    .is_some_and(|found| self.gather_tile(k, found, mover, unpass, into));
            let mut batch = Batch::new(into);
            for_each_bit(marks, |b| {
                let w = k * 64 + b as u64;
                let bits = match &tile {
                    Some(found) => found[b as usize],
                    None => self.image_frontier(w, not(w), white, &reads.load, &reads.prefetch),
                };
                if kind == Kind::Loss && !joined {
                    no_escape.or(w, bits);
                }
                if unmove && !tiled && !bits.is_empty() {
                    self.gather_from(w, bits, mover, unpass, None, &mut batch);
                }
            });
        });
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
