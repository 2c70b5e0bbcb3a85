//! The engine: a synchronous state machine over [`Command`]s that answers with [`Event`]s and
//! asks for table builds. It keeps the position and the game's history (for undo), which side
//! it plays (none in force mode), whether it analyses, and the tables; it never sees protocol
//! text and never waits: a command that needs tables while a build runs is queued (with every
//! later one, so answers keep their order) until [`Engine::built`] hands the tables back.
//!
//! The tables themselves travel: while a build runs, the [`TableSet`] is with the builder
//! ([`BuildJob`]), so probing and building never share it. At most one build is out at a
//! time. A build that has become useless is cancelled through its job's flag: when a new
//! position needs other material (the tables come back with every table completed before,
//! and the new material is built next), or when an option changes the tables' contents (the
//! tables that come back are dropped, and new ones are started under the new settings).

pub mod command;
pub mod game;
pub mod think;
pub mod unplayable;

pub use command::{Command, Event, GameEnd, Thinking, Variant};
pub use unplayable::Unplayable;

use crate::board::geometry::Geometry;
use crate::board::{Color, Setup};
use crate::egt::builder::BuildError;
use crate::egt::dtz::{Class, Rule};
use crate::egt::material::{material_of, Material};
use crate::egt::memory::MB;
use crate::egt::probe::ScoredMove;
use crate::egt::tables::TableSet;
use crate::egt::value::Value;
pub use crate::settings::Options;
use crate::settings::{new_tables, Files, PieceFile, Report, Settings};
use game::{standard_start, Board};
use std::collections::{HashMap, VecDeque};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Instant;
use think::Judge;

/// The engine's tables for these settings: with the draw rule on (`rule_moves`, 50 by
/// default), DTZ tables are built beside the metric's, to play within the rule
/// ([`TableSet::with_rule_play`]).
pub fn engine_tables(settings: &Settings) -> TableSet {
    new_tables(settings).with_rule_play(Rule::moves(settings.options.rule_moves))
}

/// A build the engine asks for: build `material` into `tables` (with `threads` threads,
/// 0 = one per core), then give the set back with [`Engine::built`].
pub struct BuildJob {
    /// The engine's tables, lent to the builder.
    pub tables: TableSet,
    /// The endgame to build (with its sub-endgames).
    pub material: Material,
    /// Threads to use; 0 = one per core.
    pub threads: usize,
    /// Where to write the report of the build (`None`: no report).
    pub report: Option<Box<Report>>,
    /// Raised when the engine no longer needs the build: the builder then stops soon and
    /// hands the tables back with [`BuildError::Cancelled`].
    pub cancel: Arc<AtomicBool>,
}

/// The build that is out.
struct Running {
    material: Material,
    started: Instant,
    cancel: Arc<AtomicBool>,
    /// The settings changed since it started: the tables it hands back are dropped.
    stale: bool,
}

/// What the engine asks its host to do.
pub enum Action {
    /// Say an event (the protocol renders it).
    Say(Event),
    /// Run a build (boxed: a job is far larger than an event).
    Build(Box<BuildJob>),
}

/// The engine's state.
pub struct Engine {
    /// The settings in force: those of the start-up, changed by the options since.
    settings: Settings,
    /// Loads the piece and seed files an option names.
    files: Box<dyn Files>,
    geometry: Geometry,
    royals: [char; 2],
    /// The table memory budget set by the GUI, in MB (`None`: the settings' budget).
    memory: Option<u64>,
    /// `None` while a build has them.
    tables: Option<TableSet>,
    /// The build that is out, if any.
    building: Option<Running>,
    /// Once the running (stale) build is back: build the start-up endgame first (unless a
    /// playable position was set up meanwhile: its endgame comes first).
    startup_next: bool,
    /// Endgames whose build failed, and why.
    failed: HashMap<Material, BuildError>,
    board: Board,
    edit: Option<Setup>,
    /// The side the engine plays; `None` in force mode.
    side: Option<Color>,
    post: bool,
    analyzing: bool,
    /// The last analysis shown and when it started (for status requests).
    analysis: Option<(Thinking, Instant, usize)>,
    queue: VecDeque<Command>,
    out: Vec<Action>,
}

