//! The number of unique legal positions (Kryukov's NULP) that `build` prints: on small boards
//! it equals a brute-force count that shares nothing with the table but the move generator
//! (every placement enumerated, checked by `Position::new`, with each en-passant square where
//! a pawn may take; the symmetry group found from the legal moves; each class put in
//! canonical form and counted once), and on 8×8 it equals the figures Kryukov publishes.

use fairy_egt::board::geometry::Geometry;
use fairy_egt::board::{BoardSize, Color, Position, Setup, Square, Sym};
use fairy_egt::egt::material::Material;
use fairy_egt::egt::progress::Silent;
use fairy_egt::egt::stats::table_stats;
use fairy_egt::egt::table::Metric;
use fairy_egt::egt::tables::TableSet;
use fairy_egt::piece::parse::parse_piece_defs;
use fairy_egt::piece::PieceSet;
use std::collections::{BTreeSet, HashSet};

/// A position as the brute force keeps it: its men (side, letter, square), sorted, the side
/// to move and its en-passant square.
type Key = (Vec<(Color, char, Square)>, Color, Option<Square>);

/// The NULP of `spec` on `board` by the table: its statistics' `unique_legal`.
fn by_table(pieces: &PieceSet, board: BoardSize, spec: &str) -> u64 {
    let material = Material::parse(spec, pieces).unwrap();
    let mut set = TableSet::new(pieces.clone(), Metric::Dtm).on_board(board);
    set.build(&material, &Silent).unwrap();
    // A table with the same men on both sides is stored once: Black's counts are White's
    // (checked against Black's own bytes in `stats.rs`'s unit tests).
    table_stats(set.get(&material).unwrap(), set.geometry()).unique_legal
}

/// Every legal position of `spec` on the board of `geometry`, both sides to move.
fn legal_positions(geometry: &Geometry, material: &Material) -> Vec<(Key, Position)> {
    let men: Vec<(Color, char, bool)> = (material.men().iter())
        .map(|m| (m.color, m.letter, m.royal))
        .collect();
    let board = geometry.board();
    // Only a side with a pawn may take en passant, and only a pawn of the other side.
    let both_pawns = Color::BOTH.iter().all(|&c| men.contains(&(c, 'P', false)));
    let mut found = Vec::new();
    let mut squares = vec![0; men.len()];
    place(&men, board, 0, &mut squares, &mut |squares| {
        for side in Color::BOTH {
            let mut setup = Setup::empty(board, side);
            for (&(color, letter, _), &sq) in men.iter().zip(squares) {
                setup.board[sq as usize] = Some((color, letter));
            }
            // Illegal: the side to move can take the enemy royal, or a pawn on an edge rank.
            if let Ok(position) = Position::new(&setup, geometry, material.royals()) {
                found.push((key(&position), position));
            } else {
                continue;
            }
            // The same placement with an en-passant right, where a pawn may take there.
            for e in board.all_squares().filter(|_| both_pawns) {
                setup.en_passant = Some(e);
                let Ok(position) = Position::new(&setup, geometry, material.royals()) else {
                    continue;
                };
                // A capture onto the empty square takes en passant.
                let takes = (position.legal_moves(geometry).iter())
                    .any(|&mv| mv.to == e && position.captured(mv).is_some());
                if takes {
                    found.push((key(&position), position));
                }
            }
        }
    });
    found
}

/// Calls `f` with every placement of men `k..` on free squares (identical men in rising
/// order of square, so that each unordered placement comes once).
fn place(
    men: &[(Color, char, bool)],
    board: BoardSize,
    k: usize,
    squares: &mut Vec<Square>,
    f: &mut impl FnMut(&[Square]),
) {
    if k == men.len() {
        return f(squares);
    }
    let twin = k > 0 && men[k] == men[k - 1] && !men[k].2;
    for sq in board.all_squares() {
        if squares[..k].contains(&sq) || twin && sq < squares[k - 1] {
            continue;
        }
        squares[k] = sq;
        place(men, board, k + 1, squares, f);
    }
}

fn key(position: &Position) -> Key {
    let mut men: Vec<_> = (position.men().iter())
        .map(|m| (m.color, m.letter, m.square))
        .collect();
    men.sort();
    let ep = position.en_passant().map(|ep| ep.square);
    (men, position.side_to_move(), ep)
}

/// The image of a position under symmetry `g`, colours swapped (each man changes side, the
/// board turned upside down, the other side to move) if `swap`.
fn image(board: BoardSize, (men, side, ep): &Key, g: Sym, swap: bool) -> Key {
    let to = |sq| match swap {
        false => board.image(g, sq),
        true => board.image(g, board.image(Sym::FLIP_RANKS, sq)),
    };
    let mut image: Vec<_> = (men.iter())
        .map(|&(color, letter, sq)| match swap {
            false => (color, letter, to(sq)),
            true => (color.flip(), letter, to(sq)),
        })
        .collect();
    image.sort();
    (image, if swap { side.flip() } else { *side }, ep.map(to))
}

