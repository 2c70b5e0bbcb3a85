//! Shared by the fuzz tests (`fuzz_engine`, `fuzz_files`, `fuzz_builds`): a seeded random
//! generator, text mutations, the run's size and seed from the environment, and the shipped
//! piece file with another pawn.
//!
//! The generator is a SplitMix64 of our own rather than a crate's, so that a seed printed by
//! a failure replays the same run whatever version of a random-number crate is installed.

#![allow(dead_code)] // each fuzz test takes a part

use fairy_egt::piece::parse::STANDARD_PIECEDEF;
use std::fmt::Write as _;

/// The shipped piece file with its pawn line replaced by `P: pawn` (Betza).
pub fn with_pawn(pawn: &str) -> String {
    (STANDARD_PIECEDEF.lines())
        .filter(|l| !l.starts_with("P:"))
        .chain([format!("P: {pawn}").as_str()])
        .map(|l| format!("{l}\n"))
        .collect()
}

/// The seed of a run: `FAIRY_EGT_FUZZ_SEED`, else a fixed one (so CI runs are reproducible).
pub fn run_seed() -> u64 {
    env_number("FAIRY_EGT_FUZZ_SEED").unwrap_or(0x5eed_f00d)
}

/// The one case to replay: `FAIRY_EGT_FUZZ_CASE`, the hexadecimal seed a failure printed.
pub fn only_case() -> Option<u64> {
    let text = std::env::var("FAIRY_EGT_FUZZ_CASE").ok()?;
    let hex = text.trim().trim_start_matches("0x");
    Some(
        u64::from_str_radix(hex, 16)
            .unwrap_or_else(|_| panic!("FAIRY_EGT_FUZZ_CASE={text}: not hex")),
    )
}

/// A count from the environment variable `var`, else `default`.
pub fn count(var: &str, default: usize) -> usize {
    env_number(var).map_or(default, |n| n as usize)
}

/// A number from the environment; a variable that is set but is not a number stops the test
/// (a typo must not silently run the default).
fn env_number(var: &str) -> Option<u64> {
    let text = std::env::var(var).ok()?;
    let text = text.trim();
    let parsed = match text.strip_prefix("0x") {
        Some(hex) => u64::from_str_radix(hex, 16),
        None => text.parse(),
    };
    Some(parsed.unwrap_or_else(|_| panic!("{var}={text} is not a number")))
}

/// The seed of the `index`-th case of a run: distinct, well-mixed values.
pub fn case_seed(run: u64, index: u64) -> u64 {
    Rng::new(run ^ index.wrapping_mul(0x9e37_79b9_7f4a_7c15)).next_u64()
}

/// SplitMix64: small, fast and good enough for test inputs.
pub struct Rng(u64);

impl Rng {
    /// A generator from a seed.
    pub fn new(seed: u64) -> Rng {
        Rng(seed)
    }

    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    /// A number in `0..n` (`n` > 0).
    pub fn below(&mut self, n: usize) -> usize {
        (self.next_u64() % n as u64) as usize
    }

    /// A number in `lo..=hi`.
    pub fn between(&mut self, lo: usize, hi: usize) -> usize {
        lo + self.below(hi - lo + 1)
    }

    /// True with probability `1/n`.
    pub fn one_in(&mut self, n: usize) -> bool {
        self.below(n) == 0
    }

    /// One of `items` (not empty).
    pub fn pick<'a, T>(&mut self, items: &'a [T]) -> &'a T {
        &items[self.below(items.len())]
    }

    /// An index chosen with the given weights (not all zero).
    pub fn weighted(&mut self, weights: &[usize]) -> usize {
        let mut r = self.below(weights.iter().sum());
        for (i, &w) in weights.iter().enumerate() {
            if r < w {
                return i;
            }
            r -= w;
        }
        unreachable!("r is below the sum of the weights")
    }
}

/// Characters that break parsers: separators of every kind, digits and signs, letters of
/// every case, control characters, a byte-order mark, wide and combining characters.
const NASTY: &[char] = &[
    ' ', '\t', '\r', '\u{0}', '\u{7f}', '\u{a0}', '\u{2003}', '\u{feff}', '\u{301}', '/', '.', ',',
    ':', ';', '#', '=', '[', ']', '*', '+', '-', '0', '1', '8', '9', 'a', 'h', 'i', 'w', 'b', 'K',
    'k', 'Q', 'x', '@', 'é', 'ß', 'İ', '€', '😀', '中',
];

