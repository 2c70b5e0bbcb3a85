//! Tables on boards other than 8×8: published longest mates on n×n boards, the symmetry a
//! rectangular board allows, and full-board statistics on 10×8; pawn tables from 4×4 to
//! 16×16, their statistics against a count of every position and their values against one
//! ply of forward search, and promotion to the Archbishop and Chancellor on 10×8.

#[path = "support/placements.rs"]
mod placements;
use fairy_egt::board::{BoardSize, Color, Position, Setup};
use fairy_egt::egt::extremes::longest_win;
use fairy_egt::egt::material::Material;
use fairy_egt::egt::progress::Silent;
use fairy_egt::egt::stats::{table_stats, TableStats};
use fairy_egt::egt::table::Metric;
use fairy_egt::egt::tables::TableSet;
use fairy_egt::egt::value::Value;
use fairy_egt::engine::think::{line, Judge};
use fairy_egt::piece::PieceSet;
use placements::{placements_from, setup_of};
use rayon::prelude::*;
use std::collections::BTreeMap;

#[path = "support/one_ply.rs"]
mod one_ply;

fn stats(set: &mut TableSet, spec: &str) -> TableStats {
    let m = Material::parse(spec, set.pieces()).unwrap();
    set.build(&m, &Silent).unwrap();
    table_stats(set.get(&m).unwrap(), set.geometry())
}

fn on(board: &str) -> TableSet {
    TableSet::new(PieceSet::standard(), Metric::Dtm).on_board(board.parse().unwrap())
}

/// V. Kotesovec's longest mates with King and Queen (OEIS A225551) and King and Rook
/// (A225552) against a lone King on n×n boards, n = 3…12 (n = 16 below): the longest win with White to move,
/// DTM.
#[test]
fn longest_kqk_and_krk_mates_on_n_by_n_boards_are_kotesovecs() {
    let kqk = [1, 4, 6, 7, 8, 10, 11, 12, 14, 15];
    let krk = [3, 7, 10, 12, 14, 16, 18, 21, 23, 25];
    for (n, (&q, &r)) in (3..=12).zip(kqk.iter().zip(&krk)) {
        let mut set = on(&format!("{n}x{n}"));
        let (sq, sr) = (stats(&mut set, "KQ.K"), stats(&mut set, "KR.K"));
        assert_eq!((sq.wtm.longest_win, sr.wtm.longest_win), (q, r), "{n}x{n}");
        // And Black to move, the longest loss is no longer than White's longest win.
        assert!(
            sq.btm.longest_loss <= q && sr.btm.longest_loss <= r,
            "{n}x{n}"
        );
        assert_eq!((sq.symmetry, sr.symmetry), (8, 8), "{n}x{n}");
    }
}

/// The largest board, 16×16, whose last square is 255: the royal pairs of the index once
/// came out empty there (a loop `0..n as Square` with n = 256), so every position was
/// illegal. Kotesovec's n = 16 terms: KQK 21, KRK 35.
#[test]
fn longest_kqk_and_krk_mates_on_the_16x16_board_are_kotesovecs() {
    let mut set = on("16x16");
    let (sq, sr) = (stats(&mut set, "KQ.K"), stats(&mut set, "KR.K"));
    assert_eq!((sq.wtm.longest_win, sr.wtm.longest_win), (21, 35));
    check_counts(&sq, 256 * 255 * 254);
    check_counts(&sr, 256 * 255 * 254);
    assert_eq!((sq.symmetry, sr.symmetry), (8, 8));
}

/// Checks the full-board convention of DESIGN.md: every placement of the men on distinct
/// squares, two identical men once per unordered placement, both sides to move.
fn check_counts(s: &TableStats, placements: u64) {
    for side in [&s.wtm, &s.btm] {
        assert_eq!(side.placements, placements, "{}", s.endgame);
        assert_eq!(side.legal + side.illegal, side.placements);
        assert_eq!(side.won + side.drawn + side.lost, side.legal);
        assert_eq!(side.wins.values().sum::<u64>(), side.won);
        assert_eq!(side.losses.values().sum::<u64>(), side.lost);
    }
}

