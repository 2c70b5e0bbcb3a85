//! Reading a Betza description into steps: `BN`, `NN`, `fmWfcF`, `mRcpR`, `nN`, `gQ`, `WfF`.
//! Each group is lower-case modifiers, an atom, and an optional range (a number, or the atom
//! doubled for an unlimited rider); groups are concatenated. What the XBetza dialect has
//! beyond single-leg moves (`a` multi-leg moves, `j`, castling `O`, …) is refused with the
//! reason and what is supported. The pawn's two XBetza modifiers are read: `i` (a leap only
//! from the man's second rank: `ifmnD`) and `e` (a capture that may also take en passant:
//! `fceF`); that only the pawn `P` may use them is checked where the piece file is read.

use super::{
    atom_mask, step_of, ATOMS, DIAGONAL_PAIRS, DIAGONAL_SINGLES, F, OBLIQUE_LETTERS,
    OBLIQUE_TOKENS, ORTHOGONAL_LETTERS, W,
};
use crate::piece::{Step, StepKind, StepMode};

/// What is wrong with a Betza description: the 0-based character offset in the text, and
/// what was expected and found.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{message}")]
pub struct BetzaSyntax {
    /// 0-based offset, in characters, of the problem in the text.
    pub offset: usize,
    /// What was expected and what was found.
    pub message: String,
}

