//! `piecedef.ini` parsing: one piece per line, `LETTER: MOVE MOVE …`, a move being `dx,dy`
//! optionally followed by `,FLAGS` (see the comment block at the top of the shipped
//! `piecedef.ini` and DESIGN.md §1), or `LETTER: BETZA`, one Betza description (a line whose
//! moves start with a letter; see `betza::read`). Every mistake is an error naming the file, line and
//! column; nothing is skipped silently.

use std::path::{Path, PathBuf};

use super::betza::parse_betza;
use super::{PieceSet, PieceType, Step, StepMode, PAWN};
use crate::settings_file;
use crate::symmetry::Sym;

/// The shipped `piecedef.ini`, compiled into the program.
pub const STANDARD_PIECEDEF: &str = include_str!("../../piecedef.ini");

/// The largest step, in files or ranks, a move may take.
pub const MAX_STEP: i8 = 7;

/// The largest range `N` a rider may be given (`dx,dy,N`).
pub const MAX_RANGE: u8 = 99;

/// What is wrong with a piece-definition file.
#[derive(Debug, thiserror::Error)]
pub enum PieceDefError {
    /// The file could not be read.
    #[error("{}: cannot read the piece definitions: {error}", path.display())]
    Read {
        /// The file.
        path: PathBuf,
        /// Why not.
        error: settings_file::ReadError,
    },
    /// The text is not a valid list of piece definitions.
    #[error("{file}:{line}:{column}: {message}")]
    Syntax {
        /// The file name, as given to the parser.
        file: String,
        /// 1-based line number.
        line: usize,
        /// 1-based column (in characters).
        column: usize,
        /// What was expected and what was found.
        message: String,
    },
}

impl PieceDefError {
    /// The 1-based line of a syntax error.
    pub fn line(&self) -> Option<usize> {
        match self {
            PieceDefError::Syntax { line, .. } => Some(*line),
            PieceDefError::Read { .. } => None,
        }
    }

    /// The 1-based column of a syntax error.
    pub fn column(&self) -> Option<usize> {
        match self {
            PieceDefError::Syntax { column, .. } => Some(*column),
            PieceDefError::Read { .. } => None,
        }
    }
}

impl PieceSet {
    /// The pieces of the shipped `piecedef.ini` (XBoard's fairy letters; see that file).
    pub fn standard() -> PieceSet {
        // The text is compiled in and a unit test parses it: this cannot fail at run time.
        parse_piece_defs(STANDARD_PIECEDEF, "piecedef.ini")
            .expect("the built-in piecedef.ini parses (checked by a unit test)")
    }
}

/// Reads and parses a piece-definition file: its text as [`parse_piece_defs`] takes it, read
/// as every settings file is (a regular file of at most 64 MiB of UTF-8), with the path
/// naming the file in errors.
///
/// ```
/// use fairy_egt::piece::parse::load_piece_file;
/// use std::path::Path;
///
/// let shipped = Path::new(env!("CARGO_MANIFEST_DIR")).join("piecedef.ini");
/// let pieces = load_piece_file(&shipped).unwrap();
/// assert_eq!(pieces.get('n').unwrap().steps.len(), 8);
///
/// // A file that cannot be read is an error naming it and the reason.
/// let error = load_piece_file(Path::new("no/such/piecedef.ini")).unwrap_err();
/// assert!(error
///     .to_string()
///     .starts_with("no/such/piecedef.ini: cannot read the piece definitions: "));
/// ```
pub fn load_piece_file(path: &Path) -> Result<PieceSet, PieceDefError> {
    let text = settings_file::read(path).map_err(|error| PieceDefError::Read {
        path: path.to_path_buf(),
        error,
    })?;
    parse_piece_defs(&text, &path.display().to_string())
}

