//! Loss steps that check every open block. A loss step checks the candidates a gather finds
//! by un-moving from the opponent's new wins (`gather.rs`). Where that frontier is a large
//! share of the blocks in which the mover still has undecided positions, as at the distances
//! where most of a table is decided, the un-moves cost more than the checks, and reach nearly
//! every such block anyway: the step then skips them and checks every *open* block (one with
//! an undecided slot left) instead, as a breadth-first search that switches from pushing its
//! frontier to pulling into the unvisited nodes.
//!
//! An undecided position checked so whose quiet moves (and pass) all reach the opponent's
//! wins is one of three: a candidate (one of them reaches a win in exactly the distance
//! reached); one whose moves all reached wins in fewer moves, which the check of that
//! distance settled or found saved by an exit, and finds so again; or one without a legal
//! quiet move. That last is a stalemate (a position whose only legal moves are exits was
//! decided by the first pass), or one whose pass is checked too, and where passing is not
//! allowed it is left out (`Build::with_quiet_move`).
//!
//! Each side keeps the blocks that may still be open, a bit each: a block found without
//! undecided slots is dropped at its next check.
//!
//! Most open blocks hold drawn positions, checked again at every such step: in KC.KRN on 10×8
//! three in four of them are settled by the block man's own moves alone, every undecided slot
//! having one that reaches a slot of the same block off the opponent's no-escape set. Such a
//! block is marked *escaped*, and its mark is taken away when a step's frontier (the
//! opponent's new wins, which alone grow that set) holds the block. While it is marked, those
//! moves still escape (its undecided slots are fewer, the set's word the same): its next open
//! check would find no loss, and is skipped. Which way is cheaper depends on the board
//! and the men (an un-move costs more where a block is more than one word, a check more
//! where blocks hold many undecided slots): each side times its steps ([`StepCosts`], kept
//! over a table's layers), and a step takes the way its last measurements say costs less.

use super::bitmap::{for_each_bit, Bitmap};
use super::blocks::QuietMoves;
use super::far::Kind;
use super::frontier::Frontier;
use super::sides::Word;
use super::Build;
use crate::board::{Color, SquareSet};
use crate::egt::bytes::BlockBytes;
use crate::egt::material::Squares;
use crate::egt::value::UNKNOWN;
use rayon::prelude::*;
use std::ops::Range;
use std::sync::atomic::{AtomicU64, Ordering::Relaxed};
use std::time::Duration;

/// A loss step may check every open block only when its frontier holds at least one block for
/// this many open ones; above it, the steps' costs decide. With the open checks reckoned by
/// the blocks they check (escaped ones skipped), sixteen took KRP.KR's chain 0.97× the time of
/// four, KC.KRN on 10×8 0.81×, KBN.KN 1.00×, and from one side KRN.KRN on 8×8 0.90×, on 7×7
/// 0.99× (docs/SPEED.md).
const OPEN_PER_FRONTIER_BLOCK: u64 = 16;

/// Steps of fewer blocks than this are not timed: their time is mostly fixed costs.
const TIMED_BLOCKS: u64 = 10_000;

/// Until a side has checked every open block once, an open block's check is reckoned to cost
/// this many times a candidate block's. It holds more undecided slots than a block's
/// candidates, but most open blocks have no losers and cost little: over KRP.KR's chain,
/// KBN.KN and KC.KRN on 10×8, 1.0 did better than 1.5 and 2.0 (docs/SPEED.md).
const OPEN_PER_CANDIDATE_COST: f64 = 1.0;

/// From one side, a loss step in a table of this many slots or more marks its candidates'
/// blocks instead of parking each candidate in the table (`Build::marks_blocks`): a byte
/// written at random in a table beyond what the processor's address cache (TLB) covers with
/// 2 MB pages also misses that cache. KRN.KRN on 8×8 (7.75·10⁹ slots) took 0.81× the loss
/// steps' time so; on 7×7 (1.56·10⁹) 1.17×, on 6×6 1.36× (docs/SPEED.md).
const MARKED_BLOCKS_FROM: u64 = 4 << 30;

