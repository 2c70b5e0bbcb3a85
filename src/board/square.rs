//! Squares (a1 = 0, sq = 8·rank + file) and colours.

/// Files of the board.
pub const BOARD_FILES: i8 = 8;
/// Ranks of the board.
pub const BOARD_RANKS: i8 = 8;
/// Number of squares.
pub const BOARD_SQUARES: usize = (BOARD_FILES as usize) * (BOARD_RANKS as usize);

/// A square index, `8·rank + file`, a1 = 0, h8 = 63.
pub type Square = u8;

/// Calls `f(s)` for every square s of the set `bits` (bit s set), lowest first.
#[inline]
pub fn for_each_bit(mut bits: u64, mut f: impl FnMut(Square)) {
    while bits != 0 {
        f(bits.trailing_zeros() as Square);
        bits &= bits - 1;
    }
}

/// File (0 = a) of a square.
pub fn file_of(sq: Square) -> i8 {
    (sq as i8) % BOARD_FILES
}

/// Rank (0 = first rank) of a square.
pub fn rank_of(sq: Square) -> i8 {
    (sq as i8) / BOARD_FILES
}

/// The square at (file, rank), or `None` off the board.
pub fn square_at(file: i8, rank: i8) -> Option<Square> {
    if (0..BOARD_FILES).contains(&file) && (0..BOARD_RANKS).contains(&rank) {
        Some((rank * BOARD_FILES + file) as Square)
    } else {
        None
    }
}

/// Algebraic name of a square, e.g. `e4`.
pub fn square_name(sq: Square) -> String {
    format!("{}{}", (b'a' + file_of(sq) as u8) as char, rank_of(sq) + 1)
}

/// Parses an algebraic square name (`a1`..`h8`).
pub fn parse_square(text: &str) -> Option<Square> {
    let b = text.as_bytes();
    if b.len() != 2 {
        return None;
    }
    let file = b[0].wrapping_sub(b'a') as i8;
    let rank = b[1].wrapping_sub(b'1') as i8;
    square_at(file, rank)
}

/// A side: White moves first in the standard position, its men are upper-case letters.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Color {
    White = 0,
    Black = 1,
}

impl Color {
    /// The other side.
    pub fn flip(self) -> Color {
        match self {
            Color::White => Color::Black,
            Color::Black => Color::White,
        }
    }

    /// 0 for White, 1 for Black.
    pub fn index(self) -> usize {
        self as usize
    }

    /// Both colours, White first.
    pub const BOTH: [Color; 2] = [Color::White, Color::Black];

    /// `w` or `b`, as in FEN.
    pub fn fen_char(self) -> char {
        match self {
            Color::White => 'w',
            Color::Black => 'b',
        }
    }

    /// `White` or `Black`.
    pub fn name(self) -> &'static str {
        match self {
            Color::White => "White",
            Color::Black => "Black",
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip() {
        for sq in 0..64u8 {
            assert_eq!(parse_square(&square_name(sq)), Some(sq));
        }
        assert_eq!(square_name(0), "a1");
        assert_eq!(square_name(63), "h8");
        assert_eq!(parse_square("i1"), None);
        assert_eq!(parse_square("a9"), None);
        assert_eq!(parse_square("a"), None);
    }
}
