//! Engine mode through its pipes, speaking XBoard (CECP v2) as `docs/PROTOCOL.md`
//! describes: handshake timing during a build, ping ordering, every command of issue 3,
//! illegal input, and a whole game played to mate by the engine on both sides.

mod support;

use std::time::{Duration, Instant};
use support::{next_move, thinking, Engine, KQKR, PATIENCE};

/// The KQ.KR position after White's best first move: Black to move, mated in 34.
const KQKR_BTM: &str = "8/8/8/8/2r5/8/2k5/KQ6 b - - 0 1";

const SHORT: Duration = Duration::from_secs(2);

/// An engine of KQ.KR, handshake done, table built, in force mode at the KQ.KR position.
fn kqkr_engine() -> Engine {
    // `ping` does not wait for the start-up build: its end is said.
    let (mut e, _) = Engine::xboard_until(&["KQ.KR"], |l| l.contains("(KQ.KR ready in"));
    e.send("force");
    e.send(&format!("setboard {KQKR}"));
    e.sync(1);
    e
}

/// The share of a progress line of `endgame` (`0 0 T 0 (42% KQ.KNR…`) and the text after the
/// endgame's name.
fn share_of<'a>(line: &'a str, endgame: &str) -> Option<(u32, &'a str)> {
    let (_, pv) = line.split_once(" (")?;
    let (share, rest) = pv.split_once("% ")?;
    Some((share.parse().ok()?, rest.strip_prefix(endgame)?))
}

/// Lines between now and a `pong`: what the commands sent so far said.
fn said(e: &mut Engine) -> Vec<String> {
    e.sync(1000)
}

#[test]
fn handshake_and_commands_are_answered_during_a_five_man_build() {
    let started = Instant::now();
    let mut e = Engine::start(&["KQ.KRN"]);
    let features = e.handshake();
    assert!(
        started.elapsed() < Duration::from_secs(3),
        "handshake took {:?}",
        started.elapsed()
    );
    let all = features.join(" ");
    for f in [
        "ping=1",
        "setboard=1",
        "usermove=1",
        "analyze=1",
        "myname=",
        "option=",
    ] {
        assert!(all.contains(f), "no {f}: {all}");
    }
    // Progress streams as thinking output with a comment pv, about twice a second.
    let window = Duration::from_millis(3200);
    let lines = e.drain(window);
    let progress: Vec<&String> = lines
        .iter()
        .filter(|l| l.starts_with("0 0 ") && share_of(l, "KQ.KNR").is_some())
        .collect();
    assert!(
        (3..=16).contains(&progress.len()),
        "{} progress lines in {window:?}: {lines:?}",
        progress.len()
    );
    assert!(progress.iter().all(|l| l.ends_with(')')));
    // Once a fifth is done, the share and the endgame are followed by the time left, first
    // where XBoard's narrow column shows them:
    // `0 0 520 0 (21% KQ.KNR, ~24 s left: building KQ.KNR, distance 3, 5.2 s)`.
    let left = |l: &str| {
        share_of(l, "KQ.KNR").is_some_and(|(share, rest)| {
            share >= 20 && rest.starts_with(", ~") && rest.contains(" left: building ")
        })
    };
    let shown = e.until(left, PATIENCE);
    let share = |l: &String| share_of(l, "KQ.KNR").map(|(s, _)| s);
    // Before a fifth, no time left is told (the first estimates were up to twice the time
    // that was really left).
    assert!(
        progress
            .iter()
            .copied()
            .chain(&shown)
            .filter(|l| share(l).is_some_and(|s| s < 20))
            .all(|l| !l.contains(" left")),
        "{progress:?} {shown:?}"
    );
    // A build is not a command: ping is answered at once. (XBoard drops thinking output
    // while a ping is unanswered, and it pings right after the handshake.)
    e.send("ping 5");
    let answer = e.until(|l| l.starts_with("pong"), SHORT);
    assert_eq!(answer.last().map(String::as_str), Some("pong 5"));
    assert!(!answer.iter().any(|l| l.contains("ready")), "{answer:?}");
    // … and the progress goes on after it.
    let after = e.drain(Duration::from_millis(1200));
    assert!(
        after.iter().any(|l| share_of(l, "KQ.KNR").is_some()),
        "no progress after pong: {after:?}"
    );
    // Commands that need no table are answered at once.
    for (send, want) in [
        ("frobnicate", "Error (unknown command): frobnicate"),
        ("usermove h1h9", "Illegal move: h1h9"),
        ("variant fairy", "piece A& BN"),
    ] {
        if send == "usermove h1h9" {
            e.send("force");
            e.send(&format!("setboard {KQKR}"));
        }
        e.send(send);
        e.until(|l| l == want, SHORT);
    }
    // quit does not wait for anything.
    let quit = Instant::now();
    e.send("quit");
    assert!(
        e.wait_exit(Duration::from_secs(2)).is_some(),
        "still running 2 s after quit"
    );
    assert!(quit.elapsed() < Duration::from_secs(2));
}