/// In a build of both sides on a board whose blocks are not whole words (10×8, 7×7, 12×12), a
/// loss step in a table of this many slots a side or more marks its candidates' blocks
/// instead of parking each candidate in the mover's no-escape set: beyond the caches, each
/// candidate parked waits for its misses (two or three words, as a block's last part is
/// packed with its neighbours'), where a block's mark is a bit of a set a thousand times
/// smaller, and the checks cost about the same for every undecided slot of a block as for its
/// candidates. KC.KRN on 10×8 (7.2·10⁸ slots a side) took 0.90× the time so, KRB.KRN on 7×7
/// 0.96×. On 8×8 a candidate parked is one OR in one word: KRB.KRN took 0.985× marking blocks,
/// KQQ.KBB 1.035× (its loss steps 1.09×: many predecessors are illegal, which the set holds,
/// and parking them marks no block), so blocks of whole words park. Smaller tables gained
/// nothing or lost (docs/SPEED.md).
const MARKED_BLOCKS_BOTH_FROM: u64 = 512 << 20;

/// Which positions a loss step checks ([`Recipe::loss_checks`](super::Recipe)).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LossChecks {
    /// Whichever of the next two costs less at each step, judged by the sizes of the
    /// opponent's frontier and of the open blocks, the candidates taken as marked blocks in
    /// a large table built from one side (`MarkedBlocks`): what builds do.
    Cheaper,
    /// The candidates found by un-moving from the opponent's frontier, at every step.
    Candidates,
    /// Every undecided position, at every step: the second computation the tests compare
    /// the candidates' checks with.
    Open,
    /// Every undecided position of the blocks that hold candidates, at every step, in a
    /// table with blocks (`Build::marks_blocks`; elsewhere the candidates): what a build of
    /// a large table does instead of checking the candidates.
    MarkedBlocks,
}

/// Per side, a set of blocks (of the layer in work) that a step looks at one by one
/// (`Build::check_blocks_of`), dropping those with nothing left to look at: every block at
/// first, for the sides held; and how many blocks each held after its last pass.
pub(super) struct BlockSets {
    sets: [Bitmap; 2],
    count: [AtomicU64; 2],
}

impl BlockSets {
    /// Every block of `blocks`, for the sides `held`.
    pub(super) fn all(blocks: Range<u64>, held: &[Color]) -> BlockSets {
        BlockSets {
            sets: per_side(held, || Bitmap::full(blocks.clone())),
            count: [0, 1].map(|_| AtomicU64::new(blocks.end - blocks.start)),
        }
    }

    /// How many blocks side `c`'s set held after its last pass.
    pub(super) fn count(&self, c: Color) -> u64 {
        self.count[c.index()].load(Relaxed)
    }
}

/// A bitmap per side, `make()`'s for the sides `held`, an empty one for the other.
fn per_side(held: &[Color], make: impl Fn() -> Bitmap) -> [Bitmap; 2] {
    Color::BOTH.map(|c| match held.contains(&c) {
        true => make(),
        false => Bitmap::new(0..0),
    })
}

/// Per side, the blocks that may hold undecided slots (of the layer in work).
pub(super) struct OpenBlocks {
    blocks: BlockSets,
    /// Per side: the open blocks marked escaped (see the module doc).
    escaped: [Bitmap; 2],
}

/// What a table's loss steps have cost, per side, in nanoseconds (the last step of each way
/// that was timed), kept over its layers.
#[derive(Default)]
pub(super) struct StepCosts([[AtomicU64; 3]; 2]);

/// The costs [`StepCosts`] keeps.
#[derive(Clone, Copy)]
pub(super) enum Cost {
    /// A step that un-moves from the frontier, gather and checks, per frontier block.
    Gathered = 0,
    /// Its checks alone, per candidate block.
    Candidate = 1,
    /// A step that checks every open block, per open block it checks (not escaped).
    Open = 2,
}

impl StepCosts {
    /// The last measured `cost` of side `c`'s steps.
    pub(super) fn get(&self, c: Color, cost: Cost) -> Option<f64> {
        let bits = self.0[c.index()][cost as usize].load(Relaxed);
        // Zero bits: never measured (a step's cost is never exactly 0 ns per block).
        (bits != 0).then(|| f64::from_bits(bits))
    }

