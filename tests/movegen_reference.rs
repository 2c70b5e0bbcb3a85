//! `Position::legal_moves`, `in_check`, `play`, `captured`, `parse_move` and `Position::new`'s
//! verdict checked against a deliberately slow, obviously-correct reference generator that walks
//! the pieces' `Step` lists directly on an array of W×H squares (it does not use
//! `board::geometry`), on random placements of 3-5 men: from a hand-built set that exercises
//! range limits, capture-only/move-only steps and asymmetric pieces, and from the shipped
//! `piecedef.ini`. The pawn P — the shipped orthodox one and the Berolina one of
//! `tests/data/berolina.ini` — has its rules written out here (`PawnKind`: pushes, double
//! steps, captures, promotion to each piece of the board's list, no pawn on its first or last
//! rank, en passant), not read from its steps, and is placed by its own strategies: random
//! pawn positions, and positions right after a double step with the FEN's e.p. square. The bitboard
//! queries of `board::geometry::PieceMoves` that the builder uses are checked against the
//! same step walk, at every width of square sets. Every check runs on
//! boards of several sizes (`BOARDS`): square and rectangular, wider and taller than high,
//! from 3×3 to 16×16, so 64-bit (8×8, 5×5, 7×5, 4×9, 3×3), 128-bit (10×8, 11×11) and 256-bit
//! (12×12, 16×16) square sets are all exercised.

use fairy_egt::board::geometry::{AnyTables, Geometry, PieceMoves};
use fairy_egt::board::BoardSize;
use fairy_egt::board::{Color, Move, Position, PositionError, Setup, SquareSet};
use fairy_egt::piece::parse::parse_piece_defs;
use fairy_egt::piece::{PieceSet, PieceType, Step, StepKind, StepMode};
use proptest::prelude::*;
use proptest::sample::subsequence;
use std::collections::BTreeSet;
use std::sync::OnceLock;

// ---------------------------------------------------------------------------------------------
// The piece set, built from step lists.

/// The step and its images under the 8 symmetries of the square (x ↔ -x, y ↔ -y, x ↔ y).
fn all8(dx: i8, dy: i8, range: u8, mode: StepMode) -> Vec<Step> {
    let mut out = Vec::new();
    for (a, b) in [(dx, dy), (dy, dx)] {
        for sa in [1, -1] {
            for sb in [1, -1] {
                out.push(Step::plain(a * sa, b * sb, range, mode));
            }
        }
    }
    out
}

fn one(dx: i8, dy: i8, range: u8, mode: StepMode) -> Vec<Step> {
    vec![Step::plain(dx, dy, range, mode)]
}

/// The shipped `piecedef.ini` letters (K Q R B N A C F E W M H I J Y X Z) and a few others that
/// exercise range limits, move/capture rights and asymmetric (colour-dependent) steps (D is
/// a range-3 dabbaba rider here, not the shipped leaper).
fn piece_set() -> PieceSet {
    use StepMode::*;
    let p = |l: char, parts: Vec<Vec<Step>>| PieceType::new(l, parts.concat());
    PieceSet::new(vec![
        p('K', vec![all8(1, 0, 1, Both), all8(1, 1, 1, Both)]),
        p('M', vec![all8(1, 0, 1, Both), all8(1, 1, 1, Both)]),
        p('Q', vec![all8(1, 0, 0, Both), all8(1, 1, 0, Both)]),
        p('R', vec![all8(1, 0, 0, Both)]),
        p('B', vec![all8(1, 1, 0, Both)]),
        p('N', vec![all8(1, 2, 1, Both)]),
        p('A', vec![all8(1, 2, 1, Both), all8(1, 1, 0, Both)]),
        p('C', vec![all8(1, 2, 1, Both), all8(1, 0, 0, Both)]),
        p('F', vec![all8(1, 1, 1, Both)]),
        p('E', vec![all8(2, 2, 1, Both)]),
        p('W', vec![all8(1, 0, 1, Both)]),
        p('H', vec![all8(1, 2, 0, Both)]),
        p('I', vec![all8(1, 1, 0, Both), all8(1, 0, 1, Both)]),
        p('J', vec![all8(1, 0, 0, Both), all8(1, 1, 1, Both)]),
        p(
            'Y',
            vec![
                all8(1, 0, 0, Both),
                all8(1, 1, 0, Both),
                all8(1, 2, 1, Both),
            ],
        ),
        // Camel.
        p('X', vec![all8(1, 3, 1, Both)]),
        // Captures like a ferz, moves like a wazir.
        p(
            'S',
            vec![all8(1, 1, 1, CaptureOnly), all8(1, 0, 1, MoveOnly)],
        ),
        // Rook of range 2; dabbaba rider of range 3.
        p('L', vec![all8(1, 0, 2, Both)]),
        p('D', vec![all8(2, 0, 3, Both)]),
        // Overlapping steps reaching the same squares, with different rights: a range-2 rook
        // and a dabbaba leap; a non-capturing bishop rider and a capture-only alfil leap.
        p(
            'T',
            vec![
                all8(1, 0, 2, Both),
                all8(2, 0, 1, Both),
                all8(1, 1, 0, MoveOnly),
                all8(2, 2, 1, CaptureOnly),
            ],
        ),
        // Zebra (long leap near the edges).
        p('Z', vec![all8(2, 3, 1, Both)]),
        // A pawn without promotion: forward move, diagonal forward captures.
        p(
            'O',
            vec![
                one(0, 1, 1, MoveOnly),
                one(1, 1, 1, CaptureOnly),
                one(-1, 1, 1, CaptureOnly),
            ],
        ),
        // Lopsided: forward knight-rider, forward-up-to-3 non-capturing file moves,
        // backward-left capture-only bishop ride, and a sideways leap.
        p(
            'U',
            vec![
                one(1, 2, 0, Both),
                one(0, 1, 3, MoveOnly),
                one(-1, -1, 0, CaptureOnly),
                one(3, 0, 1, Both),
            ],
        ),
    ])
}

// ---------------------------------------------------------------------------------------------
// The boards, and each piece set's move tables on each of them.

/// The boards every check runs on (files, ranks), with the width of square sets each needs.
const BOARDS: [(u32, u32, usize); 9] = [
    (8, 8, 64),
    (10, 8, 128),
    (5, 5, 64),
    (12, 12, 192),
    (7, 5, 64),
    (4, 9, 64),
    (11, 11, 128),
    (16, 16, 256),
    (3, 3, 64),
];

fn board(i: usize) -> BoardSize {
    BoardSize::new(BOARDS[i].0, BOARDS[i].1).unwrap()
}

