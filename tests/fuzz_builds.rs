//! Fuzzing the builder: random endgames of the shipped pieces (leapers, riders, hoppers, lame
//! leapers, pawns), of two one-way pieces and of a piece made up for the case (a random Betza
//! description or step list), now and then with a made-up pawn (random forward moves,
//! captures, en passant and double steps) and random promotion pieces, with royals other
//! than the King now and then, on random boards from 3×3 to 16×16, under DTM, DTC and DTZ
//! (rules of 50, 10 and 4 moves, and none), and now and then under a rule variant (a side may
//! pass, stalemate wins, a bare royal loses), or under a random memory budget. Each build
//! must succeed or refuse a distance too long for its table or tables over the budget, never
//! panic or report an internal error; and every table built must agree with one ply of
//! forward search on random positions (`support/one_ply.rs`), so that a table that builds but
//! is wrong fails too; a quarter of the cases save their tables, which a new set must load
//! back the same. Builds of many shapes meet cases the fixed tests miss: on 16×4 and 4×16,
//! the boards of 64 squares besides 8×8, Rooks and Queens came out wrong until it found them;
//! made-up pawns found a pawn table folded by a mirror its promotion piece does not allow,
//! and an e.p. right given by a leap over a man.
//!
//! Environment: `FAIRY_EGT_FUZZ_BUILDS` (endgames in all, default 24), `FAIRY_EGT_FUZZ_SEED`
//! (the run's seed); a failure prints the case's seed, replayed alone with
//! `FAIRY_EGT_FUZZ_CASE`.

mod fuzz;
#[path = "support/one_ply.rs"]
mod one_ply;
mod support;

use fairy_egt::board::BoardSize;
use fairy_egt::egt::builder::BuildError;
use fairy_egt::egt::dtz::Rule;
use fairy_egt::egt::material::Material;
use fairy_egt::egt::progress::Silent;
use fairy_egt::egt::rules::{NullMove, Rules};
use fairy_egt::egt::stats::table_stats;
use fairy_egt::egt::table::Metric;
use fairy_egt::egt::tables::TableSet;
use fairy_egt::piece::betza::{parse_betza, try_betza};
use fairy_egt::piece::parse::{parse_piece_defs, STANDARD_PIECEDEF};
use fairy_egt::piece::{PieceSet, Step, StepKind};
use fuzz::{case_seed, count, only_case, run_seed, with_pawn, Rng};
use std::collections::BTreeMap;
use std::io::Write as _;
use std::panic::{self, AssertUnwindSafe};
use std::time::Instant;

/// Endgames built by default (CI): a few seconds here.
const BUILDS: usize = 24;

/// Two one-way pieces added to the shipped ones: a Lance (a Rook forward only) and a piece
/// that steps forward orthogonally and backward diagonally.
const ONE_WAY: &str = "L: fR\nV: fWbF\n";

/// The letter of the piece made up for each case.
const MADE_UP: char = 'S';

/// The royals drawn: the King twice as often as each of the others, the Man (a King that the
/// file does not make royal), the Wazir, the Queen and the made-up piece.
const ROYALS: [char; 6] = ['K', 'K', 'M', 'W', 'Q', MADE_UP];