/// A 10×8 (Capablanca) board allows the 4 mirrors but not the diagonal ones; statistics
/// count every placement on its 80 squares.
#[test]
fn tables_on_10x8_fold_fourfold_and_count_every_placement_of_the_80_squares() {
    let mut set = on("10x8");
    let kc = stats(&mut set, "KC.K");
    assert_eq!(kc.symmetry, 4);
    check_counts(&kc, 80 * 79 * 78);
    // A Chancellor (rook + knight) mates a lone king.
    assert!(kc.wtm.longest_win > 0);
    assert_eq!(kc.wtm.drawn + kc.wtm.won, kc.wtm.legal);
    let knn = stats(&mut set, "KNN.K");
    assert_eq!(knn.symmetry, 4);
    check_counts(&knn, 80 * 79 * 78 * 77 / 2);
    // Two knights win only by a blunder of Black's, as on 8×8.
    assert_eq!(knn.wtm.longest_win, 1);
    // The same board turned: 8 files, 10 ranks.
    let mut tall = on("8x10");
    let kc_tall = stats(&mut tall, "KC.K");
    assert_eq!(kc_tall.symmetry, 4);
    check_counts(&kc_tall, 80 * 79 * 78);
    // Turning the board a quarter turn maps one onto the other: the same counts.
    assert_eq!((kc_tall.wtm.clone(), kc_tall.btm.clone()), (kc.wtm, kc.btm));
    assert_eq!(BoardSize::new(10, 8).unwrap().symmetries().count(), 4);
}

/// The longest win of a table on a rectangular board, played out: the perfect line from the
/// position `extremes::longest_win` finds is 2·d − 1 moves long, every position on it is
/// legal on that board, its FEN reads back, and it ends in checkmate (for KA.KN through the
/// capture of the Knight, into the smaller table).
#[test]
fn longest_wins_on_rectangular_boards_play_out_to_mate() {
    for (board, spec) in [("10x8", "KC.K"), ("7x5", "KR.K"), ("5x7", "KA.KN")] {
        let mut set = on(board);
        let m = Material::parse(spec, set.pieces()).unwrap();
        set.build(&m, &Silent).unwrap();
        let (start, d) = longest_win(&set, &m, Color::White).expect("a win");
        assert_eq!(start.board(), board.parse::<BoardSize>().unwrap());
        assert_eq!(set.probe(&start), Ok(Value::Win(d)), "{spec} on {board}");
        let line = line(&Judge::by_metric(&set), &start, 0, 1000).unwrap().pv();
        assert_eq!(line.len(), 2 * d as usize - 1, "{spec} on {board}");
        let mut at = start;
        for mv in line {
            let fen = at.to_setup().to_fen();
            let setup = Setup::from_fen(&fen, at.board()).unwrap();
            assert_eq!(
                Position::new(&setup, set.geometry(), m.royals()),
                Ok(at.clone())
            );
            assert_eq!(at.parse_move(&mv.text(), set.geometry()), Ok(mv), "{fen}");
            at = at.play(mv);
        }
        assert!(
            at.legal_moves(set.geometry()).is_empty(),
            "{spec} on {board}"
        );
        assert!(at.in_check(set.geometry()), "{spec} on {board}: mate");
        let men = if spec == "KA.KN" { 3 } else { m.men().len() };
        assert_eq!(at.men().len(), men, "{spec} on {board}");
    }
}

// ---------------------------------------------------------------------------------------------
// Pawn tables on boards from 4×4 to 16×16.

fn pawn_set(board: &str, promotions: Option<&str>, spec: &str) -> (TableSet, TableStats) {
    let mut set = on(board);
    if let Some(letters) = promotions {
        set = set.with_promotions(letters).unwrap();
    }
    let s = stats(&mut set, spec);
    (set, s)
}

/// The legal positions of KP.K (`white_pawn`) or K.KP on a board, counted with nothing but
/// arithmetic: the pawn on ranks 2 to H−1, the kings elsewhere and not adjacent, and the
/// side to move's pawn not attacking the enemy king. Returns (placements, legal with White
/// to move, legal with Black to move).
fn kpk_counts(board: BoardSize, white_pawn: bool) -> (u64, u64, u64) {
    let (w, h) = (board.files() as i32, board.ranks() as i32);
    let n = (w * h) as u64;
    let (mut wtm, mut btm) = (0, 0);
    let fwd = if white_pawn { 1 } else { -1 };
    for pawn in 0..w * (h - 2) {
        let (pf, pr) = (pawn % w, pawn / w + 1);
        for k in 0..w * h {
            let (kf, kr) = (k % w, k / w);
            if (kf, kr) == (pf, pr) {
                continue;
            }
            for e in 0..w * h {
                let (ef, er) = (e % w, e / w);
                if (ef, er) == (pf, pr) || e == k {
                    continue;
                }
                if (kf - ef).abs() <= 1 && (kr - er).abs() <= 1 {
                    continue;
                }
                // `k` is the pawn's own king, `e` the enemy king.
                let attacked = er == pr + fwd && (ef - pf).abs() == 1;
                let (own, other) = if white_pawn {
                    (&mut wtm, &mut btm)
                } else {
                    (&mut btm, &mut wtm)
                };
                *other += 1;
                if !attacked {
                    *own += 1;
                }
            }
        }
    }
    (w as u64 * (h as u64 - 2) * (n - 1) * (n - 2), wtm, btm)
}

