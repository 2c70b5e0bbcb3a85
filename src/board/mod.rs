//! Squares, the board's symmetries, per-piece move tables, positions, FEN and move text,
//! and move generation.

pub mod fen;
pub mod geometry;
pub mod position;
pub mod square;
pub mod symmetry;

pub use fen::FenError;
pub use position::{Man, Move, MoveError, Position, PositionError, Setup};
pub use square::{Color, Square, BOARD_FILES, BOARD_RANKS, BOARD_SQUARES};
pub use symmetry::Sym;