/// A made-up piece's line, in Betza or as steps; the piece file may still refuse it (a
/// modifier its atom does not take), and the caller draws again.
fn made_up_piece(rng: &mut Rng) -> String {
    let mut line = format!("{MADE_UP}: ");
    if rng.one_in(3) {
        // Steps: dx,dy with a range or s, c or n, and * or + for the images.
        for _ in 0..rng.between(1, 3) {
            // Steps up to 3 squares, or up to 6 (longer than the small boards).
            let reach = *rng.pick(&[3, 3, 6]);
            let (dx, dy) = loop {
                let mut coordinate = || rng.below(2 * reach + 1) as i64 - reach as i64;
                let (dx, dy) = (coordinate(), coordinate());
                if (dx, dy) != (0, 0) {
                    break (dx, dy);
                }
            };
            let range = *rng.pick(&["", "", "s", "2", "3"]);
            let mode = *rng.pick(&["", "", "c", "n"]);
            let images = *rng.pick(&["", "*", "*", "+"]);
            let flags = format!("{range}{mode}{images}");
            line.push_str(&match flags.is_empty() {
                true => format!("{dx},{dy} "),
                false => format!("{dx},{dy},{flags} "),
            });
        }
        return line;
    }
    for _ in 0..rng.between(1, 3) {
        if rng.one_in(2) {
            line.push_str(rng.pick::<&str>(&[
                "f", "b", "l", "r", "v", "s", "fl", "br", "ff", "fs", "bs", "fh", "bh", "lv",
            ]));
        }
        line.push_str(rng.pick::<&str>(&["", "", "", "m", "c"]));
        line.push_str(rng.pick::<&str>(&["", "", "", "", "n", "p", "g"]));
        let atom = *rng.pick(&[
            'W', 'F', 'D', 'N', 'A', 'H', 'C', 'Z', 'G', 'K', 'Q', 'R', 'B',
        ]);
        line.push(atom);
        match rng.below(6) {
            0 => line.push(atom),
            1 => line.push_str(rng.pick::<&str>(&["0", "2", "3"])),
            _ => {}
        }
    }
    line
}

/// A made-up pawn: random forward moves (a step, a ride, a leap), random captures (forward or
/// sideways, some taking en passant, a hop), and now and then an initial double step, lame
/// or not, as `fmWfceFifmnD` is made of; one the piece file takes (not an e.p. capture onto
/// a quiet move's square).
fn made_up_pawn(rng: &mut Rng) -> String {
    loop {
        let pawn = any_pawn(rng);
        if parse_piece_defs(&format!("P: {pawn}"), "pawn.ini").is_ok() {
            return pawn;
        }
    }
}

/// A made-up pawn, whether the piece file takes it or not.
fn any_pawn(rng: &mut Rng) -> String {
    let quiet = *rng.pick(&[
        "fmW", "fmW", "fmF", "fmWfmF", "fmR", "fmD", "fmN", "fW", "fF",
    ]);
    let capture = *rng.pick(&[
        "fcF", "fceF", "fceF", "fcW", "fceW", "scW", "fcN", "fcpR", "fcK", "",
    ]);
    let initial = *rng.pick(&["", "", "ifmnD", "ifmD", "ifmnA", "ifmnDifmnA", "ifmnH"]);
    format!("{quiet}{capture}{initial}")
}

/// The piece file of a case: the shipped pieces (the pawn `pawn` in place of the shipped
/// one, if given), the two one-way ones and one made up (its line returned too).
fn piece_file(rng: &mut Rng, pawn: Option<&str>) -> (PieceSet, String) {
    let shipped = pawn.map_or_else(|| STANDARD_PIECEDEF.to_string(), with_pawn);
    loop {
        let line = made_up_piece(rng);
        let text = format!("{shipped}\n{ONE_WAY}{line}\n");
        if let Ok(pieces) = parse_piece_defs(&text, "piecedef.ini") {
            return (pieces, line);
        }
    }
}

/// A random list of promotion pieces: one to four of the file's pieces but the pawn and
/// `royal`, in random order.
fn random_promotions(rng: &mut Rng, letters: &[char], royal: char) -> String {
    let mut left: Vec<char> = (letters.iter().copied())
        .filter(|&l| l != 'P' && l != royal)
        .collect();
    (0..rng.between(1, 4))
        .map(|_| left.remove(rng.below(left.len())))
        .collect()
}

/// Random placements checked per stream (8 streams, both sides to move).
const PLACEMENTS: usize = 150;

/// Most squares to the power of the men a case may take: about the placements of KQ.KR on
/// 8×8, so that a build takes at most a second or two.
const MOST_PLACEMENTS: u64 = 20_000_000;

