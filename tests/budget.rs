//! The memory budget through the binary: `--memory` on the command line refuses a build that
//! does not fit, at once and before allocating; in engine mode the `TableMemory` option does
//! the same and the engine goes on with other material; XBoard's own `memory` limits nothing.

mod support;

use std::io::Read;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};
use support::{scratch, Engine, BIN, KQKR, PATIENCE};

/// A KBN.KN position (its tables and sub-tables need 293 MB).
const KBNKN: &str = "8/8/8/3n4/8/2k5/8/KBN5 w - - 0 1";
/// A KR.K position (a small table).
const KRK: &str = "8/8/8/8/8/2k5/8/KR6 w - - 0 1";

/// What a finished command did.
struct Run {
    code: Option<i32>,
    stdout: String,
    stderr: String,
    seconds: f64,
    /// Peak resident memory of the process, in MB.
    peak_mb: f64,
}

/// Runs `fairy-egt ARGS` to its end, measuring its time and peak resident memory.
#[allow(
    clippy::zombie_processes,
    reason = "the child is waited for by wait4, which also gives its peak memory"
)]
fn run(args: &[&str]) -> Run {
    let started = Instant::now();
    let mut child = Command::new(BIN)
        .args(args)
        .current_dir(std::env::temp_dir())
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the binary runs");
    let read = |mut r: Box<dyn Read + Send>| {
        std::thread::spawn(move || {
            let mut s = String::new();
            let _ = r.read_to_string(&mut s);
            s
        })
    };
    let stdout = read(Box::new(child.stdout.take().expect("piped")));
    let stderr = read(Box::new(child.stderr.take().expect("piped")));
    let pid = child.id() as libc::pid_t;
    let mut status = 0;
    // SAFETY: rusage is plain data, for which all zeroes is a valid value.
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    // SAFETY: `pid` is this process's child, which nothing else waits for (the `Child` is only
    // dropped, and dropping neither waits nor kills); wait4 writes to the two locals.
    let waited = unsafe { libc::wait4(pid, &mut status, 0, &mut usage) };
    assert_eq!(waited, pid, "wait4: {}", std::io::Error::last_os_error());
    Run {
        code: libc::WIFEXITED(status).then(|| libc::WEXITSTATUS(status)),
        stdout: stdout.join().unwrap_or_default(),
        stderr: stderr.join().unwrap_or_default(),
        seconds: started.elapsed().as_secs_f64(),
        // ru_maxrss is in KiB on Linux.
        peak_mb: usage.ru_maxrss as f64 * 1024.0 / 1e6,
    }
}

const KBNKN_OVER_50: &str = "fairy-egt: KBN.KN needs 293 MB of table memory, more than the \
                             budget of 50 MB (--memory / memory= in engine.ini / option \
                             TableMemory)\n";

#[test]
fn a_build_over_the_budget_is_refused_at_once_before_allocating() {
    let r = run(&["build", "KBN.KN", "--memory", "50", "--report", "-"]);
    assert_eq!(r.code, Some(2), "{}", r.stderr);
    assert_eq!(r.stderr, KBNKN_OVER_50);
    assert!(r.stdout.is_empty(), "{}", r.stdout);
    // The build takes seconds and 295 MB; refused, the process ends at once, small.
    assert!(r.seconds < 1.0, "refused after {:.2} s", r.seconds);
    assert!(r.peak_mb < 30.0, "peak {:.1} MB", r.peak_mb);
    // Every command that builds refuses the same way.
    for args in [
        &["probe", "KBN.KN", "--memory", "50", "--fen", KBNKN][..],
        &["play", "KBN.KN", "--memory", "50"][..],
    ] {
        let r = run(args);
        assert_eq!(
            (r.code, r.stderr.as_str()),
            (Some(2), KBNKN_OVER_50),
            "{args:?}"
        );
    }
    // A bad value is named.
    let r = run(&["build", "KQ.KR", "--memory", "fifty"]);
    assert_eq!(r.code, Some(2));
    assert!(
        r.stderr.starts_with(
            "fairy-egt: --memory: expected a whole number of megabytes, found 'fifty'"
        ),
        "{}",
        r.stderr
    );
}

#[test]
fn a_build_within_the_budget_is_made() {
    let r = run(&[
        "build", "KQ.KR", "--memory", "50", "--report", "-", "--json",
    ]);
    assert_eq!(r.code, Some(0), "{}", r.stderr);
    let v: serde_json::Value = serde_json::from_str(&r.stdout).unwrap();
    assert_eq!(v["wtm"]["longest_win"], 35);
}

#[test]
fn engine_ini_sets_the_budget_and_the_command_line_wins() {
    let dir = scratch("budget");
    let config = dir.join("engine.ini");
    std::fs::write(&config, "endgame = KBN.KN\nmemory = 50\nreport = -\n").unwrap();
    let c = config.to_str().unwrap();
    let r = run(&["build", "--config", c]);
    assert_eq!((r.code, r.stderr.as_str()), (Some(2), KBNKN_OVER_50));
    let r = run(&["build", "KQ.K", "--config", c, "--memory", "1", "--json"]);
    assert_eq!(r.code, Some(0), "{}", r.stderr);
}

