//! Probing checked positions: a position's value, every legal move with the value it leaves,
//! and the best move by the rule of `egt::probe`.

use super::TableSet;
use crate::board::{EnPassant, Move, Position};
use crate::egt::material::{material_of, MAX_MEN};
use crate::egt::probe::{best_of, ProbeError, ScoredMove};
use crate::egt::table::Metric;
use crate::egt::value::{with_en_passant, Value};

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
        let without = table
            .value(&sq, pos.side_to_move())
            .ok_or_else(|| ProbeError::NoValue {
                material: material.name(),
                fen: pos.to_setup().to_fen(),
            })?;
        match pos.en_passant() {
            Some(ep) => {
                // Passing (where the rules allow it) leaves the placement to the other side.
                let passed = table.value(&sq, pos.side_to_move().flip());
                self.with_en_passant(pos, ep, without, passed)
            }
            None => Ok(without),
        }
    }

    /// The value of a position with an en-passant right, whose placement the table holds
    /// without it (worth `without`; with the other side to move, `passed`), by
    /// `value::with_en_passant`, as the builder values a double step.
    fn with_en_passant(
        &self,
        pos: &Position,
        ep: EnPassant,
        without: Value,
        passed: Option<Value>,
    ) -> Result<Value, ProbeError> {
        let moves = pos.legal_moves(self.geometry());
        let takes = |mv: &Move| mv.to == ep.square && pos.captured(*mv).is_some();
        let captures = (moves.iter().filter(|mv| takes(mv)))
            .map(|&mv| self.scored(pos, mv))
            .collect::<Result<Vec<Value>, ProbeError>>()?;
        let best = captures.into_iter().max_by_key(|v| v.rank());
        let stm = pos.side_to_move();
        let pass = || {
            let may = self.rules().null_move.allows(stm) && !pos.in_check(self.geometry());
            let metric = self.metric();
            passed.filter(|_| may).map(|v| metric.for_mover(v, false))
        };
        Ok(with_en_passant(
            best,
            without,
            || !moves.iter().all(takes),
            pass,
        ))
    }

    /// Every legal move with the value it leaves for the mover, in ascending (from, to,
    /// promotion) order. Under DTC a capture or promotion that keeps the win is a
    /// conversion: a win in 1. Under DTZ a capture or pawn's move zeroes (`dtz::Rule::zeroing`),
    /// and every move counts a ply.
    pub fn scored_moves(&self, pos: &Position) -> Result<Vec<ScoredMove>, ProbeError> {
        pos.legal_moves(self.geometry())
            .into_iter()
            .map(|mv| {
                Ok(ScoredMove {
                    mv,
                    value: self.scored(pos, mv)?,
                })
            })
            .collect()
    }

    /// The value legal move `mv` leaves for the mover.
    fn scored(&self, pos: &Position, mv: Move) -> Result<Value, ProbeError> {
        let after = self.probe(&pos.play(mv))?;
        let metric = self.metric();
        let resets = match metric {
            Metric::Dtz(_) => pos.zeroes(mv),
            Metric::Dtm | Metric::Dtc => pos.converts(mv),
        };
        Ok(metric.for_mover(after, resets))
    }

    /// The best move by the rule in `probe`'s module doc, `None` if there is no legal move.
    pub fn best_move(&self, pos: &Position) -> Result<Option<ScoredMove>, ProbeError> {
        Ok(best_of(&self.scored_moves(pos)?))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::{BoardSize, Setup};
    use crate::egt::material::Material;
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
        let setup = Setup::from_fen(fen, BoardSize::STANDARD).unwrap();
        let pos = crate::board::Position::new(&setup, set.geometry(), kq.royals()).unwrap();
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