/// Parses the text of a piece-definition file (`piecedef.ini`) into its [`PieceSet`]: the
/// front door of reading pieces, which [`load_piece_file`] goes through with a file's text.
/// `file_name` is used in error messages only. A byte-order mark at the start is skipped.
///
/// ```
/// use fairy_egt::piece::parse::parse_piece_defs;
///
/// // A king and a knight by their steps, an archbishop (bishop + knight) in Betza.
/// let text = "K: 1,0,* 1,1,*   # the royal\nN: 1,2,*\nA: BN\n";
/// let pieces = parse_piece_defs(text, "my.ini").unwrap();
/// assert_eq!(pieces.letters(), "AKN");
/// assert_eq!(pieces.get('K').unwrap().steps.len(), 8);
/// assert_eq!(pieces.get('a').unwrap().betza.as_deref(), Some("BN"));
///
/// // Every mistake is an error naming the file, line and column.
/// let error = parse_piece_defs("N: 1,2,*\nB: 1,1,x\n", "my.ini").unwrap_err();
/// assert_eq!((error.line(), error.column()), (Some(2), Some(8)));
/// assert!(error.to_string().starts_with("my.ini:2:8: "), "{error}");
/// ```
pub fn parse_piece_defs(text: &str, file_name: &str) -> Result<PieceSet, PieceDefError> {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let mut defined: Vec<(PieceType, usize)> = Vec::new();
    let mut last_line = 0;
    for (index, raw) in text.lines().enumerate() {
        let line_no = index + 1;
        last_line = line_no;
        let line = Line::new(raw, file_name, line_no);
        let Some((letter, letter_col, steps, betza)) = line.parse()? else {
            continue;
        };
        if let Some((_, first)) = defined.iter().find(|(p, _)| p.letter == letter) {
            return Err(line.error(
                letter_col,
                format!(
                    "piece '{letter}' is defined twice: on line {first} and again on line {line_no}"
                ),
            ));
        }
        let piece = PieceType::new(letter, steps);
        let piece = match betza {
            Some(text) => piece.with_betza(&text),
            None => piece,
        };
        defined.push((piece, line_no));
    }
    if defined.is_empty() {
        return Err(PieceDefError::Syntax {
            file: file_name.to_string(),
            line: last_line.max(1),
            column: 1,
            message: "expected at least one piece definition such as 'N: 1,2,*', found none"
                .to_string(),
        });
    }
    Ok(PieceSet::new(defined.into_iter().map(|(p, _)| p).collect()))
}

/// One line of the file, as characters with their 1-based columns, comment removed.
struct Line<'a> {
    chars: Vec<(usize, char)>,
    file: &'a str,
    line: usize,
}

