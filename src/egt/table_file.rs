//! Tables saved in a table directory and loaded from it: the one place where a table's parts
//! are written and read.
//!
//! A file holds one table. Its **key** is the text of everything its bytes depend on — the
//! format version, the material, the board, the metric, the rules, the folding, the seeds of
//! that table (a hash of them) and the moves of each piece of the material as the builder uses
//! them — and stands readable at the head of the file. A load compares it with the key the
//! table set expects: a file built under other settings is *stale* and never trusted.
//!
//! Layout (integers little-endian):
//!
//! ```text
//! "FAIRYEGT"                 8 bytes, the magic
//! u32 K, K bytes             the key text (UTF-8, one `name value` a line)
//! u32 S                      the number of sections (2 in format 1)
//! S × (u64 L, L bytes)       the sections: White-to-move bytes, Black-to-move bytes
//! u64                        xxh3-64 of every byte before it
//! ```
//!
//! A file is written under a temporary name in the same directory, synced and then renamed
//! onto its name, so a save cut short (a kill, a full disk) never leaves a half file under
//! the table's name. A truncated or corrupted file (the checksum, a section length, trailing
//! bytes) is refused with the reason.

use crate::board::geometry::Geometry;
use crate::egt::index::Indexer;
use crate::egt::material::Material;
use crate::egt::rules::Rules;
use crate::egt::seed::Seed;
use crate::egt::table::{Metric, Table};
use crate::piece::PieceType;
use std::fmt::Write as _;
use std::fs::File;
use std::io::{BufWriter, ErrorKind, Read, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU8, Ordering};
use thiserror::Error;
use xxhash_rust::xxh3::{xxh3_64, Xxh3};

/// The version of the file layout and of the table bytes' meaning: raise it whenever either
/// changes, and every saved table is rebuilt (its key no longer matches).
pub const FORMAT_VERSION: u32 = 1;

/// The first bytes of every table file.
const MAGIC: &[u8; 8] = b"FAIRYEGT";

/// The number of sections of a table of this format: each side to move's bytes.
const SECTIONS: u32 = 2;

/// The longest key text a file may announce (a key of six piece types is about 2 kB).
const MAX_KEY_BYTES: u32 = 1 << 20;

/// Bytes written or read at a time.
const CHUNK: usize = 1 << 20;

/// The name of a table file extension.
const EXTENSION: &str = "egt";

/// What a table's bytes depend on, as the text that heads its file, and the file's name.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TableKey {
    text: String,
    file_name: String,
}

impl TableKey {
    /// The key of `material`'s table built with these pieces and board (`geometry`), metric,
    /// rules, seeds (those of this material only) and folding.
    pub fn new(
        material: &Material,
        geometry: &Geometry,
        metric: Metric,
        rules: Rules,
        seeds: &[Seed],
        fold: bool,
    ) -> TableKey {
        let board = geometry.board();
        // What is not in the file's name: a table of other rules, folding or seeds gets a
        // file of its own, while one of other piece moves or format replaces the old file.
        let mut variant = String::new();
        let _ = writeln!(variant, "rules {}", rules.describe());
        let _ = writeln!(variant, "fold {}", if fold { "yes" } else { "no" });
        if seeds.is_empty() {
            variant.push_str("seeds none\n");
        } else {
            let text = format!("{seeds:?}");
            let _ = writeln!(
                variant,
                "seeds {} positions, xxh3 {:016x}",
                seeds.len(),
                xxh3_64(text.as_bytes())
            );
        }
        let mut text = format!(
            "fairy-egt table, format {FORMAT_VERSION}\nmaterial {}\nboard {board}\nmetric {metric}\n",
            material.name()
        );
        text.push_str(&variant);
        let mut men = material.men().to_vec();
        men.sort_by_key(|m| m.letter);
        men.dedup_by_key(|m| m.letter);
        for man in men {
            let _ = writeln!(
                text,
                "piece {}",
                moves_text(geometry.pieces().piece(man.piece))
            );
        }
        let plain = rules.is_orthodox() && fold && seeds.is_empty();
        let file_name = if plain {
            format!("{}.{board}.{metric}.{EXTENSION}", material.name())
        } else {
            format!(
                "{}.{board}.{metric}.{:08x}.{EXTENSION}",
                material.name(),
                xxh3_64(variant.as_bytes()) as u32
            )
        };
        TableKey { text, file_name }
    }

    /// The key text, as it heads the file.
    pub fn text(&self) -> &str {
        &self.text
    }

    /// The file's name in a table directory, e.g. `KBN.KN.8x8.dtm.egt` (a hash of the
    /// rules, folding and seeds is added when they are not the defaults).
    pub fn file_name(&self) -> &str {
        &self.file_name
    }
}

