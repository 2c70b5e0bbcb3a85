//! En passant: the right a pawn's double step gives ([`EnPassant`]), the pawn steps that make
//! and take it (`PawnRules`), and why a FEN's en-passant square is refused
//! ([`EnPassantFault`]).
//!
//! A *double step* is one of the pawn's `initial` lame leaps (XBetza `ifmnD`, Berolina
//! `ifmnA`) whose leg is one square: the square passed over. A pawn of the other side may
//! then, on the next move only, capture the pawn that made it by one of its `e` capture steps
//! (`fceF`, Berolina `fceW`) onto the passed square. An initial leap that passes over more
//! than one square (`ifmnH`), or none (`ifmD`, not lame), gives no e.p. right.

use super::man::Man;
use super::size::BoardSize;
use super::square::{Color, Square};
use crate::piece::{PieceSet, StepKind, PAWN};
use std::fmt;
use std::hash::{Hash, Hasher};
use std::sync::Arc;

/// The right to capture en passant, as the side to move has it: the `square` a pawn has just
/// passed over by a double step, and the square of that pawn (the `victim`), which an `e`
/// capture onto `square` removes. In Berolina the victim stands diagonally ahead of the
/// square, in orthodox chess straight ahead.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct EnPassant {
    /// The square passed over, where the capturing pawn lands.
    pub square: Square,
    /// The square of the pawn that made the double step.
    pub victim: Square,
}

/// Why a FEN's en-passant square cannot be the square a pawn of the side that just moved
/// passed over by a double step.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum EnPassantFault {
    /// The pieces define no pawn.
    NoPawn,
    /// A man stands on the square.
    Occupied {
        /// The man.
        man: Man,
    },
    /// No double step of that side's pawn passes over the square (wrong rank, or the pawn
    /// has no double step).
    NotPassed {
        /// The side that just moved.
        color: Color,
    },
    /// No pawn of that side stands where a double step over the square ends.
    NoVictim {
        /// The side that just moved.
        color: Color,
        /// The squares where such a double step ends, ascending.
        ends: Vec<Square>,
        /// The board, for the squares' names.
        board: BoardSize,
    },
    /// The pawn could not have come from where its double step starts: a man stands there.
    OriginOccupied {
        /// The pawn that would have made the double step.
        victim: Man,
        /// The man on its square of origin.
        blocker: Man,
    },
    /// Two pawns could have passed over the square (Berolina: one on either diagonal): the
    /// FEN does not say which one a capture would take.
    Ambiguous {
        /// One pawn.
        first: Man,
        /// Another.
        second: Man,
    },
}

impl fmt::Display for EnPassantFault {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            EnPassantFault::NoPawn => write!(f, "the pieces define no pawn (P)"),
            EnPassantFault::Occupied { man } => write!(f, "{} stands on it", man.describe()),
            EnPassantFault::NotPassed { color } => {
                write!(
                    f,
                    "no double step of a {} pawn passes over it",
                    color.name()
                )
            }
            EnPassantFault::NoVictim { color, ends, board } => {
                let ends: Vec<String> = ends.iter().map(|&s| board.square_name(s)).collect();
                write!(
                    f,
                    "no {} pawn stands on {}, where a double step over it ends",
                    color.name(),
                    ends.join(" or ")
                )
            }
            EnPassantFault::OriginOccupied { victim, blocker } => write!(
                f,
                "{} could not have passed over it: {} stands where its double step starts",
                victim.describe(),
                blocker.describe()
            ),
            EnPassantFault::Ambiguous { first, second } => write!(
                f,
                "both {} and {} could have passed over it, and the FEN does not say which",
                first.describe(),
                second.describe()
            ),
        }
    }
}

/// One colour's pawn steps that en passant needs, in that colour's orientation.
#[derive(Clone, Debug, Default)]
struct PawnSteps {
    /// The `e` capture steps (plain leaps).
    ep_captures: Vec<(i8, i8)>,
    /// The double steps: (step, the one square passed over), both relative to the origin.
    double_steps: Vec<((i8, i8), (i8, i8))>,
    /// The rank double steps start from (the colour's second rank).
    initial_rank: i8,
}

/// The pawn steps of both colours that make and take en passant, on one board: what
/// [`Position`](super::Position) needs to play a double step or an e.p. capture without a
/// geometry at hand. Made once per checked position that has pawns, and shared by the
/// positions played from it.
#[derive(Clone, Debug)]
pub(crate) struct PawnRules {
    by_color: [PawnSteps; 2],
    board: BoardSize,
}

impl PawnRules {
    /// The rules of the set's pawn `P` on `board`, or `None` if the set has no pawn.
    pub(crate) fn new(pieces: &PieceSet, board: BoardSize) -> Option<PawnRules> {
        let pawn = pieces.get(PAWN)?;
        let steps_of = |steps: &[crate::piece::Step], initial_rank: i8| {
            let mut out = PawnSteps {
                initial_rank,
                ..PawnSteps::default()
            };
            for s in steps {
                if s.en_passant {
                    out.ep_captures.push((s.dx, s.dy));
                }
                if s.initial && s.kind == StepKind::Lame && s.mode.moves() {
                    if let Some(&[leg]) = s.lame_leg().as_deref() {
                        out.double_steps.push(((s.dx, s.dy), leg));
                    }
                }
            }
            out
        };
        Some(PawnRules {
            by_color: [
                steps_of(&pawn.steps, 1),
                steps_of(&pawn.steps_for_black(), board.ranks() as i8 - 2),
            ],
            board,
        })
    }

