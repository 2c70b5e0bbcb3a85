//! The statistics of a built table as the readable table that `fairy-egt build` prints and
//! the report file holds.

use fairy_egt::board::BoardSize;
use fairy_egt::egt::stats::{SideStats, TableStats};
use std::fmt::Write as _;

/// A row of the statistics table: its label and the count it shows.
type CountRow = (&'static str, fn(&SideStats) -> u64);
/// A row that only some metrics have.
type OptionalRow = (&'static str, fn(&SideStats) -> Option<u64>);

/// The statistics as a readable table.
pub fn render(s: &TableStats, threads: usize, seconds: f64, bytes: u64) -> String {
    let mut out = String::new();
    // The board only when it is not the usual one, so 8×8 output is as it always was.
    let board = if s.board == BoardSize::STANDARD.to_string() {
        String::new()
    } else {
        format!("  board {}", s.board)
    };
    let _ = writeln!(
        out,
        "{}{board}  metric {}{}  symmetry {}-fold  {} threads  built in {:.2} s  table {:.1} MB",
        s.endgame,
        s.metric,
        match s.rule_moves {
            Some(0) => " (no rule)".to_string(),
            Some(n) => format!(" ({n}-move rule)"),
            None => String::new(),
        },
        s.symmetry,
        threads,
        seconds,
        bytes as f64 / 1e6
    );
    let _ = writeln!(
        out,
        "{:<14}{:>16}{:>16}",
        "", "white to move", "black to move"
    );
    let rows: [CountRow; 9] = [
        ("placements", |x| x.placements),
        ("illegal", |x| x.illegal),
        ("legal", |x| x.legal),
        ("unique legal", |x| x.unique),
        ("won", |x| x.won),
        ("drawn", |x| x.drawn),
        ("lost", |x| x.lost),
        ("checkmates", |x| x.checkmates),
        ("stalemates", |x| x.stalemates),
    ];
    for (name, f) in rows {
        let _ = writeln!(out, "{:<14}{:>16}{:>16}", name, f(&s.wtm), f(&s.btm));
    }
    // DTZ: the classes the 50-move rule adds.
    let classes: [OptionalRow; 2] = [
        ("cursed wins", |x| x.cursed_wins),
        ("blessed losses", |x| x.blessed_losses),
    ];
    for (name, f) in classes {
        if let (Some(w), Some(b)) = (f(&s.wtm), f(&s.btm)) {
            let _ = writeln!(out, "{:<14}{:>16}{:>16}", name, w, b);
        }
    }
    let _ = writeln!(
        out,
        "{:<14}{:>16}{:>16}",
        "longest win", s.wtm.longest_win, s.btm.longest_win
    );
    let _ = writeln!(
        out,
        "{:<14}{:>16}{:>16}",
        "longest loss", s.wtm.longest_loss, s.btm.longest_loss
    );
    let _ = writeln!(
        out,
        "unique legal positions (NULP), both sides to move, colours swapped: {}",
        s.unique_legal
    );
    let _ = writeln!(
        out,
        "\n{:<10}{:>14}{:>14}{:>14}{:>14}",
        // DTZ (the only metric with a rule) counts plies, the other metrics moves.
        if s.rule_moves.is_some() {
            "plies"
        } else {
            "distance"
        },
        "wtm won",
        "wtm lost",
        "btm won",
        "btm lost"
    );
    let top = [
        s.wtm.longest_win,
        s.wtm.longest_loss,
        s.btm.longest_win,
        s.btm.longest_loss,
    ]
    .into_iter()
    .max()
    .unwrap_or(0);
    let get = |m: &std::collections::BTreeMap<u16, u64>, d: u16| m.get(&d).copied().unwrap_or(0);
    for d in 0..=top {
        let _ = writeln!(
            out,
            "{:<10}{:>14}{:>14}{:>14}{:>14}",
            d,
            get(&s.wtm.wins, d),
            get(&s.wtm.losses, d),
            get(&s.btm.wins, d),
            get(&s.btm.losses, d)
        );
    }
    out
}
