//! Phase 1, *captures and mates*: one pass over every slot, before any distance. It marks
//! illegal positions, values every capture from the smaller tables (a winning capture gives a
//! provisional win; a position whose only legal moves are losing captures, or a checkmate,
//! is lost; a capture into a draw makes a position never lost), and counts how many
//! provisional values wait at each distance (`pending.rs`). Tables with blocks are set up a
//! block at a time (`block_setup.rs`); seeds are fixed after it.

use super::block_setup::TwinTile;
use super::exits::Exits;
use super::sides::Writer;
use super::Build;
use super::{BuildError, MAX_DISTANCE};
use crate::board::{Color, SquareSet};
use crate::egt::material::Squares;
use crate::egt::men::Occupancy;
use crate::egt::progress::Phase;
use crate::egt::seed::{Seed, SeedValue};
use crate::egt::value::{loss_byte, Value, ILLEGAL, NOT_LOST, UNKNOWN};
use rayon::prelude::*;
use std::ops::Range;
use std::sync::atomic::{AtomicU64, Ordering::Relaxed};

/// The fewest slots the first pass takes as one piece of work (see `captures_pass`).
const RUN_SLOTS: u64 = 4096;

impl<S: SquareSet> Build<'_, S> {
    /// Phase 1 over every slot of the layer; returns the number of legal positions.
    pub(super) fn captures_pass(&self, report: &(dyn Fn(Phase, f64) + Sync)) -> u64 {
        let chunks = self.ix.chunks_of(&self.window);
        let count = chunks.end - chunks.start;
        // Chunks are worked a run at a time, of at least `RUN_SLOTS` slots: a table whose only
        // men besides the royals are pawns has chunks of one slot, whose own counters, zeroed
        // and summed, would cost more than the slot.
        let one = self.ix.chunk_slots(chunks.start);
        let run = RUN_SLOTS.div_ceil((one.end - one.start).max(1));
        let done = AtomicU64::new(0);
        // The first pass writes the tables built, and reads only the smaller tables and the
        // layers finished before.
        let tables = Color::BOTH.map(|c| self.sides.writer(c));
        (0..count.div_ceil(run))
            .into_par_iter()
            .map(|r| {
                if self.cancelled() {
                    return 0;
                }
                let first = chunks.start + r * run;
                let these = first..(first + run).min(chunks.end);
                // Bytes given, per side, counted here and added to the shared counters once
                // per run (one shared counter hit per position would make the threads fight
                // over its cache line).
                let mut bytes = [[0u64; 256]; 2];
                let legal = self.setup_chunks(these.clone(), &tables, &mut bytes);
                for c in Color::BOTH {
                    for (b, &n) in bytes[c.index()].iter().enumerate().filter(|(_, &n)| n > 0) {
                        self.pending.count(c, b as u8, n);
                    }
                }
                let n = these.end - these.start;
                let before = done.fetch_add(n, Relaxed);
                if (before + n) / 16 > before / 16 {
                    report(Phase::Captures, 0.5 * (before + n) as f64 / count as f64);
                }
                legal
            })
            .sum()
    }

    /// Sets up the bytes of the slots of chunks `chunks` (block by block where the table
    /// allows, else slot by slot), counting them in `bytes`; returns how many are legal.
    fn setup_chunks(
        &self,
        chunks: Range<u64>,
        tables: &[Writer; 2],
        bytes: &mut [[u64; 256]; 2],
    ) -> u64 {
        let mut legal = 0;
        if !self.setup_blockwise() {
            for p in chunks {
                self.ix.for_each_slot_of_chunk(p, |i, sq| {
                    legal += self.setup_slot(i, sq, tables, bytes)
                });
            }
            return legal;
        }
        let len = self.ix.block_len() as u64;
        let mut exits = vec![Exits::default(); len as usize];
        for p in chunks {
            let slots = self.ix.chunk_slots(p);
            // Told apart, a chunk holds whole placements of the other men.
            let mut tile = (self.ix.block_twin()).map(|_| TwinTile::new(len as usize));
            for w in slots.start / len..slots.end / len {
                legal += self.setup_block(w, tables, bytes, &mut exits, tile.as_mut());
            }
        }
        legal
    }

    /// Sets up the bytes of one slot in `tables`, both sides' (or White's alone, see
    /// `Build::sides_built`), counting them in `bytes`; returns how many of them are legal
    /// positions.
    fn setup_slot(
        &self,
        index: u64,
        sq: Option<&Squares>,
        tables: &[Writer; 2],
        bytes: &mut [[u64; 256]; 2],
    ) -> u64 {
        let Some(sq) = sq else {
            for &c in self.sides_built() {
                tables[c.index()].store(index, ILLEGAL);
            }
            self.black_illegal_slot(index, true);
            return 0;
        };
        let occ = self.men.occupancy(sq);
        let attacked = Color::BOTH.map(|c| self.men.royal_attacked(sq, occ.all(), c));
        self.black_illegal_slot(index, attacked[Color::White.index()]);
        let mut legal = 0;
        for &c in self.sides_built() {
            if attacked[c.flip().index()] {
                tables[c.index()].store(index, ILLEGAL);
                continue;
            }
            legal += 1;
            let byte = self.initial_byte(index, sq, occ, c, attacked[c.index()]);
            bytes[c.index()][byte as usize] += 1;
            tables[c.index()].store(index, byte);
        }
        legal
    }

    /// `black_illegal` for slot `index` alone, if `illegal`.
    #[inline]
    fn black_illegal_slot(&self, index: u64, illegal: bool) {
        if illegal {
            let (w, x) = self.ix.block_and_square(index);
            self.black_illegal(w, S::bit(x));
        }
    }

    /// The byte phase 1 gives slot `slot`, a legal position with `c` to move (a provisional
    /// win or a loss, counted by the caller as waiting at its distance, NOT_LOST, or UNKNOWN).
    fn initial_byte(
        &self,
        slot: u64,
        sq: &Squares,
        occ: Occupancy<S>,
        c: Color,
        in_check: bool,
    ) -> u8 {
        let exits = self.exits_of(sq, occ, c);
        self.byte_given_exits(slot, c, in_check, exits, || {
            self.men.has_quiet_move(sq, occ, c)
        })
    }

    /// What side `c`'s exits from the placement `sq` (occupancy `occ`) give it, slot by slot
    /// (`exits_in_block` values a block's at once).
    pub(super) fn exits_of(&self, sq: &Squares, occ: Occupancy<S>, c: Color) -> Exits {
        let mut exits = Exits::default();
        self.for_each_exit_value(sq, occ, c, |v| exits.add(v));
        exits
    }

    /// `initial_byte` once the exits are known; `has_quiet_move` tells whether side `c` has
    /// a legal move that stays in the slice (no exit).
    pub(super) fn byte_given_exits(
        &self,
        slot: u64,
        c: Color,
        in_check: bool,
        exits: Exits,
        has_quiet_move: impl FnOnce() -> bool,
    ) -> u8 {
        if self.rules.bare_royal_loses
            && self.men.of(c).len() == 1
            && self.men.of(c.flip()).len() > 1
        {
            return loss_byte(0);
        }
        let worst_loss = exits.worst_loss();
        if let Some(d) = exits.best_win() {
            return self.far.provisional(c, slot, Value::Win(d));
        }
        if exits.draws() {
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
        self.far.provisional(c, slot, Value::Loss(d))
    }

    /// Fixes the seeded values (after mates are known, before the iterations).
    pub(super) fn apply_seeds(&self, seeds: &[Seed]) -> Result<(), BuildError> {
        let tables = Color::BOTH.map(|c| self.sides.writer(c));
        for seed in seeds {
            let index = self
                .ix
                .index(&seed.squares)
                .expect("seeds are legal positions");
            if !self.window.contains(&index) {
                continue;
            }
            let c = seed.side;
            let (byte, fixed) = match seed.value {
                SeedValue::Draw => (UNKNOWN, true),
                SeedValue::Undecided => (UNKNOWN, false),
                SeedValue::Stalemate if self.rules.stalemate_wins => (loss_byte(0), true),
                SeedValue::Stalemate => (UNKNOWN, true),
                SeedValue::Win(d) if d > MAX_DISTANCE => {
                    return Err(BuildError::TooLong(self.name.clone()))
                }
                SeedValue::Win(d) => (self.far.provisional(c, index, Value::Win(d)), true),
                SeedValue::Loss(d) if d > MAX_DISTANCE => {
                    return Err(BuildError::TooLong(self.name.clone()))
                }
                SeedValue::Loss(d) => (self.far.provisional(c, index, Value::Loss(d)), true),
            };
            tables[c.index()].store(index, byte);
            self.pending.count(c, byte, 1);
            self.exit_bounds
                .forget(c, self.ix.block_and_square(index).0);
            if let Some(bits) = &self.fixed {
                if fixed {
                    bits[c.index()].set(index);
                }
            }
        }
        Ok(())
    }
}
