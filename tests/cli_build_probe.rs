//! The command line through the binary: `build` (text, JSON), `probe` (one FEN, many FENs)
//! and the errors: one line naming the culprit, exit code 2.

mod support;

use support::{run, scratch, stderr, stdout};

#[test]
fn build_json_is_one_object_with_the_published_counts() {
    let o = run(&["build", "KQ.K", "--json", "--threads", "2"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let text = stdout(&o);
    assert_eq!(text.trim().lines().count(), 1, "one line: {text}");
    let v: serde_json::Value = serde_json::from_str(&text).unwrap();
    assert_eq!(v["endgame"], "KQ.K");
    assert_eq!(v["board"], "8x8");
    assert_eq!(v["metric"], "dtm");
    assert_eq!(v["symmetry"], 8);
    assert_eq!(v["threads"], 2);
    assert!(v["seconds"].as_f64().unwrap() >= 0.0);
    assert!(v["table_bytes"].as_u64().unwrap() > 0);
    assert_eq!(v["wtm"]["longest_win"], 10);
    assert_eq!(v["btm"]["drawn"], 23_048);
    assert_eq!(v["wtm"]["wins"]["10"].as_u64().map(|n| n > 0), Some(true));
    assert_eq!(v["btm"]["losses"]["0"], v["btm"]["checkmates"]);
    for side in ["wtm", "btm"] {
        let s = &v[side];
        for key in [
            "placements",
            "illegal",
            "legal",
            "won",
            "drawn",
            "lost",
            "checkmates",
            "stalemates",
            "longest_win",
            "longest_loss",
            "wins",
            "losses",
        ] {
            assert!(!s[key].is_null(), "{side}.{key} missing");
        }
    }
}

#[test]
fn build_text_shows_the_statistics_table() {
    let o = run(&["build", "KC.KR", "--metric", "dtc"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let text = stdout(&o);
    assert!(
        text.starts_with("KC.KR  metric dtc  symmetry 8-fold"),
        "{text}"
    );
    for row in [
        "placements",
        "illegal",
        "legal",
        "won",
        "drawn",
        "lost",
        "checkmates",
        "stalemates",
        "longest win",
    ] {
        assert!(
            text.lines().any(|l| l.starts_with(row)),
            "no row {row}: {text}"
        );
    }
}

#[test]
fn build_progress_into_a_pipe_is_plain_lines_without_a_bar() {
    let o = run(&["build", "KQ.KR"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let err = stderr(&o);
    // stderr is a pipe here: no carriage returns, escapes or bar, only whole lines.
    assert!(!err.contains(['\r', '\x1b']), "{err:?}");
    assert!(!err.contains("[#") && !err.contains("[."), "{err:?}");
    assert!(
        err.lines().any(|l| l
            .split_once("% KQ.KR: building ")
            .is_some_and(|(share, _)| share.parse::<u32>().is_ok())),
        "{err:?}"
    );
    assert!(
        stdout(&o).starts_with("KQ.KR  metric dtm"),
        "{}",
        stdout(&o)
    );
}

#[test]
fn probe_kqkr_is_a_win_in_35_with_the_line_to_mate() {
    let o = run(&["probe", "KQ.KR", "--fen", "8/8/8/8/2r5/8/2k5/K6Q w - - 0 1"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let text = stdout(&o);
    assert!(text.contains("White to move: win in 35"), "{text}");
    let best: Vec<&str> = text.lines().filter(|l| l.starts_with('*')).collect();
    assert_eq!(best.len(), 1, "{text}");
    assert!(best[0].ends_with("win in 35"), "{}", best[0]);
    let line = text.lines().find(|l| l.starts_with("line: ")).unwrap();
    assert!(line.ends_with("{checkmate, White wins}"), "{line}");
    let pv = text.lines().find(|l| l.starts_with("pv ")).unwrap();
    assert_eq!(pv.split_whitespace().count() - 1, 35 + 34, "{pv}");
}

/// Under DTZ the probe gives the class and the plies to zeroing: 57 for this K+Q against K+R
/// position, as Syzygy's DTZ table has it (python-chess's `probe_dtz`); a win under the
/// 50-move rule, a cursed one under a 20-move rule, whose statistics and `--json` say so.
#[test]
fn probe_and_build_under_dtz_show_the_rule() {
    let fen = "8/8/8/3k4/2r5/8/8/KQ6 w - - 0 1";
    for (rule, want) in [
        ("50", "win in 29 (57 plies)"),
        ("20", "cursed win in 29 (57 plies)"),
    ] {
        let o = run(&[
            "probe",
            "KQ.KR",
            "--metric",
            "dtz",
            "--rule-moves",
            rule,
            "--fen",
            fen,
        ]);
        assert!(o.status.success(), "{}", stderr(&o));
        let text = stdout(&o);
        assert!(text.contains(&format!("White to move: {want}")), "{text}");
    }
    let o = run(&[
        "build",
        "KQ.KR",
        "--metric",
        "dtz",
        "--rule-moves",
        "20",
        "--json",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let json: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
    assert_eq!(json["rule_moves"], 20);
    assert!(json["wtm"]["cursed_wins"].as_u64().unwrap() > 0, "{json}");
    assert!(
        json["btm"]["blessed_losses"].as_u64().unwrap() > 0,
        "{json}"
    );
    fails_with(
        &["build", "KQ.KR", "--rule-moves", "x"],
        "--rule-moves: expected",
    );
}

/// The shipped cannon (O, `mRcpR`) hops over its own king to take the checking rook: the
/// only move that is not lost; its rook moves along the first rank do not meet the check.
#[test]
fn probe_lists_the_cannons_hop_capture() {
    let o = run(&[
        "probe",
        "KO.KR",
        "--fen",
        "7k/8/8/3r4/8/3K4/8/3O4 w - - 0 1",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let text = stdout(&o);
    let moves: Vec<&str> = text
        .lines()
        .filter(|l| l.starts_with("* ") || l.starts_with("  "))
        .collect();
    assert_eq!(moves.len(), 7, "{text}");
    assert!(text.contains("White to move: draw"), "{text}");
    assert!(text.contains("* d1d5   draw"), "{text}");
    assert_eq!(
        moves.iter().filter(|l| l.contains("loss in")).count(),
        4,
        "{text}"
    );
}

#[test]
fn probe_many_fens_answers_line_by_line() {
    let dir = scratch("fens");
    let file = dir.join("fens.txt");
    std::fs::write(
        &file,
        "8/8/8/8/2r5/8/2k5/K6Q w - - 0 1\n8/8/8/8/8/8/2k5/K6Q b - - 0 1\nnot a fen\n8/8/8/8/8/8/8/K1k5 w - - 0 1\n",
    )
    .unwrap();
    let o = run(&["probe", "KQ.KR", "--fens", file.to_str().unwrap()]);
    assert!(o.status.success(), "{}", stderr(&o));
    let lines: Vec<String> = stdout(&o).lines().map(String::from).collect();
    assert_eq!(lines[0], "win in 35");
    assert_eq!(lines[1], "loss in 7");
    assert!(lines[2].starts_with("error: "), "{}", lines[2]);
    assert_eq!(lines[3], "draw");
    assert_eq!(lines.len(), 4);
}

fn fails_with(args: &[&str], needle: &str) {
    let o = run(args);
    assert_eq!(o.status.code(), Some(2), "{args:?}: {}", stderr(&o));
    let err = stderr(&o);
    assert!(
        err.contains(needle),
        "{args:?}: expected {needle:?} in {err:?}"
    );
    assert!(!err.contains("panicked"), "{err}");
}

#[test]
fn bad_input_is_named_with_exit_code_2() {
    fails_with(&["build", "KQ.KS"], "unknown piece letter 'S'");
    fails_with(&["build", "KQQQQQ.K"], "7 men");
    fails_with(&["build", "KQKR"], "expected White's men");
    fails_with(&["build", "KQ."], "Black has no men");
    fails_with(&["build", "KQ.K", "--metric", "dtn"], "dtn");
    fails_with(&["build", "KQ.K", "--threads", "many"], "many");
    fails_with(&["probe", "KQ.KR", "--fen", "8/8/8/8/8/8/8/K6k"], "side");
    fails_with(
        &["probe", "KQ.KR", "--fen", "8/8/8/8/8/8/2k5/K5BQ w - - 0 1"],
        "KBQ.K",
    );
    fails_with(
        &["probe", "KQ.KR", "--fen", "8/8/8/8/8/8/1k6/K6Q w - - 0 1"],
        "can be captured",
    );
    fails_with(
        &["build", "KQ.K", "--pieces", "/nonexistent/pieces.ini"],
        "/nonexistent/pieces.ini",
    );
    fails_with(
        &["build", "KQ.K", "--config", "/nonexistent/engine.ini"],
        "/nonexistent/engine.ini",
    );
}

/// A piece file that defines the pawn builds and probes tables with pawns: the published
/// longest K+P against K win, 28 moves, its line promoting to the file's only other piece.
#[test]
fn tables_with_pawns_are_built_from_a_piece_file_with_p() {
    let dir = scratch("pawns");
    let pieces = dir.join("pieces.ini");
    std::fs::write(&pieces, "K: K\nQ: Q\nP: fmWfceFifmnD\n").unwrap();
    let pieces = pieces.to_str().unwrap();
    let fen = "8/8/8/1k6/8/8/K5P1/8 w - - 0 1";
    let o = run(&["probe", "KP.K", "--pieces", pieces, "--fen", fen]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let out = String::from_utf8_lossy(&o.stdout);
    assert!(out.contains("White to move: win in 28"), "{out}");
    assert!(out.contains("g7g8q"), "{out}");
    let o = run(&["build", "KQ.KP", "--pieces", pieces]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
}

#[test]
fn malformed_files_name_file_and_line() {
    let dir = scratch("bad");
    let pieces = dir.join("pieces.ini");
    std::fs::write(&pieces, "K: 1,0,* 1,1,*\nQ: 1,0,s* 1,1,x\n").unwrap();
    fails_with(
        &["build", "KQ.K", "--pieces", pieces.to_str().unwrap()],
        "pieces.ini:2:",
    );
    let config = dir.join("engine.ini");
    std::fs::write(&config, "endgame = KQ.K\nmetric = fast\n").unwrap();
    fails_with(
        &["build", "--config", config.to_str().unwrap()],
        "engine.ini:2:",
    );
    std::fs::write(&config, "endgame = KQ.K\ncolour = blue\n").unwrap();
    fails_with(
        &["build", "--config", config.to_str().unwrap()],
        "engine.ini:2:",
    );
}

#[test]
fn a_named_piece_file_must_exist_even_if_it_is_called_piecedef_ini() {
    let dir = scratch("nopieces");
    let config = dir.join("engine.ini");
    std::fs::write(&config, "pieces = piecedef.ini\n").unwrap();
    let missing = dir.join("piecedef.ini");
    let missing = missing.to_str().unwrap();
    let want = format!("{missing}: piece file not found");
    fails_with(
        &["build", "KQ.K", "--config", config.to_str().unwrap()],
        &want,
    );
    fails_with(&["build", "KQ.K", "--pieces", missing], &want);
    // Named by nobody, the default piecedef.ini may be missing: the built-in pieces.
    std::fs::write(&config, "endgame = KQ.K\n").unwrap();
    let o = run(&["build", "--config", config.to_str().unwrap(), "--json"]);
    assert!(o.status.success(), "{}", stderr(&o));
}

#[test]
fn engine_ini_supplies_defaults_and_the_command_line_wins() {
    let dir = scratch("ini");
    let config = dir.join("engine.ini");
    std::fs::write(&config, "endgame = KR.K\nmetric = dtc\nthreads = 1\n").unwrap();
    let c = config.to_str().unwrap();
    let v: serde_json::Value =
        serde_json::from_slice(&run(&["build", "--config", c, "--json"]).stdout).unwrap();
    assert_eq!(
        (
            v["endgame"].as_str(),
            v["metric"].as_str(),
            v["threads"].as_u64()
        ),
        (Some("KR.K"), Some("dtc"), Some(1))
    );
    let v: serde_json::Value = serde_json::from_slice(
        &run(&["build", "KQ.K", "--config", c, "--metric", "dtm", "--json"]).stdout,
    )
    .unwrap();
    assert_eq!(
        (v["endgame"].as_str(), v["metric"].as_str()),
        (Some("KQ.K"), Some("dtm"))
    );
}
