//! Un-moves of a whole set of squares at once: the squares a man may have come from, by a
//! non-capturing plain leap or ride, to any square of a set. The builder asks this of a block's
//! man for all the slots of a block (`Men::unmove_origins_of_set`); square by square it would
//! walk every ray of every slot. Each step is a shift of the set by the step's square
//! difference, its squares first cut to those the step keeps on the board. A leap is one such
//! shift; a ride of unlimited range is an occluded fill (Kogge–Stone: the squares reached in
//! 1, 2, 4, … steps at once, a fixed number of rounds with no test per square); a ride of
//! limited range repeats the step while the squares reached are empty.

use super::size::BoardSize;
use super::square_set::SquareSet;
use crate::piece::{Step, StepKind};

/// One retro step: a shift of the square numbers by `by`, from the squares `keep` (those it
/// leaves on the board), onto the squares `lands` (the shifted `keep`), at most `range` times.
#[derive(Clone, Copy, Debug)]
struct Slide<S> {
    keep: S,
    lands: S,
    by: i32,
    range: Range,
}

/// How far a retro step goes.
#[derive(Clone, Copy, Debug)]
enum Range {
    /// Once: a leap.
    Leap,
    /// Up to this many times, while the squares reached are empty.
    Limited(u8),
    /// Along the whole ray: an occluded fill of this many doubling rounds after the first
    /// step (`2^rounds` steps cover the longest ray of the step on the board).
    Fill(u32),
}

/// The retro steps of a piece's non-capturing moves, for [`Slides::origins`].
#[derive(Clone, Debug)]
pub struct Slides<S>(Vec<Slide<S>>);

impl<S: SquareSet> Slides<S> {
    /// The retro steps of `steps` (in the colour's orientation) on `board`; `None` when a step
    /// is no plain leap or ride or is taken only from the second rank (the pawn's double
    /// step): such moves are found square by square.
    pub fn retro(board: BoardSize, steps: &[Step]) -> Option<Slides<S>> {
        if steps.iter().any(|s| s.kind != StepKind::Plain || s.initial) {
            return None;
        }
        let slides = (steps.iter().filter(|s| s.mode.moves()))
            .filter_map(|s| {
                // Back along the step: from (f, r) to (f − dx, r − dy).
                let (dx, dy) = (-s.dx, -s.dy);
                let keep = board
                    .all_squares()
                    .filter(|&q| {
                        let (f, r) = (board.file_of(q), board.rank_of(q));
                        board.square_at(f + dx, r + dy).is_some()
                    })
                    .fold(S::default(), |k, q| k | S::bit(q));
                // A step longer than the board (3 ranks up on a board of 3) never moves: its
                // shift may be as wide as the set.
                if keep.is_empty() {
                    return None;
                }
                let by = dx as i32 + dy as i32 * board.files() as i32;
                // The most steps a ray takes on the board.
                let longest = [(dx, board.files()), (dy, board.ranks())]
                    .into_iter()
                    .filter(|&(d, _)| d != 0)
                    .map(|(d, len)| (len - 1) as u32 / d.unsigned_abs() as u32)
                    .min()
                    .unwrap_or(0);
                let range = match s.range {
                    1 => Range::Leap,
                    0 => Range::Fill(longest.max(1).next_power_of_two().trailing_zeros()),
                    r => Range::Limited(r),
                };
                // The fill's longest shift, |by| times half the steps it covers, is under
                // |by| times the longest ray, which stays on the board: below the set's width,
                // where a native shift would wrap.
                if let Range::Fill(rounds) = range {
                    let longest_shift = by.unsigned_abs() << rounds.saturating_sub(1);
                    assert!(
                        (longest_shift as usize) < board.squares(),
                        "{steps:?} on {board}"
                    );
                }
                Some(Slide {
                    keep,
                    lands: keep.shifted(by),
                    by,
                    range,
                })
            })
            .collect();
        Some(Slides(slides))
    }

