//! Values of positions and their one-byte encoding in the tables.

/// The value of a position for the side to move. Distances count the winning side's moves:
/// `Win(n)`: the side to move mates (DTM) or converts (DTC) with its n-th move; `Loss(n)`: the
/// opponent does so with its n-th move (`Loss(0)`: checkmated).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Value {
    /// Won for the side to move.
    Win(u16),
    /// Drawn.
    Draw,
    /// Lost for the side to move.
    Loss(u16),
}

impl Value {
    /// The value for the side that just moved into a position of value `self`.
    pub fn for_mover(self) -> Value {
        match self {
            Value::Win(d) => Value::Loss(d),
            Value::Draw => Value::Draw,
            Value::Loss(d) => Value::Win(d + 1),
        }
    }

    /// A key that orders values from worst to best for the side to move: losses (quicker is
    /// worse), draws, wins (quicker is better).
    pub fn rank(self) -> (u8, i32) {
        match self {
            Value::Loss(d) => (0, d as i32),
            Value::Draw => (1, 0),
            Value::Win(d) => (2, -(d as i32)),
        }
    }
}

impl std::fmt::Display for Value {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Value::Win(d) => write!(f, "win in {d}"),
            Value::Draw => write!(f, "draw"),
            Value::Loss(d) => write!(f, "loss in {d}"),
        }
    }
}

/// Table byte of a position not (yet) won or lost: a draw once the build is done.
pub const UNKNOWN: u8 = 0;
/// Table byte of a position that cannot occur (side to move can capture the enemy royal), or
/// of an index slot that names no canonical position.
pub const ILLEGAL: u8 = 255;
/// Longest win a table can hold, in moves.
pub const MAX_WIN: u16 = 127;
/// Table byte of a position not (yet) won that can never be lost: the side to move has a
/// capture into a drawn position. The builder leaves such positions out of its search for
/// losses; a draw once the build is done, like `UNKNOWN`.
pub const NOT_LOST: u8 = 253;
/// Longest loss a table can hold, in moves (the next odd byte is `NOT_LOST`).
pub const MAX_LOSS: u16 = 125;

/// Byte of `Win(d)`, 1 ≤ d ≤ MAX_WIN.
#[inline]
pub fn win_byte(d: u16) -> u8 {
    debug_assert!((1..=MAX_WIN).contains(&d));
    (2 * d) as u8
}

/// Byte of `Loss(d)`, d ≤ MAX_LOSS.
#[inline]
pub fn loss_byte(d: u16) -> u8 {
    debug_assert!(d <= MAX_LOSS);
    (2 * d + 1) as u8
}

/// Whether a byte is a win, and its distance.
#[inline]
pub fn win_of(b: u8) -> Option<u16> {
    (b != UNKNOWN && b != ILLEGAL && b.is_multiple_of(2)).then_some(b as u16 / 2)
}

/// Whether a byte is a loss, and its distance.
#[inline]
pub fn loss_of(b: u8) -> Option<u16> {
    (b != ILLEGAL && b != NOT_LOST && b % 2 == 1).then_some(b as u16 / 2)
}

/// The value a byte stands for, `None` for `ILLEGAL`.
#[inline]
pub fn decode(b: u8) -> Option<Value> {
    match b {
        ILLEGAL => None,
        UNKNOWN | NOT_LOST => Some(Value::Draw),
        _ if b.is_multiple_of(2) => Some(Value::Win(b as u16 / 2)),
        _ => Some(Value::Loss(b as u16 / 2)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bytes_round_trip() {
        for d in 1..=MAX_WIN {
            assert_eq!(decode(win_byte(d)), Some(Value::Win(d)));
            assert_eq!(win_of(win_byte(d)), Some(d));
            assert_eq!(loss_of(win_byte(d)), None);
        }
        for d in 0..=MAX_LOSS {
            assert_eq!(decode(loss_byte(d)), Some(Value::Loss(d)));
            assert_eq!(loss_of(loss_byte(d)), Some(d));
            assert_eq!(win_of(loss_byte(d)), None);
        }
        assert_eq!(decode(UNKNOWN), Some(Value::Draw));
        assert_eq!(decode(NOT_LOST), Some(Value::Draw));
        assert_eq!(loss_of(NOT_LOST), None);
        assert_eq!(win_of(NOT_LOST), None);
        assert_eq!(decode(ILLEGAL), None);
        assert_eq!(win_of(ILLEGAL), None);
        assert_eq!(loss_of(ILLEGAL), None);
    }

    #[test]
    fn ranking_prefers_quick_wins_and_slow_losses() {
        let mut v = vec![
            Value::Win(5),
            Value::Loss(3),
            Value::Draw,
            Value::Win(2),
            Value::Loss(9),
        ];
        v.sort_by_key(|x| x.rank());
        assert_eq!(
            v,
            vec![
                Value::Loss(3),
                Value::Loss(9),
                Value::Draw,
                Value::Win(5),
                Value::Win(2)
            ]
        );
        assert_eq!(Value::Loss(0).for_mover(), Value::Win(1));
        assert_eq!(Value::Win(4).for_mover(), Value::Loss(4));
    }
}
