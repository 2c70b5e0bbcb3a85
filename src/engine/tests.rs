//! The engine driven without a process: builds run synchronously when asked for.

use super::*;
use crate::config::EngineConfig;
use crate::egt::progress::Silent;
use crate::piece::PieceSet;

const KQKR: &str = "8/8/8/8/2r5/8/2k5/K6Q w - - 0 1";

fn engine(endgame: &str) -> Engine {
    let pieces = PieceSet::standard();
    let material = Material::parse(endgame, &pieces).unwrap();
    Engine::new(Settings {
        config: EngineConfig::default(),
        pieces,
        material,
        fold: true,
        seeds: None,
    })
}

/// Runs the engine's actions (builds at once) until it has nothing left to do; the events
/// said, in order. With `hold_builds`, builds are left pending and returned.
fn drive(e: &mut Engine) -> Vec<Event> {
    let mut events = Vec::new();
    loop {
        let actions = e.take_actions();
        if actions.is_empty() {
            return events;
        }
        for a in actions {
            match a {
                Action::Say(ev) => events.push(ev),
                Action::Build(job) => {
                    let mut t = job.tables;
                    let r = t.build(&job.material, &Silent);
                    e.built(t, r);
                }
            }
        }
    }
}

fn setup(fen: &str) -> Command {
    Command::SetPosition(Box::new(Setup::from_fen(fen).unwrap()))
}

fn moves_of(events: &[Event]) -> Vec<String> {
    events
        .iter()
        .filter_map(|e| match e {
            Event::Move(m) => Some(m.text()),
            _ => None,
        })
        .collect()
}

#[test]
fn plays_the_best_move_with_a_mate_score() {
    let mut e = engine("KQ.KR");
    drive(&mut e);
    e.command(Command::Force);
    e.command(setup(KQKR));
    e.command(Command::Go);
    let events = drive(&mut e);
    let Some(Event::Thinking(t)) = events.first() else {
        panic!("no thinking: {events:?}")
    };
    assert_eq!(t.value, Value::Win(35));
    assert_eq!(t.pv.len(), 69);
    assert_eq!(moves_of(&events), vec![t.pv[0].text()]);
}

#[test]
fn commands_wait_behind_a_build_in_order() {
    let mut e = engine("KQ.KR");
    let mut actions = e.take_actions();
    let Some(Action::Build(job)) = actions.pop() else {
        panic!("no start-up build")
    };
    assert_eq!(e.building().map(|m| m.name()), Some("KQ.KR".into()));
    e.command(Command::Force);
    e.command(setup(KQKR));
    e.command(Command::Sync("1".into()));
    e.command(Command::Go);
    e.command(Command::Sync("2".into()));
    // Nothing is said until the tables are back.
    assert!(e.take_actions().is_empty());
    let mut t = job.tables;
    let r = t.build(&job.material, &Silent);
    e.built(t, r);
    let events = drive(&mut e);
    let kinds: Vec<&str> = events
        .iter()
        .map(|e| match e {
            Event::TableReady { .. } => "ready",
            Event::Synced(_) => "sync",
            Event::Thinking(_) => "thinking",
            Event::Move(_) => "move",
            _ => "other",
        })
        .collect();
    assert_eq!(kinds, ["ready", "sync", "thinking", "move", "sync"]);
}

#[test]
fn illegal_moves_change_nothing() {
    let mut e = engine("KQ.KR");
    drive(&mut e);
    e.command(Command::Force);
    e.command(setup(KQKR));
    e.command(Command::Move("h1h9".into()));
    e.command(Command::Move("c4c5".into()));
    e.command(Command::Move("h1c5".into()));
    let events = drive(&mut e);
    assert_eq!(events.len(), 3, "{events:?}");
    assert!(events
        .iter()
        .all(|e| matches!(e, Event::IllegalMove { .. })));
    e.command(Command::Hint);
    let events = drive(&mut e);
    assert!(matches!(events[..], [Event::Hint(_)]), "{events:?}");
}

