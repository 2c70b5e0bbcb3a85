//! The retrograde builder of one table, parallel over all of rayon's threads.
//!
//! Phases:
//! 1. *captures and mates*: one pass over every slot marks illegal positions, values every
//!    capture from the smaller tables (a winning capture gives a provisional win; a position
//!    whose only legal moves are losing captures, or a checkmate, is lost), and counts how many
//!    provisional values wait at each distance.
//! 2. *iterations*, distance n = 1, 2, …: positions with a move to a position lost in n−1 are
//!    won in n (found by un-moving from the frontier of positions lost in n−1); then each
//!    predecessor of a position won in n is checked by a forward look at all its moves, and is
//!    lost in n when every move reaches a position won for the opponent in at most n. Only the
//!    frontiers are touched: a frontier is kept as the blocks that hold it (`frontier.rs`),
//!    and its slots are read back from the table by their byte; the candidates of a step are
//!    a bitmap per thread (`candidates.rs`), reused side by side. Provisional values are
//!    collected at their distance from the blocks known to hold them (`pending.rs`), not by
//!    rescanning the table.
//!
//! Bytes are relaxed atomics: threads may race to write the same value into one slot, which
//! is harmless, and never write different values into one slot within a step.

use crate::board::geometry::Geometry;
use crate::board::Color;
use crate::egt::index::Indexer;
use crate::egt::material::{Material, Squares};
use crate::egt::memory;
use crate::egt::men::{Men, Occupancy};
use crate::egt::progress::Phase;
use crate::egt::rules::Rules;
use crate::egt::seed::{Seed, SeedValue};
use crate::egt::table::{Metric, Table};
use crate::egt::value::{
    loss_byte, win_byte, win_of, Value, ILLEGAL, MAX_LOSS, MAX_WIN, NOT_LOST, UNKNOWN,
};
use crate::piece::PieceSet;
use bitmap::{for_each_bit, Bitmap};
use bytes::Bytes64;
use candidates::Candidates;
use frontier::Frontier;
use pending::Pending;
use rayon::prelude::*;
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicU8, Ordering::Relaxed};

mod bitmap;
mod block_setup;
mod blocks;
mod bytes;
mod candidates;
mod frontier;
mod pending;
use std::time::{Duration, Instant};
use thiserror::Error;

/// A table that cannot be built.
#[derive(Debug, Error, PartialEq, Eq)]
pub enum BuildError {
    /// Distances beyond what one byte per position holds.
    #[error(
        "{0}: a distance is longer than one byte per position holds (wins up to {MAX_WIN} moves, losses up to {MAX_LOSS})"
    )]
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

/// Atomic bytes seen as plain bytes, which the compiler can read in vectors.
///
/// # Safety
/// No thread may write the bytes while the slice is in use.
unsafe fn plain_bytes(bytes: &[AtomicU8]) -> &[u8] {
    // SAFETY: AtomicU8 has the size, alignment and bit validity of u8, and the caller
    // guarantees that nothing writes these bytes meanwhile.
    unsafe { std::slice::from_raw_parts(bytes.as_ptr().cast::<u8>(), bytes.len()) }
}

/// What a position's legal captures give the side to move.
#[derive(Clone, Copy, Debug, Default)]
struct Captures {
    best_win: Option<u16>,
    draw: bool,
    worst_loss: Option<u16>,
}

impl Captures {
    /// Adds a capture leading to a position of value `after` for the opponent (`None`: the
    /// capture is illegal).
    #[inline]
    fn add(&mut self, after: Option<Value>) {
        match after.map(Value::for_mover) {
            Some(Value::Win(d)) => self.best_win = Some(self.best_win.map_or(d, |b| b.min(d))),
            Some(Value::Draw) => self.draw = true,
            Some(Value::Loss(d)) => self.worst_loss = Some(self.worst_loss.map_or(d, |w| w.max(d))),
            None => {}
        }
    }
}

