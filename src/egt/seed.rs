//! Seed files (EGTgen's `-f`): values fixed for given positions before the retrograde passes.
//!
//! One seed a line: `SQUARES [w|b] VALUE`. SQUARES are the squares of White's men in the order
//! of the endgame spec, then Black's (`c1d1c6b5` in KQ.KR: White king c1, queen d1, Black king
//! c6, rook b5); one square may be `**`, that man on every free square. The side to move is
//! Black unless `w` is given (EGTgen seeds positions with Black to move). VALUE is `draw`,
//! `stalemate`, `win N`, `loss N`, or one of EGTgen's codes: 0 undecided (the builder decides,
//! as if the position had no value yet), 127 stalemate, 126 won for the side to move (taken as
//! win in 1), and for losses 1+N under DTM, 10+N under DTC (1 or 10 = checkmated). A seed
//! applies to every symmetric image of its position. `#` and `;` start comments.

use crate::board::{BoardSize, Color, Position, PositionError, Setup};
use crate::egt::material::{material_of, Material, SpecError, Squares};
use crate::egt::table::Metric;
use thiserror::Error;

/// A value a seed gives.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SeedValue {
    /// Drawn, and never changed by the builder.
    Draw,
    /// As a stalemate: drawn, or lost under the stalemate-wins rule.
    Stalemate,
    /// Won for the side to move in N.
    Win(u16),
    /// Lost for the side to move in N.
    Loss(u16),
    /// No value: the builder decides as for any undecided position.
    Undecided,
}

/// One seeded position.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Seed {
    /// The men's squares in the material's canonical order.
    pub squares: Squares,
    /// Side to move.
    pub side: Color,
    /// The value fixed.
    pub value: SeedValue,
}

/// A malformed seed file.
#[derive(Debug, Error, PartialEq, Eq)]
#[error("{file}:{line}: {problem}")]
pub struct SeedError {
    /// The file, as given.
    pub file: String,
    /// 1-based line; 0 when the endgame itself is wrong.
    pub line: usize,
    /// What was expected and found.
    pub problem: SeedProblem,
}

/// What a seed expects of its value, when the value is not one.
const EXPECTED_VALUE: &str = "expected draw, stalemate, win N, loss N or an EGTgen code";

