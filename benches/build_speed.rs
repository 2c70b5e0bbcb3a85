//! Build-time and memory benchmark: `cargo bench` (release build).
//!
//! Each endgame is built in a child process of its own, so the peak memory (VmHWM) and the
//! CPU time (utime + stime, all threads) read from /proc are that build's alone. Prints one
//! line per endgame: wall seconds, CPU seconds, peak resident memory, and the memory the
//! budget reckons the build needs (`TableSet::bytes_needed`, the tables and the builder's
//! working memory: the process's own few megabytes come on top). Linux only (/proc).
//! Options after `--`: endgame specs to measure instead of the defaults, `--threads N`.

use fairy_egt::egt::material::Material;
use fairy_egt::egt::progress::Silent;
use fairy_egt::egt::table::Metric;
use fairy_egt::egt::tables::TableSet;
use fairy_egt::piece::PieceSet;
use std::process::Command;
use std::time::Instant;

const CHILD: &str = "FAIRY_EGT_BENCH_CHILD";

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

fn child(spec: &str, threads: usize) {
    rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build_global()
        .expect("one pool");
    let mut set = TableSet::new(PieceSet::standard(), Metric::Dtm);
    let material = Material::parse(spec, set.pieces()).expect("a valid endgame");
    let estimate = set.bytes_needed(&material);
    let start = Instant::now();
    set.build(&material, &Silent).expect("the build succeeds");
    let wall = start.elapsed().as_secs_f64();
    let (cpu, peak) = usage().expect("/proc is readable");
    println!("{wall} {cpu} {peak} {estimate}");
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
        specs = vec!["KQ.KR", "KBN.KN"];
    }
    println!(
        "{:<10} {:>8} {:>10} {:>9} {:>12} {:>12}",
        "endgame", "threads", "wall s", "CPU s", "peak MB", "estimate MB"
    );
    for spec in specs {
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
        let text = String::from_utf8_lossy(&out.stdout);
        let v: Vec<f64> = text
            .split_whitespace()
            .map(|x| x.parse().expect("numbers"))
            .collect();
        println!(
            "{:<10} {:>8} {:>10.3} {:>9.2} {:>12.1} {:>12.1}",
            spec,
            threads,
            v[0],
            v[1],
            v[2] / 1e6,
            v[3] / 1e6
        );
    }
}