#[test]
fn unplayable_positions_are_explained_and_the_engine_goes_on() {
    let mut e = engine("KQ.KR");
    drive(&mut e);
    e.command(Command::Go);
    let events = drive(&mut e);
    assert!(
        matches!(&events[..], [Event::NotPlayable(r), Event::NoMove] if r.contains("pawns")),
        "{events:?}"
    );
    e.command(Command::Force);
    e.command(setup(KQKR));
    e.command(Command::Go);
    assert_eq!(moves_of(&drive(&mut e)).len(), 1);
}

#[test]
fn other_endgames_are_built_on_demand() {
    let mut e = engine("KQ.K");
    drive(&mut e);
    e.command(Command::Force);
    e.command(setup("8/8/8/8/2r5/8/2k5/K6C w - - 0 1"));
    e.command(Command::Go);
    let events = drive(&mut e);
    assert!(
        events
            .iter()
            .any(|e| matches!(e, Event::TableReady { material, .. } if material == "KC.KR")),
        "{events:?}"
    );
    assert_eq!(moves_of(&events).len(), 1);
}

#[test]
fn edit_mode_and_side_to_move() {
    let mut e = engine("KQ.KR");
    drive(&mut e);
    e.command(Command::Force);
    e.command(Command::SetSideToMove(Color::Black));
    e.command(Command::Force);
    e.command(Command::EditBegin);
    e.command(Command::EditClear);
    for (sq, color, letter) in [
        (0, Color::White, 'K'),
        (7, Color::White, 'Q'),
        (10, Color::Black, 'K'),
        (26, Color::Black, 'R'),
        (5, Color::Black, 'N'),
    ] {
        e.command(Command::EditPlace {
            square: sq,
            color,
            letter,
        });
    }
    e.command(Command::EditEmpty(5));
    e.command(Command::EditEnd);
    drive(&mut e);
    assert_eq!(e.board.setup().to_fen(), "8/8/8/8/2r5/8/2k5/K6Q b - - 0 1");
}

#[test]
fn the_engine_claims_mate_after_its_mating_move() {
    let mut e = engine("KQ.K");
    drive(&mut e);
    e.command(Command::Force);
    e.command(setup("k7/8/1K6/8/8/8/8/6Q1 w - - 0 1"));
    e.command(Command::Go);
    let events = drive(&mut e);
    assert_eq!(
        events.last(),
        Some(&Event::GameEnd(GameEnd::Mate {
            winner: Color::White
        }))
    );
}

#[test]
fn undo_and_remove() {
    let mut e = engine("KQ.KR");
    drive(&mut e);
    e.command(Command::Force);
    e.command(setup(KQKR));
    e.command(Command::Undo(1));
    assert!(matches!(&drive(&mut e)[..], [Event::Rejected { .. }]));
    e.command(Command::Move("h1h8".into()));
    e.command(Command::Move("c4c5".into()));
    e.command(Command::Undo(2));
    assert!(drive(&mut e).is_empty());
    assert_eq!(e.board.setup().to_fen(), KQKR);
}

#[test]
fn memory_drops_unneeded_tables_and_cores_size_builds() {
    let mut e = engine("KQ.KR");
    drive(&mut e);
    e.command(Command::Memory(1));
    e.command(Command::Threads(1));
    e.command(Command::Force);
    e.command(setup("8/8/8/8/2r5/8/2k5/K6C w - - 0 1"));
    let actions = e.take_actions();
    let [Action::Build(job)] = &actions[..] else {
        panic!("no build")
    };
    assert_eq!(job.threads, 1);
    let kqkr = Material::parse("KQ.KR", &PieceSet::standard()).unwrap();
    assert!(job.tables.get(&kqkr).is_none(), "KQ.KR was kept");
    for a in actions {
        if let Action::Build(job) = a {
            let mut t = job.tables;
            let r = t.build(&job.material, &Silent);
            e.built(t, r);
        }
    }
    let events = drive(&mut e);
    assert!(
        events
            .iter()
            .any(|e| matches!(e, Event::Note(n) if n.contains("memory"))),
        "{events:?}"
    );
}

/// An engine of `endgame` under `rules`, start-up build done.
fn engine_with(endgame: &str, rules: crate::egt::rules::Rules) -> Engine {
    let pieces = PieceSet::standard();
    let material = Material::parse(endgame, &pieces).unwrap();
    let mut config = EngineConfig {
        endgame: endgame.to_string(),
        report: None,
        ..EngineConfig::default()
    };
    config.null_move = rules.null_move;
    config.stalemate_wins = rules.stalemate_wins;
    config.bare_king_loses = rules.bare_royal_loses;
    let mut e = Engine::new(Settings {
        config,
        pieces,
        material,
        fold: true,
        seeds: None,
    });
    drive(&mut e);
    e
}