#[test]
fn xboard_table_memory_refuses_a_five_man_build_and_the_engine_goes_on() {
    let mut e = Engine::xboard(&["KQ.KR", "--report", "-"]);
    e.send("option TableMemory=10");
    e.send("force");
    e.send(&format!("setboard {KBNKN}"));
    let lines = e.until(|l| l.starts_with("tellusererror"), PATIENCE);
    assert_eq!(
        lines.last().map(String::as_str),
        Some(
            "tellusererror fairy-egt could not build KBN.KN: KBN.KN needs 293 MB of table \
             memory, more than the budget of 10 MB (--memory / memory= in engine.ini / option \
             TableMemory)"
        ),
        "{}",
        e.transcript()
    );
    e.send("go");
    let lines = e.sync(2);
    assert!(
        lines.iter().any(|l| l.starts_with("tellusererror")
            && l.contains("the table of KBN.KN could not be built: KBN.KN needs 293 MB")),
        "{}",
        e.transcript()
    );
    assert!(!lines.iter().any(|l| l.starts_with("move ")), "{lines:?}");
    // Other material still plays.
    e.send(&format!("setboard {KRK}"));
    e.send("go");
    e.until(|l| l.starts_with("move "), PATIENCE);
    // A bad value is refused.
    e.send("option TableMemory=lots");
    let lines = e.sync(3);
    assert_eq!(
        lines,
        vec![
            "Error (bad option value): TableMemory=lots: expected megabytes from 0 (the start-up \
             budget) to 16000000"
        ]
    );
}

#[test]
fn the_memory_flag_limits_the_engine_from_the_start() {
    // KQ.KR needs 5 MB: the start-up build is refused, and the engine answers on.
    let (mut e, _) = Engine::xboard_until(&["KQ.KR", "--memory", "3", "--report", "-"], |l| {
        l.starts_with("tellusererror fairy-egt could not build KQ.KR: KQ.KR needs 5 MB")
    });
    e.send("force");
    e.send(&format!("setboard {KRK}"));
    e.send("go");
    e.until(|l| l.starts_with("move "), PATIENCE);
}

#[test]
fn xboards_memory_command_does_not_limit_the_tables() {
    let mut e = Engine::xboard(&["KQ.KR", "--report", "-"]);
    e.send("memory 1");
    e.send("force");
    e.send(&format!("setboard {KQKR}"));
    e.send("go");
    let lines = e.until(|l| l.starts_with("move "), PATIENCE);
    // Nothing about memory is said: no refusal, no warning.
    assert!(
        !lines
            .iter()
            .any(|l| l.starts_with("tellusererror") || l.contains("memory")),
        "{lines:?}"
    );
    // Another endgame is built as well, 1 MB notwithstanding.
    e.send(&format!("setboard {KRK}"));
    e.send("go");
    let lines = e.until(|l| l.starts_with("move "), PATIENCE);
    assert!(!lines.iter().any(|l| l.contains("memory")), "{lines:?}");
    assert!(e.drain(Duration::from_millis(300)).is_empty());
}

#[test]
fn uci_table_memory_refuses_a_five_man_build_and_the_engine_goes_on() {
    let mut e = Engine::uci(&["KQ.KR", "--report", "-"]);
    e.ready();
    e.send("setoption name TableMemory value 10");
    e.send(&format!("position fen {KBNKN}"));
    let lines = e.ready();
    assert!(
        lines.contains(
            &"info string cannot build KBN.KN: KBN.KN needs 293 MB of table memory, more than \
              the budget of 10 MB (--memory / memory= in engine.ini / option TableMemory)"
                .to_string()
        ),
        "{}",
        e.transcript()
    );
    e.send("go");
    let lines = e.until(|l| l.starts_with("bestmove "), PATIENCE);
    assert_eq!(lines.last().map(String::as_str), Some("bestmove 0000"));
    assert!(
        lines.iter().any(|l| l.starts_with("info string ")
            && l.contains("the table of KBN.KN could not be built: KBN.KN needs 293 MB")),
        "{lines:?}"
    );
    e.send(&format!("position fen {KRK}"));
    e.send("go");
    let lines = e.until(|l| l.starts_with("bestmove "), PATIENCE);
    assert_ne!(lines.last().map(String::as_str), Some("bestmove 0000"));
    // Raised again, the refused endgame is built: 0 is the start-up budget (this machine's).
    e.send("setoption name TableMemory value 0");
    e.send(&format!("position fen {KBNKN}"));
    e.send("go");
    let lines = e.until(|l| l.starts_with("bestmove "), PATIENCE);
    assert_ne!(
        lines.last().map(String::as_str),
        Some("bestmove 0000"),
        "{lines:?}"
    );
}
