//! Move work on the raw placements of one material: attack tests, quiet moves, captures and
//! un-moves, shared by the builder and the statistics.
//!
//! With pawns, a table's placements fall into *slices* of one pawn placement each (see
//! `index/slices.rs`). The *quiet* moves and un-moves here are those that stay in the slice:
//! every man's but the pawns'. Every other move is an [`Exit`]: a capture, a pawn's move, a
//! promotion; it leads to a finished part of the table or to a smaller table.

use crate::board::geometry::{MoveTables, PieceMoves};
use crate::board::{all_bits, for_each_bit, Color, Square, SquareSet};
use crate::egt::index::Indexer;
use crate::egt::material::{Material, Perm, Squares, MAX_MEN};

/// One man of the material, with its move tables.
#[derive(Clone, Copy)]
struct ManInfo<'a, S> {
    color: Color,
    moves: &'a PieceMoves<S>,
    /// Whether the man is a pawn: its moves leave the slice, and on its last rank it promotes.
    pawn: bool,
}

/// A move that leaves the slice of the placement it is made from (see the module's doc).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Exit {
    /// Man `i` takes man `j`, without promoting.
    Capture {
        /// The capturing man.
        i: usize,
        /// The captured man.
        j: usize,
    },
    /// Pawn `i` moves to `to` without capturing or promoting (by a double step too).
    Push {
        /// The pawn.
        i: usize,
        /// Its target.
        to: Square,
    },
    /// Pawn `i` reaches its last rank on `to`, taking man `captured` if any: it becomes one
    /// of the promotion pieces (one move each).
    Promote {
        /// The pawn.
        i: usize,
        /// Its target, on its last rank.
        to: Square,
        /// The man taken there, if any.
        captured: Option<usize>,
    },
}

/// The men of a material with their move tables, for work on placements (`Squares`), with
/// square sets `S` (see `board::square_set`). The block-wise methods (`*_of_block`,
/// `*_in_block`) are for tables with blocks: they give sets of the block man's squares, the
/// slots of a block as the builder's sets hold them.
pub struct Men<'a, S> {
    men: Vec<ManInfo<'a, S>>,
    own: [Vec<usize>; 2],
    block_man: usize,
    /// Whether the pawns capture plainly and make no other special move than a quiet lame
    /// leap (see `blockwise`).
    blockwise: bool,
    /// Whether a man who is no pawn moves by lame leaps or hops (`has_special_moves`).
    special: bool,
    /// Per side, the squares of its last rank, where its pawns promote.
    last_rank: [S; 2],
}

/// Occupied squares of a placement, per side.
#[derive(Clone, Copy, Debug)]
pub struct Occupancy<S> {
    /// Squares of White's men and Black's men.
    pub by_color: [S; 2],
}

impl<S: SquareSet> Occupancy<S> {
    /// Every occupied square.
    #[inline]
    pub fn all(&self) -> S {
        self.by_color[0] | self.by_color[1]
    }
}

impl<'a, S: SquareSet> Men<'a, S> {
    /// The men of a material read with the piece set of the geometry whose `tables` these are.
    pub fn new(material: &Material, tables: &'a MoveTables<S>) -> Men<'a, S> {
        let men: Vec<ManInfo<'a, S>> = material
            .men()
            .iter()
            .map(|m| ManInfo {
                color: m.color,
                moves: tables.moves(m.piece, m.color),
                pawn: m.is_pawn(),
            })
            .collect();
        let own = [Color::White, Color::Black].map(|c| {
            (0..men.len())
                .filter(|&i| men[i].color == c)
                .collect::<Vec<_>>()
        });
        let block_man = men.len() - 1;
        let blockwise = (men.iter()).all(|m| !m.pawn || m.moves.captures_plainly());
        let special = (men.iter()).any(|m| !m.pawn && !m.moves.is_plain());
        let board = tables.board();
        let last_rank = [Color::White, Color::Black].map(|c| {
            (board.all_squares())
                .filter(|&s| board.rank_of(s) == board.last_rank(c))
                .fold(S::default(), |set, s| set | S::bit(s))
        });
        Men {
            men,
            own,
            block_man,
            blockwise,
            special,
            last_rank,
        }
    }

    /// The same men, with the block man of `ix` (see `Indexer::has_blocks`) as theirs; the
    /// last man where the index has no blocks.
    pub fn with_blocks_of(self, ix: &Indexer) -> Men<'a, S> {
        Men {
            block_man: ix.block_man().unwrap_or(self.men.len() - 1),
            ..self
        }
    }

