//! fairy-egt: endgame tables for fairy chess pieces, and an engine that plays them perfectly.

pub mod board;
pub mod config;
pub mod egt;
pub mod engine;
pub mod files;
pub mod piece;
pub mod protocol;
pub mod settings;
pub mod symmetry;

/// Test data in files under tests/data, for the unit tests as for the integration tests.
#[cfg(test)]
#[path = "../tests/support/data.rs"]
mod test_data;