/// A direction token and the direction bits it stands for.
type Token = (u8, &'static str);

/// What the reader supports, for error messages.
const SUPPORTED: &str = "supported: atoms W F D N A H C Z G and K Q R B, a range number or a \
    doubled atom, directions f b l r v s h, m (move only), c (capture only), n (lame leap), \
    p (hop like a cannon), g (grasshop), i (initial leap, pawn only), e (en passant, with c, \
    pawn only)";

/// The largest range a Betza rider may be given (two digits).
const MAX_RANGE: u8 = 99;

/// The steps of a Betza description (White's moves), sorted and without duplicates.
pub fn parse_betza(text: &str) -> Result<Vec<Step>, BetzaSyntax> {
    let chars: Vec<char> = text.chars().collect();
    if chars.is_empty() {
        return Err(err(
            0,
            "expected a Betza description such as BN, found nothing",
        ));
    }
    let mut steps = Vec::new();
    let mut i = 0;
    while i < chars.len() {
        let group = Group::read(&chars, &mut i)?;
        steps.extend(group.steps()?);
    }
    steps.sort();
    steps.dedup();
    Ok(steps)
}

/// Whether XBoard reads the text as written: it does not know doubled atoms (`NN`).
pub fn xboard_reads(text: &str) -> bool {
    !text
        .as_bytes()
        .windows(2)
        .any(|w| w[0] == w[1] && w[0].is_ascii_uppercase())
}

fn err(offset: usize, message: impl Into<String>) -> BetzaSyntax {
    BetzaSyntax {
        offset,
        message: message.into(),
    }
}

/// One group: modifiers, atom(s), range.
struct Group {
    /// The direction letters with their offsets, in order.
    directions: Vec<(usize, char)>,
    mode: StepMode,
    /// The way of walking and the offset of its letter.
    kind: (StepKind, usize),
    /// The atoms (`K` and `Q` stand for two).
    atoms: Vec<usize>,
    range: u8,
    /// The offset of `i` (only from the man's second rank), if given.
    initial: Option<usize>,
    /// The offset of `e` (may also capture en passant), if given.
    en_passant: Option<usize>,
}

impl Group {
    /// Reads the group starting at `chars[*i]`, leaving `*i` after it.
    fn read(chars: &[char], i: &mut usize) -> Result<Group, BetzaSyntax> {
        let mut directions = Vec::new();
        let (mut m, mut c) = (false, false);
        let mut kind = (StepKind::Plain, 0);
        let (mut initial, mut en_passant) = (None, None);
        while let Some(&ch) = chars.get(*i).filter(|c| c.is_ascii_lowercase()) {
            let way = match ch {
                'f' | 'b' | 'l' | 'r' | 'v' | 's' | 'h' => {
                    directions.push((*i, ch));
                    None
                }
                'm' => {
                    m = true;
                    None
                }
                'c' => {
                    c = true;
                    None
                }
                'i' => {
                    initial = Some(*i);
                    None
                }
                'e' => {
                    en_passant = Some(*i);
                    None
                }
                'n' => Some(StepKind::Lame),
                'p' => Some(StepKind::Hop),
                'g' => Some(StepKind::Grasshop),
                _ => {
                    return Err(err(
                        *i,
                        format!("'{ch}' is a modifier fairy-egt does not read ({SUPPORTED})"),
                    ))
                }
            };
            if let Some(way) = way {
                if kind.0 != StepKind::Plain && kind.0 != way {
                    return Err(err(
                        *i,
                        format!("'{ch}' cannot be combined with '{}'", chars[kind.1]),
                    ));
                }
                kind = (way, *i);
            }
            *i += 1;
        }
        let atom_at = *i;
        let Some(&letter) = chars.get(atom_at) else {
            return Err(err(
                atom_at,
                "expected an atom (W F D N A H C Z G, or K Q R B), found the end",
            ));
        };
        let (atoms, mut range) = match letter {
            'K' => (vec![W, F], 1),
            'Q' => (vec![W, F], 0),
            'R' => (vec![W], 0),
            'B' => (vec![F], 0),
            _ => match ATOMS.iter().position(|a| a.0 == letter) {
                Some(atom) => (vec![atom], 1),
                None => {
                    return Err(err(
                        atom_at,
                        format!(
                            "expected an atom (W F D N A H C Z G, or K Q R B), found '{letter}' \
                             ({SUPPORTED})"
                        ),
                    ))
                }
            },
        };
        *i += 1;
        let digits: String = chars[*i..]
            .iter()
            .take_while(|c| c.is_ascii_digit())
            .collect();
        if !digits.is_empty() {
            range = match digits.parse::<u8>() {
                Ok(r) if r <= MAX_RANGE => r,
                _ => {
                    return Err(err(
                        *i,
                        format!(
                            "range {digits} is too long (expected 0 to {MAX_RANGE}, 0: no limit)"
                        ),
                    ))
                }
            };
            *i += digits.len();
        } else if chars.get(*i) == Some(&letter) && range == 1 && atoms.len() == 1 {
            range = 0;
            *i += 1;
        }
        let mode = match (m, c) {
            (true, false) => StepMode::MoveOnly,
            (false, true) => StepMode::CaptureOnly,
            _ => StepMode::Both,
        };
        if let Some(at) = en_passant.filter(|_| mode != StepMode::CaptureOnly) {
            return Err(err(
                at,
                "'e' (en passant) goes with 'c' (capture only) and not with 'm': fceF",
            ));
        }
        Ok(Group {
            directions,
            mode,
            kind,
            atoms,
            range,
            initial,
            en_passant,
        })
    }

    /// The group's steps.
    fn steps(&self) -> Result<Vec<Step>, BetzaSyntax> {
        let (kind, kind_at) = self.kind;
        match kind {
            StepKind::Lame if self.range != 1 => {
                return Err(err(
                    kind_at,
                    "'n' (lame) applies to leaps such as nN, nA, nD, not to rides",
                ))
            }
            StepKind::Hop | StepKind::Grasshop if self.range != 0 => {
                return Err(err(
                    kind_at,
                    format!(
                        "'{}' applies to rides without limit such as pR, gQ, pNN, not to leaps \
                         or limited rides",
                        if kind == StepKind::Hop { 'p' } else { 'g' }
                    ),
                ))
            }
            _ => {}
        }
        if let Some(at) = self.initial.filter(|_| self.range != 1) {
            return Err(err(
                at,
                "'i' (initial move) applies to leaps such as ifmnD, not to rides",
            ));
        }
        if let Some(at) = self
            .en_passant
            .filter(|_| self.range != 1 || kind != StepKind::Plain)
        {
            return Err(err(
                at,
                "'e' (en passant) applies to plain leaps such as fceF, not to rides, lame \
                 leaps or hops",
            ));
        }
        let mut steps = Vec::new();
        for &atom in &self.atoms {
            let dirs = self.directions_of(atom)?;
            for d in (0..8).filter(|d| dirs & (1 << d) != 0) {
                let (dx, dy) = step_of(atom, d);
                let mut step = Step {
                    dx,
                    dy,
                    range: self.range,
                    mode: self.mode,
                    kind,
                    initial: self.initial.is_some(),
                    en_passant: self.en_passant.is_some(),
                };
                if kind == StepKind::Lame {
                    match step.lame_leg() {
                        // Nothing between: a plain leap.
                        Some(leg) if leg.is_empty() => step.kind = StepKind::Plain,
                        Some(_) => {}
                        None => {
                            return Err(err(
                                kind_at,
                                format!(
                                    "'n' (lame) has no agreed path for the {} leap: lame leaps \
                                     are nD nN nA nH nG",
                                    ATOMS[atom].0
                                ),
                            ))
                        }
                    }
                }
                steps.push(step);
            }
        }
        Ok(steps)
    }

    /// The direction bits the group's direction letters give an atom (all of its directions
    /// when there are none).
    fn directions_of(&self, atom: usize) -> Result<u8, BetzaSyntax> {
        let mask = atom_mask(atom);
        if self.directions.is_empty() {
            return Ok(mask);
        }
        let (pairs, singles): (&[Token], &[Token]) = match mask {
            0x55 => (&[], &ORTHOGONAL_LETTERS),
            0xAA => (&DIAGONAL_SINGLES, &DIAGONAL_PAIRS),
            _ => (&OBLIQUE_TOKENS, &OBLIQUE_LETTERS),
        };
        let find = |table: &[Token], token: &str| {
            table
                .iter()
                .find(|(_, t)| *t == token)
                .map(|&(bits, _)| bits)
        };
        let mut dirs = 0u8;
        let mut k = 0;
        while k < self.directions.len() {
            let (at, a) = self.directions[k];
            if let Some(&(_, b)) = self.directions.get(k + 1) {
                let two = format!("{a}{b}");
                let reversed = format!("{b}{a}");
                // On diagonal atoms `rf` is `fr`.
                let bits = find(pairs, &two)
                    .or_else(|| (mask == 0xAA).then(|| find(pairs, &reversed)).flatten());
                if let Some(bits) = bits {
                    dirs |= bits;
                    k += 2;
                    continue;
                }
            }
            let bits = find(singles, &a.to_string()).or(match (mask, a) {
                (0xAA, 'v' | 's') => Some(0xAA),
                _ => None,
            });
            let Some(bits) = bits else {
                let class = match mask {
                    0x55 => "orthogonal",
                    0xAA => "diagonal",
                    _ => "oblique",
                };
                return Err(err(
                    at,
                    format!(
                        "'{a}' here is no direction of the {class} atom {} (on oblique atoms \
                         'h' pairs with f b l r: fh; {SUPPORTED})",
                        ATOMS[atom].0
                    ),
                ));
            };
            dirs |= bits;
            k += 1;
        }
        Ok(dirs & mask)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::piece::betza::try_betza;
    use crate::piece::PieceType;

    fn steps(text: &str) -> Vec<(i8, i8, u8, StepMode, StepKind)> {
        parse_betza(text)
            .unwrap_or_else(|e| panic!("{text}: {e}"))
            .into_iter()
            .map(|s| (s.dx, s.dy, s.range, s.mode, s.kind))
            .collect()
    }

    fn count(text: &str) -> usize {
        parse_betza(text)
            .unwrap_or_else(|e| panic!("{text}: {e}"))
            .len()
    }

    fn error(text: &str) -> BetzaSyntax {
        parse_betza(text).expect_err(text)
    }

    #[test]
    fn atoms_shorthands_and_compounds() {
        for (text, n) in [
            ("W", 4),
            ("F", 4),
            ("D", 4),
            ("N", 8),
            ("A", 4),
            ("H", 4),
            ("C", 8),
            ("Z", 8),
            ("G", 4),
            ("K", 8),
            ("Q", 8),
            ("R", 4),
            ("B", 4),
            ("BN", 12),
            ("RN", 12),
            ("QN", 16),
            ("WD", 8),
            ("NC", 16),
        ] {
            assert_eq!(count(text), n, "{text}");
        }
        assert!(steps("R").iter().all(|s| s.2 == 0));
        assert!(steps("K").iter().all(|s| s.2 == 1));
    }

    #[test]
    fn riders_by_doubling_or_range() {
        assert_eq!(steps("NN"), steps("N0"));
        assert!(steps("NN")
            .iter()
            .all(|s| s.2 == 0 && s.4 == StepKind::Plain));
        assert_eq!(steps("WW"), steps("R"));
        assert_eq!(steps("FF"), steps("B"));
        assert!(steps("R4").iter().all(|s| s.2 == 4));
        assert_eq!(steps("R4"), steps("W4"));
        assert!(steps("W3").iter().all(|s| s.2 == 3));
        assert!(steps("N0").iter().all(|s| s.2 == 0));
        assert_eq!(steps("Q2"), steps("W2F2"));
        assert!(error("W100").message.contains("too long"));
    }

    #[test]
    fn directions_on_every_kind_of_atom() {
        let dirs = |t: &str| {
            let mut v: Vec<(i8, i8)> = steps(t).iter().map(|s| (s.0, s.1)).collect();
            v.sort();
            v
        };
        assert_eq!(dirs("fW"), vec![(0, 1)]);
        assert_eq!(dirs("bW"), vec![(0, -1)]);
        assert_eq!(dirs("rW"), vec![(1, 0)]);
        assert_eq!(dirs("lW"), vec![(-1, 0)]);
        assert_eq!(dirs("vW"), vec![(0, -1), (0, 1)]);
        assert_eq!(dirs("sW"), vec![(-1, 0), (1, 0)]);
        assert_eq!(dirs("frW"), vec![(0, 1), (1, 0)]);
        assert_eq!(dirs("fF"), vec![(-1, 1), (1, 1)]);
        assert_eq!(dirs("frF"), vec![(1, 1)]);
        assert_eq!(dirs("rfF"), vec![(1, 1)]);
        assert_eq!(dirs("blF"), vec![(-1, -1)]);
        assert_eq!(dirs("lF"), vec![(-1, -1), (-1, 1)]);
        assert_eq!(dirs("fbrF"), vec![(-1, 1), (1, -1), (1, 1)]);
        assert_eq!(dirs("ffN"), vec![(-1, 2), (1, 2)]);
        assert_eq!(dirs("fsN"), vec![(-2, 1), (2, 1)]);
        assert_eq!(dirs("fN"), vec![(-2, 1), (-1, 2), (1, 2), (2, 1)]);
        assert_eq!(dirs("fhN"), dirs("fN"));
        assert_eq!(dirs("vN"), vec![(-1, -2), (-1, 2), (1, -2), (1, 2)]);
        assert_eq!(dirs("sN"), vec![(-2, -1), (-2, 1), (2, -1), (2, 1)]);
        assert_eq!(dirs("rfN"), vec![(1, 2)]);
        assert_eq!(dirs("frN"), vec![(2, 1)]);
        assert_eq!(dirs("fK"), vec![(-1, 1), (0, 1), (1, 1)]);
        // The gold and silver generals.
        assert_eq!(
            dirs("WfF"),
            vec![(-1, 0), (-1, 1), (0, -1), (0, 1), (1, 0), (1, 1)]
        );
        assert_eq!(
            dirs("FfW"),
            vec![(-1, -1), (-1, 1), (0, 1), (1, -1), (1, 1)]
        );
        assert!(error("hW")
            .message
            .contains("no direction of the orthogonal atom W"));
        assert!(error("fhR").message.contains("orthogonal atom W"));
    }

    #[test]
    fn modality_and_ways_of_walking() {
        assert!(steps("mR").iter().all(|s| s.3 == StepMode::MoveOnly));
        assert!(steps("cR").iter().all(|s| s.3 == StepMode::CaptureOnly));
        assert!(steps("mcR").iter().all(|s| s.3 == StepMode::Both));
        // The Xiangqi cannon: moves as a rook, captures by hopping.
        let cannon = steps("mRcpR");
        assert_eq!(cannon.len(), 8);
        assert!(cannon
            .iter()
            .all(|s| (s.3, s.4) == (StepMode::MoveOnly, StepKind::Plain)
                || (s.3, s.4) == (StepMode::CaptureOnly, StepKind::Hop)));
        assert!(steps("gQ")
            .iter()
            .all(|s| s.4 == StepKind::Grasshop && s.2 == 0));
        assert!(steps("pNN").iter().all(|s| s.4 == StepKind::Hop));
        assert!(steps("nN")
            .iter()
            .all(|s| s.4 == StepKind::Lame && s.2 == 1));
        assert!(steps("nA").iter().all(|s| s.4 == StepKind::Lame));
        // Nothing lies between on a W or F leap: lame or not, it is the same.
        assert_eq!(steps("nW"), steps("W"));
        assert!(error("nC").message.contains("no agreed path"));
        assert!(error("nR").message.contains("not to rides"));
        assert!(error("pW").message.contains("rides without limit"));
        assert!(error("gR4").message.contains("rides without limit"));
        assert!(error("npN").message.contains("cannot be combined"));
    }

    #[test]
    fn what_is_not_read_is_named_with_its_place() {
        let e = error("BaN");
        assert_eq!(e.offset, 1);
        assert!(e.message.contains("'a'"), "{}", e.message);
        assert!(e.message.contains("supported"), "{}", e.message);
        let e = error("fmO");
        assert_eq!(e.offset, 2);
        assert!(e.message.contains("found 'O'"), "{}", e.message);
        let e = error("Nf");
        assert_eq!(e.offset, 2);
        assert!(e.message.contains("found the end"), "{}", e.message);
        assert_eq!(error("").offset, 0);
    }

    #[test]
    fn the_pawns_initial_and_en_passant_modifiers() {
        let pawn = |text: &str| {
            parse_betza(text)
                .unwrap_or_else(|e| panic!("{text}: {e}"))
                .into_iter()
                .map(|s| (s.dx, s.dy, s.mode, s.kind, s.initial, s.en_passant))
                .collect::<Vec<_>>()
        };
        use StepKind::{Lame, Plain};
        use StepMode::{CaptureOnly, MoveOnly};
        let mut orthodox = vec![
            (0, 1, MoveOnly, Plain, false, false),
            (-1, 1, CaptureOnly, Plain, false, true),
            (1, 1, CaptureOnly, Plain, false, true),
            (0, 2, MoveOnly, Lame, true, false),
        ];
        orthodox.sort_by_key(|s| (s.0, s.1, s.2, s.3));
        let mut got = pawn("fmWfceFifmnD");
        got.sort_by_key(|s| (s.0, s.1, s.2, s.3));
        assert_eq!(got, orthodox);
        let mut berolina = vec![
            (-1, 1, MoveOnly, Plain, false, false),
            (1, 1, MoveOnly, Plain, false, false),
            (0, 1, CaptureOnly, Plain, false, true),
            (-2, 2, MoveOnly, Lame, true, false),
            (2, 2, MoveOnly, Lame, true, false),
        ];
        berolina.sort_by_key(|s| (s.0, s.1, s.2, s.3));
        let mut got = pawn("fmFfceWifmnA");
        got.sort_by_key(|s| (s.0, s.1, s.2, s.3));
        assert_eq!(got, berolina);
        assert_eq!(
            parse_betza("ifmnD").unwrap()[0].lame_leg(),
            Some(vec![(0, 1)])
        );
        let e = error("fmeF");
        assert_eq!(e.offset, 2);
        assert!(e.message.contains("goes with 'c'"), "{}", e.message);
        assert!(error("feF").message.contains("goes with 'c'"));
        assert!(error("ceR").message.contains("plain leaps"));
        assert!(error("ceB").message.contains("plain leaps"));
        assert!(error("cenN").message.contains("plain leaps"));
        let e = error("ifmR");
        assert_eq!(e.offset, 0);
        assert!(e.message.contains("not to rides"), "{}", e.message);
    }

    /// What the reader makes of what the writer wrote is the piece itself.
    #[test]
    fn reads_back_what_is_written() {
        let pawns = [
            "fmWfceFifmnD",
            "fmFfceWifmnA",
            "ifmnDfmWfceF",
            "ifmW",
            "ceK",
        ];
        for text in [
            "BN", "fmWfcF", "mRcpR", "gQ", "nN", "nA", "WfF", "FfW", "fW", "rW", "N0", "ffbbN",
            "fsbsN", "frZ0", "W3", "cK", "mWcF", "pB", "gNN",
        ]
        .into_iter()
        .chain(pawns)
        {
            let piece = PieceType::new('X', parse_betza(text).expect(text));
            let written = try_betza(&piece).expect(text);
            assert_eq!(
                parse_betza(&written).expect(&written),
                piece.steps,
                "{text} → {written}"
            );
        }
    }

    #[test]
    fn xboard_reads_all_but_doubled_atoms() {
        assert!(xboard_reads("mRcpR"));
        assert!(xboard_reads("N0"));
        assert!(!xboard_reads("NN"));
        assert!(!xboard_reads("fWW"));
    }
}