    /// Number of men.
    pub fn len(&self) -> usize {
        self.men.len()
    }

    /// Whether there are no men (never, for a material).
    pub fn is_empty(&self) -> bool {
        self.men.is_empty()
    }

    /// Indexes (canonical order) of a side's men, royal first.
    #[inline]
    pub fn of(&self, c: Color) -> &[usize] {
        &self.own[c.index()]
    }

    /// Occupancy of a placement.
    #[inline]
    pub fn occupancy(&self, sq: &Squares) -> Occupancy<S> {
        // Each side's set in a register of its own: ORing a bit into `by_color[color]` made
        // the compiler set it in memory, a few bytes at a time, and then read the whole set
        // back, which stalls on 128-bit sets (a sixth of the build time on 10×8).
        let (mut white, mut black) = (S::default(), S::default());
        for (i, m) in self.men.iter().enumerate() {
            let bit = S::bit(sq[i]);
            if m.color == Color::White {
                white |= bit;
            } else {
                black |= bit;
            }
        }
        Occupancy {
            by_color: [white, black],
        }
    }

    /// Whether side `c`'s royal can be captured by the other side.
    #[inline]
    pub fn royal_attacked(&self, sq: &Squares, occupied: S, c: Color) -> bool {
        let royal = sq[c.index()];
        self.own[c.flip().index()]
            .iter()
            .any(|&j| self.men[j].moves.attacks(sq[j], royal, occupied))
    }

    /// Calls `f(i, j)` for every capture side `c` has: man `i` takes man `j` (never a royal:
    /// callers work on positions where the side to move cannot capture the enemy royal).
    #[inline]
    pub fn for_each_capture(
        &self,
        sq: &Squares,
        occ: Occupancy<S>,
        c: Color,
        mut f: impl FnMut(usize, usize),
    ) {
        let all = occ.all();
        for &i in &self.own[c.index()] {
            for &j in &self.own[c.flip().index()][1..] {
                if self.men[i].moves.attacks(sq[i], sq[j], all) {
                    f(i, j);
                }
            }
        }
    }

    /// Calls `f(i, to)` for every non-capturing move of side `c` (legal or not) but the
    /// pawns', stopping early when `f` returns false. Returns false if stopped. The royal
    /// moves last: its moves change the most significant part of the index, so the others
    /// are cheaper to look up.
    #[inline]
    pub fn for_each_quiet(
        &self,
        sq: &Squares,
        occ: Occupancy<S>,
        c: Color,
        mut f: impl FnMut(usize, Square) -> bool,
    ) -> bool {
        self.quiet_men(c)
            .rev()
            .all(|&i| self.quiet_moves_of(i, sq, occ, &mut f))
    }

    /// Side `c`'s men whose non-capturing moves stay in the slice: all but the pawns.
    #[inline]
    fn quiet_men(&self, c: Color) -> impl DoubleEndedIterator<Item = &usize> {
        self.own[c.index()].iter().filter(|&&i| !self.men[i].pawn)
    }

    /// `for_each_quiet` for man `i` alone.
    #[inline]
    fn quiet_moves_of(
        &self,
        i: usize,
        sq: &Squares,
        occ: Occupancy<S>,
        f: &mut impl FnMut(usize, Square) -> bool,
    ) -> bool {
        self.walk_quiet(i, sq[i], occ.all(), |t, _| f(i, t))
    }

    /// Calls `f(to, path)` for every non-capturing move of man `i` from `from`, given the
    /// occupied squares: along the rays, then by lame leaps and hops (whose `path` is the
    /// landing square only: paths serve the block-wise work, which such men never see). Stops,
    /// returning false, when `f` does.
    #[inline]
    fn walk_quiet(
        &self,
        i: usize,
        from: Square,
        occupied: S,
        mut f: impl FnMut(Square, S) -> bool,
    ) -> bool {
        let moves = self.men[i].moves;
        self.walk_quiet_rays(i, from, occupied, &mut f)
            && (moves.is_plain()
                || all_bits(moves.special_targets(from, occupied).0, |t| f(t, S::bit(t))))
    }

