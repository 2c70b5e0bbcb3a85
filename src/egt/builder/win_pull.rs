//! Win steps that pull. A win step un-moves from the opponent's positions lost at the
//! distance before (`gather.rs`), and every predecessor is a candidate, most of them won
//! already. Once most of a side's positions are won, as in KQR.KR or KQQ.KBB a few distances
//! into the build, the positions a win may still improve (undecided, never lost, or
//! provisionally won in more moves) lie in fewer blocks than that frontier: the step then
//! looks at each such block's quiet moves, for all its slots at once, for one that reaches
//! the frontier, and wins those slots. The same wins, found by pulling into the open blocks
//! instead of pushing from the frontier, as loss steps that check every open block do
//! (`open_blocks.rs`).
//!
//! Each side keeps the blocks that may still hold such positions, a bit each; a pull drops
//! the blocks it finds without any. Pushing steps leave the set as it was, so before a step
//! whose frontier holds a block for every [`RECOUNT_PER_FRONTIER_BLOCK`] blocks of the set,
//! the set is counted again from its blocks' bytes (no moves: a read of each block); the step
//! then pulls where the last measurements say that costs less.
//!
//! A build pulls only where the two ways are bound to find the same wins and the pull costs
//! nothing to set up: a table with blocks and without pawns (one layer), built with both sides
//! (no colour swap) and without seeds, for a side that may not pass.

use super::bitmap::for_each_bit;
use super::far::Kind;
use super::frontier::Frontier;
use super::open_blocks::{BlockSets, Cost, StepCosts};
use super::Build;
use crate::board::{Color, SquareSet};
use crate::egt::bytes::BlockBytes;
use crate::egt::index::Fold;
use crate::egt::material::Squares;
use crate::egt::value::{NOT_LOST, UNKNOWN};
use std::ops::Range;
use std::sync::atomic::{AtomicBool, Ordering::Relaxed};

/// A step counts the set again (and may pull) only when its frontier holds at least one
/// block for this many of the set's: with fewer, un-moving from it costs less than reading
/// every block of the set once, let alone their moves.
const RECOUNT_PER_FRONTIER_BLOCK: u64 = 4;

/// Which way the win steps find their wins ([`Recipe::win_checks`](super::Recipe)).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum WinChecks {
    /// Whichever of the next two costs less at each step, where a build may pull at all:
    /// what builds do.
    Cheaper,
    /// The candidates found by un-moving from the opponent's frontier, at every step.
    Candidates,
    /// Every block that may hold a position a win improves, at every step where a build may
    /// pull: the second computation the tests compare the candidates' wins with.
    Open,
}

/// Per side, the blocks that may hold positions a win improves (of the layer in work), and
/// what the side's win steps have cost each way.
pub(super) struct WinBlocks {
    blocks: BlockSets,
    /// Per side: whether its set's count is still the set's own (its last step pulled, or it
    /// was just counted again).
    counted: [AtomicBool; 2],
    /// Per side: a pushing step's cost per frontier block (`Cost::Gathered`), a pulling
    /// one's per block of the set (`Cost::Open`).
    costs: StepCosts,
}

/// Of a block's bytes, the slots a win in the distance reached improves, its wins having the
/// byte `win`: undecided, never lost, or provisionally won in more moves (ILLEGAL and
/// NOT_LOST are odd; no loss byte is even). What a win step wins of the slots it reaches.
#[inline]
pub(super) fn improvable<S: SquareSet>(bytes: &BlockBytes, win: u8) -> S {
    let longer = bytes.even::<S>() & !bytes.at_most::<S>(win);
    bytes.equal::<S>(UNKNOWN) | bytes.equal::<S>(NOT_LOST) | longer
}

impl WinBlocks {
    /// Every block of `blocks` in the set, for the sides `held`.
    pub(super) fn new(blocks: Range<u64>, held: &[Color]) -> WinBlocks {
        WinBlocks {
            blocks: BlockSets::all(blocks, held),
            counted: [0, 1].map(|_| AtomicBool::new(true)),
            costs: StepCosts::default(),
        }
    }
}

