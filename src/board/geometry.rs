//! Per-piece, per-colour move tables: for every square, the rays a man walks when it moves
//! (forward) and the rays of squares it may have come from by a non-capturing move (retro).

use super::square::{file_of, rank_of, square_at, Color, Square, BOARD_SQUARES};
use crate::piece::{PieceSet, PieceType, Step, StepMode};

/// Squares reached by repeating one step from a square, nearest first; a leaper's ray has one
/// square. A man stops at the first occupied square of a ray.
#[derive(Clone, Copy, Debug)]
pub struct Ray {
    /// Move/capture rights of the step.
    pub mode: StepMode,
    len: u8,
    squares: [Square; 7],
}

impl Ray {
    /// The squares of the ray, nearest first.
    pub fn squares(&self) -> &[Square] {
        &self.squares[..self.len as usize]
    }

    fn walk(from: Square, dx: i8, dy: i8, range: u8, mode: StepMode) -> Option<Ray> {
        let mut ray = Ray {
            mode,
            len: 0,
            squares: [0; 7],
        };
        let (mut f, mut r) = (file_of(from), rank_of(from));
        let limit = if range == 0 { 7 } else { range.min(7) };
        while ray.len < limit {
            f += dx;
            r += dy;
            match square_at(f, r) {
                Some(s) => {
                    ray.squares[ray.len as usize] = s;
                    ray.len += 1;
                }
                None => break,
            }
        }
        (ray.len > 0).then_some(ray)
    }
}

/// The move tables of one piece type for one colour.
#[derive(Clone, Debug)]
pub struct PieceMoves {
    forward: Vec<Vec<Ray>>,
    retro: Vec<Vec<Ray>>,
    reach: Vec<u64>,
}

impl PieceMoves {
    /// Tables for the given steps (already in the colour's orientation).
    pub fn new(steps: &[Step]) -> PieceMoves {
        let mut forward = Vec::with_capacity(BOARD_SQUARES);
        let mut retro = Vec::with_capacity(BOARD_SQUARES);
        let mut reach = Vec::with_capacity(BOARD_SQUARES);
        for sq in 0..BOARD_SQUARES as Square {
            let fwd: Vec<Ray> = steps
                .iter()
                .filter_map(|s| Ray::walk(sq, s.dx, s.dy, s.range, s.mode))
                .collect();
            let back: Vec<Ray> = steps
                .iter()
                .filter(|s| s.mode.moves())
                .filter_map(|s| Ray::walk(sq, -s.dx, -s.dy, s.range, StepMode::MoveOnly))
                .collect();
            let mut mask = 0u64;
            for ray in fwd.iter().filter(|r| r.mode.captures()) {
                for &t in ray.squares() {
                    mask |= 1 << t;
                }
            }
            forward.push(fwd);
            retro.push(back);
            reach.push(mask);
        }
        PieceMoves {
            forward,
            retro,
            reach,
        }
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

    /// Squares a man on `from` attacks (could capture on), given the occupied squares; an
    /// occupied square ends a ray and is left out.
    pub fn attack_set(&self, from: Square, occupied: u64) -> u64 {
        let mut set = 0u64;
        for ray in self.forward[from as usize]
            .iter()
            .filter(|r| r.mode.captures())
        {
            for &s in ray.squares() {
                if occupied & (1 << s) != 0 {
                    break;
                }
                set |= 1 << s;
            }
        }
        set
    }

    /// Whether a man on `from` attacks `target` when one more man may stand on any free
    /// square: `None` if it does not even without that man; else the squares where that
    /// man would block every attacking ray (empty for a leap).
    pub fn attack_shadow(&self, from: Square, target: Square, occupied: u64) -> Option<u64> {
        if self.reach[from as usize] & (1 << target) == 0 {
            return None;
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
        if self.reach[from as usize] & (1 << target) == 0 {
            return false;
        }
        for ray in self.forward[from as usize]
            .iter()
            .filter(|r| r.mode.captures())
        {
            for &s in ray.squares() {
                if s == target {
                    return true;
                }
                if occupied & (1 << s) != 0 {
                    break;
                }
            }
        }
        false
    }
}

/// Move tables for every piece of a set, both colours.
#[derive(Clone, Debug)]
pub struct Geometry {
    tables: Vec<(char, [PieceMoves; 2])>,
}

impl Geometry {
    /// Tables for every piece type of the set.
    pub fn new(pieces: &PieceSet) -> Geometry {
        Geometry {
            tables: pieces.iter().map(|p| (p.letter, Self::both(p))).collect(),
        }
    }

    fn both(p: &PieceType) -> [PieceMoves; 2] {
        [
            PieceMoves::new(&p.steps),
            PieceMoves::new(&p.steps_for_black()),
        ]
    }

    /// The tables of a letter (either case) for a colour, if the letter is defined.
    pub fn moves(&self, letter: char, color: Color) -> Option<&PieceMoves> {
        let l = letter.to_ascii_uppercase();
        self.tables
            .iter()
            .find(|(c, _)| *c == l)
            .map(|(_, t)| &t[color.index()])
    }
}
