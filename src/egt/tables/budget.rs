//! What a build needs in memory, reckoned before it allocates, and making room for it under
//! the budget (see docs/ARCHITECTURE.md, "Memory budget").

use super::build::Room;
use super::TableSet;
use crate::egt::builder::{list_bytes, no_escape_words, BuildError};
use crate::egt::index::Indexer;
use crate::egt::material::Material;
use crate::egt::table::{colour_blind, Table};

/// An allowance for a build's small structures, whatever the table's size: the men's move
/// lists, the list of sub-tables, the rayon jobs' state (a few kilobytes, measured).
const BOOKKEEPING_BYTES: u64 = 64 << 10;

/// Bytes of a builder bitmap of `bits` bits (`builder/bitmap.rs`): a word per 64 bits, and a
/// summary bit per group of 64 words.
fn bitmap_bytes(bits: u64) -> u64 {
    let words = bits.div_ceil(64);
    8 * (words + words.div_ceil(64).div_ceil(64))
}

/// Bytes a table of this index takes holding `sides` sides to move (2, or 1 when stored
/// once): a byte per slot and side, rounded up to whole blocks as the builder allocates them,
/// and the index's own lookup tables.
fn table_bytes(index: &Indexer, sides: u64) -> u64 {
    sides * index.padded_size() + index.heap_bytes()
}

/// Bytes a built table takes: its bytes and index, and its list of distances beyond a byte.
pub(super) fn held_bytes(table: &Table) -> u64 {
    table_bytes(table.indexer(), table.sides_held()) + table.far_bytes()
}

/// Bytes the builder allocates for a layer of `slots` slots, besides the table itself, while
/// it builds it (they are freed before the next table), working on `sides` sides to move (2,
/// or 1 for a build from White's side alone): the positions no move escapes into, a bit per
/// slot and side worked on (a step's candidates are parked there, or, in a loss step from one
/// side, in the table); the blocks (of `block_len` slots) holding candidates, a bit per
/// block; the frontiers, won and lost (two distances of those) for each side, and the open
/// blocks of each side worked on, those marked escaped and those a win may still improve, a
/// bit per block each; the smallest pending byte of each block and the longest loss its
/// exits give, for each side worked on; the list of candidate groups a step checks (64 × 64
/// blocks each); with seeds, a bitmap of the fixed positions per side; from one side, the
/// lists of slots of its two frontiers of losses (`builder/slot_list.rs`); and the
/// bookkeeping.
fn builder_bytes(slots: u64, block_len: usize, seeded: bool, sides: u64) -> u64 {
    let blocks = slots.div_ceil(block_len as u64);
    let candidates = bitmap_bytes(blocks);
    let no_escape =
        sides * no_escape_bytes(blocks, block_len) + (2 - sides) * no_escape_bytes(0, block_len);
    let frontiers = 6 * bitmap_bytes(blocks);
    let open = 3 * sides * bitmap_bytes(blocks);
    let pending = sides * blocks + 2 * 256 * 8;
    let exit_bounds = sides * blocks;
    let groups = 8 * blocks.div_ceil(64).div_ceil(64);
    let seeds = if seeded { 2 * bitmap_bytes(slots) } else { 0 };
    let lists = match sides {
        1 => 2 * list_bytes(blocks, rayon::current_num_threads() as u64),
        _ => 0,
    };
    let sets = candidates + no_escape + frontiers + open;
    sets + pending + exit_bounds + groups + seeds + lists + BOOKKEEPING_BYTES
}

/// Bytes of the first pass's tiles of exits in a build that tells a pair of twins apart
/// (`Indexer::block_twin`), one per thread (`builder/block_setup.rs`, `TwinTile`): per side,
/// 4 bytes a slot of a block for each of the block man's squares, and a set of the block's
/// slots (at most 32 bytes) for each.
fn twin_tile_bytes(block_len: usize) -> u64 {
    let len = block_len as u64;
    let threads = rayon::current_num_threads() as u64;
    threads * 2 * (4 * len * len + 32 * len)
}

