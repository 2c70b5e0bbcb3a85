//! Build progress, reported through a callback that the command line and the engine modes
//! share.

use std::time::Duration;

/// A named phase of one table's build.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Phase {
    /// Allocating the table and its index.
    Setup,
    /// One pass over every position: illegal positions, captures into smaller tables, mates.
    Captures,
    /// Retrograde iteration: positions won or lost at this distance.
    Iteration(u16),
    /// The table is complete.
    Done,
}

impl std::fmt::Display for Phase {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Phase::Setup => f.write_str("setup"),
            Phase::Captures => f.write_str("captures and mates"),
            Phase::Iteration(n) => write!(f, "distance {n}"),
            Phase::Done => f.write_str("done"),
        }
    }
}

/// One progress report.
#[derive(Clone, Debug)]
pub struct BuildEvent {
    /// The table being built (e.g. `KQ.K` while building `KQ.KR`'s sub-tables).
    pub table: String,
    /// The endgame that was requested.
    pub target: String,
    /// Phase of the table's build.
    pub phase: Phase,
    /// Estimated fraction of the whole requested build done, 0 to 1.
    pub fraction: f64,
    /// Time since the requested build started.
    pub elapsed: Duration,
}

impl std::fmt::Display for BuildEvent {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        // The share first: a GUI column cuts long lines at its edge.
        write!(
            f,
            "building {}: {:.0}%, {} {}, {:.1} s",
            self.target,
            self.fraction * 100.0,
            self.table,
            self.phase,
            self.elapsed.as_secs_f64()
        )
    }
}

/// Receives build progress. Called from worker threads; should return quickly.
pub trait Progress: Sync {
    /// One report.
    fn report(&self, event: &BuildEvent);
}

impl<F: Fn(&BuildEvent) + Sync> Progress for F {
    fn report(&self, event: &BuildEvent) {
        self(event)
    }
}

/// Progress that goes nowhere.
pub struct Silent;

impl Progress for Silent {
    fn report(&self, _: &BuildEvent) {}
}
