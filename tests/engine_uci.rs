//! Engine mode through its pipes, speaking UCI (the first line is `uci`) as
//! `docs/PROTOCOL.md` describes: the handshake during a build, `isready` after the work
//! in progress, `position` with fairy letters and moves, on-demand builds, unusable positions,
//! `go`/`stop`/`ucinewgame`/`quit`/end of input, unknown and garbage lines, the rule options;
//! and PolyGlot wrapping the UCI mode as an XBoard engine.

mod support;

use std::io::Write;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};
use support::{Engine, BIN, KQKR, PATIENCE};

const SHORT: Duration = Duration::from_secs(2);

/// The lines up to `bestmove …`, and the move.
fn best_move(e: &mut Engine) -> (Vec<String>, String) {
    let lines = e.until(|l| l.starts_with("bestmove "), PATIENCE);
    let mv = lines.last().expect("a bestmove line")["bestmove ".len()..].to_string();
    (lines, mv)
}

/// The `score …` of an info line: `mate N` / `cp N`.
fn score(line: &str) -> Option<String> {
    let w: Vec<&str> = line.split_whitespace().collect();
    let at = w.iter().position(|x| *x == "score")?;
    Some(format!("{} {}", w.get(at + 1)?, w.get(at + 2)?))
}

/// The one `info depth` line of a `go` answer, checked, and the move.
fn go(e: &mut Engine) -> (String, String) {
    e.send("go wtime 60000 btime 60000");
    let (lines, mv) = best_move(e);
    let infos: Vec<&String> = lines
        .iter()
        .filter(|l| l.starts_with("info depth "))
        .collect();
    assert_eq!(infos.len(), 1, "{lines:?}");
    let info = infos[0];
    assert!(
        info.contains(&format!(" pv {mv}")),
        "the pv starts with the move: {info}"
    );
    (score(info).expect("a score"), mv)
}

#[test]
fn handshake_and_commands_are_answered_during_a_five_man_build() {
    let started = Instant::now();
    let mut e = Engine::start(&["KQ.KRN", "--report", "-"]);
    e.send("uci");
    let lines = e.until(|l| l == "uciok", Duration::from_secs(3));
    assert!(started.elapsed() < Duration::from_secs(3));
    assert!(lines[0].starts_with("id name fairy-egt"), "{lines:?}");
    assert!(lines.iter().any(|l| l.starts_with("id author ")));
    for option in [
        "option name Endgame type string default KQ.KRN",
        "option name Metric type combo default dtm var dtm var dtc var dtz",
        "option name RuleMoves type spin default 50 min 0 max 10000",
        "option name Threads type spin default ",
        "option name PieceFile type string default ",
        "option name NullMove type combo default none",
        "option name StalemateWins type check default false",
        "option name BareKingLoses type check default false",
    ] {
        assert!(
            lines.iter().any(|l| l.starts_with(option)),
            "{option}: {lines:?}"
        );
    }
    // Progress as info strings.
    let progress = e.drain(Duration::from_millis(1600));
    assert!(
        progress
            .iter()
            .filter(|l| {
                l.strip_prefix("info string ")
                    .and_then(|pv| pv.split_once("% KQ.KNR"))
                    .is_some_and(|(share, _)| share.parse::<u32>().is_ok())
            })
            .count()
            >= 2,
        "{progress:?}"
    );
    // … with the share and, once a fifth is done, the time left.
    e.until(
        |l| {
            l.strip_prefix("info string ")
                .and_then(|pv| pv.split_once("% KQ.KNR, ~"))
                .is_some_and(|(share, rest)| {
                    share.parse::<u32>().is_ok_and(|s| s >= 20) && rest.contains(" left: building ")
                })
        },
        PATIENCE,
    );
    // Unknown lines are ignored; a second `uci` is answered at once; isready waits.
    e.send("frobnicate the engine");
    e.send("uci");
    e.until(|l| l == "uciok", SHORT);
    e.send("isready");
    let before = e.drain(Duration::from_secs(1));
    assert!(!before.iter().any(|l| l == "readyok"), "{before:?}");
    assert!(
        !before.iter().any(|l| !l.starts_with("info string")),
        "{before:?}"
    );
    // quit does not wait for the build.
    e.send("quit");
    assert!(e.wait_exit(SHORT).is_some(), "still running after quit");
}

