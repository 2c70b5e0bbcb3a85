//! Real XBoard under Xvfb. scripts/xboard-game.sh: one engine-against-engine game of
//! `-variant fairy` from the Chancellor endgame's longest win, checking that the saved PGN ends
//! in a win for the side the table says, in the table's number of moves. The PGN, XBoard's
//! debug log and a screenshot of the board and Engine Output stay in <target>/xboard-gui/.
//! scripts/xboard-progress.sh: XBoard in EditPosition mode during a 5-man start-up build,
//! checking from XBoard's own debug log that its ping is answered before the progress comes
//! (XBoard 4.9.1 shows no thinking output while a ping is unanswered); the screenshot stays in
//! <target>/xboard-progress/.
//! scripts/xboard-game.sh again: an Amazon (Y, a letter XBoard's `variant fairy` lacks)
//! mating beside a Xiangqi cannon (O, defined in Betza) loaded from a position file with
//! legality testing on, checking that XBoard read the FEN (the engine's `setup` told it the
//! letters), took the engine's `piece` descriptions and accepted every move; the PGN, log and
//! screenshot stay in <target>/xboard-fairy-pieces/. And a piece that moves only rightwards
//! and up and down, for Black: XBoard turns White's description half a turn for Black, we
//! mirror it, so Black's is sent apart, and XBoard must accept Black's move to the right.
//! scripts/xboard-paste.sh: the same Amazon position pasted as a FEN (Edit → Paste Position,
//! where XBoard said "Bad FEN position in clipboard" before the engine told it the letters)
//! and played by the engine as White with legality testing on.
//! scripts/xboard-game.sh with `-boardWidth 10 -boardHeight 8`: a Chancellor mate on a 10×8
//! board, for which XBoard sends `variant 10x8+0_fairy` (the engine lists every board size
//! in its `variants` feature), with legality testing on; the PGN, log and screenshot stay in
//! <target>/xboard-10x8/ (the screenshot is docs/xboard-10x8.png). And the same on 10×10,
//! where XBoard numbers the ranks from 0 (`j0` is the engine's j1). Pawns: K+P vs K from the
//! published longest win, 28 moves, through the promotion to mate in `-variant fairy`
//! (<target>/xboard-pawn-longest/), and in `-variant normal` (<target>/xboard-pawn/); on 10×8
//! a promotion to a Chancellor, the only win (<target>/xboard-10x8-pawn/); and the Berolina
//! pawn, described by a `piece` line, in `-variant fairy` and `-variant berolina` with
//! legality testing on (<target>/xboard-berolina-*/). The 50-move rule, with XBoard's default
//! `-ruleMoves 51`: a mate in 79 won within the rule (<target>/xboard-rule-win/), and a
//! cursed win whose draw the engine claims at the 100th ply (<target>/xboard-rule-draw/).
//! Needs Xvfb, xboard, xdotool, xclip and ImageMagick (scripts/test.sh installs them).

mod support;

use fairy_egt::board::{BoardSize, Color, Position, Setup};
use fairy_egt::egt::extremes::longest_win;
use fairy_egt::egt::material::Material;
use fairy_egt::egt::progress::Silent;
use fairy_egt::egt::table::Metric;
use fairy_egt::egt::tables::TableSet;
use fairy_egt::egt::value::Value;
use fairy_egt::piece::PieceSet;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Duration;
use support::{run_with_limit, target_dir, BIN};

/// Fails with a clear message when a program the test needs is missing.
fn require(program: &str, package: &str) {
    let found = ["/usr/bin", "/usr/games", "/usr/local/bin", "/bin"]
        .iter()
        .any(|dir| Path::new(dir).join(program).exists());
    assert!(
        found,
        "this test needs {program} (Debian package {package}): run scripts/test.sh, which \
         installs xvfb, xboard, xdotool, xclip and imagemagick"
    );
}

