//! A build from one side (`Build::swap`): White's table stands for Black's positions too, at
//! their images under the colour swap. White's steps read the other side's positions in the
//! layout of Black's, so that they work block by block as a build of both sides does: the
//! no-escape set is Black's (`no_escape.rs`), and White's frontiers hold the blocks of the
//! images of White's decided slots, Black's positions, which the next step un-moves from.
//! What the frontier's slots are, the table's bytes at their images say.
//!
//! The swap takes a block (the block man varying) to a line of the table (the man who takes
//! his place varying, `ColourSwap::carrier`): a block's images are found a line at a time
//! (`Indexer::line`), and read or set one slot at a time, with their reads started together.

use super::bitmap::for_each_bit;
use super::far::Kind;
use super::frontier::Frontier;
use super::Build;
use crate::board::{Color, Square, SquareSet};
use crate::egt::index::ColourSwap;
use crate::egt::material::Squares;

/// How many images' bytes a frontier's read starts together.
const READ_TOGETHER: usize = 16;

impl<S: SquareSet> Build<'_, S> {
    /// Records side `c`'s slots `slots` of block `w`, which no other thread writes meanwhile,
    /// decided at the distance reached as `kind` says, and marked in c's frontier of `into`
    /// (a pair of frontiers, by side): wins join c's no-escape bits. From one side, their
    /// images, Black's positions decided at that distance, join Black's frontier of the pair
    /// instead (their blocks marked), and wins join Black's no-escape set when the loss step
    /// reads them back from it (`Build::gather`), a block at a time.
    pub(super) fn record(&self, c: Color, kind: Kind, into: &[Frontier; 2], w: u64, slots: S) {
        if self.swap.is_none() {
            if kind == Kind::Win {
                self.no_escape[c.index()].add_alone(w, slots);
            }
            return;
        }
        let images = &into[Color::Black.index()];
        self.for_each_image(w, slots, |_, p| {
            images.mark_block(self.ix.block_and_square(p).0)
        });
    }

    /// From one side: the slots of Black's block `w`, but those of `not`, that belong to the
    /// frontier `frontier` of White's slots of value `byte`: those whose images lie in its
    /// blocks, and whose images' bytes, read by `load`, are `byte` (`prefetch` starts the read
    /// of a slot's byte).
    pub(super) fn image_frontier(
        &self,
        w: u64,
        not: S,
        (frontier, byte): (&Frontier, u8),
        load: impl Fn(u64) -> u8,
        prefetch: impl Fn(u64),
    ) -> S {
        let len = self.ix.block_len() as u64;
        // The reads of a few images are started together, then made.
        let read = |images: &[(Square, u64)], found: &mut S| {
            images.iter().for_each(|&(_, p)| prefetch(p));
            for &(x, p) in images {
                if load(p) == byte {
                    *found |= S::bit(x);
                }
            }
        };
        let (mut found, mut images, mut count) = (S::default(), [(0, 0); READ_TOGETHER], 0);
        self.for_each_image(w, S::below(len as usize) & !not, |x, p| {
            if frontier.holds(self.ix.block_and_square(p).0) {
                images[count] = (x, p);
                count += 1;
                if count == READ_TOGETHER {
                    read(&images, &mut found);
                    count = 0;
                }
            }
        });
        read(&images[..count], &mut found);
        found
    }

    /// From one side: calls `f(x, slot)` for each square x of `squares` where block `w` holds
    /// a position, with the slot of its image under the colour swap (an illegal position's
    /// image has a slot too, whose byte says so).
    pub(super) fn for_each_image(&self, w: u64, squares: S, mut f: impl FnMut(Square, u64)) {
        let swap = self.swap.expect("a build from one side");
        if !self.setup_blockwise() {
            let len = self.ix.block_len() as u64;
            return for_each_bit(squares, |x| {
                let z = w * len + x as u64;
                if let Some(sq) = self.ix.decode(z) {
                    f(x, self.as_held(z, &sq).0);
                }
            });
        }
        let Some((sq, fold)) = self.block_men(w) else {
            return;
        };
        let board = S::below(self.ix.block_len());
        let positions = fold.map_or(board, |f| f.keep::<S>()) & !self.men.others_of_block(&sq);
        self.for_each_image_slot(&sq, squares & positions, swap, |x, p| {
            if let Some(p) = p {
                f(x, p);
            }
        });
    }

    /// Calls `f(x, slot)` for each square x of `squares`, with the slot in White's table of
    /// the image under `swap` of placement `sq` with the block man on x (`None`: no slot, an
    /// illegal position). The images form a line of the table, the man who takes the block
    /// man's place (`ColourSwap::carrier`) varying (`Indexer::line`), unless a symmetry fixes
    /// their royal pair or there is none.
    #[inline(always)]
    fn for_each_image_slot(
        &self,
        sq: &Squares,
        squares: S,
        swap: &ColourSwap,
        mut f: impl FnMut(Square, Option<u64>),
    ) {
        let carrier = swap.carrier(self.men.block_man());
        let mut image = swap.placement(sq, self.ix.men());
        match self.ix.line(&image, carrier) {
            Some((base, stride, turn)) => for_each_bit(squares, |x| {
                f(
                    x,
                    Some(base + stride * turn[swap.square(x) as usize] as u64),
                )
            }),
            None => for_each_bit(squares, |x| {
                image[carrier] = swap.square(x);
                f(x, self.ix.index(&image))
            }),
        }
    }
}
