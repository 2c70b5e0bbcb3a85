//! Fuzzing the file parsers: random and mutated `piecedef.ini`, `engine.ini` and seed files.
//!
//! Every parse must either succeed or fail with an error that names the file and the line at
//! fault, where "at fault" is checked, not trusted: the lines before it parse, and those lines
//! with it fail with that same error (the error is about that line). What parses is used
//! further: the move tables, symmetry and Betza text of every piece file, the endgame of every
//! configuration, and now and then a small table is built from fuzzed pieces or seeds, so a
//! parse that lets nonsense through is caught where it would crash the program. No panic hook
//! is installed; a panic (in a build's threads too) is caught only to name the case it came
//! from, and fails the test.
//!
//! Environment: `FAIRY_EGT_FUZZ_FILES` (files in all, default 10,000), `FAIRY_EGT_FUZZ_SEED`
//! (the run's seed); a failure prints the file's seed, replayed alone with
//! `FAIRY_EGT_FUZZ_CASE`.

mod fuzz;

use fairy_egt::board::geometry::Geometry;
use fairy_egt::board::symmetry_group;
use fairy_egt::config::parse_config;
use fairy_egt::egt::material::Material;
use fairy_egt::egt::progress::Silent;
use fairy_egt::egt::seed::parse_seeds;
use fairy_egt::egt::table::Metric;
use fairy_egt::egt::tables::TableSet;
use fairy_egt::piece::betza::try_betza;
use fairy_egt::piece::parse::{parse_piece_defs, PieceDefError, STANDARD_PIECEDEF};
use fairy_egt::piece::PieceSet;
use fuzz::{case_seed, count, garbage, mutate, number, numbered, only_case, run_seed, Rng};
use std::io::Write as _;
use std::panic::{self, AssertUnwindSafe};
use std::path::Path;
use std::time::Instant;

/// Files parsed by default (CI).
const FILES: usize = 10_000;

/// The shipped `engine.ini`.
const ENGINE_INI: &str = include_str!("../engine.ini");

/// What a run did.
#[derive(Default)]
struct Counts {
    /// Files parsed, by kind: pieces, configurations, seeds.
    files: [usize; 3],
    /// Of those, the ones that parsed.
    parsed: [usize; 3],
    /// Tables built from what parsed.
    builds: usize,
}

#[test]
fn files_parse_or_name_the_line_at_fault() {
    let started = Instant::now();
    let run = run_seed();
    let want = count("FAIRY_EGT_FUZZ_FILES", FILES);
    let only = only_case();
    let standard = PieceSet::standard();
    let geometry = Geometry::new(&standard);
    let mut counts = Counts::default();
    let cases: Vec<(u64, usize)> = match only {
        Some(seed) => (0..3).map(|kind| (seed, kind)).collect(),
        None => (0..want as u64)
            .map(|i| (case_seed(run, i), i as usize % 3))
            .collect(),
    };
    for (seed, kind) in cases {
        let name = ["piece", "configuration", "seed"][kind];
        let mut rng = Rng::new(seed);
        // A panic, in a build's threads too, is caught only to name its case.
        let case = panic::catch_unwind(AssertUnwindSafe(|| match kind {
            0 => {
                let text = piece_text(&mut rng);
                let r = check_pieces(&text, &mut rng, &mut counts);
                (text, r)
            }
            1 => {
                let text = config_text(&mut rng);
                let r = check_config(&text);
                (text, r)
            }
            _ => {
                let (spec, metric, text) = seed_text(&mut rng);
                let r = check_seeds(&text, &spec, metric, &standard, &geometry, &mut counts);
                (text, r)
            }
        }));
        let Ok((text, result)) = case else {
            panic!("{name} file of seed {seed:#x} (replay with FAIRY_EGT_FUZZ_CASE={seed:#x}): the panic above");
        };
        counts.files[kind] += 1;
        match result {
            Ok(true) => counts.parsed[kind] += 1,
            Ok(false) => {}
            Err(why) => panic!(
                "{name} file of seed {seed:#x} (replay with FAIRY_EGT_FUZZ_CASE={seed:#x}): {why}\n{}",
                numbered(text.lines())
            ),
        }
    }
    let origin = match only {
        Some(case) => format!("case {case:#x} alone"),
        None => format!("seed {run:#x}"),
    };
    let _ = writeln!(
        std::io::stderr().lock(),
        "fuzz_files: {} files from {origin}: {} piecedef.ini ({} parsed), {} engine.ini \
         ({} parsed), {} seed files ({} parsed); every error named its line, checked; {} tables \
         built from them; {:.1} s",
        counts.files.iter().sum::<usize>(),
        counts.files[0],
        counts.parsed[0],
        counts.files[1],
        counts.parsed[1],
        counts.files[2],
        counts.parsed[2],
        counts.builds,
        started.elapsed().as_secs_f64()
    );
}

