//! What a position's exits (captures, pawn moves, promotions: `men::Exit`) give the side to
//! move, kept as one number: the worth of the best exit. The first pass and the loss steps
//! value a whole block's exits at once (`block_setup.rs`), an exit per slot and per move of
//! the other men; the bytes they read from a block of a smaller table (or of a finished
//! layer) are turned into that worth by a table of 256 entries made once per build, and
//! kept by a `max`.
//!
//! Of its exits, a position needs to know the quickest win; failing that, whether one draws;
//! failing that, the longest loss (`Build::byte_given_exits`). All three are the best exit in
//! one order: losses, quicker worse, then draws, then wins, quicker better (`Value::rank`).

use crate::egt::dtz;
use crate::egt::table::Metric;
use crate::egt::value::{decode, Value, LOSS_FAR, WIN_FAR};

/// The worth of no exit (an illegal one): below every exit's.
pub(super) const NO_EXIT: u32 = 0;
/// The worth of an exit that draws: above every loss's (1 + its distance).
const DRAW: u32 = 1 << 17;
/// The worth of an exit that wins in no moves; a win in d is worth `WIN_0 − d`.
const WIN_0: u32 = 1 << 18;

/// The worth, for the side to move, of an exit that gives it `v`: the higher, the better.
#[inline]
fn worth(v: Value) -> u32 {
    match v {
        Value::Loss(d) => 1 + u32::from(d),
        Value::Draw => DRAW,
        Value::Win(d) => WIN_0 - u32::from(d),
    }
}

/// What a position's legal exits give the side to move: the best of them.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(super) struct Exits(u32);

impl Exits {
    /// Adds an exit leading to a position of value `after` for the opponent (`None`: the
    /// exit is illegal).
    #[inline]
    pub(super) fn add(&mut self, after: Option<Value>) {
        if let Some(after) = after {
            self.add_worth(worth(after.for_mover()));
        }
    }

    /// Adds an exit of worth `w` (from `ExitWorth`; `NO_EXIT` adds nothing).
    #[inline]
    pub(super) fn add_worth(&mut self, w: u32) {
        self.0 = self.0.max(w);
    }

    /// The quickest win an exit gives.
    #[inline]
    pub(super) fn best_win(self) -> Option<u16> {
        (self.0 > DRAW).then(|| (WIN_0 - self.0) as u16)
    }

    /// Whether an exit draws, where none wins.
    #[inline]
    pub(super) fn draws(self) -> bool {
        self.0 == DRAW
    }

    /// The longest loss an exit gives, where none wins or draws.
    #[inline]
    pub(super) fn worst_loss(self) -> Option<u16> {
        (self.0 != NO_EXIT && self.0 < DRAW).then(|| (self.0 - 1) as u16)
    }
}

/// How an exit counts the value it reaches, in the build's metric.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Reached {
    /// By a capture or a promotion: a conversion under DTC, a zeroing move under DTZ.
    Capture,
    /// By a pawn's step: a zeroing move under DTZ, a move like another otherwise.
    Push,
}

/// `v`, the value for the opponent of the position an exit reaches as the table there holds
/// it, as a build in `metric` counts it: under DTC every value after a capture counts as
/// reached, distance 0; under DTZ only its class counts (`dtz::after_zeroing`).
pub(super) fn after_exit(metric: Metric, how: Reached, v: Value) -> Value {
    match (metric, how, v) {
        (Metric::Dtm, _, v) | (Metric::Dtc, Reached::Push, v) => v,
        (Metric::Dtc, Reached::Capture, Value::Win(_)) => Value::Win(0),
        (Metric::Dtc, Reached::Capture, Value::Loss(_)) => Value::Loss(0),
        (Metric::Dtc, Reached::Capture, Value::Draw) => Value::Draw,
        (Metric::Dtz(rule), _, v) => dtz::after_zeroing(rule, v),
    }
}

/// A value read for an exit: the byte of a table that holds it directly, or the value.
#[derive(Clone, Copy, Debug)]
pub(super) enum Read {
    /// A byte held directly (not `WIN_FAR` or `LOSS_FAR`, whose distance is listed apart).
    Byte(u8),
    /// The value (`None`: the position is illegal).
    Value(Option<Value>),
}

impl Read {
    /// The value read.
    #[inline]
    pub(super) fn value(self) -> Option<Value> {
        match self {
            Read::Byte(b) => decode(b, || unreachable!("a direct byte has no listed distance")),
            Read::Value(v) => v,
        }
    }
}