    /// The empty squares (not in `occupied`) from which a non-capturing move reaches a square
    /// of `targets` over empty squares: the union of `unmove_origins` over `targets`.
    #[inline]
    pub fn origins(&self, targets: S, occupied: S) -> S {
        let empty = !occupied;
        let mut origins = S::default();
        for slide in &self.0 {
            match slide.range {
                Range::Leap => origins |= (targets & slide.keep).shifted(slide.by),
                Range::Fill(rounds) => {
                    // A square is reached in k + j steps when it is reached in j steps from
                    // one reached in k, over squares each a step's landing and empty.
                    let through = slide.lands & empty;
                    let (mut reached, mut open) = (targets.shifted(slide.by) & through, through);
                    let mut by = slide.by;
                    for round in 1..=rounds {
                        reached |= open & reached.shifted(by);
                        // The last round's reach needs no longer runs of empty squares.
                        if round < rounds {
                            open &= open.shifted(by);
                            by *= 2;
                        }
                    }
                    origins |= reached;
                }
                Range::Limited(range) => {
                    let mut reached = targets;
                    for _ in 0..range {
                        reached = (reached & slide.keep).shifted(slide.by) & empty;
                        if reached.is_empty() {
                            break;
                        }
                        origins |= reached;
                    }
                }
            }
        }
        origins & empty
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::geometry::PieceMoves;
    use crate::board::square_set::for_each_bit;
    use crate::board::test_random::TestRandom;
    use crate::board::{Bits192, Bits256};
    use crate::piece::StepMode;

    /// Steps of a Queen, a Knight, a Nightrider, a one-way piece (moves up to two squares
    /// forward, captures one square diagonally forward), a Wazir that only captures, and
    /// riders of (3, 3) and (2, 3) steps, which do not fit on boards of 3 ranks or files.
    fn pieces() -> Vec<Vec<Step>> {
        let both = StepMode::Both;
        let eight = |dx: i8, dy: i8, range: u8| {
            [(1, 1), (1, -1), (-1, 1), (-1, -1)]
                .iter()
                .flat_map(|&(a, b)| [(a * dx, b * dy), (a * dy, b * dx)])
                .map(|(x, y)| Step::plain(x, y, range, both))
                .collect::<Vec<_>>()
        };
        let mut queen = eight(1, 0, 0);
        queen.extend(eight(1, 1, 0));
        let one_way = vec![
            Step::plain(0, 1, 2, StepMode::MoveOnly),
            Step::plain(1, 1, 1, StepMode::CaptureOnly),
            Step::plain(-1, 1, 1, StepMode::CaptureOnly),
        ];
        let capturer = (eight(1, 0, 1).into_iter())
            .map(|s| Step::plain(s.dx, s.dy, 1, StepMode::CaptureOnly))
            .collect();
        vec![
            queen,
            eight(1, 2, 1),
            eight(1, 2, 0),
            one_way,
            capturer,
            eight(3, 3, 0),
            eight(2, 3, 0),
        ]
    }

    fn check<S: SquareSet>(board: BoardSize) {
        let n = board.squares();
        let mut random = TestRandom::new(0x9e37_79b9_7f4a_7c15);
        for steps in pieces() {
            let moves = PieceMoves::<S>::new(board, &steps, 1);
            let slides = Slides::<S>::retro(board, &steps).expect("plain steps");
            // Dense sets, and sparse ones, whose rides run the whole board.
            for one_in in [5, 5, 50] {
                for _ in 0..50 {
                    let (targets, occupied): (S, S) =
                        (random.set(n, one_in), random.set(n, one_in));
                    let targets = targets & !occupied;
                    let mut want = S::default();
                    for_each_bit(targets, |y| want |= moves.unmove_origins(y, occupied));
                    assert_eq!(slides.origins(targets, occupied), want, "{board} {steps:?}");
                }
            }
        }
    }

    #[test]
    fn slides_find_the_origins_rays_find() {
        check::<u64>(BoardSize::new(5, 5).unwrap());
        check::<u64>(BoardSize::new(8, 8).unwrap());
        check::<u64>(BoardSize::new(7, 9).unwrap());
        check::<u128>(BoardSize::new(10, 8).unwrap());
        check::<u128>(BoardSize::new(11, 11).unwrap());
        check::<Bits192>(BoardSize::new(12, 12).unwrap());
        check::<Bits192>(BoardSize::new(13, 11).unwrap());
        check::<Bits256>(BoardSize::new(12, 12).unwrap());
        check::<Bits256>(BoardSize::new(16, 16).unwrap());
        check::<u64>(BoardSize::new(8, 3).unwrap());
        // The fill's shifts stay within the set on every board (`retro` asserts it), steps
        // that do not fit on it too.
        for (files, ranks) in (3..=16).flat_map(|f| (3..=16).map(move |r| (f, r))) {
            let board = BoardSize::new(files, ranks).unwrap();
            for steps in pieces() {
                match board.squares() {
                    ..=64 => drop(Slides::<u64>::retro(board, &steps)),
                    65..=128 => drop(Slides::<u128>::retro(board, &steps)),
                    129..=192 => drop(Slides::<Bits192>::retro(board, &steps)),
                    _ => drop(Slides::<Bits256>::retro(board, &steps)),
                }
            }
        }
    }
}
