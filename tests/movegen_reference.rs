//! `Position::legal_moves`, `in_check`, `play`, `captured`, `parse_move` and `Position::new`'s
//! verdict checked against a deliberately slow, obviously-correct reference generator that walks
//! the pieces' `Step` lists directly on a 64-square array (it does not use `board::geometry`),
//! on random placements of 3-5 men: from a hand-built set that exercises range limits,
//! capture-only/move-only steps and asymmetric pieces, and from the shipped `piecedef.ini`.
//! The bitboard queries of `board::geometry::PieceMoves` that the builder uses are checked
//! against the same step walk.

use fairy_egt::board::geometry::{AnyTables, Geometry};
use fairy_egt::board::BoardSize;
use fairy_egt::board::{Color, Move, Position, PositionError, Setup};
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

/// The hand-built piece set, its move tables and its letters, built once.
fn hand_built() -> &'static (PieceSet, Geometry, Vec<char>) {
    static TABLES: OnceLock<(PieceSet, Geometry, Vec<char>)> = OnceLock::new();
    TABLES.get_or_init(|| {
        let set = piece_set();
        let g = Geometry::new(&set);
        let letters = set.letters().chars().collect();
        (set, g, letters)
    })
}

/// The shipped `piecedef.ini` (`PieceSet::standard()`), its move tables and its letters.
fn standard() -> &'static (PieceSet, Geometry, Vec<char>) {
    static TABLES: OnceLock<(PieceSet, Geometry, Vec<char>)> = OnceLock::new();
    TABLES.get_or_init(|| {
        let set = PieceSet::standard();
        let g = Geometry::new(&set);
        let letters = set.letters().chars().collect();
        (set, g, letters)
    })
}

/// Pieces read from Betza text that walk their steps other than plainly, or move one way:
/// the Xiangqi cannon, horse and elephant, hoppers and grasshoppers on every kind of line,
/// long lame leaps, the gold and silver generals, a one-sided wazir.
fn special() -> &'static (PieceSet, Geometry, Vec<char>) {
    static TABLES: OnceLock<(PieceSet, Geometry, Vec<char>)> = OnceLock::new();
    TABLES.get_or_init(|| {
        let text = "K: K\nQ: Q\nN: N\nO: mRcpR\nP: pQ\nG: gQ\nU: nN\nT: nA\nL: nDnHnG\n\
                    H: gNN\nI: cpNNmB\nS: FfW\nJ: WfF\nR: rW\nM: mgRcN";
        let set = parse_piece_defs(text, "special").unwrap_or_else(|e| panic!("{e}"));
        let g = Geometry::new(&set);
        let letters = set.letters().chars().collect();
        (set, g, letters)
    })
}

// ---------------------------------------------------------------------------------------------
// The reference generator.

/// (colour, letter, royal) per square.
type Board = [Option<(Color, char, bool)>; 64];

/// Every square a man on `sq` can go to, as the steps say (see `walk_step`); an occupied
/// square is a target if it holds an enemy.
fn reference_targets(set: &PieceSet, board: &Board, sq: usize) -> Vec<usize> {
    let Some((color, letter, _)) = board[sq] else {
        return Vec::new();
    };
    let occupied = (0..64).fold(0u64, |o, s| if board[s].is_some() { o | 1 << s } else { o });
    let piece = set.get(letter).expect("reference: known letter");
    let mut out = Vec::new();
    for step in &piece.steps {
        let (quiet, hits) = walk_step(step, color, sq, occupied);
        for t in (0..64).filter(|&t| (quiet | hits) & 1 << t != 0) {
            let enemy = matches!(board[t], Some((c, _, _)) if c != color);
            if board[t].is_none() || enemy {
                out.push(t);
            }
        }
    }
    out
}

