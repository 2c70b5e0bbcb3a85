//! Saved tables through the binary: the commands, XBoard and UCI save every table built to the
//! table directory and load it on the next start; a damaged or stale file is reported and
//! rebuilt; a directory that cannot be written is reported and the command goes on.

mod support;

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use support::{scratch, stderr, stdout, BIN};

/// KR.KN, White to move: a 4-man endgame with sub-tables, quick to build.
const KRKN: &str = "8/8/8/3n4/8/2k5/8/K6R w - - 0 1";

/// Runs the binary in `dir` with `args`, `input` on stdin, logging at info level (loads and
/// saves are info lines; problems are warnings, shown at the default level too).
fn run(dir: &Path, args: &[&str], input: &str) -> Output {
    let mut child = Command::new(BIN)
        .args(args)
        .current_dir(dir)
        .env("RUST_LOG", "info")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the binary runs");
    let mut stdin = child.stdin.take().expect("piped");
    stdin.write_all(input.as_bytes()).unwrap();
    drop(stdin);
    child.wait_with_output().expect("the binary ends")
}

/// `build KR.KN --json` with the table directory `tables`, in `dir`.
fn build(dir: &Path, tables: &Path) -> Output {
    let out = run(
        dir,
        &[
            "build",
            "KR.KN",
            "--json",
            "--report",
            "-",
            "--tables",
            tables.to_str().unwrap(),
        ],
        "",
    );
    assert!(out.status.success(), "{}", stderr(&out));
    out
}

/// The statistics of a `build --json` without its time.
fn stats(out: &Output) -> serde_json::Value {
    let mut v: serde_json::Value = serde_json::from_str(&stdout(out)).unwrap();
    v.as_object_mut().unwrap().remove("seconds");
    v
}

/// The names of the files in `dir`, sorted.
fn files(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    names
}

/// How many lines of `text` contain `what`.
fn count(text: &str, what: &str) -> usize {
    text.lines().filter(|l| l.contains(what)).count()
}

#[test]
fn build_saves_and_the_next_build_loads_the_same_table() {
    let dir = scratch("tables-build");
    let tables = dir.join("tables");
    let first = build(&dir, &tables);
    assert_eq!(
        count(&stderr(&first), " saved to "),
        4,
        "{}",
        stderr(&first)
    );
    assert_eq!(
        files(&tables),
        [
            "K.K.8x8.dtm.egt",
            "K.KN.8x8.dtm.egt",
            "KR.K.8x8.dtm.egt",
            "KR.KN.8x8.dtm.egt"
        ]
    );
    let second = build(&dir, &tables);
    let log = stderr(&second);
    assert_eq!(count(&log, " loaded from "), 4, "{log}");
    assert_eq!(count(&log, " saved to "), 0, "{log}");
    assert_eq!(stats(&first), stats(&second));
    // probe and play load too.
    let probe = run(
        &dir,
        &[
            "probe",
            "KR.KN",
            "--fen",
            KRKN,
            "--tables",
            tables.to_str().unwrap(),
        ],
        "",
    );
    assert!(probe.status.success(), "{}", stderr(&probe));
    assert_eq!(count(&stderr(&probe), " loaded from "), 4);
    // Nothing was built: the report file (rep2.txt by default) is not written, as counting
    // a loaded table's statistics would hold up the answer (a minute for KNN.KNN).
    assert!(!dir.join("rep2.txt").exists());
    // engine.ini's `tables`, relative to the ini file.
    std::fs::write(dir.join("engine.ini"), "tables = tables\nreport = -\n").unwrap();
    let play = run(&dir, &["play", "KR.KN"], "");
    assert!(play.status.success(), "{}", stderr(&play));
    assert_eq!(count(&stderr(&play), " loaded from "), 4);
}