/// Bytes a build in the layout `apart` that tells identical men apart
/// (`Recipe::twins_apart`) allocates besides its table of `own` bytes (`sides` sides to
/// move): the builder's structures for that layout, the bytes the layout adds to the table
/// until it is packed back, and the first pass's tiles where it tells a pair apart.
fn told_apart_builder_bytes(apart: &Indexer, own: u64, sides: u64) -> u64 {
    let builder = builder_bytes(largest_layer(apart), apart.block_len(), false, sides);
    let more = table_bytes(apart, sides).saturating_sub(own);
    let tiles = apart
        .block_twin()
        .map_or(0, |_| twin_tile_bytes(apart.block_len()));
    builder + more + tiles
}

/// Bytes of a no-escape set of `blocks` blocks of `len` slots (`builder/no_escape.rs`).
fn no_escape_bytes(blocks: u64, len: usize) -> u64 {
    let (heads, tails) = no_escape_words(blocks, len);
    8 * (heads + tails)
}

/// Slots of the largest layer of a table (the whole table without pawns): the builder's
/// sets hold one layer at a time.
fn largest_layer(index: &Indexer) -> u64 {
    (index.layers().iter())
        .map(|l| l.end - l.start)
        .max()
        .unwrap_or(0)
}

/// The tables a build makes, in dependency order, with what it keeps and what each reads:
/// when it drops tables as it goes, a table is dropped once none it still builds reads it.
pub(super) struct Chain {
    /// The tables to build (or load), in order.
    pub(super) todo: Vec<Material>,
    /// The tables kept at the end: the endgame and those its moves lead into.
    keep: Vec<Material>,
    /// The tables each of `todo` reads (`Material::exits`).
    reads: Vec<Vec<Material>>,
    /// Per table of `todo`, where it is read from when it is no build of its own: the
    /// table of its colour-swapped material (see [`TableSet::mirror_source`]).
    pub(super) mirrors: Vec<Option<Mirrored>>,
}

/// The colour-swapped table a table of a chain is read from ([`Table::mirrored`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Mirrored {
    /// A table held before the build.
    Held,
    /// The table at this place in the chain, built (or loaded) before.
    InChain(usize),
}

impl Chain {
    /// Whether `todo[m]` is kept at the end.
    fn keeps(&self, m: usize) -> bool {
        self.keep.contains(&self.todo[m])
    }

    /// Whether `todo[m]` is still needed while `todo[from]` and those after it are built:
    /// it is kept, one of them reads it, or a table still needed is read from it.
    pub(super) fn live(&self, m: usize, from: usize) -> bool {
        self.keeps(m)
            || self.reads[from..].iter().any(|r| r.contains(&self.todo[m]))
            || (self.mirrors.iter().enumerate())
                .any(|(v, at)| *at == Some(Mirrored::InChain(m)) && self.live(v, from))
    }
}

impl TableSet {
    /// Bytes a build of `material` adds to the memory in use at its peak: the tables of it
    /// and of every smaller endgame not built yet (both sides to move, or White's alone for a
    /// table stored once, each rounded up to whole blocks as the builder allocates them, and
    /// its index), plus the largest of their builds'
    /// transient structures (candidate bitmaps, frontiers, pending values, seeds); with a DTZ
    /// twin ([`TableSet::with_rule_play`]), its tables too, the transient structures being
    /// those of the larger of the two builds. The tables already held come on top.
    pub fn bytes_needed(&self, material: &Material) -> u64 {
        self.need(material, false)
    }

    /// [`TableSet::bytes_needed`], or with `apart` [`TableSet::bytes_needed_twins_apart`].
    fn need(&self, material: &Material, apart: bool) -> u64 {
        let (tables, builder) = self.own_need(material, apart);
        let (twin_tables, twin_builder) =
            (self.rule_twin.as_ref()).map_or((0, 0), |twin| twin.own_need(material, apart));
        tables + twin_tables + builder.max(twin_builder)
    }

