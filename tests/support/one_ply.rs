//! One ply of forward search over built tables, the second way of computing every value: the
//! value of a position derived from its successors' stored values must be the stored one.
//! Shared by `tests/builder_consistency.rs` and `examples/one_ply_check.rs` (which checks
//! tables too big for CI, such as KRN.KNN's, loaded from a table directory).

#![allow(dead_code)] // each user takes a part

use fairy_egt::board::{Color, Position, Setup};
use fairy_egt::egt::dtz;
use fairy_egt::egt::material::Material;
use fairy_egt::egt::table::Metric;
use fairy_egt::egt::tables::TableSet;
use fairy_egt::egt::value::Value;
use rayon::prelude::*;

/// The value of `pos` for the side to move, from its successors' stored values, under the
/// set's metric and rules, written out independently of the builder: a bare royal to move
/// (where that rule holds) has lost; a side without a legal move is mated, or stalemated (a
/// loss where stalemate wins, else a draw); a side that may pass and is not in check has the
/// pass as one more move, which leaves no en-passant right. Under DTC a capture or promotion
/// is a conversion (winning by it is a win in 1, losing by it a loss in 0).
pub fn derived(set: &TableSet, pos: &Position) -> Value {
    let g = set.geometry();
    let rules = set.rules();
    let stm = pos.side_to_move();
    let count = |c: Color| pos.men().iter().filter(|m| m.color == c).count();
    if rules.bare_royal_loses && count(stm) == 1 && count(stm.flip()) > 1 {
        return Value::Loss(0);
    }
    let moves = pos.legal_moves(g);
    let in_check = pos.in_check(g);
    if moves.is_empty() {
        return if in_check || rules.stalemate_wins {
            Value::Loss(0)
        } else {
            Value::Draw
        };
    }
    // Each successor's stored value, and whether the move to it converts (DTC) or zeroes
    // the counter (DTZ).
    let mut successors: Vec<(Value, bool)> = moves
        .iter()
        .map(|&mv| {
            let special = match set.metric() {
                Metric::Dtz(_) => pos.zeroes(mv),
                Metric::Dtc => pos.converts(mv),
                _ => false,
            };
            let value = set
                .probe(&pos.play(mv))
                .unwrap_or_else(|e| panic!("{e:?} after {mv:?} from {}", pos.to_setup().to_fen()));
            (value, special)
        })
        .collect();
    if rules.null_move.allows(stm) && !in_check {
        let mut setup = pos.to_setup();
        setup.side_to_move = stm.flip();
        setup.en_passant = None;
        let passed = Position::new(&setup, g, royals(pos)).unwrap();
        successors.push((set.probe(&passed).unwrap(), false));
    }
    if let Metric::Dtz(rule) = set.metric() {
        // A zeroing move counts only the class it leads to (`dtz::Rule::zeroing`), any other
        // one ply more (`dtz::quiet`); the best for the side to move, a real win before a
        // cursed one, a blessed loss before a real one.
        return successors
            .into_iter()
            .map(|(after, zeroes)| match zeroes {
                true => rule.zeroing(after),
                false => dtz::quiet(after),
            })
            .max_by_key(|v| v.rank())
            .expect("a legal move");
    }
    let best_win = successors
        .iter()
        .filter_map(|&(v, conversion)| match v {
            Value::Loss(d) => Some(if conversion { 1 } else { d + 1 }),
            _ => None,
        })
        .min();
    if let Some(d) = best_win {
        return Value::Win(d);
    }
    if successors.iter().any(|&(v, _)| v == Value::Draw) {
        return Value::Draw;
    }
    Value::Loss(
        successors
            .iter()
            .map(|&(v, conversion)| match v {
                Value::Win(d) if !conversion => d,
                _ => 0,
            })
            .max()
            .expect("a legal move"),
    )
}

/// The letters of the royals of `pos`, White's and Black's.
fn royals(pos: &Position) -> [char; 2] {
    Color::BOTH.map(|c| {
        pos.men()
            .iter()
            .find(|m| m.color == c && m.royal)
            .expect("a royal of each side")
            .letter
    })
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