/// Checks the statistics' placement and legal counts against `kpk_counts`.
fn check_kpk_counts(s: &TableStats, board: BoardSize, white_pawn: bool) {
    check_counts(s, kpk_counts(board, white_pawn).0);
    let (placements, wtm, btm) = kpk_counts(board, white_pawn);
    assert_eq!(
        (s.wtm.placements, s.wtm.legal, s.btm.legal),
        (placements, wtm, btm),
        "{} on {board}",
        s.endgame
    );
}

/// One side's tally of probed positions, in the statistics' terms.
#[derive(Default, Debug, PartialEq)]
struct Tally {
    legal: u64,
    drawn: u64,
    checkmates: u64,
    stalemates: u64,
    wins: BTreeMap<u16, u64>,
    losses: BTreeMap<u16, u64>,
}

impl Tally {
    fn add(mut self, o: Tally) -> Tally {
        self.legal += o.legal;
        self.drawn += o.drawn;
        self.checkmates += o.checkmates;
        self.stalemates += o.stalemates;
        for (d, k) in o.wins {
            *self.wins.entry(d).or_default() += k;
        }
        for (d, k) in o.losses {
            *self.losses.entry(d).or_default() += k;
        }
        self
    }

    fn of(s: &fairy_egt::egt::stats::SideStats) -> Tally {
        Tally {
            legal: s.legal,
            drawn: s.drawn,
            checkmates: s.checkmates,
            stalemates: s.stalemates,
            wins: s.wins.clone(),
            losses: s.losses.clone(),
        }
    }
}

/// Probes every placement of `spec`'s men on the whole board (each placement of identical
/// men once), both sides to move, and tallies the values as the statistics do; with
/// `one_ply`, every value must also equal the one derived from its successors.
fn tally_every(set: &TableSet, spec: &str, one_ply: bool) -> [Tally; 2] {
    let material = Material::parse(spec, set.pieces()).unwrap();
    let men = one_ply::men_of(&material);
    let g = set.geometry();
    let board = g.board();
    let n = board.squares() as u64;
    let tallies = (0..n)
        .into_par_iter()
        .map(|first| {
            let mut t = [Tally::default(), Tally::default()];
            for squares in placements_from(first as u8, n, men.len()) {
                // Identical men (same colour and letter, next to each other in canonical
                // order) once per unordered placement.
                if (1..men.len()).any(|i| men[i] == men[i - 1] && squares[i] < squares[i - 1]) {
                    continue;
                }
                for stm in Color::BOTH {
                    let setup = setup_of(board, stm, &men, &squares);
                    let Ok(pos) = Position::new(&setup, g, material.royals()) else {
                        continue;
                    };
                    let value = set.probe(&pos).unwrap();
                    if one_ply {
                        assert_eq!(value, one_ply::derived(set, &pos), "{}", setup.to_fen());
                    }
                    let side = &mut t[stm.index()];
                    side.legal += 1;
                    match value {
                        Value::Win(d) => *side.wins.entry(d).or_default() += 1,
                        Value::Loss(d) => *side.losses.entry(d).or_default() += 1,
                        Value::Draw => side.drawn += 1,
                    }
                    if pos.legal_moves(g).is_empty() {
                        if pos.in_check(g) {
                            side.checkmates += 1;
                        } else {
                            side.stalemates += 1;
                        }
                    }
                }
            }
            t
        })
        .reduce(
            || [Tally::default(), Tally::default()],
            |[a, b], [c, d]| [a.add(c), b.add(d)],
        );
    tallies
}

/// Checks a table's statistics against `tally_every`.
fn check_tally(set: &TableSet, s: &TableStats, spec: &str, one_ply: bool) {
    let [wtm, btm] = tally_every(set, spec, one_ply);
    let board = set.geometry().board();
    assert_eq!(wtm, Tally::of(&s.wtm), "{spec} on {board}, White to move");
    assert_eq!(btm, Tally::of(&s.btm), "{spec} on {board}, Black to move");
}

