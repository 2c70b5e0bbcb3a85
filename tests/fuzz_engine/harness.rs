//! One engine driven through a protocol as the session drives it, but synchronously and in
//! process: a line is read by the protocol, its commands go to the engine, the engine's events
//! are rendered and its builds are run here (at once, or after a few more lines, or failed on
//! purpose). Every line is checked; the first broken invariant ends the case with a
//! [`Failure`]:
//! - a refused command changes nothing: position, side to move, history length, side the
//!   engine plays; and its refusal is written, with its protocol's marker;
//! - a legal move is never called illegal, and an accepted one is played;
//! - every `ping N` gets exactly one `pong N` and every `isready` one `readyok`, in order;
//!   every UCI `go` exactly one `bestmove`; nothing is owed when the case ends;
//! - `go` and `analyze` in a playable position give a move, a game end or a value (unless the
//!   build of its endgame, or of one above it, failed);
//! - an XBoard game-end claim is true of the position (a false one forfeits the game);
//! - every line written is one line: no control character but the tab;
//! - no build asks for more threads than the `Threads` options allow.
//!
//! Checks that compare the state before and after a line are made when no build ran while
//! it was read (else commands of earlier lines, queued behind the build, may run too).
//!
//! What counts as a refusal is decided from what the renderers write for each event:
//! - XBoard: `Error (…)` (answered by the protocol itself to an unknown command, a bad
//!   argument or option value; an [`Event::Rejected`] for an option value the engine refuses,
//!   undo beyond the history, a move without a position), `Illegal move: …`
//!   ([`Event::IllegalMove`]), and the `tellusererror` the protocol itself answers to a
//!   `setboard` whose FEN does not read.
//! - UCI: the `info string` replies to a `setoption` the protocol refuses, and the
//!   `info string` of an [`Event::Rejected`] (an option value the engine refuses).
//!
//! Not refusals: `tellusererror` / `info string cannot play this position` after `go`,
//! `hint` or `analyze` (the engine keeps the position it cannot play), after a UCI `position`
//! (UCI replaces the position by one that cannot be played, so that the next `go` answers
//! `bestmove 0000`), and after a failed build.

use super::lines::Step;
use fairy_egt::board::geometry::Geometry;
use fairy_egt::board::{BoardSize, Color, Position};
use fairy_egt::config::EngineConfig;
use fairy_egt::egt::builder::BuildError;
use fairy_egt::egt::material::material_of;
use fairy_egt::egt::material::Material;
use fairy_egt::egt::progress::Silent;
use fairy_egt::engine::game::Board;
use fairy_egt::engine::{Action, BuildJob, Command, Engine, Event, GameEnd};
use fairy_egt::files::Disk;
use fairy_egt::piece::PieceSet;
use fairy_egt::protocol::uci::Uci;
use fairy_egt::protocol::xboard::XBoard;
use fairy_egt::protocol::{Dialect, Input, Protocol};
use fairy_egt::settings::Settings;
use std::collections::VecDeque;
use std::time::{Duration, Instant};

/// Most threads a build may be asked for (the `Threads` options' maximum).
const MAX_THREADS: usize = 256;

/// A broken invariant.
#[derive(Debug)]
pub struct Failure {
    /// Which invariant (minimising keeps a failure of the same kind).
    pub kind: &'static str,
    /// What happened.
    pub detail: String,
}

fn fail<T>(kind: &'static str, detail: String) -> Result<T, Failure> {
    Err(Failure { kind, detail })
}

