//! The game the engine follows: the position set up, the moves played since (for undo) with
//! the half-move clock of each position, or the set-up it cannot play and why.

use super::unplayable::Unplayable;
use crate::board::geometry::Geometry;
use crate::board::{BoardSize, Color, Move, Position, Setup};
use crate::egt::material::MAX_MEN;
use crate::piece::PAWN;

/// FEN of the standard chess start position (what `new` sets up on 8×8).
pub const START_FEN: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w - - 0 1";

/// FEN of Capablanca chess' start position (what `new` sets up on 10×8).
pub const CAPABLANCA_FEN: &str =
    "rnabqkbcnr/pppppppppp/10/10/10/10/PPPPPPPPPP/RNABQKBCNR w - - 0 1";

/// The start position of a board (what `new` sets up, and what XBoard is told to show):
/// chess on 8×8, Capablanca chess on 10×8, and elsewhere the two kings alone, in the middle
/// of their first ranks.
pub fn standard_start(board: BoardSize) -> Setup {
    let fen = match (board.files(), board.ranks()) {
        (8, 8) => START_FEN,
        (10, 8) => CAPABLANCA_FEN,
        _ => {
            let mut setup = Setup::empty(board, Color::White);
            let file = (board.files() / 2) as i8;
            let top = board.ranks() as i8 - 1;
            for (rank, man) in [(0, (Color::White, 'K')), (top, (Color::Black, 'K'))] {
                let sq = board.square_at(file, rank).expect("on the board");
                setup.board[sq as usize] = Some(man);
            }
            return setup;
        }
    };
    Setup::from_fen(fen, board).expect("the start FEN is valid")
}

/// A playable game: its start and every position since, each with its half-move clock.
#[derive(Clone, Debug)]
pub struct Game {
    positions: Vec<(Position, u32)>,
}

impl Game {
    /// A game from a position whose half-move clock is `clock` (plies since the last capture
    /// or pawn move).
    pub fn new(start: Position, clock: u32) -> Game {
        Game {
            positions: vec![(start, clock)],
        }
    }

    /// The current position.
    pub fn position(&self) -> &Position {
        &self.current().0
    }

    /// The current position's half-move clock.
    pub fn clock(&self) -> u32 {
        self.current().1
    }

    fn current(&self) -> &(Position, u32) {
        self.positions
            .last()
            .expect("a game has its start position")
    }

    /// Moves played since the start (what `undo` can take back).
    pub fn plies(&self) -> usize {
        self.positions.len() - 1
    }

    /// Plays a legal move: the clock starts again after a capture or a pawn's move.
    pub fn play(&mut self, mv: Move) {
        let (pos, clock) = self.current();
        let clock = if pos.zeroes(mv) { 0 } else { clock + 1 };
        self.positions.push((pos.play(mv), clock));
    }

    /// Takes back `n` moves; false (and nothing changes) if fewer were played.
    pub fn undo(&mut self, n: usize) -> bool {
        if n >= self.positions.len() {
            return false;
        }
        self.positions.truncate(self.positions.len() - n);
        true
    }
}

/// What the engine's board holds.
#[derive(Clone, Debug)]
pub enum Board {
    /// A position it can play, with the game's history.
    Playable(Game),
    /// A set-up it cannot play.
    Unplayable {
        /// The set-up as given.
        setup: Box<Setup>,
        /// Why it cannot be played.
        reason: Unplayable,
    },
}

impl Board {
    /// The board for a set-up: playable if [`check`] accepts it.
    pub fn from_setup(setup: Setup, geometry: &Geometry, royals: [char; 2]) -> Board {
        match check(&setup, geometry, royals) {
            Ok(pos) => Board::Playable(Game::new(pos, setup.halfmove)),
            Err(reason) => Board::Unplayable {
                setup: Box::new(setup),
                reason,
            },
        }
    }

    /// The current set-up, with its half-move clock.
    pub fn setup(&self) -> Setup {
        match self {
            Board::Playable(game) => Setup {
                halfmove: game.clock(),
                ..game.position().to_setup()
            },
            Board::Unplayable { setup, .. } => (**setup).clone(),
        }
    }
}