#[test]
fn damaged_and_stale_files_are_reported_once_and_rebuilt() {
    let dir = scratch("tables-damaged");
    let tables = dir.join("tables");
    let fresh = stats(&build(&dir, &tables));
    let krkn = tables.join("KR.KN.8x8.dtm.egt");
    let good = std::fs::read(&krkn).unwrap();

    // A flipped byte: corrupted, reported once, rebuilt, the file fixed.
    let mut flipped = good.clone();
    flipped[good.len() / 3] ^= 1;
    std::fs::write(&krkn, &flipped).unwrap();
    let out = build(&dir, &tables);
    let log = stderr(&out);
    assert_eq!(count(&log, "corrupted"), 1, "{log}");
    assert_eq!(count(&log, "KR.KN saved to"), 1, "{log}");
    assert_eq!(stats(&out), fresh);
    assert!(std::fs::read(&krkn).unwrap() == good);

    // Truncated: the same.
    std::fs::write(&krkn, &good[..good.len() / 2]).unwrap();
    let out = build(&dir, &tables);
    assert_eq!(count(&stderr(&out), "truncated"), 1, "{}", stderr(&out));
    assert_eq!(stats(&out), fresh);
    assert!(std::fs::read(&krkn).unwrap() == good);

    // A piece file whose Knight moves otherwise: the tables with a Knight are stale.
    std::fs::write(
        dir.join("piecedef.ini"),
        "K: 1,0,* 1,1,*\nR: 1,0,s*\nN: 1,2,* 2,2,*\n",
    )
    .unwrap();
    let out = build(&dir, &tables);
    let log = stderr(&out);
    assert_eq!(count(&log, "stale"), 2, "K.KN and KR.KN: {log}");
    assert!(log.contains("piece N: "), "{log}");
    assert_eq!(count(&log, " loaded from "), 2, "K.K and KR.K: {log}");
    assert_ne!(stats(&out), fresh);
    // Replaced: the next run loads them all, silently.
    let again = build(&dir, &tables);
    assert_eq!(count(&stderr(&again), " loaded from "), 4);
    assert_eq!(count(&stderr(&again), "WARN"), 0, "{}", stderr(&again));
    // A changed piece that KR.KN does not use: still loaded.
    std::fs::write(
        dir.join("piecedef.ini"),
        "K: 1,0,* 1,1,*\nR: 1,0,s*\nN: 1,2,* 2,2,*\nQ: 1,1,s*\n",
    )
    .unwrap();
    let out = build(&dir, &tables);
    assert_eq!(count(&stderr(&out), " loaded from "), 4, "{}", stderr(&out));
    // No temporary file was left by any save.
    assert!(files(&tables).iter().all(|f| f.ends_with(".egt")));
}

#[test]
fn a_directory_that_cannot_be_written_is_reported_and_the_command_goes_on() {
    let dir = scratch("tables-unwritable");
    // Its parent is a file (a read-only directory would not stop root).
    std::fs::write(dir.join("file"), "x").unwrap();
    let tables = dir.join("file").join("tables");
    let out = build(&dir, &tables);
    let log = stderr(&out);
    assert!(log.contains("cannot save"), "{log}");
    assert!(log.contains("the table stays in memory only"), "{log}");
    assert_eq!(stats(&out)["endgame"], "KR.KN");
}

/// A dialogue that sets the table directory in `xboard` or `uci` and plays KRKN.
fn engine_input(uci: bool, tables: &Path) -> String {
    if uci {
        format!(
            "uci\nsetoption name TablePath value {}\nposition fen {KRKN}\ngo\nisready\n",
            tables.display()
        )
    } else {
        format!(
            "xboard\nprotover 2\negtpath fairy-egt {}\nsetboard {KRKN}\ngo\nping 1\n",
            tables.display()
        )
    }
}

/// The report file is written after a build, not after a load: in engine mode the
/// statistics of a loaded table would be counted in the background and hold up `quit`.
#[test]
fn an_engine_that_loads_its_tables_writes_no_report() {
    let dir = scratch("tables-report");
    std::fs::write(dir.join("engine.ini"), "tables = tables\n").unwrap();
    let input = format!("xboard\nprotover 2\nsetboard {KRKN}\ngo\nping 1\n");
    let report = dir.join("rep2.txt");
    let first = run(&dir, &["KR.KN"], &input);
    assert!(first.status.success(), "{}", stderr(&first));
    let text = std::fs::read_to_string(&report).expect("the build's report");
    assert!(text.contains("endgame: KR.KN"), "{text}");
    std::fs::remove_file(&report).unwrap();
    let second = run(&dir, &["KR.KN"], &input);
    assert!(second.status.success(), "{}", stderr(&second));
    assert!(stderr(&second).contains("KR.KN loaded from "));
    assert!(stdout(&second).contains("move "), "{}", stdout(&second));
    assert!(!report.exists());
}

