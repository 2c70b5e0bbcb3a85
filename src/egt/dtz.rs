//! Distance to zeroing under the 50-move rule (DTZ): the values of a DTZ table and how the
//! builder finds them.
//!
//! A DTZ table holds, for each position, the plies to the next *zeroing* move (a capture or a
//! pawn's move, which resets the 50-move counter) or mate, for the side that wins, both sides
//! playing best: `Value::Win(p)`, the side to move wins and the zeroing move is made on ply p
//! (by it or, forced, by the loser); `Value::Loss(q)` likewise for the loser (`Loss(0)`:
//! checkmated). A value counts plies, where DTM and DTC tables count moves.
//!
//! Under the rule a win is real when the zeroing comes within [`RULE_PLIES`] plies and leads
//! to a real win again; otherwise it is a *cursed win* (the defender reaches the 50-move draw),
//! the loser's side of it a *blessed loss* ([`Class`]). As in Syzygy's tables, a zeroing move
//! into a cursed win counts [`RULE_PLIES`] plies more than one into a real win, so that one
//! number orders them all: a value beyond [`RULE_PLIES`] is cursed (blessed), and the side to
//! move prefers real wins to cursed ones, and blessed losses to real ones.
//!
//! **How the builder counts plies.** Its iterations count moves: a win is one move more than
//! the loss it moves into, a loss as long as the longest win it must move into. Counted in
//! moves, a ply value p of a win is ⌈p/2⌉ and q of a loss ⌊q/2⌋, which cannot tell a loss
//! whose last zeroing is the winner's (q = 2m, real at the rule's end) from one where the loser
//! is forced to zero a ply later (q = 2m + 1, blessed there). So a DTZ table is built twice
//! per layer ([`Run`]): once as the game is ([`Run::Plain`]), and once as if every zeroing and
//! mate came one ply later ([`Run::Shifted`]), which only changes the value of a loser's own
//! zeroing move (a loss in 1 move where the plain run has 0). The shifted run finds ⌈(p+1)/2⌉
//! and ⌊(q+1)/2⌋, and the two together give the plies exactly ([`combine`]).

use crate::egt::value::Value;

/// Plies without a zeroing move after which a draw may be claimed: the 50-move rule.
pub const RULE_PLIES: u16 = 100;

/// What a position is worth under the 50-move rule, for the side to move.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Class {
    /// Lost within the rule.
    Loss,
    /// Lost without the rule, drawn by it.
    BlessedLoss,
    /// Drawn.
    Draw,
    /// Won without the rule, drawn by it.
    CursedWin,
    /// Won within the rule.
    Win,
}

impl Class {
    /// The class of a DTZ value (plies).
    pub fn of(v: Value) -> Class {
        match v {
            Value::Win(p) if p <= RULE_PLIES => Class::Win,
            Value::Win(_) => Class::CursedWin,
            Value::Draw => Class::Draw,
            Value::Loss(q) if q <= RULE_PLIES => Class::Loss,
            Value::Loss(_) => Class::BlessedLoss,
        }
    }

    /// Syzygy's WDL number of the class: 2 win, 1 cursed win, 0 draw, −1 blessed loss, −2 loss.
    pub fn wdl(self) -> i8 {
        self as i8 - 2
    }
}

/// A DTZ value as `probe` shows it: its class and distance in moves of the side to move, as
/// for DTM (a win in ⌈p/2⌉, a loss in ⌊q/2⌋), then the plies, as Syzygy counts them:
/// `win in 12 (23 plies)`, `cursed win in 61 (121 plies)`, `draw`.
///
/// ```
/// use fairy_egt::egt::dtz::Shown;
/// use fairy_egt::egt::value::Value;
/// assert_eq!(Shown(Value::Win(23)).to_string(), "win in 12 (23 plies)");
/// assert_eq!(Shown(Value::Loss(101)).to_string(), "blessed loss in 50 (101 plies)");
/// assert_eq!(Shown(Value::Loss(0)).to_string(), "loss in 0 (0 plies)");
/// ```
pub struct Shown(pub Value);

impl std::fmt::Display for Shown {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let class = match Class::of(self.0) {
            Class::Win => "win",
            Class::CursedWin => "cursed win",
            Class::Draw => return f.write_str("draw"),
            Class::BlessedLoss => "blessed loss",
            Class::Loss => "loss",
        };
        let plies = |n: u16| if n == 1 { "ply" } else { "plies" };
        match self.0 {
            Value::Win(p) => write!(f, "{class} in {} ({p} {})", p.div_ceil(2), plies(p)),
            Value::Loss(q) => write!(f, "{class} in {} ({q} {})", q / 2, plies(q)),
            Value::Draw => unreachable!("a draw is written above"),
        }
    }
}

/// The score of a DTZ value in centipawns, for the protocols: a real win 10,000 less its
/// plies (a real loss the opposite); a cursed win +1 and a blessed loss −1, draws in the game
/// that the 50-move rule decides, yet better (worse) than a dead draw.
pub fn centipawns(v: Value) -> i64 {
    let d = |d: u16| i64::from(d);
    match (Class::of(v), v) {
        (Class::Win, Value::Win(p)) => 10_000 - d(p),
        (Class::CursedWin, _) => 1,
        (Class::Draw, _) => 0,
        (Class::BlessedLoss, _) => -1,
        (_, Value::Loss(q)) => -(10_000 - d(q)),
        (_, v) => unreachable!("{v:?} is of its class"),
    }
}

