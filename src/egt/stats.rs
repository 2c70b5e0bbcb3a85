//! Statistics of a table over the full board (no symmetry reduction): every placement of the
//! men on distinct squares, identical men counted once per unordered placement, for each side
//! to move. Illegal: the side to move can capture the enemy royal.
//!
//! Beside them, the number of unique legal positions (Kryukov's NULP): the legal positions
//! counted once per class of the board's symmetries that the pieces allow, combined with the
//! colour swap (see `TableStats::unique_legal`).

mod en_passant;

use crate::board::for_each_bit;
use crate::board::geometry::{Geometry, MoveTables};
use crate::board::{Color, SquareSet};
use crate::egt::bytes::BlockBytes;
use crate::egt::dtz::{Class, Rule};
use crate::egt::index::{BlockShape, Indexer};
use crate::egt::material::Squares;
use crate::egt::men::Men;
use crate::egt::table::{Metric, Table};
use crate::egt::value::{decode, Value, ILLEGAL, LOSS_FAR, UNKNOWN, WIN_FAR};
use crate::with_tables;
use en_passant::EnPassantRights;
use rayon::prelude::*;
use serde::Serialize;
use std::collections::BTreeMap;

/// Counts for one side to move.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct SideStats {
    /// Placements of the men on distinct squares.
    pub placements: u64,
    /// Placements where the side to move can capture the enemy royal.
    pub illegal: u64,
    /// The other placements.
    pub legal: u64,
    /// Legal positions up to the board's symmetries that the pieces allow: one per class;
    /// those with an en-passant right (see `TableStats::unique_legal`) included.
    pub unique: u64,
    /// Legal positions won for the side to move.
    pub won: u64,
    /// Legal positions drawn.
    pub drawn: u64,
    /// Legal positions lost for the side to move.
    pub lost: u64,
    /// Side to move's royal attacked, no legal move.
    pub checkmates: u64,
    /// Royal not attacked, no legal move.
    pub stalemates: u64,
    /// Longest win (0 if none).
    pub longest_win: u16,
    /// Longest loss (0 if none).
    pub longest_loss: u16,
    /// Won positions by distance.
    pub wins: BTreeMap<u16, u64>,
    /// Lost positions by distance.
    pub losses: BTreeMap<u16, u64>,
    /// DTZ only: of the won positions, those won only without the 50-move rule (beyond
    /// its rule's plies).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub cursed_wins: Option<u64>,
    /// DTZ only: of the lost positions, those the 50-move rule saves.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub blessed_losses: Option<u64>,
}

/// Statistics of one table.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct TableStats {
    /// Canonical endgame name.
    pub endgame: String,
    /// The board, `WxH` (`8x8`, `10x8`).
    pub board: String,
    /// `dtm`, `dtc` or `dtz`.
    pub metric: &'static str,
    /// DTZ only: the moves of its rule (0: none).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub rule_moves: Option<u16>,
    /// Size of the symmetry group used by the index.
    pub symmetry: usize,
    /// The number of unique legal positions, both sides to move (Kryukov's NULP): two
    /// positions are one when a symmetry of the board that the pieces allow, or the colour
    /// swap (each man changes side and the board turns upside down, so that one-way men
    /// still move forward), maps one onto the other. With the same men on both sides
    /// (`KQ.KQ`) the colour swap maps each position with White to move onto one with Black
    /// to move, and this is the count of either side; otherwise it maps them onto the
    /// swapped endgame, and this is the sum of both sides' `unique`. A position with an
    /// en-passant right in which an en-passant capture is legal is a position of its own.
    pub unique_legal: u64,
    /// White to move.
    pub wtm: SideStats,
    /// Black to move.
    pub btm: SideStats,
}

#[derive(Clone)]
struct Tally {
    legal: u64,
    /// Legal slots that are their class's canonical placement.
    unique: u64,
    wins: Vec<u64>,
    losses: Vec<u64>,
    drawn: u64,
    checkmates: u64,
    stalemates: u64,
}

