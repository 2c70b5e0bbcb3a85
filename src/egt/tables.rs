//! The set of built tables: a requested endgame and every smaller one reachable by captures,
//! built on request under a memory budget, and probed with checked positions (value, every
//! move with its value, the best move by the rule in `probe`, the principal line).

use crate::board::geometry::Geometry;
use crate::board::{BoardSize, Move, Position};
use crate::egt::builder::{build_table, BuildError, Recipe};
use crate::egt::index::Indexer;
use crate::egt::material::{material_of, Material, MAX_MEN};
use crate::egt::probe::{best_of, ProbeError, ScoredMove};
use crate::egt::progress::{time_left, BuildEvent, Phase, Progress, TableClock};
use crate::egt::rules::Rules;
use crate::egt::seed::Seed;
use crate::egt::table::{Metric, Table};
use crate::egt::table_file::{self, LoadError, TableKey};
use crate::egt::value::{Value, MAX_DIRECT};
use crate::piece::PieceSet;
use std::collections::{HashMap, HashSet};
use std::path::{Path, PathBuf};
use std::sync::atomic::AtomicBool;
use std::sync::{Arc, Mutex};
use std::time::Instant;

/// Tables of one piece set and metric, built on request.
pub struct TableSet {
    /// The pieces' move tables, and the pieces.
    geometry: Geometry,
    metric: Metric,
    rules: Rules,
    seeds: Option<(Material, Vec<Seed>)>,
    fold: bool,
    /// Longest distance a table byte holds (see `Recipe::direct`).
    direct: u16,
    /// Shared, so that a finished table can be read elsewhere (its statistics counted for
    /// the report) while the set is used or extended.
    tables: HashMap<Material, Arc<Table>>,
    /// Most bytes the tables may take, those held and a build's together.
    budget: u64,
    /// The table directory, if any (boxed: the set travels in messages between threads).
    dir: Option<Box<TableDir>>,
    /// What the table directory did not do as asked (a saved table refused, a failed save),
    /// for the engine to show the user (see [`TableSet::take_notices`]).
    notices: Vec<String>,
}

/// A table directory: tables are loaded from it instead of built, and saved to it once built
/// (see `table_file`).
struct TableDir {
    path: PathBuf,
    /// The held tables that the directory holds (loaded from it, or saved to it).
    saved: HashSet<Material>,
}

/// An allowance for a build's small structures, whatever the table's size: the men's move
/// lists, the list of sub-tables, the rayon jobs' state (a few kilobytes, measured).
const BOOKKEEPING_BYTES: u64 = 64 << 10;

/// Bytes of a builder bitmap of `bits` bits (`builder/bitmap.rs`): a word per 64 bits, and a
/// summary bit per group of 64 words.
fn bitmap_bytes(bits: u64) -> u64 {
    let words = bits.div_ceil(64);
    8 * (words + words.div_ceil(64).div_ceil(64))
}

/// Bytes a table of this index takes: a byte per slot and side to move, rounded up to whole
/// blocks of 64 slots as the builder allocates them, and the index's own lookup tables.
fn table_bytes(index: &Indexer) -> u64 {
    2 * index.size().next_multiple_of(64) + index.heap_bytes()
}

/// Bytes a built table takes: its bytes and index, and its list of distances beyond a byte.
fn held_bytes(table: &Table) -> u64 {
    table_bytes(table.indexer()) + table.far_bytes()
}

/// Bytes the builder allocates for a table of `slots` slots, besides the table itself, while
/// it builds it (they are freed before the next table): the positions no move escapes into, a
/// bit per slot and side to move (a step's candidates are parked there); the blocks holding
/// candidates, a bit per block; the frontiers, won and lost for each side, a bit per block of
/// 64 slots; the smallest pending byte of each block, for each side; the list of candidate
/// groups a step checks (64 × 64 blocks each); with seeds, a bitmap of the fixed positions
/// per side; and the bookkeeping.
fn builder_bytes(slots: u64, seeded: bool) -> u64 {
    let blocks = slots.div_ceil(64);
    let candidates = bitmap_bytes(blocks);
    let no_escape = 2 * 8 * blocks;
    let frontiers = 4 * bitmap_bytes(blocks);
    let pending = 2 * blocks + 2 * 256 * 8;
    let groups = 8 * blocks.div_ceil(64).div_ceil(64);
    let seeds = if seeded { 2 * bitmap_bytes(slots) } else { 0 };
    candidates + no_escape + frontiers + pending + groups + seeds + BOOKKEEPING_BYTES
}

