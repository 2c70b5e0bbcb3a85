//! FEN text ↔ [`Setup`].
//!
//! The board field may hold any letter (upper case White, lower case Black): whether a letter
//! names a known piece is checked later, by [`Position::new`](super::Position::new). The side
//! to move (`w`/`b`) is required; the castling, en-passant, half-move and full-move fields are
//! optional. The en-passant square is kept in [`Setup::en_passant`]; the other optional fields
//! are ignored when well-formed. XBoard holdings (`[…]`) are rejected: there are no
//! drops.

use super::setup::Setup;
use super::size::BoardSize;
use super::square::Color;
use thiserror::Error;

/// Why a FEN could not be read. Every message names the field and the offending text.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum FenError {
    /// Nothing but white space.
    #[error("empty FEN")]
    Empty,
    /// The board field has the wrong number of `/`-separated ranks.
    #[error("FEN board has {ranks} ranks, expected {expected}")]
    RankCount {
        /// Ranks found.
        ranks: usize,
        /// Ranks of the board.
        expected: usize,
    },
    /// A rank describes the wrong number of files.
    #[error("FEN rank {rank} has {files} files, expected {expected}")]
    RankFiles {
        /// The rank's number on the board (8 is the first rank of the FEN).
        rank: usize,
        /// Files found.
        files: usize,
        /// Files of the board.
        expected: usize,
    },
    /// A character that is neither a letter, a number of empty squares nor `/` in the board
    /// field.
    #[error("FEN rank {rank}: unexpected character '{ch}' at position {position} (expected a piece letter or a number of empty squares)")]
    BadChar {
        /// The rank's number on the board.
        rank: usize,
        /// The character.
        ch: char,
        /// 1-based character position in the whole FEN text.
        position: usize,
    },
    /// XBoard holdings (`[…]`) after the board.
    #[error("FEN holdings ('[' at position {position}) are not supported: no variant here has piece drops")]
    Holdings {
        /// 1-based character position of the `[` in the whole FEN text.
        position: usize,
    },
    /// The side-to-move field is missing.
    #[error("FEN has no side to move: expected 'w' or 'b' after the board")]
    MissingSide,
    /// The side-to-move field is not `w` or `b`.
    #[error("FEN side to move is '{field}', expected 'w' or 'b'")]
    BadSide {
        /// The field's text.
        field: String,
    },
    /// The castling field is not `-` or castling letters.
    #[error(
        "FEN castling field '{field}' is malformed: expected '-' or letters from KQkq/A-H/a-h"
    )]
    BadCastling {
        /// The field's text.
        field: String,
    },
    /// The en-passant field is not `-` or a square.
    #[error("FEN en-passant field '{field}' is malformed: expected '-' or a square such as e3")]
    BadEnPassant {
        /// The field's text.
        field: String,
    },
    /// The half-move clock is not a number.
    #[error("FEN half-move clock '{field}' is not a number")]
    BadHalfmove {
        /// The field's text.
        field: String,
    },
    /// The full-move number is not a number.
    #[error("FEN full-move number '{field}' is not a number")]
    BadFullmove {
        /// The field's text.
        field: String,
    },
    /// More than six fields.
    #[error("FEN has an unexpected extra field '{field}' after the full-move number")]
    ExtraField {
        /// The first extra field's text.
        field: String,
    },
}