/// The checked position of a set-up, or why the engine cannot play it: pawns where the piece
/// file defines no pawn P, more men than any table holds, an unknown letter, a missing or
/// doubled royal, or the side to move able to capture the enemy royal.
pub fn check(
    setup: &Setup,
    geometry: &Geometry,
    royals: [char; 2],
) -> Result<Position, Unplayable> {
    let men = setup.men().count();
    let pawns = setup
        .men()
        .filter(|&(_, _, l)| l.eq_ignore_ascii_case(&PAWN))
        .count();
    if pawns > 0 && geometry.pieces().pawn().is_none() {
        return Err(Unplayable::Pawns(pawns));
    }
    if men > MAX_MEN {
        return Err(Unplayable::TooManyMen(men));
    }
    Ok(Position::new(setup, geometry, royals)?)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::piece::PieceSet;

    fn board(fen: &str) -> Board {
        let g = Geometry::new(&PieceSet::standard());
        Board::from_setup(
            Setup::from_fen(fen, BoardSize::STANDARD).unwrap(),
            &g,
            ['K', 'K'],
        )
    }

    fn reason(fen: &str) -> String {
        match board(fen) {
            Board::Unplayable { reason, .. } => reason.to_string(),
            Board::Playable(_) => panic!("{fen} is playable"),
        }
    }

    #[test]
    fn reasons_name_the_problem() {
        // The shipped pieces define P: the start position is only too big.
        assert_eq!(
            reason(START_FEN),
            "the position has 32 men; fairy-egt's tables hold at most 6"
        );
        assert_eq!(
            reason("8/8/8/8/8/8/8/KQRBNAk1 w - - 0 1"),
            "the position has 7 men; fairy-egt's tables hold at most 6"
        );
        assert!(reason("8/8/8/8/8/8/8/KS5k w - - 0 1").contains("'S'"));
        assert!(reason("8/8/8/8/8/8/8/KQ6 w - - 0 1").contains("Black has no king"));
        // Pawns are played where the piece file defines P (the shipped one does), and
        // refused with the line to add where it does not.
        let setup = Setup::from_fen("7k/8/8/8/8/8/4P3/K7 w - - 0 1", BoardSize::STANDARD).unwrap();
        let standard = Geometry::new(&PieceSet::standard());
        assert!(check(&setup, &standard, ['K', 'K']).is_ok());
        let no_pawn = crate::piece::parse::parse_piece_defs("K: K\nQ: Q\n", "t.ini").unwrap();
        assert_eq!(
            check(&setup, &Geometry::new(&no_pawn), ['K', 'K']).map_err(|e| e.to_string()),
            Err(
                "the position has pawns (1), and the piece file defines no pawn: add the line \
                 'P: fmWfceFifmnD' (the orthodox pawn) to it"
                    .to_string()
            )
        );
    }

    #[test]
    fn undo_keeps_the_start() {
        let Board::Playable(mut game) = board("8/8/8/8/2r5/8/2k5/K6Q w - - 0 1") else {
            panic!("KQ.KR is playable")
        };
        let g = Geometry::new(&PieceSet::standard());
        let start = game.position().clone();
        let mv = start.parse_move("h1h8", &g).unwrap();
        game.play(mv);
        assert!(!game.undo(2));
        assert!(game.undo(1));
        assert_eq!(game.position(), &start);
        assert!(!game.undo(1));
    }

    /// The clock comes from the FEN, counts every ply, starts again at a capture or a pawn's
    /// move, and goes back with undo.
    #[test]
    fn the_half_move_clock_counts_plies_since_a_capture_or_pawn_move() {
        let Board::Playable(mut game) = board("8/k7/8/8/2r5/8/4P3/K6Q w - - 97 1") else {
            panic!("KQP.KR is playable")
        };
        let g = Geometry::new(&PieceSet::standard());
        let mut play = |text: &str| {
            let mv = game.position().parse_move(text, &g).unwrap();
            game.play(mv);
            game.clock()
        };
        assert_eq!(play("h1h2"), 98);
        assert_eq!(play("c4c5"), 99);
        assert_eq!(play("e2e4"), 0);
        assert_eq!(play("c5e5"), 1);
        assert_eq!(play("h2e5"), 0);
        assert_eq!(game.clock(), 0);
        game.undo(2);
        assert_eq!(game.clock(), 0);
        game.undo(1);
        assert_eq!(game.clock(), 99);
        assert_eq!(
            Board::Playable(game).setup().to_fen(),
            "8/k7/8/2r5/8/8/4P2Q/K7 w - - 99 1"
        );
    }
}