struct Build<'a> {
    name: String,
    metric: Metric,
    rules: Rules,
    ix: &'a Indexer,
    men: Men<'a>,
    data: &'a [Vec<AtomicU8>; 2],
    /// Table of the material left when man j is captured (None for the royals).
    subs: Vec<Option<&'a Table>>,
    /// The slots a step works on, for one side to move at a time.
    candidates: Candidates,
    /// Per side: the positions won in the distance reached.
    won: [Frontier; 2],
    /// Per side: the positions lost in the distance reached.
    lost: [Frontier; 2],
    pending: Pending,
    too_long: AtomicBool,
    /// Seeded positions, whose values the iterations leave alone (only with seeds).
    fixed: Option<[Bitmap; 2]>,
    /// Raised to stop: the passes then skip their remaining work (see [`Build::cancelled`]).
    cancel: &'a AtomicBool,
}

/// How tables are built: the same for an endgame and all its smaller ones (seeds aside).
pub struct Recipe<'r> {
    /// The piece definitions.
    pub pieces: &'r PieceSet,
    /// Their move tables.
    pub geometry: &'r Geometry,
    /// Distance to mate or to conversion.
    pub metric: Metric,
    /// The game's rules.
    pub rules: Rules,
    /// Values fixed for some positions of this table.
    pub seeds: &'r [Seed],
    /// Whether the index folds placements by the pieces' symmetry.
    pub fold: bool,
    /// Raised to stop the build: it is checked between the first pass's royal pairs and
    /// between distances, and the build then returns [`BuildError::Cancelled`].
    pub cancel: &'r AtomicBool,
}

/// Builds the table of `material` as `recipe` says; `sub_table(m)` must give the built table
/// of every smaller material reachable by a capture. `report(phase, fraction of this table)`
/// is called as the build goes on.
pub fn build_table<'t>(
    material: &Material,
    recipe: &Recipe,
    sub_table: &dyn Fn(&Material) -> Option<&'t Table>,
    report: &(dyn Fn(Phase, f64) + Sync),
) -> Result<Table, BuildError> {
    let Recipe {
        pieces,
        geometry,
        metric,
        rules,
        seeds,
        fold,
        cancel,
    } = *recipe;
    report(Phase::Setup, 0.0);
    if cancel.load(Relaxed) {
        return Err(BuildError::Cancelled);
    }
    let indexer = Indexer::new(material, geometry, pieces, fold);
    if cancel.load(Relaxed) {
        return Err(BuildError::Cancelled);
    }
    let size = indexer.size();
    let blocks = size.div_ceil(64);
    // Rounded up to whole bitmap words, the bytes past the index being ILLEGAL, so that
    // every word of the table has its 64 bytes.
    let data = [0, 1].map(|_| {
        let bytes = memory::filled(size.next_multiple_of(64) as usize, || {
            AtomicU8::new(UNKNOWN)
        });
        bytes[size as usize..]
            .iter()
            .for_each(|b| b.store(ILLEGAL, Relaxed));
        bytes
    });
    let subs = (0..material.len())
        .map(|j| {
            (j >= 2).then(|| sub_table(&material.without(j)).expect("sub-tables are built first"))
        })
        .collect();
    let build = Build {
        name: material.name(),
        metric,
        rules,
        ix: &indexer,
        men: Men::new(material, geometry).with_blocks_of(&indexer),
        data: &data,
        subs,
        candidates: Candidates::new(size, rayon::current_num_threads()),
        won: [0, 1].map(|_| Frontier::new(blocks)),
        lost: [0, 1].map(|_| Frontier::new(blocks)),
        pending: Pending::new(blocks),
        too_long: AtomicBool::new(false),
        fixed: (!seeds.is_empty()).then(|| [Bitmap::new(size), Bitmap::new(size)]),
        cancel,
    };
    // On one of the pool's threads, so that every step's work runs on them (each thread
    // gathers candidates into its own lane, see `candidates.rs`).
    rayon::scope(|_| build.run(seeds, report))?;
    drop(build);
    Ok(Table {
        material: material.clone(),
        indexer,
        data,
        metric,
    })
}