/// What a case is: its board, metric, rules and endgame.
struct Case {
    /// Whether its tables are saved and loaded back.
    saved: bool,
    pieces: PieceSet,
    /// The made-up piece's line.
    made_up: String,
    board: BoardSize,
    metric: Metric,
    rules: Rules,
    /// The made-up pawn's moves, if the case has one.
    pawn: Option<String>,
    /// The promotion pieces, if not the board's default.
    promotions: Option<String>,
    /// The memory budget, if any.
    budget: Option<Budget>,
    spec: String,
}

/// How a case's memory budget is chosen.
#[derive(Clone, Copy, Debug)]
enum Budget {
    /// So many bytes: the build may have to refuse, or keep a table without the smaller ones.
    Bytes(u64),
    /// The build's own estimate (`TableSet::bytes_needed`) and this share of what telling
    /// twins apart would add: the build must keep every table its moves reach, in the twins'
    /// own layout below the whole (it may still refuse lists of long distances, which the
    /// estimate leaves out).
    Needed(f64),
}

/// Orthodox rules two times in three, else each rule variant on or off at random.
fn random_rules(rng: &mut Rng) -> Rules {
    if rng.below(3) > 0 {
        return Rules::default();
    }
    Rules {
        null_move: *rng.pick(&[
            NullMove::None,
            NullMove::White,
            NullMove::Black,
            NullMove::Both,
        ]),
        stalemate_wins: rng.one_in(3),
        bare_royal_loses: rng.one_in(3),
    }
}

/// A random case: 2 to 5 men, as many as the board's
/// squares allow within `MOST_PLACEMENTS`.
fn random_case(rng: &mut Rng) -> Case {
    // A made-up pawn in a third of the cases, most of which then have a pawn.
    let pawn = rng.one_in(3).then(|| made_up_pawn(rng));
    let (pieces, made_up) = piece_file(rng, pawn.as_deref());
    let letters: Vec<char> = pieces.iter().map(|p| p.letter).collect();
    // Boards to 10×10 mostly, to 16×16 a third of the time (sets of two to four words).
    let mut side = || match rng.one_in(3) {
        true => rng.between(3, 16),
        false => rng.between(3, 10),
    };
    let (files, ranks) = (side(), side());
    let board = BoardSize::new(files as u32, ranks as u32).expect("3 to 16 files and ranks");
    let squares = (files * ranks) as u64;
    let mut men = 2 + rng.below(4);
    while men > 2 && squares.pow(men as u32) > MOST_PLACEMENTS {
        men -= 1;
    }
    // DTZ under the 50-move rule, under shorter ones (cursed wins and blessed losses come
    // sooner) and under none.
    let metric = match rng.below(5) {
        0 | 1 => Metric::Dtm,
        2 => Metric::Dtc,
        _ => Metric::Dtz(Rule::moves(*rng.pick(&[50, 50, 10, 4, 0]))),
    };
    let rules = random_rules(rng);
    let royal = *rng.pick(&ROYALS);
    let mut sides = [royal.to_string(), royal.to_string()];
    for k in 2..men {
        // The made-up piece in half the endgames of three men or more.
        let letter = match k == 2 && royal != MADE_UP && rng.one_in(2) {
            true => MADE_UP,
            false if pawn.is_some() && rng.one_in(2) => 'P',
            false => *rng.pick(&letters),
        };
        let side = &mut sides[rng.below(2)];
        // Now and then the same man as the last of its side: twins (KNN.K, KQQ.KBB).
        let letter = match side.len() > 1 && rng.one_in(3) {
            true => side.chars().last().expect("a royal at least"),
            false => letter,
        };
        side.push(letter);
    }
    // Promotion pieces of the case's own in half the endgames with a pawn.
    let promotions = (sides.iter().any(|s| s.contains('P')) && rng.one_in(2))
        .then(|| random_promotions(rng, &letters, royal));
    // A budget in a fifth of the cases: 64 KB to 256 MB, or the build's own estimate.
    let budget = rng.one_in(5).then(|| match rng.one_in(2) {
        true => Budget::Bytes(1 << rng.between(16, 28)),
        false => Budget::Needed(rng.below(100) as f64 / 100.0),
    });
    Case {
        saved: rng.one_in(4),
        pieces,
        made_up,
        board,
        metric,
        rules,
        pawn,
        promotions,
        budget,
        spec: format!("{}.{}", sides[0], sides[1]),
    }
}

