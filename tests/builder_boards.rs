//! Tables on boards other than 8×8: published longest mates on n×n boards, the symmetry a
//! rectangular board allows, and full-board statistics on 10×8.

use fairy_egt::board::{BoardSize, Color, Position, Setup};
use fairy_egt::egt::extremes::longest_win;
use fairy_egt::egt::material::Material;
use fairy_egt::egt::progress::Silent;
use fairy_egt::egt::stats::{table_stats, TableStats};
use fairy_egt::egt::table::Metric;
use fairy_egt::egt::tables::TableSet;
use fairy_egt::egt::value::Value;
use fairy_egt::engine::think::line;
use fairy_egt::piece::PieceSet;

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
        let line = line(&set, &start, 1000).unwrap().pv();
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