/// The square `n` steps away from `sq` (rank steps negated for Black), if on the board.
fn away(sq: usize, step: &Step, color: Color, n: i32) -> Option<usize> {
    let dy = if color == Color::White {
        step.dy as i32
    } else {
        -(step.dy as i32)
    };
    let (f, r) = (
        (sq % 8) as i32 + n * step.dx as i32,
        (sq / 8) as i32 + n * dy,
    );
    ((0..8).contains(&f) && (0..8).contains(&r)).then_some((r * 8 + f) as usize)
}

/// One step of a man of `color` on `sq`, walked square by square among the men on
/// `occupied`: the empty squares it goes to, and the occupied squares it may capture on.
/// - plain: repeat up to the range, stop at an occupied square;
/// - lame leap: blocked when a square on its way is occupied: for a straight or diagonal
///   leap every square between; for a (2,1) leap the square one step along its longer side;
/// - hop: over empty squares to a screen, over it, on over empty squares to the first man;
/// - grasshop: over empty squares to a screen, landing just beyond it.
fn walk_step(step: &Step, color: Color, sq: usize, occupied: u64) -> (u64, u64) {
    let may_move = step.mode != StepMode::CaptureOnly;
    let may_capture = step.mode != StepMode::MoveOnly;
    let full = |t: usize| occupied & 1 << t != 0;
    let land = |t: usize| -> (u64, u64) {
        match (full(t), may_move, may_capture) {
            (false, true, _) => (1 << t, 0),
            (true, _, true) => (0, 1 << t),
            _ => (0, 0),
        }
    };
    let line: Vec<usize> = (1..)
        .take(if step.range == 0 {
            8
        } else {
            step.range as usize
        })
        .map_while(|n| away(sq, step, color, n))
        .collect();
    match step.kind {
        StepKind::Plain => {
            let (mut quiet, mut hits) = (0, 0);
            for &t in &line {
                let (q, h) = land(t);
                quiet |= q;
                hits |= h;
                if full(t) {
                    break;
                }
            }
            (quiet, hits)
        }
        StepKind::Lame => {
            let Some(&to) = line.first() else {
                return (0, 0);
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
            let blocked = way
                .iter()
                .any(|&(dx, dy)| away(sq, &Step { dx, dy, ..*step }, color, 1).is_some_and(full));
            if blocked {
                (0, 0)
            } else {
                land(to)
            }
        }
        StepKind::Hop => {
            let Some(screen) = line.iter().position(|&t| full(t)) else {
                return (0, 0);
            };
            let mut quiet = 0;
            for &t in &line[screen + 1..] {
                let (q, h) = land(t);
                if full(t) {
                    return (quiet, h);
                }
                quiet |= q;
            }
            (quiet, 0)
        }
        StepKind::Grasshop => line
            .iter()
            .position(|&t| full(t))
            .and_then(|k| line.get(k + 1))
            .map_or((0, 0), |&t| land(t)),
    }
}

fn royal_square(board: &Board, color: Color) -> Option<usize> {
    (0..64).find(|&s| matches!(board[s], Some((c, _, true)) if c == color))
}

/// Whether some man of `by` can go to (capture on) `color`'s royal square.
fn royal_attacked(set: &PieceSet, board: &Board, color: Color, by: Color) -> bool {
    let Some(royal) = royal_square(board, color) else {
        return false;
    };
    (0..64)
        .filter(|&s| matches!(board[s], Some((c, _, _)) if c == by))
        .any(|s| reference_targets(set, board, s).contains(&royal))
}

/// Legal moves: every move of the steps after which no enemy man can capture the mover's royal.
fn reference_legal(set: &PieceSet, board: &Board, side: Color) -> BTreeSet<(u8, u8)> {
    let mut out = BTreeSet::new();
    for from in 0..64 {
        if !matches!(board[from], Some((c, _, _)) if c == side) {
            continue;
        }
        for to in reference_targets(set, board, from) {
            let mut after = *board;
            after[to] = after[from].take();
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
    royals: [char; 2],
    /// (square, colour, letter); the first two are White's and Black's royals.
    men: Vec<(u8, Color, char)>,
    side: Color,
}

fn placement(letters: &[char]) -> impl Strategy<Value = Placement> {
    let letter = || proptest::sample::select(letters.to_vec());
    let royal_letter = || prop_oneof![3 => Just('K'), 1 => letter()];
    (
        3usize..=5,
        subsequence((0u8..64).collect::<Vec<_>>(), 5).prop_shuffle(),
        [royal_letter(), royal_letter()],
        proptest::collection::vec((letter(), any::<bool>()), 3),
        any::<bool>(),
    )
        .prop_map(|(n, squares, royals, extra, black)| {
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
                royals,
                men,
                side: if black { Color::Black } else { Color::White },
            }
        })
}

/// Checks one placement against the reference: `Position::new`'s verdict, `in_check`,
/// `legal_moves` (set and order), `play`, `captured` and `parse_move`.
fn check(set: &PieceSet, g: &Geometry, pl: &Placement) -> Result<(), TestCaseError> {
    let mut setup = Setup::empty(BoardSize::STANDARD, pl.side);
    let mut board: Board = [None; 64];
    for (i, &(sq, c, l)) in pl.men.iter().enumerate() {
        // Lower-case letters for Black, as a FEN would give them.
        let stored = if c == Color::Black {
            l.to_ascii_lowercase()
        } else {
            l
        };
        setup.board[sq as usize] = Some((c, stored));
        board[sq as usize] = Some((c, l, i < 2));
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
    prop_assert_eq!(&got, &want, "position {}", setup.to_fen());

    // Every legal move gives a legal position (the mover's royal is safe), which is the
    // position the reference board reaches, and parse_move accepts its text.
    for mv in moves {
        let after = pos.play(mv);
        prop_assert_eq!(
            Position::new(&after.to_setup(), g, pl.royals),
            Ok(after.clone())
        );
        let mut b = board;
        let captured = b[mv.to as usize];
        b[mv.to as usize] = b[mv.from as usize].take();
        prop_assert_eq!(
            pos.captured(mv).map(|m| (m.color, m.letter, m.royal)),
            captured
        );
        for s in 0..64u8 {
            let man = after.men().iter().find(|m| m.square == s);
            prop_assert_eq!(man.map(|m| (m.color, m.letter, m.royal)), b[s as usize]);
        }
        prop_assert_eq!(pos.parse_move(&mv.text(), g), Ok(mv));
    }
    // And every other from/to pair of an own man is refused.
    for m in pos.men().iter().filter(|m| m.color == pl.side) {
        for to in 0..64u8 {
            let mv = Move {
                from: m.square,
                to,
                board: BoardSize::STANDARD,
            };
            if !want.contains(&(mv.from, mv.to)) {
                prop_assert!(pos.parse_move(&mv.text(), g).is_err());
            }
        }
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 20_000, ..ProptestConfig::default() })]

    /// The hand-built set: range limits, capture-only/move-only steps, asymmetric pieces.
    #[test]
    fn hand_built_set_matches_reference(pl in placement(&hand_built().2)) {
        let (set, g, _) = hand_built();
        check(set, g, &pl)?;
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 20_000, ..ProptestConfig::default() })]

    /// Lame leapers, hoppers, grasshoppers and one-way pieces, read from Betza text.
    #[test]
    fn special_set_matches_reference(pl in placement(&special().2)) {
        let (set, g, _) = special();
        check(set, g, &pl)?;
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 10_000, ..ProptestConfig::default() })]

    /// The shipped piece definitions, every letter.
    #[test]
    fn standard_set_matches_reference(pl in placement(&standard().2)) {
        let (set, g, _) = standard();
        check(set, g, &pl)?;
    }
}

