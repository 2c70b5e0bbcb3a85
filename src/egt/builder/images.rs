//! A build from one side (`Build::swap`): White's table stands for Black's positions too, at
//! their images under the colour swap. White's steps read the other side's positions in the
//! layout of Black's, so that they work block by block as a build of both sides does: the
//! no-escape set is Black's (`no_escape.rs`), and White's frontiers hold the blocks of the
//! images of White's decided slots, Black's positions, which the next step un-moves from.
//! What the frontier's slots are, the table's bytes at their images say.
//!
//! The swap takes a block (the block man varying) to a line of the table (his partner
//! varying): a block's images are found a line at a time (`Indexer::line`), and read or set
//! one slot at a time, with their reads started together.

use super::bitmap::for_each_bit;
use super::far::Kind;
use super::frontier::Frontier;
use super::Build;
use crate::board::size::MAX_SIDE;
use crate::board::{Color, Square, SquareSet};
use crate::egt::index::ColourSwap;
use crate::egt::material::Squares;

/// Most slots of a block: the squares of the largest board.
const MAX_BLOCK: usize = MAX_SIDE as usize * MAX_SIDE as usize;

impl<S: SquareSet> Build<'_, S> {
    /// Side `c`'s slots `slots` of block `w`, which no other thread writes meanwhile, decided
    /// at the distance reached as `kind` says, join the frontier `into` (if given) and, when
    /// they are wins, c's no-escape bits. From one side, the frontier marks the blocks of
    /// their images; wins join Black's no-escape set when the loss step reads them back from
    /// the frontier (`Build::gather`), a block at a time.
    pub(super) fn decided(&self, c: Color, kind: Kind, into: Option<&Frontier>, w: u64, slots: S) {
        if self.swap.is_none() {
            if let Some(into) = into {
                into.mark(w, slots);
            }
            if kind == Kind::Win {
                self.no_escape[c.index()].add_alone(w, slots);
            }
            return;
        }
        if let Some(into) = into {
            let len = self.ix.block_len() as u64;
            self.for_each_image(w, slots, |_, p| into.mark_block(p / len));
        }
    }

    /// From one side: the slots of block `w`, but those of `not`, whose images hold the
    /// frontier's value: those whose images' bytes, read by `load`, are `byte` (`prefetch`
    /// starts the read of a slot's byte).
    pub(super) fn image_frontier(
        &self,
        w: u64,
        not: S,
        byte: u8,
        load: impl Fn(u64) -> u8,
        prefetch: impl Fn(u64),
    ) -> S {
        let mut images = [(0, 0u64); MAX_BLOCK];
        let mut count = 0;
        self.for_each_image(w, S::below(self.ix.block_len()) & !not, |x, p| {
            images[count] = (x, p);
            count += 1;
        });
        let images = &images[..count];
        images.iter().for_each(|&(_, p)| prefetch(p));
        (images.iter())
            .filter(|&&(_, p)| load(p) == byte)
            .fold(S::default(), |set, &(x, _)| set | S::bit(x))
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
    /// illegal position). The images form a line of the table, the block man's partner
    /// varying (`Indexer::line`), unless a symmetry fixes their royal pair or there is none.
    #[inline(always)]
    fn for_each_image_slot(
        &self,
        sq: &Squares,
        squares: S,
        swap: &ColourSwap,
        mut f: impl FnMut(Square, Option<u64>),
    ) {
        let partner = swap.partner(self.men.block_man());
        let mut image = swap.placement(sq, self.ix.men());
        match self.ix.line(&image, partner) {
            Some((base, stride, turn)) => for_each_bit(squares, |x| {
                f(
                    x,
                    Some(base + stride * turn[swap.square(x) as usize] as u64),
                )
            }),
            None => for_each_bit(squares, |x| {
                image[partner] = swap.square(x);
                f(x, self.ix.index(&image))
            }),
        }
    }
}
