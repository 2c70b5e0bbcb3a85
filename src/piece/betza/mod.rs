//! Betza notation, the language of the Chess Variant Pages, of XBoard's `piece` command and of
//! Fairy-Stockfish's custom pieces: read from `piecedef.ini` ([`read`]) and written for
//! XBoard ([`write`](mod@write)).
//!
//! The dialect is the one XBoard implements ("XBetza", XBoard ≥ 4.8):
//! - atoms `W` (1,0), `F` (1,1), `D` (2,0), `N` (2,1), `A` (2,2), `H` (3,0), `C` (3,1),
//!   `Z` (3,2), `G` (3,3); shorthands `R` = `W0`, `B` = `F0`, `Q` = `RB`, `K` = `WF`;
//! - a number after the atom is the range of a rider, `0` meaning no limit (XBoard does not
//!   understand the older doubled letters such as `NN`, which we read but never write: the
//!   Nightrider is `N0`);
//! - direction prefixes `f b l r v s h` (forward = towards rank 8 for White, right = towards
//!   the h-file); the modality prefixes `m` (non-capture only) and `c` (capture only); the
//!   way of walking: `n` lame leap, `p` hop (cannon), `g` grasshop.
//!
//! Directions are bits: direction `d` turns the atom's step `(x, y)` (as in `ATOMS`) by
//! `ROT[d]`; an orthogonal or diagonal atom uses 4 of the 8 bits, an oblique one all 8.

pub mod read;
pub mod write;

pub use read::{parse_betza, BetzaSyntax};
pub use write::{betza, try_betza, BetzaError};

/// XBoard's atoms: letter and the step `(x, y)` with `x <= y` from which XBoard starts
/// counting directions.
const ATOMS: [(char, i8, i8); 9] = [
    ('W', 0, 1),
    ('F', 1, 1),
    ('D', 0, 2),
    ('N', 1, 2),
    ('A', 2, 2),
    ('H', 0, 3),
    ('C', 1, 3),
    ('Z', 2, 3),
    ('G', 3, 3),
];
const W: usize = 0;
const F: usize = 1;

/// XBoard's 8 directions: direction `d` maps the atom's step `(x, y)` to
/// `(x·r0 + y·r1, x·r2 + y·r3)`; bit `d` of a direction set stands for it.
pub(super) const ROT: [[i8; 4]; 8] = [
    [1, 0, 0, 1],
    [0, 1, 1, 0],
    [0, 1, -1, 0],
    [1, 0, 0, -1],
    [-1, 0, 0, -1],
    [0, -1, -1, 0],
    [0, -1, 1, 0],
    [-1, 0, 0, 1],
];

/// Orthogonal atoms: the single letters and the directions they stand for.
const ORTHOGONAL_LETTERS: [(u8, &str); 6] = [
    (0x01, "f"),
    (0x10, "b"),
    (0x04, "r"),
    (0x40, "l"),
    (0x11, "v"),
    (0x44, "s"),
];

/// Diagonal atoms: a single letter stands for the pair of diagonals on that side.
const DIAGONAL_PAIRS: [(u8, &str); 4] = [(0x82, "f"), (0x28, "b"), (0x0A, "r"), (0xA0, "l")];

/// Diagonal atoms: two perpendicular letters stand for one diagonal.
const DIAGONAL_SINGLES: [(u8, &str); 4] = [(0x02, "fr"), (0x80, "fl"), (0x08, "br"), (0x20, "bl")];

/// Oblique atoms: the two-letter tokens (halves, pairs, single moves).
const OBLIQUE_TOKENS: [(u8, &str); 20] = [
    (0xC3, "fh"),
    (0x3C, "bh"),
    (0x0F, "rh"),
    (0xF0, "lh"),
    (0x81, "ff"),
    (0x18, "bb"),
    (0x42, "fs"),
    (0x24, "bs"),
    (0x06, "rr"),
    (0x60, "ll"),
    (0x09, "rv"),
    (0x90, "lv"),
    (0x01, "rf"),
    (0x02, "fr"),
    (0x04, "br"),
    (0x08, "rb"),
    (0x10, "lb"),
    (0x20, "bl"),
    (0x40, "fl"),
    (0x80, "lf"),
];

/// Oblique atoms: single letters, as in Betza's original notation: `f` `b` `r` `l` the four
/// moves on that side, `v` the four nearest the vertical, `s` the four nearest the horizontal.
const OBLIQUE_LETTERS: [(u8, &str); 6] = [
    (0xC3, "f"),
    (0x3C, "b"),
    (0x0F, "r"),
    (0xF0, "l"),
    (0x99, "v"),
    (0x66, "s"),
];

/// The direction bits an atom uses: 4 orthogonal, 4 diagonal or all 8 oblique directions.
fn atom_mask(atom: usize) -> u8 {
    let (_, x, y) = ATOMS[atom];
    if x == 0 {
        0x55
    } else if x == y {
        0xAA
    } else {
        0xFF
    }
}

/// The step of an atom in direction `d`.
fn step_of(atom: usize, d: usize) -> (i8, i8) {
    let (_, x, y) = ATOMS[atom];
    let r = ROT[d];
    (x * r[0] + y * r[1], x * r[2] + y * r[3])
}

/// The atom of a step and the XBoard direction bit it takes.
fn classify(dx: i8, dy: i8) -> Option<(usize, u8)> {
    let (ax, ay) = (dx.unsigned_abs(), dy.unsigned_abs());
    let (lo, hi) = (ax.min(ay), ax.max(ay));
    let atom = ATOMS
        .iter()
        .position(|&(_, x, y)| (x.unsigned_abs(), y.unsigned_abs()) == (lo, hi))?;
    let mask = atom_mask(atom);
    (0..8usize).find_map(|d| {
        (mask & (1 << d) != 0 && step_of(atom, d) == (dx, dy)).then_some((atom, 1u8 << d))
    })
}
