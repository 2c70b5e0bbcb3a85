//! Rule variants (null move, stalemate wins, bare royal loses): each changes the tables as
//! expected, and every position of the changed tables agrees with one ply of forward search
//! that applies the rule itself.

use fairy_egt::board::BoardSize;
use fairy_egt::board::{Color, Position, Setup};
use fairy_egt::egt::material::Material;
use fairy_egt::egt::progress::Silent;
use fairy_egt::egt::rules::{NullMove, Rules};
use fairy_egt::egt::stats::{table_stats, TableStats};
use fairy_egt::egt::table::Metric;
use fairy_egt::egt::tables::TableSet;
use fairy_egt::egt::value::Value;
use fairy_egt::piece::PieceSet;
use rayon::prelude::*;

fn built(spec: &str, rules: Rules) -> (TableSet, TableStats) {
    built_on(BoardSize::STANDARD, spec, rules)
}

fn built_on(board: BoardSize, spec: &str, rules: Rules) -> (TableSet, TableStats) {
    let mut set = TableSet::new(PieceSet::standard(), Metric::Dtm)
        .on_board(board)
        .with_rules(rules);
    let m = Material::parse(spec, set.pieces()).unwrap();
    set.build(&m, &Silent).unwrap();
    let stats = table_stats(set.get(&m).unwrap(), set.geometry());
    (set, stats)
}

/// The value of `pos` from its successors under `rules`, written out independently of the
/// builder.
fn derived(set: &TableSet, pos: &Position, rules: Rules) -> Value {
    let g = set.geometry();
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
    let mut successors: Vec<Position> = moves.iter().map(|&m| pos.play(m)).collect();
    if rules.null_move.allows(stm) && !in_check {
        let mut setup = pos.to_setup();
        setup.side_to_move = stm.flip();
        successors.push(Position::new(&setup, g, royals(pos)).unwrap());
    }
    let values: Vec<Value> = successors.iter().map(|p| set.probe(p).unwrap()).collect();
    let best_win = values
        .iter()
        .filter_map(|v| {
            if let Value::Loss(d) = v {
                Some(d + 1)
            } else {
                None
            }
        })
        .min();
    if let Some(d) = best_win {
        return Value::Win(d);
    }
    if values.contains(&Value::Draw) {
        return Value::Draw;
    }
    Value::Loss(
        values
            .iter()
            .map(|v| if let Value::Win(d) = v { *d } else { 0 })
            .max()
            .unwrap(),
    )
}

fn royals(pos: &Position) -> [char; 2] {
    [Color::White, Color::Black].map(|c| {
        pos.men()
            .iter()
            .find(|m| m.color == c && m.royal)
            .unwrap()
            .letter
    })
}

/// Checks every placement of `spec`'s men on the whole board (3 men) against `derived`.
fn check_all(set: &TableSet, spec: &str, rules: Rules) {
    let material = Material::parse(spec, set.pieces()).unwrap();
    let men: Vec<(Color, char)> = material.men().iter().map(|m| (m.color, m.letter)).collect();
    assert_eq!(men.len(), 3, "whole-board check is for 3 men");
    let board = set.geometry().board();
    let squares: Vec<u8> = board.all_squares().collect();
    let checked: u64 = squares
        .par_iter()
        .map(|&a| {
            let mut n = 0;
            for &b in &squares {
                for &c in &squares {
                    if a == b || b == c || a == c {
                        continue;
                    }
                    for stm in Color::BOTH {
                        let mut setup = Setup::empty(board, stm);
                        for (&(color, letter), sq) in men.iter().zip([a, b, c]) {
                            setup.board[sq as usize] = Some((color, letter));
                        }
                        let Ok(pos) = Position::new(&setup, set.geometry(), material.royals())
                        else {
                            continue;
                        };
                        assert_eq!(
                            set.probe(&pos).unwrap(),
                            derived(set, &pos, rules),
                            "{}",
                            setup.to_fen()
                        );
                        n += 1;
                    }
                }
            }
            n
        })
        .sum();
    assert!(
        checked as usize > squares.len().pow(3) / 2,
        "{spec} on {board}: {checked}"
    );
}

