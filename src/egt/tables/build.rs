//! Building: the endgames a build makes (the requested one and every smaller one its captures
//! reach, smallest first), each loaded from the table directory or built, and the build's
//! progress as a share of the whole build's time.

use super::TableSet;
use crate::egt::builder::{build_table, BuildError, LossChecks, Recipe, WinChecks};
use crate::egt::index::Indexer;
use crate::egt::material::Material;
use crate::egt::progress::{time_left, BuildEvent, Phase, Progress, TableClock};
use crate::egt::table::Table;
use crate::egt::value::MAX_DIRECT;
use std::sync::atomic::AtomicBool;
use std::sync::{Arc, Mutex};
use std::time::Instant;

/// The room a build has: what the budget leaves for its lists of long distances, and whether
/// it drops its tables as it goes (see [`TableSet::bytes_needed_dropping`]).
#[derive(Clone, Copy)]
pub(super) struct Room {
    pub(super) far: u64,
    pub(super) dropping: bool,
    /// Whether tables of identical men alone are built with one of them told apart
    /// (`Recipe::twins_apart`): when that fits beside every table held.
    pub(super) twins_apart: bool,
}

/// The budget a set's tables are built under: its bytes, and what is held beside the set's
/// own tables under it (a DTZ twin's owner's tables, for the twin's build).
#[derive(Clone, Copy)]
struct Budget {
    bytes: u64,
    outside: u64,
}

/// A part of a build's progress: the tables of one set (the set's own, or its DTZ twin's).
#[derive(Clone, Copy)]
struct Part<'a> {
    /// When the whole build started.
    start: Instant,
    /// The share of the whole done before this part, and this part's share.
    from: f64,
    length: f64,
    /// Added to the tables' names in the progress (` dtz` for the twin's).
    label: &'static str,
    progress: &'a dyn Progress,
}

impl TableSet {
    /// The endgames a build of `material` builds: it and every endgame reachable by captures
    /// and promotions, those not built yet, in dependency order.
    pub(super) fn missing(&self, material: &Material) -> Vec<Material> {
        let mut todo = self.sub_materials(material);
        todo.push(material.clone());
        todo.retain(|m| !self.tables.contains_key(m));
        todo
    }

    /// Builds `material` and every material reachable by captures and promotions that is not
    /// built yet, in dependency order, on the current rayon pool.
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
    ///
    /// With a DTZ twin ([`TableSet::with_rule_play`]) the twin's tables are built after the
    /// set's own, in the same progress (the twin's named `… dtz`); if both do not fit in the
    /// budget but the set's own do, the twin's are not built, and a notice says so.
    pub fn build_cancellable(
        &mut self,
        material: &Material,
        progress: &dyn Progress,
        cancel: &AtomicBool,
    ) -> Result<(), BuildError> {
        let start = Instant::now();
        // What the budget leaves for the lists of distances beyond a byte, which no one can
        // reckon before the builds: those of each table built here stay with it.
        let mut twin = None;
        let room = match self.make_room(material, true) {
            Err(e @ BuildError::OverBudget { .. }) if self.rule_twin.is_some() => {
                twin = self.rule_twin.take();
                let room = self.make_room(material, true);
                if room.is_ok() {
                    let notice = format!(
                        "{e}: the DTZ tables for play within the 50-move rule are not built, \
                         and {material} is played by {} alone",
                        self.metric.name()
                    );
                    log::warn!("{notice}");
                    self.notices.push(notice);
                }
                room
            }
            room => room,
        };
        let built = room.and_then(|room| {
            match self.build_in_room(material, room, start, progress, cancel) {
                // Told apart, a table lists each of its distances beyond a byte twice, in
                // less room than its own layout leaves them: built so, they may fit. The
                // tables finished stay.
                Err(BuildError::OverBudget { .. }) if room.twins_apart => self
                    .make_room(material, false)
                    .and_then(|room| self.build_in_room(material, room, start, progress, cancel)),
                built => built,
            }
        });
        if twin.is_some() {
            self.rule_twin = twin;
        }
        built
    }