    /// The set's own part of [`TableSet::bytes_needed`], its twin's aside: the tables it
    /// builds, and the largest transient structures of one of those builds.
    fn own_need(&self, material: &Material, apart: bool) -> (u64, u64) {
        let sizes = self.sizes(&self.chain(material), apart);
        (sizes.into_iter()).fold((0, 0), |(tables, builder), (t, b)| {
            (tables + t, builder.max(b))
        })
    }

    /// [`TableSet::bytes_needed`] of a build that tells identical men apart where it can (a
    /// table whose non-royal men all come in groups of identical men, built with the last man
    /// of its last group apart and packed back): the same tables, and for such a table, its
    /// transient structures those of the larger layout, with the bytes that layout adds to
    /// the table.
    /// A build is made so, faster, when this fits in the budget beside every table held.
    pub fn bytes_needed_twins_apart(&self, material: &Material) -> u64 {
        self.need(material, true)
    }

    /// For each table of `chain`, the bytes of its table and of its build's transient
    /// structures: a table stored once is built with White's side alone, a table read from
    /// its colour-swapped material's has its index alone, and with `apart`, a table of
    /// identical men alone is built with one of them told apart (`Recipe::twins_apart`).
    fn sizes(&self, chain: &Chain, apart: bool) -> Vec<(u64, u64)> {
        let seeded = |m: &Material| self.seeds.as_ref().is_some_and(|(s, _)| s == m);
        (chain.todo.iter().zip(&chain.mirrors))
            .map(|(m, mirrored)| {
                let index = Indexer::new(m, &self.geometry, self.fold);
                if mirrored.is_some() {
                    return (index.heap_bytes(), 0);
                }
                let sides = if self.stores_once(m) { 1 } else { 2 };
                let own = table_bytes(&index, sides);
                if let Some(apart) = apart.then(|| self.told_apart(m)).flatten() {
                    return (own, told_apart_builder_bytes(&apart, own, sides));
                }
                let layer = largest_layer(&index);
                let builder = builder_bytes(layer, index.block_len(), seeded(m), sides);
                (own, builder)
            })
            .collect()
    }

    /// The bytes `budget` leaves beside a build of `material`'s table, made next, with a pair
    /// of identical men told apart (`Recipe::twins_apart`) though its whole build was not
    /// reckoned so: the most its lists of long distances may take. `None` when it has no
    /// such pair, or when its table and the larger layout's transient structures do not fit
    /// beside the tables held now and the bytes `outside` this set holds (a DTZ twin's
    /// owner's tables). Those structures are freed before the next table, which its own
    /// reckoning left room for, so a table of a chain too large to tell every pair apart
    /// (KRR.KP in KPP.KP's) is built so when it fits then.
    pub(super) fn room_told_apart(
        &self,
        material: &Material,
        budget: u64,
        outside: u64,
    ) -> Option<u64> {
        let apart = self.told_apart(material)?;
        // A table told apart is never stored once (`told_apart`): both sides are built.
        let own = table_bytes(&Indexer::new(material, &self.geometry, self.fold), 2);
        let builder = told_apart_builder_bytes(&apart, own, 2);
        let need = (outside.saturating_add(self.bytes())).saturating_add(own + builder);
        budget.checked_sub(need)
    }

    /// The layout `material`'s table is built in where its build tells identical men apart
    /// (`Recipe::twins_apart`): none for a table stored once (whose colour swap maps the
    /// sides' men onto each other), a seeded one, or one with a lone non-royal man.
    fn told_apart(&self, material: &Material) -> Option<Indexer> {
        let seeded = self.seeds.as_ref().is_some_and(|(s, _)| s == material);
        (!self.stores_once(material) && !seeded)
            .then(|| Indexer::twins_apart(material, &self.geometry, self.fold))
            .flatten()
    }

