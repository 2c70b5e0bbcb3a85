//! The XBoard / WinBoard protocol (CECP v2), as `docs/PROTOCOL.md` describes what XBoard
//! 4.9 and python-chess send and expect.
//!
//! Thinking output is `ply score time nodes pv`. Under the DTM metric the score of a win in N
//! moves is `100000+N` and of a loss in N moves `-100000-N` (XBoard shows `#N`, python-chess
//! `Mate(N)`); a draw is 0. Under DTC a distance counts moves to a conversion, not to mate, so
//! the score is a plain number instead: `10000-N` for a win, `-(10000-N)` for a loss. Build
//! progress is shown as thinking output whose pv is a comment in parentheses.
//!
//! Options (`feature option=…`, set by `option NAME=VALUE`): `Metric` (combo dtm/dtc/dtz),
//! `RuleMoves` (spin: the rule of DTZ tables), `Threads` (spin), `TableMemory` (spin, MB; 0
//! keeps the start-up budget), `Endgame` (string: the start-up endgame), `Promotion` (string: the promotion pieces, empty for the board's
//! list), `NullMove` (combo none/white/black/both), `StalemateWins` and
//! `BareKingLoses` (checkboxes, 1/0). A change of any but `Threads` and `TableMemory` rebuilds
//! the tables.
//!
//! Pieces: a `setup` command gives each letter of the piece set one of XBoard's piece types
//! (and so its image), so that XBoard reads FENs with letters its `variant fairy` lacks; it
//! goes out in the handshake and in reply to `variant fairy`, followed there by a `piece`
//! command with the Betza description of each piece XBoard would not move as ours. A pawn that
//! is not XBoard's own (the Berolina pawn) is described in reply to every variant, and XBoard's
//! `berolina` is then offered; XBoard 4.9.1 takes that line in `fairy` and `berolina` (with
//! legality testing on), not in `normal`, for which it sends no `variant` anyway.
//!
//! Boards other than 8×8, as XBoard 4.9.1's own source has them (backend.c unless named):
//! - `SupportedVariant` decides whether an engine plays a board: when it is not the variant's
//!   own (`NonStandardBoardSize`: 8×8 without holdings for `fairy`, 10×8 for `capablanca` and
//!   `gothic`), it builds the name `WxH+S_variant` (S: holdings), e.g. `10x8+0_fairy`, and
//!   needs it as a whole comma-separated item of `feature variants`. The spec's `boardsize`
//!   item does not suffice in 4.9.1 (the exact name is looked up after it all the same), and a
//!   name XBoard does not know shows as a button of its own in the New Variant dialog
//!   (`EngineDefinedVariant`): so every size 3×3 … 16×16 but 8×8 is listed by name (about
//!   2.7 KB on one line; XBoard reads lines of up to 8192 bytes, gtk/xboard.c's
//!   `INPUT_SOURCE_BUF_SIZE`, WinBoard 4096; it allows 16 files and 17 ranks, common.h).
//! - `InitChessProgram` then sends `variant 10x8+0_fairy` (for `-variant fairy -boardWidth 10
//!   -boardHeight 8`), `variant capablanca` for `-variant capablanca`; an unlisted size gets
//!   "Board size 10x8+0 not supported by …" and XBoard falls back to the list's first variant.
//! - `HandleMachineMove` takes `setup (PIECETOCHAR) WxH+S_parent FEN` only from the first
//!   engine before the first move, and only with legality testing off, in `fairy`, or on a
//!   board not the variant's own: in `capablanca`/`gothic` with legality testing on it and
//!   `piece` are ignored (their A and C, Archbishop and Chancellor, are ours; `janus` calls its
//!   Archbishop J, our Dragon, so it is not offered). A size unlike XBoard's board makes it
//!   switch to that board and parent variant and take the FEN as start position; on the same
//!   board a position already loaded (`-lpf`, `-fen`) stays.
//! - Ranks: on a board 10 ranks high XBoard numbers them from 0 (common.h's `ONE`), in moves
//!   and edit commands; elsewhere from 1, two digits past 9 (`SendMoveToProgram`: `a10a1`).
//!   The engine numbers from 1 on every board: on 10 ranks its XBoard side shifts each rank
//!   number of moves and edit squares by one, both ways.
//!
//! XBoard's own `memory N` is its hash-size setting for every engine (64 MB unless the user
//! changed it), not a limit meant for tables: it is accepted and logged, and limits nothing.
//!
//! Threads: the `Threads` option (start-up value `--threads`, `engine.ini`'s `threads`; 0 = one
//! per core) is the one setting of the build threads, for the start-up build and every later
//! one, and what Engine Settings shows is what is in force. The engine announces no `smp=1`,
//! so XBoard sends no `cores N` (its `-smpCores`, 1 unless the user changed it, meant for a
//! search's threads): it came after the handshake, when the start-up build had started on
//! every core and XBoard's dialog could no longer show the change (XBoard 4.9.1 adds an
//! option sent again as a second one), and it made later builds use one thread while the
//! dialog said 0. A `cores` sent all the same is accepted, logged, and changes nothing.

use super::{one_line, Input, Protocol, MAX_TABLE_MEMORY, MAX_THREADS};
use crate::board::promotion::default_letters;
use crate::board::size::square_name_parts;
use crate::board::{BoardSize, Color, Move, Setup};
use crate::config::parse_rule_moves;
use crate::config::{promotion_letters, PromotionLettersError};
use crate::egt::dtz::MAX_RULE_MOVES;
use crate::egt::progress::BuildEvent;
use crate::egt::rules::NullMove;
use crate::egt::table::Metric;
use crate::egt::value::Value;
use crate::engine::game::standard_start;
use crate::engine::{Command, Event, Options, Thinking, Unplayable, Variant};
use crate::piece::betza::try_betza;
use crate::piece::{PieceSet, PieceType, PAWN};
use crate::symmetry::Sym;
use std::path::PathBuf;

/// Where each letter goes among XBoard 4.9's piece types, by the type's place in XBoard's
/// internal order (common.h's `ChessSquare`, White's half: `WhitePawn` = 0 … `WhiteKing` =
/// 68), which is its place in the PIECETOCHAR string of a `setup` command. The 22 letters of
/// XBoard's own `variant fairy` keep their types; the four letters it leaves free go to the
/// type whose image (draw.c's `pngPieceNames`, else its `backupPiece`) shows our piece.
/// Every letter A-Z has a place, so any piece of a piece file can be shown.
const XBOARD_TYPES: [(char, usize); 26] = [
    ('P', 0),  // Pawn
    ('N', 1),  // Knight
    ('B', 2),  // Bishop
    ('R', 3),  // Rook
    ('Q', 4),  // Queen
    ('F', 5),  // Ferz: image Advisor
    ('E', 6),  // Alfil: image Elephant
    ('A', 7),  // Angel: image Archbishop
    ('C', 8),  // Marshall: image Marshall (the Chancellor)
    ('W', 9),  // Wazir: image Gold
    ('M', 10), // Man: image Commoner
    ('O', 11), // Cannon: image Canon
    ('H', 12), // Nightrider
    ('I', 13), // Cardinal: image CrownedBishop (the Dragon Horse)
    ('J', 14), // Dragon: image CrownedRook (the Dragon King)
    ('G', 15), // Grasshopper: image Crown, which 4.9 lacks, so Princess
    ('D', 16), // Silver: image Chancellor
    ('V', 17), // Falcon: image Hawk
    ('L', 18), // Lance
    ('S', 19), // Cobra
    ('U', 20), // Unicorn: a horse, for the Xiangqi horse
    ('Z', 23), // Zebra
    ('X', 24), // Camel
    ('Y', 29), // Amazon: XBoard 4.9 has no Amazon image and draws its Lance (a spear)
    ('T', 53), // Drunk (Chu Shogi's drunk elephant): image Drunk, which 4.9 lacks, so Elephant
    ('K', XBOARD_KING),
];