/// What is wrong with a line of a seed file, or with the endgame it seeds.
#[derive(Debug, Error, PartialEq, Eq)]
pub enum SeedProblem {
    /// The endgame is not one of these pieces (on no line).
    #[error(transparent)]
    Endgame(#[from] SpecError),
    /// The squares are not as many as the endgame's men.
    #[error("expected {men} squares (such as c1, or ** for any square), found '{found}'")]
    SquareCount {
        /// The endgame's men.
        men: usize,
        /// The squares as written.
        found: String,
    },
    /// A square that is not one of the board's.
    #[error("'{found}' does not start a square of the {board} board (a1 to {last} or **)")]
    NotASquare {
        /// The two characters where a square was expected.
        found: String,
        /// The board.
        board: BoardSize,
        /// The name of its last square.
        last: String,
    },
    /// More than one `**`.
    #[error("only one ** wildcard is allowed")]
    Wildcards,
    /// `win` or `loss` without its number.
    #[error("{EXPECTED_VALUE}: a number must follow")]
    NoNumber,
    /// `win 0`.
    #[error("win 0 is not a value (wins take at least one move)")]
    WinInZero,
    /// An EGTgen code that is no value under the metric.
    #[error("EGTgen code {code} means nothing under {metric} (losses are {base}+N)")]
    Code {
        /// The code.
        code: u16,
        /// The metric.
        metric: Metric,
        /// The code of a loss in 0 under it.
        base: u16,
    },
    /// No value after the squares.
    #[error("{EXPECTED_VALUE}, found nothing")]
    NoValue,
    /// Words that are no value.
    #[error("{EXPECTED_VALUE}, found '{0}'")]
    Value(String),
    /// Two men on one square (no `**`).
    #[error("'{0}' puts two men on one square")]
    SameSquare(String),
    /// An illegal position (no `**`).
    #[error("illegal position: {0}")]
    Illegal(PositionError),
    /// A `**` that gives no legal position wherever it stands.
    #[error("'{0}' gives no legal position")]
    NoLegalPosition(String),
}

/// Reads the seeds of `text` for the endgame `spec` (as the user wrote it: its letter order
/// is the order of the squares), in the pieces of `geometry`.
pub fn parse_seeds(
    text: &str,
    file: &str,
    spec: &str,
    geometry: &crate::board::geometry::Geometry,
    metric: Metric,
) -> Result<Vec<Seed>, SeedError> {
    let material = Material::parse(spec, geometry.pieces()).map_err(|e| SeedError {
        file: file.to_string(),
        line: 0,
        problem: e.into(),
    })?;
    let order = spec_order(spec);
    let mut seeds = Vec::new();
    for (number, raw) in text.lines().enumerate() {
        let fail = |problem: SeedProblem| SeedError {
            file: file.to_string(),
            line: number + 1,
            problem,
        };
        let line = raw.split(['#', ';']).next().unwrap_or("").trim();
        if line.is_empty() {
            continue;
        }
        let words: Vec<&str> = line.split_whitespace().collect();
        let (side, value_words) = match words.get(1).copied() {
            Some("w") => (Color::White, &words[2..]),
            Some("b") => (Color::Black, &words[2..]),
            _ => (Color::Black, &words[1..]),
        };
        let value = parse_value(value_words, metric).map_err(fail)?;
        let board = geometry.board();
        let squares = parse_squares(words[0], order.len(), board).map_err(fail)?;
        let wild = squares.iter().position(Option::is_none);
        let candidates: Vec<u8> = match wild {
            Some(_) => board.all_squares().collect(),
            None => vec![0],
        };
        let mut placed = 0;
        for fill in candidates {
            let mut setup = Setup::empty(board, side);
            let mut clash = false;
            for (k, &(color, letter)) in order.iter().enumerate() {
                let sq = squares[k].unwrap_or(fill) as usize;
                clash |= setup.board[sq].is_some();
                setup.board[sq] = Some((color, letter));
            }
            if clash {
                if wild.is_some() {
                    continue;
                }
                return Err(fail(SeedProblem::SameSquare(words[0].to_string())));
            }
            match Position::new(&setup, geometry, material.royals()) {
                Ok(pos) => {
                    let (m, sq) = material_of(&pos);
                    debug_assert_eq!(m, material);
                    seeds.push(Seed {
                        squares: sq,
                        side,
                        value,
                    });
                    placed += 1;
                }
                Err(e) if wild.is_none() => return Err(fail(SeedProblem::Illegal(e))),
                Err(_) => {}
            }
        }
        if placed == 0 {
            return Err(fail(SeedProblem::NoLegalPosition(words[0].to_string())));
        }
    }
    Ok(seeds)
}

/// The men of a spec in the order written: White's, then Black's.
fn spec_order(spec: &str) -> Vec<(Color, char)> {
    let spec = spec.trim();
    let (white, black) = spec
        .split_once('.')
        .or_else(|| spec.split_once('v'))
        .unwrap_or((spec, ""));
    white
        .chars()
        .map(|c| (Color::White, c.to_ascii_uppercase()))
        .chain(
            black
                .chars()
                .map(|c| (Color::Black, c.to_ascii_uppercase())),
        )
        .collect()
}

/// `c1d1c6c5` → squares of `board` (`a10`, three characters, on tall boards), `None` for
/// the one `**`.
fn parse_squares(text: &str, men: usize, board: BoardSize) -> Result<Vec<Option<u8>>, SeedProblem> {
    let mut squares = Vec::new();
    let mut rest = text;
    while !rest.is_empty() {
        if let Some(after) = rest.strip_prefix("**") {
            squares.push(None);
            rest = after;
        } else if let Some((sq, after)) = board.parse_square_prefix(rest) {
            squares.push(Some(sq));
            rest = after;
        } else {
            return Err(SeedProblem::NotASquare {
                found: rest.chars().take(2).collect(),
                board,
                last: board.square_name((board.squares() - 1) as u8),
            });
        }
    }
    if squares.len() != men {
        return Err(SeedProblem::SquareCount {
            men,
            found: text.to_string(),
        });
    }
    if squares.iter().filter(|s| s.is_none()).count() > 1 {
        return Err(SeedProblem::Wildcards);
    }
    Ok(squares)
}

fn parse_value(words: &[&str], metric: Metric) -> Result<SeedValue, SeedProblem> {
    let number = |w: Option<&&str>| -> Result<u16, SeedProblem> {
        w.and_then(|w| w.parse().ok()).ok_or(SeedProblem::NoNumber)
    };
    match words {
        ["draw"] => Ok(SeedValue::Draw),
        ["stalemate"] => Ok(SeedValue::Stalemate),
        ["win", rest @ ..] if rest.len() == 1 => match number(rest.first())? {
            0 => Err(SeedProblem::WinInZero),
            n => Ok(SeedValue::Win(n)),
        },
        ["loss", rest @ ..] if rest.len() == 1 => Ok(SeedValue::Loss(number(rest.first())?)),
        [code] if code.parse::<u16>().is_ok() => {
            let code: u16 = code.parse().unwrap_or(0);
            let base = if metric == Metric::Dtm { 1 } else { 10 };
            match code {
                0 => Ok(SeedValue::Undecided),
                127 => Ok(SeedValue::Stalemate),
                126 => Ok(SeedValue::Win(1)),
                c if c >= base && c < 126 => Ok(SeedValue::Loss(c - base)),
                code => Err(SeedProblem::Code { code, metric, base }),
            }
        }
        [] => Err(SeedProblem::NoValue),
        _ => Err(SeedProblem::Value(words.join(" "))),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::geometry::Geometry;

    fn parse(text: &str, metric: Metric) -> Result<Vec<Seed>, SeedError> {
        let geometry = Geometry::new(&crate::piece::PieceSet::standard());
        parse_seeds(text, "seeds.txt", "KQ.KR", &geometry, metric)
    }

    #[test]
    fn values_and_codes() {
        let s = parse("c1d1c6b5 draw\nc1d1c6b5 w win 3 # comment\nc1d1c6b5 loss 0\nc1d1c6b5 127\nc1d1c6b5 12\nc1d1c6b5 0\n", Metric::Dtm).unwrap();
        let values: Vec<SeedValue> = s.iter().map(|x| x.value).collect();
        assert_eq!(
            values,
            vec![
                SeedValue::Draw,
                SeedValue::Win(3),
                SeedValue::Loss(0),
                SeedValue::Stalemate,
                SeedValue::Loss(11),
                SeedValue::Undecided
            ]
        );
        assert_eq!(s[0].side, Color::Black);
        assert_eq!(s[1].side, Color::White);
        assert_eq!(
            parse("c1d1c6b5 12", Metric::Dtc).unwrap()[0].value,
            SeedValue::Loss(2)
        );
    }

    #[test]
    fn squares_follow_the_spec_order() {
        // KQ.KR: canonical order is wK, bK, wQ, bR.
        let s = parse("c1d1c6b5 draw", Metric::Dtm).unwrap();
        assert_eq!(&s[0].squares[..4], &[2, 42, 3, 33]);
    }

    #[test]
    fn wildcard_places_a_man_everywhere_free_and_legal() {
        let s = parse("c1**c6b5 draw", Metric::Dtm).unwrap();
        // The queen on each of the 61 free squares: wherever she stands, Black to move cannot
        // take White's king, so every placement is legal.
        assert_eq!(s.len(), 61);
    }

    #[test]
    fn errors_name_the_line() {
        let e = parse("c1d1c6b5 draw\nc1d1c6 draw\n", Metric::Dtm).unwrap_err();
        assert_eq!(
            (e.line, e.problem.to_string().contains("expected 4 squares")),
            (2, true)
        );
        assert!(parse("c1d1c6b5 maybe", Metric::Dtm)
            .unwrap_err()
            .problem
            .to_string()
            .contains("'maybe'"));
        assert!(parse("c1**c6** draw", Metric::Dtm)
            .unwrap_err()
            .problem
            .to_string()
            .contains("one ** wildcard"));
        assert!(parse("c1c1c6c5 draw", Metric::Dtm)
            .unwrap_err()
            .problem
            .to_string()
            .contains("two men"));
        assert!(parse("c1d1i6c5 draw", Metric::Dtm)
            .unwrap_err()
            .problem
            .to_string()
            .contains("'i6'"));
        assert!(parse("c1d1c6b5 5", Metric::Dtc)
            .unwrap_err()
            .problem
            .to_string()
            .contains("code 5"));
        assert!(parse("c1d1c2c5 w draw", Metric::Dtm)
            .unwrap_err()
            .problem
            .to_string()
            .contains("illegal"));
        assert!(parse("c1d1c6b5 win 0", Metric::Dtm)
            .unwrap_err()
            .problem
            .to_string()
            .contains("win 0"));
    }
}
