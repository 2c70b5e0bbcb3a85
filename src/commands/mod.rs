//! The command-line commands, and the start-up they share: settings, pieces, threads.

pub mod build;
pub mod explore;
pub mod moves;
pub mod play;
pub mod probe;
pub mod report;
pub mod stats_text;

use crate::cli::Common;
use fairy_egt::board::{FenError, Position, Setup};
use fairy_egt::config::{load_config, EngineConfig};
use fairy_egt::egt::material::material_of;
use fairy_egt::egt::material::Material;
use fairy_egt::egt::progress::{BuildEvent, Phase, Progress, Rough};
use fairy_egt::egt::tables::TableSet;
use fairy_egt::engine::game::check;
use fairy_egt::engine::Unplayable;
use fairy_egt::files::{load_seeds, pieces_of};
use fairy_egt::settings::PieceFile;
pub use fairy_egt::settings::{new_tables, Settings};
use std::io::{IsTerminal, Write};
use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::time::{Duration, Instant};

/// A failure caused by the user's input (files, endgame, FEN, options): exit code 2.
#[derive(Debug, thiserror::Error)]
#[error("{0}")]
pub struct UserError(pub String);

impl UserError {
    /// An error from any displayable cause.
    pub fn from_display(e: impl std::fmt::Display) -> UserError {
        UserError(e.to_string())
    }
}

/// Reads `engine.ini` (the given one, else the working directory's if present) and the
/// piece file, applies the command-line overrides, and parses the endgame.
pub fn settings(common: &Common) -> Result<Settings, UserError> {
    let (mut config, config_file) = match &common.config {
        Some(path) => (
            load_config(path).map_err(UserError::from_display)?,
            path.clone(),
        ),
        None if Path::new("engine.ini").exists() => (
            load_config(Path::new("engine.ini")).map_err(UserError::from_display)?,
            PathBuf::from("engine.ini"),
        ),
        None => (EngineConfig::default(), PathBuf::from("engine.ini")),
    };
    if let Some(n) = common.null_move {
        config.null_move = n;
    }
    config.stalemate_wins |= common.stalemate_wins;
    config.bare_king_loses |= common.bare_king_loses;
    if let Some(seed) = &common.seed {
        config.seed = seed.clone();
    }
    if let Some(report) = &common.report {
        config.report = report.clone();
    }
    if let Some(tables) = &common.tables {
        config.tables = tables.clone();
    }
    if let Some(m) = common.metric {
        config.metric = m;
    }
    if let Some(n) = common.rule_moves {
        config.rule_moves = n;
    }
    config.metric = config.metric_with_rule();
    if let Some(t) = common.threads {
        config.threads = t;
    }
    if let Some(b) = common.board {
        config.board = b;
    }
    if let Some(mb) = common.memory {
        config.memory = mb;
    }
    // Where the promotion letters come from, for their errors.
    let promotion_from = match (&common.promotion, config.promotion_line) {
        (Some(letters), _) => {
            config.promotion = Some(letters.clone());
            "--promotion".to_string()
        }
        (None, Some(line)) => format!("{}:{line}: 'promotion'", config_file.display()),
        (None, None) => "promotion".to_string(),
    };
    if let Some(e) = &common.endgame {
        config.endgame = e.clone();
    }
    if let Some(p) = &common.pieces {
        config.pieces = p.clone();
        config.pieces_named = true;
    }
    let piece_file = PieceFile {
        path: config.pieces.clone(),
        named: config.pieces_named,
    };
    let pieces = pieces_of(&piece_file).map_err(UserError::from_display)?;
    let material = Material::parse(&config.endgame, &pieces).map_err(UserError::from_display)?;
    let seeds = match &config.seed {
        Some(file) => Some(
            load_seeds(file, &pieces, config.board, &config.endgame, config.metric)
                .map_err(UserError::from_display)?,
        ),
        None => None,
    };
    let settings = Settings::from_config(&config, pieces, material, seeds, !common.no_symmetry);
    settings
        .check_promotion()
        .map_err(|e| UserError(format!("{promotion_from}: {e}")))?;
    Ok(settings)
}

/// The text of a file of FENs (`-`: stdin), as `probe --fens` and `moves --fens` read it.
pub fn read_fens(file: &Path) -> Result<String, UserError> {
    if file == Path::new("-") {
        std::io::read_to_string(std::io::stdin()).map_err(|e| UserError(format!("stdin: {e}")))
    } else {
        std::fs::read_to_string(file).map_err(|e| UserError(format!("{}: {e}", file.display())))
    }
}

/// Sets the size of rayon's global pool (0 = one thread per core); returns the size.
pub fn start_threads(threads: usize) -> usize {
    // Only the first call sets the pool; later calls keep it.
    let _ = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build_global();
    rayon::current_num_threads()
}

