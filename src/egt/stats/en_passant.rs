//! Positions with an en-passant right, for the count of unique legal positions: a position
//! in which the side to move may take en passant is a position of its own beside the same
//! placement without the right (its moves differ). It counts when a double step could have
//! made the right (the square it passed over empty, the pawn's start free: the check of a
//! FEN's e.p. square) and an en-passant capture is legal in it.

use crate::board::en_passant::PawnRules;
use crate::board::geometry::Geometry;
use crate::board::{Color, Position, Setup, Square, Sym};
use crate::egt::material::{Material, Squares};
use crate::piece::PAWN;

/// Counts the en-passant positions of the placements of one material.
pub(super) struct EnPassantRights<'a> {
    geometry: &'a Geometry,
    royals: [char; 2],
    /// Each man's side and letter.
    men: Vec<(Color, char)>,
    /// The symmetries the classes are taken under.
    group: Vec<Sym>,
    /// The pawns' double steps and e.p. captures, where both sides have pawns (else there
    /// is no right to count).
    rules: Option<PawnRules>,
}

impl<'a> EnPassantRights<'a> {
    /// For `material`, whose classes are taken under `group`.
    pub(super) fn new(
        geometry: &'a Geometry,
        material: &Material,
        group: &[Sym],
    ) -> EnPassantRights<'a> {
        let men: Vec<(Color, char)> = (material.men().iter())
            .map(|m| (m.color, m.letter))
            .collect();
        let both_pawns = Color::BOTH.iter().all(|&c| men.contains(&(c, PAWN)));
        let rules = both_pawns
            .then(|| PawnRules::new(geometry.pieces(), geometry.board()))
            .flatten();
        EnPassantRights {
            geometry,
            royals: material.royals(),
            men,
            group: group.to_vec(),
            rules,
        }
    }

    /// Whether any placement may have an en-passant right: both sides have pawns.
    pub(super) fn any(&self) -> bool {
        self.rules.is_some()
    }

    /// The classes of positions with an en-passant right of the legal placement `sq` (the
    /// canonical one of its class), side `c` to move: one per right in which an en-passant
    /// capture is legal, rights that a symmetry fixing the placement maps onto each other
    /// counted once.
    pub(super) fn count(&self, sq: &Squares, c: Color) -> u64 {
        let Some(rules) = &self.rules else { return 0 };
        let pawns = |side: Color| {
            (self.men.iter().zip(sq))
                .filter(move |&(&m, _)| m == (side, PAWN))
                .map(|(_, &s)| s)
        };
        // The squares the other side's pawns may just have passed over, where a pawn of `c`
        // has an e.p. capture (pseudo-legal: the position decides).
        let mut passed: Vec<Square> = pawns(c.flip())
            .flat_map(|v| rules.passed_to(c.flip(), v))
            .filter(|&e| pawns(c).any(|p| rules.ep_capture(c, p, e)))
            .collect();
        if passed.is_empty() {
            return 0;
        }
        passed.sort_unstable();
        passed.dedup();
        let board = self.geometry.board();
        let mut setup = Setup::empty(board, c);
        for (&(color, letter), &s) in self.men.iter().zip(sq) {
            setup.board[s as usize] = Some((color, letter));
        }
        let fixing: Vec<Sym> = (self.group.iter().copied())
            .filter(|&g| self.image(sq, g) == self.image(sq, Sym::IDENTITY))
            .collect();
        let mut count = 0;
        for e in passed {
            setup.en_passant = Some(e);
            let Ok(position) = Position::new(&setup, self.geometry, self.royals) else {
                continue;
            };
            // A capture onto the empty square e takes en passant (a Berolina pawn may also
            // step there quietly, which is no capture).
            let takes = (position.legal_moves(self.geometry).iter())
                .any(|&mv| mv.to == e && position.captured(mv).is_some());
            if takes && fixing.iter().all(|&g| board.image(g, e) >= e) {
                count += 1;
            }
        }
        count
    }

    /// The men of placement `sq` moved by `g`, as a sorted list.
    fn image(&self, sq: &Squares, g: Sym) -> Vec<(Color, char, Square)> {
        let board = self.geometry.board();
        let mut men: Vec<_> = (self.men.iter().zip(sq))
            .map(|(&(color, letter), &s)| (color, letter, board.image(g, s)))
            .collect();
        men.sort();
        men
    }
}