#[test]
fn end_of_input_ends_the_engine_mid_build() {
    let mut e = Engine::xboard(&["KQ.KRN"]);
    e.close_stdin();
    assert!(
        e.wait_exit(Duration::from_secs(2)).is_some(),
        "still running 2 s after the end of input"
    );
}

#[test]
fn end_of_input_answers_every_command_before_it() {
    // As `printf 'xboard\nprotover 2\nsetboard …\ngo\n' | fairy-egt KQ.KR` does: the `go`
    // waits for the start-up build, and is answered before the engine leaves.
    let mut e = Engine::start(&["KQ.KR"]);
    e.send_bytes(format!("xboard\nprotover 2\nsetboard {KQKR}\ngo\nping 3\n").as_bytes());
    e.close_stdin();
    let (score, mv) = next_move(&mut e);
    assert_eq!((score, mv.as_str()), (100_035, "h1b1"));
    assert_eq!(e.next_line(PATIENCE).as_deref(), Some("pong 3"));
    assert!(
        e.wait_exit(PATIENCE).is_some(),
        "still running after answering"
    );
}

#[test]
fn ping_is_answered_in_order_behind_a_go_that_waits_for_the_build() {
    let mut e = Engine::xboard(&["KQ.KR"]);
    e.send("force");
    e.send(&format!("setboard {KQKR}"));
    e.send("go");
    e.send("frobnicate");
    e.send("ping 2");
    let lines = e.until(|l| l == "pong 2", PATIENCE);
    let n = lines.len();
    assert!(n >= 2 && lines[n - 2].starts_with("move "), "{lines:?}");
    // A line that does not parse is answered by the protocol at once: while the `go` waits
    // for the build, before its move.
    assert!(
        lines.contains(&"Error (unknown command): frobnicate".to_string()),
        "{lines:?}"
    );
}

#[test]
fn the_engine_plays_both_sides_to_mate_in_35() {
    let mut e = kqkr_engine();
    let mut white_moves = 0u32;
    let mut side_white = true;
    loop {
        e.send("force");
        e.send("go");
        let (score, mv) = next_move(&mut e);
        if side_white {
            white_moves += 1;
            assert_eq!(score, 100_000 + 36 - white_moves as i64, "White move {mv}");
        } else {
            assert_eq!(
                score,
                -100_000 - (35 - white_moves as i64),
                "Black move {mv}"
            );
        }
        if side_white && white_moves == 35 {
            break;
        }
        side_white = !side_white;
    }
    assert_eq!(e.next_line(SHORT).as_deref(), Some("1-0 {White mates}"));
    let claims = e.log.iter().filter(|l| l.contains("mates}")).count();
    assert_eq!(claims, 1, "{}", e.transcript());
    // The game is over: go claims it again rather than move.
    e.send("go");
    assert!(said(&mut e).contains(&"1-0 {White mates}".to_string()));
}

#[test]
fn either_colour_playother_white_and_black() {
    let mut e = Engine::xboard(&["KQ.KR"]);
    e.send("force");
    e.send(&format!("setboard {KQKR_BTM}"));
    e.send("go");
    let (score, mv) = next_move(&mut e);
    assert_eq!(score, -100_034);
    assert!(mv.starts_with("c4") || mv.starts_with("c2"), "{mv}");
    // playother: the engine takes the side not on move and answers the user's move.
    e.send("force");
    e.send(&format!("setboard {KQKR}"));
    e.send("playother");
    assert!(said(&mut e).is_empty());
    e.send("usermove h1b1");
    let (score, _) = next_move(&mut e);
    assert_eq!(score, -100_034);
    // white: White on move, the engine plays Black.
    e.send("force");
    e.send("setboard 8/8/8/8/2r5/8/2k5/K6Q b - - 0 1");
    e.send("white");
    e.send("usermove h1b1");
    let (score, _) = next_move(&mut e);
    assert_eq!(score, -100_034);
    // black: Black on move, the engine plays White.
    e.send("force");
    e.send(&format!("setboard {KQKR}"));
    e.send("black");
    e.send("usermove c4c5");
    let (score, mv) = next_move(&mut e);
    assert!(score > 100_000, "{score}");
    assert!(mv.starts_with('a') || mv.starts_with('h'), "{mv}");
}

