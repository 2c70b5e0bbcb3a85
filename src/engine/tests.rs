//! The engine driven without a process: builds run synchronously when asked for.

use super::*;
use crate::board::BoardSize;
use crate::config::EngineConfig;
use crate::egt::progress::Silent;
use crate::egt::table::Metric;
use crate::piece::PieceSet;
use crate::settings::{PieceFileError, SeedFileError};
use std::sync::atomic::Ordering;

/// The files of the engine tests, from memory: no file exists, so an unnamed piece file
/// gives the built-in pieces, and a named one or a seed file is not found.
struct NoFiles;

impl Files for NoFiles {
    fn pieces(&self, file: &PieceFile) -> Result<PieceSet, PieceFileError> {
        if file.named {
            Err(PieceFileError::NotFound(file.path.clone()))
        } else {
            Ok(PieceSet::standard())
        }
    }

    fn seeds(
        &self,
        file: &std::path::Path,
        _pieces: &PieceSet,
        _board: BoardSize,
        _spec: &str,
        _metric: Metric,
    ) -> Result<Vec<crate::egt::seed::Seed>, SeedFileError> {
        Err(SeedFileError::Read {
            path: file.to_path_buf(),
            error: std::io::Error::from(std::io::ErrorKind::NotFound).into(),
        })
    }
}

const KQKR: &str = "8/8/8/8/2r5/8/2k5/K6Q w - - 0 1";

fn engine(endgame: &str) -> Engine {
    let pieces = PieceSet::standard();
    let material = Material::parse(endgame, &pieces).unwrap();
    Engine::new(
        Settings::from_config(&EngineConfig::default(), pieces, material, None, true),
        Box::new(NoFiles),
    )
}

/// Runs the engine's actions (builds at once) until it has nothing left to do; the events
/// said, in order.
fn drive(e: &mut Engine) -> Vec<Event> {
    let actions = e.take_actions();
    drive_actions(e, actions)
}

/// `drive`, starting with these actions.
fn drive_actions(e: &mut Engine, mut actions: Vec<Action>) -> Vec<Event> {
    let mut events = Vec::new();
    while !actions.is_empty() {
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
        actions = e.take_actions();
    }
    events
}

/// The events said so far, without running any build asked for.
fn drive_said(e: &mut Engine) -> Vec<Event> {
    e.take_actions()
        .into_iter()
        .map(|a| match a {
            Action::Say(ev) => ev,
            Action::Build(job) => panic!("unexpected build of {}", job.material),
        })
        .collect()
}

/// A short name of each event's kind.
fn kinds(events: &[Event]) -> Vec<&'static str> {
    events
        .iter()
        .map(|e| match e {
            Event::TableReady { .. } => "ready",
            Event::Synced(_) => "sync",
            Event::Thinking(_) => "thinking",
            Event::Move(_) => "move",
            _ => "other",
        })
        .collect()
}

fn setup(fen: &str) -> Command {
    Command::SetPosition(Box::new(Setup::from_fen(fen, BoardSize::STANDARD).unwrap()))
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
    // A background build is not a command: `ping` is answered at once (XBoard shows no
    // progress while a ping is unanswered).
    e.command(Command::Sync("1".into()));
    assert_eq!(kinds(&drive_said(&mut e)), ["sync"]);
    e.command(Command::Go);
    e.command(Command::Sync("2".into()));
    e.command(Command::SyncAfterBuild("3".into()));
    // Nothing more is said until the tables are back: the `go` waits, and so does every
    // command after it.
    assert!(e.take_actions().is_empty());
    let mut t = job.tables;
    let r = t.build(&job.material, &Silent);
    e.built(t, r);
    let events = drive(&mut e);
    assert_eq!(
        kinds(&events),
        ["ready", "thinking", "move", "sync", "sync"]
    );
}

