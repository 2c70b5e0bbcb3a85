//! Build progress, reported through a callback that the command line and the engine modes
//! share.

use std::time::{Duration, Instant};

/// A named phase of one table's build.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Phase {
    /// Reading the table from the table directory.
    Loading,
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
            Phase::Loading => f.write_str("loading"),
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
    /// Estimated time left, from the fraction and the elapsed time ([`time_left`]); `None`
    /// while too little is done to tell.
    pub remaining: Option<Duration>,
}

/// Least elapsed time before an estimate of the time left is given: the first moments of a
/// build (allocation, the small tables) say little about the rest.
const ESTIMATE_AFTER: Duration = Duration::from_secs(1);
/// Least fraction done before an estimate of the time left is given. Until the largest
/// table's captures pass is over and its iterations have begun (about a fifth of a 5-man
/// build), the fraction rests on the measured shares of a typical table, which vary by a
/// factor of three (the captures pass is 7–25% of a table): KBN.KN, whose captures pass is
/// 25%, was told "about 10 s left" at 12% of a build that took 6.6 s in all (measured
/// with `examples/progress_eta`: from 1%, its first estimates were 1.3–1.9 times the time
/// really left; from 20%, 1.3–1.6 times; KRN.KN's 0.6, KQ.KRN's 0.55).
const ESTIMATE_FROM: f64 = 0.2;

/// Estimated time left of a build that has done `fraction` of its work in `elapsed`, going on
/// at the same pace; `None` before `ESTIMATE_AFTER` and `ESTIMATE_FROM`.
pub fn time_left(fraction: f64, elapsed: Duration) -> Option<Duration> {
    (elapsed >= ESTIMATE_AFTER && fraction >= ESTIMATE_FROM)
        .then(|| elapsed.mul_f64((1.0 - fraction.min(1.0)) / fraction))
}

/// A duration as a person reads an estimate: `12 s` below 100 s (at least 1), else
/// `4 min`, else `2.5 h`.
pub struct Rough(pub Duration);

impl std::fmt::Display for Rough {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let s = self.0.as_secs_f64();
        if s < 99.5 {
            write!(f, "{:.0} s", s.max(1.0))
        } else if s < 5970.0 {
            write!(f, "{:.0} min", s / 60.0)
        } else {
            write!(f, "{:.1} h", s / 3600.0)
        }
    }
}

/// A progress line, what matters first: XBoard's Engine Output column shows some 22
/// characters of it at its default width (`(12% KBN.KN, ~10 s le`), its message line some 40.
/// A build: `12% KBN.KN, ~10 s left: building KB.KN, distance 3, 1.2 s` (the share of the
/// requested endgame's build, the time left once it can be told, then the table being built
/// and its phase); a table read from the table directory: `loading KB.KN for KBN.KN, 0.1 s`.
impl std::fmt::Display for BuildEvent {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let elapsed = self.elapsed.as_secs_f64();
        if self.phase == Phase::Loading {
            f.write_str("loading ")?;
            if self.table != self.target {
                write!(f, "{} for ", self.table)?;
            }
            return write!(f, "{}, {elapsed:.1} s", self.target);
        }
        write!(f, "{:.0}% {}", self.fraction * 100.0, self.target)?;
        if let Some(left) = self.remaining {
            write!(f, ", ~{} left", Rough(left))?;
        }
        match self.phase {
            Phase::Done => write!(f, ": {} built", self.table)?,
            phase => write!(f, ": building {}, {phase}", self.table)?,
        }
        write!(f, ", {elapsed:.1} s")
    }
}

/// Share of one table's build time that the setup and the captures pass take, before the
/// iterations; measured (2026-11, 2 threads) 7–25% (KBB.KN 7, KQ.KR 9, KRN.KN 15, KA.KR 16,
/// KQN.KQ 23, KBN.KN 25).
const CAPTURES_SHARE: f64 = 0.15;
/// Expected iteration time over the captures pass's time (measured 4.2–15: KQN.KQ 4.2,
/// KBN.KN 4.6, KA.KR 6.2, KRN.KN 8.2, KQ.KR 12, KBB.KN 15), the estimate while the number
/// of positions decided per distance grows.
const ITERATIONS_PER_CAPTURES: f64 = 6.0;
/// Least share of the legal positions decided at one distance that counts as a peak: the
/// first distances' counts go up and down at a tiny scale.
const PEAK_AT_LEAST: f64 = 0.002;
/// The decided counts tell the iterations' course only after this many times the captures
/// pass's time in them: the first distances may have a hump of their own (KQ.KRN decides
/// many positions at distance 2, its main peak is at 12).
const TRUST_AFTER: f64 = 3.0;
/// Once the counts fall after their peak, the iterations are expected to take this many times
/// the time they took up to it, in all (measured 1.5–2.3).
const AFTER_PEAK: f64 = 2.5;
/// Least ratio of one distance's time to the previous one's in the tail: the last distances
/// cost a little each, however few positions they decide.
const TAIL_RATIO: f64 = 0.85;