impl<S: SquareSet> Build<'_, S> {
    /// Whether side `c`'s win steps may pull (see the module doc).
    fn may_pull_wins(&self, c: Color) -> bool {
        self.win_checks != WinChecks::Candidates
            && self.swap.is_none()
            && self.fixed.is_none()
            && !self.rules.null_move.allows(c)
            && self.setup_blockwise()
            && self.ix.slice_count().is_none()
    }

    /// Whether side `c`'s win step, whose frontier (the opponent's losses of the distance
    /// before) holds `frontier` blocks and whose wins have the byte `win`, pulls; and the
    /// blocks it works on that way, for `StepCosts::timed`.
    pub(super) fn pulls_wins(&self, c: Color, frontier: u64, win: u8) -> (bool, u64) {
        if !self.may_pull_wins(c) {
            return (false, frontier);
        }
        let wins = &self.win_blocks;
        if self.win_checks == WinChecks::Open {
            return (true, wins.blocks.count(c));
        }
        if frontier * RECOUNT_PER_FRONTIER_BLOCK < wins.blocks.count(c) {
            return (false, frontier);
        }
        if !wins.counted[c.index()].load(Relaxed) {
            self.recount_win_blocks(c, win);
        }
        let open = wins.blocks.count(c);
        // Until a pull is measured, a block of the set is reckoned to cost what a frontier
        // block's un-moves do: both look at about as many moves.
        let pushed = wins.costs.get(c, Cost::Gathered);
        let pulled = wins.costs.get(c, Cost::Open).or(pushed);
        let pulls = match (pushed, pulled) {
            (Some(pushed), Some(pulled)) => (open as f64) * pulled < (frontier as f64) * pushed,
            _ => false,
        };
        (pulls, if pulls { open } else { frontier })
    }

    /// Records that side `c`'s win step took `time` over `blocks` blocks, the way it went.
    pub(super) fn win_step_timed(
        &self,
        c: Color,
        pulled: bool,
        blocks: u64,
        time: std::time::Duration,
    ) {
        let wins = &self.win_blocks;
        let cost = if pulled { Cost::Open } else { Cost::Gathered };
        wins.costs.timed(c, cost, blocks, time);
        wins.counted[c.index()].store(pulled, Relaxed);
    }

    /// Drops from side `c`'s set the blocks without a slot a win improves (its wins having
    /// the byte `win`), and counts those left: a pass over the set that looks at no move.
    fn recount_win_blocks(&self, c: Color, win: u8) {
        let wins = &self.win_blocks;
        let improvable = |bytes: &BlockBytes| improvable(bytes, win);
        let (sets, won) = ((&wins.blocks, None), &self.won);
        self.check_blocks_of(c, Kind::Win, won, sets, improvable, |_, _, _| S::default());
        wins.counted[c.index()].store(true, Relaxed);
    }

    /// Side `c`'s wins of distance n (byte `win`), pulled: every block of c's set whose slots
    /// a win improves is looked at, and those of its slots with a quiet move into the
    /// opponent's frontier of losses of n − 1 (`lost`, byte `code`) are won. They join c's
    /// frontier of `won`. Returns how many were won.
    pub(super) fn pull_wins(
        &self,
        c: Color,
        n: u16,
        (code, win): (u8, u8),
        won: &[Frontier; 2],
    ) -> u64 {
        let theirs = self.sides.frozen(c.flip());
        let lost = &self.lost_at(n - 1)[c.flip().index()];
        let len = self.ix.block_len();
        let lost_in = |b: u64| match lost.holds(b) {
            true => BlockBytes::of_block(&theirs, b, len).equal::<S>(code),
            false => S::default(),
        };
        let wins = &self.win_blocks;
        self.check_blocks_of(
            c,
            Kind::Win,
            won,
            (&wins.blocks, None),
            |bytes| improvable(bytes, win),
            |w, open, word| {
                let Some(block) = self.block(w) else {
                    return S::default();
                };
                let found = self.winners_of_block(w, open, &block, c, &lost_in);
                for_each_bit(found, |x| word.store(x, win));
                found
            },
        )
    }

    /// Of the slots `open` of block `w` (men `sq`, fold `fold`, side `c` to move), those with
    /// a quiet move into a slot of `lost(b)`, the opponent's slots of block b lost in the
    /// distance before.
    fn winners_of_block(
        &self,
        w: u64,
        open: S,
        (sq, fold): &(Squares, Option<Fold>),
        c: Color,
        lost: &impl Fn(u64) -> S,
    ) -> S {
        let bm = self.men.block_man();
        let others = self.men.others_of_block(sq);
        let mut found = S::default();
        // The block man's own moves first: they stay in the block, one read for all of them.
        if self.men.color(bm) == c {
            let mut targets = lost(w);
            if let Some(f) = fold {
                // The block man's moves may land on slots that stand for others.
                targets = self.ix.unfold(f, targets);
            }
            found = open
                & self
                    .men
                    .unmove_origins_of_set(bm, targets & !others, others);
            if found == open {
                return found;
            }
        }
        let moves = self.ix.block_moves(w, sq);
        let mut reach = |i, to, allowed: S| {
            let slots = open & allowed & !found;
            if !slots.is_empty() {
                if let Some(targets) = self.targets(&moves, sq, i, to, lost) {
                    found |= slots & targets;
                }
            }
            found != open
        };
        self.men.for_each_quiet_of_block(sq, others, c, &mut reach);
        // Once every slot is won, `reach` says so at once and the walk stops.
        if self.men.has_special_moves() {
            self.men
                .for_each_special_quiet_of_block(sq, others, c, &mut |i, to, allowed| {
                    reach(i, to, allowed)
                });
        }
        found
    }
}