    /// Records that work of side `c` over `blocks` blocks (frontier, candidate or open ones,
    /// as `cost` says) took `time`.
    pub(super) fn timed(&self, c: Color, cost: Cost, blocks: u64, time: Duration) {
        if blocks >= TIMED_BLOCKS {
            let ns = (time.as_nanos() as f64 / blocks as f64).max(f64::MIN_POSITIVE);
            self.0[c.index()][cost as usize].store(ns.to_bits(), Relaxed);
        }
    }
}

impl OpenBlocks {
    /// Every block of `blocks` open, for the sides `held`.
    pub(super) fn new(blocks: Range<u64>, held: &[Color]) -> OpenBlocks {
        OpenBlocks {
            escaped: per_side(held, || Bitmap::new(blocks.clone())),
            blocks: BlockSets::all(blocks, held),
        }
    }

    /// Marks side `c`'s block `w` escaped: its undecided slots all escape by the block man's
    /// own moves, to slots of the block off the opponent's no-escape set.
    #[inline]
    pub(super) fn mark_escaped(&self, c: Color, w: u64) {
        self.escaped[c.index()].set(w);
    }

    /// Takes the escaped mark from side `c`'s blocks that `frontier`, the opponent's new
    /// wins read by c's loss step, holds: the opponent's no-escape set grows there.
    pub(super) fn unmark_escaped(&self, c: Color, frontier: &Frontier) {
        let escaped = &self.escaped[c.index()];
        frontier.for_each_word(|k, marks| escaped.remove_word(k, marks));
    }
}