/// A piece set, its letters and its move tables on each of `BOARDS`.
struct Tables {
    set: PieceSet,
    /// The letters but the pawn P.
    letters: Vec<char>,
    /// The rules the reference gives P, written out in `PawnKind` (not read from the set's
    /// steps): `None` for a set without P.
    pawn: Option<PawnKind>,
    geometries: Vec<Geometry>,
}

impl Tables {
    fn new(set: PieceSet) -> Tables {
        Tables::with_pawn(set, None)
    }

    fn with_pawn(set: PieceSet, pawn: Option<PawnKind>) -> Tables {
        assert_eq!(
            set.get('P').is_some(),
            pawn.is_some(),
            "P and its rules go together"
        );
        let geometries = (0..BOARDS.len())
            .map(|i| Geometry::on(&set, board(i)))
            .collect();
        // The pawn is placed only by the pawn strategies (`pawn_placement`, `ep_placement`),
        // whose men and squares respect its ranks.
        let letters = set.letters().chars().filter(|&l| l != 'P').collect();
        Tables {
            set,
            letters,
            pawn,
            geometries,
        }
    }
}

/// The hand-built piece set, built once.
fn hand_built() -> &'static Tables {
    static TABLES: OnceLock<Tables> = OnceLock::new();
    TABLES.get_or_init(|| Tables::new(piece_set()))
}

/// The shipped `piecedef.ini` (`PieceSet::standard()`), whose P is the orthodox pawn.
fn standard() -> &'static Tables {
    static TABLES: OnceLock<Tables> = OnceLock::new();
    TABLES.get_or_init(|| Tables::with_pawn(PieceSet::standard(), Some(PawnKind::Orthodox)))
}

/// `tests/data/berolina.ini`: the orthodox pieces and the Berolina pawn.
fn berolina() -> &'static Tables {
    static TABLES: OnceLock<Tables> = OnceLock::new();
    TABLES.get_or_init(|| {
        let path = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/berolina.ini");
        let text = std::fs::read_to_string(path).expect("tests/data/berolina.ini");
        let set = parse_piece_defs(&text, "berolina.ini").unwrap_or_else(|e| panic!("{e}"));
        Tables::with_pawn(set, Some(PawnKind::Berolina))
    })
}

/// Pieces read from Betza text that walk their steps other than plainly, or move one way:
/// the Xiangqi cannon, horse and elephant, hoppers and grasshoppers on every kind of line,
/// long lame leaps, the gold and silver generals, a one-sided wazir.
fn special() -> &'static Tables {
    static TABLES: OnceLock<Tables> = OnceLock::new();
    TABLES.get_or_init(|| {
        let text = "K: K\nQ: Q\nN: N\nO: mRcpR\nV: pQ\nG: gQ\nU: nN\nT: nA\nL: nDnHnG\n\
                    H: gNN\nI: cpNNmB\nS: FfW\nJ: WfF\nR: rW\nM: mgRcN";
        Tables::new(parse_piece_defs(text, "special").unwrap_or_else(|e| panic!("{e}")))
    })
}

#[test]
fn each_board_gets_the_narrowest_square_sets_that_hold_it() {
    let set = PieceSet::standard();
    for (i, &(_, _, width)) in BOARDS.iter().enumerate() {
        let g = Geometry::on(&set, board(i));
        let got = match g.tables() {
            AnyTables::Narrow(_) => 64,
            AnyTables::Middle(_) => 128,
            AnyTables::Broad(_) => 192,
            AnyTables::Wide(_) => 256,
        };
        assert_eq!(got, width, "{}", board(i));
    }
}

// ---------------------------------------------------------------------------------------------
// The reference generator.

/// A set of squares of the reference: square `s` is bit `s % 64` of word `s / 64`.
#[derive(Clone, Copy, Default, PartialEq, Eq, Debug)]
struct Squares([u64; 4]);

impl Squares {
    fn has(self, s: usize) -> bool {
        self.0[s / 64] >> (s % 64) & 1 != 0
    }

    fn with(mut self, s: usize) -> Squares {
        self.0[s / 64] |= 1 << (s % 64);
        self
    }

    fn without(mut self, s: usize) -> Squares {
        self.0[s / 64] &= !(1 << (s % 64));
        self
    }

    fn or(self, o: Squares) -> Squares {
        Squares(std::array::from_fn(|i| self.0[i] | o.0[i]))
    }

    fn of(squares: impl IntoIterator<Item = usize>) -> Squares {
        squares.into_iter().fold(Squares::default(), Squares::with)
    }

    /// The same squares as a library set (bit by bit).
    fn to_set<S: SquareSet>(self) -> S {
        (0..256)
            .filter(|&s| self.has(s))
            .fold(S::default(), |set, s| set | S::bit(s as u8))
    }
}

/// The names of the squares of a library set, for messages (and any bit beyond the board).
fn names<S: SquareSet>(board: BoardSize, set: S) -> Vec<String> {
    (0..S::CAPACITY)
        .filter(|&s| set.contains(s as u8))
        .map(|s| {
            if s < board.squares() {
                board.square_name(s as u8)
            } else {
                format!("#{s}")
            }
        })
        .collect()
}

/// The men of a position: (colour, letter, royal) per square of a board of `size`; the rules
/// of its pawn P, if the set has one; the side to move's en-passant right (the square passed
/// over, the square of the pawn that passed).
#[derive(Clone)]
struct Board {
    size: BoardSize,
    men: Vec<Option<(Color, char, bool)>>,
    pawn: Option<PawnKind>,
    ep: Option<(usize, usize)>,
}

impl Board {
    fn squares(&self) -> usize {
        self.men.len()
    }

    fn occupied(&self) -> Squares {
        Squares::of((0..self.squares()).filter(|&s| self.men[s].is_some()))
    }
}

/// Every square a man on `sq` can go to, as the steps say (see `walk_step`); an occupied
/// square is a target if it holds an enemy.
fn reference_targets(set: &PieceSet, board: &Board, sq: usize) -> Vec<usize> {
    let Some((color, letter, _)) = board.men[sq] else {
        return Vec::new();
    };
    if letter == 'P' {
        let kind = board.pawn.expect("reference: P without pawn rules");
        return pawn_targets(kind, board, sq, color);
    }
    let occupied = board.occupied();
    let piece = set.get(letter).expect("reference: known letter");
    let mut out = Vec::new();
    for step in &piece.steps {
        let (quiet, hits) = walk_step(step, color, board.size, sq, occupied);
        for t in (0..board.squares()).filter(|&t| quiet.or(hits).has(t)) {
            let enemy = matches!(board.men[t], Some((c, _, _)) if c != color);
            if board.men[t].is_none() || enemy {
                out.push(t);
            }
        }
    }
    out
}

