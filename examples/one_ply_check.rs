//! One ply of forward search over a table too big to build in the tests (KRN.KNN on 8×8:
//! gigabytes, minutes): random placements of its men, both sides to move, must each have the
//! stored value that their successors' stored values give (`tests/support/one_ply.rs`).
//! The tables are loaded from a table directory where `fairy-egt build SPEC --tables DIR`
//! saved them (or built, if they are not there). With `far`, only the positions whose
//! distance is beyond what a byte holds (122 moves) are checked: the long-distance exceptions.
//!
//! `cargo run --release --example one_ply_check -- KRN.KNN DIR 100000 far`
//! (8 streams of 100,000 placements each; standard pieces, DTM).

#[path = "../tests/support/one_ply.rs"]
mod one_ply;

use fairy_egt::egt::material::Material;
use fairy_egt::egt::progress::Silent;
use fairy_egt::egt::table::Metric;
use fairy_egt::egt::tables::TableSet;
use fairy_egt::egt::value::{Value, MAX_DIRECT};
use fairy_egt::piece::PieceSet;
use std::time::Instant;

fn main() {
    env_logger::init();
    let args: Vec<String> = std::env::args().skip(1).collect();
    let [spec, dir, placements, rest @ ..] = &args[..] else {
        eprintln!("usage: one_ply_check SPEC DIR PLACEMENTS [far]");
        std::process::exit(2);
    };
    let placements: usize = placements.parse().expect("PLACEMENTS is a number");
    let far_only = rest.first().is_some_and(|a| a == "far");
    let mut set = TableSet::new(PieceSet::standard(), Metric::Dtm);
    set.set_table_dir(Some(dir.into()));
    let material = Material::parse(spec, set.pieces()).expect("an endgame of standard pieces");
    let start = Instant::now();
    set.build(&material, &Silent).expect("the tables");
    println!(
        "{spec}: tables ready in {:.1} s",
        start.elapsed().as_secs_f64()
    );
    let far = |v: Value| matches!(v, Value::Win(d) | Value::Loss(d) if d > MAX_DIRECT);
    let keep: &(dyn Fn(Value) -> bool + Sync) = if far_only { &far } else { &|_| true };
    let start = Instant::now();
    let checked = one_ply::check_random_where(&set, spec, placements, keep);
    println!(
        "{spec}: {checked} positions{} agree with one ply of forward search ({} placements, {:.1} s)",
        if far_only { " beyond 122 moves" } else { "" },
        8 * placements,
        start.elapsed().as_secs_f64()
    );
}