#[test]
fn uci_isready_waits_for_the_build() {
    let mut e = engine("KQ.KR");
    let Some(Action::Build(job)) = e.take_actions().pop() else {
        panic!("no start-up build")
    };
    e.command(Command::SyncAfterBuild("readyok".into()));
    assert!(e.take_actions().is_empty());
    let mut t = job.tables;
    let r = t.build(&job.material, &Silent);
    e.built(t, r);
    assert_eq!(kinds(&drive(&mut e)), ["ready", "sync"]);
}

#[test]
fn a_position_of_other_material_cancels_the_running_build() {
    let mut e = engine("KQ.KR");
    let Some(Action::Build(job)) = e.take_actions().pop() else {
        panic!("no start-up build")
    };
    // Same material: the build goes on.
    e.command(setup(KQKR));
    assert!(!job.cancel.load(Ordering::Relaxed));
    e.command(setup("8/8/8/8/8/8/2k5/K6R w - - 0 1"));
    assert!(
        job.cancel.load(Ordering::Relaxed),
        "KQ.KR is no longer needed"
    );
    e.command(Command::Go);
    let mut t = job.tables;
    let r = t.build_cancellable(&job.material, &Silent, &job.cancel);
    assert_eq!(r, Err(BuildError::Cancelled));
    e.built(t, r);
    // Nothing failed: the position's endgame is built next, then the `go` is answered.
    let actions = e.take_actions();
    let [Action::Build(next)] = &actions[..] else {
        panic!("KR.K is not built next")
    };
    assert_eq!(next.material.name(), "KR.K");
    assert!(!next.cancel.load(Ordering::Relaxed));
    let Some(Action::Build(next)) = actions.into_iter().next() else {
        unreachable!()
    };
    let mut t = next.tables;
    let r = t.build(&next.material, &Silent);
    e.built(t, r);
    assert_eq!(kinds(&drive(&mut e)), ["ready", "thinking", "move"]);
}

#[test]
fn a_new_table_directory_restarts_the_build_with_it() {
    let mut e = engine("KQ.KR");
    let Some(Action::Build(job)) = e.take_actions().pop() else {
        panic!("no start-up build")
    };
    assert_eq!(job.tables.table_dir(), None);
    let dir = std::env::temp_dir().join("fairy-egt-engine-test-tables-never-built");
    e.command(Command::TableDir(Some(dir.clone())));
    assert!(job.cancel.load(Ordering::Relaxed), "it would not load");
    let mut t = job.tables;
    let r = t.build_cancellable(&job.material, &Silent, &job.cancel);
    e.built(t, r);
    let actions = e.take_actions();
    let [Action::Build(next)] = &actions[..] else {
        panic!("no new build")
    };
    assert_eq!(next.material.name(), "KQ.KR");
    assert_eq!(next.tables.table_dir(), Some(dir.as_path()));
    // The same directory again changes nothing.
    e.command(Command::TableDir(Some(dir)));
    assert!(!next.cancel.load(Ordering::Relaxed));
}

#[test]
fn an_option_change_cancels_the_build_and_drops_its_tables() {
    let mut e = engine("KQ.KR");
    let Some(Action::Build(job)) = e.take_actions().pop() else {
        panic!("no start-up build")
    };
    e.command(Command::Force);
    e.command(setup(KQKR));
    e.command(Command::Metric(Metric::Dtc));
    assert!(
        job.cancel.load(Ordering::Relaxed),
        "a DTM build is useless now"
    );
    e.command(Command::Go);
    // Even had it finished, the DTM tables are not used.
    let mut t = job.tables;
    let r = t.build(&job.material, &Silent);
    e.built(t, r);
    let actions = e.take_actions();
    let [Action::Build(next)] = &actions[..] else {
        panic!("no new build")
    };
    assert_eq!(next.tables.metric(), Metric::Dtc);
    assert!(next.tables.get(&next.material).is_none());
    let events = drive_actions(&mut e, actions);
    let Some(Event::Thinking(t)) = events.iter().find(|e| matches!(e, Event::Thinking(_))) else {
        panic!("{events:?}")
    };
    // The value of a DTC table built on its own (30 moves to the rook's capture, against
    // 35 to mate).
    let mut dtc = TableSet::new(PieceSet::standard(), Metric::Dtc);
    let kqkr = Material::parse("KQ.KR", dtc.pieces()).unwrap();
    dtc.build(&kqkr, &Silent).unwrap();
    let pos = game::check(
        &Setup::from_fen(KQKR, BoardSize::STANDARD).unwrap(),
        dtc.geometry(),
        kqkr.royals(),
    )
    .unwrap();
    assert_eq!(t.metric, Metric::Dtc);
    assert_eq!(Ok(t.value), dtc.probe(&pos));
    assert_eq!(t.value, Value::Win(30));
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
    // The reason, then the game given up for the side to move (White at the start), so that
    // a GUI whose clock runs for the engine ends the game; then the engine plays no side.
    assert!(
        matches!(&events[..], [
            Event::NotPlayable(r @ Unplayable::TooManyMen(32)),
            Event::Resign { side: Color::White, reason: Unplayable::TooManyMen(32) },
            Event::NoMove,
        ] if r.to_string().contains("32 men")),
        "{events:?}"
    );
    assert_eq!(e.game_state().1, None);
    e.command(Command::Force);
    e.command(setup(KQKR));
    e.command(Command::Go);
    assert_eq!(moves_of(&drive(&mut e)).len(), 1);
}

