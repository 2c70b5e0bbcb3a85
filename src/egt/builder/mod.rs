//! The retrograde builder of one table, parallel over all of rayon's threads. This file holds
//! the build's state (`Build`), [`build_table`] and the order of the phases
//! (`Build::run`); each phase lives in its own file:
//! 1. *captures and mates* (`first_pass.rs`, block by block in `block_setup.rs`): one pass over
//!    every slot marks illegal positions, values every capture from the smaller tables (a
//!    winning capture gives a provisional win; a position whose only legal moves are losing
//!    captures, or a checkmate, is lost), and counts how many provisional values wait at each
//!    distance.
//! 2. *iterations*, distance n = 1, 2, …: positions with a move to a position lost in n−1 are
//!    won in n (`win_step.rs`, found by un-moving from the frontier of positions lost in n−1:
//!    `gather.rs`); then each predecessor of a position won in n is checked by a forward look
//!    at all its moves, and is lost in n when every move reaches a position won for the
//!    opponent in at most n (`loss_step.rs`, which reads those positions from a bit per slot,
//!    `no_escape.rs`); where the frontier of wins is a large share of what is undecided, every
//!    undecided position is checked instead (`open_blocks.rs`). Only the frontiers are
//!    touched: a frontier is kept as the blocks that hold it (`frontier.rs`), and its slots are
//!    read back from the table by their byte; the candidates of a step are parked in the
//!    mover's no-escape bits, the blocks that hold them marked (`candidates.rs`). Provisional
//!    values are collected at their distance from the blocks known to hold them
//!    (`pending.rs`), not by rescanning the table. A DTZ build counts plies instead of moves:
//!    a loss is one ply longer than the longest win it moves into, so the loss half of n finds
//!    the losses of n + 1, and the losses of two distances are held at once
//!    (`Build::lost_at`).
//!
//! Distances beyond what a byte holds directly are kept as exceptions (`far.rs`). Each side's
//! steps are timed for the debug log, and each step logs its figures at the trace level
//! (`step_times.rs`).
//!
//! A table with pawns is built a *layer* at a time (`Indexer::layers`: the slices of one
//! pawn progress), the most advanced first, each by the phases above over its own slots. A
//! pawn's move, a promotion and a capture leave the layer: they are *exits* (`men::Exit`),
//! valued in phase 1 and in the loss checks from the layers finished before (`done.rs`) or
//! from the smaller tables, as captures are. A position with an en-passant right is never
//! stored: a double step is valued with the captures it allows (`Build::push_value`).
//!
//! Each step writes only its mover's table and reads only the opponent's: `sides.rs` holds
//! that rule, the one place where the tables' atomic bytes are read as plain bytes.
//!
//! A table whose sides have the same men may be built from White's side alone (`Build::swap`):
//! Black's positions are then White's seen through the colour swap, and White's steps read
//! them in the layout of Black's, so that they still work block by block (`images.rs`).

use crate::board::en_passant::PawnRules;
use crate::board::geometry::Geometry;
use crate::board::{Color, Square, SquareSet};
use crate::egt::index::{ColourSwap, Indexer};
use crate::egt::material::{Material, Perm, Squares, MAX_MEN};
use crate::egt::memory;
use crate::egt::men::{Exit, Men, Occupancy};
use crate::egt::progress::Phase;
use crate::egt::rules::Rules;
use crate::egt::seed::Seed;
use crate::egt::table::{held_sides, stored_once, Metric, Table};
use crate::egt::value::{loss_byte, with_en_passant, Value, ILLEGAL, UNKNOWN};
use crate::with_tables;
use bitmap::Bitmap;
use candidates::Candidates;
use done::{Done, Finished};
use exit_bounds::ExitBounds;
use exits::{ExitWorth, Reached};
use far::{Far, Kind};
use frontier::Frontier;
use held_wins::HeldWins;
use no_escape::NoEscape;
use open_blocks::{OpenBlocks, StepCosts};
use pending::Pending;
use sides::Sides;
use slot_list::most_listed;
use std::sync::atomic::{AtomicBool, AtomicU8, Ordering::Relaxed};
use step_times::{Step, StepTimes};
use win_pull::WinBlocks;

mod bitmap;
mod block_setup;
mod blocks;
mod candidates;
mod done;
mod exit_bounds;
mod exits;
mod far;
mod first_pass;
mod frontier;
mod gather;
mod held_wins;
mod images;
mod loss_step;
mod no_escape;
mod open_blocks;
mod pending;
mod recorder;
mod sides;
mod slot_list;
mod step_times;
mod tile_gather;
mod twins;
mod win_pull;
mod win_step;
pub(crate) use no_escape::words as no_escape_words;
pub use open_blocks::LossChecks;
pub(crate) use slot_list::list_bytes;
use std::ops::Range;
use std::time::{Duration, Instant};
use thiserror::Error;
pub use win_pull::WinChecks;

/// A table that cannot be built.
#[derive(Clone, Debug, Error, PartialEq, Eq)]
pub enum BuildError {
    /// Distances beyond what the tables hold (`MAX_DISTANCE` moves).
    #[error("{0}: a distance is longer than {MAX_DISTANCE} moves")]
    TooLong(String),
    /// The build was cancelled (its cancel flag was raised) before the table was complete.
    #[error("the build was cancelled")]
    Cancelled,
    /// The build stopped on an internal error (a panic), with its message.
    #[error("internal error while building: {0}")]
    Internal(String),
    /// The build needs more memory than the budget allows; refused before allocating.
    #[error(
        "{endgame} needs {} MB of table memory, more than the budget of {} MB (--memory / memory= in engine.ini / option TableMemory)",
        need.div_ceil(memory::MB),
        budget / memory::MB
    )]
    OverBudget {
        /// The endgame asked for.
        endgame: String,
        /// Bytes the tables would take at the build's peak (those held included).
        need: u64,
        /// The budget, in bytes.
        budget: u64,
    },
}

/// Longest distance a table holds, in moves (the exceptions keep 16 bits of distance).
pub const MAX_DISTANCE: u16 = u16::MAX - 1;

struct Build<'a, S> {
    name: String,
    metric: Metric,
    /// What an exit is worth by the byte it reads, in this metric.
    worth: &'a ExitWorth,
    rules: Rules,
    ix: &'a Indexer,
    men: &'a Men<'a, S>,
    /// The two tables being built, and the phase rule of their reads and writes.
    sides: Sides<'a>,
    /// Table of the material left when man j is captured (None for the royals).
    subs: &'a [Option<&'a Table>],
    /// Per man i (a pawn), the tables it promotes into, one per promotion piece, with where
    /// each man goes (`Material::promoted`); empty for other men.
    promos: &'a [Vec<(&'a Table, Perm)>],
    /// The same for pawn i promoting as it takes man j, at `i · MAX_MEN + j`.
    capture_promos: &'a [Vec<(&'a Table, Perm)>],
    /// The slots of the layer in work (the whole table without pawns).
    window: Range<u64>,
    /// The layers finished before it.
    done: Done<'a>,
    /// The pawn's steps that make and take en passant (`None` without a pawn).
    pawn_rules: Option<&'a PawnRules>,
    /// The blocks holding the slots a step works on, for one side to move at a time (the
    /// slots are parked where `Build::parking` says).
    candidates: Candidates,
    /// Per side: the positions won in the distance reached.
    won: [Frontier; 2],
    /// Per side: the positions lost at a distance, two distances at a time (see
    /// [`Build::lost_at`]).
    lost: [[Frontier; 2]; 2],
    /// Per side: the positions a move into saves nothing (illegal, or won in at most the
    /// distance reached), for the loss checks; during the side's own steps they hold its
    /// candidates too. From one side, Black's alone (see `no_escape.rs`).
    no_escape: [NoEscape<S>; 2],
    /// From one side, where White's wins join Black's set as they are recorded
    /// (`Build::holds_wins_back`): the bits each thread holds back.
    held_wins: HeldWins<S>,
    pending: Pending,
    /// Per side, per block: how long a loss its undecided positions' exits give.
    exit_bounds: ExitBounds,
    /// Per side: the blocks that may hold undecided positions, for loss steps that check
    /// them all.
    open: OpenBlocks,
    /// Which positions the loss steps check (`Recipe::loss_checks`).
    loss_checks: LossChecks,
    /// How the win steps find their wins (`Recipe::win_checks`).
    win_checks: WinChecks,
    /// Per side: the blocks that a win may still improve, for win steps that pull.
    win_blocks: WinBlocks,
    /// What the table's loss steps have cost, for the choice between the two ways.
    costs: &'a StepCosts,
    /// What each side's steps have taken in this layer, for the debug log.
    step_times: StepTimes,
    /// Distances beyond the byte's.
    far: Far,
    too_long: AtomicBool,
    /// Seeded positions, whose values the iterations leave alone (only with seeds).
    fixed: Option<[Bitmap; 2]>,
    /// Raised to stop: the passes then skip their remaining work (see [`Build::cancelled`]).
    cancel: &'a AtomicBool,
    /// Whether to work block by block where the table allows it (`Recipe::blocks`).
    blocks: bool,
    /// The colour swap, when the build holds and works White's side alone (a table stored
    /// once, [`Recipe::once`]): Black's positions are then White's seen through it.
    swap: Option<&'a ColourSwap>,
}

