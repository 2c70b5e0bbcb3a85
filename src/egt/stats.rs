//! Statistics of a table over the full board (no symmetry reduction): every placement of the
//! men on distinct squares, identical men counted once per unordered placement, for each side
//! to move. Illegal: the side to move can capture the enemy royal.

use crate::board::geometry::{Geometry, MoveTables};
use crate::board::{Color, SquareSet};
use crate::egt::material::Squares;
use crate::egt::men::Men;
use crate::egt::table::Table;
use crate::egt::value::Value;
use crate::with_tables;
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
}

/// Statistics of one table.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct TableStats {
    /// Canonical endgame name.
    pub endgame: String,
    /// The board, `WxH` (`8x8`, `10x8`).
    pub board: String,
    /// `dtm` or `dtc`.
    pub metric: &'static str,
    /// Size of the symmetry group used by the index.
    pub symmetry: usize,
    /// White to move.
    pub wtm: SideStats,
    /// Black to move.
    pub btm: SideStats,
}

#[derive(Clone)]
struct Tally {
    legal: u64,
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
            wins: Vec::new(),
            losses: Vec::new(),
            drawn: 0,
            checkmates: 0,
            stalemates: 0,
        }
    }
    fn merge(mut self, o: Tally) -> Tally {
        self.legal += o.legal;
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
        self.legal += weight;
        match v {
            Value::Win(d) => *at_distance(&mut self.wins, d) += weight,
            Value::Loss(d) => *at_distance(&mut self.losses, d) += weight,
            Value::Draw => self.drawn += weight,
        }
        if matches!(v, Value::Draw | Value::Loss(0)) {
            match stuck() {
                Some(true) => self.checkmates += weight,
                Some(false) => self.stalemates += weight,
                None => {}
            }
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
    count(table, geometry, true)
}

/// `table_stats`, by blocks where the table has them (`by_blocks`), else slot by slot.
fn count(table: &Table, geometry: &Geometry, by_blocks: bool) -> TableStats {
    with_tables!(geometry, |t| count_with(table, t, by_blocks))
}

/// `count` with the geometry's move tables at their width.
fn count_with<S: SquareSet>(table: &Table, tables: &MoveTables<S>, by_blocks: bool) -> TableStats {
    let ix = table.indexer();
    let material = table.material();
    let men = Men::new(material, tables).with_blocks_of(ix);
    // Mate or stalemate: no legal move; which one: in check or not.
    let stuck = |sq: &Squares, c: Color| -> Option<bool> {
        let occ = men.occupancy(sq);
        (!men.has_legal_move(sq, occ, c)).then(|| men.royal_attacked(sq, occ.all(), c))
    };
    let per_pair = ix.slots_per_pair();
    let tallies = (0..ix.pair_count() as u64)
        .into_par_iter()
        .fold(
            || [Tally::new(), Tally::new()],
            |mut acc, p| {
                if by_blocks && ix.has_blocks() && men.blockwise() && ix.pair_is_plain(p as usize) {
                    // Block by block: every placement of a plain pair has a full orbit, and
                    // the royal's safe steps rule out most mates and stalemates at once.
                    let weight = ix.symmetry() as u64;
                    let bm = men.block_man();
                    for w in p * per_pair / 64..(p + 1) * per_pair / 64 {
                        let Some(sq) = ix.block_men(w) else { continue };
                        let others = men.others_of_block(&sq);
                        for c in Color::BOTH {
                            let steps = men.royal_steps_in_block(&sq, others, c);
                            for x in 0..64u8 {
                                let Some(v) = table.value_at(w * 64 + x as u64, c) else {
                                    continue;
                                };
                                acc[c.index()].add(v, weight, || {
                                    (steps & 1 << x == 0)
                                        .then(|| {
                                            let mut s = sq;
                                            s[bm] = x;
                                            stuck(&s, c)
                                        })
                                        .flatten()
                                });
                            }
                        }
                    }
                    return acc;
                }
                for index in p * per_pair..(p + 1) * per_pair {
                    let Some(sq) = ix.decode(index) else { continue };
                    let weight = ix.orbit_size(&sq);
                    for c in Color::BOTH {
                        let Some(v) = table.value_at(index, c) else {
                            continue;
                        };
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
    let [w, b] = tallies.map(|t| side_stats(t, placements));
    TableStats {
        endgame: material.name(),
        board: tables.board().to_string(),
        metric: table.metric().name(),
        symmetry: ix.symmetry(),
        wtm: w,
        btm: b,
    }
}

fn side_stats(t: Tally, placements: u64) -> SideStats {
    let histogram = |v: &[u64]| -> BTreeMap<u16, u64> {
        v.iter()
            .enumerate()
            .filter(|(_, &n)| n > 0)
            .map(|(d, &n)| (d as u16, n))
            .collect()
    };
    let wins = histogram(&t.wins);
    let losses = histogram(&t.losses);
    SideStats {
        placements,
        illegal: placements - t.legal,
        legal: t.legal,
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
    use crate::piece::PieceSet;

    /// Counting by blocks gives what counting slot by slot gives: with the block man last
    /// (KQ.KR), not last (KR.KBB), and under stalemate-wins, where stalemates are losses.
    #[test]
    fn blocks_count_as_slots_do() {
        for (spec, stalemate_wins) in [("KQ.KR", false), ("KR.KBB", false), ("KQ.K", true)] {
            let mut set = TableSet::new(PieceSet::standard(), crate::egt::table::Metric::Dtm)
                .with_rules(Rules {
                    stalemate_wins,
                    ..Rules::default()
                });
            let material = Material::parse(spec, set.pieces()).unwrap();
            set.build(&material, &Silent).unwrap();
            let table = set.get(&material).unwrap();
            let by_blocks = count(table, set.geometry(), true);
            assert_eq!(by_blocks, count(table, set.geometry(), false), "{spec}");
            assert!(by_blocks.btm.checkmates > 0, "{spec}");
        }
    }
}