// ---------------------------------------------------------------------------------------------
// The builder's bitboard queries of `PieceMoves`, against the same step walk.

/// For a man `letter` of `color` on `from` among the men on `occupied`: the empty squares it
/// moves to, the empty squares its capturing steps cross, and the occupied squares it could
/// capture on.
fn reference_reach(
    set: &PieceSet,
    letter: char,
    color: Color,
    from: usize,
    occupied: u64,
) -> (u64, u64, u64) {
    let piece = set.get(letter).expect("reference: known letter");
    let (f0, r0) = ((from % 8) as i32, (from / 8) as i32);
    let (mut quiet, mut crossed, mut hits) = (0u64, 0u64, 0u64);
    for step in &piece.steps {
        let dy = if color == Color::White {
            step.dy as i32
        } else {
            -(step.dy as i32)
        };
        let mut n = 1;
        while step.range == 0 || n <= step.range as i32 {
            let (f, r) = (f0 + n * step.dx as i32, r0 + n * dy);
            if !(0..8).contains(&f) || !(0..8).contains(&r) {
                break;
            }
            let bit = 1u64 << (r * 8 + f);
            if occupied & bit != 0 {
                if step.mode != StepMode::MoveOnly {
                    hits |= bit;
                }
                break;
            }
            if step.mode != StepMode::CaptureOnly {
                quiet |= bit;
            }
            if step.mode != StepMode::MoveOnly {
                crossed |= bit;
            }
            n += 1;
        }
    }
    (quiet, crossed, hits)
}