impl Setup {
    /// Reads a FEN of a board of the given size: board (empty squares counted by numbers,
    /// `10` and more on wide boards), side to move, then the optional fields: castling
    /// (ignored), en passant (kept), the half-move clock (kept) and the full-move number
    /// (ignored).
    pub fn from_fen(text: &str, size: BoardSize) -> Result<Setup, FenError> {
        // Fields with their 1-based character start positions.
        let mut fields = Vec::new();
        let mut start = None;
        for (i, c) in text.char_indices() {
            if c.is_whitespace() {
                if let Some(s) = start.take() {
                    fields.push((s, &text[s..i]));
                }
            } else if start.is_none() {
                start = Some(i);
            }
        }
        if let Some(s) = start {
            fields.push((s, &text[s..]));
        }
        let char_pos = |byte: usize| text[..byte].chars().count() + 1;

        let Some(&(board_start, board_text)) = fields.first() else {
            return Err(FenError::Empty);
        };
        if let Some(i) = board_text.find('[') {
            return Err(FenError::Holdings {
                position: char_pos(board_start + i),
            });
        }
        let mut setup = Setup::empty(size, Color::White);
        let (files_n, ranks_n) = (size.files() as usize, size.ranks() as usize);
        let ranks: Vec<(usize, &str)> = {
            let mut v = Vec::new();
            let mut off = 0;
            for part in board_text.split('/') {
                v.push((board_start + off, part));
                off += part.len() + 1;
            }
            v
        };
        for (i, &(off, part)) in ranks.iter().enumerate() {
            if i >= ranks_n {
                break;
            }
            let rank_number = ranks_n - i;
            let mut files = 0usize;
            // The number of empty squares being read (digits run together: `10`).
            let mut number = 0usize;
            for (j, c) in part.char_indices() {
                match c {
                    '1'..='9' => number = number * 10 + (c as usize - '0' as usize),
                    '0' if number > 0 => number *= 10,
                    c if c.is_ascii_alphabetic() => {
                        files += std::mem::take(&mut number);
                        let rank = (ranks_n - 1 - i) as i8;
                        let square = i8::try_from(files).ok();
                        if let Some(sq) = square.and_then(|f| size.square_at(f, rank)) {
                            let color = if c.is_ascii_uppercase() {
                                Color::White
                            } else {
                                Color::Black
                            };
                            setup.board[sq as usize] = Some((color, c.to_ascii_uppercase()));
                        }
                        files += 1;
                    }
                    _ => {
                        return Err(FenError::BadChar {
                            rank: rank_number,
                            ch: c,
                            position: char_pos(off + j),
                        })
                    }
                }
            }
            files += number;
            if files != files_n {
                return Err(FenError::RankFiles {
                    rank: rank_number,
                    files,
                    expected: files_n,
                });
            }
        }
        if ranks.len() != ranks_n {
            return Err(FenError::RankCount {
                ranks: ranks.len(),
                expected: ranks_n,
            });
        }

        let Some(&(_, side)) = fields.get(1) else {
            return Err(FenError::MissingSide);
        };
        setup.side_to_move = match side {
            "w" | "W" => Color::White,
            "b" | "B" => Color::Black,
            _ => {
                return Err(FenError::BadSide {
                    field: side.to_string(),
                })
            }
        };
        if let Some(&(_, castling)) = fields.get(2) {
            let ok = castling == "-"
                || castling
                    .chars()
                    .all(|c| matches!(c, 'K' | 'Q' | 'k' | 'q' | 'A'..='H' | 'a'..='h'));
            if !ok {
                return Err(FenError::BadCastling {
                    field: castling.to_string(),
                });
            }
        }
        if let Some(&(_, ep)) = fields.get(3) {
            if ep != "-" {
                match size.parse_square(&ep.to_ascii_lowercase()) {
                    Some(square) => setup.en_passant = Some(square),
                    None => {
                        return Err(FenError::BadEnPassant {
                            field: ep.to_string(),
                        })
                    }
                }
            }
        }
        if let Some(&(_, half)) = fields.get(4) {
            setup.halfmove = half.parse::<u32>().map_err(|_| FenError::BadHalfmove {
                field: half.to_string(),
            })?;
        }
        if let Some(&(_, full)) = fields.get(5) {
            if full.parse::<u32>().is_err() {
                return Err(FenError::BadFullmove {
                    field: full.to_string(),
                });
            }
        }
        if let Some(&(_, extra)) = fields.get(6) {
            return Err(FenError::ExtraField {
                field: extra.to_string(),
            });
        }
        Ok(setup)
    }