fn rules(
    null_move: crate::egt::rules::NullMove,
    stalemate: bool,
    bare: bool,
) -> crate::egt::rules::Rules {
    crate::egt::rules::Rules {
        null_move,
        stalemate_wins: stalemate,
        bare_royal_loses: bare,
    }
}

use crate::egt::rules::NullMove;

/// Black stalemated by White's queen and king.
const STALEMATE: &str = "k7/2Q5/1K6/8/8/8/8/8 b - - 0 1";

#[test]
fn a_stalemate_is_claimed_as_the_rules_say() {
    let mut e = engine_with("KQ.K", rules(NullMove::None, false, false));
    e.command(Command::Force);
    e.command(setup(STALEMATE));
    e.command(Command::Go);
    let events = drive(&mut e);
    assert_eq!(
        events,
        vec![Event::GameEnd(GameEnd::Stalemate), Event::NoMove]
    );
    // The option rebuilds the tables under the rule: the same position is lost for Black.
    e.command(Command::StalemateWins(true));
    let events = drive(&mut e);
    assert!(
        matches!(&events[..], [Event::TableReady { material, .. }] if material == "KQ.K"),
        "{events:?}"
    );
    e.command(Command::Go);
    let events = drive(&mut e);
    assert_eq!(
        events,
        vec![
            Event::GameEnd(GameEnd::StalemateWin {
                winner: Color::White
            }),
            Event::NoMove
        ]
    );
    assert_eq!(
        GameEnd::StalemateWin {
            winner: Color::White
        }
        .to_string(),
        "1-0 {White wins by stalemate}"
    );
    // White to move one step before: the stalemating move is a win in 1, and is claimed.
    e.command(setup("k7/8/1K6/8/8/8/2Q5/8 w - - 0 1"));
    e.command(Command::Go);
    let events = drive(&mut e);
    let Some(Event::Thinking(t)) = events.first() else {
        panic!("{events:?}")
    };
    assert_eq!(t.value, Value::Win(1));
    // c2c7 and c2h2 both stalemate; the first in (from, to) order is played.
    assert_eq!(moves_of(&events), vec!["c2h2".to_string()]);
    assert_eq!(
        events.last(),
        Some(&Event::GameEnd(GameEnd::StalemateWin {
            winner: Color::White
        }))
    );
    // The rule off again: stalemating would draw; the engine mates (c2c8) and claims mate.
    e.command(Command::StalemateWins(false));
    drive(&mut e);
    e.command(setup("k7/8/1K6/8/8/8/2Q5/8 w - - 0 1"));
    e.command(Command::Go);
    let events = drive(&mut e);
    assert_eq!(moves_of(&events), vec!["c2c8".to_string()]);
    assert_eq!(
        events.last(),
        Some(&Event::GameEnd(GameEnd::Mate {
            winner: Color::White
        }))
    );
}

#[test]
fn baring_the_enemy_royal_is_claimed_under_bare_royal_loses() {
    let fen = "8/8/8/8/2r4Q/8/2k5/K7 w - - 0 1";
    let mut e = engine_with("KQ.KR", rules(NullMove::None, false, true));
    e.command(Command::Force);
    e.command(setup(fen));
    e.command(Command::Go);
    let events = drive(&mut e);
    let Some(Event::Thinking(t)) = events.first() else {
        panic!("{events:?}")
    };
    assert_eq!(t.value, Value::Win(1));
    assert_eq!(t.pv.len(), 1, "the line ends where the royal is bare");
    assert_eq!(moves_of(&events), vec!["h4c4".to_string()]);
    assert_eq!(
        events.last(),
        Some(&Event::GameEnd(GameEnd::Bared {
            winner: Color::White
        }))
    );
    assert_eq!(
        GameEnd::Bared {
            winner: Color::White
        }
        .to_string(),
        "1-0 {White bares the Black royal}"
    );
    // Without the rule no claim follows the capture.
    e.command(Command::BareRoyalLoses(false));
    drive(&mut e);
    e.command(Command::Go);
    let events = drive(&mut e);
    assert!(
        !events.iter().any(|e| matches!(e, Event::GameEnd(_))),
        "{events:?}"
    );
}