    /// Whether a build of `material` has a table to build with identical men told apart.
    fn has_twins_to_tell_apart(&self, material: &Material) -> bool {
        let chain = self.chain(material);
        (chain.todo.iter().zip(&chain.mirrors))
            .any(|(m, mirrored)| mirrored.is_none() && self.told_apart(m).is_some())
    }

    /// Bytes of the held tables a build of `material` uses (its twin's included).
    fn used_bytes(&self, material: &Material) -> u64 {
        let uses = self.used_by(material);
        let own: u64 = (self.tables.iter())
            .filter(|(m, _)| uses(m))
            .map(|(_, t)| held_bytes(t))
            .sum();
        own + self
            .rule_twin
            .as_ref()
            .map_or(0, |t| t.used_bytes(material))
    }

    /// Bytes a build of `material` adds to the memory in use at its peak when it drops, as it
    /// goes, every table it built that no later table of the build reads, keeping only
    /// `material`'s and those its moves lead into (which probing its moves needs): at each
    /// table, the tables still to be read, the table, and its builder's transient structures.
    /// With a DTZ twin, the twin's build comes after the set's own, beside what that keeps.
    /// A chain of pawn tables (KPP.KP) holds far less this way than all its tables at once
    /// ([`TableSet::bytes_needed`]).
    pub fn bytes_needed_dropping(&self, material: &Material) -> u64 {
        let (peak, kept) = self.own_need_dropping(material);
        match &self.rule_twin {
            Some(twin) => peak.max(kept + twin.own_need_dropping(material).0),
            None => peak,
        }
    }

    /// The set's own part of [`TableSet::bytes_needed_dropping`]: the peak, and the bytes of
    /// the tables kept at the end.
    fn own_need_dropping(&self, material: &Material) -> (u64, u64) {
        let chain = self.chain(material);
        let sizes = self.sizes(&chain, false);
        let peak = (0..sizes.len())
            .map(|i| {
                let held: u64 = (0..i)
                    .filter(|&m| chain.live(m, i))
                    .map(|m| sizes[m].0)
                    .sum();
                held + sizes[i].0 + sizes[i].1
            })
            .max()
            .unwrap_or(0);
        let kept = (0..sizes.len())
            .filter(|&m| chain.keeps(m))
            .map(|m| sizes[m].0)
            .sum();
        (peak, kept)
    }

    /// The tables a build of `material` makes, in order, and which of them it still needs at
    /// each step when it drops tables as it goes.
    pub(super) fn chain(&self, material: &Material) -> Chain {
        let todo = self.missing(material);
        let reads = todo.iter().map(|m| self.exits(m)).collect();
        let mut mirrors = Vec::with_capacity(todo.len());
        for m in &todo {
            let source = self.mirror_source(m, material, &todo, &mirrors);
            mirrors.push(source);
        }
        Chain {
            keep: self.kept_when_dropping(material),
            reads,
            todo,
            mirrors,
        }
    }

    /// Where a build of `requested` reads `m`'s table from, `m` being a table of its chain
    /// `todo` and `mirrors` what the tables before it are read from: `None` when it is built
    /// (or loaded), or the table of its colour-swapped material (`KNN.KN` for `KN.KNN`)
    /// when that is held or built before it and is itself built, and nothing but the men
    /// tells the colours apart ([`colour_blind`]). The requested table is always built.
    fn mirror_source(
        &self,
        m: &Material,
        requested: &Material,
        todo: &[Material],
        mirrors: &[Option<Mirrored>],
    ) -> Option<Mirrored> {
        let swapped = m.colour_swapped();
        if m == requested || swapped == *m || !colour_blind(&self.rules, self.seeds.is_some()) {
            return None;
        }
        if let Some(t) = self.tables.get(&swapped) {
            return t.mirror_of().is_none().then_some(Mirrored::Held);
        }
        let at = todo[..mirrors.len()].iter().position(|t| *t == swapped)?;
        mirrors[at].is_none().then_some(Mirrored::InChain(at))
    }

