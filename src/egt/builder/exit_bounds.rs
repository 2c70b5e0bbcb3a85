//! How long a loss an exit (a capture, a pawn's step, a promotion) can give an undecided
//! position of a block, per side, as the first pass found it.
//!
//! A loss check's candidate is undecided (`UNKNOWN`): the first pass found none of its exits
//! winning or drawing (it would have given it a provisional win, or `NOT_LOST`), so its exits
//! can only make its loss longer than its quiet moves make it. Where a block's bound is no
//! longer than the step's target, none of its losers' exits can, and the check settles them
//! at the target without valuing their exits again (`Build::settle_block_losers`).

use crate::board::Color;
use std::ops::Range;
use std::sync::atomic::{AtomicU8, Ordering::Relaxed};

/// A bound that says nothing (a longer loss, or none found): the exits must be valued.
const ANY: u8 = u8::MAX;

/// Per side built, per block of the layer: at least the longest loss an exit gives any of the
/// block's undecided positions (0: none of them has a losing exit).
pub(super) struct ExitBounds {
    bounds: [Vec<AtomicU8>; 2],
    /// The first block held (the layer's).
    start: u64,
}

impl ExitBounds {
    /// Bounds that say nothing, for the blocks `blocks` of the sides `held` (the layer in
    /// work).
    pub(super) fn new(blocks: Range<u64>, held: &[Color]) -> ExitBounds {
        let bounds = |c: Color| match held.contains(&c) {
            true => blocks.clone().map(|_| AtomicU8::new(ANY)).collect(),
            false => Vec::new(),
        };
        ExitBounds {
            bounds: Color::BOTH.map(bounds),
            start: blocks.start,
        }
    }

    /// Sets the bound of block `w` for side `c` to `longest` (by the one thread that works on
    /// the block).
    pub(super) fn set(&self, c: Color, w: u64, longest: u16) {
        let bound = u8::try_from(longest).unwrap_or(ANY);
        self.bounds[c.index()][(w - self.start) as usize].store(bound, Relaxed);
    }

    /// Forgets the bound of block `w` for side `c`: a seed made one of its positions
    /// undecided whatever its exits give.
    pub(super) fn forget(&self, c: Color, w: u64) {
        if let Some(b) = self.bounds[c.index()].get((w - self.start) as usize) {
            b.store(ANY, Relaxed);
        }
    }

    /// Whether no exit of an undecided position of block `w`, side `c` to move, gives a loss
    /// longer than `target`.
    #[inline]
    pub(super) fn within(&self, c: Color, w: u64, target: u16) -> bool {
        let b = self.bounds[c.index()][(w - self.start) as usize].load(Relaxed);
        b != ANY && u16::from(b) <= target
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_bound_holds_up_to_its_loss_and_says_nothing_once_forgotten_or_too_long() {
        let bounds = ExitBounds::new(10..14, &[Color::White]);
        let within = |w, target| bounds.within(Color::White, w, target);
        assert!(!within(11, 200), "nothing known before the first pass");
        bounds.set(Color::White, 11, 7);
        assert!(within(11, 7));
        assert!(!within(11, 6));
        bounds.set(Color::White, 12, 0);
        assert!(within(12, 1));
        bounds.set(Color::White, 13, 300);
        assert!(!within(13, 1000), "beyond a byte: valued");
        bounds.forget(Color::White, 11);
        assert!(!within(11, 7));
        bounds.forget(Color::Black, 11);
    }
}
