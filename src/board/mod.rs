//! The board's size and squares, its symmetries, per-piece move tables, positions, FEN and
//! move text, and move generation.

pub mod en_passant;
pub mod fen;
pub mod geometry;
pub mod man;
pub mod move_text;
pub mod position;
pub mod promotion;
mod ray;
pub mod setup;
pub mod size;
mod slides;
mod special;
pub mod square;
pub mod square_set;
pub mod symmetry;
pub mod symmetry_group;
#[cfg(test)]
pub(crate) mod test_random;

pub use en_passant::{EnPassant, EnPassantFault};
pub use fen::FenError;
pub use man::Man;
pub use move_text::{Move, MoveError};
pub use position::{Position, PositionError};
pub use promotion::{Promotion, PromotionError};
pub use setup::Setup;
pub use size::{BoardSize, BoardSizeError};
pub use square::{Color, Square};
pub use square_set::{all_bits, for_each_bit, Bits192, Bits256, SquareSet, Words};
pub use symmetry::Sym;
pub use symmetry_group::symmetry_group;
