//! Squares, the board's symmetries, per-piece move tables, positions, FEN and move text,
//! and move generation.

pub mod fen;
pub mod geometry;
pub mod man;
pub mod move_text;
pub mod position;
pub mod setup;
pub mod square;
pub mod symmetry;

pub use fen::FenError;
pub use man::Man;
pub use move_text::{Move, MoveError};
pub use position::{Position, PositionError};
pub use setup::Setup;
pub use square::{for_each_bit, Color, Square, BOARD_FILES, BOARD_RANKS, BOARD_SQUARES};
pub use symmetry::Sym;