impl Engine {
    /// An engine for these settings, set up as after `new`; the start-up build of the
    /// settings' endgame is its first action. The files options name are loaded through
    /// `files`.
    pub fn new(settings: Settings, files: Box<dyn Files>) -> Engine {
        let geometry = settings.geometry();
        let royals = settings.material.royals();
        let mut engine = Engine {
            board: Board::from_setup(standard_start(geometry.board()), &geometry, royals),
            tables: Some(engine_tables(&settings)),
            settings,
            files,
            geometry,
            royals,
            memory: None,
            building: None,
            startup_next: false,
            failed: HashMap::new(),
            edit: None,
            side: Some(Color::Black),
            post: true,
            analyzing: false,
            analysis: None,
            queue: VecDeque::new(),
            out: Vec::new(),
        };
        engine.ensure_tables();
        engine
    }

    /// The actions asked for since the last call, in order.
    pub fn take_actions(&mut self) -> Vec<Action> {
        std::mem::take(&mut self.out)
    }

    /// The options in force.
    pub fn options(&self) -> &Options {
        &self.settings.options
    }

    /// The endgame being built, if a build runs.
    pub fn building(&self) -> Option<&Material> {
        self.building
            .as_ref()
            .filter(|r| !r.stale)
            .map(|r| &r.material)
    }

    /// Whether commands wait for the running build (every command read is answered once
    /// this is false).
    pub fn has_waiting_commands(&self) -> bool {
        !self.queue.is_empty()
    }

    /// Asks the running build, if any, to stop (the engine is leaving). The tables come
    /// back through [`Engine::built`] as usual.
    pub fn cancel_build(&mut self) {
        if let Some(r) = &self.building {
            r.cancel.store(true, Ordering::Relaxed);
        }
    }

    /// The board (the game and its history, or the set-up that cannot be played) and the
    /// side the engine plays (`None` in force mode), read-only, for checks from outside.
    pub fn game_state(&self) -> (&Board, Option<Color>) {
        (&self.board, self.side)
    }

    /// Whether thinking output (and so build progress) is shown.
    pub fn shows_thinking(&self) -> bool {
        self.post || self.analyzing
    }

    /// Carries out a command now, or queues it behind a build.
    pub fn command(&mut self, cmd: Command) {
        if !self.queue.is_empty() || self.must_wait(&cmd) {
            self.queue.push_back(cmd);
        } else {
            self.run(cmd);
        }
    }

    /// A build asked for by [`Action::Build`] is over: the tables come back and the queued
    /// commands go on.
    pub fn built(&mut self, mut tables: TableSet, result: Result<(), BuildError>) {
        for notice in tables.take_notices() {
            self.say(Event::TableNotice(notice));
        }
        match self.building.take() {
            Some(Running { stale: true, .. }) => {
                // Built under settings that changed meanwhile.
                self.tables = Some(engine_tables(&self.settings));
                if std::mem::take(&mut self.startup_next) {
                    self.start_build(self.settings.material.clone());
                }
            }
            Some(Running {
                material, started, ..
            }) => {
                self.tables = Some(tables);
                self.report_build(material, started, result);
            }
            None => self.tables = Some(tables),
        }
        self.ensure_tables();
        while let Some(cmd) = self.queue.front() {
            if self.must_wait(cmd) {
                break;
            }
            let cmd = self.queue.pop_front().expect("the queue has a front");
            self.run(cmd);
        }
    }

    /// Says how the build of `material` ended: ready (when thinking is shown), cancelled
    /// (nothing to say), or failed (said, and not tried again for these settings).
    fn report_build(
        &mut self,
        material: Material,
        started: Instant,
        result: Result<(), BuildError>,
    ) {
        match result {
            Ok(()) if self.shows_thinking() => self.say(Event::TableReady {
                material: material.name(),
                took: started.elapsed(),
            }),
            Ok(()) | Err(BuildError::Cancelled) => {}
            Err(e) => {
                log::error!("the build of {material} failed: {e}");
                self.say(Event::BuildFailed {
                    material: material.name(),
                    reason: e.to_string(),
                });
                self.failed.insert(material, e);
            }
        }
    }

