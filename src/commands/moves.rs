//! `fairy-egt moves`: the legal moves of positions, one line of coordinate moves per FEN,
//! without building any table — to compare the move generator with other programs
//! (tests/python/movegen_pyffish.py compares it with Fairy-Stockfish's).

use super::{read_fens, settings, UserError};
use crate::cli::{Common, Fens};
use fairy_egt::board::geometry::Geometry;
use fairy_egt::board::{FenError, Position, PositionError, Setup};
use std::io::Write as _;
use std::path::Path;

/// Runs the command: for each FEN, its legal moves on one line of stdout. A line that is not
/// a position (a malformed FEN, an unknown letter, a missing royal, the enemy royal en prise)
/// gets `error` on stdout, so that output lines stay aligned with the FENs, and its line number
/// and reason on stderr; the other lines go on, and the command then fails with exit code 2.
pub fn run(common: &Common, fens: &Fens) -> Result<(), UserError> {
    let s = settings(common)?;
    let geometry = s.geometry();
    let royals = s.material.royals();
    let (name, text) = match fens {
        Fens::One(fen) => ("--fen".to_string(), fen.clone()),
        Fens::File(file) if file == Path::new("-") => ("stdin".to_string(), read_fens(file)?),
        Fens::File(file) => (file.display().to_string(), read_fens(file)?),
    };
    let mut out = std::io::stdout().lock();
    let (mut total, mut bad) = (0, 0);
    for (number, line) in text.lines().enumerate() {
        let fen = line.trim();
        if fen.is_empty() {
            continue;
        }
        total += 1;
        let answer = match moves_line(fen, &geometry, royals) {
            Ok(moves) => moves,
            Err(e) => {
                bad += 1;
                eprintln!("fairy-egt: {name} line {}: {e}", number + 1);
                "error".to_string()
            }
        };
        writeln!(out, "{answer}").map_err(|e| UserError(format!("stdout: {e}")))?;
    }
    if bad > 0 {
        return Err(UserError(format!(
            "{bad} of {total} FENs were not positions fairy-egt can play"
        )));
    }
    Ok(())
}

/// Why a FEN is not a position whose moves can be listed.
#[derive(Debug, thiserror::Error)]
pub enum NotAPosition {
    /// The FEN is malformed.
    #[error(transparent)]
    Fen(#[from] FenError),
    /// Its set-up is not a legal position.
    #[error(transparent)]
    Position(#[from] PositionError),
}

/// The legal moves of a FEN's position in coordinate notation (`e1e2`), sorted as text and
/// separated by spaces; empty when the side to move has none (checkmate or stalemate).
/// `royals` are White's and Black's royal letters. The error says why the FEN is not a
/// position.
pub fn moves_line(
    fen: &str,
    geometry: &Geometry,
    royals: [char; 2],
) -> Result<String, NotAPosition> {
    let setup = Setup::from_fen(fen, geometry.board())?;
    let pos = Position::new(&setup, geometry, royals)?;
    let mut moves: Vec<String> = pos.legal_moves(geometry).iter().map(|m| m.text()).collect();
    moves.sort_unstable();
    Ok(moves.join(" "))
}

#[cfg(test)]
mod tests {
    use super::*;
    use fairy_egt::piece::PieceSet;

    fn line(fen: &str) -> Result<String, String> {
        moves_line(fen, &Geometry::new(&PieceSet::standard()), ['K', 'K'])
            .map_err(|e| e.to_string())
    }

    #[test]
    fn moves_are_sorted_as_text() {
        assert_eq!(
            line("k7/8/8/8/8/8/8/K6R w - - 0 1").unwrap(),
            "a1a2 a1b1 a1b2 h1b1 h1c1 h1d1 h1e1 h1f1 h1g1 h1h2 h1h3 h1h4 h1h5 h1h6 h1h7 h1h8"
        );
    }

    #[test]
    fn mate_and_stalemate_have_no_moves() {
        assert_eq!(line("k6R/8/1K6/8/8/8/8/8 b - - 0 1").unwrap(), "");
        assert_eq!(line("k7/2Q5/1K6/8/8/8/8/8 b - - 0 1").unwrap(), "");
    }

    #[test]
    fn what_is_not_a_position_is_named() {
        assert!(line("8/8/8 w - - 0 1").is_err());
        assert!(line("7k/8/8/8/8/8/8/K6S w - - 0 1")
            .unwrap_err()
            .contains("'S'"));
        assert!(line("7k/8/8/8/8/8/8/K6R w - - 0 1")
            .unwrap_err()
            .contains("can be captured"));
    }

    #[test]
    fn promotions_are_printed_with_their_letter() {
        // The shipped piece file defines the orthodox pawn.
        let set = PieceSet::standard();
        let line = moves_line(
            "7k/P7/8/8/8/8/8/K7 w - - 0 1",
            &Geometry::new(&set),
            ['K', 'K'],
        );
        assert_eq!(line.unwrap(), "a1a2 a1b1 a1b2 a7a8b a7a8n a7a8q a7a8r");
        let err = moves_line(
            "P6k/8/8/8/8/8/8/K7 w - - 0 1",
            &Geometry::new(&set),
            ['K', 'K'],
        );
        assert!(err
            .unwrap_err()
            .to_string()
            .contains("where a pawn never stands"));
    }
}