#[test]
fn go_on_a_board_that_cannot_be_played_does_not_wait_for_the_build() {
    let mut e = engine("KQ.KR");
    // The start-up build is out, not finished.
    let startup = e.take_actions();
    assert!(matches!(&startup[..], [Action::Build(_)]));
    // Black to move with 7 men: the engine resigns for Black at once.
    let seven = "4k3/8/8/8/8/8/8/KQRBNA2 b - - 0 1";
    e.command(setup(seven));
    e.command(Command::Go);
    let said = drive_said(&mut e);
    assert!(
        matches!(
            &said[..],
            [
                Event::NotPlayable(Unplayable::TooManyMen(7)),
                Event::Resign {
                    side: Color::Black,
                    reason: Unplayable::TooManyMen(7)
                },
                Event::NoMove,
            ]
        ),
        "{said:?}"
    );
    // A playable position's `go` waits for its table as before.
    e.command(setup(KQKR));
    e.command(Command::Go);
    assert!(drive_said(&mut e).is_empty());
    let events = drive_actions(&mut e, startup);
    assert_eq!(moves_of(&events).len(), 1, "{events:?}");
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
fn the_table_memory_budget_refuses_what_does_not_fit_and_keeps_what_is_held() {
    let mut e = engine("KQ.KR");
    drive(&mut e);
    let parse = |spec| Material::parse(spec, &PieceSet::standard()).unwrap();
    let held = |e: &Engine, spec| e.tables.as_ref().unwrap().get(&parse(spec)).is_some();
    let kckr = "8/8/8/8/2r5/8/2k5/K6C w - - 0 1";
    // 1 MB: KC.KR (about 4.7 MB) is refused, saying why, and the engine goes on.
    e.command(Command::TableMemory(1));
    e.command(Command::Force);
    e.command(setup(kckr));
    let events = drive(&mut e);
    assert!(
        matches!(&events[..], [Event::BuildFailed { material, reason }]
            if material == "KC.KR"
                && reason.starts_with("KC.KR needs 5 MB of table memory, more than the budget \
                                       of 1 MB")),
        "{events:?}"
    );
    e.command(Command::Go);
    let events = drive(&mut e);
    assert!(
        matches!(&events[..], [Event::NotPlayable(why), Event::Resign { side: Color::White, .. }, Event::NoMove]
            if why.to_string().contains("could not be built: KC.KR needs")),
        "{events:?}"
    );
    // What was held is still there and plays, without a build.
    assert!(held(&e, "KQ.KR"));
    e.command(setup(KQKR));
    e.command(Command::Go);
    let actions = e.take_actions();
    assert!(
        actions
            .iter()
            .any(|a| matches!(a, Action::Say(Event::Move(_))))
            && !actions.iter().any(|a| matches!(a, Action::Build(_)))
    );
    // 6 MB: KC.KR fits once KQ.KR and KQ.K, which it does not use, are dropped (K.KR, which
    // it uses, is kept); the refused build is tried again at once, with the threads asked for.
    e.command(setup(kckr));
    e.command(Command::Threads(1));
    e.command(Command::TableMemory(6));
    let actions = e.take_actions();
    let [Action::Build(job)] = &actions[..] else {
        panic!("no build")
    };
    assert_eq!((job.material.name(), job.threads), ("KC.KR".to_string(), 1));
    for a in actions {
        if let Action::Build(job) = a {
            let mut t = job.tables;
            let r = t.build(&job.material, &Silent);
            e.built(t, r);
        }
    }
    drive(&mut e);
    assert!(held(&e, "KC.KR") && held(&e, "K.KR"));
    assert!(!held(&e, "KQ.KR") && !held(&e, "KQ.K"));
    e.command(Command::Go);
    assert_eq!(moves_of(&drive(&mut e)).len(), 1);
    // 0: the start-up budget again (most of the machine's memory here).
    e.command(Command::TableMemory(0));
    e.command(setup(KQKR));
    e.command(Command::Go);
    assert_eq!(moves_of(&drive(&mut e)).len(), 1);
    assert!(held(&e, "KC.KR") && held(&e, "KQ.KR"));
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
    let mut e = Engine::new(
        Settings::from_config(&config, pieces, material, None, true),
        Box::new(NoFiles),
    );
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
fn analysing_a_position_without_moves_shows_the_tables_value() {
    let thinking = |events: &[Event]| match events {
        [Event::Thinking(t)] => t.clone(),
        _ => panic!("{events:?}"),
    };
    // Under stalemate-wins the stalemated side has lost.
    let mut e = engine_with("KQ.K", rules(NullMove::None, true, false));
    e.command(Command::Force);
    e.command(setup(STALEMATE));
    e.command(Command::Analyze(true));
    let t = thinking(&drive(&mut e));
    assert_eq!(t.value, Value::Loss(0));
    assert!(t.pv.is_empty());
    assert_eq!(
        t.end,
        Some(GameEnd::StalemateWin {
            winner: Color::White
        })
    );
    // Without the rule it is a draw.
    let mut e = engine_with("KQ.K", rules(NullMove::None, false, false));
    e.command(Command::Force);
    e.command(setup(STALEMATE));
    e.command(Command::Analyze(true));
    let t = thinking(&drive(&mut e));
    assert_eq!((t.value, t.end), (Value::Draw, Some(GameEnd::Stalemate)));
}

#[test]
fn a_table_without_a_value_for_a_legal_position_is_reported_not_played() {
    let mut e = engine("KQ.KR");
    drive(&mut e);
    e.command(Command::Force);
    e.command(setup(KQKR));
    drive(&mut e);
    let (tables, game) = e.playable().expect("a playable position");
    let (material, sq) = material_of(game.position());
    let table = tables.get(&material).unwrap();
    let index = table.indexer().index(&sq).unwrap();
    let stm = game.position().side_to_move().index();
    table.data[stm][index as usize].store(crate::egt::value::ILLEGAL, Ordering::Relaxed);
    e.command(Command::Go);
    let events = drive(&mut e);
    assert!(
        matches!(&events[..], [Event::NotPlayable(why), Event::Resign { .. }, Event::NoMove]
            if why.to_string().starts_with("internal error: the table of KQ.KR holds no value")),
        "{events:?}"
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
    for case in crate::test_data::cases("krk_black_to_move.txt") {
        let fen = case[0].as_str();
        e.command(Command::Force);
        e.command(setup(fen));
        e.command(Command::Go);
        let events = drive(&mut e);
        let Some(Event::Thinking(t)) = events.first() else {
            panic!("{fen}: {events:?}")
        };
        let pos = crate::board::Position::new(
            &Setup::from_fen(fen, BoardSize::STANDARD).unwrap(),
            &g,
            ['K', 'K'],
        )
        .unwrap();
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
    // A file named piecedef.ini is no exception: named, it must exist.
    e.command(Command::PieceFile("/nonexistent/piecedef.ini".into()));
    let events = drive(&mut e);
    assert!(
        matches!(&events[..], [Event::Rejected { detail, .. }]
            if detail.ends_with("/nonexistent/piecedef.ini: piece file not found")),
        "{events:?}"
    );
    assert_eq!(e.settings.material.name(), "KQ.KR");
    assert!(!e.settings.options.piece_file.named);
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
    let kqkr = Box::new(Setup::from_fen(KQKR, BoardSize::STANDARD).unwrap());
    e.command(Command::SetGame(
        kqkr.clone(),
        vec!["h1b1".into(), "c2c3".into()],
    ));
    assert!(drive(&mut e).is_empty());
    assert_eq!(e.board.setup().to_fen(), "8/8/8/8/2r5/2k5/8/KQ6 w - - 2 1");
    e.command(Command::SetGame(kqkr, vec!["h1b1".into(), "h1h2".into()]));
    let events = drive(&mut e);
    assert!(
        matches!(&events[..], [Event::NotPlayable(r @ Unplayable::IllegalMove { number: 2, .. })] if r.to_string().contains("move 2 (h1h2) cannot be played: ")),
        "{events:?}"
    );
    e.command(Command::Go);
    let events = drive(&mut e);
    assert!(
        matches!(
            &events[..],
            [Event::NotPlayable(_), Event::Resign { .. }, Event::NoMove]
        ),
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
    e.command(Command::Metric(Metric::Dtc));
    drive(&mut e);
    e.command(Command::Undo(1));
    e.command(Command::Go);
    let events = drive(&mut e);
    assert_eq!(moves_of(&events).len(), 1, "{events:?}");
}

/// A new board while the start-up build runs: the stale build comes back, and a position set
/// up meanwhile has its endgame built first, not the start-up endgame on the new board (KQ.KR
/// on 12×12 takes minutes; the position's KR.K a fraction of a second).
#[test]
fn a_position_set_up_after_a_board_change_is_built_before_the_start_up_endgame() {
    let mut e = engine("KQ.KR");
    let mut actions = e.take_actions();
    let Some(Action::Build(job)) = actions.pop() else {
        panic!("no start-up build")
    };
    let big = BoardSize::new(12, 12).unwrap();
    e.command(Command::Board(big));
    e.command(Command::Force);
    e.command(Command::SetPosition(Box::new(
        Setup::from_fen("12/12/R11/12/12/12/12/12/12/2K9/12/2k9 w - - 0 1", big).unwrap(),
    )));
    e.command(Command::Go);
    // The stale 8×8 build returns (unfinished: it was cancelled).
    let mut tables = job.tables;
    let r = tables.build(&job.material, &Silent);
    e.built(tables, r);
    let next = e.take_actions().into_iter().find_map(|a| match a {
        Action::Build(job) => Some(job),
        Action::Say(_) => None,
    });
    let job = next.expect("a build of the position's endgame");
    assert_eq!(job.material.name(), "KR.K");
    let events = drive_actions(&mut e, vec![Action::Build(job)]);
    assert_eq!(moves_of(&events), vec!["a10a1".to_string()]);
}

#[test]
fn the_promotion_option_rebuilds_and_limits_the_promotions() {
    let pieces = PieceSet::standard();
    assert!(pieces.pawn().is_some(), "the shipped pieces define P");
    let mut e = engine("KP.K");
    drive(&mut e);
    e.command(Command::Force);
    e.command(setup("7k/4P3/8/8/8/8/8/4K3 w - - 0 1"));
    e.command(Command::Promotion(Some("N".into())));
    let events = drive(&mut e);
    assert!(
        !events.iter().any(|e| matches!(e, Event::Rejected { .. })),
        "{events:?}"
    );
    assert_eq!(e.options().promotion.as_deref(), Some("N"));
    let promotions: String = (e.tables.as_ref().unwrap().geometry().promotions().iter())
        .map(|p| p.letter)
        .collect();
    assert_eq!(promotions, "N");
    // A promotion to a piece not in the list is not a move.
    e.command(Command::Move("e7e8q".into()));
    let events = drive(&mut e);
    assert!(
        matches!(&events[..], [Event::IllegalMove { text, .. }] if text == "e7e8q"),
        "{events:?}"
    );
    e.command(Command::Move("e7e8n".into()));
    assert_eq!(drive(&mut e), vec![]);
    // A royal letter of the endgame, or a letter the pieces do not define, is refused and
    // changes nothing.
    let undefined = ('A'..='Z').find(|&l| pieces.get(l).is_none()).unwrap();
    for (letters, why) in [
        ("QK".to_string(), "'K' is a royal piece of the endgame KP.K"),
        (format!("Q{undefined}"), "is not in the piece definitions"),
    ] {
        e.command(Command::Promotion(Some(letters.clone())));
        let events = drive(&mut e);
        assert!(
            matches!(&events[..], [Event::Rejected { detail, .. }]
                if detail.starts_with(&format!("Promotion={letters}: ")) && detail.contains(why)),
            "{events:?}"
        );
        assert_eq!(e.options().promotion.as_deref(), Some("N"));
    }
    // Back to the board's list: the Queen again.
    e.command(Command::Promotion(None));
    drive(&mut e);
    e.command(setup("7k/4P3/8/8/8/8/8/4K3 w - - 0 1"));
    e.command(Command::Move("e7e8q".into()));
    let events = drive(&mut e);
    assert!(
        !events
            .iter()
            .any(|e| matches!(e, Event::IllegalMove { .. })),
        "{events:?}"
    );
}

#[test]
fn the_board_s_promotion_list_follows_the_board_unless_one_was_set() {
    let letters = |e: &Engine| -> String {
        (e.tables.as_ref().unwrap().geometry().promotions().iter())
            .map(|p| p.letter)
            .collect()
    };
    let ten = BoardSize::new(10, 8).unwrap();
    let mut e = engine("KP.K");
    drive(&mut e);
    assert_eq!(letters(&e), "QRBN");
    e.command(Command::Board(ten));
    drive(&mut e);
    assert_eq!(
        (letters(&e), e.options().promotion.clone()),
        ("QRBNAC".into(), None)
    );
    e.command(Command::Promotion(Some("QN".into())));
    drive(&mut e);
    e.command(Command::Board(BoardSize::STANDARD));
    drive(&mut e);
    assert_eq!(letters(&e), "QN");
    // The engine reads moves with the list too: e7e8r is no move now.
    e.command(Command::Force);
    e.command(setup("7k/4P3/8/8/8/8/8/4K3 w - - 0 1"));
    e.command(Command::Move("e7e8r".into()));
    let events = drive(&mut e);
    assert!(
        matches!(&events[..], [Event::IllegalMove { .. }]),
        "{events:?}"
    );
    // An endgame whose royal is in the list is refused; one without pawns is fine.
    e.command(Command::Endgame("QP.K".into()));
    let events = drive(&mut e);
    assert!(
        matches!(&events[..], [Event::Rejected { detail, .. }]
            if detail.contains("'Q' is a royal piece of the endgame QP.K")),
        "{events:?}"
    );
    assert_eq!(e.settings.material.name(), "KP.K");
}

/// The rule as an option: under DTM it is the rule of the DTZ tables built beside the DTM
/// ones for play (a change builds them again), and the engine scores a win that the rule
/// curses as one (+1) with the DTM value kept; under DTZ it is the tables' own rule.
#[test]
fn rule_moves_sets_the_rule_of_dtz_tables() {
    use crate::egt::dtz::{Class, Rule};
    use crate::egt::value::Value;
    let mut e = engine("KQ.KR");
    drive(&mut e);
    e.command(Command::Force);
    e.command(setup("8/8/8/3k4/2r5/8/8/KQ6 w - - 0 1"));
    e.command(Command::RuleMoves(20));
    let actions = e.take_actions();
    let [Action::Build(job)] = &actions[..] else {
        panic!("no build for the new rule")
    };
    let rule_metric = |t: &TableSet| t.rule_tables().map(|r| r.metric());
    assert_eq!(job.tables.metric(), Metric::Dtm);
    assert_eq!(rule_metric(&job.tables), Some(Metric::Dtz(Rule::moves(20))));
    drive_actions(&mut e, actions);
    let think = |e: &mut Engine| {
        e.command(Command::Go);
        let events = drive(e);
        let thinking = events.iter().find_map(|e| match e {
            Event::Thinking(t) => Some(t.clone()),
            _ => None,
        });
        assert_eq!(moves_of(&events).len(), 1, "{events:?}");
        e.command(Command::Force);
        e.command(setup("8/8/8/3k4/2r5/8/8/KQ6 w - - 0 1"));
        thinking.expect("thinking")
    };
    // Mate in 33 by DTM; 57 plies to the zeroing: beyond the 40 of a 20-move rule.
    let t = think(&mut e);
    assert_eq!((t.value, t.rule), (Value::Win(33), Some(Class::CursedWin)));
    assert_eq!(t.rule_score(), Some(1));
    e.command(Command::Metric(Metric::Dtz(Rule::FIFTY_MOVES)));
    let actions = e.take_actions();
    let [Action::Build(job)] = &actions[..] else {
        panic!("no DTZ build")
    };
    assert_eq!(job.tables.metric(), Metric::Dtz(Rule::moves(20)));
    assert_eq!(rule_metric(&job.tables), Some(Metric::Dtz(Rule::moves(20))));
    drive_actions(&mut e, actions);
    let t = think(&mut e);
    assert_eq!((t.value, t.rule), (Value::Win(57), Some(Class::CursedWin)));
    assert_eq!(crate::protocol::xboard::score(t.value, t.metric), 1);
}

/// Under a budget too small to hold K+P against K+P's whole chain, the build drops the
/// tables no later one reads; the engine plays, and after a capture into K+P against K, whose
/// promotion tables were dropped, it builds them again and plays on. (Without the rule, to
/// build the chain once; the twin's tables are dropped the same way.)
#[test]
fn a_chain_over_the_budget_is_built_dropping_and_played_on_after_a_capture() {
    let pieces = PieceSet::standard();
    let kpkp = Material::parse("KP.KP", &pieces).unwrap();
    let mut config = EngineConfig {
        rule_moves: 0,
        ..EngineConfig::default()
    };
    let settings = |config: &EngineConfig| {
        Settings::from_config(config, pieces.clone(), kpkp.clone(), None, true)
    };
    let sizing = engine_tables(&settings(&config));
    let lean = sizing.bytes_needed_dropping(&kpkp).div_ceil(MB);
    assert!(lean < sizing.bytes_needed(&kpkp) / MB, "{lean} MB");
    config.memory = lean;
    let mut e = Engine::new(settings(&config), Box::new(NoFiles));
    e.command(Command::Force);
    e.command(setup("8/8/3k4/8/4p3/2KP4/8/8 w - - 0 1"));
    drive(&mut e);
    let held = |e: &Engine, spec: &str| {
        let m = Material::parse(spec, &pieces).unwrap();
        e.tables.as_ref().unwrap().get(&m).is_some()
    };
    assert!(held(&e, "KP.KP") && held(&e, "KP.K"));
    assert!(!held(&e, "KQ.K"), "KQ.K, read by KQ.KP only, was kept");
    e.command(Command::Move("d3e4".into()));
    e.command(Command::Go);
    let actions = e.take_actions();
    let builds: Vec<String> = (actions.iter())
        .filter_map(|a| match a {
            Action::Build(job) => Some(job.material.name()),
            Action::Say(_) => None,
        })
        .collect();
    assert_eq!(builds, ["KP.K"], "KP.K's exits are built again");
    let events = drive_actions(&mut e, actions);
    assert_eq!(moves_of(&events).len(), 1, "{events:?}");
    assert!(held(&e, "KQ.K"));
}
