//! `fairy-egt build`: build an endgame and print its statistics (text or JSON).

use super::stats_text::render;
use super::{build_tables, settings, start_threads, UserError};
use crate::cli::Common;
use fairy_egt::egt::stats::table_stats;

/// Runs the command; the statistics go to stdout.
pub fn run(common: &Common, json: bool) -> Result<(), UserError> {
    let s = settings(common)?;
    let threads = start_threads(s.options.threads);
    let (tables, took) = build_tables(&s)?;
    let table = tables
        .get(&s.material)
        .expect("the requested table was built");
    let stats = table_stats(table, tables.geometry());
    if let Some(report) = s.report() {
        super::report::write_stats(&report, table, tables.rules(), &stats, threads, took);
    }
    let seconds = (took.as_secs_f64() * 1000.0).round() / 1000.0;
    if json {
        let mut v = serde_json::to_value(&stats).expect("statistics serialise");
        let obj = v.as_object_mut().expect("statistics are an object");
        obj.insert("threads".into(), threads.into());
        obj.insert("seconds".into(), seconds.into());
        obj.insert("table_bytes".into(), table.bytes().into());
        println!("{v}");
    } else {
        print!("{}", render(&stats, threads, seconds, table.bytes()));
    }
    Ok(())
}