/// How tables are built: the same for an endgame and all its smaller ones (seeds aside).
pub struct Recipe<'r> {
    /// The move tables of the piece definitions (and the definitions).
    pub geometry: &'r Geometry,
    /// Distance to mate or to conversion.
    pub metric: Metric,
    /// The game's rules.
    pub rules: Rules,
    /// Values fixed for some positions of this table.
    pub seeds: &'r [Seed],
    /// Whether the index folds placements by the pieces' symmetry.
    pub fold: bool,
    /// Longest distance held by a table byte (`MAX_DIRECT`; lower in tests, which then run the
    /// long-distance code on small tables): longer ones are kept as exceptions.
    pub direct: u16,
    /// Bytes the lists of those exceptions may take: a build whose lists outgrow them stops
    /// with [`BuildError::OverBudget`], its `need` and `budget` those of the lists alone.
    pub far_room: u64,
    /// Raised to stop the build: it is checked between the first pass's royal pairs and
    /// between distances, and the build then returns [`BuildError::Cancelled`].
    pub cancel: &'r AtomicBool,
    /// Whether a table with blocks is worked block by block (true, as builds do), or slot by
    /// slot (false): the second computation the tests compare the blocks' work with.
    pub blocks: bool,
    /// Whether a table that may be stored once ([`stored_once`]) is built and kept from
    /// White's side alone (true, as every build does: half the memory, and less time), or
    /// with both sides (false: the tests compare Black's bytes with what the colour swap
    /// reads).
    pub once: bool,
    /// Which positions a loss step checks: as builds do, whichever costs less at each step
    /// ([`LossChecks::Cheaper`]); the tests compare the ways.
    pub loss_checks: LossChecks,
    /// How the win steps find their wins: as builds do, whichever costs less at each step
    /// ([`WinChecks::Cheaper`]); the tests compare the ways.
    pub win_checks: WinChecks,
    /// Whether a build from one side lists the slots of its frontiers of losses, while they
    /// are few, for the win steps that un-move from them (true, as builds do), or reads them
    /// from their images (false: the tests compare the ways).
    pub lists: bool,
    /// Whether a table whose non-royal men all come in groups of identical men is built with
    /// the last man of its last group told apart from the others, in as many times the
    /// table's memory as that group has men, and packed back (true where the budget allows
    /// it: `twins.rs`), or slot by slot in its own layout.
    pub twins_apart: bool,
}

/// Builds the table of `material` as `recipe` says; `sub_table(m)` must give the built table
/// of every material reachable by a capture or a promotion. `report(phase, fraction of this
/// table)` is called as the build goes on: for a table of one layer, the captures pass up to
/// 0.5, the iterations at 0.5 + 0.5 · decided / legal; for a table of several layers (pawns),
/// the share of its slots done (see `TableClock::linear`).
pub fn build_table<'t>(
    material: &Material,
    recipe: &Recipe,
    sub_table: &dyn Fn(&Material) -> Option<&'t Table>,
    report: &(dyn Fn(Phase, f64) + Sync),
) -> Result<Table, BuildError> {
    let Recipe {
        geometry,
        metric,
        rules,
        seeds,
        fold,
        direct,
        far_room,
        cancel,
        blocks: by_blocks,
        once,
        loss_checks,
        win_checks,
        lists,
        twins_apart,
    } = *recipe;
    report(Phase::Setup, 0.0);
    let setup = Instant::now();
    if cancel.load(Relaxed) {
        return Err(BuildError::Cancelled);
    }
    let once = once && stored_once(material, &rules, !seeds.is_empty());
    // Identical men alone told apart (`twins.rs`): not in a table stored once, whose colour
    // swap maps the sides' men onto each other, nor with seeds, which name one slot each.
    let apart = (twins_apart && !once && seeds.is_empty())
        .then(|| Indexer::twins_apart(material, geometry, fold))
        .flatten();
    let told_apart = apart.is_some();
    let indexer = apart.unwrap_or_else(|| Indexer::new(material, geometry, fold));
    if cancel.load(Relaxed) {
        return Err(BuildError::Cancelled);
    }
    let size = indexer.size();
    // Black's positions are White's seen through the colour swap.
    let swap = indexer.colour_swap().filter(|_| once);
    // The sides whose tables and builder's sets are made.
    let held = held_sides(swap.is_some());
    // Rounded up to whole blocks, the bytes past the index being ILLEGAL, so that every
    // block of the table has its bytes. Black's are none when White's stand for them.
    let block_len = indexer.block_len() as u64;
    let mut data = [Color::White, Color::Black].map(|c| {
        if c == Color::Black && once {
            return Vec::new();
        }
        let bytes = memory::filled(indexer.padded_size() as usize, || AtomicU8::new(UNKNOWN));
        bytes[size as usize..]
            .iter()
            .for_each(|b| b.store(ILLEGAL, Relaxed));
        bytes
    });
    let subs = (0..material.len())
        .map(|j| {
            (j >= 2).then(|| sub_table(&material.without(j)).expect("sub-tables are built first"))
        })
        .collect::<Vec<_>>();
    let (promos, capture_promos) = promotion_tables(material, geometry, sub_table);
    if let Some(slices) = indexer.slice_count() {
        // The slots past each slice's positions, up to its next block, are no positions.
        let used = indexer.chunk_slots(indexer.pair_count() as u64 - 1).end;
        for s in 0..slices {
            let holes = s * indexer.slice_size() + used..(s + 1) * indexer.slice_size();
            for bytes in data.iter().filter(|d| !d.is_empty()) {
                holes
                    .clone()
                    .for_each(|i| bytes[i as usize].store(ILLEGAL, Relaxed));
            }
        }
    }
    log::debug!(
        "{}: index and tables set up in {:.3} s",
        material.name(),
        setup.elapsed().as_secs_f64()
    );
    let layers = indexer.layers();
    let pawn_rules = PawnRules::new(geometry.pieces(), geometry.board());
    let mut far: [Vec<u64>; 2] = [Vec::new(), Vec::new()];
    let costs = StepCosts::default();
    let worth = ExitWorth::new(metric);
    // On one of the pool's threads, so that every step's work runs on them.
    with_tables!(geometry, |t| {
        let men = Men::new(material, t).with_blocks_of(&indexer);
        for (k, layer) in layers.iter().enumerate() {
            let last = k + 1 == layers.len();
            // With layers, the fraction reported is the share of the table done: the layers
            // before, and this one's share of its slots (`TableClock::linear` reads it).
            let report = |phase, fraction: f64| {
                if layers.len() == 1 {
                    return report(phase, fraction);
                }
                let slots = (layer.end - layer.start) as f64;
                let done = (layer.start as f64 + fraction * slots) / size.max(1) as f64;
                match phase {
                    Phase::Done if !last => {}
                    Phase::Captures | Phase::Iteration(_) => report(phase, done),
                    _ => report(phase, fraction),
                }
            };
            let far_bytes = (far[0].len() + far[1].len()) as u64 * 8;
            // The builder's sets hold the layer's blocks alone.
            let blocks = layer.start / block_len..layer.end.div_ceil(block_len);
            let len = block_len as usize;
            let build = Build {
                name: material.name(),
                metric,
                worth: &worth,
                rules,
                ix: &indexer,
                men: &men,
                sides: Sides::new(&data, len),
                subs: &subs,
                promos: &promos,
                capture_promos: &capture_promos,
                window: layer.clone(),
                done: Done {
                    ix: &indexer,
                    data: &data,
                    far: &far,
                    end: layer.start,
                    swap,
                },
                pawn_rules: pawn_rules.as_ref(),
                candidates: Candidates::new(blocks.clone()),
                won: [0, 1].map(|_| Frontier::new(blocks.clone(), len)),
                // From one side, Black's frontiers of losses list their slots while they
                // are few (`slot_list.rs`).
                lost: [0, 1].map(|_| {
                    Color::BOTH.map(|c| match swap.is_some() && c == Color::Black && lists {
                        true => Frontier::listing(blocks.clone(), len, most_listed(&blocks)),
                        false => Frontier::new(blocks.clone(), len),
                    })
                }),
                // A build from one side holds Black's set alone, White's positions standing
                // in it at their images' slots (`no_escape.rs`).
                no_escape: Color::BOTH.map(|c| match swap.is_none() || c == Color::Black {
                    true => NoEscape::new(blocks.clone(), len),
                    false => NoEscape::new(0..0, len),
                }),
                held_wins: HeldWins::new(),
                pending: Pending::new(blocks.clone(), len, held),
                exit_bounds: ExitBounds::new(blocks.clone(), held),
                open: OpenBlocks::new(blocks.clone(), held),
                loss_checks,
                win_checks,
                win_blocks: WinBlocks::new(blocks.clone(), held),
                costs: &costs,
                step_times: StepTimes::default(),
                far: Far::new(direct, far_room.saturating_sub(far_bytes)),
                too_long: AtomicBool::new(false),
                fixed: (!seeds.is_empty()).then(|| [0, 1].map(|_| Bitmap::new(layer.clone()))),
                cancel,
                blocks: by_blocks,
                swap,
            };
            rayon::scope(|_| build.run(seeds, &report))?;
            let exceptions = build.far.into_exceptions();
            // Layers are built in index order: the lists stay sorted.
            for (list, new) in far.iter_mut().zip(exceptions) {
                list.extend(new);
            }
        }
        Ok::<_, BuildError>(())
    })?;
    let indexer = match told_apart {
        true => {
            let start = Instant::now();
            let plain = Indexer::new(material, geometry, fold);
            twins::pack(&plain, &indexer, &mut data, &mut far);
            log::debug!(
                "{}: packed in {:.3} s",
                material.name(),
                start.elapsed().as_secs_f64()
            );
            plain
        }
        false => indexer,
    };
    Ok(Table {
        material: material.clone(),
        indexer,
        data,
        far,
        metric,
        once,
        mirror: None,
    })
}