impl<S: SquareSet> Build<'_, S> {
    /// Whether side `c`'s loss step checks every open block rather than un-moving from
    /// `frontier`, the opponent's new wins, as `Recipe::loss_checks` says, and the blocks the
    /// step works on that way (the open ones it checks, escaped ones skipped, or the
    /// frontier's), for `StepCosts::timed`. First takes the escaped marks of the frontier's
    /// blocks away (`OpenBlocks::unmark_escaped`), either way: the blocks an open check
    /// skips are then the ones it counts.
    pub(super) fn checks_open(&self, c: Color, frontier: &Frontier) -> (bool, u64) {
        self.open.unmark_escaped(c, frontier);
        let frontier = frontier.count();
        let open = self.open.blocks.count(c);
        // An escaped block is skipped, at next to no cost: the step checks the others.
        let checked = open.saturating_sub(self.open.escaped[c.index()].count());
        let checks_open = match self.loss_checks {
            LossChecks::Candidates | LossChecks::MarkedBlocks => false,
            LossChecks::Open => true,
            LossChecks::Cheaper if frontier * OPEN_PER_FRONTIER_BLOCK < open => false,
            LossChecks::Cheaper => {
                let costs = self.costs;
                let opened = (costs.get(c, Cost::Open))
                    .or_else(|| Some(costs.get(c, Cost::Candidate)? * OPEN_PER_CANDIDATE_COST));
                match (costs.get(c, Cost::Gathered), opened) {
                    (Some(gathered), Some(opened)) => {
                        (checked as f64) * opened < (frontier as f64) * gathered
                    }
                    _ => false,
                }
            }
        };
        (checks_open, if checks_open { checked } else { frontier })
    }

    /// Whether side `c`'s loss steps mark the blocks of their candidates, and check every
    /// undecided slot of those, instead of parking each candidate (in the mover's no-escape
    /// set, or from one side in the table), in a table with blocks, as `LossChecks::Cheaper`
    /// chooses (or always, as `LossChecks::MarkedBlocks` says): from one side in a table of
    /// at least `MARKED_BLOCKS_FROM` slots; of both sides, on a board whose blocks are not
    /// whole words, in one of at least `MARKED_BLOCKS_BOTH_FROM` slots a side.
    pub(super) fn marks_blocks(&self, c: Color) -> bool {
        let large = match self.parking(c) {
            None => self.ix.size() >= MARKED_BLOCKS_FROM,
            Some(_) => {
                !self.ix.block_len().is_multiple_of(64) && self.ix.size() >= MARKED_BLOCKS_BOTH_FROM
            }
        };
        self.ix.has_blocks()
            && match self.loss_checks {
                LossChecks::MarkedBlocks => true,
                LossChecks::Cheaper => large,
                LossChecks::Candidates | LossChecks::Open => false,
            }
    }

    /// The side whose frontier of wins side `c`'s loss step reads: the opponent's, and from
    /// one side Black's, which holds the blocks of its images.
    pub(super) fn frontier_read(&self, c: Color) -> Color {
        match self.swap {
            Some(_) => Color::Black,
            None => c.flip(),
        }
    }

    /// Calls `check(w, undecided, word)`, in parallel, for every block w of side `c` that
    /// holds undecided slots (`undecided`, with its word of c's table); `check` returns the
    /// slots it keeps, decided as `kind` says at the distance reached: they join c's frontier
    /// of `kept` and are recorded (`Recorder::record`). Returns how many it kept; a cancelled
    /// build checks nothing more. Blocks without undecided slots are closed; blocks marked
    /// escaped are not checked (see the module doc).
    pub(super) fn check_open(
        &self,
        c: Color,
        kind: Kind,
        kept: &[Frontier; 2],
        check: impl Fn(u64, S, &mut Word) -> S + Sync,
    ) -> u64 {
        let escaped = Some(&self.open.escaped[c.index()]);
        let undecided = |bytes: &BlockBytes| bytes.equal::<S>(UNKNOWN);
        self.check_blocks_of(
            c,
            kind,
            kept,
            (&self.open.blocks, escaped),
            undecided,
            check,
        )
    }

    /// Calls `check(w, slots, word)`, in parallel, for every block w of side `c`'s set of
    /// `sets` (but those of `skipped`, which stay in it) whose bytes have slots to check
    /// (`slots`, what `to_check` finds in them), with its word of c's table; `check` returns
    /// the slots it keeps, decided as `kind` says at the distance reached: they join c's
    /// frontier of `kept` and are recorded (`Recorder::record`). Blocks left with nothing to
    /// check leave the set, which is counted again. Returns how many slots were kept; a
    /// cancelled build checks nothing more.
    pub(super) fn check_blocks_of(
        &self,
        c: Color,
        kind: Kind,
        kept: &[Frontier; 2],
        (sets, skipped): (&BlockSets, Option<&Bitmap>),
        to_check: impl Fn(&BlockBytes) -> S + Sync,
        check: impl Fn(u64, S, &mut Word) -> S + Sync,
    ) -> u64 {
        let table = self.sides.writer(c);
        let set = &sets.sets[c.index()];
        let (kept_slots, open) = set
            .groups()
            .into_par_iter()
            .map(|g| {
                let (mut count, mut open) = (0, 0);
                let mut recorder = self.recorder(c, kind, kept);
                for (k, _) in set.words_of(g) {
                    let marks = set.take_word(k);
                    let mut still = marks & skipped.map_or(0, |s| s.word(k));
                    let (checked, mut blocks) = (marks & !still, 0u64);
                    for_each_bit(checked, |b| {
                        let w = k * 64 + b as u64;
                        let later = checked >> b >> 1;
                        if later != 0 {
                            table.prefetch(w + 1 + later.trailing_zeros() as u64);
                        }
                        if self.cancelled() {
                            return;
                        }
                        // SAFETY: this task is the only one that works on block w.
                        let mut word = unsafe { table.word(w) };
                        let slots = to_check(&word.bytes());
                        if slots.is_empty() {
                            return;
                        }
                        let decided = check(w, slots, &mut word) & slots;
                        if !decided.is_empty() {
                            recorder.record(w, decided);
                            blocks |= 1 << b;
                            count += decided.count() as u64;
                        }
                        if decided != slots {
                            still |= 1 << b;
                        }
                    });
                    set.put_word(k, still);
                    open += u64::from(still.count_ones());
                    kept[c.index()].mark_blocks(k, blocks);
                }
                (count, open)
            })
            .reduce(|| (0, 0), |a, b| (a.0 + b.0, a.1 + b.1));
        sets.count[c.index()].store(open, Relaxed);
        kept_slots
    }

    /// Of the slots `slots` of a block (men `sq`), those where side `c` has a legal quiet
    /// move (`QuietMoves::of`).
    pub(super) fn with_quiet_move(&self, sq: &Squares, slots: S, c: Color) -> S {
        if slots.is_empty() {
            return slots;
        }
        QuietMoves::new(self, sq, c, None).of(slots)
    }
}
