//! Pawns and their promotions through the binary: the promotion setting (engine.ini's
//! `promotion`, `--promotion`, the Promotion option of XBoard and UCI), promotion moves read
//! and written in both protocols, the claim after a promotion that mates, XBoard's `variant
//! normal` and the `piece` line of a pawn that is not XBoard's own, and UCI's `position fen`
//! with an en-passant square.

mod support;

use std::path::PathBuf;
use std::time::Duration;
use support::{next_move, run, run_in, scratch, stderr, stdout, Engine, PATIENCE};

const SHORT: Duration = Duration::from_secs(2);

/// White promotes on e8 and mates at once (the Rook would mate too: the Queen comes first in
/// the list).
const MATE_BY_PROMOTION: &str = "7k/4P3/6K1/8/8/8/8/8 w - - 0 1";

/// White to move promotes at once; Black then has a move.
const PROMOTE: &str = "8/4P3/8/8/8/k7/8/4K3 w - - 0 1";

/// The Berolina piece file of the repository.
fn berolina() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/data/berolina.ini")
}

/// Lines between now and a `pong`, without progress lines.
fn said(e: &mut Engine) -> Vec<String> {
    e.sync(1000)
        .into_iter()
        .filter(|l| !l.starts_with("0 0 "))
        .collect()
}

/// A KP.K engine over XBoard, its table built.
fn kpk_xboard(args: &[&str]) -> Engine {
    let mut all = vec!["KP.K", "--report", "-"];
    all.extend_from_slice(args);
    let (e, _) = Engine::xboard_until(&all, |l| l.contains("(KP.K ready in"));
    e
}

#[test]
fn xboard_plays_and_reads_promotions_and_claims_the_mate() {
    let mut e = kpk_xboard(&[]);
    // XBoard's orthodox chess: its pawn is ours, nothing to describe.
    e.send("variant normal");
    assert_eq!(said(&mut e), Vec::<String>::new());
    e.send("force");
    e.send(&format!("setboard {MATE_BY_PROMOTION}"));
    e.send("go");
    assert_eq!(next_move(&mut e), (100_001, "e7e8q".to_string()));
    assert_eq!(e.next_line(SHORT).as_deref(), Some("1-0 {White mates}"));
    // The opponent promotes; the engine answers for Black (in KQ.K now).
    e.send("force");
    e.send(&format!("setboard {PROMOTE}"));
    e.send("playother");
    e.send("usermove e7e8q");
    let (score, _) = next_move(&mut e);
    assert!(score < 0, "Black is lost: {score}");
    // A promotion that is not a move, and a promotion to a piece not in the list.
    e.send("force");
    e.send(&format!("setboard {PROMOTE}"));
    e.send("usermove e7e8k");
    e.send("usermove e7e8");
    let lines = said(&mut e);
    assert!(
        lines.contains(&"Illegal move: e7e8k".to_string())
            && lines.contains(&"Illegal move: e7e8".to_string()),
        "{lines:?}"
    );
    e.send("option Promotion=N");
    e.send(&format!("setboard {PROMOTE}"));
    e.send("usermove e7e8q");
    e.send("usermove e7e8n");
    let lines = said(&mut e);
    assert!(
        lines.first().map(String::as_str) == Some("Illegal move: e7e8q")
            && !lines.iter().any(|l| l.contains("e7e8n")),
        "{lines:?}"
    );
    // Refused settings change nothing.
    e.send("option Promotion=QK");
    e.send("option Promotion=QQ");
    let lines = said(&mut e);
    assert_eq!(
        lines,
        [
            "Error (bad option value): Promotion=QK: promotion piece 'K' is a royal piece of \
             the endgame KP.K: a pawn may not promote to it",
            "Error (bad option value): Promotion=QQ: 'Q' is given twice in 'QQ'",
        ],
        "{}",
        e.transcript()
    );
    // The engine promotes to a Knight now, the one piece it may: no mate in one.
    e.send(&format!("setboard {MATE_BY_PROMOTION}"));
    e.send("go");
    let (_, mv) = next_move(&mut e);
    assert!(mv == "e7e8n" || !mv.starts_with("e7e8"), "{mv}");
    // The handshake shows the setting in force.
    e.send("protover 2");
    let lines = e.until(|l| l == "feature done=1", SHORT);
    assert!(
        lines.contains(&"feature option=\"Promotion -string N\"".to_string()),
        "{lines:?}"
    );
}

#[test]
fn capablanca_promotions_are_read_on_10x8() {
    let mut e = Engine::xboard(&["KP.K", "--board", "10x8", "--report", "-"]);
    let lines = e.until(|l| l.contains("(KP.K ready in"), PATIENCE);
    assert!(
        !lines.iter().any(|l| l.contains("tellusererror")),
        "{lines:?}"
    );
    e.send("variant capablanca");
    e.send("force");
    for (fen, mv) in [
        ("10/4P5/10/10/10/k9/10/4K5 w - - 0 1", "e7e8a"),
        ("10/9P/10/10/10/k9/10/4K5 w - - 0 1", "j7j8c"),
        ("10/9P/10/10/10/k9/10/4K5 w - - 0 1", "j7j8q"),
    ] {
        e.send(&format!("setboard {fen}"));
        e.send(&format!("usermove {mv}"));
        let lines = said(&mut e);
        assert!(
            !lines.iter().any(|l| l.contains("Illegal")),
            "{mv}: {lines:?}"
        );
    }
    // The engine answers for Black after a promotion to the Archbishop.
    e.send("setboard 10/4P5/10/10/10/k9/10/4K5 w - - 0 1");
    e.send("playother");
    e.send("usermove e7e8a");
    let (score, _) = next_move(&mut e);
    assert!(score < 0, "Black is lost: {score}");
}

