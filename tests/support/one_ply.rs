//! One ply of forward search over built tables, the second way of computing every value: the
//! value of a position derived from its successors' stored values must be the stored one.
//! Shared by `tests/builder_consistency.rs` and `examples/one_ply_check.rs` (which checks
//! tables too big for CI, such as KRN.KNN's, loaded from a table directory).

#![allow(dead_code)] // each user takes a part

use fairy_egt::board::{Color, Move, Position, Setup};
use fairy_egt::egt::dtz;
use fairy_egt::egt::material::Material;
use fairy_egt::egt::table::Metric;
use fairy_egt::egt::tables::TableSet;
use fairy_egt::egt::value::Value;
use rayon::prelude::*;

/// The value of `pos` for the side to move, from its successors' stored values.
pub fn derived(set: &TableSet, pos: &Position) -> Value {
    let g = set.geometry();
    let moves = pos.legal_moves(g);
    if moves.is_empty() {
        // Mate or stalemate.
        return if pos.in_check(g) {
            Value::Loss(0)
        } else {
            Value::Draw
        };
    }
    if let Metric::Dtz(rule) = set.metric() {
        return derived_dtz(set, rule, pos, moves);
    }
    let mut best_win: Option<u16> = None;
    let mut draw = false;
    let mut longest_loss: u16 = 0;
    for mv in moves {
        let after = set.probe(&pos.play(mv)).unwrap();
        let conversion = set.metric() == Metric::Dtc && pos.converts(mv);
        match after {
            Value::Loss(d) => {
                let win = if conversion { 1 } else { d + 1 };
                best_win = Some(best_win.map_or(win, |b| b.min(win)));
            }
            Value::Draw => draw = true,
            Value::Win(d) => longest_loss = longest_loss.max(if conversion { 0 } else { d }),
        }
    }
    match (best_win, draw) {
        (Some(d), _) => Value::Win(d),
        (None, true) => Value::Draw,
        (None, false) => Value::Loss(longest_loss),
    }
}

/// `derived` in a DTZ table (plies), from the legal `moves` of `pos`: a capture or a pawn's move counts only the class it
/// leads to (`dtz::Rule::zeroing`), any other move one ply more (`dtz::quiet`); the best of them
/// for the side to move, a real win before a cursed one, a blessed loss before a real one.
fn derived_dtz(set: &TableSet, rule: dtz::Rule, pos: &Position, moves: Vec<Move>) -> Value {
    moves
        .into_iter()
        .map(|mv| {
            let after = set.probe(&pos.play(mv)).unwrap();
            if pos.zeroes(mv) {
                rule.zeroing(after)
            } else {
                dtz::quiet(after)
            }
        })
        .max_by_key(|v| v.rank())
        .expect("a legal move")
}

/// Checks the placement of the men `men` (canonical order) on `squares`, both sides to move;
/// returns the number of legal positions checked.
pub fn check_placement(
    set: &TableSet,
    material: &Material,
    men: &[(Color, char)],
    squares: &[u8],
) -> u64 {
    check_placement_where(set, material, men, squares, &|_| true)
}

/// `check_placement` of the positions whose stored value passes `keep`.
pub fn check_placement_where(
    set: &TableSet,
    material: &Material,
    men: &[(Color, char)],
    squares: &[u8],
    keep: &(dyn Fn(Value) -> bool + Sync),
) -> u64 {
    let mut sorted = squares.to_vec();
    sorted.sort();
    sorted.dedup();
    if sorted.len() != squares.len() {
        return 0;
    }
    let mut checked = 0;
    for stm in Color::BOTH {
        let mut setup = Setup::empty(set.geometry().board(), stm);
        for (&(color, letter), &sq) in men.iter().zip(squares) {
            setup.board[sq as usize] = Some((color, letter));
        }
        let Ok(pos) = Position::new(&setup, set.geometry(), material.royals()) else {
            continue;
        };
        let stored = set.probe(&pos).unwrap();
        if !keep(stored) {
            continue;
        }
        assert_eq!(stored, derived(set, &pos), "{}", setup.to_fen());
        checked += 1;
    }
    checked
}

/// The men of a material as (colour, letter), in canonical order.
pub fn men_of(material: &Material) -> Vec<(Color, char)> {
    material.men().iter().map(|m| (m.color, m.letter)).collect()
}

/// Checks `placements` random placements of the men of `spec` in each of 8 streams, both
/// sides to move; returns the number of legal positions checked.
pub fn check_random(set: &TableSet, spec: &str, placements: usize) -> u64 {
    check_random_where(set, spec, placements, &|_| true)
}

/// `check_random` of the positions whose stored value passes `keep`.
pub fn check_random_where(
    set: &TableSet,
    spec: &str,
    placements: usize,
    keep: &(dyn Fn(Value) -> bool + Sync),
) -> u64 {
    let material = Material::parse(spec, set.pieces()).unwrap();
    let men = men_of(&material);
    let n = set.geometry().board().squares() as u64;
    (1..=8u64)
        .into_par_iter()
        .map(|seed| {
            // xorshift64: a fixed, reproducible stream of placements.
            let mut state = seed.wrapping_mul(0x9e37_79b9_7f4a_7c15);
            let mut next = move || {
                state ^= state << 13;
                state ^= state >> 7;
                state ^= state << 17;
                (state % n) as u8
            };
            (0..placements)
                .map(|_| {
                    let squares: Vec<u8> = (0..men.len()).map(|_| next()).collect();
                    check_placement_where(set, &material, &men, &squares, keep)
                })
                .sum::<u64>()
        })
        .sum()
}