impl Case {
    /// The case in words, its made-up piece included.
    fn describe(&self) -> String {
        let pawn = self.pawn.as_ref().map(|p| format!("; the pawn P: {p}"));
        let promotions = (self.promotions.as_ref()).map(|p| format!("; promoting to {p}"));
        let budget = (self.budget).map(|b| format!("; the budget {b:?}"));
        format!(
            "{} on {} under {:?}, {}; the made-up piece {}{}{}{}{}",
            self.spec,
            self.board,
            self.metric,
            self.rules.describe(),
            self.made_up,
            pawn.unwrap_or_default(),
            promotions.unwrap_or_default(),
            budget.unwrap_or_default(),
            if self.saved { "; saved and loaded" } else { "" }
        )
    }
}

/// A step's direction, walk, flags (initial, en passant), whether it captures, and its range
/// where the walk is not plain.
type Move = (i8, i8, StepKind, bool, bool, bool, u8);

/// What steps let a man do, whichever way they are written: for each step, with its walk and
/// flags, and each of moving and capturing, the longest range (a plain ride of a range holds
/// the shorter ones; 0, unlimited, holds all); for other walks, each range as given.
fn moves_of(steps: &[Step]) -> BTreeMap<Move, u16> {
    let mut moves = BTreeMap::new();
    for s in steps {
        let longest = if s.range == 0 {
            u16::MAX
        } else {
            s.range as u16
        };
        let plain = s.kind == StepKind::Plain;
        for (capture, allowed) in [(false, s.mode.moves()), (true, s.mode.captures())] {
            if allowed {
                let walk = if plain { 0 } else { s.range };
                let key = (s.dx, s.dy, s.kind, s.initial, s.en_passant, capture, walk);
                let range = moves.entry(key).or_insert(0);
                *range = (*range).max(longest);
            }
        }
    }
    moves
}

