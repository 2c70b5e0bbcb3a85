//! The movement model: steps, leapers and riders, range, move/capture rights; the
//! `piecedef.ini` parser; the symmetry of a piece set; Betza text for XBoard.

pub mod betza;
pub mod parse;
pub mod symmetry;

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

/// One way of moving: a step `(dx, dy)` taken once (leaper, `range == 1`), up to `range`
/// times, or as often as the board allows (`range == 0`, a rider), for White. Black uses the
/// step mirrored up-down, so "forward" means towards the opponent for both sides.
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
}

impl Step {
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
}

impl PieceType {
    /// Builds a piece type, sorting and de-duplicating the steps.
    pub fn new(letter: char, mut steps: Vec<Step>) -> PieceType {
        steps.sort();
        steps.dedup();
        PieceType { letter, steps }
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

    /// The letters defined, in order.
    pub fn letters(&self) -> String {
        self.pieces.iter().map(|p| p.letter).collect()
    }
}
