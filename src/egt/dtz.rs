//! Distance to zeroing under the 50-move rule (DTZ): the values of a DTZ table and how the
//! builder finds them.
//!
//! A DTZ table holds, for each position, the plies to the next *zeroing* move (a capture or a
//! pawn's move, which resets the 50-move counter) or mate, for the side that wins, both sides
//! playing best: `Value::Win(p)`, the side to move wins and the zeroing move is made on ply p
//! (by it or, forced, by the loser); `Value::Loss(q)` likewise for the loser (`Loss(0)`:
//! checkmated). A value counts plies, where DTM and DTC tables count moves.
//!
//! Under the rule ([`Rule`]: 50 moves, 100 plies, or another count) a win is real when the
//! zeroing comes within the rule's plies and leads to a real win again; otherwise it is a
//! *cursed win* (the defender reaches the 50-move draw), the loser's side of it a *blessed
//! loss* ([`Class`]). As in Syzygy's tables, a zeroing move into a cursed win counts the
//! rule's plies more than one into a real win, so that one number orders them all: a value
//! beyond the rule's plies is cursed (blessed), and the side to move prefers real wins to
//! cursed ones, and blessed losses to real ones.
//!
//! **How the builder counts plies.** The iterations of a DTZ build count plies, not moves:
//! a win is one ply more than the loss it moves into, a loss one ply more than the longest win
//! it must move into, so that a loss whose last zeroing is the winner's (q = 2m, real at the
//! rule's end) and one where the loser is forced to zero a ply later (q = 2m + 1, blessed
//! there) stay apart. A zeroing move is valued by [`after_zeroing`], in the form the builder's
//! iterations start from.
use crate::egt::value::Value;

/// The rule: plies without a zeroing move after which a draw may be claimed (100 for the
/// 50-move rule), or none.
///
/// ```
/// use fairy_egt::egt::dtz::{Class, Rule};
/// use fairy_egt::egt::value::Value;
/// assert_eq!(Rule::FIFTY_MOVES.class(Value::Win(100)), Class::Win);
/// assert_eq!(Rule::FIFTY_MOVES.class(Value::Win(101)), Class::CursedWin);
/// assert_eq!(Rule::moves(5).class(Value::Loss(11)), Class::BlessedLoss);
/// assert_eq!(Rule::NONE.class(Value::Win(999)), Class::Win);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Rule {
    /// The rule's plies; 0: no rule.
    plies: u16,
}

/// Most moves a rule may have: its plies, and the plies of a cursed value beyond them, must
/// stay far below what a table's distances hold.
pub const MAX_RULE_MOVES: u16 = 10_000;

impl Rule {
    /// The 50-move rule of chess.
    pub const FIFTY_MOVES: Rule = Rule { plies: 100 };
    /// No rule: every win is a win (DTZ then orders wins by their zeroing alone).
    pub const NONE: Rule = Rule { plies: 0 };

    /// A rule of `n` moves (`n` ≤ [`MAX_RULE_MOVES`]); 0: none.
    pub fn moves(n: u16) -> Rule {
        assert!(
            n <= MAX_RULE_MOVES,
            "a rule of at most {MAX_RULE_MOVES} moves"
        );
        Rule { plies: 2 * n }
    }

    /// The rule's moves (0: none).
    pub fn move_count(self) -> u16 {
        self.plies / 2
    }

    /// The plies beyond which a value is cursed (blessed), and which a zeroing move into a
    /// cursed win adds: the rule's, or without one more than any table's distance.
    fn limit(self) -> u16 {
        if self.plies == 0 {
            u16::MAX / 2
        } else {
            self.plies
        }
    }

    /// The class of a DTZ value (plies) under this rule.
    pub fn class(self, v: Value) -> Class {
        let limit = self.limit();
        match v {
            Value::Win(p) if p <= limit => Class::Win,
            Value::Win(_) => Class::CursedWin,
            Value::Draw => Class::Draw,
            Value::Loss(q) if q <= limit => Class::Loss,
            Value::Loss(_) => Class::BlessedLoss,
        }
    }