impl TableSet {
    /// An empty set for these pieces and this metric.
    pub fn new(pieces: PieceSet, metric: Metric) -> TableSet {
        TableSet {
            geometry: Geometry::new(&pieces),
            metric,
            rules: Rules::default(),
            seeds: None,
            fold: true,
            direct: MAX_DIRECT,
            tables: HashMap::new(),
            budget: u64::MAX,
            dir: None,
            notices: Vec::new(),
        }
    }

    /// The same set (still empty), on another board.
    pub fn on_board(mut self, board: BoardSize) -> TableSet {
        assert!(
            self.tables.is_empty(),
            "the board is chosen before any table is built"
        );
        self.geometry = Geometry::on(self.geometry.pieces(), board);
        self
    }

    /// Limits the memory of the builds from now on to `bytes` (see [`TableSet::build`]).
    /// Without a budget there is no limit.
    pub fn set_budget(&mut self, bytes: u64) {
        self.budget = bytes;
    }

    /// Loads tables from `dir` and saves the tables built to it from now on (`None`: none
    /// is loaded or saved). The held tables a build uses are saved there when it starts.
    pub fn set_table_dir(&mut self, dir: Option<PathBuf>) {
        if dir.as_deref() != self.table_dir() {
            self.dir = dir.map(|path| {
                Box::new(TableDir {
                    path,
                    saved: HashSet::new(),
                })
            });
        }
    }

    /// The table directory, if any.
    pub fn table_dir(&self) -> Option<&Path> {
        self.dir.as_ref().map(|d| d.path.as_path())
    }

    /// The key of `material`'s table under these settings: what its file must match.
    pub fn key(&self, material: &Material) -> TableKey {
        TableKey::new(
            material,
            &self.geometry,
            self.metric,
            self.rules,
            self.seeds_of(material),
            self.fold,
        )
    }

    /// The seeds of `material`: those of the seeded endgame, none for the others.
    fn seeds_of(&self, material: &Material) -> &[Seed] {
        match &self.seeds {
            Some((seeded, seeds)) if seeded == material => seeds,
            _ => &[],
        }
    }

    /// `material`'s table from the table directory, if it holds a good one. A file that is
    /// there but stale, truncated, corrupted or unreadable is reported (once: the table is
    /// then built and the file replaced). `loading` is told when a file is there to read.
    fn load(&mut self, material: &Material, key: &TableKey, loading: &dyn Fn()) -> Option<Table> {
        let path = self.table_dir()?.join(key.file_name());
        if !path.is_file() {
            return None;
        }
        loading();
        let started = Instant::now();
        let indexer = Indexer::new(material, &self.geometry, self.fold);
        match table_file::read(&path, key, material, indexer, self.metric) {
            Ok(table) => {
                log::info!(
                    "{material} loaded from {} in {:.3} s",
                    path.display(),
                    started.elapsed().as_secs_f64()
                );
                Some(table)
            }
            // Removed since it was seen.
            Err(LoadError::Missing(_)) => None,
            Err(e) => {
                let notice = format!("{e}; building the table again");
                log::warn!("{notice}");
                self.notices.push(notice);
                None
            }
        }
    }

    /// Saves a table, whose key is `key`, to the table directory, if there is one and it
    /// does not hold it yet. A failed save is reported, and the table stays in memory only.
    fn save(&mut self, material: &Material, key: &TableKey) {
        let (Some(dir), Some(table)) = (&mut self.dir, self.tables.get(material)) else {
            return;
        };
        if dir.saved.contains(material) {
            return;
        }
        let started = Instant::now();
        match table_file::write(table, key, &dir.path) {
            Ok(path) => {
                log::info!(
                    "{material} saved to {} in {:.3} s",
                    path.display(),
                    started.elapsed().as_secs_f64()
                );
                dir.saved.insert(material.clone());
            }
            Err(e) => {
                let notice = format!("{e}; the table stays in memory only");
                log::warn!("{notice}");
                self.notices.push(notice);
            }
        }
    }