#[test]
fn a_berolina_pawn_is_described_to_xboard() {
    let pieces = berolina();
    let mut e = Engine::xboard(&["KQ.K", "--pieces", pieces.to_str().unwrap()]);
    for variant in ["normal", "fairy"] {
        e.send(&format!("variant {variant}"));
        let lines = said(&mut e);
        assert!(
            lines.contains(&"piece P& fmFfceWifmnA".to_string()),
            "{variant}: {lines:?}"
        );
    }
}

/// The `bestmove` of the next `go`, and the lines before it.
fn uci_go(e: &mut Engine) -> (Vec<String>, String) {
    e.send("go");
    let lines = e.until(|l| l.starts_with("bestmove "), PATIENCE);
    let best = lines.last().expect("a bestmove line")["bestmove ".len()..].to_string();
    (lines, best)
}

#[test]
fn uci_promotions_and_en_passant() {
    let mut e = Engine::uci(&["KP.K", "--report", "-"]);
    e.ready();
    e.send(&format!("position fen {MATE_BY_PROMOTION}"));
    let (lines, best) = uci_go(&mut e);
    assert_eq!(best, "e7e8q");
    assert!(
        lines.iter().any(|l| l.contains(" score mate 1 ")),
        "{lines:?}"
    );
    // A promotion in the moves of `position`.
    e.send(&format!("position fen {PROMOTE} moves e7e8r"));
    let (lines, best) = uci_go(&mut e);
    assert!(best != "0000", "{lines:?}");
    assert!(
        lines.iter().any(|l| l.contains(" score mate -")),
        "{lines:?}"
    );
    // The en-passant square of the FEN is the Setup's: d5xe6 is a move.
    e.send("position fen 4k3/8/8/3Pp3/8/8/8/4K3 w - e6 0 1 moves d5e6");
    let (lines, best) = uci_go(&mut e);
    assert!(
        best != "0000" && !lines.iter().any(|l| l.starts_with("info string")),
        "{lines:?}"
    );
    // Only Knights now: e7e8q is no move, and the setting shows in a new `uci`.
    e.send("setoption name Promotion value n");
    e.send(&format!("position fen {PROMOTE} moves e7e8q"));
    let (lines, best) = uci_go(&mut e);
    assert_eq!(best, "0000");
    assert!(
        lines
            .iter()
            .any(|l| l.starts_with("info string") && l.contains("e7e8q")),
        "{lines:?}"
    );
    // The change to N rebuilds: its progress may come first.
    let option_error = |e: &mut Engine| {
        let lines = e.until(
            |l| l.starts_with("info string") && l.contains("Promotion"),
            SHORT,
        );
        lines.last().cloned().unwrap_or_default()
    };
    e.send("setoption name Promotion value QV1");
    assert_eq!(
        option_error(&mut e),
        "info string option Promotion: expected piece letters such as QRBN, found '1' in 'QV1'"
    );
    e.send("setoption name Promotion value QK");
    let line = option_error(&mut e);
    assert!(line.contains("'K' is a royal piece"), "{line}");
    e.send("uci");
    let lines = e.until(|l| l == "uciok", SHORT);
    assert!(
        lines.contains(&"option name Promotion type string default N".to_string()),
        "{lines:?}"
    );
}

#[test]
fn the_promotion_setting_from_the_command_line_and_engine_ini() {
    // `moves` builds nothing: the list shows in the promotions it prints.
    let fen = "8/4P3/8/8/8/k7/8/4K3 w - - 0 1";
    let out = run(&["moves", "KP.K", "--fen", fen, "--promotion", "nq"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let moves = stdout(&out);
    assert!(
        moves.contains("e7e8n") && moves.contains("e7e8q") && !moves.contains("e7e8r"),
        "{moves}"
    );
    let out = run(&["moves", "KP.K", "--fen", fen]);
    assert!(stdout(&out).contains("e7e8r"), "{}", stdout(&out));
    // Errors: exit 2, the reason on stderr.
    for (letters, why) in [
        (
            "QK",
            "--promotion: promotion piece 'K' is a royal piece of the endgame KP.K",
        ),
        ("QP", "--promotion: 'P' is the pawn"),
        ("QRQ", "--promotion: 'Q' is given twice in 'QRQ'"),
    ] {
        let out = run(&["moves", "KP.K", "--fen", fen, "--promotion", letters]);
        assert_eq!(out.status.code(), Some(2), "{letters}");
        assert!(stderr(&out).contains(why), "{letters}: {}", stderr(&out));
    }
    // engine.ini: the file and the line.
    let dir = scratch("promotion-ini");
    let pieces = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("piecedef.ini");
    let undefined = ('A'..='Z')
        .find(|l| {
            let text = std::fs::read_to_string(&pieces).unwrap();
            !text.lines().any(|line| line.starts_with(&format!("{l}:")))
        })
        .expect("a letter the shipped file does not define");
    std::fs::write(
        dir.join("engine.ini"),
        format!("pieces = {}\npromotion = Q{undefined}\n", pieces.display()),
    )
    .unwrap();
    let out = run_in(&dir, &["moves", "KP.K", "--fen", fen]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).contains(&format!(
            "engine.ini:2: 'promotion': promotion piece '{undefined}' is not in the piece \
             definitions"
        )),
        "{}",
        stderr(&out)
    );
    // The command line wins over engine.ini.
    let out = run_in(&dir, &["moves", "KP.K", "--fen", fen, "--promotion", "R"]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(stdout(&out).contains("e7e8r") && !stdout(&out).contains("e7e8q"));
    // --help names the option.
    assert!(stdout(&run(&["--help"])).contains("--promotion LETTERS"));
}