#[test]
fn illegal_moves_are_refused_and_change_nothing() {
    let mut e = kqkr_engine();
    for (send, refused) in [
        ("usermove h1h9", "h1h9"),
        ("usermove c4c5", "c4c5"),
        ("usermove h1c5", "h1c5"),
        ("usermove a1a1", "a1a1"),
        ("e2e4", "e2e4"),
        ("usermove Q@e4", "Q@e4"),
        ("usermove h1h8q", "h1h8q"),
    ] {
        e.send(send);
        let lines = said(&mut e);
        assert_eq!(
            lines.first().map(String::as_str),
            Some(format!("Illegal move: {refused}").as_str()),
            "{send}: {lines:?}"
        );
    }
    e.send("usermove");
    assert!(said(&mut e)[0].starts_with("Error (missing move)"));
    e.send("go");
    let (score, mv) = next_move(&mut e);
    assert_eq!((score, mv.as_str()), (100_035, "h1b1"));
}

#[test]
fn undo_and_remove() {
    let mut e = kqkr_engine();
    e.send("undo");
    assert_eq!(said(&mut e), ["Error (command not legal now): undo"]);
    e.send("usermove h1b1");
    e.send("usermove c2c3");
    e.send("undo");
    e.send("go");
    assert_eq!(next_move(&mut e).0, -100_034);
    e.send("force");
    e.send("remove");
    e.send("go");
    assert_eq!(next_move(&mut e), (100_035, "h1b1".to_string()));
    e.send("force");
    e.send("undo");
    e.send("remove");
    assert_eq!(said(&mut e), ["Error (command not legal now): remove"]);
    e.send("go");
    assert_eq!(next_move(&mut e).0, 100_035);
}

#[test]
fn setboard_edit_and_unplayable_positions() {
    let mut e = kqkr_engine();
    // A malformed FEN is refused and changes nothing.
    e.send("setboard 8/8/8 w - - 0 1");
    let lines = said(&mut e);
    assert!(
        lines.len() == 1 && lines[0].starts_with("tellusererror") && lines[0].contains("FEN"),
        "{lines:?}"
    );
    // Positions the engine cannot play: the reason, then, asked to move, the game given up
    // for the side to move with the reason (XBoard ends the game and stops the clock; a
    // `tellusererror` alone left the engine's clock running for ever), and the engine goes
    // on.
    for (fen, reason) in [
        (
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w - - 0 1",
            "32 men",
        ),
        ("8/8/8/8/8/2k5/8/KQRBNA2 w - - 0 1", "7 men"),
        ("8/8/8/8/8/2k5/8/KS6 w - - 0 1", "'S'"),
        ("8/8/8/8/8/8/8/KQ6 w - - 0 1", "Black has no king"),
        ("8/8/8/8/8/8/1k6/KQ6 w - - 0 1", "can be captured"),
    ] {
        e.send(&format!("setboard {fen}"));
        e.send("go");
        let lines = said(&mut e);
        assert!(
            lines.len() == 2
                && lines[0].starts_with("tellusererror")
                && lines[0].contains(reason)
                && lines[1].starts_with("0-1 {White resigns: ")
                && lines[1].contains(reason)
                && lines[1].ends_with('}'),
            "{fen}: {lines:?}"
        );
        e.send("force");
    }
    // Black to move: Black resigns.
    e.send("setboard 4k3/8/8/8/8/8/8/KQRBNA2 b - - 0 1");
    e.send("go");
    let lines = said(&mut e);
    assert_eq!(
        lines.last().map(String::as_str),
        Some("1-0 {Black resigns: the position has 7 men; fairy-egt's tables hold at most 6}"),
        "{lines:?}"
    );
    e.send("force");
    // Edit mode, with XBoard's idiom for Black to move.
    for line in [
        "new", "black", "force", "edit", "#", "Ka1", "Qb1", "Nd4", "xd4", "c", "Kc2", "Rc4", "Zz9",
        ".",
    ] {
        e.send(line);
    }
    let lines = said(&mut e);
    assert_eq!(lines.len(), 1, "{lines:?}");
    assert!(lines[0].starts_with("Error (edit mode"), "{lines:?}");
    e.send("go");
    assert_eq!(next_move(&mut e).0, -100_034);
    // Edit starts from the current position; # clears it.
    for line in [
        "force", "white", "force", "edit", "#", "Ka1", "Qh1", "c", "Kc2", "Rc4", ".",
    ] {
        e.send(line);
    }
    e.send("go");
    assert_eq!(next_move(&mut e), (100_035, "h1b1".to_string()));
}