/// The number of White's moves in a PGN's movetext, and whether its last move mates.
fn white_moves(pgn: &str) -> (usize, bool) {
    let movetext: String = pgn
        .lines()
        .filter(|l| !l.starts_with('['))
        .collect::<Vec<_>>()
        .join(" ");
    let mut text = String::new();
    let mut depth = 0;
    for c in movetext.chars() {
        match c {
            '{' => depth += 1,
            '}' => depth -= 1,
            _ if depth == 0 => text.push(c),
            _ => {}
        }
    }
    let tokens: Vec<&str> = text.split_whitespace().collect();
    let numbers = tokens
        .iter()
        .filter(|t| {
            t.ends_with('.') && !t.ends_with("...") && t[..t.len() - 1].parse::<u32>().is_ok()
        })
        .count();
    let last_move = tokens
        .iter()
        .rev()
        .find(|t| !["1-0", "0-1", "1/2-1/2", "*"].contains(t))
        .copied()
        .unwrap_or("");
    (numbers, last_move.ends_with('#'))
}

/// Fails with a clear message unless every program the GUI tests need is there.
fn require_gui_tools() {
    for (program, package) in [
        ("Xvfb", "xvfb"),
        ("xboard", "xboard"),
        ("xdotool", "xdotool"),
        ("xclip", "xclip"),
        ("import", "imagemagick"),
    ] {
        require(program, package);
    }
}

/// Fails if XBoard refused a position or a move: the debug log says "Forfeit due to invalid
/// move" and XBoard's own output `Illegal move`.
fn assert_no_refusal(out: &Path, log: &str) {
    let said = std::fs::read_to_string(out.join("xboard.out")).unwrap_or_default();
    for refusal in ["Bad FEN", "llegal move", "invalid move", "Bad position"] {
        assert!(
            !log.contains(refusal) && !said.contains(refusal),
            "XBoard said {refusal}:\n{said}\n{log}"
        );
    }
}

/// Fails unless `out` holds the screenshot `name` (an image, not an empty file).
fn assert_screenshot(out: &Path, name: &str) {
    let shot = std::fs::metadata(out.join(name)).map_or(0, |m| m.len());
    assert!(shot > 10_000, "no screenshot {name} in {}", out.display());
}

/// The lines XBoard's debug log says it received from the first engine, in order.
fn received(log: &str) -> Vec<&str> {
    log.lines()
        .filter_map(|l| l.split_once(" <first : ").map(|(_, text)| text))
        .collect()
}

/// A game XBoard played with `engine` through `scripts/xboard-game.sh` from `fen` of
/// `endgame`, into `target/NAME`, checked to have finished: the output directory, the PGN and
/// XBoard's debug log.
fn xboard_game(engine: &str, endgame: &str, fen: &str, name: &str) -> (PathBuf, String, String) {
    xboard_game_with(engine, endgame, fen, name, &[])
}

/// [`xboard_game`] with more XBoard options (e.g. the board's size).
fn xboard_game_with(
    engine: &str,
    endgame: &str,
    fen: &str,
    name: &str,
    xboard_args: &[&str],
) -> (PathBuf, String, String) {
    let out = target_dir().join(name);
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("scripts/xboard-game.sh");
    let (status, stdout, stderr) = run_with_limit(
        Command::new("bash")
            .arg(script)
            .args([engine, endgame, fen])
            .arg(&out)
            .args(xboard_args),
        Duration::from_secs(200),
    );
    let pgn = std::fs::read_to_string(out.join("game.pgn")).unwrap_or_default();
    let log = std::fs::read_to_string(out.join("xboard-debug.log")).unwrap_or_default();
    assert!(
        status.is_some_and(|s| s.success()),
        "no finished game ({status:?}):\n{stdout}\n{stderr}\n{pgn}\nsee {}",
        out.display()
    );
    (out, pgn, log)
}

