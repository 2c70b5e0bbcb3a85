//! What each side's win and loss steps took in a layer, summed over its distances, for the
//! build's debug log: where a table's time goes side by side (a side that rarely loses may
//! still spend much in its loss steps; docs/SPEED.md). Each step also logs its own figures at
//! the trace level.

use crate::board::Color;
use std::sync::atomic::{AtomicU64, Ordering::Relaxed};
use std::time::Duration;

/// The steps timed.
#[derive(Clone, Copy, Debug)]
pub(super) enum Step {
    Win = 0,
    Loss = 1,
}

/// Nanoseconds of each kind of step, per side to move.
#[derive(Default)]
pub(super) struct StepTimes([[AtomicU64; 2]; 2]);

impl StepTimes {
    /// Adds `time` to side `c`'s steps of kind `step`.
    pub(super) fn add(&self, step: Step, c: Color, time: Duration) {
        let nanos = u64::try_from(time.as_nanos()).unwrap_or(u64::MAX);
        self.0[step as usize][c.index()].fetch_add(nanos, Relaxed);
    }

    /// The time of the steps of kind `step` of each side of `sides`, as "White 1.234 s,
    /// Black 0.056 s".
    pub(super) fn by_side(&self, step: Step, sides: &[Color]) -> String {
        let seconds = |c: Color| self.0[step as usize][c.index()].load(Relaxed) as f64 * 1e-9;
        (sides.iter())
            .map(|&c| format!("{} {:.3} s", c.name(), seconds(c)))
            .collect::<Vec<_>>()
            .join(", ")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_side_keeps_its_own_sum() {
        let times = StepTimes::default();
        times.add(Step::Win, Color::White, Duration::from_millis(1500));
        times.add(Step::Win, Color::White, Duration::from_millis(250));
        times.add(Step::Loss, Color::Black, Duration::from_millis(40));
        assert_eq!(
            times.by_side(Step::Win, &Color::BOTH),
            "White 1.750 s, Black 0.000 s"
        );
        assert_eq!(
            times.by_side(Step::Loss, &Color::BOTH),
            "White 0.000 s, Black 0.040 s"
        );
        assert_eq!(times.by_side(Step::Loss, &[Color::White]), "White 0.000 s");
    }
}