#[test]
fn captures_go_on_in_the_smaller_table_and_other_endgames_are_built() {
    let mut e = Engine::xboard(&["KQ.KR"]);
    // Black's rook takes the queen: K.KR, won for Black.
    e.send("force");
    e.send("setboard 8/8/8/8/8/8/2k5/KQr5 b - - 0 1");
    e.send("go");
    let (score, mv) = next_move(&mut e);
    assert_eq!(mv, "c1b1");
    assert!(score > 100_000, "{score}");
    e.send("usermove a1a2");
    let (next, _) = next_move(&mut e);
    assert_eq!(next, score - 1);
    // An endgame that was not built is built on demand, with progress.
    e.send("force");
    e.send("setboard 7k/8/8/8/8/1C6/8/3K1r2 w - - 0 1");
    e.send("go");
    let lines = e.until(|l| l.starts_with("move "), PATIENCE);
    assert!(
        lines.iter().any(|l| share_of(l, "KC.KR").is_some()),
        "{lines:?}"
    );
    assert!(
        lines.iter().any(|l| l.contains("(KC.KR ready")),
        "{lines:?}"
    );
    assert!(lines
        .iter()
        .any(|l| thinking(l).is_some_and(|(_, s, _)| s == 100_047)));
}

#[test]
fn the_engine_claims_game_ends_that_are_true() {
    // Claims need no table: wait for the start-up build, or its last lines would fall
    // between the claims checked below.
    let mut e = kqkr_engine();
    for case in support::data::cases("game_ends.txt") {
        let [fen, claim] = &case[..] else {
            panic!("game_ends.txt: {case:?}")
        };
        e.send("force");
        e.send(&format!("setboard {fen}"));
        e.send("go");
        let lines = said(&mut e);
        assert_eq!(
            lines.last().map(String::as_str),
            Some(claim.as_str()),
            "{fen}: {lines:?}"
        );
        assert_eq!(lines.iter().filter(|l| l.contains('{')).count(), 1);
    }
    // The opponent mates the engine: it says so on its turn.
    e.send("force");
    e.send("setboard k7/8/1K6/8/8/8/8/6Q1 w - - 0 1");
    e.send("playother");
    e.send("usermove g1g8");
    assert_eq!(said(&mut e), ["1-0 {White mates}"]);
    // After result the engine does not move.
    e.send("force");
    e.send(&format!("setboard {KQKR}"));
    e.send("playother");
    e.send("result 1-0 {White resigns}");
    e.send("usermove h1b1");
    assert!(said(&mut e).is_empty());
}

#[test]
fn thinking_analysis_hint_and_book() {
    let mut e = kqkr_engine();
    e.send("analyze");
    let lines = said(&mut e);
    let t = thinking(&lines[0]).unwrap_or_else(|| panic!("{lines:?}"));
    assert_eq!((t.0, t.1, t.2.len()), (69, 100_035, 69));
    e.send("usermove h1b1");
    assert_eq!(thinking(&said(&mut e)[0]).map(|t| t.1), Some(-100_034));
    e.send(".");
    let status = said(&mut e);
    assert!(status[0].starts_with("stat01: "), "{status:?}");
    e.send("undo");
    assert_eq!(thinking(&said(&mut e)[0]).map(|t| t.1), Some(100_035));
    e.send(&format!("setboard {KQKR_BTM}"));
    assert_eq!(thinking(&said(&mut e)[0]).map(|t| t.1), Some(-100_034));
    e.send("exit");
    e.send("usermove c4c5");
    assert!(said(&mut e).iter().any(|l| l.starts_with("Illegal move")));
    e.send("usermove c2c3");
    assert!(said(&mut e).is_empty());
    e.send("hint");
    let hint = said(&mut e);
    assert!(hint.len() == 1 && hint[0].starts_with("Hint: "), "{hint:?}");
    e.send("bk");
    let book = said(&mut e);
    assert!(
        book.len() > 2 && book.last() == Some(&String::new()),
        "{book:?}"
    );
    assert!(book[..book.len() - 1].iter().all(|l| l.starts_with('\t')));
    assert!(book[0].ends_with(" win in 34"), "{book:?}");
    // nopost: the move comes without thinking output.
    e.send("nopost");
    e.send("go");
    let lines = said(&mut e);
    assert!(
        lines.len() == 1 && lines[0].starts_with("move "),
        "{lines:?}"
    );
    e.send("post");
}