#[test]
fn xboard_receives_the_start_up_progress_after_its_ping_is_answered() {
    require_gui_tools();
    let out = target_dir().join("xboard-progress");
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("scripts/xboard-progress.sh");
    let (status, stdout, stderr) = run_with_limit(
        Command::new("bash")
            .arg(script)
            .args([BIN, "KBN.KN"])
            .arg(&out)
            .arg("30"),
        Duration::from_secs(150),
    );
    assert!(
        status.is_some_and(|s| s.success()),
        "XBoard did not come up ({status:?}):\n{stdout}\n{stderr}"
    );
    let log = std::fs::read_to_string(out.join("xboard-debug.log")).expect("XBoard's debug log");
    let got = received(&log);
    let pong = got
        .iter()
        .position(|l| *l == "pong 1")
        .unwrap_or_else(|| panic!("XBoard got no pong 1:\n{log}"));
    let progress_after_pong: Vec<&str> = got[pong..]
        .iter()
        .copied()
        .filter(|l| l.starts_with("0 0 ") && l.contains("% KBN.KN"))
        .collect();
    assert!(
        progress_after_pong.len() >= 2,
        "{} progress lines reached XBoard after its ping was answered:\n{log}",
        progress_after_pong.len()
    );
    // The percent, the endgame and the time left come first, where the Engine Output column
    // shows them: `(29% KBN.KN, ~9 s left: building KBN.KN, …`.
    assert!(
        progress_after_pong.iter().any(|l| l
            .split_once(" (")
            .and_then(|(_, pv)| pv.split_once("% KBN.KN, ~"))
            .is_some_and(
                |(share, rest)| share.parse::<u32>().is_ok() && rest.contains(" left: building ")
            )),
        "no time left reached XBoard:\n{log}"
    );
    assert!(
        !got[..pong].iter().any(|l| l.contains(" ready in ")),
        "the build was over before the pong:\n{log}"
    );
    assert_screenshot(&out, "progress.png");
}

#[test]
fn xboard_plays_a_chancellor_endgame_to_the_table_mate() {
    require_gui_tools();
    let mut tables = TableSet::new(PieceSet::standard(), Metric::Dtm);
    let material = Material::parse("KC.KR", tables.pieces()).expect("KC.KR");
    tables.build(&material, &Silent).expect("KC.KR builds");
    let (start, distance) = longest_win(&tables, &material, Color::White).expect("a won position");
    let fen = start.to_setup().to_fen();

    let (out, pgn, _) = xboard_game(BIN, "KC.KR", &fen, "xboard-gui");
    assert!(pgn.contains("[Result \"1-0\"]"), "{pgn}");
    assert!(pgn.contains(&format!("[FEN \"{fen}\"]")), "{pgn}");
    assert_eq!(white_moves(&pgn), (distance as usize, true), "{pgn}");
    assert_screenshot(&out, "xboard.png");
}

#[test]
fn xboard_plays_an_amazon_and_a_cannon_with_legality_testing() {
    require_gui_tools();
    // White mates in 4 (`fairy-egt probe KY.KO --fen …`); the cannon stays on the board.
    let fen = "6o1/8/8/3k4/8/8/8/Y3K3 w - - 0 1";
    let (out, pgn, log) = xboard_game(BIN, "KY.KO", fen, "xboard-fairy-pieces");
    assert_no_refusal(&out, &log);
    let got = received(&log);
    assert!(
        got.iter()
            .any(|l| l.starts_with("setup (") && l.contains("Y") && l.contains("8x8+0_fairy")),
        "{log}"
    );
    // XBoard kept the descriptions: it writes them into the PGN's VariantMen tag.
    assert!(pgn.contains("Y:QN") && pgn.contains("O:mRcpR"), "{pgn}");
    assert!(pgn.contains("[Result \"1-0\"]"), "{pgn}");
    assert!(pgn.contains(&format!("[FEN \"{fen}\"]")), "{pgn}");
    assert_eq!(white_moves(&pgn), (4, true), "{pgn}");
    assert_screenshot(&out, "xboard.png");
}