    /// The same set (still empty), building its tables under `rules`.
    pub fn with_rules(mut self, rules: Rules) -> TableSet {
        assert!(
            self.tables.is_empty(),
            "rules are chosen before any table is built"
        );
        self.rules = rules;
        self
    }

    /// The same set (still empty), with values fixed for seeded positions of `material`
    /// (see `seed`).
    pub fn with_seeds(mut self, material: Material, seeds: Vec<Seed>) -> TableSet {
        assert!(
            self.tables.is_empty(),
            "seeds are chosen before any table is built"
        );
        self.seeds = Some((material, seeds));
        self
    }

    /// The rules the tables are built under.
    pub fn rules(&self) -> Rules {
        self.rules
    }

    /// The same, but tables built from now on use no symmetry (for checking the folding).
    pub fn without_symmetry(mut self) -> TableSet {
        self.fold = false;
        self
    }

    /// The same, but tables built from now on hold only distances up to `moves` in their
    /// bytes, and every longer one as an exception, as they do beyond `MAX_DIRECT` (for
    /// checking the exceptions on small tables: the values are the same).
    pub fn with_direct_distances(mut self, moves: u16) -> TableSet {
        self.direct = moves.min(MAX_DIRECT);
        self
    }

    /// The piece definitions.
    pub fn pieces(&self) -> &PieceSet {
        self.geometry.pieces()
    }

    /// Move tables of the pieces.
    pub fn geometry(&self) -> &Geometry {
        &self.geometry
    }

    /// The metric of every table.
    pub fn metric(&self) -> Metric {
        self.metric
    }

    /// The built table of a material.
    pub fn get(&self, material: &Material) -> Option<&Table> {
        self.tables.get(material).map(|t| &**t)
    }

    /// The built table of a material, shared.
    pub fn shared(&self, material: &Material) -> Option<Arc<Table>> {
        self.tables.get(material).cloned()
    }

    /// Bytes the tables held take (every built table: both sides to move, its index and its
    /// distances beyond a byte).
    pub fn bytes(&self) -> u64 {
        self.tables.values().map(|t| held_bytes(t)).sum()
    }

    /// The endgames a build of `material` builds: it and every smaller endgame reachable by
    /// captures, those not built yet, smallest first.
    fn missing(&self, material: &Material) -> Vec<Material> {
        let mut todo = material.sub_materials();
        todo.push(material.clone());
        todo.retain(|m| !self.tables.contains_key(m));
        todo
    }

    /// Bytes a build of `material` adds to the memory in use at its peak: the tables of it
    /// and of every smaller endgame not built yet (both sides to move, each rounded up to whole
    /// blocks as the builder allocates them, and its index), plus the largest of their builds'
    /// transient structures (candidate bitmaps, frontiers, pending values, seeds). The tables
    /// already held come on top.
    pub fn bytes_needed(&self, material: &Material) -> u64 {
        let seeded = |m: &Material| self.seeds.as_ref().is_some_and(|(s, _)| s == m);
        let (tables, builder) =
            self.missing(material)
                .iter()
                .fold((0, 0), |(tables, builder), m| {
                    let index = Indexer::new(m, &self.geometry, self.fold);
                    (
                        tables + table_bytes(&index),
                        builder_bytes(index.size(), seeded(m)).max(builder),
                    )
                });
        tables + builder
    }

    /// Builds `material` and every smaller material reachable by captures that is not built
    /// yet, smallest first, on the current rayon pool.
    ///
    /// Memory: when the build ([`TableSet::bytes_needed`]) does not fit in the budget beside
    /// the tables held, the held tables it does not use are dropped first. If it does not fit
    /// even so (its need and the held tables it uses), it is refused with
    /// [`BuildError::OverBudget`] before anything is allocated or dropped.
    pub fn build(
        &mut self,
        material: &Material,
        progress: &dyn Progress,
    ) -> Result<(), BuildError> {
        self.build_cancellable(material, progress, &AtomicBool::new(false))
    }

