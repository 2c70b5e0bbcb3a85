//! The engine's "search": the tables' value of a position, its perfect line, and the game-end
//! verdicts the engine may claim, under the tables' rules.
//!
//! Neither protocol can express a pass, so the engine never passes: under a null-move rule
//! that lets the side to move pass, the value shown is that of its best real move (what the
//! move it plays achieves), not the position's, which may count on a pass.

use super::command::{GameEnd, Thinking};
use crate::board::{Move, Position};
use crate::egt::probe::{best_of, ProbeError};
use crate::egt::tables::TableSet;
use crate::egt::value::Value;
use std::time::Instant;

/// Longest line shown, in plies (the longest known pawnless mate, KRN.KNN's 262 moves, is
/// 523 plies).
const PV_LIMIT: usize = 600;

/// The value and perfect line of a position whose tables are built; `started` is when the
/// engine was asked.
pub fn think(tables: &TableSet, pos: &Position, started: Instant) -> Result<Thinking, ProbeError> {
    let g = tables.geometry();
    let may_pass = tables.rules().null_move.allows(pos.side_to_move()) && !pos.in_check(g);
    let value = match may_pass {
        true => match best_of(&tables.scored_moves(pos)?) {
            Some(best) => best.value,
            None => tables.probe(pos)?,
        },
        false => tables.probe(pos)?,
    };
    let pv = line(tables, pos, PV_LIMIT)?;
    // The line probed every successor of each position it passed through.
    let (nodes, _) = pv.iter().fold((0u64, pos.clone()), |(n, p), &mv| {
        (n + p.legal_moves(g).len() as u64, p.play(mv))
    });
    Ok(Thinking {
        value,
        metric: tables.metric(),
        pv,
        end: game_end(tables, pos),
        nodes,
        centis: (started.elapsed().as_millis() / 10) as u64,
    })
}

/// The perfect line of real moves from a position (at most `limit` plies), cut where the
/// game is over by the rules (a bared royal, mate, stalemate).
pub fn line(tables: &TableSet, pos: &Position, limit: usize) -> Result<Vec<Move>, ProbeError> {
    let mut pv = tables.principal_line(pos, limit)?;
    let mut at = pos.clone();
    for (i, &mv) in pv.iter().enumerate() {
        if game_end(tables, &at).is_some() {
            pv.truncate(i);
            break;
        }
        at = at.play(mv);
    }
    Ok(pv)
}

/// How the game stands over, if it does: a royal bared under the bare-royal-loses rule, no
/// legal move (mate, or stalemate: a draw, or a win for the stalemating side under the
/// stalemate-wins rule), or only the two royals left in a position the tables call a draw.
pub fn game_end(tables: &TableSet, pos: &Position) -> Option<GameEnd> {
    let g = tables.geometry();
    let rules = tables.rules();
    let stm = pos.side_to_move();
    let count = |c| pos.men().iter().filter(|m| m.color == c).count();
    if rules.bare_royal_loses && count(stm) == 1 && count(stm.flip()) > 1 {
        return Some(GameEnd::Bared { winner: stm.flip() });
    }
    if pos.legal_moves(g).is_empty() {
        return Some(if pos.in_check(g) {
            GameEnd::Mate { winner: stm.flip() }
        } else if rules.stalemate_wins {
            GameEnd::StalemateWin { winner: stm.flip() }
        } else {
            GameEnd::Stalemate
        });
    }
    (pos.men().len() == 2 && tables.probe(pos) == Ok(Value::Draw)).then_some(GameEnd::BareRoyals)
}
