//! Reading the files the settings name (the piece file, the seed file) from the disk: the
//! [`Files`] the binary hands the engine, and what the commands load at start-up.

use crate::board::{geometry::Geometry, BoardSize};
use crate::config::Metric;
use crate::egt::seed::{parse_seeds, Seed};
use crate::piece::parse::{load_piece_file, PieceDefError};
use crate::piece::PieceSet;
use crate::settings::{Files, PieceFile};
use std::path::Path;

/// The most bytes a settings file (piece file, `engine.ini`, seed file) may have: far more
/// than any real one, little enough to read at once.
const MAX_SETTINGS_FILE: u64 = 64 << 20;

/// The text of a settings file (piece file, `engine.ini`, seed file). Only a regular file of
/// at most 64 MiB is read: a FIFO would stop the engine until someone wrote to it, and a device
/// such as /dev/zero would never end.
pub fn read_settings_file(path: &Path) -> std::io::Result<String> {
    let meta = std::fs::metadata(path)?;
    if !meta.is_file() {
        return Err(std::io::Error::other("not a regular file"));
    }
    if meta.len() > MAX_SETTINGS_FILE {
        return Err(std::io::Error::other(format!(
            "{} bytes, more than a settings file may have ({} MiB)",
            meta.len(),
            MAX_SETTINGS_FILE >> 20
        )));
    }
    std::fs::read_to_string(path)
}

/// The files on the disk.
#[derive(Clone, Copy, Debug, Default)]
pub struct Disk;

impl Files for Disk {
    fn pieces(&self, file: &PieceFile) -> Result<PieceSet, String> {
        pieces_of(file)
    }

    fn seeds(
        &self,
        file: &Path,
        pieces: &PieceSet,
        board: BoardSize,
        spec: &str,
        metric: Metric,
    ) -> Result<Vec<Seed>, String> {
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
) -> Result<Vec<Seed>, String> {
    let text = read_settings_file(file)
        .map_err(|e| format!("{}: cannot read the seed file: {e}", file.display()))?;
    parse_seeds(
        &text,
        &file.display().to_string(),
        spec,
        &Geometry::on(pieces, board),
        metric,
    )
    .map_err(|e| e.to_string())
}

/// The piece definitions of a piece file, which must exist when the user named it; when no
/// file was named and the default one is not there, the built-in definitions (those of the
/// shipped `piecedef.ini`).
pub fn pieces_of(file: &PieceFile) -> Result<PieceSet, String> {
    let path = &file.path;
    if !file.named && !path.exists() {
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

#[cfg(test)]
mod tests {
    use super::*;

    /// Only regular files of a sane size are read: a FIFO nobody writes to, a device that
    /// never ends and a huge file are refused at once, with the reason.
    #[test]
    fn only_regular_files_of_a_sane_size_are_read() {
        let dir = tempfile::tempdir().unwrap();
        let fifo = dir.path().join("fifo");
        let made = std::process::Command::new("mkfifo").arg(&fifo).status();
        assert!(made.unwrap().success());
        let refused = |path: &Path| read_settings_file(path).unwrap_err().to_string();
        assert_eq!(refused(&fifo), "not a regular file");
        assert_eq!(refused(Path::new("/dev/zero")), "not a regular file");
        assert_eq!(refused(dir.path()), "not a regular file");
        let huge = dir.path().join("huge.ini");
        // Sparse: no disk is used.
        let file = std::fs::File::create(&huge).unwrap();
        file.set_len(MAX_SETTINGS_FILE + 1).unwrap();
        assert!(refused(&huge).contains("more than a settings file may have (64 MiB)"));
        let fine = dir.path().join("piecedef.ini");
        std::fs::write(&fine, "A: N B\n").unwrap();
        assert_eq!(read_settings_file(&fine).unwrap(), "A: N B\n");
        assert!(read_settings_file(&dir.path().join("missing")).is_err());
    }
}