/// XBoard's King type, the last of White's types: the one it treats as royal.
const XBOARD_KING: usize = 68;

/// The letters XBoard always gets, whether the piece file defines them or not: the
/// standard start position, which XBoard and the engine both assume after `new`, uses them.
const ORTHODOX_LETTERS: &str = "PNBRQK";

/// The pieces whose XBoard type already moves as ours do (Betza text equal to the letter):
/// they need no `piece` command.
const BUILT_IN_PIECES: &str = "NBRQK";

/// XBoard's own pawn, as Betza writes ours when it moves as XBoard's does: it needs no `piece`
/// command.
const XBOARD_PAWN: &str = "fmWfceFifmnD";

/// The name of our table format in `feature egt` and `egtpath` (XBoard's `-egtFormats`).
pub const EGT_FORMAT: &str = "fairy-egt";

/// Words that make XBoard switch a feature off when an `Error` line contains them.
const ERROR_TRIGGERS: [&str; 5] = ["draw", "analyze", "protover", "time", "otim"];

/// The XBoard side of a session.
pub struct XBoard {
    pieces: PieceSet,
    name: String,
    /// `Some(colour of the men placed)` in edit mode.
    edit: Option<Color>,
    /// The features were sent: thinking-style progress may follow.
    handshake_done: bool,
    /// `Some(1)` while the board is 10 ranks high, where XBoard numbers ranks from 0: what
    /// its rank numbers need to be the engine's.
    rank_shift: Option<i32>,
}

impl XBoard {
    /// The protocol for an engine of these pieces, named after its start-up endgame.
    pub fn new(pieces: PieceSet, endgame: &str) -> XBoard {
        XBoard {
            pieces,
            name: format!("fairy-egt {} {endgame}", env!("CARGO_PKG_VERSION")),
            edit: None,
            handshake_done: false,
            rank_shift: None,
        }
    }

    /// The `feature` lines answering `protover 2`, the last with `done=1`: the options show
    /// their values in force.
    fn features(&self, options: &Options) -> Vec<String> {
        let combo = |m: Metric| {
            let star = if m.name() == options.metric.name() {
                "*"
            } else {
                ""
            };
            format!("{star}{}", m.name())
        };
        vec![
            "feature ping=1 setboard=1 usermove=1 playother=1 san=0 colors=0 sigint=0 \
             sigterm=0 reuse=1 analyze=1 memory=1 debug=1 draw=1"
                .to_string(),
            // XBoard sends `egtpath fairy-egt DIR` for `-egtFormats "fairy-egt:DIR"`, before `new`.
            format!("feature egt=\"{EGT_FORMAT}\""),
            format!(
                "feature myname=\"{}\" variants=\"{}\"",
                self.name,
                variants(own_pawn(&self.pieces))
            ),
            format!(
                "feature option=\"Metric -combo {} /// {} /// {}\"",
                combo(Metric::Dtm),
                combo(Metric::Dtc),
                combo(Metric::Dtz(crate::egt::dtz::Rule::default()))
            ),
            format!(
                "feature option=\"Threads -spin {} 0 {MAX_THREADS}\"",
                options.threads
            ),
            format!("feature option=\"TableMemory -spin 0 0 {MAX_TABLE_MEMORY}\""),
            format!(
                "feature option=\"RuleMoves -spin {} 0 {MAX_RULE_MOVES}\"",
                options.rule_moves
            ),
            format!("feature option=\"Endgame -string {}\"", options.endgame),
            format!(
                "feature option=\"Promotion -string {}\"",
                promotion_shown(options, &self.pieces)
            ),
            format!(
                "feature option=\"NullMove -combo {}\"",
                [
                    NullMove::None,
                    NullMove::White,
                    NullMove::Black,
                    NullMove::Both
                ]
                .map(|n| {
                    let star = if n == options.rules.null_move {
                        "*"
                    } else {
                        ""
                    };
                    format!("{star}{n}")
                })
                .join(" /// ")
            ),
            format!(
                "feature option=\"StalemateWins -check {}\"",
                u8::from(options.rules.stalemate_wins)
            ),
            format!(
                "feature option=\"BareKingLoses -check {}\"",
                u8::from(options.rules.bare_royal_loses)
            ),
            // Before done=1, XBoard reads it before it loads a position file (-lpf) or a FEN
            // given on its command line: in reply to `variant fairy` it comes too late for
            // those. Without the board size and parent variant, XBoard never changes variant
            // for it; it ignores it in a variant it knows when legality testing is on.
            setup_line(&self.pieces, options.board, false),
            "feature done=1".to_string(),
        ]
    }

    /// A line in edit mode, on `board`.
    fn edit_line(&mut self, line: &str, color: Color, board: BoardSize) -> Vec<Input> {
        let b = line.as_bytes();
        let square = || board.parse_square(line.get(1..)?);
        let cmd = match line {
            "#" => Command::EditClear,
            "c" => {
                self.edit = Some(color.flip());
                return vec![];
            }
            "." => {
                self.edit = None;
                Command::EditEnd
            }
            _ if b[0] == b'x' && square().is_some() => {
                Command::EditEmpty(square().expect("checked"))
            }
            _ if b[0].is_ascii_uppercase() && square().is_some() => Command::EditPlace {
                square: square().expect("checked"),
                color,
                letter: b[0] as char,
            },
            _ => {
                return vec![rejected(
                    "edit mode: expected #, c, ., a piece letter and square such as Ka1, or x and a square",
                    line,
                )]
            }
        };
        vec![Input::Engine(cmd)]
    }

    /// `option NAME=VALUE`.
    fn option(&self, arg: &str) -> Input {
        let Some((name, value)) = arg.split_once('=') else {
            return rejected("bad option, expected NAME=VALUE", arg);
        };
        let value = value.trim();
        let cmd = match name.trim().to_ascii_lowercase().as_str() {
            "metric" => match value.parse::<Metric>() {
                Ok(m) => Command::Metric(m),
                Err(e) => return rejected("bad option value", &format!("{arg}: {e}")),
            },
            "threads" => match value.parse::<usize>() {
                Ok(n) if n <= MAX_THREADS => Command::Threads(n),
                _ => {
                    return rejected(
                        "bad option value",
                        &format!("{arg}: expected a whole number from 0 to {MAX_THREADS}"),
                    )
                }
            },
            "rulemoves" => match parse_rule_moves(value) {
                Some(n) => Command::RuleMoves(n),
                None => {
                    return rejected(
                        "bad option value",
                        &format!(
                            "{arg}: expected a whole number of moves from 0 (no rule) to \
                             {MAX_RULE_MOVES}"
                        ),
                    )
                }
            },
            "tablememory" => match value.parse::<u64>() {
                Ok(mb) if mb <= MAX_TABLE_MEMORY => Command::TableMemory(mb),
                _ => {
                    return rejected(
                        "bad option value",
                        &format!(
                            "{arg}: expected megabytes from 0 (the start-up budget) to \
                         {MAX_TABLE_MEMORY}"
                        ),
                    )
                }
            },
            "endgame" => Command::Endgame(value.to_string()),
            "promotion" => match promotion_value(value) {
                Ok(letters) => Command::Promotion(letters),
                Err(e) => return rejected("bad option value", &format!("{arg}: {e}")),
            },
            "nullmove" => match value.parse::<NullMove>() {
                Ok(n) => Command::NullMove(n),
                Err(e) => return rejected("bad option value", &format!("{arg}: {e}")),
            },
            "stalematewins" | "barekingloses" => {
                let on = match value {
                    "1" | "true" => true,
                    "0" | "false" => false,
                    _ => return rejected("bad option value", &format!("{arg}: expected 1 or 0")),
                };
                if name.trim().eq_ignore_ascii_case("stalematewins") {
                    Command::StalemateWins(on)
                } else {
                    Command::BareRoyalLoses(on)
                }
            }
            _ => return rejected("unknown option", name),
        };
        Input::Engine(cmd)
    }
}