#[test]
fn xboard_takes_blacks_own_description_of_a_piece_not_symmetric_left_to_right() {
    require_gui_tools();
    let out = target_dir().join("xboard-asymmetric-piece");
    std::fs::create_dir_all(&out).expect("the output directory");
    let pieces = out.join("pieces.ini");
    std::fs::write(
        &pieces,
        "K: 1,0,* 1,1,*\nV: 1,0,s 0,1,s 0,-1,s 1,1,s 1,-1,s  # a Queen that never moves left\n",
    )
    .expect("the piece file");
    // Black mates in 5 and starts with a4g4, to the right (`fairy-egt probe`).
    let fen = "8/8/8/8/v7/8/2k5/7K b - - 0 1";
    let engine = format!("{BIN} --pieces {}", pieces.display());
    let (_, pgn, log) = xboard_game(&engine, "K.KV", fen, "xboard-asymmetric-piece");
    assert_no_refusal(&out, &log);
    assert!(pgn.contains("V:vrRrB;v:vlRlB"), "{pgn}");
    assert!(pgn.contains("1... Vg4"), "{pgn}");
    assert!(pgn.contains("[Result \"0-1\"]"), "{pgn}");
}

#[test]
fn xboard_takes_a_pasted_fen_with_an_amazon_and_the_engines_move() {
    require_gui_tools();
    let fen = "6o1/8/8/3k4/8/8/8/Y3K3 w - - 0 1";
    let out = target_dir().join("xboard-paste");
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("scripts/xboard-paste.sh");
    let (status, stdout, stderr) = run_with_limit(
        Command::new("bash")
            .arg(script)
            .args([BIN, "KY.KO", fen])
            .arg(&out),
        Duration::from_secs(120),
    );
    let log = std::fs::read_to_string(out.join("xboard-debug.log")).unwrap_or_default();
    assert!(
        status.is_some_and(|s| s.success()),
        "no move after the paste ({status:?}):\n{stdout}\n{stderr}\n{log}"
    );
    assert_no_refusal(&out, &log);
    // XBoard read the FEN (it sends the pasted position on) and took the Amazon's first move
    // of the mate in 4 (`fairy-egt probe`), a Knight's leap.
    let sent = format!(">first : setboard {fen}");
    let at = log
        .find(&sent)
        .unwrap_or_else(|| panic!("XBoard never sent the pasted FEN:\n{log}"));
    // A refusal would be a forfeit (assert_no_refusal); the only game end is XBoard's exit.
    assert!(log[at..].contains("<first : move a1b3"), "{log}");
    // (XBoard's own exit may or may not be logged before the script's end stops it.)
    let ends: Vec<&str> = log[at..]
        .lines()
        .filter(|l| l.starts_with("GameEnds(") && !l.contains("xboard exit"))
        .collect();
    assert!(ends.is_empty(), "{ends:?}\n{log}");
}

/// K+P against K in real XBoard with legality testing on, from the published longest win:
/// 28 moves, through the promotion to a Queen, to mate. The screenshot is
/// docs/xboard-pawn.png.
#[test]
fn xboard_plays_king_and_pawn_through_the_promotion_to_mate() {
    require_gui_tools();
    let fen = "8/8/8/1k6/8/8/K5P1/8 w - - 0 1";
    let (out, pgn, log) = xboard_game(BIN, "KP.K", fen, "xboard-pawn-longest");
    assert_no_refusal(&out, &log);
    assert!(pgn.contains("[Result \"1-0\"]"), "{pgn}");
    assert!(pgn.contains("g8=Q"), "{pgn}");
    assert_eq!(white_moves(&pgn), (28, true), "{pgn}");
    assert_screenshot(&out, "xboard.png");
}