/// A random character: usually printable ASCII, sometimes one of [`NASTY`], sometimes any
/// Unicode scalar value.
pub fn any_char(rng: &mut Rng) -> char {
    match rng.below(10) {
        0..=5 => (b' ' + rng.below(95) as u8) as char,
        6..=8 => *rng.pick(NASTY),
        _ => loop {
            if let Some(c) = char::from_u32(rng.below(0x11_0000) as u32) {
                break c;
            }
        },
    }
}

/// Random text of up to `max` characters; or random bytes read as the session reads stdin
/// (invalid UTF-8 replaced).
pub fn garbage(rng: &mut Rng, max: usize) -> String {
    let len = rng.below(max + 1);
    if rng.one_in(3) {
        let bytes: Vec<u8> = (0..len).map(|_| rng.next_u64() as u8).collect();
        String::from_utf8_lossy(&bytes).into_owned()
    } else {
        (0..len).map(|_| any_char(rng)).collect()
    }
}

/// A number as text, chosen to hit limits: small ones, the edges of u8, u16, u32, i64 and
/// u64, longer ones, negatives, fractions, and things that only look like numbers.
pub fn number(rng: &mut Rng) -> String {
    const EDGES: &[&str] = &[
        "0",
        "1",
        "-1",
        "255",
        "256",
        "300",
        "999",
        "1000",
        "65535",
        "65536",
        "4294967295",
        "4294967296",
        "999999999999",
        "9223372036854775807",
        "9223372036854775808",
        "-9223372036854775808",
        "18446744073709551615",
        "18446744073709551616",
        "99999999999999999999",
        "+5",
        "-0",
        "0.3",
        "1e9",
        "nan",
        "inf",
        "5:30",
        "0x10",
        "",
    ];
    match rng.below(3) {
        0 => rng.below(100).to_string(),
        1 => rng.pick(EDGES).to_string(),
        _ => {
            let mut s = String::new();
            if rng.one_in(3) {
                s.push('-');
            }
            for _ in 0..rng.between(1, 25) {
                s.push((b'0' + rng.below(10) as u8) as char);
            }
            s
        }
    }
}

/// `text` with one to four random edits: characters deleted, inserted, replaced or doubled,
/// pieces swapped or repeated, the text cut short, or a random splice.
pub fn mutate(rng: &mut Rng, text: &str) -> String {
    let mut chars: Vec<char> = text.chars().collect();
    for _ in 0..rng.between(1, 4) {
        let n = chars.len();
        let at = rng.below(n + 1);
        match rng.below(8) {
            0 if at < n => {
                chars.remove(at);
            }
            1 => chars.insert(at, any_char(rng)),
            2 if at < n => chars[at] = any_char(rng),
            3 if at < n => {
                let end = rng.between(at, n);
                let piece: Vec<char> = chars[at..end].to_vec();
                chars.splice(end..end, piece);
            }
            4 if n > 1 => {
                let (i, j) = (rng.below(n), rng.below(n));
                chars.swap(i, j);
            }
            5 => chars.truncate(at),
            6 => {
                let insert: Vec<char> = garbage(rng, 6).chars().collect();
                chars.splice(at..at, insert);
            }
            _ => {
                // Swap two words.
                let text: String = chars.iter().collect();
                let mut words: Vec<&str> = text.split(' ').collect();
                if words.len() > 1 {
                    let (i, j) = (rng.below(words.len()), rng.below(words.len()));
                    words.swap(i, j);
                }
                chars = words.join(" ").chars().collect();
            }
        }
    }
    chars.into_iter().collect()
}

/// Lines of text, numbered from 1, for failure messages.
pub fn numbered(lines: impl IntoIterator<Item = impl AsRef<str>>) -> String {
    let mut out = String::new();
    for (i, line) in lines.into_iter().enumerate() {
        let _ = writeln!(out, "{:>5}  {:?}", i + 1, line.as_ref());
    }
    out
}
