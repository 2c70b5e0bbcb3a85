//! Per-piece, per-colour move tables: for every square, the rays a man walks when it moves
//! (forward) and the rays of squares it may have come from by a non-capturing move (retro).
//! Plain leaps and rides are rays with set queries for the builder's block-wise work; lame
//! leaps and hops ([`StepKind`]) are kept apart as [`Special`] moves, answered square by
//! square.

use super::square::{file_of, rank_of, square_at, Color, Square, BOARD_SQUARES};
use crate::piece::{PieceId, PieceSet, PieceType, Step, StepKind, StepMode};

/// Squares reached by repeating one step from a square, nearest first; a leaper's ray has one
/// square. A man stops at the first occupied square of a ray.
///
/// A step changes the square number by the same amount each time, so a ray's squares run
/// either up or down, and its nearest occupied square is the lowest or the highest occupied
/// one: `free` finds it with one bit scan.
#[derive(Clone, Copy, Debug)]
pub struct Ray {
    /// Move/capture rights of the step.
    pub mode: StepMode,
    len: u8,
    squares: [Square; 7],
    /// The ray's squares as a set.
    mask: u64,
    /// Whether the square numbers grow along the ray.
    ascending: bool,
}

impl Ray {
    /// The squares of the ray, nearest first.
    pub fn squares(&self) -> &[Square] {
        &self.squares[..self.len as usize]
    }

    /// The squares of the ray before its first occupied one.
    #[inline]
    pub fn free(&self, occupied: u64) -> u64 {
        let blockers = self.mask & occupied;
        if blockers == 0 {
            self.mask
        } else if self.ascending {
            self.mask & ((blockers & blockers.wrapping_neg()) - 1)
        } else {
            self.mask & !(u64::MAX >> blockers.leading_zeros())
        }
    }

    fn walk(from: Square, dx: i8, dy: i8, range: u8, mode: StepMode) -> Option<Ray> {
        let mut ray = Ray {
            mode,
            len: 0,
            squares: [0; 7],
            mask: 0,
            ascending: false,
        };
        let (mut f, mut r) = (file_of(from), rank_of(from));
        let limit = if range == 0 { 7 } else { range.min(7) };
        while ray.len < limit {
            f += dx;
            r += dy;
            match square_at(f, r) {
                Some(s) => {
                    ray.squares[ray.len as usize] = s;
                    ray.mask |= 1 << s;
                    ray.len += 1;
                }
                None => break,
            }
        }
        ray.ascending = ray.squares[0] > from;
        debug_assert!(ray
            .squares()
            .windows(2)
            .all(|w| (w[1] > w[0]) == ray.ascending));
        (ray.len > 0).then_some(ray)
    }
}

/// A move walked other than plainly, from one square (see [`StepKind`]).
#[derive(Clone, Copy, Debug)]
enum Special {
    /// A leap to `to`, possible when the squares `leg` are empty.
    Lame {
        to: Square,
        leg: u64,
        mode: StepMode,
    },
    /// Along the ray: over empty squares to a screen, then over empty squares beyond it (each
    /// a quiet target); the first man after them may be captured. Walked backwards from a
    /// man's square, the quiet targets are the origins of its quiet hops.
    Hop(Ray),
    /// Along the ray: over empty squares to a screen, landing on the square just beyond.
    Grasshop(Ray),
    /// A grasshop's quiet move undone, walking the ray backwards from the man's square: the
    /// first square is the screen (occupied), the empty squares behind it are origins.
    GrasshopBack(Ray),
}

