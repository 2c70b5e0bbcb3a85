//! Reading the files a configuration names (the piece file, the seed file) from the disk:
//! the [`Files`] the binary hands the engine, and what the commands load at start-up.

use crate::board::geometry::Geometry;
use crate::config::EngineConfig;
use crate::egt::seed::{parse_seeds, Seed};
use crate::piece::parse::{load_piece_file, PieceDefError};
use crate::piece::PieceSet;
use crate::settings::Files;

/// The files on the disk.
#[derive(Clone, Copy, Debug, Default)]
pub struct Disk;

impl Files for Disk {
    fn pieces(&self, config: &EngineConfig) -> Result<PieceSet, String> {
        pieces_of(config)
    }

    fn seeds(&self, config: &EngineConfig, pieces: &PieceSet) -> Result<Option<Vec<Seed>>, String> {
        load_seeds(config, pieces)
    }
}

/// Reads the seed file of `config`, if any, for its endgame and metric.
pub fn load_seeds(config: &EngineConfig, pieces: &PieceSet) -> Result<Option<Vec<Seed>>, String> {
    let Some(file) = &config.seed else {
        return Ok(None);
    };
    let text = std::fs::read_to_string(file)
        .map_err(|e| format!("{}: cannot read the seed file: {e}", file.display()))?;
    parse_seeds(
        &text,
        &file.display().to_string(),
        &config.endgame,
        &Geometry::new(pieces),
        config.metric,
    )
    .map(Some)
    .map_err(|e| e.to_string())
}

/// The piece definitions of a configuration: its piece file, which must exist when the user
/// named it; when no file was named and the default one is not there, the built-in
/// definitions (those of the shipped `piecedef.ini`).
pub fn pieces_of(config: &EngineConfig) -> Result<PieceSet, String> {
    let path = &config.pieces;
    if !config.pieces_named && !path.exists() {
        log::info!(
            "{} not found: using the built-in piece definitions",
            path.display()
        );
        return Ok(PieceSet::standard());
    }
    load_piece_file(path).map_err(|e| match e {
        PieceDefError::Read { error, .. } if error.kind() == std::io::ErrorKind::NotFound => {
            format!("{}: piece file not found", path.display())
        }
        e => e.to_string(),
    })
}