    /// `walk_quiet` along the rays alone (plain leaps and rides); `path` is the set of squares
    /// the move crosses and lands on. All of a man's moves where the men move blockwise.
    #[inline]
    fn walk_quiet_rays(
        &self,
        i: usize,
        from: Square,
        occupied: S,
        mut f: impl FnMut(Square, S) -> bool,
    ) -> bool {
        for ray in self.men[i].moves.rays(from) {
            let mut path = S::default();
            for &t in ray.squares() {
                if occupied.contains(t) {
                    break;
                }
                path |= S::bit(t);
                if ray.mode.moves() && !f(t, path) {
                    return false;
                }
            }
        }
        true
    }

    /// Calls `f(origin, path)` for every square man `i`, now on `to`, may have come from by a
    /// non-capturing move, given the occupied squares: along the rays, then by lame leaps and
    /// hops (whose `path` is the origin only, as in `walk_quiet`).
    #[inline]
    fn walk_unmoves(
        &self,
        i: usize,
        to: Square,
        occupied: S,
        mut f: impl FnMut(Square, S) -> bool,
    ) {
        self.walk_unmoves_rays(i, to, occupied, &mut f);
        let moves = self.men[i].moves;
        if !moves.is_plain() {
            for_each_bit(moves.special_origins(to, occupied), |o| {
                f(o, S::bit(o));
            });
        }
    }

    /// `walk_unmoves` along the rays alone; `path` is the origin and the squares between. A
    /// ray is left when `f` returns false (its further origins have longer paths).
    #[inline]
    fn walk_unmoves_rays(
        &self,
        i: usize,
        to: Square,
        occupied: S,
        mut f: impl FnMut(Square, S) -> bool,
    ) {
        for ray in self.men[i].moves.retro_rays(to) {
            let mut path = S::default();
            for &o in ray.squares() {
                if occupied.contains(o) {
                    break;
                }
                path |= S::bit(o);
                if !f(o, path) {
                    break;
                }
            }
        }
    }

    /// Calls `f(to, allowed)` for every non-capturing move of man `i` from `from` when every
    /// man but the block man stands on `others` (man `i` among them): the move exists for
    /// exactly the squares `allowed` of the block man (off the path of a ride or a lame leap;
    /// a hop may need him as its screen). Stops, returning false, when `f` does.
    #[inline(always)]
    fn walk_quiet_in_block(
        &self,
        i: usize,
        from: Square,
        others: S,
        mut f: impl FnMut(Square, S) -> bool,
    ) -> bool {
        let moves = self.men[i].moves;
        self.walk_quiet_rays(i, from, others, |t, path| f(t, !path))
            && (moves.is_plain() || moves.special_moves_in_block(from, others, &mut f))
    }

    /// Whether the block-wise work (the `*_of_block` and `*_in_block` methods) tells every
    /// move: the pawns capture plainly, and their other special moves are quiet lame leaps
    /// (the double step). Other men may move in any way, hops included.
    #[inline]
    pub fn blockwise(&self) -> bool {
        self.blockwise
    }

    /// Whether side `c` has a legal non-capturing move but a pawn's (one that stays in the
    /// slice). The royal is tried first: in check, its steps are the likeliest escapes.
    pub fn has_quiet_move(&self, sq: &Squares, occ: Occupancy<S>, c: Color) -> bool {
        self.has_quiet_move_among(sq, occ, c, |_| true)
    }

    /// `has_quiet_move` among the men `i` of side `c` for which `among(i)` holds, for a
    /// caller that knows the others have no legal non-capturing move.
    pub fn has_quiet_move_among(
        &self,
        sq: &Squares,
        occ: Occupancy<S>,
        c: Color,
        among: impl Fn(usize) -> bool,
    ) -> bool {
        let all = occ.all();
        let mut illegal = |i: usize, t: Square| {
            let mut s2 = *sq;
            s2[i] = t;
            let occupied = all ^ S::bit(sq[i]) ^ S::bit(t);
            self.royal_attacked(&s2, occupied, c)
        };
        !self
            .quiet_men(c)
            .filter(|&&i| among(i))
            .all(|&i| self.quiet_moves_of(i, sq, occ, &mut illegal))
    }

    /// Calls `f(i, origin, predecessor)` for every placement of the same slice from which
    /// side `c` reaches `sq` by moving man `i` (no pawn) from `origin` without capturing
    /// (un-move); the predecessor has `c` to move.
    #[inline]
    pub fn for_each_unmove(
        &self,
        sq: &Squares,
        occ: Occupancy<S>,
        c: Color,
        mut f: impl FnMut(usize, Square, &Squares),
    ) {
        for &i in self.quiet_men(c) {
            self.walk_unmoves(i, sq[i], occ.all(), |o, _| {
                let mut s2 = *sq;
                s2[i] = o;
                f(i, o, &s2);
                true
            });
        }
    }

