//! The table directory: tables are loaded from it instead of built, and saved to it once
//! built (the file format is `table_file`'s). What it does not do as asked is kept as notices
//! for the engine to show the user.

use super::TableSet;
use crate::egt::index::Indexer;
use crate::egt::material::Material;
use crate::egt::table::Table;
use crate::egt::table_file::{self, LoadError, TableKey};
use std::collections::HashSet;
use std::path::{Path, PathBuf};
use std::time::Instant;

/// A table directory: tables are loaded from it instead of built, and saved to it once built
/// (see `table_file`).
pub(super) struct TableDir {
    path: PathBuf,
    /// The held tables that the directory holds (loaded from it, or saved to it).
    saved: HashSet<Material>,
    /// The held tables loaded from it (not built).
    loaded: HashSet<Material>,
}

impl TableSet {
    /// Loads tables from `dir` and saves the tables built to it from now on (`None`: none
    /// is loaded or saved). The held tables a build uses are saved there when it starts.
    /// The DTZ twin's tables go to the same directory (their files are named by the metric).
    pub fn set_table_dir(&mut self, dir: Option<PathBuf>) {
        if let Some(twin) = &mut self.rule_twin {
            twin.set_table_dir(dir.clone());
        }
        if dir.as_deref() != self.table_dir() {
            self.dir = dir.map(|path| {
                Box::new(TableDir {
                    path,
                    saved: HashSet::new(),
                    loaded: HashSet::new(),
                })
            });
        }
    }

    /// The table directory, if any.
    pub fn table_dir(&self) -> Option<&Path> {
        self.dir.as_ref().map(|d| d.path.as_path())
    }

    /// `material`'s table from the table directory, if it holds a good one. A file that is
    /// there but stale, truncated, corrupted or unreadable is reported (once: the table is
    /// then built and the file replaced). `loading` is told when a file is there to read.
    pub(super) fn load(
        &mut self,
        material: &Material,
        key: &TableKey,
        loading: &dyn Fn(),
    ) -> Option<Table> {
        let path = self.table_dir()?.join(key.file_name());
        if !path.is_file() {
            return None;
        }
        loading();
        let started = Instant::now();
        let indexer = Indexer::new(material, &self.geometry, self.fold);
        let once = self.stores_once(material);
        match table_file::read(&path, key, material, indexer, self.metric, once) {
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
    pub(super) fn save(&mut self, material: &Material, key: &TableKey) {
        let (Some(dir), Some(table)) = (&mut self.dir, self.tables.get(material)) else {
            return;
        };
        if table.mirror_of().is_some() {
            // Its values are its partner's, whose file holds them.
            return;
        }
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

    /// What the table directory did not do as asked since the last call (a saved table
    /// refused as stale, truncated or corrupted and built again; a table that could not be
    /// saved), one message each, already logged: for the engine to show the user.
    pub fn take_notices(&mut self) -> Vec<String> {
        let mut notices = std::mem::take(&mut self.notices);
        if let Some(twin) = &mut self.rule_twin {
            notices.append(&mut twin.take_notices());
        }
        notices
    }

    /// Saves the held tables a build of `material` uses that the table directory does not
    /// hold yet (built before the directory was set).
    pub(super) fn save_held(&mut self, material: &Material) {
        let uses = self.used_by(material);
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
    }

    /// Holds a table loaded from the table directory, which therefore holds it.
    pub(super) fn hold_loaded(&mut self, material: Material, table: Table) {
        self.tables
            .insert(material.clone(), std::sync::Arc::new(table));
        if let Some(dir) = &mut self.dir {
            dir.saved.insert(material.clone());
            dir.loaded.insert(material);
        }
    }

    /// Whether `material`'s table is held as it was loaded from the table directory, not
    /// built by this set: a run that only loaded it has no build to report.
    pub fn was_loaded(&self, material: &Material) -> bool {
        (self.dir.as_ref()).is_some_and(|d| d.loaded.contains(material))
    }

    /// Forgets, as saved, the tables no longer held.
    pub(super) fn forget_dropped(&mut self) {
        let tables = &self.tables;
        if let Some(dir) = &mut self.dir {
            dir.saved.retain(|m| tables.contains_key(m));
            dir.loaded.retain(|m| tables.contains_key(m));
        }
    }
}
