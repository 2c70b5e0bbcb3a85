//! Engine mode, and the only concurrent code of the program: a thread reads stdin, a worker
//! thread builds tables (with its own rayon pool inside) and writes the report file, and the
//! main thread runs the engine and is the one writer of stdout, flushing every line. Stdin
//! lines and finished builds arrive on one channel; while a build runs, its progress is shown
//! twice a second. The protocol is XBoard, or UCI when the first line is `uci`.
//!
//! Plain threads and `std::sync::mpsc` do this: the only blocking I/O is reading stdin, and
//! one channel with a receive timeout (for the progress ticks) serves every event. An async
//! runtime would add a dependency without removing any of the three threads' work.

use crate::cli::Common;
use crate::commands::{settings, UserError};
use crate::egt::builder::BuildError;
use crate::egt::progress::{BuildEvent, Phase};
use crate::egt::tables::TableSet;
use crate::engine::{Action, BuildJob, Engine};
use crate::protocol::uci::Uci;
use crate::protocol::xboard::XBoard;
use crate::protocol::{Dialect, Input, Protocol};
use std::io::{BufRead, Write};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError, Sender};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// How often the main loop wakes while waiting.
const TICK: Duration = Duration::from_millis(100);
/// Time between two progress lines.
const PROGRESS_EVERY: Duration = Duration::from_millis(500);

/// What reaches the main thread.
enum Inbound {
    /// A line of stdin, without its line end.
    Line(String),
    /// Stdin is closed.
    Eof,
    /// A build is over: the tables come back.
    Built(TableSet, Result<(), BuildError>),
}

/// The latest progress report of the running build.
type Latest = Arc<Mutex<Option<BuildEvent>>>;

/// Runs engine mode until `quit` or the end of input.
pub fn run(common: &Common) -> Result<(), UserError> {
    let s = settings(common)?;
    let xboard = XBoard::new(
        s.pieces.clone(),
        &s.config.endgame,
        s.config.metric,
        s.config.threads,
        s.rules(),
    );
    let uci = Uci::new(
        &s.config.endgame,
        s.config.metric,
        s.config.threads,
        &s.config.pieces.display().to_string(),
        s.rules(),
    );
    let mut engine = Engine::new(s);
    let (tx, rx) = mpsc::channel();
    let latest: Latest = Arc::default();
    let jobs = spawn_builder(tx.clone(), latest.clone());
    spawn_reader(tx);
    let mut out = Output {
        stdout: std::io::stdout().lock(),
        build_started: None,
        last_progress: Instant::now(),
    };
    if out.act(&mut engine, &xboard, &jobs).is_err() {
        return Ok(());
    }
    main_loop(&rx, &mut engine, xboard, uci, &jobs, &latest, &mut out);
    Ok(())
}

/// Reads stdin, runs the engine, writes its answers and the build progress; returns on `quit`,
/// at the end of input, or when stdout is closed. The first line chooses the protocol.
fn main_loop(
    rx: &Receiver<Inbound>,
    engine: &mut Engine,
    xboard: XBoard,
    uci: Uci,
    jobs: &Sender<BuildJob>,
    latest: &Latest,
    out: &mut Output,
) {
    let mut first_line = true;
    let mut uci = Some(uci);
    let mut protocol: Box<dyn Protocol> = Box::new(xboard);
    loop {
        match rx.recv_timeout(TICK) {
            Ok(Inbound::Line(line)) => {
                log::debug!("> {line}");
                if std::mem::take(&mut first_line) && Dialect::of_first_line(&line) == Dialect::Uci
                {
                    if let Some(uci) = uci.take() {
                        protocol = Box::new(uci);
                    }
                }
                for input in protocol.read(&line) {
                    match input {
                        Input::Quit => return,
                        Input::Reply(text) => {
                            if out.line(&text).is_err() {
                                return;
                            }
                        }
                        Input::Engine(cmd) => engine.command(cmd),
                    }
                }
            }
            Ok(Inbound::Built(tables, result)) => {
                out.build_started = None;
                if let Ok(mut l) = latest.lock() {
                    *l = None;
                }
                engine.built(tables, result);
            }
            Ok(Inbound::Eof) | Err(RecvTimeoutError::Disconnected) => return,
            Err(RecvTimeoutError::Timeout) => {}
        }
        if out.act(engine, protocol.as_ref(), jobs).is_err()
            || out.progress(engine, protocol.as_ref(), latest).is_err()
        {
            return;
        }
    }
}

/// The writer of stdout.
struct Output {
    stdout: std::io::StdoutLock<'static>,
    /// When the running build started.
    build_started: Option<Instant>,
    last_progress: Instant,
}