/// The text's first `n` lines, exactly as they are in it (line ends included).
fn first_lines(text: &str, n: usize) -> String {
    text.split_inclusive('\n').take(n).collect()
}

/// The line an error names must exist: 1 to the number of lines (1 for an empty text).
fn check_line_number(text: &str, line: usize) -> Result<(), String> {
    let lines = text.lines().count().max(1);
    if (1..=lines).contains(&line) {
        Ok(())
    } else {
        Err(format!("the error names line {line} of {lines}"))
    }
}

/// An error is about line `line` when the lines before it parse and the lines up to it fail
/// with the same error. `parse` gives the line and text of an error, or `None` for a
/// success; `whole_file` tells an error about the file as a whole (none of its lines).
fn check_fault(
    text: &str,
    line: usize,
    shown: &str,
    parse: impl Fn(&str) -> Option<(usize, String)>,
    whole_file: impl Fn(&str) -> bool,
) -> Result<(), String> {
    check_line_number(text, line)?;
    if whole_file(shown) {
        return Ok(());
    }
    if let Some((l, e)) = parse(&first_lines(text, line - 1)).filter(|(_, e)| !whole_file(e)) {
        return Err(format!(
            "the error names line {line} ({shown}), but the lines before it fail already, on \
             line {l}: {e}"
        ));
    }
    match parse(&first_lines(text, line)) {
        Some((l, e)) if l == line && e == shown => Ok(()),
        other => Err(format!(
            "the error names line {line} ({shown}), but the lines up to it give {other:?}"
        )),
    }
}

/// A piece file: lines made up from scratch, the shipped file mutated, or random text.
fn piece_text(rng: &mut Rng) -> String {
    let text = match rng.weighted(&[5, 3, 1, 1]) {
        0 => {
            let mut text = String::new();
            for _ in 0..rng.between(0, 10) {
                text.push_str(&piece_line(rng));
                text.push_str(if rng.one_in(8) { "\r\n" } else { "\n" });
            }
            text
        }
        1 => mutate(rng, STANDARD_PIECEDEF),
        2 => {
            let lines = piece_line(rng) + "\n" + &piece_line(rng);
            mutate(rng, &lines)
        }
        _ => garbage(rng, 200),
    };
    match rng.below(20) {
        0 => format!("\u{feff}{text}"),
        _ => text,
    }
}

/// One line of a piece file: a definition (often valid), a comment, or nothing.
fn piece_line(rng: &mut Rng) -> String {
    match rng.below(10) {
        0 => String::new(),
        1 => format!("{} {}", rng.pick(&["#", ";", "  #"]), garbage(rng, 20)),
        _ => {
            let letter = match rng.below(12) {
                0 => *rng.pick(&['1', '*', 'é', '-']),
                1 => (b'a' + rng.below(26) as u8) as char,
                _ => (b'A' + rng.below(26) as u8) as char,
            };
            let mut line = format!("{letter}:");
            if rng.one_in(10) {
                line = line.replace(':', rng.pick::<&str>(&[" :", "", "::", " "]));
            }
            for _ in 0..rng.weighted(&[1, 6, 4, 2, 1]) {
                line.push_str(rng.pick::<&str>(&[" ", "\t", "  "]));
                line.push_str(&piece_move(rng));
            }
            if rng.one_in(5) {
                line.push_str(" # a comment");
            }
            line
        }
    }
}