impl Tally {
    fn new() -> Tally {
        Tally {
            legal: 0,
            unique: 0,
            wins: Vec::new(),
            losses: Vec::new(),
            drawn: 0,
            checkmates: 0,
            stalemates: 0,
        }
    }
    fn merge(mut self, o: Tally) -> Tally {
        self.legal += o.legal;
        self.unique += o.unique;
        self.drawn += o.drawn;
        self.checkmates += o.checkmates;
        self.stalemates += o.stalemates;
        for (mine, theirs) in [(&mut self.wins, &o.wins), (&mut self.losses, &o.losses)] {
            for (d, &n) in theirs.iter().enumerate() {
                *at_distance(mine, d as u16) += n;
            }
        }
        self
    }

    /// Counts one legal position of value `v`, standing for `weight` placements; `stuck` says
    /// whether the side to move has no legal move (asked only for draws and losses in 0).
    #[inline]
    fn add(&mut self, v: Value, weight: u64, stuck: impl FnOnce() -> Option<bool>) {
        self.add_value(v, weight);
        if may_be_stuck(v) {
            self.add_stuck(stuck(), weight);
        }
    }

    /// Counts `weight` legal placements of value `v`, leaving mates and stalemates aside.
    #[inline]
    fn add_value(&mut self, v: Value, weight: u64) {
        self.legal += weight;
        match v {
            Value::Win(d) => *at_distance(&mut self.wins, d) += weight,
            Value::Loss(d) => *at_distance(&mut self.losses, d) += weight,
            Value::Draw => self.drawn += weight,
        }
    }

    /// Counts `weight` placements of a position that is mate (`Some(true)`), stalemate
    /// (`Some(false)`) or neither (`None`, the side to move has a legal move).
    #[inline]
    fn add_stuck(&mut self, stuck: Option<bool>, weight: u64) {
        match stuck {
            Some(true) => self.checkmates += weight,
            Some(false) => self.stalemates += weight,
            None => {}
        }
    }
}

/// Whether a position of value `v` may be a mate or a stalemate (one without a legal move):
/// draws and losses in 0 only.
#[inline]
fn may_be_stuck(v: Value) -> bool {
    matches!(v, Value::Draw | Value::Loss(0))
}

/// Counts the slots `slots` of one royal pair of a table with blocks, into `acc` (one tally
/// per side to move). A position stands for as many placements as the symmetry group has
/// elements, except in a block folded by the pair's own symmetry, where the slots on the
/// squares that symmetry fixes stand for half as many: each byte value is counted in a
/// histogram per side and weight, with the illegal and undecided bytes of a block tested 16
/// at a time, and valued once at the end. Only the slots that may be mates or stalemates, and
/// whose royal has no safe step, are looked at one by one, and the distances beyond a byte
/// come from the table's list of them. `plain`: whether the pair is on no symmetry axis (then
/// no block is folded).
fn count_pair_by_blocks<S: SquareSet>(
    table: &Table,
    men: &Men<S>,
    slots: std::ops::Range<u64>,
    plain: bool,
    acc: &mut [Tally; 2],
    stuck: &impl Fn(&Squares, Color) -> Option<bool>,
) {
    let ix = table.indexer();
    let full = ix.symmetry() as u64;
    let weights = [full, full / 2];
    let bm = men.block_man();
    // The value of each byte, counted from the histogram; none for ILLEGAL, and none for the
    // bytes of distances beyond a byte, counted from the table's list of them.
    let values: [Option<Value>; 256] = std::array::from_fn(|b| {
        let b = b as u8;
        (b != WIN_FAR && b != LOSS_FAR)
            .then(|| decode(b, || unreachable!("far bytes are left out")))
            .flatten()
    });
    debug_assert!(values[UNKNOWN as usize].is_some_and(may_be_stuck));
    let stuck_bytes = values.map(|v| v.is_some_and(may_be_stuck));
    // By weight (full, half), side to move and byte.
    let mut histogram = [[[0u64; 256]; 2]; 2];
    let len = ix.block_len();
    let all = S::below(len);
    let mut block = vec![0u8; len];
    for w in slots.start / len as u64..slots.end / len as u64 {
        let Some(sq) = ix.block_men(w) else { continue };
        // The slots of half weight.
        let half = match ix.block_shape(w, &sq) {
            BlockShape::Whole => S::default(),
            BlockShape::Half(fold) => fold.fixed::<S>(),
            BlockShape::Hole => continue,
        };
        let others = men.others_of_block(&sq);
        for &c in table.held_colors() {
            for (x, b) in block.iter_mut().enumerate() {
                *b = table.byte(w * len as u64 + x as u64, c);
            }
            let bytes = BlockBytes::new(&block);
            let (illegal, undecided) = (bytes.equal::<S>(ILLEGAL), bytes.equal::<S>(UNKNOWN));
            for (k, part) in [all & !half, half].into_iter().enumerate() {
                histogram[k][c.index()][UNKNOWN as usize] += (undecided & part).count() as u64;
            }
            let mut maybe_stuck = undecided;
            for_each_bit(all & !(illegal | undecided), |x| {
                let b = block[x as usize];
                histogram[half.contains(x) as usize][c.index()][b as usize] += 1;
                if stuck_bytes[b as usize] {
                    maybe_stuck |= S::bit(x);
                }
            });
            // Where the royal is not boxed in, or has a safe step, there is no mate or
            // stalemate: the cheap test first, for the whole block.
            maybe_stuck &= men.royal_boxed_in_block(&sq, others, c);
            if maybe_stuck.is_empty() {
                continue;
            }
            let steps = men.royal_steps_in_block(&sq, others, c);
            for_each_bit(maybe_stuck & !steps, |x| {
                let mut s = sq;
                s[bm] = x;
                let weight = weights[half.contains(x) as usize];
                acc[c.index()].add_stuck(stuck(&s, c), weight);
            });
        }
    }
    for &c in table.held_colors() {
        let tally = &mut acc[c.index()];
        // Each slot of a block is one class (its canonical placement), far bytes included.
        tally.unique += histogram.iter().flat_map(|h| h[c.index()]).sum::<u64>();
        for (counts, weight) in histogram.iter().zip(weights) {
            for (&v, &n) in values.iter().zip(&counts[c.index()]) {
                if let (Some(v), 1..) = (v, n) {
                    tally.add_value(v, n * weight);
                }
            }
        }
        for (index, v) in table.far_values(c, slots.clone()) {
            debug_assert!(!may_be_stuck(v), "slot {index}: {v:?}");
            let weight = if plain {
                full
            } else {
                ix.orbit_size(&ix.decode(index).expect("a far byte is a position's"))
            };
            tally.add_value(v, weight);
        }
    }
}

