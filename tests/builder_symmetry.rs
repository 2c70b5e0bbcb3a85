//! The symmetry folding: the group is found from the pieces' moves, and a folded table gives
//! every placement the same value as a table built without symmetry, on 8×8 and on other
//! boards (square ones fold eightfold, rectangular ones by the 4 mirrors at most).

use fairy_egt::board::{BoardSize, Color};
use fairy_egt::egt::material::Material;
use fairy_egt::egt::progress::Silent;
use fairy_egt::egt::table::Metric;
use fairy_egt::egt::tables::TableSet;
use fairy_egt::piece::parse::parse_piece_defs;
use fairy_egt::piece::PieceSet;

/// Builds `spec` folded and unfolded and compares every slot of the unfolded table; returns
/// the folded table's symmetry.
fn compare(pieces: &PieceSet, metric: Metric, spec: &str) -> usize {
    compare_on(BoardSize::STANDARD, pieces, metric, spec)
}

/// `compare` on `board`.
fn compare_on(board: BoardSize, pieces: &PieceSet, metric: Metric, spec: &str) -> usize {
    let m = Material::parse(spec, pieces).unwrap();
    let mut folded = TableSet::new(pieces.clone(), metric).on_board(board);
    folded.build(&m, &Silent).unwrap();
    let mut plain = TableSet::new(pieces.clone(), metric)
        .on_board(board)
        .without_symmetry();
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
                "{spec} on {board} slot {i} {c:?} {sq:?}"
            );
            compared += 1;
        }
    }
    // Most placements of the men on distinct squares (no pawn on its first or last rank)
    // have a slot (the index leaves out placements of the two royals that are illegal
    // whoever moves), both sides to move.
    let placements = p.indexer().full_board_placements();
    assert!(compared > placements, "{spec} on {board}: {compared}");
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

fn board(text: &str) -> BoardSize {
    text.parse().unwrap()
}

/// A square board other than 8×8 folds eightfold, captures into smaller tables included.
#[test]
fn square_boards_other_than_8x8_fold_eightfold() {
    let pieces = PieceSet::standard();
    assert_eq!(compare_on(board("5x5"), &pieces, Metric::Dtm, "KR.KN"), 8);
    assert_eq!(compare_on(board("5x5"), &pieces, Metric::Dtc, "KA.KB"), 8);
    assert_eq!(compare_on(board("11x11"), &pieces, Metric::Dtm, "KC.K"), 8);
    assert_eq!(compare_on(board("12x12"), &pieces, Metric::Dtm, "KQ.K"), 8);
}

/// A rectangular board allows only the 4 mirrors (no transpose), whatever the pieces. (10×8
/// is compared with 3 men: a 4-man table unfolded there takes half a minute to build; its
/// folded 4-man tables are checked move by move in `builder_consistency`.)
#[test]
fn rectangular_boards_fold_by_the_four_mirrors() {
    let pieces = PieceSet::standard();
    assert_eq!(compare_on(board("7x5"), &pieces, Metric::Dtm, "KQ.KR"), 4);
    assert_eq!(compare_on(board("6x4"), &pieces, Metric::Dtc, "KR.KN"), 4);
    assert_eq!(compare_on(board("4x7"), &pieces, Metric::Dtm, "KA.KN"), 4);
    assert_eq!(compare_on(board("10x8"), &pieces, Metric::Dtm, "KC.K"), 4);
    assert_eq!(compare_on(board("10x8"), &pieces, Metric::Dtc, "KA.K"), 4);
}

/// One-way pieces on rectangular boards: the gold general (`WfF`) keeps the left-right
/// mirror alone; a piece that moves only right keeps the top-bottom one alone.
#[test]
fn one_way_pieces_on_rectangular_boards_fold_by_the_mirror_they_keep() {
    let text = "K: K\n\
                J: WfF     # gold general: left-right mirror only\n\
                V: rWfF    # forward and right: no symmetry\n\
                R: R\n\
                Z: rWrN    # rightward only: the top-bottom mirror\n";
    let pieces = parse_piece_defs(text, "test.ini").unwrap();
    assert_eq!(compare_on(board("7x5"), &pieces, Metric::Dtm, "KJ.KR"), 2);
    assert_eq!(compare_on(board("10x8"), &pieces, Metric::Dtm, "KJ.K"), 2);
    assert_eq!(compare_on(board("5x6"), &pieces, Metric::Dtm, "KZ.KJ"), 1);
    assert_eq!(compare_on(board("6x5"), &pieces, Metric::Dtm, "KZ.KR"), 2);
    assert_eq!(compare_on(board("4x6"), &pieces, Metric::Dtm, "KV.KR"), 1);
}

/// The group keeps both colours' moves (Black's are White's mirrored top to bottom), and on
/// a rectangular board only what its shape allows: a piece kept by the two diagonal mirrors
/// and the half turn folds fourfold on a square board and twofold (the half turn) on a
/// rectangular one; a piece only the half turn keeps folds twofold on both; one that only
/// the a1-h8 mirror would keep for White is not kept for Black, so folds not at all.
#[test]
fn the_group_is_what_the_board_and_both_colours_moves_keep() {
    let text = "K: K\n\
                D: 1,2 2,1 -1,-2 -2,-1   # both diagonal mirrors and the half turn\n\
                T: 1,1 -1,-1 2,1 -2,-1   # the half turn only\n\
                S: 1,1                   # White's a1-h8 mirror, not Black's\n";
    let pieces = parse_piece_defs(text, "test.ini").unwrap();
    assert_eq!(compare_on(board("6x6"), &pieces, Metric::Dtm, "KD.K"), 4);
    assert_eq!(compare_on(board("7x5"), &pieces, Metric::Dtm, "KD.K"), 2);
    assert_eq!(compare_on(board("6x6"), &pieces, Metric::Dtm, "KT.K"), 2);
    assert_eq!(compare_on(board("5x7"), &pieces, Metric::Dtm, "KT.KD"), 2);
    assert_eq!(compare_on(board("6x6"), &pieces, Metric::Dtm, "KS.K"), 1);
}

/// Six men fold as fewer do: on 4×4 by all 8 symmetries, on 5×4 by the 4 mirrors.
#[test]
fn six_man_tables_fold_as_smaller_ones_do() {
    let pieces = PieceSet::standard();
    let board = |t: &str| t.parse::<BoardSize>().unwrap();
    assert_eq!(compare_on(board("4x4"), &pieces, Metric::Dtm, "KRN.KBN"), 8);
    assert_eq!(compare_on(board("5x4"), &pieces, Metric::Dtc, "KAN.KRB"), 4);
}

/// Pawn tables fold by the left-right mirror alone (pawns keep ranks), and a folded table
/// agrees with an unfolded one on every slot: orthodox pawns on 8×8, on 5×5 with en passant
/// (KP.KP), on 10×8 under DTC, and Berolina pawns (the example piece file).
#[test]
fn pawn_tables_fold_by_the_mirror_alone() {
    let pieces = PieceSet::standard();
    assert_eq!(compare(&pieces, Metric::Dtm, "KP.K"), 2);
    assert_eq!(compare_on(board("5x5"), &pieces, Metric::Dtm, "KP.KP"), 2);
    assert_eq!(compare_on(board("10x8"), &pieces, Metric::Dtc, "KP.K"), 2);
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/berolina.ini");
    let berolina = parse_piece_defs(&std::fs::read_to_string(path).unwrap(), path).unwrap();
    assert_eq!(compare_on(board("5x5"), &berolina, Metric::Dtm, "KP.KP"), 2);
}