/// A move `dx,dy[,flags]`: usually well-formed; else with steps and ranges up to and beyond
/// the limits, and flags in any order.
fn piece_move(rng: &mut Rng) -> String {
    if !rng.one_in(4) {
        // Well-formed: a step, then a range or s, c or n, * or +, each or none.
        let (dx, dy) = loop {
            let (dx, dy) = (rng.below(9) as i64 - 4, rng.below(9) as i64 - 4);
            if (dx, dy) != (0, 0) {
                break (dx, dy);
            }
        };
        let range = match rng.below(3) {
            0 => rng.between(1, 99).to_string(),
            1 => "s".to_string(),
            _ => String::new(),
        };
        let mode = *rng.pick(&["", "", "c", "n"]);
        let images = *rng.pick(&["", "*", "*", "+"]);
        let flags = format!("{range}{mode}{images}");
        return match flags.is_empty() {
            true => format!("{dx},{dy}"),
            false => format!("{dx},{dy},{flags}"),
        };
    }
    let coordinate = |rng: &mut Rng| match rng.below(10) {
        0 => number(rng),
        1 => format!("+{}", rng.below(9)),
        _ => (rng.below(9) as i64 - 4).to_string(),
    };
    let mut mv = format!("{},{}", coordinate(rng), coordinate(rng));
    if rng.one_in(2) {
        mv.push(',');
        if rng.one_in(3) {
            mv.push_str(&rng.between(0, 120).to_string());
        }
        for _ in 0..rng.between(0, 3) {
            mv.push(*rng.pick(&['s', 'c', 'n', '*', '+', '*', 'x', '1']));
        }
    }
    if rng.one_in(20) {
        mv.push_str(",1");
    }
    mv
}

/// Parses a piece file and checks the error or what parsed; `Ok(true)` when it parsed.
fn check_pieces(text: &str, rng: &mut Rng, counts: &mut Counts) -> Result<bool, String> {
    const FILE: &str = "fuzz/piecedef.ini";
    let parse = |t: &str| match parse_piece_defs(t, FILE) {
        Ok(_) => None,
        Err(e) => Some((e.line().unwrap_or(0), e.to_string())),
    };
    let pieces = match parse_piece_defs(text, FILE) {
        Ok(pieces) => pieces,
        Err(e) => {
            let PieceDefError::Syntax {
                file,
                line,
                column,
                message,
            } = &e
            else {
                return Err(format!("a parse of text gave {e:?}"));
            };
            let shown = e.to_string();
            if file != FILE || message.is_empty() || *column == 0 {
                return Err(format!("a malformed error: {e:?}"));
            }
            if !shown.starts_with(&format!("{FILE}:{line}:{column}: ")) {
                return Err(format!("the message does not name the line: {shown}"));
            }
            let stripped = text.strip_prefix('\u{feff}').unwrap_or(text);
            let width = stripped
                .lines()
                .nth(line - 1)
                .map_or(0, |l| l.chars().count());
            if *column > width + 1 {
                return Err(format!(
                    "column {column} is beyond line {line} ({width} characters)"
                ));
            }
            check_fault(text, *line, &shown, parse, |e| {
                e.contains("expected at least one piece definition")
            })?;
            return Ok(false);
        }
    };
    // What parsed is used as the program uses it.
    for piece in pieces.iter() {
        if !piece.letter.is_ascii_uppercase() {
            return Err(format!(
                "piece letter {:?} is not an upper-case letter",
                piece.letter
            ));
        }
        let _ = try_betza(piece);
    }
    let _ = symmetry_group(pieces.iter(), fairy_egt::board::BoardSize::STANDARD);
    let _ = Geometry::new(&pieces);
    if rng.one_in(8) {
        let letters: Vec<char> = pieces.iter().map(|p| p.letter).collect();
        // The pawn is never royal (Material::parse refuses it, as its own tests check).
        let royals: Vec<char> = letters.iter().copied().filter(|&l| l != 'P').collect();
        if royals.is_empty() {
            return Ok(true);
        }
        let spec = match rng.below(3) {
            0 => format!("{}.{}", rng.pick(&royals), rng.pick(&royals)),
            _ => format!(
                "{}{}.{}",
                rng.pick(&royals),
                rng.pick(&letters),
                rng.pick(&royals)
            ),
        };
        let material = Material::parse(&spec, &pieces)
            .map_err(|e| format!("{spec} of the file's own letters: {e}"))?;
        let mut tables = TableSet::new(pieces, *rng.pick(&[Metric::Dtm, Metric::Dtc]));
        // Long distances are refused (BuildError), never a crash.
        let _ = tables.build(&material, &Silent);
        counts.builds += 1;
    }
    Ok(true)
}

