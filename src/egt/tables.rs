//! The set of built tables: a requested endgame and every smaller one reachable by captures.

use crate::board::geometry::Geometry;
use crate::egt::builder::{build_table, BuildError, Recipe};
use crate::egt::material::Material;
use crate::egt::progress::{BuildEvent, Progress};
use crate::egt::rules::Rules;
use crate::egt::seed::Seed;
use crate::egt::table::{Metric, Table};
use crate::piece::PieceSet;
use std::collections::HashMap;
use std::sync::atomic::AtomicBool;
use std::sync::Arc;
use std::time::Instant;

/// Tables of one piece set and metric, built on request.
pub struct TableSet {
    pieces: PieceSet,
    geometry: Geometry,
    metric: Metric,
    rules: Rules,
    seeds: Option<(Material, Vec<Seed>)>,
    fold: bool,
    /// Shared, so that a finished table can be read elsewhere (its statistics counted for
    /// the report) while the set is used or extended.
    tables: HashMap<Material, Arc<Table>>,
}

impl TableSet {
    /// An empty set for these pieces and this metric.
    pub fn new(pieces: PieceSet, metric: Metric) -> TableSet {
        let geometry = Geometry::new(&pieces);
        TableSet {
            pieces,
            geometry,
            metric,
            rules: Rules::default(),
            seeds: None,
            fold: true,
            tables: HashMap::new(),
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

    /// The piece definitions.
    pub fn pieces(&self) -> &PieceSet {
        &self.pieces
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

    /// Bytes of table data held (every built table, both sides to move).
    pub fn bytes(&self) -> u64 {
        self.tables.values().map(|t| t.bytes()).sum()
    }

    /// Drops the built tables whose material `keep` refuses (to free memory).
    pub fn retain(&mut self, mut keep: impl FnMut(&Material) -> bool) {
        self.tables.retain(|m, _| keep(m));
    }

    /// Builds `material` and every smaller material reachable by captures that is not built
    /// yet, smallest first, on the current rayon pool.
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
        let mut todo = material.sub_materials();
        todo.push(material.clone());
        todo.retain(|m| !self.tables.contains_key(m));
        let weight = |m: &Material| 64f64.powi(m.len() as i32 - 2);
        let total: f64 = todo.iter().map(weight).sum();
        let mut done = 0.0;
        for m in todo {
            let w = weight(&m);
            let report = |phase, fraction: f64| {
                progress.report(&BuildEvent {
                    table: m.name(),
                    target: material.name(),
                    phase,
                    fraction: (done + w * fraction) / total,
                    elapsed: start.elapsed(),
                })
            };
            let recipe = Recipe {
                pieces: &self.pieces,
                geometry: &self.geometry,
                metric: self.metric,
                rules: self.rules,
                seeds: match &self.seeds {
                    Some((seeded, seeds)) if *seeded == m => seeds,
                    _ => &[],
                },
                fold: self.fold,
                cancel,
            };
            let table = build_table(&m, &recipe, &|sub: &Material| self.get(sub), &report)?;
            log::debug!(
                "{} built in {:.3} s",
                m.name(),
                start.elapsed().as_secs_f64()
            );
            self.tables.insert(m, Arc::new(table));
            done += w;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::egt::progress::Silent;
    use crate::egt::stats::table_stats;

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
}
