//! Every placement of a few men on a small board, for the tests that probe a whole table.

/// The placements of `men` men on a board of `n` squares with the first man on `first`: each
/// the men's squares in order, all distinct (identical men in both orders).
pub fn placements_from(first: u8, n: u64, men: usize) -> impl Iterator<Item = Vec<u8>> {
    let rest = men as u32 - 1;
    (0..n.pow(rest)).filter_map(move |code| {
        let mut squares = vec![first];
        let mut c = code;
        for _ in 0..rest {
            squares.push((c % n) as u8);
            c /= n;
        }
        let distinct = (1..squares.len()).all(|i| !squares[..i].contains(&squares[i]));
        distinct.then_some(squares)
    })
}

/// The setup with men `men` (colour, letter) on `squares`, `stm` to move.
pub fn setup_of(
    board: fairy_egt::board::BoardSize,
    stm: fairy_egt::board::Color,
    men: &[(fairy_egt::board::Color, char)],
    squares: &[u8],
) -> fairy_egt::board::Setup {
    let mut setup = fairy_egt::board::Setup::empty(board, stm);
    for (&(color, letter), &sq) in men.iter().zip(squares) {
        setup.board[sq as usize] = Some((color, letter));
    }
    setup
}