    /// Index of the block man, the one whose 64 squares make a block of the index.
    #[inline]
    pub fn block_man(&self) -> usize {
        self.block_man
    }

    /// Squares of every man of a block but the block man.
    #[inline]
    pub fn others_of_block(&self, sq: &Squares) -> S {
        (0..self.men.len())
            .filter(|&i| i != self.block_man)
            .fold(S::default(), |o, i| o | S::bit(sq[i]))
    }

    /// Move tables of man `i`.
    #[inline]
    pub fn moves(&self, i: usize) -> &PieceMoves<S> {
        self.men[i].moves
    }

    /// Side of man `i`.
    #[inline]
    pub fn color(&self, i: usize) -> Color {
        self.men[i].color
    }

    /// Calls `f(i, to, allowed)` for every non-capturing move along a ray (a plain leap or
    /// ride) of side `c`'s men other than the block man, on the board of `occupied` (every man
    /// but him): the move exists for exactly the squares `allowed` of the block man, those
    /// off its path. The men move in man order, the royal first: a search for a move that
    /// escapes (a loss check) and one for a move that reaches some positions (a win step that
    /// pulls) both stop after fewer moves so in most tables measured (docs/SPEED.md). Stops,
    /// returning false, when `f` does. The lame leaps and hops are
    /// [`Men::for_each_special_quiet_of_block`]'s (apart, so that the hot walk of the rays
    /// keeps `f` inlined).
    #[inline(always)]
    pub fn for_each_quiet_of_block(
        &self,
        sq: &Squares,
        occupied: S,
        c: Color,
        mut f: impl FnMut(usize, Square, S) -> bool,
    ) -> bool {
        debug_assert!(
            self.blockwise,
            "block-wise work needs pawns that capture plainly"
        );
        let block = self.block_man;
        let walk = |&i: &usize| self.walk_quiet_rays(i, sq[i], occupied, |t, path| f(i, t, !path));
        self.quiet_men(c).filter(|&&i| i != block).all(walk)
    }

    /// `for_each_quiet_of_block` for the lame leaps and hops: `allowed` may then also be the
    /// squares where the block man is a hop's screen. Nothing to do unless
    /// [`Men::has_special_moves`].
    #[inline(never)]
    pub fn for_each_special_quiet_of_block(
        &self,
        sq: &Squares,
        occupied: S,
        c: Color,
        f: &mut dyn FnMut(usize, Square, S) -> bool,
    ) -> bool {
        let block = self.block_man;
        (self.quiet_men(c).filter(|&&i| i != block)).all(|&i| {
            let moves = self.men[i].moves;
            moves.is_plain()
                || moves.special_moves_in_block(sq[i], occupied, &mut |t, allowed| f(i, t, allowed))
        })
    }

    /// Calls `f(i, origin, allowed)` for every un-move along a ray of side `c`'s men other
    /// than the block man, on the board of `occupied` (every man but him): it exists for
    /// exactly the squares `allowed` of the block man, those off the origin and the squares
    /// between. A ray is left when `f` returns false (its further origins allow fewer
    /// squares). The lame leaps and hops are [`Men::for_each_special_unmove_of_block`]'s.
    #[inline(always)]
    pub fn for_each_unmove_of_block(
        &self,
        sq: &Squares,
        occupied: S,
        c: Color,
        f: impl FnMut(usize, Square, S) -> bool,
    ) {
        self.for_each_unmove_of_tile(sq, occupied, c, self.block_man, f);
    }

    /// [`Men::for_each_unmove_of_block`] for a word of blocks in which man `partner` varies
    /// too: the un-moves of side `c`'s men other than the block man and the partner, on the
    /// board of `occupied` (every man but those two), each of which exists for exactly the
    /// squares `allowed` of either.
    #[inline(always)]
    pub fn for_each_unmove_of_tile(
        &self,
        sq: &Squares,
        occupied: S,
        c: Color,
        partner: usize,
        mut f: impl FnMut(usize, Square, S) -> bool,
    ) {
        debug_assert!(
            self.blockwise,
            "block-wise work needs pawns that capture plainly"
        );
        let block = self.block_man;
        for &i in self.quiet_men(c).filter(|&&i| i != block && i != partner) {
            self.walk_unmoves_rays(i, sq[i], occupied, |o, path| f(i, o, !path));
        }
    }