impl<'a> Line<'a> {
    fn new(raw: &str, file: &'a str, line: usize) -> Line<'a> {
        let chars = raw
            .chars()
            .take_while(|&c| c != '#' && c != ';')
            .enumerate()
            .map(|(i, c)| (i + 1, c))
            .collect();
        Line { chars, file, line }
    }

    fn error(&self, column: usize, message: String) -> PieceDefError {
        PieceDefError::Syntax {
            file: self.file.to_string(),
            line: self.line,
            column,
            message,
        }
    }

    /// The column just after the last character (where "end of line" is found).
    fn end_column(&self) -> usize {
        self.chars.last().map_or(1, |&(c, _)| c + 1)
    }

    /// `None` for a blank or comment line; else the letter, its column and its steps.
    /// The Betza text comes with the steps when the line is written in Betza.
    #[allow(clippy::type_complexity)]
    fn parse(&self) -> Result<Option<(char, usize, Vec<Step>, Option<String>)>, PieceDefError> {
        let mut pos = 0;
        let n = self.chars.len();
        while pos < n && self.chars[pos].1.is_whitespace() {
            pos += 1;
        }
        if pos == n {
            return Ok(None);
        }
        let (letter_col, c) = self.chars[pos];
        if !c.is_ascii_alphabetic() {
            return Err(self.error(
                letter_col,
                format!("expected a piece letter A-Z at the start of the line, found '{c}'"),
            ));
        }
        let letter = c.to_ascii_uppercase();
        pos += 1;
        while pos < n && self.chars[pos].1.is_whitespace() {
            pos += 1;
        }
        match self.chars.get(pos) {
            Some(&(_, ':')) => pos += 1,
            Some(&(col, found)) => {
                let hint = if found.is_ascii_alphabetic() {
                    " (a piece is named by a single letter)"
                } else {
                    ""
                };
                return Err(self.error(
                    col,
                    format!(
                        "expected ':' after the piece letter '{letter}', found '{found}'{hint}"
                    ),
                ));
            }
            None => {
                return Err(self.error(
                    self.end_column(),
                    format!("expected ':' after the piece letter '{letter}', found end of line"),
                ));
            }
        }
        let after_colon = self.chars.get(pos).map_or(self.end_column(), |&(c, _)| c);
        let mut steps = Vec::new();
        // The column each step was written at, for the pawn's check.
        let mut columns = Vec::new();
        let mut any_move = false;
        let rest = &self.chars[pos..];
        let mut words = rest
            .split(|&(_, c)| c.is_whitespace())
            .filter(|t| !t.is_empty());
        if let Some(first) = words.next().filter(|w| {
            w[0].1.is_ascii_alphabetic() && w.iter().all(|&(_, c)| c.is_ascii_alphanumeric())
        }) {
            if let Some(second) = words.next() {
                let found: String = second.iter().map(|&(_, c)| c).collect();
                return Err(self.error(
                    second[0].0,
                    format!(
                        "expected one Betza description after '{letter}:' (such as 'BN'), \
                         found a second word '{found}'"
                    ),
                ));
            }
            let text: String = first.iter().map(|&(_, c)| c).collect();
            let steps = parse_betza(&text).map_err(|e| {
                self.error(
                    first[0].0 + e.offset,
                    format!("in the Betza description '{text}': {e}"),
                )
            })?;
            if letter != PAWN {
                if let Some((at, flag)) = text.chars().enumerate().find(|&(_, c)| "ie".contains(c))
                {
                    let what = if flag == 'i' {
                        "'i' (initial move)"
                    } else {
                        "'e' (en passant)"
                    };
                    return Err(self.error(
                        first[0].0 + at,
                        format!(
                            "in the Betza description '{text}': {what} is for the pawn {PAWN} \
                             only, not for '{letter}'"
                        ),
                    ));
                }
            }
            let columns = vec![first[0].0; steps.len()];
            return self.checked(letter, letter_col, steps, Some(text), &columns);
        }
        for token in rest
            .split(|&(_, c)| c.is_whitespace())
            .filter(|t| !t.is_empty())
        {
            any_move = true;
            steps.extend(self.parse_move(token)?);
            columns.resize(steps.len(), token[0].0);
        }
        if !any_move {
            return Err(self.error(
                after_colon,
                format!(
                    "expected at least one move after '{letter}:' (such as '1,2,*'), found end of line"
                ),
            ));
        }
        self.checked(letter, letter_col, steps, None, &columns)
    }

    /// The line's piece, each step written at its column of `columns`, refused if it is the
    /// pawn and some move that does not capture goes anywhere but forward, or some capture
    /// goes back (a pawn's moves are irreversible, as its tables are built a pawn placement at
    /// a time, each from those its moves reach, and it never stands on its own first rank),
    /// or an e.p. capture goes where a quiet move goes.
    #[allow(clippy::type_complexity)]
    fn checked(
        &self,
        letter: char,
        letter_col: usize,
        steps: Vec<Step>,
        betza: Option<String>,
        columns: &[usize],
    ) -> Result<Option<(char, usize, Vec<Step>, Option<String>)>, PieceDefError> {
        if letter == PAWN {
            let backward = |s: &Step| (s.mode.moves() && s.dy <= 0) || s.dy < 0;
            if let Some((s, &column)) = steps.iter().zip(columns).find(|(s, _)| backward(s)) {
                let what = match s.mode.moves() {
                    true => "a move of the pawn P must go forward (towards its last rank)",
                    false => "a capture of the pawn P may not go back",
                };
                return Err(self.error(
                    column,
                    format!(
                        "{what}, and the step {},{} does not: a pawn's moves are irreversible \
                         and it never stands on its first rank; a man that moves otherwise \
                         takes another letter",
                        s.dx, s.dy
                    ),
                ));
            }
            // A quiet move onto the square of an e.p. capture is the same move in coordinates
            // (`e4e3`): the two could not be told apart.
            let reaches = |q: &Step, dx: i8, dy: i8| {
                let most = if q.range == 0 { 16 } else { q.range as i8 };
                (1..=most).any(|k| (q.dx * k, q.dy * k) == (dx, dy))
            };
            let quiet = |e: &Step| {
                steps
                    .iter()
                    .any(|q| q.mode.moves() && reaches(q, e.dx, e.dy))
            };
            if let Some((e, &column)) =
                (steps.iter().zip(columns)).find(|(e, _)| e.en_passant && quiet(e))
            {
                return Err(self.error(
                    column,
                    format!(
                        "an en-passant capture of the pawn P goes where one of its moves that \
                         do not capture goes, the step {},{}: a move such as e4e3 could not say \
                         which it is",
                        e.dx, e.dy
                    ),
                ));
            }
        }
        Ok(Some((letter, letter_col, steps, betza)))
    }

    /// One move, `dx,dy[,FLAGS]`, expanded into its steps.
    fn parse_move(&self, token: &[(usize, char)]) -> Result<Vec<Step>, PieceDefError> {
        let text: String = token.iter().map(|&(_, c)| c).collect();
        let start = token[0].0;
        let parts: Vec<&[(usize, char)]> = token.split(|&(_, c)| c == ',').collect();
        if parts.len() < 2 {
            return Err(self.error(
                start,
                format!("expected a move 'dx,dy' or 'dx,dy,flags', found '{text}'"),
            ));
        }
        if parts.len() > 3 {
            // Column of the third comma.
            let col = token
                .iter()
                .filter(|&&(_, c)| c == ',')
                .nth(2)
                .map_or(start, |&(c, _)| c);
            return Err(self.error(
                col,
                format!("too many ',' in move '{text}' (expected 'dx,dy' or 'dx,dy,flags')"),
            ));
        }
        // Column where each part starts (a part may be empty).
        let mut part_cols = vec![start];
        for &(col, c) in token {
            if c == ',' {
                part_cols.push(col + 1);
            }
        }
        let dx = self.parse_coordinate(parts[0], part_cols[0], "dx", &text)?;
        let dy = self.parse_coordinate(parts[1], part_cols[1], "dy", &text)?;
        if dx == 0 && dy == 0 {
            return Err(self.error(
                start,
                format!("expected a step that moves in move '{text}', found 0,0"),
            ));
        }
        let flags = match parts.get(2) {
            Some(part) => self.parse_flags(part, part_cols[2], &text)?,
            None => Flags::default(),
        };
        let range = if flags.slider {
            0
        } else {
            flags.range.unwrap_or(1)
        };
        let mode = if flags.capture_only {
            StepMode::CaptureOnly
        } else if flags.move_only {
            StepMode::MoveOnly
        } else {
            StepMode::Both
        };
        let base = Step::plain(dx, dy, range, mode);
        let images: Vec<Sym> = if flags.all8 {
            Sym::all().collect()
        } else if flags.mirrors4 {
            // Bits 0 and 1: file and rank mirrors, no transpose.
            (0..4u8).map(Sym).collect()
        } else {
            vec![Sym::IDENTITY]
        };
        Ok(images.into_iter().map(|g| base.transformed(g)).collect())
    }

    fn parse_coordinate(
        &self,
        part: &[(usize, char)],
        col: usize,
        name: &str,
        text: &str,
    ) -> Result<i8, PieceDefError> {
        let s: String = part.iter().map(|&(_, c)| c).collect();
        let digits = s.strip_prefix(['-', '+']).unwrap_or(&s);
        if digits.is_empty() || !digits.chars().all(|c| c.is_ascii_digit()) {
            let found = if s.is_empty() {
                "nothing".to_string()
            } else {
                format!("'{s}'")
            };
            return Err(self.error(
                col,
                format!("expected a whole number for {name} in move '{text}', found {found}"),
            ));
        }
        let too_big = || {
            self.error(
                col,
                format!(
                    "step {s} is too long in move '{text}' (expected {name} from -{MAX_STEP} to {MAX_STEP})"
                ),
            )
        };
        let magnitude: i64 = digits.parse().map_err(|_| too_big())?;
        if magnitude > i64::from(MAX_STEP) {
            return Err(too_big());
        }
        let value = magnitude as i8;
        Ok(if s.starts_with('-') { -value } else { value })
    }

    fn parse_flags(
        &self,
        part: &[(usize, char)],
        col: usize,
        text: &str,
    ) -> Result<Flags, PieceDefError> {
        const EXPECTED: &str = "expected a number, s, c, n, * or +";
        let mut flags = Flags::default();
        if part.is_empty() {
            return Err(self.error(
                col,
                format!("expected flags after the last ',' in move '{text}' ({EXPECTED}), found nothing"),
            ));
        }
        let mut i = 0;
        while i < part.len() && part[i].1.is_ascii_digit() {
            i += 1;
        }
        if i > 0 {
            let number: String = part[..i].iter().map(|&(_, c)| c).collect();
            match number.parse::<u8>() {
                Ok(n) if (1..=MAX_RANGE).contains(&n) => flags.range = Some(n),
                _ => {
                    return Err(self.error(
                        col,
                        format!(
                        "expected a range from 1 to {MAX_RANGE} in move '{text}', found {number}"
                    ),
                    ))
                }
            }
        }
        // Which flag letters were seen, for the duplicate and conflict messages.
        let mut seen = String::new();
        for &(c_col, c) in &part[i..] {
            let conflict = |other: char, why: &str| -> PieceDefError {
                self.error(
                    c_col,
                    format!(
                        "flags '{other}' and '{c}' cannot be combined in move '{text}' ({why})"
                    ),
                )
            };
            if seen.contains(c) {
                return Err(
                    self.error(c_col, format!("flag '{c}' is given twice in move '{text}'"))
                );
            }
            match c {
                's' => {
                    if let Some(n) = flags.range {
                        return Err(self.error(
                            c_col,
                            format!(
                                "range {n} and flag 's' cannot be combined in move '{text}' \
                                 (a number is a rider of at most N steps, s one without limit)"
                            ),
                        ));
                    }
                    flags.slider = true;
                }
                'c' | 'n' => {
                    let other = if c == 'c' { 'n' } else { 'c' };
                    if seen.contains(other) {
                        return Err(conflict(
                            other,
                            "c is capture only, n non-capture only; leave both out for both",
                        ));
                    }
                    if c == 'c' {
                        flags.capture_only = true;
                    } else {
                        flags.move_only = true;
                    }
                }
                '*' | '+' => {
                    let other = if c == '*' { '+' } else { '*' };
                    if seen.contains(other) {
                        return Err(conflict(other, "'*' already includes the 4 images of '+'"));
                    }
                    if c == '*' {
                        flags.all8 = true;
                    } else {
                        flags.mirrors4 = true;
                    }
                }
                d if d.is_ascii_digit() => {
                    return Err(self.error(
                        c_col,
                        format!("a range number must come first in the flags of move '{text}', found '{d}' after other flags"),
                    ));
                }
                other => {
                    return Err(self.error(
                        c_col,
                        format!("unknown flag '{other}' in move '{text}' ({EXPECTED})"),
                    ));
                }
            }
            seen.push(c);
        }
        Ok(flags)
    }
}

/// The flags of one move.
#[derive(Default)]
struct Flags {
    range: Option<u8>,
    slider: bool,
    capture_only: bool,
    move_only: bool,
    all8: bool,
    mirrors4: bool,
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(text: &str) -> Result<PieceSet, PieceDefError> {
        parse_piece_defs(text, "test.ini")
    }