    /// The class of a position worth `v` (DTZ) when `clock` plies have gone by since the last
    /// zeroing move (the half-move clock, below the rule's plies): a win is real if its
    /// zeroing comes within the plies the clock leaves, a loss likewise.
    ///
    /// ```
    /// use fairy_egt::egt::dtz::{Class, Rule};
    /// use fairy_egt::egt::value::Value;
    /// let fifty = Rule::FIFTY_MOVES;
    /// assert_eq!(fifty.class_at(Value::Win(37), 63), Class::Win);
    /// assert_eq!(fifty.class_at(Value::Win(37), 64), Class::CursedWin);
    /// assert_eq!(fifty.class_at(Value::Loss(10), 91), Class::BlessedLoss);
    /// // A zeroing move's value (1 ply, or cursed) keeps its class whatever the clock.
    /// assert_eq!(fifty.class_at(fifty.zeroing(Value::Loss(80)), 99), Class::Win);
    /// ```
    pub fn class_at(self, v: Value, clock: u32) -> Class {
        let later = |d: u16| u16::try_from(u32::from(d) + clock).unwrap_or(u16::MAX);
        self.class(match v {
            Value::Win(p) => Value::Win(later(p)),
            Value::Draw => Value::Draw,
            Value::Loss(q) => Value::Loss(later(q)),
        })
    }

    /// The rule's plies (0: none): the half-move clock at which the game is drawn.
    pub fn plies(self) -> u16 {
        self.plies
    }

    /// The DTZ value, for the side that makes it, of a zeroing move into a position worth
    /// `after` (DTZ, for the side to move there): only its class counts, as the counter
    /// starts again.
    pub fn zeroing(self, after: Value) -> Value {
        match self.class(after) {
            Class::Loss => Value::Win(1),
            Class::BlessedLoss => Value::Win(self.limit() + 1),
            Class::Draw => Value::Draw,
            Class::CursedWin => Value::Loss(self.limit() + 1),
            Class::Win => Value::Loss(1),
        }
    }

    /// The score of a DTZ value in centipawns, for the protocols: a real win 10,000 less its
    /// plies (a real loss the opposite); a cursed win +1 and a blessed loss −1, draws in the
    /// game that the rule decides, yet better (worse) than a dead draw.
    pub fn centipawns(self, v: Value) -> i64 {
        let d = |d: u16| i64::from(d);
        match (self.class(v), v) {
            (Class::Win, Value::Win(p)) => 10_000 - d(p),
            (Class::CursedWin, _) => 1,
            (Class::Draw, _) => 0,
            (Class::BlessedLoss, _) => -1,
            (_, Value::Loss(q)) => -(10_000 - d(q)),
            (_, v) => unreachable!("{v:?} is of its class"),
        }
    }

    /// A DTZ value as `probe` shows it (see [`Shown`]).
    pub fn shown(self, v: Value) -> Shown {
        Shown(v, self)
    }
}

impl Default for Rule {
    fn default() -> Rule {
        Rule::FIFTY_MOVES
    }
}

/// What a position is worth under the 50-move rule, for the side to move (ordered from worst
/// to best).
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

/// A DTZ value as `probe` shows it under a rule: its class and distance in moves of the side
/// to move, as for DTM (a win in ⌈p/2⌉, a loss in ⌊q/2⌋), then the plies, as Syzygy counts
/// them: `win in 12 (23 plies)`, `cursed win in 61 (121 plies)`, `draw`.
///
/// ```
/// use fairy_egt::egt::dtz::Rule;
/// use fairy_egt::egt::value::Value;
/// let fifty = Rule::FIFTY_MOVES;
/// assert_eq!(fifty.shown(Value::Win(23)).to_string(), "win in 12 (23 plies)");
/// assert_eq!(fifty.shown(Value::Loss(101)).to_string(), "blessed loss in 50 (101 plies)");
/// assert_eq!(fifty.shown(Value::Loss(0)).to_string(), "loss in 0 (0 plies)");
/// ```
pub struct Shown(Value, Rule);