/// What was checked and done, over one case or a whole run.
#[derive(Clone, Debug, Default)]
pub struct Counts {
    /// Lines fed.
    pub lines: usize,
    /// `pong`s (XBoard) and `readyok`s (UCI) matched to their `ping` / `isready`.
    pub pongs: usize,
    /// UCI `bestmove`s matched to their `go`.
    pub bestmoves: usize,
    /// Refused lines after which the state was compared (and found unchanged).
    pub refusals: usize,
    /// Legal moves accepted and checked to be played.
    pub moves: usize,
    /// `go`/`analyze` on a playable position checked to give a move or a value.
    pub answers: usize,
    /// XBoard game-end claims checked against the position.
    pub claims: usize,
    /// Builds run.
    pub builds: usize,
    /// Five-man builds run.
    pub five_men: usize,
    /// Times the engine's board changed size (`variant`, `Board`, `UCI_Variant`).
    pub boards: usize,
    /// Of the legal moves and the answers, those on a board other than 8×8.
    pub off_standard: usize,
    /// Builds failed on purpose (and five-man builds beyond the budget).
    pub failed: usize,
    /// Time spent building.
    pub build_time: Duration,
}

impl Counts {
    /// Adds another count to this one.
    pub fn add(&mut self, o: &Counts) {
        self.lines += o.lines;
        self.pongs += o.pongs;
        self.bestmoves += o.bestmoves;
        self.refusals += o.refusals;
        self.moves += o.moves;
        self.answers += o.answers;
        self.claims += o.claims;
        self.builds += o.builds;
        self.five_men += o.five_men;
        self.boards += o.boards;
        self.off_standard += o.off_standard;
        self.failed += o.failed;
        self.build_time += o.build_time;
    }
}

/// The state a refused command must leave as it was.
#[derive(Debug, PartialEq, Eq)]
struct Snapshot {
    /// The position (or the set-up that cannot be played), side to move included.
    fen: String,
    /// Moves of the game's history (`None`: the position cannot be played).
    plies: Option<usize>,
    /// The side the engine plays.
    side: Option<Color>,
}

/// A build started and not handed back yet.
struct Held {
    job: BuildJob,
    /// Lines still to read before it ends.
    lines_left: usize,
    fail: bool,
}

/// The engine of one case, with its protocol and what it still owes.
pub struct Run {
    engine: Engine,
    /// The protocols before the first line chooses one, as the session does.
    xboard: Option<XBoard>,
    uci: Option<Uci>,
    protocol: Option<(Dialect, Box<dyn Protocol>)>,
    pieces: PieceSet,
    /// The geometry of the shipped pieces on the engine's board (see `follow_board`).
    geometry: Geometry,
    held: Option<Held>,
    /// Five-man builds this case may still run (others fail on purpose).
    five_men_left: usize,
    /// Endgames whose build failed: their positions, and those of the endgames below them,
    /// may lack their tables.
    failed: Vec<Material>,
    /// `pong` texts owed, oldest first (XBoard), and `readyok`s owed (UCI).
    pongs: VecDeque<String>,
    readyoks: usize,
    /// UCI `go`s read and `bestmove`s written.
    gos: usize,
    bestmoves: usize,
    /// The engine has quit.
    pub quit: bool,
    /// Every line fed, for the failure message and for replays.
    pub steps: Vec<Step>,
    /// The last lines written, for the failure message.
    pub recent: VecDeque<String>,
    /// What was checked.
    pub counts: Counts,
}

impl Run {
    /// A new engine of the shipped pieces whose start-up endgame is `startup`, as after the
    /// session's start: its start-up build is run at once.
    pub fn new(startup: &str, five_men: usize) -> Result<Run, Failure> {
        let pieces = PieceSet::standard();
        let material = Material::parse(startup, &pieces).expect("the start-up endgames parse");
        let config = EngineConfig {
            endgame: startup.to_string(),
            report: None,
            ..EngineConfig::default()
        };
        let xboard = XBoard::new(pieces.clone(), &config.endgame);
        let uci = Uci::default();
        let settings = Settings::from_config(&config, pieces.clone(), material, None, true);
        let mut run = Run {
            engine: Engine::new(settings, Box::new(Disk)),
            xboard: Some(xboard),
            uci: Some(uci),
            protocol: None,
            geometry: Geometry::new(&pieces),
            pieces,
            held: None,
            five_men_left: five_men,
            failed: Vec::new(),
            pongs: VecDeque::new(),
            readyoks: 0,
            gos: 0,
            bestmoves: 0,
            quit: false,
            steps: Vec::new(),
            recent: VecDeque::new(),
            counts: Counts::default(),
        };
        run.drive(0, false)?;
        run.follow_board();
        Ok(run)
    }

