//! Per-piece, per-colour move tables: for every square, the rays a man walks when it moves
//! (forward) and the rays of squares it may have come from by a non-capturing move (retro).
//! Plain leaps and rides are rays with set queries for the builder's block-wise work; lame
//! leaps and hops ([`StepKind`]) are kept apart as `Special` moves, answered square by
//! square.

use super::promotion::{default_promotions, promotions, Promotion, PromotionError};
pub use super::ray::Ray;
use super::size::BoardSize;
pub use super::slides::Slides;
use super::special::{Special, Specials};
use super::square::{Color, Square};
use super::square_set::{for_each_bit, Bits192, Bits256, SquareSet};
use crate::piece::{PieceId, PieceSet, PieceType, Step, StepKind, StepMode};

/// Rays from one square, for set queries: the rays of one square (leaps, and rides cut
/// short by the edge) merged into one mask, the longer ones kept as rays.
#[derive(Clone, Debug)]
struct RaySet<S> {
    short: S,
    long: Vec<Ray<S>>,
}

impl<S: SquareSet> RaySet<S> {
    fn new<'r>(rays: impl Iterator<Item = &'r Ray<S>>) -> RaySet<S> {
        let mut set = RaySet {
            short: S::default(),
            long: Vec::new(),
        };
        for ray in rays {
            if ray.squares().len() == 1 {
                set.short |= ray.mask();
            } else {
                set.long.push(*ray);
            }
        }
        set
    }

    /// The squares of every ray before its first occupied one.
    #[inline]
    fn free(&self, occupied: S) -> S {
        self.long
            .iter()
            .fold(self.short & !occupied, |set, r| set | r.free(occupied))
    }
}

/// The move tables of one piece type for one colour, on one board, with square sets `S`.
#[derive(Clone, Debug)]
pub struct PieceMoves<S> {
    /// Squares of the board, for the `ray_to` table's rows.
    squares: usize,
    forward: Vec<Vec<Ray<S>>>,
    retro: Vec<Vec<Ray<S>>>,
    /// Per square, as sets: the moving rays, the capturing rays, the retro rays, and the
    /// capturing steps walked backwards (the squares a man attacking this square may stand
    /// on).
    quiet_sets: Vec<RaySet<S>>,
    capture_sets: Vec<RaySet<S>>,
    retro_sets: Vec<RaySet<S>>,
    attacker_sets: Vec<RaySet<S>>,
    /// Per square: the squares a capturing ray reaches, ignoring other men.
    reach: Vec<S>,
    /// Per square: the targets more than one capturing ray reaches (looked at ray by ray).
    multi: Vec<S>,
    /// Per from·squares + target reached by one capturing ray: that ray's place among the
    /// square's rays (`forward`), whose squares before the target are the ones between.
    /// A byte, not the set itself, so that a 16×16 board's tables stay small.
    ray_to: Vec<u8>,
    /// Per square: the lame leaps and hops (empty for a plain piece).
    specials: Vec<Specials<S>>,
    /// Per square: the squares from which a lame leap or hop may capture on it, whatever
    /// stands where (empty for a plain piece).
    special_attackers: Vec<S>,
    /// Whether every step is plain (no specials anywhere).
    plain: bool,
    /// The non-capturing moves' retro steps, for a set of squares at once (`None` if a step
    /// is special or only a first move).
    retro_slides: Option<Slides<S>>,
}

