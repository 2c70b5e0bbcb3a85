//! Fuzzing the engine core through both protocols: random and mutated XBoard and UCI lines
//! are fed to an [`Engine`](fairy_egt::engine::Engine) exactly as the session feeds it, but
//! synchronously and in process (see `harness.rs` for the invariants, `lines.rs` for the
//! lines). No panic hook is installed and nothing is caught: any panic, in the engine, the
//! protocols or a parser they call, fails the test.
//!
//! A run is a sequence of cases, XBoard and UCI in turn, each one engine fed 150 to 1,500
//! lines.
//! Environment:
//! - `FAIRY_EGT_FUZZ_LINES`: lines to feed in all (default 10,000: about 10 s on an idle machine);
//! - `FAIRY_EGT_FUZZ_SEED`: the run's seed (default fixed);
//! - `FAIRY_EGT_FUZZ_FIVE_MEN`: five-man builds allowed (default 0: about 10 s each here;
//!   beyond the budget a five-man build fails on purpose, which the engine must survive);
//! - `FAIRY_EGT_FUZZ_CASE`: replay only the case of this seed (printed by a failure).
//!
//! A failure prints the case's seed and its lines, shortened to a minimal sequence that still
//! fails the same way when that is cheap; a panic prints the seed and every line fed so far.

#[path = "../fuzz/mod.rs"]
mod fuzz;
mod harness;
mod lines;

use fairy_egt::piece::parse::STANDARD_PIECEDEF;
use fairy_egt::protocol::Dialect;
use fuzz::{case_seed, count, numbered, only_case, run_seed, Rng};
use harness::{Counts, Failure, Run};
use lines::{Lines, Step, STARTUP};
use std::fmt::Write as _;
use std::io::Write as _;
use std::path::PathBuf;
use std::time::{Duration, Instant};

/// Lines fed by default (CI).
const LINES: usize = 10_000;

/// Most replays spent shortening a failing case, and the time they may take.
const MINIMISE_REPLAYS: usize = 300;
const MINIMISE_TIME: Duration = Duration::from_secs(90);

#[test]
fn protocol_lines_never_break_the_engine() {
    let started = Instant::now();
    let run = run_seed();
    let want = count("FAIRY_EGT_FUZZ_LINES", LINES);
    let mut five_men = count("FAIRY_EGT_FUZZ_FIVE_MEN", 0);
    let only = only_case();
    let files = piece_files();
    let mut total = Counts::default();
    let mut cases = [0usize; 2];
    for index in 0.. {
        if total.lines >= want && only.is_none() || only.is_some() && index == 1 {
            break;
        }
        // Cases alternate between the dialects: the seed's lowest bit chooses.
        let seed = only.unwrap_or_else(|| (case_seed(run, index) & !1) | (index & 1));
        let case = Case::new(seed, files.clone());
        cases[usize::from(case.dialect == Dialect::Uci)] += 1;
        let limit = if only.is_some() {
            usize::MAX
        } else {
            want - total.lines
        };
        let counts = case.run(limit, five_men);
        five_men -= counts.five_men;
        total.add(&counts);
    }
    let origin = match only {
        Some(case) => format!("case {case:#x} alone"),
        None => format!("seed {run:#x}"),
    };
    let mut err = std::io::stderr().lock();
    let _ = writeln!(
        err,
        "fuzz_engine: {} lines in {} cases ({} XBoard, {} UCI) from {origin}: \
         {} pongs/readyoks and {} bestmoves matched, {} refusals left the state unchanged, \
         {} legal moves played, {} go/analyze answered, {} game-end claims true, {} board \
         changes ({} moves and answers off 8×8); {} builds ({} five-man, {:.1} s), {} failed on purpose; {:.1} s",
        total.lines,
        cases[0] + cases[1],
        cases[0],
        cases[1],
        total.pongs,
        total.bestmoves,
        total.refusals,
        total.moves,
        total.answers,
        total.claims,
        total.boards,
        total.off_standard,
        total.builds,
        total.five_men,
        total.build_time.as_secs_f64(),
        total.failed,
        started.elapsed().as_secs_f64()
    );
    assert!(want == 0 || total.lines > 0, "no line was fed");
    // The run did play on other boards than 8×8 (the default run changes board dozens of
    // times).
    assert!(
        want < LINES || only.is_some() || total.boards > 0,
        "no line changed the board"
    );
}

/// One case: a fresh engine, a dialect, and the lines of its seed.
struct Case {
    seed: u64,
    dialect: Dialect,
    startup: &'static str,
    length: usize,
    lines: Lines,
}

impl Case {
    fn new(seed: u64, piece_files: Vec<PathBuf>) -> Case {
        let mut rng = Rng::new(seed);
        let dialect = match seed & 1 {
            1 => Dialect::Uci,
            _ => Dialect::XBoard,
        };
        let startup = *rng.pick(STARTUP);
        let length = rng.between(150, 1500);
        let five_men = rng.one_in(4);
        Case {
            seed,
            dialect,
            startup,
            length,
            lines: Lines::new(rng, dialect, five_men, piece_files),
        }
    }

