//! The pictures of a table the explorer draws: its statistics (the histogram of won and lost
//! positions by distance, for both sides to move) and, per man and side to move, a heat map:
//! on each square, how many legal positions have that man there, and how many of them the
//! side to move wins. Counted over the full board: each slot of a folded table stands for the
//! images of its placement under the table's symmetries.

use crate::board::geometry::Geometry;
use crate::board::Color;
use crate::egt::stats::{table_stats, TableStats};
use crate::egt::table::Table;
use crate::egt::value::Value;
use rayon::prelude::*;
use serde::Serialize;

/// One man's heat map for one side to move: per square (a1 = 0, rank by rank), the legal
/// positions with him there and those won for the side to move.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Heat {
    /// Legal positions per square.
    pub legal: Vec<u64>,
    /// Won positions per square.
    pub won: Vec<u64>,
}

/// A man of the endgame, as the page names him.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct ManHeat {
    /// `white` or `black`.
    pub side: &'static str,
    /// His letter.
    pub letter: char,
    /// With White to move, then Black.
    pub heat: [Heat; 2],
}

/// The pictures of one table.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Pictures {
    /// Files and ranks of the board.
    pub files: u8,
    /// Ranks.
    pub ranks: u8,
    /// The table's statistics, with its histograms.
    pub stats: TableStats,
    /// Each man's heat maps, in the endgame's man order.
    pub men: Vec<ManHeat>,
}

/// The pictures of `table`.
pub fn pictures(table: &Table, geometry: &Geometry) -> Pictures {
    let board = geometry.board();
    let ix = table.indexer();
    let men = table.material().men();
    let squares = board.squares();
    let group = ix.symmetries();
    // Per man, side to move: (legal, won) per square, each |G| times too many.
    let empty = || vec![[vec![(0u64, 0u64); squares], vec![(0u64, 0u64); squares]]; men.len()];
    let counts = (0..ix.chunk_count())
        .into_par_iter()
        .fold(empty, |mut acc, chunk| {
            for index in ix.chunk_slots(chunk) {
                let Some(sq) = ix.decode(index) else { continue };
                // Each of the |G| images of the placement counts orbit/|G| placements: over
                // them all, every distinct placement once, after the division below.
                let weight = ix.orbit_size(&sq);
                for c in Color::BOTH {
                    // A table stored once holds White's side alone: the colour swap's image
                    // of this placement, with Black to move, has its value with White to move
                    // (and as many images under the symmetries).
                    let (held, sq) = match table.swap_for(c) {
                        Some(swap) => (Color::White, swap.placement(&sq, men.len())),
                        None => (c, sq),
                    };
                    let Some(v) = table.value_at(index, held) else {
                        continue;
                    };
                    let won = matches!(v, Value::Win(_)) as u64;
                    for &g in group {
                        for (i, &s) in sq[..men.len()].iter().enumerate() {
                            let cell = &mut acc[i][c.index()][board.image(g, s) as usize];
                            cell.0 += weight;
                            cell.1 += weight * won;
                        }
                    }
                }
            }
            acc
        })
        .reduce(empty, |mut a, b| {
            for (x, y) in a.iter_mut().zip(b) {
                for (xs, ys) in x.iter_mut().zip(y) {
                    for (p, q) in xs.iter_mut().zip(ys) {
                        p.0 += q.0;
                        p.1 += q.1;
                    }
                }
            }
            a
        });
    let g = group.len() as u64;
    let heat = |cells: &[(u64, u64)]| Heat {
        legal: cells.iter().map(|c| c.0 / g).collect(),
        won: cells.iter().map(|c| c.1 / g).collect(),
    };
    Pictures {
        files: board.files(),
        ranks: board.ranks(),
        stats: table_stats(table, geometry),
        men: (men.iter().zip(&counts))
            .map(|(m, sides)| ManHeat {
                side: match m.color {
                    Color::White => "white",
                    Color::Black => "black",
                },
                letter: m.letter,
                heat: [heat(&sides[0]), heat(&sides[1])],
            })
            .collect(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::egt::material::Material;
    use crate::egt::progress::Silent;
    use crate::egt::table::Metric;
    use crate::egt::tables::TableSet;
    use crate::piece::PieceSet;

    /// Each man's squares add up to the statistics' legal and won counts, and the heat maps
    /// of a folded table equal those of the same table built without symmetry.
    #[test]
    fn heat_maps_add_up_and_do_not_depend_on_the_folding() {
        let pieces = PieceSet::standard();
        let spec = "KR.KN";
        let mut folded = TableSet::new(pieces.clone(), Metric::Dtm);
        let m = Material::parse(spec, &pieces).unwrap();
        folded.build(&m, &Silent).unwrap();
        let mut plain = TableSet::new(pieces, Metric::Dtm).without_symmetry();
        plain.build(&m, &Silent).unwrap();
        let a = pictures(folded.get(&m).unwrap(), folded.geometry());
        let b = pictures(plain.get(&m).unwrap(), plain.geometry());
        assert_eq!(a.men, b.men);
        for man in &a.men {
            for (heat, side) in man.heat.iter().zip([&a.stats.wtm, &a.stats.btm]) {
                assert_eq!(heat.legal.iter().sum::<u64>(), side.legal);
                assert_eq!(heat.won.iter().sum::<u64>(), side.won);
            }
        }
        assert_eq!((a.files, a.ranks), (8, 8));
    }

    /// A table stored once (KR.KR) gives Black's heat maps from White's side through the
    /// colour swap: they equal those of the same table holding both sides.
    #[test]
    fn heat_maps_of_a_table_stored_once_are_those_of_both_sides() {
        let mut set = TableSet::new(PieceSet::standard(), Metric::Dtm);
        let m = Material::parse("KR.KR", set.pieces()).unwrap();
        set.build(&m, &Silent).unwrap();
        let once = set.get(&m).unwrap();
        assert!(once.is_stored_once());
        let both = set.built_with_both_sides(&m);
        assert_eq!(
            pictures(once, set.geometry()).men,
            pictures(&both, set.geometry()).men
        );
    }
}