/// The count of distance `d` in a histogram, which grows to hold it.
#[inline]
fn at_distance(histogram: &mut Vec<u64>, d: u16) -> &mut u64 {
    if histogram.len() <= d as usize {
        histogram.resize(d as usize + 1, 0);
    }
    &mut histogram[d as usize]
}

/// Counts a built table.
pub fn table_stats(table: &Table, geometry: &Geometry) -> TableStats {
    match table.mirror_of() {
        // The colour swap maps each position onto one of the other material with the other
        // side to move, of the same value, and their classes one to one.
        Some(of) => {
            let s = table_stats(of, geometry);
            TableStats {
                endgame: table.material().name(),
                wtm: s.btm,
                btm: s.wtm,
                ..s
            }
        }
        None => count(table, geometry, true),
    }
}

/// `table_stats`, by blocks where the table has them (`by_blocks`), else slot by slot.
fn count(table: &Table, geometry: &Geometry, by_blocks: bool) -> TableStats {
    with_tables!(geometry, |t| count_with(table, geometry, t, by_blocks))
}

/// `count` with the geometry's move tables at their width.
fn count_with<S: SquareSet>(
    table: &Table,
    geometry: &Geometry,
    tables: &MoveTables<S>,
    by_blocks: bool,
) -> TableStats {
    let ix = table.indexer();
    let material = table.material();
    let men = Men::new(material, tables).with_blocks_of(ix);
    // Mate or stalemate: no legal move; which one: in check or not.
    let stuck = |sq: &Squares, c: Color| -> Option<bool> {
        let occ = men.occupancy(sq);
        (!men.has_legal_move(sq, occ, c)).then(|| men.royal_attacked(sq, occ.all(), c))
    };
    // A table built without symmetry that the pieces allow holds every placement: a class is
    // counted at its canonical placement, as the folded index has it.
    let folded = (ix.symmetry() == 1)
        .then(|| Indexer::new(material, geometry, true))
        .filter(|f| f.symmetry() > 1);
    let group = folded.as_ref().unwrap_or(ix).symmetries();
    let rights = EnPassantRights::new(geometry, material, group);
    let canonical = |sq: &Squares| {
        folded.as_ref().is_none_or(|f| {
            let image = f.index(sq).and_then(|i| f.decode(i));
            image.is_some_and(|image| image[..ix.men()] == sq[..ix.men()])
        })
    };
    // A table built without its symmetry, and en-passant rights, are counted slot by slot.
    let by_blocks =
        by_blocks && ix.has_blocks() && men.blockwise() && folded.is_none() && !rights.any();
    let tallies = (0..ix.chunk_count())
        .into_par_iter()
        .fold(
            || [Tally::new(), Tally::new()],
            |mut acc, p| {
                if by_blocks {
                    let slots = ix.chunk_slots(p);
                    let plain = ix.chunk_is_plain(p);
                    count_pair_by_blocks(table, &men, slots, plain, &mut acc, &stuck);
                    return acc;
                }
                for index in ix.chunk_slots(p) {
                    let Some(sq) = ix.decode(index) else { continue };
                    let weight = ix.orbit_size(&sq);
                    let canonical = canonical(&sq);
                    for &c in table.held_colors() {
                        let Some(v) = table.value_at(index, c) else {
                            continue;
                        };
                        if canonical {
                            acc[c.index()].unique += 1 + rights.count(&sq, c);
                        }
                        acc[c.index()].add(v, weight, || stuck(&sq, c));
                    }
                }
                acc
            },
        )
        .reduce(
            || [Tally::new(), Tally::new()],
            |[a, b], [c, d]| [a.merge(c), b.merge(d)],
        );
    let placements = ix.full_board_placements();
    let dtz = match table.metric() {
        Metric::Dtz(rule) => Some(rule),
        Metric::Dtm | Metric::Dtc => None,
    };
    // A table stored once holds White's side alone: the colour swap maps each position with
    // Black to move onto one with White to move of the same value, and their classes and
    // placements one to one, so Black's counts are White's.
    let [white, black] = tallies;
    let black = if table.is_stored_once() {
        white.clone()
    } else {
        black
    };
    let [w, b] = [white, black].map(|t| side_stats(t, placements, dtz));
    let unique_legal = if material.is_colour_symmetric() {
        debug_assert_eq!(
            w.unique, b.unique,
            "the colour swap maps one side onto the other"
        );
        w.unique
    } else {
        w.unique + b.unique
    };
    TableStats {
        endgame: material.name(),
        board: tables.board().to_string(),
        metric: table.metric().name(),
        rule_moves: dtz.map(Rule::move_count),
        symmetry: ix.symmetry(),
        unique_legal,
        wtm: w,
        btm: b,
    }
}