/// Checks `quiet_targets`, `unmove_origins`, `attack_set`, `attackers`, `attacks` and
/// `attack_shadow` of one piece on one square among the men on `occupied`.
fn check_bitboards(
    set: &PieceSet,
    g: &Geometry,
    letter: char,
    color: Color,
    sq: u8,
    occupied: u64,
) -> Result<(), TestCaseError> {
    let AnyTables::Narrow(tables) = g.tables() else {
        panic!("an 8x8 geometry has 64-bit square sets");
    };
    let pm = tables.moves(g.pieces().id(letter).expect("known letter"), color);
    let occupied = occupied & !(1 << sq);
    let (quiet, crossed, hits) = reference_reach(set, letter, color, sq as usize, occupied);
    prop_assert_eq!(pm.quiet_targets(sq, occupied), quiet, "{} quiet", letter);
    prop_assert_eq!(
        pm.attack_set(sq, occupied),
        crossed,
        "{} attack set",
        letter
    );
    for t in 0..64u8 {
        let bit = 1u64 << t;
        let attacked = hits & bit != 0 || crossed & bit != 0;
        let with_target = occupied | bit;
        prop_assert_eq!(
            pm.attacks(sq, t, with_target),
            attacked,
            "{} attacks {}",
            letter,
            t
        );
        // The shadow: exactly the free squares where one more man stops every attack.
        let shadow = pm.attack_shadow(sq, t, with_target);
        prop_assert_eq!(shadow.is_some(), attacked, "{} shadow of {}", letter, t);
        if let Some(shadow) = shadow {
            for x in (0..64u8).filter(|&x| x != sq && x != t && with_target & 1 << x == 0) {
                let (_, c2, h2) =
                    reference_reach(set, letter, color, sq as usize, with_target | 1 << x);
                let blocked = (c2 | h2) & bit == 0;
                prop_assert_eq!(
                    shadow & 1 << x != 0,
                    blocked,
                    "{} shadow {} {}",
                    letter,
                    t,
                    x
                );
            }
        }
    }
    // Origins of un-moves to `sq` and attackers of `sq`: every empty square from which the
    // man's own steps lead there.
    let (mut origins, mut attackers) = (0u64, 0u64);
    for x in (0..64u8).filter(|&x| x != sq && occupied & 1 << x == 0) {
        let (q, c, h) = reference_reach(set, letter, color, x as usize, occupied);
        if q & 1 << sq != 0 {
            origins |= 1 << x;
        }
        let (_, _, h_occ) = reference_reach(set, letter, color, x as usize, occupied | 1 << sq);
        if (c | h) & 1 << sq != 0 && h_occ & 1 << sq != 0 {
            attackers |= 1 << x;
        }
    }
    prop_assert_eq!(
        pm.unmove_origins(sq, occupied),
        origins,
        "{} origins",
        letter
    );
    prop_assert_eq!(
        pm.attackers(sq, occupied),
        attackers,
        "{} attackers",
        letter
    );
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 3_000, ..ProptestConfig::default() })]

    /// Every letter of the hand-built and the shipped set that moves plainly (the set queries
    /// model plain leaps and rides; the shipped hoppers and lame leapers are in the special
    /// set below), on random boards of 0–6 other men.
    #[test]
    fn bitboard_queries_match_reference(
        pick in any::<proptest::sample::Index>(),
        shipped in any::<bool>(),
        black in any::<bool>(),
        sq in 0u8..64,
        others in subsequence((0u8..64).collect::<Vec<_>>(), 0..=6),
    ) {
        let (set, g, letters) = if shipped { standard() } else { hand_built() };
        let plain: Vec<char> = letters
            .iter()
            .copied()
            .filter(|&l| set.get(l).is_some_and(|p| !p.has_special_steps()))
            .collect();
        let letter = plain[pick.index(plain.len())];
        let color = if black { Color::Black } else { Color::White };
        let occupied = others.iter().fold(0u64, |o, &s| o | 1 << s);
        check_bitboards(set, g, letter, color, sq, occupied)?;
    }
}

