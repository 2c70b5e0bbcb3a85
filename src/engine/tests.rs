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
        matches!(&events[..], [Event::NotPlayable(r)] if r.contains("pawns")),
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
