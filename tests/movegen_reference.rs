//! `Position::legal_moves`, `in_check`, `play`, `captured`, `parse_move` and `Position::new`'s
//! verdict checked against a deliberately slow, obviously-correct reference generator that walks
//! the pieces' `Step` lists directly on an array of W×H squares (it does not use
//! `board::geometry`), on random placements of 3-5 men: from a hand-built set that exercises
//! range limits, capture-only/move-only steps and asymmetric pieces, and from the shipped
//! `piecedef.ini` (but its pawn P, whose rules movegen_pyffish.py checks). The bitboard
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
    (12, 12, 256),
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
    letters: Vec<char>,
    geometries: Vec<Geometry>,
}

impl Tables {
    fn new(set: PieceSet) -> Tables {
        let geometries = (0..BOARDS.len())
            .map(|i| Geometry::on(&set, board(i)))
            .collect();
        // The pawn (shipped as P) is never placed: its rules (initial steps from the second
        // rank only, promotion, en passant, no pawn on the first or last rank) are not in
        // the reference; movegen_pyffish.py compares them with Fairy-Stockfish.
        let letters = set.letters().chars().filter(|&l| l != 'P').collect();
        Tables {
            set,
            letters,
            geometries,
        }
    }
}

/// The hand-built piece set, built once.
fn hand_built() -> &'static Tables {
    static TABLES: OnceLock<Tables> = OnceLock::new();
    TABLES.get_or_init(|| Tables::new(piece_set()))
}

/// The shipped `piecedef.ini` (`PieceSet::standard()`).
fn standard() -> &'static Tables {
    static TABLES: OnceLock<Tables> = OnceLock::new();
    TABLES.get_or_init(|| Tables::new(PieceSet::standard()))
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

/// The men of a position: (colour, letter, royal) per square of a board of `size`.
#[derive(Clone)]
struct Board {
    size: BoardSize,
    men: Vec<Option<(Color, char, bool)>>,
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

/// Legal moves: every move of the steps after which no enemy man can capture the mover's royal.
fn reference_legal(set: &PieceSet, board: &Board, side: Color) -> BTreeSet<(u8, u8)> {
    let mut out = BTreeSet::new();
    for from in 0..board.squares() {
        if !matches!(board.men[from], Some((c, _, _)) if c == side) {
            continue;
        }
        for to in reference_targets(set, board, from) {
            let mut after = board.clone();
            after.men[to] = after.men[from].take();
            if !royal_attacked(set, &after, side, side.flip()) {
                out.insert((from as u8, to as u8));
            }
        }
    }
    out
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
                }
            })
    })
}

/// Checks one placement against the reference: `Position::new`'s verdict, `in_check`,
/// `legal_moves` (set and order), `play`, `captured` and `parse_move`.
fn check(tables: &Tables, pl: &Placement) -> Result<(), TestCaseError> {
    let (set, g) = (&tables.set, &tables.geometries[pl.board]);
    let size = board(pl.board);
    prop_assert_eq!(g.board(), size);
    let mut setup = Setup::empty(size, pl.side);
    let mut board = Board {
        size,
        men: vec![None; size.squares()],
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
    let duplicate = pl.men[2..]
        .iter()
        .any(|&(_, c, l)| l == pl.royals[c.index()]);
    if duplicate {
        prop_assert!(
            matches!(result, Err(PositionError::TwoRoyals { .. })),
            "{:?}",
            result
        );
        return Ok(());
    }
    if royal_attacked(set, &board, pl.side.flip(), pl.side) {
        prop_assert!(
            matches!(result, Err(PositionError::RoyalCapturable { .. })),
            "{:?}",
            result
        );
        return Ok(());
    }
    let pos = match result {
        Ok(p) => p,
        Err(e) => return Err(TestCaseError::fail(format!("unexpected error: {e}"))),
    };
    prop_assert_eq!(pos.side_to_move(), pl.side);
    prop_assert_eq!(pos.board(), size);
    prop_assert_eq!(pos.royal(Color::White), pl.men[0].0);
    prop_assert_eq!(pos.royal(Color::Black), pl.men[1].0);
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
    let got: BTreeSet<(u8, u8)> = moves.iter().map(|m| (m.from, m.to)).collect();
    let want = reference_legal(set, &board, pl.side);
    prop_assert_eq!(&got, &want, "position {} on {}", setup.to_fen(), size);

    // Every legal move gives a legal position (the mover's royal is safe), which is the
    // position the reference board reaches, and parse_move accepts its text.
    for mv in moves {
        prop_assert_eq!(mv.board, size);
        let after = pos.play(mv);
        prop_assert_eq!(
            Position::new(&after.to_setup(), g, pl.royals),
            Ok(after.clone())
        );
        let mut b = board.clone();
        let captured = b.men[mv.to as usize];
        b.men[mv.to as usize] = b.men[mv.from as usize].take();
        prop_assert_eq!(
            pos.captured(mv).map(|m| (m.color, m.letter, m.royal)),
            captured
        );
        for s in size.all_squares() {
            let man = after.men().iter().find(|m| m.square == s);
            prop_assert_eq!(man.map(|m| (m.color, m.letter, m.royal)), b.men[s as usize]);
        }
        prop_assert_eq!(pos.parse_move(&mv.text(), g), Ok(mv));
    }
    // And every other from/to pair of an own man is refused.
    for m in pos.men().iter().filter(|m| m.color == pl.side) {
        for to in size.all_squares() {
            let mv = Move::new(m.square, to, size);
            if !want.contains(&(mv.from, mv.to)) {
                prop_assert!(pos.parse_move(&mv.text(), g).is_err());
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
/// `attack_shadow` of one piece on one square among the men on `occupied`, at the width of
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
        // The shadow: exactly the free squares where one more man stops every attack.
        let shadow = pm.attack_shadow(sq, t, with_target.to_set());
        prop_assert_eq!(
            shadow.is_some(),
            attacked,
            "{} on {} shadow of {}",
            letter,
            size,
            t
        );
        if let Some(shadow) = shadow {
            let mut want = Squares::default();
            for x in size.all_squares() {
                let x = x as usize;
                if x != sq as usize && x != t as usize && !with_target.has(x) {
                    let (_, c2, h2) = reach(sq, with_target.with(x));
                    if !c2.or(h2).has(t as usize) {
                        want = want.with(x);
                    }
                }
            }
            prop_assert_eq!(
                shadow,
                want.to_set::<S>(),
                "{} on {} shadow of {}: {:?}",
                letter,
                size,
                t,
                names(size, shadow)
            );
        }
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