/// Turns the builder's reports of one table (`Phase::Captures` 0 to 0.5 over the royal pairs,
/// `Phase::Iteration` at 0.5 + 0.5 · decided / legal) into the fraction of the table's build
/// *time* done, so that the whole build's fraction tracks time and gives a time left.
///
/// The setup and the captures pass are `CAPTURES_SHARE` of the table, in proportion to its
/// royal pairs. The iterations' length is not known ahead (it depends on how many positions
/// are won or lost and at which distances), so it is estimated first as
/// `ITERATIONS_PER_CAPTURES` times the captures pass, then (after `TRUST_AFTER` times it)
/// from the positions decided at each distance: while they grow, as that or at least the
/// time spent again; once they shrink, as `AFTER_PEAK` times the time to
/// the peak; below half the peak, as the geometric tail of the distances' times. A table whose
/// counts rise again (KBB.KN) ends later than foretold. The fraction never goes back, and is 1
/// only when the table is done.
///
/// A table built in layers (pawns: `Indexer::layers`) runs these phases once per layer, and
/// its builder reports the share of its slots done instead: that clock (`TableClock::linear`)
/// gives it as it comes.
#[derive(Debug, Default)]
pub struct TableClock {
    /// Whether the builder's fraction is the table's share done, given as it is.
    linear: bool,
    /// When the setup began.
    setup_from: Option<Instant>,
    /// When the captures pass's first report came (it reports every 16 royal pairs).
    captures_from: Option<Instant>,
    /// When the first iteration came (the captures pass ended).
    iterations_from: Option<Instant>,
    /// The previous iteration's time and decided share.
    last: Option<(Instant, f64)>,
    /// The previous distance's time.
    last_step: Duration,
    /// The most positions decided at one distance (a share of the legal ones), and when.
    peak: (f64, Option<Instant>),
    /// The fraction given last.
    given: f64,
}

impl TableClock {
    /// A clock for a table whose build starts now.
    pub fn new() -> TableClock {
        TableClock::default()
    }

    /// A clock for a table built in layers, whose builder reports the share of the table
    /// done in every phase.
    pub fn linear() -> TableClock {
        TableClock {
            linear: true,
            ..TableClock::default()
        }
    }

    /// The fraction of the table's time done at a report of the builder, `now`.
    pub fn fraction(&mut self, phase: Phase, builder_fraction: f64, now: Instant) -> f64 {
        let fraction = match phase {
            Phase::Loading | Phase::Setup if self.linear => 0.0,
            Phase::Captures | Phase::Iteration(_) if self.linear => builder_fraction.min(1.0),
            Phase::Loading => 0.0,
            Phase::Setup => {
                self.setup_from.get_or_insert(now);
                0.0
            }
            Phase::Captures => {
                self.captures_from.get_or_insert(now);
                CAPTURES_SHARE * (2.0 * builder_fraction).min(1.0)
            }
            Phase::Iteration(_) => {
                let decided = (2.0 * builder_fraction - 1.0).max(0.0);
                CAPTURES_SHARE + (1.0 - CAPTURES_SHARE) * self.iterations_done(decided, now)
            }
            Phase::Done => 1.0,
        };
        self.given = self.given.max(fraction);
        self.given
    }

