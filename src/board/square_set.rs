//! Sets of squares as bit sets, one bit per square (bit `sq` set when `sq` is in the set).
//! The width follows the board: `u64` for boards of up to 64 squares (8×8 among them, where
//! the builder's block-wise work needs it), `u128` up to 128 (10×8, 11×11), [`Bits192`] up to
//! 192 (12×12, 13×13), [`Bits256`] up to 256 (16×16). Move generation is written once,
//! generic over [`SquareSet`], and used at the narrowest width that holds the board.

use super::square::Square;
use std::fmt::Debug;
use std::ops::{BitAnd, BitAndAssign, BitOr, BitOrAssign, BitXor, BitXorAssign, Not};

/// A set of squares as bits.
pub trait SquareSet:
    Copy
    + Default
    + Eq
    + Debug
    + Send
    + Sync
    + 'static
    + BitAnd<Output = Self>
    + BitOr<Output = Self>
    + BitXor<Output = Self>
    + Not<Output = Self>
    + BitAndAssign
    + BitOrAssign
    + BitXorAssign
{
    /// Most squares a set holds.
    const CAPACITY: usize;

    /// The set of one square.
    fn bit(sq: Square) -> Self;

    /// Whether the set is empty.
    fn is_empty(self) -> bool;

    /// The lowest square of a non-empty set.
    fn lowest(self) -> Square;

    /// The squares numbered below the lowest of a non-empty set.
    fn below_lowest(self) -> Self;

    /// The squares numbered above the highest of a non-empty set.
    fn above_highest(self) -> Self;

    /// Number of squares.
    fn count(self) -> u32;

    /// 64-bit words of the set (its *lanes*): square `sq` is bit `sq % 64` of lane `sq / 64`.
    /// The builder keeps a block's sets of slots in memory as lanes.
    const LANES: usize;

    /// Lane `k` (squares 64·k … 64·k + 63).
    fn lane(self, k: usize) -> u64;

    /// The set whose lane k is `lane(k)`.
    fn from_lanes(lane: impl Fn(usize) -> u64) -> Self;

    /// The squares numbered below `n` (all of them from `CAPACITY` on).
    fn below(n: usize) -> Self;

    /// The set with every square number raised by `by` (lowered, if negative); squares
    /// beyond either end are lost. `|by|` must be less than `CAPACITY`.
    fn shifted(self, by: i32) -> Self;

    /// Whether `sq` is in the set. A set of several lanes picks the square's lane among
    /// them, each at a place fixed in the set: a wide set shifted by a number known only
    /// when it runs costs a chain of word operations.
    #[inline]
    fn contains(self, sq: Square) -> bool {
        if Self::LANES == 1 {
            return !(self & Self::bit(sq)).is_empty();
        }
        let k = sq as usize / 64;
        let lane = (0..Self::LANES).fold(0, |w, l| if l == k { self.lane(l) } else { w });
        lane >> (sq % 64) & 1 != 0
    }

    /// The set without its lowest square (a non-empty set): x & (x − 1), the subtraction
    /// borrowing from word to word.
    fn without_lowest(self) -> Self;
}

/// Calls `f(s)` for every square s of the set `bits`, lowest first.
#[inline]
pub fn for_each_bit<S: SquareSet>(bits: S, mut f: impl FnMut(Square)) {
    // One lane (8×8): the walk as it was. The lane loop below does the same work there, but
    // the compiler then builds the hot loops of the 8×8 builds differently.
    if S::LANES == 1 {
        let mut rest = bits;
        while !rest.is_empty() {
            f(rest.lowest());
            rest = rest.without_lowest();
        }
        return;
    }
    // A lane at a time: a wide set's lowest square and the set without it each cost a
    // chain of word operations, a lane's one instruction.
    for k in 0..S::LANES {
        let mut rest = bits.lane(k);
        while rest != 0 {
            f((64 * k) as Square + rest.trailing_zeros() as Square);
            rest &= rest - 1;
        }
    }
}

