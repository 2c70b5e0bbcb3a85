//! The engine's "search": the tables' value of a position, its perfect line, and the game-end
//! verdicts the engine may claim, under the tables' rules and the 50-move rule (see
//! [`Judge`]).
//!
//! Neither protocol can express a pass, so the engine never passes: under a null-move rule
//! that lets the side to move pass, the value shown is that of its best real move (what the
//! move it plays achieves), not the position's, which may count on a pass.

use super::command::{GameEnd, Thinking};
use crate::board::{Move, Position};
use crate::egt::dtz::{Class, Rule};
use crate::egt::material::material_of;
use crate::egt::probe::{best_of, ProbeError, ScoredMove};
use crate::egt::table::Metric;
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

/// What the engine plays by: its tables, and the draw rule that counts the half-move clock.
///
/// Where the tables have DTZ tables for the rule ([`TableSet::rule_tables`]: the set's own
/// under DTZ, or the twin built beside it), the engine plays *within the rule*: each move is
/// classed by the DTZ value it leaves and the clock ([`Rule::class_at`]), and the best class
/// is played, a win that still comes within the rule before a cursed one, a blessed loss
/// before a real one. Within a class of real wins and losses the tables' metric chooses (the
/// quickest mate under DTM, as far as the rule allows), within cursed wins and blessed losses
/// the DTZ value (the quickest zeroing, the longest). Elsewhere (no rule, or no DTZ table of
/// the position's material) the metric alone chooses. Once the clock reaches the rule's plies
/// the game is drawn ([`GameEnd::RuleDraw`]).
#[derive(Clone, Copy)]
pub struct Judge<'a> {
    /// The tables of the engine's metric (and their DTZ twin, if any).
    pub tables: &'a TableSet,
    /// The draw rule in force ([`Rule::NONE`]: none).
    pub rule: Rule,
}

/// A legal move, the value it leaves its mover by the metric and, where the engine plays
/// within the rule, its class from the clock after it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Choice {
    scored: ScoredMove,
    /// The class and the DTZ value the move leaves its mover.
    rule: Option<(Class, Value)>,
}

impl Choice {
    /// A key that orders moves from worst to best (see [`Judge`]).
    fn key(&self) -> (Class, (u8, i32)) {
        match self.rule {
            None => (Class::Draw, self.scored.value.rank()),
            Some((class @ (Class::Win | Class::Loss), _)) => (class, self.scored.value.rank()),
            Some((class @ (Class::CursedWin | Class::BlessedLoss), dtz)) => (class, dtz.rank()),
            Some((Class::Draw, _)) => (Class::Draw, (0, 0)),
        }
    }
}

/// The best of the moves: highest key, the first of equals.
fn best(moves: &[Choice]) -> Option<Choice> {
    moves.iter().copied().fold(None, |best, m| match best {
        Some(b) if b.key() >= m.key() => Some(b),
        _ => Some(m),
    })
}