#[test]
fn null_move_for_black_makes_krk_no_general_win() {
    let (_, orthodox) = built("KR.K", Rules::default());
    let rules = Rules {
        null_move: NullMove::Black,
        ..Rules::default()
    };
    let (set, passing) = built("KR.K", rules);
    assert_eq!(orthodox.wtm.drawn, orthodox.wtm.legal - orthodox.wtm.won);
    assert!(
        passing.wtm.won < orthodox.wtm.won,
        "fewer wins when Black may pass"
    );
    assert!(passing.wtm.drawn > orthodox.wtm.drawn);
    check_all(&set, "KR.K", rules);
    // White may pass too: the tables still agree with the forward search.
    let both = Rules {
        null_move: NullMove::Both,
        ..Rules::default()
    };
    let (set, _) = built("KQ.K", both);
    check_all(&set, "KQ.K", both);
}

#[test]
fn stalemate_wins_turns_kqk_stalemates_into_wins() {
    let (_, orthodox) = built("KQ.K", Rules::default());
    let rules = Rules {
        stalemate_wins: true,
        ..Rules::default()
    };
    let (set, rule) = built("KQ.K", rules);
    assert!(orthodox.btm.stalemates > 0);
    // The stalemated positions are now lost for Black at once, not drawn.
    assert_eq!(
        rule.btm.losses[&0],
        orthodox.btm.checkmates + orthodox.btm.stalemates
    );
    assert!(rule.btm.drawn <= orthodox.btm.drawn - orthodox.btm.stalemates);
    assert!(
        rule.wtm.longest_win < orthodox.wtm.longest_win,
        "{} vs {}",
        rule.wtm.longest_win,
        orthodox.wtm.longest_win
    );
    check_all(&set, "KQ.K", rules);
}

#[test]
fn bare_royal_loses_makes_the_baring_capture_win() {
    let rules = Rules {
        bare_royal_loses: true,
        ..Rules::default()
    };
    // White's knight takes Black's last man: a draw in chess, a win under the rule.
    let fen = "7k/8/8/8/8/3n4/1N6/K7 w - - 0 1";
    for (rules, value) in [(Rules::default(), Value::Draw), (rules, Value::Win(1))] {
        let (set, _) = built("KN.KN", rules);
        let pos = Position::new(
            &Setup::from_fen(fen, BoardSize::STANDARD).unwrap(),
            set.geometry(),
            ['K', 'K'],
        )
        .unwrap();
        assert_eq!(set.probe(&pos).unwrap(), value, "{rules:?}");
        if value == Value::Win(1) {
            assert_eq!(set.best_move(&pos).unwrap().unwrap().mv.text(), "b2d3");
        }
    }
    // A bare royal to move has lost; the other side wins with any move.
    let (set, stats) = built("KN.K", rules);
    assert_eq!(stats.btm.lost, stats.btm.legal);
    assert_eq!(
        stats.btm.losses.keys().copied().collect::<Vec<_>>(),
        vec![0]
    );
    assert_eq!(stats.wtm.longest_win, 1);
    check_all(&set, "KN.K", rules);
}

