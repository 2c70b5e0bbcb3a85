//! How well the build progress foretells the time left: builds an endgame (default KBN.KN)
//! with every progress report kept, then prints the first time left foretold and, at a tenth,
//! a quarter, half, three quarters and nine tenths of the real build time, the share shown and
//! the time left foretold beside the time that really was left.
//!
//! `cargo run --release --example progress_eta KRN.KN`

use fairy_egt::egt::material::Material;
use fairy_egt::egt::progress::BuildEvent;
use fairy_egt::egt::table::Metric;
use fairy_egt::egt::tables::TableSet;
use fairy_egt::piece::PieceSet;
use std::sync::Mutex;
use std::time::Instant;

fn main() {
    let spec = std::env::args()
        .nth(1)
        .unwrap_or_else(|| "KBN.KN".to_string());
    let pieces = PieceSet::standard();
    let material = Material::parse(&spec, &pieces).unwrap_or_else(|e| panic!("{spec}: {e}"));
    let mut set = TableSet::new(pieces, Metric::Dtm);
    let events = Mutex::new(Vec::new());
    let keep = |e: &BuildEvent| events.lock().expect("not poisoned").push(e.clone());
    let start = Instant::now();
    set.build(&material, &keep).expect("the build");
    let total = start.elapsed().as_secs_f64();
    let events = events.into_inner().expect("not poisoned");
    println!("{spec}: built in {total:.2} s, {} reports", events.len());
    if let Some(e) = events.iter().find(|e| e.remaining.is_some()) {
        let at = e.elapsed.as_secs_f64();
        let left = e.remaining.expect("found so").as_secs_f64();
        println!(
            "  first time left: at {at:.1} s, shown {:2.0}%, left {left:.1} s for {:.1} s",
            e.fraction * 100.0,
            total - at
        );
    }
    for share in [0.1, 0.25, 0.5, 0.75, 0.9] {
        let Some(e) = (events.iter().rev()).find(|e| e.elapsed.as_secs_f64() <= share * total)
        else {
            continue;
        };
        let at = e.elapsed.as_secs_f64();
        let foretold = e
            .remaining
            .map_or("-".to_string(), |r| format!("{:.1} s", r.as_secs_f64()));
        println!(
            "  at {:2.0}% of the time ({at:.1} s): shown {:2.0}%, left {foretold} for {:.1} s",
            share * 100.0,
            e.fraction * 100.0,
            total - at
        );
    }
}
