//! Published facts about fairy endgames on 8×8 (issue 15, item 3), with the pieces read from
//! Betza text. Shares are of the legal positions with the strong side (White) to move,
//! counted over the full board; the figures measured are in README ("Fairy pieces: mating
//! potential").

use fairy_egt::egt::material::Material;
use fairy_egt::egt::progress::Silent;
use fairy_egt::egt::stats::{table_stats, TableStats};
use fairy_egt::egt::table::Metric;
use fairy_egt::egt::tables::TableSet;
use fairy_egt::piece::parse::parse_piece_defs;

/// H the Nightrider, G the Gnu (Knight + Camel), D the Wazir + Dabbaba.
const PIECES: &str = "K: K\nN: N\nH: NN\nG: NC\nD: WD\n";

fn stats(set: &mut TableSet, spec: &str) -> TableStats {
    let m = Material::parse(spec, set.pieces()).unwrap();
    set.build(&m, &Silent).unwrap();
    table_stats(set.get(&m).unwrap(), set.geometry())
}

fn tables() -> TableSet {
    TableSet::new(parse_piece_defs(PIECES, "facts").unwrap(), Metric::Dtm)
}

/// Won share of the legal positions, White to move.
fn won_share(s: &TableStats) -> f64 {
    s.wtm.won as f64 / s.wtm.legal as f64
}

#[test]
fn king_and_nightrider_cannot_even_construct_a_mate() {
    let s = stats(&mut tables(), "KH.K");
    assert!(s.btm.legal > 0);
    assert_eq!(
        s.btm.checkmates, 0,
        "no position has the lone king to move, in check, without a legal move"
    );
    assert_eq!((s.wtm.won, s.btm.lost), (0, 0), "so nothing is won");
}

#[test]
fn king_knight_and_nightrider_win() {
    let mut set = tables();
    let s = stats(&mut set, "KNH.K");
    assert!(s.btm.checkmates > 0);
    assert!(
        won_share(&s) > 0.99,
        "a general win: {:.2} % won",
        100.0 * won_share(&s)
    );
    // Not merely a second Knight's doing: two Knights win only by Black's blunder.
    assert_eq!(stats(&mut set, "KNN.K").wtm.longest_win, 1);
    assert!(s.wtm.longest_win > 1);
}

#[test]
fn gnu_has_no_mating_potential_wazir_dabbaba_has() {
    let mut set = tables();
    let gnu = stats(&mut set, "KG.K");
    // Mates exist, but only a blunder of Black's walks into one: every win is a mate in 1.
    assert!(gnu.btm.checkmates > 0);
    assert!(gnu.wtm.won > 0);
    assert_eq!(gnu.wtm.longest_win, 1);
    assert!(
        won_share(&gnu) < 0.01,
        "wins are the rare exception: {:.3} % won",
        100.0 * won_share(&gnu)
    );
    let wd = stats(&mut set, "KD.K");
    assert!(
        won_share(&wd) > 0.5,
        "wins are the rule: {:.2} % won",
        100.0 * won_share(&wd)
    );
    assert!(wd.wtm.longest_win > 1);
}