/// The 50-move rule under XBoard's own default, `-ruleMoves 51` (given after the script's
/// `-ruleMoves 0`, which it overrides): K+B+N against K+N from a mate in 79 moves that is won
/// within the rule (the clock of the mate reaches 96 plies): the engine, on both sides, mates
/// in 79, with no draw by adjudication on the way. The screenshot is docs/xboard-rule-win.png.
#[test]
fn xboard_sees_a_mate_in_79_won_within_its_default_50_move_rule() {
    require_gui_tools();
    let fen = "7k/8/7K/8/8/8/8/N3nB2 w - - 0 1";
    let (out, pgn, log) =
        xboard_game_with(BIN, "KBN.KN", fen, "xboard-rule-win", &["-ruleMoves", "51"]);
    assert_no_refusal(&out, &log);
    assert!(pgn.contains("[Result \"1-0\"]"), "{pgn}");
    assert!(!pgn.contains("move rule"), "{pgn}");
    assert_eq!(white_moves(&pgn), (79, true), "{pgn}");
    assert_screenshot(&out, "xboard.png");
}

/// A cursed win in real XBoard: K+Q against K+R from a mate in 33 whose FEN's half-move
/// clock, 46, leaves too few plies for its 55 to the zeroing. The engine scores it +0.01
/// (−0.01 for Black), claims no win, and on the 100th ply claims the draw by the rule,
/// which XBoard (counting from the FEN's clock itself) accepts: the game is drawn after
/// 27 moves. The screenshot is docs/xboard-rule-draw.png.
#[test]
fn xboard_takes_the_engines_claim_of_the_50_move_rule_in_a_cursed_win() {
    require_gui_tools();
    let fen = "8/3r4/8/8/8/2k5/8/KQ6 w - - 46 1";
    let (out, pgn, log) =
        xboard_game_with(BIN, "KQ.KR", fen, "xboard-rule-draw", &["-ruleMoves", "51"]);
    assert_no_refusal(&out, &log);
    assert!(pgn.contains("[Result \"1/2-1/2\"]"), "{pgn}");
    assert!(pgn.contains("{50-move rule} 1/2-1/2"), "{pgn}");
    assert!(log.contains("1/2-1/2 {50-move rule}"), "{log}");
    assert!(
        !log.contains("false"),
        "XBoard took a claim for false:\n{log}"
    );
    assert_eq!(white_moves(&pgn), (27, false), "{pgn}");
    let scores: Vec<&str> = (pgn.split('{').skip(1))
        .filter_map(|c| c.split('/').next())
        .filter(|s| s.starts_with(['+', '-']) && !s.starts_with("--"))
        .collect();
    assert_eq!(scores.len(), 54, "{pgn}");
    assert!(
        scores.iter().all(|s| *s == "+0.01" || *s == "-0.01"),
        "{scores:?}"
    );
    assert_screenshot(&out, "xboard.png");
}

/// On 10×8 a pawn promotes to Q R B N A C. Here the only win is the under-promotion to a
/// Chancellor (to a Queen it is a draw, checked with the table), which real XBoard must
/// accept with legality testing on, and then the table's mate in 6. The screenshot is
/// docs/xboard-10x8-pawn.png.
#[test]
fn xboard_takes_a_promotion_to_a_chancellor_on_10x8() {
    require_gui_tools();
    let fen = "10/1P8/k9/10/K9/10/10/10 w - - 0 1";
    let size: BoardSize = "10x8".parse().expect("a board size");
    let mut tables = TableSet::new(PieceSet::standard(), Metric::Dtm).on_board(size);
    let material = Material::parse("KP.K", tables.pieces()).expect("KP.K");
    tables.build(&material, &Silent).expect("KP.K builds");
    let setup = Setup::from_fen(fen, size).expect("a FEN of the board");
    let start = Position::new(&setup, tables.geometry(), material.royals()).expect("legal");
    let value_of = |text: &str| {
        let mv = start.parse_move(text, tables.geometry()).expect("legal");
        tables.probe(&start.play(mv)).expect("probed").for_mover()
    };
    assert_eq!(value_of("b7b8c"), Value::Win(6));
    assert_eq!(value_of("b7b8q"), Value::Draw);

    let (out, pgn, log) = xboard_game_with(
        BIN,
        "KP.K",
        fen,
        "xboard-10x8-pawn",
        &["-boardWidth", "10", "-boardHeight", "8"],
    );
    assert_no_refusal(&out, &log);
    assert!(log.contains("<first : move b7b8c"), "{log}");
    assert!(pgn.contains("1. b8=C"), "{pgn}");
    assert!(pgn.contains("[Result \"1-0\"]"), "{pgn}");
    assert_eq!(white_moves(&pgn), (6, true), "{pgn}");
    assert_screenshot(&out, "xboard.png");
}

