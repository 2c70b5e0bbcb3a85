//! The movement model: steps, leapers and riders, range, move/capture rights, lame leaps and
//! hops; the `piecedef.ini` parser; how a board symmetry maps a step; Betza notation, read and
//! written.

pub mod betza;
pub mod parse;

use crate::symmetry::Sym;

/// What a step may be used for.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum StepMode {
    /// Moves to an empty square and captures (the default).
    Both,
    /// Only captures (`c`).
    CaptureOnly,
    /// Only moves to an empty square (`n`).
    MoveOnly,
}

impl StepMode {
    /// Whether the step may capture.
    pub fn captures(self) -> bool {
        self != StepMode::MoveOnly
    }
    /// Whether the step may go to an empty square.
    pub fn moves(self) -> bool {
        self != StepMode::CaptureOnly
    }
}

/// How a step's line is walked: plainly (a leap, or a ride that stops at the first man), or
/// in one of the ways Betza's `n`, `p` and `g` describe.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum StepKind {
    /// A leap (`range == 1`) jumps whatever stands between; a ride stops at the first
    /// occupied square, which it may capture.
    #[default]
    Plain,
    /// A leap that is blocked when a square on its way is occupied (Betza `n`): see
    /// [`Step::lame_leg`].
    Lame,
    /// A cannon-like ride (Betza `p`): over empty squares to a man of either side (the
    /// screen), over it, and on over empty squares; the first man beyond it may be captured.
    Hop,
    /// A grasshopper's ride (Betza `g`): over empty squares to a man of either side (the
    /// screen), landing on the square just beyond it.
    Grasshop,
}

/// The pawn's letter.
pub const PAWN: char = 'P';

/// One way of moving: a step `(dx, dy)` taken once (leaper, `range == 1`), up to `range`
/// times, or as often as the board allows (`range == 0`, a rider), for White, walked as its
/// `kind` says. Black uses the step mirrored up-down, so "forward" means towards the
/// opponent for both sides.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Step {
    /// File step.
    pub dx: i8,
    /// Rank step (positive: towards rank 8 for White).
    pub dy: i8,
    /// 1 = leap once; N = ride at most N steps; 0 = ride without limit.
    pub range: u8,
    /// Move and capture rights.
    pub mode: StepMode,
    /// How the line is walked.
    pub kind: StepKind,
    /// Only from the man's own second rank (XBetza `i`, the pawn's double step).
    pub initial: bool,
    /// This capture may also take en passant (XBetza `e`): a man that has just passed, by an
    /// initial lame step, over the target square.
    pub en_passant: bool,
}

impl Step {
    /// A plain leap (`range == 1`) or ride.
    pub fn plain(dx: i8, dy: i8, range: u8, mode: StepMode) -> Step {
        Step {
            dx,
            dy,
            range,
            mode,
            kind: StepKind::Plain,
            initial: false,
            en_passant: false,
        }
    }

    /// The squares, relative to the start, that must be empty for the step taken as a lame
    /// leap: every square between on a straight or diagonal leap (the Xiangqi elephant's
    /// `(2,2)` needs `(1,1)`), the orthogonal neighbour on the long side for a knight-shaped
    /// `(2,1)` leap (the Xiangqi horse). `None` for other shapes, which have no agreed path.
    pub fn lame_leg(&self) -> Option<Vec<(i8, i8)>> {
        let (ax, ay) = (self.dx.unsigned_abs(), self.dy.unsigned_abs());
        let (sx, sy) = (self.dx.signum(), self.dy.signum());
        if ax == 0 || ay == 0 || ax == ay {
            let n = ax.max(ay) as i8;
            return Some((1..n).map(|k| (sx * k, sy * k)).collect());
        }
        match (ax, ay) {
            (2, 1) => Some(vec![(sx, 0)]),
            (1, 2) => Some(vec![(0, sy)]),
            _ => None,
        }
    }

    /// The step's image under a board symmetry.
    pub fn transformed(self, sym: Sym) -> Step {
        let (dx, dy) = sym.step(self.dx, self.dy);
        Step { dx, dy, ..self }
    }
}

/// A piece type: its letter and its steps (White's orientation).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PieceType {
    /// Upper-case letter, as in FEN for White.
    pub letter: char,
    /// The distinct steps, sorted.
    pub steps: Vec<Step>,
    /// The Betza text the piece was defined with, if it was (told to XBoard as written).
    pub betza: Option<String>,
}