    /// Share of the iterations' time done, below 1.
    fn iterations_done(&mut self, decided: f64, now: Instant) -> f64 {
        let start = *self.iterations_from.get_or_insert(now);
        // A table of few royal pairs has no captures report: its setup counts instead.
        let captures = start - self.captures_from.or(self.setup_from).unwrap_or(start);
        let spent = now - start;
        let foretold = captures
            .mul_f64(ITERATIONS_PER_CAPTURES)
            .saturating_sub(spent);
        let mut left = foretold.max(spent / 2);
        if let Some((then, before)) = self.last.replace((now, decided)) {
            let step = now - then;
            let new = decided - before;
            if new >= self.peak.0 {
                self.peak = (new, Some(now));
            }
            let (peak, peaked) = (self.peak.0, self.peak.1.unwrap_or(now));
            if peak >= PEAK_AT_LEAST && spent >= captures.mul_f64(TRUST_AFTER) {
                left = if new < peak / 2.0 && !self.last_step.is_zero() {
                    // The tail: each distance takes about `ratio` of the previous one's time.
                    let ratio =
                        (step.as_secs_f64() / self.last_step.as_secs_f64()).clamp(TAIL_RATIO, 0.95);
                    step.mul_f64(ratio / (1.0 - ratio))
                } else if new < 0.9 * peak {
                    (peaked - start)
                        .mul_f64(AFTER_PEAK - 1.0)
                        .saturating_sub(now - peaked)
                        .max(spent / 4)
                } else {
                    foretold.max(spent)
                };
            }
            self.last_step = step;
        }
        let total = spent + left;
        if total.is_zero() {
            0.0
        } else {
            spent.as_secs_f64() / total.as_secs_f64()
        }
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

#[cfg(test)]
mod tests {
    use super::*;

    /// A layered table's clock gives the builder's share as it comes, never going back, and
    /// 1 only when done.
    #[test]
    fn a_linear_clock_gives_the_share_done() {
        let mut clock = TableClock::linear();
        let now = Instant::now();
        assert_eq!(clock.fraction(Phase::Setup, 0.0, now), 0.0);
        assert_eq!(clock.fraction(Phase::Captures, 0.3, now), 0.3);
        assert_eq!(clock.fraction(Phase::Iteration(5), 0.25, now), 0.3);
        assert_eq!(clock.fraction(Phase::Captures, 0.7, now), 0.7);
        assert_eq!(clock.fraction(Phase::Iteration(1), 0.98, now), 0.98);
        assert_eq!(clock.fraction(Phase::Done, 1.0, now), 1.0);
    }

    fn event(fraction: f64, elapsed: f64) -> BuildEvent {
        event_of("KBN.K", Phase::Iteration(14), fraction, elapsed)
    }

    fn event_of(table: &str, phase: Phase, fraction: f64, elapsed: f64) -> BuildEvent {
        let elapsed = Duration::from_secs_f64(elapsed);
        BuildEvent {
            table: table.to_string(),
            target: "KBN.KN".to_string(),
            phase,
            fraction,
            elapsed,
            remaining: time_left(fraction, elapsed),
        }
    }

    #[test]
    fn the_time_left_goes_on_at_the_pace_so_far() {
        // 42% in 8.4 s: 58% more take 11.6 s.
        let left = time_left(0.42, Duration::from_secs_f64(8.4)).unwrap();
        assert!((left.as_secs_f64() - 11.6).abs() < 1e-9, "{left:?}");
        assert_eq!(
            time_left(0.25, Duration::from_secs(3)),
            Some(Duration::from_secs(9))
        );
        assert_eq!(time_left(1.0, Duration::from_secs(3)), Some(Duration::ZERO));
        // Too early to tell: under a second, or under 20% done (KBN.KN's 12% after 1.3 s
        // would have said 10 s for the 5.3 s that were left).
        assert_eq!(time_left(0.5, Duration::from_millis(999)), None);
        assert_eq!(time_left(0.12, Duration::from_secs_f64(1.3)), None);
        assert_eq!(time_left(0.199, Duration::from_secs(60)), None);
        assert_eq!(time_left(0.0, Duration::from_secs(60)), None);
    }

    #[test]
    fn the_time_left_reads_as_a_person_says_it() {
        let rough = |s: f64| Rough(Duration::from_secs_f64(s)).to_string();
        assert_eq!(rough(0.2), "1 s");
        assert_eq!(rough(11.6), "12 s");
        assert_eq!(rough(99.0), "99 s");
        assert_eq!(rough(100.0), "2 min");
        assert_eq!(rough(3000.0), "50 min");
        assert_eq!(rough(9000.0), "2.5 h");
    }

    #[test]
    fn the_share_and_the_time_left_come_first() {
        // XBoard's Engine Output column, at its default width, shows about 22 characters of
        // the pv: the share, the endgame and the time left fit in them.
        let line = event(0.42, 8.4).to_string();
        assert_eq!(
            line,
            "42% KBN.KN, ~12 s left: building KBN.K, distance 14, 8.4 s"
        );
        assert_eq!(&line[..21], "42% KBN.KN, ~12 s lef");
        assert_eq!(
            event(0.12, 1.3).to_string(),
            "12% KBN.KN: building KBN.K, distance 14, 1.3 s"
        );
        assert_eq!(
            event_of("KB.KN", Phase::Done, 0.3, 1.0).to_string(),
            "30% KBN.KN, ~2 s left: KB.KN built, 1.0 s"
        );
        assert_eq!(
            event_of("K.K", Phase::Setup, 0.0, 0.0).to_string(),
            "0% KBN.KN: building K.K, setup, 0.0 s"
        );
    }

    #[test]
    fn a_table_read_from_the_directory_is_loading_not_building() {
        let line = event_of("KB.KN", Phase::Loading, 0.0, 0.1).to_string();
        assert_eq!(line, "loading KB.KN for KBN.KN, 0.1 s");
        assert!(!line.contains("building") && !line.contains('%'), "{line}");
        assert_eq!(
            event_of("KBN.KN", Phase::Loading, 0.3, 0.4).to_string(),
            "loading KBN.KN, 0.4 s"
        );
    }

    /// The fractions a clock gives for reports at the given seconds after its start.
    fn clock_run(reports: &[(f64, Phase, f64)]) -> Vec<f64> {
        let t0 = Instant::now();
        let mut clock = TableClock::new();
        (reports.iter())
            .map(|&(t, phase, f)| clock.fraction(phase, f, t0 + Duration::from_secs_f64(t)))
            .collect()
    }

    #[test]
    fn a_table_clock_splits_captures_and_iterations_and_never_goes_back() {
        // Captures from 0.1 to 0.5 s (reported out of order by the threads), then
        // iterations whose decided counts rise, peak at distance 4 and fall.
        let mut reports = vec![
            (0.0, Phase::Setup, 0.0),
            (0.1, Phase::Captures, 0.0),
            (0.3, Phase::Captures, 0.25),
            (0.31, Phase::Captures, 0.2),
            (0.45, Phase::Captures, 0.5),
        ];
        // Each distance takes 0.05 s and 4 s per share of the positions it decides.
        let decided = [0.0, 0.01, 0.05, 0.15, 0.35, 0.5, 0.56, 0.58, 0.585, 0.586];
        let mut t = 0.5;
        for (n, d) in decided.iter().enumerate() {
            reports.push((t, Phase::Iteration(n as u16 + 1), 0.5 + 0.5 * d));
            t += 0.05 + 4.0 * (decided.get(n + 1).unwrap_or(d) - d);
        }
        reports.push((t, Phase::Done, 1.0));
        let f = clock_run(&reports);
        assert_eq!(f[0], 0.0);
        assert!((f[2] - CAPTURES_SHARE / 2.0).abs() < 1e-9, "{f:?}");
        assert_eq!(f[3], f[2], "went back: {f:?}");
        assert!((f[5] - CAPTURES_SHARE).abs() < 1e-9, "{f:?}");
        assert!(f.windows(2).all(|w| w[0] <= w[1]), "went back: {f:?}");
        assert!(f[..f.len() - 1].iter().all(|&x| x < 1.0), "{f:?}");
        assert_eq!(f.last(), Some(&1.0));
        // Until 3 × the captures pass (0.4 s) is spent in them, the iterations are foretold to
        // take 6 × the captures pass; in the tail, the end is near.
        let times: Vec<f64> = reports.iter().map(|r| r.0).collect();
        let spent = times[8] - times[5];
        let foretold = CAPTURES_SHARE + (1.0 - CAPTURES_SHARE) * spent / (6.0 * 0.4);
        assert!((f[8] - foretold).abs() < 1e-9, "{f:?} at {times:?}");
        assert!(f[f.len() - 2] > 0.85, "{f:?} at {times:?}");
    }

    #[test]
    fn once_the_counts_fall_the_iterations_take_after_peak_times_the_time_to_the_peak() {
        // Captures 0–0.1 s; iterations from 0.1 s; the most positions are decided at distance
        // 3 (0.5 s), fewer at distance 4 (0.7 s): the iterations are foretold to take
        // AFTER_PEAK × the 0.4 s to the peak in all, 1.0 s, of which 0.6 s are spent. (They
        // were once foretold to take AFTER_PEAK × that time *after* the peak, 1.4 s in all,
        // and KBN.KN showed 44% at 90% of its build.)
        let f = clock_run(&[
            (0.0, Phase::Setup, 0.0),
            (0.0, Phase::Captures, 0.0),
            (0.1, Phase::Iteration(1), 0.5),
            (0.2, Phase::Iteration(2), 0.5 + 0.5 * 0.01),
            (0.5, Phase::Iteration(3), 0.5 + 0.5 * 0.11),
            (0.7, Phase::Iteration(4), 0.5 + 0.5 * 0.18),
        ]);
        let total = AFTER_PEAK * 0.4;
        let want = CAPTURES_SHARE + (1.0 - CAPTURES_SHARE) * 0.6 / total;
        assert!((f[5] - want).abs() < 1e-9, "{f:?}, want {want}");
    }

    #[test]
    fn without_a_captures_report_the_setup_times_the_iterations() {
        let f = clock_run(&[
            (0.0, Phase::Setup, 0.0),
            (0.5, Phase::Iteration(1), 0.5),
            (1.0, Phase::Iteration(2), 0.6),
        ]);
        let foretold = CAPTURES_SHARE + (1.0 - CAPTURES_SHARE) * 0.5 / (6.0 * 0.5);
        assert!((f[2] - foretold).abs() < 1e-9, "{f:?}");
    }
}