/// The square `n` steps away from `sq` on a board of `size` (rank steps negated for Black), if
/// on the board.
fn away(size: BoardSize, sq: usize, step: &Step, color: Color, n: i32) -> Option<usize> {
    let (w, h) = (size.files() as i32, size.ranks() as i32);
    let dy = if color == Color::White {
        step.dy as i32
    } else {
        -(step.dy as i32)
    };
    let (f, r) = (sq as i32 % w + n * step.dx as i32, sq as i32 / w + n * dy);
    ((0..w).contains(&f) && (0..h).contains(&r)).then_some((r * w + f) as usize)
}

/// One step of a man of `color` on `sq`, walked square by square among the men on
/// `occupied`: the empty squares it goes to, and the occupied squares it may capture on.
/// - plain: repeat up to the range, stop at an occupied square;
/// - lame leap: blocked when a square on its way is occupied: for a straight or diagonal
///   leap every square between; for a (2,1) leap the square one step along its longer side;
/// - hop: over empty squares to a screen, over it, on over empty squares to the first man;
/// - grasshop: over empty squares to a screen, landing just beyond it.
fn walk_step(
    step: &Step,
    color: Color,
    size: BoardSize,
    sq: usize,
    occupied: Squares,
) -> (Squares, Squares) {
    let none = Squares::default();
    let may_move = step.mode != StepMode::CaptureOnly;
    let may_capture = step.mode != StepMode::MoveOnly;
    let full = |t: usize| occupied.has(t);
    let land = |t: usize| -> (Squares, Squares) {
        match (full(t), may_move, may_capture) {
            (false, true, _) => (none.with(t), none),
            (true, _, true) => (none, none.with(t)),
            _ => (none, none),
        }
    };
    // No line is longer than the board's longer side.
    let longest = size.files().max(size.ranks()) as usize;
    let line: Vec<usize> = (1..)
        .take(if step.range == 0 {
            longest
        } else {
            step.range as usize
        })
        .map_while(|n| away(size, sq, step, color, n))
        .collect();
    match step.kind {
        StepKind::Plain => {
            let (mut quiet, mut hits) = (none, none);
            for &t in &line {
                let (q, h) = land(t);
                quiet = quiet.or(q);
                hits = hits.or(h);
                if full(t) {
                    break;
                }
            }
            (quiet, hits)
        }
        StepKind::Lame => {
            let Some(&to) = line.first() else {
                return (none, none);
            };
            let (ax, ay) = (step.dx.abs(), step.dy.abs());
            let (sx, sy) = (step.dx.signum(), step.dy.signum());
            let way: Vec<(i8, i8)> = if ax == 0 || ay == 0 || ax == ay {
                (1..ax.max(ay)).map(|k| (sx * k, sy * k)).collect()
            } else if ax > ay {
                vec![(sx, 0)]
            } else {
                vec![(0, sy)]
            };
            let blocked = way.iter().any(|&(dx, dy)| {
                away(size, sq, &Step { dx, dy, ..*step }, color, 1).is_some_and(full)
            });
            if blocked {
                (none, none)
            } else {
                land(to)
            }
        }
        StepKind::Hop => {
            let Some(screen) = line.iter().position(|&t| full(t)) else {
                return (none, none);
            };
            let mut quiet = none;
            for &t in &line[screen + 1..] {
                let (q, h) = land(t);
                if full(t) {
                    return (quiet, h);
                }
                quiet = quiet.or(q);
            }
            (quiet, none)
        }
        StepKind::Grasshop => line
            .iter()
            .position(|&t| full(t))
            .and_then(|k| line.get(k + 1))
            .map_or((none, none), |&t| land(t)),
    }
}

fn royal_square(board: &Board, color: Color) -> Option<usize> {
    (0..board.squares()).find(|&s| matches!(board.men[s], Some((c, _, true)) if c == color))
}

/// Whether some man of `by` can go to (capture on) `color`'s royal square.
fn royal_attacked(set: &PieceSet, board: &Board, color: Color, by: Color) -> bool {
    let Some(royal) = royal_square(board, color) else {
        return false;
    };
    (0..board.squares())
        .filter(|&s| matches!(board.men[s], Some((c, _, _)) if c == by))
        .any(|s| reference_targets(set, board, s).contains(&royal))
}

/// A move of the reference: from, to, promotion letter.
type RefMove = (u8, u8, Option<char>);

/// Legal moves: every move of the steps after which no enemy man can capture the mover's
/// royal; for a pawn reaching its last rank one move per promotion letter, and its
/// en-passant captures.
fn reference_legal(set: &PieceSet, board: &Board, side: Color) -> BTreeSet<RefMove> {
    let promotions = reference_promotions(set, board.size);
    let mut out = BTreeSet::new();
    for from in 0..board.squares() {
        let Some((c, letter, _)) = board.men[from] else {
            continue;
        };
        if c != side {
            continue;
        }
        let mut tos: Vec<(usize, Option<usize>)> = reference_targets(set, board, from)
            .into_iter()
            .map(|to| (to, None))
            .collect();
        if letter == 'P' {
            let kind = board.pawn.expect("pawn rules");
            if let Some((square, victim)) = board.ep {
                if kind
                    .captures()
                    .iter()
                    .any(|&d| pawn_away(board.size, from, d, side) == Some(square))
                {
                    tos.push((square, Some(victim)));
                }
            }
        }
        for (to, victim) in tos {
            let promoting = letter == 'P' && rank(board.size, to) == last_rank(board.size, side);
            let letters: Vec<Option<char>> = if promoting {
                promotions.iter().copied().map(Some).collect()
            } else {
                vec![None]
            };
            for promotion in letters {
                let after = reference_play(board, from, to, victim, promotion);
                if !royal_attacked(set, &after, side, side.flip()) {
                    out.insert((from as u8, to as u8, promotion));
                }
            }
        }
    }
    out
}

/// The board after a man goes from `from` to `to`, taking what stands there or the pawn on
/// `victim` (en passant), becoming `promotion`; its en-passant right is left unset.
fn reference_play(
    board: &Board,
    from: usize,
    to: usize,
    victim: Option<usize>,
    promotion: Option<char>,
) -> Board {
    let mut after = board.clone();
    after.ep = None;
    if let Some(v) = victim {
        after.men[v] = None;
    }
    let (c, l, royal) = after.men[from].take().expect("a man to move");
    after.men[to] = Some((c, promotion.unwrap_or(l), royal));
    after
}

// ---------------------------------------------------------------------------------------------
// The reference pawn, written out: no step list is read.

/// The two pawns the reference knows: the orthodox one (`fmWfceFifmnD`) and the Berolina
/// one (`fmFfceWifmnA`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum PawnKind {
    Orthodox,
    Berolina,
}

