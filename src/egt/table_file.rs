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
//! u32 S                      the number of sides held (2; 1 for a table stored once)
//! S × section               White-to-move bytes, Black-to-move bytes, each:
//!   u64 L                    its length
//!   u8 0, L bytes            stored as they are (sections under 1 MiB), or
//!   u8 1, u64 B, blocks      zstd by blocks of B bytes (16 MiB): each u64 N, an N-byte frame
//! S × u64 C, section         White's, Black's long distances (`Table::far`): C words of
//!                            `slot << 16 | distance`, as a section of 8·C bytes
//! u64                        xxh3-64 of every byte before it
//! ```
//!
//! The sections are written in `write_to` and read back in `read`, in the same order: a new
//! part of [`Table`] is one more section in each (a `Writer`/`Reader` method for its kind of
//! data), and [`FORMAT_VERSION`] raised.
//!
//! A file is written under a temporary name in the same directory, synced and then renamed
//! onto its name, so a save cut short (a kill, a full disk) never leaves a half file under
//! the table's name (its temporary file, left behind by a kill, is removed by a later save of
//! the same table once it is an hour old). A truncated or corrupted file (the checksum, a
//! section's length or encoding, a block that does not decompress, trailing bytes) is refused
//! with the reason.

use crate::board::geometry::Geometry;
use crate::board::promotion::default_promotions;
use crate::egt::dtz::Rule;
use crate::egt::index::Indexer;
use crate::egt::material::Material;
use crate::egt::rules::Rules;
use crate::egt::seed::Seed;
use crate::egt::table::{held_sides, Metric, Table};
use crate::piece::PieceType;
use rayon::prelude::*;
use std::fmt::Write as _;
use std::fs::File;
use std::io::{BufWriter, ErrorKind, Read, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU8, Ordering};
use thiserror::Error;
use xxhash_rust::xxh3::{xxh3_64, Xxh3};

/// The version of the file layout and of the table bytes' meaning: raise it whenever either
/// changes, and every saved table is rebuilt (its key no longer matches).
pub const FORMAT_VERSION: u32 = 4;

/// The first bytes of every table file.
const MAGIC: &[u8; 8] = b"FAIRYEGT";

/// The longest key text a file may announce (a key of six piece types is about 2 kB).
const MAX_KEY_BYTES: u32 = 1 << 20;

/// Sections from this size on are compressed (1 MiB: smaller ones gain nothing worth the
/// bother). Measured on KBN.KN, 2 threads: 5.9 times smaller (41 MB for 242), loaded in
/// 0.19 s against 0.15 s raw, from a warm file cache; from a disk, or for a 6-man table of
/// gigabytes, reading a sixth of the bytes more than pays for the decompression.
pub const COMPRESS_FROM: u64 = 1 << 20;

/// The encoding byte of a section stored as it is.
const RAW: u8 = 0;

/// The encoding byte of a section compressed by zstd in blocks: the block size (u64), then
/// each block as its length (u64) and its zstd frame.
const ZSTD: u8 = 1;

/// The zstd level: the fastest (KBN.KN: 5.9 times smaller; level 3 gains 3 % more).
const ZSTD_LEVEL: i32 = 1;

