//! Our DTM and DTZ tables checked against tables nobody here wrote: `tests/oracle/check_tables.py`
//! (python-chess) probes a fixed-seed sample of random legal positions of the 24 pawnless
//! 3-/4-man Gaviota endgames and of the 11 3-/4-man pawn endgames of the Syzygy set (KPvKP
//! also right after double steps that allow en passant), in both colour orientations, with
//! `fairy-egt probe --fens -` and compares every value with the exact Gaviota DTM (KQK, KRK,
//! KBK, KNK, KPK) and the Syzygy WDL, and the positions of python-chess's `endgame-dm-4.epd`
//! (e.p. ones included) and the pawnless ones of `endgame-dm-5.epd` with their mate distance.
//!
//! Independent: the reference values come from third-party tablebases read by python-chess,
//! whose move generation and probing share no code with this crate; only the binary's output
//! is used. The oracle data is the data/ folder of python-chess's source distribution on PyPI,
//! which `scripts/oracle_data.py` downloads once, checks (SHA-256) and caches in
//! `<target>/oracle-cache` (override: `FAIRY_EGT_ORACLE_DIR`, a data/ folder). It has the
//! Syzygy tables of every endgame here but the Gaviota tables of the 3-man ones only: the exact
//! DTM of the 4-man ones is compared when `FAIRY_EGT_GAVIOTA` names a directory of their
//! Gaviota tables (each file checked against the sdist's MD5 list), and is otherwise covered by
//! the EPD suites, the published maxima (builder_maxima.rs) and the one-ply check
//! (builder_consistency.rs). python-chess comes from `FAIRY_EGT_PYTHON` or the virtual
//! environment `scripts/test.sh` makes at `<target>/pyenv`. Missing either is a failure, never a
//! skip.

mod support;

use std::path::{Path, PathBuf};
use std::process::Command;
use support::{python, target_dir};

/// The oracle data directory: `FAIRY_EGT_ORACLE_DIR`, else python-chess's sdist data/ folder,
/// fetched into `<target>/oracle-cache` if it is not there yet.
fn oracle_dir() -> PathBuf {
    if let Some(dir) = std::env::var_os("FAIRY_EGT_ORACLE_DIR") {
        return PathBuf::from(dir);
    }
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("scripts/oracle_data.py");
    let out = Command::new(python("chess"))
        .arg(&script)
        .arg(target_dir().join("oracle-cache"))
        .output()
        .unwrap_or_else(|e| panic!("cannot run {}: {e}", script.display()));
    assert!(
        out.status.success(),
        "cannot obtain the oracle data (python-chess's sdist from PyPI): {}",
        String::from_utf8_lossy(&out.stderr)
    );
    PathBuf::from(String::from_utf8_lossy(&out.stdout).trim())
}

/// Runs the oracle script with `extra` arguments and fails with its output if it does.
fn run_oracle(extra: &[&str]) {
    run_script("check_tables.py", extra);
}

/// Runs `tests/oracle/SCRIPT` with `extra` arguments and fails with its output if it does.
fn run_script(name: &str, extra: &[&str]) {
    let script = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/oracle")
        .join(name);
    let out = Command::new(python("chess, chess.gaviota, chess.syzygy"))
        .arg(&script)
        .arg(env!("CARGO_BIN_EXE_fairy-egt"))
        .arg(oracle_dir())
        .args(
            std::env::var("FAIRY_EGT_GAVIOTA")
                .ok()
                .filter(|_| name == "check_tables.py")
                .map(|dir| format!("--gaviota={dir}")),
        )
        .args(extra)
        .output()
        .unwrap_or_else(|e| panic!("cannot run {}: {e}", script.display()));
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        out.status.success(),
        "{} failed ({}):\n{stdout}\n{stderr}",
        script.display(),
        out.status
    );
    println!("{stdout}");
}

/// 52,500 random 3-/4-man positions (and about 750 right after double steps) against Syzygy WDL
/// and (where its tables are here) Gaviota DTM, and the 3-/4-man EPD suite against its mate
/// distances (about 40 s on 2 cores).
#[test]
fn tables_match_gaviota_syzygy_and_the_epd_suite() {
    run_oracle(&[]);
}

/// The pawnless 5-man positions of `endgame-dm-5.epd` whose tables are small (identical
/// men share an unordered index): KRRR.K and KNN.KN, built in seconds. The other six need
/// full-size 5-man builds (minutes in all); `check_tables.py BINARY DIR --five-men` runs
/// every one by hand.
#[test]
fn five_man_epd_positions_match_their_mate_distance() {
    run_oracle(&["--five-men=KRRR.K,KNN.KN"]);
}

/// DTZ under the 50-move rule (`tests/oracle/check_dtz.py`): 300 random positions of each of
/// the 35 3-/4-man endgames (pawns included, and positions right after double steps) against
/// Syzygy's WDL (the five classes, exactly) and DTZ (the plies to zeroing, within its
/// documented rounding of one ply).
#[test]
fn dtz_tables_match_syzygy_wdl_and_dtz() {
    run_script("check_dtz.py", &["--per-endgame=300"]);
}
