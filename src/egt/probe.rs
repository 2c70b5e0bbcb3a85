//! Probing built tables with checked positions: value, every move with its value, the best
//! move and the principal line.
//!
//! Best move (DESIGN.md §1): winning, the quickest win; losing, the longest resistance;
//! drawn, a move that keeps the draw. Among equally good moves the first in ascending order
//! of (from-square, to-square), a1 = 0 … h8 = 63, is chosen, so runs are reproducible.

use crate::board::{Move, Position};
use crate::egt::index::Squares;
use crate::egt::material::{ManKind, Material, MAX_MEN};
use crate::egt::table::Metric;
use crate::egt::tables::TableSet;
use crate::egt::value::Value;
use thiserror::Error;

/// A position the tables cannot answer for.
#[derive(Debug, Error, Clone, PartialEq, Eq)]
pub enum ProbeError {
    /// The position's material has no built table.
    #[error("no table for {0} has been built")]
    NotBuilt(String),
    /// More men than any table holds.
    #[error("{0} men on the board, tables hold at most {MAX_MEN}")]
    TooManyMen(usize),
    /// The table marks a legal position as one that cannot occur: the table is wrong.
    #[error(
        "internal error: the table of {material} holds no value for the legal position {fen} \
         (a builder bug or corrupt memory; please report it)"
    )]
    NoValue {
        /// The table's endgame.
        material: String,
        /// The position.
        fen: String,
    },
}

/// The material of a position and its men's squares in the material's order.
pub fn material_of(pos: &Position) -> (Material, Squares) {
    let mut men: Vec<(ManKind, u8)> = pos
        .men()
        .iter()
        .map(|m| {
            (
                ManKind {
                    color: m.color,
                    letter: m.letter,
                    royal: m.royal,
                },
                m.square,
            )
        })
        .collect();
    men.sort_by_key(|(k, _)| (!k.royal, k.color, k.letter));
    let mut sq = [0; MAX_MEN];
    for (slot, (_, s)) in sq.iter_mut().zip(&men) {
        *slot = *s;
    }
    (
        Material::from_men(men.into_iter().map(|(k, _)| k).collect()),
        sq,
    )
}

/// A legal move and the value it leaves, for the side that plays it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ScoredMove {
    /// The move.
    pub mv: Move,
    /// Its value for the mover.
    pub value: Value,
}

impl TableSet {
    /// Value of a position for its side to move.
    pub fn probe(&self, pos: &Position) -> Result<Value, ProbeError> {
        if pos.men().len() > MAX_MEN {
            return Err(ProbeError::TooManyMen(pos.men().len()));
        }
        let (material, sq) = material_of(pos);
        let table = self
            .get(&material)
            .ok_or_else(|| ProbeError::NotBuilt(material.name()))?;
        // A checked position is legal, so it has a value.
        table
            .value(&sq, pos.side_to_move())
            .ok_or_else(|| ProbeError::NoValue {
                material: material.name(),
                fen: pos.to_setup().to_fen(),
            })
    }

    /// Every legal move with the value it leaves for the mover, in ascending (from, to)
    /// order. Under DTC a capture that keeps the win is a conversion: a win in 1.
    pub fn scored_moves(&self, pos: &Position) -> Result<Vec<ScoredMove>, ProbeError> {
        pos.legal_moves(self.geometry())
            .into_iter()
            .map(|mv| {
                let after = self.probe(&pos.play(mv))?;
                let value = match (self.metric(), pos.captured(mv), after) {
                    (Metric::Dtc, Some(_), Value::Loss(_)) => Value::Win(1),
                    (Metric::Dtc, Some(_), Value::Win(_)) => Value::Loss(0),
                    (_, _, v) => v.for_mover(),
                };
                Ok(ScoredMove { mv, value })
            })
            .collect()
    }

    /// The best move by the rule in the module doc, `None` if there is no legal move.
    pub fn best_move(&self, pos: &Position) -> Result<Option<ScoredMove>, ProbeError> {
        Ok(best_of(&self.scored_moves(pos)?))
    }

    /// The perfect-play line from a position: best moves until mate or stalemate, through
    /// captures into smaller tables; from a drawn position, only the first drawing move.
    /// At most `limit` moves (plies).
    pub fn principal_line(&self, pos: &Position, limit: usize) -> Result<Vec<Move>, ProbeError> {
        let mut line = Vec::new();
        let mut at = pos.clone();
        while line.len() < limit {
            let Some(best) = self.best_move(&at)? else {
                break;
            };
            line.push(best.mv);
            if best.value == Value::Draw {
                break;
            }
            at = at.play(best.mv);
        }
        Ok(line)
    }
}

/// The best of scored moves: highest `Value::rank`, the first of equals.
pub fn best_of(moves: &[ScoredMove]) -> Option<ScoredMove> {
    moves
        .iter()
        .copied()
        .fold(None, |best: Option<ScoredMove>, m| match best {
            Some(b) if b.value.rank() >= m.value.rank() => Some(b),
            _ => Some(m),
        })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::Setup;
    use crate::egt::progress::Silent;
    use crate::egt::value::ILLEGAL;
    use crate::piece::PieceSet;
    use std::sync::atomic::Ordering;

    #[test]
    fn an_illegal_byte_for_a_legal_position_is_an_internal_error() {
        let mut set = TableSet::new(PieceSet::standard(), Metric::Dtm);
        let kq = Material::parse("KQ.K", set.pieces()).unwrap();
        set.build(&kq, &Silent).unwrap();
        let fen = "k7/8/1K6/8/8/8/2Q5/8 w - - 0 1";
        let setup = Setup::from_fen(fen).unwrap();
        let pos = crate::engine::game::check(&setup, set.geometry(), kq.royals()).unwrap();
        assert_eq!(set.probe(&pos), Ok(Value::Win(1)));
        let (_, sq) = material_of(&pos);
        let table = set.get(&kq).unwrap();
        let index = table.indexer().index(&sq).unwrap();
        table.data[pos.side_to_move().index()][index as usize].store(ILLEGAL, Ordering::Relaxed);
        let e = set.probe(&pos).unwrap_err();
        assert_eq!(
            e,
            ProbeError::NoValue {
                material: "KQ.K".to_string(),
                fen: fen.to_string()
            }
        );
        assert!(e
            .to_string()
            .starts_with("internal error: the table of KQ.K"));
    }
}