#[test]
fn under_null_move_the_engine_plays_its_best_real_move_and_says_its_value() {
    let mut e = engine_with("KR.K", rules(NullMove::Black, false, false));
    let pieces = PieceSet::standard();
    let g = crate::board::geometry::Geometry::new(&pieces);
    // Black to move in many KR.K positions: the move is legal, and the score is its value.
    for fen in [
        "8/8/8/3k4/8/8/8/R3K3 b - - 0 1",
        "k7/8/1K6/8/8/8/8/7R b - - 0 1",
        "8/8/8/8/8/2k5/8/K1R5 b - - 0 1",
    ] {
        e.command(Command::Force);
        e.command(setup(fen));
        e.command(Command::Go);
        let events = drive(&mut e);
        let Some(Event::Thinking(t)) = events.first() else {
            panic!("{fen}: {events:?}")
        };
        let pos =
            crate::board::Position::new(&Setup::from_fen(fen).unwrap(), &g, ['K', 'K']).unwrap();
        let mv = t.pv[0];
        assert!(pos.legal_moves(&g).contains(&mv), "{fen}: {}", mv.text());
        let tables = e.tables.as_ref().unwrap();
        let best = crate::egt::probe::best_of(&tables.scored_moves(&pos).unwrap()).unwrap();
        assert_eq!(t.value, best.value, "{fen}");
        assert_eq!(moves_of(&events), vec![best.mv.text()]);
    }
}

#[test]
fn endgame_and_piece_file_options() {
    let mut e = engine("KQ.KR");
    drive(&mut e);
    e.command(Command::Endgame("KQ.".into()));
    let events = drive(&mut e);
    assert!(
        matches!(&events[..], [Event::Rejected { detail, .. }] if detail.contains("KQ.")),
        "{events:?}"
    );
    e.command(Command::PieceFile("/nonexistent/pieces.ini".into()));
    let events = drive(&mut e);
    assert!(
        matches!(&events[..], [Event::Rejected { detail, .. }] if detail.contains("/nonexistent")),
        "{events:?}"
    );
    assert_eq!(e.settings.material.name(), "KQ.KR");
    e.command(Command::Endgame("KR.K".into()));
    let actions = e.take_actions();
    let [Action::Build(job)] = &actions[..] else {
        panic!("no build")
    };
    assert_eq!(job.material.name(), "KR.K");
    assert!(job.tables.get(&job.material).is_none());
}

#[test]
fn uci_positions_with_moves() {
    let mut e = engine("KQ.KR");
    drive(&mut e);
    let kqkr = Box::new(Setup::from_fen(KQKR).unwrap());
    e.command(Command::SetGame(
        kqkr.clone(),
        vec!["h1b1".into(), "c2c3".into()],
    ));
    assert!(drive(&mut e).is_empty());
    assert_eq!(e.board.setup().to_fen(), "8/8/8/8/2r5/2k5/8/KQ6 w - - 0 1");
    e.command(Command::SetGame(kqkr, vec!["h1b1".into(), "h1h2".into()]));
    let events = drive(&mut e);
    assert!(
        matches!(&events[..], [Event::NotPlayable(r)] if r.contains("move 2 (h1h2) cannot be played: ")),
        "{events:?}"
    );
    e.command(Command::Go);
    let events = drive(&mut e);
    assert!(
        matches!(&events[..], [Event::NotPlayable(_), Event::NoMove]),
        "{events:?}"
    );
}

#[test]
fn undo_after_an_option_change_builds_the_table_it_returns_to() {
    let mut e = engine("KQ.KR");
    drive(&mut e);
    e.command(Command::Force);
    e.command(setup("8/8/8/8/2r4Q/8/2k5/K7 w - - 0 1"));
    e.command(Command::Move("h4c4".into()));
    e.command(Command::Metric(crate::config::Metric::Dtc));
    drive(&mut e);
    e.command(Command::Undo(1));
    e.command(Command::Go);
    let events = drive(&mut e);
    assert_eq!(moves_of(&events).len(), 1, "{events:?}");
}