/// Calls `f(s)` for every square s of the set, lowest first, until it returns false;
/// returns whether it never did.
#[inline]
pub fn all_bits<S: SquareSet>(bits: S, mut f: impl FnMut(Square) -> bool) -> bool {
    // One lane: as `for_each_bit`.
    if S::LANES == 1 {
        let mut rest = bits;
        while !rest.is_empty() {
            if !f(rest.lowest()) {
                return false;
            }
            rest = rest.without_lowest();
        }
        return true;
    }
    // A lane at a time, as `for_each_bit`.
    for k in 0..S::LANES {
        let mut rest = bits.lane(k);
        while rest != 0 {
            if !f((64 * k) as Square + rest.trailing_zeros() as Square) {
                return false;
            }
            rest &= rest - 1;
        }
    }
    true
}

macro_rules! native_set {
    ($t:ty) => {
        impl SquareSet for $t {
            const CAPACITY: usize = <$t>::BITS as usize;

            #[inline]
            fn bit(sq: Square) -> Self {
                if Self::LANES == 1 {
                    return 1 << sq;
                }
                // Its lane picked among the lanes (see `contains`).
                let (lane, bit) = (sq as usize / 64, 1 << (sq % 64));
                Self::from_lanes(|k| if k == lane { bit } else { 0 })
            }

            #[inline]
            fn is_empty(self) -> bool {
                self == 0
            }

            #[inline]
            fn without_lowest(self) -> Self {
                self & self.wrapping_sub(1)
            }

            #[inline]
            fn lowest(self) -> Square {
                self.trailing_zeros() as Square
            }

            #[inline]
            fn below_lowest(self) -> Self {
                (self & self.wrapping_neg()) - 1
            }

            #[inline]
            fn above_highest(self) -> Self {
                !(<$t>::MAX >> self.leading_zeros())
            }

            #[inline]
            fn count(self) -> u32 {
                self.count_ones()
            }

            const LANES: usize = Self::CAPACITY / 64;

            #[inline]
            fn lane(self, k: usize) -> u64 {
                (self >> (64 * k)) as u64
            }

            #[inline]
            fn from_lanes(lane: impl Fn(usize) -> u64) -> Self {
                (0..Self::LANES).fold(0, |s, k| s | (lane(k) as $t) << (64 * k))
            }

            #[inline]
            fn below(n: usize) -> Self {
                if n >= Self::CAPACITY {
                    <$t>::MAX
                } else {
                    (1 << n) - 1
                }
            }

            #[inline]
            fn shifted(self, by: i32) -> Self {
                if by >= 0 {
                    self << by
                } else {
                    self >> -by
                }
            }
        }
    };
}

native_set!(u64);
native_set!(u128);

/// A set of up to 64·L squares, as L 64-bit words (square `s` is bit `s % 64` of word
/// `s / 64`): [`Bits192`] for boards of 129 to 192 squares (12×12, 13×13), [`Bits256`] up to
/// 256 (16×16). A board uses the fewest words that hold it: each operation does a word's work
/// per word.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Words<const L: usize>([u64; L]);

/// A set of up to 192 squares, as three 64-bit words.
pub type Bits192 = Words<3>;

/// A set of up to 256 squares, as four 64-bit words.
pub type Bits256 = Words<4>;

impl<const L: usize> Default for Words<L> {
    #[inline]
    fn default() -> Self {
        Words([0; L])
    }
}

macro_rules! wordwise {
    ($op:ident, $f:ident, $assign:ident, $fa:ident, $sym:tt) => {
        impl<const L: usize> $op for Words<L> {
            type Output = Words<L>;
            #[inline]
            fn $f(self, o: Words<L>) -> Words<L> {
                Words(std::array::from_fn(|i| self.0[i] $sym o.0[i]))
            }
        }
        impl<const L: usize> $assign for Words<L> {
            #[inline]
            fn $fa(&mut self, o: Words<L>) {
                *self = *self $sym o;
            }
        }
    };
}

wordwise!(BitAnd, bitand, BitAndAssign, bitand_assign, &);
wordwise!(BitOr, bitor, BitOrAssign, bitor_assign, |);
wordwise!(BitXor, bitxor, BitXorAssign, bitxor_assign, ^);

impl<const L: usize> Not for Words<L> {
    type Output = Words<L>;
    #[inline]
    fn not(self) -> Words<L> {
        Words(self.0.map(|w| !w))
    }
}

