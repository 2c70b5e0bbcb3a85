//! The memory budget's estimate against what a build really allocates: every allocation of
//! this test process is counted, and the peak of a build must stay within
//! `TableSet::bytes_needed`, which must not overstate it by much either.

use fairy_egt::egt::material::Material;
use fairy_egt::egt::progress::Silent;
use fairy_egt::egt::seed::parse_seeds;
use fairy_egt::egt::table::Metric;
use fairy_egt::egt::tables::TableSet;
use fairy_egt::piece::PieceSet;
use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicUsize, Ordering::SeqCst};

/// The system allocator, counting the bytes in use and their peak.
struct Counting;

static IN_USE: AtomicUsize = AtomicUsize::new(0);
static PEAK: AtomicUsize = AtomicUsize::new(0);

// SAFETY: every call is passed on to the system allocator unchanged; only counters are added.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        let p = unsafe { System.alloc(layout) };
        if !p.is_null() {
            let now = IN_USE.fetch_add(layout.size(), SeqCst) + layout.size();
            PEAK.fetch_max(now, SeqCst);
        }
        p
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        IN_USE.fetch_sub(layout.size(), SeqCst);
        unsafe { System.dealloc(ptr, layout) }
    }

    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        let p = unsafe { System.alloc_zeroed(layout) };
        if !p.is_null() {
            let now = IN_USE.fetch_add(layout.size(), SeqCst) + layout.size();
            PEAK.fetch_max(now, SeqCst);
        }
        p
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        let p = unsafe { System.realloc(ptr, layout, new_size) };
        if !p.is_null() {
            if new_size >= layout.size() {
                let now =
                    IN_USE.fetch_add(new_size - layout.size(), SeqCst) + new_size - layout.size();
                PEAK.fetch_max(now, SeqCst);
            } else {
                IN_USE.fetch_sub(layout.size() - new_size, SeqCst);
            }
        }
        p
    }
}

#[global_allocator]
static ALLOCATOR: Counting = Counting;

/// Builds `spec` into `set` and returns (estimate, bytes the build added at its peak, less
/// what its lists of distances beyond a byte's may take).
///
/// The estimate leaves those lists out: how many there are is known only as the build goes,
/// and they get the room the budget leaves. Each takes 8 bytes in the table's exceptions and,
/// while it waits as a provisional value, 16 in the builder's list: three times the
/// exceptions of the tables built bounds them.
fn measure(set: &mut TableSet, spec: &str) -> (u64, u64) {
    let material = Material::parse(spec, set.pieces()).unwrap();
    // Without a budget, tables of identical men alone are built with one of them told apart.
    let need = set.bytes_needed_twins_apart(&material);
    let before = IN_USE.load(SeqCst);
    PEAK.store(before, SeqCst);
    set.build(&material, &Silent).unwrap();
    let promotions: Vec<_> = (set.geometry().promotions().iter())
        .map(|p| (p.piece, p.letter))
        .collect();
    let mut built = material.sub_materials(&promotions);
    built.push(material.clone());
    let lists: u64 = (built.iter())
        .filter_map(|m| set.get(m))
        .map(|table| 3 * table.far_bytes())
        .sum();
    let peak = ((PEAK.load(SeqCst) - before) as u64).saturating_sub(lists);
    eprintln!(
        "{spec}: estimate {:.2} MB, peak {:.2} MB",
        need as f64 / 1e6,
        peak as f64 / 1e6
    );
    (need, peak)
}

/// One test, so that no other test's allocations are counted.
#[test]
fn the_estimate_bounds_a_builds_allocations_closely() {
    let pieces = PieceSet::standard();
    let dtm = Metric::Dtm;
    for (spec, symmetric, metric) in [
        ("KQ.K", true, dtm),
        ("KQ.KR", true, dtm),
        ("KRR.K", true, dtm),
        ("KBN.K", true, dtm),
        ("KQ.KR", false, dtm),
        ("KBN.KN", true, dtm),
        // Pawn tables: built layer by layer, with their promotion tables.
        ("KP.K", true, dtm),
        ("KP.KP", true, dtm),
        ("KRP.K", true, dtm),
        // DTZ, whose two frontiers of losses the budget counts.
        ("KBN.KN", true, Metric::Dtz(Default::default())),
        ("KRP.K", true, Metric::Dtz(Default::default())),
    ] {
        let mut set = TableSet::new(pieces.clone(), metric);
        if !symmetric {
            set = set.without_symmetry();
        }
        let (need, peak) = measure(&mut set, spec);
        assert!(peak <= need, "{spec}: {peak} allocated, {need} estimated");
        assert!(
            need <= peak + peak / 10 + 1_000_000,
            "{spec}: {need} estimated, only {peak} allocated"
        );
    }
    // With seeds the build keeps a bitmap of the fixed positions.
    let kbnk = Material::parse("KBN.K", &pieces).unwrap();
    let geometry = fairy_egt::board::geometry::Geometry::new(&pieces);
    let seeds = parse_seeds("a1c1b1h8 draw\n", "seeds", "KBN.K", &geometry, Metric::Dtm).unwrap();
    let mut set = TableSet::new(pieces.clone(), Metric::Dtm).with_seeds(kbnk, seeds);
    let (need, peak) = measure(&mut set, "KBN.K");
    assert!(peak <= need, "seeded: {peak} allocated, {need} estimated");
    // A table stored once is built from White's side alone (KQ.KQ, block by block).
    let mut set = TableSet::new(pieces.clone(), Metric::Dtm);
    let (need, peak) = measure(&mut set, "KQ.KQ");
    eprintln!("KQ.KQ: estimate {:.2} MB", need as f64 / 1e6);
    assert!(peak <= need, "KQ.KQ: {peak} allocated, {need} estimated");
    assert!(need <= peak + peak / 10 + 1_000_000);
    // Identical men alone told apart take more memory while they build; a budget below
    // that, above the table's own need, builds them in their own layout within that need.
    for (spec, board) in [
        ("KBB.KNN", "5x5"),
        ("KRR.K", "8x8"),
        ("KNN.KP", "6x6"),
        ("KNNN.K", "6x6"),
    ] {
        let board = board.parse().unwrap();
        let fresh = || TableSet::new(pieces.clone(), Metric::Dtm).on_board(board);
        let mut set = fresh();
        let material = Material::parse(spec, set.pieces()).unwrap();
        let own = set.bytes_needed(&material);
        assert!(set.bytes_needed_twins_apart(&material) > own, "{spec}");
        let (need, peak) = measure(&mut fresh(), spec);
        assert!(
            peak <= need && peak > own,
            "{spec} told apart: {peak} allocated, {need}"
        );
        set.set_budget(own);
        let (_, peak) = measure(&mut set, spec);
        assert!(
            peak <= own,
            "{spec} in its own layout: {peak} allocated, {own} estimated"
        );
    }
    // A sub-endgame already built is not built again: the estimate leaves it out.
    let mut set = TableSet::new(pieces.clone(), Metric::Dtm);
    measure(&mut set, "KQ.K");
    let (need, peak) = measure(&mut set, "KQ.KR");
    assert!(
        peak <= need,
        "KQ.KR after KQ.K: {peak} allocated, {need} estimated"
    );
    assert!(need <= peak + peak / 10 + 1_000_000);
}