/// The DTZ value, for the side that makes it, of a zeroing move into a position worth `after`
/// (DTZ, for the side to move there): only its class counts, as the counter starts again.
pub fn zeroing(after: Value) -> Value {
    match Class::of(after) {
        Class::Loss => Value::Win(1),
        Class::BlessedLoss => Value::Win(RULE_PLIES + 1),
        Class::Draw => Value::Draw,
        Class::CursedWin => Value::Loss(RULE_PLIES + 1),
        Class::Win => Value::Loss(1),
    }
}

/// The DTZ value, for the side that makes it, of a move that does not zero into a position
/// worth `after`: one ply more.
pub fn quiet(after: Value) -> Value {
    match after {
        Value::Win(p) => Value::Loss(p + 1),
        Value::Draw => Value::Draw,
        Value::Loss(q) => Value::Win(q + 1),
    }
}

/// The value, in moves, as the builder's iterations count them, in one of the two runs of a
/// DTZ build (see the module doc).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Run {
    /// Plies counted as the game is: p ↦ ⌈p/2⌉, q ↦ ⌊q/2⌋.
    Plain,
    /// Every ply count one more: p ↦ ⌈(p+1)/2⌉, q ↦ ⌊(q+1)/2⌋.
    Shifted,
}

impl Run {
    /// The value in this run's moves, for the side to move, of a position just reached by a
    /// zeroing move, worth `after` (DTZ, plies): what the builder's iterations start from.
    pub fn after_zeroing(self, after: Value) -> Value {
        // The mover's value is `zeroing(after)`; the builder takes it back one move
        // (`Value::for_mover`), so the position's value in moves is the one that gives it.
        let shift = u16::from(self == Run::Shifted);
        let half = RULE_PLIES / 2;
        match Class::of(after) {
            // The mover wins in 1 ply, or cursed in RULE_PLIES + 1 (+1): ⌈·/2⌉ moves.
            Class::Loss => Value::Loss(0),
            Class::BlessedLoss => Value::Loss(half),
            Class::Draw => Value::Draw,
            // The mover loses in 1 ply (+1), or in RULE_PLIES + 1 (+1): ⌊·/2⌋ moves.
            Class::CursedWin => Value::Win(half + shift),
            Class::Win => Value::Win(shift),
        }
    }
}

/// The DTZ value (plies) of a position whose values in the plain and the shifted run are
/// `plain` and `shifted`; `None` if they disagree on who wins (which the two runs never do).
pub fn combine(plain: Value, shifted: Value) -> Option<Value> {
    match (plain, shifted) {
        (Value::Win(a), Value::Win(b)) if b == a || b == a + 1 => Some(Value::Win(a + b - 1)),
        (Value::Loss(a), Value::Loss(b)) if b == a || b == a + 1 => Some(Value::Loss(a + b)),
        (Value::Draw, Value::Draw) => Some(Value::Draw),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A game on a line of positions, solved three ways: in plies directly, and in moves by
    /// the builder's rule in both runs; `combine` gives the plies back. Each position either
    /// zeroes into a value (the sub-table's) or moves to the next.
    #[test]
    fn the_two_runs_give_the_plies_back() {
        // Chains of quiet moves ending in a zeroing move into each class, of every length.
        for end in [
            Value::Win(7),
            Value::Win(150),
            Value::Loss(3),
            Value::Loss(130),
            Value::Loss(0),
        ] {
            let mut plies = zeroing(end);
            let mut runs = [Run::Plain, Run::Shifted].map(|r| r.after_zeroing(end).for_mover());
            for _ in 0..230 {
                assert_eq!(combine(runs[0], runs[1]), Some(plies), "after {end:?}");
                plies = quiet(plies);
                runs = runs.map(Value::for_mover);
            }
        }
        // Checkmated: a loss in 0 plies, 0 moves in both runs.
        assert_eq!(combine(Value::Loss(0), Value::Loss(0)), Some(Value::Loss(0)));
        assert_eq!(combine(Value::Win(3), Value::Loss(3)), None);
    }

    #[test]
    fn classes_split_at_the_rule() {
        assert_eq!(Class::of(Value::Win(100)), Class::Win);
        assert_eq!(Class::of(Value::Win(101)), Class::CursedWin);
        assert_eq!(Class::of(Value::Loss(100)), Class::Loss);
        assert_eq!(Class::of(Value::Loss(101)), Class::BlessedLoss);
        assert_eq!(
            [Class::Loss, Class::BlessedLoss, Class::Draw, Class::CursedWin, Class::Win]
                .map(Class::wdl),
            [-2, -1, 0, 1, 2]
        );
        // The mover prefers a real win, then a cursed one; a blessed loss to a real one.
        let rank = |v: Value| v.rank();
        assert!(rank(zeroing(Value::Loss(5))) > rank(zeroing(Value::Loss(105))));
        assert!(rank(zeroing(Value::Win(105))) > rank(zeroing(Value::Win(5))));
    }
}
