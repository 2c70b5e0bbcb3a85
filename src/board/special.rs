//! Moves walked other than plainly, from one square: lame leaps, hops and grasshops
//! (XBetza `n`, `p`, `g`; see [`StepKind`]). The move tables (`geometry.rs`) keep them apart
//! from the plain leaps and rides, answered square by square, forward and backward (the
//! origins of quiet moves). For the builder's block-wise work, where every man but one (the
//! block man) stands on a known square, each move is also told with the set of the block
//! man's squares for which it exists: a lame leap's leg or a hop's path must be free of him,
//! but a hop may also need him as its screen.

use super::ray::Ray;
use super::size::BoardSize;
use super::square::Square;
use super::square_set::SquareSet;
use crate::piece::{Step, StepKind, StepMode};

/// A move walked other than plainly, from one square (see [`StepKind`]).
#[derive(Clone, Copy, Debug)]
pub(super) enum Special<S> {
    /// A leap to `to`, possible when the squares `leg` are empty.
    Lame { to: Square, leg: S, mode: StepMode },
    /// Along the ray: over empty squares to a screen, then over empty squares beyond it (each
    /// a quiet target); the first man after them may be captured. Walked backwards from a
    /// man's square, the quiet targets are the origins of its quiet hops.
    Hop(Ray<S>),
    /// Along the ray: over empty squares to a screen, landing on the square just beyond.
    Grasshop(Ray<S>),
    /// A grasshop's quiet move undone, walking the ray backwards from the man's square: the
    /// first square is the screen (occupied), the empty squares behind it are origins.
    GrasshopBack(Ray<S>),
}

impl<S: SquareSet> Special<S> {
    /// The squares the move goes to without capturing, and those it captures on (any man
    /// there: the caller keeps the enemies), given the occupied squares.
    #[inline]
    pub(super) fn targets(&self, occupied: S) -> (S, S) {
        let none = S::default();
        let split = |to: Square, mode: StepMode| {
            let bit = S::bit(to);
            if !occupied.contains(to) {
                (if mode.moves() { bit } else { none }, none)
            } else {
                (none, if mode.captures() { bit } else { none })
            }
        };
        match *self {
            Special::Lame { to, leg, mode } => {
                if (leg & occupied).is_empty() {
                    split(to, mode)
                } else {
                    (none, none)
                }
            }
            Special::Hop(ray) => {
                let beyond = ray
                    .squares()
                    .iter()
                    .skip_while(|&&t| !occupied.contains(t))
                    .skip(1);
                let mut quiet = none;
                for &t in beyond {
                    let (q, c) = split(t, ray.mode);
                    if occupied.contains(t) {
                        return (quiet, c);
                    }
                    quiet |= q;
                }
                (quiet, none)
            }
            Special::Grasshop(ray) => ray
                .squares()
                .iter()
                .position(|&t| occupied.contains(t))
                .and_then(|k| ray.squares().get(k + 1))
                .map_or((none, none), |&to| split(to, ray.mode)),
            Special::GrasshopBack(ray) => {
                let squares = ray.squares();
                if !occupied.contains(squares[0]) {
                    return (none, none);
                }
                let origins = squares[1..]
                    .iter()
                    .take_while(|&&t| !occupied.contains(t))
                    .fold(none, |set, &t| set | S::bit(t));
                (origins, none)
            }
        }
    }

    /// The move where every man but one, the block man, stands on `others` (the mover
    /// among them): calls `f(to, allowed, capture)` for each square it may go to, `allowed`
    /// the squares of the block man for which it does (never empty), `capture` whether a man
    /// of `others` stands on `to` (the caller keeps the enemies). The block man's own square
    /// as a target is [`Special::captures_block_man`]'s.
    pub(super) fn in_block(&self, others: S, f: &mut impl FnMut(Square, S, bool)) {
        let mut call = |to: Square, allowed: S, mode: StepMode| {
            let capture = others.contains(to);
            let allowed = if capture {
                allowed
            } else {
                allowed & !S::bit(to)
            };
            let wanted = if capture {
                mode.captures()
            } else {
                mode.moves()
            };
            if wanted && !allowed.is_empty() {
                f(to, allowed, capture);
            }
        };
        match *self {
            Special::Lame { to, leg, mode } => {
                if (leg & others).is_empty() {
                    call(to, !leg, mode);
                }
            }
            Special::Hop(ray) => {
                // Exactly one man before the target: the block man (when no other is), or
                // one of the others (and then not the block man too).
                let mut before = S::default();
                let mut screens = 0;
                for &t in ray.squares() {
                    let allowed = match screens {
                        0 => before,
                        1 => !before,
                        _ => break,
                    };
                    call(t, allowed, ray.mode);
                    screens += usize::from(others.contains(t));
                    before |= S::bit(t);
                }
            }
            Special::Grasshop(ray) => {
                // Over empty squares to the first man, landing just beyond him: the block man
                // as that man on any square before the first of the others, or that one.
                let squares = ray.squares();
                let mut before = S::default();
                for (k, &s) in squares.iter().enumerate() {
                    let Some(&to) = squares.get(k + 1) else { break };
                    if others.contains(s) {
                        call(to, !before, ray.mode);
                        break;
                    }
                    call(to, S::bit(s), ray.mode);
                    before |= S::bit(s);
                }
            }
            Special::GrasshopBack(ray) => {
                // The screen next to the man's square, then the origins behind it.
                let squares = ray.squares();
                let screen = squares[0];
                let mut between = S::default();
                for &o in &squares[1..] {
                    if others.contains(o) {
                        break;
                    }
                    between |= S::bit(o);
                    let allowed = if others.contains(screen) {
                        !between
                    } else {
                        S::bit(screen)
                    };
                    call(o, allowed, ray.mode);
                }
            }
        }
    }

