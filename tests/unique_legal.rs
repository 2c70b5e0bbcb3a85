//! The number of unique legal positions (Kryukov's NULP) that `build` prints: on small boards
//! it equals a brute-force count that shares nothing with the table but the move generator
//! (every placement enumerated, checked by `Position::new`, the symmetry group found from the
//! legal moves, each class put in canonical form and counted once), and on 8×8 it equals the
//! figures Kryukov publishes.

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

/// A position as the brute force keeps it: its men (side, letter, square), sorted, and the
/// side to move.
type Key = (Vec<(Color, char, Square)>, Color);

/// The NULP of `spec` on `board` by the table: its statistics' `unique_legal`.
fn by_table(pieces: &PieceSet, board: BoardSize, spec: &str) -> u64 {
    let material = Material::parse(spec, pieces).unwrap();
    let mut set = TableSet::new(pieces.clone(), Metric::Dtm).on_board(board);
    set.build(&material, &Silent).unwrap();
    let stats = table_stats(set.get(&material).unwrap(), set.geometry());
    if material.is_colour_symmetric() {
        assert_eq!(stats.wtm.unique, stats.btm.unique, "{spec} on {board}");
    }
    stats.unique_legal
}

/// Every legal position of `spec` on the board of `geometry`, both sides to move.
fn legal_positions(geometry: &Geometry, material: &Material) -> Vec<(Key, Position)> {
    let men: Vec<(Color, char, bool)> = (material.men().iter())
        .map(|m| (m.color, m.letter, m.royal))
        .collect();
    let board = geometry.board();
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
    (men, position.side_to_move())
}

/// The image of a position under symmetry `g`, colours swapped (each man changes side, the
/// board turned upside down, the other side to move) if `swap`.
fn image(board: BoardSize, (men, side): &Key, g: Sym, swap: bool) -> Key {
    let mut image: Vec<_> = (men.iter())
        .map(|&(color, letter, sq)| match swap {
            false => (color, letter, board.image(g, sq)),
            true => (
                color.flip(),
                letter,
                board.image(g, board.image(Sym::FLIP_RANKS, sq)),
            ),
        })
        .collect();
    image.sort();
    (image, if swap { side.flip() } else { *side })
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
                let (men, side) = image(board, k, g, false);
                let mut setup = Setup::empty(board, side);
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
/// general (left-right mirror only) and a piece with no symmetry at all.
#[test]
fn one_way_pieces_count_as_the_brute_force_does() {
    let text = "K: K\n\
                S: 0,1 1,1 -1,1 1,-1 -1,-1\n\
                J: WfF\n\
                V: rWfF\n\
                N: N\n";
    let pieces = parse_piece_defs(text, "test.ini").unwrap();
    for (board, spec) in [
        ("5x5", "KS.K"),
        ("5x5", "KS.KS"),
        ("5x5", "KJ.KN"),
        ("4x4", "KV.KV"),
        ("5x4", "KV.KJ"),
        ("4x4", "KSJ.K"),
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