impl std::fmt::Display for Shown {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let class = match self.1.class(self.0) {
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

/// The DTZ value, for the side that makes it, of a move that does not zero into a position
/// worth `after`: one ply more.
pub fn quiet(after: Value) -> Value {
    match after {
        Value::Win(p) => Value::Loss(p + 1),
        Value::Draw => Value::Draw,
        Value::Loss(q) => Value::Win(q + 1),
    }
}

/// The value, for the side to move, of a position just reached by a zeroing move, worth
/// `after` (DTZ, plies) there, in the form a DTZ build's iterations start from: the value
/// whose `Value::for_mover` is what the zeroing move is worth to its mover
/// ([`Rule::zeroing`]). A loss the mover's zeroing move forces is one ply long, so the win it
/// leaves is counted one ply on (`Win(1)`, where a mate's is `Loss(0)`); the loss checks count
/// every other move one ply more than the win it reaches.
///
/// ```
/// use fairy_egt::egt::dtz::{after_zeroing, Rule};
/// use fairy_egt::egt::value::Value;
/// let fifty = Rule::FIFTY_MOVES;
/// for after in [Value::Loss(7), Value::Loss(130), Value::Draw, Value::Win(3), Value::Win(140)] {
///     assert_eq!(after_zeroing(fifty, after).for_mover(), fifty.zeroing(after));
/// }
/// ```
pub fn after_zeroing(rule: Rule, after: Value) -> Value {
    match rule.zeroing(after) {
        Value::Win(p) => Value::Loss(p - 1),
        Value::Draw => Value::Draw,
        Value::Loss(q) => Value::Win(q),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A game on a line of positions, each zeroing into a value (the sub-table's) or moving
    /// to the next, solved in plies directly and by the builder's rules (a win one ply more
    /// than the loss it reaches, a loss one ply more than the win, a zeroing move valued by
    /// `after_zeroing`): the same plies, so the builder's iterations count them.
    #[test]
    fn the_builders_count_gives_the_plies() {
        let builder_win = |loss: Value| loss.for_mover();
        let builder_loss = |win: Value| match win {
            Value::Win(p) => Value::Loss(p + 1),
            v => panic!("a loss moves into a win, not {v:?}"),
        };
        for (rule, end) in [
            (Rule::FIFTY_MOVES, Value::Win(7)),
            (Rule::FIFTY_MOVES, Value::Win(150)),
            (Rule::FIFTY_MOVES, Value::Loss(3)),
            (Rule::FIFTY_MOVES, Value::Loss(130)),
            (Rule::FIFTY_MOVES, Value::Loss(0)),
            (Rule::moves(3), Value::Win(9)),
            (Rule::moves(3), Value::Loss(7)),
            (Rule::NONE, Value::Win(150)),
        ] {
            let mut plies = rule.zeroing(end);
            let mut counted = after_zeroing(rule, end).for_mover();
            for _ in 0..230 {
                assert_eq!(counted, plies, "after {end:?}");
                plies = quiet(plies);
                counted = match counted {
                    Value::Win(_) => builder_loss(counted),
                    Value::Loss(_) => builder_win(counted),
                    Value::Draw => Value::Draw,
                };
            }
        }
    }

    #[test]
    fn classes_split_at_the_rule() {
        let fifty = Rule::FIFTY_MOVES;
        assert_eq!(fifty.class(Value::Win(100)), Class::Win);
        assert_eq!(fifty.class(Value::Win(101)), Class::CursedWin);
        assert_eq!(fifty.class(Value::Loss(100)), Class::Loss);
        assert_eq!(fifty.class(Value::Loss(101)), Class::BlessedLoss);
        assert_eq!(Rule::moves(5).class(Value::Win(11)), Class::CursedWin);
        assert_eq!(Rule::NONE.class(Value::Loss(5000)), Class::Loss);
        // The mover prefers a real win, then a cursed one; a blessed loss to a real one.
        let rank = |v: Value| fifty.zeroing(v).rank();
        assert!(rank(Value::Loss(5)) > rank(Value::Loss(105)));
        assert!(rank(Value::Win(105)) > rank(Value::Win(5)));
    }
}