/// Builds `case` and checks it against forward search; `Ok(None)` where the endgame is not
/// one (a pawn on a board without room for it, say), the build refused a distance too long or
/// a table over the budget, or kept a table without the smaller ones; `Ok(Some(n))` with the n
/// positions checked, `Err` with what went wrong.
fn run_case(case: Case) -> Result<Option<u64>, String> {
    // The made-up piece as XBoard is told about it (its Betza, where it has one) reads back
    // as its moves.
    let piece = case.pieces.get(MADE_UP).expect("the made-up piece");
    if let Ok(text) = try_betza(piece) {
        let read = parse_betza(&text).map_err(|e| format!("its Betza {text}: {e}"))?;
        if moves_of(&read) != moves_of(&piece.steps) {
            return Err(format!(
                "its Betza for XBoard, {text}, reads back as other moves"
            ));
        }
    }
    let fresh = || {
        let set = TableSet::new(case.pieces.clone(), case.metric)
            .on_board(case.board)
            .with_rules(case.rules);
        match &case.promotions {
            Some(letters) => set.with_promotions(letters).expect("the file's own pieces"),
            None => set,
        }
    };
    let mut set = fresh();
    let Ok(material) = Material::parse(&case.spec, set.pieces()) else {
        return Ok(None);
    };
    let budget = case.budget.map(|b| match b {
        Budget::Bytes(bytes) => bytes,
        Budget::Needed(share) => {
            let need = set.bytes_needed(&material);
            let apart = set.bytes_needed_twins_apart(&material).max(need);
            need + ((apart - need) as f64 * share) as u64
        }
    });
    let estimated = matches!(case.budget, Some(Budget::Needed(_)));
    if let Some(bytes) = budget {
        set.set_budget(bytes);
    }
    // One case in four saves its tables, to be loaded back below.
    let dir = case.saved.then(|| {
        let dir = support::scratch("fuzz-builds");
        set.set_table_dir(Some(dir.to_path_buf()));
        dir
    });
    match set.build(&material, &Silent) {
        Ok(()) => {}
        Err(BuildError::TooLong(_)) => return Ok(None),
        // Even at its estimate: the lists of distances beyond a byte are not in it (their
        // size is known only once built), and get the room it leaves.
        Err(BuildError::OverBudget { .. }) => return Ok(None),
        Err(e) => return Err(e.to_string()),
    }
    // Within a budget a build may keep a table without the smaller ones its moves reach.
    if !set.playable(&material) {
        return match estimated {
            true => Err("a table dropped within a budget of its own estimate".to_string()),
            false => Ok(None),
        };
    }
    let checked = panic::catch_unwind(AssertUnwindSafe(|| {
        one_ply::check_random(&set, &case.spec, PLACEMENTS)
    }))
    .map_err(|_| "a position disagrees with forward search (above)".to_string())?;
    if let Some(dir) = dir {
        // Loaded back by a new set, every table the same: the endgame's statistics, and
        // forward search over the loaded tables.
        let mut loaded = fresh();
        if let Some(bytes) = budget {
            loaded.set_budget(bytes);
        }
        loaded.set_table_dir(Some(dir.to_path_buf()));
        loaded
            .build(&material, &Silent)
            .map_err(|e| e.to_string())?;
        if !loaded.was_loaded(&material) {
            return Err("its saved table was built again, not loaded".to_string());
        }
        let g = set.geometry();
        let stats = |s: &TableSet| table_stats(s.get(&material).expect("held"), g);
        if stats(&loaded) != stats(&set) {
            return Err("the loaded table's statistics differ from the built one's".to_string());
        }
        panic::catch_unwind(AssertUnwindSafe(|| {
            one_ply::check_random(&loaded, &case.spec, PLACEMENTS / 5)
        }))
        .map_err(|_| "a loaded position disagrees with forward search (above)".to_string())?;
    }
    Ok(Some(checked))
}

#[test]
fn random_endgames_build_and_agree_with_forward_search() {
    let started = Instant::now();
    let run = run_seed();
    let seeds: Vec<u64> = match only_case() {
        Some(seed) => vec![seed],
        None => (0..count("FAIRY_EGT_FUZZ_BUILDS", BUILDS) as u64)
            .map(|i| case_seed(run, i))
            .collect(),
    };
    let (mut built, mut positions) = (0, 0);
    for &seed in &seeds {
        let case = random_case(&mut Rng::new(seed));
        let replay = format!(
            "case {seed:#x} (replay with FAIRY_EGT_FUZZ_CASE={seed:#x}), {}",
            case.describe()
        );
        // A panic, in a build's threads too, is caught only to name its case.
        match panic::catch_unwind(AssertUnwindSafe(|| run_case(case))) {
            Ok(Ok(Some(checked))) => {
                built += 1;
                positions += checked;
            }
            Ok(Ok(None)) => {}
            Ok(Err(why)) => panic!("{replay}: {why}"),
            Err(_) => panic!("{replay}: the panic above"),
        }
    }
    assert!(
        built * 2 >= seeds.len(),
        "only {built} of {} cases built a table",
        seeds.len()
    );
    let _ = writeln!(
        std::io::stderr().lock(),
        "fuzz_builds: {} endgames from seed {run:#x}: {built} built, {positions} positions \
         checked against forward search; {:.1} s",
        seeds.len(),
        started.elapsed().as_secs_f64()
    );
}