/// An `engine.ini`: keys with good and bad values, sections, comments; the shipped file
/// mutated; or random text.
fn config_text(rng: &mut Rng) -> String {
    match rng.below(10) {
        0..=4 => {
            let mut text = String::new();
            for _ in 0..rng.between(0, 10) {
                let line = match rng.below(12) {
                    0 => String::new(),
                    1 => format!("# {}", garbage(rng, 10)),
                    2 => rng
                        .pick(&["[engine]", "[Engine ]", "[other]", "[engine", "[]"])
                        .to_string(),
                    3 => garbage(rng, 20),
                    _ => config_line(rng),
                };
                text.push_str(&line);
                text.push('\n');
            }
            text
        }
        5..=8 => mutate(rng, ENGINE_INI),
        _ => garbage(rng, 200),
    }
}

/// `key = value`, the key in any spelling, the value good or bad for it.
fn config_line(rng: &mut Rng) -> String {
    let key = *rng.pick(&[
        "endgame",
        "metric",
        "threads",
        "pieces",
        "null-move",
        "null_move",
        "Stalemate-Wins",
        "bare-king-loses",
        "seed",
        "report",
        "tables",
        "hash",
        "",
    ]);
    let value = match rng.below(8) {
        0 => number(rng),
        1 => garbage(rng, 12),
        2 => String::new(),
        _ => rng
            .pick(&[
                "KQ.KR",
                "KQ KR",
                "dtm",
                "DTC",
                "none",
                "black",
                "both",
                "yes",
                "off",
                "2",
                "-",
                "piecedef.ini",
                "/abs/seeds.txt",
                "true",
            ])
            .to_string(),
    };
    let eq = *rng.pick(&["=", " = ", "==", ":", "=\t"]);
    format!("{key}{eq}{value}")
}

/// Parses a configuration and checks the error or what parsed; `Ok(true)` when it parsed.
fn check_config(text: &str) -> Result<bool, String> {
    let file = Path::new("fuzz/engine.ini");
    let parse = |t: &str| match parse_config(t, file) {
        Ok(_) => None,
        Err(e) => Some((e.line().unwrap_or(0), e.to_string())),
    };
    match parse_config(text, file) {
        Ok(config) => {
            for path in [
                Some(&config.pieces),
                config.seed.as_ref(),
                config.report.as_ref(),
                config.tables.as_ref(),
            ]
            .into_iter()
            .flatten()
            {
                if !path.is_absolute() && !path.starts_with("fuzz") {
                    return Err(format!(
                        "{path:?} is not relative to the ini file's directory"
                    ));
                }
            }
            let _ = Material::parse(&config.endgame, &PieceSet::standard());
            Ok(true)
        }
        Err(e) => {
            let Some(line) = e.line() else {
                return Err(format!("a parse of text gave {e:?}"));
            };
            let shown = e.to_string();
            if !shown.starts_with(&format!("fuzz/engine.ini:{line}: ")) {
                return Err(format!("the message does not name the line: {shown}"));
            }
            check_fault(text, line, &shown, parse, |_| false)?;
            Ok(false)
        }
    }
}

/// Endgames for seed files: cheap ones (their tables are built from the seeds), a larger
/// one, and bad ones.
const SEED_SPECS: &[&str] = &["KQ.K", "KR.K", "KA.K", "KQ.KR", "KQvKR", "KBN.K", "K.K"];

