//! What the engine and the commands start from: the combined [`Settings`] (engine.ini and
//! the command line, with the pieces, endgame and seeds they name loaded), the empty table
//! set they describe, where builds are reported, and the [`Files`] the engine loads pieces
//! and seeds through when an option changes (the engine itself never touches a file).

use crate::board::geometry::Geometry;
use crate::board::promotion::{default_letters_for, promotions_for};
use crate::board::{BoardSize, PromotionError};
use crate::config::EngineConfig;
use crate::egt::material::Material;
use crate::egt::memory;
use crate::egt::rules::Rules;
use crate::egt::seed::{Seed, SeedError};
use crate::egt::table::Metric;
use crate::egt::tables::TableSet;
use crate::piece::parse::PieceDefError;
use crate::piece::PieceSet;
use crate::settings_file;
use std::path::{Path, PathBuf};

/// The options a GUI may change while the engine runs, as a protocol shows them as defaults
/// in its handshake.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Options {
    /// The endgame built at start-up (and after the Endgame option), as the user wrote it.
    pub endgame: String,
    /// The metric of the tables.
    pub metric: Metric,
    /// The moves of the rule of DTZ tables (0: none), kept for a change to DTZ; a DTZ
    /// `metric` holds it.
    pub rule_moves: u16,
    /// Build threads (0: one per core).
    pub threads: usize,
    /// The piece file.
    pub piece_file: PieceFile,
    /// The rule variants.
    pub rules: Rules,
    /// The board.
    pub board: BoardSize,
    /// The pieces a pawn may promote to, as upper-case letters in order of preference
    /// (`None`: the board's default list, `promotion::default_letters`, followed when the
    /// board changes).
    pub promotion: Option<String>,
    /// The table directory tables are loaded from and saved to (`None`: none).
    pub tables: Option<PathBuf>,
}

/// The piece-definition file, and whether the user named it: a named file must exist, while
/// the default one may be missing (the built-in definitions stand in for it).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PieceFile {
    /// The file.
    pub path: PathBuf,
    /// Whether the user named it.
    pub named: bool,
}

/// Settings after `engine.ini` and the command line (which wins) are combined, with the files
/// they name loaded.
#[derive(Clone)]
pub struct Settings {
    /// The options a GUI may change.
    pub options: Options,
    /// The piece definitions (of `options.piece_file`).
    pub pieces: PieceSet,
    /// The endgame to build (`options.endgame`).
    pub material: Material,
    /// Most memory the tables may take, in MB; 0: [`memory::default_budget`].
    pub memory: u64,
    /// Whether tables are folded by symmetry.
    pub fold: bool,
    /// The seed file, if any.
    pub seed_file: Option<PathBuf>,
    /// The positions of the seed file, read for `material` and the metric; they apply to
    /// that endgame only.
    pub seeds: Option<Vec<Seed>>,
    /// Where builds are reported (`None`: no report).
    pub report: Option<PathBuf>,
}

impl Settings {
    /// The settings of a configuration, given the pieces, endgame and seeds it names, loaded.
    pub fn from_config(
        config: &EngineConfig,
        pieces: PieceSet,
        material: Material,
        seeds: Option<Vec<Seed>>,
        fold: bool,
    ) -> Settings {
        Settings {
            options: Options {
                endgame: config.endgame.clone(),
                metric: config.metric,
                rule_moves: config.rule_moves,
                threads: config.threads,
                piece_file: PieceFile {
                    path: config.pieces.clone(),
                    named: config.pieces_named,
                },
                rules: Rules {
                    null_move: config.null_move,
                    stalemate_wins: config.stalemate_wins,
                    bare_royal_loses: config.bare_king_loses,
                },
                board: config.board,
                promotion: config.promotion.clone(),
                tables: config.tables.clone(),
            },
            pieces,
            material,
            memory: config.memory,
            fold,
            seed_file: config.seed.clone(),
            seeds,
            report: config.report.clone(),
        }
    }

