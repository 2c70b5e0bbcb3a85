//! Reading the files the settings name (the piece file, the seed file) from the disk: the
//! [`Files`] the binary hands the engine, and what the commands load at start-up.

use crate::board::{geometry::Geometry, BoardSize};
use crate::egt::seed::{parse_seeds, Seed};
use crate::egt::table::Metric;
use crate::piece::parse::{load_piece_file, PieceDefError};
use crate::piece::PieceSet;
use crate::settings::{Files, PieceFile, PieceFileError, SeedFileError};
use crate::settings_file;
use std::path::Path;

/// The files on the disk.
#[derive(Clone, Copy, Debug, Default)]
pub struct Disk;

impl Files for Disk {
    fn pieces(&self, file: &PieceFile) -> Result<PieceSet, PieceFileError> {
        pieces_of(file)
    }

    fn seeds(
        &self,
        file: &Path,
        pieces: &PieceSet,
        board: BoardSize,
        spec: &str,
        metric: Metric,
    ) -> Result<Vec<Seed>, SeedFileError> {
        load_seeds(file, pieces, board, spec, metric)
    }
}

/// Reads the seed file `file` for the endgame `spec` of these pieces on `board`, under
/// `metric`.
pub fn load_seeds(
    file: &Path,
    pieces: &PieceSet,
    board: BoardSize,
    spec: &str,
    metric: Metric,
) -> Result<Vec<Seed>, SeedFileError> {
    let text = settings_file::read(file).map_err(|error| SeedFileError::Read {
        path: file.to_path_buf(),
        error,
    })?;
    let seeds = parse_seeds(
        &text,
        &file.display().to_string(),
        spec,
        &Geometry::on(pieces, board),
        metric,
    )?;
    Ok(seeds)
}

/// The piece definitions of a piece file, which must exist when the user named it; when no
/// file was named and the default one is not there, the built-in definitions (those of the
/// shipped `piecedef.ini`).
pub fn pieces_of(file: &PieceFile) -> Result<PieceSet, PieceFileError> {
    let path = &file.path;
    if !file.named && !path.exists() {
        log::info!(
            "{} not found: using the built-in piece definitions",
            path.display()
        );
        return Ok(PieceSet::standard());
    }
    load_piece_file(path).map_err(|e| match e {
        PieceDefError::Read { error, .. } if error.is_not_found() => {
            PieceFileError::NotFound(path.clone())
        }
        e => PieceFileError::Definitions(e),
    })
}
