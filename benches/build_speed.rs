//! Build-time and memory benchmark: `cargo bench` (release build).
//!
//! Each endgame is built in a child process of its own, so the peak memory (VmHWM) and the
//! CPU time (utime + stime, all threads) read from /proc are that build's alone. Prints one
//! line per endgame: wall seconds, CPU seconds, peak resident memory, the memory the
//! budget reckons the build needs (`TableSet::bytes_needed`, the tables and the builder's
//! working memory: the process's own few megabytes come on top), and the wall seconds until
//! the full-board statistics are counted too; for KBN.KN, how that compares with EGTgen and
//! with the aim of 30 times its speed; for the pawn endgame KRP.KR, its time as a multiple
//! of KBN.KN's and its peak memory beside the tables it keeps; the nanoseconds per placement
//! of each endgame (its wall time over the full-board placements of its men, one side to
//! move), and for those on other boards, that figure beside the same endgame's on 8×8 (the
//! aim: within 1.5×), and KC.KRN's time as a multiple of KBN.KN's (the aim: at most 7×).
//! Each of these ratios (the two multiples of KBN.KN's time, and each other board's figure
//! beside 8×8's) is the median of three pairs (nine where both builds take under a second):
//! the main run's, and more builds of the endgame, each followed by one of its yardstick
//! (KBN.KN, or the same endgame on 8×8).
//! Linux only (/proc).
//!
//! With `FAIRY_EGT_EGTGEN` naming an EGTgen 1.2 5-man binary (H.G. Muller's public source,
//! built with `gcc -O2 -DMEN=5 EGTgen.c`; not part of this repository), KBN.KN is also timed
//! side by side with it: three rounds, EGTgen (`-m KBN.KN`, DTM, in a scratch directory)
//! and this build alternated, and the ratio is taken from those runs instead of the stored
//! figure.
//! Options after `--`: endgame specs to measure instead of the defaults (`KC.KR@10x8` for one
//! on another board), `--threads N`.
//!
//! Then, for the last endgame: how soon a cancelled build returns (the flag raised at 10 %,
//! 30 % and 50 % of the build), how soon the engine (`fairy-egt ENDGAME`, XBoard mode)
//! exits after `quit` in the middle of its start-up build, and saved tables: the size of
//! its file, how long saving and loading it (and its sub-tables) take, and how soon an
//! engine started with the table directory answers `go` with a move: the first time, when
//! it still builds and saves the DTZ tables of its play within the 50-move rule, and the
//! second, when it loads every table (a warm file cache).

use fairy_egt::board::{BoardSize, Color};
use fairy_egt::egt::extremes::longest_win;
use fairy_egt::egt::material::Material;
use fairy_egt::egt::progress::Silent;
use fairy_egt::egt::stats::table_stats;
use fairy_egt::egt::table::Metric;
use fairy_egt::egt::tables::TableSet;
use fairy_egt::piece::PieceSet;
use std::io::{BufRead, BufReader, Write};
use std::process::{Command, Stdio};
use std::sync::atomic::{AtomicBool, Ordering::Relaxed};
use std::sync::Mutex;
use std::time::{Duration, Instant};

const CHILD: &str = "FAIRY_EGT_BENCH_CHILD";

/// The pawn endgame measured, with every table it needs (KRQ.KR, KRR.KR, KRB.KR, KRN.KR,
/// the 4-man ones): its time is set beside KBN.KN's (issue 27: at most 8×), its peak memory
/// beside the bytes of the tables it keeps (at most 10 % more).
const PAWNS: &str = "KRP.KR";

/// EGTgen 1.2 (-O2, one side to move, one thread) building KBN.KN on the project's 2-core
/// machine, the median measured on 2026-11-24 (`docs/DESIGN.md` §3), in seconds: the
/// baseline of the 5-man speed aim (issue 17: 30 times faster, statistics included).
/// Meaningful only on that machine; `FAIRY_EGT_EGTGEN` measures it side by side instead.
const EGTGEN_KBNKN: f64 = 39.6;