/// Checks `attacks`, `special_targets` and `special_origins` of a piece of the special set
/// on one square among the men on `occupied`, against `walk_step`.
fn check_specials(
    set: &PieceSet,
    g: &Geometry,
    letter: char,
    color: Color,
    sq: u8,
    occupied: u64,
) -> Result<(), TestCaseError> {
    let AnyTables::Narrow(tables) = g.tables() else {
        panic!("an 8x8 geometry has 64-bit square sets");
    };
    let pm = tables.moves(g.pieces().id(letter).expect("known letter"), color);
    let piece = set.get(letter).expect("known letter");
    let occupied = occupied & !(1 << sq);
    let walk = |from: u8, occ: u64, special_only: bool| {
        piece
            .steps
            .iter()
            .filter(|s| !special_only || s.kind != StepKind::Plain)
            .fold((0u64, 0u64), |(q, h), s| {
                let (q2, h2) = walk_step(s, color, from as usize, occ);
                (q | q2, h | h2)
            })
    };
    prop_assert_eq!(
        pm.is_plain(),
        piece.steps.iter().all(|s| s.kind == StepKind::Plain)
    );
    prop_assert_eq!(
        pm.special_targets(sq, occupied),
        walk(sq, occupied, true),
        "{} special targets",
        letter
    );
    for t in (0..64u8).filter(|&t| t != sq) {
        let with_target = occupied | 1 << t;
        prop_assert_eq!(
            pm.attacks(sq, t, with_target),
            walk(sq, with_target, false).1 & 1 << t != 0,
            "{} attacks {}",
            letter,
            t
        );
    }
    // Origins: the empty squares from which a special quiet move leads to `sq` (on the board
    // before the move, `sq` empty); asked with the man on `sq`, as the builder does.
    let origins = (0..64u8)
        .filter(|&x| x != sq && occupied & 1 << x == 0)
        .filter(|&x| walk(x, occupied, true).0 & 1 << sq != 0)
        .fold(0u64, |o, x| o | 1 << x);
    prop_assert_eq!(
        pm.special_origins(sq, occupied | 1 << sq),
        origins,
        "{} special origins",
        letter
    );
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 5_000, ..ProptestConfig::default() })]

    /// Every letter of the special set, on random boards of 0–8 other men.
    #[test]
    fn special_queries_match_reference(
        pick in any::<proptest::sample::Index>(),
        black in any::<bool>(),
        sq in 0u8..64,
        others in subsequence((0u8..64).collect::<Vec<_>>(), 0..=8),
    ) {
        let (set, g, letters) = special();
        let letter = letters[pick.index(letters.len())];
        let color = if black { Color::Black } else { Color::White };
        let occupied = others.iter().fold(0u64, |o, &s| o | 1 << s);
        check_specials(set, g, letter, color, sq, occupied)?;
    }
}