impl<'a> Judge<'a> {
    /// Play by the tables' metric alone, with no clock (the command line's lines).
    pub fn by_metric(tables: &'a TableSet) -> Judge<'a> {
        Judge {
            tables,
            rule: Rule::NONE,
        }
    }

    /// The DTZ tables and their rule, where the engine plays `pos` within the rule.
    fn within_rule(&self, pos: &Position) -> Option<(&'a TableSet, Rule)> {
        let dtz = self.tables.rule_tables()?;
        let Metric::Dtz(rule) = dtz.metric() else {
            return None;
        };
        let built = dtz.playable(&material_of(pos).0);
        (self.rule.plies() > 0 && built).then_some((dtz, rule))
    }

    /// The class of `pos` at half-move clock `clock`, where the engine plays it within the
    /// rule.
    pub fn class(&self, pos: &Position, clock: u32) -> Result<Option<Class>, ProbeError> {
        match self.within_rule(pos) {
            Some((dtz, rule)) => Ok(Some(rule.class_at(dtz.probe(pos)?, clock))),
            None => Ok(None),
        }
    }

    /// Every legal move of `pos` (half-move clock `clock`) as the engine weighs it.
    fn choices(&self, pos: &Position, clock: u32) -> Result<Vec<Choice>, ProbeError> {
        let scored = self.tables.scored_moves(pos)?;
        let Some((dtz, rule)) = self.within_rule(pos) else {
            return Ok(scored
                .into_iter()
                .map(|scored| Choice { scored, rule: None })
                .collect());
        };
        // Under DTZ the set is its own rule tables: its values are scored once.
        let zeroing = if std::ptr::eq(dtz, self.tables) {
            scored.clone()
        } else {
            dtz.scored_moves(pos)?
        };
        Ok((scored.into_iter().zip(zeroing))
            .map(|(scored, z)| {
                debug_assert_eq!(scored.mv, z.mv, "both tables list the moves in one order");
                Choice {
                    scored,
                    rule: Some((rule.class_at(z.value, clock), z.value)),
                }
            })
            .collect())
    }

    /// Every legal move of `pos` (half-move clock `clock`) with the value it leaves by the
    /// metric, best first as the engine weighs them; equally good moves keep ascending
    /// (from, to) order, the first of them being the one the engine plays.
    pub fn ranked(&self, pos: &Position, clock: u32) -> Result<Vec<ScoredMove>, ProbeError> {
        let mut choices = self.choices(pos, clock)?;
        choices.sort_by_key(|c| std::cmp::Reverse(c.key()));
        Ok(choices.into_iter().map(|c| c.scored).collect())
    }

    /// How the game stands over in `pos` at half-move clock `clock`, if it does: as by
    /// [`game_end`], or drawn by the rule once the clock reaches its plies (a mate on that
    /// ply stands).
    pub fn game_end(&self, pos: &Position, clock: u32) -> Option<GameEnd> {
        let end = game_end(self.tables, pos);
        let plies = self.rule.plies();
        match end {
            None if plies > 0 && clock >= u32::from(plies) => Some(GameEnd::RuleDraw {
                moves: self.rule.move_count(),
            }),
            end => end,
        }
    }
}

/// Walks the perfect line from `pos` (half-move clock `clock`), at most `limit` plies: the
/// game's end is looked at once per position and the moves weighed once per position the
/// line passes through.
pub fn line(judge: &Judge, pos: &Position, clock: u32, limit: usize) -> Result<Line, ProbeError> {
    let mut at = (pos.clone(), clock);
    let mut line = Line {
        moves: Vec::new(),
        end: judge.game_end(pos, clock),
        nodes: 0,
    };
    while line.end.is_none() && line.moves.len() < limit {
        let choices = match judge.choices(&at.0, at.1) {
            Ok(choices) => choices,
            // A build that dropped its deeper tables (to fit its budget) keeps only those the
            // first moves need: the line stops where they end.
            Err(ProbeError::NotBuilt(_)) if !line.moves.is_empty() => break,
            Err(e) => return Err(e),
        };
        line.nodes += choices.len() as u64;
        let Some(best) = best(&choices) else {
            break;
        };
        line.moves.push(best.scored);
        let zeroes = at.0.zeroes(best.scored.mv);
        at = (at.0.play(best.scored.mv), if zeroes { 0 } else { at.1 + 1 });
        line.end = judge.game_end(&at.0, at.1);
        if best.scored.value == Value::Draw {
            break;
        }
    }
    Ok(line)
}

/// The value and perfect line of a position whose tables are built, at half-move clock
/// `clock` (`started`: when the engine was asked), and how the game stands over after the
/// line's first move, if it does. Within the rule, a DTM value is the mate of the line, which
/// the rule may put later than the table's.
pub fn think(
    judge: &Judge,
    pos: &Position,
    clock: u32,
    started: Instant,
) -> Result<(Thinking, Option<GameEnd>), ProbeError> {
    let tables = judge.tables;
    let line = line(judge, pos, clock, PV_LIMIT)?;
    let may_pass =
        tables.rules().null_move.allows(pos.side_to_move()) && !pos.in_check(tables.geometry());
    // Where the game is over the line has no first move, but a side that may pass still has
    // its real moves' value.
    let first = match line.moves.first() {
        None if may_pass && line.end.is_some() => best_of(&tables.scored_moves(pos)?),
        first => first.copied(),
    };
    let rule = judge.class(pos, clock)?;
    // Probed even where the line gives the value: a table that has none is reported.
    let probed = tables.probe(pos)?;
    let value = match (may_pass, first, rule, line.end) {
        (true, Some(best), ..) => best.value,
        // Within the rule a mate may come later than the table's: the line says when.
        (_, _, Some(Class::Win | Class::Loss), Some(GameEnd::Mate { winner }))
            if tables.metric() == Metric::Dtm =>
        {
            let plies = line.moves.len() as u16;
            if winner == pos.side_to_move() {
                Value::Win(plies.div_ceil(2))
            } else {
                Value::Loss(plies / 2)
            }
        }
        _ => probed,
    };
    let thinking = Thinking {
        value,
        metric: tables.metric(),
        rule,
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::Setup;
    use crate::egt::material::Material;
    use crate::egt::progress::Silent;
    use crate::piece::PieceSet;

    /// KQ.KR with DTM tables and their DTZ twin for the 50-move rule.
    fn kqkr() -> TableSet {
        let mut tables =
            TableSet::new(PieceSet::standard(), Metric::Dtm).with_rule_play(Rule::FIFTY_MOVES);
        let m = Material::parse("KQ.KR", tables.pieces()).unwrap();
        tables.build(&m, &Silent).unwrap();
        tables
    }

    fn position(tables: &TableSet, fen: &str) -> Position {
        let setup = Setup::from_fen(fen, tables.geometry().board()).unwrap();
        Position::new(&setup, tables.geometry(), ['K', 'K']).unwrap()
    }

    /// The clock of every position of a line from `clock`, the last one's included.
    fn clocks(pos: &Position, clock: u32, line: &Line) -> Vec<u32> {
        let (mut at, mut clocks) = (pos.clone(), vec![clock]);
        for m in &line.moves {
            let last = *clocks.last().unwrap();
            clocks.push(if at.zeroes(m.mv) { 0 } else { last + 1 });
            at = at.play(m.mv);
        }
        clocks
    }

    /// White mates in 33 moves (65 plies) and zeroes in 55 plies at best: from a clock of 45
    /// the win comes within the rule, and the perfect line (both sides playing within the
    /// rule) mates with the clock never at 100; from 46 the rule saves Black, and the line
    /// ends in the rule's draw. Played by DTM alone, the line from 45 would not zero in time:
    /// the DTZ twin is what keeps the win.
    #[test]
    fn within_the_rule_the_engine_wins_what_the_clock_allows_and_no_more() {
        let tables = kqkr();
        let pos = position(&tables, "8/3r4/8/8/8/2k5/8/KQ6 w - - 0 1");
        let judge = Judge {
            tables: &tables,
            rule: Rule::FIFTY_MOVES,
        };
        assert_eq!(judge.class(&pos, 45), Ok(Some(Class::Win)));
        assert_eq!(judge.class(&pos, 46), Ok(Some(Class::CursedWin)));
        let won = line(&judge, &pos, 45, PV_LIMIT).unwrap();
        assert_eq!(
            won.end,
            Some(GameEnd::Mate {
                winner: crate::board::Color::White
            })
        );
        assert!(clocks(&pos, 45, &won).iter().all(|&c| c < 100));
        let drawn = line(&judge, &pos, 46, PV_LIMIT).unwrap();
        assert_eq!(drawn.end, Some(GameEnd::RuleDraw { moves: 50 }));
        assert_eq!(clocks(&pos, 46, &drawn).last(), Some(&100));
        // By DTM alone the mate in 33 is played; the clock from 45 would reach 100 first.
        let blind = Judge {
            tables: &tables,
            rule: Rule::NONE,
        };
        let fastest = line(&blind, &pos, 45, PV_LIMIT).unwrap();
        assert_eq!(fastest.moves.len(), 65);
        assert!(clocks(&pos, 45, &fastest).contains(&100));
        // Along the line the move ranked first (the hint) is the one played; DTM alone would
        // rank another first somewhere.
        let (mut at, mut differ) = (pos.clone(), 0);
        for (m, clock) in won.moves.iter().zip(clocks(&pos, 45, &won)) {
            assert_eq!(judge.ranked(&at, clock).unwrap()[0], *m);
            differ += usize::from(blind.ranked(&at, clock).unwrap()[0].mv != m.mv);
            at = at.play(m.mv);
        }
        assert!(differ > 0);
        // Within the rule the mate takes a move longer, and the engine says so.
        assert_eq!(won.moves.len(), 67);
        let started = Instant::now();
        let (t, _) = think(&judge, &pos, 45, started).unwrap();
        assert_eq!((t.value, t.rule), (Value::Win(34), Some(Class::Win)));
        assert_eq!(
            think(&blind, &pos, 45, started).unwrap().0.value,
            Value::Win(33)
        );
    }

    /// At 100 plies the game is over by the rule, unless the move that made it mates.
    #[test]
    fn the_rule_draw_comes_at_100_plies_after_a_mate() {
        let tables = kqkr();
        let judge = Judge {
            tables: &tables,
            rule: Rule::FIFTY_MOVES,
        };
        let pos = position(&tables, "8/8/8/3k4/2r5/8/8/KQ6 w - - 0 1");
        assert_eq!(judge.game_end(&pos, 99), None);
        assert_eq!(
            judge.game_end(&pos, 100),
            Some(GameEnd::RuleDraw { moves: 50 })
        );
        assert_eq!(
            Judge {
                rule: Rule::NONE,
                ..judge
            }
            .game_end(&pos, 100),
            None
        );
        let mated = position(&tables, "k1Q5/8/1K6/8/8/8/8/7r b - - 0 1");
        assert_eq!(
            judge.game_end(&mated, 100),
            Some(GameEnd::Mate {
                winner: crate::board::Color::White
            })
        );
    }
}