    fn piece(text: &str, letter: char) -> PieceType {
        let set = parse(text).unwrap_or_else(|e| panic!("{e}"));
        set.get(letter)
            .cloned()
            .unwrap_or_else(|| panic!("no {letter}"))
    }

    fn step(dx: i8, dy: i8, range: u8, mode: StepMode) -> Step {
        Step::plain(dx, dy, range, mode)
    }

    /// Parses and expects an error at (line, column) whose message contains `needle`.
    fn expect_error(text: &str, line: usize, column: usize, needle: &str) {
        match parse(text) {
            Ok(_) => panic!("{text:?} parsed"),
            Err(e) => {
                let shown = e.to_string();
                assert_eq!(
                    (e.line(), e.column()),
                    (Some(line), Some(column)),
                    "{shown}"
                );
                assert!(
                    shown.starts_with(&format!("test.ini:{line}:{column}: ")),
                    "{shown}"
                );
                assert!(shown.contains(needle), "{shown:?} lacks {needle:?}");
                assert!(!shown.contains('\n'), "one line: {shown:?}");
            }
        }
    }

    #[test]
    fn the_shipped_file_parses_and_has_the_xboard_letters() {
        let set = PieceSet::standard();
        assert_eq!(set.letters(), "ABCDEFGHIJKMNOPQRTUWXYZ");
        let count = |l: char| set.get(l).map(|p| p.steps.len());
        assert_eq!(count('K'), Some(8));
        assert_eq!(count('Q'), Some(8));
        assert_eq!(count('N'), Some(8));
        assert_eq!(count('A'), Some(12));
        assert_eq!(count('Y'), Some(16));
        assert_eq!(count('O'), Some(8));
        assert_eq!(count('G'), Some(8));
        assert_eq!(count('U'), Some(8));
        assert_eq!(count('T'), Some(4));
        assert_eq!(count('P'), Some(4));
        assert_eq!(set.pawn(), set.id('P'));
        let h = set.get('H').map(|p| p.steps.clone()).unwrap_or_default();
        assert!(h
            .iter()
            .all(|s| s.range == 0 && (s.dx.abs(), s.dy.abs()) != (0, 0)));
        // The King is a plain 8-step leaper.
        let k = set.get('K').map(|p| p.steps.clone()).unwrap_or_default();
        assert!(k.iter().all(|s| s.range == 1 && s.mode == StepMode::Both));
    }