    /// Builds the set's tables of a build of `material` whose `room` is made, then its
    /// twin's, sharing the progress between them by their positions.
    fn build_in_room(
        &mut self,
        material: &Material,
        room: Room,
        start: Instant,
        progress: &dyn Progress,
        cancel: &AtomicBool,
    ) -> Result<(), BuildError> {
        let own = self.work(material);
        let twin = (self.rule_twin.as_ref()).map_or(0.0, |t| t.work(material));
        let share = own / (own + twin).max(1.0);
        let part = |from, length, label| Part {
            start,
            from,
            length,
            label,
            progress,
        };
        let own_budget = Budget {
            bytes: self.budget,
            outside: 0,
        };
        let room = self.build_own(material, room, &part(0.0, share, ""), own_budget, cancel)?;
        // The twin's tables share the set's budget, beside the set's own.
        let outside = self.bytes() - self.rule_twin.as_ref().map_or(0, |t| t.bytes());
        let twin_budget = Budget {
            bytes: self.budget,
            outside,
        };
        match &mut self.rule_twin {
            Some(t) => t
                .build_own(
                    material,
                    room,
                    &part(share, 1.0 - share, " dtz"),
                    twin_budget,
                    cancel,
                )
                .map(drop),
            None => Ok(()),
        }
    }

    /// The work of building the set's missing tables for `material`, in positions.
    fn work(&self, material: &Material) -> f64 {
        let size = |m: &Material| Indexer::new(m, &self.geometry, self.fold).size() as f64;
        self.missing(material).iter().map(size).sum::<f64>()
    }

    /// Builds (or loads) the set's own missing tables of a build of `material`, reporting
    /// its progress as `part` of the whole build; in a `room` that drops tables, each table
    /// built here is dropped once no later one reads it (but those
    /// [`TableSet::kept_when_dropping`] names). Where the room does not tell identical men
    /// apart, a table that has them is built so when that fits in `budget` as it comes
    /// ([`TableSet::room_told_apart`]). Returns the room left.
    fn build_own(
        &mut self,
        material: &Material,
        room: Room,
        part: &Part,
        budget: Budget,
        cancel: &AtomicBool,
    ) -> Result<Room, BuildError> {
        let mut far_room = room.far;
        let Part {
            start,
            from,
            length,
            label,
            progress,
        } = *part;
        self.save_held(material);
        let chain = self.chain(material);
        let todo = &chain.todo;
        // Each table's share of the whole is its share of the positions: its build time
        // grows with them (TableClock makes each table's own fraction track time).
        // Layered tables (pawns) report the share of their slots done (`TableClock::linear`).
        let weight = |m: &Material| {
            let ix = Indexer::new(m, &self.geometry, self.fold);
            (ix.size() as f64, ix.layers().len() > 1)
        };
        let (weights, layered): (Vec<f64>, Vec<bool>) = todo.iter().map(weight).unzip();
        let mut total: f64 = weights.iter().sum::<f64>().max(1.0);
        let mut done = 0.0;
        for (at, ((m, w), layered)) in todo.iter().cloned().zip(weights).zip(layered).enumerate() {
            let clock = Mutex::new(if layered {
                TableClock::linear()
            } else {
                TableClock::new()
            });
            let report = |phase, fraction: f64| {
                // Reported under the lock, so that the reports of the threads keep their order.
                let Ok(mut clock) = clock.lock() else {
                    return;
                };
                let elapsed = start.elapsed();
                let own = (done + w * clock.fraction(phase, fraction, Instant::now())) / total;
                let fraction = from + length * own;
                progress.report(&BuildEvent {
                    table: format!("{}{label}", m.name()),
                    target: material.name(),
                    phase,
                    fraction,
                    elapsed,
                    remaining: time_left(fraction, elapsed),
                })
            };
            let key = self.key(&m);
            if chain.mirrors[at].is_some() {
                // Read from its colour-swapped material's table, held or built before it.
                let of = self
                    .shared(&m.colour_swapped())
                    .expect("the partner is held");
                total = (total - w).max(1.0);
                let table = Table::mirrored(of, &self.geometry, self.fold);
                self.tables.insert(m.clone(), Arc::new(table));
            } else if let Some(table) = self.load(&m, &key, &|| report(Phase::Loading, 0.0)) {
                // A load is no share of the build's time: the shares are of the tables built.
                total = (total - w).max(1.0);
                far_room = far_room.saturating_sub(table.far_bytes());
                self.hold_loaded(m, table);
            } else {
                // Told apart by the room, or where it fits now; or in its own layout.
                let apart = match room.twins_apart {
                    true => Some(far_room),
                    false => (self.room_told_apart(&m, budget.bytes, budget.outside))
                        .map(|left| left.min(far_room)),
                };
                let built_in = |apart: Option<u64>| {
                    let recipe = Recipe {
                        twins_apart: apart.is_some(),
                        ..self.recipe(&m, apart.unwrap_or(far_room), cancel)
                    };
                    build_table(&m, &recipe, &|sub: &Material| self.get(sub), &report)
                };
                let built = match built_in(apart) {
                    // Told apart where it fitted, a table lists each of its distances beyond
                    // a byte twice: in its own layout, they may fit.
                    Err(BuildError::OverBudget { .. }) if !room.twins_apart && apart.is_some() => {
                        built_in(None)
                    }
                    built => built,
                };
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
                    "{}{label} built in {:.3} s, {} positions beyond {MAX_DIRECT} moves",
                    m.name(),
                    start.elapsed().as_secs_f64(),
                    table.far_count()
                );
                self.tables.insert(m.clone(), Arc::new(table));
                self.save(&m, &key);
                done += w;
            }
            if room.dropping {
                // Tables built here that no later table reads, and that are not kept.
                let dead: Vec<&Material> = (0..=at)
                    .filter(|&m| !chain.live(m, at + 1))
                    .map(|m| &todo[m])
                    .collect();
                self.tables.retain(|t, _| !dead.contains(&t));
                self.forget_dropped();
            }
        }
        Ok(Room {
            far: far_room,
            ..room
        })
    }
}

