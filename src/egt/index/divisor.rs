//! Division by a number fixed when an index is made (the board's squares, a group's ranks,
//! the slots per royal pair), by a multiplication instead of the processor's divide, which
//! takes tens of cycles: decoding an index divides once per digit, and boards whose squares
//! are not a power of two (10×8) decode every slot they work on.

/// A fixed divisor.
#[derive(Clone, Copy, Debug)]
pub(super) struct Divisor {
    d: u64,
    /// ⌈2⁶⁴ / d⌉ when 2 ≤ d < 2³², else 0 (the divide is used).
    m: u64,
}

impl Divisor {
    /// Division by `d` (at least 1).
    pub(super) fn new(d: u64) -> Divisor {
        assert!(d >= 1, "division by zero");
        let m = if (2..1 << 32).contains(&d) {
            u64::MAX / d + 1
        } else {
            0
        };
        Divisor { d, m }
    }

    /// The divisor, d.
    #[inline]
    pub(super) fn divisor(self) -> u64 {
        self.d
    }

    /// (a / d, a % d). Exact for every dividend below 2³² with the multiplier (Lemire, Kaser
    /// and Kurz, "Faster remainder by direct computation", 2019: a 64-bit ⌈2⁶⁴ / d⌉ gives
    /// ⌊a / d⌋ for 32-bit a and d); larger dividends use the divide.
    #[inline]
    pub(super) fn div_rem(self, a: u64) -> (u64, u64) {
        if self.m != 0 && a >> 32 == 0 {
            let q = ((self.m as u128 * a as u128) >> 64) as u64;
            (q, a - q * self.d)
        } else {
            (a / self.d, a % self.d)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn check(d: u64, a: u64) {
        assert_eq!(Divisor::new(d).div_rem(a), (a / d, a % d), "{a} / {d}");
    }

    /// The edges: divisors 1, 2, powers of two, the board sizes and group sizes the index
    /// uses, the largest 32-bit ones; dividends around multiples, at 2³² − 1 and beyond.
    #[test]
    fn edges_divide_as_the_processor_does() {
        let divisors = [
            1,
            2,
            3,
            7,
            64,
            80,
            100,
            144,
            256,
            2016,
            3160,
            41_664,
            635_376,
            (1 << 31) - 1,
            1 << 31,
            u32::MAX as u64 - 1,
            u32::MAX as u64,
            1 << 32,
            u64::MAX,
        ];
        for d in divisors {
            let near = [d - 1, d, d.saturating_add(1), d.saturating_mul(3)];
            for a in near
                .into_iter()
                .chain([0, 1, u32::MAX as u64, 1 << 32, u64::MAX])
            {
                check(d, a);
            }
            for k in [1u64, 5, 1000, 53_687] {
                let a = k.wrapping_mul(d);
                for a in [a.wrapping_sub(1), a, a.wrapping_add(1)] {
                    check(d, a);
                }
            }
        }
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(20_000))]
        #[test]
        fn any_division_is_the_processors(d in 1u64..=u32::MAX as u64, a in any::<u32>(), big in any::<u64>()) {
            check(d, a as u64);
            check(d, big);
            // A multiple of d and its neighbours, where a wrong multiplier errs first.
            let multiple = a as u64 / d * d;
            check(d, multiple);
            check(d, multiple.saturating_sub(1));
            check(d, multiple + 1);
        }
    }
}