/// The report file's text once it is of `endgame` (the engine writes it after each build).
fn report_of(path: &std::path::Path, endgame: &str) -> String {
    let deadline = Instant::now() + PATIENCE;
    loop {
        let text = std::fs::read_to_string(path).unwrap_or_default();
        if text.contains(&format!("endgame: {endgame}\n")) {
            return text;
        }
        assert!(Instant::now() < deadline, "no report of {endgame}: {text}");
        std::thread::sleep(Duration::from_millis(50));
    }
}

#[test]
fn the_threads_option_alone_sets_the_build_threads() {
    let dir = support::scratch("threads");
    let report = dir.join("report.txt");
    let report_arg = report.to_str().unwrap();
    let (mut e, features) =
        Engine::xboard_until(&["KQ.KR", "--threads", "3", "--report", report_arg], |l| {
            l.contains("(KQ.KR ready in")
        });
    // What Engine Settings shows is what the start-up build used; XBoard is not asked for
    // `cores` (no smp=1).
    assert!(
        features.contains(&"feature option=\"Threads -spin 3 0 256\"".to_string()),
        "{features:?}"
    );
    assert!(!features.iter().any(|l| l.contains("smp=")), "{features:?}");
    assert!(report_of(&report, "KQ.KR").contains("  3 threads  "));
    // XBoard's default `cores 1` (sent all the same by some GUI) changes nothing: an
    // on-demand build uses the same 3 threads as the start-up build.
    e.send("cores 1");
    e.send("force");
    e.send("setboard 8/8/8/8/8/8/2k5/K6A w - - 0 1");
    e.send("go");
    e.until(|l| l.starts_with("move "), PATIENCE);
    assert!(report_of(&report, "KA.K").contains("  3 threads  "));
    // The option changes the following builds.
    e.send("option Threads=2");
    e.send("setboard 8/8/8/8/8/8/2k5/K6C w - - 0 1");
    e.send("go");
    e.until(|l| l.starts_with("move "), PATIENCE);
    assert!(report_of(&report, "KC.K").contains("  2 threads  "));
}

/// The progress lines (`0 0 T 0 (…)`) up to the line that says `material` is ready.
fn progress_until_ready(e: &mut Engine, material: &str) -> Vec<String> {
    let ready = format!("({material} ready in ");
    let lines = e.until(|l| l.contains(&ready), PATIENCE);
    lines
        .into_iter()
        .filter(|l| l.starts_with("0 0 ") && !l.contains(&ready))
        .collect()
}

#[test]
fn every_build_and_load_shows_its_progress() {
    let dir = support::scratch("progress-loads");
    let tables = dir.to_str().unwrap();
    let (mut e, _) = Engine::xboard_until(&["KQ.KR", "--tables", tables], |l| {
        l.contains("(KQ.KR ready in")
    });
    // An option that changes the tables rebuilds them, and the rebuild shows its progress.
    e.send("option Metric=dtc");
    let lines = progress_until_ready(&mut e, "KQ.KR");
    assert!(
        lines.first().is_some_and(
            |l| share_of(l, "KQ.KR").is_some_and(|(_, rest)| rest.starts_with(": building "))
        ),
        "{lines:?}"
    );
    e.send("option StalemateWins=1");
    let lines = progress_until_ready(&mut e, "KQ.KR");
    assert!(
        !lines.is_empty() && lines.iter().all(|l| l.contains("building")),
        "{lines:?}"
    );
    // Back to the start-up settings: the saved tables are read, and the progress says so.
    e.send("option StalemateWins=0");
    e.send("option Metric=dtm");
    let lines = progress_until_ready(&mut e, "KQ.KR");
    assert!(!lines.is_empty(), "no progress of the load");
    assert!(
        lines
            .iter()
            .all(|l| l.contains("(loading ") && l.contains("KQ.KR, ") && !l.contains("building")),
        "{lines:?}"
    );
}

