//! A ray: the squares one step reaches when repeated from a square, for the move tables
//! (`geometry.rs`) and the special moves walked along one (`special.rs`).

use super::size::BoardSize;
use super::square::Square;
use super::square_set::SquareSet;
use crate::piece::StepMode;

/// Squares reached by repeating one step from a square, nearest first; a leaper's ray has one
/// square. A man stops at the first occupied square of a ray.
///
/// A step changes the square number by the same amount each time, so a ray's squares run
/// either up or down, and its nearest occupied square is the lowest or the highest occupied
/// one: `free` finds it with one bit scan.
#[derive(Clone, Copy, Debug)]
pub struct Ray<S> {
    /// The ray's squares as a set.
    mask: S,
    /// Move/capture rights of the step.
    pub mode: StepMode,
    len: u8,
    /// Whether the square numbers grow along the ray.
    ascending: bool,
    squares: [Square; MAX_RAY],
}

/// Most squares of a ray: one less than the longest side of a board.
const MAX_RAY: usize = crate::board::size::MAX_SIDE as usize - 1;

impl<S: SquareSet> Ray<S> {
    /// The squares of the ray, nearest first.
    pub fn squares(&self) -> &[Square] {
        &self.squares[..self.len as usize]
    }

    /// The ray's squares as a set.
    #[inline]
    pub(super) fn mask(&self) -> S {
        self.mask
    }

    /// Whether the square numbers grow along the ray.
    #[inline]
    pub(super) fn ascending(&self) -> bool {
        self.ascending
    }

    /// The squares of the ray before its first occupied one.
    #[inline]
    pub fn free(&self, occupied: S) -> S {
        let blockers = self.mask & occupied;
        if blockers.is_empty() {
            self.mask
        } else if self.ascending {
            self.mask & blockers.below_lowest()
        } else {
            self.mask & blockers.above_highest()
        }
    }

    pub(super) fn walk(
        board: BoardSize,
        from: Square,
        (dx, dy): (i8, i8),
        range: u8,
        mode: StepMode,
    ) -> Option<Ray<S>> {
        let mut ray = Ray {
            mode,
            len: 0,
            squares: [0; MAX_RAY],
            mask: S::default(),
            ascending: false,
        };
        let (mut f, mut r) = (board.file_of(from), board.rank_of(from));
        let limit = if range == 0 {
            MAX_RAY as u8
        } else {
            range.min(MAX_RAY as u8)
        };
        while ray.len < limit {
            f += dx;
            r += dy;
            match board.square_at(f, r) {
                Some(s) => {
                    ray.squares[ray.len as usize] = s;
                    ray.mask |= S::bit(s);
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
