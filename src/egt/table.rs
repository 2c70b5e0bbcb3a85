//! A built table: the value of every position of one material, for both sides to move.

use crate::board::geometry::Geometry;
use crate::board::Color;
use crate::egt::dtz::Rule;
use crate::egt::index::{ColourSwap, Indexer};
use crate::egt::material::{Material, Squares};
use crate::egt::rules::{NullMove, Rules};
use crate::egt::value::{decode, Value, WIN_FAR};
use std::sync::atomic::{AtomicU8, Ordering};
use std::sync::Arc;

/// Distance metric of a table.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum Metric {
    /// Distance to mate.
    #[default]
    Dtm,
    /// Distance to conversion (a capture that keeps the win) or mate.
    Dtc,
    /// Distance to zeroing (a capture or a pawn's move) or mate under a rule such as the
    /// 50-move rule, in plies, with cursed wins and blessed losses (see `egt::dtz`).
    Dtz(Rule),
}

impl Metric {
    /// The value, for the side that makes it, of a move into a position worth `after` (this
    /// metric's values, for the side to move there). `resets` says whether the move starts the
    /// count again: a conversion under DTC (a capture or promotion: a win in 1, a loss in 0
    /// whatever the distance after), a zeroing move under DTZ (a capture or pawn's move: only
    /// the class after counts, `dtz::Rule::zeroing`); DTM counts every move alike. Under DTZ
    /// any other move counts a ply, under DTM and DTC a move of the winner.
    pub fn for_mover(self, after: Value, resets: bool) -> Value {
        match (self, resets, after) {
            (Metric::Dtc, true, Value::Loss(_)) => Value::Win(1),
            (Metric::Dtc, true, Value::Win(_)) => Value::Loss(0),
            (Metric::Dtz(rule), true, v) => rule.zeroing(v),
            (Metric::Dtz(_), false, v) => crate::egt::dtz::quiet(v),
            (_, _, v) => v.for_mover(),
        }
    }

    /// The metric with a DTZ table's rule of `moves` moves (0: none); the others as they are.
    pub fn under_rule(self, moves: u16) -> Metric {
        match self {
            Metric::Dtz(_) => Metric::Dtz(Rule::moves(moves)),
            m => m,
        }
    }

    /// `dtm`, `dtc` or `dtz`.
    pub fn name(self) -> &'static str {
        match self {
            Metric::Dtm => "dtm",
            Metric::Dtc => "dtc",
            Metric::Dtz(_) => "dtz",
        }
    }
}

