//! `fairy-egt play`: build, then let the engine play itself from a position (the FEN's, or one
//! of the endgame's longest win), printing the board, every move with its value, and the
//! result.

use super::{build_tables, built_position, settings, start_threads, UserError};
use crate::cli::Common;
use fairy_egt::board::{Color, Position, Setup};
use fairy_egt::egt::extremes::longest_win;
use fairy_egt::egt::material::material_of;
use fairy_egt::egt::table::Metric;
use fairy_egt::egt::tables::TableSet;
use fairy_egt::egt::value::Value;
use fairy_egt::engine::think::{line, Judge};
use std::fmt::Write as _;

/// Runs the command; the game goes to stdout.
pub fn run(common: &Common, fen: Option<&str>) -> Result<(), UserError> {
    let s = settings(common)?;
    let threads = start_threads(s.options.threads);
    let setup = fen
        .map(|f| Setup::from_fen(f, s.options.board).map_err(|e| UserError(format!("--fen: {e}"))))
        .transpose()?;
    let (tables, took) = build_tables(&s)?;
    if let Some(r) = s.report() {
        super::report::write(&r, &tables, &s.material, threads, took);
    }
    let start = match setup {
        Some(setup) => built_position(&tables, &s.material, &setup)
            .map_err(|e| UserError(format!("--fen: {e}")))?,
        None => [Color::White, Color::Black]
            .into_iter()
            .find_map(|side| longest_win(&tables, &s.material, side))
            .map(|(pos, _)| pos)
            .ok_or_else(|| {
                UserError(format!(
                    "{} has no won position: give one with --fen",
                    s.material
                ))
            })?,
    };
    print!(
        "{}",
        game(&tables, &start).map_err(UserError::from_display)?
    );
    Ok(())
}

/// The self-played game from `start`: board, moves with values, final board and result.
pub fn game(
    tables: &TableSet,
    start: &Position,
) -> Result<String, fairy_egt::egt::probe::ProbeError> {
    let mut out = String::new();
    let metric = tables.metric();
    let (material, _) = material_of(start);
    let value = tables.probe(start)?;
    let _ = writeln!(
        out,
        "{material} ({metric}), {} to move: {}\n{}\n{}",
        start.side_to_move().name(),
        describe(value, metric),
        start.to_setup().to_fen(),
        board(start)
    );
    // Self-play follows the tables' metric alone: no clock is counted.
    let line = line(&Judge::by_metric(tables), start, 0, usize::MAX)?;
    let mut pos = start.clone();
    let mut number = 1;
    for best in &line.moves {
        let side = pos.side_to_move();
        let label = match side {
            Color::White => format!("{number}."),
            Color::Black => format!("{number}..."),
        };
        let _ = writeln!(
            out,
            "{label:>7} {:<6} {}",
            best.mv.text(),
            describe(best.value, metric)
        );
        pos = pos.play(best.mv);
        if side == Color::Black {
            number += 1;
        }
    }
    let ending = match (line.moves.last(), line.end) {
        (Some(last), _) if last.value == Value::Draw => {
            "1/2-1/2 {a draw with perfect play}".to_string()
        }
        (_, Some(end)) => end.to_string(),
        (_, None) => unreachable!("an unbounded line ends in a draw or with the game"),
    };
    let _ = writeln!(out, "\n{}\n{ending}", board(&pos));
    Ok(out)
}

/// A value for the side it belongs to, e.g. `mate in 35`, `mated in 34`, `draw`.
fn describe(value: Value, metric: Metric) -> String {
    match (value, metric) {
        (Value::Win(n), Metric::Dtm) => format!("mate in {n}"),
        (Value::Loss(n), Metric::Dtm) => format!("mated in {n}"),
        (Value::Win(n), Metric::Dtc) => format!("wins, conversion in {n}"),
        (Value::Loss(n), Metric::Dtc) => format!("loses, conversion in {n}"),
        (Value::Draw, _) => "draw".to_string(),
        (v, Metric::Dtz(rule)) => rule.shown(v).to_string(),
    }
}

/// The board as text, White's men upper case, the last rank on top.
fn board(pos: &Position) -> String {
    let setup = pos.to_setup();
    let size = setup.size;
    let edge = format!("   +{}+", "-".repeat(2 * size.files() as usize + 1));
    let mut out = format!("{edge}\n");
    for rank in (0..size.ranks() as i8).rev() {
        let _ = write!(out, "{:>2} |", rank + 1);
        for file in 0..size.files() as i8 {
            let man = size
                .square_at(file, rank)
                .and_then(|sq| setup.board[sq as usize]);
            let c = match man {
                Some((Color::White, l)) => l.to_ascii_uppercase(),
                Some((Color::Black, l)) => l.to_ascii_lowercase(),
                None => '.',
            };
            let _ = write!(out, " {c}");
        }
        out.push_str(" |\n");
    }
    let files: String = (0..size.files())
        .map(|f| format!(" {}", (b'a' + f) as char))
        .collect();
    let _ = write!(out, "{edge}\n    {files}");
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use fairy_egt::egt::material::Material;
    use fairy_egt::egt::progress::Silent;
    use fairy_egt::piece::PieceSet;

    #[test]
    fn kqk_game_ends_in_mate() {
        let mut set = TableSet::new(PieceSet::standard(), Metric::Dtm);
        let kq = Material::parse("KQ.K", set.pieces()).unwrap();
        set.build(&kq, &Silent).unwrap();
        let (start, d) = longest_win(&set, &kq, Color::White).unwrap();
        let text = game(&set, &start).unwrap();
        assert!(text.contains("White to move: mate in 10"), "{text}");
        assert!(text.contains("10. "), "{text}");
        assert!(!text.contains("11. "), "{text}");
        assert!(text.contains("mate in 1\n"), "{text}");
        assert!(text.trim_end().ends_with("1-0 {White mates}"), "{text}");
        assert_eq!(d, 10);
        assert!(text.contains("    a b c d e f g h"), "{text}");
    }
}
