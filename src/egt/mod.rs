//! Endgame tables: material and specs, indexing, value encoding, the retrograde builder,
//! probing and best-move choice, statistics.

pub mod index;
pub mod material;
pub mod value;
pub mod builder;
pub mod men;
pub mod progress;
pub mod table;
pub mod tables;
pub mod stats;
