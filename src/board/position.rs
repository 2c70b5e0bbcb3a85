//! The checked [`Position`], made from a [`Setup`] by [`Position::new`] or [`PositionError`]
//! saying why not; legal-move generation, check, playing a move, and checking that a move
//! read from text ([`Move::parse`]) is legal here.
//!
//! Rules (DESIGN.md §1): each side has exactly one royal man; a move is a piece's move (a leap,
//! or a ride stopped by the first occupied square, with the step's move/capture rights); a
//! capture takes an enemy man; a move that leaves one's own royal capturable is illegal; a
//! position where the side to move can capture the enemy royal is illegal. A pawn (`P`) never
//! stands on the first or last rank: reaching its last rank it becomes one of the geometry's
//! promotion pieces, one move per piece. No castling.
//!
//! En passant (see `en_passant.rs` for which steps make and take it): a position keeps the
//! side to move's right as the square passed over and the pawn that passed ([`EnPassant`]).
//! It is read from the FEN ([`Setup::en_passant`]) and checked: the square must be empty, a
//! pawn of the side that just moved must stand where one of its double steps over the square
//! ends, with the square it came from empty, and only one such pawn (Berolina can have two:
//! refused); else [`PositionError::BadEnPassant`] says why. The position before the double
//! step is not checked further (the side to move may be in a check the step could not have
//! given), as pyffish does. A good right is then kept only when a pawn of the side to move
//! has a pseudo-legal `e` capture onto the square, and dropped silently otherwise, so that
//! [`Position::to_setup`] writes `-`; [`Position::play`] gives the right after a double step
//! on the same condition and clears it after any other move. This is what pyffish's
//! `get_fen` writes for orthodox pawns (chess, capablanca) and python-chess's
//! `fen(en_passant="xfen")`. python-chess's `Board.ep_square` keeps the square after any
//! double step, and its default `fen()` and its repetition key keep it only for a *legal*
//! capture (with the capturer pinned on the rank it writes `-` where we write the square).
//! pyffish keeps a Berolina right even with no capturer and writes it as two squares, the
//! pawn's and the one passed (`e5d6`), where we write `d6`. Positions compare and hash with
//! their right. The e.p. capture removes the victim, which `captured` returns; its legality
//! accounts for both squares it empties (the rank pin, and a line through the victim's
//! square). A position after a Berolina double step whose square another pawn could also
//! have passed has a right its FEN cannot say: `to_setup` writes the square, which
//! `Position::new` refuses as ambiguous.

use super::en_passant::{EnPassant, EnPassantFault, PawnRules, SharedRules};
use super::geometry::{Geometry, MoveTables, PieceMoves};
use super::man::{piece_name, Man};
use super::move_text::{Move, MoveError};
use super::promotion::Promotion;
use super::setup::Setup;
use super::size::BoardSize;
use super::square::{Color, Square};
use super::square_set::{for_each_bit, SquareSet};
use crate::piece::PAWN;
use crate::with_tables;
use std::sync::Arc;
use thiserror::Error;

/// Why a [`Setup`] is not a legal [`Position`].
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum PositionError {
    /// No man at all.
    #[error("the board is empty")]
    EmptyBoard,
    /// The setup's board is not the geometry's.
    #[error("the position is on a {setup} board, but the pieces play on {geometry}")]
    OtherBoard {
        /// The setup's board.
        setup: BoardSize,
        /// The geometry's board.
        geometry: BoardSize,
    },
    /// A letter the piece definitions do not define.
    #[error("unknown piece letter '{letter}' ({} man on {}): it is not in the piece definitions", color.name(), board.square_name(*square))]
    UnknownLetter {
        /// The letter, upper case.
        letter: char,
        /// The man's side.
        color: Color,
        /// Where it stands.
        square: Square,
        /// The board.
        board: BoardSize,
    },
    /// A side has no man of its royal letter.
    #[error("{} has no {} (its royal piece, letter {letter})", color.name(), piece_name(*letter))]
    NoRoyal {
        /// The side.
        color: Color,
        /// Its royal letter.
        letter: char,
    },
    /// A side has two or more men of its royal letter.
    #[error("{} has more than one {} (on {} and {}): its royal piece must be unique", color.name(), piece_name(first.letter), first.board.square_name(first.square), second.board.square_name(second.square))]
    TwoRoyals {
        /// The side.
        color: Color,
        /// The first such man.
        first: Man,
        /// The second such man.
        second: Man,
    },
    /// A pawn on the first or last rank: it never stands there (it would have promoted).
    #[error("{} stands on the {} rank, where a pawn never stands", man.describe(), if man.board.rank_of(man.square) == 0 { "first" } else { "last" })]
    PawnOnEdgeRank {
        /// The pawn.
        man: Man,
    },
    /// The FEN's en-passant square is not one a pawn of the side that just moved passed over
    /// by a double step.
    #[error("bad en-passant square {}: {reason}", board.square_name(*square))]
    BadEnPassant {
        /// The square.
        square: Square,
        /// The board, for the square's name.
        board: BoardSize,
        /// Why.
        reason: EnPassantFault,
    },
    /// The side to move can capture the enemy royal.
    #[error("{} can be captured by {}, and {} is to move", royal.describe(), attacker.describe(), attacker.color.name())]
    RoyalCapturable {
        /// The enemy royal.
        royal: Man,
        /// A man of the side to move that attacks it.
        attacker: Man,
    },
}

/// A checked position: known letters, one royal per side, and the side to move cannot capture
/// the enemy royal. Its men's piece ids are those of the geometry it was checked with: the
/// methods that take a geometry must be given that one (or one of the same piece set and
/// board).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Position {
    /// Sorted by square.
    men: Vec<Man>,
    side: Color,
    /// Royal squares, White's then Black's (derived from `men`).
    royals: [Square; 2],
    board: BoardSize,
    /// The side to move's right to capture en passant, kept only when one of its pawns has an
    /// `e` capture onto the square.
    ep: Option<EnPassant>,
    /// The pawn steps that make and take en passant (when the position has pawns).
    pawn_rules: SharedRules,
}

/// A man's square and move tables.
type Attacker<'g, S> = (Square, &'g PieceMoves<S>);

/// Men per side kept on the stack by [`Position::with_attackers`]; more go to the heap.
const STACK_MEN: usize = 16;

/// The squares of the men (`occupied`), and of White's and Black's men.
#[derive(Clone, Copy)]
struct Sets<S> {
    occupied: S,
    by_color: [S; 2],
}