impl Output {
    /// Writes and flushes one line.
    fn line(&mut self, text: &str) -> std::io::Result<()> {
        log::debug!("< {text}");
        writeln!(self.stdout, "{text}")?;
        self.stdout.flush()
    }

    /// Carries out the engine's actions: says its events, hands builds to the worker.
    fn act(
        &mut self,
        engine: &mut Engine,
        protocol: &dyn Protocol,
        jobs: &Sender<BuildJob>,
    ) -> std::io::Result<()> {
        for action in engine.take_actions() {
            match action {
                Action::Say(event) => {
                    for text in protocol.render(&event) {
                        self.line(&text)?;
                    }
                }
                Action::Build(job) => {
                    log::info!("building {}", job.material);
                    self.build_started = Some(Instant::now());
                    // Far enough back that the first progress line comes at once.
                    self.last_progress = Instant::now() - PROGRESS_EVERY;
                    if jobs.send(job).is_err() {
                        return Err(std::io::Error::other("the build worker is gone"));
                    }
                }
            }
        }
        Ok(())
    }

    /// Shows the running build's progress, at most every [`PROGRESS_EVERY`].
    fn progress(
        &mut self,
        engine: &Engine,
        protocol: &dyn Protocol,
        latest: &Latest,
    ) -> std::io::Result<()> {
        let (Some(material), Some(started)) = (engine.building(), self.build_started) else {
            return Ok(());
        };
        if !engine.shows_thinking() || self.last_progress.elapsed() < PROGRESS_EVERY {
            return Ok(());
        }
        let reported = latest.lock().ok().and_then(|l| l.clone());
        let mut event = reported.unwrap_or_else(|| BuildEvent {
            table: material.name(),
            target: material.name(),
            phase: Phase::Setup,
            fraction: 0.0,
            elapsed: Duration::ZERO,
        });
        event.elapsed = started.elapsed();
        self.last_progress = Instant::now();
        match protocol.progress(&event) {
            Some(text) => self.line(&text),
            None => Ok(()),
        }
    }
}

/// The thread that reads stdin: one [`Inbound::Line`] per line (invalid UTF-8 replaced), then
/// [`Inbound::Eof`].
fn spawn_reader(tx: Sender<Inbound>) {
    std::thread::spawn(move || {
        let mut stdin = std::io::stdin().lock();
        let mut buf = Vec::new();
        loop {
            buf.clear();
            match stdin.read_until(b'\n', &mut buf) {
                Ok(0) | Err(_) => break,
                Ok(_) => {
                    let line = String::from_utf8_lossy(&buf);
                    let line = line.trim_end_matches(['\n', '\r']).to_string();
                    if tx.send(Inbound::Line(line)).is_err() {
                        return;
                    }
                }
            }
        }
        let _ = tx.send(Inbound::Eof);
    });
}

/// The build worker: runs each [`BuildJob`] on a rayon pool of the job's size, keeps the
/// latest progress report in `latest`, and sends the tables back.
fn spawn_builder(tx: Sender<Inbound>, latest: Latest) -> Sender<BuildJob> {
    let (jobs, job_rx) = mpsc::channel::<BuildJob>();
    std::thread::spawn(move || {
        let mut pool: Option<(usize, rayon::ThreadPool)> = None;
        for job in job_rx {
            if pool.as_ref().map(|(n, _)| *n) != Some(job.threads) {
                pool = rayon::ThreadPoolBuilder::new()
                    .num_threads(job.threads)
                    .build()
                    .map_err(|e| log::warn!("no thread pool of {} threads: {e}", job.threads))
                    .ok()
                    .map(|p| (job.threads, p));
            }
            let mut tables = job.tables;
            let progress = |e: &BuildEvent| {
                if let Ok(mut l) = latest.lock() {
                    *l = Some(e.clone());
                }
            };
            let started = Instant::now();
            let result = match &pool {
                Some((_, p)) => p.install(|| tables.build(&job.material, &progress)),
                None => tables.build(&job.material, &progress),
            };
            // The report is part of the build's work: `ping`/`isready` wait for it too.
            if let (Ok(()), Some(report)) = (&result, &job.report) {
                let took = started.elapsed();
                let threads = pool
                    .as_ref()
                    .map_or_else(rayon::current_num_threads, |(_, p)| p.current_num_threads());
                let write = || report.write(&tables, &job.material, threads, took);
                match &pool {
                    Some((_, p)) => p.install(write),
                    None => write(),
                }
            }
            if tx.send(Inbound::Built(tables, result)).is_err() {
                return;
            }
        }
    });
    jobs
}
