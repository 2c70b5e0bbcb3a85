//! Fuzzing the builder: random endgames of the shipped pieces (leapers, riders, hoppers, lame
//! leapers, pawns) and of two one-way pieces, with royals other than the King now and then, on
//! random boards from 3×3 to 16×16, under DTM, DTC and DTZ (rules of 50, 10 and 4 moves, and
//! none), and now and then under a rule variant (a side may pass, stalemate wins, a bare royal
//! loses). Each build must succeed or refuse with a distance too long for its table, never
//! panic or report an internal error; and every table built must agree with one ply of forward
//! search on random positions (`support/one_ply.rs`), so that a table that builds but is wrong
//! fails too. Builds of many shapes meet cases the fixed tests miss: on 16×4 and 4×16, the
//! boards of 64 squares besides 8×8, Rooks and Queens came out wrong until it found them.
//!
//! Environment: `FAIRY_EGT_FUZZ_BUILDS` (endgames in all, default 24), `FAIRY_EGT_FUZZ_SEED`
//! (the run's seed); a failure prints the case's seed, replayed alone with
//! `FAIRY_EGT_FUZZ_CASE`.

mod fuzz;
#[path = "support/one_ply.rs"]
mod one_ply;

use fairy_egt::board::BoardSize;
use fairy_egt::egt::builder::BuildError;
use fairy_egt::egt::dtz::Rule;
use fairy_egt::egt::material::Material;
use fairy_egt::egt::progress::Silent;
use fairy_egt::egt::rules::{NullMove, Rules};
use fairy_egt::egt::table::Metric;
use fairy_egt::egt::tables::TableSet;
use fairy_egt::piece::parse::{parse_piece_defs, STANDARD_PIECEDEF};
use fairy_egt::piece::PieceSet;
use fuzz::{case_seed, count, only_case, run_seed, Rng};
use std::io::Write as _;
use std::panic::{self, AssertUnwindSafe};
use std::time::Instant;

/// Endgames built by default (CI): a few seconds here.
const BUILDS: usize = 24;

/// Two one-way pieces added to the shipped ones: a Lance (a Rook forward only) and a piece
/// that steps forward orthogonally and backward diagonally.
const ONE_WAY: &str = "L: fR\nV: fWbF\n";

/// The royals drawn: the King twice as often as each of the others, the Man (a King that the
/// file does not make royal), the Wazir and the Queen.
const ROYALS: [char; 5] = ['K', 'K', 'M', 'W', 'Q'];

/// Random placements checked per stream (8 streams, both sides to move).
const PLACEMENTS: usize = 150;

/// Most squares to the power of the men a case may take: about the placements of KQ.KR on
/// 8×8, so that a build takes at most a second or two.
const MOST_PLACEMENTS: u64 = 20_000_000;

/// What a case is: its board, metric, rules and endgame.
struct Case {
    board: BoardSize,
    metric: Metric,
    rules: Rules,
    spec: String,
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

/// A random case of `letters` (the non-royal men): 2 to 5 men, as many as the board's
/// squares allow within `MOST_PLACEMENTS`.
fn random_case(rng: &mut Rng, letters: &[char]) -> Case {
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
    for _ in 2..men {
        sides[rng.below(2)].push(*rng.pick(letters));
    }
    Case {
        board,
        metric,
        rules,
        spec: format!("{}.{}", sides[0], sides[1]),
    }
}

/// Builds case `seed` and checks it against forward search; `Ok(None)` where the endgame is
/// not one (a pawn on a board without room for it, say) or the build refused a distance
/// too long, `Ok(Some(n))` with the n positions checked, `Err` with what went wrong.
fn run_case(seed: u64, pieces: &PieceSet, letters: &[char]) -> Result<Option<u64>, String> {
    let case = random_case(&mut Rng::new(seed), letters);
    let mut set = TableSet::new(pieces.clone(), case.metric)
        .on_board(case.board)
        .with_rules(case.rules);
    let Ok(material) = Material::parse(&case.spec, set.pieces()) else {
        return Ok(None);
    };
    let what = format!(
        "{} on {} under {:?}, {}",
        case.spec,
        case.board,
        case.metric,
        case.rules.describe()
    );
    match set.build(&material, &Silent) {
        Ok(()) => {}
        Err(BuildError::TooLong(_)) => return Ok(None),
        Err(e) => return Err(format!("{what}: {e}")),
    }
    let checked = panic::catch_unwind(AssertUnwindSafe(|| {
        one_ply::check_random(&set, &case.spec, PLACEMENTS)
    }))
    .map_err(|_| format!("{what}: a position disagrees with forward search (above)"))?;
    Ok(Some(checked))
}

#[test]
fn random_endgames_build_and_agree_with_forward_search() {
    let started = Instant::now();
    let text = format!("{STANDARD_PIECEDEF}\n{ONE_WAY}");
    let pieces = parse_piece_defs(&text, "piecedef.ini").expect("the shipped pieces and two more");
    let letters: Vec<char> = pieces.iter().map(|p| p.letter).collect();
    let run = run_seed();
    let seeds: Vec<u64> = match only_case() {
        Some(seed) => vec![seed],
        None => (0..count("FAIRY_EGT_FUZZ_BUILDS", BUILDS) as u64)
            .map(|i| case_seed(run, i))
            .collect(),
    };
    let (mut built, mut positions) = (0, 0);
    for &seed in &seeds {
        let replay = format!("case {seed:#x} (replay with FAIRY_EGT_FUZZ_CASE={seed:#x})");
        // A panic, in a build's threads too, is caught only to name its case.
        match panic::catch_unwind(AssertUnwindSafe(|| run_case(seed, &pieces, &letters))) {
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