/// A seed file, its endgame and metric.
fn seed_text(rng: &mut Rng) -> (String, Metric, String) {
    let spec = match rng.below(12) {
        0 => garbage(rng, 6),
        1 => mutate(rng, "KQ.KR"),
        _ => rng.pick(SEED_SPECS).to_string(),
    };
    let men = spec
        .chars()
        .filter(|c| c.is_ascii_alphabetic() && *c != 'v')
        .count();
    let mut text = String::new();
    for _ in 0..rng.between(0, 8) {
        let line = match rng.below(10) {
            0 => String::new(),
            1 => format!("; {}", garbage(rng, 10)),
            2 => garbage(rng, 24),
            _ => seed_line(rng, men),
        };
        text.push_str(&line);
        text.push('\n');
    }
    if rng.one_in(4) {
        text = mutate(rng, &text);
    }
    (spec, *rng.pick(&[Metric::Dtm, Metric::Dtc]), text)
}

/// `SQUARES [w|b] VALUE` for `men` men, sometimes with the wrong number of squares.
fn seed_line(rng: &mut Rng, men: usize) -> String {
    let count = if rng.one_in(8) {
        rng.between(0, 6)
    } else {
        men
    };
    let mut squares = String::new();
    let wild = rng.one_in(4).then(|| rng.below(count.max(1)));
    for k in 0..count {
        if wild == Some(k) {
            squares.push_str("**");
        } else {
            // Now and then off the board (file i, rank 9).
            let edge = usize::from(rng.one_in(20));
            squares.push((b'a' + rng.below(8 + edge) as u8) as char);
            squares.push((b'1' + rng.below(8 + edge) as u8) as char);
        }
    }
    let side = *rng.pick(&["", " w", " b", " W", " x"]);
    let value = match rng.below(8) {
        0 => "draw".to_string(),
        1 => "stalemate".to_string(),
        2 => format!("win {}", number(rng)),
        3 => format!("loss {}", number(rng)),
        4 => format!("win {}", rng.between(0, 130)),
        5 => format!("loss {}", rng.between(0, 130)),
        6 => number(rng),
        _ => rng.between(0, 130).to_string(),
    };
    format!("{squares}{side} {value}")
}

/// Parses a seed file and checks the error or what parsed (building small tables with the
/// seeds); `Ok(true)` when it parsed.
fn check_seeds(
    text: &str,
    spec: &str,
    metric: Metric,
    pieces: &PieceSet,
    geometry: &Geometry,
    counts: &mut Counts,
) -> Result<bool, String> {
    const FILE: &str = "fuzz.seed";
    let parse = |t: &str| match parse_seeds(t, FILE, spec, geometry, metric) {
        Ok(_) => None,
        Err(e) => Some((e.line, e.to_string())),
    };
    match parse_seeds(text, FILE, spec, geometry, metric) {
        Ok(seeds) => {
            let material = Material::parse(spec, pieces)
                .map_err(|e| format!("seeds parsed for a bad endgame {spec:?}: {e}"))?;
            if material.len() <= 3 && !seeds.is_empty() {
                let mut tables =
                    TableSet::new(pieces.clone(), metric).with_seeds(material.clone(), seeds);
                // Distances beyond a byte are refused (BuildError), never a crash.
                let _ = tables.build(&material, &Silent);
                counts.builds += 1;
            }
            Ok(true)
        }
        // The endgame itself is bad: an error about no line.
        Err(e) if Material::parse(spec, pieces).is_err() => match e.line {
            0 => Ok(false),
            _ => Err(format!(
                "an error about the endgame names line {}: {e}",
                e.line
            )),
        },
        Err(e) => {
            let shown = e.to_string();
            if e.file != FILE || !shown.starts_with(&format!("{FILE}:{}: ", e.line)) {
                return Err(format!(
                    "the message does not name the file and line: {shown}"
                ));
            }
            check_fault(text, e.line, &shown, parse, |_| false)?;
            Ok(false)
        }
    }
}