#[test]
fn end_of_input_ends_the_engine_mid_build() {
    let mut e = Engine::uci(&["KQ.KRN", "--report", "-"]);
    e.close_stdin();
    assert!(
        e.wait_exit(SHORT).is_some(),
        "still running after the end of input"
    );
}

/// The shipped cannon (O, `mRcpR`): in check from the rook, White's only saving move is the
/// cannon's hop over its own king to take the rook; the king's steps lose.
#[test]
fn the_cannon_hops_to_capture() {
    let mut e = Engine::uci(&["KO.KR", "--report", "-"]);
    e.ready();
    e.send("position fen 7k/8/8/3r4/8/3K4/8/3O4 w - - 0 1");
    let (score, mv) = go(&mut e);
    assert_eq!((score.as_str(), mv.as_str()), ("cp 0", "d1d5"));
}

#[test]
fn isready_comes_after_the_build_and_go_plays_perfectly() {
    let mut e = Engine::uci(&["KQ.KR", "--report", "-"]);
    let lines = e.ready();
    assert!(
        lines
            .iter()
            .any(|l| l.starts_with("info string KQ.KR ready in")),
        "{lines:?}"
    );
    e.send("ucinewgame");
    e.ready();
    e.send(&format!("position fen {KQKR}"));
    let (score, mv) = go(&mut e);
    assert_eq!((score.as_str(), mv.as_str()), ("mate 35", "h1b1"));
    // Black's side, from the moves played: mated in 34, longest resistance.
    e.send(&format!("position fen {KQKR} moves h1b1"));
    let (score, _) = go(&mut e);
    assert_eq!(score, "mate -34");
    e.send(&format!("position fen {KQKR} moves h1b1 c2c3"));
    let (score, _) = go(&mut e);
    assert_eq!(score, "mate 34");
    // A drawn position (Black takes the queen): cp 0, and the draw is claimed after it.
    e.send("position fen 8/8/8/8/8/8/1Qk5/7K b - - 0 1");
    let (score, mv) = go(&mut e);
    assert_eq!((score.as_str(), mv.as_str()), ("cp 0", "c2b2"));
    assert_eq!(
        e.next_line(SHORT).as_deref(),
        Some("info string game over: 1/2-1/2 {Insufficient material}")
    );
    // stop after a plain go changes nothing; the engine is still there.
    e.send("stop");
    e.ready();
    e.send("quit");
    assert!(e.wait_exit(SHORT).is_some());
}

#[test]
fn fairy_positions_are_built_on_demand_and_isready_waits_for_them() {
    let mut e = Engine::uci(&["KQ.KR", "--report", "-"]);
    e.ready();
    // The Archbishop (A) and Chancellor (C) of XBoard's fairy letters.
    e.send("position fen 8/8/8/8/2r5/8/2k5/K6A w - - 0 1");
    let lines = e.ready();
    assert!(
        lines
            .iter()
            .any(|l| l.starts_with("info string KA.KR ready in")),
        "{lines:?}"
    );
    let (score, mv) = go(&mut e);
    assert!(score.starts_with("mate ") || score == "cp 0", "{score}");
    assert!(mv.starts_with("h1") || mv.starts_with("a1"), "{mv}");
    // A go sent before isready waits for the build too, then answers.
    e.send("position fen 8/8/8/8/2c5/8/2k5/K6Q w - - 0 1 moves h1h3 c4c5");
    let (score, mv) = go(&mut e);
    assert!(
        score.starts_with("mate") || score.starts_with("cp"),
        "{score}"
    );
    assert_eq!(mv.len(), 4, "{mv}");
    assert!(e
        .log
        .iter()
        .any(|l| l.starts_with("< info string KQ.KC ready in")));
}