    /// Whether a command must wait for a running build: those that need the tables. Option
    /// changes do not wait: they cancel the build (see [`Engine::retable`]).
    fn must_wait(&self, cmd: &Command) -> bool {
        if self.building.is_none() {
            return false;
        }
        match cmd {
            // On a board that cannot be played they need no table: the reason is said at
            // once (a GUI's clock runs while a `go` waits).
            Command::Go
            | Command::Hint
            | Command::Book
            | Command::DrawOffer
            | Command::Analyze(true)
            | Command::AnalysisStatus => matches!(self.board, Board::Playable(_)),
            Command::SyncAfterBuild(_) => true,
            Command::Move(_) => self.analyzing || self.engine_replies(),
            Command::NewGame
            | Command::SetPosition(_)
            | Command::SetGame(..)
            | Command::SetUnplayable(_)
            | Command::SetSideToMove(_)
            | Command::EditEnd
            | Command::Undo(_) => self.analyzing,
            _ => false,
        }
    }

    /// Whether the engine answers a move of the side to move with a move of its own.
    fn engine_replies(&self) -> bool {
        match &self.board {
            Board::Playable(game) => self.side == Some(game.position().side_to_move().flip()),
            Board::Unplayable { .. } => false,
        }
    }

    fn say(&mut self, event: Event) {
        self.out.push(Action::Say(event));
    }

    fn reject(&mut self, kind: &str, detail: &str) {
        self.say(Event::Rejected {
            kind: kind.to_string(),
            detail: detail.to_string(),
        });
    }

