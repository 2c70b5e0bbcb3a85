//! `fairy-egt moves` through the binary: one line of sorted coordinate moves per FEN (from
//! `--fen`, a file or stdin), the royals taken from the endgame, and a bad line named on
//! stderr by its number while the others go on (exit code 2 at the end); en passant from the
//! FEN.

mod support;

use std::io::Write as _;
use std::process::{Command, Output, Stdio};
use support::{stderr, stdout};

/// Runs the binary in the temporary directory (no engine.ini there), with `input` on stdin.
fn run(args: &[&str], input: &str) -> Output {
    let mut child = Command::new(support::BIN)
        .args(args)
        .current_dir(std::env::temp_dir())
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the binary runs");
    child
        .stdin
        .take()
        .expect("stdin is piped")
        .write_all(input.as_bytes())
        .expect("the binary reads stdin");
    child.wait_with_output().expect("the binary ends")
}

#[test]
fn one_fen_gives_its_moves_sorted_on_one_line() {
    // The Xiangqi cannon on e2 captures the rook on e6 over the knight on e4, not the knight.
    let fen = "k7/8/4r3/8/4n3/8/4O3/K7 w - - 0 1";
    let o = run(&["moves", "--fen", fen], "");
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(
        stdout(&o),
        "a1a2 a1b1 a1b2 e2a2 e2b2 e2c2 e2d2 e2e1 e2e3 e2e6 e2f2 e2g2 e2h2\n"
    );
}

#[test]
fn fens_from_stdin_answer_line_by_line_and_a_bad_line_is_named() {
    let input = "\
k7/8/8/8/8/3r4/3U4/K7 w - - 0 1

not a fen
k7/8/8/8/8/8/8/K7 b - - 0 1
k6R/8/1K6/8/8/8/8/8 b - - 0 1
";
    let o = run(&["moves", "--fens", "-"], input);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    let lines: Vec<String> = stdout(&o).lines().map(String::from).collect();
    // The horse on d2 is blocked forward by the man on d3: no d2c4, d2e4.
    assert_eq!(lines[0], "a1a2 a1b1 a1b2 d2b1 d2b3 d2f1 d2f3");
    assert_eq!(lines[1], "error");
    assert_eq!(lines[2], "a8a7 a8b7 a8b8");
    assert_eq!(lines[3], "", "checkmate: no moves");
    assert_eq!(lines.len(), 4, "a blank line gets no answer");
    let err = stderr(&o);
    assert!(err.contains("stdin line 3: "), "{err}");
    assert!(err.contains("1 of 4 FENs"), "{err}");
}

#[test]
fn royals_come_from_the_endgame() {
    let fen = "4k3/8/8/8/8/8/8/4M3 w - - 0 1";
    let o = run(&["moves", "--fen", fen], "");
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("White has no king"), "{}", stderr(&o));
    let o = run(&["moves", "M.K", "--fen", fen], "");
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(stdout(&o), "e1d1 e1d2 e1e2 e1f1 e1f2\n");
}

#[test]
fn a_missing_file_is_named() {
    let o = run(&["moves", "--fens", "/nonexistent/fens.txt"], "");
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("/nonexistent/fens.txt"),
        "{}",
        stderr(&o)
    );
}

#[test]
fn en_passant_is_played_and_a_bad_square_is_explained() {
    let dir = support::scratch("ep");
    let pieces = dir.join("pieces.ini");
    std::fs::write(&pieces, "K: K\nQ: Q\nR: R\nP: fmWfceFifmnD\n").unwrap();
    let pieces = pieces.to_str().unwrap();
    let input = "\
4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 1
8/8/8/K2pP2r/8/8/8/7k w - d6 0 1
4k3/8/8/4P3/8/8/8/4K3 w - d6 0 1
";
    let o = run(&["moves", "--pieces", pieces, "--fens", "-"], input);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    let lines: Vec<String> = stdout(&o).lines().map(String::from).collect();
    assert_eq!(lines[0], "e1d1 e1d2 e1e2 e1f1 e1f2 e5d6 e5e6");
    // Pinned on the rank: no e5d6.
    assert_eq!(lines[1], "a5a4 a5a6 a5b4 a5b5 a5b6 e5e6");
    assert_eq!(lines[2], "error");
    let err = stderr(&o);
    assert!(
        err.contains(
            "stdin line 3: bad en-passant square d6: no Black pawn stands on d5, where a double \
             step over it ends"
        ),
        "{err}"
    );
}

#[test]
fn the_berolina_example_file_plays_its_pawn() {
    let pieces = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/berolina.ini");
    // The black pawn on e5 came from c7 over d6: the pawn on d5 takes it straight ahead.
    let fen = "4k3/8/8/3Pp3/8/8/8/4K3 w - d6 0 1";
    let o = run(&["moves", "--pieces", pieces, "--fen", fen], "");
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(stdout(&o), "d5c6 d5d6 d5e6 e1d1 e1d2 e1e2 e1f1 e1f2\n");
}