    /// Feeds the case's lines (at most `limit`); panics with the seed and the (shortened)
    /// lines when an invariant breaks.
    fn run(mut self, limit: usize, five_men: usize) -> Counts {
        let mut guard = match Run::new(self.startup, five_men) {
            Ok(run) => PanicReport {
                seed: self.seed,
                run,
            },
            Err(f) => panic!("the start-up of case {:#x} failed: {f:?}", self.seed),
        };
        let result = self.feed(&mut guard.run, limit);
        if let Err(failure) = result {
            let steps = guard.run.steps.clone();
            let recent = guard.run.recent.iter().cloned().collect::<Vec<_>>();
            let short = minimise(self.startup, steps.clone(), failure.kind);
            panic!(
                "case {seed:#x} ({dialect:?}, start-up endgame {startup}): {kind}: {detail}\n\
                 replay with FAIRY_EGT_FUZZ_CASE={seed:#x}\n\
                 last lines written:\n{recent}\n\
                 a shortest failing sequence found ({n} of {all} lines; builds held or \
                 failed as noted):\n{short}",
                seed = self.seed,
                dialect = self.dialect,
                startup = self.startup,
                kind = failure.kind,
                detail = failure.detail,
                recent = numbered(&recent),
                n = short.len(),
                all = steps.len(),
                short = describe(&short),
            );
        }
        guard.run.counts.clone()
    }

    fn feed(&mut self, run: &mut Run, limit: usize) -> Result<(), Failure> {
        for _ in 0..self.length.min(limit) {
            let step = self.lines.next(run.position(), run.geometry());
            run.feed(&step)?;
            if run.quit {
                break;
            }
        }
        run.finish_case()
    }
}

/// Prints the case's seed and every line fed if a panic unwinds through the case. It
/// neither catches nor silences the panic: the test still fails with it.
struct PanicReport {
    seed: u64,
    run: Run,
}

impl Drop for PanicReport {
    fn drop(&mut self) {
        if std::thread::panicking() {
            let _ = writeln!(
                std::io::stderr().lock(),
                "fuzz_engine: panic in case {seed:#x} (replay with FAIRY_EGT_FUZZ_CASE={seed:#x}) \
                 after these lines:\n{}",
                describe(&self.run.steps),
                seed = self.seed,
            );
        }
    }
}

/// The steps, numbered, with what happened to the builds they started.
fn describe(steps: &[Step]) -> String {
    let mut out = String::new();
    for (i, s) in steps.iter().enumerate() {
        let build = match (s.defer, s.fail) {
            (0, false) => String::new(),
            (0, true) => "  [a build it starts fails]".to_string(),
            (d, f) => format!(
                "  [a build it starts runs for {d} more lines{}]",
                if f { ", then fails" } else { "" }
            ),
        };
        let _ = writeln!(out, "{:>5}  {:?}{build}", i + 1, s.line);
    }
    out
}

/// A shorter sequence of steps that still fails with the same kind of failure (chunks and
/// then single lines removed while that holds), within a budget of replays.
fn minimise(startup: &str, mut steps: Vec<Step>, kind: &str) -> Vec<Step> {
    let started = Instant::now();
    let fails = |steps: &[Step]| replay(startup, steps).is_err_and(|f| f.kind == kind);
    let mut replays = 0;
    let mut chunk = steps.len().div_ceil(2);
    while chunk > 0 {
        let mut at = 0;
        while at < steps.len() {
            if replays >= MINIMISE_REPLAYS || started.elapsed() > MINIMISE_TIME {
                return steps;
            }
            let end = (at + chunk).min(steps.len());
            let shorter: Vec<Step> = steps[..at].iter().chain(&steps[end..]).cloned().collect();
            replays += 1;
            if fails(&shorter) {
                steps = shorter;
            } else {
                at += chunk;
            }
        }
        chunk /= 2;
    }
    steps
}

/// Feeds `steps` to a new engine; five-man builds fail.
fn replay(startup: &str, steps: &[Step]) -> Result<(), Failure> {
    let mut run = Run::new(startup, 0)?;
    for step in steps {
        run.feed(step)?;
        if run.quit {
            break;
        }
    }
    run.finish_case()
}

/// Piece files for UCI's `PieceFile` option: the shipped one, mutated copies (the same in
/// every run, so a case replays alike), a missing file, a directory, and the package's own
/// `piecedef.ini` by a relative name.
fn piece_files() -> Vec<PathBuf> {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("fuzz_engine");
    std::fs::create_dir_all(&dir).expect("create the piece-file directory");
    let mut rng = Rng::new(0x91ece);
    let mut files = vec![
        dir.join("missing.ini"),
        dir.clone(),
        PathBuf::from("piecedef.ini"),
    ];
    for i in 0..8 {
        let text = if i == 0 {
            STANDARD_PIECEDEF.to_string()
        } else {
            fuzz::mutate(&mut rng, STANDARD_PIECEDEF)
        };
        let path = dir.join(format!("pieces-{i}.ini"));
        std::fs::write(&path, text).expect("write a piece file");
        files.push(path);
    }
    // Pawns other than the orthodox one: the Berolina pawn, and one that steps and takes
    // both ways, with both double steps.
    files.push(PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/data/berolina.ini"));
    let path = dir.join("pieces-pawn.ini");
    std::fs::write(&path, fuzz::with_pawn("fmWfmFfceFfceWifmnDifmnA")).expect("write a piece file");
    files.push(path);
    files
}
