//! The set of tables of one piece set, board, metric and rules: a requested endgame and every
//! smaller one reachable by captures, built on request under a memory budget, loaded from and
//! saved to a table directory, and probed with checked positions.
//!
//! `TableSet` is the front door; its work is done in rooms named for what they do:
//!
//! | room | what it does |
//! |---|---|
//! | this module | the settings the tables are built under, and the tables held |
//! | `budget` | the bytes a build needs, and making room for it under the budget |
//! | `build` | the order of the sub-tables, their builds, and the build's progress |
//! | `directory` | the table directory: loading saved tables, saving built ones |
//! | `probing` | a position's value, its moves with theirs, the best move |
//!
//! ```
//! use fairy_egt::board::{Position, Setup};
//! use fairy_egt::egt::material::Material;
//! use fairy_egt::egt::progress::Silent;
//! use fairy_egt::egt::table::Metric;
//! use fairy_egt::egt::tables::TableSet;
//! use fairy_egt::egt::value::Value;
//! use fairy_egt::piece::PieceSet;
//!
//! // Build K+Q against K (and the bare kings it captures into), mate distances.
//! let mut tables = TableSet::new(PieceSet::standard(), Metric::Dtm);
//! let kqk = Material::parse("KQ.K", tables.pieces())?;
//! tables.build(&kqk, &Silent)?;
//!
//! // Probe a position: White to move mates in one (Qc2-c8).
//! let setup = Setup::from_fen("k7/8/1K6/8/8/8/2Q5/8 w - - 0 1", tables.geometry().board())?;
//! let pos = Position::new(&setup, tables.geometry(), kqk.royals())?;
//! assert_eq!(tables.probe(&pos)?, Value::Win(1));
//! let best = tables.best_move(&pos)?.expect("a legal move");
//! assert_eq!((best.mv.text().as_str(), best.value), ("c2c8", Value::Win(1)));
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

mod budget;
mod build;
mod directory;
mod probing;