impl PieceType {
    /// Builds a piece type, sorting and de-duplicating the steps.
    pub fn new(letter: char, mut steps: Vec<Step>) -> PieceType {
        steps.sort();
        steps.dedup();
        PieceType {
            letter,
            steps,
            betza: None,
        }
    }

    /// The same piece, remembering the Betza text it was defined with.
    pub fn with_betza(self, text: &str) -> PieceType {
        PieceType {
            betza: Some(text.to_string()),
            ..self
        }
    }

    /// Whether this is the pawn: the letter `P`, the one piece type that promotes, whose
    /// moves are irreversible and that may not stand on its first or last rank.
    pub fn is_pawn(&self) -> bool {
        self.letter == PAWN
    }

    /// Whether some step is walked other than plainly (lame leaps, hops): such pieces move
    /// by rules the builder's block-wise fast paths do not model.
    pub fn has_special_steps(&self) -> bool {
        self.steps.iter().any(|s| s.kind != StepKind::Plain)
    }

    /// The steps as Black uses them (mirrored up-down).
    pub fn steps_for_black(&self) -> Vec<Step> {
        let mut s: Vec<Step> = self
            .steps
            .iter()
            .map(|st| st.transformed(Sym::FLIP_RANKS))
            .collect();
        s.sort();
        s
    }
}

/// The index of a piece type in its [`PieceSet`]: what move tables and men carry instead of
/// the letter, so that hot code indexes where it would otherwise search. It is made only by
/// [`PieceSet::id`] and means something only in the set that made it. Ids follow the letters'
/// order: a set's piece types are kept sorted by letter.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct PieceId(u8);

impl PieceId {
    /// The id as an index (0 for the set's first piece type, by letter).
    #[inline]
    pub fn index(self) -> usize {
        self.0 as usize
    }
}

/// All piece types known to the program, sorted by letter; a type's place is its [`PieceId`].
#[derive(Clone, Debug, Default)]
pub struct PieceSet {
    pieces: Vec<PieceType>,
}

impl PieceSet {
    /// The most piece types a set may hold (a [`PieceId`] is one byte).
    pub const MAX_PIECES: usize = 256;

    /// A set from piece types; a later definition of a letter replaces an earlier one.
    pub fn new(pieces: Vec<PieceType>) -> PieceSet {
        let mut set = PieceSet::default();
        for p in pieces {
            set.insert(p);
        }
        set
    }

    /// Adds or replaces a piece type. The ids of the letters after it change: ids taken
    /// from the set before are not valid for it after.
    ///
    /// Panics if the set would hold more than [`PieceSet::MAX_PIECES`] types.
    pub fn insert(&mut self, piece: PieceType) {
        self.pieces.retain(|p| p.letter != piece.letter);
        assert!(
            self.pieces.len() < Self::MAX_PIECES,
            "a piece set holds at most {} piece types",
            Self::MAX_PIECES
        );
        self.pieces.push(piece);
        self.pieces.sort_by_key(|p| p.letter);
    }

    /// The id of an (upper- or lower-case) letter, if it is defined. Where text is read;
    /// what it reads then carries the id.
    pub fn id(&self, letter: char) -> Option<PieceId> {
        let l = letter.to_ascii_uppercase();
        self.pieces
            .binary_search_by_key(&l, |p| p.letter)
            .ok()
            .map(|i| PieceId(i as u8))
    }

    /// The piece type of an id of this set.
    pub fn piece(&self, id: PieceId) -> &PieceType {
        &self.pieces[id.index()]
    }

    /// The (upper-case) letter of an id of this set, for display.
    pub fn letter(&self, id: PieceId) -> char {
        self.piece(id).letter
    }

    /// The piece type of an (upper- or lower-case) letter.
    pub fn get(&self, letter: char) -> Option<&PieceType> {
        self.id(letter).map(|id| self.piece(id))
    }

    /// Every piece type, by letter, which is by id.
    pub fn iter(&self) -> impl Iterator<Item = &PieceType> {
        self.pieces.iter()
    }

    /// The id of the pawn `P`, if the set defines it.
    pub fn pawn(&self) -> Option<PieceId> {
        self.id(PAWN)
    }

    /// The letters defined, in order.
    pub fn letters(&self) -> String {
        self.pieces.iter().map(|p| p.letter).collect()
    }
}
