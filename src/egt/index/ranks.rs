//! Ranking identical men as unordered sets: a group of `len` identical men on distinct
//! squares is one digit of the index, its rank in the combinatorial number system
//! (C(N, len) ranks on a board of N squares, so two knights take 2016 slots on 8×8, not
//! 4096), and each rank's squares are
//! read back from a table.

use super::divisor::Divisor;
use crate::board::size::MAX_SIDE;
use crate::board::Square;
use crate::egt::material::{Squares, MAX_MEN};

/// A run of identical non-royal men in canonical man order.
#[derive(Clone, Debug)]
pub(super) struct Group {
    /// The first man of the group.
    pub(super) start: usize,
    /// How many men.
    pub(super) len: usize,
    /// Number of ranks: C(N, len) on a board of N squares.
    pub(super) size: u64,
    /// Division by `size`, for decoding.
    pub(super) divisor: Divisor,
    /// Squares of each rank (len > 1 only), ascending.
    pub(super) unrank: Vec<[Square; MAX_MEN]>,
}

impl Group {
    /// The group of the `len` identical men from man `start` on, on a board of `squares`
    /// squares, with its unrank table.
    pub(super) fn new(start: usize, len: usize, squares: usize) -> Group {
        let size = binomial(squares as u64, len as u64);
        let mut unrank = Vec::new();
        if len > 1 {
            unrank = vec![[0; MAX_MEN]; size as usize];
            let mut combo: Vec<Square> = (0..len as Square).collect();
            loop {
                let mut sq = [0; MAX_MEN];
                sq[..len].copy_from_slice(&combo);
                unrank[rank_sorted(&sq[..len]) as usize] = sq;
                // Next combination in lexicographic order.
                let mut k = len;
                while k > 0 && combo[k - 1] as usize == squares - len + k - 1 {
                    k -= 1;
                }
                if k == 0 {
                    break;
                }
                combo[k - 1] += 1;
                for j in k..len {
                    combo[j] = combo[j - 1] + 1;
                }
            }
        }
        Group {
            start,
            len,
            size,
            divisor: Divisor::new(size),
            unrank,
        }
    }

    /// Puts the squares of rank `rank` of the group into `sq`.
    #[inline]
    pub(super) fn place(&self, rank: u64, sq: &mut Squares) {
        if self.len == 1 {
            sq[self.start] = rank as Square;
        } else {
            sq[self.start..self.start + self.len]
                .copy_from_slice(&self.unrank[rank as usize][..self.len]);
        }
    }

    /// The group's digit of placement `sq`: the square of a man alone, the rank of the set of
    /// squares of identical men.
    #[inline(always)]
    pub(super) fn rank(&self, sq: &Squares) -> u64 {
        self.rank_mapped(sq, |x| x)
    }

    /// `rank` of the placement whose men stand on `image(x)` for each square x of `sq`.
    #[inline(always)]
    pub(super) fn rank_mapped(&self, sq: &Squares, image: impl Fn(Square) -> Square) -> u64 {
        let men = &sq[self.start..self.start + self.len];
        match *men {
            [x] => image(x) as u64,
            // The most frequent group, a pair, without a sort.
            [a, b] => pair_rank(image(a), image(b)),
            _ => {
                let mut s = [0; MAX_MEN];
                for (to, &from) in s.iter_mut().zip(men) {
                    *to = image(from);
                }
                s[..self.len].sort_unstable();
                rank_sorted(&s[..self.len])
            }
        }
    }
}

/// The rank of a pair of squares {a, b}, in either order: C(low, 1) + C(high, 2), as
/// `rank_sorted` counts.
#[inline(always)]
pub(super) fn pair_rank(a: Square, b: Square) -> u64 {
    let (low, high) = if a < b { (a, b) } else { (b, a) };
    let high = high as u64;
    low as u64 + high * (high.max(1) - 1) / 2
}

/// C(n, k).
pub(super) fn binomial(n: u64, k: u64) -> u64 {
    if k > n {
        return 0;
    }
    (0..k).fold(1, |acc, i| acc * (n - i) / (i + 1))
}

/// Rank of an ascending set of squares in the combinatorial number system.
#[inline]
pub(super) fn rank_sorted(s: &[Square]) -> u64 {
    s.iter()
        .enumerate()
        .map(|(i, &q)| BINOMIALS[q as usize][i + 1])
        .sum()
}

/// Most squares of a board.
const MAX_SQUARES: usize = MAX_SIDE as usize * MAX_SIDE as usize;

/// `BINOMIALS[n][k]` = C(n, k) for the squares of the largest board and group sizes up to
/// MAX_MEN.
const BINOMIALS: [[u64; MAX_MEN + 1]; MAX_SQUARES + 1] = {
    let mut t = [[0u64; MAX_MEN + 1]; MAX_SQUARES + 1];
    let mut n = 0;
    while n <= MAX_SQUARES {
        t[n][0] = 1;
        let mut k = 1;
        while k <= MAX_MEN && k <= n {
            t[n][k] = t[n - 1][k - 1] + if k < n { t[n - 1][k] } else { 0 };
            k += 1;
        }
        n += 1;
    }
    t
};
