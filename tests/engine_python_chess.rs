//! A real client nobody here wrote: python-chess (`chess.engine.popen_xboard`, and
//! `popen_uci` for the UCI mode) plays KQ vs KR with the engine on both sides, from the issue's
//! position to mate in 35, checking every score (tests/python/mate_game.py), plays K+P vs K
//! through a promotion to mate (the same script), and sets the table directory over
//! either protocol (tests/python/saved_tables.py), and plays KQ vs KR from clocks near the
//! 50-move rule's end: a win kept within the rule, a cursed win drawn by it and claimed
//! (tests/python/rule_game.py). Needs
//! python-chess: `FAIRY_EGT_PYTHON`, else <target>/pyenv/bin/python, as scripts/test.sh sets up.

mod support;

use std::path::Path;
use std::process::Command;
use std::time::Duration;
use support::{python, run_with_limit, scratch, BIN};

/// Runs tests/python/mate_game.py over `protocol` from `fen` with the engine of `endgame`,
/// and returns what it reports ("mate in N", with the promotion White made if any); fails
/// if the game did not end in White's mate in the first score's number of moves, every score
/// right.
fn plays_to_mate(protocol: &str, endgame: &str, fen: &str) -> String {
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/python/mate_game.py");
    let (status, out, err) = run_with_limit(
        Command::new(python("chess.engine"))
            .arg(script)
            .args([protocol, fen, BIN, endgame, "--report", "-"]),
        Duration::from_secs(180),
    );
    assert!(
        status.is_some_and(|s| s.success()),
        "python-chess {protocol} game failed ({status:?}):\n{out}\n{err}"
    );
    out.trim().to_string()
}

/// KQ against KR from the position whose DTM is 35.
fn plays_kq_kr_to_mate_in_35(protocol: &str) {
    let said = plays_to_mate(protocol, "KQ.KR", "8/8/8/8/2r5/8/2k5/K6Q w - - 0 1");
    assert_eq!(said, "mate in 35", "{protocol}");
}

#[test]
fn python_chess_plays_kq_kr_to_mate_in_35() {
    plays_kq_kr_to_mate_in_35("xboard");
}

#[test]
fn python_chess_plays_kq_kr_to_mate_in_35_over_uci() {
    plays_kq_kr_to_mate_in_35("uci");
}

/// K+P against K with the king in front of the pawn: White promotes on c8 and mates.
fn plays_kp_k_through_a_promotion(protocol: &str) {
    let said = plays_to_mate(protocol, "KP.K", "2k5/8/2K5/2P5/8/8/8/8 w - - 0 1");
    assert!(
        said.starts_with("mate in ") && said.ends_with(", promoted with c7c8q"),
        "{protocol}: {said}"
    );
}

#[test]
fn python_chess_plays_kp_k_through_a_promotion() {
    plays_kp_k_through_a_promotion("xboard");
}

#[test]
fn python_chess_plays_kp_k_through_a_promotion_over_uci() {
    plays_kp_k_through_a_promotion("uci");
}

/// python-chess sets the table directory over `protocol` (tests/python/saved_tables.py): the
/// engine plays and saves KR.KN and its sub-tables there, in DTM and in DTZ (which it plays
/// the 50-move rule by).
fn saves_tables_where_python_chess_says(protocol: &str) {
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/python/saved_tables.py");
    // A directory python-chess makes: it does not exist yet.
    let scratch = scratch(&format!("python-tables-{protocol}"));
    let dir = scratch.join("tables");
    let (status, out, err) = run_with_limit(
        Command::new(python("chess.engine"))
            .arg(script)
            .arg(protocol)
            .arg(&dir)
            .args([BIN, "KR.KN", "--report", "-"]),
        Duration::from_secs(120),
    );
    assert!(
        status.is_some_and(|s| s.success())
            && out.lines().nth(1)
                == Some(
                    "K.K.8x8.dtm.egt K.K.8x8.dtz.egt K.KN.8x8.dtm.egt K.KN.8x8.dtz.egt \
                     KR.K.8x8.dtm.egt KR.K.8x8.dtz.egt KR.KN.8x8.dtm.egt KR.KN.8x8.dtz.egt"
                ),
        "python-chess {protocol} failed ({status:?}):\n{out}\n{err}"
    );
}

#[test]
fn python_chess_sets_the_table_directory_over_xboard() {
    saves_tables_where_python_chess_says("xboard");
}

#[test]
fn python_chess_sets_the_table_directory_over_uci() {
    saves_tables_where_python_chess_says("uci");
}

/// Runs tests/python/rule_game.py over `protocol`, expecting `expect` ("win" or "draw"), from
/// `fen` with the engine of KQ.KR (the rule on, as by default), and returns its report.
fn rule_game(protocol: &str, expect: &str, fen: &str) -> String {
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/python/rule_game.py");
    let (status, out, err) = run_with_limit(
        Command::new(python("chess.engine"))
            .arg(script)
            .args([protocol, expect, fen, BIN, "KQ.KR"]),
        Duration::from_secs(180),
    );
    assert!(
        status.is_some_and(|s| s.success()),
        "python-chess {protocol} {expect} game failed ({status:?}):\n{out}\n{err}"
    );
    out.trim().to_string()
}

/// White mates in 33 by DTM here, but zeroes in 55 plies at best. From a clock of 45 the win
/// comes within the rule: the engine, on both sides, mates in 34 (the DTM mate would reach
/// 100 plies first), every score saying so, the clock never at 100. From 46 the win is
/// cursed: every score is +1 for White, and the game reaches 100 plies, where the engine
/// claims the draw over XBoard, and not before.
fn plays_near_the_rule_s_end(protocol: &str) {
    let fen = |clock| format!("8/3r4/8/8/8/2k5/8/KQ6 w - - {clock} 1");
    assert_eq!(
        rule_game(protocol, "win", &fen(45)),
        "mate in 34 after 67 plies",
        "{protocol}"
    );
    assert_eq!(
        rule_game(protocol, "draw", &fen(46)),
        "draw by the rule after 54 plies",
        "{protocol}"
    );
}

#[test]
fn python_chess_games_near_the_50_move_rule_s_end() {
    plays_near_the_rule_s_end("xboard");
}

#[test]
fn python_chess_games_near_the_50_move_rule_s_end_over_uci() {
    plays_near_the_rule_s_end("uci");
}
