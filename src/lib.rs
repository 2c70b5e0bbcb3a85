//! fairy-egt: endgame tables for fairy chess pieces, and an engine that plays them perfectly.

pub mod board;
pub mod config;
pub mod egt;
pub mod engine;
pub mod files;
pub mod piece;
pub mod protocol;
pub mod settings;
pub mod settings_file;
pub mod symmetry;
