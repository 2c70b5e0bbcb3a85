//! The symmetry folding: the group is found from the pieces' moves, and a folded table gives
//! every placement the same value as a table built without symmetry.

use fairy_egt::board::Color;
use fairy_egt::egt::material::Material;
use fairy_egt::egt::progress::Silent;
use fairy_egt::egt::table::Metric;
use fairy_egt::egt::tables::TableSet;
use fairy_egt::piece::parse::parse_piece_defs;
use fairy_egt::piece::PieceSet;

/// Builds `spec` folded and unfolded and compares every slot of the unfolded table; returns
/// the folded table's symmetry.
fn compare(pieces: &PieceSet, metric: Metric, spec: &str) -> usize {
    let m = Material::parse(spec, pieces).unwrap();
    let mut folded = TableSet::new(pieces.clone(), metric);
    folded.build(&m, &Silent).unwrap();
    let mut plain = TableSet::new(pieces.clone(), metric).without_symmetry();
    plain.build(&m, &Silent).unwrap();
    let (f, p) = (folded.get(&m).unwrap(), plain.get(&m).unwrap());
    assert_eq!(p.indexer().symmetry(), 1);
    let mut compared = 0;
    for i in 0..p.indexer().size() {
        let Some(sq) = p.indexer().decode(i) else {
            continue;
        };
        for c in Color::BOTH {
            assert_eq!(
                f.value(&sq, c),
                p.value(&sq, c),
                "{spec} slot {i} {c:?} {sq:?}"
            );
            compared += 1;
        }
    }
    assert!(compared > 100_000);
    f.indexer().symmetry()
}

#[test]
fn orthodox_and_fairy_pieces_fold_eightfold() {
    let pieces = PieceSet::standard();
    assert_eq!(compare(&pieces, Metric::Dtm, "KR.KN"), 8);
    assert_eq!(compare(&pieces, Metric::Dtc, "KA.K"), 8);
}

#[test]
fn asymmetric_pieces_fold_by_the_symmetries_they_keep() {
    let text = "K: 1,0,* 1,1,*\n\
                S: 0,1 1,1 -1,1 1,-1 -1,-1   # silver general: forward and diagonals\n\
                Z: 2,1,+ 1,1,*               # mirror-symmetric, not diagonal-symmetric\n\
                G: 1,0,* 1,1,*\n";
    let pieces = parse_piece_defs(text, "test.ini").unwrap();
    assert_eq!(
        compare(&pieces, Metric::Dtm, "KS.K"),
        2,
        "left-right mirror only"
    );
    assert_eq!(
        compare(&pieces, Metric::Dtm, "KZ.K"),
        4,
        "the two mirrors and the half turn"
    );
    assert_eq!(compare(&pieces, Metric::Dtm, "KSG.K"), 2);
}

/// Pieces read from Betza text, with lame leaps, hops and one-way moves: the group is found
/// from the steps and their ways of walking, and the folded table equals the unfolded one.
#[test]
fn betza_pieces_fold_by_the_symmetries_they_keep() {
    let text = "K: K\n\
                O: mRcpR   # Xiangqi cannon\n\
                U: nN      # Xiangqi horse\n\
                G: gQ      # grasshopper\n\
                J: WfF     # gold general: left-right mirror only\n\
                V: rWfFcpR # no symmetry at all\n";
    let pieces = parse_piece_defs(text, "test.ini").unwrap();
    assert_eq!(compare(&pieces, Metric::Dtm, "KO.KU"), 8);
    assert_eq!(compare(&pieces, Metric::Dtc, "KG.KU"), 8);
    assert_eq!(
        compare(&pieces, Metric::Dtm, "KJ.KG"),
        2,
        "left-right mirror only"
    );
    assert_eq!(compare(&pieces, Metric::Dtm, "KV.KO"), 1, "no symmetry");
}