    /// The tables a build of `material` that drops tables as it goes keeps: `material`'s and
    /// those one of its moves leads into.
    pub(super) fn kept_when_dropping(&self, material: &Material) -> Vec<Material> {
        let mut keep = self.exits(material);
        keep.push(material.clone());
        keep
    }

    /// Makes room for a build of `material` under the budget. With `apart`, a build that
    /// tells identical men apart ([`TableSet::bytes_needed_twins_apart`]) is made when it fits
    /// beside every table held. Otherwise: when its need
    /// ([`TableSet::bytes_needed`]) does not fit beside the tables held, the held tables it
    /// does not use are dropped (the twin's too). When it does not fit even so, but a build
    /// that drops its tables as it goes does ([`TableSet::bytes_needed_dropping`]), that is
    /// the build made. If neither fits, it is refused with [`BuildError::OverBudget`] naming
    /// the least need, and nothing is dropped.
    /// Returns the build's room: what the budget leaves for its lists of distances beyond a
    /// byte, which no one can reckon before the build, and how it builds.
    pub(super) fn make_room(
        &mut self,
        material: &Material,
        apart: bool,
    ) -> Result<Room, BuildError> {
        let used = self.used_bytes(material);
        // Faster where it tells identical men apart, in more memory: only when that fits
        // beside every table held. A chain whose twins' tables are small beside its largest
        // (KRR.K in KRP.KR's) may need no more memory so than in their own layouts.
        if apart && self.has_twins_to_tell_apart(material) {
            let need = self.bytes_needed_twins_apart(material);
            if self.bytes().saturating_add(need) <= self.budget {
                return Ok(Room {
                    far: self.budget.saturating_sub(used.saturating_add(need)),
                    dropping: false,
                    twins_apart: true,
                });
            }
        }
        let ways = [false, true];
        let needs = ways.map(|dropping| match dropping {
            false => self.bytes_needed(material),
            true => self.bytes_needed_dropping(material),
        });
        let fits = |need: u64| used.saturating_add(need) <= self.budget;
        let Some(k) = (0..ways.len()).find(|&k| fits(needs[k])) else {
            return Err(BuildError::OverBudget {
                endgame: material.name(),
                need: used.saturating_add(needs[ways.len() - 1]),
                budget: self.budget,
            });
        };
        let (dropping, need) = (ways[k], needs[k]);
        if dropping || self.bytes().saturating_add(need) > self.budget {
            self.drop_unused(material);
        }
        Ok(Room {
            far: self.budget.saturating_sub(used.saturating_add(need)),
            dropping,
            twins_apart: false,
        })
    }

