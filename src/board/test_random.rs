//! Pseudo-random numbers and sets of squares for the unit tests, the same on every run
//! (xorshift64).

use super::square_set::SquareSet;

/// A xorshift64 generator.
pub(crate) struct TestRandom(u64);

impl TestRandom {
    /// A generator started from `seed` (not 0).
    pub(crate) fn new(seed: u64) -> TestRandom {
        TestRandom(seed)
    }

    /// A number below `n`.
    pub(crate) fn below(&mut self, n: u64) -> u64 {
        let state = &mut self.0;
        *state ^= *state << 13;
        *state ^= *state >> 7;
        *state ^= *state << 17;
        *state % n
    }

    /// A set of the squares below `squares`, each in it with a chance of one in `one_in`.
    pub(crate) fn set<S: SquareSet>(&mut self, squares: usize, one_in: u64) -> S {
        (0..squares)
            .filter(|_| self.below(one_in) == 0)
            .fold(S::default(), |set, q| set | S::bit(q as u8))
    }
}
