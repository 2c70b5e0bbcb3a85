//! Betza text for XBoard's `piece LETTER& BETZA` command, so that XBoard's legality test,
//! target-square highlighting and SAN know our pieces (the dialect: see the module above).
//!
//! Only the groups XBoard parses without ambiguity are written: on diagonal atoms a pair letter
//! (`f`, `b`, `l`, `r`) is never followed by a perpendicular letter (XBoard would merge the two
//! into one direction), and on oblique atoms every direction token has two letters (`ff`, `fs`,
//! `rv`, `fh`, `lf`, …).
//!
//! XBoard derives Black's moves by turning White's description half a turn; this program
//! mirrors them top to bottom (DESIGN.md §1). The two agree for every piece whose moves are
//! symmetric left to right (all shipped pieces); for the others the XBoard protocol describes
//! Black's piece separately, as White's mirrored left to right (`protocol/xboard.rs`).

use super::read::xboard_reads;
use super::{atom_mask, classify, ATOMS, DIAGONAL_PAIRS, DIAGONAL_SINGLES, F, OBLIQUE_TOKENS, W};
use crate::piece::{PieceType, StepKind};

/// A step that XBoard's Betza notation has no atom for (e.g. the (1,4) leap).
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
#[error(
    "piece '{letter}': the step ({dx},{dy}) has no Betza atom XBoard understands \
     (XBoard knows the leaps W F D N A H C Z G, up to 3 squares each way)"
)]
pub struct BetzaError {
    /// The piece's letter.
    pub letter: char,
    /// File step of the step that cannot be written.
    pub dx: i8,
    /// Rank step of the step that cannot be written.
    pub dy: i8,
}

/// Modality: 0 both, 1 non-capture only (`m`), 2 capture only (`c`).
fn modality(moves: bool, captures: bool) -> usize {
    match (moves, captures) {
        (true, false) => 1,
        (false, true) => 2,
        _ => 0,
    }
}

/// The Betza prefix of a way of walking a step (none for a plain one).
fn kind_prefix(kind: StepKind) -> &'static str {
    match kind {
        StepKind::Plain => "",
        StepKind::Lame => "n",
        StepKind::Hop => "p",
        StepKind::Grasshop => "g",
    }
}

/// Whether a ride of range `big` reaches every square one of range `small` does (0 = no limit).
fn covers(big: u8, small: u8) -> bool {
    big == 0 || (small != 0 && big >= small)
}

/// One group of the description: an atom (or `K`/`Q`) with range, modality and directions.
struct Group {
    /// Index in `ATOMS`, or `None` for the `K`/`Q` shorthands (both `W` and `F`, all ways).
    atom: Option<usize>,
    range: u8,
    mode: usize,
    kind: StepKind,
    dirs: u8,
    /// XBetza `i`: only from the man's second rank.
    initial: bool,
    /// XBetza `e`: may also capture en passant.
    en_passant: bool,
}

impl Group {
    /// Riders without limit first, then limited riders (longest first), then leapers; within
    /// those `K`/`Q` first, then the atoms in `ATOMS` order; then both, `m`, `c`.
    fn sort_key(&self) -> (u8, u8, usize, usize, StepKind, bool, bool) {
        let (class, sub) = match self.range {
            0 => (0, 0),
            1 => (2, 0),
            r => (1, u8::MAX - r),
        };
        (
            class,
            sub,
            self.atom.map_or(0, |a| a + 1),
            self.mode,
            self.kind,
            self.initial,
            self.en_passant,
        )
    }

    /// The group as XBoard reads it: `i` first, `e` after the modality (`ifmnD`, `fceF`).
    fn text(&self) -> String {
        let mut s = String::from(if self.initial { "i" } else { "" });
        if let Some(atom) = self.atom {
            s.push_str(&directions(atom_mask(atom), self.dirs));
        }
        s.push_str(["", "m", "c"][self.mode]);
        if self.en_passant {
            s.push('e');
        }
        s.push_str(kind_prefix(self.kind));
        // XBoard reads at most two digits; a longer range is no limit on any board it plays.
        let range = if self.range > 99 { 0 } else { self.range };
        match (self.atom, range) {
            (None, 0) => s.push('Q'),
            (None, _) => s.push('K'),
            (Some(W), 0) => s.push('R'),
            (Some(F), 0) => s.push('B'),
            (Some(atom), r) => {
                s.push(ATOMS[atom].0);
                if r != 1 {
                    s.push_str(&r.to_string());
                }
            }
        }
        s
    }
}

