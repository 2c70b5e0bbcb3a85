//! fairy-egt: endgame tables for fairy chess pieces, and an engine that plays them perfectly.
//!
//! The library is what the `fairy-egt` program is made of, from the bottom up (see
//! docs/ARCHITECTURE.md): [`piece`] reads piece definitions, [`board`] knows squares,
//! positions and moves, [`egt`] builds and probes endgame tables, [`engine`] plays a game
//! from them, and [`protocol`] speaks XBoard and UCI.
//!
//! Define a piece, build its endgame and ask the table:
//!
//! ```
//! use fairy_egt::board::{Position, Setup};
//! use fairy_egt::egt::material::Material;
//! use fairy_egt::egt::progress::Silent;
//! use fairy_egt::egt::stats::table_stats;
//! use fairy_egt::egt::table::Metric;
//! use fairy_egt::egt::tables::TableSet;
//! use fairy_egt::egt::value::Value;
//! use fairy_egt::piece::parse::parse_piece_defs;
//!
//! // The Archbishop (Bishop + Knight) in Betza notation, beside the King.
//! let pieces = parse_piece_defs("K: K\nA: BN\n", "my-pieces.ini")?;
//! let mut tables = TableSet::new(pieces, Metric::Dtm);
//! let kak = Material::parse("KA.K", tables.pieces())?;
//! tables.build(&kak, &Silent)?;
//!
//! // King and Archbishop mate a lone king: how long at most, with White to move?
//! let stats = table_stats(tables.get(&kak).expect("built"), tables.geometry());
//! assert_eq!(stats.wtm.longest_win, 17);
//!
//! // And from one position:
//! let setup = Setup::from_fen("7k/8/8/8/8/8/8/K6A w - - 0 1", tables.geometry().board())?;
//! let pos = Position::new(&setup, tables.geometry(), kak.royals())?;
//! assert_eq!(tables.probe(&pos)?, Value::Win(14));
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

pub mod board;
pub mod config;
pub mod egt;
pub mod engine;
pub mod explorer;
pub mod files;
pub mod piece;
pub mod protocol;
pub mod settings;
pub mod settings_file;
pub mod symmetry;

/// Test data in files under tests/data, for the unit tests as for the integration tests.
#[cfg(test)]
#[path = "../tests/support/data.rs"]
mod test_data;