impl std::fmt::Display for Metric {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

/// A text that names no metric, as given.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("expected dtm, dtc or dtz, found '{0}'")]
pub struct ParseMetricError(pub String);

impl std::str::FromStr for Metric {
    type Err = ParseMetricError;
    /// `dtm`, `dtc` or `dtz` (under the 50-move rule), in any case.
    fn from_str(s: &str) -> Result<Metric, ParseMetricError> {
        match s.trim().to_ascii_lowercase().as_str() {
            "dtm" => Ok(Metric::Dtm),
            "dtc" => Ok(Metric::Dtc),
            "dtz" => Ok(Metric::Dtz(Rule::FIFTY_MOVES)),
            _ => Err(ParseMetricError(s.to_string())),
        }
    }
}

/// One table: a byte per index slot and side to move (see `value` for the encoding), and
/// the exact distances the bytes do not hold. A table *stored once* (see [`stored_once`])
/// holds White's side alone: Black's is read through the colour swap.
pub struct Table {
    pub(crate) material: Material,
    pub(crate) indexer: Indexer,
    /// Per side to move, its bytes; Black's are empty when the table is stored once.
    pub(crate) data: [Vec<AtomicU8>; 2],
    /// Per side to move, the slots whose byte is `WIN_FAR` or `LOSS_FAR`, with their
    /// distance: `index << 16 | distance`, sorted (Black's empty when stored once).
    pub(crate) far: [Vec<u64>; 2],
    pub(crate) metric: Metric,
    /// Whether White's side alone is held.
    pub(crate) once: bool,
    /// For a table read from the colour-swapped material's (see [`Table::mirrored`]),
    /// that table; it then holds no bytes of its own.
    pub(crate) mirror: Option<Mirror>,
}

/// Where a table that holds no bytes reads its values: the table of the colour-swapped
/// material, through the colour swap.
pub(crate) struct Mirror {
    /// The table of the colour-swapped material.
    of: Arc<Table>,
    /// From this table's placements to `of`'s.
    swap: ColourSwap,
}

/// Whether a table of `material` built under `rules` (`seeded`: with values fixed by seeds)
/// is stored once: both sides have the same men, and nothing else tells the colours apart (a
/// null move allowed to one side only, seeds), so the colour swap
/// ([`ColourSwap`]) maps each position with Black to move
/// onto one with White to move of the same value, and Black's side needs no bytes of its own.
///
/// ```
/// use fairy_egt::egt::material::Material;
/// use fairy_egt::egt::rules::{NullMove, Rules};
/// use fairy_egt::egt::table::stored_once;
/// use fairy_egt::piece::PieceSet;
///
/// let pieces = PieceSet::standard();
/// let krn = Material::parse("KRN.KRN", &pieces).unwrap();
/// assert!(stored_once(&krn, &Rules::default(), false));
/// assert!(!stored_once(&krn, &Rules { null_move: NullMove::White, ..Rules::default() }, false));
/// assert!(!stored_once(&Material::parse("KBN.KN", &pieces).unwrap(), &Rules::default(), false));
/// ```
pub fn stored_once(material: &Material, rules: &Rules, seeded: bool) -> bool {
    material.is_colour_symmetric() && colour_blind(rules, seeded)
}

/// Whether tables built under `rules` (`seeded`: some with values fixed by seeds) tell the
/// colours apart by their men alone, so that the colour swap maps each position onto one of
/// the same value, the other side to move: no seeds, and a null move for both sides or
/// neither. Then a table stored once reads Black's side from White's ([`stored_once`]), and
/// a table may be read from its colour-swapped material's ([`Table::mirrored`]).
pub fn colour_blind(rules: &Rules, seeded: bool) -> bool {
    matches!(rules.null_move, NullMove::None | NullMove::Both) && !seeded
}

impl Table {
    /// The table of `of`'s colour-swapped material ([`Material::colour_swapped`]:
    /// `KN.KNN` for `KNN.KN`), holding no bytes: each position is read as its image under
    /// the colour swap, with the other side to move, from `of`. Its index is built with
    /// `geometry` and `fold`, as `of`'s was. Valid only where nothing tells the colours
    /// apart but the men (no seeds, a null move for both sides or neither), as for
    /// [`stored_once`].
    ///
    /// ```
    /// use fairy_egt::board::Color;
    /// use fairy_egt::egt::material::Material;
    /// use fairy_egt::egt::progress::Silent;
    /// use fairy_egt::egt::table::{Metric, Table};
    /// use fairy_egt::egt::tables::TableSet;
    /// use fairy_egt::egt::value::Value;
    /// use fairy_egt::piece::PieceSet;
    ///
    /// let mut tables = TableSet::new(PieceSet::standard(), Metric::Dtm);
    /// let kqk = Material::parse("KQ.K", tables.pieces())?;
    /// tables.build(&kqk, &Silent)?;
    /// let kkq = Table::mirrored(tables.shared(&kqk).unwrap(), tables.geometry(), true);
    /// assert_eq!(kkq.material().name(), "K.KQ");
    /// // White's king on a1, Black's on b3 and his queen on h2: Black mates in one (Qh1).
    /// let (a1, b3, h2) = (0, 2 * 8 + 1, 8 + 7);
    /// assert_eq!(kkq.value(&[a1, b3, h2, 0, 0, 0], Color::Black), Some(Value::Win(1)));
    /// assert_eq!(kkq.bytes(), 0);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn mirrored(of: Arc<Table>, geometry: &Geometry, fold: bool) -> Table {
        let material = of.material.colour_swapped();
        let swap = ColourSwap::between(&material, &of.material, geometry.board());
        Table {
            indexer: Indexer::new(&material, geometry, fold),
            material,
            data: [Vec::new(), Vec::new()],
            far: [Vec::new(), Vec::new()],
            metric: of.metric,
            once: false,
            mirror: Some(Mirror { of, swap }),
        }
    }

