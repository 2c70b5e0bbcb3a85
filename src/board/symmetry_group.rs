//! Which symmetries of a board leave a set of pieces' moves unchanged: the group a table of
//! those pieces on that board is folded by. It lives with the board because it depends on the
//! board's shape; the pieces know only how a symmetry maps their steps.

use super::size::BoardSize;
use crate::piece::PieceType;
use crate::symmetry::Sym;

/// The symmetries of the board's shape (see `BoardSize::symmetries`) that map every given
/// piece's step set (for White and, mirrored, for Black) onto itself. Always contains the
/// identity; it is a subgroup of the 8 symmetries of the square, so its size is 1, 2, 4 or 8.
pub fn symmetry_group<'a>(
    pieces: impl IntoIterator<Item = &'a PieceType>,
    board: BoardSize,
) -> Vec<Sym> {
    let pieces: Vec<&PieceType> = pieces.into_iter().collect();
    board
        .symmetries()
        .filter(|&g| {
            pieces.iter().all(|p| {
                [p.steps.clone(), p.steps_for_black()].iter().all(|steps| {
                    let mut img: Vec<_> = steps.iter().map(|s| s.transformed(g)).collect();
                    img.sort();
                    &img == steps
                })
            })
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::piece::{Step, StepMode};

    const B8: BoardSize = BoardSize::STANDARD;

    fn piece(letter: char, steps: &[(i8, i8, u8)]) -> PieceType {
        let mut all = Vec::new();
        for &(dx, dy, range) in steps {
            all.push(Step::plain(dx, dy, range, StepMode::Both));
        }
        PieceType::new(letter, all)
    }

    fn all8(letter: char, dx: i8, dy: i8, range: u8) -> PieceType {
        let steps: Vec<Step> = Sym::all()
            .map(|g| Step::plain(dx, dy, range, StepMode::Both).transformed(g))
            .collect();
        PieceType::new(letter, steps)
    }

    #[test]
    fn knight_and_rook_are_fully_symmetric() {
        let n = all8('N', 1, 2, 1);
        let r = all8('R', 1, 0, 0);
        assert_eq!(symmetry_group([&n, &r], B8).len(), 8);
        let capa = BoardSize::new(10, 8).unwrap();
        assert_eq!(
            symmetry_group([&n, &r], capa),
            vec![Sym(0), Sym(1), Sym(2), Sym(3)]
        );
    }

    #[test]
    fn forward_stepper_keeps_only_the_file_mirror() {
        // Moves one square forward or diagonally forward: left-right mirror only.
        let p = piece('X', &[(0, 1, 1), (1, 1, 1), (-1, 1, 1)]);
        let g = symmetry_group([&p], B8);
        assert_eq!(g, vec![Sym(0), Sym(1)]);
    }

    #[test]
    fn plus_shaped_but_lopsided_lengths() {
        // Steps (2,1) and its 4 mirror images (the `+` expansion): 4-fold, no transpose.
        let p = piece('Z', &[(2, 1, 1), (-2, 1, 1), (2, -1, 1), (-2, -1, 1)]);
        assert_eq!(symmetry_group([&p], B8).len(), 4);
    }
}