    fn run(&mut self, cmd: Command) {
        match cmd {
            Command::NewGame => {
                self.side = Some(Color::Black);
                self.set_board(standard_start(self.geometry.board()));
            }
            Command::SetPosition(setup) => self.set_board(*setup),
            Command::SetGame(setup, moves) => self.set_game(*setup, &moves),
            Command::SetUnplayable(reason) => {
                self.board = Board::Unplayable {
                    setup: Box::new(self.board.setup()),
                    reason: reason.clone(),
                };
                self.say(Event::NotPlayable(reason));
            }
            Command::SetSideToMove(color) => {
                let mut setup = self.board.setup();
                setup.side_to_move = color;
                self.side = Some(color.flip());
                self.set_board(setup);
            }
            Command::EditBegin => self.edit = Some(self.board.setup()),
            Command::EditClear => {
                if let Some(e) = &mut self.edit {
                    e.board = Setup::empty(e.size, e.side_to_move).board;
                }
            }
            Command::EditPlace {
                square,
                color,
                letter,
            } => {
                if let Some(e) = &mut self.edit {
                    if let Some(slot) = e.board.get_mut(square as usize) {
                        *slot = Some((color, letter.to_ascii_uppercase()));
                    }
                }
            }
            Command::EditEmpty(square) => {
                if let Some(e) = &mut self.edit {
                    if let Some(slot) = e.board.get_mut(square as usize) {
                        *slot = None;
                    }
                }
            }
            Command::EditEnd => {
                if let Some(setup) = self.edit.take() {
                    self.set_board(setup);
                }
            }
            Command::Move(text) => self.opponent_move(&text),
            Command::Undo(n) => self.undo(n),
            Command::Force => self.side = None,
            Command::Go => {
                self.side = Some(self.board.setup().side_to_move);
                self.engine_move();
            }
            Command::PlayOther => self.side = Some(self.board.setup().side_to_move.flip()),
            Command::Result => self.side = None,
            Command::Post(on) => self.post = on,
            Command::Analyze(on) => {
                self.analyzing = on;
                if on {
                    self.analyse();
                }
            }
            Command::AnalysisStatus => self.analysis_status(),
            Command::Hint => {
                if let Some(best) = self.scored_moves().and_then(|m| m.first().copied()) {
                    self.say(Event::Hint(best.mv));
                }
            }
            Command::Book => {
                let moves = self.scored_moves().unwrap_or_default();
                self.say(Event::Book(moves));
            }
            Command::DrawOffer => {
                if let (Board::Playable(game), Some(tables)) = (&self.board, &self.tables) {
                    // A draw by the tables, or by the rule from the clock.
                    let judge = Judge {
                        tables,
                        rule: self.rule(),
                    };
                    let (pos, clock) = (game.position(), game.clock());
                    let drawn = match judge.class(pos, clock) {
                        Ok(Some(class)) => !matches!(class, Class::Win | Class::Loss),
                        _ => tables.probe(pos) == Ok(Value::Draw),
                    };
                    if drawn {
                        self.say(Event::AcceptDraw);
                    }
                }
            }
            Command::Sync(token) | Command::SyncAfterBuild(token) => self.say(Event::Synced(token)),
            Command::Variant(v) => self.say(Event::Variant(v, self.geometry.board())),
            Command::Metric(m) => self.reconfigure(|o| o.metric = m.under_rule(o.rule_moves)),
            // The DTZ tables (the metric's, or those built beside it for play) count by it.
            Command::RuleMoves(n) => self.reconfigure(|o| {
                o.rule_moves = n;
                o.metric = o.metric.under_rule(n);
            }),
            Command::Board(board) => {
                let mut new = self.settings.clone();
                new.options.board = board;
                self.retable(new, true);
            }
            Command::Promotion(letters) => {
                let mut new = self.settings.clone();
                new.options.promotion = letters.clone();
                match new.check_promotion() {
                    Ok(()) => self.retable(new, false),
                    Err(e) => self.reject(
                        "bad option value",
                        &format!("Promotion={}: {e}", letters.unwrap_or_default()),
                    ),
                }
            }
            Command::NullMove(n) => self.reconfigure(|o| o.rules.null_move = n),
            Command::StalemateWins(on) => self.reconfigure(|o| o.rules.stalemate_wins = on),
            Command::BareRoyalLoses(on) => self.reconfigure(|o| o.rules.bare_royal_loses = on),
            Command::Endgame(spec) => {
                let spec = spec.trim();
                match Material::parse(spec, &self.settings.pieces) {
                    Ok(m) if m == self.settings.material => {}
                    Ok(m) => {
                        let mut new = self.settings.clone();
                        new.options.endgame = spec.to_string();
                        new.material = m;
                        match new.check_promotion() {
                            Ok(()) => self.retable(new, true),
                            Err(e) => self.reject(
                                "bad option value",
                                &format!("Endgame={spec}: {e} (option Promotion)"),
                            ),
                        }
                    }
                    Err(e) => self.reject("bad option value", &format!("Endgame={spec}: {e}")),
                }
            }
            Command::PieceFile(path) => {
                let file = PieceFile {
                    path: path.clone(),
                    named: true,
                };
                let endgame = &self.settings.options.endgame;
                let pieces = self.files.pieces(&file).map_err(|e| e.to_string());
                let loaded = pieces.and_then(|pieces| {
                    let m = Material::parse(endgame, &pieces)
                        .map_err(|e| format!("the endgame {endgame} in these pieces: {e}"))?;
                    Ok((pieces, m))
                });
                match loaded {
                    Ok((pieces, material)) => {
                        let mut new = self.settings.clone();
                        new.options.piece_file = file;
                        new.pieces = pieces;
                        new.material = material;
                        match new.check_promotion() {
                            Ok(()) => self.retable(new, true),
                            Err(e) => self.reject(
                                "bad option value",
                                &format!("PieceFile={}: {e} (option Promotion)", path.display()),
                            ),
                        }
                    }
                    Err(e) => self.reject(
                        "bad option value",
                        &format!("PieceFile={}: {e}", path.display()),
                    ),
                }
            }
            Command::Threads(n) => self.settings.options.threads = n,
            Command::TableDir(dir) => {
                if dir != self.settings.options.tables {
                    self.settings.options.tables = dir;
                    // Restarted when it is back (`built`), loading what the directory has.
                    if let Some(running) = self.building.as_ref().filter(|r| !r.stale) {
                        log::info!(
                            "restarting the build of {} with the new table directory",
                            running.material
                        );
                        running.cancel.store(true, Ordering::Relaxed);
                    }
                    if let Some(tables) = &mut self.tables {
                        tables.set_table_dir(self.settings.options.tables.clone());
                    }
                }
            }
            Command::TableMemory(mb) => {
                self.memory = (mb > 0).then_some(mb);
                // A build refused for want of memory may fit now.
                self.failed
                    .retain(|_, e| !matches!(e, BuildError::OverBudget { .. }));
                self.ensure_tables();
            }
        }
    }

