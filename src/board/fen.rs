//! FEN text ↔ [`Setup`].
//!
//! The board field may hold any letter (upper case White, lower case Black): whether a letter
//! names a known piece is checked later, by [`Position::new`](super::Position::new). The side
//! to move (`w`/`b`) is required; the castling, en-passant, half-move and full-move fields are
//! optional and ignored when well-formed. XBoard holdings (`[…]`) are rejected: there are no
//! drops.

use super::setup::Setup;
use super::square::{parse_square, square_at, Color, BOARD_FILES, BOARD_RANKS};
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
    /// A character that is neither a letter, a digit 1–8 nor `/` in the board field.
    #[error("FEN rank {rank}: unexpected character '{ch}' at position {position} (expected a piece letter or a digit 1-8)")]
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
    /// Reads a FEN: board, side to move, then optional (ignored) castling, en-passant,
    /// half-move and full-move fields.
    pub fn from_fen(text: &str) -> Result<Setup, FenError> {
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
        let mut setup = Setup::empty(Color::White);
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
            if i >= BOARD_RANKS as usize {
                break;
            }
            let rank_number = BOARD_RANKS as usize - i;
            let mut files = 0usize;
            for (j, c) in part.char_indices() {
                match c {
                    '1'..='9' => files += c as usize - '0' as usize,
                    c if c.is_ascii_alphabetic() => {
                        let rank = (BOARD_RANKS as usize - 1 - i) as i8;
                        if let Some(sq) = i8::try_from(files).ok().and_then(|f| square_at(f, rank))
                        {
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
            if files != BOARD_FILES as usize {
                return Err(FenError::RankFiles {
                    rank: rank_number,
                    files,
                    expected: BOARD_FILES as usize,
                });
            }
        }
        if ranks.len() != BOARD_RANKS as usize {
            return Err(FenError::RankCount {
                ranks: ranks.len(),
                expected: BOARD_RANKS as usize,
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
            if ep != "-" && parse_square(&ep.to_ascii_lowercase()).is_none() {
                return Err(FenError::BadEnPassant {
                    field: ep.to_string(),
                });
            }
        }
        if let Some(&(_, half)) = fields.get(4) {
            if half.parse::<u32>().is_err() {
                return Err(FenError::BadHalfmove {
                    field: half.to_string(),
                });
            }
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

    /// The FEN of the setup, with `- - 0 1` for castling, en passant and the move counters.
    pub fn to_fen(&self) -> String {
        let mut out = String::new();
        for rank in (0..BOARD_RANKS).rev() {
            let mut empty = 0;
            for file in 0..BOARD_FILES {
                let man = square_at(file, rank).and_then(|sq| self.board[sq as usize]);
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
        out.push_str(" - - 0 1");
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trips() {
        for fen in [
            "8/8/8/8/8/8/8/8 w - - 0 1",
            "7k/8/8/8/3Q4/8/8/K7 w - - 0 1",
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w - - 0 1",
            "k7/8/2H5/8/8/5a2/8/6CK b - - 0 1",
            "zZ6/8/8/8/8/8/8/7X b - - 0 1",
        ] {
            let setup = Setup::from_fen(fen).unwrap();
            assert_eq!(setup.to_fen(), fen);
        }
    }

    #[test]
    fn reads_men_and_side() {
        let s = Setup::from_fen("7k/8/8/8/3Q4/8/8/K7 b").unwrap();
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
    fn optional_fields_are_accepted_and_ignored() {
        let base = Setup::from_fen("7k/8/8/8/8/8/8/K7 w").unwrap();
        for fen in [
            "7k/8/8/8/8/8/8/K7 w -",
            "7k/8/8/8/8/8/8/K7 w KQkq",
            "7k/8/8/8/8/8/8/K7 w HAha e3",
            "7k/8/8/8/8/8/8/K7 w - - 12",
            "  7k/8/8/8/8/8/8/K7\tw - -  0   57 ",
        ] {
            assert_eq!(Setup::from_fen(fen).unwrap(), base, "{fen}");
        }
    }

    fn err(fen: &str) -> FenError {
        Setup::from_fen(fen).unwrap_err()
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
        let e = err("8/8/8/8/8/53K/8/8 w");
        assert_eq!(
            e,
            FenError::RankFiles {
                rank: 3,
                files: 9,
                expected: 8
            }
        );
        assert_eq!(e.to_string(), "FEN rank 3 has 9 files, expected 8");
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
        assert_eq!(
            err("8/8/8/8/8/8/8/8 w - e9"),
            FenError::BadEnPassant { field: "e9".into() }
        );
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
}