    /// The memory budget of the builds, in bytes: `memory` MB, or when that is 0, the
    /// default of [`memory::default_budget`].
    pub fn budget(&self) -> u64 {
        match self.memory {
            0 => memory::default_budget(),
            mb => mb.saturating_mul(memory::MB),
        }
    }

    /// The promotion letters in force: the user's, else the board's default list less the
    /// letters the pieces do not define and the endgame's royals (possibly empty then).
    pub fn promotion_letters(&self) -> String {
        match &self.options.promotion {
            Some(letters) => letters.clone(),
            None => default_letters_for(&self.pieces, self.options.board, self.material.royals()),
        }
    }

    /// Whether the user's promotion letters fit the pieces and the endgame: each defined,
    /// not the pawn, given once, and not a royal letter of the endgame. The default list
    /// always fits.
    pub fn check_promotion(&self) -> Result<(), PromotionError> {
        match &self.options.promotion {
            Some(letters) => promotions_for(
                &self.pieces,
                letters,
                self.material.royals(),
                &self.material.name(),
            )
            .map(|_| ()),
            None => Ok(()),
        }
    }

    /// The pieces on the board, with the promotions in force (the board's default list if
    /// the user's does not fit: see [`Settings::check_promotion`]).
    pub fn geometry(&self) -> Geometry {
        let geometry = Geometry::on(&self.pieces, self.options.board);
        let letters = self.promotion_letters();
        if letters.is_empty() {
            return geometry;
        }
        match geometry.clone().with_promotions(&letters) {
            Ok(g) => g,
            Err(e) => {
                log::warn!("promotion {letters}: {e}; the board's default list is used");
                geometry
            }
        }
    }

    /// Where and how builds are reported (`None`: no report).
    pub fn report(&self) -> Option<Report> {
        let path = self.report.clone()?;
        Some(Report {
            path,
            seed: self
                .seed_file
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

/// An empty table set for the settings: their pieces, metric, rules, memory budget and table
/// directory, their seeds for their endgame, folded by symmetry unless asked not to.
pub fn new_tables(s: &Settings) -> TableSet {
    let mut tables = TableSet::new(s.pieces.clone(), s.options.metric)
        .on_board(s.options.board)
        .with_rules(s.options.rules);
    let letters = s.promotion_letters();
    if s.check_promotion().is_ok() && !letters.is_empty() {
        tables = (tables.with_promotions(&letters)).expect("letters checked against the pieces");
    }
    tables.set_budget(s.budget());
    tables.set_table_dir(s.options.tables.clone());
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
    /// The piece definitions of a piece file (or the built-in ones, for a default file that
    /// is missing).
    fn pieces(&self, file: &PieceFile) -> Result<PieceSet, PieceFileError>;
    /// The seeds of a seed file for the endgame `spec` (as the user wrote it: its letter
    /// order is the order of the squares) of these pieces on `board`, under `metric`.
    fn seeds(
        &self,
        file: &Path,
        pieces: &PieceSet,
        board: BoardSize,
        spec: &str,
        metric: Metric,
    ) -> Result<Vec<Seed>, SeedFileError>;
}

/// Why a piece file gave no pieces ([`Files::pieces`]).
#[derive(Debug, thiserror::Error)]
pub enum PieceFileError {
    /// The file the user named is not there.
    #[error("{}: piece file not found", .0.display())]
    NotFound(PathBuf),
    /// It could not be read, or a definition in it is wrong.
    #[error(transparent)]
    Definitions(#[from] PieceDefError),
}

/// Why a seed file gave no seeds ([`Files::seeds`]).
#[derive(Debug, thiserror::Error)]
pub enum SeedFileError {
    /// The file could not be read.
    #[error("{}: cannot read the seed file: {error}", path.display())]
    Read {
        /// The file.
        path: PathBuf,
        /// Why not.
        error: settings_file::ReadError,
    },
    /// A line of it is wrong, or the endgame is not one of these pieces.
    #[error(transparent)]
    Seeds(#[from] SeedError),
}