/// The promotion letters an option shows: the user's, else the board's default list less the
/// letters the pieces do not define.
pub(crate) fn promotion_shown(options: &Options, pieces: &PieceSet) -> String {
    match &options.promotion {
        Some(letters) => letters.clone(),
        None => default_letters(options.board)
            .chars()
            .filter(|&l| pieces.get(l).is_some())
            .collect(),
    }
}

/// The value of a `Promotion` option: upper-case letters, or `None` (the board's default
/// list) for an empty value, `<empty>` or `default`. Only the form is checked here (the engine
/// checks the letters against the pieces and the endgame).
pub(crate) fn promotion_value(value: &str) -> Result<Option<String>, PromotionLettersError> {
    match value.trim() {
        "" | "<empty>" => Ok(None),
        v if v.eq_ignore_ascii_case("default") => Ok(None),
        v => promotion_letters(v).map(Some),
    }
}

/// The PIECETOCHAR string of a `setup` command: for each of XBoard's piece types up to the
/// last one in play, then for the King, White's letter or `.` for a type not in play; then
/// the same in lower case for Black. In play are the letters of the piece set and the
/// orthodox ones (see [`ORTHODOX_LETTERS`]).
fn piece_to_char(pieces: &PieceSet) -> String {
    let mut table = ['.'; XBOARD_KING + 1];
    for (letter, at) in XBOARD_TYPES {
        if pieces.get(letter).is_some() || ORTHODOX_LETTERS.contains(letter) {
            table[at] = letter;
        }
    }
    let last = table[..XBOARD_KING]
        .iter()
        .rposition(|&c| c != '.')
        .unwrap_or(0);
    let white: String = table[..=last]
        .iter()
        .chain(std::iter::once(&table[XBOARD_KING]))
        .collect();
    format!("{white}{}", white.to_ascii_lowercase())
}

/// The `setup` command that tells XBoard which letter is which of its piece types, with the
/// board's start position (the engine's position after `new`) as the variant's initial one.
/// With `size`, also the board (e.g. `10x8`, no holdings) and the parent variant, `fairy`:
/// the form XBoard's protocol gives for a reply to `variant`.
fn setup_line(pieces: &PieceSet, board: BoardSize, size: bool) -> String {
    let size = if size {
        format!("{board}+0_fairy ")
    } else {
        String::new()
    };
    let start = standard_start(board).to_fen();
    format!("setup ({}) {size}{start}", piece_to_char(pieces))
}

/// Whether the piece set's pawn is one XBoard does not know as its own pawn (the Berolina
/// pawn): it is then described with a `piece` command, and XBoard's `berolina` is offered.
fn own_pawn(pieces: &PieceSet) -> bool {
    pieces.get(PAWN).is_some_and(|p| !piece_lines(p).is_empty())
}

/// The `variants` feature: `normal`, `fairy`, `berolina` when the pawn is not XBoard's own
/// (XBoard 4.9 takes a `piece` command in `berolina` and `fairy` with legality testing on,
/// never in `normal`, and sends no `variant` command for `normal` at all), the 10×8 variants
/// whose Archbishop and Chancellor are our A and C, and `fairy` on every other board by its
/// sized name (`3x3+0_fairy` … `16x16+0_fairy`), the only form XBoard 4.9 accepts (see the
/// module doc).
fn variants(own_pawn: bool) -> String {
    use crate::board::size::{MAX_SIDE, MIN_SIDE};
    let sides = MIN_SIDE..=MAX_SIDE;
    let sized = sides.clone().flat_map(|w| {
        sides
            .clone()
            .filter(move |&h| (w, h) != (8, 8))
            .map(move |h| format!("{w}x{h}+0_fairy"))
    });
    let berolina = own_pawn.then(|| "berolina".to_string());
    ["normal", "fairy"]
        .map(String::from)
        .into_iter()
        .chain(berolina)
        .chain(["capablanca", "gothic"].map(String::from))
        .chain(sized)
        .collect::<Vec<_>>()
        .join(",")
}

/// The variant and board of XBoard's `variant` argument: `normal` and `fairy` (8×8),
/// `WxH+0_fairy` (or `WxH_fairy`) for fairy pieces on another board, and the 10×8 variants
/// whose Archbishop and Chancellor are our A and C (`capablanca`, `gothic`; not `janus`,
/// whose Archbishop is XBoard's J).
fn read_variant(arg: &str) -> Option<(Variant, BoardSize)> {
    match arg {
        // XBoard's own pieces on 8×8; in `berolina` its pawn is the Berolina pawn, which the
        // engine's pawn then is (see `variants`).
        "normal" | "berolina" => return Some((Variant::Normal, BoardSize::STANDARD)),
        "fairy" => return Some((Variant::Fairy, BoardSize::STANDARD)),
        "capablanca" | "gothic" => return Some((Variant::Capablanca, BoardSize::new(10, 8).ok()?)),
        _ => {}
    }
    let (size, parent) = arg.split_once('_')?;
    let size = size.strip_suffix("+0").unwrap_or(size);
    (parent == "fairy").then_some(())?;
    Some((Variant::Fairy, size.parse().ok()?))
}

/// The `piece` commands that tell XBoard how a piece moves, in Betza notation, so that its
/// legality test, target-square marking and SAN know it; none for a piece XBoard's type for
/// its letter already moves as (the orthodox ones). XBoard turns White's description half a
/// turn for Black, we mirror it top to bottom: the same for a piece that is symmetric left to
/// right (`piece Y& QN` then describes both); for any other, Black gets its own command (a
/// lower-case letter), describing White's moves mirrored left to right, which XBoard's half
/// turn brings to ours. A piece whose moves Betza cannot write gets a debug line instead.
fn piece_lines(piece: &PieceType) -> Vec<String> {
    let letter = piece.letter;
    let white = match try_betza(piece) {
        Ok(text) => text,
        Err(e) => return vec![format!("# XBoard is not told how {letter} moves: {e}")],
    };
    if BUILT_IN_PIECES.contains(letter) && white == letter.to_string()
        || letter == PAWN && white == XBOARD_PAWN
    {
        return vec![];
    }
    let mirrored = PieceType::new(
        letter,
        piece
            .steps
            .iter()
            .map(|s| s.transformed(Sym::FLIP_FILES))
            .collect(),
    );
    if mirrored.steps == piece.steps {
        return vec![format!("piece {letter}& {white}")];
    }
    match try_betza(&mirrored) {
        Ok(black) => vec![
            format!("piece {letter} {white}"),
            format!("piece {} {black}", letter.to_ascii_lowercase()),
        ],
        Err(e) => vec![format!("# XBoard is not told how {letter} moves: {e}")],
    }
}

