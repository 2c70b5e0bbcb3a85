//! Distances beyond what a table byte holds (`MAX_DIRECT`, 122 moves) are kept as exceptions
//! beside the bytes. The tables that need them take gigabytes (KRN.KNN, 262 moves: see
//! README), so the exceptions are checked here on small tables built with a byte that holds
//! only the shortest distances (`TableSet::with_direct_distances`): every table of the set,
//! every slot, both sides to move, must have the value the normal build gives, which the other
//! test files check against forward search and published maxima; and so must the statistics.
//! The cases reach every way a long distance arises: the steps' own wins and losses,
//! provisional wins and losses through captures (first pass and loss checks), seeds, passes
//! (null move), the block-wise and the slot-by-slot paths, DTM and DTC.

use fairy_egt::board::{BoardSize, Color};
use fairy_egt::egt::builder::BuildError;
use fairy_egt::egt::material::Material;
use fairy_egt::egt::progress::Silent;
use fairy_egt::egt::rules::{NullMove, Rules};
use fairy_egt::egt::seed::parse_seeds;
use fairy_egt::egt::stats::table_stats;
use fairy_egt::egt::table::Metric;
use fairy_egt::egt::tables::TableSet;
use fairy_egt::piece::PieceSet;

/// How a set is made before its tables are built.
type Make = dyn Fn() -> TableSet;

/// Builds `spec` with `make()` as it is and with only distances up to `direct` held by the
/// byte, and checks that both sets agree on every table; returns how many positions of the
/// requested table were kept as exceptions.
fn agree(make: &Make, spec: &str, direct: u16) -> usize {
    let mut normal = make();
    let mut short = make().with_direct_distances(direct);
    let material = Material::parse(spec, normal.pieces()).unwrap();
    normal.build(&material, &Silent).unwrap();
    short.build(&material, &Silent).unwrap();
    let mut all = material.sub_materials(&[]);
    all.push(material.clone());
    for m in &all {
        let (a, b) = (normal.get(m).unwrap(), short.get(m).unwrap());
        assert_eq!(a.far_count(), 0, "{spec}: {} needs no exception", m.name());
        let ix = a.indexer();
        assert_eq!(ix.size(), b.indexer().size());
        for i in 0..ix.size() {
            let Some(sq) = ix.decode(i) else { continue };
            for c in Color::BOTH {
                assert_eq!(
                    a.value(&sq, c),
                    b.value(&sq, c),
                    "{spec}: {} slot {i}, {c:?} to move",
                    m.name()
                );
            }
        }
        assert_eq!(
            table_stats(a, normal.geometry()),
            table_stats(b, short.geometry()),
            "{spec}: statistics of {}",
            m.name()
        );
    }
    short.get(&material).unwrap().far_count()
}

fn orthodox(metric: Metric) -> impl Fn() -> TableSet {
    move || TableSet::new(PieceSet::standard(), metric)
}

/// DTM with captures into longer wins (KQ.K's 10 from KQ.KR) and the block-wise path.
#[test]
fn kqkr_with_exceptions_beyond_three_moves() {
    assert!(agree(&orthodox(Metric::Dtm), "KQ.KR", 3) > 1000);
}

/// Every distance but the mates beyond the byte.
#[test]
fn kbnk_with_every_win_an_exception() {
    assert!(agree(&orthodox(Metric::Dtm), "KBN.K", 0) > 100_000);
}

/// DTC: conversions count as distance 0.
#[test]
fn krkn_dtc_with_exceptions_beyond_two_moves() {
    assert!(agree(&orthodox(Metric::Dtc), "KR.KN", 2) > 1000);
}

/// DTZ: both runs and the table of plies they make keep their long distances apart (the
/// plies beyond three, and the runs' moves beyond three, with cursed values under a 10-move
/// rule).
#[test]
fn kqkr_dtz_with_exceptions_beyond_three() {
    use fairy_egt::egt::dtz::Rule;
    assert!(agree(&orthodox(Metric::Dtz(Rule::FIFTY_MOVES)), "KQ.KR", 3) > 1000);
    assert!(agree(&orthodox(Metric::Dtz(Rule::moves(10))), "KQ.KR", 3) > 1000);
}

/// Passes read the opponent's own slot, long wins included; stalemates win.
#[test]
fn rules_with_exceptions() {
    let rules = Rules {
        null_move: NullMove::Black,
        stalemate_wins: true,
        ..Rules::default()
    };
    let make = move || TableSet::new(PieceSet::standard(), Metric::Dtm).with_rules(rules);
    assert!(agree(&make, "KR.KN", 1) > 1000);
}