use crate::board::geometry::Geometry;
use crate::board::{BoardSize, PromotionError};
use crate::egt::dtz::Rule;
use crate::egt::material::{Material, MaterialMap};
use crate::egt::rules::Rules;
use crate::egt::seed::Seed;
use crate::egt::table::{stored_once, Metric, Table};
use crate::egt::table_file::TableKey;
use crate::egt::value::MAX_DIRECT;
use crate::piece::PieceSet;
use budget::{held_bytes, Mirrored};
use directory::TableDir;
use std::sync::Arc;

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
    tables: MaterialMap<Arc<Table>>,
    /// Most bytes the tables may take, those held and a build's together.
    budget: u64,
    /// The table directory, if any (boxed: the set travels in messages between threads).
    dir: Option<Box<TableDir>>,
    /// What the table directory did not do as asked (a saved table refused, a failed save),
    /// for the engine to show the user (see [`TableSet::take_notices`]).
    notices: Vec<String>,
    /// The DTZ tables built beside these for play within the 50-move rule, if asked for
    /// ([`TableSet::with_rule_play`]; boxed: a set of the same settings but the metric).
    rule_twin: Option<Box<TableSet>>,
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
            tables: MaterialMap::default(),
            budget: u64::MAX,
            dir: None,
            notices: Vec::new(),
            rule_twin: None,
        }
    }

    /// The same set (still empty, its other settings chosen), which builds every table twice:
    /// in its metric, and in DTZ under `rule`, so that the engine can play within the rule
    /// ([`TableSet::rule_tables`]). Nothing changes without a rule, for a DTZ set (it counts
    /// by its own rule), or with seeds (they fix values of the set's metric only).
    ///
    /// The two are built together: a build of an endgame makes both tables, under one
    /// budget. When both do not fit but the set's own table does, only that one is built,
    /// and a notice says so ([`TableSet::take_notices`]): the engine then plays that endgame
    /// by its metric alone.
    pub fn with_rule_play(mut self, rule: Rule) -> TableSet {
        assert!(
            self.tables.is_empty(),
            "the rule is chosen before any table is built"
        );
        let dtz = matches!(self.metric, Metric::Dtz(_));
        if rule.move_count() == 0 || dtz || self.seeds.is_some() {
            return self;
        }
        self.rule_twin = Some(Box::new(TableSet {
            geometry: self.geometry.clone(),
            metric: Metric::Dtz(rule),
            rules: self.rules,
            seeds: None,
            fold: self.fold,
            direct: self.direct,
            tables: MaterialMap::default(),
            budget: self.budget,
            dir: None,
            notices: Vec::new(),
            rule_twin: None,
        }));
        let dir = self.table_dir().map(|d| d.to_path_buf());
        self.set_table_dir(dir);
        self
    }

    /// The DTZ tables the engine plays within the rule by: the set itself if its metric is
    /// DTZ under a rule, the twin built beside it ([`TableSet::with_rule_play`]), or none.
    pub fn rule_tables(&self) -> Option<&TableSet> {
        match self.metric {
            Metric::Dtz(rule) if rule.move_count() > 0 => Some(self),
            _ => self.rule_twin.as_deref(),
        }
    }

    /// Whether a position of `material` can be probed with all its moves: its table and
    /// those its moves lead into are held (a build that dropped tables to fit its budget may
    /// have kept a table without its exits).
    pub fn playable(&self, material: &Material) -> bool {
        self.tables.contains_key(material)
            && (self.exits(material).iter()).all(|m| self.tables.contains_key(m))
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

    /// The same set (still empty), whose pawns promote to the pieces `letters` (either case,
    /// in order of preference, e.g. `QRBN`) instead of the board's default list; a letter the
    /// pieces do not define, the pawn, a letter given twice or no letter is refused.
    pub fn with_promotions(mut self, letters: &str) -> Result<TableSet, PromotionError> {
        assert!(
            self.tables.is_empty(),
            "the promotions are chosen before any table is built"
        );
        self.geometry = self.geometry.clone().with_promotions(letters)?;
        Ok(self)
    }

    /// Limits the memory of the builds from now on to `bytes` (see [`TableSet::build`]):
    /// the tables held, the DTZ twin's included, and a build's together. Without a budget
    /// there is no limit.
    pub fn set_budget(&mut self, bytes: u64) {
        self.budget = bytes;
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

    /// Whether `material`'s table is stored once under these settings ([`stored_once`]).
    fn stores_once(&self, material: &Material) -> bool {
        stored_once(material, &self.rules, !self.seeds_of(material).is_empty())
    }

    /// The seeds of `material`: those of the seeded endgame, none for the others.
    fn seeds_of(&self, material: &Material) -> &[Seed] {
        match &self.seeds {
            Some((seeded, seeds)) if seeded == material => seeds,
            _ => &[],
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

    /// Bytes the tables held take (every built table, the DTZ twin's included: both sides to
    /// move, its index and its distances beyond a byte).
    pub fn bytes(&self) -> u64 {
        let twin = self.rule_twin.as_ref().map_or(0, |t| t.bytes());
        twin + self.tables.values().map(|t| held_bytes(t)).sum::<u64>()
    }

    /// Whether a build of `material` uses the table of `m`: it is `material` or one of the
    /// smaller endgames its captures and promotions reach, or a held table one of those is
    /// read from (held so already, or to be read so by the build: see [`Table::mirrored`]).
    fn used_by(&self, material: &Material) -> impl Fn(&Material) -> bool {
        let mut used = self.sub_materials(material);
        let chain = self.chain(material);
        let to_read = (chain.todo.iter().zip(&chain.mirrors))
            .filter(|(_, from)| **from == Some(Mirrored::Held))
            .map(|(m, _)| m.colour_swapped());
        let read = (used.iter())
            .filter_map(|m| self.tables.get(m)?.mirror_of())
            .map(|of| of.material().clone());
        let partners: Vec<Material> = to_read.chain(read).collect();
        used.extend(partners);
        used.push(material.clone());
        move |m| used.contains(m)
    }

    /// The endgames a game of `material` reaches by captures and promotions (to the
    /// geometry's promotion pieces), in dependency order (`Material::sub_materials`).
    fn sub_materials(&self, material: &Material) -> Vec<Material> {
        material.sub_materials(&self.promotion_pieces())
    }

    /// The endgames one move of `material` leads into: those its build reads, and those
    /// probing its moves needs (`Material::exits`).
    fn exits(&self, material: &Material) -> Vec<Material> {
        material.exits(&self.promotion_pieces())
    }

    /// The geometry's promotion pieces, (piece, letter).
    fn promotion_pieces(&self) -> Vec<(crate::piece::PieceId, char)> {
        (self.geometry.promotions().iter())
            .map(|p| (p.piece, p.letter))
            .collect()
    }
}