    #[test]
    fn a_leaper_without_flags() {
        let p = piece("X: 1,2", 'X');
        assert_eq!(p.steps, vec![step(1, 2, 1, StepMode::Both)]);
    }

    #[test]
    fn star_gives_8_images_of_1_2_and_4_of_1_1() {
        let n = piece("N: 1,2,*", 'N');
        assert_eq!(n.steps.len(), 8);
        for (dx, dy) in [
            (1, 2),
            (2, 1),
            (-1, 2),
            (-2, 1),
            (1, -2),
            (2, -1),
            (-1, -2),
            (-2, -1),
        ] {
            assert!(
                n.steps.contains(&step(dx, dy, 1, StepMode::Both)),
                "{dx},{dy}"
            );
        }
        let f = piece("F: 1,1,*", 'F');
        assert_eq!(f.steps.len(), 4);
        let w = piece("W: 0,1,*", 'W');
        assert_eq!(w.steps.len(), 4);
    }

    #[test]
    fn plus_gives_the_4_mirror_images() {
        let p = piece("Z: 2,1,+", 'Z');
        let mut want = vec![
            step(2, 1, 1, StepMode::Both),
            step(-2, 1, 1, StepMode::Both),
            step(2, -1, 1, StepMode::Both),
            step(-2, -1, 1, StepMode::Both),
        ];
        want.sort();
        assert_eq!(p.steps, want);
        // On a diagonal step the 4 mirror images are the 4 diagonals.
        assert_eq!(piece("F: 1,1,+", 'F').steps.len(), 4);
        // On an orthogonal one, only 2 distinct steps remain.
        assert_eq!(piece("V: 0,1,+", 'V').steps.len(), 2);
    }