    /// Rebuilds the tables with one option changed (see `retable`).
    fn reconfigure(&mut self, change: impl FnOnce(&mut Options)) {
        let mut new = self.settings.clone();
        change(&mut new.options);
        self.retable(new, false);
    }

    /// New settings after an option changed (metric, rules, endgame or pieces): the seed file
    /// is read again, new tables are started, and the position's endgame (with `startup`,
    /// first the start-up endgame) is built. A running build is cancelled, and new tables
    /// start when it is back. A seed file that does not read for the new settings refuses
    /// the change: nothing changes. Unchanged settings change nothing.
    fn retable(&mut self, new: Settings, startup: bool) {
        // By name: materials read with two piece sets differ in their ids even when their
        // letters are the same (a piece file read again under the same name, say).
        if new.options == self.settings.options
            && new.material.name() == self.settings.material.name()
        {
            return;
        }
        let mut new = new;
        let seeds = new.seed_file.as_deref().map(|file| {
            let o = &new.options;
            self.files
                .seeds(file, &new.pieces, o.board, &o.endgame, o.metric)
        });
        match seeds.transpose() {
            Ok(seeds) => new.seeds = seeds,
            Err(e) => {
                self.reject("bad option value", &e.to_string());
                return;
            }
        }
        self.settings = new;
        // The promotions may have changed (the letters, or the default list of a new board
        // or endgame): moves are read with the new ones.
        self.geometry = self.settings.geometry();
        self.failed.clear();
        match &mut self.building {
            Some(running) => {
                running.cancel.store(true, Ordering::Relaxed);
                running.stale = true;
                self.startup_next |= startup;
            }
            None => self.tables = Some(engine_tables(&self.settings)),
        }
        if startup {
            // New pieces, royals or board: the position is checked again (its history is
            // dropped); on a new board, the game starts from the board's start position.
            let board = self.settings.options.board;
            self.royals = self.settings.material.royals();
            let mut setup = self.board.setup();
            if setup.size != board {
                setup = standard_start(board);
            }
            self.board = Board::from_setup(setup, &self.geometry, self.royals);
            self.start_build(self.settings.material.clone());
        }
        self.ensure_tables();
        self.reanalyse();
    }

    /// A set-up and moves played from it (UCI's `position`): the position after the moves,
    /// or, if the set-up cannot be played or a move is not legal, a board that says why.
    fn set_game(&mut self, setup: Setup, moves: &[String]) {
        let board = Board::from_setup(setup, &self.geometry, self.royals);
        self.board = match board {
            Board::Playable(mut game) => {
                let mut refused = None;
                for (i, text) in moves.iter().enumerate() {
                    match game.position().parse_move(text, &self.geometry) {
                        Ok(mv) => game.play(mv),
                        Err(e) => {
                            refused = Some(Unplayable::IllegalMove {
                                number: i + 1,
                                text: text.clone(),
                                error: e,
                            });
                            break;
                        }
                    }
                }
                match refused {
                    None => Board::Playable(game),
                    Some(reason) => Board::Unplayable {
                        setup: Box::new(game.position().to_setup()),
                        reason,
                    },
                }
            }
            unplayable => unplayable,
        };
        if let Board::Unplayable { reason, .. } = &self.board {
            let reason = reason.clone();
            self.say(Event::NotPlayable(reason));
        }
        self.cancel_useless_build();
        self.ensure_tables();
        self.reanalyse();
    }

    /// A new board from a set-up; the tables it needs are built if missing.
    fn set_board(&mut self, setup: Setup) {
        self.board = Board::from_setup(setup, &self.geometry, self.royals);
        match &self.board {
            Board::Unplayable { reason, .. } => log::info!("position not playable: {reason}"),
            // The position's endgame comes before a start-up endgame still waiting for a
            // stale build to return, as it comes before a running one (which is cancelled).
            Board::Playable(_) => self.startup_next = false,
        }
        self.cancel_useless_build();
        self.ensure_tables();
        self.reanalyse();
    }