/// A refusal of a line that does not parse, answered at once (no command reaches the
/// engine).
fn rejected(kind: &str, detail: &str) -> Input {
    Input::Reply(one_line(&error_line(kind, detail)))
}

/// The `Error` line of a refusal.
fn error_line(kind: &str, detail: &str) -> String {
    format!("Error ({}): {}", error_safe(kind), error_safe(detail))
}

/// The line that says why a position cannot be played.
fn not_playable_line(reason: &dyn std::fmt::Display) -> String {
    format!("tellusererror fairy-egt cannot play this position: {reason}")
}

/// The line that gives the game up for `side`, which the engine cannot play: a claim of
/// `side`'s loss with the reason as its comment. XBoard ends the game on it, stops the clocks
/// and shows the comment in its message line, reason first (it accepts a claim of one's own
/// loss unchecked, also in Two Machines mode, where a false draw claim would forfeit); a bare
/// `resign` would end it the same way but say only "White resigns". Braces in the reason would
/// end the comment early: they become parentheses.
fn resign_line(side: Color, reason: &Unplayable) -> String {
    let (result, name) = match side {
        Color::White => ("0-1", "White"),
        Color::Black => ("1-0", "Black"),
    };
    let reason = reason.to_string().replace('{', "(").replace('}', ")");
    format!("{result} {{{name} resigns: {reason}}}")
}

/// What XBoard's rank numbers need to be the engine's on `board`: XBoard numbers the ranks
/// of a board 10 high from 0 (common.h's `ONE`), every other board from 1 like the engine.
fn xboard_rank_shift(board: BoardSize) -> Option<i32> {
    (board.ranks() == 10).then_some(1)
}

/// `text` with every number in it (the ranks of a move or square) changed by `by`.
fn shift_ranks(text: &str, by: Option<i32>) -> String {
    let Some(by) = by else {
        return text.to_string();
    };
    let mut out = String::with_capacity(text.len() + 1);
    let mut digits = String::new();
    let flush = |digits: &mut String, out: &mut String| {
        if !digits.is_empty() {
            match digits.parse::<i32>() {
                Ok(n) => out.push_str(&(n + by).to_string()),
                Err(_) => out.push_str(digits),
            }
            digits.clear();
        }
    };
    for c in text.chars() {
        if c.is_ascii_digit() {
            digits.push(c);
        } else {
            flush(&mut digits, &mut out);
            out.push(c);
        }
    }
    flush(&mut digits, &mut out);
    out
}

/// A move as XBoard writes it on the move's board (see [`xboard_rank_shift`]).
fn xboard_move(m: &Move) -> String {
    shift_ranks(&m.text(), xboard_rank_shift(m.board).map(|by| -by))
}

/// Whether a word looks like a move in coordinate notation (`e2e4`, `a7a8q`) or a drop
/// (`Q@e4`): such words are moves, legal or not, never unknown commands.
fn looks_like_move(word: &str) -> bool {
    // Any square name, of any board (ranks from 0 on boards 10 high): the text after it.
    let square = |s| square_name_parts(s).map(|(_, _, rest)| rest);
    let coords = square(word).and_then(square).is_some_and(|rest| {
        rest.is_empty() || (rest.len() == 1 && rest.as_bytes()[0].is_ascii_alphabetic())
    });
    let b = word.as_bytes();
    let drop = b.len() >= 4
        && b[1] == b'@'
        && b[0].is_ascii_alphabetic()
        && square(&word[2..]) == Some("");
    coords || drop
}

/// Whether an argument is a (possibly signed, possibly fractional) number.
fn is_number(s: &str) -> bool {
    s.parse::<f64>().is_ok_and(f64::is_finite)
}

/// Checks the arguments of the time-control commands, which are otherwise ignored (every
/// move is instant).
fn clock_args_ok(cmd: &str, arg: &str) -> bool {
    let words: Vec<&str> = arg.split_whitespace().collect();
    match cmd {
        "level" => {
            words.len() == 3
                && words[0].parse::<u32>().is_ok()
                && words[1].split(':').count() <= 2
                && words[1].split(':').all(is_number)
                && is_number(words[2])
        }
        "sd" => words.len() == 1 && words[0].parse::<u32>().is_ok(),
        _ => words.len() == 1 && is_number(words[0]),
    }
}

/// Text for an `Error` line that XBoard cannot mistake for "this feature is missing": every
/// trigger word (any case) gets an underscore after its first letter.
pub fn error_safe(text: &str) -> String {
    let mut s = text.to_string();
    loop {
        let lower = s.to_ascii_lowercase();
        let Some(at) = ERROR_TRIGGERS.iter().filter_map(|w| lower.find(w)).min() else {
            return s;
        };
        s.insert(at + 1, '_');
    }
}

/// The score of a value in XBoard's convention (see the module doc).
pub fn score(value: Value, metric: Metric) -> i64 {
    let d = |d: u16| i64::from(d);
    match (value, metric) {
        (Value::Win(n), Metric::Dtm) => 100_000 + d(n),
        (Value::Loss(n), Metric::Dtm) => -100_000 - d(n),
        (Value::Win(n), Metric::Dtc) => 10_000 - d(n),
        (Value::Loss(n), Metric::Dtc) => -(10_000 - d(n)),
        (Value::Draw, _) => 0,
        (v, Metric::Dtz(rule)) => rule.centipawns(v),
    }
}

/// A thinking line.
fn thinking_line(t: &Thinking) -> String {
    let pv = match &t.end {
        Some(end) => format!("(game over: {end})"),
        None => {
            let moves: Vec<String> = t.pv.iter().map(xboard_move).collect();
            moves.join(" ")
        }
    };
    format!(
        "{} {} {} {} {pv}",
        t.pv.len(),
        t.rule_score().unwrap_or_else(|| score(t.value, t.metric)),
        t.centis,
        t.nodes
    )
}