    /// The un-moves along a ray of man `i` from square `to` on the board of `occupied`:
    /// `f(origin, allowed)` as [`Men::for_each_unmove_of_block`] calls it.
    #[inline(always)]
    pub fn for_each_unmove_of_man(
        &self,
        i: usize,
        to: Square,
        occupied: S,
        mut f: impl FnMut(Square, S) -> bool,
    ) {
        self.walk_unmoves_rays(i, to, occupied, |o, path| f(o, !path));
    }

    /// `for_each_unmove_of_block` for the lame leaps and hops undone: `allowed` may then also
    /// be the squares where the block man is a hop's screen. Nothing to do unless
    /// [`Men::has_special_moves`].
    #[inline(never)]
    pub fn for_each_special_unmove_of_block(
        &self,
        sq: &Squares,
        occupied: S,
        c: Color,
        f: &mut dyn FnMut(usize, Square, S),
    ) {
        let block = self.block_man;
        for &i in self.quiet_men(c).filter(|&&i| i != block) {
            let moves = self.men[i].moves;
            if !moves.is_plain() {
                moves.special_origins_in_block(sq[i], occupied, &mut |o, allowed| f(i, o, allowed));
            }
        }
    }

    /// Whether a man who is no pawn moves by lame leaps or hops (see
    /// `for_each_special_quiet_of_block`).
    #[inline]
    pub fn has_special_moves(&self) -> bool {
        self.special
    }

    /// Calls `f(i, to, allowed)` for every non-capturing move of side `c`'s pawns (pushes,
    /// double steps and promotions), on the board of `occupied` (every man but the block
    /// man, who is no pawn): the move exists for exactly the squares `allowed` of the block
    /// man, those off the squares it crosses and lands on.
    #[inline]
    pub fn for_each_pawn_move_of_block(
        &self,
        sq: &Squares,
        occupied: S,
        c: Color,
        mut f: impl FnMut(usize, Square, S),
    ) {
        debug_assert!(
            self.blockwise,
            "block-wise work needs pawns that capture plainly"
        );
        for &i in self.own[c.index()].iter().filter(|&&i| self.men[i].pawn) {
            self.walk_quiet_in_block(i, sq[i], occupied, |t, allowed| {
                f(i, t, allowed);
                true
            });
        }
    }

    /// The squares of the block man with which side `c`'s royal is attacked, in a block whose
    /// other men are `sq` (on the squares `others`).
    pub fn royal_attacked_in_block(&self, sq: &Squares, others: S, c: Color) -> S {
        let royal = sq[c.index()];
        let mut attacked = S::default();
        for &j in &self.own[c.flip().index()] {
            if j == self.block_man {
                attacked |= !others & self.men[j].moves.attackers(royal, others);
            } else {
                attacked |= self.men[j].moves.attacks_with_extra(sq[j], royal, others);
            }
        }
        attacked
    }

    /// The squares of the block man with which side `c`'s royal has a legal non-capturing
    /// move, in a block whose other men are `sq` (on the squares `others`).
    pub fn royal_steps_in_block(&self, sq: &Squares, others: S, c: Color) -> S {
        let royal = c.index();
        let from = sq[royal];
        let mut safe = S::default();
        self.walk_quiet_in_block(royal, from, others, |t, allowed| {
            let mut s = *sq;
            s[royal] = t;
            let occupied = others ^ S::bit(from) ^ S::bit(t);
            safe |= !self.royal_attacked_in_block(&s, occupied, c) & allowed;
            true
        });
        safe
    }