    /// The squares off `others` where the move, made with the men `others` on the board,
    /// would capture a man standing there (one more man, the block man): the empty squares
    /// it would go to, were it allowed to move there, when it captures.
    pub(super) fn captures_block_man(&self, others: S) -> S {
        let mut moving = *self;
        let mode = match &mut moving {
            Special::Lame { mode, .. } => mode,
            Special::Hop(ray) | Special::Grasshop(ray) | Special::GrasshopBack(ray) => {
                &mut ray.mode
            }
        };
        if !mode.captures() {
            return S::default();
        }
        *mode = StepMode::Both;
        moving.targets(others).0
    }

    /// Whether the move is a lame leap that never captures (a pawn's double step).
    pub(super) fn is_quiet_lame(&self) -> bool {
        matches!(self, Special::Lame { mode, .. } if !mode.captures())
    }

    /// The squares the move may capture on, whatever stands where.
    pub(super) fn capture_reach(&self) -> S {
        match *self {
            Special::Lame { to, mode, .. } if mode.captures() => S::bit(to),
            Special::Hop(ray) if ray.mode.captures() => ray.mask(),
            Special::Grasshop(ray) if ray.mode.captures() => ray.mask() & !S::bit(ray.squares()[0]),
            _ => S::default(),
        }
    }
}

/// Makes a special move of a ray (`Special::Hop`, `Special::Grasshop`, …).
type MakeSpecial<S> = fn(Ray<S>) -> Special<S>;

/// The special moves of one square, forward and backward.
#[derive(Clone, Debug)]
pub(super) struct Specials<S> {
    /// The moves from the square.
    pub(super) forward: Vec<Special<S>>,
    /// The quiet moves into the square, walked backwards: their targets are the origins.
    pub(super) retro: Vec<Special<S>>,
}

impl<S: SquareSet> Specials<S> {
    /// The special moves of `steps` (White's orientation or Black's, as given) from `sq`;
    /// `initial` steps (XBetza `i`) only from and back to `initial_rank`.
    pub(super) fn new(
        board: BoardSize,
        sq: Square,
        steps: &[Step],
        initial_rank: i8,
    ) -> Specials<S> {
        let mut out = Specials {
            forward: Vec::new(),
            retro: Vec::new(),
        };
        let offset = |from: Square, (dx, dy): (i8, i8)| {
            board.square_at(board.file_of(from) + dx, board.rank_of(from) + dy)
        };
        for s in steps {
            let reverse = (-s.dx, -s.dy);
            match s.kind {
                StepKind::Plain => {}
                StepKind::Lame => {
                    let leg_from = |from: Square| {
                        let leg = s
                            .lame_leg()
                            .expect("lame steps have a leg (checked when read)");
                        leg.iter()
                            .try_fold(S::default(), |m, &d| Some(m | S::bit(offset(from, d)?)))
                    };
                    let from_here = !s.initial || board.rank_of(sq) == initial_rank;
                    let targets = (offset(sq, (s.dx, s.dy)), leg_from(sq));
                    if let (Some(to), Some(leg), true) = (targets.0, targets.1, from_here) {
                        out.forward.push(Special::Lame {
                            to,
                            leg,
                            mode: s.mode,
                        });
                    }
                    let origin = offset(sq, reverse).filter(|&from| {
                        s.mode.moves() && (!s.initial || board.rank_of(from) == initial_rank)
                    });
                    if let Some(from) = origin {
                        if let Some(leg) = leg_from(from) {
                            let mode = StepMode::MoveOnly;
                            out.retro.push(Special::Lame {
                                to: from,
                                leg,
                                mode,
                            });
                        }
                    }
                }
                StepKind::Hop | StepKind::Grasshop => {
                    // A hop walked backwards is a hop; a grasshop is not.
                    let (forward, back): (MakeSpecial<S>, MakeSpecial<S>) =
                        if s.kind == StepKind::Hop {
                            (Special::Hop, Special::Hop)
                        } else {
                            (Special::Grasshop, Special::GrasshopBack)
                        };
                    if let Some(ray) = Ray::walk(board, sq, (s.dx, s.dy), 0, s.mode) {
                        out.forward.push(forward(ray));
                    }
                    let undone = Ray::walk(board, sq, reverse, 0, StepMode::MoveOnly)
                        .filter(|_| s.mode.moves());
                    if let Some(ray) = undone {
                        out.retro.push(back(ray));
                    }
                }
            }
        }
        out
    }
}