/// Bytes of a compressed block, before compression (blocks are compressed in parallel).
const BLOCK: usize = 16 << 20;

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
        // A table with pawns depends on what they promote to: a list other than the board's
        // default gets a file of its own (pawnless keys, and those of the default list, are
        // as they were before pawns).
        let promotion: String = geometry.promotions().iter().map(|p| p.letter).collect();
        let default: String = default_promotions(geometry.pieces(), board)
            .iter()
            .map(|p| p.letter)
            .collect();
        let own_promotion = material.pawns() > 0 && promotion != default;
        if own_promotion {
            let _ = writeln!(variant, "promotion {promotion}");
        }
        // A DTZ table under another rule than the 50-move rule gets a file of its own.
        let own_rule = match metric {
            Metric::Dtz(rule) if rule != Rule::FIFTY_MOVES => {
                let _ = writeln!(variant, "rule {} moves", rule.move_count());
                true
            }
            _ => false,
        };
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
        // A layout newer than the format's first (files saved before it have no such line, or
        // the line of the layout before, `index partners adjacent`, where Black's man was the
        // block man: they are rebuilt, not misread).
        if Indexer::partner_moved(material, board) {
            text.push_str("index white block man, his partner before him\n");
        }
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
        let plain = rules.is_orthodox() && fold && seeds.is_empty() && !own_promotion && !own_rule;
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
/// range, move/capture rights, how the line is walked, and `,i` for a step from the second
/// rank only, `,e` for a capture that may take en passant: written only when set, so that the
/// keys of pawnless tables are as they were before pawns), in their sorted order.
fn moves_text(piece: &PieceType) -> String {
    let mut text = format!("{}:", piece.letter);
    for s in &piece.steps {
        let _ = write!(
            text,
            " {},{},{},{:?},{:?}",
            s.dx, s.dy, s.range, s.mode, s.kind
        );
        if s.initial {
            text.push_str(",i");
        }
        if s.en_passant {
            text.push_str(",e");
        }
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

/// Why a table was not saved (nothing is left behind then).
#[derive(Debug, Error)]
#[error("cannot save {}: {error}", path.display())]
pub struct SaveError {
    /// The file it was to be saved to.
    pub path: PathBuf,
    /// The system's error.
    pub error: std::io::Error,
}

/// Writes `table` to `dir` (created if missing) under its key's name, atomically: a
/// temporary file in `dir`, synced, then renamed. Returns the file's path, or the error
/// naming the file and the system's reason (nothing is left behind then).
pub fn write(table: &Table, key: &TableKey, dir: &Path) -> Result<PathBuf, SaveError> {
    write_packed(table, key, dir, Packing::DEFAULT)
}

/// Which sections are compressed, and in blocks of what size.
#[derive(Clone, Copy, Debug)]
struct Packing {
    /// Sections of at least this many bytes are compressed.
    from: u64,
    /// Bytes of a block before compression.
    block: usize,
}

impl Packing {
    /// Sections from [`COMPRESS_FROM`] bytes on, in blocks of [`BLOCK`].
    const DEFAULT: Packing = Packing {
        from: COMPRESS_FROM,
        block: BLOCK,
    };
}

/// [`write()`], with sections compressed as `packing` says.
fn write_packed(
    table: &Table,
    key: &TableKey,
    dir: &Path,
    packing: Packing,
) -> Result<PathBuf, SaveError> {
    let path = dir.join(key.file_name());
    let temp = dir.join(format!(".{}.{}.tmp", key.file_name(), std::process::id()));
    remove_leftovers(dir, key.file_name());
    let result = std::fs::create_dir_all(dir)
        .and_then(|()| write_to(table, key, &temp, packing))
        .and_then(|()| std::fs::rename(&temp, &path));
    match result {
        Ok(()) => Ok(path),
        Err(e) => {
            let _ = std::fs::remove_file(&temp);
            Err(SaveError { path, error: e })
        }
    }
}

/// How old a temporary file of another process must be to be taken for the leftover of a
/// save that was killed (a save in progress rewrites its file all the time).
const LEFTOVER_AGE: std::time::Duration = std::time::Duration::from_secs(3600);

/// Removes the temporary files of saves of `name` that were cut short (killed): those
/// untouched for [`LEFTOVER_AGE`].
fn remove_leftovers(dir: &Path, name: &str) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    let prefix = format!(".{name}.");
    for entry in entries.flatten() {
        let file = entry.file_name();
        let file = file.to_string_lossy();
        let old = (entry.metadata().ok())
            .and_then(|m| m.modified().ok())
            .and_then(|t| t.elapsed().ok())
            .is_some_and(|age| age >= LEFTOVER_AGE);
        if file.starts_with(&prefix) && file.ends_with(".tmp") && old {
            match std::fs::remove_file(entry.path()) {
                Ok(()) => log::info!(
                    "removed {}, left by a save cut short",
                    entry.path().display()
                ),
                Err(e) => log::warn!("cannot remove {}: {e}", entry.path().display()),
            }
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

    /// A section of a table's bytes (see [`Writer::section`]).
    fn bytes_section(&mut self, bytes: &[AtomicU8], packing: Packing) -> std::io::Result<()> {
        self.section(
            bytes.len(),
            |r| bytes[r].iter().map(|b| b.load(Ordering::Relaxed)).collect(),
            packing,
        )
    }

    /// A section of 64-bit words: their count, then their little-endian bytes as a section.
    fn words_section(&mut self, words: &[u64], packing: Packing) -> std::io::Result<()> {
        self.put(&(words.len() as u64).to_le_bytes())?;
        self.section(
            8 * words.len(),
            |r| {
                let (first, last) = (r.start / 8, r.end.div_ceil(8));
                let bytes: Vec<u8> = words[first..last]
                    .iter()
                    .flat_map(|w| w.to_le_bytes())
                    .collect();
                bytes[r.start - 8 * first..r.end - 8 * first].to_vec()
            },
            packing,
        )
    }

    /// A section of `len` bytes, `plain(range)` giving those of a range: its length and
    /// encoding, then the bytes, stored as they are or, from `packing.from` bytes on,
    /// compressed by blocks.
    fn section(
        &mut self,
        len: usize,
        plain: impl Fn(std::ops::Range<usize>) -> Vec<u8> + Sync,
        packing: Packing,
    ) -> std::io::Result<()> {
        self.put(&(len as u64).to_le_bytes())?;
        let ranges = |size: usize| (0..len).step_by(size).map(move |a| a..(a + size).min(len));
        if (len as u64) < packing.from {
            self.put(&[RAW])?;
            for r in ranges(CHUNK) {
                self.put(&plain(r))?;
            }
            return Ok(());
        }
        self.put(&[ZSTD])?;
        self.put(&(packing.block as u64).to_le_bytes())?;
        // A few blocks at a time, compressed in parallel.
        let batch = 2 * rayon::current_num_threads();
        let blocks: Vec<std::ops::Range<usize>> = ranges(packing.block).collect();
        for group in blocks.chunks(batch) {
            let packed: Vec<std::io::Result<Vec<u8>>> = group
                .par_iter()
                .map(|r| zstd::bulk::compress(&plain(r.clone()), ZSTD_LEVEL))
                .collect();
            for p in packed {
                let p = p?;
                self.put(&(p.len() as u64).to_le_bytes())?;
                self.put(&p)?;
            }
        }
        Ok(())
    }
}

/// Writes the whole file at `path` and syncs it.
fn write_to(table: &Table, key: &TableKey, path: &Path, packing: Packing) -> std::io::Result<()> {
    let mut w = Writer {
        out: BufWriter::with_capacity(CHUNK, File::create(path)?),
        hash: Xxh3::new(),
    };
    w.put(MAGIC)?;
    w.put(&(key.text.len() as u32).to_le_bytes())?;
    w.put(key.text.as_bytes())?;
    let sides = table.held_colors();
    w.put(&(sides.len() as u32).to_le_bytes())?;
    for c in sides {
        w.bytes_section(&table.data[c.index()], packing)?;
    }
    for c in sides {
        w.words_section(&table.far[c.index()], packing)?;
    }
    let sum = w.hash.digest();
    w.out.write_all(&sum.to_le_bytes())?;
    w.out.into_inner().map_err(|e| e.into_error())?.sync_all()
}

/// Reads the table of `material` (indexed by `indexer`, of `metric`, stored once or not:
/// `table::stored_once`) from `path`, checking that the file's key is `key`, its lengths
/// those of the index and its checksum right.
pub fn read(
    path: &Path,
    key: &TableKey,
    material: &Material,
    indexer: Indexer,
    metric: Metric,
    once: bool,
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
    let sides = r.u32("the number of sides held")?;
    let expected = held_sides(once).len() as u32;
    if sides != expected {
        return Err(r.corrupted(&format!("{sides} sides held, expected {expected}")));
    }
    let slots = indexer.padded_size();
    // The sections of the sides held, in the order `write_to` writes them.
    let (mut data, mut far) = ([Vec::new(), Vec::new()], [Vec::new(), Vec::new()]);
    for &c in held_sides(once) {
        data[c.index()] = r.bytes_section(slots, &format!("{c:?}'s bytes"))?;
    }
    for &c in held_sides(once) {
        far[c.index()] = r.far_section(slots, &format!("{c:?}'s long distances"))?;
    }
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
        far,
        metric,
        once,
        mirror: None,
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

    /// The `len` bytes of a compressed section: its blocks are read (and hashed), then
    /// decompressed in parallel.
    fn compressed(&mut self, len: u64, what: &str) -> Result<Vec<u8>, LoadError> {
        let block = self.u64(&format!("the block size of {what}"))?;
        if !(1..=1 << 32).contains(&block) {
            return Err(self.corrupted(&format!("{what}: blocks of {block} bytes")));
        }
        let count = len.div_ceil(block);
        let mut packed = Vec::new();
        for _ in 0..count {
            let n = self.u64(&format!("a block's length in {what}"))?;
            if n > self.left {
                return Err(self.truncated(what));
            }
            let mut block = vec![0u8; n as usize];
            self.take(&mut block, what)?;
            packed.push(block);
        }
        let mut bytes = vec![0u8; len as usize];
        let fits = (bytes.par_chunks_mut(block as usize).zip(packed.par_iter()))
            .all(|(out, p)| zstd::bulk::decompress_to_buffer(p, out).is_ok_and(|n| n == out.len()));
        if !fits {
            return Err(self.corrupted(&format!("{what}: a block does not decompress")));
        }
        Ok(bytes)
    }

    /// A section of bytes that must be `len` long.
    fn bytes_section(&mut self, len: u64, what: &str) -> Result<Vec<AtomicU8>, LoadError> {
        // Collected in place: an AtomicU8 is a u8 in memory.
        Ok(self
            .section(len, what)?
            .into_iter()
            .map(AtomicU8::new)
            .collect())
    }

    /// A table's long distances (`Table::far`): a count, then a section of as many
    /// little-endian words, sorted by slot, each slot below `slots`.
    fn far_section(&mut self, slots: u64, what: &str) -> Result<Vec<u64>, LoadError> {
        let count = self.u64(&format!("the count of {what}"))?;
        if count > slots {
            return Err(self.corrupted(&format!("{what}: {count} for {slots} slots")));
        }
        let bytes = self.section(8 * count, what)?;
        let far: Vec<u64> = bytes
            .chunks_exact(8)
            .map(|b| u64::from_le_bytes(b.try_into().expect("8 bytes")))
            .collect();
        let sorted = far.windows(2).all(|p| p[0] >> 16 < p[1] >> 16);
        if !sorted || far.last().is_some_and(|&e| e >> 16 >= slots) {
            return Err(self.corrupted(&format!("{what}: not a sorted list of slots")));
        }
        Ok(far)
    }

    /// A section of bytes that must be `len` long.
    fn section(&mut self, len: u64, what: &str) -> Result<Vec<u8>, LoadError> {
        let found = self.u64(&format!("the length of {what}"))?;
        if found != len {
            return Err(self.corrupted(&format!("{what}: {found} bytes, expected {len}")));
        }
        let mut encoding = [0];
        self.take(&mut encoding, &format!("the encoding of {what}"))?;
        let bytes = match encoding[0] {
            RAW if len > self.left => return Err(self.truncated(what)),
            RAW => {
                let mut bytes = vec![0u8; len as usize];
                for chunk in bytes.chunks_mut(CHUNK) {
                    self.take(chunk, what)?;
                }
                bytes
            }
            ZSTD => self.compressed(len, what)?,
            e => return Err(self.corrupted(&format!("{what}: unknown encoding {e}"))),
        };
        Ok(bytes)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::Color;
    use crate::egt::progress::{BuildEvent, Phase};
    use crate::egt::tables::TableSet;
    use crate::piece::{PieceSet, Step, StepMode};
    use std::sync::atomic::AtomicUsize;

    /// A fresh, empty directory of this test, removed with its files when dropped.
    fn dir(name: &str) -> tempfile::TempDir {
        tempfile::Builder::new()
            .prefix(&format!("fairy-egt-table-file-{name}-"))
            .tempdir()
            .expect("create a scratch directory")
    }

    /// A set of these pieces, saving to and loading from `dir`.
    fn set(pieces: PieceSet, dir: &Path) -> TableSet {
        let mut set = TableSet::new(pieces, Metric::Dtm);
        set.set_table_dir(Some(dir.to_path_buf()));
        set
    }

    /// Builds `spec` in `set`; returns how many tables were built (the others were loaded).
    fn build(set: &mut TableSet, spec: &str) -> usize {
        let m = Material::parse(spec, set.pieces()).unwrap();
        let built = AtomicUsize::new(0);
        let count = |e: &BuildEvent| {
            if e.phase == Phase::Setup {
                built.fetch_add(1, Ordering::Relaxed);
            }
        };
        set.build(&m, &count).unwrap();
        built.into_inner()
    }

    fn bytes(set: &TableSet, spec: &str) -> Vec<Vec<u8>> {
        let m = Material::parse(spec, set.pieces()).unwrap();
        let t = set.get(&m).unwrap();
        (t.data.iter())
            .map(|side| side.iter().map(|b| b.load(Ordering::Relaxed)).collect())
            .collect()
    }

    /// The standard pieces with the Rook replaced by a Rook of range 7.
    fn short_rooks() -> PieceSet {
        let mut pieces = PieceSet::standard();
        let steps = [(1, 0), (-1, 0), (0, 1), (0, -1)]
            .map(|(dx, dy)| Step::plain(dx, dy, 7, StepMode::Both))
            .to_vec();
        pieces.insert(PieceType::new('R', steps));
        pieces
    }

    /// Long distances (here every one beyond 3 moves) are saved and loaded with the bytes,
    /// raw and compressed.
    #[test]
    fn long_distances_are_saved_and_loaded() {
        for (name, packing) in [
            ("far-raw", Packing::DEFAULT),
            (
                "far-zstd",
                Packing {
                    from: 64,
                    block: 1000,
                },
            ),
        ] {
            let scratch = dir(name);
            let d = scratch.path();
            let mut first =
                TableSet::new(PieceSet::standard(), Metric::Dtm).with_direct_distances(3);
            build(&mut first, "KQ.KR");
            let m = Material::parse("KQ.KR", first.pieces()).unwrap();
            let built = first.get(&m).unwrap();
            assert!(built.far_count() > 1000);
            let key = first.key(&m);
            let path = write_packed(built, &key, d, packing).unwrap();
            let loaded = read(
                &path,
                &key,
                &m,
                Indexer::new(&m, first.geometry(), true),
                Metric::Dtm,
                false,
            )
            .unwrap();
            assert_eq!(loaded.far, built.far, "{name}");
            assert!(bytes(&first, "KQ.KR")
                .iter()
                .zip(&loaded.data)
                .all(|(a, b)| {
                    a.iter()
                        .zip(b)
                        .all(|(x, y)| *x == y.load(Ordering::Relaxed))
                }));
        }
    }

    #[test]
    fn a_loaded_table_equals_the_built_one_byte_for_byte() {
        let scratch = dir("equal");
        let d = scratch.path();
        let mut first = set(PieceSet::standard(), d);
        assert_eq!(build(&mut first, "KR.KN"), 4, "K.K, K.KN, KR.K, KR.KN");
        let mut second = set(PieceSet::standard(), d);
        let m = Material::parse("KR.KN", second.pieces()).unwrap();
        let events = std::sync::Mutex::new(Vec::new());
        let keep = |e: &BuildEvent| events.lock().unwrap().push((e.table.clone(), e.phase));
        second.build(&m, &keep).unwrap();
        let mut loading: Vec<String> = (events.into_inner().unwrap().into_iter())
            .map(|(table, phase)| {
                assert_eq!(phase, Phase::Loading, "{table}: everything is loaded");
                table
            })
            .collect();
        loading.sort();
        assert_eq!(
            loading,
            ["K.K", "K.KN", "KR.K", "KR.KN"],
            "each load is shown"
        );
        for spec in ["KR.KN", "KR.K", "K.KN", "K.K"] {
            assert!(bytes(&first, spec) == bytes(&second, spec), "{spec}");
        }
        // The leftover of a save killed an hour ago is removed by the next save of its table.
        let leftover = d.join(".KR.K.8x8.dtm.egt.1.tmp");
        let recent = d.join(".KR.K.8x8.dtm.egt.2.tmp");
        for f in [&leftover, &recent] {
            std::fs::write(f, b"half a table").unwrap();
        }
        let hour_ago = std::time::SystemTime::now() - LEFTOVER_AGE;
        File::options()
            .write(true)
            .open(&leftover)
            .unwrap()
            .set_modified(hour_ago)
            .unwrap();
        let mut again = TableSet::new(PieceSet::standard(), Metric::Dtm);
        build(&mut again, "KR.K");
        again.set_table_dir(Some(d.to_path_buf()));
        build(&mut again, "KR.K");
        assert!(!leftover.exists(), "the leftover is still there");
        assert!(recent.exists(), "a save in progress lost its file");
        std::fs::remove_file(&recent).unwrap();
        // Saved atomically: only the tables' files are left.
        let mut names: Vec<String> = std::fs::read_dir(d)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        names.sort();
        assert_eq!(
            names,
            [
                "K.K.8x8.dtm.egt",
                "K.KN.8x8.dtm.egt",
                "KR.K.8x8.dtm.egt",
                "KR.KN.8x8.dtm.egt"
            ]
        );
        // A table built before the directory is set is saved when a build uses it.
        let later = dir("later");
        let d2 = later.path();
        let mut late = TableSet::new(PieceSet::standard(), Metric::Dtm);
        build(&mut late, "KR.K");
        late.set_table_dir(Some(d2.to_path_buf()));
        build(&mut late, "KR.KN");
        assert!(d2.join("KR.K.8x8.dtm.egt").exists());
    }

    /// A table stored once (KR.KR) is saved with White's side alone and loads as it was
    /// built, answering for Black through the colour swap; a file whose sides held are not
    /// those expected is refused.
    #[test]
    fn a_table_stored_once_is_saved_once() {
        let scratch = dir("once");
        let d = scratch.path();
        let mut first = set(PieceSet::standard(), d);
        build(&mut first, "KR.KR");
        let mut second = set(PieceSet::standard(), d);
        build(&mut second, "KR.KR");
        let m = Material::parse("KR.KR", second.pieces()).unwrap();
        let (built, loaded) = (first.get(&m).unwrap(), second.get(&m).unwrap());
        assert!(loaded.is_stored_once());
        assert!(bytes(&first, "KR.KR") == bytes(&second, "KR.KR"));
        assert!(loaded.data[1].is_empty() && loaded.far[1].is_empty());
        let ix = loaded.indexer();
        let black = (0..ix.size()).map(|i| loaded.value_at(i, Color::Black));
        assert!(black.eq((0..ix.size()).map(|i| built.value_at(i, Color::Black))));
        let key = second.key(&m);
        let path = d.join(key.file_name());
        let indexer = Indexer::new(&m, second.geometry(), true);
        let e = read(&path, &key, &m, indexer, Metric::Dtm, false)
            .err()
            .unwrap();
        assert!(e.to_string().contains("1 sides held, expected 2"), "{e}");
    }

    #[test]
    fn a_compressed_table_loads_the_same_and_damage_is_found() {
        let scratch = dir("compressed");
        let d = scratch.path();
        let mut s = set(PieceSet::standard(), d);
        build(&mut s, "KR.KN");
        let m = Material::parse("KR.KN", s.pieces()).unwrap();
        let key = s.key(&m);
        let raw_len = s.get(&m).unwrap().bytes();
        // Blocks of 100 kB: each side of KR.KN is 19 of them, the last shorter.
        let packing = Packing {
            from: 0,
            block: 100_000,
        };
        let path = write_packed(s.get(&m).unwrap(), &key, d, packing).unwrap();
        let packed = std::fs::read(&path).unwrap();
        assert!(
            packed.len() * 4 < raw_len as usize,
            "{} of {raw_len}",
            packed.len()
        );
        let load = || {
            let indexer = Indexer::new(&m, s.geometry(), true);
            read(&path, &key, &m, indexer, Metric::Dtm, false)
        };
        let table = load().unwrap();
        let loaded: Vec<Vec<u8>> = (table.data.iter())
            .map(|side| side.iter().map(|b| b.load(Ordering::Relaxed)).collect())
            .collect();
        assert!(loaded == bytes(&s, "KR.KN"));
        let mut flipped = packed.clone();
        flipped[packed.len() / 2] ^= 4;
        std::fs::write(&path, &flipped).unwrap();
        assert!(matches!(load(), Err(LoadError::Corrupted { .. })));
        std::fs::write(&path, &packed[..packed.len() - 9]).unwrap();
        assert!(matches!(load(), Err(LoadError::Truncated { .. })));
    }

    /// The load error of the KR.K file in `d` for the standard pieces.
    fn load_error(d: &Path, pieces: PieceSet) -> LoadError {
        let s = set(pieces, d);
        let m = Material::parse("KR.K", s.pieces()).unwrap();
        let key = s.key(&m);
        let indexer = Indexer::new(&m, s.geometry(), true);
        match read(
            &d.join(key.file_name()),
            &key,
            &m,
            indexer,
            Metric::Dtm,
            false,
        ) {
            Ok(_) => panic!("the file was loaded"),
            Err(e) => e,
        }
    }

    #[test]
    fn a_damaged_or_stale_file_is_refused_and_rebuilt() {
        let scratch = dir("damaged");
        let d = scratch.path();
        let path = d.join("KR.K.8x8.dtm.egt");
        build(&mut set(PieceSet::standard(), d), "KR.K");
        let good = std::fs::read(&path).unwrap();
        let fresh = bytes(&built_alone(), "KR.K");

        // A flipped byte in the middle.
        let mut flipped = good.clone();
        flipped[good.len() / 2] ^= 0x10;
        std::fs::write(&path, &flipped).unwrap();
        let e = load_error(d, PieceSet::standard());
        assert!(matches!(e, LoadError::Corrupted { .. }), "{e}");
        assert!(e.to_string().contains("checksum"), "{e}");
        // Rebuilt, and the file fixed.
        let mut s = set(PieceSet::standard(), d);
        assert_eq!(build(&mut s, "KR.K"), 1);
        assert!(bytes(&s, "KR.K") == fresh);
        assert!(std::fs::read(&path).unwrap() == good);

        // Truncated, and too long.
        std::fs::write(&path, &good[..good.len() - 100]).unwrap();
        let e = load_error(d, PieceSet::standard());
        assert!(matches!(e, LoadError::Truncated { .. }), "{e}");
        let mut long = good.clone();
        long.push(0);
        std::fs::write(&path, &long).unwrap();
        let e = load_error(d, PieceSet::standard());
        assert!(e.to_string().contains("1 bytes after the checksum"), "{e}");
        std::fs::write(&path, b"FAIRY").unwrap();
        assert!(matches!(
            load_error(d, PieceSet::standard()),
            LoadError::Truncated { .. }
        ));
        std::fs::write(&path, b"not a table at all").unwrap();
        let e = load_error(d, PieceSet::standard());
        assert!(e.to_string().contains("not a table file"), "{e}");
        std::fs::write(&path, &good).unwrap();

        // A changed definition of a piece of the table: stale, rebuilt, replaced.
        let e = load_error(d, short_rooks());
        assert!(matches!(e, LoadError::Stale { .. }), "{e}");
        assert!(e.to_string().contains("piece R: "), "{e}");
        let mut s = set(short_rooks(), d);
        assert_eq!(build(&mut s, "KR.K"), 1);
        assert_eq!(build(&mut set(short_rooks(), d), "KR.K"), 0);
        // A changed piece the table does not use: still loaded (K.K, saved with KR.K).
        assert_eq!(build(&mut set(short_rooks(), d), "KN.K"), 1);
        assert_eq!(build(&mut set(PieceSet::standard(), d), "KN.K"), 0);
    }

    /// KR.K built without a table directory.
    fn built_alone() -> TableSet {
        let mut s = TableSet::new(PieceSet::standard(), Metric::Dtm);
        build(&mut s, "KR.K");
        s
    }

    #[test]
    fn other_settings_are_other_files_or_stale() {
        let pieces = PieceSet::standard();
        let s = TableSet::new(pieces.clone(), Metric::Dtm);
        let m = Material::parse("KQ.KR", &pieces).unwrap();
        let plain = s.key(&m);
        assert_eq!(plain.file_name(), "KQ.KR.8x8.dtm.egt");
        let rules = Rules {
            stalemate_wins: true,
            ..Rules::default()
        };
        let other = TableSet::new(pieces.clone(), Metric::Dtm).with_rules(rules);
        assert!(other.key(&m).file_name().starts_with("KQ.KR.8x8.dtm."));
        assert_ne!(other.key(&m).file_name(), plain.file_name());
        assert!(other.key(&m).text().contains("rules stalemate wins"));
        let unfolded = TableSet::new(pieces.clone(), Metric::Dtm).without_symmetry();
        assert_ne!(unfolded.key(&m), plain);
        let dtc = TableSet::new(pieces.clone(), Metric::Dtc);
        assert_eq!(dtc.key(&m).file_name(), "KQ.KR.8x8.dtc.egt");
        let board = crate::board::BoardSize::new(10, 8).unwrap();
        let wide = TableSet::new(pieces.clone(), Metric::Dtm).on_board(board);
        assert_eq!(wide.key(&m).file_name(), "KQ.KR.10x8.dtm.egt");
        // Seeds count for their endgame only.
        let seed = Seed {
            squares: [0, 2, 9, 20, 30, 40],
            side: crate::board::Color::Black,
            value: crate::egt::seed::SeedValue::Draw,
        };
        let seeded = TableSet::new(pieces.clone(), Metric::Dtm).with_seeds(m.clone(), vec![seed]);
        assert!(seeded.key(&m).text().contains("seeds 1 positions, xxh3 "));
        assert_ne!(seeded.key(&m).file_name(), plain.file_name());
        let kqk = Material::parse("KQ.K", &pieces).unwrap();
        assert_eq!(seeded.key(&kqk), s.key(&kqk));
        assert!(plain.text().starts_with(&format!(
            "fairy-egt table, format {FORMAT_VERSION}\nmaterial KQ.KR\n"
        )));
    }

    /// A table whose index moved men out of man order for the colour swap says so, so that
    /// a file saved in a layout before (the same key without that line, or with the line of
    /// the layout whose block man was Black's) is rebuilt.
    #[test]
    fn layouts_changed_for_the_colour_swap_are_in_the_key() {
        let pieces = PieceSet::standard();
        let set = TableSet::new(pieces.clone(), Metric::Dtm);
        let line = "index white block man, his partner before him\n";
        let cases = [
            ("KRN.KRN", true),
            ("KQ.KQ", true),
            ("KRN.KR", false),
            ("KNN.KNN", false),
        ];
        for (name, moved) in cases {
            let key = set.key(&Material::parse(name, &pieces).unwrap());
            assert_eq!(key.text().contains(line), moved, "{name}");
            assert!(!key.text().contains("index partners adjacent"), "{name}");
        }
    }

    #[test]
    fn pawn_tables_name_their_promotions_and_pawn_flags() {
        let pieces = PieceSet::standard();
        let kpk = Material::parse("KP.K", &pieces).unwrap();
        let kqk = Material::parse("KQ.K", &pieces).unwrap();
        let plain = TableSet::new(pieces.clone(), Metric::Dtm);
        assert_eq!(plain.key(&kpk).file_name(), "KP.K.8x8.dtm.egt");
        assert!(!plain.key(&kpk).text().contains("promotion"));
        // The pawn's initial step and en-passant capture are in its line; the other pieces'
        // lines have no flags, as before pawns.
        let text = plain.key(&kpk).text().to_string();
        let pawn = text.lines().find(|l| l.starts_with("piece P:")).unwrap();
        assert!(pawn.contains(",i") && pawn.contains(",e"), "{pawn}");
        let king = text.lines().find(|l| l.starts_with("piece K:")).unwrap();
        assert!(!king.contains(",i") && !king.contains(",e"), "{king}");
        assert_eq!(
            moves_text(pieces.get('R').unwrap()),
            "R: -1,0,0,Both,Plain 0,-1,0,Both,Plain 0,1,0,Both,Plain 1,0,0,Both,Plain"
        );
        // The board's list spelt out is the default; another list is another file.
        let same = TableSet::new(pieces.clone(), Metric::Dtm)
            .with_promotions("qrbn")
            .unwrap();
        assert_eq!(same.key(&kpk), plain.key(&kpk));
        let qn = TableSet::new(pieces.clone(), Metric::Dtm)
            .with_promotions("QN")
            .unwrap();
        let key = qn.key(&kpk);
        assert!(key.text().contains("\npromotion QN\n"), "{}", key.text());
        assert!(key.file_name().starts_with("KP.K.8x8.dtm."));
        assert_ne!(key.file_name(), "KP.K.8x8.dtm.egt");
        let nq = TableSet::new(pieces.clone(), Metric::Dtm)
            .with_promotions("NQ")
            .unwrap();
        assert_ne!(nq.key(&kpk).file_name(), key.file_name());
        // Pawnless tables do not depend on the promotions.
        assert_eq!(qn.key(&kqk), plain.key(&kqk));
        assert_eq!(qn.key(&kqk).file_name(), "KQ.K.8x8.dtm.egt");
        // On 10x8 the default is QRBNAC.
        let board = crate::board::BoardSize::new(10, 8).unwrap();
        let wide = TableSet::new(pieces.clone(), Metric::Dtm).on_board(board);
        assert_eq!(wide.key(&kpk).file_name(), "KP.K.10x8.dtm.egt");
        let wide_qrbn = TableSet::new(pieces.clone(), Metric::Dtm)
            .on_board(board)
            .with_promotions("QRBN")
            .unwrap();
        assert!(wide_qrbn.key(&kpk).text().contains("promotion QRBN"));
        assert!(TableSet::new(pieces, Metric::Dtm)
            .with_promotions("QV")
            .is_err());
    }

    #[test]
    fn a_failed_save_leaves_the_table_in_memory() {
        // A directory that cannot be made: its parent is a file (a read-only directory
        // would not do: the tests may run as root).
        let scratch = dir("unsaved");
        let d = scratch.path();
        std::fs::create_dir_all(d).unwrap();
        let file = d.join("file");
        std::fs::write(&file, b"x").unwrap();
        let mut s = set(PieceSet::standard(), &file.join("tables"));
        assert_eq!(build(&mut s, "KR.K"), 2);
        let m = Material::parse("KR.K", s.pieces()).unwrap();
        assert!(s.get(&m).is_some());
        let t = s.get(&m).unwrap();
        let e = write(t, &s.key(&m), &file.join("tables"))
            .unwrap_err()
            .to_string();
        assert!(e.starts_with("cannot save "), "{e}");
        assert!(e.contains("KR.K.8x8.dtm.egt"), "{e}");
        // Built again, not saved: silent.
        assert_eq!(build(&mut s, "KR.K"), 0);
    }
}