impl Special {
    /// The squares the move goes to without capturing, and those it captures on (any man
    /// there: the caller keeps the enemies), given the occupied squares.
    #[inline]
    fn targets(&self, occupied: u64) -> (u64, u64) {
        let split = |to: Square, mode: StepMode| {
            let bit = 1u64 << to;
            if occupied & bit == 0 {
                (if mode.moves() { bit } else { 0 }, 0)
            } else {
                (0, if mode.captures() { bit } else { 0 })
            }
        };
        match *self {
            Special::Lame { to, leg, mode } => {
                if leg & occupied == 0 {
                    split(to, mode)
                } else {
                    (0, 0)
                }
            }
            Special::Hop(ray) => {
                let beyond = ray
                    .squares()
                    .iter()
                    .skip_while(|&&t| occupied & (1 << t) == 0)
                    .skip(1);
                let mut quiet = 0;
                for &t in beyond {
                    let (q, c) = split(t, ray.mode);
                    if occupied & (1 << t) != 0 {
                        return (quiet, c);
                    }
                    quiet |= q;
                }
                (quiet, 0)
            }
            Special::Grasshop(ray) => ray
                .squares()
                .iter()
                .position(|&t| occupied & (1 << t) != 0)
                .and_then(|k| ray.squares().get(k + 1))
                .map_or((0, 0), |&to| split(to, ray.mode)),
            Special::GrasshopBack(ray) => {
                let squares = ray.squares();
                if occupied & (1 << squares[0]) == 0 {
                    return (0, 0);
                }
                let origins = squares[1..]
                    .iter()
                    .take_while(|&&t| occupied & (1 << t) == 0)
                    .fold(0, |set, &t| set | 1 << t);
                (origins, 0)
            }
        }
    }
}

/// Makes a special move of a ray (`Special::Hop`, `Special::Grasshop`, …).
type MakeSpecial = fn(Ray) -> Special;

/// The special moves of one square, forward and backward.
#[derive(Clone, Debug, Default)]
struct Specials {
    forward: Vec<Special>,
    retro: Vec<Special>,
}

impl Specials {
    /// The special moves of `steps` (White's orientation or Black's, as given) from `sq`.
    fn new(sq: Square, steps: &[Step]) -> Specials {
        let mut out = Specials::default();
        let offset =
            |from: Square, (dx, dy): (i8, i8)| square_at(file_of(from) + dx, rank_of(from) + dy);
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
                            .try_fold(0u64, |m, &d| Some(m | 1 << offset(from, d)?))
                    };
                    if let (Some(to), Some(leg)) = (offset(sq, (s.dx, s.dy)), leg_from(sq)) {
                        out.forward.push(Special::Lame {
                            to,
                            leg,
                            mode: s.mode,
                        });
                    }
                    if let Some(from) = offset(sq, reverse).filter(|_| s.mode.moves()) {
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
                    let (forward, back): (MakeSpecial, MakeSpecial) = if s.kind == StepKind::Hop {
                        (Special::Hop, Special::Hop)
                    } else {
                        (Special::Grasshop, Special::GrasshopBack)
                    };
                    if let Some(ray) = Ray::walk(sq, s.dx, s.dy, 0, s.mode) {
                        out.forward.push(forward(ray));
                    }
                    let undone = Ray::walk(sq, reverse.0, reverse.1, 0, StepMode::MoveOnly)
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

/// Rays from one square, for set queries: the rays of one square (leaps, and rides cut
/// short by the edge) merged into one mask, the longer ones kept as rays.
#[derive(Clone, Debug, Default)]
struct RaySet {
    short: u64,
    long: Vec<Ray>,
}

impl RaySet {
    fn new<'r>(rays: impl Iterator<Item = &'r Ray>) -> RaySet {
        let mut set = RaySet::default();
        for ray in rays {
            if ray.len == 1 {
                set.short |= ray.mask;
            } else {
                set.long.push(*ray);
            }
        }
        set
    }

    /// The squares of every ray before its first occupied one.
    #[inline]
    fn free(&self, occupied: u64) -> u64 {
        self.long
            .iter()
            .fold(self.short & !occupied, |set, r| set | r.free(occupied))
    }
}

/// The move tables of one piece type for one colour.
#[derive(Clone, Debug)]
pub struct PieceMoves {
    forward: Vec<Vec<Ray>>,
    retro: Vec<Vec<Ray>>,
    /// Per square, as sets: the moving rays, the capturing rays, the retro rays, and the
    /// capturing steps walked backwards (the squares a man attacking this square may stand
    /// on).
    quiet_sets: Vec<RaySet>,
    capture_sets: Vec<RaySet>,
    retro_sets: Vec<RaySet>,
    attacker_sets: Vec<RaySet>,
    /// Per square: the squares a capturing ray reaches, ignoring other men.
    reach: Vec<u64>,
    /// Per square: the targets more than one capturing ray reaches (looked at ray by ray).
    multi: Vec<u64>,
    /// Per from·64 + target reached by one capturing ray: the squares between.
    between: Vec<u64>,
    /// Per square: the lame leaps and hops (empty for a plain piece).
    specials: Vec<Specials>,
    /// Whether every step is plain (no specials anywhere).
    plain: bool,
}

impl PieceMoves {
    /// Tables for the given steps (already in the colour's orientation).
    pub fn new(steps: &[Step]) -> PieceMoves {
        let walk_all =
            |sq: Square, back: bool, keep: fn(StepMode) -> bool, mode: Option<StepMode>| {
                steps
                    .iter()
                    .filter(|s| s.kind == StepKind::Plain && keep(s.mode))
                    .filter_map(|s| {
                        let (dx, dy) = if back { (-s.dx, -s.dy) } else { (s.dx, s.dy) };
                        Ray::walk(sq, dx, dy, s.range, mode.unwrap_or(s.mode))
                    })
                    .collect::<Vec<Ray>>()
            };
        let mut moves = PieceMoves {
            forward: Vec::with_capacity(BOARD_SQUARES),
            retro: Vec::with_capacity(BOARD_SQUARES),
            quiet_sets: Vec::with_capacity(BOARD_SQUARES),
            capture_sets: Vec::with_capacity(BOARD_SQUARES),
            retro_sets: Vec::with_capacity(BOARD_SQUARES),
            attacker_sets: Vec::with_capacity(BOARD_SQUARES),
            reach: vec![0; BOARD_SQUARES],
            multi: vec![0; BOARD_SQUARES],
            between: vec![0; BOARD_SQUARES * BOARD_SQUARES],
            specials: Vec::with_capacity(BOARD_SQUARES),
            plain: steps.iter().all(|s| s.kind == StepKind::Plain),
        };
        for sq in 0..BOARD_SQUARES as Square {
            let forward = walk_all(sq, false, |_| true, None);
            for ray in forward.iter().filter(|r| r.mode.captures()) {
                let mut between = 0u64;
                for &t in ray.squares() {
                    let bit = 1u64 << t;
                    if moves.reach[sq as usize] & bit != 0 {
                        moves.multi[sq as usize] |= bit;
                    }
                    moves.reach[sq as usize] |= bit;
                    moves.between[sq as usize * BOARD_SQUARES + t as usize] = between;
                    between |= bit;
                }
            }
            let retro = walk_all(sq, true, StepMode::moves, Some(StepMode::MoveOnly));
            let attackers = walk_all(sq, true, StepMode::captures, Some(StepMode::CaptureOnly));
            moves
                .quiet_sets
                .push(RaySet::new(forward.iter().filter(|r| r.mode.moves())));
            moves
                .capture_sets
                .push(RaySet::new(forward.iter().filter(|r| r.mode.captures())));
            moves.retro_sets.push(RaySet::new(retro.iter()));
            moves.attacker_sets.push(RaySet::new(attackers.iter()));
            moves.forward.push(forward);
            moves.retro.push(retro);
            moves.specials.push(Specials::new(sq, steps));
        }
        moves
    }

