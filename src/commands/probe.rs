//! `fairy-egt probe`: the value of a position, every move's value, and the perfect line.

use super::{
    build_tables, built_position, read_fens, settings, start_threads, NotBuilt, UserError,
};
use crate::cli::Common;
use fairy_egt::board::{Color, Position, Setup};
use fairy_egt::egt::material::material_of;
use fairy_egt::egt::material::Material;
use fairy_egt::egt::table::Metric;
use fairy_egt::egt::tables::TableSet;
use fairy_egt::egt::value::Value;
use fairy_egt::engine::think::{line, Judge, Line};
use fairy_egt::engine::GameEnd;
use std::fmt::Write as _;
use std::io::Write as _;
use std::path::Path;

/// Longest line printed, in plies.
const LINE_LIMIT: usize = 600;

/// Runs the command for one FEN; the report goes to stdout.
pub fn run(common: &Common, fen: &str) -> Result<(), UserError> {
    let s = settings(common)?;
    let threads = start_threads(s.options.threads);
    Setup::from_fen(fen, s.options.board).map_err(|e| UserError(format!("--fen: {e}")))?;
    let (tables, took) = build_tables(&s)?;
    if let Some(r) = s.report() {
        super::report::write(&r, &tables, &s.material, threads, took);
    }
    let pos = position(&tables, &s.material, fen).map_err(|e| UserError(format!("--fen: {e}")))?;
    print!(
        "{}",
        report(&tables, &pos).map_err(UserError::from_display)?
    );
    Ok(())
}

/// Runs the command for a file of FENs (`-`: stdin): one value a line on stdout, or
/// `error: …` for a line that is not a usable position of the built tables.
pub fn run_many(common: &Common, file: &Path) -> Result<(), UserError> {
    let s = settings(common)?;
    let threads = start_threads(s.options.threads);
    let text = read_fens(file)?;
    let (tables, took) = build_tables(&s)?;
    if let Some(r) = s.report() {
        super::report::write(&r, &tables, &s.material, threads, took);
    }
    let mut out = std::io::stdout().lock();
    for line in text.lines().filter(|l| !l.trim().is_empty()) {
        let answer = position(&tables, &s.material, line.trim())
            .map_err(|e| e.to_string())
            .and_then(|pos| tables.probe(&pos).map_err(|e| e.to_string()))
            .map_or_else(|e| format!("error: {e}"), |v| shown(&tables, v));
        writeln!(out, "{answer}").map_err(|e| UserError(format!("stdout: {e}")))?;
    }
    Ok(())
}

/// The checked position of a FEN whose material is built (see `built_position`).
fn position(tables: &TableSet, spec: &Material, fen: &str) -> Result<Position, NotBuilt> {
    let setup = Setup::from_fen(fen, tables.geometry().board())?;
    built_position(tables, spec, &setup)
}

/// The probe report of a position whose tables are built.
pub fn report(
    tables: &TableSet,
    pos: &Position,
) -> Result<String, fairy_egt::egt::probe::ProbeError> {
    let mut out = String::new();
    let (material, _) = material_of(pos);
    let value = tables.probe(pos)?;
    let _ = writeln!(
        out,
        "{}  ({}, {})",
        pos.to_setup().to_fen(),
        material,
        tables.metric().name()
    );
    let _ = writeln!(
        out,
        "{} to move: {}",
        pos.side_to_move().name(),
        shown(tables, value)
    );
    let moves = tables.scored_moves(pos)?;
    let best = fairy_egt::egt::probe::best_of(&moves);
    for m in &moves {
        let mark = if Some(*m) == best { '*' } else { ' ' };
        let _ = writeln!(out, "{mark} {:<6} {}", m.mv.text(), shown(tables, m.value));
    }
    // The line follows the tables' metric alone: a probe has no clock.
    let line = line(&Judge::by_metric(tables), pos, 0, LINE_LIMIT)?;
    let _ = writeln!(
        out,
        "line: {}",
        numbered(pos, &line.pv(), &end_of_line(&line))
    );
    let pv: Vec<String> = line.moves.iter().map(|m| m.mv.text()).collect();
    let _ = writeln!(out, "pv {}", pv.join(" "));
    Ok(out)
}

/// A value as the tables' metric counts it: moves (DTM, DTC), or plies with the class under
/// the 50-move rule (DTZ).
fn shown(tables: &TableSet, v: Value) -> String {
    match tables.metric() {
        Metric::Dtz(rule) => rule.shown(v).to_string(),
        Metric::Dtm | Metric::Dtc => v.to_string(),
    }
}

/// How a principal line ends.
fn end_of_line(line: &Line) -> String {
    match line.end {
        Some(GameEnd::Mate { winner }) => format!("checkmate, {} wins", winner.name()),
        Some(GameEnd::StalemateWin { winner }) => format!("stalemate, {} wins", winner.name()),
        Some(GameEnd::Bared { winner }) => format!("bare royal, {} wins", winner.name()),
        Some(GameEnd::Stalemate) => "stalemate".to_string(),
        Some(GameEnd::BareRoyals) => "draw".to_string(),
        Some(GameEnd::RuleDraw { moves }) => format!("draw by the {moves}-move rule"),
        None if line.moves.last().is_some_and(|m| m.value == Value::Draw) => "draw".to_string(),
        None => format!("line cut after {} plies", line.moves.len()),
    }
}

/// `1. a1b1 c4c3 2. …` with move numbers, then the ending in braces.
fn numbered(start: &Position, line: &[fairy_egt::board::Move], ending: &str) -> String {
    let mut text = String::new();
    let mut number = 1;
    let mut side = start.side_to_move();
    if side == Color::Black && !line.is_empty() {
        text.push_str("1... ");
    }
    for m in line {
        if side == Color::White {
            let _ = write!(text, "{number}. ");
        }
        let _ = write!(text, "{} ", m.text());
        if side == Color::Black {
            number += 1;
        }
        side = side.flip();
    }
    let _ = write!(text, "{{{ending}}}");
    text
}
