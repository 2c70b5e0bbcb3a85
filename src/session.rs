//! Engine mode, and the only concurrent code of the program.
//!
//! One event loop on a current-thread tokio runtime waits for whichever comes first: a line of
//! stdin (or its end), a message of the build worker (progress, or a finished build), the
//! timer that paces progress lines, or SIGTERM. The engine ([`Engine`]) is synchronous and
//! runs on the loop; the loop is the one writer of stdout and flushes every line. CPU work
//! never runs on the runtime: the build worker is a thread of its own with a rayon pool
//! inside, and the statistics of the report file are counted by a reporter thread after the
//! tables are handed back, so that `go` never waits for them.
//!
//! The protocol is XBoard, or UCI when the first line is `uci`. `quit` leaves at once (the
//! running build is cancelled); at the end of input every command read before it is answered
//! first — a build that one of them waits for is finished — and then the session ends.

use crate::cli::Common;
use crate::commands::{settings, UserError};
use crate::egt::builder::BuildError;
use crate::egt::material::Material;
use crate::egt::progress::{BuildEvent, Phase, Progress};
use crate::egt::tables::TableSet;
use crate::engine::{Action, BuildJob, Engine};
use crate::protocol::uci::Uci;
use crate::protocol::xboard::XBoard;
use crate::protocol::{Dialect, Input, Protocol};
use std::sync::atomic::AtomicBool;
use std::sync::Mutex;
use std::time::{Duration, Instant};
use tokio::io::{AsyncBufRead, AsyncBufReadExt, AsyncWrite, AsyncWriteExt};
use tokio::sync::mpsc::{unbounded_channel, UnboundedSender};

/// Least time between two progress lines.
const PROGRESS_EVERY: Duration = Duration::from_millis(500);
/// Least time between two progress messages of the worker (it is told far more often).
const WORKER_REPORTS_EVERY: Duration = Duration::from_millis(100);

/// How the worker builds tables: [`TableSet::build_cancellable`], or a stand-in in tests.
pub type BuildFn =
    fn(&mut TableSet, &Material, &dyn Progress, &AtomicBool) -> Result<(), BuildError>;

/// Runs engine mode on stdin and stdout until `quit`, SIGTERM or the end of input.
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
    let engine = Engine::new(s);
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_io()
        .enable_time()
        .build()
        .map_err(|e| UserError(format!("cannot start the event loop: {e}")))?;
    let stdin = tokio::io::BufReader::new(tokio::io::stdin());
    runtime.block_on(serve(
        engine,
        xboard,
        uci,
        stdin,
        tokio::io::stdout(),
        TableSet::build_cancellable,
    ));
    // tokio reads stdin with a blocking read that cannot be cancelled: do not wait for it.
    runtime.shutdown_background();
    Ok(())
}

/// What the build worker tells the loop.
enum FromWorker {
    /// The latest progress of the running build.
    Progress(BuildEvent),
    /// A build is over: the tables come back.
    Built(TableSet, Result<(), BuildError>),
}

/// Serves one session: protocol lines from `input`, answers to `output`, builds by `build` on
/// a worker thread. Returns on `quit`, SIGTERM, when `output` is closed, or once every command
/// read before the end of `input` is answered.
pub async fn serve<R, W>(
    mut engine: Engine,
    xboard: XBoard,
    uci: Uci,
    input: R,
    output: W,
    build: BuildFn,
) where
    R: AsyncBufRead + Unpin,
    W: AsyncWrite + Unpin,
{
    let (to_loop, mut from_worker) = unbounded_channel();
    let jobs = spawn_worker(to_loop, build);
    let mut s = Session {
        protocol: Box::new(xboard),
        uci: Some(uci),
        first_line: true,
        out: output,
        progress: None,
        last_progress: None,
    };
    let mut lines = input.lines();
    let mut eof = false;
    let mut term = sigterm();
    loop {
        if s.act(&mut engine, &jobs).await.is_err() {
            break;
        }
        if eof && !engine.has_waiting_commands() {
            break;
        }
        let progress_due = s
            .last_progress
            .map_or_else(Instant::now, |t| t + PROGRESS_EVERY);
        tokio::select! {
            line = lines.next_line(), if !eof => match line {
                Ok(Some(line)) => {
                    if s.line(&line, &mut engine).await.is_err() {
                        break;
                    }
                }
                Ok(None) | Err(_) => eof = true,
            },
            message = from_worker.recv() => match message {
                Some(FromWorker::Progress(event)) => {
                    if engine.building().is_some() && engine.shows_thinking() {
                        s.progress = Some(event);
                    }
                }
                Some(FromWorker::Built(tables, result)) => {
                    s.progress = None;
                    engine.built(tables, result);
                }
                None => {
                    log::error!("the build worker is gone");
                    break;
                }
            },
            () = tokio::time::sleep_until(progress_due.into()), if s.progress.is_some() => {
                if s.show_progress().await.is_err() {
                    break;
                }
            }
            () = recv_or_never(&mut term) => {
                log::info!("SIGTERM: leaving");
                break;
            }
        }
    }
    engine.cancel_build();
}

/// The session's side of the loop: the protocol spoken and the writer of the output.
struct Session<W> {
    protocol: Box<dyn Protocol>,
    /// The UCI protocol, until the first line has chosen.
    uci: Option<Uci>,
    first_line: bool,
    out: W,
    /// Progress not shown yet.
    progress: Option<BuildEvent>,
    /// When the last progress line went out.
    last_progress: Option<Instant>,
}

impl<W: AsyncWrite + Unpin> Session<W> {
    /// Writes and flushes one line.
    async fn write(&mut self, text: &str) -> std::io::Result<()> {
        log::debug!("< {text}");
        self.out.write_all(text.as_bytes()).await?;
        self.out.write_all(b"\n").await?;
        self.out.flush().await
    }

