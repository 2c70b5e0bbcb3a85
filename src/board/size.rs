//! The board's size: W files × H ranks (8×8 by default, each side 3 to 16), squares numbered
//! a1 = 0, `sq = W·rank + file`; square names (`j8`, `a10`) and the symmetries a shape allows.

use super::square::{Color, Square};
use crate::symmetry::Sym;
use std::fmt;
use std::str::FromStr;
use thiserror::Error;

/// Fewest files or ranks of a board.
pub const MIN_SIDE: u8 = 3;
/// Most files or ranks of a board (files a…p; 256 squares keep a square in a byte).
pub const MAX_SIDE: u8 = 16;

/// The size of the board: files × ranks.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct BoardSize {
    files: u8,
    ranks: u8,
}

/// Why a board size was refused.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum BoardSizeError {
    /// Not `WxH`.
    #[error("board size '{0}' is malformed: expected files x ranks, such as 10x8")]
    Malformed(String),
    /// A side out of range.
    #[error("board size {files}x{ranks} is out of range: files and ranks must each be 3 to 16")]
    OutOfRange {
        /// Files asked for.
        files: u32,
        /// Ranks asked for.
        ranks: u32,
    },
}

impl BoardSize {
    /// The 8×8 board.
    pub const STANDARD: BoardSize = BoardSize { files: 8, ranks: 8 };

    /// A board of `files` × `ranks`, each 3 to 16.
    pub fn new(files: u32, ranks: u32) -> Result<BoardSize, BoardSizeError> {
        let side = MIN_SIDE as u32..=MAX_SIDE as u32;
        if side.contains(&files) && side.contains(&ranks) {
            Ok(BoardSize {
                files: files as u8,
                ranks: ranks as u8,
            })
        } else {
            Err(BoardSizeError::OutOfRange { files, ranks })
        }
    }

    /// Number of files (W).
    #[inline]
    pub fn files(self) -> u8 {
        self.files
    }

    /// Number of ranks (H).
    #[inline]
    pub fn ranks(self) -> u8 {
        self.ranks
    }

    /// Number of squares, W·H.
    #[inline]
    pub fn squares(self) -> usize {
        self.files as usize * self.ranks as usize
    }

    /// Whether files and ranks are as many (then the diagonal mirrors map the board onto
    /// itself).
    pub fn is_square(self) -> bool {
        self.files == self.ranks
    }

    /// File (0 = a) of a square.
    #[inline]
    pub fn file_of(self, sq: Square) -> i8 {
        (sq % self.files) as i8
    }

    /// Rank (0 = first rank) of a square.
    #[inline]
    pub fn rank_of(self, sq: Square) -> i8 {
        (sq / self.files) as i8
    }

    /// The rank (0 = first) where `color`'s pawns promote: the last rank from its side.
    #[inline]
    pub fn last_rank(self, color: Color) -> i8 {
        match color {
            Color::White => self.ranks as i8 - 1,
            Color::Black => 0,
        }
    }

    /// The square at (file, rank), or `None` off the board.
    #[inline]
    pub fn square_at(self, file: i8, rank: i8) -> Option<Square> {
        let on = |x: i8, n: u8| x >= 0 && (x as u8) < n;
        (on(file, self.files) && on(rank, self.ranks)).then(|| rank as u8 * self.files + file as u8)
    }

    /// Every square, a1 first.
    pub fn all_squares(self) -> impl Iterator<Item = Square> {
        (0..self.squares()).map(|s| s as Square)
    }

    /// Algebraic name of a square: file letter, rank number (`e4`, `j8`, `a10`).
    pub fn square_name(self, sq: Square) -> String {
        format!(
            "{}{}",
            (b'a' + self.file_of(sq) as u8) as char,
            self.rank_of(sq) + 1
        )
    }

    /// Reads a square name as a whole (`a1`, `j8`, `l12`), lower case.
    pub fn parse_square(self, text: &str) -> Option<Square> {
        let (sq, rest) = self.parse_square_prefix(text)?;
        rest.is_empty().then_some(sq)
    }

    /// Reads a square name at the start of `text`: the square and the text after it. The
    /// rank takes every digit that follows the file letter.
    pub fn parse_square_prefix(self, text: &str) -> Option<(Square, &str)> {
        let (file, rank, rest) = square_name_parts(text)?;
        if rank.starts_with('0') {
            return None;
        }
        let rank: i8 = rank.parse().ok()?;
        let sq = self.square_at(file as i8 - b'a' as i8, rank - 1)?;
        Some((sq, rest))
    }

    /// The symmetries of the board's shape: all 8 on a square board, the 4 mirrors (no
    /// transpose) on a rectangular one; identity first.
    pub fn symmetries(self) -> impl Iterator<Item = Sym> {
        let square = self.is_square();
        Sym::all().filter(move |g| square || !g.transposes())
    }

