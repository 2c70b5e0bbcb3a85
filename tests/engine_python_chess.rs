//! A real client nobody here wrote: python-chess (`chess.engine.popen_xboard`, and
//! `popen_uci` for the UCI mode) plays KQ vs KR with the engine on both sides, from the issue's
//! position to mate in 35, checking every score (tests/python/xboard_kqkr_game.py and
//! uci_kqkr_game.py). Needs python-chess: `FAIRY_EGT_PYTHON`, else
//! target/pyenv/bin/python, as scripts/test.sh sets up.

mod support;

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Duration;
use support::{run_with_limit, BIN};

/// The Python with python-chess installed.
fn python() -> PathBuf {
    let python = std::env::var_os("FAIRY_EGT_PYTHON")
        .map(PathBuf::from)
        .unwrap_or_else(|| Path::new(env!("CARGO_MANIFEST_DIR")).join("target/pyenv/bin/python"));
    let (status, _, err) = run_with_limit(
        Command::new(&python).args(["-c", "import chess.engine"]),
        Duration::from_secs(30),
    );
    assert!(
        status.is_some_and(|s| s.success()),
        "this test needs python-chess: run scripts/test.sh (it makes target/pyenv), or set \
         FAIRY_EGT_PYTHON to a Python that has it ({} failed: {err})",
        python.display()
    );
    python
}

#[test]
fn python_chess_plays_kq_kr_to_mate_in_35() {
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/python/xboard_kqkr_game.py");
    let (status, out, err) = run_with_limit(
        Command::new(python()).arg(script).args([BIN, "KQ.KR"]),
        Duration::from_secs(180),
    );
    assert!(
        status.is_some_and(|s| s.success()) && out.trim() == "mate in 35",
        "python-chess game failed ({status:?}):\n{out}\n{err}"
    );
}

#[test]
fn python_chess_plays_kq_kr_to_mate_in_35_over_uci() {
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/python/uci_kqkr_game.py");
    let (status, out, err) = run_with_limit(
        Command::new(python())
            .arg(script)
            .args([BIN, "KQ.KR", "--report", "-"]),
        Duration::from_secs(180),
    );
    assert!(
        status.is_some_and(|s| s.success()) && out.trim() == "mate in 35",
        "python-chess UCI game failed ({status:?}):\n{out}\n{err}"
    );
}
