//! Endgame tables: material and specs, indexing, value encoding, the retrograde builder,
//! probing and best-move choice, statistics.
//!
//! Dependency order: a module may use only those on the lines above its own, never one on
//! its line or below, so there is no cycle (unit tests may also build tables through
//! `tables`).
//!
//! ```text
//! material, value, rules, progress, memory   leaves: the endgame, value bytes, options
//! bytes                                      leaf: tests on 64 table bytes at once, prefetches
//! index                                      material
//! table, men                                 index, material, value, rules
//! probe, seed                                material, value, table, men
//! stats                                      bytes, index, material, value, table, men
//! table_file                                 index, material, rules, seed, table
//! builder                                    all of the above but probe and stats
//! tables                                     all of the above but stats
//! extremes                                   tables
//! ```

pub mod builder;
mod bytes;
pub mod dtz;
pub mod extremes;
pub mod index;
pub mod material;
pub mod memory;
pub mod men;
pub mod probe;
pub mod progress;
pub mod rules;
pub mod seed;
pub mod stats;
pub mod table;
pub mod table_file;
pub mod tables;
pub mod value;