/// The worth to the side to move of an exit, by the byte it reads: one table per way of
/// reaching a value (`Reached`), made once for a build's metric.
pub(super) struct ExitWorth {
    metric: Metric,
    by_byte: [[u32; 256]; 2],
}

impl ExitWorth {
    /// The tables of `metric`.
    pub(super) fn new(metric: Metric) -> ExitWorth {
        let by_byte = [Reached::Capture, Reached::Push].map(|how| {
            std::array::from_fn(|b| match b as u8 {
                WIN_FAR | LOSS_FAR => NO_EXIT,
                b => worth_of(metric, how, decode(b, || unreachable!("not a far byte"))),
            })
        });
        ExitWorth { metric, by_byte }
    }

    /// The worth of an exit that reaches `read` as `how` says.
    #[inline]
    pub(super) fn of(&self, how: Reached, read: Read) -> u32 {
        match read {
            Read::Byte(b) => self.by_byte[how as usize][b as usize],
            Read::Value(v) => worth_of(self.metric, how, v),
        }
    }
}

/// The worth of an exit to a position of value `v` for the opponent (`None`: illegal),
/// reached as `how` says in `metric`.
#[inline]
fn worth_of(metric: Metric, how: Reached, v: Option<Value>) -> u32 {
    v.map_or(NO_EXIT, |v| worth(after_exit(metric, how, v).for_mover()))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::test_random::TestRandom;
    use crate::egt::dtz::Rule;
    use crate::egt::value::{loss_byte, win_byte, ILLEGAL, NOT_LOST, UNKNOWN};

    fn values() -> Vec<Value> {
        let mut all = vec![Value::Draw];
        for d in [0, 1, 2, 5, 17, 122, 123, 600, u16::MAX - 1] {
            all.push(Value::Loss(d));
            if d > 0 {
                all.push(Value::Win(d));
            }
        }
        all
    }

    /// The best exit, kept as one worth, gives what the three answers kept apart give: the
    /// quickest win, whether one draws, the longest loss (each only where the one before is
    /// none), for random sets of exits, illegal ones among them.
    #[test]
    fn the_best_exit_answers_as_its_three_parts() {
        let all = values();
        let mut random = TestRandom::new(7);
        for _ in 0..20_000 {
            let exits: Vec<Option<Value>> = (0..random.below(5))
                .map(|_| match random.below(6) {
                    0 => None,
                    _ => Some(all[random.below(all.len() as u64) as usize]),
                })
                .collect();
            let mut kept = Exits::default();
            let (mut best_win, mut draw, mut worst_loss) = (None::<u16>, false, None::<u16>);
            for &after in &exits {
                kept.add(after);
                match after.map(Value::for_mover) {
                    Some(Value::Win(d)) => best_win = Some(best_win.map_or(d, |b| b.min(d))),
                    Some(Value::Draw) => draw = true,
                    Some(Value::Loss(d)) => worst_loss = Some(worst_loss.map_or(d, |w| w.max(d))),
                    None => {}
                }
            }
            assert_eq!(kept.best_win(), best_win, "{exits:?}");
            if best_win.is_none() {
                assert_eq!(kept.draws(), draw, "{exits:?}");
                if !draw {
                    assert_eq!(kept.worst_loss(), worst_loss, "{exits:?}");
                }
            }
        }
    }

    /// An exit's worth orders values as `Value::rank` does.
    #[test]
    fn worth_orders_values_as_their_rank() {
        let all = values();
        for &a in &all {
            for &b in &all {
                assert_eq!(
                    worth(a).cmp(&worth(b)),
                    a.rank().cmp(&b.rank()),
                    "{a:?} {b:?}"
                );
            }
        }
    }

    /// A byte's worth from the table is the worth of the value it decodes to, in every metric,
    /// for captures and pawn steps.
    #[test]
    fn a_bytes_worth_is_its_values() {
        for metric in [Metric::Dtm, Metric::Dtc, Metric::Dtz(Rule::FIFTY_MOVES)] {
            let table = ExitWorth::new(metric);
            for how in [Reached::Capture, Reached::Push] {
                let mut bytes = vec![UNKNOWN, NOT_LOST, ILLEGAL];
                bytes.extend((1..=122).flat_map(|d| [win_byte(d), loss_byte(d)]));
                bytes.push(loss_byte(0));
                for b in bytes {
                    let v = decode(b, || unreachable!());
                    assert_eq!(
                        table.of(how, Read::Byte(b)),
                        table.of(how, Read::Value(v)),
                        "{metric:?} {how:?} byte {b}"
                    );
                }
                assert_eq!(table.of(how, Read::Byte(ILLEGAL)), NO_EXIT);
            }
        }
    }
}