    #[test]
    fn slider_range_and_modes() {
        assert_eq!(
            piece("R: 1,0,s", 'R').steps,
            vec![step(1, 0, 0, StepMode::Both)]
        );
        assert_eq!(
            piece("R: 1,0,3", 'R').steps,
            vec![step(1, 0, 3, StepMode::Both)]
        );
        assert_eq!(
            piece("R: 1,0,12c", 'R').steps,
            vec![step(1, 0, 12, StepMode::CaptureOnly)]
        );
        assert_eq!(
            piece("P: 0,1,n", 'P').steps,
            vec![step(0, 1, 1, StepMode::MoveOnly)]
        );
        assert_eq!(
            piece("P: -1,1,c", 'P').steps,
            vec![step(-1, 1, 1, StepMode::CaptureOnly)]
        );
        // Flags in any order after the number.
        let a = piece("X: 1,1,*sc", 'X');
        let b = piece("X: 1,1,cs*", 'X');
        assert_eq!(a.steps, b.steps);
        assert_eq!(a.steps.len(), 4);
        assert!(a
            .steps
            .iter()
            .all(|s| s.range == 0 && s.mode == StepMode::CaptureOnly));
        assert_eq!(piece("X: 1,0,2n+", 'X').steps.len(), 2);
        // A plus sign on a coordinate is accepted.
        assert_eq!(
            piece("X: +1,-2", 'X').steps,
            vec![step(1, -2, 1, StepMode::Both)]
        );
    }

    #[test]
    fn design_examples() {
        let x = piece("X: 1,1,c* 1,0,n*", 'X');
        assert_eq!(x.steps.len(), 8);
        assert_eq!(
            x.steps
                .iter()
                .filter(|s| s.mode == StepMode::CaptureOnly)
                .count(),
            4
        );
        let a = piece("A: 1,2,* 1,1,s*", 'A');
        assert_eq!(a.steps.len(), 12);
    }

    #[test]
    fn comments_blank_lines_and_case() {
        let text =
            "\u{feff}# heading\n\n  ; another comment\nn: 1,2,* # knight\r\nR :1,0,s*;rook\n\t\n";
        let set = parse(text).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(set.letters(), "NR");
        assert_eq!(set.get('N').map(|p| p.steps.len()), Some(8));
        assert_eq!(set.get('r').map(|p| p.steps.len()), Some(4));
    }