    /// Counts a move or answer checked on a board other than 8×8.
    fn count_off_standard(&mut self) {
        if self.geometry.board() != BoardSize::STANDARD {
            self.counts.off_standard += 1;
        }
    }

    /// Keeps the geometry on the board of the engine's position, which `variant`, `Board`
    /// and `UCI_Variant` change.
    fn follow_board(&mut self) {
        let size = self.engine.game_state().0.setup().size;
        if size != self.geometry.board() {
            self.geometry = Geometry::on(&self.pieces, size);
            self.counts.boards += 1;
        }
    }

    /// The position the engine plays now, if it can play one.
    pub fn position(&self) -> Option<&Position> {
        match self.engine.game_state().0 {
            Board::Playable(game) => Some(game.position()),
            Board::Unplayable { .. } => None,
        }
    }

    /// The engine's half-move clock (0 without a playable position).
    fn clock(&self) -> u32 {
        match self.engine.game_state().0 {
            Board::Playable(game) => game.clock(),
            Board::Unplayable { .. } => 0,
        }
    }

    /// The geometry of the shipped pieces on the engine's board.
    pub fn geometry(&self) -> &Geometry {
        &self.geometry
    }

    /// Whether the position's table may be missing: a build of its endgame, or of one
    /// above it, failed (a move from a position whose build failed reaches an endgame that
    /// was never built).
    fn excused(&self) -> bool {
        let Some(pos) = self.position() else {
            return true;
        };
        let (material, _) = material_of(pos);
        self.failed
            .iter()
            .any(|f| *f == material || f.sub_materials(&[]).contains(&material))
    }

    fn snapshot(&self) -> Snapshot {
        let (board, side) = self.engine.game_state();
        Snapshot {
            fen: board.setup().to_fen(),
            plies: match board {
                Board::Playable(game) => Some(game.plies()),
                Board::Unplayable { .. } => None,
            },
            side,
        }
    }

    /// The protocol for a line: the first line chooses it, as in the session.
    fn protocol(&mut self, line: &str) -> (Dialect, &mut Box<dyn Protocol>) {
        if self.protocol.is_none() {
            let dialect = Dialect::of_first_line(line);
            let protocol: Box<dyn Protocol> = match dialect {
                Dialect::Uci => Box::new(self.uci.take().expect("chosen once")),
                Dialect::XBoard => Box::new(self.xboard.take().expect("chosen once")),
            };
            self.protocol = Some((dialect, protocol));
        }
        let (dialect, protocol) = self.protocol.as_mut().expect("chosen above");
        (*dialect, protocol)
    }