    /// [`TableSet::build`] that stops soon after `cancel` is raised, with
    /// [`BuildError::Cancelled`]: the tables completed before stay in the set, the one in
    /// progress is dropped, so no half-built table is ever in the set.
    pub fn build_cancellable(
        &mut self,
        material: &Material,
        progress: &dyn Progress,
        cancel: &AtomicBool,
    ) -> Result<(), BuildError> {
        let start = Instant::now();
        let need = self.bytes_needed(material);
        let subs = material.sub_materials();
        let uses = |m: &Material| m == material || subs.contains(m);
        let used: u64 = (self.tables.iter())
            .filter(|(m, _)| uses(m))
            .map(|(_, t)| held_bytes(t))
            .sum();
        if used.saturating_add(need) > self.budget {
            return Err(BuildError::OverBudget {
                endgame: material.name(),
                need: used.saturating_add(need),
                budget: self.budget,
            });
        }
        if self.bytes().saturating_add(need) > self.budget {
            self.tables.retain(|m, _| uses(m));
            let tables = &self.tables;
            if let Some(dir) = &mut self.dir {
                dir.saved.retain(|m| tables.contains_key(m));
            }
        }
        // Tables built before the table directory was set.
        let unsaved: Vec<Material> = match &self.dir {
            Some(dir) => (self.tables.keys())
                .filter(|m| uses(m) && !dir.saved.contains(*m))
                .cloned()
                .collect(),
            None => Vec::new(),
        };
        for m in unsaved {
            let key = self.key(&m);
            self.save(&m, &key);
        }
        let todo = self.missing(material);
        // Each table's share of the whole is its share of the positions: its build time
        // grows with them (TableClock makes each table's own fraction track time).
        let weight = |m: &Material| Indexer::new(m, &self.geometry, self.fold).size() as f64;
        let weights: Vec<f64> = todo.iter().map(weight).collect();
        let mut total: f64 = weights.iter().sum::<f64>().max(1.0);
        let mut done = 0.0;
        // What the budget leaves for the lists of distances beyond a byte, which no one can
        // reckon before the builds: those of each table built here stay with it.
        let mut far_room = self.budget.saturating_sub(used.saturating_add(need));
        for (m, w) in todo.into_iter().zip(weights) {
            let clock = Mutex::new(TableClock::new());
            let report = |phase, fraction: f64| {
                // Reported under the lock, so that the reports of the threads keep their order.
                let Ok(mut clock) = clock.lock() else {
                    return;
                };
                let elapsed = start.elapsed();
                let fraction = (done + w * clock.fraction(phase, fraction, Instant::now())) / total;
                progress.report(&BuildEvent {
                    table: m.name(),
                    target: material.name(),
                    phase,
                    fraction,
                    elapsed,
                    remaining: time_left(fraction, elapsed),
                })
            };
            let key = self.key(&m);
            if let Some(table) = self.load(&m, &key, &|| report(Phase::Loading, 0.0)) {
                // A load is no share of the build's time: the shares are of the tables built.
                total = (total - w).max(1.0);
                far_room = far_room.saturating_sub(table.far_bytes());
                self.tables.insert(m.clone(), Arc::new(table));
                if let Some(dir) = &mut self.dir {
                    dir.saved.insert(m);
                }
            } else {
                let recipe = Recipe {
                    geometry: &self.geometry,
                    metric: self.metric,
                    rules: self.rules,
                    seeds: self.seeds_of(&m),
                    fold: self.fold,
                    direct: self.direct,
                    far_room,
                    cancel,
                };
                let built = build_table(&m, &recipe, &|sub: &Material| self.get(sub), &report);
                let table = built.map_err(|e| match e {
                    BuildError::OverBudget { need: far, .. } => BuildError::OverBudget {
                        endgame: material.name(),
                        need: self.budget - far_room + far,
                        budget: self.budget,
                    },
                    e => e,
                })?;
                far_room = far_room.saturating_sub(table.far_bytes());
                log::debug!(
                    "{} built in {:.3} s, {} positions beyond {MAX_DIRECT} moves",
                    m.name(),
                    start.elapsed().as_secs_f64(),
                    table.far_count()
                );
                self.tables.insert(m.clone(), Arc::new(table));
                self.save(&m, &key);
                done += w;
            }
        }
        Ok(())
    }

    /// What the table directory did not do as asked since the last call (a saved table
    /// refused as stale, truncated or corrupted and built again; a table that could not be
    /// saved), one message each, already logged: for the engine to show the user.
    pub fn take_notices(&mut self) -> Vec<String> {
        std::mem::take(&mut self.notices)
    }