    /// A superset of the squares of the block man with which side `c`'s royal has no legal
    /// non-capturing move, in a block whose other men are `sq` (on the squares `others`): the
    /// complement of [`Men::royal_steps_in_block`], within a few squares, for much less work.
    /// A step that no other enemy man attacks even with the block man off the board is safe
    /// wherever the block man stands, unless he stands on its path, or, an enemy, attacks its
    /// square, or is the screen of an enemy hop onto it; so the royal can be boxed in only
    /// where the block man spoils every such step.
    pub fn royal_boxed_in_block(&self, sq: &Squares, others: S, c: Color) -> S {
        let royal = c.index();
        let from = sq[royal];
        // The royal has left `from`; his target square blocks no ray towards itself.
        let vacated = others ^ S::bit(from);
        // The squares the other enemies attack, the block man off the board.
        let block = self.block_man;
        let attacked = (self.own[c.flip().index()].iter())
            .filter(|&&j| j != block)
            .fold(S::default(), |set, &j| {
                set | self.men[j].moves.attack_set(sq[j], vacated)
            });
        let mut boxed = !S::default();
        self.walk_quiet_in_block(royal, from, others, |t, allowed| {
            boxed &= match attacked.contains(t) {
                true => !S::default(),
                false => self.spoiling(sq, vacated, c, t, allowed),
            };
            !boxed.is_empty()
        });
        boxed
    }

    /// For `royal_boxed_in_block`: the squares of the block man with which the step of side
    /// `c`'s royal to `t` (possible for the block man's squares `allowed`), which no other
    /// enemy attacks, may be unsafe, the other men standing on `vacated` (the royal off the
    /// board): those off `allowed`, those where the block man, an enemy, attacks `t`, and
    /// those where he is the screen of an enemy hop onto it.
    #[inline(always)]
    fn spoiling(&self, sq: &Squares, vacated: S, c: Color, t: Square, allowed: S) -> S {
        let block = self.block_man;
        let enemies = &self.own[c.flip().index()];
        let mut spoilt = !allowed;
        if self.men[block].color != c {
            spoilt |= self.men[block].moves.attackers(t, vacated);
        }
        if self.special {
            for &j in enemies.iter().filter(|&&j| j != block) {
                let moves = self.men[j].moves;
                if !moves.is_plain() {
                    spoilt |= moves.attacks_with_extra(sq[j], t, vacated);
                }
            }
        }
        spoilt
    }

    /// Squares man `i` on `from` reaches by a non-capturing move, given the occupied squares.
    #[inline]
    pub fn quiet_targets(&self, i: usize, from: Square, occupied: S) -> S {
        let moves = self.men[i].moves;
        let plain = moves.quiet_targets(from, occupied);
        match moves.is_plain() {
            true => plain,
            false => plain | moves.special_quiet_targets(from, occupied),
        }
    }

    /// Squares man `i`, now on `to`, may have come from by a non-capturing move, given the
    /// occupied squares.
    #[inline]
    pub fn unmove_origins(&self, i: usize, to: Square, occupied: S) -> S {
        let moves = self.men[i].moves;
        let plain = moves.unmove_origins(to, occupied);
        match moves.is_plain() {
            true => plain,
            false => plain | moves.special_origins(to, occupied),
        }
    }

    /// Squares man `i` may have come from by a non-capturing move to any square of `targets`,
    /// given the occupied squares: `unmove_origins` of each, united, all at once where his
    /// moves allow (`PieceMoves::retro_slides`).
    #[inline]
    pub fn unmove_origins_of_set(&self, i: usize, targets: S, occupied: S) -> S {
        if let Some(slides) = self.men[i].moves.retro_slides() {
            return slides.origins(targets, occupied);
        }
        let mut origins = S::default();
        for_each_bit(targets, |y| origins |= self.unmove_origins(i, y, occupied));
        origins
    }

    /// The placement after man `i` captures man `j`, in the smaller material's order.
    #[inline]
    pub fn after_capture(&self, sq: &Squares, i: usize, j: usize) -> Squares {
        let mut moved = *sq;
        moved[i] = sq[j];
        self.without(&moved, j)
    }

    /// The placement `sq` with man `j` taken off, in the smaller material's order.
    #[inline]
    fn without(&self, sq: &Squares, j: usize) -> Squares {
        let mut out = [0; MAX_MEN];
        for (k, m) in (0..self.men.len()).filter(|&m| m != j).enumerate() {
            out[k] = sq[m];
        }
        out
    }

    /// The placement after pawn `i` promotes on `to`, taking man `captured` if any, in the
    /// order of the material it promotes into: `perm` tells where each man of the material
    /// it promotes from (this one, or this one without the captured man) goes
    /// (`Material::promoted`).
    #[inline]
    pub fn after_promotion(
        &self,
        sq: &Squares,
        i: usize,
        to: Square,
        captured: Option<usize>,
        perm: &Perm,
    ) -> Squares {
        let mut moved = *sq;
        moved[i] = to;
        let (from, len) = match captured {
            Some(j) => (self.without(&moved, j), self.men.len() - 1),
            None => (moved, self.men.len()),
        };
        let mut out = [0; MAX_MEN];
        for m in 0..len {
            out[perm[m]] = from[m];
        }
        out
    }