    /// Feeds one line and checks what it did.
    pub fn feed(&mut self, step: &Step) -> Result<(), Failure> {
        self.steps.push(step.clone());
        self.counts.lines += 1;
        let line = step.line.as_str();
        // No build runs: everything the line asks for is done before it returns.
        let synchronous = self.held.is_none();
        self.follow_board();
        let before = self.snapshot();
        let legal: Vec<String> = match self.position() {
            Some(pos) => pos
                .legal_moves(&self.geometry)
                .iter()
                .map(|m| m.text())
                .collect(),
            None => Vec::new(),
        };
        let options = self.engine.options().clone();
        let (dialect, protocol) = self.protocol(line);
        // As the session does: the handshake shows the options in force.
        let inputs = protocol.read(line, &options);
        self.expect(dialect, line);
        let mut refused = false;
        let mut moves = Vec::new();
        let mut asks_for_answer = false;
        for input in inputs {
            match input {
                // The session leaves at once: nothing more is read or answered.
                Input::Quit => {
                    self.quit = true;
                    return Ok(());
                }
                Input::Reply(text) => {
                    // A line that does not parse is refused by the protocol at once.
                    let refusal = match dialect {
                        Dialect::Uci => text.starts_with("info string"),
                        Dialect::XBoard => {
                            text.starts_with("Error (") || text.starts_with("tellusererror ")
                        }
                    };
                    refused |= refusal;
                    self.write(dialect, &text)?;
                }
                Input::Engine(cmd) => {
                    match &cmd {
                        Command::Move(text) => moves.push(text.trim().to_ascii_lowercase()),
                        Command::Go | Command::Analyze(true) => asks_for_answer = true,
                        _ => {}
                    }
                    self.engine.command(cmd);
                }
            }
        }
        let mut events = self.drive(step.defer, step.fail)?;
        events.extend(self.tick()?);
        self.follow_board();
        if !synchronous || self.held.is_some() {
            // Commands of earlier lines may have run: nothing here is this line's alone.
            return Ok(());
        }
        for event in &events {
            match event {
                Event::Rejected { .. } => refused = true,
                Event::IllegalMove { text, .. } => {
                    refused = true;
                    if legal.contains(&text.trim().to_ascii_lowercase()) {
                        return fail(
                            "legal move called illegal",
                            format!("{line:?}: {event:?}; legal moves {legal:?}"),
                        );
                    }
                }
                _ => {}
            }
        }
        let after = self.snapshot();
        if refused {
            if after != before {
                return fail(
                    "a refused command changed the state",
                    format!("{line:?} was refused, yet {before:?} became {after:?}"),
                );
            }
            self.counts.refusals += 1;
        }
        for text in moves.iter().filter(|m| legal.contains(m)) {
            let grew = after
                .plies
                .zip(before.plies)
                .map(|(a, b)| a.wrapping_sub(b));
            if !matches!(grew, Some(1 | 2)) {
                return fail(
                    "a legal move was not played",
                    format!("{text}: {before:?} became {after:?}; events {events:?}"),
                );
            }
            self.counts.moves += 1;
            self.count_off_standard();
        }
        if asks_for_answer && before.plies.is_some() && !self.excused() {
            let answered = events
                .iter()
                .any(|e| matches!(e, Event::Move(_) | Event::GameEnd(_) | Event::Thinking(_)));
            if !answered {
                return fail(
                    "a playable position was not played",
                    format!("{line:?} in {before:?}: {events:?}"),
                );
            }
            self.counts.answers += 1;
            self.count_off_standard();
        }
        if dialect == Dialect::XBoard {
            for end in events.iter().filter_map(|e| match e {
                Event::GameEnd(end) => Some(*end),
                _ => None,
            }) {
                self.check_claim(end)?;
                self.counts.claims += 1;
            }
        }
        Ok(())
    }

    /// A game-end claim must be true of the position it leaves: XBoard forfeits a false one.
    /// (In XBoard the pieces never change, so the shipped geometry is the engine's.)
    fn check_claim(&self, end: GameEnd) -> Result<(), Failure> {
        let Some(pos) = self.position() else {
            return fail("a claim without a position", format!("{end:?}"));
        };
        let g = &self.geometry;
        let stuck = pos.legal_moves(g).is_empty();
        let check = pos.in_check(g);
        let men = |c: Color| pos.men().iter().filter(|m| m.color == c).count();
        let loser = pos.side_to_move();
        let true_claim = match end {
            GameEnd::Mate { winner } => stuck && check && winner == loser.flip(),
            GameEnd::Stalemate => stuck && !check,
            GameEnd::StalemateWin { winner } => stuck && !check && winner == loser.flip(),
            GameEnd::Bared { winner } => men(winner.flip()) == 1 && men(winner) > 1,
            GameEnd::BareRoyals => pos.men().len() == 2,
            // The clock is the engine's (its counting is tested in engine/game.rs).
            GameEnd::RuleDraw { moves } => {
                !(stuck && check) && self.clock() >= u32::from(moves) * 2
            }
        };
        if true_claim {
            Ok(())
        } else {
            fail(
                "a false game-end claim",
                format!("{end:?} in {}", pos.to_setup().to_fen()),
            )
        }
    }