/// A KC.KR game in real XBoard on `board` from `fen`, won by White in the table's distance
/// (`distance`, checked), opening with `first` (SAN) into `target/NAME`: XBoard must send
/// `variant WxH+0_fairy` to both engines (which start on 8x8) and take the engine's `setup`
/// and Chancellor with legality testing on. Returns the output directory.
fn chancellor_game_on(board: &str, fen: &str, distance: u16, first: &str, name: &str) -> PathBuf {
    require_gui_tools();
    let size: BoardSize = board.parse().expect("a board size");
    let mut tables = TableSet::new(PieceSet::standard(), Metric::Dtm).on_board(size);
    let material = Material::parse("KC.KR", tables.pieces()).expect("KC.KR");
    tables.build(&material, &Silent).expect("KC.KR builds");
    let setup = Setup::from_fen(fen, size).expect("a FEN of the board");
    let start = Position::new(&setup, tables.geometry(), material.royals()).expect("legal");
    assert_eq!(tables.probe(&start), Ok(Value::Win(distance)), "{fen}");

    let (w, h) = (size.files().to_string(), size.ranks().to_string());
    let (out, pgn, log) = xboard_game_with(
        BIN,
        "KC.KR",
        fen,
        name,
        &["-boardWidth", &w, "-boardHeight", &h],
    );
    assert_no_refusal(&out, &log);
    let variant = format!("variant {board}+0_fairy");
    assert!(log.contains(&format!(">first : {variant}")), "{log}");
    assert!(log.contains(&format!(">second: {variant}")), "{log}");
    assert!(!log.contains("not supported"), "{log}");
    let setup_line = format!(" {board}+0_fairy ");
    assert!(
        received(&log)
            .iter()
            .any(|l| l.starts_with("setup (") && l.contains(&setup_line)),
        "{log}"
    );
    // XBoard kept the Chancellor's description (legality testing is on).
    assert!(pgn.contains("C:RN"), "{pgn}");
    assert!(pgn.contains("[Result \"1-0\"]"), "{pgn}");
    assert!(pgn.contains(&format!("[FEN \"{fen}\"]")), "{pgn}");
    assert!(pgn.contains(&format!("1. {first} ")), "{pgn}");
    assert_eq!(white_moves(&pgn), (distance as usize, true), "{pgn}");
    assert_screenshot(&out, "xboard.png");
    out
}

#[test]
fn xboard_plays_a_chancellor_mate_on_a_10x8_board() {
    // The first move goes to the tenth file; the screenshot is docs/xboard-10x8.png.
    let fen = "9k/10/10/10/10/10/10/K3C4r w - - 0 1";
    chancellor_game_on("10x8", fen, 12, "Cxj1+", "xboard-10x8");
}

#[test]
fn xboard_plays_a_chancellor_mate_on_a_10x10_board_whose_ranks_it_counts_from_0() {
    // XBoard writes rank 1 as 0 on 10 ranks: its `j0` is the engine's j1.
    let fen = "9k/10/10/10/10/10/10/10/10/K3C4r w - - 0 1";
    let out = chancellor_game_on("10x10", fen, 13, "Cxj0+", "xboard-10x10");
    let log = std::fs::read_to_string(out.join("xboard-debug.log")).expect("the debug log");
    assert!(log.contains("<first : move e0j0"), "{log}");
}