    /// The table this one reads its values from, when it holds none of its own (see
    /// [`Table::mirrored`]).
    pub fn mirror_of(&self) -> Option<&Arc<Table>> {
        self.mirror.as_ref().map(|m| &m.of)
    }

    /// The material of the table.
    pub fn material(&self) -> &Material {
        &self.material
    }

    /// The table's index.
    pub fn indexer(&self) -> &Indexer {
        &self.indexer
    }

    /// The metric it was built with.
    pub fn metric(&self) -> Metric {
        self.metric
    }

    /// Bytes of table data (both sides to move, or White's alone when stored once).
    pub fn bytes(&self) -> u64 {
        self.sides_held() * self.indexer.size()
    }

    /// Whether White's side alone is held, Black's read through the colour swap (see
    /// [`stored_once`]).
    pub fn is_stored_once(&self) -> bool {
        self.once
    }

    /// The number of sides to move whose bytes are held: 1 when stored once, else 2.
    pub fn sides_held(&self) -> u64 {
        self.held_colors().len() as u64
    }

    /// The sides to move whose bytes are held: none for a table read from another
    /// ([`Table::mirrored`]).
    pub(crate) fn held_colors(&self) -> &'static [Color] {
        match self.mirror {
            Some(_) => &[],
            None => held_sides(self.once),
        }
    }

    /// Positions, of both sides to move, whose distance is longer than a byte holds
    /// ([`MAX_DIRECT`](crate::egt::value::MAX_DIRECT)).
    pub fn far_count(&self) -> usize {
        self.far.iter().map(Vec::len).sum()
    }

    /// Bytes the list of those positions takes.
    pub fn far_bytes(&self) -> u64 {
        (self.far_count() * std::mem::size_of::<u64>()) as u64
    }

    /// Raw byte of a slot of a side held (see [`Table::held_colors`]).
    #[inline]
    pub(crate) fn byte(&self, index: u64, stm: Color) -> u8 {
        self.data[stm.index()][index as usize].load(Ordering::Relaxed)
    }

    /// Value of slot `index` with `stm` to move; `None` if the slot is no legal position.
    /// Black's slots of a table stored once are decoded and read through the colour swap.
    #[inline]
    pub(crate) fn value_at(&self, index: u64, stm: Color) -> Option<Value> {
        if let Some(m) = &self.mirror {
            return m.value(&self.indexer.decode(index)?, self.indexer.men(), stm);
        }
        read_side_held(
            &self.indexer,
            self.swap_for(stm).is_some(),
            index,
            stm,
            |i, c| decode(self.byte(i, c), || self.far_distance(i, c)),
        )
    }

    /// The slots in `slots` whose byte is `WIN_FAR` or `LOSS_FAR` (side `stm` to move, a side
    /// held), with their values, in index order.
    pub(crate) fn far_values(
        &self,
        stm: Color,
        slots: std::ops::Range<u64>,
    ) -> impl Iterator<Item = (u64, Value)> + '_ {
        let far = &self.far[stm.index()];
        let first = far.partition_point(|e| e >> 16 < slots.start);
        far[first..]
            .iter()
            .take_while(move |e| *e >> 16 < slots.end)
            .map(move |&e| {
                let index = e >> 16;
                let d = e as u16;
                let v = if self.byte(index, stm) == WIN_FAR {
                    Value::Win(d)
                } else {
                    Value::Loss(d)
                };
                (index, v)
            })
    }

    /// The distance of a slot whose byte is `WIN_FAR` or `LOSS_FAR`.
    fn far_distance(&self, index: u64, stm: Color) -> u16 {
        far_distance(&self.far[stm.index()], index)
    }

    /// Value of a placement (canonical man order) with `stm` to move; `None` if the
    /// position is illegal (the side to move can capture the enemy royal).
    #[inline]
    pub fn value(&self, sq: &Squares, stm: Color) -> Option<Value> {
        if let Some(m) = &self.mirror {
            return m.value(sq, self.indexer.men(), stm);
        }
        read_placement(
            &self.indexer,
            self.swap_for(stm).is_some(),
            sq,
            stm,
            |i, c| self.value_at(i, c),
        )
    }

    /// The colour swap through which side `stm`'s values are read: when the table is stored
    /// once and `stm` is Black.
    #[inline]
    pub(crate) fn swap_for(&self, stm: Color) -> Option<&ColourSwap> {
        (self.indexer.colour_swap()).filter(|_| self.once && stm == Color::Black)
    }

    /// Where side `stm`'s values are read when not from this table's own bytes: the colour
    /// swap, and the table that holds the images, with the other side to move (Black's side
    /// of a table stored once, or every position of a table read from another).
    #[inline]
    pub(crate) fn read_through(&self, stm: Color) -> Option<(&ColourSwap, &Table)> {
        match &self.mirror {
            Some(m) => Some((&m.swap, &*m.of)),
            None => self.swap_for(stm).map(|swap| (swap, self)),
        }
    }
}