    /// While analysing, shows the analysis of the new position (once its tables are there).
    fn reanalyse(&mut self) {
        if !self.analyzing {
            return;
        }
        if self.building.is_some() {
            self.queue.push_front(Command::Analyze(true));
        } else {
            self.analyse();
        }
    }

    fn opponent_move(&mut self, text: &str) {
        let Board::Playable(game) = &mut self.board else {
            self.reject("no playable position", text);
            return;
        };
        match game.position().parse_move(text, &self.geometry) {
            Err(e) => {
                self.say(Event::IllegalMove {
                    text: text.to_string(),
                    reason: e.to_string(),
                });
            }
            Ok(mv) => {
                game.play(mv);
                let to_move = game.position().side_to_move();
                // A build that dropped tables to fit its budget may not hold the new
                // position's: they are built first, and the answer waits for them.
                self.ensure_tables();
                if self.analyzing {
                    self.reanalyse();
                } else if self.side == Some(to_move) {
                    match self.building {
                        Some(_) => self.queue.push_front(Command::Go),
                        None => self.engine_move(),
                    }
                }
            }
        }
    }

    fn undo(&mut self, n: usize) {
        let name = if n == 1 { "undo" } else { "remove" };
        let undone = match &mut self.board {
            Board::Playable(game) => game.undo(n),
            Board::Unplayable { .. } => false,
        };
        if undone {
            // The position taken back to may be of an endgame whose table was dropped since
            // (an option changed after a capture): it is built again.
            self.ensure_tables();
            self.reanalyse();
        } else {
            self.reject("command not legal now", name);
        }
    }

    /// Why the current position cannot be played now, if it cannot.
    fn unplayable_reason(&self) -> Option<Unplayable> {
        let game = match &self.board {
            Board::Unplayable { reason, .. } => return Some(reason.clone()),
            Board::Playable(game) => game,
        };
        let Some(tables) = &self.tables else {
            return Some(Unplayable::Building);
        };
        let (material, _) = material_of(game.position());
        match self.failed.get(&material) {
            Some(why) => Some(Unplayable::BuildFailed(material, why.clone())),
            None if !tables.playable(&material) => Some(Unplayable::NotBuilt(material)),
            None => None,
        }
    }

    /// The tables and the playable game, or `None` after saying why there are none
    /// ([`Event::NotPlayable`]).
    fn playable(&mut self) -> Option<(&TableSet, &game::Game)> {
        if let Some(reason) = self.unplayable_reason() {
            self.say(Event::NotPlayable(reason));
            return None;
        }
        match (&self.tables, &self.board) {
            (Some(tables), Board::Playable(game)) => Some((tables, game)),
            _ => None,
        }
    }

    /// The draw rule in force.
    fn rule(&self) -> Rule {
        Rule::moves(self.settings.options.rule_moves)
    }

    /// Plays the engine's move in the current position (or claims the game's end).
    fn engine_move(&mut self) {
        let started = Instant::now();
        let post = self.post;
        if let Some(reason) = self.unplayable_reason() {
            self.say(Event::NotPlayable(reason.clone()));
            self.resign(reason);
            return;
        }
        let rule = self.rule();
        let Some((tables, game)) = self.playable() else {
            return;
        };
        let judge = Judge { tables, rule };
        let (thinking, end_after) =
            match think::think(&judge, game.position(), game.clock(), started) {
                Ok(t) => t,
                Err(e) => {
                    let reason = Unplayable::from(e);
                    self.say(Event::NotPlayable(reason.clone()));
                    self.resign(reason);
                    return;
                }
            };
        if let Some(end) = thinking.end {
            self.side = None;
            self.say(Event::GameEnd(end));
            self.say(Event::NoMove);
            return;
        }
        let mv = thinking.pv[0];
        if post {
            self.say(Event::Thinking(thinking));
        }
        if let Board::Playable(game) = &mut self.board {
            game.play(mv);
        }
        self.say(Event::Move(mv));
        if let Some(end) = end_after {
            self.side = None;
            self.say(Event::GameEnd(end));
        }
        // The tables of the position the move leads to, if a build dropped them.
        self.ensure_tables();
    }