/// Pairs of builds (the endgame, then its yardstick: KBN.KN, or the same endgame on 8×8)
/// behind each ratio that an aim sets: the first pair is the main run's, the others run
/// right after it. The ratio printed is their median, as the machine's speed drifts by
/// 5–20 % within minutes.
const RATIO_PAIRS: usize = 3;

/// Pairs behind a ratio whose builds both took under [`SHORT`] seconds in the main run: a
/// build of a tenth of a second drifts more, from run to run, than a long one, and more
/// pairs of it cost little.
const SHORT_PAIRS: usize = 9;

/// Below this many seconds a build is short (see [`SHORT_PAIRS`]).
const SHORT: f64 = 1.0;

/// The environment variable naming an EGTgen 1.2 5-man binary to time side by side.
const EGTGEN: &str = "FAIRY_EGT_EGTGEN";
/// Rounds of the side-by-side timing, each one EGTgen build and one of ours.
const EGTGEN_ROUNDS: usize = 3;

/// CPU seconds of this process (all threads) and its peak resident memory in bytes.
fn usage() -> Option<(f64, u64)> {
    let stat = std::fs::read_to_string("/proc/self/stat").ok()?;
    // Fields after the command name (which may contain spaces) start at field 3.
    let after = stat.rsplit_once(')')?.1;
    let fields: Vec<&str> = after.split_whitespace().collect();
    let ticks: f64 = fields.get(11)?.parse::<f64>().ok()? + fields.get(12)?.parse::<f64>().ok()?;
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let hwm_kb: u64 = status
        .lines()
        .find_map(|l| l.strip_prefix("VmHWM:"))?
        .trim()
        .trim_end_matches("kB")
        .trim()
        .parse()
        .ok()?;
    // /proc reports CPU time in USER_HZ ticks, 100 per second on Linux.
    Some((ticks / 100.0, hwm_kb * 1024))
}

/// The endgame and board of a spec such as `KC.KR@10x8` (8×8 without the `@`).
fn endgame_and_board(spec: &str) -> (&str, BoardSize) {
    match spec.split_once('@') {
        Some((endgame, board)) => (endgame, board.parse().expect("a board such as 10x8")),
        None => (spec, BoardSize::STANDARD),
    }
}

fn child(spec: &str, threads: usize) {
    rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build_global()
        .expect("one pool");
    let (spec, board) = endgame_and_board(spec);
    let mut set = TableSet::new(PieceSet::standard(), Metric::Dtm).on_board(board);
    let material = Material::parse(spec, set.pieces()).expect("a valid endgame");
    let estimate = set.bytes_needed(&material);
    let start = Instant::now();
    set.build(&material, &Silent).expect("the build succeeds");
    let wall = start.elapsed().as_secs_f64();
    let (cpu, peak) = usage().expect("/proc is readable");
    let table = set.get(&material).expect("built");
    table_stats(table, set.geometry());
    let with_stats = start.elapsed().as_secs_f64();
    println!(
        "{wall} {cpu} {peak} {estimate} {with_stats} {} {}",
        set.bytes(),
        table.indexer().full_board_placements()
    );
}

/// Builds `spec` and raises the cancel flag once the build reports `share` done; the time
/// from the flag to the build's return. `None` when the build ended before it reported that
/// share (a fast build's last report may come before it) or before it saw the flag.
fn cancel_latency(spec: &str, share: f64) -> Option<Duration> {
    let (endgame, board) = endgame_and_board(spec);
    let mut set = TableSet::new(PieceSet::standard(), Metric::Dtm).on_board(board);
    let material = Material::parse(endgame, set.pieces()).expect("a valid endgame");
    let cancel = AtomicBool::new(false);
    let raised = Mutex::new(None);
    let progress = |e: &fairy_egt::egt::progress::BuildEvent| {
        if e.fraction >= share && !cancel.swap(true, Relaxed) {
            *raised.lock().expect("not poisoned") = Some(Instant::now());
        }
    };
    let result = set.build_cancellable(&material, &progress, &cancel);
    let back = Instant::now();
    let raised = raised.lock().expect("not poisoned").take();
    match (result, raised) {
        (Err(_), Some(raised)) => Some(back - raised),
        // Over before the flag was raised, or before the build looked at it again.
        (Ok(_), _) => None,
        (Err(e), None) => panic!("{spec}: the build failed with no flag raised: {e}"),
    }
}