#[test]
fn unusable_positions_are_explained_and_go_answers_bestmove_0000() {
    let mut e = Engine::uci(&["KQ.KR", "--report", "-"]);
    e.ready();
    for (position, reason) in [
        // The shipped pieces define the pawn: the start position is too big.
        ("position startpos", "32 men"),
        ("position startpos moves e2e4 e7e5", "32 men"),
        ("position fen 8/8/8/8/8/8/8/KQRBNAk1 w - - 0 1", "7 men"),
        (
            "position fen 8/8/8/8/2r5/8/2k5/K6Q w - - 0 1 moves h1h2 h2h3",
            "move 2 (h2h3) cannot be played",
        ),
        ("position fen 8/8/8/8/2r5/8/2k5/K6S w - - 0 1", "'S'"),
        ("position fen 8/8/8/8/2r5/8/2k5/K6Q9 w - - 0 1", "FEN"),
        ("position sideways", "expected 'position startpos'"),
    ] {
        e.send(position);
        e.send("go");
        let (lines, mv) = best_move(&mut e);
        assert_eq!(mv, "0000", "{position}: {lines:?}");
        assert!(
            lines
                .iter()
                .any(|l| l.starts_with("info string cannot play this position: ")
                    && l.contains(reason)),
            "{position}: {lines:?}"
        );
        assert!(
            !lines.iter().any(|l| l.starts_with("info depth")),
            "{lines:?}"
        );
    }
    // Checkmated: the game is over.
    e.send("position fen k7/2Q5/1K6/8/8/8/8/8 w - - 0 1 moves c7b7");
    e.send("go");
    let (lines, mv) = best_move(&mut e);
    assert_eq!(mv, "0000");
    assert!(
        lines
            .iter()
            .any(|l| l == "info string game over: 1-0 {White mates}"),
        "{lines:?}"
    );
    // And a good position afterwards is played again.
    e.send(&format!("position fen {KQKR}"));
    assert_eq!(go(&mut e).1, "h1b1");
}

#[test]
fn end_of_input_answers_every_command_before_it() {
    // As `printf 'uci\nposition fen …\ngo\n' | fairy-egt KQ.KR` does: the `go` waits for
    // the start-up build, and is answered before the engine leaves.
    let mut e = Engine::start(&["KQ.KR", "--report", "-"]);
    e.send_bytes(format!("uci\nposition fen {KQKR}\ngo\n").as_bytes());
    e.close_stdin();
    let lines = e.until(|l| l.starts_with("bestmove"), PATIENCE);
    assert_eq!(lines.last().map(String::as_str), Some("bestmove h1b1"));
    assert!(
        lines
            .iter()
            .any(|l| l.starts_with("info depth 69 score mate 35 ")),
        "{lines:?}"
    );
    assert!(
        e.wait_exit(PATIENCE).is_some(),
        "still running after answering"
    );
}