impl PawnKind {
    /// The non-capturing steps (White's orientation); from the second rank each may also be
    /// made twice over an empty square (the double step).
    fn pushes(self) -> &'static [(i32, i32)] {
        match self {
            PawnKind::Orthodox => &[(0, 1)],
            PawnKind::Berolina => &[(-1, 1), (1, 1)],
        }
    }

    /// The capturing steps, en passant included.
    fn captures(self) -> &'static [(i32, i32)] {
        match self {
            PawnKind::Orthodox => &[(-1, 1), (1, 1)],
            PawnKind::Berolina => &[(0, 1)],
        }
    }
}

fn rank(size: BoardSize, sq: usize) -> usize {
    sq / size.files() as usize
}

/// A pawn's second rank, where its double steps start.
fn second_rank(size: BoardSize, color: Color) -> usize {
    match color {
        Color::White => 1,
        Color::Black => size.ranks() as usize - 2,
    }
}

/// A pawn's last rank, where it promotes.
fn last_rank(size: BoardSize, color: Color) -> usize {
    match color {
        Color::White => size.ranks() as usize - 1,
        Color::Black => 0,
    }
}

/// The square `d` (White's orientation, rank steps negated for Black) from `sq`, if on the
/// board.
fn pawn_away(size: BoardSize, sq: usize, (dx, dy): (i32, i32), color: Color) -> Option<usize> {
    let (w, h) = (size.files() as i32, size.ranks() as i32);
    let dy = if color == Color::White { dy } else { -dy };
    let (f, r) = (sq as i32 % w + dx, sq as i32 / w + dy);
    ((0..w).contains(&f) && (0..h).contains(&r)).then_some((r * w + f) as usize)
}

/// Where a pawn on `sq` may go, en passant left out: a push onto an empty square; from its
/// second rank a double step, the square passed over and the one reached both empty; a
/// capture onto an enemy.
fn pawn_targets(kind: PawnKind, board: &Board, sq: usize, color: Color) -> Vec<usize> {
    let size = board.size;
    let empty = |t: usize| board.men[t].is_none();
    let mut out = Vec::new();
    for &(dx, dy) in kind.pushes() {
        if let Some(t) = pawn_away(size, sq, (dx, dy), color).filter(|&t| empty(t)) {
            out.push(t);
            if rank(size, sq) == second_rank(size, color) {
                if let Some(t2) = pawn_away(size, sq, (2 * dx, 2 * dy), color).filter(|&t| empty(t))
                {
                    out.push(t2);
                }
            }
        }
    }
    for &d in kind.captures() {
        if let Some(t) = pawn_away(size, sq, d, color) {
            if matches!(board.men[t], Some((c, _, _)) if c != color) {
                out.push(t);
            }
        }
    }
    out
}

/// The square passed over when a pawn of `color` goes from `from` to `to`, if that is a
/// double step.
fn reference_passed(
    kind: PawnKind,
    size: BoardSize,
    color: Color,
    from: usize,
    to: usize,
) -> Option<usize> {
    if rank(size, from) != second_rank(size, color) {
        return None;
    }
    kind.pushes().iter().find_map(|&(dx, dy)| {
        (pawn_away(size, from, (2 * dx, 2 * dy), color) == Some(to))
            .then(|| pawn_away(size, from, (dx, dy), color))
            .flatten()
    })
}

/// Whether a pawn of `side` could capture onto `square` by one of its capturing steps (its
/// own royal's safety aside): the condition for keeping an en-passant right.
fn pawn_could_take(kind: PawnKind, board: &Board, side: Color, square: usize) -> bool {
    (0..board.squares()).any(|s| {
        board.men[s] == Some((side, 'P', false))
            && kind
                .captures()
                .iter()
                .any(|&d| pawn_away(board.size, s, d, side) == Some(square))
    })
}

/// The verdict on an en-passant square `square` given with `side` to move: `Err` when it is
/// not the square a pawn of the other side passed over by a double step to where it stands
/// (occupied; no double step over it from that side's second rank; no such pawn; the pawn's
/// origin occupied; two such pawns); else the victim's square, or `None` when no pawn of
/// `side` could take (the right is dropped).
fn reference_ep_verdict(
    board: &Board,
    side: Color,
    square: usize,
) -> Result<Option<usize>, &'static str> {
    let Some(kind) = board.pawn else {
        return Err("no pawn");
    };
    if board.men[square].is_some() {
        return Err("occupied");
    }
    let mover = side.flip();
    let size = board.size;
    let mut ways = 0;
    let mut pawns = Vec::new();
    for &(dx, dy) in kind.pushes() {
        let Some(origin) = pawn_away(size, square, (-dx, -dy), mover) else {
            continue;
        };
        let Some(end) = pawn_away(size, square, (dx, dy), mover) else {
            continue;
        };
        if rank(size, origin) != second_rank(size, mover) {
            continue;
        }
        ways += 1;
        if board.men[end] == Some((mover, 'P', false)) {
            pawns.push((origin, end));
        }
    }
    if ways == 0 {
        return Err("not passed");
    }
    if pawns.is_empty() {
        return Err("no victim");
    }
    let victims: Vec<usize> = pawns
        .iter()
        .filter(|&&(origin, _)| board.men[origin].is_none())
        .map(|&(_, end)| end)
        .collect();
    match victims[..] {
        [] => Err("origin occupied"),
        [victim] => Ok(pawn_could_take(kind, board, side, square).then_some(victim)),
        _ => Err("ambiguous"),
    }
}

/// The promotion letters: Q R B N A C on 10×8, Q R B N elsewhere, each if the set has it.
fn reference_promotions(set: &PieceSet, size: BoardSize) -> Vec<char> {
    let letters = if (size.files(), size.ranks()) == (10, 8) {
        "QRBNAC"
    } else {
        "QRBN"
    };
    letters.chars().filter(|&l| set.get(l).is_some()).collect()
}

// ---------------------------------------------------------------------------------------------
// Random placements.

#[derive(Debug, Clone)]
struct Placement {
    /// Index into `BOARDS`.
    board: usize,
    royals: [char; 2],
    /// (square, colour, letter); the first two are White's and Black's royals.
    men: Vec<(u8, Color, char)>,
    side: Color,
    /// The FEN's en-passant square.
    ep: Option<u8>,
}

/// A board of `BOARDS`: 8×8 (the first) in about a quarter of the cases, the others evenly.
fn any_board() -> impl Strategy<Value = usize> {
    prop_oneof![3 => Just(0), 8 => 1..BOARDS.len()]
}

/// Every square of board `i` of `BOARDS`.
fn all_squares(i: usize) -> Vec<u8> {
    board(i).all_squares().collect()
}

