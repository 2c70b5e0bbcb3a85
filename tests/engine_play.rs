//! `fairy-egt play`: the engine plays itself from a FEN or from the table's longest win,
//! printing every move with its value and the result.

mod support;

use std::process::Command;
use std::time::Duration;
use support::{run_with_limit, target_dir, BIN, KQKR};

fn play(args: &[&str]) -> String {
    let dir = target_dir().join("engine-test-cwd");
    std::fs::create_dir_all(&dir).expect("create the working directory");
    let (status, out, err) = run_with_limit(
        Command::new(BIN).arg("play").args(args).current_dir(dir),
        Duration::from_secs(120),
    );
    assert!(
        status.is_some_and(|s| s.success()),
        "play {args:?} failed:\n{out}\n{err}"
    );
    out
}

#[test]
fn play_from_a_fen_mates_in_the_table_distance() {
    let out = play(&["KQ.KR", "--fen", KQKR]);
    assert!(
        out.starts_with("KQ.KR (dtm), White to move: mate in 35\n"),
        "{out}"
    );
    assert!(out.contains("     1. h1b1   mate in 35\n"), "{out}");
    assert!(out.contains("   1... c2c3   mated in 34\n"), "{out}");
    assert!(out.contains("    35. "), "{out}");
    assert!(!out.contains("36. "), "{out}");
    assert!(out.contains("1 | K . . . . . . Q |"), "{out}");
    assert!(out.trim_end().ends_with("1-0 {White mates}"), "{out}");
}

#[test]
fn play_without_a_fen_starts_from_the_longest_win() {
    let out = play(&["KC.KR"]);
    assert!(
        out.starts_with("KC.KR (dtm), White to move: mate in 47\n"),
        "{out}"
    );
    assert!(out.contains("    47. "), "{out}");
    assert!(out.trim_end().ends_with("1-0 {White mates}"), "{out}");
}

#[test]
fn play_refuses_positions_it_cannot_play() {
    let dir = target_dir().join("engine-test-cwd");
    std::fs::create_dir_all(&dir).expect("create the working directory");
    for (fen, want) in [
        (
            "8/8/8/8/8/8/8/KP5k w - - 0 1",
            "pawn on b1 stands on the first rank",
        ),
        (
            "8/8/8/8/8/8/1P6/K6k w - - 0 1",
            "KP.K, which is neither KQ.KR nor",
        ),
        (
            "7k/8/8/8/8/8/8/KC6 w - - 0 1",
            "neither KQ.KR nor reachable",
        ),
        ("8/8/8", "FEN board has 3 ranks"),
    ] {
        let (status, _, err) = run_with_limit(
            Command::new(BIN)
                .args(["play", "KQ.KR", "--fen", fen])
                .current_dir(&dir),
            Duration::from_secs(60),
        );
        assert_eq!(status.and_then(|s| s.code()), Some(2), "{fen}: {err}");
        assert!(err.contains(want), "{fen}: {err}");
    }
}
