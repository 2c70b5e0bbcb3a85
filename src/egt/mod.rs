//! Endgame tables: material and specs, indexing, value encoding, the retrograde builder,
//! probing and best-move choice, statistics.

pub mod builder;
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
pub mod tables;
pub mod value;