impl<S: SquareSet> PieceMoves<S> {
    /// Tables for the given steps (already in the colour's orientation) on `board`, which
    /// `S` must hold. Steps marked `initial` (XBetza `i`, the pawn's double step) are taken
    /// only from `initial_rank`, the colour's second rank.
    pub fn new(board: BoardSize, steps: &[Step], initial_rank: i8) -> PieceMoves<S> {
        let n = board.squares();
        assert!(
            n <= S::CAPACITY,
            "{board} does not fit square sets of {} bits",
            S::CAPACITY
        );
        let walk_all =
            |sq: Square, back: bool, keep: fn(StepMode) -> bool, mode: Option<StepMode>| {
                steps
                    .iter()
                    .filter(|s| s.kind == StepKind::Plain && keep(s.mode))
                    .filter(|s| {
                        let origin_rank = board.rank_of(sq) - if back { s.dy } else { 0 };
                        !s.initial || origin_rank == initial_rank
                    })
                    .filter_map(|s| {
                        let d = if back { (-s.dx, -s.dy) } else { (s.dx, s.dy) };
                        Ray::walk(board, sq, d, s.range, mode.unwrap_or(s.mode))
                    })
                    .collect::<Vec<Ray<S>>>()
            };
        let none = S::default();
        let mut moves = PieceMoves {
            squares: n,
            forward: Vec::with_capacity(n),
            retro: Vec::with_capacity(n),
            quiet_sets: Vec::with_capacity(n),
            capture_sets: Vec::with_capacity(n),
            retro_sets: Vec::with_capacity(n),
            attacker_sets: Vec::with_capacity(n),
            reach: vec![none; n],
            multi: vec![none; n],
            ray_to: vec![0; n * n],
            specials: Vec::with_capacity(n),
            special_attackers: Vec::new(),
            plain: steps.iter().all(|s| s.kind == StepKind::Plain),
            retro_slides: Slides::retro(board, steps),
        };
        for sq in board.all_squares() {
            let forward = walk_all(sq, false, |_| true, None);
            for (k, ray) in forward.iter().enumerate() {
                if !ray.mode.captures() {
                    continue;
                }
                for &t in ray.squares() {
                    let bit = S::bit(t);
                    if moves.reach[sq as usize].contains(t) {
                        moves.multi[sq as usize] |= bit;
                    }
                    moves.reach[sq as usize] |= bit;
                    moves.ray_to[sq as usize * n + t as usize] = k as u8;
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
            moves
                .specials
                .push(Specials::new(board, sq, steps, initial_rank));
        }
        if !moves.plain {
            moves.special_attackers = vec![none; n];
            for from in board.all_squares() {
                for m in &moves.specials[from as usize].forward {
                    for_each_bit(m.capture_reach(), |t| {
                        moves.special_attackers[t as usize] |= S::bit(from)
                    });
                }
            }
        }
        moves
    }

    /// Whether every move is a plain leap or ride: only then do the rays and the queries
    /// `quiet_targets` and `unmove_origins` tell all of the man's moves; lame leaps and hops
    /// are in `special_targets` and `special_origins` (square by square) and in
    /// `special_moves_in_block` and `special_origins_in_block` (for the block-wise work).
    /// The attack queries (`attack_set`, `attackers`, `attacks`, `attacks_with_extra`) tell
    /// every capture.
    #[inline]
    pub fn is_plain(&self) -> bool {
        self.plain
    }

    /// Whether every capture is a plain leap or ride, and every other special move a
    /// non-capturing lame leap (a pawn's double step).
    pub fn captures_plainly(&self) -> bool {
        (self.specials.iter()).all(|s| s.forward.iter().all(Special::is_quiet_lame))
    }

    /// The squares a man on `from` goes to by its lame leaps and hops without capturing, and
    /// those it captures on (any man there: the caller keeps the enemies).
    #[inline]
    pub fn special_targets(&self, from: Square, occupied: S) -> (S, S) {
        self.specials[from as usize].forward.iter().fold(
            (S::default(), S::default()),
            |(q, c), s| {
                let (q2, c2) = s.targets(occupied);
                (q | q2, c | c2)
            },
        )
    }

    /// The squares a man on `from` goes to by its lame leaps and hops without capturing:
    /// `special_targets`' first set, out of the line of the plain moves' work.
    #[inline(never)]
    pub fn special_quiet_targets(&self, from: Square, occupied: S) -> S {
        self.special_targets(from, occupied).0
    }

    /// The squares a man now on `to` may have come from by a quiet lame leap or hop.
    #[inline(never)]
    pub fn special_origins(&self, to: Square, occupied: S) -> S {
        self.specials[to as usize]
            .retro
            .iter()
            .fold(S::default(), |o, s| o | s.targets(occupied).0)
    }

    /// Whether a man on `from` captures on `target` whatever stands on the other squares
    /// (an adjacent square, or a plain leap; never a hop, which needs a screen).
    pub fn attacks_whatever_between(&self, from: Square, target: Square) -> bool {
        self.attacks_plainly(from, target, !S::default())
    }

    /// Rays of the man's moves from `sq`.
    #[inline]
    pub fn rays(&self, sq: Square) -> &[Ray<S>] {
        &self.forward[sq as usize]
    }

    /// Rays of the squares a man now on `sq` may have come from by a non-capturing move
    /// (walk each until an occupied square).
    #[inline]
    pub fn retro_rays(&self, sq: Square) -> &[Ray<S>] {
        &self.retro[sq as usize]
    }

    /// Squares a man on `from` reaches by a non-capturing move, given the occupied squares.
    #[inline]
    pub fn quiet_targets(&self, from: Square, occupied: S) -> S {
        self.quiet_sets[from as usize].free(occupied)
    }

    /// Squares a man now on `to` may have come from by a non-capturing move, given the
    /// occupied squares.
    #[inline]
    pub fn unmove_origins(&self, to: Square, occupied: S) -> S {
        self.retro_sets[to as usize].free(occupied)
    }

    /// The retro steps of the non-capturing moves, which give `unmove_origins` for a whole
    /// set of squares at once; `None` where a move is special or only a first move.
    #[inline]
    pub fn retro_slides(&self) -> Option<&Slides<S>> {
        self.retro_slides.as_ref()
    }

    /// The empty squares where a man on `from` would capture one more man placed there,
    /// given the occupied squares (an occupied square ends a ray and is left out).
    #[inline]
    pub fn attack_set(&self, from: Square, occupied: S) -> S {
        let plain = self.capture_sets[from as usize].free(occupied);
        match self.plain {
            true => plain,
            false => plain | self.special_attack_set(from, occupied),
        }
    }

    /// `attack_set` by lame leaps and hops alone.
    #[cold]
    #[inline(never)]
    fn special_attack_set(&self, from: Square, occupied: S) -> S {
        (self.specials[from as usize].forward.iter())
            .fold(S::default(), |set, m| set | m.captures_block_man(occupied))
    }

    /// The empty squares from which a man attacks `target`, given the occupied squares.
    #[inline]
    pub fn attackers(&self, target: Square, occupied: S) -> S {
        let plain = self.attacker_sets[target as usize].free(occupied);
        match self.plain {
            true => plain,
            false => plain | self.special_attackers(target, occupied),
        }
    }

    /// `attackers` by lame leaps and hops alone.
    #[cold]
    #[inline(never)]
    fn special_attackers(&self, target: Square, occupied: S) -> S {
        let with_target = occupied | S::bit(target);
        let mut set = S::default();
        for_each_bit(
            self.special_attackers[target as usize] & !occupied,
            |from| {
                if self.special_targets(from, with_target).1.contains(target) {
                    set |= S::bit(from);
                }
            },
        );
        set
    }

    /// The squares of one more man with which a man on `from` captures `target`, the men
    /// `occupied` on the board (where the block man may stand for the move to exist): off
    /// the squares between for a ride, everywhere for a plain leap, on the screen's square
    /// for a hop that has none; empty when it never does.
    #[inline]
    pub fn attacks_with_extra(&self, from: Square, target: Square, occupied: S) -> S {
        let plain = self
            .attack_shadow(from, target, occupied)
            .map_or(S::default(), |shadow| !shadow);
        match self.plain {
            true => plain,
            false => plain | self.special_attacks_with_extra(from, target, occupied),
        }
    }

    /// `attacks_with_extra` by lame leaps and hops alone.
    #[cold]
    #[inline(never)]
    fn special_attacks_with_extra(&self, from: Square, target: Square, occupied: S) -> S {
        let mut set = S::default();
        let with_target = occupied | S::bit(target);
        for m in &self.specials[from as usize].forward {
            m.in_block(with_target, &mut |to, allowed, capture| {
                if capture && to == target {
                    set |= allowed;
                }
            });
        }
        set
    }

    /// Calls `f(to, allowed)` for every non-capturing lame leap and hop of a man on `from`
    /// when every man but one (the block man) stands on `others`, the man himself included:
    /// it exists for exactly the squares `allowed` of the block man. Stops, returning false,
    /// when `f` does.
    #[inline(never)]
    pub fn special_moves_in_block(
        &self,
        from: Square,
        others: S,
        f: &mut dyn FnMut(Square, S) -> bool,
    ) -> bool {
        let mut go_on = true;
        for m in &self.specials[from as usize].forward {
            m.in_block(others, &mut |to, allowed, capture| {
                if go_on && !capture {
                    go_on = f(to, allowed);
                }
            });
            if !go_on {
                return false;
            }
        }
        true
    }

    /// Calls `f(origin, allowed)` for every square a man now on `to` may have come from by a
    /// quiet lame leap or hop, when every man but one (the block man) stands on `others`, the
    /// man himself included: the un-move exists for exactly the squares `allowed` of the
    /// block man.
    #[inline(never)]
    pub fn special_origins_in_block(&self, to: Square, others: S, f: &mut dyn FnMut(Square, S)) {
        for m in &self.specials[to as usize].retro {
            m.in_block(others, &mut |origin, allowed, _| f(origin, allowed));
        }
    }

    /// Whether a man on `from` attacks `target` when one more man may stand on any free
    /// square: `None` if it does not even without that man; else the squares where that
    /// man would block every attacking ray (empty for a leap).
    #[inline]
    fn attack_shadow(&self, from: Square, target: Square, occupied: S) -> Option<S> {
        if !self.reach[from as usize].contains(target) {
            return None;
        }
        if !self.multi[from as usize].contains(target) {
            let between = self.between(from, target);
            return (between & occupied).is_empty().then_some(between);
        }
        let mut shadow = None::<S>;
        for ray in self.forward[from as usize]
            .iter()
            .filter(|r| r.mode.captures())
        {
            let mut between = S::default();
            for &s in ray.squares() {
                if s == target {
                    shadow = Some(shadow.map_or(between, |b| b & between));
                    break;
                }
                if occupied.contains(s) {
                    break;
                }
                between |= S::bit(s);
            }
        }
        shadow
    }

    /// Whether a man on `from` can capture on `target`, given the occupied squares.
    #[inline]
    pub fn attacks(&self, from: Square, target: Square, occupied: S) -> bool {
        self.attacks_plainly(from, target, occupied)
            || (!self.plain
                && self
                    .special_targets(from, occupied | S::bit(target))
                    .1
                    .contains(target))
    }

    /// The squares between `from` and a `target` that one capturing ray reaches: that ray's
    /// squares on the near side of the target (its square numbers run one way).
    #[inline]
    fn between(&self, from: Square, target: Square) -> S {
        let ray = &self.forward[from as usize]
            [self.ray_to[from as usize * self.squares + target as usize] as usize];
        let t = S::bit(target);
        ray.mask()
            & if ray.ascending() {
                t.below_lowest()
            } else {
                t.above_highest()
            }
    }

    /// `attacks` by the plain leaps and rides alone.
    #[inline]
    fn attacks_plainly(&self, from: Square, target: Square, occupied: S) -> bool {
        if !self.reach[from as usize].contains(target) {
            return false;
        }
        if !self.multi[from as usize].contains(target) {
            return (self.between(from, target) & occupied).is_empty();
        }
        self.attack_shadow(from, target, occupied).is_some()
    }
}

/// Move tables for every piece of a set, both colours, on one board, with square sets `S`,
/// indexed by [`PieceId`].
#[derive(Clone, Debug)]
pub struct MoveTables<S> {
    board: BoardSize,
    tables: Vec<[PieceMoves<S>; 2]>,
}

impl<S: SquareSet> MoveTables<S> {
    fn new(pieces: &PieceSet, board: BoardSize) -> MoveTables<S> {
        let both = |p: &PieceType| {
            [
                PieceMoves::new(board, &p.steps, 1),
                PieceMoves::new(board, &p.steps_for_black(), board.ranks() as i8 - 2),
            ]
        };
        MoveTables {
            board,
            tables: pieces.iter().map(both).collect(),
        }
    }

    /// The board the tables are of.
    #[inline]
    pub fn board(&self) -> BoardSize {
        self.board
    }

    /// The tables of a piece (an id of the geometry's piece set) for a colour.
    #[inline]
    pub fn moves(&self, id: PieceId, color: Color) -> &PieceMoves<S> {
        &self.tables[id.index()][color.index()]
    }
}

/// The move tables at the width of square sets that holds the board (see `square_set`).
#[derive(Clone, Debug)]
pub enum AnyTables {
    /// Boards of at most 64 squares.
    Narrow(MoveTables<u64>),
    /// Boards of 65 to 128 squares.
    Middle(MoveTables<u128>),
    /// Boards of 129 to 192 squares.
    Broad(MoveTables<Bits192>),
    /// Boards of 193 to 256 squares.
    Wide(MoveTables<Bits256>),
}

/// Runs `$body` with `$t` bound to the geometry's [`MoveTables`] at their width: the one
/// place that turns the board's size into a type, so that the code in `$body` (generic over
/// [`SquareSet`]) is compiled for each width.
#[macro_export]
macro_rules! with_tables {
    ($geometry:expr, |$t:ident| $body:expr) => {
        match $geometry.tables() {
            $crate::board::geometry::AnyTables::Narrow($t) => $body,
            $crate::board::geometry::AnyTables::Middle($t) => $body,
            $crate::board::geometry::AnyTables::Broad($t) => $body,
            $crate::board::geometry::AnyTables::Wide($t) => $body,
        }
    };
}

/// A piece set on a board: its move tables for both colours, and the set itself, whose
/// letters text is read with.
#[derive(Clone, Debug)]
pub struct Geometry {
    pieces: PieceSet,
    board: BoardSize,
    tables: AnyTables,
    /// What a pawn may promote to, in order.
    promotions: Vec<Promotion>,
}

impl Geometry {
    /// Tables for every piece type of the set on the 8×8 board.
    pub fn new(pieces: &PieceSet) -> Geometry {
        Geometry::on(pieces, BoardSize::STANDARD)
    }

    /// Tables for every piece type of the set on `board`, with the board's default
    /// promotions (`promotion::default_letters`, less the letters the set does not define).
    pub fn on(pieces: &PieceSet, board: BoardSize) -> Geometry {
        let tables = match board.squares() {
            n if n <= 64 => AnyTables::Narrow(MoveTables::new(pieces, board)),
            n if n <= 128 => AnyTables::Middle(MoveTables::new(pieces, board)),
            n if n <= 192 => AnyTables::Broad(MoveTables::new(pieces, board)),
            _ => AnyTables::Wide(MoveTables::new(pieces, board)),
        };
        Geometry {
            pieces: pieces.clone(),
            board,
            tables,
            promotions: default_promotions(pieces, board),
        }
    }

    /// The same geometry with the promotion pieces `letters` (either case, in order of
    /// preference, e.g. `QRBN`): each must be defined, not the pawn, and given once.
    pub fn with_promotions(self, letters: &str) -> Result<Geometry, PromotionError> {
        let promotions = promotions(&self.pieces, letters)?;
        Ok(Geometry { promotions, ..self })
    }

    /// What a pawn may promote to, in order of preference.
    pub fn promotions(&self) -> &[Promotion] {
        &self.promotions
    }

    /// The piece set the tables are of: its ids index them.
    pub fn pieces(&self) -> &PieceSet {
        &self.pieces
    }

    /// The board.
    #[inline]
    pub fn board(&self) -> BoardSize {
        self.board
    }

    /// The move tables, at their width (see [`with_tables!`]).
    #[inline]
    pub fn tables(&self) -> &AnyTables {
        &self.tables
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::piece::betza::parse_betza;
    use crate::piece::PieceType;

    /// The pawn's initial steps (`i`), lame (`ifmnD`) or plain (`ifmD`), are taken only from
    /// the colour's second rank, and un-made only back to it.
    #[test]
    fn initial_steps_only_from_the_second_rank() {
        let board = BoardSize::STANDARD;
        let at = |f: i8, r: i8| board.square_at(f, r).unwrap();
        let set = |squares: &[(i8, i8)]| squares.iter().fold(0u64, |m, &(f, r)| m | 1 << at(f, r));
        for text in ["fmWfceFifmnD", "fmWfceFifmD"] {
            let pawn = PieceType::new('P', parse_betza(text).unwrap());
            let white = PieceMoves::<u64>::new(board, &pawn.steps, 1);
            let black = PieceMoves::<u64>::new(board, &pawn.steps_for_black(), 6);
            let quiet = |m: &PieceMoves<u64>, f, r, occ| {
                m.quiet_targets(at(f, r), occ) | m.special_targets(at(f, r), occ).0
            };
            assert_eq!(quiet(&white, 4, 1, 0), set(&[(4, 2), (4, 3)]), "{text}");
            assert_eq!(quiet(&white, 4, 2, 0), set(&[(4, 3)]), "{text}");
            assert_eq!(quiet(&white, 4, 6, 0), set(&[(4, 7)]), "{text}");
            assert_eq!(quiet(&black, 4, 6, 0), set(&[(4, 5), (4, 4)]), "{text}");
            assert_eq!(quiet(&black, 4, 5, 0), set(&[(4, 4)]), "{text}");
            assert_eq!(quiet(&black, 4, 1, 0), set(&[(4, 0)]), "{text}");
            let origins = |m: &PieceMoves<u64>, f, r| {
                m.unmove_origins(at(f, r), 0) | m.special_origins(at(f, r), 0)
            };
            assert_eq!(origins(&white, 4, 3), set(&[(4, 2), (4, 1)]), "{text}");
            assert_eq!(origins(&white, 4, 4), set(&[(4, 3)]), "{text}");
            assert_eq!(origins(&black, 4, 4), set(&[(4, 5), (4, 6)]), "{text}");
            assert_eq!(origins(&black, 4, 3), set(&[(4, 4)]), "{text}");
        }
        // The lame double step is blocked by a man on the square passed.
        let pawn = PieceType::new('P', parse_betza("fmWfceFifmnD").unwrap());
        let white = PieceMoves::<u64>::new(board, &pawn.steps, 1);
        let blocker = set(&[(4, 2)]);
        assert_eq!(white.special_targets(at(4, 1), blocker).0, 0);
    }
}