/// Starts the engine binary on `spec` (an endgame and its board) with no report file and the
/// arguments `more`, its stdin and stdout piped, its stderr dropped.
fn start_engine(spec: &str, more: &[&std::ffi::OsStr]) -> std::process::Child {
    let (endgame, board) = endgame_and_board(spec);
    Command::new(env!("CARGO_BIN_EXE_fairy-egt"))
        .args([endgame, "--report", "-", "--board", &board.to_string()])
        .args(more)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("the engine starts")
}

/// Starts the engine on `spec` in XBoard mode, waits until its build reports `share` done,
/// sends `quit`; the time from `quit` to the end of the process, `None` if the build was
/// over before it reported `share` (a small endgame).
fn quit_latency(spec: &str, share: u32) -> Option<Duration> {
    let endgame = endgame_and_board(spec).0;
    let mut engine = start_engine(spec, &[]);
    let mut stdin = engine.stdin.take().expect("piped");
    writeln!(stdin, "xboard\nprotover 2\nping 1").expect("the engine reads");
    let lines = BufReader::new(engine.stdout.take().expect("piped")).lines();
    // A build's thinking line holds "(12% KBN.KN: building …" (or "(31% KBN.KN, ~5 s left: …").
    let mut over = false;
    for line in lines {
        let line = line.expect("the engine writes");
        if line.contains(" ready in ") {
            over = true;
            break;
        }
        let done = line
            .split_once('(')
            .and_then(|(_, rest)| rest.split_once("% "))
            .filter(|(_, rest)| rest.starts_with(endgame))
            .and_then(|(p, _)| p.parse::<u32>().ok());
        if done.is_some_and(|p| p >= share) {
            break;
        }
    }
    let quit = Instant::now();
    writeln!(stdin, "quit").expect("the engine reads");
    engine.wait().expect("the engine exits");
    (!over).then(|| quit.elapsed())
}