impl Mirror {
    /// The value of placement `sq` of `men` men with `stm` to move: its image's.
    #[inline]
    fn value(&self, sq: &Squares, men: usize, stm: Color) -> Option<Value> {
        self.of.value(&self.swap.placement(sq, men), stm.flip())
    }
}

/// The sides to move whose bytes a table holds: White's alone if it is stored `once`, else
/// both.
#[inline]
pub(crate) fn held_sides(once: bool) -> &'static [Color] {
    if once {
        &[Color::White]
    } else {
        &Color::BOTH
    }
}

/// Value of slot `index` with `stm` to move, read by `held(slot, side)` from the side held:
/// if `swapped` (Black's side of a table stored once), at the slot of the colour swap's
/// image with White to move (`Indexer::image_slot`).
#[inline]
pub(crate) fn read_side_held(
    ix: &Indexer,
    swapped: bool,
    index: u64,
    stm: Color,
    held: impl Fn(u64, Color) -> Option<Value>,
) -> Option<Value> {
    match swapped {
        true => held(ix.image_slot(index)?, Color::White),
        false => held(index, stm),
    }
}

/// Value of a placement (canonical man order) with `stm` to move, read by
/// `value_at(slot, side)`: if `swapped`, at its image with White to move (see
/// [`read_side_held`]).
#[inline]
pub(crate) fn read_placement(
    ix: &Indexer,
    swapped: bool,
    sq: &Squares,
    stm: Color,
    value_at: impl Fn(u64, Color) -> Option<Value>,
) -> Option<Value> {
    match swapped {
        true => value_at(ix.image_index(sq)?, Color::White),
        false => value_at(ix.index(sq)?, stm),
    }
}

/// The distance of slot `index`, whose byte is `WIN_FAR` or `LOSS_FAR`, in `far`, a sorted
/// list of exceptions (`index << 16 | distance`, see `Table`).
pub(crate) fn far_distance(far: &[u64], index: u64) -> u16 {
    let k = far
        .binary_search_by_key(&index, |e| e >> 16)
        .expect("a far byte has its exception");
    far[k] as u16
}
