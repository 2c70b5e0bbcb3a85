//! What the engine and the commands start from: the combined [`Settings`] (engine.ini and
//! the command line, with the pieces, endgame and seeds they name loaded), the empty table
//! set they describe, where builds are reported, and the [`Files`] the engine loads pieces
//! and seeds through when an option changes (the engine itself never touches a file).

use crate::config::EngineConfig;
use crate::egt::material::Material;
use crate::egt::memory;
use crate::egt::rules::Rules;
use crate::egt::seed::Seed;
use crate::egt::tables::TableSet;
use crate::piece::PieceSet;
use std::path::PathBuf;

/// Settings after `engine.ini` and the command line (which wins) are combined.
#[derive(Clone)]
pub struct Settings {
    /// The combined settings (the rules are [`Settings::rules`]).
    pub config: EngineConfig,
    /// The piece definitions.
    pub pieces: PieceSet,
    /// The endgame to build.
    pub material: Material,
    /// Whether tables are folded by symmetry.
    pub fold: bool,
    /// The positions of the seed file (`config.seed`), read for `material` and the metric;
    /// they apply to that endgame only.
    pub seeds: Option<Vec<Seed>>,
}

impl Settings {
    /// The rule variants the tables are built under.
    pub fn rules(&self) -> Rules {
        Rules {
            null_move: self.config.null_move,
            stalemate_wins: self.config.stalemate_wins,
            bare_royal_loses: self.config.bare_king_loses,
        }
    }

    /// The memory budget of the builds, in bytes: `memory` MB, or when that is 0, the
    /// default of [`memory::default_budget`].
    pub fn budget(&self) -> u64 {
        match self.config.memory {
            0 => memory::default_budget(),
            mb => mb.saturating_mul(memory::MB),
        }
    }

    /// Where and how builds are reported (`None`: no report).
    pub fn report(&self) -> Option<Report> {
        let path = self.config.report.clone()?;
        Some(Report {
            path,
            seed: self
                .config
                .seed
                .clone()
                .zip(self.seeds.as_ref())
                .map(|(file, seeds)| (self.material.clone(), file, seeds.len())),
        })
    }
}

/// Where builds are reported, and the seed file to name in the header (the report file
/// itself is written by the binary).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Report {
    /// The report file.
    pub path: PathBuf,
    /// The seeded endgame, the seed file and the number of positions it seeds.
    pub seed: Option<(Material, PathBuf, usize)>,
}

/// An empty table set for the settings: their pieces, metric, rules and memory budget, their
/// seeds for their endgame, folded by symmetry unless asked not to.
pub fn new_tables(s: &Settings) -> TableSet {
    let mut tables = TableSet::new(s.pieces.clone(), s.config.metric).with_rules(s.rules());
    tables.set_budget(s.budget());
    if let Some(seeds) = &s.seeds {
        tables = tables.with_seeds(s.material.clone(), seeds.clone());
    }
    if s.fold {
        tables
    } else {
        tables.without_symmetry()
    }
}

/// How the engine loads the files an option names: the host hands it one (the binary reads
/// the disk with `files::Disk`, a layer above; a test may answer from memory). Errors are the
/// user's to read: they name the file (and line).
pub trait Files: Send {
    /// The piece definitions of a configuration (its piece file, or the built-in ones).
    fn pieces(&self, config: &EngineConfig) -> Result<PieceSet, String>;
    /// The seeds of the configuration's seed file, if any, for its endgame and metric.
    fn seeds(&self, config: &EngineConfig, pieces: &PieceSet) -> Result<Option<Vec<Seed>>, String>;
}