fn placement(letters: &[char]) -> impl Strategy<Value = Placement> {
    let letters = letters.to_vec();
    any_board().prop_flat_map(move |b| {
        let letter = || proptest::sample::select(letters.clone());
        let royal_letter = || prop_oneof![3 => Just('K'), 1 => letter()];
        (
            3usize..=5,
            subsequence(all_squares(b), 5).prop_shuffle(),
            [royal_letter(), royal_letter()],
            proptest::collection::vec((letter(), any::<bool>()), 3),
            any::<bool>(),
        )
            .prop_map(move |(n, squares, royals, extra, black)| {
                let mut men = vec![
                    (squares[0], Color::White, royals[0]),
                    (squares[1], Color::Black, royals[1]),
                ];
                for (i, &(l, b)) in extra.iter().take(n - 2).enumerate() {
                    men.push((
                        squares[2 + i],
                        if b { Color::Black } else { Color::White },
                        l,
                    ));
                }
                Placement {
                    board: b,
                    royals,
                    men,
                    side: if black { Color::Black } else { Color::White },
                    ep: None,
                }
            })
    })
}

fn color(black: bool) -> Color {
    if black {
        Color::Black
    } else {
        Color::White
    }
}

/// Random placements with pawns: both royals K, 1–4 other men, each a pawn P in half the
/// cases, the other men of `letters`. Half of the pawns stand one step from promotion (when
/// that square is free), the others anywhere, so that some stand on their first or last rank
/// (which `Position::new` refuses) and some on their second (double steps).
fn pawn_placement(letters: &[char]) -> impl Strategy<Value = Placement> {
    let letters = letters.to_vec();
    any_board().prop_flat_map(move |b| {
        let man = (
            any::<bool>(),
            proptest::sample::select(letters.clone()),
            any::<bool>(),
            any::<bool>(),
        );
        (
            subsequence(all_squares(b), 6).prop_shuffle(),
            proptest::collection::vec(man, 1..=4),
            any::<bool>(),
        )
            .prop_map(move |(squares, extra, black)| {
                let size = board(b);
                let mut men = vec![
                    (squares[0], Color::White, 'K'),
                    (squares[1], Color::Black, 'K'),
                ];
                for (i, &(pawn, l, black, near)) in extra.iter().enumerate() {
                    let c = color(black);
                    let mut sq = squares[2 + i];
                    if pawn && near {
                        let h = size.ranks() as usize;
                        let r = if c == Color::White { h - 2 } else { 1 };
                        let file = sq as usize % size.files() as usize;
                        let near = (r * size.files() as usize + file) as u8;
                        if !men.iter().any(|m| m.0 == near) && !squares[2..].contains(&near) {
                            sq = near;
                        }
                    }
                    men.push((sq, c, if pawn { 'P' } else { l }));
                }
                Placement {
                    board: b,
                    royals: ['K', 'K'],
                    men,
                    side: color(black),
                    ep: None,
                }
            })
    })
}

/// Random positions right after a double step of the side not to move, with the square it
/// passed over as the FEN's en-passant square: its pawn where the step ended; often a pawn of
/// the side to move beside it, ready to take (on a square from which a capturing step reaches
/// the square passed); often the side to move's king on the victim's rank and an enemy rook or
/// queen on it too (the rank pin); other men anywhere, now and then on the square passed or
/// on the victim's origin (which the FEN's square then cannot name). Boards of 4 ranks or
/// more (a double step needs them).
fn ep_placement(letters: &[char], kind: PawnKind) -> impl Strategy<Value = Placement> {
    let letters = letters.to_vec();
    let boards: Vec<usize> = (0..BOARDS.len()).filter(|&i| BOARDS[i].1 >= 4).collect();
    proptest::sample::select(boards).prop_flat_map(move |b| {
        let size = board(b);
        let extra = (
            0u8..4,
            proptest::sample::select(letters.clone()),
            any::<bool>(),
            any::<proptest::sample::Index>(),
        );
        (
            any::<bool>(),
            0..size.files() as usize,
            any::<proptest::sample::Index>(),
            any::<bool>(),
            subsequence(all_squares(b), 10).prop_shuffle(),
            proptest::collection::vec(extra, 1..=3),
            0u8..8,
        )
            .prop_map(
                move |(black, file, dir, king_on_rank, pool, extra, faults)| {
                    let side = color(black);
                    let mover = side.flip();
                    let w = size.files() as usize;
                    let origin = second_rank(size, mover) * w + file;
                    // The double step, turned inwards when it would leave the board.
                    let pushes = kind.pushes();
                    let mut d = pushes[dir.index(pushes.len())];
                    if pawn_away(size, origin, (2 * d.0, 2 * d.1), mover).is_none() {
                        d.0 = -d.0;
                    }
                    let passed = pawn_away(size, origin, d, mover).expect("on the board");
                    let end =
                        pawn_away(size, origin, (2 * d.0, 2 * d.1), mover).expect("on the board");
                    // Squares kept free (but when `faults` is 0).
                    let keep_free = |sq: usize| faults != 0 && (sq == origin || sq == passed);
                    let mut taken = vec![end];
                    let free_from = |wanted: Option<usize>, taken: &mut Vec<usize>| {
                        let ok =
                            |sq: usize, taken: &Vec<usize>| !taken.contains(&sq) && !keep_free(sq);
                        let sq = wanted
                            .filter(|&sq| ok(sq, taken))
                            .or_else(|| pool.iter().map(|&s| s as usize).find(|&s| ok(s, taken)))?;
                        taken.push(sq);
                        Some(sq as u8)
                    };
                    let on_rank = |i: &proptest::sample::Index| rank(size, end) * w + i.index(w);
                    let mut men = vec![(0u8, Color::White, 'K'); 2];
                    let own = free_from(king_on_rank.then(|| on_rank(&extra[0].3)), &mut taken);
                    let other = free_from(None, &mut taken);
                    men[side.index()] = (own.expect("room"), side, 'K');
                    men[mover.index()] = (other.expect("room"), mover, 'K');
                    men.push((end as u8, mover, 'P'));
                    for (role, l, black, i) in &extra {
                        let man = match role {
                            0 | 1 => {
                                let caps = kind.captures();
                                let c = caps[i.index(caps.len())];
                                let from = pawn_away(size, passed, (-c.0, -c.1), side);
                                free_from(from, &mut taken).map(|sq| (sq, side, 'P'))
                            }
                            2 => free_from(Some(on_rank(i)), &mut taken)
                                .map(|sq| (sq, mover, if *black { 'Q' } else { 'R' })),
                            _ => free_from(None, &mut taken).map(|sq| (sq, color(*black), *l)),
                        };
                        men.extend(man);
                    }
                    Placement {
                        board: b,
                        royals: ['K', 'K'],
                        men,
                        side,
                        ep: Some(passed as u8),
                    }
                },
            )
    })
}

