//! Positions with an en-passant right, for the count of unique legal positions: a position
//! in which the side to move may take en passant is a position of its own beside the same
//! placement without the right (its moves differ). It counts when a double step could have
//! made the right (the square it passed over empty, the pawn's start free: the check of a
//! FEN's e.p. square) and an en-passant capture is legal in it.

use crate::board::geometry::Geometry;
use crate::board::{BoardSize, Color, Position, Setup, Square, Sym};
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
    /// Whether both sides have pawns (else there is no right to count).
    both_pawns: bool,
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
        let pawns = |c: Color| men.contains(&(c, PAWN));
        EnPassantRights {
            geometry,
            royals: material.royals(),
            both_pawns: pawns(Color::White) && pawns(Color::Black),
            men,
            group: group.to_vec(),
        }
    }

    /// Whether any placement may have an en-passant right: both sides have pawns.
    pub(super) fn any(&self) -> bool {
        self.both_pawns
    }

    /// The classes of positions with an en-passant right of the legal placement `sq` (the
    /// canonical one of its class), side `c` to move: one per right in which an en-passant
    /// capture is legal, rights that a symmetry fixing the placement maps onto each other
    /// counted once.
    pub(super) fn count(&self, sq: &Squares, c: Color) -> u64 {
        if !self.possible(sq, c) {
            return 0;
        }
        let board = self.geometry.board();
        let mut setup = Setup::empty(board, c);
        for (&(color, letter), &s) in self.men.iter().zip(sq) {
            setup.board[s as usize] = Some((color, letter));
        }
        let fixing: Vec<Sym> = (self.group.iter().copied())
            .filter(|&g| self.image(sq, g) == self.image(sq, Sym::IDENTITY))
            .collect();
        let mut count = 0;
        for e in board.all_squares() {
            if setup.board[e as usize].is_some() {
                continue;
            }
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

    /// Whether a pawn of side `c` and one of the other side stand on one rank, the rank where
    /// a double step from the other side's second rank ends: only then may `c` take en
    /// passant. The squares of men that are no pawns do not matter here.
    fn possible(&self, sq: &Squares, c: Color) -> bool {
        if !self.both_pawns {
            return false;
        }
        let board = self.geometry.board();
        let rank = end_rank(board, c.flip());
        let on = |side: Color| {
            (self.men.iter().zip(sq)).any(|(&(color, letter), &s)| {
                color == side && letter == PAWN && board.rank_of(s) == rank
            })
        };
        on(c) && on(c.flip())
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

/// The rank where a double step of `side`'s pawn from its second rank ends (its fourth).
fn end_rank(board: BoardSize, side: Color) -> i8 {
    match side {
        Color::White => 3,
        Color::Black => board.ranks() as i8 - 4,
    }
}