impl TableSet {
    /// How `material`'s table is built under this set's settings: `far_room` is the room its
    /// lists of long distances have, `cancel` stops it. Its identical men are not told apart:
    /// a build does so where its room says (`Room::twins_apart`).
    pub(crate) fn recipe<'a>(
        &'a self,
        material: &Material,
        far_room: u64,
        cancel: &'a AtomicBool,
    ) -> Recipe<'a> {
        Recipe {
            geometry: &self.geometry,
            metric: self.metric,
            rules: self.rules,
            seeds: self.seeds_of(material),
            fold: self.fold,
            direct: self.direct,
            far_room,
            cancel,
            blocks: true,
            once: true,
            loss_checks: LossChecks::Cheaper,
            win_checks: WinChecks::Cheaper,
            lists: true,
            twins_apart: false,
        }
    }

    /// `material`'s table built again from this set's smaller tables, holding both sides to
    /// move even where it may be stored once: what the tests compare the colour swap with.
    #[cfg(test)]
    pub(crate) fn built_with_both_sides(&self, material: &Material) -> crate::egt::table::Table {
        let cancel = AtomicBool::new(false);
        let recipe = Recipe {
            once: false,
            ..self.recipe(material, u64::MAX, &cancel)
        };
        build_table(material, &recipe, &|m| self.get(m), &|_, _| {}).unwrap()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::egt::progress::Silent;
    use crate::egt::stats::table_stats;
    use crate::egt::table::Metric;
    use crate::piece::PieceSet;

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

    /// K+P against K on 8×8: the longest win with White to move is the published 28 moves,
    /// which `8/8/8/1k6/8/8/K5P1/8 w` takes.
    #[test]
    fn kpk_longest_win_is_28() {
        use crate::board::{Color, Position, Setup};
        use crate::egt::material::material_of;
        use crate::egt::value::Value;
        let pieces = crate::egt::material::pieces_with_pawn();
        let kpk = Material::parse("KP.K", &pieces).unwrap();
        let mut set = TableSet::new(pieces, Metric::Dtm);
        set.build(&kpk, &Silent).unwrap();
        let s = table_stats(set.get(&kpk).unwrap(), set.geometry());
        let setup =
            Setup::from_fen("8/8/8/1k6/8/8/K5P1/8 w - - 0 1", set.geometry().board()).unwrap();
        let pos = Position::new(&setup, set.geometry(), kpk.royals()).unwrap();
        let (m, sq) = material_of(&pos);
        assert_eq!(
            set.get(&m).unwrap().value(&sq, Color::White),
            Some(Value::Win(28))
        );
        assert_eq!(s.wtm.longest_win, 28);
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
}