    /// The FEN of the setup, with `-` for castling, the en-passant square (or `-`), the
    /// half-move clock and `1` for the full-move number.
    pub fn to_fen(&self) -> String {
        let mut out = String::new();
        for rank in (0..self.size.ranks() as i8).rev() {
            let mut empty = 0;
            for file in 0..self.size.files() as i8 {
                let man = (self.size.square_at(file, rank)).and_then(|sq| self.board[sq as usize]);
                match man {
                    None => empty += 1,
                    Some((color, letter)) => {
                        if empty > 0 {
                            out.push_str(&empty.to_string());
                            empty = 0;
                        }
                        out.push(match color {
                            Color::White => letter.to_ascii_uppercase(),
                            Color::Black => letter.to_ascii_lowercase(),
                        });
                    }
                }
            }
            if empty > 0 {
                out.push_str(&empty.to_string());
            }
            if rank > 0 {
                out.push('/');
            }
        }
        out.push(' ');
        out.push(self.side_to_move.fen_char());
        out.push_str(" - ");
        match self.en_passant {
            Some(square) => out.push_str(&self.size.square_name(square)),
            None => out.push('-'),
        }
        out.push_str(&format!(" {} 1", self.halfmove));
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const B8: BoardSize = BoardSize::STANDARD;

    #[test]
    fn round_trips() {
        for case in crate::test_data::cases("fen_round_trips.txt") {
            let fen = &case[0];
            let setup = Setup::from_fen(fen, B8).unwrap();
            assert_eq!(&setup.to_fen(), fen);
        }
    }

    #[test]
    fn reads_men_and_side() {
        let s = Setup::from_fen("7k/8/8/8/3Q4/8/8/K7 b", B8).unwrap();
        assert_eq!(s.side_to_move, Color::Black);
        let men: Vec<_> = s.men().collect();
        assert_eq!(
            men,
            vec![
                (0, Color::White, 'K'),
                (27, Color::White, 'Q'),
                (63, Color::Black, 'K')
            ]
        );
    }

    #[test]
    fn en_passant_square_is_kept() {
        for (fen, square) in [
            ("7k/8/8/8/4P3/8/8/K7 b - e3", Some(20)),
            ("7k/8/8/8/4P3/8/8/K7 b KQkq E3 0 1", Some(20)),
            ("7k/8/8/3p4/8/8/8/K7 w - d6 0 2", Some(43)),
            ("7k/8/8/8/8/8/8/K7 w - -", None),
            ("7k/8/8/8/8/8/8/K7 w -", None),
        ] {
            assert_eq!(
                Setup::from_fen(fen, B8).unwrap().en_passant,
                square,
                "{fen}"
            );
        }
        let capa = BoardSize::new(10, 8).unwrap();
        let s = Setup::from_fen("9k/10/10/10/9P/10/10/K9 b - j3 0 1", capa).unwrap();
        assert_eq!(s.en_passant, Some(29));
        assert_eq!(s.to_fen(), "9k/10/10/10/9P/10/10/K9 b - j3 0 1");
    }

    #[test]
    fn other_optional_fields_are_accepted_and_ignored() {
        let base = Setup::from_fen("7k/8/8/8/8/8/8/K7 w", B8).unwrap();
        for fen in [
            "7k/8/8/8/8/8/8/K7 w -",
            "7k/8/8/8/8/8/8/K7 w KQkq",
            "7k/8/8/8/8/8/8/K7 w HAha -",
            "  7k/8/8/8/8/8/8/K7\tw - -  0   57 ",
        ] {
            assert_eq!(Setup::from_fen(fen, B8).unwrap(), base, "{fen}");
        }
        // The half-move clock is kept (the 50-move rule counts it), the move number not.
        let clocked = Setup::from_fen("7k/8/8/8/8/8/8/K7 w - - 12 40", B8).unwrap();
        assert_eq!(clocked.halfmove, 12);
        assert_eq!(
            Setup {
                halfmove: 0,
                ..clocked
            },
            base
        );
    }

    fn err(fen: &str) -> FenError {
        Setup::from_fen(fen, B8).unwrap_err()
    }

    #[test]
    fn every_error() {
        assert_eq!(err(""), FenError::Empty);
        assert_eq!(err("   "), FenError::Empty);
        assert_eq!(
            err("8/8/8/8/8/8/8 w"),
            FenError::RankCount {
                ranks: 7,
                expected: 8
            }
        );
        assert_eq!(
            err("8/8/8/8/8/8/8/8/8 w"),
            FenError::RankCount {
                ranks: 9,
                expected: 8
            }
        );
        // Digits run together are one number, as on wide boards.
        let e = err("8/8/8/8/8/53K/8/8 w");
        assert_eq!(
            e,
            FenError::RankFiles {
                rank: 3,
                files: 54,
                expected: 8
            }
        );
        assert_eq!(e.to_string(), "FEN rank 3 has 54 files, expected 8");
        assert_eq!(
            err("8/8/7/8/8/8/8/8 w"),
            FenError::RankFiles {
                rank: 6,
                files: 7,
                expected: 8
            }
        );
        assert_eq!(
            err("8//8/8/8/8/8/8 w"),
            FenError::RankFiles {
                rank: 7,
                files: 0,
                expected: 8
            }
        );
        let e = err("8/8/8/8/8/8/8/7? w");
        assert_eq!(
            e,
            FenError::BadChar {
                rank: 1,
                ch: '?',
                position: 16
            }
        );
        assert!(e.to_string().contains("'?'"));
        assert_eq!(
            err("8/8/8/8/8/8/8/07 w"),
            FenError::BadChar {
                rank: 1,
                ch: '0',
                position: 15
            }
        );
        assert_eq!(
            err("k7/8/8/8/8/8/8/7é w"),
            FenError::BadChar {
                rank: 1,
                ch: 'é',
                position: 17
            }
        );
        assert_eq!(
            err("8/8/8/8/8/8/8/8[Qq] w"),
            FenError::Holdings { position: 16 }
        );
        assert_eq!(
            err("8/8/8/8/8/8/8/8 [] w"),
            FenError::BadSide { field: "[]".into() }
        );
        assert_eq!(err("8/8/8/8/8/8/8/8"), FenError::MissingSide);
        assert_eq!(
            err("8/8/8/8/8/8/8/8 x"),
            FenError::BadSide { field: "x".into() }
        );
        assert_eq!(
            err("8/8/8/8/8/8/8/8 w K1"),
            FenError::BadCastling { field: "K1".into() }
        );
        let e = err("8/8/8/8/8/8/8/8 w - e9");
        assert_eq!(e, FenError::BadEnPassant { field: "e9".into() });
        assert_eq!(
            e.to_string(),
            "FEN en-passant field 'e9' is malformed: expected '-' or a square such as e3"
        );
        for field in ["i3", "e", "3", "e3x", "--", "e0"] {
            assert_eq!(
                err(&format!("8/8/8/8/8/8/8/8 w - {field}")),
                FenError::BadEnPassant {
                    field: field.into()
                },
                "{field}"
            );
        }
        assert_eq!(
            err("8/8/8/8/8/8/8/8 w - - x"),
            FenError::BadHalfmove { field: "x".into() }
        );
        assert_eq!(
            err("8/8/8/8/8/8/8/8 w - - 0 -1"),
            FenError::BadFullmove { field: "-1".into() }
        );
        assert_eq!(
            err("8/8/8/8/8/8/8/8 w - - 0 1 z"),
            FenError::ExtraField { field: "z".into() }
        );
        // Every message is one line.
        for e in [err(""), err("8/8 w"), err("8/8/8/8/8/8/8/8[")] {
            assert!(!e.to_string().contains('\n'));
        }
    }

    #[test]
    fn wide_and_tall_boards_count_empty_squares_with_numbers() {
        let capa = BoardSize::new(10, 8).unwrap();
        let fen = "9k/10/10/10/10/10/10/K3C5 w - - 0 1";
        let s = Setup::from_fen(fen, capa).unwrap();
        let men: Vec<_> = s.men().collect();
        assert_eq!(
            men,
            vec![
                (0, Color::White, 'K'),
                (4, Color::White, 'C'),
                (79, Color::Black, 'K')
            ]
        );
        assert_eq!(s.to_fen(), fen);
        let big = BoardSize::new(12, 12).unwrap();
        let fen = "11k/12/12/12/12/12/12/12/12/12/12/K11 b - - 0 1";
        assert_eq!(Setup::from_fen(fen, big).unwrap().to_fen(), fen);
        // An 8×8 FEN on 10×8 is refused by its width, a 10×8 one on 8×8 too.
        assert!(matches!(
            Setup::from_fen("7k/8/8/8/8/8/8/K7 w", capa),
            Err(FenError::RankFiles {
                files: 8,
                expected: 10,
                ..
            })
        ));
        assert!(matches!(
            Setup::from_fen(fen, B8),
            Err(FenError::RankFiles {
                files: 12,
                expected: 8,
                ..
            })
        ));
        assert!(matches!(
            Setup::from_fen("9k/010/10/10/10/10/10/K9 w", capa),
            Err(FenError::BadChar { ch: '0', .. })
        ));
    }
}