    /// Reads one input line: replies at once, commands to the engine. `quit` is an error: the
    /// session ends.
    async fn line(&mut self, line: &str, engine: &mut Engine) -> std::io::Result<()> {
        log::debug!("> {line}");
        if std::mem::take(&mut self.first_line) && Dialect::of_first_line(line) == Dialect::Uci {
            if let Some(uci) = self.uci.take() {
                self.protocol = Box::new(uci);
            }
        }
        for input in self.protocol.read(line) {
            match input {
                Input::Quit => return Err(std::io::Error::other("quit")),
                Input::Reply(text) => self.write(&text).await?,
                Input::Engine(cmd) => engine.command(cmd),
            }
        }
        Ok(())
    }

    /// Carries out the engine's actions: says its events, hands builds to the worker.
    async fn act(
        &mut self,
        engine: &mut Engine,
        jobs: &std::sync::mpsc::Sender<BuildJob>,
    ) -> std::io::Result<()> {
        for action in engine.take_actions() {
            match action {
                Action::Say(event) => {
                    for text in self.protocol.render(&event) {
                        self.write(&text).await?;
                    }
                }
                Action::Build(job) => {
                    log::info!("building {}", job.material);
                    jobs.send(job)
                        .map_err(|_| std::io::Error::other("the build worker is gone"))?;
                }
            }
        }
        Ok(())
    }

    /// Shows the progress not shown yet.
    async fn show_progress(&mut self) -> std::io::Result<()> {
        let Some(event) = self.progress.take() else {
            return Ok(());
        };
        self.last_progress = Some(Instant::now());
        match self.protocol.progress(&event) {
            Some(text) => self.write(&text).await,
            None => Ok(()),
        }
    }
}

/// SIGTERM as a stream, where the system has it.
#[cfg(unix)]
fn sigterm() -> Option<tokio::signal::unix::Signal> {
    tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate()).ok()
}

#[cfg(not(unix))]
fn sigterm() -> Option<std::convert::Infallible> {
    None
}

/// Waits for the signal, or forever without one.
#[cfg(unix)]
async fn recv_or_never(term: &mut Option<tokio::signal::unix::Signal>) {
    if let Some(t) = term {
        if t.recv().await.is_some() {
            return;
        }
    }
    std::future::pending().await
}

#[cfg(not(unix))]
async fn recv_or_never(_: &mut Option<std::convert::Infallible>) {
    std::future::pending().await
}

/// The build worker: runs each [`BuildJob`] with `build` on a rayon pool of the job's size,
/// sends its progress (at most every [`WORKER_REPORTS_EVERY`], and each table's start) and
/// then the tables back. A build that panics is reported as [`BuildError::Internal`]: the
/// tables completed before it are intact, since a table enters the set only when complete.
/// The report file of a finished build is written afterwards by a reporter thread.
fn spawn_worker(
    to_loop: UnboundedSender<FromWorker>,
    build: BuildFn,
) -> std::sync::mpsc::Sender<BuildJob> {
    let (jobs, job_rx) = std::sync::mpsc::channel::<BuildJob>();
    let reports = spawn_reporter();
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
            let threads = pool
                .as_ref()
                .map_or_else(rayon::current_num_threads, |(_, p)| p.current_num_threads());
            let mut tables = job.tables;
            let last_sent: Mutex<Option<Instant>> = Mutex::new(None);
            let progress = |e: &BuildEvent| {
                let Ok(mut last) = last_sent.lock() else {
                    return;
                };
                let due = e.phase == Phase::Setup
                    || last.is_none_or(|t| t.elapsed() >= WORKER_REPORTS_EVERY);
                if due {
                    *last = Some(Instant::now());
                    let _ = to_loop.send(FromWorker::Progress(e.clone()));
                }
            };
            let started = Instant::now();
            let mut run = || build(&mut tables, &job.material, &progress, &job.cancel);
            let result = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| match &pool {
                Some((_, p)) => p.install(run),
                None => run(),
            }))
            .unwrap_or_else(|panic| Err(BuildError::Internal(panic_text(&*panic))));
            let took = started.elapsed();
            let report = match (&result, job.report) {
                (Ok(()), Some(report)) => tables.shared(&job.material).map(|table| ReportJob {
                    report: *report,
                    table,
                    geometry: tables.geometry().clone(),
                    rules: tables.rules(),
                    threads,
                    took,
                }),
                _ => None,
            };
            if to_loop.send(FromWorker::Built(tables, result)).is_err() {
                return;
            }
            if let Some(r) = report {
                let _ = reports.send(r);
            }
        }
    });
    jobs
}

/// What a panic said.
fn panic_text(panic: &(dyn std::any::Any + Send)) -> String {
    panic
        .downcast_ref::<&str>()
        .map(|s| s.to_string())
        .or_else(|| panic.downcast_ref::<String>().cloned())
        .unwrap_or_else(|| "a panic".to_string())
}

/// A report file to write for a finished build.
struct ReportJob {
    report: crate::commands::report::Report,
    table: std::sync::Arc<crate::egt::table::Table>,
    geometry: crate::board::geometry::Geometry,
    rules: crate::egt::rules::Rules,
    threads: usize,
    took: Duration,
}

/// The thread that counts the statistics of finished builds and writes their reports, in
/// the order the builds finished.
fn spawn_reporter() -> std::sync::mpsc::Sender<ReportJob> {
    let (tx, rx) = std::sync::mpsc::channel::<ReportJob>();
    std::thread::spawn(move || {
        for r in rx {
            r.report
                .write_table(&r.table, &r.geometry, r.rules, r.threads, r.took);
        }
    });
    tx
}
