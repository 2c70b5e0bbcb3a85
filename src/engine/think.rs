//! The engine's "search": the tables' value of a position, its perfect line, and the game-end
//! verdicts the engine may claim, under the tables' rules.
//!
//! Neither protocol can express a pass, so the engine never passes: under a null-move rule
//! that lets the side to move pass, the value shown is that of its best real move (what the
//! move it plays achieves), not the position's, which may count on a pass.

use super::command::{GameEnd, Thinking};
use crate::board::{Move, Position};
use crate::egt::probe::{best_of, ProbeError, ScoredMove};
use crate::egt::tables::TableSet;
use crate::egt::value::Value;
use std::time::Instant;

/// Longest line shown, in plies (the longest known pawnless mate, KRN.KNN's 262 moves, is
/// 523 plies).
const PV_LIMIT: usize = 600;

/// The perfect line from a position, found in one walk: at each position, whether the game
/// is over and, if not, every move scored and the best one played.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Line {
    /// The best moves, each with the value it leaves for its mover: until the game is over
    /// by the rules (a bared royal, mate, stalemate, bare royals), through captures into
    /// smaller tables; from a drawn position, only the first drawing move.
    pub moves: Vec<ScoredMove>,
    /// How the game stands over at the end of the line, if it does.
    pub end: Option<GameEnd>,
    /// Moves scored on the way: each is one table probe.
    pub nodes: u64,
}

impl Line {
    /// The moves alone, as a principal variation.
    pub fn pv(&self) -> Vec<Move> {
        self.moves.iter().map(|m| m.mv).collect()
    }

    /// How the game stands over in the first position, if it does (the line is then empty).
    pub fn end_at_start(&self) -> Option<GameEnd> {
        self.end.filter(|_| self.moves.is_empty())
    }

    /// How the game stands over once the first move is played, if it does.
    pub fn end_after_first(&self) -> Option<GameEnd> {
        self.end.filter(|_| self.moves.len() == 1)
    }
}

/// Walks the perfect line from `pos`, at most `limit` plies: the game's end is looked at once
/// per position and the moves scored once per position the line passes through.
pub fn line(tables: &TableSet, pos: &Position, limit: usize) -> Result<Line, ProbeError> {
    let mut at = pos.clone();
    let mut line = Line {
        moves: Vec::new(),
        end: game_end(tables, &at),
        nodes: 0,
    };
    while line.end.is_none() && line.moves.len() < limit {
        let scored = tables.scored_moves(&at)?;
        line.nodes += scored.len() as u64;
        let Some(best) = best_of(&scored) else {
            break;
        };
        line.moves.push(best);
        at = at.play(best.mv);
        line.end = game_end(tables, &at);
        if best.value == Value::Draw {
            break;
        }
    }
    Ok(line)
}

/// The value and perfect line of a position whose tables are built (`started`: when the
/// engine was asked), and how the game stands over after the line's first move, if it does.
pub fn think(
    tables: &TableSet,
    pos: &Position,
    started: Instant,
) -> Result<(Thinking, Option<GameEnd>), ProbeError> {
    let line = line(tables, pos, PV_LIMIT)?;
    let may_pass =
        tables.rules().null_move.allows(pos.side_to_move()) && !pos.in_check(tables.geometry());
    // Where the game is over the line has no first move, but a side that may pass still has
    // its real moves' value.
    let first = match line.moves.first() {
        None if may_pass && line.end.is_some() => best_of(&tables.scored_moves(pos)?),
        first => first.copied(),
    };
    let value = match (may_pass, first) {
        (true, Some(best)) => best.value,
        _ => tables.probe(pos)?,
    };
    let thinking = Thinking {
        value,
        metric: tables.metric(),
        pv: line.pv(),
        end: line.end_at_start(),
        nodes: line.nodes,
        centis: (started.elapsed().as_millis() / 10) as u64,
    };
    Ok((thinking, line.end_after_first()))
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