    /// Drops the held tables a build of `material` does not use, the twin's too.
    fn drop_unused(&mut self, material: &Material) {
        let uses = self.used_by(material);
        self.tables.retain(|m, _| uses(m));
        self.forget_dropped();
        if let Some(twin) = &mut self.rule_twin {
            twin.drop_unused(material);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::egt::progress::Silent;
    use crate::egt::table::Metric;
    use crate::piece::PieceSet;
    use std::sync::atomic::{AtomicU8, Ordering::Relaxed};
    use std::time::Instant;

    /// Told apart, a table lists its distances beyond a byte twice: where they outgrow the
    /// room the budget leaves that build, the table is built in its own layout, in the room
    /// that leaves, the tables finished before it kept.
    #[test]
    fn twins_whose_long_distances_outgrow_their_room_are_built_in_their_own_layout() {
        use crate::egt::builder::{build_table, Recipe};
        use std::sync::atomic::AtomicBool;
        // KBB.K mates in up to 19 moves: bytes hold 17, the rest are listed.
        let make = || TableSet::new(PieceSet::standard(), Metric::Dtm).with_direct_distances(17);
        let mut whole = make();
        let kbbk = Material::parse("KBB.K", whole.pieces()).unwrap();
        whole.build(&kbbk, &Silent).unwrap();
        let reference = whole.get(&kbbk).unwrap();
        let far = reference.far_bytes();
        let mut tight = make();
        let apart = tight.bytes_needed_twins_apart(&kbbk);
        let own = tight.bytes_needed(&kbbk);
        assert!(far > 0 && 3 * far < apart - own, "{far} bytes listed");
        // One byte of room for the lists told apart: too little.
        tight.set_budget(apart + 1);
        let cancel = AtomicBool::new(false);
        let recipe = Recipe {
            twins_apart: true,
            ..whole.recipe(&kbbk, 1, &cancel)
        };
        let subs = |m: &Material| whole.get(m);
        let refused = build_table(&kbbk, &recipe, &subs, &|_, _| {});
        assert!(matches!(refused, Err(BuildError::OverBudget { .. })));
        tight.build(&kbbk, &Silent).unwrap();
        assert_same_table(tight.get(&kbbk).unwrap(), reference, "KBB.K");
    }

    /// Asserts that two tables hold the same bytes and lists of long distances.
    fn assert_same_table(a: &Table, b: &Table, what: &str) {
        assert_eq!(a.far, b.far, "{what}");
        for (x, y) in a.data.iter().zip(&b.data) {
            let same = |(p, q): (&AtomicU8, &AtomicU8)| p.load(Relaxed) == q.load(Relaxed);
            assert!(x.iter().zip(y).all(same), "{what}");
        }
    }

    /// A chain tells its twins apart wherever that fits, also when its largest table has
    /// none and the twins' tables, told apart, need no more than it does (KRR.K in KRR.KR's
    /// chain); a chain without twins has nothing to tell apart.
    #[test]
    fn a_chain_tells_small_twins_apart() {
        let mut set = TableSet::new(PieceSet::standard(), Metric::Dtm);
        let parse = |name| Material::parse(name, set.pieces()).unwrap();
        let (krrkr, kbnkn) = (parse("KRR.KR"), parse("KBN.KN"));
        assert_eq!(
            set.bytes_needed_twins_apart(&krrkr),
            set.bytes_needed(&krrkr)
        );
        assert!(set.make_room(&krrkr, true).unwrap().twins_apart);
        assert!(!set.make_room(&kbnkn, true).unwrap().twins_apart);
        assert!(!set.make_room(&krrkr, false).unwrap().twins_apart);
    }

    /// In a chain whose twins cannot all be told apart beside its other tables (KRR.KP's on
    /// 6×6, whose last table is the largest), each table of twins is told apart as it comes
    /// when its larger layout fits beside the tables held then: KRR.K's does, KRR.KP's own
    /// does not, and the chain built so is the one built in any room.
    #[test]
    fn twins_are_told_apart_table_by_table_where_the_chain_cannot_be() {
        let board: crate::board::BoardSize = "6x6".parse().unwrap();
        let make = || TableSet::new(PieceSet::standard(), Metric::Dtm).on_board(board);
        let mut tight = make();
        let parse = |name| Material::parse(name, tight.pieces()).unwrap();
        let (krrkp, krrk, kbnkp) = (parse("KRR.KP"), parse("KRR.K"), parse("KBN.KP"));
        let need = tight.bytes_needed(&krrkp);
        let budget = need + (tight.bytes_needed_twins_apart(&krrkp) - need) / 2;
        tight.set_budget(budget);
        assert!(!tight.make_room(&krrkp, true).unwrap().twins_apart);
        let left = tight.room_told_apart(&krrk, budget, 0).unwrap();
        // Beside that many bytes held outside the set, nothing is left; beside one more, no room.
        assert_eq!(tight.room_told_apart(&krrk, budget, left), Some(0));
        assert_eq!(tight.room_told_apart(&krrk, budget, left + 1), None);
        assert_eq!(tight.room_told_apart(&kbnkp, u64::MAX, 0), None);
        let mut roomy = make();
        roomy.build(&krrkp, &Silent).unwrap();
        // KRR.KP comes last, beside the tables of its chain.
        let before = roomy.bytes() - held_bytes(roomy.get(&krrkp).unwrap());
        assert!(tight.room_told_apart(&krrkp, budget, 0).is_some());
        assert_eq!(tight.room_told_apart(&krrkp, budget, before), None);
        tight.build(&krrkp, &Silent).unwrap();
        for m in [&krrk, &krrkp] {
            assert_same_table(tight.get(m).unwrap(), roomy.get(m).unwrap(), &m.name());
        }
    }

    #[test]
    fn a_build_over_the_budget_is_refused_before_it_allocates() {
        let mut set = TableSet::new(PieceSet::standard(), Metric::Dtm);
        let kbnkn = Material::parse("KBN.KN", set.pieces()).unwrap();
        // The least it needs: dropping the small tables no later one reads.
        let need = set.bytes_needed_dropping(&kbnkn);
        assert!(need < set.bytes_needed(&kbnkn));
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
        assert!(ix.has_blocks());
        assert_eq!((ix.symmetry(), ix.pair_count()), (4, 1446));
        assert_eq!(ix.size(), 1446 * 80 * 80);
        assert_eq!(need, set.bytes() + builder_bytes(ix.size(), 80, false, 2));
    }

    /// A pawn chain too big to hold whole is built by dropping each table once no later
    /// table reads it (or one read from it: a colour-swapped table such as K.KP, read from
    /// KP.K's): K+P against K+P fits in a budget below holding its 13 tables, and ends
    /// holding only itself and the tables its moves lead into; its table equals one built
    /// holding everything, and its moves can all be probed.
    #[test]
    fn a_chain_over_the_budget_drops_the_tables_no_later_table_reads() {
        use crate::board::{Position, Setup};
        use crate::egt::stats::table_stats;
        let pieces = crate::egt::material::pieces_with_pawn();
        let kpkp = Material::parse("KP.KP", &pieces).unwrap();
        let mut whole = TableSet::new(pieces.clone(), Metric::Dtm);
        let (need, lean) = (
            whole.bytes_needed(&kpkp),
            whole.bytes_needed_dropping(&kpkp),
        );
        assert!(lean < need * 7 / 8, "{lean} of {need}");
        whole.build(&kpkp, &Silent).unwrap();
        let mut lean_set = TableSet::new(pieces, Metric::Dtm);
        lean_set.set_budget(lean);
        lean_set.build(&kpkp, &Silent).unwrap();
        let mut held: Vec<String> = lean_set.tables.keys().map(Material::name).collect();
        held.sort();
        let mut kept: Vec<String> = (lean_set.kept_when_dropping(&kpkp).iter())
            .map(Material::name)
            .collect();
        kept.sort();
        assert_eq!(held, kept);
        assert!(whole.tables.len() > held.len(), "{held:?}");
        let stats = |s: &TableSet| table_stats(s.get(&kpkp).unwrap(), s.geometry());
        assert_eq!(stats(&lean_set), stats(&whole));
        let fen = "8/8/3k4/3p4/8/2KP4/8/8 w - - 0 1";
        let setup = Setup::from_fen(fen, lean_set.geometry().board()).unwrap();
        let pos = Position::new(&setup, lean_set.geometry(), kpkp.royals()).unwrap();
        assert_eq!(lean_set.scored_moves(&pos), whole.scored_moves(&pos));
        // One byte less: refused, naming the lean need.
        let mut short = TableSet::new(crate::egt::material::pieces_with_pawn(), Metric::Dtm);
        short.set_budget(lean - 1);
        assert_eq!(
            short.build(&kpkp, &Silent),
            Err(BuildError::OverBudget {
                endgame: "KP.KP".to_string(),
                need: lean,
                budget: lean - 1
            })
        );
    }

    #[test]
    fn a_build_drops_unused_tables_to_fit_and_only_then() {
        fn parse(spec: &str) -> Material {
            Material::parse(spec, &PieceSet::standard()).unwrap()
        }
        let (kqk, knk, kqkr) = (parse("KQ.K"), parse("KN.K"), parse("KQ.KR"));
        // KQ.K, KN.K and K.K held; KQ.KR uses KQ.K and K.K, not KN.K.
        let held_set = || {
            let mut set = TableSet::new(PieceSet::standard(), Metric::Dtm);
            set.build(&kqk, &Silent).unwrap();
            set.build(&knk, &Silent).unwrap();
            set
        };
        let mut set = held_set();
        let bytes_of = |set: &TableSet, m: &str| held_bytes(set.get(&parse(m)).unwrap());
        let used = bytes_of(&set, "KQ.K") + bytes_of(&set, "K.K");
        let unused = bytes_of(&set, "KN.K");
        assert_eq!(set.bytes(), used + unused);
        // The held tables are not counted again.
        let need = set.bytes_needed(&kqkr);
        let fresh = TableSet::new(PieceSet::standard(), Metric::Dtm).bytes_needed(&kqkr);
        assert_eq!(need + used, fresh);
        // Room enough beside them all: nothing is dropped.
        set.set_budget(used + unused + need);
        set.build(&kqkr, &Silent).unwrap();
        assert!(set.get(&knk).is_some());
        // Room enough once KN.K is dropped: it is.
        let mut set = held_set();
        set.set_budget(used + need);
        set.build(&kqkr, &Silent).unwrap();
        assert!(set.get(&knk).is_none() && set.get(&kqk).is_some());
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

    /// A table whose colour-swapped material's is held is read from it, not built: beside
    /// KR.K, a build of KQ.KR reads K.KR from it, needs less by K.KR's bytes, keeps KR.K when
    /// it drops the tables it does not use (KN.K) to fit, and K.KR's positions have the
    /// values a set that built it gives them.
    #[test]
    fn a_held_table_is_read_for_its_colour_swapped_material_and_kept() {
        use crate::board::Color;
        fn parse(spec: &str) -> Material {
            Material::parse(spec, &PieceSet::standard()).unwrap()
        }
        let (krk, kkr, knk, kqkr) = (parse("KR.K"), parse("K.KR"), parse("KN.K"), parse("KQ.KR"));
        let mut set = TableSet::new(PieceSet::standard(), Metric::Dtm);
        set.build(&krk, &Silent).unwrap();
        set.build(&knk, &Silent).unwrap();
        let mut fresh = TableSet::new(PieceSet::standard(), Metric::Dtm);
        let bytes_of = |set: &TableSet, m: &Material| held_bytes(set.get(m).unwrap());
        let (held_krk, held_kk) = (bytes_of(&set, &krk), bytes_of(&set, &parse("K.K")));
        let need = set.bytes_needed(&kqkr);
        let index_bytes = Indexer::new(&kkr, set.geometry(), true).heap_bytes();
        assert_eq!(
            need + held_kk + (held_krk - index_bytes),
            fresh.bytes_needed(&kqkr)
        );
        // Room for KR.K, K.K and the build, not for KN.K: KN.K goes, KR.K stays.
        set.set_budget(held_krk + held_kk + need);
        set.build(&kqkr, &Silent).unwrap();
        assert!(set.get(&knk).is_none());
        let kept = set.shared(&krk).unwrap();
        let read = set.get(&kkr).unwrap();
        assert!(read
            .mirror_of()
            .is_some_and(|of| std::sync::Arc::ptr_eq(of, &kept)));
        fresh.build(&kqkr, &Silent).unwrap();
        let built = fresh.get(&kkr).unwrap();
        assert!(built.mirror_of().is_none());
        for i in 0..built.indexer().size() {
            for c in Color::BOTH {
                assert_eq!(read.value_at(i, c), built.value_at(i, c), "slot {i}");
            }
        }
        assert_eq!(held_bytes(read), index_bytes);
    }
}