    #[test]
    fn steps_up_to_seven() {
        assert_eq!(
            piece("L: 7,-7", 'L').steps,
            vec![step(7, -7, 1, StepMode::Both)]
        );
        expect_error("L: 8,0", 1, 4, "step 8 is too long in move '8,0'");
        expect_error("L: 0,-9", 1, 6, "step -9 is too long");
        expect_error("L: 0,99999999999999999999999", 1, 6, "too long");
    }

    #[test]
    fn error_zero_step() {
        expect_error(
            "N: 1,2,*\nZ: 0,0,*",
            2,
            4,
            "expected a step that moves in move '0,0,*', found 0,0",
        );
    }

    #[test]
    fn error_unknown_flag_names_line_and_column() {
        let text = "K: 1,0,* 1,1,*\n\n\n\n\n\nN: 1,2,*   1,2,x";
        expect_error(
            text,
            7,
            16,
            "unknown flag 'x' in move '1,2,x' (expected a number, s, c, n, * or +)",
        );
        expect_error("N: 1,2,S", 1, 8, "unknown flag 'S'");
    }

    #[test]
    fn error_conflicting_or_repeated_flags() {
        expect_error("X: 1,0,3s", 1, 9, "range 3 and flag 's' cannot be combined");
        expect_error("X: 1,0,cn", 1, 9, "flags 'c' and 'n' cannot be combined");
        expect_error("X: 1,0,n*c", 1, 10, "flags 'n' and 'c' cannot be combined");
        expect_error("X: 1,0,*+", 1, 9, "flags '*' and '+' cannot be combined");
        expect_error("X: 1,0,ss", 1, 9, "flag 's' is given twice");
        expect_error("X: 1,0,s3", 1, 9, "a range number must come first");
    }

    #[test]
    fn error_bad_ranges() {
        expect_error(
            "X: 1,0,0",
            1,
            8,
            "expected a range from 1 to 99 in move '1,0,0', found 0",
        );
        expect_error("X: 1,0,100*", 1, 8, "found 100");
        expect_error("X: 1,0,99999999999", 1, 8, "expected a range from 1 to 99");
    }

    #[test]
    fn betza_lines_mean_the_same_steps_as_step_vectors() {
        for (betza, vectors) in [
            ("BN", "1,1,s* 1,2,*"),
            ("RN", "1,0,s* 1,2,*"),
            ("NN", "1,2,s*"),
            ("fmWfcF", "0,1,n 1,1,c -1,1,c"),
            ("W3", "1,0,3*"),
            ("WfF", "1,0,* 1,1 -1,1"),
        ] {
            let a = piece(&format!("X: {betza}  # comment"), 'X');
            let b = piece(&format!("X: {vectors}"), 'X');
            assert_eq!(a.steps, b.steps, "{betza}");
            assert_eq!(a.betza.as_deref(), Some(betza));
            assert_eq!(b.betza, None);
        }
        // Lower-case letters and a step-vector line beside a Betza line.
        let set = parse("o: mRcpR\nn: 1,2,*\nu: nN").unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(set.letters(), "NOU");
    }

    /// A pawn whose quiet moves go sideways or back, or whose captures go back, is refused
    /// where its moves start: its tables need its moves irreversible, and a capture back
    /// could put it on its first rank.
    #[test]
    fn a_pawn_moves_forward() {
        let quiet = "a move of the pawn P must go forward (towards its last rank), and the step";
        expect_error("P: mWfcF", 1, 4, &format!("{quiet} -1,0 does not"));
        expect_error(
            "K: K\nP:  fmWsmWfcF",
            2,
            5,
            &format!("{quiet} -1,0 does not"),
        );
        expect_error("P: fmWbmF", 1, 4, &format!("{quiet} -1,-1 does not"));
        expect_error("P: 0,1,n 1,1,*", 1, 10, &format!("{quiet} 1,-1 does not"));
        expect_error(
            "P: fmWcF",
            1,
            4,
            "a capture of the pawn P may not go back, and the step -1,-1 does not",
        );
        // An e.p. capture where a quiet move goes (straight ahead, or the ride's first step).
        let ep = "an en-passant capture of the pawn P goes where one of its moves that do not \
                  capture goes, the step 0,1:";
        expect_error("P: fmWfceW", 1, 4, ep);
        expect_error("P: fmRfceWfcF", 1, 4, ep);
        // Forward in every way, and captures sideways, are a pawn's.
        for pawn in [
            "fmWfceFifmnD",
            "fmFfceWifmnA",
            "fmRfcF",
            "fWscW",
            "0,1,n 1,1,c -1,1,c",
        ] {
            let set = parse(&format!("P: {pawn}")).unwrap_or_else(|e| panic!("{pawn}: {e}"));
            assert!(set.get('P').is_some(), "{pawn}");
        }
    }