    /// Notes the answers a line is owed, from its text alone: `ping X` is owed `pong X`
    /// (XBoard), `isready` a `readyok` and `go` a `bestmove` (UCI).
    fn expect(&mut self, dialect: Dialect, line: &str) {
        match dialect {
            Dialect::XBoard => {
                let line = line.trim();
                let (word, arg) = match line.split_once(char::is_whitespace) {
                    Some((w, a)) => (w, a.trim()),
                    None => (line, ""),
                };
                if word == "ping" {
                    // Echoed on one line: control characters (but tabs) become `?`.
                    let arg: String = arg
                        .chars()
                        .map(|c| if c.is_control() && c != '\t' { '?' } else { c })
                        .collect();
                    self.pongs.push_back(format!("pong {arg}"));
                }
            }
            Dialect::Uci => {
                let word = line.split_whitespace().next().unwrap_or("");
                if word.eq_ignore_ascii_case("isready") {
                    self.readyoks += 1;
                } else if word.eq_ignore_ascii_case("go") {
                    self.gos += 1;
                }
            }
        }
    }

    /// One line written: a single line of text, and an answer owed, in order.
    fn write(&mut self, dialect: Dialect, text: &str) -> Result<(), Failure> {
        if self.recent.len() == 40 {
            self.recent.pop_front();
        }
        self.recent.push_back(text.to_string());
        if let Some(c) = text.chars().find(|&c| c.is_control() && c != '\t') {
            return fail(
                "an output line holds a control character",
                format!("{c:?} in {text:?}"),
            );
        }
        match dialect {
            Dialect::XBoard if text.starts_with("pong") => match self.pongs.pop_front() {
                Some(owed) if owed == text => self.counts.pongs += 1,
                owed => {
                    return fail(
                        "pong out of order",
                        format!("wrote {text:?}, owed {owed:?}"),
                    )
                }
            },
            Dialect::Uci if text == "readyok" => match self.readyoks.checked_sub(1) {
                Some(left) => {
                    self.readyoks = left;
                    self.counts.pongs += 1;
                }
                None => return fail("readyok without isready", text.to_string()),
            },
            Dialect::Uci if text.starts_with("bestmove") => {
                self.bestmoves += 1;
                if self.bestmoves > self.gos {
                    return fail(
                        "bestmove without go",
                        format!("{} bestmoves for {} gos", self.bestmoves, self.gos),
                    );
                }
                self.counts.bestmoves += 1;
            }
            _ => {}
        }
        Ok(())
    }

    /// Carries out the engine's actions until it waits for nothing or for a held build;
    /// the events said. A build started now is held for `defer` lines, or fails with `fail`.
    fn drive(&mut self, defer: usize, fail_build: bool) -> Result<Vec<Event>, Failure> {
        let mut events = Vec::new();
        loop {
            let actions = self.engine.take_actions();
            if actions.is_empty() {
                return Ok(events);
            }
            for action in actions {
                match action {
                    Action::Say(event) => {
                        self.say(&event)?;
                        events.push(event);
                    }
                    Action::Build(job) => {
                        if job.threads > MAX_THREADS {
                            return fail(
                                "a build asks for too many threads",
                                format!("{} threads for {}", job.threads, job.material),
                            );
                        }
                        let held = Held {
                            job: *job,
                            lines_left: defer,
                            fail: fail_build,
                        };
                        if defer == 0 {
                            self.finish(held);
                        } else {
                            self.held = Some(held);
                        }
                    }
                }
            }
        }
    }

