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
    let (index, distance) = (0..ix.size())
        .into_par_iter()
        .filter_map(|i| match table.value_at(i, side) {
            Some(Value::Win(d)) => Some((i, d)),
            _ => None,
        })
        .reduce_with(|a, b| {
            if (b.1, std::cmp::Reverse(b.0)) > (a.1, std::cmp::Reverse(a.0)) {
                b
            } else {
                a
            }
        })?;
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
}