/// What `Position::new` must answer for a setup, in its order of checks: a pawn on its first
/// or last rank, a second royal, a bad en-passant square, an enemy royal the side to move
/// attacks; else the position, with the en-passant right when kept.
#[derive(Debug)]
enum Verdict {
    PawnOnEdgeRank,
    TwoRoyals,
    /// Why, shown in a failure's message (through Debug).
    BadEnPassant(#[allow(dead_code)] &'static str),
    RoyalCapturable,
    Legal(Option<(usize, usize)>),
}

fn reference_verdict(set: &PieceSet, board: &Board, pl: &Placement) -> Verdict {
    let size = board.size;
    let edge = |sq: u8| [0, size.ranks() as usize - 1].contains(&rank(size, sq as usize));
    if pl.men.iter().any(|&(sq, _, l)| l == 'P' && edge(sq)) {
        return Verdict::PawnOnEdgeRank;
    }
    if pl.men[2..]
        .iter()
        .any(|&(_, c, l)| l == pl.royals[c.index()])
    {
        return Verdict::TwoRoyals;
    }
    let ep = match pl.ep {
        None => None,
        Some(square) => match reference_ep_verdict(board, pl.side, square as usize) {
            Err(why) => return Verdict::BadEnPassant(why),
            Ok(victim) => victim.map(|v| (square as usize, v)),
        },
    };
    if royal_attacked(set, board, pl.side.flip(), pl.side) {
        return Verdict::RoyalCapturable;
    }
    Verdict::Legal(ep)
}

/// Checks one placement against the reference: `Position::new`'s verdict (the en-passant
/// right kept or dropped), `in_check`, `legal_moves` (set and order, promotions and e.p.
/// captures included), `play` (victim removed, man promoted, the right after a double step),
/// `captured` and `parse_move`.
fn check(tables: &Tables, pl: &Placement) -> Result<(), TestCaseError> {
    let (set, g) = (&tables.set, &tables.geometries[pl.board]);
    let size = board(pl.board);
    prop_assert_eq!(g.board(), size);
    let mut setup = Setup::empty(size, pl.side);
    setup.en_passant = pl.ep;
    let mut board = Board {
        size,
        men: vec![None; size.squares()],
        pawn: tables.pawn,
        ep: None,
    };
    for (i, &(sq, c, l)) in pl.men.iter().enumerate() {
        // Lower-case letters for Black, as a FEN would give them.
        let stored = if c == Color::Black {
            l.to_ascii_lowercase()
        } else {
            l
        };
        setup.board[sq as usize] = Some((c, stored));
        board.men[sq as usize] = Some((c, l, i < 2));
    }
    let result = Position::new(&setup, g, pl.royals);
    let fen = setup.to_fen();
    let ep = match reference_verdict(set, &board, pl) {
        Verdict::Legal(ep) => ep,
        // A refused position: the refusal the reference names.
        refusal => {
            let right = matches!(
                (&refusal, &result),
                (
                    Verdict::PawnOnEdgeRank,
                    Err(PositionError::PawnOnEdgeRank { .. })
                ) | (Verdict::TwoRoyals, Err(PositionError::TwoRoyals { .. }))
                    | (
                        Verdict::BadEnPassant(_),
                        Err(PositionError::BadEnPassant { .. })
                    )
                    | (
                        Verdict::RoyalCapturable,
                        Err(PositionError::RoyalCapturable { .. })
                    )
            );
            prop_assert!(right, "{:?}, want {:?}: {}", result, refusal, fen);
            return Ok(());
        }
    };
    board.ep = ep;
    let pos = match result {
        Ok(p) => p,
        Err(e) => return Err(TestCaseError::fail(format!("unexpected error: {e}: {fen}"))),
    };
    prop_assert_eq!(pos.side_to_move(), pl.side);
    prop_assert_eq!(pos.board(), size);
    prop_assert_eq!(pos.royal(Color::White), pl.men[0].0);
    prop_assert_eq!(pos.royal(Color::Black), pl.men[1].0);
    prop_assert_eq!(
        pos.en_passant()
            .map(|e| (e.square as usize, e.victim as usize)),
        ep,
        "{}",
        fen
    );
    prop_assert_eq!(
        pos.in_check(g),
        royal_attacked(set, &board, pl.side, pl.side.flip())
    );

    let moves = pos.legal_moves(g);
    prop_assert!(
        moves.windows(2).all(|w| w[0] < w[1]),
        "not sorted: {:?}",
        moves
    );
    let got: BTreeSet<RefMove> = moves
        .iter()
        .map(|m| (m.from, m.to, m.promotion.map(|p| p.letter)))
        .collect();
    let want = reference_legal(set, &board, pl.side);
    prop_assert_eq!(&got, &want, "position {} on {}", fen, size);

    // Every legal move gives a legal position (the mover's royal is safe), which is the
    // position the reference board reaches, and parse_move accepts its text.
    for mv in moves {
        prop_assert_eq!(mv.board, size);
        let after = pos.play(mv);
        let mover = board.men[mv.from as usize].expect("a man moves");
        let (from, to) = (mv.from as usize, mv.to as usize);
        // An e.p. capture is a capturing step onto the square passed (a Berolina pawn may
        // also step there diagonally, taking nothing).
        let victim = match (board.ep, board.pawn) {
            (Some((square, victim)), Some(kind)) if mover.1 == 'P' && to == square => kind
                .captures()
                .iter()
                .any(|&d| pawn_away(size, from, d, pl.side) == Some(to))
                .then_some(victim),
            _ => None,
        };
        let mut b = reference_play(&board, from, to, victim, mv.promotion.map(|p| p.letter));
        let captured = board.men[victim.unwrap_or(to)];
        prop_assert_eq!(
            pos.captured(mv).map(|m| (m.color, m.letter, m.royal)),
            captured
        );
        prop_assert_eq!(
            pos.converts(mv),
            captured.is_some() || mv.promotion.is_some()
        );
        for s in size.all_squares() {
            let man = after.men().iter().find(|m| m.square == s);
            prop_assert_eq!(man.map(|m| (m.color, m.letter, m.royal)), b.men[s as usize]);
        }
        // The right after a double step: kept when a pawn of the side now to move could take.
        let passed = match (mover.1, board.pawn) {
            ('P', Some(kind)) => reference_passed(kind, size, pl.side, from, to),
            _ => None,
        };
        let right = passed
            .filter(|&sq| pawn_could_take(board.pawn.unwrap(), &b, pl.side.flip(), sq))
            .map(|sq| (sq, to));
        prop_assert_eq!(
            after
                .en_passant()
                .map(|e| (e.square as usize, e.victim as usize)),
            right,
            "{} after {}",
            fen,
            mv.text()
        );
        b.ep = right;
        // Read back from its setup: the same position, unless the square passed is one two
        // pawns could have passed (Berolina), which a FEN cannot say.
        let again = Position::new(&after.to_setup(), g, pl.royals);
        match right.map(|(sq, _)| reference_ep_verdict(&b, pl.side.flip(), sq)) {
            Some(Err(why)) => prop_assert!(
                matches!(again, Err(PositionError::BadEnPassant { .. })),
                "{:?}, want bad e.p. ({}) after {} in {}",
                again,
                why,
                mv.text(),
                fen
            ),
            _ => prop_assert_eq!(again, Ok(after.clone())),
        }
        prop_assert_eq!(pos.parse_move(&mv.text(), g), Ok(mv));
    }
    // And every other from/to pair of an own man is refused, as is a promotion without its
    // letter or with a letter that is no promotion piece.
    for m in pos.men().iter().filter(|m| m.color == pl.side) {
        for to in size.all_squares() {
            let mv = Move::new(m.square, to, size);
            if !want.contains(&(mv.from, mv.to, None)) {
                prop_assert!(
                    pos.parse_move(&mv.text(), g).is_err(),
                    "{} in {}",
                    mv.text(),
                    fen
                );
            }
            if want.contains(&(mv.from, mv.to, Some('Q'))) {
                let text = format!("{}k", mv.text());
                prop_assert!(pos.parse_move(&text, g).is_err(), "{} in {}", text, fen);
            }
        }
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 30_000, ..ProptestConfig::default() })]

    /// The hand-built set: range limits, capture-only/move-only steps, asymmetric pieces.
    #[test]
    fn hand_built_set_matches_reference(pl in placement(&hand_built().letters)) {
        check(hand_built(), &pl)?;
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 30_000, ..ProptestConfig::default() })]

    /// Lame leapers, hoppers, grasshoppers and one-way pieces, read from Betza text.
    #[test]
    fn special_set_matches_reference(pl in placement(&special().letters)) {
        check(special(), &pl)?;
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 15_000, ..ProptestConfig::default() })]

    /// The shipped piece definitions, every letter.
    #[test]
    fn standard_set_matches_reference(pl in placement(&standard().letters)) {
        check(standard(), &pl)?;
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 6_000, ..ProptestConfig::default() })]

    /// The shipped orthodox pawn among the shipped pieces: pushes, double steps, captures,
    /// promotion to each piece of the board's list, no pawn on the first or last rank.
    #[test]
    fn orthodox_pawns_match_reference(pl in pawn_placement(&standard().letters)) {
        check(standard(), &pl)?;
    }

    /// The Berolina pawn of tests/data/berolina.ini, the same way.
    #[test]
    fn berolina_pawns_match_reference(pl in pawn_placement(&berolina().letters)) {
        check(berolina(), &pl)?;
    }

    /// Orthodox positions right after a double step, with the square passed as the FEN's
    /// en-passant square: the right kept or dropped, the capture, its pins along the rank.
    #[test]
    fn orthodox_en_passant_matches_reference(
        pl in ep_placement(&standard().letters, PawnKind::Orthodox),
    ) {
        check(standard(), &pl)?;
    }

    /// Berolina positions right after a diagonal double step, the same way (and the square
    /// two pawns could have passed, which is refused).
    #[test]
    fn berolina_en_passant_matches_reference(
        pl in ep_placement(&berolina().letters, PawnKind::Berolina),
    ) {
        check(berolina(), &pl)?;
    }
}