    #[test]
    fn error_in_a_betza_line_names_its_column() {
        expect_error(
            "X: BaN",
            1,
            5,
            "in the Betza description 'BaN': 'a' is a modifier",
        );
        expect_error("\nX:  fmO", 2, 7, "found 'O'");
        expect_error("X: nC", 1, 4, "no agreed path");
        expect_error(
            "X: fmWfceF",
            1,
            9,
            "'e' (en passant) is for the pawn P only, not for 'X'",
        );
        expect_error(
            "\n\nK: KifmnD",
            3,
            5,
            "'i' (initial move) is for the pawn P",
        );
        expect_error(
            "L: fmWifmnD",
            1,
            7,
            "'i' (initial move) is for the pawn P only, not for 'L'",
        );
        expect_error("P: fmeF", 1, 6, "goes with 'c'");
        assert!(parse("p: fmFfceWifmnA").is_ok());
        expect_error(
            "X: BN R",
            1,
            7,
            "expected one Betza description after 'X:' (such as 'BN'), found a second word 'R'",
        );
    }

    #[test]
    fn error_malformed_numbers() {
        expect_error(
            "X: a,1",
            1,
            4,
            "expected a whole number for dx in move 'a,1', found 'a'",
        );
        expect_error(
            "X: 1,",
            1,
            6,
            "expected a whole number for dy in move '1,', found nothing",
        );
        expect_error("X: ,1", 1, 4, "for dx in move ',1', found nothing");
        expect_error("X: 1,-", 1, 6, "found '-'");
        expect_error("X: 1,2.5", 1, 6, "found '2.5'");
        expect_error("X: --1,2", 1, 4, "found '--1'");
    }

    #[test]
    fn error_move_shapes() {
        expect_error(
            "X: 12",
            1,
            4,
            "expected a move 'dx,dy' or 'dx,dy,flags', found '12'",
        );
        expect_error("X: 1,2,*,s", 1, 9, "too many ',' in move '1,2,*,s'");
        expect_error(
            "X: 1,2,",
            1,
            8,
            "expected flags after the last ',' in move '1,2,'",
        );
    }

    #[test]
    fn error_missing_colon_and_bad_letters() {
        expect_error(
            "N 1,2,*",
            1,
            3,
            "expected ':' after the piece letter 'N', found '1'",
        );
        expect_error(
            "NN: 1,2,*",
            1,
            2,
            "found 'N' (a piece is named by a single letter)",
        );
        expect_error(
            "  Q",
            1,
            4,
            "expected ':' after the piece letter 'Q', found end of line",
        );
        expect_error(
            "1: 1,2",
            1,
            1,
            "expected a piece letter A-Z at the start of the line, found '1'",
        );
        expect_error("\n  é: 1,2", 2, 3, "found 'é'");
        expect_error(": 1,2", 1, 1, "found ':'");
    }

    #[test]
    fn error_empty_move_list() {
        expect_error("N:", 1, 3, "expected at least one move after 'N:'");
        expect_error("N:    # nothing", 1, 3, "found end of line");
    }

    #[test]
    fn error_letter_defined_twice_names_both_lines() {
        expect_error(
            "N: 1,2,*\nB: 1,1,s*\n\n n: 2,1,*",
            4,
            2,
            "piece 'N' is defined twice: on line 1 and again on line 4",
        );
    }

    #[test]
    fn error_no_pieces() {
        expect_error("", 1, 1, "expected at least one piece definition");
        expect_error("# only\n; comments\n", 2, 1, "found none");
    }

    #[test]
    fn unreadable_file_names_path_and_reason() {
        let path = Path::new("/nonexistent-dir-fairy-egt/piecedef.ini");
        let err = load_piece_file(path)
            .err()
            .map(|e| e.to_string())
            .unwrap_or_default();
        assert!(
            err.starts_with("/nonexistent-dir-fairy-egt/piecedef.ini: cannot read"),
            "{err}"
        );
        assert!(err.contains("No such file"), "{err}");
    }

    #[test]
    fn loads_the_shipped_file_from_disk() {
        let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("piecedef.ini");
        let set = load_piece_file(&path).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(set.letters(), PieceSet::standard().letters());
    }
}