/// The counts of one side to move; with `dtz`, the cursed wins and blessed losses too.
fn side_stats(t: Tally, placements: u64, dtz: Option<Rule>) -> SideStats {
    let histogram = |v: &[u64]| -> BTreeMap<u16, u64> {
        v.iter()
            .enumerate()
            .filter(|(_, &n)| n > 0)
            .map(|(d, &n)| (d as u16, n))
            .collect()
    };
    let wins = histogram(&t.wins);
    let losses = histogram(&t.losses);
    // Of the distances in `h`, as values `value`, those of `class` under the DTZ rule.
    let of_class = |h: &BTreeMap<u16, u64>, value: fn(u16) -> Value, class: Class| {
        dtz.map(|rule| {
            (h.iter())
                .filter(|&(&d, _)| rule.class(value(d)) == class)
                .map(|(_, n)| n)
                .sum()
        })
    };
    SideStats {
        cursed_wins: of_class(&wins, Value::Win, Class::CursedWin),
        blessed_losses: of_class(&losses, Value::Loss, Class::BlessedLoss),
        placements,
        illegal: placements - t.legal,
        legal: t.legal,
        unique: t.unique,
        won: wins.values().sum(),
        drawn: t.drawn,
        lost: losses.values().sum(),
        checkmates: t.checkmates,
        stalemates: t.stalemates,
        longest_win: wins.keys().next_back().copied().unwrap_or(0),
        longest_loss: losses.keys().next_back().copied().unwrap_or(0),
        wins,
        losses,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::egt::material::Material;
    use crate::egt::progress::Silent;
    use crate::egt::rules::Rules;
    use crate::egt::tables::TableSet;
    use crate::egt::value::MAX_DIRECT;
    use crate::piece::PieceSet;

    /// A table stored once counts White's side and gives Black's the same counts: they equal
    /// the counts of Black's own bytes in the same build holding both sides, by blocks and
    /// slot by slot, with pawns (en-passant rights counted), twins, long distances kept
    /// beyond the bytes and under DTZ.
    #[test]
    fn a_table_stored_once_counts_as_both_sides_do() {
        use crate::egt::table::Metric;
        let dtz = Metric::Dtz(crate::egt::dtz::Rule::FIFTY_MOVES);
        for (spec, board, metric, direct) in [
            ("KQ.KQ", "8x8", Metric::Dtm, MAX_DIRECT),
            ("KR.KR", "8x8", Metric::Dtm, 3),
            ("KP.KP", "6x6", Metric::Dtm, MAX_DIRECT),
            ("KP.KP", "5x5", dtz, MAX_DIRECT),
            ("KNN.KNN", "4x4", Metric::Dtm, MAX_DIRECT),
        ] {
            let mut set = TableSet::new(PieceSet::standard(), metric)
                .on_board(board.parse().unwrap())
                .with_direct_distances(direct);
            let material = Material::parse(spec, set.pieces()).unwrap();
            set.build(&material, &Silent).unwrap();
            let once = set.get(&material).unwrap();
            assert!(once.is_stored_once(), "{spec}");
            let both = set.built_with_both_sides(&material);
            assert_eq!(once.far_count() > 0, direct < MAX_DIRECT, "{spec}");
            for by_blocks in [true, false] {
                let counted = count(&both, set.geometry(), by_blocks);
                assert_eq!(count(once, set.geometry(), by_blocks), counted, "{spec}");
            }
        }
    }

    /// Counting by blocks gives what counting slot by slot gives: with the block man last
    /// (KQ.KR), not last (KR.KBB), a leaper (KBN.K), twins beside him (KNN.KB), under
    /// stalemate-wins, where stalemates are losses, and with most distances kept beyond the
    /// bytes (`direct` 2: KQ.KR's, as exceptions). Every pawnless one has royal pairs on the
    /// diagonal, whose folded blocks weigh the slots on it half; the pawn tables (KR.KP,
    /// KRP.K) weigh every slot as its slice's mirror image does.
    #[test]
    fn blocks_count_as_slots_do() {
        for (spec, stalemate_wins, direct) in [
            ("KQ.KR", false, MAX_DIRECT),
            ("KR.KBB", false, MAX_DIRECT),
            ("KQ.K", true, MAX_DIRECT),
            ("KBN.K", false, MAX_DIRECT),
            ("KNN.KB", false, MAX_DIRECT),
            ("KQ.KR", false, 2),
            ("KR.KP", false, MAX_DIRECT),
            ("KRP.K", true, 2),
        ] {
            let mut set = TableSet::new(PieceSet::standard(), crate::egt::table::Metric::Dtm)
                .with_rules(Rules {
                    stalemate_wins,
                    ..Rules::default()
                })
                .with_direct_distances(direct);
            let material = Material::parse(spec, set.pieces()).unwrap();
            set.build(&material, &Silent).unwrap();
            let table = set.get(&material).unwrap();
            let ix = table.indexer();
            // With pawns (on 8×8), only the pairs of a slice that is its own mirror image
            // fold, and one pawn's never is.
            assert!(
                (0..ix.chunk_count()).any(|c| !ix.chunk_is_plain(c)) || spec.contains('P'),
                "{spec}"
            );
            assert!(ix.has_blocks(), "{spec}");
            let by_blocks = count(table, set.geometry(), true);
            assert_eq!(by_blocks, count(table, set.geometry(), false), "{spec}");
            assert!(by_blocks.btm.checkmates > 0, "{spec}");
            // KBN.K's lone king is stalemated in places: the stalemates are compared too.
            assert!(spec != "KBN.K" || by_blocks.btm.stalemates > 0);
            assert_eq!(table.far_count() > 0, direct < MAX_DIRECT, "{spec}");
        }
    }
}