/// A piece's moves as the builder uses them: its letter and every step (file and rank step,
/// range, move/capture rights, how the line is walked), in their sorted order.
fn moves_text(piece: &PieceType) -> String {
    let mut text = format!("{}:", piece.letter);
    for s in &piece.steps {
        let _ = write!(
            text,
            " {},{},{},{:?},{:?}",
            s.dx, s.dy, s.range, s.mode, s.kind
        );
    }
    text
}

/// Why a saved table was not loaded.
#[derive(Debug, Error, PartialEq, Eq)]
pub enum LoadError {
    /// There is no file of that name (the table was never saved there).
    #[error("{0}: no saved table")]
    Missing(PathBuf),
    /// The file could not be read.
    #[error("{path}: cannot read the saved table: {error}")]
    Io {
        /// The file.
        path: PathBuf,
        /// The system's error.
        error: String,
    },
    /// The file was written for other settings (or another format).
    #[error("{path}: the saved table is stale: {what}")]
    Stale {
        /// The file.
        path: PathBuf,
        /// What differs: the expected key line and the one found.
        what: String,
    },
    /// The file ends before its announced end.
    #[error("{path}: the saved table is truncated: {what}")]
    Truncated {
        /// The file.
        path: PathBuf,
        /// What was being read.
        what: String,
    },
    /// The file is not what was written: not a table file, a wrong checksum or length.
    #[error("{path}: the saved table is corrupted: {what}")]
    Corrupted {
        /// The file.
        path: PathBuf,
        /// What was expected and found.
        what: String,
    },
}

/// Writes `table` to `dir` (created if missing) under its key's name, atomically: a
/// temporary file in `dir`, synced, then renamed. Returns the file's path, or a message
/// naming the file and the system's error (nothing is left behind then).
pub fn write(table: &Table, key: &TableKey, dir: &Path) -> Result<PathBuf, String> {
    let path = dir.join(key.file_name());
    let temp = dir.join(format!(".{}.{}.tmp", key.file_name(), std::process::id()));
    let result = std::fs::create_dir_all(dir)
        .and_then(|()| write_to(table, key, &temp))
        .and_then(|()| std::fs::rename(&temp, &path));
    match result {
        Ok(()) => Ok(path),
        Err(e) => {
            let _ = std::fs::remove_file(&temp);
            Err(format!("cannot save {}: {e}", path.display()))
        }
    }
}

/// A file being written, hashed as it goes.
struct Writer {
    out: BufWriter<File>,
    hash: Xxh3,
}

impl Writer {
    fn put(&mut self, bytes: &[u8]) -> std::io::Result<()> {
        self.hash.update(bytes);
        self.out.write_all(bytes)
    }

    /// A section of bytes: its length, then the bytes.
    fn bytes_section(&mut self, bytes: &[AtomicU8]) -> std::io::Result<()> {
        self.put(&(bytes.len() as u64).to_le_bytes())?;
        let mut buf = Vec::with_capacity(CHUNK);
        for chunk in bytes.chunks(CHUNK) {
            buf.clear();
            buf.extend(chunk.iter().map(|b| b.load(Ordering::Relaxed)));
            self.put(&buf)?;
        }
        Ok(())
    }
}

/// Writes the whole file at `path` and syncs it.
fn write_to(table: &Table, key: &TableKey, path: &Path) -> std::io::Result<()> {
    let mut w = Writer {
        out: BufWriter::with_capacity(CHUNK, File::create(path)?),
        hash: Xxh3::new(),
    };
    w.put(MAGIC)?;
    w.put(&(key.text.len() as u32).to_le_bytes())?;
    w.put(key.text.as_bytes())?;
    w.put(&SECTIONS.to_le_bytes())?;
    for side in &table.data {
        w.bytes_section(side)?;
    }
    let sum = w.hash.digest();
    w.out.write_all(&sum.to_le_bytes())?;
    w.out.into_inner().map_err(|e| e.into_error())?.sync_all()
}