    /// Whether every move is a plain leap or ride: only then do the set queries
    /// (`quiet_targets`, `unmove_origins`, `attack_set`, `attackers`, `attack_shadow`) and
    /// the rays tell all of the man's moves; lame leaps and hops are in `special_targets`
    /// and `special_origins`.
    #[inline]
    pub fn is_plain(&self) -> bool {
        self.plain
    }

    /// The squares a man on `from` goes to by its lame leaps and hops without capturing, and
    /// those it captures on (any man there: the caller keeps the enemies).
    #[inline]
    pub fn special_targets(&self, from: Square, occupied: u64) -> (u64, u64) {
        self.specials[from as usize]
            .forward
            .iter()
            .fold((0, 0), |(q, c), s| {
                let (q2, c2) = s.targets(occupied);
                (q | q2, c | c2)
            })
    }

    /// The squares a man now on `to` may have come from by a quiet lame leap or hop.
    #[inline]
    pub fn special_origins(&self, to: Square, occupied: u64) -> u64 {
        self.specials[to as usize]
            .retro
            .iter()
            .fold(0, |o, s| o | s.targets(occupied).0)
    }

    /// Whether a man on `from` captures on `target` whatever stands on the other squares
    /// (an adjacent square, or a plain leap; never a hop, which needs a screen).
    pub fn attacks_whatever_between(&self, from: Square, target: Square) -> bool {
        self.attacks_plainly(from, target, !0)
    }

