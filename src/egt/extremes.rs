//! Extreme positions of a built table: a position of its longest win, for showing the engine
//! play (`fairy-egt play`) and for tests that need a long, known game.

use crate::board::{Color, Position, Setup};
use crate::egt::material::Material;
use crate::egt::tables::TableSet;
use crate::egt::value::Value;
use rayon::prelude::*;

/// A position of `material` with `side` to move that is won for `side` in the most moves of
/// the table, with that distance; `None` if the table is not built or has no such win. Among
/// positions of equal distance the one of the smallest table index is chosen, so the answer is
/// reproducible.
pub fn longest_win(tables: &TableSet, material: &Material, side: Color) -> Option<(Position, u16)> {
    let table = tables.get(material)?;
    let ix = table.indexer();
    // A table stored once holds White's side alone: Black's wins are the colour swap's images
    // of White's, and the smallest of their indexes is chosen among them.
    let swapped = table.swap_for(side).is_some();
    let held = if swapped { Color::White } else { side };
    let wins = |i: u64| match table.value_at(i, held) {
        Some(Value::Win(d)) => Some((i, d)),
        _ => None,
    };
    let (mut index, distance) = (0..ix.size())
        .into_par_iter()
        .filter_map(wins)
        .reduce_with(|a, b| {
            if (b.1, std::cmp::Reverse(b.0)) > (a.1, std::cmp::Reverse(a.0)) {
                b
            } else {
                a
            }
        })?;
    if swapped {
        index = (0..ix.size())
            .into_par_iter()
            .filter(|&i| wins(i).is_some_and(|(_, d)| d == distance))
            .filter_map(|i| ix.image_slot(i))
            .min()?;
    }
    let squares = ix.decode(index)?;
    let mut setup = Setup::empty(tables.geometry().board(), side);
    for (man, &sq) in material.men().iter().zip(&squares) {
        setup.board[sq as usize] = Some((man.color, man.letter));
    }
    let pos = Position::new(&setup, tables.geometry(), material.royals()).ok()?;
    Some((pos, distance))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::egt::progress::Silent;
    use crate::egt::table::Metric;
    use crate::piece::PieceSet;

    #[test]
    fn kqk_longest_win_is_ten() {
        let mut set = TableSet::new(PieceSet::standard(), Metric::Dtm);
        let kq = Material::parse("KQ.K", set.pieces()).unwrap();
        set.build(&kq, &Silent).unwrap();
        let (pos, d) = longest_win(&set, &kq, Color::White).unwrap();
        assert_eq!(d, 10);
        assert_eq!(set.probe(&pos), Ok(Value::Win(10)));
        // The bare king never wins.
        assert!(longest_win(&set, &kq, Color::Black).is_none());
    }

    /// In a table stored once (KQ.KQ), Black's longest win is found through the colour swap,
    /// at the smallest index of Black's side as a table holding it would have it.
    #[test]
    fn a_table_stored_once_gives_blacks_longest_win_at_its_own_index() {
        let mut set = TableSet::new(PieceSet::standard(), Metric::Dtm);
        let kqkq = Material::parse("KQ.KQ", set.pieces()).unwrap();
        set.build(&kqkq, &Silent).unwrap();
        let table = set.get(&kqkq).unwrap();
        assert!(table.is_stored_once());
        let ix = table.indexer();
        let wins = (0..ix.size()).filter_map(|i| match table.value_at(i, Color::Black) {
            Some(Value::Win(d)) => Some((d, std::cmp::Reverse(i))),
            _ => None,
        });
        let (d, std::cmp::Reverse(i)) = wins.max().unwrap();
        let (pos, distance) = longest_win(&set, &kqkq, Color::Black).unwrap();
        assert_eq!(distance, d);
        assert_eq!(pos.side_to_move(), Color::Black);
        assert_eq!(set.probe(&pos), Ok(Value::Win(d)));
        // The position of that index, not another of the same distance.
        let setup = pos.to_setup();
        for (man, &sq) in kqkq.men().iter().zip(&ix.decode(i).unwrap()) {
            assert_eq!(setup.board[sq as usize], Some((man.color, man.letter)));
        }
    }
}