#[test]
fn options_and_accepted_commands() {
    let mut e = kqkr_engine();
    for quiet in [
        "memory 64",
        "cores 1",
        "option Threads=1",
        "egtpath syzygy /nowhere",
        "level 40 5 0",
        "level 0 2:30 1.5",
        "st 0.3",
        "sd 5",
        "time 30000",
        "otim -150",
        "hard",
        "easy",
        "random",
        "computer",
        "name Some Body",
        "rating 2000 1500",
        "accepted ping",
        "rejected san",
        "?",
        "xboard",
        "",
        "   ",
        "variant normal",
    ] {
        e.send(quiet);
        assert!(said(&mut e).is_empty(), "{quiet}:\n{}", e.transcript());
    }
    for (bad, want) in [
        ("option Metric=dtn", "Error (bad option value): Metric=dtn"),
        ("option Colour=red", "Error (unknown option): Colour"),
        (
            "option Threads",
            "Error (bad option, expected NAME=VALUE): Threads",
        ),
        ("cores many", "Error (bad argument"),
        ("level 40 x 0", "Error (bad argument): level 40 x 0"),
        ("variant shogi", "Error (unsupported variant): shogi"),
    ] {
        e.send(bad);
        let lines = said(&mut e);
        assert!(
            lines.len() == 1 && lines[0].starts_with(want),
            "{bad}: {lines:?}"
        );
    }
    // Draw offers: accepted in a drawn position only.
    e.send("draw");
    assert!(said(&mut e).is_empty());
    e.send("setboard 8/8/8/4k3/8/8/8/K7 w - - 0 1");
    e.send("draw");
    assert_eq!(said(&mut e), ["offer draw"]);
    // The metric option rebuilds the tables; DTC scores are not mate scores.
    e.send("option Metric=dtc");
    e.send(&format!("setboard {KQKR}"));
    e.send("go");
    let (score, _) = next_move(&mut e);
    assert!((9_000..10_000).contains(&score), "{score}");
}

#[test]
fn variant_fairy_describes_the_pieces() {
    let mut e = Engine::start(&["KQ.KR"]);
    // Before done=1, the letters (without a variant, which XBoard must not change for it).
    let features = e.handshake();
    let early = &features[features.len() - 2];
    assert!(
        early.starts_with("setup (PNBRQFEACWMOHIJGD...U..ZX....Y") && !early.contains("_fairy"),
        "{features:?}"
    );
    e.send("variant fairy");
    // The start-up build may still be under way: its progress lines are not looked at.
    let lines: Vec<String> = said(&mut e)
        .into_iter()
        .filter(|l| !l.starts_with("0 0 "))
        .collect();
    // The letters first (XBoard finds a `piece` command's type by its letter), then the moves.
    assert!(
        lines[0].starts_with("setup (PNBRQFEACWMOHIJGD...U..ZX....Y")
            && lines[0]
                .ends_with(") 8x8+0_fairy rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w - - 0 1"),
        "{lines:?}"
    );
    for want in [
        "piece A& BN",
        "piece C& RN",
        "piece H& N0",
        "piece W& W",
        "piece Y& QN",
        "piece X& C",
        "piece Z& Z",
        "piece O& mRcpR",
        "piece U& nN",
        "piece T& nA",
        "piece G& gQ",
    ] {
        assert!(lines.contains(&want.to_string()), "{want}: {lines:?}");
    }
    assert!(lines[1..]
        .iter()
        .all(|l| l.starts_with("piece ") && l.contains("& ")));
}

#[test]
fn uci_only_as_the_first_line_chooses_uci() {
    // First line `uci`: the UCI mode (tests/engine_uci.rs has the rest).
    let mut e = Engine::start(&["KQ.KR", "--report", "-"]);
    e.send("uci");
    let line = e.next_line(SHORT).expect("an answer to uci");
    assert!(line.starts_with("id name fairy-egt"), "{line}");
    // After the XBoard handshake, `uci` is just an unknown command.
    let mut e = Engine::xboard(&["KQ.KR", "--report", "-"]);
    e.send("uci");
    let lines = e.until(|l| l.starts_with("Error"), SHORT);
    assert_eq!(
        lines.last().map(String::as_str),
        Some("Error (unknown command): uci")
    );
    e.send("force");
    e.send(&format!("setboard {KQKR}"));
    e.send("go");
    assert_eq!(next_move(&mut e).0, 100_035);
}

/// Characters of the random short lines.
const ALPHABET: &[u8] = b" -=.@#/0123456789abcdefgh8KQRkqrxX\t\r";

/// Lines that an `Error` reply must never contain (XBoard would switch a feature off).
const TRIGGERS: [&str; 5] = ["draw", "analyze", "protover", "time", "otim"];