impl Protocol for XBoard {
    fn read(&mut self, line: &str, options: &Options) -> Vec<Input> {
        let line = line.trim();
        if line.is_empty() {
            return vec![];
        }
        self.rank_shift = xboard_rank_shift(options.board);
        let (word, arg) = match line.split_once(char::is_whitespace) {
            Some((w, a)) => (w, a.trim()),
            None => (line, ""),
        };
        // In edit mode only `ping` (a GUI may wait for its pong at any time) and `quit` keep
        // their meaning.
        if let Some(color) = self.edit.filter(|_| word != "ping" && word != "quit") {
            let line = shift_ranks(line, self.rank_shift);
            return self.edit_line(&line, color, options.board);
        }
        let cmd = match word {
            "xboard" | "accepted" | "rejected" | "?" | "hard" | "easy" | "random" | "computer"
            | "name" | "rating" | "ics" | "nps" => return vec![],
            "egtpath" => match arg.split_once(char::is_whitespace) {
                Some((EGT_FORMAT, dir)) => Command::TableDir(Some(PathBuf::from(dir.trim()))),
                None if arg == EGT_FORMAT => {
                    return vec![rejected(
                        "bad argument",
                        &format!("{line}: expected a directory"),
                    )]
                }
                // Another engine's tables (XBoard sends a path for each format both name).
                _ => {
                    log::info!("{line}: not a format of ours ({EGT_FORMAT})");
                    return vec![];
                }
            },
            "protover" => {
                if arg.parse::<u32>().is_ok_and(|v| v >= 2) {
                    self.handshake_done = true;
                    return self
                        .features(options)
                        .into_iter()
                        .map(Input::Reply)
                        .collect();
                }
                return vec![];
            }
            "quit" => return vec![Input::Quit],
            "level" | "st" | "sd" | "time" | "otim" => {
                if clock_args_ok(word, arg) {
                    return vec![];
                }
                return vec![rejected("bad argument", line)];
            }
            "new" => Command::NewGame,
            "variant" => match read_variant(arg) {
                Some(_) if arg == "berolina" && !own_pawn(&self.pieces) => {
                    return vec![rejected(
                        "unsupported variant",
                        "berolina: the piece file's pawn is not the Berolina pawn",
                    )]
                }
                Some((variant, board)) => {
                    let change = (board != options.board).then_some(Command::Board(board));
                    return change
                        .into_iter()
                        .chain([Command::Variant(variant)])
                        .map(Input::Engine)
                        .collect();
                }
                None => return vec![rejected("unsupported variant", arg)],
            },
            "force" => Command::Force,
            "go" => Command::Go,
            "playother" => Command::PlayOther,
            "white" => Command::SetSideToMove(Color::White),
            "black" => Command::SetSideToMove(Color::Black),
            "usermove" if !arg.is_empty() => Command::Move(shift_ranks(arg, self.rank_shift)),
            "usermove" => return vec![rejected("missing move", line)],
            "ping" => Command::Sync(arg.to_string()),
            "draw" => Command::DrawOffer,
            "result" => Command::Result,
            "setboard" => match Setup::from_fen(arg, options.board) {
                Ok(setup) => Command::SetPosition(Box::new(setup)),
                Err(e) => {
                    let reason = format!("bad FEN '{arg}': {e}");
                    return vec![Input::Reply(one_line(&not_playable_line(&reason)))];
                }
            },
            "edit" => {
                self.edit = Some(Color::White);
                Command::EditBegin
            }
            "undo" => Command::Undo(1),
            "remove" => Command::Undo(2),
            "post" => Command::Post(true),
            "nopost" => Command::Post(false),
            "analyze" => Command::Analyze(true),
            "exit" => Command::Analyze(false),
            "." => Command::AnalysisStatus,
            "hint" => Command::Hint,
            "bk" => Command::Book,
            "option" => return vec![self.option(arg)],
            "memory" => match arg.parse::<u64>() {
                Ok(mb) => {
                    log::info!(
                        "memory {mb}: XBoard's hash size, which does not limit the tables \
                         (option TableMemory does)"
                    );
                    return vec![];
                }
                Err(_) => return vec![rejected("bad argument, expected megabytes", line)],
            },
            // Not asked for (no `smp=1`): the Threads option alone sets the build threads.
            "cores" => match arg.parse::<usize>() {
                Ok(n) if n <= MAX_THREADS => {
                    log::info!(
                        "cores {n}: not a limit of the table builds (option Threads is; \
                         {} in force, 0 = one per core)",
                        options.threads
                    );
                    return vec![];
                }
                _ => {
                    return vec![rejected(
                        "bad argument",
                        &format!("{line}: expected a number of cores from 0 to {MAX_THREADS}"),
                    )]
                }
            },
            _ if arg.is_empty() && looks_like_move(word) => {
                Command::Move(shift_ranks(word, self.rank_shift))
            }
            _ => return vec![rejected("unknown command", line)],
        };
        vec![Input::Engine(cmd)]
    }

    fn render(&self, event: &Event) -> Vec<String> {
        self.lines(event).iter().map(|l| one_line(l)).collect()
    }

    fn progress(&self, event: &BuildEvent) -> Option<String> {
        self.handshake_done
            .then(|| format!("0 0 {} 0 ({event})", event.elapsed.as_millis() / 10))
    }
}