/// Builds the settings' endgame into a new table set, showing progress on stderr. The report
/// file is the caller's: see [`report::Report`].
pub fn build_tables(s: &Settings) -> Result<(TableSet, Duration), UserError> {
    let mut tables = new_tables(s);
    let progress = StderrProgress::new();
    let start = Instant::now();
    tables
        .build(&s.material, &progress)
        .map_err(UserError::from_display)?;
    progress.finish();
    Ok((tables, start.elapsed()))
}

/// Shows build progress on stderr: on a terminal, a bar redrawn in place
/// (`[##########..............] 42%  about 12 s left  KBN.KN distance 14`); else a plain
/// line at most every second, so that pipes and logs get no control characters.
pub struct StderrProgress {
    last: Mutex<Option<Instant>>,
    terminal: bool,
}

/// Width of the bar, in characters between the brackets.
const BAR: usize = 24;

impl StderrProgress {
    /// A progress display for this process's stderr.
    pub fn new() -> StderrProgress {
        StderrProgress {
            last: Mutex::new(None),
            terminal: std::io::stderr().is_terminal(),
        }
    }

    /// Ends the bar's line.
    pub fn finish(&self) {
        if self.terminal {
            eprintln!();
        }
    }
}

impl Default for StderrProgress {
    fn default() -> Self {
        Self::new()
    }
}

/// The progress bar of an event, on one line.
fn bar(event: &BuildEvent) -> String {
    let filled = ((event.fraction * BAR as f64) as usize).min(BAR);
    let mut line = format!(
        "[{}{}] {:3.0}%",
        "#".repeat(filled),
        ".".repeat(BAR - filled),
        event.fraction * 100.0
    );
    if event.phase == Phase::Done && event.table == event.target {
        line += &format!("  built in {:.1} s", event.elapsed.as_secs_f64());
        return line;
    }
    if let Some(left) = event.remaining {
        line += &format!("  about {} left", Rough(left));
    }
    line + &format!("  {} {}", event.table, event.phase)
}

impl Progress for StderrProgress {
    fn report(&self, event: &BuildEvent) {
        let Ok(mut last) = self.last.lock() else {
            return;
        };
        let gap = if self.terminal {
            Duration::from_millis(100)
        } else {
            Duration::from_secs(1)
        };
        let end = event.phase == Phase::Done && event.table == event.target;
        if last.is_some_and(|t| t.elapsed() < gap) && !(end && self.terminal) {
            return;
        }
        *last = Some(Instant::now());
        let mut err = std::io::stderr().lock();
        let _ = if self.terminal {
            write!(err, "\r\x1b[K{}", bar(event))
        } else {
            writeln!(err, "{event}")
        };
        let _ = err.flush();
    }
}

/// Why a FEN or set-up is not a position the built tables answer.
#[derive(Debug, thiserror::Error)]
pub enum NotBuilt {
    /// The FEN is malformed.
    #[error(transparent)]
    Fen(#[from] FenError),
    /// The set-up is no position the engine plays.
    #[error(transparent)]
    Unplayable(#[from] Unplayable),
    /// Its material is not built.
    #[error(
        "the position is {material}, which is neither {spec} nor reachable from it by captures"
    )]
    Material {
        /// The position's material.
        material: Material,
        /// The endgame built.
        spec: Material,
    },
}

/// The checked position of a set-up whose material is built in `tables`: `spec` (whose
/// royals it uses) or an endgame reachable from it by captures. The error says why not.
pub fn built_position(
    tables: &TableSet,
    spec: &Material,
    setup: &Setup,
) -> Result<Position, NotBuilt> {
    let pos = check(setup, tables.geometry(), spec.royals())?;
    let (material, _) = material_of(&pos);
    if tables.get(&material).is_none() {
        return Err(NotBuilt::Material {
            material,
            spec: spec.clone(),
        });
    }
    Ok(pos)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_bar_shows_the_share_the_time_left_and_the_end() {
        let mut event = BuildEvent {
            table: "KBN.KN".to_string(),
            target: "KBN.KN".to_string(),
            phase: Phase::Iteration(14),
            fraction: 0.42,
            elapsed: Duration::from_secs_f64(8.4),
            remaining: Some(Duration::from_secs_f64(11.6)),
        };
        assert_eq!(
            bar(&event),
            "[##########..............]  42%  about 12 s left  KBN.KN distance 14"
        );
        event.remaining = None;
        assert_eq!(
            bar(&event),
            "[##########..............]  42%  KBN.KN distance 14"
        );
        (event.phase, event.fraction) = (Phase::Done, 1.0);
        assert_eq!(
            bar(&event),
            "[########################] 100%  built in 8.4 s"
        );
    }
}