/// Per pawn i of `material`, the tables it promotes into, one per promotion piece of
/// `geometry`, with where each man goes; and the same per pawn i taking man j as it
/// promotes, at `i · MAX_MEN + j` (see `Build::promos`).
#[allow(clippy::type_complexity)]
fn promotion_tables<'t>(
    material: &Material,
    geometry: &Geometry,
    sub_table: &dyn Fn(&Material) -> Option<&'t Table>,
) -> (Vec<Vec<(&'t Table, Perm)>>, Vec<Vec<(&'t Table, Perm)>>) {
    let promoted = |from: &Material, i: usize| -> Vec<(&'t Table, Perm)> {
        (geometry.promotions().iter())
            .map(|p| {
                let (into, perm) = from.promoted(i, p.piece, p.letter);
                let table = sub_table(&into).expect("promotion tables are built first");
                (table, perm)
            })
            .collect()
    };
    let men = material.men();
    let pawn = |i: usize| men[i].is_pawn();
    let promos = (0..men.len())
        .map(|i| {
            if pawn(i) {
                promoted(material, i)
            } else {
                Vec::new()
            }
        })
        .collect();
    let mut capture_promos = vec![Vec::new(); men.len() * MAX_MEN];
    for i in (0..men.len()).filter(|&i| pawn(i)) {
        // The victim stands on the promotion rank, where no pawn ever stands.
        for j in (2..men.len()).filter(|&j| men[j].color != men[i].color && !pawn(j)) {
            let at = if j < i { i - 1 } else { i };
            capture_promos[i * MAX_MEN + j] = promoted(&material.without(j), at);
        }
    }
    (promos, capture_promos)
}

impl<'a, S: SquareSet> Build<'a, S> {
    fn run(&self, seeds: &[Seed], report: &(dyn Fn(Phase, f64) + Sync)) -> Result<(), BuildError> {
        let start = Instant::now();
        if self.cancelled() {
            return Err(BuildError::Cancelled);
        }
        let legal = self.captures_pass(report);
        if self.cancelled() {
            return Err(BuildError::Cancelled);
        }
        self.apply_seeds(seeds)?;
        self.within_budget()?;
        for &c in self.sides_built() {
            let table = self.sides.frozen(c);
            self.pending.index_blocks(c, &table);
            // From one side, the first pass has set Black's illegal slots, which are White's
            // illegal slots' images.
            if self.swap.is_none() {
                self.no_escape[c.index()].start_from(&table);
            }
        }
        let captures = start.elapsed();
        let (mut wins, mut losses) = (Duration::ZERO, Duration::ZERO);
        let collect_losses = |d: u16| -> u64 {
            (self.sides_built().iter())
                .map(|&c| self.collect(c, d, Kind::Loss, self.lost_at(d)))
                .sum()
        };
        // The losses at n − 1, and those at n the loss step of n − 1 found (counting plies).
        let (mut lost, mut ahead) = (collect_losses(0), 0);
        let mut decided = lost;
        let mut n: u16 = 1;
        loop {
            if lost + ahead == 0 && !self.waiting_beyond(n - 1) {
                break;
            }
            if n > MAX_DISTANCE {
                return Err(BuildError::TooLong(self.name.clone()));
            }
            report(
                Phase::Iteration(n),
                // Counting plies, a provisional loss's block may give the losses found
                // beside it once more when it is collected: the count is an estimate.
                0.5 + 0.5 * (decided.min(legal) as f64 / legal.max(1) as f64),
            );
            let t = Instant::now();
            let won = self.win_step(n);
            wins += t.elapsed();
            let t = Instant::now();
            // Provisional losses are collected at their distance, after the wins of it: each
            // block's pending bytes are taken in rising order.
            let due = collect_losses(n);
            let found = self.loss_step(n);
            losses += t.elapsed();
            if self.cancelled() {
                // The steps skipped work: the table is incomplete.
                return Err(BuildError::Cancelled);
            }
            decided += won + due + found;
            (lost, ahead) = if self.counts_plies() {
                (ahead + due, found)
            } else {
                (due + found, 0)
            };
            if self.too_long.load(Relaxed) {
                return Err(BuildError::TooLong(self.name.clone()));
            }
            self.within_budget()?;
            n += 1;
        }
        for &c in self.sides_built() {
            self.settle_far(c, &self.won[c.index()], Kind::Win, n - 1);
            for d in [n - 1, n] {
                self.settle_far(c, &self.lost_at(d)[c.index()], Kind::Loss, d);
            }
        }
        self.within_budget()?;
        log::debug!(
            "{}: captures and mates {:.3} s, wins {:.3} s ({}), losses {:.3} s ({}), {} distances",
            self.name,
            captures.as_secs_f64(),
            wins.as_secs_f64(),
            self.step_times.by_side(Step::Win, self.sides_built()),
            losses.as_secs_f64(),
            self.step_times.by_side(Step::Loss, self.sides_built()),
            n - 1
        );
        report(Phase::Done, 1.0);
        Ok(())
    }