    fn offset(&self, from: Square, (dx, dy): (i8, i8)) -> Option<Square> {
        let b = self.board;
        b.square_at(b.file_of(from) + dx, b.rank_of(from) + dy)
    }

    /// Whether a pawn of `color` on `from` captures en passant onto `to` (by an `e` step).
    pub(crate) fn ep_capture(&self, color: Color, from: Square, to: Square) -> bool {
        self.by_color[color.index()]
            .ep_captures
            .iter()
            .any(|&d| self.offset(from, d) == Some(to))
    }

    /// The square passed over when a pawn of `color` goes from `from` to `to`, if that is
    /// one of its double steps and the square is empty (`occupied` says which are not): over
    /// a man, the lame double step is blocked, and the same move made by another step (a
    /// plain leap, `fmD`) gives no right.
    pub(crate) fn passed(
        &self,
        color: Color,
        from: Square,
        to: Square,
        occupied: impl Fn(Square) -> bool,
    ) -> Option<Square> {
        let steps = &self.by_color[color.index()];
        if self.board.rank_of(from) != steps.initial_rank {
            return None;
        }
        steps
            .double_steps
            .iter()
            .filter(|&&(d, _)| self.offset(from, d) == Some(to))
            .filter_map(|&(_, leg)| self.offset(from, leg))
            .find(|&leg| !occupied(leg))
    }

    /// The squares a pawn of `color` standing on `end` may have passed over: one for each of
    /// its double steps that ends there from its initial rank (the same square may come twice).
    pub(crate) fn passed_to(&self, color: Color, end: Square) -> impl Iterator<Item = Square> + '_ {
        let steps = &self.by_color[color.index()];
        steps
            .double_steps
            .iter()
            .filter_map(move |&((dx, dy), leg)| {
                let origin = self.offset(end, (-dx, -dy))?;
                (self.board.rank_of(origin) == steps.initial_rank)
                    .then(|| self.offset(origin, leg))
                    .flatten()
            })
    }

    /// Whether a pawn of `side` among `men` has an `e` capture onto `square` (pseudo-legal:
    /// its own royal may be left capturable).
    pub(super) fn capturable(&self, men: &[Man], side: Color, square: Square) -> bool {
        men.iter()
            .filter(|m| m.color == side && m.letter == PAWN)
            .any(|m| self.ep_capture(side, m.square, square))
    }

    /// Checks a FEN's en-passant `square` with `side` to move: the square a pawn of the other
    /// side passed over by the double step that was the last move. `Ok(None)` when it is good
    /// but no pawn of `side` has an `e` capture onto it (the right is dropped).
    pub(super) fn check(
        &self,
        men: &[Man],
        side: Color,
        square: Square,
    ) -> Result<Option<EnPassant>, EnPassantFault> {
        let man_at = |sq: Square| {
            men.binary_search_by_key(&sq, |m| m.square)
                .ok()
                .map(|i| men[i])
        };
        if let Some(man) = man_at(square) {
            return Err(EnPassantFault::Occupied { man });
        }
        let mover = side.flip();
        let steps = &self.by_color[mover.index()];
        // The double steps over `square`: (origin, end).
        let candidates: Vec<(Square, Square)> = steps
            .double_steps
            .iter()
            .filter_map(|&((dx, dy), (lx, ly))| {
                let origin = self.offset(square, (-lx, -ly))?;
                let end = self.offset(origin, (dx, dy))?;
                (self.board.rank_of(origin) == steps.initial_rank).then_some((origin, end))
            })
            .collect();
        if candidates.is_empty() {
            return Err(EnPassantFault::NotPassed { color: mover });
        }
        let pawns: Vec<(Square, Man)> = candidates
            .iter()
            .filter_map(|&(origin, end)| {
                man_at(end)
                    .filter(|m| m.color == mover && m.letter == PAWN)
                    .map(|m| (origin, m))
            })
            .collect();
        if pawns.is_empty() {
            let mut ends: Vec<Square> = candidates.iter().map(|&(_, end)| end).collect();
            ends.sort_unstable();
            return Err(EnPassantFault::NoVictim {
                color: mover,
                ends,
                board: self.board,
            });
        }
        let victims: Vec<Man> = pawns
            .iter()
            .filter(|&&(origin, _)| man_at(origin).is_none())
            .map(|&(_, m)| m)
            .collect();
        match victims[..] {
            [] => {
                let (origin, victim) = pawns[0];
                let blocker = man_at(origin).expect("the origin is occupied");
                Err(EnPassantFault::OriginOccupied { victim, blocker })
            }
            [first, second, ..] => Err(EnPassantFault::Ambiguous { first, second }),
            [victim] => Ok(self.capturable(men, side, square).then_some(EnPassant {
                square,
                victim: victim.square,
            })),
        }
    }
}

/// The pawn rules a position carries, if it has pawns. Two positions are equal, and hash
/// alike, whatever they carry here: the rules come from the geometry, which the methods that
/// take one require to be the position's.
#[derive(Clone, Debug, Default)]
pub(super) struct SharedRules(pub(super) Option<Arc<PawnRules>>);

impl PartialEq for SharedRules {
    fn eq(&self, _: &SharedRules) -> bool {
        true
    }
}

impl Eq for SharedRules {}

impl Hash for SharedRules {
    fn hash<H: Hasher>(&self, _: &mut H) {}
}