impl<'a> Build<'a> {
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
        for c in Color::BOTH {
            // SAFETY: nothing writes the tables meanwhile.
            self.pending.index_blocks(c, unsafe { self.frozen(c) });
        }
        let captures = start.elapsed();
        let (mut wins, mut losses) = (Duration::ZERO, Duration::ZERO);
        let mut lost: u64 = Color::BOTH
            .map(|c| self.collect(c, loss_byte(0), &self.lost[c.index()]))
            .iter()
            .sum();
        let mut decided = lost;
        let mut n: u16 = 1;
        loop {
            if lost == 0 && !self.pending.any_beyond(loss_byte(n - 1)) {
                break;
            }
            if n > MAX_WIN.min(MAX_LOSS) {
                return Err(BuildError::TooLong(self.name.clone()));
            }
            report(
                Phase::Iteration(n),
                0.5 + 0.5 * (decided as f64 / legal.max(1) as f64),
            );
            let t = Instant::now();
            let won: u64 = self.win_step(n).iter().sum();
            wins += t.elapsed();
            let t = Instant::now();
            lost = self.loss_step(n).iter().sum();
            losses += t.elapsed();
            if self.cancelled() {
                // The steps skipped work: the table is incomplete.
                return Err(BuildError::Cancelled);
            }
            decided += won + lost;
            if self.too_long.load(Relaxed) {
                return Err(BuildError::TooLong(self.name.clone()));
            }
            n += 1;
        }
        log::debug!(
            "{}: captures and mates {:.3} s, wins {:.3} s, losses {:.3} s, {} distances",
            self.name,
            captures.as_secs_f64(),
            wins.as_secs_f64(),
            losses.as_secs_f64(),
            n - 1
        );
        report(Phase::Done, 1.0);
        Ok(())
    }

    /// Whether the build was cancelled. The passes test it once per royal pair, frontier
    /// block or candidate word and then skip their work, leaving the table incomplete: the
    /// caller checks it after each pass and drops the table.
    #[inline]
    fn cancelled(&self) -> bool {
        self.cancel.load(Relaxed)
    }

    #[inline]
    fn cell(&self, c: Color, index: u64) -> &AtomicU8 {
        &self.data[c.index()][index as usize]
    }

    /// Value, for the side to move afterwards, of man `i` (side `c`) capturing man `j`;
    /// `None` if the capture is illegal. Under DTC every value after a capture counts as
    /// reached: distance 0.
    #[inline]
    fn capture_value(&self, sq: &Squares, i: usize, j: usize, c: Color) -> Option<Value> {
        let sub = self.sub(j);
        Some(self.after_capture(sub.value(&self.men.after_capture(sq, i, j), c.flip())?))
    }

    /// The table of the material left when man `j` is captured.
    #[inline]
    fn sub(&self, j: usize) -> &'a Table {
        self.subs[j].expect("only non-royal men are captured")
    }

    /// The value a capture leads to, as this table's metric counts it: under DTC every value
    /// after a capture counts as reached, distance 0.
    #[inline]
    fn after_capture(&self, v: Value) -> Value {
        match (self.metric, v) {
            (Metric::Dtm, v) => v,
            (Metric::Dtc, Value::Win(_)) => Value::Win(0),
            (Metric::Dtc, Value::Loss(_)) => Value::Loss(0),
            (Metric::Dtc, Value::Draw) => Value::Draw,
        }
    }

    /// Phase 1 over every slot; returns the number of legal positions.
    fn captures_pass(&self, report: &(dyn Fn(Phase, f64) + Sync)) -> u64 {
        let pairs = self.ix.pair_count() as u64;
        let done = AtomicU64::new(0);
        (0..pairs)
            .into_par_iter()
            .map(|p| {
                if self.cancelled() {
                    return 0;
                }
                // Bytes given, per side, counted here and added to the shared counters once
                // per pair (one shared counter hit per position would make the threads fight
                // over its cache line).
                let mut bytes = [[0u64; 256]; 2];
                let mut legal = 0;
                let per_pair = self.ix.slots_per_pair() / 64;
                let first = p * per_pair;
                if self.ix.has_blocks() {
                    for w in first..first + per_pair {
                        legal += self.setup_block(w, &mut bytes);
                    }
                } else {
                    self.ix.for_each_slot_of_pair(p as usize, |i, sq| {
                        legal += self.setup_slot(i, sq, &mut bytes)
                    });
                }
                for c in Color::BOTH {
                    for (b, &n) in bytes[c.index()].iter().enumerate().filter(|(_, &n)| n > 0) {
                        self.pending.count(c, b as u8, n);
                    }
                }
                let d = done.fetch_add(1, Relaxed) + 1;
                if d.is_multiple_of(16) {
                    report(Phase::Captures, 0.5 * d as f64 / pairs as f64);
                }
                legal
            })
            .sum()
    }

    /// Sets up both sides' bytes of one slot, counting them in `bytes`; returns how many of
    /// them are legal positions.
    fn setup_slot(&self, index: u64, sq: Option<&Squares>, bytes: &mut [[u64; 256]; 2]) -> u64 {
        let Some(sq) = sq else {
            for c in Color::BOTH {
                self.cell(c, index).store(ILLEGAL, Relaxed);
            }
            return 0;
        };
        let occ = self.men.occupancy(sq);
        let attacked = Color::BOTH.map(|c| self.men.royal_attacked(sq, occ.all(), c));
        let mut legal = 0;
        for c in Color::BOTH {
            if attacked[c.flip().index()] {
                self.cell(c, index).store(ILLEGAL, Relaxed);
                continue;
            }
            legal += 1;
            let byte = self.initial_byte(sq, occ, c, attacked[c.index()]);
            bytes[c.index()][byte as usize] += 1;
            self.cell(c, index).store(byte, Relaxed);
        }
        legal
    }

    /// The byte phase 1 gives a legal position with `c` to move (a provisional win or a
    /// loss, counted by the caller as waiting at its distance, NOT_LOST, or UNKNOWN).
    fn initial_byte(&self, sq: &Squares, occ: Occupancy, c: Color, in_check: bool) -> u8 {
        let mut captures = Captures::default();
        self.men.for_each_capture(sq, occ, c, |i, j| {
            captures.add(self.capture_value(sq, i, j, c))
        });
        self.byte_given_captures(c, in_check, captures, || {
            self.men.has_quiet_move(sq, occ, c)
        })
    }

    /// `initial_byte` once the captures are known; `has_quiet_move` tells whether side `c`
    /// has a legal non-capturing move.
    fn byte_given_captures(
        &self,
        c: Color,
        in_check: bool,
        captures: Captures,
        has_quiet_move: impl FnOnce() -> bool,
    ) -> u8 {
        if self.rules.bare_royal_loses
            && self.men.of(c).len() == 1
            && self.men.of(c.flip()).len() > 1
        {
            return loss_byte(0);
        }
        let Captures {
            best_win,
            draw,
            worst_loss,
        } = captures;
        if let Some(d) = best_win {
            if d > MAX_WIN {
                self.too_long.store(true, Relaxed);
                return UNKNOWN;
            }
            return win_byte(d);
        }
        if draw {
            return NOT_LOST;
        }
        let may_be_stuck = in_check || worst_loss.is_some() || self.rules.stalemate_wins;
        if !may_be_stuck || has_quiet_move() {
            return UNKNOWN;
        }
        let d = match worst_loss {
            // Every legal move is a losing capture; a pass, where allowed, is decided later.
            Some(_) if self.may_pass(c, || in_check) => return UNKNOWN,
            Some(d) => d,
            None if in_check || self.rules.stalemate_wins => 0,
            // Stalemate: a draw.
            None => return UNKNOWN,
        };
        loss_byte(d)
    }

    /// Whether side `c` may pass in a position where it has a legal move; `in_check` is
    /// asked only where the rules allow passing.
    #[inline]
    fn may_pass(&self, c: Color, in_check: impl FnOnce() -> bool) -> bool {
        self.rules.null_move.allows(c) && !in_check()
    }

    /// Fixes the seeded values (after mates are known, before the iterations).
    fn apply_seeds(&self, seeds: &[Seed]) -> Result<(), BuildError> {
        for seed in seeds {
            let index = self
                .ix
                .index(&seed.squares)
                .expect("seeds are legal positions");
            let c = seed.side;
            let (byte, fixed) = match seed.value {
                SeedValue::Draw => (UNKNOWN, true),
                SeedValue::Undecided => (UNKNOWN, false),
                SeedValue::Stalemate if self.rules.stalemate_wins => (loss_byte(0), true),
                SeedValue::Stalemate => (UNKNOWN, true),
                SeedValue::Win(d) if d > MAX_WIN => {
                    return Err(BuildError::TooLong(self.name.clone()))
                }
                SeedValue::Win(d) => (win_byte(d), true),
                SeedValue::Loss(d) if d > MAX_LOSS => {
                    return Err(BuildError::TooLong(self.name.clone()))
                }
                SeedValue::Loss(d) => (loss_byte(d), true),
            };
            self.cell(c, index).store(byte, Relaxed);
            self.pending.count(c, byte, 1);
            if let Some(bits) = &self.fixed {
                if fixed {
                    bits[c.index()].set(index);
                }
            }
        }
        Ok(())
    }

    /// Adds to the frontier `into` the provisional values of side `c` that have the byte
    /// `byte` of the distance reached; returns how many there are.
    fn collect(&self, c: Color, byte: u8, into: &Frontier) -> u64 {
        if !self.pending.any(c, byte) {
            return 0;
        }
        // SAFETY: collecting comes before the step's writes to side c's table.
        let table = unsafe { self.frozen(c) };
        self.pending
            .take(c, byte, table, |w, slots| into.mark(w, slots))
    }

    /// Distance n: every predecessor of a position lost in n−1 that is not yet won in fewer
    /// moves is won in n.
    fn win_step(&self, n: u16) -> [u64; 2] {
        self.won.iter().for_each(Frontier::clear);
        let counts = Color::BOTH.map(|c| {
            let won = &self.won[c.index()];
            let found = self.collect(c, win_byte(n), won);
            self.gather(c, &self.lost[c.flip().index()], loss_byte(n - 1));
            let passes = self.rules.null_move.allows(c);
            found
                + self.candidates.check_words(
                    won,
                    |w| bytes::prefetch(&self.data[c.index()], w),
                    |w, bits| {
                        if self.cancelled() {
                            return 0;
                        }
                        // SAFETY: only this closure writes word w's bytes, after the last read.
                        let bytes = unsafe { self.word_bytes(c, w) };
                        // Undecided, or won in more than n (ILLEGAL and NOT_LOST are odd).
                        let longer = bytes.even() & !bytes.at_most(win_byte(n));
                        let undecided = bytes.equal(UNKNOWN) | bytes.equal(NOT_LOST);
                        let mut improves = bits & (undecided | longer) & !self.fixed_word(c, w);
                        if passes {
                            // Reached by un-passing: a stalemated side may not pass.
                            for_each_bit(improves, |b| {
                                let sq = self
                                    .ix
                                    .decode(w * 64 + b as u64)
                                    .expect("candidates are positions");
                                if !self.men.has_legal_move(&sq, self.men.occupancy(&sq), c) {
                                    improves &= !(1 << b);
                                }
                            });
                        }
                        for_each_bit(improves, |b| {
                            self.cell(c, w * 64 + b as u64).store(win_byte(n), Relaxed)
                        });
                        improves
                    },
                )
        });
        self.lost.iter().for_each(Frontier::clear);
        counts
    }

    /// Distance n: every undecided predecessor of a position won in n whose moves all reach
    /// positions won for the opponent in at most n is lost (in n, or later when a capture
    /// reaches a longer win, in which case it waits for that distance). Each candidate is
    /// checked once however many of its successors were won in n.
    fn loss_step(&self, n: u16) -> [u64; 2] {
        Color::BOTH.map(|c| {
            let lost = &self.lost[c.index()];
            let found = self.collect(c, loss_byte(n), lost);
            self.gather(c, &self.won[c.flip().index()], win_byte(n));
            // SAFETY: this side's step writes only side c's table.
            let opponent_table = unsafe { self.frozen(c.flip()) };
            found
                + self.candidates.check_words(
                    lost,
                    |w| {
                        bytes::prefetch(&self.data[c.index()], w);
                        // For the block man's moves.
                        bytes::prefetch(opponent_table, w);
                    },
                    |w, bits| {
                        if self.cancelled() {
                            return 0;
                        }
                        // SAFETY: only this closure writes word w's bytes, after the last read.
                        let bytes = unsafe { self.word_bytes(c, w) };
                        let undecided = bits & bytes.equal(UNKNOWN) & !self.fixed_word(c, w);
                        if undecided == 0 {
                            return 0;
                        }
                        let mut kept = 0;
                        if let Some(block) = self.block(w) {
                            let (losers, moving) = self.quiet_losers_of_block(
                                w,
                                undecided,
                                &block,
                                c,
                                n,
                                opponent_table,
                            );
                            let sq = block.0;
                            let bm = self.men.block_man();
                            for_each_bit(losers, |x| {
                                let mut s = sq;
                                s[bm] = x;
                                let p = w * 64 + x as u64;
                                // Some quiet move reaches a win in exactly n (the candidate was
                                // found from it), or else the pass does: the candidate would have
                                // been settled at the distance of its longest win otherwise.
                                let quiet = (moving & 1 << x != 0).then_some(n);
                                let occ = self.men.occupancy(&s);
                                let d = self.other_moves_lose(p, &s, occ, c, n, quiet);
                                if self.settle_loss(c, p, d, n) {
                                    kept |= 1 << x;
                                }
                            });
                        } else {
                            for_each_bit(undecided, |b| {
                                let p = w * 64 + b as u64;
                                let sq = self.ix.decode(p).expect("candidates are positions");
                                if self.settle_loss(c, p, self.all_moves_lose(p, &sq, c, n), n) {
                                    kept |= 1 << b;
                                }
                            });
                        }
                        kept
                    },
                )
        })
    }

    /// Stores the outcome `d` of `all_moves_lose` at step n for slot `p` of side `c`: a loss
    /// in n (returns true: `p` joins the frontier), a loss waiting for a later distance, or
    /// nothing.
    fn settle_loss(&self, c: Color, p: u64, d: Option<u16>, n: u16) -> bool {
        let Some(d) = d else {
            return false;
        };
        if d > MAX_LOSS {
            self.too_long.store(true, Relaxed);
            false
        } else if d == n {
            self.cell(c, p).store(loss_byte(n), Relaxed);
            true
        } else {
            self.cell(c, p).store(loss_byte(d), Relaxed);
            self.pending.add(c, p / 64, loss_byte(d));
            false
        }
    }

    /// Side `c`'s table as plain bytes, which the compiler can read in vectors.
    ///
    /// # Safety
    /// No thread may write side `c`'s table while the slice is in use.
    unsafe fn frozen(&self, c: Color) -> &[u8] {
        // SAFETY: passed on to the caller.
        unsafe { plain_bytes(&self.data[c.index()]) }
    }

    /// The 64 bytes of word `w` of side `c`'s table.
    ///
    /// # Safety
    /// No thread may write these bytes while the view is in use.
    #[inline]
    unsafe fn word_bytes(&self, c: Color, w: u64) -> Bytes64<'_> {
        let word = &self.data[c.index()][(w * 64) as usize..][..64];
        // SAFETY: passed on to the caller.
        Bytes64::of_word(unsafe { plain_bytes(word) }, 0)
    }

    /// The seeded slots of word `w` of side `c`.
    #[inline]
    fn fixed_word(&self, c: Color, w: u64) -> u64 {
        self.fixed
            .as_ref()
            .map_or(0, |bits| bits[c.index()].word(w))
    }

    /// Sets the candidates (empty: the last step's checks took them) to every predecessor,
    /// with `mover` to move, of the positions of the other side in `frontier` (of value
    /// `byte`): the positions before the mover's last move. Only bits are set here, at random;
    /// the table is then read in index order by the caller's filter, which keeps the big
    /// table's accesses local.
    fn gather(&self, mover: Color, frontier: &Frontier, byte: u8) {
        let unpass = self.rules.null_move.allows(mover);
        // SAFETY: a step writes only the mover's table.
        let table = unsafe { self.frozen(mover.flip()) };
        frontier.for_each(table, byte, |w, bits| {
            if self.cancelled() {
                return;
            }
            let into = self.candidates.lane();
            if unpass {
                // The same placements with the mover to move, before it passed.
                into.or_word(w, bits);
            }
            if let Some(block) = self.block(w) {
                return self.gather_block(w, bits, &block, mover, &into);
            }
            for_each_bit(bits, |b| {
                let z = w * 64 + b as u64;
                let sq = self.ix.decode(z).expect("frontier slots are positions");
                let plain = self.ix.is_plain(&sq);
                self.men
                    .for_each_unmove(&sq, self.men.occupancy(&sq), mover, |i, _, pred| {
                        if let Some(p) = self.ix.after_move(z, plain, &sq, i, pred) {
                            into.set(p);
                        }
                    });
            });
        });
    }

    /// If every legal move of side `c` (and its pass, where allowed) reaches a position won
    /// for the opponent, in at most `n` moves for positions of this table, the longest such
    /// win. `None` also when `c` has no legal move: mate and stalemate were settled in the
    /// first pass (a stalemated side may not pass).
    fn all_moves_lose(&self, index: u64, sq: &Squares, c: Color, n: u16) -> Option<u16> {
        let occ = self.men.occupancy(sq);
        let plain = self.ix.is_plain(sq);
        let opponent = c.flip();
        let mut longest = 0u16;
        let mut quiet = false;
        let quiet_ok = self.men.for_each_quiet(sq, occ, c, |i, t| {
            let mut s2 = *sq;
            s2[i] = t;
            let next = self.ix.after_move(index, plain, sq, i, &s2);
            match next.and_then(|x| self.won_within(opponent, x, n)) {
                None => true,
                Some(won) => {
                    quiet = true;
                    won.inspect(|&d| longest = longest.max(d)).is_some()
                }
            }
        });
        if !quiet_ok {
            return None;
        }
        self.other_moves_lose(index, sq, occ, c, n, quiet.then_some(longest))
    }

    /// `all_moves_lose` once every quiet move is known to lose: `quiet` is the longest win
    /// they reach, `None` if there is no legal quiet move.
    fn other_moves_lose(
        &self,
        index: u64,
        sq: &Squares,
        occ: Occupancy,
        c: Color,
        n: u16,
        quiet: Option<u16>,
    ) -> Option<u16> {
        let mut moves = quiet.is_some();
        let mut longest = quiet.unwrap_or(0);
        let mut all_lose = true;
        self.men
            .for_each_capture(sq, occ, c, |i, j| match self.capture_value(sq, i, j, c) {
                None => {}
                Some(Value::Win(d)) => {
                    moves = true;
                    longest = longest.max(d);
                }
                Some(_) => all_lose = false,
            });
        if !all_lose || !moves {
            return None;
        }
        if self.may_pass(c, || self.men.royal_attacked(sq, occ.all(), c)) {
            let d = self.won_within(c.flip(), index, n).flatten()?;
            longest = longest.max(d);
        }
        Some(longest)
    }

    /// For a slot of this table reached by a move or a pass of the opponent's opponent:
    /// `None` if the position is illegal (the move was not legal), `Some(Some(d))` if it is
    /// won for `opponent` in d ≤ n moves, `Some(None)` otherwise.
    #[inline]
    fn won_within(&self, opponent: Color, next: u64, n: u16) -> Option<Option<u16>> {
        match self.cell(opponent, next).load(Relaxed) {
            ILLEGAL => None,
            b => Some(win_of(b).filter(|&d| d <= n)),
        }
    }
}