/// Pawn tables on 4×4 (a double step reaches the last rank there and promotes), 5×5 and
/// 7×7: every position agrees with one ply of forward search, the statistics count exactly
/// the positions probed (by value, distance, mate and stalemate), and their legal counts
/// agree with a count by arithmetic.
#[test]
fn pawn_tables_on_small_boards_agree_with_forward_search_and_their_statistics() {
    for board in ["4x4", "5x5", "7x7"] {
        let size: BoardSize = board.parse().unwrap();
        for (spec, white_pawn) in [("KP.K", true), ("K.KP", false)] {
            let (set, s) = pawn_set(board, None, spec);
            check_kpk_counts(&s, size, white_pawn);
            check_tally(&set, &s, spec, true);
            assert_eq!(
                s.symmetry, 2,
                "{spec} on {board}: the left-right mirror only"
            );
        }
    }
    for board in ["4x4", "5x5"] {
        let (set, s) = pawn_set(board, None, "KP.KP");
        check_counts(&s, {
            let b: BoardSize = board.parse().unwrap();
            let (p, n) = (
                b.files() as u64 * (b.ranks() as u64 - 2),
                b.squares() as u64,
            );
            p * (p - 1) * (n - 2) * (n - 3)
        });
        check_tally(&set, &s, "KP.KP", true);
    }
}

/// Pawn tables on larger boards: 9×9, 10×8 (promotion to Q R B N A C), 12×12 and 16×16
/// (256-bit square sets; promotion to a Knight only, which cannot win, to keep the build
/// short). Statistics against the count by arithmetic, values against one ply of forward
/// search on random positions, and on 9×9 and 10×8 the statistics against every position
/// probed.
#[test]
fn pawn_tables_on_large_boards_count_every_placement() {
    for (board, promotions, spec, white_pawn, tally) in [
        ("9x9", None, "KP.K", true, true),
        ("10x8", None, "K.KP", false, true),
        ("12x12", Some("Q"), "KP.K", true, false),
        ("16x16", Some("N"), "K.KP", false, false),
    ] {
        let size: BoardSize = board.parse().unwrap();
        let (set, s) = pawn_set(board, promotions, spec);
        check_kpk_counts(&s, size, white_pawn);
        if tally {
            check_tally(&set, &s, spec, false);
        }
        let checked = one_ply::check_random(&set, spec, 2_000);
        assert!(checked > 10_000, "{spec} on {board}: {checked}");
        if promotions == Some("N") {
            // A king, and a pawn that can only become a Knight, never mate.
            assert_eq!((s.wtm.won, s.btm.won), (0, 0), "{spec} on {board}");
        } else {
            assert!(s.wtm.won + s.btm.won > 0, "{spec} on {board}");
        }
    }
}

/// On 10×8 a pawn also promotes to an Archbishop (A) or Chancellor (C): in README's position
/// a Queen on b8 stalemates the king on a6, the Chancellor mates in 6 (the one-ply checks
/// above cover every promotion of the list).
#[test]
fn promotion_on_10x8_to_archbishop_and_chancellor() {
    let (set, s) = pawn_set("10x8", None, "KP.K");
    check_kpk_counts(&s, "10x8".parse().unwrap(), true);
    let fen = "10/1P8/k9/10/K9/10/10/10 w - - 0 1";
    let pos = Position::new(
        &Setup::from_fen(fen, set.geometry().board()).unwrap(),
        set.geometry(),
        ['K', 'K'],
    )
    .unwrap();
    assert_eq!(set.probe(&pos), Ok(Value::Win(6)));
    let moves = set.scored_moves(&pos).unwrap();
    let value = |text: &str| {
        moves
            .iter()
            .find(|m| m.mv.text() == text)
            .unwrap_or_else(|| panic!("{text} is a move"))
            .value
    };
    let letters: String = moves
        .iter()
        .filter_map(|m| m.mv.promotion.map(|p| p.letter))
        .collect();
    assert_eq!(letters, "QRBNAC", "b8 = each piece of the 10×8 list");
    assert_eq!(value("b7b8c"), Value::Win(6));
    assert_eq!(value("b7b8q"), Value::Draw);
    assert_eq!(set.best_move(&pos).unwrap().unwrap().mv.text(), "b7b8c");
}
