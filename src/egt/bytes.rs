//! Tests on the bytes of one block of a table at once (a block: as many slots as the board
//! has squares, see `Indexer::block_len`), each giving a set with bit k for byte k: with SSE2
//! on x86_64, sixteen bytes per compare; plain loops elsewhere.

#[cfg(target_arch = "x86_64")]
use sse2 as chunks;

#[cfg(not(target_arch = "x86_64"))]
use portable as chunks;

use crate::board::SquareSet;

/// The bytes of one block of a table, loaded for testing.
pub(super) struct BlockBytes<'a>(&'a [u8]);

impl<'a> BlockBytes<'a> {
    /// These bytes (at most 256).
    #[inline]
    pub(super) fn new(bytes: &'a [u8]) -> BlockBytes<'a> {
        debug_assert!(bytes.len() <= 256);
        BlockBytes(bytes)
    }

    /// The bytes of block `w`, of `len` slots, of a table's bytes (whose length is a
    /// multiple of `len`).
    #[inline]
    pub(super) fn of_block(table: &'a [u8], w: u64, len: usize) -> BlockBytes<'a> {
        BlockBytes::new(&table[w as usize * len..][..len])
    }

    /// Bytes equal to `b`.
    #[inline(always)]
    pub(super) fn equal<S: SquareSet>(&self, b: u8) -> S {
        self.mask(|v| chunks::equal(v, b))
    }

    /// Bytes at most `b` (unsigned).
    #[inline(always)]
    pub(super) fn at_most<S: SquareSet>(&self, b: u8) -> S {
        self.mask(|v| chunks::at_most(v, b))
    }

    /// Even bytes.
    #[inline(always)]
    pub(super) fn even<S: SquareSet>(&self) -> S {
        self.mask(chunks::even)
    }

    /// Even bytes from 1 to `b`: in a table, the wins up to distance b / 2.
    #[inline(always)]
    pub(super) fn even_up_to<S: SquareSet>(&self, b: u8) -> S {
        self.mask(|v| chunks::even_up_to(v, b))
    }

    /// The smallest byte above `floor` other than `except`; 255 if there is none.
    #[inline]
    pub(super) fn min_above(&self, floor: u8, except: u8) -> u8 {
        let mut min = 255;
        self.each_chunk(|_, chunk| min = min.min(chunks::min_above(chunk, floor, except)));
        min
    }

    /// The set made of a 16-bit set for each 16 bytes (bytes past the last are left out).
    #[inline(always)]
    fn mask<S: SquareSet>(&self, test: impl Fn(&[u8; 16]) -> u16) -> S {
        // The 8×8, 10×8 and 12×12 boards' blocks, their chunks unrolled.
        if let Ok(block) = <&[u8; 64]>::try_from(self.0) {
            return mask_of_chunks(block, test);
        }
        if let Ok(block) = <&[u8; 80]>::try_from(self.0) {
            return mask_of_chunks(block, test);
        }
        if let Ok(block) = <&[u8; 144]>::try_from(self.0) {
            return mask_of_chunks(block, test);
        }
        self.mask_of_any_length(test)
    }

    /// `mask` for blocks of any length.
    #[inline(never)]
    fn mask_of_any_length<S: SquareSet>(&self, test: impl Fn(&[u8; 16]) -> u16) -> S {
        let mut lanes = [0u64; 4];
        let len = self.0.len();
        self.each_chunk(|k, chunk| {
            let mut bits = test(chunk) as u64;
            if 16 * k + 16 > len {
                bits &= (1 << (len - 16 * k)) - 1;
            }
            lanes[k / 4] |= bits << (16 * (k % 4));
        });
        S::from_lanes(|k| lanes[k])
    }

    /// Calls `f(k, chunk)` for the k-th 16 bytes; a last, shorter chunk is filled up with 255.
    #[inline]
    fn each_chunk(&self, mut f: impl FnMut(usize, &[u8; 16])) {
        if let Ok(block) = <&[u8; 64]>::try_from(self.0) {
            // The 8×8 board's block: four chunks, unrolled.
            for k in 0..4 {
                f(k, block[16 * k..][..16].try_into().expect("16 bytes"));
            }
            return;
        }
        let mut chunks = self.0.chunks_exact(16);
        let mut k = 0;
        for chunk in chunks.by_ref() {
            f(k, chunk.try_into().expect("16 bytes"));
            k += 1;
        }
        let rest = chunks.remainder();
        if !rest.is_empty() {
            let mut last = [255u8; 16];
            last[..rest.len()].copy_from_slice(rest);
            f(k, &last);
        }
    }
}

/// `BlockBytes::mask` of a block of N bytes, N a multiple of 16 (at most 256), with the
/// loop over its chunks unrolled.
#[inline(always)]
fn mask_of_chunks<const N: usize, S: SquareSet>(
    block: &[u8; N],
    test: impl Fn(&[u8; 16]) -> u16,
) -> S {
    let mut lanes = [0u64; 4];
    for k in 0..N / 16 {
        let chunk: &[u8; 16] = block[16 * k..][..16].try_into().expect("16 bytes");
        lanes[k / 4] |= (test(chunk) as u64) << (16 * (k % 4));
    }
    S::from_lanes(|k| lanes[k])
}

/// Asks the processor to start loading the bytes of block `w` (of `len` slots) of a table's
/// bytes (`u8`, or `AtomicU8` that other threads may be writing) into its caches, for a read
/// that comes soon after: a hint, which does nothing off x86_64.
#[inline]
pub(super) fn prefetch<B>(table: &[B], w: u64, len: usize) {
    debug_assert_eq!(std::mem::size_of::<B>(), 1, "table bytes");
    let start = w as usize * len;
    if let Some(byte) = table.get(start) {
        prefetch_line(byte);
        // A block longer than 64 bytes spans more cache lines than its first.
        for line in (start / 64 + 1..=(start + len - 1) / 64).map(|l| l * 64) {
            prefetch_line(&table[line]);
        }
    }
}

/// Asks the processor to start loading the cache line that holds `item` (which other threads
/// may be writing): a hint, which does nothing off x86_64.
#[inline]
pub(super) fn prefetch_line<T>(item: &T) {
    #[cfg(target_arch = "x86_64")]
    {
        use std::arch::x86_64::{_mm_prefetch, _MM_HINT_T0};
        // SAFETY: SSE is part of the x86_64 baseline; a prefetch reads nothing the program
        // sees, and never faults.
        unsafe { _mm_prefetch::<_MM_HINT_T0>((item as *const T).cast()) }
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = item;
}

/// The tests on 16 bytes, one byte at a time.
#[cfg(any(test, not(target_arch = "x86_64")))]
mod portable {
    #[inline]
    fn set(v: &[u8; 16], test: impl Fn(u8) -> bool) -> u16 {
        v.iter()
            .enumerate()
            .fold(0u16, |m, (k, &b)| m | (test(b) as u16) << k)
    }

    pub(super) fn equal(v: &[u8; 16], b: u8) -> u16 {
        set(v, |x| x == b)
    }

    pub(super) fn at_most(v: &[u8; 16], b: u8) -> u16 {
        set(v, |x| x <= b)
    }

    pub(super) fn even(v: &[u8; 16]) -> u16 {
        set(v, |x| x % 2 == 0)
    }

    pub(super) fn even_up_to(v: &[u8; 16], b: u8) -> u16 {
        set(v, |x| x % 2 == 0 && x != 0 && x <= b)
    }

    pub(super) fn min_above(v: &[u8; 16], floor: u8, except: u8) -> u8 {
        v.iter()
            .copied()
            .filter(|&x| x > floor && x != except)
            .min()
            .unwrap_or(255)
    }
}

/// The tests on 16 bytes with SSE2, which every x86_64 processor has: one compare per test
/// and one `movemask` to gather the results.
#[cfg(target_arch = "x86_64")]
mod sse2 {
    use std::arch::x86_64::*;

    #[inline]
    fn load(v: &[u8; 16]) -> __m128i {
        // SAFETY: SSE2 is part of the x86_64 baseline; the load reads exactly `v`.
        unsafe { _mm_loadu_si128(v.as_ptr().cast()) }
    }

    #[inline]
    fn movemask(m: __m128i) -> u16 {
        // SAFETY: SSE2 is part of the x86_64 baseline.
        unsafe { _mm_movemask_epi8(m) as u16 }
    }

    #[inline]
    pub(super) fn equal(v: &[u8; 16], b: u8) -> u16 {
        // SAFETY: SSE2 is part of the x86_64 baseline.
        movemask(unsafe { _mm_cmpeq_epi8(load(v), _mm_set1_epi8(b as i8)) })
    }

    #[inline]
    pub(super) fn at_most(v: &[u8; 16], b: u8) -> u16 {
        // v ≤ b, unsigned, exactly when max(v, b) = b.
        // SAFETY: SSE2 is part of the x86_64 baseline.
        movemask(unsafe {
            let limit = _mm_set1_epi8(b as i8);
            _mm_cmpeq_epi8(_mm_max_epu8(load(v), limit), limit)
        })
    }

    #[inline]
    pub(super) fn even_up_to(v: &[u8; 16], b: u8) -> u16 {
        // SAFETY: SSE2 is part of the x86_64 baseline.
        movemask(unsafe {
            let v = load(v);
            let limit = _mm_set1_epi8(b as i8);
            let zero = _mm_setzero_si128();
            let even = _mm_cmpeq_epi8(_mm_and_si128(v, _mm_set1_epi8(1)), zero);
            let small = _mm_cmpeq_epi8(_mm_max_epu8(v, limit), limit);
            let nonzero = _mm_cmpeq_epi8(_mm_cmpeq_epi8(v, zero), zero);
            _mm_and_si128(_mm_and_si128(even, small), nonzero)
        })
    }

    #[inline]
    pub(super) fn min_above(v: &[u8; 16], floor: u8, except: u8) -> u8 {
        // SAFETY: SSE2 is part of the x86_64 baseline.
        unsafe {
            let v = load(v);
            let limit = _mm_set1_epi8(floor as i8);
            // Bytes at most `floor`, and `except`, become 255, which min ignores.
            let low = _mm_cmpeq_epi8(_mm_max_epu8(v, limit), limit);
            let skip = _mm_cmpeq_epi8(v, _mm_set1_epi8(except as i8));
            let mut m = _mm_or_si128(v, _mm_or_si128(low, skip));
            m = _mm_min_epu8(m, _mm_srli_si128(m, 8));
            m = _mm_min_epu8(m, _mm_srli_si128(m, 4));
            m = _mm_min_epu8(m, _mm_srli_si128(m, 2));
            m = _mm_min_epu8(m, _mm_srli_si128(m, 1));
            _mm_cvtsi128_si32(m) as u8
        }
    }

    #[inline]
    pub(super) fn even(v: &[u8; 16]) -> u16 {
        // SAFETY: SSE2 is part of the x86_64 baseline.
        movemask(unsafe {
            let low = _mm_and_si128(load(v), _mm_set1_epi8(1));
            _mm_cmpeq_epi8(low, _mm_setzero_si128())
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every block length (the boards' squares, 9 to 256) and set width: each test's set has
    /// exactly the bytes that pass it, none past the block.
    #[test]
    fn masks_agree_with_byte_tests() {
        fn check<S: SquareSet>(len: usize) {
            let table: Vec<u8> = (0..2 * len as u32)
                .map(|k| (k * 37 % 256) as u8)
                .chain([255, 0])
                .collect();
            for w in 0..2 {
                let b = BlockBytes::of_block(&table, w, len);
                let block = &table[w as usize * len..][..len];
                let each = |test: &dyn Fn(u8) -> bool| {
                    (0..len).fold(S::default(), |m, k| {
                        if test(block[k]) {
                            m | S::bit(k as u8)
                        } else {
                            m
                        }
                    })
                };
                for x in [0u8, 7, 74, 200, 255] {
                    assert_eq!(b.equal::<S>(x), each(&|v| v == x), "{len}");
                    assert_eq!(b.at_most::<S>(x), each(&|v| v <= x), "{len}");
                }
                assert_eq!(b.even::<S>(), each(&|v| v % 2 == 0));
                for x in [0u8, 2, 74, 254] {
                    assert_eq!(
                        b.even_up_to::<S>(x),
                        each(&|v| v % 2 == 0 && v != 0 && v <= x)
                    );
                }
                for (floor, except) in [(0u8, 253u8), (74, 111), (200, 0), (254, 1)] {
                    let want = (block.iter().copied())
                        .filter(|&v| v > floor && v != except)
                        .min()
                        .unwrap_or(255);
                    assert_eq!(b.min_above(floor, except), want, "{floor} {except}");
                }
            }
        }
        for len in [9, 25, 49, 56, 64] {
            check::<u64>(len);
        }
        for len in [80, 81, 100, 121, 128] {
            check::<u128>(len);
        }
        for len in [144, 169, 192] {
            check::<crate::board::Bits192>(len);
        }
        for len in [144, 169, 256] {
            check::<crate::board::Bits256>(len);
        }
    }

    /// The loops used off x86_64 give what the SSE2 code gives.
    #[test]
    fn portable_tests_agree() {
        let samples: Vec<[u8; 16]> = (0..16u32)
            .map(|c| std::array::from_fn(|k| (c * 16 + k as u32).wrapping_mul(97) as u8))
            .collect();
        for v in &samples {
            assert_eq!(portable::even(v), chunks::even(v));
            for b in [0u8, 1, 2, 100, 254, 255] {
                assert_eq!(portable::equal(v, b), chunks::equal(v, b));
                assert_eq!(portable::at_most(v, b), chunks::at_most(v, b));
                assert_eq!(portable::even_up_to(v, b), chunks::even_up_to(v, b));
                assert_eq!(portable::min_above(v, b, 97), chunks::min_above(v, b, 97));
                assert_eq!(
                    portable::min_above(v, b, v[3]),
                    chunks::min_above(v, b, v[3])
                );
            }
        }
    }
}
