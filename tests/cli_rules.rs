//! Issue 5 outside the builder, through the binary: the rule flags (`-0`/`--null-move`, `-s`,
//! `-b`, `-m`, `-xboard`) and their engine.ini keys change the build, EGTgen's argument order
//! works, the report file is written with its header (and `--report -` writes none), seed
//! files change the probe and malformed ones are refused with file and line, and the XBoard
//! options rebuild the tables under the rule and the claims follow it.

mod support;

use std::path::{Path, PathBuf};
use std::time::Duration;
use support::{run_in, target_dir, Engine, PATIENCE};

/// A fresh, empty working directory for one test.
fn workdir(name: &str) -> PathBuf {
    let dir = target_dir().join("cli-rules").join(name);
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// `build ARGS --json` in `dir` (no report unless ARGS ask for one): the statistics.
fn stats(dir: &Path, args: &[&str]) -> serde_json::Value {
    let mut all = vec!["build", "--json"];
    all.extend_from_slice(args);
    if !args.contains(&"--report") {
        all.extend(["--report", "-"]);
    }
    let o = run_in(dir, &all);
    assert!(
        o.status.success(),
        "{args:?}: {}",
        String::from_utf8_lossy(&o.stderr)
    );
    let mut v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    // Compared between runs: drop the timing.
    v.as_object_mut().unwrap().remove("seconds");
    v
}

fn num(v: &serde_json::Value, side: &str, key: &str) -> u64 {
    v[side][key]
        .as_u64()
        .unwrap_or_else(|| panic!("{side}.{key} in {v}"))
}

#[test]
fn null_move_flags_and_ini_key_make_kr_k_less_of_a_win() {
    let dir = workdir("null-move");
    let plain = stats(&dir, &["KR.K"]);
    let zero = stats(&dir, &["KR.K", "-0"]);
    let long = stats(&dir, &["--null-move", "KR.K"]);
    let black = stats(&dir, &["KR.K", "--null-move=black"]);
    assert!(
        num(&zero, "wtm", "won") < num(&plain, "wtm", "won"),
        "-0: {zero} vs {plain}"
    );
    assert_eq!(zero, long);
    assert_eq!(zero, black);
    // White passing instead changes nothing for Black's bare king, but is a different build.
    let white = stats(&dir, &["KR.K", "--null-move=white"]);
    assert_ne!(white, zero);
    // engine.ini's key, and the command line winning over it.
    std::fs::write(dir.join("engine.ini"), "null-move = black\nreport = -\n").unwrap();
    assert_eq!(stats(&dir, &["KR.K"]), zero);
    std::fs::write(dir.join("engine.ini"), "null-move = both\n").unwrap();
    assert_eq!(stats(&dir, &["KR.K", "-0"]), zero);
    std::fs::write(dir.join("rules.ini"), "null-move = black\n").unwrap();
    assert_eq!(stats(&dir, &["KR.K", "--config", "rules.ini"]), zero);
}

#[test]
fn stalemate_wins_and_bare_king_loses_flags_and_keys() {
    let dir = workdir("stalemate-bare");
    let plain = stats(&dir, &["KQ.K"]);
    let s = stats(&dir, &["KQ.K", "-s"]);
    assert!(num(&s, "btm", "drawn") < num(&plain, "btm", "drawn"), "{s}");
    assert!(num(&s, "wtm", "longest_win") < num(&plain, "wtm", "longest_win"));
    assert_eq!(stats(&dir, &["KQ.K", "--stalemate-wins"]), s);
    std::fs::write(dir.join("engine.ini"), "stalemate-wins = yes\n").unwrap();
    assert_eq!(stats(&dir, &["KQ.K"]), s);
    std::fs::remove_file(dir.join("engine.ini")).unwrap();
    // Baring Black's king wins at once: KQ.KR's longest win is shorter than 35.
    let plain = stats(&dir, &["KQ.KR"]);
    let b = stats(&dir, &["KQ.KR", "-b"]);
    assert_eq!(num(&plain, "wtm", "longest_win"), 35);
    assert!(num(&b, "wtm", "longest_win") < 35, "{b}");
    assert!(num(&b, "wtm", "won") > num(&plain, "wtm", "won"));
    assert_eq!(stats(&dir, &["--bare-king-loses", "KQ.KR"]), b);
    std::fs::write(dir.join("engine.ini"), "bare-king-loses = on\n").unwrap();
    assert_eq!(stats(&dir, &["KQ.KR"]), b);
}

#[test]
fn the_report_file_has_a_header_and_can_be_switched_off() {
    let dir = workdir("report");
    // Default: rep2.txt in the working directory.
    let o = run_in(&dir, &["build", "KQ.K", "-m", "-0", "-s"]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let report = std::fs::read_to_string(dir.join("rep2.txt")).expect("rep2.txt written");
    for line in [
        "endgame: KQ.K\n",
        "metric:  dtm\n",
        "rules:   null move (black), stalemate wins\n",
        "seeds:   none\n",
        "KQ.K  metric dtm  symmetry 8-fold",
        "longest win",
    ] {
        assert!(report.contains(line), "{line:?} in:\n{report}");
    }
    // The statistics printed and reported are the same table.
    let printed = String::from_utf8_lossy(&o.stdout);
    let rows = |t: &str| -> Vec<String> {
        t.lines()
            .skip_while(|l| !l.starts_with("placements"))
            .map(str::to_string)
            .collect()
    };
    assert_eq!(rows(&report), rows(&printed));
    // --report FILE; probe and play write it too.
    let o = run_in(
        &dir,
        &[
            "probe",
            "KR.K",
            "--fen",
            "8/8/8/3k4/8/8/8/R3K3 w - - 0 1",
            "--report",
            "p.txt",
        ],
    );
    assert!(o.status.success());
    let p = std::fs::read_to_string(dir.join("p.txt")).unwrap();
    assert!(
        p.contains("endgame: KR.K\n") && p.contains("rules:   orthodox rules\n"),
        "{p}"
    );
    let o = run_in(&dir, &["play", "KQ.K", "--report", "play.txt"]);
    assert!(o.status.success());
    assert!(std::fs::read_to_string(dir.join("play.txt"))
        .unwrap()
        .contains("endgame: KQ.K\n"));
    // engine.ini's report key, relative to the ini's directory.
    std::fs::create_dir_all(dir.join("conf")).unwrap();
    std::fs::write(dir.join("conf/engine.ini"), "report = out.txt\n").unwrap();
    let o = run_in(&dir, &["build", "KQ.K", "--config", "conf/engine.ini"]);
    assert!(o.status.success());
    assert!(dir.join("conf/out.txt").exists());
    // --report - writes none.
    let quiet = workdir("report-off");
    let o = run_in(&quiet, &["build", "KQ.K", "--report", "-"]);
    assert!(o.status.success());
    assert_eq!(std::fs::read_dir(&quiet).unwrap().count(), 0);
    // An unwritable report is a warning: the build still succeeds.
    let o = run_in(
        &quiet,
        &["build", "KQ.K", "--report", "/nonexistent-dir/r.txt"],
    );
    assert!(o.status.success());
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(
        err.contains("warning: cannot write the report /nonexistent-dir/r.txt"),
        "{err}"
    );
}

#[test]
fn seed_files_change_the_probe_and_bad_ones_name_file_and_line() {
    let dir = workdir("seeds");
    // White mates with Qb1-b7; seeded as a draw, that mate is gone.
    let fen = "k7/8/2K5/8/8/8/8/1Q6 w - - 0 1";
    let probe = |extra: &[&str]| {
        let mut args = vec!["probe", "KQ.K", "--fen", fen, "--report", "r.txt"];
        args.extend_from_slice(extra);
        let o = run_in(&dir, &args);
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        String::from_utf8_lossy(&o.stdout).into_owned()
    };
    assert!(probe(&[]).contains("White to move: win in 1\n"));
    std::fs::write(dir.join("seeds.txt"), "# the mate on b7\nc6b7a8 draw\n").unwrap();
    let seeded = probe(&["-f", "seeds.txt"]);
    assert!(!seeded.contains("win in 1\n"), "{seeded}");
    assert!(seeded.contains("White to move: win in "), "{seeded}");
    let report = std::fs::read_to_string(dir.join("r.txt")).unwrap();
    assert!(
        report.contains("seeds:   seeds.txt (1 positions)"),
        "{report}"
    );
    assert_eq!(probe(&["--seed", "seeds.txt"]), seeded);
    std::fs::write(dir.join("engine.ini"), "seed = seeds.txt\n").unwrap();
    assert_eq!(probe(&[]), seeded);
    assert!(probe(&["--seed", "-"]).contains("win in 1\n"));
    std::fs::remove_file(dir.join("engine.ini")).unwrap();
    // Malformed: exit 2, the file and the line named.
    std::fs::write(dir.join("bad.txt"), "c6b7a8 draw\nc6b7 draw\n").unwrap();
    let o = run_in(&dir, &["build", "KQ.K", "-f", "bad.txt", "--report", "-"]);
    assert_eq!(o.status.code(), Some(2));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(err.contains("bad.txt:2: expected 3 squares"), "{err}");
    std::fs::write(dir.join("bad.txt"), "\n\nc6b7a8 sometimes\n").unwrap();
    let o = run_in(&dir, &["build", "KQ.K", "--seed", "bad.txt"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("bad.txt:3: "));
    let o = run_in(&dir, &["build", "KQ.K", "--seed", "missing.txt"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("missing.txt: cannot read"));
}

#[test]
fn egtgen_argument_order_starts_the_xboard_engine_with_the_rule() {
    let mut e = Engine::start(&["-xboard", "-m", "-0", "KQ.KR", "--report", "-"]);
    let features = e.handshake().join("\n");
    assert!(
        features.contains("myname=\"fairy-egt 0.1.0 KQ.KR\""),
        "{features}"
    );
    assert!(
        features.contains("feature option=\"NullMove -combo none /// white /// *black /// both\""),
        "{features}"
    );
    assert!(features.contains("feature option=\"Metric -combo *dtm /// dtc /// dtz\""));
    e.send("quit");
    assert!(e.wait_exit(Duration::from_secs(2)).is_some());
    // And the usage error of a bad flag still names it.
    let o = run_in(&target_dir(), &["-xboard", "-q"]);
    assert_eq!(o.status.code(), Some(2));
}

#[test]
fn xboard_options_rebuild_the_tables_and_claims_follow_the_rules() {
    let mut e = Engine::xboard(&["KQ.K", "--report", "-"]);
    e.sync(1);
    let stalemate = "k7/2Q5/1K6/8/8/8/8/8 b - - 0 1";
    e.send("force");
    e.send(&format!("setboard {stalemate}"));
    e.send("go");
    assert!(e.sync(2).contains(&"1/2-1/2 {Stalemate}".to_string()));
    // The option rebuilds the table (ping does not wait for a build: its end is said).
    e.send("option StalemateWins=1");
    e.until(|l| l.contains("(KQ.K ready in"), PATIENCE);
    e.send("go");
    assert!(e
        .sync(4)
        .contains(&"1-0 {White wins by stalemate}".to_string()));
    // White to move: the stalemating move wins at once and is claimed.
    e.send("setboard k7/8/1K6/8/8/8/2Q5/8 w - - 0 1");
    e.send("go");
    let lines = e.sync(5);
    let n = lines.len();
    assert!(n >= 2, "{lines:?}");
    assert_eq!(lines[n - 2], "move c2h2");
    assert_eq!(lines[n - 1], "1-0 {White wins by stalemate}");
    assert!(
        lines.iter().any(|l| l.starts_with("1 100001 ")),
        "{lines:?}"
    );
    // Bare king loses: taking the rook ends the game.
    e.send("option StalemateWins=0");
    e.send("option BareKingLoses=1");
    e.send("setboard 8/8/8/8/2r4Q/8/2k5/K7 w - - 0 1");
    e.send("go");
    let lines = e.sync(6);
    assert!(lines.iter().any(|l| l == "move h4c4"), "{lines:?}");
    assert_eq!(
        lines.last().map(String::as_str),
        Some("1-0 {White bares the Black royal}")
    );
    // The Endgame option builds the new endgame; a bad one is refused.
    e.send("option Endgame=KR.K");
    e.until(|l| l.contains("(KR.K ready in"), PATIENCE);
    e.send("option Endgame=KR.");
    // The position's endgame (KQ.K, after the capture) is built again after KR.K: its
    // progress and its end may come meanwhile.
    let lines: Vec<String> = e
        .sync(8)
        .into_iter()
        .filter(|l| !l.contains(": building ") && !l.contains("(KQ.K ready in "))
        .collect();
    assert!(
        lines.len() == 1 && lines[0].starts_with("Error (bad option value): Endgame=KR."),
        "{lines:?}"
    );
    e.send("option NullMove=black");
    e.send("setboard 8/8/8/3k4/8/8/8/R3K3 w - - 0 1");
    e.send("go");
    let lines = e.sync(9);
    assert!(
        lines
            .iter()
            .any(|l| support::thinking(l).is_some_and(|(_, s, _)| s == 0)),
        "KR.K is a draw when Black may pass: {lines:?}"
    );
}
