//! The answer for one position, shaped as the Lichess tablebase API's (`GET /standard?fen=`):
//! the position's `category` and distances, and every legal move with the category and
//! distances of the position it leaves, best first. Scripts written for Lichess's tablebase
//! read it; fields Lichess does not have (`fen`, `endgame`, `line`, a move's `fen`) are
//! extra.

use crate::board::{Move, Position};
use crate::egt::dtz::{Class, Rule};
use crate::egt::material::material_of;
use crate::egt::probe::ProbeError;
use crate::egt::table::Metric;
use crate::egt::tables::TableSet;
use crate::egt::value::Value;
use crate::engine::think::{line, Judge};
use serde::Serialize;

/// A position's value as Lichess's tablebase API gives it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Summary {
    /// `win`, `cursed-win`, `draw`, `blessed-loss` or `loss`, for the side to move (the
    /// cursed and blessed ones only where the 50-move rule's tables are built).
    pub category: &'static str,
    /// Plies to mate with best play, positive when the side to move wins, negative when it
    /// loses (0: checkmated), `null` in a draw or when the tables count another metric.
    pub dtm: Option<i32>,
    /// Plies to a conversion (capture or promotion) that keeps the win, signed as `dtm`,
    /// where the tables count DTC.
    pub dtc: Option<i32>,
    /// Plies to the next capture or pawn move under the 50-move rule, signed as `dtm`
    /// (0 in a draw), where its tables are built.
    pub dtz: Option<i32>,
    /// `dtz`: this program's is never rounded.
    pub precise_dtz: Option<i32>,
    /// The side to move is checkmated.
    pub checkmate: bool,
    /// The side to move has no legal move and is not in check.
    pub stalemate: bool,
    /// Always false (Lichess's atomic and antichess field).
    pub variant_win: bool,
    /// Always false.
    pub variant_loss: bool,
    /// Always false: the tables say when material cannot win.
    pub insufficient_material: bool,
}

/// One legal move and what it leaves the opponent.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct MoveAnswer {
    /// The move in coordinates (`e7e8q`, `j7j8c`).
    pub uci: String,
    /// The move as Lichess's `san` field carries it; here the coordinates again (this
    /// program writes no algebraic notation).
    pub san: String,
    /// The move captures or moves a pawn (resets the 50-move count).
    pub zeroing: bool,
    /// The position after the move, from the opponent's side (its `category` is `loss`
    /// when the move wins).
    #[serde(flatten)]
    pub after: Summary,
    /// The FEN after the move.
    pub fen: String,
}

/// The answer for a position.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Answer {
    /// The position's FEN, as this program writes it.
    pub fen: String,
    /// Its endgame (`KQ.KR`).
    pub endgame: String,
    /// Its value.
    #[serde(flatten)]
    pub summary: Summary,
    /// Every legal move, best first as the engine plays (at a zero half-move clock).
    pub moves: Vec<MoveAnswer>,
    /// The perfect line from the position, in coordinates, to mate (or the first drawing
    /// move), as the engine plays it from a zero half-move clock.
    pub line: Vec<String>,
}

/// Longest line given, in plies.
const LINE_LIMIT: usize = 600;

/// The answer for `pos`, whose tables (and those its moves lead into) are built in `tables`.
pub fn answer(tables: &TableSet, pos: &Position) -> Result<Answer, ProbeError> {
    let rule = rule_play(tables).map_or(Rule::NONE, |(_, rule)| rule);
    let judge = Judge { tables, rule };
    let moves = (judge.ranked(pos, 0)?.into_iter())
        .map(|scored| move_answer(tables, pos, scored.mv))
        .collect::<Result<_, _>>()?;
    let line = line(&judge, pos, 0, LINE_LIMIT)?;
    Ok(Answer {
        fen: pos.to_setup().to_fen(),
        endgame: material_of(pos).0.name(),
        summary: summary(tables, pos)?,
        moves,
        line: line.moves.iter().map(|m| m.mv.text()).collect(),
    })
}

fn move_answer(tables: &TableSet, pos: &Position, mv: Move) -> Result<MoveAnswer, ProbeError> {
    let after = pos.play(mv);
    Ok(MoveAnswer {
        uci: mv.text(),
        san: mv.text(),
        zeroing: pos.zeroes(mv),
        after: summary(tables, &after)?,
        fen: after.to_setup().to_fen(),
    })
}

/// The value of `pos` for its side to move.
fn summary(tables: &TableSet, pos: &Position) -> Result<Summary, ProbeError> {
    let geometry = tables.geometry();
    let stuck = pos.legal_moves(geometry).is_empty();
    let in_check = pos.in_check(geometry);
    let value = tables.probe(pos)?;
    let dtz = match rule_play(tables) {
        Some((dtz, rule)) => Some((dtz.probe(pos)?, rule)),
        None => None,
    };
    let class = match dtz {
        Some((v, rule)) => rule.class(v),
        None => Rule::NONE.class(value),
    };
    let (dtm, dtc) = match tables.metric() {
        Metric::Dtm => (plies(value), None),
        Metric::Dtc => (None, plies(value)),
        Metric::Dtz(_) => (None, None),
    };
    let dtz = dtz.map(|(v, _)| match v {
        Value::Win(p) => i32::from(p),
        Value::Loss(p) => -i32::from(p),
        Value::Draw => 0,
    });
    Ok(Summary {
        category: category(class),
        dtm,
        dtc,
        dtz,
        precise_dtz: dtz,
        checkmate: stuck && in_check,
        stalemate: stuck && !in_check,
        variant_win: false,
        variant_loss: false,
        insufficient_material: false,
    })
}

/// The 50-move rule's DTZ tables and their rule, where they are built.
fn rule_play(tables: &TableSet) -> Option<(&TableSet, Rule)> {
    let dtz = tables.rule_tables()?;
    match dtz.metric() {
        Metric::Dtz(rule) => Some((dtz, rule)),
        Metric::Dtm | Metric::Dtc => None,
    }
}

/// A value in moves (DTM, DTC) as signed plies: a win in n moves is 2n − 1 plies away, a loss
/// in n, 2n (the mover's n-th move mates, or the opponent's).
fn plies(v: Value) -> Option<i32> {
    match v {
        Value::Win(n) => Some(2 * i32::from(n) - 1),
        Value::Loss(n) => Some(-2 * i32::from(n)),
        Value::Draw => None,
    }
}

/// Lichess's name of a class.
fn category(class: Class) -> &'static str {
    match class {
        Class::Win => "win",
        Class::CursedWin => "cursed-win",
        Class::Draw => "draw",
        Class::BlessedLoss => "blessed-loss",
        Class::Loss => "loss",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn moves_count_as_lichess_plies() {
        assert_eq!(plies(Value::Win(1)), Some(1));
        assert_eq!(plies(Value::Loss(0)), Some(0));
        assert_eq!(plies(Value::Loss(3)), Some(-6));
        assert_eq!(plies(Value::Draw), None);
    }
}