/// Direction prefix for the set `dirs` of an atom whose directions are `mask`.
fn directions(mask: u8, dirs: u8) -> String {
    let dirs = dirs & mask;
    if dirs == mask {
        return String::new();
    }
    match mask {
        0x55 => {
            // Orthogonal: XBoard unites single letters f=0x01 r=0x04 b=0x10 l=0x40.
            let vertical = match (dirs & 0x01 != 0, dirs & 0x10 != 0) {
                (true, true) => "v",
                (true, false) => "f",
                (false, true) => "b",
                (false, false) => "",
            };
            let horizontal = match (dirs & 0x40 != 0, dirs & 0x04 != 0) {
                (true, true) => "s",
                (true, false) => "l",
                (false, true) => "r",
                (false, false) => "",
            };
            format!("{vertical}{horizontal}")
        }
        0xAA => {
            // Diagonal: pairs f=0x82 b=0x28 r=0x0A l=0xA0, singles fr=0x02 br=0x08 bl=0x20
            // fl=0x80. Adjacent perpendicular letters merge, so pair letters are f or b only,
            // unless the whole set is one pair; the singles (which start with f or b) follow.
            for (pair, text) in DIAGONAL_PAIRS {
                if dirs == pair {
                    return text.to_string();
                }
            }
            let mut out = String::new();
            let mut covered = 0u8;
            for (pair, text) in DIAGONAL_PAIRS.into_iter().take(2) {
                if dirs & pair == pair {
                    out.push_str(text);
                    covered |= pair;
                }
            }
            for (bit, text) in DIAGONAL_SINGLES {
                if dirs & bit != 0 && covered & bit == 0 {
                    out.push_str(text);
                }
            }
            out
        }
        _ => {
            // Oblique: two-letter tokens only, halves, then pairs, then single moves.
            let mut out = String::new();
            let mut covered = 0u8;
            for (set, text) in OBLIQUE_TOKENS {
                if dirs & set == set && set & !covered != 0 {
                    out.push_str(text);
                    covered |= set;
                }
            }
            out
        }
    }
}

/// The Betza description and the first step that could not be written, if any.
fn describe(piece: &PieceType) -> (String, Option<BetzaError>) {
    // Move/capture rights per (atom, direction bit, range).
    struct Entry {
        atom: usize,
        dir: u8,
        range: u8,
        kind: StepKind,
        initial: bool,
        en_passant: bool,
        moves: bool,
        captures: bool,
    }
    let mut entries: Vec<Entry> = Vec::new();
    let mut unknown = None;
    for step in &piece.steps {
        let Some((atom, dir)) = classify(step.dx, step.dy) else {
            unknown.get_or_insert(BetzaError {
                letter: piece.letter,
                dx: step.dx,
                dy: step.dy,
            });
            continue;
        };
        let (moves, captures) = (step.mode.moves(), step.mode.captures());
        match entries.iter_mut().find(|e| {
            e.atom == atom
                && e.dir == dir
                && e.range == step.range
                && e.kind == step.kind
                && (e.initial, e.en_passant) == (step.initial, step.en_passant)
        }) {
            Some(e) => {
                e.moves |= moves;
                e.captures |= captures;
            }
            None => entries.push(Entry {
                atom,
                dir,
                range: step.range,
                kind: step.kind,
                initial: step.initial,
                en_passant: step.en_passant,
                moves,
                captures,
            }),
        }
    }
    // Leave out what a longer ride in the same direction already does (e.g. `W` beside `R`);
    // the pawn's flagged steps are never left out, nor do they stand for others.
    let plain = |e: &Entry| e.kind == StepKind::Plain && !e.initial && !e.en_passant;
    let dominated = |e: &Entry| {
        entries.iter().any(|f| {
            f.atom == e.atom
                && plain(f)
                && plain(e)
                && f.dir == e.dir
                && f.range != e.range
                && covers(f.range, e.range)
                && (f.moves || !e.moves)
                && (f.captures || !e.captures)
        })
    };
    let mut groups: Vec<Group> = Vec::new();
    for e in entries.iter().filter(|e| !dominated(e)) {
        let mode = modality(e.moves, e.captures);
        match groups.iter_mut().find(|g| {
            g.atom == Some(e.atom)
                && g.range == e.range
                && g.mode == mode
                && g.kind == e.kind
                && (g.initial, g.en_passant) == (e.initial, e.en_passant)
        }) {
            Some(g) => g.dirs |= e.dir,
            None => groups.push(Group {
                atom: Some(e.atom),
                range: e.range,
                mode,
                kind: e.kind,
                dirs: e.dir,
                initial: e.initial,
                en_passant: e.en_passant,
            }),
        }
    }
    // W and F in all directions with the same range and modality: K (leaper) or Q (rider).
    for range in [0u8, 1] {
        for mode in 0..3 {
            let full = |groups: &[Group], atom: usize, mask: u8| {
                groups.iter().position(|g| {
                    g.atom == Some(atom)
                        && g.range == range
                        && g.mode == mode
                        && g.kind == StepKind::Plain
                        && !g.initial
                        && !g.en_passant
                        && g.dirs == mask
                })
            };
            if let (Some(w), Some(_)) = (full(&groups, W, 0x55), full(&groups, F, 0xAA)) {
                groups.remove(w);
                if let Some(f) = full(&groups, F, 0xAA) {
                    groups.remove(f);
                }
                groups.push(Group {
                    atom: None,
                    range,
                    mode,
                    kind: StepKind::Plain,
                    dirs: 0xFF,
                    initial: false,
                    en_passant: false,
                });
            }
        }
    }
    groups.sort_by_key(Group::sort_key);
    let text = groups.iter().map(Group::text).collect();
    (text, unknown)
}