#[test]
fn unknown_commands_and_garbage_never_break_the_engine() {
    let mut e = kqkr_engine();
    for word in [
        "drawx",
        "reanalyze",
        "protoverx",
        "timeout 5",
        "xotim",
        "DRAWN",
        "quitx",
    ] {
        e.send(word);
        let lines = said(&mut e);
        assert!(
            lines.len() == 1 && lines[0].starts_with("Error (unknown command): "),
            "{word}: {lines:?}"
        );
        let lower = lines[0].to_ascii_lowercase();
        assert!(!TRIGGERS.iter().any(|t| lower.contains(t)), "{lines:?}");
    }
    // Edit mode refuses what it does not know and stays usable.
    for line in [
        "edit",
        "#",
        "Ka1",
        "hello there",
        "Qh1",
        "xz9",
        "c",
        "Kc2",
        "Rc4",
        ".",
    ] {
        e.send(line);
    }
    let lines = said(&mut e);
    assert_eq!(lines.len(), 2, "{lines:?}");
    // Random lines: command words with random arguments, random bytes, invalid UTF-8.
    let words = [
        "usermove",
        "setboard",
        "ping",
        "go",
        "force",
        "undo",
        "remove",
        "new",
        "white",
        "black",
        "playother",
        "hint",
        "bk",
        "draw",
        "result",
        "level",
        "st",
        "sd",
        "time",
        "otim",
        "memory",
        "cores",
        "option",
        "variant",
        "post",
        "nopost",
        "analyze",
        "exit",
        ".",
        "?",
        "accepted",
        "rejected",
        "protover",
        "egtpath",
        "name",
        "rating",
        "h1b1",
        "c4c5",
        "a1a2",
    ];
    let mut seed = 0x2545_f491_4f6c_dd1du64;
    let mut rand = move |n: usize| {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        (seed % n as u64) as usize
    };
    for i in 0..3000 {
        let mut line: Vec<u8> = match rand(4) {
            0 => (0..rand(40)).map(|_| rand(256) as u8).collect(),
            1 => (0..rand(12))
                .map(|_| ALPHABET[rand(ALPHABET.len())])
                .collect(),
            _ => {
                let mut l = words[rand(words.len())].as_bytes().to_vec();
                for _ in 0..rand(4) {
                    l.push(b' ');
                    let arg: Vec<u8> = match rand(3) {
                        0 => words[rand(words.len())].as_bytes().to_vec(),
                        1 => (0..rand(8))
                            .map(|_| b"0123456789-:.=xyz/"[rand(18)])
                            .collect(),
                        _ => (0..rand(6)).map(|_| rand(256) as u8).collect(),
                    };
                    l.extend(arg);
                }
                l
            }
        };
        line.retain(|&b| b != b'\n');
        if i == 1500 {
            line = vec![b'y'; 100_000];
        }
        line.push(b'\n');
        e.send_bytes(&line);
        if i % 500 == 0 {
            e.drain(Duration::from_millis(10));
        }
    }
    // Still answering, and still playing perfectly.
    e.send("exit");
    e.send("post");
    e.sync(7);
    let errors: Vec<&String> = e.log.iter().filter(|l| l.starts_with("< Error")).collect();
    assert!(!errors.is_empty());
    for line in errors {
        let lower = line.to_ascii_lowercase();
        assert!(!TRIGGERS.iter().any(|t| lower.contains(t)), "{line}");
    }
    e.send("force");
    e.send(&format!("setboard {KQKR}"));
    e.send("go");
    assert_eq!(next_move(&mut e), (100_035, "h1b1".to_string()));
    e.send("quit");
    assert!(e.wait_exit(SHORT).is_some_and(|s| s.success()));
}

#[test]
fn a_new_handshake_shows_the_options_set_since() {
    let mut e = Engine::xboard(&["KQ.K"]);
    e.send("option Metric=dtc");
    e.send("option Threads=1");
    e.send("option StalemateWins=1");
    e.send("option RuleMoves=30");
    let features = e.handshake();
    for feature in [
        "feature option=\"Metric -combo dtm /// *dtc /// dtz\"",
        "feature option=\"RuleMoves -spin 30 0 10000\"",
        "feature option=\"Threads -spin 1 0 ",
        "feature option=\"StalemateWins -check 1\"",
    ] {
        assert!(
            features.iter().any(|l| l.starts_with(feature)),
            "{feature}: {features:?}"
        );
    }
}

/// A Chancellor mate on 10×8 (`fairy-egt probe KC.KR --board 10x8 --fen …`: win in 12).
const KCKR_10X8: &str = "9k/10/10/10/10/10/10/K3C4r w - - 0 1";

/// The start position of 10×8 (Capablanca's), as the `setup` reply carries it.
const START_10X8: &str = "rnabqkbcnr/pppppppppp/10/10/10/10/PPPPPPPPPP/RNABQKBCNR w - - 0 1";

/// Lines said up to a pong, without build progress.
fn said_quietly(e: &mut Engine) -> Vec<String> {
    said(e)
        .into_iter()
        .filter(|l| !l.starts_with("0 0 "))
        .collect()
}