    /// The placement after pawn `j` takes pawn `victim` en passant, moving to `passed`, the
    /// square the victim's double step passed over; in the smaller material's order.
    #[inline]
    pub fn after_en_passant(
        &self,
        sq: &Squares,
        j: usize,
        passed: Square,
        victim: usize,
    ) -> Squares {
        let mut moved = *sq;
        moved[j] = passed;
        self.without(&moved, victim)
    }

    /// Whether man `i` is a pawn.
    #[inline]
    pub fn is_pawn(&self, i: usize) -> bool {
        self.men[i].pawn
    }

    /// Whether square `to` is side `c`'s last rank, where its pawns promote.
    #[inline]
    pub fn promotes_on(&self, to: Square, c: Color) -> bool {
        self.last_rank[c.index()].contains(to)
    }

    /// The squares of side `c`'s last rank, where its pawns promote.
    #[inline]
    pub fn last_rank(&self, c: Color) -> S {
        self.last_rank[c.index()]
    }

    /// Calls `f` with every exit of side `c` (see [`Exit`]), legal or not: its captures,
    /// its pawns' non-capturing moves and its promotions.
    #[inline]
    pub fn for_each_exit(
        &self,
        sq: &Squares,
        occ: Occupancy<S>,
        c: Color,
        mut f: impl FnMut(Exit),
    ) {
        self.for_each_capture(sq, occ, c, |i, j| {
            f(if self.men[i].pawn && self.promotes_on(sq[j], c) {
                Exit::Promote {
                    i,
                    to: sq[j],
                    captured: Some(j),
                }
            } else {
                Exit::Capture { i, j }
            })
        });
        let all = occ.all();
        for &i in self.own[c.index()].iter().filter(|&&i| self.men[i].pawn) {
            let from = sq[i];
            let mut pawn_move = |to: Square| {
                f(if self.promotes_on(to, c) {
                    Exit::Promote {
                        i,
                        to,
                        captured: None,
                    }
                } else {
                    Exit::Push { i, to }
                })
            };
            self.walk_quiet_rays(i, from, all, |to, _| {
                pawn_move(to);
                true
            });
            let moves = self.men[i].moves;
            if !moves.is_plain() {
                for_each_bit(moves.special_targets(from, all).0, pawn_move);
            }
        }
    }

    /// Whether exit `exit` of side `c` leaves `c`'s royal safe.
    #[inline]
    pub fn exit_is_legal(&self, sq: &Squares, occ: Occupancy<S>, exit: Exit, c: Color) -> bool {
        match exit {
            Exit::Capture { i, j }
            | Exit::Promote {
                i,
                captured: Some(j),
                ..
            } => self.capture_is_legal(sq, occ, i, j, c),
            Exit::Push { i, to, .. }
            | Exit::Promote {
                i,
                to,
                captured: None,
            } => {
                let mut s2 = *sq;
                s2[i] = to;
                let occupied = occ.all() ^ S::bit(sq[i]) ^ S::bit(to);
                !self.royal_attacked(&s2, occupied, c)
            }
        }
    }
}

impl<S: SquareSet> Men<'_, S> {
    /// Whether man `i` (side `c`) capturing man `j` leaves `c`'s royal safe.
    pub fn capture_is_legal(
        &self,
        sq: &Squares,
        occ: Occupancy<S>,
        i: usize,
        j: usize,
        c: Color,
    ) -> bool {
        let mut s2 = *sq;
        s2[i] = sq[j];
        let occupied = occ.all() ^ S::bit(sq[i]);
        let royal = s2[c.index()];
        !self.own[c.flip().index()]
            .iter()
            .any(|&k| k != j && self.men[k].moves.attacks(s2[k], royal, occupied))
    }

    /// Whether side `c` has any legal move (en passant aside: no placement holds its right).
    pub fn has_legal_move(&self, sq: &Squares, occ: Occupancy<S>, c: Color) -> bool {
        if self.has_quiet_move(sq, occ, c) {
            return true;
        }
        let mut any = false;
        self.for_each_exit(sq, occ, c, |exit| {
            any = any || self.exit_is_legal(sq, occ, exit, c)
        });
        any
    }
}