impl<const L: usize> Words<L> {
    /// x − 1, the subtraction borrowing from word to word: no branches.
    #[inline]
    fn minus_one(self) -> Words<L> {
        let mut out = [0; L];
        let mut borrow = 1;
        for (o, &w) in out.iter_mut().zip(&self.0) {
            *o = w.wrapping_sub(borrow);
            borrow &= (w == 0) as u64;
        }
        Words(out)
    }
}

impl<const L: usize> SquareSet for Words<L> {
    const CAPACITY: usize = 64 * L;

    #[inline]
    fn bit(sq: Square) -> Self {
        // Each lane chosen without a store to the lane the square picks: a store of one
        // word read back as the whole set would wait for the store to finish.
        let (lane, bit) = (sq as usize / 64, 1 << (sq % 64));
        Words(std::array::from_fn(|k| if k == lane { bit } else { 0 }))
    }

    #[inline]
    fn contains(self, sq: Square) -> bool {
        self.0[sq as usize / 64] >> (sq % 64) & 1 != 0
    }

    #[inline]
    fn is_empty(self) -> bool {
        self.0.iter().fold(0, |any, &w| any | w) == 0
    }

    #[inline]
    fn lowest(self) -> Square {
        let i = self.0.iter().position(|&w| w != 0).unwrap_or(L - 1);
        (i * 64 + self.0[i].trailing_zeros() as usize) as Square
    }

    #[inline]
    fn without_lowest(self) -> Self {
        self & self.minus_one()
    }

    #[inline]
    fn below_lowest(self) -> Self {
        self.minus_one() & !self
    }

    #[inline]
    fn above_highest(self) -> Self {
        // Word by word from the top: all of a word while no higher word holds a square, then
        // the bits above its highest, then nothing.
        let mut out = [0; L];
        let mut open = true;
        for (o, &w) in out.iter_mut().zip(&self.0).rev() {
            let above = !u64::MAX.checked_shr(w.leading_zeros()).unwrap_or(0);
            *o = if open { above } else { 0 };
            open &= w == 0;
        }
        Words(out)
    }

    #[inline]
    fn count(self) -> u32 {
        self.0.iter().map(|w| w.count_ones()).sum()
    }

    const LANES: usize = L;

    #[inline]
    fn lane(self, k: usize) -> u64 {
        self.0[k]
    }

    #[inline]
    fn from_lanes(lane: impl Fn(usize) -> u64) -> Self {
        Words(std::array::from_fn(lane))
    }

    #[inline]
    fn shifted(self, by: i32) -> Self {
        let n = by.unsigned_abs();
        let (words, bits) = (n / 64, n % 64);
        // Whole words first, one at a time, then the bits within words, each word taking the
        // bits the one below it (above it, for a shift down) loses. Every word is picked by a
        // constant index, so the set stays in registers; `>> 1 >> (63 − bits)` (`<< 1 <<` for
        // a shift down) is the shift by 64 − bits that yields nothing, not the whole word,
        // when `bits` is 0.
        let mut x = self.0;
        if by >= 0 {
            for _ in 0..words {
                x = std::array::from_fn(|i| if i > 0 { x[i - 1] } else { 0 });
            }
            Words(std::array::from_fn(|i| {
                let from_below = if i > 0 {
                    x[i - 1] >> 1 >> (63 - bits)
                } else {
                    0
                };
                x[i] << bits | from_below
            }))
        } else {
            for _ in 0..words {
                x = std::array::from_fn(|i| if i + 1 < L { x[i + 1] } else { 0 });
            }
            Words(std::array::from_fn(|i| {
                let from_above = if i + 1 < L {
                    x[i + 1] << 1 << (63 - bits)
                } else {
                    0
                };
                x[i] >> bits | from_above
            }))
        }
    }

