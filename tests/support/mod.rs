//! Shared by the tests that run the binary: its commands run to their end (`run`, `run_in`,
//! with `scratch` directories and their output as text), the engine mode driven through its
//! pipes with a timeout on every wait, and helpers to wait for child processes.

#![allow(dead_code)] // each test crate uses a part

pub mod data;

use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, Command, ExitStatus, Output, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::time::{Duration, Instant};

/// The binary under test.
pub const BIN: &str = env!("CARGO_BIN_EXE_fairy-egt");

/// The position of the issue: White mates in 35.
pub const KQKR: &str = "8/8/8/8/2r5/8/2k5/K6Q w - - 0 1";

/// Longest any single answer may take (a 4-man build included, on a busy machine).
pub const PATIENCE: Duration = Duration::from_secs(60);

/// The build directory (`target/` or `$CARGO_TARGET_DIR`), where test artifacts go.
pub fn target_dir() -> PathBuf {
    Path::new(BIN)
        .ancestors()
        .nth(2)
        .expect("the binary lies in <target>/<profile>/")
        .to_path_buf()
}

/// Runs the binary with `args` (a command such as `build`) in `dir`, to its end.
pub fn run_in(dir: &Path, args: &[&str]) -> Output {
    Command::new(BIN)
        .args(args)
        .current_dir(dir)
        .output()
        .expect("the binary runs")
}

/// `run_in` the temporary directory (no engine.ini there).
pub fn run(args: &[&str]) -> Output {
    run_in(&std::env::temp_dir(), args)
}

/// A fresh, empty directory for the files a test writes, named after `name`; removed with
/// everything in it when dropped, at the end of the test whether it passes or fails.
pub fn scratch(name: &str) -> Scratch {
    Scratch(
        tempfile::Builder::new()
            .prefix(&format!("fairy-egt-{name}-"))
            .tempdir()
            .expect("create a scratch directory"),
    )
}

/// A test's scratch directory (`scratch`): a `Path`, removed when dropped.
pub struct Scratch(tempfile::TempDir);

impl std::ops::Deref for Scratch {
    type Target = Path;
    fn deref(&self) -> &Path {
        self.0.path()
    }
}

impl AsRef<Path> for Scratch {
    fn as_ref(&self) -> &Path {
        self.0.path()
    }
}

/// A command's standard output, as text.
pub fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

/// A command's standard error, as text.
pub fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

/// The engine in engine mode, driven through its pipes; killed when dropped.
pub struct Engine {
    child: Child,
    stdin: Option<ChildStdin>,
    lines: Receiver<String>,
    /// Everything sent (`> `) and received (`< `), for failure messages.
    pub log: Vec<String>,
}

impl Engine {
    /// Starts `fairy-egt ARGS` (engine mode) in an empty directory, so no `engine.ini` applies.
    pub fn start(args: &[&str]) -> Engine {
        let dir = target_dir().join("engine-test-cwd");
        std::fs::create_dir_all(&dir).expect("create the engine's directory");
        let mut child = Command::new(BIN)
            .args(args)
            .current_dir(&dir)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .expect("start the engine");
        let stdout = child.stdout.take().expect("piped stdout");
        let (tx, lines) = mpsc::channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        Engine {
            stdin: child.stdin.take(),
            child,
            lines,
            log: Vec::new(),
        }
    }

    /// Starts the engine and completes the XBoard handshake.
    pub fn xboard(args: &[&str]) -> Engine {
        let mut e = Engine::start(args);
        e.handshake();
        e
    }

    /// Starts the engine, completes the XBoard handshake and returns the lines up to the first
    /// that satisfies `done`, which may come before the handshake's end (a start-up build's
    /// refusal or end races with the features).
    pub fn xboard_until(args: &[&str], done: impl Fn(&str) -> bool) -> (Engine, Vec<String>) {
        let mut e = Engine::start(args);
        let mut lines = e.handshake();
        if !lines.iter().any(|l| done(l)) {
            lines.extend(e.until(done, PATIENCE));
        }
        (e, lines)
    }

    /// Starts the engine and completes the UCI handshake (`uci` … `uciok`).
    pub fn uci(args: &[&str]) -> Engine {
        let mut e = Engine::start(args);
        e.send("uci");
        e.until(|l| l == "uciok", Duration::from_secs(5));
        e
    }

    /// Sends `isready` and returns every line before `readyok`.
    pub fn ready(&mut self) -> Vec<String> {
        self.send("isready");
        let mut lines = self.until(|l| l == "readyok", PATIENCE);
        lines.pop();
        lines
    }

    /// Sends `xboard` and `protover 2` and waits for `feature done=1`; returns the lines.
    pub fn handshake(&mut self) -> Vec<String> {
        self.send("xboard");
        self.send("protover 2");
        self.until(|l| l == "feature done=1", Duration::from_secs(5))
    }

    /// Sends one line (a line end is added).
    pub fn send(&mut self, line: &str) {
        self.send_bytes(format!("{line}\n").as_bytes());
    }

    /// Sends raw bytes.
    pub fn send_bytes(&mut self, bytes: &[u8]) {
        self.log
            .push(format!("> {}", String::from_utf8_lossy(bytes).trim_end()));
        let stdin = self.stdin.as_mut().expect("stdin is open");
        stdin.write_all(bytes).expect("write to the engine");
        stdin.flush().expect("flush to the engine");
    }

    /// Closes the engine's stdin.
    pub fn close_stdin(&mut self) {
        self.stdin = None;
    }