    /// Fails if the lists of long distances outgrew the room the budget leaves them.
    fn within_budget(&self) -> Result<(), BuildError> {
        match self.far.over_budget() {
            Some(need) => Err(BuildError::OverBudget {
                endgame: self.name.clone(),
                need,
                budget: self.far.room(),
            }),
            None => Ok(()),
        }
    }

    /// Whether the build was cancelled. The passes test it once per royal pair, frontier
    /// block or candidate word and then skip their work, leaving the table incomplete: the
    /// caller checks it after each pass and drops the table.
    #[inline]
    fn cancelled(&self) -> bool {
        self.cancel.load(Relaxed)
    }

    /// Value, for the side to move afterwards, of man `i` (side `c`) capturing man `j`;
    /// `None` if the capture is illegal. Under DTC every value after a capture counts as
    /// reached: distance 0.
    #[inline]
    fn capture_value(&self, sq: &Squares, i: usize, j: usize, c: Color) -> Option<Value> {
        Some(self.after_capture(self.captured_value(sq, i, j, c)?))
    }

    /// `capture_value` as the smaller table holds it, before this build counts it.
    #[inline]
    fn captured_value(&self, sq: &Squares, i: usize, j: usize, c: Color) -> Option<Value> {
        self.sub(j)
            .value(&self.men.after_capture(sq, i, j), c.flip())
    }

    /// Calls `f` with the value, for the opponent, of every exit of side `c` from `sq`
    /// (`men::Exit`; `None` for an illegal one): each capture, each pawn's move, each
    /// promotion to each piece.
    #[inline]
    fn for_each_exit_value(
        &self,
        sq: &Squares,
        occ: Occupancy<S>,
        c: Color,
        mut f: impl FnMut(Option<Value>),
    ) {
        self.men.for_each_exit(sq, occ, c, |exit| match exit {
            Exit::Capture { i, j } => f(self.capture_value(sq, i, j, c)),
            Exit::Push { i, to } => f(self.push_value(sq, i, to, c)),
            Exit::Promote { i, to, captured } => {
                let tables = match captured {
                    None => &self.promos[i],
                    Some(j) => &self.capture_promos[i * MAX_MEN + j],
                };
                for (table, perm) in tables {
                    let after = self.men.after_promotion(sq, i, to, captured, perm);
                    f(table.value(&after, c.flip()).map(|v| self.after_capture(v)));
                }
            }
        });
    }

    /// Value, for the opponent, of pawn `i` (side `c`) moving to `to` without capturing or
    /// promoting, read from the layers finished before; `None` if the move is illegal. A
    /// double step is worth what the en-passant captures it allows make of it.
    #[inline]
    fn push_value(&self, sq: &Squares, i: usize, to: Square, c: Color) -> Option<Value> {
        let mut moved = *sq;
        moved[i] = to;
        let without = self.done.value(&moved, c.flip())?;
        let n = self.men.len();
        let passed = self
            .pawn_rules
            .and_then(|r| Some((r, r.passed(c, sq[i], to, |s| moved[..n].contains(&s))?)));
        Some(self.after_push(match passed {
            Some((rules, passed)) => {
                self.after_double_step(&moved, i, passed, c.flip(), without, rules)
            }
            None => without,
        }))
    }

    /// The value, for side `c` to move, of the placement `sq` right after the enemy pawn
    /// `victim` passed over `passed` by a double step, with the right to take it en passant
    /// there; `without` is its value without that right (`value::with_en_passant`).
    fn after_double_step(
        &self,
        sq: &Squares,
        victim: usize,
        passed: Square,
        c: Color,
        without: Value,
        rules: &PawnRules,
    ) -> Value {
        let best = self
            .en_passant_takers(sq, passed, c, rules)
            .filter_map(|j| {
                let after = self.men.after_en_passant(sq, j, passed, victim);
                self.sub(victim).value(&after, c.flip())
            })
            .map(|v| self.metric.for_mover(v, true))
            .max_by_key(|v| v.rank());
        let occ = self.men.occupancy(sq);
        with_en_passant(
            best,
            without,
            || self.men.has_legal_move(sq, occ, c),
            || {
                // Passing leaves the placement, without the right, to the side that stepped.
                let may = self.may_pass(c, || self.men.royal_attacked(sq, occ.all(), c));
                may.then(|| {
                    self.done
                        .value(sq, c.flip())
                        .map(|v| self.metric.for_mover(v, false))
                })
                .flatten()
            },
        )
    }