    /// Renders an event; a refusal must be visible as one.
    fn say(&mut self, event: &Event) -> Result<(), Failure> {
        // Before the first line chooses, the session renders with XBoard.
        let (dialect, lines) = match (&self.protocol, &self.xboard) {
            (Some((dialect, protocol)), _) => (*dialect, protocol.render(event)),
            (None, Some(xboard)) => (Dialect::XBoard, xboard.render(event)),
            (None, None) => unreachable!("XBoard is taken only when it is chosen"),
        };
        let marker = match (dialect, event) {
            (Dialect::XBoard, Event::Rejected { .. }) => Some("Error ("),
            (Dialect::XBoard, Event::IllegalMove { .. }) => Some("Illegal move: "),
            (Dialect::XBoard, Event::NotPlayable(_)) => Some("tellusererror "),
            (Dialect::Uci, Event::Rejected { .. })
            | (Dialect::Uci, Event::IllegalMove { .. })
            | (Dialect::Uci, Event::NotPlayable(_)) => Some("info string "),
            _ => None,
        };
        if let Some(marker) = marker {
            if !lines.first().is_some_and(|l| l.starts_with(marker)) {
                return fail(
                    "a refusal is not said",
                    format!("{event:?} rendered as {lines:?}"),
                );
            }
        }
        for line in lines {
            self.write(dialect, &line)?;
        }
        Ok(())
    }

    /// One more line was read: a held build whose time has come ends now.
    fn tick(&mut self) -> Result<Vec<Event>, Failure> {
        let Some(held) = &mut self.held else {
            return Ok(Vec::new());
        };
        held.lines_left = held.lines_left.saturating_sub(1);
        if held.lines_left > 0 {
            return Ok(Vec::new());
        }
        let held = self.held.take().expect("checked above");
        self.finish(held);
        self.drive(0, false)
    }

    /// Runs a build (or fails it) and hands the tables back.
    fn finish(&mut self, held: Held) {
        let Held { job, fail, .. } = held;
        let five = job.material.len() == 5;
        // A six-man table (a mutated FEN may make one) would take gigabytes: failed always.
        let six = job.material.len() >= 6;
        // Off 8×8 a board may have up to 256 squares (4·10⁹ placements of four men): what
        // takes more placements than a four-man table on 6×6 is failed too, to keep the
        // run short.
        let board = job.tables.geometry().board();
        let placements = (board.squares() as u64).saturating_pow(job.material.len() as u32);
        let large = board != BoardSize::STANDARD && placements > 36u64.pow(4);
        let fail = fail || six || large || (five && self.five_men_left == 0);
        let mut tables = job.tables;
        let result = if fail {
            self.counts.failed += 1;
            // The only failure the builder knows today; the engine must survive any.
            Err(BuildError::TooLong(format!(
                "{} (failed on purpose by the fuzz test)",
                job.material
            )))
        } else {
            let started = Instant::now();
            let result = tables.build(&job.material, &Silent);
            self.counts.build_time += started.elapsed();
            self.counts.builds += 1;
            if five {
                self.five_men_left -= 1;
                self.counts.five_men += 1;
            }
            result
        };
        if result.is_err() {
            self.failed.push(job.material.clone());
        }
        self.engine.built(tables, result);
    }

    /// Ends the case (unless it quit): the held build ends, then a last `stop` and `isready`
    /// (UCI) or `ping` (XBoard); every answer owed must have been written.
    pub fn finish_case(&mut self) -> Result<(), Failure> {
        if self.quit {
            return Ok(());
        }
        if let Some(held) = self.held.take() {
            self.finish(held);
            self.drive(0, false)?;
        }
        let last: &[&str] = match self.protocol {
            Some((Dialect::Uci, _)) => &["stop", "isready"],
            _ => &["ping 424242"],
        };
        for line in last {
            self.feed(&Step {
                line: line.to_string(),
                defer: 0,
                fail: false,
            })?;
        }
        if self.quit {
            return Ok(());
        }
        if !self.pongs.is_empty() || self.readyoks > 0 {
            return fail(
                "ping never answered",
                format!(
                    "owed at the end: {:?} and {} readyok",
                    self.pongs, self.readyoks
                ),
            );
        }
        if self.gos != self.bestmoves {
            return fail(
                "go never answered",
                format!("{} gos, {} bestmoves", self.gos, self.bestmoves),
            );
        }
        Ok(())
    }
}