/// Seeds: a mate seeded as a draw is a draw, and its predecessor that had only that mate in 1
/// now wins later (or not at all); every other value still agrees with forward search.
#[test]
fn a_mate_seeded_as_a_draw_changes_its_predecessors() {
    use fairy_egt::egt::seed::parse_seeds;
    let (orthodox, _) = built("KQ.K", Rules::default());
    // A White-to-move mate in 1 with exactly one mating move.
    let g = orthodox.geometry();
    let (before, mate) = (0..64u8)
        .flat_map(|k| (0..64u8).flat_map(move |q| (0..64u8).map(move |b| (k, q, b))))
        .filter_map(|(k, q, b)| {
            let mut setup = Setup::empty(BoardSize::STANDARD, Color::White);
            if k == q || q == b || k == b {
                return None;
            }
            setup.board[k as usize] = Some((Color::White, 'K'));
            setup.board[q as usize] = Some((Color::White, 'Q'));
            setup.board[b as usize] = Some((Color::Black, 'K'));
            let pos = Position::new(&setup, g, ['K', 'K']).ok()?;
            let moves = orthodox.scored_moves(&pos).ok()?;
            let mates: Vec<_> = moves.iter().filter(|m| m.value == Value::Win(1)).collect();
            (mates.len() == 1).then(|| (pos.clone(), pos.play(mates[0].mv)))
        })
        .next()
        .expect("some mate in 1 has a single mating move");
    let square = |c: Color, royal: bool| {
        BoardSize::STANDARD.square_name(
            mate.men()
                .iter()
                .find(|m| m.color == c && m.royal == royal)
                .unwrap()
                .square,
        )
    };
    let line = format!(
        "{}{}{} draw   # the mate after {}\n",
        square(Color::White, true),
        square(Color::White, false),
        square(Color::Black, true),
        Setup::to_fen(&before.to_setup())
    );
    let seeds = parse_seeds(&line, "seeds.txt", "KQ.K", g, Metric::Dtm).unwrap();
    assert_eq!(seeds.len(), 1);
    let material = Material::parse("KQ.K", orthodox.pieces()).unwrap();
    let mut seeded =
        TableSet::new(PieceSet::standard(), Metric::Dtm).with_seeds(material.clone(), seeds);
    seeded.build(&material, &Silent).unwrap();
    assert_eq!(orthodox.probe(&mate).unwrap(), Value::Loss(0));
    assert_eq!(seeded.probe(&mate).unwrap(), Value::Draw, "the seeded mate");
    assert_eq!(orthodox.probe(&before).unwrap(), Value::Win(1));
    let now = seeded.probe(&before).unwrap();
    assert!(
        matches!(now, Value::Win(d) if d > 1) || now == Value::Draw,
        "predecessor is {now:?}"
    );
    assert_ne!(
        seeded.best_move(&before).unwrap().unwrap().mv,
        orthodox.best_move(&before).unwrap().unwrap().mv
    );
}

/// The rules on other boards (built slot by slot there): each table agrees with the forward
/// search that applies the rule, on every placement of its 3 men.
#[test]
fn rules_on_other_boards_agree_with_forward_search() {
    let board = |text: &str| text.parse::<BoardSize>().unwrap();
    let null_black = Rules {
        null_move: NullMove::Black,
        ..Rules::default()
    };
    let stalemate_wins = Rules {
        stalemate_wins: true,
        ..Rules::default()
    };
    let bare_royal_loses = Rules {
        bare_royal_loses: true,
        ..Rules::default()
    };
    for (b, spec, rules) in [
        ("10x8", "KR.K", null_black),
        ("7x5", "KQ.K", stalemate_wins),
        ("5x6", "KN.K", bare_royal_loses),
        ("6x6", "KA.K", null_black),
    ] {
        let (set, _) = built_on(board(b), spec, rules);
        check_all(&set, spec, rules);
    }
    // As on 8×8, stalemate-wins shortens the longest KQK win on 7×5, and a Black that may
    // pass stops KRK's general win on 10×8.
    let (_, orthodox) = built_on(board("7x5"), "KQ.K", Rules::default());
    let (_, rule) = built_on(board("7x5"), "KQ.K", stalemate_wins);
    assert!(orthodox.btm.stalemates > 0);
    assert_eq!(
        rule.btm.losses[&0],
        orthodox.btm.checkmates + orthodox.btm.stalemates
    );
    let (_, orthodox) = built_on(board("10x8"), "KR.K", Rules::default());
    let (_, passing) = built_on(board("10x8"), "KR.K", null_black);
    assert!(passing.wtm.won < orthodox.wtm.won);
}