#[test]
fn xboard_and_uci_save_and_load_through_their_commands() {
    for uci in [false, true] {
        let dir = scratch(if uci { "tables-uci" } else { "tables-xboard" });
        let tables: PathBuf = dir.join("my tables");
        let first = run(
            &dir,
            &["KR.KN", "--report", "-"],
            &engine_input(uci, &tables),
        );
        assert!(first.status.success(), "{}", stderr(&first));
        let answer = if uci { "bestmove " } else { "move " };
        let moved = |o: &Output| {
            stdout(o)
                .lines()
                .find(|l| l.starts_with(answer))
                .map(str::to_string)
        };
        assert!(moved(&first).is_some(), "{}", stdout(&first));
        // Four tables, in DTM and in DTZ (for play within the 50-move rule).
        assert_eq!(files(&tables).len(), 8, "{}", stderr(&first));
        let second = run(
            &dir,
            &["KR.KN", "--report", "-"],
            &engine_input(uci, &tables),
        );
        let log = stderr(&second);
        // The smallest tables may be built (and saved again) before the directory is told.
        assert!(log.contains("KR.KN loaded from "), "{log}");
        assert_eq!(
            count(&log, " loaded from ") + count(&log, " saved to "),
            8,
            "{log}"
        );
        assert_eq!(moved(&first), moved(&second));
        // A corrupted file: the GUI is told (the user reads no stderr), and the game goes on.
        let krkn = tables.join("KR.KN.8x8.dtm.egt");
        let mut bytes = std::fs::read(&krkn).unwrap();
        let at = bytes.len() / 2;
        bytes[at] ^= 0x10;
        std::fs::write(&krkn, &bytes).unwrap();
        let third = run(
            &dir,
            &["KR.KN", "--report", "-"],
            &engine_input(uci, &tables),
        );
        let told = if uci {
            "info string "
        } else {
            "telluser fairy-egt: "
        };
        let said = stdout(&third);
        let notices: Vec<&str> = (said.lines())
            .filter(|l| l.starts_with(told) && l.contains("corrupted"))
            .collect();
        assert_eq!(notices.len(), 1, "{said}");
        assert!(notices[0].contains("KR.KN.8x8.dtm.egt"), "{}", notices[0]);
        assert_eq!(moved(&first), moved(&third));
    }
}

#[test]
fn xboard_is_told_the_format_and_uci_the_option() {
    let dir = scratch("tables-features");
    let out = run(&dir, &["KR.K"], "xboard\nprotover 2\nquit\n");
    assert!(stdout(&out).contains("feature egt=\"fairy-egt\""));
    let out = run(&dir, &["KR.K", "--tables", "t"], "uci\nquit\n");
    assert!(
        stdout(&out).contains("option name TablePath type string default t"),
        "{}",
        stdout(&out)
    );
}