/// Saves the tables of `spec` to a fresh table directory, loads them into a new set, then
/// starts the engine on that directory twice and times `go` in the longest win: prints the
/// file size, the save and load times, and both starts' times.
fn saved_tables(spec: &str) {
    let (endgame, board) = endgame_and_board(spec);
    let dir = std::env::temp_dir().join(format!("fairy-egt-bench-tables-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let new_set = || {
        let mut set = TableSet::new(PieceSet::standard(), Metric::Dtm).on_board(board);
        set.set_table_dir(Some(dir.clone()));
        set
    };
    let mut built = new_set();
    let material = Material::parse(endgame, built.pieces()).expect("a valid endgame");
    built.build(&material, &Silent).expect("the build succeeds");
    let file = dir.join(built.key(&material).file_name());
    let size = std::fs::metadata(&file).expect("the table is saved").len();
    // Saved again alone, to time the save.
    let mut only = new_set();
    only.set_table_dir(None);
    only.build(&material, &Silent).expect("the build succeeds");
    std::fs::remove_file(&file).expect("the file is there");
    only.set_table_dir(Some(dir.clone()));
    let started = Instant::now();
    only.build(&material, &Silent)
        .expect("nothing to build: it saves");
    let saved = started.elapsed();
    let started = Instant::now();
    new_set()
        .build(&material, &Silent)
        .expect("the load succeeds");
    let loaded = started.elapsed();
    println!(
        "{spec}: saved table {:.1} MB, saved with its sub-tables in {:.3} s, loaded with them in {:.3} s",
        size as f64 / 1e6,
        saved.as_secs_f64(),
        loaded.as_secs_f64()
    );
    let Some((pos, _)) = longest_win(&built, &material, Color::White) else {
        return;
    };
    let fen = pos.to_setup().to_fen();
    // The time from the engine's start to its move on `fen`, with the table directory.
    let start_to_move = || {
        let started = Instant::now();
        let mut engine = start_engine(spec, &["--tables".as_ref(), dir.as_ref()]);
        let mut stdin = engine.stdin.take().expect("piped");
        writeln!(stdin, "xboard\nprotover 2\nforce\nsetboard {fen}\ngo").expect("the engine reads");
        let answered = BufReader::new(engine.stdout.take().expect("piped"))
            .lines()
            .map_while(Result::ok)
            .any(|l| l.starts_with("move "));
        let took = started.elapsed();
        writeln!(stdin, "quit").expect("the engine reads");
        engine.wait().expect("the engine exits");
        assert!(answered, "the engine moved");
        took
    };
    // The first start finds the DTM tables saved above, and builds and saves the DTZ tables
    // its play within the 50-move rule also reads; the second loads them all.
    let first = start_to_move();
    let took = start_to_move();
    println!(
        "{spec}: engine start on the saved tables, from start to its move: {:.3} s the first time (it builds and saves the DTZ tables), {:.3} s the second",
        first.as_secs_f64(),
        took.as_secs_f64()
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// Builds `spec` in a child process: wall s, CPU s, peak bytes, estimated bytes, wall s with
/// the statistics, bytes of the tables kept (the endgame's and every smaller one's), the
/// endgame's full-board placements (one side to move).
fn run_child(spec: &str, threads: usize) -> Vec<f64> {
    let out = Command::new(std::env::current_exe().expect("own path"))
        .env(CHILD, spec)
        .args(["--threads", &threads.to_string()])
        .output()
        .expect("the child runs");
    assert!(
        out.status.success(),
        "{spec}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout)
        .split_whitespace()
        .map(|x| x.parse().expect("numbers"))
        .collect()
}

/// Nanoseconds of a build (`run_child`'s figures) per full-board placement of its men.
fn per_placement(v: &[f64]) -> f64 {
    wall(v) * 1e9 / v[6]
}

/// Wall seconds of EGTgen (`egtgen`, a 5-man binary) building KBN.KN under DTM, run in a
/// scratch directory, its stdin a blank line so that it ends after the build. EGTgen 1.2
/// ends with a segmentation fault even after a good build, so its exit status says nothing:
/// the build counts only if EGTgen wrote the statistics of `KBN_KN` (its name for the
/// endgame) to the scratch directory. A binary built for 4 men drops a man and writes those
/// of `KB_KN` in a tenth of a second; one for 3 men refuses the endgame.
fn egtgen_kbnkn(egtgen: &std::ffi::OsStr) -> f64 {
    let dir = std::env::temp_dir().join(format!("fairy-egt-bench-egtgen-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("a scratch directory");
    let started = Instant::now();
    let mut run = Command::new(egtgen)
        .args(["-m", "KBN.KN"])
        .current_dir(&dir)
        .stdin(Stdio::piped())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap_or_else(|e| panic!("{EGTGEN}={}: {e}", egtgen.to_string_lossy()));
    // EGTgen asks for a move after the build; the blank line and the end of input end it.
    let _ = run.stdin.take().expect("piped").write_all(b"\n");
    run.wait().expect("EGTgen ends");
    let took = started.elapsed().as_secs_f64();
    let built = std::fs::read_dir(&dir)
        .expect("the scratch directory")
        .filter_map(|entry| std::fs::read_to_string(entry.ok()?.path()).ok())
        .any(|text| text.lines().any(|l| l.trim() == "KBN_KN") && text.contains("WON.wtm"));
    let _ = std::fs::remove_dir_all(&dir);
    assert!(
        built,
        "{EGTGEN}={}: no KBN_KN statistics written, so no KBN.KN build (a 5-man EGTgen 1.2 binary is needed)",
        egtgen.to_string_lossy()
    );
    took
}

/// Times KBN.KN with EGTgen and with this build, alternated, [`EGTGEN_ROUNDS`] rounds, and
/// prints each round and the ratio of the medians (ours with the statistics counted).
fn side_by_side(egtgen: &std::ffi::OsStr, threads: usize) {
    let mut theirs = Vec::new();
    let mut ours = Vec::new();
    for round in 1..=EGTGEN_ROUNDS {
        theirs.push(egtgen_kbnkn(egtgen));
        ours.push(run_child("KBN.KN", threads)[4]);
        println!(
            "KBN.KN side by side, round {round}: EGTgen 1.2 {:.2} s, this build {:.3} s with statistics",
            theirs[round - 1],
            ours[round - 1]
        );
    }
    let (theirs, ours) = (median(&theirs), median(&ours));
    println!(
        "KBN.KN: {:.1}× EGTgen 1.2 side by side (medians {theirs:.2} s and {ours:.3} s); the aim is 30×: {:.2} s with statistics",
        theirs / ours,
        theirs / 30.0
    );
}

/// The ratios of `spec`'s figure to `base`'s over [`RATIO_PAIRS`] pairs ([`SHORT_PAIRS`] when
/// both builds are short), the first from `first` (the main run's values of both), the
/// others built alternately now; and their median. `figure` takes a child's printed values
/// to the figure compared: the wall seconds, or the nanoseconds per placement.
fn ratio_pairs(
    (spec, base): (&str, &str),
    first: (&[f64], &[f64]),
    figure: fn(&[f64]) -> f64,
    threads: usize,
) -> (Vec<f64>, f64) {
    let mut ratios = vec![figure(first.0) / figure(first.1)];
    let pairs = match wall(first.0).max(wall(first.1)) < SHORT {
        true => SHORT_PAIRS,
        false => RATIO_PAIRS,
    };
    for _ in 1..pairs {
        let endgame = figure(&run_child(spec, threads));
        ratios.push(endgame / figure(&run_child(base, threads)));
    }
    let median = median(&ratios);
    (ratios, median)
}

/// The wall seconds of a child's printed values.
fn wall(v: &[f64]) -> f64 {
    v[0]
}

/// The median of `values` (the upper one of an even count).
fn median(values: &[f64]) -> f64 {
    let mut sorted = values.to_vec();
    sorted.sort_by(f64::total_cmp);
    sorted[sorted.len() / 2]
}

/// The ratios of [`ratio_pairs`] as text with `decimals` decimals: `9.4×, 9.9×, 9.6×`.
fn listed(ratios: &[f64], decimals: usize) -> String {
    let texts: Vec<String> = ratios.iter().map(|r| format!("{r:.decimals$}×")).collect();
    texts.join(", ")
}

fn main() {
    let args: Vec<String> = std::env::args()
        .skip(1)
        .filter(|a| a != "--bench")
        .collect();
    let threads = args
        .iter()
        .position(|a| a == "--threads")
        .and_then(|i| args.get(i + 1))
        .map_or(2, |t| t.parse().expect("--threads N"));
    if let Ok(spec) = std::env::var(CHILD) {
        return child(&spec, threads);
    }
    let mut specs: Vec<&str> = args
        .iter()
        .map(String::as_str)
        .filter(|a| a.contains('.'))
        .collect();
    if specs.is_empty() {
        specs = vec![
            "KQ.KR",
            "KC.KR",
            "KQ.KR@10x8",
            "KC.KR@10x8",
            "KQ.KR@12x12",
            "KC.KRN@10x8",
            PAWNS,
            "KBN.KN",
        ];
    }
    println!(
        "{:<12} {:>8} {:>10} {:>9} {:>12} {:>12} {:>14} {:>14}",
        "endgame",
        "threads",
        "wall s",
        "CPU s",
        "peak MB",
        "estimate MB",
        "+ statistics s",
        "ns/placement"
    );
    let mut times = Vec::new();
    for &spec in &specs {
        let v = run_child(spec, threads);
        times.push((spec, v.clone()));
        println!(
            "{:<12} {:>8} {:>10.3} {:>9.2} {:>12.1} {:>12.1} {:>14.3} {:>14.2}",
            spec,
            threads,
            v[0],
            v[1],
            v[2] / 1e6,
            v[3] / 1e6,
            v[4],
            per_placement(&v)
        );
        if spec == "KBN.KN" {
            match std::env::var_os(EGTGEN) {
                Some(egtgen) => side_by_side(&egtgen, threads),
                None => println!(
                    "KBN.KN: {:.1}× EGTgen 1.2 ({EGTGEN_KBNKN} s stored, measured 2026-11-24 on the project's 2-core machine; {EGTGEN}=BINARY times it side by side); the aim is 30×: {:.2} s with statistics",
                    EGTGEN_KBNKN / v[4],
                    EGTGEN_KBNKN / 30.0
                ),
            }
        }
    }
    let pawns = times.iter().find(|(s, _)| *s == PAWNS);
    let kbnkn = times.iter().find(|(s, _)| *s == "KBN.KN");
    if let (Some((_, p)), Some((_, k))) = (pawns, kbnkn) {
        let (ratios, median) = ratio_pairs((PAWNS, "KBN.KN"), (p, k), wall, threads);
        println!(
            "{PAWNS}: {median:.1}× KBN.KN's time, the median of {} pairs run alternately ({}; the aim is at most 8×); peak {:.0} MB, {:+.1} % of the {:.0} MB of tables it keeps (the aim is at most +10 %)",
            ratios.len(),
            listed(&ratios, 1),
            p[2] / 1e6,
            100.0 * (p[2] / p[5] - 1.0),
            p[5] / 1e6
        );
    }
    for (spec, v) in &times {
        let (endgame, board) = endgame_and_board(spec);
        let on_8x8 = times.iter().find(|(s, _)| *s == endgame);
        if let (false, Some((_, w))) = (board == BoardSize::STANDARD, on_8x8) {
            let (ratios, median) = ratio_pairs((spec, endgame), (v, w), per_placement, threads);
            println!(
                "{spec}: {:.2} ns per placement, {median:.2}× {endgame}'s {:.2} on 8×8, the median of {} pairs run alternately ({}; the aim is at most 1.5×)",
                per_placement(v),
                per_placement(w),
                ratios.len(),
                listed(&ratios, 2)
            );
        }
    }
    let kcrkn = times.iter().find(|(s, _)| *s == "KC.KRN@10x8");
    if let (Some((_, c)), Some((_, k))) = (kcrkn, kbnkn) {
        let (ratios, median) = ratio_pairs(("KC.KRN@10x8", "KBN.KN"), (c, k), wall, threads);
        println!(
            "KC.KRN@10x8: {median:.1}× KBN.KN's time, the median of {} pairs run alternately ({}; the aim is at most 7×)",
            ratios.len(),
            listed(&ratios, 1)
        );
    }
    let last = specs.last().expect("an endgame");
    // The build's own estimate of its share done: KBN.KN's last report before the end is now
    // below 60 % (its loss steps after the peak got faster than the clock foretells).
    for share in [0.1, 0.3, 0.5] {
        match cancel_latency(last, share) {
            Some(took) => println!(
                "{last}: cancelled at {:.0}%, the build returns in {:.1} ms",
                share * 100.0,
                took.as_secs_f64() * 1000.0
            ),
            None => println!(
                "{last}: the build was over before it reported {:.0}% done",
                share * 100.0
            ),
        }
    }
    for share in [10, 50] {
        match quit_latency(last, share) {
            Some(took) => println!(
                "{last}: engine mode, quit at {share}% of the start-up build, the process ends in {:.1} ms",
                took.as_secs_f64() * 1000.0
            ),
            None => println!("{last}: engine mode, the start-up build was over before {share}%"),
        }
    }
    saved_tables(last);
}
