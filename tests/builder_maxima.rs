//! Published figures, White to move (DESIGN.md §1): longest DTM and DTC wins, and the
//! full-board count of drawn KQK positions with Black to move.

use fairy_egt::egt::material::Material;
use fairy_egt::egt::progress::Silent;
use fairy_egt::egt::stats::{table_stats, TableStats};
use fairy_egt::egt::table::Metric;
use fairy_egt::egt::tables::TableSet;
use fairy_egt::piece::PieceSet;

fn stats(set: &mut TableSet, spec: &str) -> TableStats {
    let m = Material::parse(spec, set.pieces()).unwrap();
    set.build(&m, &Silent).unwrap();
    table_stats(set.get(&m).unwrap(), set.geometry())
}

#[test]
fn longest_dtm_wins_match_published_maxima() {
    let mut set = TableSet::new(PieceSet::standard(), Metric::Dtm);
    for (spec, longest) in [
        ("KQ.K", 10),
        ("KR.K", 16),
        ("KBB.K", 19),
        ("KBN.K", 33),
        ("KQ.KR", 35),
        ("KR.KB", 29),
        ("KR.KN", 40),
        ("KQ.KQ", 13),
    ] {
        assert_eq!(stats(&mut set, spec).wtm.longest_win, longest, "{spec}");
    }
    let knn = stats(&mut set, "KNN.K");
    assert_eq!(
        knn.wtm.longest_win, 1,
        "KNN.K wins only by a blunder of Black's: mate in 1"
    );
}

#[test]
fn longest_dtc_wins_match_published_maxima() {
    let mut set = TableSet::new(PieceSet::standard(), Metric::Dtc);
    for (spec, longest) in [("KQ.KR", 31), ("KR.KB", 18), ("KR.KN", 27)] {
        assert_eq!(stats(&mut set, spec).wtm.longest_win, longest, "{spec}");
    }
}

#[test]
fn kqk_full_board_counts() {
    let mut set = TableSet::new(PieceSet::standard(), Metric::Dtm);
    let s = stats(&mut set, "KQ.K");
    assert_eq!(s.btm.drawn, 23_048);
    assert_eq!(s.wtm.placements, 64 * 63 * 62);
    for side in [&s.wtm, &s.btm] {
        assert_eq!(side.legal + side.illegal, side.placements);
        assert_eq!(side.won + side.drawn + side.lost, side.legal);
        assert_eq!(side.wins.values().sum::<u64>(), side.won);
        assert_eq!(side.losses.values().sum::<u64>(), side.lost);
    }
    // White never loses or is stalemated with a queen against a bare king.
    assert_eq!(s.wtm.lost, 0);
    assert_eq!(s.btm.won, 0);
    assert_eq!(s.btm.losses.get(&0), Some(&s.btm.checkmates));
}