    /// The next line, if one comes within `wait`.
    pub fn next_line(&mut self, wait: Duration) -> Option<String> {
        match self.lines.recv_timeout(wait) {
            Ok(line) => {
                self.log.push(format!("< {line}"));
                Some(line)
            }
            Err(RecvTimeoutError::Timeout | RecvTimeoutError::Disconnected) => None,
        }
    }

    /// Lines up to and including the first that satisfies `done`; fails after `wait`.
    pub fn until(&mut self, done: impl Fn(&str) -> bool, wait: Duration) -> Vec<String> {
        let deadline = Instant::now() + wait;
        let mut got = Vec::new();
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            match self.next_line(left) {
                Some(line) => {
                    let stop = done(&line);
                    got.push(line);
                    if stop {
                        return got;
                    }
                }
                None => panic!(
                    "the expected line did not come within {wait:?}; conversation:\n{}",
                    self.log.join("\n")
                ),
            }
        }
    }

    /// Sends `ping N` and returns every line before `pong N`.
    pub fn sync(&mut self, n: u32) -> Vec<String> {
        self.send(&format!("ping {n}"));
        let pong = format!("pong {n}");
        let mut lines = self.until(|l| l == pong, PATIENCE);
        lines.pop();
        lines
    }

    /// Lines that come within `wait` (none expected to be missing).
    pub fn drain(&mut self, wait: Duration) -> Vec<String> {
        let deadline = Instant::now() + wait;
        let mut got = Vec::new();
        while let Some(l) = self.next_line(deadline.saturating_duration_since(Instant::now())) {
            got.push(l);
        }
        got
    }

    /// Waits up to `wait` for the engine to exit.
    pub fn wait_exit(&mut self, wait: Duration) -> Option<ExitStatus> {
        wait_child(&mut self.child, wait)
    }

    /// The conversation so far, for failure messages.
    pub fn transcript(&self) -> String {
        self.log.join("\n")
    }
}

impl Drop for Engine {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Waits up to `wait` for a child to exit; `None` if it is still running.
pub fn wait_child(child: &mut Child, wait: Duration) -> Option<ExitStatus> {
    let deadline = Instant::now() + wait;
    loop {
        if let Ok(Some(status)) = child.try_wait() {
            return Some(status);
        }
        if Instant::now() >= deadline {
            return None;
        }
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// Runs a command to its end with a time limit; its status and output. The child runs in a
/// process group of its own, and the whole group is killed when the limit passes: a script
/// killed alone would leave its own children (Xvfb, XBoard) running, holding the output pipes
/// open, so that reading them would never end.
pub fn run_with_limit(cmd: &mut Command, limit: Duration) -> (Option<ExitStatus>, String, String) {
    use std::os::unix::process::CommandExt;
    let mut child = cmd
        .process_group(0)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap_or_else(|e| panic!("cannot start {cmd:?}: {e}"));
    let read = |mut r: Box<dyn std::io::Read + Send>| {
        std::thread::spawn(move || {
            let mut s = String::new();
            let _ = r.read_to_string(&mut s);
            s
        })
    };
    let out = read(Box::new(child.stdout.take().expect("piped")));
    let err = read(Box::new(child.stderr.take().expect("piped")));
    let status = wait_child(&mut child, limit);
    if status.is_none() {
        // SAFETY: kill(2) with a negative pid signals the group the child leads.
        unsafe { libc::kill(-(child.id() as i32), libc::SIGKILL) };
        let _ = child.wait();
    }
    (
        status,
        out.join().unwrap_or_default(),
        err.join().unwrap_or_default(),
    )
}

/// The score and move of the engine's next move over XBoard (after `go`, a user move, …):
/// the score of the thinking line whose pv starts with the move.
pub fn next_move(e: &mut Engine) -> (i64, String) {
    let lines = e.until(|l| l.starts_with("move "), PATIENCE);
    let mv = lines.last().expect("a move line")["move ".len()..].to_string();
    let score = lines
        .iter()
        .rev()
        .find_map(|l| thinking(l).filter(|(_, _, pv)| pv.first() == Some(&mv)))
        .map(|(_, s, _)| s)
        .unwrap_or_else(|| panic!("no thinking line for {mv}:\n{}", e.transcript()));
    (score, mv)
}

/// Parses a thinking line `ply score time nodes pv…` → (ply, score, pv moves).
pub fn thinking(line: &str) -> Option<(usize, i64, Vec<String>)> {
    let mut w = line.split_whitespace();
    let ply = w.next()?.parse().ok()?;
    let score = w.next()?.parse().ok()?;
    w.next()?.parse::<u64>().ok()?;
    w.next()?.parse::<u64>().ok()?;
    Some((ply, score, w.map(str::to_string).collect()))
}

/// The Python interpreter with python-chess: `FAIRY_EGT_PYTHON`, else the virtual environment
/// scripts/test.sh makes at `<target>/pyenv` (the build directory, [`target_dir`]). `modules` must import in it; a missing one fails the
/// test with a message saying how to get it (never a skip).
pub fn python(modules: &str) -> PathBuf {
    let from_env = std::env::var_os("FAIRY_EGT_PYTHON").map(PathBuf::from);
    let fallback = target_dir().join("pyenv/bin/python");
    let candidates: Vec<PathBuf> = from_env.into_iter().chain([fallback]).collect();
    for p in &candidates {
        let (status, _, _) = run_with_limit(
            Command::new(p).args(["-c", &format!("import {modules}")]),
            Duration::from_secs(30),
        );
        if status.is_some_and(|s| s.success()) {
            return p.clone();
        }
    }
    panic!(
        "this test needs python-chess: run scripts/test.sh (it makes <target>/pyenv), or set \
         FAIRY_EGT_PYTHON to a Python that has it (tried {candidates:?}, import {modules})"
    );
}