#[test]
fn go_infinite_answers_at_stop_and_garbage_is_ignored() {
    let mut e = Engine::uci(&["KQ.KR", "--report", "-"]);
    e.ready();
    e.send(&format!("position fen {KQKR}"));
    e.send("go infinite");
    let lines = e.drain(Duration::from_millis(800));
    assert!(
        lines
            .iter()
            .any(|l| l.starts_with("info depth 69 score mate 35")),
        "{lines:?}"
    );
    assert!(
        !lines.iter().any(|l| l.starts_with("bestmove")),
        "{lines:?}"
    );
    e.send("stop");
    assert_eq!(e.next_line(SHORT).as_deref(), Some("bestmove h1b1"));
    for garbage in [
        "go depth 300",
        "go movestogo 99999 nodes 99999999999999999999999",
        "setoption",
        "setoption name",
        "setoption name Threads value lots",
        "position",
        "position fen",
        "debug on",
        "register later",
        "ponderhit",
        "\u{1b}[2J éàü \u{7f}",
        "",
        "   ",
    ] {
        e.send(garbage);
    }
    e.send_bytes(b"\xff\xfe garbage bytes\n");
    let lines = e.ready();
    // The two `go`s of the garbage answered (one for each), nothing else but info lines.
    assert_eq!(
        lines.iter().filter(|l| l.starts_with("bestmove ")).count(),
        2,
        "{lines:?}"
    );
    assert!(lines
        .iter()
        .all(|l| l.starts_with("info ") || l.starts_with("bestmove ")));
    e.send("position fen 8/8/8/8/2r5/8/2k5/K6Q w - - 0 1");
    assert_eq!(go(&mut e).1, "h1b1");
}

#[test]
fn rule_options_rebuild_the_tables() {
    let mut e = Engine::uci(&["KQ.K", "--report", "-"]);
    e.ready();
    // Stalemated Black: a draw, then a loss under StalemateWins.
    let stalemate = "k7/2Q5/1K6/8/8/8/8/8 b - - 0 1";
    e.send(&format!("position fen {stalemate}"));
    e.send("go");
    let (lines, _) = best_move(&mut e);
    assert!(
        lines.contains(&"info string game over: 1/2-1/2 {Stalemate}".to_string()),
        "{lines:?}"
    );
    e.send("setoption name StalemateWins value true");
    let lines = e.ready();
    assert!(
        lines
            .iter()
            .any(|l| l.starts_with("info string KQ.K ready in")),
        "{lines:?}"
    );
    e.send(&format!("position fen {stalemate}"));
    e.send("go");
    let (lines, mv) = best_move(&mut e);
    assert_eq!(mv, "0000");
    assert!(
        lines.contains(&"info string game over: 1-0 {White wins by stalemate}".to_string()),
        "{lines:?}"
    );
    e.send("position fen k7/8/1K6/8/8/8/2Q5/8 w - - 0 1");
    assert_eq!(go(&mut e), ("mate 1".to_string(), "c2h2".to_string()));
    // The start-up endgame changes: KR.K is built at once; under the null move Black may
    // pass, and KR.K is no longer a general win.
    e.send("setoption name Endgame value KR.K");
    let lines = e.ready();
    assert!(
        lines
            .iter()
            .any(|l| l.starts_with("info string KR.K ready in")),
        "{lines:?}"
    );
    let krk = "8/8/8/3k4/8/8/8/R3K3 w - - 0 1";
    e.send(&format!("position fen {krk}"));
    let (score, _) = go(&mut e);
    assert!(score.starts_with("mate "), "{score}");
    e.send("setoption name NullMove value black");
    e.ready();
    e.send(&format!("position fen {krk}"));
    assert_eq!(go(&mut e).0, "cp 0");
    // Bad values are refused and change nothing.
    e.send("setoption name Endgame value KQ.");
    e.send("setoption name PieceFile value /nonexistent/pieces.ini");
    e.send("setoption name NullMove value sometimes");
    let lines = e.ready();
    assert_eq!(lines.len(), 3, "{lines:?}");
    assert!(
        lines.iter().all(|l| l.starts_with("info string ")),
        "{lines:?}"
    );
    e.send(&format!("position fen {krk}"));
    assert_eq!(go(&mut e).0, "cp 0");
}