impl XBoard {
    /// The lines of an event, before [`one_line`] makes each fit one line.
    fn lines(&self, event: &Event) -> Vec<String> {
        match event {
            Event::Thinking(t) => vec![thinking_line(t)],
            Event::Move(m) => vec![format!("move {}", xboard_move(m))],
            Event::GameEnd(end) => vec![end.to_string()],
            Event::IllegalMove { text, reason } => vec![
                format!(
                    "Illegal move: {}",
                    error_safe(&shift_ranks(text, self.rank_shift.map(|_| -1)))
                ),
                format!("# {}", error_safe(reason)),
            ],
            Event::NotPlayable(reason) => vec![not_playable_line(reason)],
            Event::Resign { side, reason } => vec![resign_line(*side, reason)],
            Event::Rejected { kind, detail } => vec![error_line(kind, detail)],
            Event::Synced(token) => vec![format!("pong {token}")],
            Event::Hint(m) => vec![format!("Hint: {}", xboard_move(m))],
            Event::Book(moves) => moves
                .iter()
                .map(|m| format!("\t{} {}", xboard_move(&m.mv), m.value))
                .chain(std::iter::once(String::new()))
                .collect(),
            Event::AcceptDraw => vec!["offer draw".to_string()],
            Event::TableReady { material, took } if self.handshake_done => vec![format!(
                "0 0 {} 0 ({material} ready in {:.1} s)",
                took.as_millis() / 10,
                took.as_secs_f64()
            )],
            Event::TableReady { .. } => vec![],
            Event::TableNotice(text) => vec![format!("telluser fairy-egt: {text}")],
            Event::BuildFailed { material, reason } => vec![format!(
                "tellusererror fairy-egt could not build {material}: {reason}"
            )],
            Event::Variant(Variant::Fairy, board) => {
                std::iter::once(setup_line(&self.pieces, *board, true))
                    .chain(self.pieces.iter().flat_map(piece_lines))
                    .collect()
            }
            // XBoard's own pieces, but a pawn of ours that is not XBoard's (the Berolina pawn)
            // is described, so that XBoard's legality test lets it move as it does here.
            Event::Variant(Variant::Normal | Variant::Capablanca, _) => {
                self.pieces.get(PAWN).map(piece_lines).unwrap_or_default()
            }
            Event::AnalysisStatus {
                centis,
                nodes,
                plies,
                moves,
            } => vec![format!("stat01: {centis} {nodes} {plies} 0 {moves}")],
            Event::Note(text) => vec![format!("# {text}")],
            Event::NoMove => vec![],
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::game::START_FEN;

    fn xb() -> XBoard {
        XBoard::new(PieceSet::standard(), "KQ.KR")
    }

    /// The start-up options of a KQ.KR engine.
    fn options() -> Options {
        let pieces = PieceSet::standard();
        let material = crate::egt::material::Material::parse("KQ.KR", &pieces).unwrap();
        let config = crate::config::EngineConfig::default();
        crate::settings::Settings::from_config(&config, pieces, material, None, true).options
    }

    fn one(x: &mut XBoard, line: &str) -> Input {
        let mut v = x.read(line, &options());
        assert_eq!(v.len(), 1, "{line}: {v:?}");
        v.remove(0)
    }

    #[test]
    fn egtpath_of_our_format_sets_the_table_directory() {
        let mut x = xb();
        let features = x.read("protover 2", &options());
        assert!(features.contains(&Input::Reply("feature egt=\"fairy-egt\"".into())));
        assert_eq!(
            one(&mut x, "egtpath fairy-egt /home/me/my tables"),
            Input::Engine(Command::TableDir(Some("/home/me/my tables".into())))
        );
        assert!(x.read("egtpath syzygy /syzygy", &options()).is_empty());
        assert!(x.read("egtpath", &options()).is_empty());
        let Input::Reply(e) = one(&mut x, "egtpath fairy-egt") else {
            panic!("no error")
        };
        assert_eq!(
            e,
            "Error (bad argument): egtpath fairy-egt: expected a directory"
        );
    }

    #[test]
    fn error_text_never_names_a_feature() {
        for text in [
            "draw",
            "xDRAWx",
            "otime",
            "Timeout analyze",
            "protoverprotover",
        ] {
            let safe = error_safe(text).to_ascii_lowercase();
            for w in ERROR_TRIGGERS {
                assert!(!safe.contains(w), "{text} → {safe}");
            }
        }
        assert_eq!(error_safe("undo"), "undo");
    }

    #[test]
    fn scores_follow_the_mate_convention() {
        assert_eq!(score(Value::Win(35), Metric::Dtm), 100_035);
        assert_eq!(score(Value::Loss(34), Metric::Dtm), -100_034);
        assert_eq!(score(Value::Draw, Metric::Dtm), 0);
        assert_eq!(score(Value::Win(3), Metric::Dtc), 9_997);
    }

    #[test]
    fn a_position_it_cannot_play_is_given_up_with_the_reason() {
        let x = xb();
        assert_eq!(
            x.render(&Event::Resign {
                side: Color::White,
                reason: Unplayable::Pawns(1)
            }),
            vec![
                "0-1 {White resigns: the position has pawns (1), and the piece file defines \
                 no pawn: add the line 'P: fmWfceFifmnD' (the orthodox pawn) to it}"
                    .to_string()
            ]
        );
        // Braces of the reason (text echoed from the input) would end the comment early.
        let lines = x.render(&Event::Resign {
            side: Color::Black,
            reason: Unplayable::BadPositionLine("x {y} z".into()),
        });
        assert!(lines[0].starts_with("1-0 {Black resigns: "), "{lines:?}");
        assert!(lines[0].ends_with("found 'x (y) z'}"), "{lines:?}");
        assert_eq!(lines[0].matches('}').count(), 1, "{lines:?}");
    }

    #[test]
    fn a_line_that_ends_at_once_says_why() {
        let t = Thinking {
            value: Value::Loss(0),
            metric: Metric::Dtm,
            rule: None,
            pv: Vec::new(),
            end: Some(crate::engine::GameEnd::StalemateWin {
                winner: Color::White,
            }),
            nodes: 0,
            centis: 0,
        };
        assert_eq!(
            thinking_line(&t),
            "0 -100000 0 0 (game over: 1-0 {White wins by stalemate})"
        );
    }

    /// Where the rule draws a game the tables win (or lose), the score is +1 (−1)
    /// centipawn, whatever the metric; the rule's draw is claimed with its count.
    #[test]
    fn cursed_wins_score_one_centipawn_and_the_rule_draw_is_claimed() {
        use crate::egt::dtz::Class;
        let mut t = Thinking {
            value: Value::Win(60),
            metric: Metric::Dtm,
            rule: Some(Class::CursedWin),
            pv: Vec::new(),
            end: Some(crate::engine::GameEnd::RuleDraw { moves: 50 }),
            nodes: 0,
            centis: 0,
        };
        assert_eq!(
            thinking_line(&t),
            "0 1 0 0 (game over: 1/2-1/2 {50-move rule})"
        );
        t.rule = Some(Class::BlessedLoss);
        assert!(thinking_line(&t).starts_with("0 -1 "));
        t.rule = Some(Class::Win);
        assert!(thinking_line(&t).starts_with("0 100060 "));
    }

    #[test]
    fn moves_and_unknown_words() {
        let mut x = xb();
        assert_eq!(
            one(&mut x, "e2e4"),
            Input::Engine(Command::Move("e2e4".into()))
        );
        assert_eq!(
            one(&mut x, "usermove a7a8q"),
            Input::Engine(Command::Move("a7a8q".into()))
        );
        // Lines that do not parse are answered at once.
        assert_eq!(
            one(&mut x, "fly me to the moon"),
            Input::Reply("Error (unknown command): fly me to the moon".to_string())
        );
        // Echoed input never splits a line (found by the fuzz test in UCI).
        assert_eq!(
            one(&mut x, "setboard 8/8\u{1b}/8 w"),
            Input::Reply(
                "tellusererror fairy-egt cannot play this position: bad FEN '8/8?/8 w': \
                  FEN rank 7: unexpected character '?' at position 4 (expected a piece letter \
                  or a number of empty squares)"
                    .to_string()
            )
        );
    }

    #[test]
    fn edit_mode_lines() {
        let mut x = xb();
        assert_eq!(one(&mut x, "edit"), Input::Engine(Command::EditBegin));
        assert_eq!(one(&mut x, "#"), Input::Engine(Command::EditClear));
        assert!(x.read("c", &options()).is_empty());
        assert_eq!(
            one(&mut x, "Xa2"),
            Input::Engine(Command::EditPlace {
                square: 8,
                color: Color::Black,
                letter: 'X'
            })
        );
        assert_eq!(one(&mut x, "xh8"), Input::Engine(Command::EditEmpty(63)));
        // A ping is answered in edit mode too (found by the fuzz test: it got an error).
        assert_eq!(
            one(&mut x, "ping 7"),
            Input::Engine(Command::Sync("7".into()))
        );
        assert_eq!(one(&mut x, "quit"), Input::Quit);
        assert_eq!(one(&mut x, "."), Input::Engine(Command::EditEnd));
        assert_eq!(one(&mut x, "."), Input::Engine(Command::AnalysisStatus));
    }

    #[test]
    fn features_end_with_done() {
        let mut x = xb();
        let lines = x.read("protover 2", &options());
        let Some(Input::Reply(last)) = lines.last() else {
            panic!("{lines:?}")
        };
        assert_eq!(last, "feature done=1");
        assert!(lines.iter().any(|l| matches!(l,
            Input::Reply(s) if s.contains("option=\"Metric -combo *dtm /// dtc /// dtz\""))));
        for want in [
            "feature option=\"Endgame -string KQ.KR\"",
            "feature option=\"NullMove -combo *none /// white /// black /// both\"",
            "feature option=\"StalemateWins -check 0\"",
            "feature option=\"BareKingLoses -check 0\"",
            "feature option=\"TableMemory -spin 0 0 16000000\"",
        ] {
            assert!(
                lines.contains(&Input::Reply(want.to_string())),
                "{want}: {lines:?}"
            );
        }
    }

    #[test]
    fn rule_options_become_commands() {
        let mut x = xb();
        for (line, want) in [
            ("option StalemateWins=1", Command::StalemateWins(true)),
            ("option BareKingLoses=0", Command::BareRoyalLoses(false)),
            ("option NullMove=black", Command::NullMove(NullMove::Black)),
            ("option Endgame=KR.K", Command::Endgame("KR.K".into())),
            ("option TableMemory=10", Command::TableMemory(10)),
            ("option RuleMoves=20", Command::RuleMoves(20)),
            ("option RuleMoves=0", Command::RuleMoves(0)),
        ] {
            assert_eq!(one(&mut x, line), Input::Engine(want), "{line}");
        }
        assert!(matches!(
            one(&mut x, "option StalemateWins=maybe"),
            Input::Reply(line) if line.starts_with("Error (bad option value): ")
        ));
        assert_eq!(
            one(&mut x, "option TableMemory=-1"),
            Input::Reply(
                "Error (bad option value): TableMemory=-1: expected megabytes from 0 (the \
                  start-up budget) to 16000000"
                    .to_string()
            )
        );
    }

    #[test]
    fn xboards_memory_command_is_accepted_and_limits_nothing() {
        let mut x = xb();
        assert!(x.read("memory 64", &options()).is_empty());
        assert!(x.read("memory 1", &options()).is_empty());
        assert_eq!(
            one(&mut x, "memory lots"),
            Input::Reply("Error (bad argument, expected megabytes): memory lots".to_string())
        );
    }

    #[test]
    fn cores_change_nothing_and_are_bounded_like_the_threads_option() {
        let mut x = xb();
        let features = x.read("protover 2", &options());
        assert!(
            !features
                .iter()
                .any(|l| matches!(l, Input::Reply(s) if s.contains("smp="))),
            "{features:?}"
        );
        // The Threads option alone sets the build threads: `cores` is accepted and ignored.
        assert!(x.read("cores 1", &options()).is_empty());
        assert!(x
            .read(&format!("cores {MAX_THREADS}"), &options())
            .is_empty());
        for line in [
            format!("cores {}", MAX_THREADS + 1),
            "cores 18446744073709551615".to_string(),
            "cores -1".to_string(),
        ] {
            assert_eq!(
                one(&mut x, &line),
                Input::Reply(format!(
                    "Error (bad argument): {line}: expected a number of cores from 0 to {MAX_THREADS}"
                ))
            );
        }
    }

    #[test]
    fn fairy_pieces_are_described() {
        let lines = xb().render(&Event::Variant(Variant::Fairy, BoardSize::STANDARD));
        assert_eq!(
            lines[0],
            format!(
                "setup ({}) 8x8+0_fairy {START_FEN}",
                piece_to_char(&PieceSet::standard())
            )
        );
        for want in [
            "piece C& RN",
            "piece A& BN",
            "piece Y& QN",
            "piece X& C",
            "piece Z& Z",
            "piece O& mRcpR",
            "piece G& gQ",
            "piece U& nN",
            "piece T& nA",
        ] {
            assert!(lines.contains(&want.to_string()), "{want}: {lines:?}");
        }
        // XBoard's own rules already move the orthodox pieces as ours, the pawn included.
        assert!(PieceSet::standard().pawn().is_some());
        assert!(!lines.iter().any(|l| [
            "piece N", "piece B", "piece R", "piece Q", "piece K", "piece P"
        ]
        .iter()
        .any(|p| l.starts_with(p))));
    }

    #[test]
    fn a_pawn_not_xboards_own_is_described_in_every_variant() {
        let berolina = crate::piece::parse::parse_piece_defs(
            "K: K\nQ: Q\nR: R\nB: B\nN: N\nP: fmFfceWifmnA",
            "berolina.ini",
        )
        .expect("the Berolina pieces");
        let x = XBoard::new(berolina, "KP.K");
        let ten = BoardSize::new(10, 8).unwrap();
        for (variant, board) in [
            (Variant::Normal, BoardSize::STANDARD),
            (Variant::Fairy, BoardSize::STANDARD),
            (Variant::Capablanca, ten),
        ] {
            let lines = x.render(&Event::Variant(variant, board));
            assert!(
                lines.contains(&"piece P& fmFfceWifmnA".to_string()),
                "{variant:?}: {lines:?}"
            );
        }
        // XBoard's own `berolina` is offered and read (its pawn then takes our description).
        let mut x = x;
        let lines = x.read("protover 2", &options());
        assert!(lines.iter().any(
            |l| matches!(l, Input::Reply(s) if s.contains("variants=\"normal,fairy,berolina,capablanca,"))
        ));
        assert_eq!(
            x.read("variant berolina", &options()),
            vec![Input::Engine(Command::Variant(Variant::Normal))]
        );
        let lines = xb().read("protover 2", &options());
        assert!(lines.iter().any(
            |l| matches!(l, Input::Reply(s) if s.contains("variants=\"normal,fairy,capablanca,"))
        ));
        assert!(matches!(
            &xb().read("variant berolina", &options())[..],
            [Input::Reply(l)] if l.starts_with("Error (unsupported variant): berolina")
        ));
        // The orthodox pawn is XBoard's own: nothing is said in `normal`.
        assert!(xb()
            .render(&Event::Variant(Variant::Normal, BoardSize::STANDARD))
            .is_empty());
        let pawn = PieceSet::standard();
        assert_eq!(piece_lines(pawn.get('P').expect("P")), Vec::<String>::new());
    }

    #[test]
    fn promotion_option_is_shown_and_read() {
        let mut x = xb();
        let lines = x.read("protover 2", &options());
        assert!(lines.iter().any(
            |l| matches!(l, Input::Reply(s) if s == "feature option=\"Promotion -string QRBN\"")
        ));
        let mut ten = options();
        ten.board = BoardSize::new(10, 8).unwrap();
        let lines = x.read("protover 2", &ten);
        assert!(lines.iter().any(
            |l| matches!(l, Input::Reply(s) if s == "feature option=\"Promotion -string QRBNAC\"")
        ));
        let mut set = options();
        set.promotion = Some("QN".into());
        let lines = x.read("protover 2", &set);
        assert!(lines.iter().any(
            |l| matches!(l, Input::Reply(s) if s == "feature option=\"Promotion -string QN\"")
        ));
        assert_eq!(
            one(&mut x, "option Promotion=qn"),
            Input::Engine(Command::Promotion(Some("QN".into())))
        );
        assert_eq!(
            one(&mut x, "option Promotion="),
            Input::Engine(Command::Promotion(None))
        );
        assert_eq!(
            one(&mut x, "option Promotion=QQ"),
            Input::Reply(
                "Error (bad option value): Promotion=QQ: 'Q' is given twice in 'QQ'".into()
            )
        );
        assert!(matches!(
            one(&mut x, "option Promotion=QP"),
            Input::Reply(l) if l.contains("'P' is the pawn")
        ));
    }

    #[test]
    fn every_letter_in_play_has_its_xboard_type() {
        let table: Vec<char> = piece_to_char(&PieceSet::standard()).chars().collect();
        // Up to XBoard's Drunk (53, the last type in play), then the King; Black likewise.
        assert_eq!(table.len(), 2 * 55);
        let (white, black) = table.split_at(55);
        for (letter, at) in [
            ('P', 0),
            ('Q', 4),
            ('A', 7),
            ('C', 8),
            ('O', 11),
            ('G', 15),
            ('U', 20),
            ('Z', 23),
            ('X', 24),
            ('Y', 29),
            ('T', 53),
            ('K', 54),
        ] {
            assert_eq!(white[at], letter, "{at}");
            assert_eq!(black[at], letter.to_ascii_lowercase(), "{at}");
        }
        // XBoard's Falcon, Lance and Snake are no piece of ours: not in play.
        for at in [17, 18, 19] {
            assert_eq!(white[at], '.', "{at}");
        }
        // The letters are distinct, and each a place of its own.
        let mut seen: Vec<char> = XBOARD_TYPES.iter().map(|&(l, _)| l).collect();
        seen.sort_unstable();
        seen.dedup();
        assert_eq!(seen.len(), 26);
        let mut places: Vec<usize> = XBOARD_TYPES.iter().map(|&(_, at)| at).collect();
        places.sort_unstable();
        places.dedup();
        assert_eq!(places.len(), 26);
    }

    #[test]
    fn letters_outside_the_piece_file_are_not_in_play_but_the_orthodox_ones() {
        let pieces =
            crate::piece::parse::parse_piece_defs("K: 1,0,* 1,1,*\nY: QN", "test").expect("pieces");
        let table = piece_to_char(&pieces);
        // Up to the Amazon (29), then the King; the orthodox letters stay for the start
        // position of `setup`.
        let white = format!("PNBRQ{}YK", ".".repeat(24));
        assert_eq!(table, format!("{white}{}", white.to_ascii_lowercase()));
    }

    #[test]
    fn a_piece_not_symmetric_left_to_right_is_described_for_each_side() {
        // One Knight leap, forward and to the right: Black's goes backward (towards rank 1)
        // and to the right, White's mirrored top to bottom; XBoard turns Black's description
        // half a turn, so Black is told White's mirrored left to right (forward and left).
        let pieces = crate::piece::parse::parse_piece_defs("V: 1,2", "test").expect("one leap");
        let piece = pieces.get('V').expect("V");
        assert_eq!(
            piece_lines(piece),
            vec!["piece V rfN".to_string(), "piece v lfN".to_string()]
        );
        let symmetric =
            crate::piece::parse::parse_piece_defs("V: 1,2 -1,2", "test").expect("two leaps");
        assert_eq!(
            piece_lines(symmetric.get('V').expect("V")),
            vec!["piece V& ffN".to_string()]
        );
    }

    #[test]
    fn the_setup_before_done_names_no_variant() {
        let mut x = xb();
        let lines = x.read("protover 2", &options());
        let n = lines.len();
        assert_eq!(
            lines[n - 2],
            Input::Reply(format!(
                "setup ({}) {START_FEN}",
                piece_to_char(&PieceSet::standard())
            ))
        );
    }

    #[test]
    fn every_board_size_is_announced_by_its_sized_name() {
        let mut x = xb();
        let lines = x.read("protover 2", &options());
        let list = lines
            .iter()
            .find_map(|l| match l {
                Input::Reply(s) => s.split_once("variants=\"").map(|(_, v)| v.to_string()),
                _ => None,
            })
            .expect("a variants feature");
        let list = list.trim_end_matches('"');
        let items: Vec<&str> = list.split(',').collect();
        for want in [
            "normal",
            "fairy",
            "capablanca",
            "gothic",
            "10x8+0_fairy",
            "3x3+0_fairy",
        ] {
            assert!(items.contains(&want), "{want}: {list}");
        }
        for want in [
            "16x16+0_fairy",
            "12x12+0_fairy",
            "8x10+0_fairy",
            "16x3+0_fairy",
        ] {
            assert!(items.contains(&want), "{want}");
        }
        // 8×8 is plain `fairy`; XBoard 4.9 needs the exact sized name, `boardsize` does not
        // do; Janus' J is not our Archbishop.
        for absent in [
            "8x8+0_fairy",
            "boardsize",
            "janus",
            "17x8+0_fairy",
            "2x8+0_fairy",
        ] {
            assert!(!items.contains(&absent), "{absent}");
        }
        assert_eq!(items.len(), 4 + 14 * 14 - 1);
        // Under WinBoard's 4096-byte line buffer.
        assert!(list.len() < 4000, "{}", list.len());
        // Every announced size is read back.
        for item in &items[4..] {
            let (_, board) = read_variant(item).expect(item);
            assert_eq!(format!("{board}+0_fairy"), *item);
        }
    }

    #[test]
    fn a_variant_on_another_board_changes_the_board() {
        let mut x = xb();
        let ten = BoardSize::new(10, 8).unwrap();
        assert_eq!(
            x.read("variant 10x8+0_fairy", &options()),
            vec![
                Input::Engine(Command::Board(ten)),
                Input::Engine(Command::Variant(Variant::Fairy))
            ]
        );
        assert_eq!(
            x.read("variant capablanca", &options()),
            vec![
                Input::Engine(Command::Board(ten)),
                Input::Engine(Command::Variant(Variant::Capablanca))
            ]
        );
        // XBoard's own Archbishop and Chancellor are ours: nothing to describe.
        assert!(x
            .render(&Event::Variant(Variant::Capablanca, ten))
            .is_empty());
        assert!(matches!(one(&mut x, "variant janus"), Input::Reply(l) if l.starts_with("Error")));
        let lines = x.render(&Event::Variant(Variant::Fairy, ten));
        assert!(lines[0].contains(" 10x8+0_fairy rnabqkbcnr/"), "{lines:?}");
    }

    #[test]
    fn moves_with_two_digit_ranks_are_moves() {
        for word in [
            "a10a1", "l12a1", "a1l12", "p16a16", "e2e4", "a7a8q", "Q@e4", "Q@a10",
        ] {
            assert!(looks_like_move(word), "{word}");
        }
        for word in ["a100a1", "a1", "e2e4qq", "ping", "a0a1x1", "10a1"] {
            assert!(!looks_like_move(word), "{word}");
        }
    }

    #[test]
    fn on_ten_ranks_xboards_ranks_count_from_zero() {
        let mut x = xb();
        let mut ten = options();
        ten.board = BoardSize::new(10, 10).unwrap();
        let read = |x: &mut XBoard, line: &str| x.read(line, &ten);
        assert_eq!(
            read(&mut x, "usermove a0a9"),
            vec![Input::Engine(Command::Move("a1a10".into()))]
        );
        assert_eq!(
            read(&mut x, "j9j0"),
            vec![Input::Engine(Command::Move("j10j1".into()))]
        );
        read(&mut x, "edit");
        assert_eq!(
            read(&mut x, "Ka0"),
            vec![Input::Engine(Command::EditPlace {
                square: 0,
                color: Color::White,
                letter: 'K'
            })]
        );
        assert_eq!(
            read(&mut x, "xj9"),
            vec![Input::Engine(Command::EditEmpty(99))]
        );
        read(&mut x, ".");
        let m = Move::new(0, 90, ten.board);
        assert_eq!(x.render(&Event::Move(m)), vec!["move a0a9".to_string()]);
        assert_eq!(
            x.render(&Event::IllegalMove {
                text: "a1a10".into(),
                reason: "no".into()
            })[0],
            "Illegal move: a0a9"
        );
        // Other boards, 12 ranks included, count from 1 as the engine does.
        let twelve = Move::new(0, 108, BoardSize::new(12, 12).unwrap());
        assert_eq!(xboard_move(&twelve), "a1a10");
        assert_eq!(
            x.read("usermove a1a10", &options()),
            vec![Input::Engine(Command::Move("a1a10".into()))]
        );
    }
}