    #[inline]
    fn below(sq: usize) -> Self {
        Words(std::array::from_fn(|i| {
            let k = sq.saturating_sub(i * 64).min(64) as u32;
            !u64::MAX.checked_shl(k).unwrap_or(0)
        }))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The set as a sorted list, by testing every square.
    fn members<S: SquareSet>(s: S) -> Vec<Square> {
        (0..S::CAPACITY)
            .map(|q| q as Square)
            .filter(|&q| s.contains(q))
            .collect()
    }

    fn of<S: SquareSet>(squares: &[Square]) -> S {
        squares.iter().fold(S::default(), |s, &q| s | S::bit(q))
    }

    fn check<S: SquareSet>(squares: &[Square]) {
        let s: S = of(squares);
        let mut seen = Vec::new();
        for_each_bit(s, |q| seen.push(q));
        let mut sorted = squares.to_vec();
        sorted.sort_unstable();
        assert_eq!(seen, sorted);
        assert_eq!(seen, members(s));
        // `all_bits` visits the same squares in the same order, up to the first refused.
        let mut visited = Vec::new();
        let all = all_bits(s, |q| {
            visited.push(q);
            visited.len() < 2
        });
        assert_eq!(all, seen.len() < 2);
        assert_eq!(visited, seen[..seen.len().min(2)]);
        assert_eq!(s.count() as usize, seen.len());
        let (lo, hi) = (seen[0], *seen.last().unwrap());
        assert_eq!(s.lowest(), lo);
        assert_eq!(members(s.without_lowest()), seen[1..]);
        let below: Vec<Square> = (0..lo).collect();
        assert_eq!(members(s.below_lowest()), below);
        let above: Vec<Square> = (hi as usize + 1..S::CAPACITY)
            .map(|q| q as Square)
            .collect();
        assert_eq!(members(s.above_highest()), above);
        assert_eq!(members(!s).len(), S::CAPACITY - seen.len());
    }

    #[test]
    fn every_width_agrees_with_a_list_of_squares() {
        for squares in [&[0u8][..], &[5, 17, 40], &[63], &[1, 62]] {
            check::<u64>(squares);
            check::<u128>(squares);
            check::<Bits192>(squares);
            check::<Bits256>(squares);
        }
        for squares in [&[64u8, 70][..], &[3, 127], &[100]] {
            check::<u128>(squares);
            check::<Bits192>(squares);
            check::<Bits256>(squares);
        }
        for squares in [&[128u8][..], &[0, 191], &[63, 64, 190, 191], &[143]] {
            check::<Bits192>(squares);
        }
        for squares in [&[128u8][..], &[0, 255], &[63, 64, 191, 192], &[255]] {
            check::<Bits256>(squares);
        }
        assert_eq!(Bits256::from_lanes(|k| k as u64 + 5).lane(2), 7);
        assert_eq!(u128::from_lanes(|k| k as u64 + 5).lane(1), 6);
        assert_eq!(members(u128::below(70)).len(), 70);
        assert_eq!(members(Bits256::below(200)).len(), 200);
        assert_eq!(members(Bits192::below(144)).len(), 144);
        assert_eq!(u64::below(64), !0);
        assert!(!Bits256::bit(200).contains(72));
    }

    /// A shift moves every square by the same number, dropping those it takes off the ends.
    fn check_shift<S: SquareSet>(squares: &[Square]) {
        let s: S = of(squares);
        for by in [
            -255i32, -200, -130, -128, -127, -64, -63, -9, -1, 0, 1, 7, 64, 65, 127, 128, 129, 200,
            255,
        ] {
            if by.unsigned_abs() as usize >= S::CAPACITY {
                continue;
            }
            let want: Vec<Square> = (squares.iter())
                .map(|&q| q as i32 + by)
                .filter(|&q| (0..S::CAPACITY as i32).contains(&q))
                .map(|q| q as Square)
                .collect();
            assert_eq!(members(s.shifted(by)), want, "{squares:?} by {by}");
        }
    }

    #[test]
    fn shifts_move_every_square_alike() {
        for squares in [&[0u8, 5, 17, 40, 63][..], &[1, 62]] {
            check_shift::<u64>(squares);
            check_shift::<u128>(squares);
            check_shift::<Bits192>(squares);
            check_shift::<Bits256>(squares);
        }
        check_shift::<u128>(&[0, 63, 64, 100, 127]);
        check_shift::<Bits192>(&[0, 63, 64, 100, 127, 128, 143, 191]);
        check_shift::<Bits256>(&[0, 63, 64, 100, 127]);
        check_shift::<Bits256>(&[0, 63, 64, 127, 128, 191, 192, 200, 255]);
    }
}