#[test]
fn polyglot_wraps_the_uci_mode_as_an_xboard_engine() {
    let polyglot = ["/usr/games/polyglot", "/usr/bin/polyglot"]
        .into_iter()
        .find(|p| std::path::Path::new(p).exists())
        .expect("this test needs PolyGlot: apt-get install polyglot (scripts/test.sh does)");
    let dir = support::target_dir().join("polyglot-test-cwd");
    std::fs::create_dir_all(&dir).unwrap();
    let mut child = Command::new(polyglot)
        .args(["-noini", "-ec", &format!("{BIN} KQ.KR --report -")])
        .current_dir(&dir)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("start polyglot");
    let mut stdin = child.stdin.take().unwrap();
    let script = format!("xboard\nprotover 2\nnew\nforce\npost\nsetboard {KQKR}\ngo\n");
    stdin.write_all(script.as_bytes()).unwrap();
    stdin.flush().unwrap();
    // Read until the move, then quit.
    let stdout = child.stdout.take().unwrap();
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        use std::io::BufRead;
        for line in std::io::BufReader::new(stdout)
            .lines()
            .map_while(Result::ok)
        {
            if tx.send(line).is_err() {
                break;
            }
        }
    });
    let deadline = Instant::now() + PATIENCE;
    let mut seen = Vec::new();
    let mv = loop {
        let left = deadline.saturating_duration_since(Instant::now());
        match rx.recv_timeout(left) {
            Ok(line) if line.starts_with("move ") => break line,
            Ok(line) => seen.push(line),
            Err(_) => panic!("no move from polyglot: {seen:?}"),
        }
    };
    assert_eq!(mv, "move h1b1", "{seen:?}");
    // PolyGlot turns the engine's `score mate 35` into XBoard's mate score.
    assert!(
        seen.iter().any(|l| l.starts_with("69 +100035 ")),
        "{seen:?}"
    );
    let _ = stdin.write_all(b"quit\n");
    drop(stdin);
    let status = support::wait_child(&mut child, Duration::from_secs(5));
    if status.is_none() {
        let _ = child.kill();
        let _ = child.wait();
    }
}

#[test]
fn a_new_uci_shows_the_options_set_since() {
    let mut e = Engine::uci(&["KQ.K"]);
    e.send("setoption name Metric value dtc");
    e.send("setoption name Endgame value KR.K");
    e.send("uci");
    let lines = e.until(|l| l == "uciok", Duration::from_secs(5));
    for option in [
        "option name Metric type combo default dtc var dtm var dtc var dtz",
        "option name Endgame type string default KR.K",
    ] {
        assert!(
            lines.iter().any(|l| l.starts_with(option)),
            "{option}: {lines:?}"
        );
    }
}

/// The Capablanca position of the board tests: White's Chancellor takes the rook on j1 and
/// mates.
const KCKR_10X8: &str = "9k/10/10/10/10/10/10/K3C4r w - - 0 1";

/// The `go` of a won position on another board: a mate score and the move.
fn go_mates(e: &mut Engine) -> String {
    let (score, mv) = go(e);
    assert!(
        score.starts_with("mate ") && !score.starts_with("mate -"),
        "{score}"
    );
    mv
}