/// Reads the table of `material` (indexed by `indexer`, of `metric`) from `path`, checking
/// that the file's key is `key`, its lengths those of the index and its checksum right.
pub fn read(
    path: &Path,
    key: &TableKey,
    material: &Material,
    indexer: Indexer,
    metric: Metric,
) -> Result<Table, LoadError> {
    let file = File::open(path).map_err(|e| match e.kind() {
        ErrorKind::NotFound => LoadError::Missing(path.to_path_buf()),
        _ => LoadError::Io {
            path: path.to_path_buf(),
            error: e.to_string(),
        },
    })?;
    let len = file
        .metadata()
        .map_err(|e| LoadError::Io {
            path: path.to_path_buf(),
            error: e.to_string(),
        })?
        .len();
    let mut r = Reader {
        file,
        path,
        left: len,
        hash: Xxh3::new(),
    };
    let mut magic = [0; 8];
    r.take(&mut magic, "the magic")?;
    if &magic != MAGIC {
        return Err(r.corrupted("it does not start with FAIRYEGT (not a table file)"));
    }
    let key_len = r.u32("the key's length")?;
    if key_len > MAX_KEY_BYTES {
        return Err(r.corrupted(&format!("a key of {key_len} bytes")));
    }
    let mut text = vec![0; key_len as usize];
    r.take(&mut text, "the key")?;
    let text = String::from_utf8_lossy(&text);
    if text != key.text {
        return Err(LoadError::Stale {
            path: path.to_path_buf(),
            what: key_difference(&key.text, &text),
        });
    }
    let sections = r.u32("the number of sections")?;
    if sections != SECTIONS {
        return Err(r.corrupted(&format!("{sections} sections, expected {SECTIONS}")));
    }
    let slots = indexer.size().next_multiple_of(64);
    let data = [
        r.bytes_section(slots, "White's bytes")?,
        r.bytes_section(slots, "Black's bytes")?,
    ];
    let sum = r.hash.digest();
    let mut stored = [0; 8];
    r.take(&mut stored, "the checksum")?;
    if u64::from_le_bytes(stored) != sum {
        return Err(r.corrupted("the checksum does not match the contents"));
    }
    if r.left > 0 {
        return Err(r.corrupted(&format!("{} bytes after the checksum", r.left)));
    }
    Ok(Table {
        material: material.clone(),
        indexer,
        data,
        metric,
    })
}

/// The first line where the expected key and the file's differ.
fn key_difference(expected: &str, found: &str) -> String {
    let mut found_lines = found.lines();
    for line in expected.lines() {
        match found_lines.next() {
            Some(f) if f == line => {}
            Some(f) => return format!("expected '{line}', found '{f}'"),
            None => return format!("expected '{line}', found the key's end"),
        }
    }
    match found_lines.next() {
        Some(f) => format!("found '{f}' after the expected key"),
        None => "the key differs".to_string(),
    }
}

/// A file being read, hashed as it goes.
struct Reader<'p> {
    file: File,
    path: &'p Path,
    /// Bytes not read yet.
    left: u64,
    hash: Xxh3,
}

impl Reader<'_> {
    fn corrupted(&self, what: &str) -> LoadError {
        LoadError::Corrupted {
            path: self.path.to_path_buf(),
            what: what.to_string(),
        }
    }

    fn truncated(&self, what: &str) -> LoadError {
        LoadError::Truncated {
            path: self.path.to_path_buf(),
            what: format!("it ends in {what}"),
        }
    }

    /// Fills `buf`, or says that the file ends in `what`.
    fn take(&mut self, buf: &mut [u8], what: &str) -> Result<(), LoadError> {
        if (buf.len() as u64) > self.left {
            return Err(self.truncated(what));
        }
        self.file.read_exact(buf).map_err(|e| match e.kind() {
            ErrorKind::UnexpectedEof => self.truncated(what),
            _ => LoadError::Io {
                path: self.path.to_path_buf(),
                error: e.to_string(),
            },
        })?;
        self.left -= buf.len() as u64;
        self.hash.update(buf);
        Ok(())
    }

    fn u32(&mut self, what: &str) -> Result<u32, LoadError> {
        let mut b = [0; 4];
        self.take(&mut b, what)?;
        Ok(u32::from_le_bytes(b))
    }

    fn u64(&mut self, what: &str) -> Result<u64, LoadError> {
        let mut b = [0; 8];
        self.take(&mut b, what)?;
        Ok(u64::from_le_bytes(b))
    }

    /// A section of bytes that must be `len` long.
    fn bytes_section(&mut self, len: u64, what: &str) -> Result<Vec<AtomicU8>, LoadError> {
        let found = self.u64(&format!("the length of {what}"))?;
        if found != len {
            return Err(self.corrupted(&format!("{what}: {found} bytes, expected {len}")));
        }
        if len > self.left {
            return Err(self.truncated(what));
        }
        let mut bytes = vec![0u8; len as usize];
        for chunk in bytes.chunks_mut(CHUNK) {
            self.take(chunk, what)?;
        }
        // Collected in place: an AtomicU8 is a u8 in memory.
        Ok(bytes.into_iter().map(AtomicU8::new).collect())
    }
}