/// A build killed while it saves its table leaves no half file under the table's name: the
/// file is written under a temporary name and renamed when whole. The next start then builds
/// the table again (or, had the kill come just after the rename, loads it whole), without a
/// warning, and saves it.
#[test]
fn a_save_killed_midway_leaves_no_half_file() {
    use std::time::{Duration, Instant};
    let dir = scratch("tables-killed");
    let tables = dir.join("tables");
    let name = "KBN.KN.8x8.dtm.egt";
    let temp = format!(".{name}.");
    let mut child = Command::new(BIN)
        .args(["build", "KBN.KN", "--report", "-", "--tables"])
        .arg(&tables)
        .current_dir(&dir)
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("the binary runs");
    // The 242 MB of KBN.KN take tenths of a second to compress, write and sync: the temporary
    // file is seen long before the rename.
    let deadline = Instant::now() + Duration::from_secs(600);
    let caught = loop {
        let saving = std::fs::read_dir(&tables).ok().is_some_and(|d| {
            d.flatten()
                .any(|e| e.file_name().to_string_lossy().starts_with(&temp))
        });
        if saving || child.try_wait().unwrap().is_some() || Instant::now() > deadline {
            break saving;
        }
        std::thread::sleep(Duration::from_millis(1));
    };
    child.kill().unwrap();
    child.wait().unwrap();
    assert!(
        caught,
        "the save of KBN.KN was not seen under its temporary name"
    );
    let left = files(&tables);
    assert!(left.iter().any(|f| f.starts_with(&temp)), "{left:?}");
    // Had the rename come before the kill, the file is whole: the next start tells.
    let whole_before = left.iter().any(|f| f == name);
    let fen = "8/8/8/3n4/8/2k5/8/KBN5 w - - 0 1";
    let probe = run(
        &dir,
        &[
            "probe",
            "KBN.KN",
            "--fen",
            fen,
            "--tables",
            tables.to_str().unwrap(),
        ],
        "",
    );
    let log = stderr(&probe);
    assert!(probe.status.success(), "{log}");
    assert_eq!(count(&log, "WARN"), 0, "{log}");
    let kbnkn = if whole_before {
        " loaded from "
    } else {
        " saved to "
    };
    assert_eq!(count(&log, &format!("KBN.KN{kbnkn}")), 1, "{log}");
    assert!(files(&tables).iter().any(|f| f == name));
}

/// `build KP.K` with the table directory `tables` and `extra` options, in `dir`.
fn build_kpk(dir: &Path, tables: &Path, extra: &[&str]) -> Output {
    let mut args = vec![
        "build",
        "KP.K",
        "--json",
        "--report",
        "-",
        "--tables",
        tables.to_str().unwrap(),
    ];
    args.extend_from_slice(extra);
    let out = run(dir, &args, "");
    assert!(out.status.success(), "{}", stderr(&out));
    out
}

#[test]
fn a_pawn_table_of_another_promotion_list_is_a_file_of_its_own() {
    let dir = scratch("tables-promotion");
    let tables = dir.join("tables");
    let default = build_kpk(&dir, &tables, &[]);
    assert_eq!(
        count(&stderr(&default), " saved to "),
        6,
        "{}",
        stderr(&default)
    );
    let plain = files(&tables);
    assert_eq!(
        plain,
        [
            "K.K.8x8.dtm.egt",
            "KB.K.8x8.dtm.egt",
            "KN.K.8x8.dtm.egt",
            "KP.K.8x8.dtm.egt",
            "KQ.K.8x8.dtm.egt",
            "KR.K.8x8.dtm.egt"
        ]
    );
    // Knights only: the pawnless tables are the same files, KP.K is another.
    let knights = build_kpk(&dir, &tables, &["--promotion", "N"]);
    let log = stderr(&knights);
    assert_eq!(count(&log, " loaded from "), 2, "{log}");
    assert_eq!(count(&log, " saved to "), 1, "{log}");
    let now = files(&tables);
    let extra: Vec<&String> = now.iter().filter(|f| !plain.contains(f)).collect();
    assert!(
        extra.len() == 1 && extra[0].starts_with("KP.K.8x8.dtm.") && extra[0] != "KP.K.8x8.dtm.egt",
        "{now:?}"
    );
    let key = std::fs::read(tables.join(extra[0])).unwrap();
    let head = String::from_utf8_lossy(&key[..600.min(key.len())]).into_owned();
    assert!(head.contains("\npromotion N\n"), "{head}");
    // Fewer promotions: not the same table.
    assert_ne!(stats(&default), stats(&knights));
    // Each list loads its own file again.
    for extra_args in [&[][..], &["--promotion", "N"][..]] {
        let again = build_kpk(&dir, &tables, extra_args);
        let log = stderr(&again);
        assert_eq!(count(&log, " saved to "), 0, "{extra_args:?}: {log}");
        assert!(!log.contains("stale"), "{log}");
    }
}