/// The Betza description of a piece (White's moves) for XBoard, e.g. `K`, `BN`, `N0`,
/// `fmWfcF`. Steps XBoard has no atom for (leaps longer than 3 squares either way, such as
/// (1,4)) are left out: [`try_betza`] says whether the text is complete.
pub fn betza(piece: &PieceType) -> String {
    describe(piece).0
}

/// The complete Betza description of a piece, or the first step XBoard cannot be told about.
/// A piece defined in Betza is described as written, when XBoard reads that text.
pub fn try_betza(piece: &PieceType) -> Result<String, BetzaError> {
    if let Some(text) = piece.betza.as_ref().filter(|t| xboard_reads(t)) {
        return Ok(text.clone());
    }
    match describe(piece) {
        (text, None) => Ok(text),
        (_, Some(error)) => Err(error),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::piece::betza::ROT;
    use crate::piece::parse::parse_piece_defs;
    use crate::piece::{PieceSet, Step, StepMode};

    fn def(moves: &str) -> PieceType {
        let text = format!("X: {moves}");
        let set = parse_piece_defs(&text, "test").unwrap_or_else(|e| panic!("{e}"));
        set.get('X').cloned().unwrap_or_else(|| panic!("no X"))
    }

    fn b(moves: &str) -> String {
        let p = def(moves);
        try_betza(&p).unwrap_or_else(|e| panic!("{e}"))
    }

    #[test]
    fn every_shipped_piece() {
        let want = [
            ('A', "BN"),
            ('B', "B"),
            ('C', "RN"),
            ('D', "D"),
            ('E', "A"),
            ('F', "F"),
            ('G', "gQ"),
            ('H', "N0"),
            ('I', "BW"),
            ('J', "RF"),
            ('K', "K"),
            ('M', "K"),
            ('N', "N"),
            ('O', "mRcpR"),
            ('P', "fmWfceFifmnD"),
            ('Q', "Q"),
            ('R', "R"),
            ('T', "nA"),
            ('U', "nN"),
            ('W', "W"),
            ('X', "C"),
            ('Y', "QN"),
            ('Z', "Z"),
        ];
        let set = PieceSet::standard();
        assert_eq!(set.letters(), want.iter().map(|w| w.0).collect::<String>());
        for (letter, text) in want {
            let piece = set.get(letter).unwrap_or_else(|| panic!("{letter}"));
            assert_eq!(try_betza(piece), Ok(text.to_string()), "{letter}");
        }
    }

    #[test]
    fn every_atom_and_range() {
        assert_eq!(b("0,3,*"), "H");
        assert_eq!(b("3,3,*"), "G");
        assert_eq!(b("3,1,*"), "C");
        assert_eq!(b("2,0,s*"), "D0");
        assert_eq!(b("1,0,3*"), "W3");
        assert_eq!(b("1,1,2*"), "F2");
        assert_eq!(b("1,2,4*"), "N4");
        assert_eq!(b("1,0,2* 1,1,2*"), "W2F2");
        assert_eq!(b("1,0,* 1,1,s*"), "BW");
    }

    #[test]
    fn modality() {
        assert_eq!(b("1,0,c*"), "cW");
        assert_eq!(b("1,0,sn*"), "mR");
        assert_eq!(b("1,0,c* 1,1,c*"), "cK");
        assert_eq!(b("1,1,c* 1,0,n*"), "mWcF");
        // Move-only and capture-only halves of the same step make a plain step.
        assert_eq!(b("1,2,c* 1,2,n*"), "N");
        // A step already inside a ride is not repeated.
        assert_eq!(b("1,0,* 1,0,s*"), "R");
        assert_eq!(b("1,0,c* 1,0,s*"), "R");
        assert_eq!(b("1,0,* 1,0,ns*"), "mRW");
    }

    #[test]
    fn orthogonal_directions() {
        assert_eq!(b("0,1"), "fW");
        assert_eq!(b("0,-1"), "bW");
        assert_eq!(b("1,0"), "rW");
        assert_eq!(b("-1,0"), "lW");
        assert_eq!(b("0,1,+"), "vW");
        assert_eq!(b("1,0,s+"), "sR");
        assert_eq!(b("0,1,s"), "fR");
        assert_eq!(b("0,1 1,0"), "frW");
        assert_eq!(b("0,1 1,0 -1,0"), "fsW");
        assert_eq!(b("1,0,s+ 0,1"), "sRfW");
        assert_eq!(b("0,2,n"), "fmD");
    }

    #[test]
    fn diagonal_directions() {
        assert_eq!(b("1,1"), "frF");
        assert_eq!(b("-1,1"), "flF");
        assert_eq!(b("1,-1"), "brF");
        assert_eq!(b("-1,-1,s"), "blB");
        assert_eq!(b("1,1 -1,1"), "fF");
        assert_eq!(b("1,-1,s -1,-1,s"), "bB");
        assert_eq!(b("1,1 1,-1"), "rF");
        assert_eq!(b("-1,1,2 -1,-1,2"), "lF2");
        assert_eq!(b("1,1 -1,-1"), "frblF");
        // Three diagonals: a forward/backward pair letter, then a single.
        assert_eq!(b("1,1 -1,1 1,-1"), "fbrF");
        assert_eq!(b("-1,1 1,-1 -1,-1"), "bflF");
        assert_eq!(b("2,2 -2,2"), "fA");
    }

    #[test]
    fn oblique_directions() {
        assert_eq!(b("-1,2"), "lfN");
        assert_eq!(b("1,2"), "rfN");
        assert_eq!(b("2,1"), "frN");
        assert_eq!(b("-2,-1"), "blN");
        assert_eq!(b("1,2 -1,2"), "ffN");
        assert_eq!(b("2,1 -2,1"), "fsN");
        assert_eq!(b("1,2 -1,2 2,1 -2,1"), "fhN");
        assert_eq!(b("1,-2 -1,-2 2,-1 -2,-1"), "bhN");
        assert_eq!(b("1,2 1,-2 2,1 2,-1"), "rhN");
        assert_eq!(b("2,1,+"), "fsbsN");
        assert_eq!(b("1,2,+"), "ffbbN");
        assert_eq!(b("1,2 -1,2 2,-1"), "ffbrN");
        assert_eq!(b("1,3 -1,3"), "ffC");
        assert_eq!(b("3,2,s"), "frZ0");
        // A Shatranj-like pawn: steps forward, captures diagonally forward.
        assert_eq!(b("0,1,n 1,1,c -1,1,c"), "fmWfcF");
    }

    #[test]
    fn steps_without_an_atom() {
        let p = def("1,4 1,0,*");
        assert_eq!(
            try_betza(&p),
            Err(BetzaError {
                letter: 'X',
                dx: 1,
                dy: 4
            })
        );
        assert_eq!(betza(&p), "W");
        let shown = BetzaError {
            letter: 'X',
            dx: 1,
            dy: 4,
        }
        .to_string();
        assert!(shown.contains("(1,4)"), "{shown}");
        assert!(try_betza(&def("0,4,*")).is_err());
        // Steps built by code, beyond what the parser accepts, do not panic.
        let wild = PieceType::new(
            'X',
            vec![Step::plain(
                i8::MIN,
                i8::MAX,
                200,
                crate::piece::StepMode::Both,
            )],
        );
        assert!(try_betza(&wild).is_err());
        let long = PieceType::new(
            'X',
            vec![Step::plain(0, 1, 200, crate::piece::StepMode::Both)],
        );
        assert_eq!(betza(&long), "fR");
    }

    /// A model of XBoard's Betza reader (moves.c, `MovesFromString`, single-leg moves), for
    /// checking that what we write is read back as the same steps.
    fn xboard_read(text: &str) -> Vec<Step> {
        const DIR_TYPE: &[u8; 26] = b"01000104000200000260050000";
        fn table(t: &[u8; 26], c: u8) -> u8 {
            t[usize::from(c - b'a')]
        }
        const DIRS1: [u8; 26] = {
            let mut t = [0u8; 26];
            t[1] = 0x3C;
            t[5] = 0xC3;
            t[11] = 0xF0;
            t[17] = 0x0F;
            t
        };
        const DIRS2: [u8; 26] = {
            let mut t = [0u8; 26];
            t[1] = 0x18;
            t[5] = 0x81;
            t[7] = 0xFF;
            t[11] = 0x60;
            t[17] = 0x06;
            t[18] = 0x66;
            t[21] = 0x99;
            t
        };
        let dtype = |c: u8| DIR_TYPE[usize::from(c - b'a')];
        let b = text.as_bytes();
        let mut steps = Vec::new();
        let mut p = 0;
        while p < b.len() {
            let initial = b[p] == b'i';
            let start = p + usize::from(initial);
            while b[p].is_ascii_lowercase() {
                p += 1;
            }
            let atom = b[p];
            // (x, y, symmetry, unlimited?)
            let (x, y, sym, rider) = match atom {
                b'W' => (0, 1, b'W', false),
                b'R' => (0, 1, b'W', true),
                b'F' => (1, 1, b'F', false),
                b'B' => (1, 1, b'F', true),
                b'K' => (0, 1, b'K', false),
                b'Q' => (0, 1, b'K', true),
                b'D' => (0, 2, b'W', false),
                b'H' => (0, 3, b'W', false),
                b'A' => (2, 2, b'F', false),
                b'G' => (3, 3, b'F', false),
                b'N' => (1, 2, b'N', false),
                b'C' => (1, 3, b'N', false),
                b'Z' => (2, 3, b'N', false),
                other => panic!("unknown atom {}", other as char),
            };
            let mut d = start;
            let mut dir_set = 0u8;
            let lower = |i: usize| i < b.len() && b[i].is_ascii_lowercase();
            match sym {
                b'F' => {
                    while lower(d) && dtype(b[d]) != b'0' {
                        let i = dtype(b[d]);
                        let mut bits = table(&DIRS1, b[d]);
                        if lower(d + 1) && ((i | dtype(b[d + 1])) & 3) == 3 {
                            bits = table(&DIRS1, b[d]) & table(&DIRS1, b[d + 1]);
                            d += 2;
                        } else {
                            d += 1;
                        }
                        dir_set |= bits;
                    }
                    dir_set &= 0xAA;
                    if dir_set == 0 {
                        dir_set = 0xAA;
                    }
                }
                b'W' => {
                    while lower(d) && (dtype(b[d]) & !4) != b'0' {
                        dir_set |= table(&DIRS2, b[d]);
                        d += 1;
                    }
                    dir_set &= 0x55;
                    if dir_set == 0 {
                        dir_set = 0x55;
                    }
                }
                b'N' => {
                    assert_ne!(b[d], b'h', "chiral prefixes are not written");
                    while lower(d) && dtype(b[d]) != b'0' {
                        let i = dtype(b[d]);
                        let mut bits = table(&DIRS2, b[d]);
                        if lower(d + 1) && b[d + 1] == b'h' {
                            bits = table(&DIRS1, b[d]);
                            d += 2;
                        } else if b[d] == b[d + 1]
                            || (lower(d + 1) && i < b'4' && ((i | dtype(b[d + 1])) & 3) == 3)
                        {
                            bits = table(&DIRS1, b[d]) & table(&DIRS2, b[d + 1]);
                            d += 2;
                        } else {
                            d += 1;
                        }
                        dir_set |= bits;
                    }
                    if dir_set == 0 {
                        dir_set = 0xFF;
                    }
                }
                _ => {
                    assert!(!lower(d) || dtype(b[d]) == b'0', "no directions on K/Q");
                    dir_set = 0xFF;
                }
            }
            let mut mode = StepMode::Both;
            if lower(d) && b[d] == b'm' {
                mode = StepMode::MoveOnly;
                d += 1;
            }
            if lower(d) && b[d] == b'c' {
                assert_eq!(mode, StepMode::Both, "mc is never written");
                mode = StepMode::CaptureOnly;
                d += 1;
            }
            let en_passant = lower(d) && b[d] == b'e';
            d += usize::from(en_passant);
            let lame = lower(d) && b[d] == b'n';
            d += usize::from(lame);
            assert_eq!(d, p, "prefix of {text:?} fully read");
            p += 1;
            let mut range = if rider { 0 } else { 1 };
            let digits_start = p;
            while p < b.len() && b[p].is_ascii_digit() {
                p += 1;
            }
            if p > digits_start {
                range = text[digits_start..p].parse().unwrap_or(1);
            }
            for (dir, r) in ROT.iter().enumerate() {
                if dir_set & (1 << dir) == 0 {
                    continue;
                }
                let (sx, sy) = if sym == b'K' {
                    if dir % 2 == 0 {
                        (0, 1)
                    } else {
                        (1, 1)
                    }
                } else {
                    (x, y)
                };
                steps.push(Step {
                    kind: if lame {
                        StepKind::Lame
                    } else {
                        StepKind::Plain
                    },
                    initial,
                    en_passant,
                    ..Step::plain(sx * r[0] + sy * r[1], sx * r[2] + sy * r[3], range, mode)
                });
            }
        }
        steps.sort();
        steps.dedup();
        steps
    }

    /// Every subset of every atom's directions, in every modality and range, and joined with
    /// a second group, is read back by XBoard's rules as the same steps.
    #[test]
    fn xboard_reads_back_every_direction_subset() {
        let modes = [StepMode::Both, StepMode::MoveOnly, StepMode::CaptureOnly];
        let mut checked = 0;
        for (atom, &(_, x, y)) in ATOMS.iter().enumerate() {
            let mask = atom_mask(atom);
            for subset in 1..=255u8 {
                if subset & !mask != 0 {
                    continue;
                }
                for (k, &mode) in modes.iter().enumerate() {
                    let range = [1u8, 0, 3][k];
                    let mut steps: Vec<Step> = (0..8)
                        .filter(|d| subset & (1 << d) != 0)
                        .map(|d| {
                            let r = ROT[d];
                            Step::plain(x * r[0] + y * r[1], x * r[2] + y * r[3], range, mode)
                        })
                        .collect();
                    // A second, forward-only knight group after it.
                    if k == 2 {
                        steps.push(Step::plain(-1, 2, 1, StepMode::Both));
                    }
                    let piece = PieceType::new('X', steps);
                    let text = try_betza(&piece).unwrap_or_else(|e| panic!("{e}"));
                    assert_eq!(xboard_read(&text), piece.steps, "{text}");
                    checked += 1;
                }
            }
        }
        assert!(checked > 1000);
        // And every shipped piece that the model reads (it knows no n, p or g).
        for piece in PieceSet::standard()
            .iter()
            .filter(|p| !p.has_special_steps())
        {
            assert_eq!(xboard_read(&betza(piece)), piece.steps, "{}", piece.letter);
        }
        // The orthodox and the Berolina pawn, and their flags in other groupings.
        for text in ["fmWfceFifmnD", "fmFfceWifmnA", "ifmnDfmWfceF", "ifmWceK"] {
            let piece = PieceType::new('P', crate::piece::betza::parse_betza(text).unwrap());
            let written = betza(&piece);
            assert_eq!(xboard_read(&written), piece.steps, "{text} → {written}");
        }
    }
}
