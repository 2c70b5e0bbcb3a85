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
use fairy_egt::egt::builder::BuildError;
use fairy_egt::egt::material::Material;
use fairy_egt::egt::progress::{BuildEvent, Phase, Progress};
use fairy_egt::egt::tables::TableSet;
use fairy_egt::engine::{Action, BuildJob, Engine, Event};
use fairy_egt::protocol::uci::Uci;
use fairy_egt::protocol::xboard::XBoard;
use fairy_egt::protocol::{Dialect, Input, Protocol};
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
    let xboard = XBoard::new(s.pieces.clone(), &s.options.endgame);
    let uci = Uci::new(s.pieces.clone());
    let engine = Engine::new(s, Box::new(fairy_egt::files::Disk));
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
    let (jobs, worker) = spawn_worker(to_loop, build);
    let mut s = Session {
        protocol: Box::new(xboard),
        uci: Some(uci),
        first_line: true,
        out: output,
        progress: None,
        shown: None,
        last_progress: None,
    };
    let mut input = input;
    // The line being read: `read_until` is cancel safe as long as its buffer is kept.
    let mut line = Vec::new();
    let mut eof = false;
    let mut term = sigterm();
    loop {
        if s.act(&mut engine, &jobs).await.is_err() {
            break;
        }
        if eof && !engine.has_waiting_commands() {
            // Every command is answered: the running build, if any, is not needed; the
            // reports of finished builds are written before the session ends.
            engine.cancel_build();
            drop(jobs);
            let _ = worker.join();
            return;
        }
        let progress_due = s
            .last_progress
            .map_or_else(Instant::now, |t| t + PROGRESS_EVERY);
        tokio::select! {
            read = input.read_until(b'\n', &mut line), if !eof => match read {
                Ok(0) | Err(_) => eof = true,
                Ok(_) => {
                    // Invalid UTF-8 is replaced, not taken for the end of input.
                    let text = String::from_utf8_lossy(&line);
                    let text = text.trim_end_matches(['\n', '\r']).to_string();
                    line.clear();
                    if s.line(&text, &mut engine).await.is_err() {
                        break;
                    }
                }
            },
            message = from_worker.recv() => match message {
                Some(FromWorker::Progress(event)) => {
                    if engine.building().is_some() && engine.shows_thinking() {
                        s.progress = Some(event);
                        // Due now: written here, not left to race the build's end.
                        if Instant::now() >= progress_due && s.show_progress().await.is_err() {
                            break;
                        }
                    }
                }
                Some(FromWorker::Built(tables, result)) => {
                    s.progress = None;
                    s.shown = None;
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
    /// The progress shown last, of the running build.
    shown: Option<BuildEvent>,
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
        for input in self.protocol.read(line, engine.options()) {
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
                    // XBoard drops thinking output while its ping is unanswered, and it pings
                    // right after the handshake and at every change of mode: a build's
                    // progress (a short load's only line, say) may have been dropped. The
                    // latest goes out again at once after the pong.
                    if matches!(event, Event::Synced(_))
                        && engine.building().is_some()
                        && engine.shows_thinking()
                    {
                        if self.progress.is_none() {
                            self.progress = self.shown.clone();
                        }
                        self.last_progress = None;
                    }
                }
                Action::Build(job) => {
                    log::info!("building {}", job.material);
                    // The first progress of a build goes out at once.
                    self.last_progress = None;
                    self.shown = None;
                    jobs.send(*job)
                        .map_err(|_| std::io::Error::other("the build worker is gone"))?;
                }
            }
        }
        Ok(())
    }

    /// Shows the progress not shown yet. Progress the protocol cannot show yet (XBoard's
    /// before the handshake) is kept and offered again a moment later: a build that reports
    /// once (a load) may report before `protover 2` is read.
    async fn show_progress(&mut self) -> std::io::Result<()> {
        let Some(event) = self.progress.take() else {
            return Ok(());
        };
        self.last_progress = Some(Instant::now());
        match self.protocol.progress(&event) {
            Some(text) => {
                self.shown = Some(event);
                self.write(&text).await
            }
            None => {
                self.progress = Some(event);
                Ok(())
            }
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
/// The report file of a finished build is written afterwards by a reporter thread. The
/// worker ends when the job sender is dropped, once the reports are written.
fn spawn_worker(
    to_loop: UnboundedSender<FromWorker>,
    build: BuildFn,
) -> (
    std::sync::mpsc::Sender<BuildJob>,
    std::thread::JoinHandle<()>,
) {
    let (jobs, job_rx) = std::sync::mpsc::channel::<BuildJob>();
    let (reports, reporter) = spawn_reporter();
    let worker = std::thread::spawn(move || {
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
                let due = matches!(e.phase, Phase::Setup | Phase::Loading)
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
            // A table loaded from the table directory was not built: nothing to report.
            let built = !tables.was_loaded(&job.material);
            let report = match (&result, job.report) {
                (Ok(()), Some(report)) if built => {
                    tables.shared(&job.material).map(|table| ReportJob {
                        report: *report,
                        table,
                        geometry: tables.geometry().clone(),
                        rules: tables.rules(),
                        threads,
                        took,
                    })
                }
                _ => None,
            };
            // The loop may be gone (the session ended): the report is written all the same.
            let _ = to_loop.send(FromWorker::Built(tables, result));
            if let Some(r) = report {
                let _ = reports.send(r);
            }
        }
        drop(reports);
        let _ = reporter.join();
    });
    (jobs, worker)
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
    report: fairy_egt::settings::Report,
    table: std::sync::Arc<fairy_egt::egt::table::Table>,
    geometry: fairy_egt::board::geometry::Geometry,
    rules: fairy_egt::egt::rules::Rules,
    threads: usize,
    took: Duration,
}

/// The thread that counts the statistics of finished builds and writes their reports, in
/// the order the builds finished; it ends when the sender is dropped.
fn spawn_reporter() -> (
    std::sync::mpsc::Sender<ReportJob>,
    std::thread::JoinHandle<()>,
) {
    let (tx, rx) = std::sync::mpsc::channel::<ReportJob>();
    let reporter = std::thread::spawn(move || {
        for r in rx {
            crate::commands::report::write_table(
                &r.report,
                &r.table,
                &r.geometry,
                r.rules,
                r.threads,
                r.took,
            );
        }
    });
    (tx, reporter)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::commands::Settings;
    use fairy_egt::config::EngineConfig;
    use fairy_egt::piece::PieceSet;
    use std::path::PathBuf;
    use std::sync::atomic::Ordering::Relaxed;

    const KQKR: &str = "8/8/8/8/2r5/8/2k5/K6Q w - - 0 1";
    const KRK: &str = "8/8/8/8/8/8/2k5/K6R w - - 0 1";

    /// The output lines of a session of `endgame` given `input` (then the end of input),
    /// builds made by `build`, the report written to `report` (none if `None`).
    fn session(endgame: &str, input: &str, build: BuildFn, report: Option<PathBuf>) -> Vec<String> {
        let pieces = PieceSet::standard();
        let config = EngineConfig {
            endgame: endgame.to_string(),
            report,
            ..EngineConfig::default()
        };
        let material = Material::parse(endgame, &pieces).unwrap();
        let xboard = XBoard::new(pieces.clone(), endgame);
        let uci = Uci::default();
        let engine = Engine::new(
            Settings::from_config(&config, pieces, material, None, true),
            Box::new(fairy_egt::files::Disk),
        );
        let mut out = Vec::new();
        let runtime = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .unwrap();
        runtime.block_on(serve(
            engine,
            xboard,
            uci,
            input.as_bytes(),
            &mut out,
            build,
        ));
        String::from_utf8(out)
            .unwrap()
            .lines()
            .map(str::to_string)
            .collect()
    }

    /// The lines that are neither the handshake (features, the letter table) nor thinking
    /// output.
    fn answers(lines: &[String]) -> Vec<&str> {
        lines
            .iter()
            .map(String::as_str)
            .filter(|l| {
                !l.starts_with("feature ")
                    && !l.starts_with("setup ")
                    && !l.starts_with(char::is_numeric)
            })
            .collect()
    }

    #[test]
    fn end_of_input_answers_every_command_before_it() {
        let input = format!("xboard\nprotover 2\nsetboard {KQKR}\ngo\nping 7\n");
        let lines = session("KQ.KR", &input, TableSet::build_cancellable, None);
        assert_eq!(answers(&lines), ["move h1b1", "pong 7"], "{lines:?}");
        assert!(
            lines.iter().any(|l| l.starts_with("69 100035 ")),
            "{lines:?}"
        );
        let input = format!("uci\nposition fen {KQKR}\ngo\nisready\n");
        let lines = session("KQ.KR", &input, TableSet::build_cancellable, None);
        let end = &lines[lines.len() - 3..];
        assert!(
            end[0].starts_with("info depth 69 score mate 35 "),
            "{lines:?}"
        );
        assert_eq!(end[1..], ["bestmove h1b1", "readyok"]);
    }

    static SAW_CANCEL: AtomicBool = AtomicBool::new(false);

    /// A build that never ends unless cancelled.
    fn endless(
        _: &mut TableSet,
        _: &Material,
        _: &dyn Progress,
        c: &AtomicBool,
    ) -> Result<(), BuildError> {
        while !c.load(Relaxed) {
            std::thread::sleep(Duration::from_millis(1));
        }
        SAW_CANCEL.store(true, Relaxed);
        Err(BuildError::Cancelled)
    }

    /// A load that reports once, then never ends unless cancelled.
    fn one_report_then_endless(
        _: &mut TableSet,
        m: &Material,
        p: &dyn Progress,
        c: &AtomicBool,
    ) -> Result<(), BuildError> {
        p.report(&BuildEvent {
            table: m.name(),
            target: m.name(),
            phase: Phase::Loading,
            fraction: 0.0,
            elapsed: Duration::ZERO,
            remaining: None,
        });
        while !c.load(Relaxed) {
            std::thread::sleep(Duration::from_millis(1));
        }
        Err(BuildError::Cancelled)
    }

    #[test]
    fn the_progress_goes_out_again_after_a_pong() {
        // XBoard drops thinking output while its ping is unanswered: the line of a build
        // that says nothing more (a load) must come again after the pong.
        let pieces = PieceSet::standard();
        let material = Material::parse("KQ.KR", &pieces).unwrap();
        let engine = Engine::new(
            Settings::from_config(
                &EngineConfig::default(),
                pieces.clone(),
                material,
                None,
                true,
            ),
            Box::new(fairy_egt::files::Disk),
        );
        let (mut to_engine, input) = tokio::io::duplex(4096);
        let (output, from_engine) = tokio::io::duplex(1 << 16);
        let runtime = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .unwrap();
        let loading = "0 0 0 0 (loading KQ.KR, 0.0 s)";
        let said = runtime.block_on(async {
            let user = async {
                let mut said = Vec::new();
                let mut lines = tokio::io::BufReader::new(from_engine).lines();
                let mut next = async || {
                    let line = tokio::time::timeout(Duration::from_secs(60), lines.next_line());
                    let line = line.await.expect("an answer").unwrap().expect("a line");
                    (!line.starts_with("feature ") && !line.starts_with("setup ")).then_some(line)
                };
                to_engine.write_all(b"xboard\nprotover 2\n").await.unwrap();
                // The load's one line, then the ping.
                while said.last().map(String::as_str) != Some(loading) {
                    said.extend(next().await);
                }
                to_engine.write_all(b"ping 1\n").await.unwrap();
                while said.len() < 3 {
                    said.extend(next().await);
                }
                drop(to_engine);
                said
            };
            let serving = serve(
                engine,
                XBoard::new(pieces, "KQ.KR"),
                Uci::default(),
                tokio::io::BufReader::new(input),
                output,
                one_report_then_endless,
            );
            tokio::join!(user, serving).0
        });
        assert_eq!(said, [loading, "pong 1", loading]);
    }

    #[test]
    fn progress_from_before_the_handshake_goes_out_after_it() {
        // A load reports once, and may do so before `protover 2` is read: its line is kept
        // until XBoard can be shown it, not dropped.
        let mut engine = Engine::new(
            Settings::from_config(
                &EngineConfig::default(),
                PieceSet::standard(),
                Material::parse("KQ.KR", &PieceSet::standard()).unwrap(),
                None,
                true,
            ),
            Box::new(fairy_egt::files::Disk),
        );
        let mut s = Session {
            protocol: Box::new(XBoard::new(PieceSet::standard(), "KQ.KR")),
            uci: None,
            first_line: false,
            out: Vec::new(),
            progress: None,
            shown: None,
            last_progress: None,
        };
        s.progress = Some(BuildEvent {
            table: "KQ.KR".to_string(),
            target: "KQ.KR".to_string(),
            phase: Phase::Loading,
            fraction: 0.0,
            elapsed: Duration::ZERO,
            remaining: None,
        });
        let runtime = tokio::runtime::Builder::new_current_thread()
            .build()
            .unwrap();
        let said = runtime.block_on(async {
            s.line("xboard", &mut engine).await.unwrap();
            s.show_progress().await.unwrap();
            let before = String::from_utf8(std::mem::take(&mut s.out)).unwrap();
            s.line("protover 2", &mut engine).await.unwrap();
            s.show_progress().await.unwrap();
            let after = String::from_utf8(std::mem::take(&mut s.out)).unwrap();
            (before, after)
        });
        assert_eq!(said.0, "");
        assert!(
            said.1
                .ends_with("feature done=1\n0 0 0 0 (loading KQ.KR, 0.0 s)\n"),
            "{:?}",
            said.1
        );
    }

    #[test]
    fn ping_is_answered_during_a_build_and_leaving_cancels_it() {
        let lines = session("KQ.KR", "xboard\nprotover 2\nping 1\n", endless, None);
        assert_eq!(answers(&lines), ["pong 1"], "{lines:?}");
        // At the end of input the session cancels the build nobody waits for, and waits
        // for the worker to stop.
        assert!(SAW_CANCEL.load(Relaxed), "the build was not cancelled");
    }

    /// Builds normally, except that the build of KR.K panics.
    fn krk_panics(
        t: &mut TableSet,
        m: &Material,
        p: &dyn Progress,
        c: &AtomicBool,
    ) -> Result<(), BuildError> {
        if m.name() == "KR.K" {
            panic!("forced failure of KR.K");
        }
        t.build_cancellable(m, p, c)
    }

    #[test]
    fn a_panicking_build_is_reported_and_the_engine_goes_on() {
        let input = format!(
            "xboard\nprotover 2\nsetboard {KRK}\ngo\nping 1\nsetboard {KQKR}\ngo\nping 2\n"
        );
        let lines = session("KQ.KR", &input, krk_panics, None);
        assert_eq!(
            answers(&lines),
            [
                "tellusererror fairy-egt could not build KR.K: internal error while building: \
                 forced failure of KR.K",
                "tellusererror fairy-egt cannot play this position: the table of KR.K could \
                 not be built: internal error while building: forced failure of KR.K",
                "pong 1",
                "move h1b1",
                "pong 2"
            ],
            "{lines:?}"
        );
    }

    #[test]
    fn the_report_is_written_after_the_tables_are_handed_back() {
        let dir = tempfile::Builder::new()
            .prefix("fairy-egt-session-")
            .tempdir()
            .unwrap();
        let path = dir.path().join("rep2.txt");
        let input = format!("xboard\nprotover 2\nsetboard {KQKR}\ngo\n");
        let lines = session(
            "KQ.KR",
            &input,
            TableSet::build_cancellable,
            Some(path.clone()),
        );
        assert_eq!(answers(&lines), ["move h1b1"]);
        let report = std::fs::read_to_string(&path).expect("the report is written");
        assert!(report.contains("endgame: KQ.KR"), "{report}");
        assert!(report.contains("35"), "{report}");
    }
}