/// Plays the 10×8 Chancellor mate's first moves on an engine whose board is 10×8.
fn plays_the_chancellor_mate_on_10x8(e: &mut Engine) {
    e.send("force");
    e.send(&format!("setboard {KCKR_10X8}"));
    assert_eq!(said_quietly(e), Vec::<String>::new());
    // KC.KR is built on demand (the start-up endgame is KQ.KR).
    e.send("go");
    assert_eq!(next_move(e), (100_012, "e1j1".to_string()));
    e.send("usermove j8i7");
    assert_eq!(next_move(e), (100_011, "j1h1".to_string()));
    // A position of 8 files is not of this board: said, and the engine goes on.
    e.send("force");
    e.send("setboard 8/8/8/8/2r5/8/2k5/K6Q w - - 0 1");
    let lines = said_quietly(e);
    assert!(
        lines.len() == 1
            && lines[0].starts_with("tellusererror")
            && lines[0].contains("8 files, expected 10"),
        "{lines:?}"
    );
    e.send(&format!("setboard {KCKR_10X8}"));
    e.send("go");
    assert_eq!(next_move(e), (100_012, "e1j1".to_string()));
}

#[test]
fn variant_10x8_fairy_switches_the_board() {
    let mut e = Engine::xboard(&["KQ.KR"]);
    e.send("variant 10x8+0_fairy");
    let lines = said_quietly(&mut e);
    assert!(
        lines[0].starts_with("setup (PNBRQFEACWMOHIJGD...U..ZX....Y")
            && lines[0].ends_with(&format!(") 10x8+0_fairy {START_10X8}")),
        "{lines:?}"
    );
    assert!(lines.contains(&"piece C& RN".to_string()), "{lines:?}");
    plays_the_chancellor_mate_on_10x8(&mut e);
    // Back to 8×8: as before.
    e.send("variant fairy");
    let lines = said_quietly(&mut e);
    assert!(lines[0].contains(") 8x8+0_fairy rnbqkbnr/"), "{lines:?}");
    e.send("force");
    e.send(&format!("setboard {KQKR}"));
    e.send("go");
    assert_eq!(next_move(&mut e), (100_035, "h1b1".to_string()));
}

#[test]
fn variant_capablanca_switches_to_10x8_and_describes_nothing() {
    let mut e = Engine::xboard(&["KQ.KR"]);
    e.send("variant capablanca");
    // XBoard's own Archbishop and Chancellor move as ours.
    assert_eq!(said_quietly(&mut e), Vec::<String>::new());
    plays_the_chancellor_mate_on_10x8(&mut e);
}

#[test]
fn the_board_from_the_command_line() {
    let mut e = Engine::start(&["--board", "10x8", "KQ.KR"]);
    let features = e.handshake();
    // The handshake's setup carries the 10×8 start position.
    let early = &features[features.len() - 2];
    assert!(
        early.starts_with("setup (") && early.ends_with(&format!(") {START_10X8}")),
        "{features:?}"
    );
    plays_the_chancellor_mate_on_10x8(&mut e);
    // XBoard's variant command for the same board changes nothing but says the letters.
    e.send("variant 10x8+0_fairy");
    let lines = said_quietly(&mut e);
    assert!(
        lines[0].ends_with(&format!(") 10x8+0_fairy {START_10X8}")),
        "{lines:?}"
    );
}

#[test]
fn a_12x12_board_and_moves_with_two_digit_ranks() {
    let mut e = Engine::xboard(&["KQ.KR"]);
    e.send("variant 12x12+0_fairy");
    let lines = said_quietly(&mut e);
    assert!(lines[0].contains(") 12x12+0_fairy "), "{lines:?}");
    // Mate in 1 by the rook from a10 (KR.K built on demand).
    let fen = "12/12/R11/12/12/12/12/12/12/2K9/12/2k9 w - - 0 1";
    e.send("force");
    e.send(&format!("setboard {fen}"));
    e.send("go");
    assert_eq!(next_move(&mut e), (100_001, "a10a1".to_string()));
    let end = e.until(|l| l.starts_with("1-0"), PATIENCE);
    assert_eq!(end.last().map(String::as_str), Some("1-0 {White mates}"));
    // The same move, bare (XBoard without usermove): a move, not an unknown command.
    e.send("force");
    e.send(&format!("setboard {fen}"));
    e.send("a10a1");
    e.send("go");
    let lines = e.until(
        |l| l.starts_with("0-1") || l.starts_with("1-0") || l.contains("rror"),
        PATIENCE,
    );
    assert_eq!(
        lines.last().map(String::as_str),
        Some("1-0 {White mates}"),
        "{lines:?}"
    );
}