/// Slot by slot, off 8×8.
#[test]
fn six_by_six_with_exceptions() {
    let board: BoardSize = "6x6".parse().unwrap();
    let make = move || TableSet::new(PieceSet::standard(), Metric::Dtm).on_board(board);
    assert!(agree(&make, "KQ.KR", 4) > 1000);
}

/// Tables stored once, built from White's side alone (`Recipe::once`): the
/// wins and losses beyond the byte, the frontiers read through the colour swap, passes
/// (allowed to both sides) and pawns' moves into the finished layers read through it too.
#[test]
fn tables_built_from_one_side_with_exceptions() {
    let board: BoardSize = "5x5".parse().unwrap();
    let make = move || TableSet::new(PieceSet::standard(), Metric::Dtm).on_board(board);
    assert!(agree(&make, "KNN.KNN", 1) > 1000);
    let rules = Rules {
        null_move: NullMove::Both,
        ..Rules::default()
    };
    let passing = move || make().with_rules(rules);
    assert!(agree(&passing, "KNN.KNN", 1) > 1000);
    let board: BoardSize = "6x6".parse().unwrap();
    let pawns = move || {
        (TableSet::new(PieceSet::standard(), Metric::Dtm).on_board(board))
            .with_promotions("QN")
            .unwrap()
    };
    assert!(agree(&pawns, "KP.KP", 3) > 1000);
}

/// A seeded value beyond the byte waits for its distance like a capture's.
#[test]
fn seeds_beyond_the_byte() {
    let pieces = PieceSet::standard();
    let geometry = TableSet::new(pieces.clone(), Metric::Dtm);
    // White Ka1, Qh8, black Kd5: White to move seeded as won in 30 (not its real 6 or so).
    let seeds = parse_seeds(
        "a1h8d5 w win 30\na1h8d4 b loss 29\n",
        "seeds.txt",
        "KQ.K",
        geometry.geometry(),
        Metric::Dtm,
    )
    .unwrap();
    let material = Material::parse("KQ.K", &pieces).unwrap();
    let make = move || {
        TableSet::new(PieceSet::standard(), Metric::Dtm).with_seeds(material.clone(), seeds.clone())
    };
    assert!(agree(&make, "KQ.K", 5) > 0);
}

/// The lists of long distances cannot be reckoned before a build, so they get the room the
/// memory budget leaves: a build whose lists would outgrow it stops, naming at least what it
/// needed, and a budget with room for exactly the lists it takes builds it. Under DTM and
/// under DTZ, whose distances count plies.
#[test]
fn long_distances_count_against_the_memory_budget() {
    for metric in [
        Metric::Dtm,
        Metric::Dtz(fairy_egt::egt::dtz::Rule::FIFTY_MOVES),
    ] {
        lists_count_against_the_budget(metric);
    }
}

fn lists_count_against_the_budget(metric: Metric) {
    let make = || TableSet::new(PieceSet::standard(), metric).with_direct_distances(0);
    let mut free = make();
    let kbnk = Material::parse("KBN.K", free.pieces()).unwrap();
    let need = free.bytes_needed(&kbnk);
    free.build(&kbnk, &Silent).unwrap();
    let far_bytes = 8 * free.get(&kbnk).unwrap().far_count() as u64;
    assert!(far_bytes > 800_000, "{far_bytes}");
    // The set counts the lists in what it holds.
    let mut normal = TableSet::new(PieceSet::standard(), metric);
    normal.build(&kbnk, &Silent).unwrap();
    let normal_far = normal.get(&kbnk).unwrap().far_bytes();
    assert_eq!(free.bytes(), normal.bytes() - normal_far + far_bytes);
    let mut exact = make();
    exact.set_budget(need + far_bytes);
    exact.build(&kbnk, &Silent).unwrap();
    assert_eq!(
        exact.get(&kbnk).unwrap().far_count(),
        far_bytes as usize / 8
    );
    let mut short = make();
    short.set_budget(need + far_bytes - 8);
    match short.build(&kbnk, &Silent) {
        Err(BuildError::OverBudget {
            endgame,
            need: needed,
            budget,
        }) => {
            assert_eq!(endgame, "KBN.K");
            assert_eq!(budget, need + far_bytes - 8);
            assert!(needed > budget, "{needed} > {budget}");
        }
        other => panic!("KBN.K within a budget short of its long distances: {other:?}"),
    }
    assert!(short.get(&kbnk).is_none());
}