#[test]
fn xboard_sends_the_table_directory_of_egt_formats_and_the_engines_save_there() {
    require_gui_tools();
    let out = target_dir().join("xboard-saved-tables");
    let tables = out.join("tables");
    let _ = std::fs::remove_dir_all(&tables);
    let formats = format!("fairy-egt:{}", tables.display());
    // White mates in 4 (`fairy-egt probe KY.KO`), as above; two engines save the same tables
    // to the same directory at once.
    let fen = "6o1/8/8/3k4/8/8/8/Y3K3 w - - 0 1";
    let (out, pgn, log) = xboard_game_with(
        BIN,
        "KY.KO",
        fen,
        "xboard-saved-tables",
        &["-egtFormats", &formats],
    );
    assert_no_refusal(&out, &log);
    assert!(pgn.contains("[Result \"1-0\"]"), "{pgn}");
    let sent = format!("egtpath fairy-egt {}", tables.display());
    assert!(
        log.lines()
            .any(|l| l.contains(">first : ") && l.ends_with(&sent)),
        "{log}"
    );
    let mut files: Vec<String> = std::fs::read_dir(&tables)
        .expect("the table directory")
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    files.sort();
    assert_eq!(
        files,
        // The DTZ tables the engine plays the 50-move rule by are saved beside.
        [
            "K.K.8x8.dtm.egt",
            "K.K.8x8.dtz.egt",
            "K.KO.8x8.dtm.egt",
            "K.KO.8x8.dtz.egt",
            "KY.K.8x8.dtm.egt",
            "KY.K.8x8.dtz.egt",
            "KY.KO.8x8.dtm.egt",
            "KY.KO.8x8.dtz.egt"
        ]
    );
}

/// K+P vs K, White to move: the pawn's king stands in front of it on the sixth rank.
const KPK: &str = "2k5/8/2K5/2P5/8/8/8/8 w - - 0 1";

#[test]
fn xboard_plays_a_pawn_ending_in_variant_normal_through_a_promotion() {
    require_gui_tools();
    // XBoard's own chess: it sends no `variant`, and its own pawn is ours. Mate in 10
    // (`fairy-egt probe KP.K --fen …`), promoting on c8.
    let engine = format!("{BIN} --report -");
    let (out, pgn, log) =
        xboard_game_with(&engine, "KP.K", KPK, "xboard-pawn", &["-variant", "normal"]);
    assert_no_refusal(&out, &log);
    assert!(pgn.contains("[Result \"1-0\"]"), "{pgn}");
    assert!(pgn.contains("c8=Q"), "{pgn}");
    assert_eq!(white_moves(&pgn), (10, true), "{pgn}");
}

#[test]
fn xboard_plays_the_berolina_pawn_with_legality_testing() {
    require_gui_tools();
    // The Berolina pawn moves diagonally: XBoard's legality test knows it from our `piece`
    // line, in `fairy` and in its own `berolina` (not in `normal`, where XBoard takes no
    // `piece` line and sends no `variant`). Mate in 8, promoting on d8.
    let pieces = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/berolina.ini");
    let engine = format!("{BIN} --pieces {} --report -", pieces.display());
    for variant in ["fairy", "berolina"] {
        let name = format!("xboard-berolina-{variant}");
        let (out, pgn, log) = xboard_game_with(&engine, "KP.K", KPK, &name, &["-variant", variant]);
        assert_no_refusal(&out, &log);
        assert!(
            received(&log).contains(&"piece P& fmFfceWifmnA"),
            "{variant}: {log}"
        );
        assert!(pgn.contains("[VariantMen \"P:fmFfceWifmnA\"]"), "{pgn}");
        assert!(pgn.contains("1. cb6") && pgn.contains("cd8=Q"), "{pgn}");
        assert!(pgn.contains("[Result \"1-0\"]"), "{pgn}");
        assert_eq!(white_moves(&pgn), (8, true), "{variant}: {pgn}");
    }
}
