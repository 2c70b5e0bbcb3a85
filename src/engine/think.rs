//! The engine's "search": the tables' value of a position, its perfect line, and the game-end
//! verdicts the engine may claim.

use super::command::{GameEnd, Thinking};
use crate::board::Position;
use crate::egt::probe::ProbeError;
use crate::egt::tables::TableSet;
use crate::egt::value::Value;
use std::time::Instant;

/// Longest line shown, in plies (longer than any line a one-byte table holds, captures
/// included).
const PV_LIMIT: usize = 600;

/// The value and perfect line of a position whose tables are built; `started` is when the
/// engine was asked.
pub fn think(tables: &TableSet, pos: &Position, started: Instant) -> Result<Thinking, ProbeError> {
    let value = tables.probe(pos)?;
    let pv = tables.principal_line(pos, PV_LIMIT)?;
    // The line probed every successor of each position it passed through.
    let g = tables.geometry();
    let (nodes, _) = pv.iter().fold((0u64, pos.clone()), |(n, p), &mv| {
        (n + p.legal_moves(g).len() as u64, p.play(mv))
    });
    Ok(Thinking {
        value,
        metric: tables.metric(),
        pv,
        nodes,
        centis: (started.elapsed().as_millis() / 10) as u64,
    })
}

/// How the game stands over, if it does: no legal move (mate or stalemate), or only the two
/// royals left in a position the tables call a draw.
pub fn game_end(tables: &TableSet, pos: &Position) -> Option<GameEnd> {
    let g = tables.geometry();
    if pos.legal_moves(g).is_empty() {
        return Some(if pos.in_check(g) {
            GameEnd::Mate {
                winner: pos.side_to_move().flip(),
            }
        } else {
            GameEnd::Stalemate
        });
    }
    (pos.men().len() == 2 && tables.probe(pos) == Ok(Value::Draw)).then_some(GameEnd::BareRoyals)
}
