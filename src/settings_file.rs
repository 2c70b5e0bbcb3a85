//! Reading a settings file (a piece file, `engine.ini`, a seed file) into its text.
//!
//! A leaf: it knows nothing of what the text means and uses no other module of the crate, so
//! the modules that parse settings (`config`, `piece::parse`, `egt::seed` through `files`)
//! all read their files here without depending on one another.

use std::path::Path;

/// The most bytes a settings file may have: far more than any real one, little enough to
/// read at once.
pub const MAX_BYTES: u64 = 64 << 20;

/// Why a settings file was not read. The text names no file: the caller's error does.
#[derive(Debug, thiserror::Error)]
pub enum ReadError {
    /// The path is a directory, a FIFO, a device: something that may never end, or block.
    #[error("not a regular file")]
    NotRegular,
    /// The file is larger than [`MAX_BYTES`].
    #[error("{bytes} bytes, more than a settings file may have ({} MiB)", MAX_BYTES >> 20)]
    TooLarge {
        /// Its size.
        bytes: u64,
    },
    /// The operating system's error, or text that is not UTF-8.
    #[error(transparent)]
    Io(#[from] std::io::Error),
}

impl ReadError {
    /// Whether the file does not exist.
    pub fn is_not_found(&self) -> bool {
        matches!(self, ReadError::Io(e) if e.kind() == std::io::ErrorKind::NotFound)
    }
}

/// The text of a settings file. Only a regular file of at most [`MAX_BYTES`] is read: a FIFO
/// would stop the engine until someone wrote to it, and a device such as /dev/zero would
/// never end. The text must be UTF-8.
pub fn read(path: &Path) -> Result<String, ReadError> {
    let meta = std::fs::metadata(path)?;
    if !meta.is_file() {
        return Err(ReadError::NotRegular);
    }
    if meta.len() > MAX_BYTES {
        return Err(ReadError::TooLarge { bytes: meta.len() });
    }
    Ok(std::fs::read_to_string(path)?)
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
        let refused = |path: &Path| read(path).unwrap_err().to_string();
        assert_eq!(refused(&fifo), "not a regular file");
        assert_eq!(refused(Path::new("/dev/zero")), "not a regular file");
        assert_eq!(refused(dir.path()), "not a regular file");
        let huge = dir.path().join("huge.ini");
        // Sparse: no disk is used.
        let file = std::fs::File::create(&huge).unwrap();
        file.set_len(MAX_BYTES + 1).unwrap();
        assert!(refused(&huge).contains("more than a settings file may have (64 MiB)"));
        let fine = dir.path().join("piecedef.ini");
        std::fs::write(&fine, "A: N B\n").unwrap();
        assert_eq!(read(&fine).unwrap(), "A: N B\n");
        assert!(read(&dir.path().join("missing")).is_err());
    }

    /// A missing file is told apart (a default piece file may be missing), and the reasons
    /// read as the operating system gives them.
    #[test]
    fn a_missing_file_is_told_apart() {
        let dir = tempfile::tempdir().unwrap();
        let missing = read(&dir.path().join("missing")).unwrap_err();
        assert!(missing.is_not_found());
        assert!(missing.to_string().contains("No such file"), "{missing}");
        assert!(!read(dir.path()).unwrap_err().is_not_found());
        let latin1 = dir.path().join("latin1.ini");
        std::fs::write(&latin1, b"N: 1,2 # caf\xe9\n").unwrap();
        assert!(matches!(read(&latin1), Err(ReadError::Io(_))));
    }
}