    /// Value of a position for its side to move.
    pub fn probe(&self, pos: &Position) -> Result<Value, ProbeError> {
        if pos.men().len() > MAX_MEN {
            return Err(ProbeError::TooManyMen(pos.men().len()));
        }
        let (material, sq) = material_of(pos);
        let table = self
            .get(&material)
            .ok_or_else(|| ProbeError::NotBuilt(material.name()))?;
        // A checked position is legal, so it has a value.
        table
            .value(&sq, pos.side_to_move())
            .ok_or_else(|| ProbeError::NoValue {
                material: material.name(),
                fen: pos.to_setup().to_fen(),
            })
    }

    /// Every legal move with the value it leaves for the mover, in ascending (from, to)
    /// order. Under DTC a capture that keeps the win is a conversion: a win in 1.
    pub fn scored_moves(&self, pos: &Position) -> Result<Vec<ScoredMove>, ProbeError> {
        pos.legal_moves(self.geometry())
            .into_iter()
            .map(|mv| {
                let after = self.probe(&pos.play(mv))?;
                let value = match (self.metric(), pos.captured(mv), after) {
                    (Metric::Dtc, Some(_), Value::Loss(_)) => Value::Win(1),
                    (Metric::Dtc, Some(_), Value::Win(_)) => Value::Loss(0),
                    (_, _, v) => v.for_mover(),
                };
                Ok(ScoredMove { mv, value })
            })
            .collect()
    }

    /// The best move by the rule in `probe`'s module doc, `None` if there is no legal move.
    pub fn best_move(&self, pos: &Position) -> Result<Option<ScoredMove>, ProbeError> {
        Ok(best_of(&self.scored_moves(pos)?))
    }

