//! The command line on boards other than 8×8: `build` (statistics over W·H squares, the
//! board in the text, the report and the JSON), `probe`, `play` (a board W files wide),
//! `moves` with two-digit ranks, boards refused, `board =` of engine.ini and `--board`
//! winning over it, and the memory budget of a 16×16 build refused before anything is
//! allocated.

mod support;

use std::process::Output;
use std::time::{Duration, Instant};
use support::{run, run_in, scratch, stderr, stdout};

/// The Capablanca position: White's Chancellor takes the rook on j1 and mates in 12.
const KCKR_10X8: &str = "9k/10/10/10/10/10/10/K3C4r w - - 0 1";

fn json(o: &Output) -> serde_json::Value {
    assert!(o.status.success(), "{}", stderr(o));
    serde_json::from_slice(&o.stdout).expect("one JSON object")
}

#[test]
fn build_on_10x8_counts_80_squares_with_4_fold_symmetry() {
    let dir = scratch("build");
    let o = run_in(
        &dir,
        &["build", "KC.KR", "--board", "10x8", "--report", "rep.txt"],
    );
    assert!(o.status.success(), "{}", stderr(&o));
    let text = stdout(&o);
    assert!(
        text.starts_with("KC.KR  board 10x8  metric dtm  symmetry 4-fold  "),
        "{text}"
    );
    let placements = 80 * 79 * 78 * 77;
    assert!(
        text.lines()
            .any(|l| l == format!("placements{placements:>20}{placements:>16}")),
        "{text}"
    );
    let report = std::fs::read_to_string(dir.join("rep.txt")).expect("the report is written");
    assert!(
        report.contains("endgame: KC.KR\nboard:   10x8\nmetric:  dtm\n"),
        "{report}"
    );
    assert!(report.contains("KC.KR  board 10x8  metric dtm"), "{report}");
    let v = json(&run(&[
        "build", "KC.KR", "--board", "10x8", "--json", "--report", "-",
    ]));
    assert_eq!(v["board"], "10x8");
    assert_eq!(v["symmetry"], 4);
    for side in ["wtm", "btm"] {
        assert_eq!(v[side]["placements"], placements, "{side}");
        assert_eq!(
            v[side]["legal"].as_u64().unwrap() + v[side]["illegal"].as_u64().unwrap(),
            placements,
            "{side}"
        );
    }
    assert_eq!(v["wtm"]["longest_win"], 46);
}

