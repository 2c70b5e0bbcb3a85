//! What a probe answers: the errors of probing a position, a move scored with the value it
//! leaves, and the rule that picks the best of them. The probing itself (a position's value,
//! its scored moves and best move) is done by `TableSet` (`tables/probing.rs`); the perfect
//! line, which stops where the game is over by the rules, is the engine's (`engine/think.rs`).
//!
//! Best move (DESIGN.md §1): winning, the quickest win; losing, the longest resistance;
//! drawn, a move that keeps the draw. Among equally good moves the first in ascending order
//! of (from-square, to-square), a1 = 0 … h8 = 63, is chosen, so runs are reproducible.

use crate::board::Move;
use crate::egt::material::MAX_MEN;
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

/// A legal move and the value it leaves, for the side that plays it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ScoredMove {
    /// The move.
    pub mv: Move,
    /// Its value for the mover.
    pub value: Value,
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