impl Position {
    /// Checks a setup against a geometry of the same board. `royals[0]` is White's royal
    /// letter, `royals[1]` Black's (either case): the side's one man with that letter is its
    /// royal. Each man's letter is looked up in the geometry's piece set here, once: the
    /// position's men carry its id.
    pub fn new(
        setup: &Setup,
        geometry: &Geometry,
        royals: [char; 2],
    ) -> Result<Position, PositionError> {
        let board = geometry.board();
        if setup.size != board {
            return Err(PositionError::OtherBoard {
                setup: setup.size,
                geometry: board,
            });
        }
        let royal_letters = royals.map(|c| c.to_ascii_uppercase());
        let mut men = Vec::new();
        for (square, color, letter) in setup.men() {
            let letter = letter.to_ascii_uppercase();
            let Some(piece) = geometry.pieces().id(letter) else {
                return Err(PositionError::UnknownLetter {
                    letter,
                    color,
                    square,
                    board,
                });
            };
            let royal = letter == royal_letters[color.index()];
            men.push(Man {
                color,
                piece,
                letter,
                royal,
                square,
                board,
            });
        }
        if men.is_empty() {
            return Err(PositionError::EmptyBoard);
        }
        let edge = |m: &&Man| [0, board.ranks() as i8 - 1].contains(&board.rank_of(m.square));
        if let Some(&man) = men.iter().filter(|m| m.letter == PAWN).find(edge) {
            return Err(PositionError::PawnOnEdgeRank { man });
        }
        let mut royal_squares = [0; 2];
        for color in Color::BOTH {
            let letter = royal_letters[color.index()];
            let mut found = men.iter().filter(|m| m.color == color && m.royal);
            match (found.next(), found.next()) {
                (None, _) => return Err(PositionError::NoRoyal { color, letter }),
                (Some(&first), Some(&second)) => {
                    return Err(PositionError::TwoRoyals {
                        color,
                        first,
                        second,
                    })
                }
                (Some(a), None) => royal_squares[color.index()] = a.square,
            }
        }
        let has_pawns = men.iter().any(|m| m.letter == PAWN);
        let rules = if has_pawns || setup.en_passant.is_some() {
            PawnRules::new(geometry.pieces(), board).map(Arc::new)
        } else {
            None
        };
        let ep = match setup.en_passant {
            None => None,
            Some(square) => {
                let bad = |reason| PositionError::BadEnPassant {
                    square,
                    board,
                    reason,
                };
                let rules = rules.as_ref().ok_or(bad(EnPassantFault::NoPawn))?;
                rules.check(&men, setup.side_to_move, square).map_err(bad)?
            }
        };
        let pos = Position {
            men,
            side: setup.side_to_move,
            royals: royal_squares,
            board,
            ep,
            pawn_rules: SharedRules(rules.filter(|_| has_pawns)),
        };
        let enemy_royal = pos.royals[pos.side.flip().index()];
        let attacker = with_tables!(geometry, |t| pos.with_attackers(t, pos.side, |att| {
            Self::first_attacker(att, enemy_royal, pos.sets().occupied, None)
        }));
        if let Some(sq) = attacker {
            let royal = *pos.man_at(enemy_royal).expect("the royal stands there");
            let attacker = *pos.man_at(sq).expect("the attacker stands there");
            return Err(PositionError::RoyalCapturable { royal, attacker });
        }
        Ok(pos)
    }

    /// The men, sorted by square.
    pub fn men(&self) -> &[Man] {
        &self.men
    }

    /// The side to move.
    pub fn side_to_move(&self) -> Color {
        self.side
    }

    /// The board.
    pub fn board(&self) -> BoardSize {
        self.board
    }

    /// The unchecked setup of this position (letters upper case), with the en-passant square
    /// when the side to move has the right.
    pub fn to_setup(&self) -> Setup {
        let mut setup = Setup::empty(self.board, self.side);
        for m in &self.men {
            setup.board[m.square as usize] = Some((m.color, m.letter));
        }
        setup.en_passant = self.ep.map(|e| e.square);
        setup
    }

    /// The side to move's right to capture en passant, if it has one (see the module doc).
    pub fn en_passant(&self) -> Option<EnPassant> {
        self.ep
    }

    /// The square of the pawn that `man`, a man of the side to move, takes en passant by
    /// going to `to`, if it does.
    fn ep_victim(&self, man: &Man, to: Square) -> Option<Square> {
        let (ep, rules) = (self.ep?, self.pawn_rules.0.as_ref()?);
        (to == ep.square
            && man.color == self.side
            && man.letter == PAWN
            && rules.ep_capture(man.color, man.square, to))
        .then_some(ep.victim)
    }

    /// The square of a side's royal man.
    pub fn royal(&self, c: Color) -> Square {
        self.royals[c.index()]
    }

    /// The man on a square, if any.
    pub fn man_at(&self, sq: Square) -> Option<&Man> {
        self.men
            .binary_search_by_key(&sq, |m| m.square)
            .ok()
            .map(|i| &self.men[i])
    }

    /// The occupied squares, all and by side, as sets of width `S`.
    #[inline]
    fn sets<S: SquareSet>(&self) -> Sets<S> {
        let mut by_color = [S::default(); 2];
        for m in &self.men {
            by_color[m.color.index()] |= S::bit(m.square);
        }
        Sets {
            occupied: by_color[0] | by_color[1],
            by_color,
        }
    }