    /// Side `c`'s pawns in `sq` that may take en passant onto `passed` (by an `e` step; legal
    /// or not).
    fn en_passant_takers<'s>(
        &'s self,
        sq: &'s Squares,
        passed: Square,
        c: Color,
        rules: &'s PawnRules,
    ) -> impl Iterator<Item = usize> + 's {
        (self.men.of(c).iter().copied())
            .filter(move |&j| self.men.is_pawn(j) && rules.ep_capture(c, sq[j], passed))
    }

    /// The table of the material left when man `j` is captured.
    #[inline]
    fn sub(&self, j: usize) -> &'a Table {
        self.subs[j].expect("only non-royal men are captured")
    }

    /// The value a capture or a promotion leads to, `v` as the smaller table holds it, as
    /// this build counts it (`exits::after_exit`).
    #[inline]
    fn after_capture(&self, v: Value) -> Value {
        exits::after_exit(self.metric, Reached::Capture, v)
    }

    /// The value a pawn's step leads to, `v` as the finished layers hold it, as this build
    /// counts it (`exits::after_exit`).
    #[inline]
    fn after_push(&self, v: Value) -> Value {
        exits::after_exit(self.metric, Reached::Push, v)
    }

    /// The frontiers, per side, of the positions lost at distance d. A build that counts
    /// plies finds the losses of n + 1 (from the wins up to n) before the wins of n + 1 are
    /// found from the losses of n: it holds two distances' frontiers, by parity, as the bytes
    /// of their slots do beyond the direct distances (`Far::code`).
    #[inline]
    fn lost_at(&self, d: u16) -> &[Frontier; 2] {
        &self.lost[usize::from(d % 2)]
    }

    /// The sides whose tables the build holds and whose steps it runs: White alone when
    /// Black's positions are White's seen through the colour swap (`Build::swap`).
    #[inline]
    fn sides_built(&self) -> &'static [Color] {
        held_sides(self.swap.is_some())
    }

    /// The no-escape set in which the candidates of side `c`'s steps are parked (see
    /// `candidates.rs`): side c's, which no step reads while c's run; or none, when White's
    /// steps stand for both sides' and the one set is Black's, laid out as Black's positions
    /// (see `images.rs`): they are parked in White's table.
    #[inline]
    fn parking(&self, c: Color) -> Option<&NoEscape<S>> {
        match self.swap {
            Some(_) => None,
            None => Some(&self.no_escape[c.index()]),
        }
    }

    /// The placement `sq` (slot `index`) with the other side to move, as the table that holds
    /// those positions holds it: the same, or, when White's table stands for
    /// Black's, the colour swap's image and its slot: un-moving the mover's men from it finds
    /// the mover's predecessors of a position of the other side's frontier, and the slot of
    /// a White position's image is where Black's no-escape set holds it.
    #[inline]
    fn as_held(&self, index: u64, sq: &Squares) -> (u64, Squares) {
        match self.swap {
            Some(swap) => {
                let image = swap.placement(sq, self.ix.men());
                let slot = self.ix.index(&image);
                (slot.expect("the image of a position is one"), image)
            }
            None => (index, *sq),
        }
    }

    /// Whether the iterations count plies (DTZ: a loss one ply longer than the longest win it
    /// moves into) rather than moves (DTM, DTC: a loss as long as it).
    #[inline]
    fn counts_plies(&self) -> bool {
        matches!(self.metric, Metric::Dtz(_))
    }

    /// The distance of the losses a loss step at distance n finds: n, or one ply more.
    #[inline]
    fn loss_target(&self, n: u16) -> u16 {
        n + u16::from(self.counts_plies())
    }

    /// Whether side `c` may pass in a position where it has a legal move; `in_check` is
    /// asked only where the rules allow passing.
    #[inline]
    fn may_pass(&self, c: Color, in_check: impl FnOnce() -> bool) -> bool {
        self.rules.null_move.allows(c) && !in_check()
    }

    /// Whether a provisional value waits at a distance beyond `n`, for either side.
    fn waiting_beyond(&self, n: u16) -> bool {
        (self.far.is_direct(n) && self.pending.any_beyond(loss_byte(n)))
            || self.far.waiting_beyond(n)
    }

    /// Adds to side `c`'s frontier of `into` its provisional values of `kind` at distance n,
    /// the distance reached; returns how many there are.
    fn collect(&self, c: Color, n: u16, kind: Kind, into: &[Frontier; 2]) -> u64 {
        if !self.far.is_direct(n) {
            return self.collect_far(c, n, kind, into);
        }
        let byte = self.far.code(kind, n);
        if !self.pending.any(c, byte) {
            return 0;
        }
        // Collecting comes before the step's writes to side c's table.
        let table = self.sides.frozen(c);
        self.pending.take(
            c,
            byte,
            &table,
            || self.recorder(c, kind, into),
            |recorder, w, slots| recorder.join(w, slots),
        )
    }

    /// The seeded slots of block `w` of side `c`.
    #[inline]
    fn fixed_word(&self, c: Color, w: u64) -> S {
        let Some(fixed) = &self.fixed else {
            return S::default();
        };
        let len = self.ix.block_len();
        (0..len)
            .filter(|&x| fixed[c.index()].contains((w as usize * len + x) as u64))
            .fold(S::default(), |set, x| set | S::bit(x as Square))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::BoardSize;
    use crate::egt::progress::Silent;
    use crate::egt::tables::TableSet;
    use crate::piece::PieceSet;

    /// Whether two tables of one index give every slot the same value, both sides to move.
    fn same_values(a: &Table, b: &Table) -> bool {
        (0..a.indexer().size()).all(|i| {
            Color::BOTH
                .iter()
                .all(|&c| a.value_at(i, c) == b.value_at(i, c))
        })
    }

    /// Pieces that move forward, for the colour swap's tests: a silver general (`S`) and a
    /// piece of no symmetry (`V`) with the knight; and the Berolina pawn with the queen and
    /// the knight.
    fn one_way_pieces() -> [PieceSet; 2] {
        let one_way = "K: K\nN: N\nS: 0,1 1,1 -1,1 1,-1 -1,-1\nV: rWfF\n";
        let berolina = "K: K\nQ: Q\nN: N\nP: fmFfceWifmnA\n";
        [one_way, berolina].map(|d| crate::piece::parse::parse_piece_defs(d, "test.ini").unwrap())
    }

    /// A table read from its colour-swapped material's (`KN.KNN` from `KNN.KN`, as a build
    /// whose chain holds both reads the second) gives every slot, both sides to move, the
    /// value its own build gives it: with twins, pawns (en passant, promotions), Berolina
    /// pawns and one-way pieces, on square and rectangular boards, under DTM, DTC and DTZ, and
    /// has its statistics; and the table whose captures read it (block by block where it has
    /// blocks) is the one built from its own build.
    #[test]
    fn a_table_read_from_its_colour_swapped_partner_is_its_own_build() {
        let [one_way, berolina] = one_way_pieces();
        let standard = PieceSet::standard();
        let dtz = Metric::Dtz(crate::egt::dtz::Rule::FIFTY_MOVES);
        let cases = [
            (&standard, "4x4", "KNN.KNN", Metric::Dtm),
            (&standard, "4x4", "KRN.KRN", Metric::Dtm),
            (&standard, "4x5", "KP.KPN", Metric::Dtm),
            (&standard, "5x5", "KP.KP", dtz),
            (&standard, "6x5", "KRN.KR", Metric::Dtc),
            (&one_way, "5x5", "KS.KSN", Metric::Dtm),
            (&berolina, "4x5", "KP.KPN", Metric::Dtm),
        ];
        for (pieces, board, parent, metric) in cases {
            let board: BoardSize = board.parse().unwrap();
            let mut set = TableSet::new(pieces.clone(), metric).on_board(board);
            if parent.contains('P') {
                set = set.with_promotions("QN").unwrap();
            }
            let parent = Material::parse(parent, set.pieces()).unwrap();
            set.build(&parent, &Silent).unwrap();
            let promotions: Vec<_> = (set.geometry().promotions().iter())
                .map(|p| (p.piece, p.letter))
                .collect();
            let cancel = AtomicBool::new(false);
            let own = |m: &Material| {
                let recipe = set.recipe(m, u64::MAX, &cancel);
                build_table(m, &recipe, &|x| set.get(x), &|_, _| {}).unwrap()
            };
            let mut mirrored = Vec::new();
            for m in parent.sub_materials(&promotions) {
                let table = set.get(&m).unwrap();
                if let Some(of) = table.mirror_of() {
                    assert_eq!(of.material(), &m.colour_swapped());
                    assert!(of.mirror_of().is_none() && table.bytes() == 0);
                    let built = own(&m);
                    assert!(same_values(table, &built), "{m} on {board}");
                    let stats = |t: &Table| crate::egt::stats::table_stats(t, set.geometry());
                    assert_eq!(stats(table), stats(&built), "{m} on {board}");
                    mirrored.push((m, built));
                }
            }
            assert!(
                !mirrored.is_empty(),
                "{parent} on {board} reads no table so"
            );
            let subs = |m: &Material| {
                (mirrored.iter())
                    .find(|(x, _)| x == m)
                    .map_or_else(|| set.get(m), |(_, t)| Some(t))
            };
            let recipe = set.recipe(&parent, u64::MAX, &cancel);
            let from_own = build_table(&parent, &recipe, &subs, &|_, _| {}).unwrap();
            assert!(
                same_values(set.get(&parent).unwrap(), &from_own),
                "{parent} on {board}"
            );
        }
    }

    /// A table stored once (the same men on both sides) reads Black's side through the colour
    /// swap: every slot with Black to move has the value the same build holding both sides
    /// gives it, on square and rectangular boards, with one-way pieces (a silver general, a
    /// piece of no symmetry, the Berolina pawn), pawns (en passant), a cannon and a
    /// grasshopper, twins, under DTM, DTC and DTZ; and so does the table built from White's
    /// side alone, whose steps stand for Black's through the swap (as every table stored once
    /// is built), block by block where it has blocks and slot by slot, with most distances
    /// kept beyond the bytes. A larger table whose captures reach one with Black to move (read
    /// block by block through the swap) is the one built from the table with both sides.
    #[test]
    fn a_table_stored_once_reads_black_as_both_sides_built_hold_it() {
        let [one_way, berolina] = one_way_pieces();
        let standard = PieceSet::standard();
        let dtz = Metric::Dtz(crate::egt::dtz::Rule::FIFTY_MOVES);
        let cases = [
            (&standard, "5x5", "KQ.KQ", "KQ.KQN", Metric::Dtm),
            (&standard, "10x8", "KR.KR", "KR.KR", Metric::Dtc),
            (&standard, "4x4", "KNN.KNN", "KNN.KNN", Metric::Dtm),
            (&standard, "5x5", "KP.KP", "KP.KP", dtz),
            (&standard, "4x5", "KP.KP", "KP.KPN", Metric::Dtm),
            (&standard, "4x4", "KOG.KOG", "KOG.KOG", Metric::Dtm),
            (&one_way, "5x5", "KS.KS", "KS.KSN", Metric::Dtm),
            (&one_way, "4x4", "KV.KV", "KV.KV", Metric::Dtm),
            (&berolina, "4x5", "KP.KP", "KP.KPN", Metric::Dtm),
            (&standard, "4x4", "KNP.KNP", "KNP.KNP", Metric::Dtm),
        ];
        let mut with_blocks = 0;
        for (pieces, board, spec, parent, metric) in cases {
            let board: BoardSize = board.parse().unwrap();
            let mut set = TableSet::new(pieces.clone(), metric).on_board(board);
            if spec.contains('P') {
                set = set.with_promotions("QN").unwrap();
            }
            let material = Material::parse(spec, set.pieces()).unwrap();
            let parent = Material::parse(parent, set.pieces()).unwrap();
            set.build(&parent, &Silent).unwrap();
            let once = set.get(&material).unwrap();
            assert!(once.is_stored_once(), "{spec} on {board}");
            let both = set.built_with_both_sides(&material);
            assert!(!both.is_stored_once());
            assert!(same_values(once, &both), "{spec} on {board}");
            // The build holds and works White's side alone, block by block where the table
            // has blocks, and slot by slot; here with most distances kept beyond the bytes.
            let cancel = AtomicBool::new(false);
            for blocks in [true, false] {
                let recipe = Recipe {
                    blocks,
                    direct: 2,
                    ..set.recipe(&material, u64::MAX, &cancel)
                };
                let alone = build_table(&material, &recipe, &|m| set.get(m), &|_, _| {}).unwrap();
                assert!(alone.is_stored_once() && alone.data[1].is_empty());
                assert!(same_values(&alone, &both), "{spec} on {board}, one side");
            }
            with_blocks += usize::from(once.indexer().has_blocks());
            if parent != material {
                let subs = |m: &Material| {
                    if *m == material {
                        Some(&both)
                    } else {
                        set.get(m)
                    }
                };
                let cancel = AtomicBool::new(false);
                let recipe = set.recipe(&parent, u64::MAX, &cancel);
                let from_both = build_table(&parent, &recipe, &subs, &|_, _| {}).unwrap();
                let from_once = set.get(&parent).unwrap();
                assert!(same_values(from_once, &from_both), "{parent} on {board}");
            }
        }
        assert!(with_blocks >= 5, "{with_blocks} tables with blocks");
    }

    /// A table with blocks built from one side, as every table stored once is (block by block,
    /// the other side's positions read in the layout of Black's: `images.rs`), with passes
    /// allowed to both sides, under DTZ (two loss frontiers), with most distances kept
    /// beyond the bytes, and on 8×8 (where a word of blocks has its images in a tile), its
    /// win steps reading their frontiers' slots from lists where the lists hold them, or
    /// always from the images: every slot has the value the block-wise build holding both
    /// sides gives it.
    #[test]
    fn a_table_with_blocks_built_from_one_side_agrees_with_both_sides() {
        use crate::egt::rules::NullMove;
        use crate::egt::value::MAX_DIRECT;
        let passing = Rules {
            null_move: NullMove::Both,
            ..Rules::default()
        };
        let dtz = Metric::Dtz(crate::egt::dtz::Rule::FIFTY_MOVES);
        let cases = [
            ("5x5", "KR.KR", Metric::Dtm, passing, MAX_DIRECT),
            ("4x4", "KRN.KRN", Metric::Dtm, passing, MAX_DIRECT),
            ("5x5", "KQ.KQ", dtz, Rules::default(), MAX_DIRECT),
            ("5x5", "KBN.KBN", Metric::Dtm, Rules::default(), MAX_DIRECT),
            // On 8×8, where the frontier's images form tiles.
            ("8x8", "KR.KR", Metric::Dtm, Rules::default(), MAX_DIRECT),
            // Most distances beyond the bytes: the wins and losses kept as exceptions.
            ("6x6", "KR.KR", Metric::Dtm, Rules::default(), 2),
            ("5x5", "KQ.KQ", dtz, Rules::default(), 3),
        ];
        for (board, spec, metric, rules, direct) in cases {
            let board: BoardSize = board.parse().unwrap();
            let mut set =
                (TableSet::new(PieceSet::standard(), metric).on_board(board)).with_rules(rules);
            let material = Material::parse(spec, set.pieces()).unwrap();
            set.build(&material, &Silent).unwrap();
            let both = set.built_with_both_sides(&material);
            assert!(both.indexer().has_blocks(), "{spec} on {board}");
            let cancel = AtomicBool::new(false);
            for lists in [true, false] {
                let recipe = Recipe {
                    direct,
                    lists,
                    ..set.recipe(&material, u64::MAX, &cancel)
                };
                let alone = build_table(&material, &recipe, &|m| set.get(m), &|_, _| {}).unwrap();
                assert!(alone.is_stored_once() && alone.data[1].is_empty(), "{spec}");
                assert_eq!(alone.far_count() > 0, direct < MAX_DIRECT, "{spec}");
                let what = format!("{spec} on {board}, lists {lists}");
                assert!(same_values(&alone, &both), "{what}");
            }
        }
    }

    /// Seeds that leave positions undecided (EGTgen's code 0), whatever their captures give:
    /// built block by block, the table is the one built slot by slot, whose loss checks value
    /// each candidate's exits (a block's bound of its exits' losses must not vouch for a
    /// seeded position).
    #[test]
    fn undecided_seeds_build_by_blocks_as_by_slots() {
        use crate::egt::seed::{Seed, SeedValue};
        let board: BoardSize = "5x5".parse().unwrap();
        let mut set = TableSet::new(PieceSet::standard(), Metric::Dtm).on_board(board);
        let material = Material::parse("KRN.KR", set.pieces()).unwrap();
        set.build(&material, &Silent).unwrap();
        let plain = set.get(&material).unwrap();
        let ix = plain.indexer();
        let mut seeds = Vec::new();
        for p in (0..ix.size()).step_by(3) {
            let Some(squares) = ix.decode(p) else {
                continue;
            };
            for side in Color::BOTH {
                if plain.value(&squares, side).is_some() {
                    let value = SeedValue::Undecided;
                    seeds.push(Seed {
                        squares,
                        side,
                        value,
                    });
                }
            }
        }
        let mut seeded = TableSet::new(PieceSet::standard(), Metric::Dtm)
            .on_board(board)
            .with_seeds(material.clone(), seeds);
        seeded.build(&material, &Silent).unwrap();
        let by_blocks = seeded.get(&material).unwrap();
        assert!(by_blocks.indexer().has_blocks());
        assert!(!same_values(by_blocks, plain), "the seeds change the table");
        let cancel = AtomicBool::new(false);
        let recipe = Recipe {
            blocks: false,
            ..seeded.recipe(&material, u64::MAX, &cancel)
        };
        let by_slots = build_table(&material, &recipe, &|m| seeded.get(m), &|_, _| {}).unwrap();
        assert!(same_values(by_blocks, &by_slots));
    }

    /// The variants the builder's two-way tests run under: a pass for Black, stalemate-wins
    /// with bare-royal-loses, and DTZ.
    fn variants() -> (Rules, Rules, Metric) {
        let passing = Rules {
            null_move: crate::egt::rules::NullMove::Black,
            ..Rules::default()
        };
        let stalemate_and_bare = Rules {
            stalemate_wins: true,
            bare_royal_loses: true,
            ..Rules::default()
        };
        (
            passing,
            stalemate_and_bare,
            Metric::Dtz(crate::egt::dtz::Rule::FIFTY_MOVES),
        )
    }

    /// A table set of `metric` and `rules` on `board` (given as "10x8"), promoting to two
    /// pieces to keep the sub-tables few, with `spec`'s table built; and its material.
    fn built_set(board: &str, spec: &str, metric: Metric, rules: Rules) -> (TableSet, Material) {
        let board: BoardSize = board.parse().unwrap();
        let promotions = if board.files() == 10 { "QA" } else { "QN" };
        let mut set = TableSet::new(PieceSet::standard(), metric)
            .on_board(board)
            .with_rules(rules)
            .with_promotions(promotions)
            .unwrap();
        let material = Material::parse(spec, set.pieces()).unwrap();
        set.build(&material, &Silent).unwrap();
        (set, material)
    }

    /// `material`'s table built again from `set`'s smaller tables, by the set's recipe as
    /// `how` changes it.
    fn rebuilt<'a>(
        set: &'a TableSet,
        material: &Material,
        how: impl FnOnce(Recipe<'a>) -> Recipe<'a>,
    ) -> Table {
        static NEVER: AtomicBool = AtomicBool::new(false);
        let recipe = how(set.recipe(material, u64::MAX, &NEVER));
        build_table(material, &recipe, &|m| set.get(m), &|_, _| {}).unwrap()
    }

    /// Asserts that two builds of one table hold the same bytes and far lists, both sides to
    /// move (`what` names the case).
    fn assert_same_bytes(a: &Table, b: &Table, what: &str) {
        for c in Color::BOTH {
            let (x, y) = (&a.data[c.index()], &b.data[c.index()]);
            assert_eq!(x.len(), y.len(), "{what}");
            let differ = (x.iter().zip(y)).position(|(p, q)| p.load(Relaxed) != q.load(Relaxed));
            assert_eq!(differ, None, "{what}, {c:?} to move");
            assert_eq!(a.far[c.index()], b.far[c.index()], "{what}, {c:?} to move");
        }
    }

    /// A loss step that checks every open block, or every undecided slot of the blocks that
    /// hold candidates, finds the positions one that checks the gathered candidates finds: a
    /// table built any of these ways at every step, and as builds choose, is byte for byte
    /// the same. With stalemates (a stalemated position's moves all vacuously reach wins: it
    /// must not be lost), block by block and slot by slot, under passing, stalemate and
    /// bare-royal rules, DTZ, with pawns, identical men alone (no blocks), built from both
    /// sides (where the marked blocks replace the candidates parked in the no-escape bits)
    /// and from one side (where they replace those parked in the table, and on 8×8 the
    /// frontier's images are read as tiles).
    #[test]
    fn open_checks_build_the_tables_candidates_do() {
        let (passing, stalemate_and_bare, dtz) = variants();
        let plain = Rules::default();
        let both_pass = Rules {
            null_move: crate::egt::rules::NullMove::Both,
            ..plain
        };
        let cases = [
            ("8x8", "KQ.K", Metric::Dtm, plain, true),
            ("6x6", "KQ.K", Metric::Dtm, plain, false),
            ("6x6", "KRN.KR", Metric::Dtm, passing, true),
            ("5x5", "KRN.KR", Metric::Dtm, stalemate_and_bare, true),
            ("6x6", "KRN.KR", dtz, plain, true),
            ("6x6", "KP.KN", dtz, plain, true),
            ("5x5", "KRP.KR", Metric::Dtm, plain, true),
            ("6x6", "KNN.KN", Metric::Dtm, plain, true),
            ("6x6", "KBB.K", Metric::Dtm, plain, true),
            ("10x8", "KR.KN", Metric::Dtc, plain, true),
            ("6x6", "KQ.KQ", Metric::Dtm, plain, true),
            ("4x4", "KRN.KRN", Metric::Dtm, plain, true),
            ("5x5", "KRN.KRN", Metric::Dtm, both_pass, true),
            ("4x4", "KRN.KRN", Metric::Dtm, stalemate_and_bare, true),
            ("5x5", "KBN.KBN", dtz, plain, true),
            // On 8×8 a frontier's images are read a tile of 64 blocks at a time.
            ("8x8", "KR.KR", Metric::Dtm, plain, true),
            ("8x8", "KN.KN", dtz, both_pass, true),
            // Stalemates, which a check of every undecided slot must not count as losses.
            ("4x5", "KBP.KBP", Metric::Dtm, plain, true),
            ("5x5", "KP.KP", Metric::Dtm, plain, true),
        ];
        let (mut marked_from_one_side, mut marked_from_both) = (0, 0);
        for (board, spec, metric, rules, blocks) in cases {
            let (set, material) = built_set(board, spec, metric, rules);
            let built = |loss_checks| {
                rebuilt(&set, &material, |r| Recipe {
                    blocks,
                    loss_checks,
                    ..r
                })
            };
            let chosen = built(LossChecks::Cheaper);
            let candidates = built(LossChecks::Candidates);
            let open = built(LossChecks::Open);
            let marked = built(LossChecks::MarkedBlocks);
            for table in [&chosen, &open, &marked] {
                assert_same_bytes(table, &candidates, &format!("{spec} on {board}, {rules:?}"));
            }
            let blockwise = blocks && marked.indexer().has_blocks();
            marked_from_one_side += usize::from(marked.is_stored_once() && blockwise);
            marked_from_both += usize::from(!marked.is_stored_once() && blockwise);
        }
        assert_eq!((marked_from_one_side, marked_from_both), (8, 7));
    }

    /// Win steps that pull, looking at every block a win may still improve for a move into
    /// the opponent's last losses, find the wins that un-moving from those losses finds: a
    /// table built either way at every step, and as builds choose, is byte for byte the
    /// same. Block by block on boards of one, two and four lanes, with the block man's side
    /// winning or not, twins told apart, folded blocks, lame leapers and hoppers, under the
    /// rule variants (a passing side pushes), DTZ and DTC; and where no build pulls (slot by
    /// slot, pawns, a table stored once), the same as ever.
    #[test]
    fn pulled_wins_build_the_tables_pushed_ones_do() {
        let (passing, stalemate_and_bare, dtz) = variants();
        let plain = Rules::default();
        let cases = [
            ("8x8", "KQ.K", Metric::Dtm, plain, true),
            ("6x6", "KQR.KR", Metric::Dtm, plain, true),
            ("5x5", "KQQ.KBB", Metric::Dtm, plain, true),
            ("10x8", "KQ.KR", Metric::Dtm, plain, true),
            ("12x12", "KQ.K", Metric::Dtm, plain, true),
            ("6x6", "KRN.KR", dtz, plain, true),
            ("5x5", "KRN.KR", Metric::Dtm, stalemate_and_bare, true),
            ("6x6", "KRN.KR", Metric::Dtm, passing, true),
            ("6x6", "KR.KN", Metric::Dtc, plain, true),
            ("6x6", "KO.KGU", Metric::Dtm, plain, true),
            // Where no build pulls: slot by slot, pawns, a table stored once.
            ("5x5", "KQR.KR", Metric::Dtm, plain, false),
            ("5x5", "KRP.KR", Metric::Dtm, plain, true),
            ("4x4", "KRN.KRN", Metric::Dtm, plain, true),
        ];
        let mut pulling = 0;
        for (board, spec, metric, rules, blocks) in cases {
            let (set, material) = built_set(board, spec, metric, rules);
            let built = |win_checks| {
                rebuilt(&set, &material, |r| Recipe {
                    blocks,
                    win_checks,
                    ..r
                })
            };
            let candidates = built(WinChecks::Candidates);
            for table in [built(WinChecks::Cheaper), built(WinChecks::Open)] {
                assert_same_bytes(
                    &table,
                    &candidates,
                    &format!("{spec} on {board}, {rules:?}"),
                );
            }
            // Twins are told apart while they build, and packed back into a layout without
            // blocks.
            let ix = candidates.indexer();
            let twins = Indexer::twins_apart(&material, set.geometry(), true).is_some();
            let pulls = blocks && (ix.has_blocks() || twins) && ix.slice_count().is_none();
            pulling += usize::from(pulls && !candidates.is_stored_once());
        }
        assert_eq!(pulling, 10);
    }

    /// A table whose non-royal men all come in groups of identical men, built with the last
    /// man of its last group told apart and packed back (`twins.rs`), is byte for byte the one
    /// built in its own layout, long distances included: with one and two such groups, pairs,
    /// three and four men, with pawns, on square and oblong boards of every set width,
    /// unfolded, under the rule variants, DTC and DTZ, and for colour-symmetric material held
    /// with both sides.
    #[test]
    fn twins_told_apart_build_the_tables_their_own_layout_does() {
        use crate::egt::value::MAX_DIRECT;
        let (passing, stalemate_and_bare, dtz) = variants();
        let plain = Rules::default();
        let cases = [
            ("8x8", "KRR.K", Metric::Dtm, plain, MAX_DIRECT),
            ("6x6", "KBB.K", Metric::Dtm, plain, 8),
            ("5x5", "KQQ.KBB", Metric::Dtm, plain, MAX_DIRECT),
            ("5x5", "KQQ.KBB", Metric::Dtm, plain, 6),
            ("4x5", "KBB.KNN", Metric::Dtm, passing, MAX_DIRECT),
            (
                "5x5",
                "KNN.KRR",
                Metric::Dtm,
                stalemate_and_bare,
                MAX_DIRECT,
            ),
            ("6x6", "KQQ.K", dtz, plain, MAX_DIRECT),
            ("4x4", "KRR.KNN", dtz, plain, MAX_DIRECT),
            ("6x6", "KNN.K", Metric::Dtc, plain, MAX_DIRECT),
            ("5x5", "KRR.KBB", Metric::Dtm, plain, MAX_DIRECT),
            ("10x8", "KRR.K", Metric::Dtm, plain, MAX_DIRECT),
            ("9x9", "KBB.K", Metric::Dtm, plain, MAX_DIRECT),
            // Knights, whose moves are few: the own layout is built slot by slot, and
            // KQQ.K's took a minute on this board.
            ("12x11", "KNN.K", Metric::Dtm, plain, MAX_DIRECT),
            // With pawns: slices of their own padding, some the mirror maps onto themselves.
            ("6x6", "KBB.KP", Metric::Dtm, plain, MAX_DIRECT),
            ("6x6", "KRR.KP", dtz, plain, MAX_DIRECT),
            ("4x4", "KNN.KPP", Metric::Dtm, passing, 5),
            ("6x4", "KP.KRR", Metric::Dtc, plain, MAX_DIRECT),
            // Three and four men: a group of one fewer, and the last man apart.
            ("6x6", "KNNN.K", Metric::Dtm, plain, MAX_DIRECT),
            ("5x5", "KRRR.K", dtz, plain, 5),
            (
                "5x5",
                "KNNNN.K",
                Metric::Dtm,
                stalemate_and_bare,
                MAX_DIRECT,
            ),
            ("4x5", "KP.KNNN", Metric::Dtm, passing, MAX_DIRECT),
        ];
        for (board, spec, metric, rules, direct) in cases {
            let (set, material) = built_set(board, spec, metric, rules);
            assert!(
                Indexer::twins_apart(&material, set.geometry(), true).is_some(),
                "{spec}"
            );
            let built = |twins_apart| {
                rebuilt(&set, &material, |r| Recipe {
                    direct,
                    twins_apart,
                    ..r
                })
            };
            let (apart, own) = (built(true), built(false));
            assert_eq!(own.far_count() > 0, direct < MAX_DIRECT, "{spec}");
            let what = format!("{spec} on {board}, {metric:?}, {rules:?}, direct {direct}");
            assert_same_bytes(&apart, &own, &what);
        }
        // Unfolded, and a colour-symmetric material held with both sides.
        let board: BoardSize = "5x5".parse().unwrap();
        let mut set =
            (TableSet::new(PieceSet::standard(), Metric::Dtm).on_board(board)).without_symmetry();
        let kbbk = Material::parse("KBB.K", set.pieces()).unwrap();
        set.build(&kbbk, &Silent).unwrap();
        let knn = Material::parse("KNN.KNN", set.pieces()).unwrap();
        set.build(&knn, &Silent).unwrap();
        for material in [kbbk, knn] {
            let built = |twins_apart| {
                rebuilt(&set, &material, |r| Recipe {
                    twins_apart,
                    once: false,
                    ..r
                })
            };
            let (apart, own) = (built(true), built(false));
            assert!(!apart.is_stored_once(), "{material}");
            assert_same_bytes(&apart, &own, &format!("{material} on 5x5, unfolded"));
        }
    }

    /// On boards of every set width but 8×8 (one word up to 64 squares, `u128` up to 128, four
    /// words beyond), with and without folded blocks, with pawns (promoting to two pieces, to keep
    /// the sub-tables few): a table built block by block is byte for byte the one built slot
    /// by slot, from the same smaller tables; DTM, DTC and DTZ, with identical men beside the
    /// block man, and under the rule variants (passing, stalemate and bare royal losing),
    /// where a loss check's losers and their exits are settled differently.
    #[test]
    fn blocks_build_the_tables_slots_do_on_every_board() {
        let (passing, stalemate_and_bare, dtz) = variants();
        let ruled = [
            ("6x6", "KRN.KR", Metric::Dtm, passing),
            ("5x5", "KRN.KR", Metric::Dtm, stalemate_and_bare),
            ("6x6", "KRN.KR", dtz, Rules::default()),
            ("6x6", "KRR.KN", Metric::Dtm, Rules::default()),
            ("6x6", "KP.KN", dtz, Rules::default()),
        ];
        // 8×8, whose blocks came first, is checked against the oracles' tables; the cases
        // with the lame leapers (U, T), the cannon (O) and the grasshopper (G) have them as
        // the block man, beside him, hopping over him, with a pawn, and as the royal (U).
        let cases = [
            ("10x8", "KR.KN", Metric::Dtc),
            ("10x8", "KP.KN", Metric::Dtm),
            ("7x7", "KQ.KR", Metric::Dtm),
            ("5x5", "KRN.KR", Metric::Dtm),
            ("4x4", "KR.KN", Metric::Dtm),
            ("12x12", "KR.K", Metric::Dtm),
            ("16x16", "KQ.K", Metric::Dtm),
            ("8x8", "KO.KR", Metric::Dtm),
            ("8x8", "KR.KO", Metric::Dtm),
            ("8x8", "KG.KU", Metric::Dtc),
            ("8x8", "KT.KG", Metric::Dtm),
            ("6x6", "KOG.KU", Metric::Dtm),
            ("4x4", "KUO.KGT", Metric::Dtm),
            ("5x5", "KUO.KG", Metric::Dtm),
            ("10x8", "KO.KU", Metric::Dtm),
            ("6x6", "KOP.K", Metric::Dtm),
            ("6x6", "UR.KO", Metric::Dtm),
        ];
        let cases = cases.map(|(board, spec, metric)| (board, spec, metric, Rules::default()));
        for (board, spec, metric, rules) in cases.into_iter().chain(ruled) {
            let (set, material) = built_set(board, spec, metric, rules);
            let by_blocks = set.get(&material).unwrap();
            assert!(by_blocks.indexer().has_blocks(), "{spec} on {board}");
            let cancel = AtomicBool::new(false);
            let recipe = Recipe {
                blocks: false,
                ..set.recipe(&material, u64::MAX, &cancel)
            };
            let by_slots = build_table(&material, &recipe, &|m| set.get(m), &|_, _| {}).unwrap();
            assert_same_bytes(
                by_blocks,
                &by_slots,
                &format!("{spec} on {board}, {rules:?}"),
            );
        }
    }
}