// ---------------------------------------------------------------------------------------------
// The builder's bitboard queries of `PieceMoves`, against the same step walk.

/// A board of `BOARDS`, a square of it and up to `others` other squares of it.
fn square_among_others(others: usize) -> impl Strategy<Value = (usize, u8, Vec<u8>)> {
    any_board().prop_flat_map(move |b| {
        (
            Just(b),
            proptest::sample::select(all_squares(b)),
            subsequence(all_squares(b), 0..=others),
        )
    })
}

/// For a man `letter` of `color` on `from` among the men on `occupied`: the empty squares it
/// moves to, the empty squares its capturing steps cross, and the occupied squares it could
/// capture on.
fn reference_reach(
    set: &PieceSet,
    size: BoardSize,
    letter: char,
    color: Color,
    from: usize,
    occupied: Squares,
) -> (Squares, Squares, Squares) {
    let piece = set.get(letter).expect("reference: known letter");
    let (w, h) = (size.files() as i32, size.ranks() as i32);
    let (f0, r0) = (from as i32 % w, from as i32 / w);
    let none = Squares::default();
    let (mut quiet, mut crossed, mut hits) = (none, none, none);
    for step in &piece.steps {
        let dy = if color == Color::White {
            step.dy as i32
        } else {
            -(step.dy as i32)
        };
        let mut n = 1;
        while step.range == 0 || n <= step.range as i32 {
            let (f, r) = (f0 + n * step.dx as i32, r0 + n * dy);
            if !(0..w).contains(&f) || !(0..h).contains(&r) {
                break;
            }
            let t = (r * w + f) as usize;
            if occupied.has(t) {
                if step.mode != StepMode::MoveOnly {
                    hits = hits.with(t);
                }
                break;
            }
            if step.mode != StepMode::CaptureOnly {
                quiet = quiet.with(t);
            }
            if step.mode != StepMode::MoveOnly {
                crossed = crossed.with(t);
            }
            n += 1;
        }
    }
    (quiet, crossed, hits)
}

/// Checks `quiet_targets`, `unmove_origins`, `attack_set`, `attackers`, `attacks` and
/// `attacks_with_extra` of one piece on one square among the men on `occupied`, at the width of
/// square sets the geometry's board uses.
fn check_bitboards(
    set: &PieceSet,
    g: &Geometry,
    letter: char,
    color: Color,
    sq: u8,
    occupied: Squares,
) -> Result<(), TestCaseError> {
    let id = g.pieces().id(letter).expect("known letter");
    fairy_egt::with_tables!(g, |t| check_bitboards_at(
        set,
        g.board(),
        t.moves(id, color),
        letter,
        color,
        sq,
        occupied
    ))
}