    /// The perfect-play line from a position: best moves until mate or stalemate, through
    /// captures into smaller tables; from a drawn position, only the first drawing move.
    /// At most `limit` moves (plies).
    pub fn principal_line(&self, pos: &Position, limit: usize) -> Result<Vec<Move>, ProbeError> {
        let mut line = Vec::new();
        let mut at = pos.clone();
        while line.len() < limit {
            let Some(best) = self.best_move(&at)? else {
                break;
            };
            line.push(best.mv);
            if best.value == Value::Draw {
                break;
            }
            at = at.play(best.mv);
        }
        Ok(line)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::Setup;
    use crate::egt::progress::Silent;
    use crate::egt::stats::table_stats;
    use crate::egt::value::ILLEGAL;
    use std::sync::atomic::Ordering;

    #[test]
    fn a_build_over_the_budget_is_refused_before_it_allocates() {
        let mut set = TableSet::new(PieceSet::standard(), Metric::Dtm);
        let kbnkn = Material::parse("KBN.KN", set.pieces()).unwrap();
        let need = set.bytes_needed(&kbnkn);
        set.set_budget(need - 1);
        let started = Instant::now();
        let e = set.build(&kbnkn, &Silent).unwrap_err();
        assert!(
            started.elapsed().as_secs_f64() < 0.5,
            "{:?}",
            started.elapsed()
        );
        assert_eq!(
            e,
            BuildError::OverBudget {
                endgame: "KBN.KN".to_string(),
                need,
                budget: need - 1
            }
        );
        assert_eq!(
            e.to_string(),
            format!(
                "KBN.KN needs {} MB of table memory, more than the budget of {} MB \
                 (--memory / memory= in engine.ini / option TableMemory)",
                need.div_ceil(1_000_000),
                (need - 1) / 1_000_000
            )
        );
        assert_eq!(set.bytes(), 0);
        let kqk = Material::parse("KQ.K", set.pieces()).unwrap();
        let need = set.bytes_needed(&kqk);
        set.set_budget(need);
        set.build(&kqk, &Silent).unwrap();
        assert_eq!(set.bytes_needed(&kqk), 0);
    }

    /// On 10×8 the index has no blocks: a table is two bytes a slot, pairs × 80 × 80 slots
    /// for KC.KR, with 1446 royal pairs (80·79 ordered pairs less 536 adjacent ones, in orbits
    /// of 4: no square of an even-sided board is fixed by a mirror or the half turn). The
    /// need is exactly the tables built and the largest builder's structures, and the build
    /// fits a budget of just that.
    #[test]
    fn on_10x8_the_need_is_the_tables_built_and_the_largest_builder() {
        let board = crate::board::BoardSize::new(10, 8).unwrap();
        let mut set = TableSet::new(PieceSet::standard(), Metric::Dtm).on_board(board);
        let kckr = Material::parse("KC.KR", set.pieces()).unwrap();
        let need = set.bytes_needed(&kckr);
        set.set_budget(need);
        set.build(&kckr, &Silent).unwrap();
        let ix = set.get(&kckr).unwrap().indexer();
        assert!(!ix.has_blocks());
        assert_eq!((ix.symmetry(), ix.pair_count()), (4, 1446));
        assert_eq!(ix.size(), 1446 * 80 * 80);
        assert_eq!(need, set.bytes() + builder_bytes(ix.size(), false));
    }

    #[test]
    fn a_build_drops_unused_tables_to_fit_and_only_then() {
        fn parse(spec: &str) -> Material {
            Material::parse(spec, &PieceSet::standard()).unwrap()
        }
        let (kqk, krk, kqkr) = (parse("KQ.K"), parse("KR.K"), parse("KQ.KR"));
        // KQ.K, KR.K and K.K held; KQ.KR uses KQ.K and K.K, not KR.K.
        let held_set = || {
            let mut set = TableSet::new(PieceSet::standard(), Metric::Dtm);
            set.build(&kqk, &Silent).unwrap();
            set.build(&krk, &Silent).unwrap();
            set
        };
        let mut set = held_set();
        let bytes_of = |set: &TableSet, m: &str| table_bytes(set.get(&parse(m)).unwrap().indexer());
        let used = bytes_of(&set, "KQ.K") + bytes_of(&set, "K.K");
        let unused = bytes_of(&set, "KR.K");
        assert_eq!(set.bytes(), used + unused);
        // The held tables are not counted again.
        let need = set.bytes_needed(&kqkr);
        let fresh = TableSet::new(PieceSet::standard(), Metric::Dtm).bytes_needed(&kqkr);
        assert_eq!(need + used, fresh);
        // Room enough beside them all: nothing is dropped.
        set.set_budget(used + unused + need);
        set.build(&kqkr, &Silent).unwrap();
        assert!(set.get(&krk).is_some());
        // Room enough once KR.K is dropped: it is.
        let mut set = held_set();
        set.set_budget(used + need);
        set.build(&kqkr, &Silent).unwrap();
        assert!(set.get(&krk).is_none() && set.get(&kqk).is_some());
        // Not enough even so: refused, naming what KQ.KR needs (the held tables it uses
        // included), and nothing is dropped.
        let mut set = held_set();
        set.set_budget(used + need - 1);
        assert_eq!(
            set.build(&kqkr, &Silent),
            Err(BuildError::OverBudget {
                endgame: "KQ.KR".to_string(),
                need: used + need,
                budget: used + need - 1
            })
        );
        assert_eq!(set.bytes(), used + unused);
    }

    #[test]
    fn kqk_and_krk_maxima_and_counts() {
        let mut set = TableSet::new(PieceSet::standard(), Metric::Dtm);
        let kq = Material::parse("KQ.K", set.pieces()).unwrap();
        set.build(&kq, &Silent).unwrap();
        let s = table_stats(set.get(&kq).unwrap(), set.geometry());
        assert_eq!(s.wtm.longest_win, 10);
        assert_eq!(s.btm.drawn, 23_048);
        let kr = Material::parse("KR.K", set.pieces()).unwrap();
        set.build(&kr, &Silent).unwrap();
        assert_eq!(
            table_stats(set.get(&kr).unwrap(), set.geometry())
                .wtm
                .longest_win,
            16
        );
    }

    #[test]
    fn a_cancelled_build_keeps_only_complete_tables() {
        use crate::egt::progress::{BuildEvent, Phase};
        use std::sync::atomic::Ordering::Relaxed;
        let pieces = PieceSet::standard();
        let kqkr = Material::parse("KQ.KR", &pieces).unwrap();
        let kqk = Material::parse("KQ.K", &pieces).unwrap();
        let mut set = TableSet::new(pieces.clone(), Metric::Dtm);
        // Cancelled in the middle of KQ.KR's iterations, after its sub-tables are complete.
        let cancel = AtomicBool::new(false);
        let raise = |e: &BuildEvent| {
            if e.table == "KQ.KR" && e.phase == Phase::Iteration(3) {
                cancel.store(true, Relaxed);
            }
        };
        assert_eq!(
            set.build_cancellable(&kqkr, &raise, &cancel),
            Err(BuildError::Cancelled)
        );
        assert!(set.get(&kqkr).is_none(), "a half-built table is in the set");
        assert!(set.get(&kqk).is_some(), "a complete sub-table was dropped");
        // Cancelled before it starts: nothing new.
        let kr = Material::parse("KR.K", &pieces).unwrap();
        let raised = AtomicBool::new(true);
        assert_eq!(
            set.build_cancellable(&kr, &Silent, &raised),
            Err(BuildError::Cancelled)
        );
        assert!(set.get(&kr).is_none());
        // Built again, the table equals one built without interruption.
        set.build(&kqkr, &Silent).unwrap();
        let mut fresh = TableSet::new(pieces, Metric::Dtm);
        fresh.build(&kqkr, &Silent).unwrap();
        let stats = |s: &TableSet| table_stats(s.get(&kqkr).unwrap(), s.geometry());
        assert_eq!(stats(&set), stats(&fresh));
    }

    #[test]
    fn the_progress_of_a_real_build_goes_up_to_one_with_a_time_left() {
        use crate::egt::progress::{time_left, BuildEvent, Phase};
        use std::sync::Mutex;
        let mut set = TableSet::new(PieceSet::standard(), Metric::Dtm);
        let kqkr = Material::parse("KQ.KR", set.pieces()).unwrap();
        let events = Mutex::new(Vec::new());
        let collect = |e: &BuildEvent| events.lock().unwrap().push(e.clone());
        set.build(&kqkr, &collect).unwrap();
        let events = events.into_inner().unwrap();
        let fractions: Vec<f64> = events.iter().map(|e| e.fraction).collect();
        assert!(
            fractions.windows(2).all(|w| w[0] <= w[1]),
            "went back: {fractions:?}"
        );
        let last = events.last().unwrap();
        assert_eq!(
            (last.table.as_str(), last.phase, last.fraction),
            ("KQ.KR", Phase::Done, 1.0)
        );
        // Weighted by size, the three-man tables are a sliver of KQ.KR's build.
        let small = events.iter().rev().find(|e| e.table != "KQ.KR").unwrap();
        assert!(small.fraction < 0.05, "{small}");
        // The captures pass and the iterations each take a real share.
        let captured = (events.iter())
            .find(|e| e.table == "KQ.KR" && e.phase == Phase::Iteration(1))
            .unwrap();
        assert!((0.1..0.3).contains(&captured.fraction), "{captured}");
        assert!(events
            .iter()
            .all(|e| e.remaining == time_left(e.fraction, e.elapsed)));
    }

    #[test]
    fn an_illegal_byte_for_a_legal_position_is_an_internal_error() {
        let mut set = TableSet::new(PieceSet::standard(), Metric::Dtm);
        let kq = Material::parse("KQ.K", set.pieces()).unwrap();
        set.build(&kq, &Silent).unwrap();
        let fen = "k7/8/1K6/8/8/8/2Q5/8 w - - 0 1";
        let setup = Setup::from_fen(fen, BoardSize::STANDARD).unwrap();
        let pos = crate::board::Position::new(&setup, set.geometry(), kq.royals()).unwrap();
        assert_eq!(set.probe(&pos), Ok(Value::Win(1)));
        let (_, sq) = material_of(&pos);
        let table = set.get(&kq).unwrap();
        let index = table.indexer().index(&sq).unwrap();
        table.data[pos.side_to_move().index()][index as usize].store(ILLEGAL, Ordering::Relaxed);
        let e = set.probe(&pos).unwrap_err();
        assert_eq!(
            e,
            ProbeError::NoValue {
                material: "KQ.K".to_string(),
                fen: fen.to_string()
            }
        );
        assert!(e
            .to_string()
            .starts_with("internal error: the table of KQ.K"));
    }
}