#[test]
fn on_8x8_the_text_and_report_are_as_before_and_the_json_says_the_board() {
    let dir = scratch("standard");
    let o = run_in(&dir, &["build", "KQ.K", "--report", "rep.txt"]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(stdout(&o).starts_with("KQ.K  metric dtm  symmetry 8-fold  "));
    let report = std::fs::read_to_string(dir.join("rep.txt")).unwrap();
    assert!(report.contains("endgame: KQ.K\nmetric:  dtm\n"), "{report}");
    assert!(!report.contains("board"), "{report}");
    assert_eq!(
        json(&run(&["build", "KQ.K", "--json", "--report", "-"]))["board"],
        "8x8"
    );
}

#[test]
fn probe_and_play_on_10x8() {
    let o = run(&[
        "probe", "KC.KR", "--board", "10x8", "--fen", KCKR_10X8, "--report", "-",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let text = stdout(&o);
    assert!(text.contains("White to move: win in 12\n"), "{text}");
    assert!(text.contains("\n* e1j1   win in 12\n"), "{text}");
    assert!(text.contains("{checkmate, White wins}"), "{text}");
    let o = run(&["play", "KC.KR", "--board", "10x8", "--report", "-"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let text = stdout(&o);
    assert!(
        text.starts_with("KC.KR (dtm), White to move: mate in 46\n"),
        "{text}"
    );
    assert!(text.contains("\n     a b c d e f g h i j\n"), "{text}");
    assert!(text.contains("\n   +---------------------+\n"), "{text}");
    // Ranks 8 to 1, each ten squares wide (the rank, the two borders and ten squares).
    for rank in 1..=8 {
        assert!(
            text.lines().any(|l| l.starts_with(&format!(" {rank} | "))
                && l.ends_with(" |")
                && l.split_whitespace().count() == 13),
            "rank {rank}: {text}"
        );
    }
    assert_eq!(text.lines().last(), Some("1-0 {White mates}"), "{text}");
}

#[test]
fn moves_on_12x12_have_two_digit_ranks() {
    let o = run(&[
        "moves",
        "KR.K",
        "--board",
        "12x12",
        "--fen",
        "11k/12/R11/12/12/12/12/12/12/12/12/11K w - - 0 1",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let moves = stdout(&o);
    let moves: Vec<&str> = moves.split_whitespace().collect();
    for want in ["a10a1", "a10a12", "a10l10", "l1k1", "l1k2", "l1l2"] {
        assert!(moves.contains(&want), "{want}: {moves:?}");
    }
    // 11 squares on the file, 11 on the rank, 3 for the king.
    assert_eq!(moves.len(), 25, "{moves:?}");
    // The same FEN on the default board is not a position.
    let o = run(&[
        "moves",
        "KR.K",
        "--fen",
        "11k/12/R11/12/12/12/12/12/12/12/12/11K w - - 0 1",
    ]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("has 12 files, expected 8"),
        "{}",
        stderr(&o)
    );
}

#[test]
fn boards_out_of_range_or_malformed_are_refused_with_exit_code_2() {
    for (board, message) in [
        (
            "2x8",
            "fairy-egt: --board: board size 2x8 is out of range: files and ranks must each be \
             3 to 16",
        ),
        (
            "17x17",
            "fairy-egt: --board: board size 17x17 is out of range: files and ranks must each be \
             3 to 16",
        ),
        (
            "x",
            "fairy-egt: --board: board size 'x' is malformed: expected files x ranks, such as \
             10x8",
        ),
    ] {
        for command in ["build", "moves", "probe", "play"] {
            let o = run(&[command, "KQ.K", "--board", board]);
            assert_eq!(o.status.code(), Some(2), "{command} {board}");
            assert_eq!(
                stderr(&o).lines().next(),
                Some(message),
                "{command} {board}"
            );
        }
    }
}

#[test]
fn engine_ini_board_is_used_and_the_command_line_wins() {
    let dir = scratch("ini");
    std::fs::write(
        dir.join("engine.ini"),
        "endgame = KR.K\nboard = 10x8\nreport = -\n",
    )
    .unwrap();
    let v = json(&run_in(&dir, &["build", "--json"]));
    assert_eq!(v["board"], "10x8");
    assert_eq!(v["wtm"]["placements"], 80 * 79 * 78);
    let v = json(&run_in(&dir, &["build", "--json", "--board", "9x9"]));
    assert_eq!(v["board"], "9x9");
    assert_eq!(v["symmetry"], 8);
    assert_eq!(v["wtm"]["placements"], 81 * 80 * 79);
    let v = json(&run_in(&dir, &["build", "--json", "--board", "8x8"]));
    assert_eq!(v["board"], "8x8");
    assert_eq!(v["wtm"]["longest_win"], 16);
    // And a bad board in engine.ini names its line.
    std::fs::write(dir.join("engine.ini"), "endgame = KR.K\nboard = 20x8\n").unwrap();
    let o = run_in(&dir, &["build"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("engine.ini:2:"), "{}", stderr(&o));
}

/// 16×16 has 256 squares: the tables hold every placement (the index once left them all out).
#[test]
fn a_16x16_table_holds_its_positions() {
    let v = json(&run(&[
        "build", "KQ.K", "--board", "16x16", "--json", "--report", "-",
    ]));
    assert_eq!(v["board"], "16x16");
    assert_eq!(v["symmetry"], 8);
    assert_eq!(v["wtm"]["placements"], 256 * 255 * 254);
    assert_eq!(v["btm"]["won"], 0);
    assert!(v["wtm"]["won"].as_u64().unwrap() > 13_000_000, "{v}");
    assert!(v["wtm"]["longest_win"].as_u64().unwrap() > 10, "{v}");
}

/// A build far over the budget is refused at once, naming what it needs: on 16×16 the table
/// has no blocks, so its need is the slots of both sides plus the builder's bitmaps.
#[test]
fn a_16x16_five_man_build_over_the_budget_is_refused_before_it_starts() {
    let started = Instant::now();
    let o = run(&["build", "KQR.KR", "--board", "16x16", "--memory", "1000"]);
    assert!(started.elapsed() < Duration::from_secs(10));
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    let err = stderr(&o);
    let first = err.lines().next().unwrap_or("");
    let need: u64 = first
        .strip_prefix("fairy-egt: KQR.KR needs ")
        .and_then(|rest| rest.split(' ').next())
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("{first}"));
    assert!(
        first.ends_with(
            "MB of table memory, more than the budget of 1000 MB (--memory / \
             memory= in engine.ini / option TableMemory)"
        ),
        "{first}"
    );
    // Canonical king pairs: the ordered pairs of distinct, non-adjacent squares, folded by
    // 8 symmetries (the pairs on a diagonal, fixed by one mirror, add a few); then a slot for
    // each placement of Q, R and r on the 256 squares, a byte per side to move.
    let ordered = 256 * 255 - 2 * (2 * 16 * 15 + 2 * 15 * 15);
    let slots = ordered / 8 * 256u64.pow(3);
    let mb = |bytes: u64| bytes / 1_000_000;
    assert!(need >= mb(2 * slots), "{need} MB for {slots} slots");
    assert!(need <= mb(3 * slots), "{need} MB for {slots} slots");
    // No build started.
    assert!(!err.contains("building"), "{err}");
}