/// The legal moves of a position, as (from, to, promotion letter), mapped by `g`.
fn moves(geometry: &Geometry, position: &Position, g: Sym) -> BTreeSet<(Square, Square, char)> {
    let board = geometry.board();
    (position.legal_moves(geometry).iter())
        .map(|mv| {
            let promotion = mv.promotion.map_or(' ', |p| p.letter);
            (board.image(g, mv.from), board.image(g, mv.to), promotion)
        })
        .collect()
}

/// The NULP of `spec` on `board`, counted by brute force.
fn by_brute_force(pieces: &PieceSet, board: BoardSize, spec: &str) -> u64 {
    let geometry = Geometry::on(pieces, board);
    let material = Material::parse(spec, pieces).unwrap();
    let positions = legal_positions(&geometry, &material);
    let legal: HashSet<&Key> = positions.iter().map(|(k, _)| k).collect();
    // The symmetries of the game: those that map the legal positions of a sample onto legal
    // positions with the images of their moves.
    let sample: Vec<&(Key, Position)> = positions.iter().step_by(97).collect();
    let group: Vec<Sym> = (board.symmetries())
        .filter(|&g| {
            sample.iter().all(|(k, position)| {
                let (men, side, ep) = image(board, k, g, false);
                let mut setup = Setup::empty(board, side);
                setup.en_passant = ep;
                for (color, letter, sq) in men {
                    setup.board[sq as usize] = Some((color, letter));
                }
                Position::new(&setup, &geometry, material.royals()).is_ok_and(|moved| {
                    moves(&geometry, &moved, Sym::IDENTITY) == moves(&geometry, position, g)
                })
            })
        })
        .collect();
    assert!(group.contains(&Sym::IDENTITY));
    let classes: HashSet<Key> = (legal.iter())
        .map(|k| {
            (group.iter())
                .flat_map(|&g| [false, true].map(|swap| image(board, k, g, swap)))
                .min()
                .unwrap()
        })
        .collect();
    classes.len() as u64
}

fn check(pieces: &PieceSet, board: &str, spec: &str) {
    let board: BoardSize = board.parse().unwrap();
    assert_eq!(
        by_table(pieces, board, spec),
        by_brute_force(pieces, board, spec),
        "{spec} on {board}"
    );
}

/// Orthodox and fairy pieces on square and rectangular boards, with identical men, the same
/// men on both sides (the colour swap maps the endgame onto itself) and pawns.
#[test]
fn small_boards_count_as_the_brute_force_does() {
    let pieces = PieceSet::standard();
    for (board, spec) in [
        ("4x4", "K.K"),
        ("4x4", "KQ.KR"),
        ("5x5", "KR.KN"),
        ("5x5", "KA.KA"),
        ("5x5", "KNN.K"),
        ("6x6", "KB.K"),
        ("6x6", "KC.KC"),
        ("6x5", "KQ.KB"),
        ("5x4", "KR.KR"),
        ("5x5", "KP.K"),
        ("5x5", "KP.KP"),
        ("4x5", "KRP.K"),
        ("6x6", "KP.KN"),
    ] {
        check(&pieces, board, spec);
    }
}

/// One-way pieces keep fewer symmetries, and the colour swap turns the board upside down so
/// that they still move forward: a silver general (forward and the diagonals), a gold
/// general (left-right mirror only), a piece with no symmetry at all, and the Berolina pawn
/// (its double step and en-passant capture diagonal-straight).
#[test]
fn one_way_pieces_count_as_the_brute_force_does() {
    let text = "K: K\n\
                S: 0,1 1,1 -1,1 1,-1 -1,-1\n\
                J: WfF\n\
                V: rWfF\n\
                N: N\n\
                P: fmFfceWifmnA\n";
    let pieces = parse_piece_defs(text, "test.ini").unwrap();
    for (board, spec) in [
        ("5x5", "KS.K"),
        ("5x5", "KS.KS"),
        ("5x5", "KJ.KN"),
        ("4x4", "KV.KV"),
        ("5x4", "KV.KJ"),
        ("4x4", "KSJ.K"),
        ("5x5", "KP.KP"),
    ] {
        check(&pieces, board, spec);
    }
}

/// Kryukov's published NULP of 8×8 endgames: 2 men 462; KNK 53,806; KPK 165,676; KBNK
/// 3,067,466; KNPK 9,699,457 (the largest 4-man pawnless and pawn endgames).
#[test]
fn eight_by_eight_counts_as_kryukov_publishes() {
    let pieces = PieceSet::standard();
    let board = BoardSize::STANDARD;
    for (spec, nulp) in [
        ("K.K", 462),
        ("KN.K", 53_806),
        ("KP.K", 165_676),
        ("KBN.K", 3_067_466),
        ("KNP.K", 9_699_457),
    ] {
        assert_eq!(by_table(&pieces, board, spec), nulp, "{spec}");
    }
}
