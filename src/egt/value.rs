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

/// The value, for the side to move, of a position with an en-passant right, whose placement
/// is worth `without` with no right (no table holds the right): the best of its legal
/// en-passant captures (`best_capture`, their best value; `None` if none is legal) and, if
/// the side has another legal move (`other_move`), `without`. A side whose only legal moves
/// are en-passant captures is not stalemated, so where the rules let it pass it may: then
/// `pass` gives the value of passing (`None` where it may not), asked only in that case.
/// The builder values a double step by it, and the probe a position with the right.
pub fn with_en_passant(
    best_capture: Option<Value>,
    without: Value,
    other_move: impl FnOnce() -> bool,
    pass: impl FnOnce() -> Option<Value>,
) -> Value {
    let Some(b) = best_capture else {
        return without;
    };
    let other = if other_move() { Some(without) } else { pass() };
    match other {
        Some(v) if v.rank() >= b.rank() => v,
        _ => b,
    }
}

/// Table byte of a position not (yet) won or lost: a draw once the build is done.
pub const UNKNOWN: u8 = 0;
/// Table byte of a position that cannot occur (side to move can capture the enemy royal), or
/// of an index slot that names no canonical position.
pub const ILLEGAL: u8 = 255;
/// Longest win or loss a table byte holds directly, in moves: `Win(d)` is the byte 2d,
/// `Loss(d)` the byte 2d + 1. Longer distances are rare: their byte only says "won" or "lost,
/// further than this" ([`WIN_FAR`], [`LOSS_FAR`]) and the table keeps their exact distance in
/// a sorted list of exceptions (see `Table`), so a table stays at one byte per position.
pub const MAX_DIRECT: u16 = 122;
/// Table byte of a position won in more than [`MAX_DIRECT`] moves (distance in the table's
/// exceptions).
pub const WIN_FAR: u8 = 246;
/// Table byte of a position lost in more than [`MAX_DIRECT`] moves (distance in the table's
/// exceptions).
pub const LOSS_FAR: u8 = 247;
/// While building only: won at the distance the build has reached, beyond [`MAX_DIRECT`]
/// (it becomes [`WIN_FAR`] once the next step has used it).
pub const WIN_NEW: u8 = 248;
/// While building only: lost at the distance the build has reached, beyond [`MAX_DIRECT`].
pub const LOSS_NEW: u8 = 249;
/// While building only: as [`LOSS_NEW`], at an odd distance where a build counts plies (a DTZ
/// build holds the losses of two distances beyond [`MAX_DIRECT`] at once; even, but never the
/// byte of a position a win step could reach).
pub const LOSS_NEW_ODD: u8 = 252;
/// While building only: a provisional win (through a capture) at a distance beyond
/// [`MAX_DIRECT`] that the build has not reached; the distance waits in the builder's list.
pub const WIN_LATER: u8 = 250;
/// While building only: a provisional loss beyond [`MAX_DIRECT`], as [`WIN_LATER`].
pub const LOSS_LATER: u8 = 251;
/// While building only: a position parked as a candidate of a step in the mover's own table
/// (a build of White's side alone, whose one no-escape set is laid out as Black's positions;
/// see `builder/candidates.rs`). The step's check puts [`UNKNOWN`] back.
pub const CANDIDATE: u8 = 254;
/// Table byte of a position not (yet) won that can never be lost: the side to move has a
/// capture into a drawn position. The builder leaves such positions out of its search for
/// losses; a draw once the build is done, like `UNKNOWN`.
pub const NOT_LOST: u8 = 253;

/// Byte of `Win(d)`, 1 ≤ d ≤ MAX_DIRECT.
#[inline]
pub fn win_byte(d: u16) -> u8 {
    debug_assert!((1..=MAX_DIRECT).contains(&d));
    (2 * d) as u8
}

/// Byte of `Loss(d)`, d ≤ MAX_DIRECT.
#[inline]
pub fn loss_byte(d: u16) -> u8 {
    debug_assert!(d <= MAX_DIRECT);
    (2 * d + 1) as u8
}

/// Whether a byte is a win held directly, and its distance.
#[inline]
pub fn win_of(b: u8) -> Option<u16> {
    (b != UNKNOWN && b <= win_byte(MAX_DIRECT) && b.is_multiple_of(2)).then_some(b as u16 / 2)
}

/// Whether a byte is a loss held directly, and its distance.
#[inline]
pub fn loss_of(b: u8) -> Option<u16> {
    (b <= loss_byte(MAX_DIRECT) && b % 2 == 1).then_some(b as u16 / 2)
}

/// The value a byte of a built table stands for, `None` for `ILLEGAL`; `far` gives the
/// exact distance of a [`WIN_FAR`] or [`LOSS_FAR`] byte (asked only for those).
#[inline]
pub fn decode(b: u8, far: impl FnOnce() -> u16) -> Option<Value> {
    match b {
        ILLEGAL => None,
        UNKNOWN | NOT_LOST => Some(Value::Draw),
        WIN_FAR => Some(Value::Win(far())),
        LOSS_FAR => Some(Value::Loss(far())),
        _ if b.is_multiple_of(2) => Some(Value::Win(b as u16 / 2)),
        _ => Some(Value::Loss(b as u16 / 2)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bytes_round_trip() {
        let near = || panic!("a direct byte needs no exception");
        for d in 1..=MAX_DIRECT {
            assert_eq!(decode(win_byte(d), near), Some(Value::Win(d)));
            assert_eq!(win_of(win_byte(d)), Some(d));
            assert_eq!(loss_of(win_byte(d)), None);
        }
        for d in 0..=MAX_DIRECT {
            assert_eq!(decode(loss_byte(d), near), Some(Value::Loss(d)));
            assert_eq!(loss_of(loss_byte(d)), Some(d));
            assert_eq!(win_of(loss_byte(d)), None);
        }
        assert_eq!(decode(UNKNOWN, near), Some(Value::Draw));
        assert_eq!(decode(NOT_LOST, near), Some(Value::Draw));
        assert_eq!(decode(WIN_FAR, || 262), Some(Value::Win(262)));
        assert_eq!(decode(LOSS_FAR, || 130), Some(Value::Loss(130)));
        assert_eq!(decode(ILLEGAL, near), None);
        // The bytes past the direct ones are no direct values.
        for b in [
            WIN_FAR,
            LOSS_FAR,
            WIN_NEW,
            LOSS_NEW,
            LOSS_NEW_ODD,
            WIN_LATER,
            LOSS_LATER,
            NOT_LOST,
        ] {
            assert_eq!((win_of(b), loss_of(b)), (None, None), "{b}");
        }
        assert!(loss_byte(MAX_DIRECT) < WIN_FAR);
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