    /// Image of a square under a symmetry of the board's shape (see `symmetries`).
    #[inline]
    pub fn image(self, g: Sym, sq: Square) -> Square {
        let (f, r) = (self.file_of(sq), self.rank_of(sq));
        let (mut x, mut y) = if g.transposes() { (r, f) } else { (f, r) };
        if g.0 & 1 != 0 {
            x = self.files as i8 - 1 - x;
        }
        if g.0 & 2 != 0 {
            y = self.ranks as i8 - 1 - y;
        }
        self.square_at(x, y)
            .expect("a symmetry of the board's shape maps it onto itself")
    }
}

/// The parts of the square name at the start of `text`, whatever the board: its file letter
/// (lower case), its rank's digits (one or two, all that follow the letter), and the text
/// after it.
pub fn square_name_parts(text: &str) -> Option<(u8, &str, &str)> {
    let b = text.as_bytes();
    let file = *b.first().filter(|c| c.is_ascii_lowercase())?;
    let digits = b[1..].iter().take_while(|c| c.is_ascii_digit()).count();
    (1..=2)
        .contains(&digits)
        .then(|| (file, &text[1..1 + digits], &text[1 + digits..]))
}

impl Default for BoardSize {
    fn default() -> BoardSize {
        BoardSize::STANDARD
    }
}

impl fmt::Display for BoardSize {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}x{}", self.files, self.ranks)
    }
}

impl FromStr for BoardSize {
    type Err = BoardSizeError;

    /// Reads `WxH` (`10x8`; `X` or `×` also separate).
    fn from_str(text: &str) -> Result<BoardSize, BoardSizeError> {
        let t = text.trim();
        let malformed = || BoardSizeError::Malformed(t.to_string());
        let (w, h) = t.split_once(['x', 'X', '×']).ok_or_else(malformed)?;
        let number = |s: &str| {
            (!s.is_empty() && s.len() <= 3 && s.bytes().all(|c| c.is_ascii_digit()))
                .then(|| s.parse::<u32>().ok())
                .flatten()
                .ok_or_else(malformed)
        };
        BoardSize::new(number(w)?, number(h)?)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip_on_every_size() {
        for (w, h) in [(8, 8), (10, 8), (12, 12), (3, 16), (16, 3)] {
            let b = BoardSize::new(w, h).unwrap();
            for sq in b.all_squares() {
                assert_eq!(b.parse_square(&b.square_name(sq)), Some(sq), "{b} {sq}");
            }
        }
        let b = BoardSize::STANDARD;
        assert_eq!(
            (b.square_name(0), b.square_name(63)),
            ("a1".into(), "h8".into())
        );
        assert_eq!(b.parse_square("i1"), None);
        assert_eq!(b.parse_square("a9"), None);
        assert_eq!(b.parse_square("a"), None);
        assert_eq!(b.parse_square("a01"), None);
        let capa = BoardSize::new(10, 8).unwrap();
        assert_eq!(capa.parse_square("j8"), Some(79));
        let big = BoardSize::new(12, 12).unwrap();
        assert_eq!(big.square_name(143), "l12");
        assert_eq!(big.parse_square_prefix("a10a1"), Some((108, "a1")));
    }

    #[test]
    fn sizes_read_and_refused() {
        assert_eq!("10x8".parse(), Ok(BoardSize::new(10, 8).unwrap()));
        assert_eq!(" 12X12 ".parse::<BoardSize>().unwrap().to_string(), "12x12");
        for bad in ["", "10", "x8", "10x", "10x8x", "ax8", "-1x8"] {
            assert!(
                matches!(bad.parse::<BoardSize>(), Err(BoardSizeError::Malformed(_))),
                "{bad}"
            );
        }
        for bad in ["2x8", "8x17", "100x8"] {
            assert!(
                matches!(
                    bad.parse::<BoardSize>(),
                    Err(BoardSizeError::OutOfRange { .. })
                ),
                "{bad}"
            );
        }
    }

    #[test]
    fn the_shape_chooses_the_symmetries_and_they_are_bijections() {
        for (w, h, n) in [(8, 8, 8), (10, 8, 4), (5, 5, 8), (3, 7, 4)] {
            let b = BoardSize::new(w, h).unwrap();
            let syms: Vec<Sym> = b.symmetries().collect();
            assert_eq!(syms.len(), n);
            for g in syms {
                let mut img: Vec<Square> = b.all_squares().map(|s| b.image(g, s)).collect();
                for s in b.all_squares() {
                    assert_eq!(b.image(g.inverse(), b.image(g, s)), s);
                }
                img.sort();
                assert!(img.iter().copied().eq(b.all_squares()));
            }
        }
    }
}