    /// Calls `f` with the men of `color` and their move tables, by square.
    fn with_attackers<'g, S: SquareSet, R>(
        &self,
        t: &'g MoveTables<S>,
        color: Color,
        f: impl FnOnce(&[Attacker<'g, S>]) -> R,
    ) -> R {
        let mut men = self
            .men
            .iter()
            .filter(|m| m.color == color)
            .map(|m| (m.square, t.moves(m.piece, m.color)));
        if self.men.iter().filter(|m| m.color == color).count() <= STACK_MEN {
            let Some(first) = men.next() else {
                return f(&[]);
            };
            // The slots past the men stay copies of the first, never read.
            let mut out: [Attacker<'g, S>; STACK_MEN] = [first; STACK_MEN];
            let mut n = 1;
            for (slot, a) in out[1..].iter_mut().zip(men) {
                *slot = a;
                n += 1;
            }
            f(&out[..n])
        } else {
            let out: Vec<Attacker<'g, S>> = men.collect();
            f(&out)
        }
    }

    /// The first of `attackers` (by square, skipping the one on `captured`) that attacks
    /// `target` given `occupied`.
    fn first_attacker<S: SquareSet>(
        attackers: &[Attacker<'_, S>],
        target: Square,
        occupied: S,
        captured: Option<Square>,
    ) -> Option<Square> {
        attackers
            .iter()
            .find(|&&(sq, pm)| Some(sq) != captured && pm.attacks(sq, target, occupied))
            .map(|&(sq, _)| sq)
    }

    /// Whether the side to move's royal is attacked.
    pub fn in_check(&self, g: &Geometry) -> bool {
        with_tables!(g, |t| self.with_attackers(t, self.side.flip(), |att| {
            let occupied = self.sets().occupied;
            Self::first_attacker(att, self.royal(self.side), occupied, None).is_some()
        }))
    }

    /// The squares a man of the side to move can go to by its moves, legal or not (its own
    /// royal may be left capturable), the e.p. capture included. Several steps reaching one
    /// square give it once.
    fn targets<S: SquareSet>(&self, sets: Sets<S>, man: &Man, pm: &PieceMoves<S>) -> S {
        let from = man.square;
        let enemies = sets.by_color[self.side.flip().index()];
        let mut mask = S::default();
        for ray in pm.rays(from) {
            for &to in ray.squares() {
                if !sets.occupied.contains(to) {
                    if ray.mode.moves() {
                        mask |= S::bit(to);
                    }
                } else {
                    if ray.mode.captures() {
                        mask |= S::bit(to) & enemies;
                    }
                    break;
                }
            }
        }
        if !pm.is_plain() {
            let (quiet, captures) = pm.special_targets(from, sets.occupied);
            mask |= quiet | captures & enemies;
        }
        if let Some(ep) = self.ep {
            if self.ep_victim(man, ep.square).is_some() {
                mask |= S::bit(ep.square);
            }
        }
        mask
    }

    /// The enemy man (by square) that could capture the mover's royal after `mv`, which
    /// takes the man on `captured` (`mv.to`, or the e.p. victim), if any. Taking en passant
    /// empties two squares of the rank (or diagonal) at once: the victim's and the mover's.
    fn exposer<S: SquareSet>(
        &self,
        sets: Sets<S>,
        attackers: &[Attacker<'_, S>],
        mv: Move,
        captured: Square,
    ) -> Option<Square> {
        let occupied = (sets.occupied & !S::bit(mv.from) & !S::bit(captured)) | S::bit(mv.to);
        let own = self.royal(self.side);
        let royal = if mv.from == own { mv.to } else { own };
        Self::first_attacker(attackers, royal, occupied, Some(captured))
    }

    /// Whether `man`, going to `to`, is a pawn reaching its last rank.
    fn promotes(&self, man: &Man, to: Square) -> bool {
        man.letter == PAWN && self.board.rank_of(to) == self.board.last_rank(man.color)
    }

    /// All legal moves, sorted ascending by (from, to, promotion order); a pawn reaching its
    /// last rank gives one move per promotion piece of `g`.
    pub fn legal_moves(&self, g: &Geometry) -> Vec<Move> {
        with_tables!(g, |t| self.legal_moves_in(t, g.promotions()))
    }

    fn legal_moves_in<S: SquareSet>(
        &self,
        t: &MoveTables<S>,
        promotions: &[Promotion],
    ) -> Vec<Move> {
        let sets = self.sets::<S>();
        self.with_attackers(t, self.side.flip(), |att| {
            let mut out = Vec::with_capacity(32);
            for m in self.men.iter().filter(|m| m.color == self.side) {
                let pm = t.moves(m.piece, m.color);
                for_each_bit(self.targets(sets, m, pm), |to| {
                    let mv = Move::new(m.square, to, self.board);
                    let captured = self.ep_victim(m, to).unwrap_or(to);
                    if self.exposer(sets, att, mv, captured).is_some() {
                        return;
                    }
                    if self.promotes(m, to) {
                        out.extend(promotions.iter().map(|&p| mv.promoting(p)));
                    } else {
                        out.push(mv);
                    }
                });
            }
            out
        })
    }

    /// The man the move captures, if any: the one on its target square, or the pawn it takes
    /// en passant.
    pub fn captured(&self, mv: Move) -> Option<Man> {
        let ep = self.man_at(mv.from).and_then(|m| self.ep_victim(m, mv.to));
        self.man_at(ep.unwrap_or(mv.to)).copied()
    }

    /// Whether a move converts the material: a capture or a promotion.
    pub fn converts(&self, mv: Move) -> bool {
        mv.promotion.is_some() || self.captured(mv).is_some()
    }

    /// Whether a move resets the 50-move counter: a capture or a pawn's move.
    pub fn zeroes(&self, mv: Move) -> bool {
        self.captured(mv).is_some() || self.man_at(mv.from).is_some_and(|m| m.letter == PAWN)
    }

    /// The position after a legal move (the side to move flips). An e.p. capture removes its
    /// victim; a double step gives the opponent the e.p. right when one of its pawns has an
    /// `e` capture onto the square passed (pseudo-legal, as in [`Position::new`]); any other
    /// move leaves no right. For a move that is not legal the result is meaningless (the man on
    /// `from`, if any, goes to `to`, removing what stood there), but this never panics.
    pub fn play(&self, mv: Move) -> Position {
        let mut men = self.men.clone();
        let mover = self.man_at(mv.from).copied();
        let victim = mover.and_then(|m| self.ep_victim(&m, mv.to));
        let mut passed = None;
        if let (Some(m), Some(rules)) = (mover, self.pawn_rules.0.as_ref()) {
            if m.letter == PAWN && self.man_at(mv.to).is_none() {
                passed = rules.passed(m.color, mv.from, mv.to, |s| self.man_at(s).is_some());
            }
        }
        if mv.from != mv.to && mover.is_some() {
            men.retain(|m| m.square != mv.to && Some(m.square) != victim);
            for m in men.iter_mut() {
                if m.square == mv.from {
                    m.square = mv.to;
                    if let Some(p) = mv.promotion {
                        (m.piece, m.letter) = (p.piece, p.letter);
                    }
                }
            }
            men.sort_unstable_by_key(|m| m.square);
        }
        let mut royals = self.royals;
        for m in men.iter().filter(|m| m.royal) {
            royals[m.color.index()] = m.square;
        }
        let side = self.side.flip();
        let ep = passed.and_then(|square| {
            let rules = self.pawn_rules.0.as_ref()?;
            rules.capturable(&men, side, square).then_some(EnPassant {
                square,
                victim: mv.to,
            })
        });
        Position {
            men,
            side,
            royals,
            board: self.board,
            ep,
            pawn_rules: self.pawn_rules.clone(),
        }
    }

    /// Reads a move in coordinate notation (`d1d8`, `e7e8q`, squares and letter in either
    /// case) and checks that it is legal here, with a promotion letter exactly when a pawn
    /// reaches its last rank, naming one of `g`'s promotion pieces.
    pub fn parse_move(&self, text: &str, g: &Geometry) -> Result<Move, MoveError> {
        with_tables!(g, |t| self.parse_move_in(text, t, g.promotions()))
    }

    fn parse_move_in<S: SquareSet>(
        &self,
        text: &str,
        t: &MoveTables<S>,
        promotions: &[Promotion],
    ) -> Result<Move, MoveError> {
        let read = Move::parse(text, self.board)?;
        let (from, to) = (read.from, read.to);
        let mv = Move::new(from, to, self.board);
        let Some(man) = self.man_at(from).filter(|m| m.color == self.side) else {
            return Err(MoveError::NoOwnMan {
                color: self.side,
                square: from,
                board: self.board,
            });
        };
        let sets = self.sets::<S>();
        let pseudo = self
            .targets(sets, man, t.moves(man.piece, man.color))
            .contains(to);
        if !pseudo {
            let reason = match self.man_at(to) {
                Some(t) if t.color == self.side && to != from => {
                    format!(
                        "the {} cannot capture its own {}",
                        man.name_on(),
                        t.name_on()
                    )
                }
                _ => format!(
                    "the {} does not move to {}",
                    man.name_on(),
                    self.board.square_name(to)
                ),
            };
            return Err(MoveError::Illegal { mv, reason });
        }
        let captured = self.ep_victim(man, to).unwrap_or(to);
        let exposer = self.with_attackers(t, self.side.flip(), |att| {
            self.exposer(sets, att, mv, captured)
        });
        if let Some(sq) = exposer {
            let own = self.royal(self.side);
            let mut royal = self.man_at(own).copied();
            if let Some(r) = royal.as_mut() {
                if mv.from == own {
                    r.square = mv.to;
                }
            }
            let reason = match (royal, self.man_at(sq)) {
                (Some(r), Some(a)) => {
                    format!("it leaves {} capturable by {}", r.describe(), a.describe())
                }
                _ => "it leaves the royal capturable".to_string(),
            };
            return Err(MoveError::Illegal { mv, reason });
        }
        let allowed = || promotions.iter().map(|p| p.letter).collect::<String>();
        match (self.promotes(man, to), read.promotion) {
            (false, None) => Ok(mv),
            (false, Some(_)) => Err(MoveError::NotAPromotion {
                text: text.trim().to_string(),
            }),
            (true, None) => Err(MoveError::PromotionNeeded {
                text: text.trim().to_string(),
                allowed: allowed(),
            }),
            (true, Some(letter)) => match promotions.iter().find(|p| p.letter == letter) {
                Some(&p) => Ok(mv.promoting(p)),
                None => Err(MoveError::NotPromotionPiece {
                    letter: text.trim().chars().last().unwrap_or(letter),
                    allowed: allowed(),
                }),
            },
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const B8: BoardSize = BoardSize::STANDARD;
    use crate::board::Sym;
    use crate::piece::{PieceSet, PieceType, Step, StepMode};

    /// Every image of a step under the 8 board symmetries.
    fn sym8(dx: i8, dy: i8, range: u8, mode: StepMode) -> Vec<Step> {
        Sym::all()
            .map(|s| Step::plain(dx, dy, range, mode).transformed(s))
            .collect()
    }

    /// A hand-built piece set: K Q R B N A C F E W M H, plus X (captures like a ferz, moves
    /// like a wazir) and O (a pawn without promotion or double step: asymmetric).
    fn test_set() -> PieceSet {
        use StepMode::*;
        let p = |l: char, parts: Vec<Vec<Step>>| PieceType::new(l, parts.concat());
        PieceSet::new(vec![
            p('K', vec![sym8(1, 0, 1, Both), sym8(1, 1, 1, Both)]),
            p('M', vec![sym8(1, 0, 1, Both), sym8(1, 1, 1, Both)]),
            p('Q', vec![sym8(1, 0, 0, Both), sym8(1, 1, 0, Both)]),
            p('R', vec![sym8(1, 0, 0, Both)]),
            p('B', vec![sym8(1, 1, 0, Both)]),
            p('N', vec![sym8(1, 2, 1, Both)]),
            p('A', vec![sym8(1, 2, 1, Both), sym8(1, 1, 0, Both)]),
            p('C', vec![sym8(1, 2, 1, Both), sym8(1, 0, 0, Both)]),
            p('F', vec![sym8(1, 1, 1, Both)]),
            p('E', vec![sym8(2, 2, 1, Both)]),
            p('W', vec![sym8(1, 0, 1, Both)]),
            p('H', vec![sym8(1, 2, 0, Both)]),
            p(
                'X',
                vec![sym8(1, 1, 1, CaptureOnly), sym8(1, 0, 1, MoveOnly)],
            ),
            p(
                'O',
                vec![vec![
                    Step::plain(0, 1, 1, MoveOnly),
                    Step::plain(1, 1, 1, CaptureOnly),
                    Step::plain(-1, 1, 1, CaptureOnly),
                ]],
            ),
        ])
    }

    fn geo() -> Geometry {
        Geometry::new(&test_set())
    }

    fn pos(fen: &str, g: &Geometry) -> Position {
        Position::new(&Setup::from_fen(fen, B8).unwrap(), g, ['K', 'K']).unwrap()
    }

    pub(super) fn texts(moves: &[Move]) -> Vec<String> {
        moves.iter().map(|m| m.text()).collect()
    }

    #[test]
    fn kq_k_counts() {
        let g = geo();
        // King a1: a2 b1 b2 (3); queen d4: file 7, rank 7, diagonals 2+4 and 3+3 (26).
        let p = pos("8/7k/8/8/3Q4/8/8/K7 w", &g);
        let moves = p.legal_moves(&g);
        assert_eq!(moves.len(), 29, "{:?}", texts(&moves));
        assert!(!p.in_check(&g));
        assert!(moves.windows(2).all(|w| w[0] < w[1]));
        // Black to move, in check along the long diagonal: Kg8 and Kh7 only.
        let p = pos("7k/8/8/8/3Q4/8/8/K7 b", &g);
        assert!(p.in_check(&g));
        assert_eq!(texts(&p.legal_moves(&g)), ["h8h7", "h8g8"]);
    }

    #[test]
    fn knight_in_corner() {
        let g = geo();
        let p = pos("7k/8/8/8/8/8/8/N6K w", &g);
        assert_eq!(
            texts(&p.legal_moves(&g)),
            ["a1c2", "a1b3", "h1g1", "h1g2", "h1h2"]
        );
    }

    #[test]
    fn nightrider() {
        let g = geo();
        let p = pos("7k/8/8/8/8/8/8/H6K w", &g);
        // (1,2): b3 c5 d7; (2,1): c2 e3 g4; king 3.
        assert_eq!(p.legal_moves(&g).len(), 9);
        // A black knight on c5 stops the first ride there (capture).
        let p = pos("7k/8/8/2n5/8/8/8/H6K w", &g);
        let moves = texts(&p.legal_moves(&g));
        assert_eq!(
            moves,
            ["a1c2", "a1b3", "a1e3", "a1g4", "a1c5", "h1g1", "h1g2", "h1h2"]
        );
        let c5 = p.captured(Move::new(0, 34, B8)).unwrap();
        assert_eq!((c5.color, c5.letter, c5.royal), (Color::Black, 'N', false));
    }

    #[test]
    fn capture_only_and_move_only() {
        let g = geo();
        // X on d4: moves (not captures) orthogonally, captures (only) diagonally.
        // d5 holds a black ferz: blocked, not capturable; c5 black knight: capturable.
        let p = pos("7k/8/8/2nf4/3X4/8/8/K7 w", &g);
        let x: Vec<_> = p
            .legal_moves(&g)
            .into_iter()
            .filter(|m| m.from == 27)
            .collect();
        assert_eq!(texts(&x), ["d4d3", "d4c4", "d4e4", "d4c5"]);
        assert_eq!(p.legal_moves(&g).len(), 7);
        // Black's O moves down the board; captures diagonally downwards only.
        let p = pos("7k/8/8/3o4/4N3/8/8/K7 b", &g);
        assert_eq!(
            texts(&p.legal_moves(&g)),
            ["d5d4", "d5e4", "h8g7", "h8h7", "h8g8"]
        );
    }

    #[test]
    fn overlapping_steps_give_each_move_once() {
        use StepMode::*;
        // T: wazir rider of range 2 plus dabbaba leap (both reach c1 from a1).
        let mut set = test_set();
        set.insert(PieceType::new(
            'T',
            [sym8(1, 0, 2, Both), sym8(2, 0, 1, Both)].concat(),
        ));
        // V: non-capturing bishop rider plus capture-only alfil leap.
        set.insert(PieceType::new(
            'V',
            [sym8(1, 1, 0, MoveOnly), sym8(2, 2, 1, CaptureOnly)].concat(),
        ));
        let g = Geometry::new(&set);
        let p = pos("7k/8/8/8/8/8/8/T6K w", &g);
        let t: Vec<_> = p
            .legal_moves(&g)
            .into_iter()
            .filter(|m| m.from == 0)
            .collect();
        assert_eq!(texts(&t), ["a1b1", "a1c1", "a1a2", "a1a3"]);
        // V on a1: b2 c3 ... g7 by the rider (h8 holds the king: no capture by the rider),
        // c3 again by the leap but only as a capture: a black man on c3 stops the rider there
        // and is captured by the leap.
        let p = pos("7k/8/8/8/8/2n5/8/V6K w", &g);
        let v: Vec<_> = p
            .legal_moves(&g)
            .into_iter()
            .filter(|m| m.from == 0)
            .collect();
        assert_eq!(texts(&v), ["a1b2", "a1c3"]);
        let p = pos("8/7k/8/8/8/8/8/V6K w", &g);
        let v: Vec<_> = p
            .legal_moves(&g)
            .into_iter()
            .filter(|m| m.from == 0)
            .collect();
        assert_eq!(
            texts(&v),
            ["a1b2", "a1c3", "a1d4", "a1e5", "a1f6", "a1g7", "a1h8"]
        );
    }

    #[test]
    fn pinned_rook() {
        let g = geo();
        let p = pos("k3r3/8/8/8/8/8/4R3/4K3 w", &g);
        let moves = texts(&p.legal_moves(&g));
        assert_eq!(
            moves,
            ["e1d1", "e1f1", "e1d2", "e1f2", "e2e3", "e2e4", "e2e5", "e2e6", "e2e7", "e2e8"]
        );
        let err = p.parse_move("e2d2", &g).unwrap_err();
        assert_eq!(
            err.to_string(),
            "illegal move e2d2: it leaves White's king on e1 capturable by Black's rook on e8"
        );
    }

    #[test]
    fn mate_and_stalemate() {
        let g = geo();
        let mate = pos("7k/6Q1/6K1/8/8/8/8/8 b", &g);
        assert!(mate.in_check(&g));
        assert!(mate.legal_moves(&g).is_empty());
        let stalemate = pos("7k/5Q2/6K1/8/8/8/8/8 b", &g);
        assert!(!stalemate.in_check(&g));
        assert!(stalemate.legal_moves(&g).is_empty());
    }

    #[test]
    fn position_errors() {
        let g = geo();
        let new = |fen: &str, royals: [char; 2]| {
            Position::new(&Setup::from_fen(fen, B8).unwrap(), &g, royals).unwrap_err()
        };
        assert_eq!(
            new("8/8/8/8/8/8/8/8 w", ['K', 'K']),
            PositionError::EmptyBoard
        );
        let e = new("7k/8/8/8/4Z3/8/8/K7 w", ['K', 'K']);
        assert_eq!(
            e,
            PositionError::UnknownLetter {
                letter: 'Z',
                color: Color::White,
                square: 28,
                board: B8
            }
        );
        assert!(e.to_string().contains("'Z'") && e.to_string().contains("e4"));
        let e = new("8/8/8/8/8/8/8/K7 w", ['K', 'K']);
        assert_eq!(
            e.to_string(),
            "Black has no king (its royal piece, letter K)"
        );
        let e = new("7k/8/8/8/8/8/8/KK6 w", ['K', 'K']);
        assert!(matches!(
            e,
            PositionError::TwoRoyals { color: Color::White, first, second }
                if (first.square, second.square, first.letter) == (0, 1, 'K')
        ));
        assert_eq!(
            e.to_string(),
            "White has more than one king (on a1 and b1): its royal piece must be unique"
        );
        let capa = Setup::from_fen("9k/10/10/10/10/10/10/K9 w", BoardSize::new(10, 8).unwrap());
        assert!(matches!(
            Position::new(&capa.unwrap(), &g, ['K', 'K']),
            Err(PositionError::OtherBoard { .. })
        ));
        let e = new("4k3/8/8/8/8/8/8/K3Q3 w", ['K', 'K']);
        assert_eq!(
            e.to_string(),
            "Black's king on e8 can be captured by White's queen on e1, and White is to move"
        );
        // The same with Black to move is fine (Black is in check).
        assert!(Position::new(
            &Setup::from_fen("4k3/8/8/8/8/8/8/K3Q3 b", B8).unwrap(),
            &g,
            ['K', 'K']
        )
        .is_ok());
        // A royal that is not a king: in NKQ.KQ White's royal is the knight.
        let setup = Setup::from_fen("4k3/8/8/8/8/8/8/NK1Q4 w", B8).unwrap();
        let p = Position::new(&setup, &g, ['N', 'K']).unwrap();
        assert_eq!(p.royal(Color::White), 0);
        assert_eq!(p.royal(Color::Black), 60);
        assert_eq!(p.to_setup(), setup);
        let e = new("3qk3/8/8/8/8/8/1N6/NK6 w", ['n', 'k']);
        assert!(
            e.to_string()
                .contains("more than one knight (on a1 and b2)"),
            "{e}"
        );
        let e = new("4k3/8/8/8/8/1n6/8/NK6 b", ['N', 'K']);
        assert_eq!(
            e.to_string(),
            "White's royal knight on a1 can be captured by Black's knight on b3, and Black is to move"
        );
    }

    #[test]
    fn play_and_parse() {
        let g = geo();
        let p = pos("k3r3/8/8/8/8/8/4R3/4K3 w", &g);
        let mv = p.parse_move(" E2E8 ", &g).unwrap();
        assert_eq!(mv, Move::new(12, 60, B8));
        assert_eq!(mv.to_string(), "e2e8");
        assert_eq!(p.captured(mv).map(|m| m.letter), Some('R'));
        let q = p.play(mv);
        assert_eq!(q.side_to_move(), Color::Black);
        assert_eq!(q.to_setup().to_fen(), "k3R3/8/8/8/8/8/8/4K3 b - - 0 1");
        assert_eq!(q.men().len(), 3);
        assert_eq!(Position::new(&q.to_setup(), &g, ['K', 'K']), Ok(q.clone()));
        let r = q.play(q.parse_move("a8b7", &g).unwrap());
        assert_eq!(r.royal(Color::Black), 49);
        assert_eq!(r.side_to_move(), Color::White);
        assert_eq!(p.captured(Move::new(4, 3, B8)), None);

        let err = |t: &str| p.parse_move(t, &g).unwrap_err().to_string();
        assert_eq!(
            err("e2"),
            "malformed move 'e2': expected coordinate notation such as d1d8"
        );
        assert_eq!(err("d4d5"), "White has no man on d4");
        assert_eq!(err("e8e7"), "White has no man on e8");
        assert_eq!(
            err("e2f3"),
            "illegal move e2f3: the rook on e2 does not move to f3"
        );
        assert_eq!(
            err("e2e2"),
            "illegal move e2e2: the rook on e2 does not move to e2"
        );
        assert_eq!(
            err("e1e2"),
            "illegal move e1e2: the king on e1 cannot capture its own rook on e2"
        );
        let p = pos("k7/8/8/8/8/8/4r3/4K3 w", &g);
        assert_eq!(
            p.parse_move("e1d2", &g).unwrap_err().to_string(),
            "illegal move e1d2: it leaves White's king on d2 capturable by Black's rook on e2"
        );
        assert_eq!(p.parse_move("e1e2", &g), Ok(Move::new(4, 12, B8)));
        // play never panics on nonsense.
        let _ = p.play(Move::new(40, 41, B8));
        let _ = p.play(Move::new(4, 4, B8));
        let _ = p.play(Move::new(4, 0, B8));
    }
}

#[cfg(test)]
mod pawn_tests {
    use super::*;
    use crate::piece::betza::parse_betza;
    use crate::piece::{PieceSet, PieceType};

    /// The standard pieces with the pawn of `betza`, on `board`.
    fn geometry(betza: &str, board: BoardSize) -> Geometry {
        let mut set = PieceSet::standard();
        set.insert(PieceType::new('P', parse_betza(betza).unwrap()));
        Geometry::on(&set, board)
    }

    fn pos(fen: &str, g: &Geometry) -> Result<Position, PositionError> {
        Position::new(&Setup::from_fen(fen, g.board()).unwrap(), g, ['K', 'K'])
    }

    /// The legal moves of the man on `from`, as text.
    fn moves_from(p: &Position, g: &Geometry, from: &str) -> Vec<String> {
        let mut moves = super::tests::texts(&p.legal_moves(g));
        moves.retain(|t| t.starts_with(from));
        moves
    }

    #[test]
    fn a_pawn_promotes_to_each_promotion_piece_in_order() {
        let g = geometry("fmWfceFifmnD", BoardSize::STANDARD);
        let p = pos("1r5k/P7/8/8/8/8/8/7K w", &g).unwrap();
        let pawn = moves_from(&p, &g, "a7");
        assert_eq!(
            pawn,
            ["a7a8q", "a7a8r", "a7a8b", "a7a8n", "a7b8q", "a7b8r", "a7b8b", "a7b8n"]
        );
        let moves = p.legal_moves(&g);
        assert!(moves.windows(2).all(|w| w[0] < w[1]));
        let mv = p.parse_move("A7B8N", &g).unwrap();
        assert!(p.converts(mv));
        let after = p.play(mv);
        let knight = after.man_at(mv.to).unwrap();
        assert_eq!((knight.letter, knight.color), ('N', Color::White));
        assert_eq!(knight.piece, g.pieces().id('N').unwrap());
        assert!(after.man_at(mv.from).is_none());
        // Black promotes on the first rank; on 10×8 also to A and C.
        let capa = geometry("fmWfceFifmnD", BoardSize::new(10, 8).unwrap());
        let p = pos("9k/10/10/10/10/10/p9/9K b", &capa).unwrap();
        let pawn = moves_from(&p, &capa, "a2");
        assert_eq!(pawn, ["a2a1q", "a2a1r", "a2a1b", "a2a1n", "a2a1a", "a2a1c"]);
        assert_eq!(p.parse_move("a2a1c", &capa).unwrap().text(), "a2a1c");
        // With a promotion list of one's own.
        let g = g.with_promotions("NQ").unwrap();
        let p = pos("7k/P7/8/8/8/8/8/7K w", &g).unwrap();
        let pawn = moves_from(&p, &g, "a7");
        assert_eq!(pawn, ["a7a8n", "a7a8q"]);
        // Not a promotion: a push and a double step convert nothing.
        let p = pos("7k/8/8/8/8/8/4P3/7K w", &g).unwrap();
        let pawn = moves_from(&p, &g, "e2");
        assert_eq!(pawn, ["e2e3", "e2e4"]);
        assert!(!p.converts(p.parse_move("e2e4", &g).unwrap()));
    }

    #[test]
    fn promotion_text_errors() {
        let g = geometry("fmWfceFifmnD", BoardSize::STANDARD);
        let p = pos("7k/P7/8/8/8/8/4P3/7K w", &g).unwrap();
        let err = |t: &str| p.parse_move(t, &g).unwrap_err();
        assert_eq!(
            err("a7a8"),
            MoveError::PromotionNeeded {
                text: "a7a8".into(),
                allowed: "QRBN".into()
            }
        );
        assert!(err("a7a8").to_string().contains("e.g. a7a8q"));
        assert_eq!(
            err("a7a8k"),
            MoveError::NotPromotionPiece {
                letter: 'k',
                allowed: "QRBN".into()
            }
        );
        assert_eq!(
            err("a7a8p"),
            MoveError::NotPromotionPiece {
                letter: 'p',
                allowed: "QRBN".into()
            }
        );
        assert_eq!(
            err("e2e4q"),
            MoveError::NotAPromotion {
                text: "e2e4q".into()
            }
        );
        assert_eq!(
            err("h1h2q"),
            MoveError::NotAPromotion {
                text: "h1h2q".into()
            }
        );
        assert!(matches!(err("e2e5"), MoveError::Illegal { .. }));
    }

    #[test]
    fn a_pawn_never_stands_on_its_first_or_last_rank() {
        let g = geometry("fmWfceFifmnD", BoardSize::STANDARD);
        for (fen, square) in [
            ("P6k/8/8/8/8/8/8/7K w", "a8"),
            ("7k/8/8/8/8/8/8/P6K w", "a1"),
            ("p6k/8/8/8/8/8/8/7K w", "a8"),
            ("7k/8/8/8/8/8/8/p6K b", "a1"),
        ] {
            let Err(PositionError::PawnOnEdgeRank { man }) = pos(fen, &g) else {
                panic!("{fen} is refused");
            };
            assert_eq!(g.board().square_name(man.square), square, "{fen}");
            assert!(pos(fen, &g)
                .unwrap_err()
                .to_string()
                .contains("where a pawn never stands"));
        }
        assert!(pos("7k/p7/8/8/8/8/P7/7K w", &g).is_ok());
    }

    #[test]
    fn the_berolina_pawn_as_written() {
        let g = geometry("fmFfceWifmnA", BoardSize::STANDARD);
        // On its second rank: the diagonal steps and the lame double steps; it captures
        // straight ahead only.
        let p = pos("7k/8/8/8/8/8/3P4/7K w", &g).unwrap();
        let pawn = moves_from(&p, &g, "d2");
        assert_eq!(pawn, ["d2c3", "d2e3", "d2b4", "d2f4"]);
        let p = pos("7k/8/8/8/8/2n1n3/3P4/7K w", &g).unwrap();
        let pawn = moves_from(&p, &g, "d2");
        assert!(pawn.is_empty(), "{pawn:?}");
        let p = pos("7k/8/8/8/8/3n4/3P4/7K w", &g).unwrap();
        let pawn = moves_from(&p, &g, "d2");
        assert_eq!(pawn, ["d2c3", "d2d3", "d2e3", "d2b4", "d2f4"]);
    }
}

#[cfg(test)]
mod en_passant_tests {
    use super::*;
    use crate::piece::betza::parse_betza;
    use crate::piece::{PieceSet, PieceType};
    use crate::test_data::cases;

    const ORTHODOX: &str = "fmWfceFifmnD";
    const BEROLINA: &str = "fmFfceWifmnA";

    fn geometry(betza: &str, board: BoardSize) -> Geometry {
        let mut set = PieceSet::standard();
        set.insert(PieceType::new('P', parse_betza(betza).unwrap()));
        Geometry::on(&set, board)
    }

    fn chess() -> Geometry {
        geometry(ORTHODOX, BoardSize::STANDARD)
    }

    fn berolina() -> Geometry {
        geometry(BEROLINA, BoardSize::STANDARD)
    }

    fn pos(fen: &str, g: &Geometry) -> Result<Position, PositionError> {
        Position::new(&Setup::from_fen(fen, g.board()).unwrap(), g, ['K', 'K'])
    }

    fn fen(p: &Position) -> String {
        p.to_setup().to_fen()
    }

    fn sq(name: &str) -> Square {
        BoardSize::STANDARD.parse_square(name).unwrap()
    }

    fn moves_from(p: &Position, g: &Geometry, from: &str) -> Vec<String> {
        let mut moves = super::tests::texts(&p.legal_moves(g));
        moves.retain(|t| t.starts_with(from));
        moves
    }

    /// Plays `text` (checked legal) and checks that the result reads back from its FEN.
    fn play(p: &Position, g: &Geometry, text: &str) -> Position {
        let q = p.play(p.parse_move(text, g).unwrap());
        assert_eq!(pos(&fen(&q), g).as_ref(), Ok(&q), "{text} from {}", fen(p));
        q
    }

    #[test]
    fn bad_en_passant_squares() {
        for case in cases("en_passant_faults.txt") {
            let [pawn, fen, message] = &case[..] else {
                panic!("{case:?}: expected 3 fields");
            };
            let g = match pawn.as_str() {
                "chess" => chess(),
                "capablanca" => geometry(ORTHODOX, BoardSize::new(10, 8).unwrap()),
                "berolina" => berolina(),
                "none" => {
                    let standard = PieceSet::standard();
                    let pieces = standard.iter().filter(|p| !p.is_pawn()).cloned();
                    Geometry::new(&PieceSet::new(pieces.collect()))
                }
                other => panic!("unknown pawn {other}"),
            };
            let e = pos(fen, &g).unwrap_err();
            let square = g
                .board()
                .parse_square(fen.split(' ').nth(3).unwrap())
                .unwrap();
            assert!(
                matches!(e, PositionError::BadEnPassant { square: s, .. } if s == square),
                "{fen}: {e:?}"
            );
            assert_eq!(&e.to_string(), message, "{fen}");
        }
    }

    #[test]
    fn the_right_is_kept_only_when_a_pawn_can_take() {
        let g = chess();
        // No white pawn reaches d6: the right goes, and the FEN writes '-' (as pyffish's
        // get_fen and python-chess's fen() do).
        let p = pos("4k3/8/8/3p4/8/8/8/4K3 w - d6 0 1", &g).unwrap();
        assert_eq!(p.en_passant(), None);
        assert_eq!(fen(&p), "4k3/8/8/3p4/8/8/8/4K3 w - - 0 1");
        assert_eq!(p, pos("4k3/8/8/3p4/8/8/8/4K3 w - - 0 1", &g).unwrap());
        // A white pawn on b5 or d4 does not reach d6 by fceF either.
        let p = pos("4k3/8/8/1P1p4/3P4/8/8/4K3 w - d6 0 1", &g).unwrap();
        assert_eq!(p.en_passant(), None);
        // e5 does: the right stays, the FEN keeps d6, and the position differs from the same
        // men without the right.
        let p = pos("4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 1", &g).unwrap();
        let right = EnPassant {
            square: sq("d6"),
            victim: sq("d5"),
        };
        assert_eq!(p.en_passant(), Some(right));
        assert_eq!(fen(&p), "4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 1");
        let without = pos("4k3/8/8/3pP3/8/8/8/4K3 w - - 0 1", &g).unwrap();
        assert_ne!(p, without);
        assert_eq!(moves_from(&p, &g, "e5"), ["e5d6", "e5e6"]);
        assert_eq!(moves_from(&without, &g, "e5"), ["e5e6"]);
        // Pseudo-legal is enough: pinned on the rank, e5 keeps the right it cannot use (as
        // pyffish's get_fen and python-chess's fen(en_passant="xfen") do; python-chess's
        // default fen() drops it).
        let p = pos("8/8/8/K2pP2r/8/8/8/7k w - d6 0 1", &g).unwrap();
        assert_eq!(p.en_passant(), Some(right));
        assert_eq!(fen(&p), "8/8/8/K2pP2r/8/8/8/7k w - d6 0 1");
    }

    #[test]
    fn the_rank_pin() {
        let g = chess();
        // Taking d5 en passant empties d5 and e5 at once: the rook on h5 then sees a5.
        let p = pos("8/8/8/K2pP2r/8/8/8/7k w - d6 0 1", &g).unwrap();
        assert_eq!(moves_from(&p, &g, "e5"), ["e5e6"]);
        assert_eq!(
            p.parse_move("e5d6", &g).unwrap_err().to_string(),
            "illegal move e5d6: it leaves White's king on a5 capturable by Black's rook on h5"
        );
        // The same for Black, with a queen.
        let p = pos("8/8/8/8/k2Pp2Q/8/8/7K b - d3 0 1", &g).unwrap();
        assert_eq!(moves_from(&p, &g, "e4"), ["e4e3"]);
        // Any man that captures along the rank: a cannon (O, mRcpR) on h5 hops e5 onto d5
        // (its own pawn) before; after the capture it hops the knight on c5 onto a5.
        let p = pos("7k/8/8/K1NpP2o/8/8/8/8 w - d6 0 1", &g).unwrap();
        assert!(!p.in_check(&g));
        assert_eq!(moves_from(&p, &g, "e5"), ["e5e6"]);
        // Without the knight it is the push that leaves d5 alone as the cannon's screen.
        let p = pos("7k/8/8/K2pP2o/8/8/8/8 w - d6 0 1", &g).unwrap();
        assert_eq!(moves_from(&p, &g, "e5"), ["e5d6"]);
        // Without the rook the capture is legal; with another man between, too.
        let p = pos("8/8/8/K2pP3/8/8/8/7k w - d6 0 1", &g).unwrap();
        assert_eq!(moves_from(&p, &g, "e5"), ["e5d6", "e5e6"]);
        let p = pos("8/8/8/K2pP1Nr/8/8/8/7k w - d6 0 1", &g).unwrap();
        assert_eq!(moves_from(&p, &g, "e5"), ["e5d6", "e5e6"]);
        // The pawn that just stepped gives check: taking it en passant ends the check.
        let p = pos("7k/8/8/3pP3/4K3/8/8/8 w - d6 0 1", &g).unwrap();
        assert!(p.in_check(&g));
        assert_eq!(moves_from(&p, &g, "e5"), ["e5d6"]);
        // Removing the victim opens its diagonal too: the bishop on a8 then sees h1.
        let p = pos("b6k/8/8/3pP3/8/8/8/7K w - d6 0 1", &g).unwrap();
        assert_eq!(moves_from(&p, &g, "e5"), ["e5e6"]);
        // The capturer pinned on a diagonal may capture along it, onto the square passed.
        let p = pos("7k/2b5/8/3pP3/5K2/8/8/8 w - d6 0 1", &g).unwrap();
        assert_eq!(moves_from(&p, &g, "e5"), ["e5d6"]);
        // Pinned on a diagonal the square passed is not on, it may not.
        let p = pos("7k/6b1/8/3pP3/8/2K5/8/8 w - d6 0 1", &g).unwrap();
        assert!(moves_from(&p, &g, "e5").is_empty());
    }

    #[test]
    fn an_en_passant_capture_takes_the_pawn_that_stepped() {
        let g = chess();
        let p = pos("4k3/8/8/2PpP3/8/8/8/4K3 w - d6 0 1", &g).unwrap();
        assert_eq!(moves_from(&p, &g, "c5"), ["c5c6", "c5d6"]);
        let mv = p.parse_move("e5d6", &g).unwrap();
        assert_eq!(mv, Move::new(sq("e5"), sq("d6"), g.board()));
        let taken = p.captured(mv).unwrap();
        assert_eq!(
            (taken.color, taken.letter, taken.square),
            (Color::Black, 'P', sq("d5"))
        );
        assert!(p.converts(mv));
        assert!(!p.converts(p.parse_move("e5e6", &g).unwrap()));
        let q = play(&p, &g, "e5d6");
        assert_eq!(fen(&q), "4k3/8/3P4/2P5/8/8/8/4K3 b - - 0 1");
        assert_eq!(q.en_passant(), None);
        // Any other move gives the right up.
        let q = play(&p, &g, "e1d1");
        assert_eq!(q.en_passant(), None);
        assert_eq!(fen(&q), "4k3/8/8/2PpP3/8/8/8/3K4 b - - 0 1");
        // Without the right, e5 to d6 is no move.
        let p = pos("4k3/8/8/3pP3/8/8/8/4K3 w - - 0 1", &g).unwrap();
        assert!(p.parse_move("e5d6", &g).is_err());
        assert_eq!(p.captured(Move::new(sq("e5"), sq("d6"), g.board())), None);
    }

    #[test]
    fn a_double_step_gives_the_right_when_a_pawn_can_take() {
        let g = chess();
        let p = pos("4k3/8/8/8/4p3/8/3P4/4K3 w - - 0 1", &g).unwrap();
        let q = play(&p, &g, "d2d4");
        assert_eq!(
            q.en_passant(),
            Some(EnPassant {
                square: sq("d3"),
                victim: sq("d4")
            })
        );
        assert_eq!(fen(&q), "4k3/8/8/8/3Pp3/8/8/4K3 b - d3 0 1");
        assert_eq!(moves_from(&q, &g, "e4"), ["e4d3", "e4e3"]);
        let r = play(&q, &g, "e4d3");
        assert_eq!(fen(&r), "4k3/8/8/8/8/3p4/8/4K3 w - - 0 1");
        // The right lasts one move.
        let r = play(&q, &g, "e8d8");
        assert_eq!(r.en_passant(), None);
        assert_eq!(fen(&r), "3k4/8/8/8/3Pp3/8/8/4K3 w - - 0 1");
        // A single step, or a double step no black pawn can take, gives none.
        assert_eq!(play(&p, &g, "d2d3").en_passant(), None);
        let p = pos("4k3/8/8/8/6p1/8/3P4/4K3 w - - 0 1", &g).unwrap();
        let q = play(&p, &g, "d2d4");
        assert_eq!(q.en_passant(), None);
        assert_eq!(fen(&q), "4k3/8/8/8/3P2p1/8/8/4K3 b - - 0 1");
        // Black's double step; the capturer pinned on the rank still gets the right
        // (pseudo-legal), and cannot use it.
        let p = pos("4k3/3p4/8/K3P2r/8/8/8/8 b - - 0 1", &g).unwrap();
        let q = play(&p, &g, "d7d5");
        assert_eq!(fen(&q), "4k3/8/8/K2pP2r/8/8/8/8 w - d6 0 1");
        assert_eq!(moves_from(&q, &g, "e5"), ["e5e6"]);
        // On 10x8 alike.
        let capa = geometry(ORTHODOX, BoardSize::new(10, 8).unwrap());
        let p = pos("4k5/9p/10/8P1/10/10/10/4K5 b - - 0 1", &capa).unwrap();
        let q = play(&p, &capa, "j7j5");
        assert_eq!(fen(&q), "4k5/10/10/8Pp/10/10/10/4K5 w - j6 0 1");
        assert_eq!(moves_from(&q, &capa, "i5"), ["i5i6", "i5j6"]);
        assert_eq!(
            fen(&play(&q, &capa, "i5j6")),
            "4k5/10/9P/10/10/10/10/4K5 b - - 0 1"
        );
    }

    /// A pawn that also leaps two squares forward (`fmD`, not lame) makes its double step's
    /// move over a man too, but then by the leap, which gives no right (its e.p. capture
    /// would land on that man; found by `fuzz_builds`).
    #[test]
    fn a_leap_over_a_man_gives_no_right() {
        let g = geometry("fmWfmDfceFifmnD", BoardSize::STANDARD);
        let p = pos("4k3/8/8/8/4p3/3n4/3P4/7K w - - 0 1", &g).unwrap();
        let q = play(&p, &g, "d2d4");
        assert_eq!(q.en_passant(), None);
        assert_eq!(fen(&q), "4k3/8/8/8/3Pp3/3n4/8/7K b - - 0 1");
        // No capture onto d3, where Black's own knight stands.
        assert_eq!(moves_from(&q, &g, "e4"), ["e4e2", "e4e3"]);
        // Over an empty square the same move is the double step.
        let p = pos("4k3/8/8/8/4p3/8/3P4/7K w - - 0 1", &g).unwrap();
        let q = play(&p, &g, "d2d4");
        assert_eq!(fen(&q), "4k3/8/8/8/3Pp3/8/8/7K b - d3 0 1");
    }

    #[test]
    fn berolina_takes_the_pawn_diagonally_ahead_of_the_square() {
        let g = berolina();
        // c7-e5 passes d6; the white pawn on d5 captures straight ahead onto d6 and takes e5.
        let p = pos("4k3/2p5/8/3P4/8/8/8/4K3 b - - 0 1", &g).unwrap();
        let q = play(&p, &g, "c7e5");
        assert_eq!(
            q.en_passant(),
            Some(EnPassant {
                square: sq("d6"),
                victim: sq("e5")
            })
        );
        assert_eq!(fen(&q), "4k3/8/8/3Pp3/8/8/8/4K3 w - d6 0 1");
        assert_eq!(moves_from(&q, &g, "d5"), ["d5c6", "d5d6", "d5e6"]);
        let mv = q.parse_move("d5d6", &g).unwrap();
        assert_eq!(q.captured(mv).map(|m| m.square), Some(sq("e5")));
        let r = play(&q, &g, "d5d6");
        assert_eq!(fen(&r), "4k3/8/3P4/8/8/8/8/4K3 b - - 0 1");
        // The same square from the FEN.
        let p = pos("4k3/8/8/3Pp3/8/8/8/4K3 w - d6 0 1", &g).unwrap();
        assert_eq!(p, q);
        // Pinned on the rank.
        let p = pos("4k3/2p5/8/K2P3r/8/8/8/8 b - - 0 1", &g).unwrap();
        let q = play(&p, &g, "c7e5");
        assert_eq!(moves_from(&q, &g, "d5"), ["d5c6", "d5e6"]);
        // With a black pawn already on c5 the position after c7-e5 has a right its FEN cannot
        // say (d6 is ambiguous there): the right is played, not read back.
        let p = pos("4k3/2p5/8/2pP4/8/8/8/4K3 b - - 0 1", &g).unwrap();
        let q = p.play(p.parse_move("c7e5", &g).unwrap());
        assert_eq!(q.en_passant().map(|e| e.victim), Some(sq("e5")));
        assert_eq!(
            fen(&q.play(q.parse_move("d5d6", &g).unwrap())),
            "4k3/8/3P4/2p5/8/8/8/4K3 b - - 0 1"
        );
        assert!(matches!(
            pos(&fen(&q), &g),
            Err(PositionError::BadEnPassant {
                reason: EnPassantFault::Ambiguous { .. },
                ..
            })
        ));
    }
}