/// `check_bitboards` with the move tables at their width `S`.
fn check_bitboards_at<S: SquareSet>(
    set: &PieceSet,
    size: BoardSize,
    pm: &PieceMoves<S>,
    letter: char,
    color: Color,
    sq: u8,
    occupied: Squares,
) -> Result<(), TestCaseError> {
    let reach = |from: u8, occupied: Squares| {
        reference_reach(set, size, letter, color, from as usize, occupied)
    };
    let occupied = occupied.without(sq as usize);
    let occ: S = occupied.to_set();
    let (quiet, crossed, hits) = reach(sq, occupied);
    let got = pm.quiet_targets(sq, occ);
    prop_assert_eq!(
        got,
        quiet.to_set::<S>(),
        "{} on {} quiet: {:?}",
        letter,
        size,
        names(size, got)
    );
    let got = pm.attack_set(sq, occ);
    prop_assert_eq!(
        got,
        crossed.to_set::<S>(),
        "{} on {} attack set: {:?}",
        letter,
        size,
        names(size, got)
    );
    for t in size.all_squares() {
        let attacked = hits.or(crossed).has(t as usize);
        let with_target = occupied.with(t as usize);
        prop_assert_eq!(
            pm.attacks(sq, t, with_target.to_set()),
            attacked,
            "{} on {} attacks {}",
            letter,
            size,
            t
        );
        // With one more man: exactly the free squares where he leaves the attack standing.
        let with_extra = pm.attacks_with_extra(sq, t, with_target.to_set());
        let (mut free, mut want) = (Squares::default(), Squares::default());
        for x in size.all_squares() {
            let x = x as usize;
            if x != sq as usize && x != t as usize && !with_target.has(x) {
                free = free.with(x);
                let (_, c2, h2) = reach(sq, with_target.with(x));
                if c2.or(h2).has(t as usize) {
                    want = want.with(x);
                }
            }
        }
        let got = with_extra & free.to_set::<S>();
        prop_assert_eq!(
            got,
            want.to_set::<S>(),
            "{} on {} attacks {} with one more man: {:?}",
            letter,
            size,
            t,
            names(size, got)
        );
    }
    // Origins of un-moves to `sq` and attackers of `sq`: every empty square from which the
    // man's own steps lead there.
    let (mut origins, mut attackers) = (Squares::default(), Squares::default());
    for x in size
        .all_squares()
        .filter(|&x| x != sq && !occupied.has(x as usize))
    {
        let (q, c, h) = reach(x, occupied);
        if q.has(sq as usize) {
            origins = origins.with(x as usize);
        }
        let (_, _, h_occ) = reach(x, occupied.with(sq as usize));
        if c.or(h).has(sq as usize) && h_occ.has(sq as usize) {
            attackers = attackers.with(x as usize);
        }
    }
    let got = pm.unmove_origins(sq, occ);
    prop_assert_eq!(
        got,
        origins.to_set::<S>(),
        "{} on {} origins: {:?}",
        letter,
        size,
        names(size, got)
    );
    let got = pm.attackers(sq, occ);
    prop_assert_eq!(
        got,
        attackers.to_set::<S>(),
        "{} on {} attackers: {:?}",
        letter,
        size,
        names(size, got)
    );
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 4_500, ..ProptestConfig::default() })]

    /// Every letter of the hand-built and the shipped set that moves plainly (the set queries
    /// model plain leaps and rides; the shipped hoppers and lame leapers are in the special
    /// set below), on random boards of 0–6 other men.
    #[test]
    fn bitboard_queries_match_reference(
        pick in any::<proptest::sample::Index>(),
        shipped in any::<bool>(),
        black in any::<bool>(),
        (b, sq, others) in square_among_others(6),
    ) {
        let tables = if shipped { standard() } else { hand_built() };
        let set = &tables.set;
        let plain: Vec<char> = tables
            .letters
            .iter()
            .copied()
            .filter(|&l| set.get(l).is_some_and(|p| !p.has_special_steps()))
            .collect();
        let letter = plain[pick.index(plain.len())];
        let color = if black { Color::Black } else { Color::White };
        let occupied = Squares::of(others.iter().map(|&s| s as usize));
        check_bitboards(set, &tables.geometries[b], letter, color, sq, occupied)?;
    }
}

/// Checks `attacks`, `special_targets` and `special_origins` of a piece of the special set
/// on one square among the men on `occupied`, against `walk_step`, at the width of square sets
/// the geometry's board uses.
fn check_specials(
    set: &PieceSet,
    g: &Geometry,
    letter: char,
    color: Color,
    sq: u8,
    occupied: Squares,
) -> Result<(), TestCaseError> {
    let id = g.pieces().id(letter).expect("known letter");
    fairy_egt::with_tables!(g, |t| check_specials_at(
        set,
        g.board(),
        t.moves(id, color),
        letter,
        color,
        sq,
        occupied
    ))
}

/// `check_specials` with the move tables at their width `S`.
fn check_specials_at<S: SquareSet>(
    set: &PieceSet,
    size: BoardSize,
    pm: &PieceMoves<S>,
    letter: char,
    color: Color,
    sq: u8,
    occupied: Squares,
) -> Result<(), TestCaseError> {
    let piece = set.get(letter).expect("known letter");
    let occupied = occupied.without(sq as usize);
    let walk = |from: u8, occ: Squares, special_only: bool| {
        piece
            .steps
            .iter()
            .filter(|s| !special_only || s.kind != StepKind::Plain)
            .fold((Squares::default(), Squares::default()), |(q, h), s| {
                let (q2, h2) = walk_step(s, color, size, from as usize, occ);
                (q.or(q2), h.or(h2))
            })
    };
    prop_assert_eq!(
        pm.is_plain(),
        piece.steps.iter().all(|s| s.kind == StepKind::Plain)
    );
    let (quiet, captures) = walk(sq, occupied, true);
    let got = pm.special_targets(sq, occupied.to_set());
    prop_assert_eq!(
        got,
        (quiet.to_set::<S>(), captures.to_set::<S>()),
        "{} on {} special targets: {:?} {:?}",
        letter,
        size,
        names(size, got.0),
        names(size, got.1)
    );
    for t in size.all_squares().filter(|&t| t != sq) {
        let with_target = occupied.with(t as usize);
        prop_assert_eq!(
            pm.attacks(sq, t, with_target.to_set()),
            walk(sq, with_target, false).1.has(t as usize),
            "{} on {} attacks {}",
            letter,
            size,
            t
        );
    }
    // Origins: the empty squares from which a special quiet move leads to `sq` (on the board
    // before the move, `sq` empty); asked with the man on `sq`, as the builder does.
    let origins = Squares::of(
        size.all_squares()
            .filter(|&x| x != sq && !occupied.has(x as usize))
            .filter(|&x| walk(x, occupied, true).0.has(sq as usize))
            .map(|x| x as usize),
    );
    let got = pm.special_origins(sq, occupied.with(sq as usize).to_set());
    prop_assert_eq!(
        got,
        origins.to_set::<S>(),
        "{} on {} special origins: {:?}",
        letter,
        size,
        names(size, got)
    );
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 7_500, ..ProptestConfig::default() })]

    /// Every letter of the special set, on random boards of 0–8 other men.
    #[test]
    fn special_queries_match_reference(
        pick in any::<proptest::sample::Index>(),
        black in any::<bool>(),
        (b, sq, others) in square_among_others(8),
    ) {
        let tables = special();
        let letter = tables.letters[pick.index(tables.letters.len())];
        let color = if black { Color::Black } else { Color::White };
        let occupied = Squares::of(others.iter().map(|&s| s as usize));
        check_specials(&tables.set, &tables.geometries[b], letter, color, sq, occupied)?;
    }
}