    /// Asked to move where it cannot (the reason said already): gives the game up for the
    /// side to move, and plays no side until told again.
    fn resign(&mut self, reason: Unplayable) {
        let side = self.board.setup().side_to_move;
        self.side = None;
        self.say(Event::Resign { side, reason });
        self.say(Event::NoMove);
    }

    /// Shows the analysis of the current position.
    fn analyse(&mut self) {
        let started = Instant::now();
        let rule = self.rule();
        let Some((tables, game)) = self.playable() else {
            return;
        };
        let pos = game.position();
        let moves = pos.legal_moves(tables.geometry()).len();
        // The table's value even without a legal move: under the rules a stalemate may be
        // lost, and a bared royal is lost whatever its moves.
        match think::think(&Judge { tables, rule }, pos, game.clock(), started) {
            Ok((t, _)) => {
                self.analysis = Some((t.clone(), started, moves));
                self.say(Event::Thinking(t));
            }
            Err(e) => self.say(Event::NotPlayable(e.into())),
        }
    }

    fn analysis_status(&mut self) {
        if let (true, Some((t, started, moves))) = (self.analyzing, &self.analysis) {
            let event = Event::AnalysisStatus {
                centis: (started.elapsed().as_millis() / 10) as u64,
                nodes: t.nodes,
                plies: t.pv.len(),
                moves: *moves,
            };
            self.say(event);
        }
    }

    /// Every legal move of the current position with its value, best first as the engine
    /// weighs them (within the rule, from the clock), `None` if the position cannot be played.
    fn scored_moves(&mut self) -> Option<Vec<ScoredMove>> {
        let rule = self.rule();
        let (tables, game) = self.playable()?;
        match (Judge { tables, rule }).ranked(game.position(), game.clock()) {
            Ok(moves) => Some(moves),
            Err(e) => {
                self.say(Event::NotPlayable(e.into()));
                None
            }
        }
    }

    /// Starts a build when the current position's endgame (or, without a playable position,
    /// the start-up endgame) has no table, unless a build runs or that build failed before.
    fn ensure_tables(&mut self) {
        let target = match &self.board {
            Board::Playable(game) => material_of(game.position()).0,
            Board::Unplayable { .. } => self.settings.material.clone(),
        };
        self.start_build(target);
    }

    /// After a new position: a running build of other material than the position's is
    /// cancelled (the position's endgame is built when the tables are back). A stale build
    /// is cancelled already (and its material is of the old piece set).
    fn cancel_useless_build(&self) {
        if let (Some(running), Board::Playable(game)) = (&self.building, &self.board) {
            let (material, _) = material_of(game.position());
            if !running.stale && running.material != material {
                log::info!(
                    "cancelling the build of {} for {material}",
                    running.material
                );
                running.cancel.store(true, Ordering::Relaxed);
            }
        }
    }

    /// Starts the build of `target` unless a build runs, it is built, or its build failed.
    fn start_build(&mut self, target: Material) {
        if self.building.is_some() {
            return;
        }
        let Some(tables) = &mut self.tables else {
            return;
        };
        if tables.playable(&target) || self.failed.contains_key(&target) {
            return;
        }
        // The build drops the tables it does not use if it needs their room.
        tables.set_budget(match self.memory {
            Some(mb) => mb.saturating_mul(MB),
            None => self.settings.budget(),
        });
        tables.set_table_dir(self.settings.options.tables.clone());
        let tables = self.tables.take().expect("checked above");
        let cancel = Arc::new(AtomicBool::new(false));
        self.building = Some(Running {
            material: target.clone(),
            started: Instant::now(),
            cancel: cancel.clone(),
            stale: false,
        });
        self.out.push(Action::Build(Box::new(BuildJob {
            tables,
            material: target,
            threads: self.settings.options.threads,
            report: self.settings.report().map(Box::new),
            cancel,
        })));
    }
}

#[cfg(test)]
mod tests;