#[test]
fn uci_variant_chooses_a_10x8_board() {
    let mut e = Engine::uci(&["KC.KR", "--report", "-"]);
    e.ready();
    e.send("setoption name UCI_Variant value capablanca");
    let built = e.ready();
    e.send("uci");
    let lines = e.until(|l| l == "uciok", SHORT);
    for want in [
        "option name UCI_Variant type combo default capablanca var chess var normal var fairy \
         var berolina var capablanca var gothic",
        "option name Board type string default 10x8",
    ] {
        assert!(lines.iter().any(|l| l == want), "{want}: {lines:?}");
    }
    assert!(
        built
            .iter()
            .any(|l| l.starts_with("info string KC.KR ready in")),
        "{built:?}"
    );
    e.send(&format!("position fen {KCKR_10X8}"));
    assert_eq!(go_mates(&mut e), "e1j1");
    // An 8×8 FEN is refused, naming the board in force; the 10×8 one is played again after.
    e.send("position fen 7k/8/8/8/8/8/8/K3C2r w - - 0 1");
    e.send("go");
    let (lines, mv) = best_move(&mut e);
    assert_eq!(mv, "0000", "{lines:?}");
    assert!(
        lines.iter().any(|l| l
            == "info string cannot play this position: position: bad FEN: FEN rank 8 has 8 \
                files, expected 10: the board in force is 10x8 (setoption name Board value WxH, \
                or name UCI_Variant, chooses another)"),
        "{lines:?}"
    );
    // A bad value changes nothing.
    e.send("setoption name UCI_Variant value shogi");
    assert_eq!(
        e.next_line(SHORT).as_deref(),
        Some(
            "info string option UCI_Variant: expected chess, normal, fairy or berolina (8x8), \
             capablanca or gothic (10x8), or a board WxH such as 12x12, found 'shogi'"
        )
    );
    e.send("setoption name Board value 17x17");
    assert_eq!(
        e.next_line(SHORT).as_deref(),
        Some(
            "info string option Board: expected files x ranks, each 3 to 16, such as 10x8, \
             found '17x17'"
        )
    );
    e.send(&format!("position fen {KCKR_10X8}"));
    assert_eq!(go_mates(&mut e), "e1j1");
    // Back to chess: 8×8 FENs again.
    e.send("setoption name UCI_Variant value chess");
    e.ready();
    e.send("position fen 7k/8/8/8/8/8/8/K3C2r w - - 0 1");
    assert_eq!(go_mates(&mut e), "e1h1");
    e.send("quit");
    assert!(e.wait_exit(SHORT).is_some());
}

#[test]
fn board_option_takes_any_size_and_moves_with_two_digit_ranks() {
    let mut e = Engine::uci(&["KR.K", "--report", "-"]);
    e.ready();
    e.send("setoption name Board value 12x12");
    e.send("uci");
    let lines = e.until(|l| l == "uciok", SHORT);
    assert!(
        lines.iter().any(|l| l
            == "option name UCI_Variant type combo default 12x12 var chess var normal var fairy \
                var berolina var capablanca var gothic var 12x12"),
        "{lines:?}"
    );
    assert!(
        lines
            .iter()
            .any(|l| l == "option name Board type string default 12x12"),
        "{lines:?}"
    );
    e.ready();
    // The rook's move to a1, then Black (bare king, lost) to move.
    e.send("position fen 11k/12/R11/12/12/12/12/12/12/12/12/11K w - - 0 1 moves a10a1");
    let (score, mv) = go(&mut e);
    assert!(score.starts_with("mate -"), "{score}");
    assert!(mv.starts_with("l12"), "{mv}");
    // White's side of the same board, with a two-digit square in the answer.
    e.send("position fen 11k/12/R11/12/12/12/12/12/12/12/12/11K w - - 0 1");
    go_mates(&mut e);
    e.send("quit");
    assert!(e.wait_exit(SHORT).is_some());
}

#[test]
fn board_from_the_command_line_in_uci_mode() {
    let mut e = Engine::uci(&["KC.KR", "--board", "10x8", "--report", "-"]);
    e.send("uci");
    let lines = e.until(|l| l == "uciok", SHORT);
    assert!(
        lines
            .iter()
            .any(|l| l == "option name Board type string default 10x8"),
        "{lines:?}"
    );
    assert!(
        lines
            .iter()
            .any(|l| l.starts_with("option name UCI_Variant type combo default capablanca ")),
        "{lines:?}"
    );
    e.ready();
    e.send(&format!("position fen {KCKR_10X8}"));
    assert_eq!(go_mates(&mut e), "e1j1");
    // The same board again changes nothing: no rebuild.
    e.send("setoption name UCI_Variant value gothic");
    e.send("setoption name Board value 10x8");
    let lines = e.ready();
    assert!(
        !lines
            .iter()
            .any(|l| l.starts_with("info string") && l.contains(" ready in ")),
        "{lines:?}"
    );
    e.send("quit");
    assert!(e.wait_exit(SHORT).is_some());
}
