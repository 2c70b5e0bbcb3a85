//! The report file (EGTgen's `rep2.txt`): after every build, the statistics of the endgame
//! built, under a header naming the endgame, the metric, the rule options and the seed file.
//! The file is rewritten by each build. A report that cannot be written is a warning on
//! stderr, never an error: the tables are built and usable all the same.

use super::stats_text::render;
use fairy_egt::board::geometry::Geometry;
use fairy_egt::board::BoardSize;
use fairy_egt::egt::material::Material;
use fairy_egt::egt::rules::Rules;
use fairy_egt::egt::stats::{table_stats, TableStats};
use fairy_egt::egt::table::Table;
use fairy_egt::egt::tables::TableSet;
use std::fmt::Write as _;
use std::time::Duration;

pub use fairy_egt::settings::Report;

/// The text of the report of a built table (built under `rules`, with these statistics).
fn text(
    report: &Report,
    table: &Table,
    rules: Rules,
    stats: &TableStats,
    threads: usize,
    took: Duration,
) -> String {
    let material = table.material();
    let mut out = String::new();
    let _ = writeln!(out, "fairy-egt {} report", env!("CARGO_PKG_VERSION"));
    let _ = writeln!(out, "endgame: {}", material.name());
    if stats.board != BoardSize::STANDARD.to_string() {
        let _ = writeln!(out, "board:   {}", stats.board);
    }
    let _ = writeln!(out, "metric:  {}", table.metric());
    let _ = writeln!(out, "rules:   {}", rules.describe());
    let seeds = match &report.seed {
        Some((seeded, file, n)) if seeded == material => {
            format!("{} ({n} positions)", file.display())
        }
        _ => "none".to_string(),
    };
    let _ = writeln!(out, "seeds:   {seeds}\n");
    let seconds = (took.as_secs_f64() * 1000.0).round() / 1000.0;
    out.push_str(&render(stats, threads, seconds, table.bytes()));
    out
}

/// Writes the report of `material` (nothing if it is not held, or was loaded from the table
/// directory rather than built: its statistics would cost a count of the whole table); a
/// failure is a warning on stderr.
pub fn write(
    report: &Report,
    tables: &TableSet,
    material: &Material,
    threads: usize,
    took: Duration,
) {
    if let Some(table) = tables
        .get(material)
        .filter(|_| !tables.was_loaded(material))
    {
        write_table(
            report,
            table,
            tables.geometry(),
            tables.rules(),
            threads,
            took,
        );
    }
}

/// Counts the statistics of a built table and writes its report.
pub fn write_table(
    report: &Report,
    table: &Table,
    geometry: &Geometry,
    rules: Rules,
    threads: usize,
    took: Duration,
) {
    let stats = table_stats(table, geometry);
    write_stats(report, table, rules, &stats, threads, took);
}

/// Writes the report of a built table with statistics already counted.
pub fn write_stats(
    report: &Report,
    table: &Table,
    rules: Rules,
    stats: &TableStats,
    threads: usize,
    took: Duration,
) {
    let text = text(report, table, rules, stats, threads, took);
    if let Err(e) = std::fs::write(&report.path, text) {
        eprintln!(
            "fairy-egt: warning: cannot write the report {}: {e}",
            report.path.display()
        );
    }
}