    /// Rays of the man's moves from `sq`.
    #[inline]
    pub fn rays(&self, sq: Square) -> &[Ray] {
        &self.forward[sq as usize]
    }

    /// Rays of the squares a man now on `sq` may have come from by a non-capturing move
    /// (walk each until an occupied square).
    #[inline]
    pub fn retro_rays(&self, sq: Square) -> &[Ray] {
        &self.retro[sq as usize]
    }

    /// Squares a man on `from` reaches by a non-capturing move, given the occupied squares.
    #[inline]
    pub fn quiet_targets(&self, from: Square, occupied: u64) -> u64 {
        self.quiet_sets[from as usize].free(occupied)
    }

    /// Squares a man now on `to` may have come from by a non-capturing move, given the
    /// occupied squares.
    #[inline]
    pub fn unmove_origins(&self, to: Square, occupied: u64) -> u64 {
        self.retro_sets[to as usize].free(occupied)
    }

    /// Squares a man on `from` attacks (could capture on), given the occupied squares; an
    /// occupied square ends a ray and is left out.
    #[inline]
    pub fn attack_set(&self, from: Square, occupied: u64) -> u64 {
        self.capture_sets[from as usize].free(occupied)
    }

    /// The empty squares from which a man attacks `target`, given the occupied squares.
    #[inline]
    pub fn attackers(&self, target: Square, occupied: u64) -> u64 {
        self.attacker_sets[target as usize].free(occupied)
    }

    /// Whether a man on `from` attacks `target` when one more man may stand on any free
    /// square: `None` if it does not even without that man; else the squares where that
    /// man would block every attacking ray (empty for a leap).
    pub fn attack_shadow(&self, from: Square, target: Square, occupied: u64) -> Option<u64> {
        let bit = 1u64 << target;
        if self.reach[from as usize] & bit == 0 {
            return None;
        }
        if self.multi[from as usize] & bit == 0 {
            let between = self.between[from as usize * BOARD_SQUARES + target as usize];
            return (between & occupied == 0).then_some(between);
        }
        let mut shadow = None::<u64>;
        for ray in self.forward[from as usize]
            .iter()
            .filter(|r| r.mode.captures())
        {
            let mut between = 0u64;
            for &s in ray.squares() {
                if s == target {
                    shadow = Some(shadow.map_or(between, |b| b & between));
                    break;
                }
                if occupied & (1 << s) != 0 {
                    break;
                }
                between |= 1 << s;
            }
        }
        shadow
    }

    /// Whether a man on `from` can capture on `target`, given the occupied squares.
    #[inline]
    pub fn attacks(&self, from: Square, target: Square, occupied: u64) -> bool {
        let bit = 1u64 << target;
        self.attacks_plainly(from, target, occupied)
            || (!self.plain && self.special_targets(from, occupied | bit).1 & bit != 0)
    }

    /// `attacks` by the plain leaps and rides alone.
    #[inline]
    fn attacks_plainly(&self, from: Square, target: Square, occupied: u64) -> bool {
        let bit = 1u64 << target;
        if self.reach[from as usize] & bit == 0 {
            return false;
        }
        if self.multi[from as usize] & bit == 0 {
            return self.between[from as usize * BOARD_SQUARES + target as usize] & occupied == 0;
        }
        self.attack_shadow(from, target, occupied).is_some()
    }
}

/// Move tables for every piece of a set, both colours, indexed by [`PieceId`]; and the set
/// itself, whose letters text is read with.
#[derive(Clone, Debug)]
pub struct Geometry {
    pieces: PieceSet,
    tables: Vec<[PieceMoves; 2]>,
}

impl Geometry {
    /// Tables for every piece type of the set.
    pub fn new(pieces: &PieceSet) -> Geometry {
        Geometry {
            pieces: pieces.clone(),
            tables: pieces.iter().map(Self::both).collect(),
        }
    }

    fn both(p: &PieceType) -> [PieceMoves; 2] {
        [
            PieceMoves::new(&p.steps),
            PieceMoves::new(&p.steps_for_black()),
        ]
    }

    /// The piece set the tables are of: its ids index them.
    pub fn pieces(&self) -> &PieceSet {
        &self.pieces
    }

    /// The tables of a piece (an id of [`Geometry::pieces`]) for a colour.
    #[inline]
    pub fn moves(&self, id: PieceId, color: Color) -> &PieceMoves {
        &self.tables[id.index()][color.index()]
    }
}
