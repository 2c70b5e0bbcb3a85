//! The index of a table: placements of an endgame's men, folded by the symmetries of its
//! pieces.
//!
//! An index is `pair · rest + r`: `pair` numbers the royal pairs (White's royal square,
//! Black's) that are canonical under the symmetry group G (the lexicographically least image
//! of their orbit); pairs whose royals attack each other unblockably (adjacent kings) are left
//! out, as every position with them is illegal. `r` is a mixed-radix number over the groups of
//! identical non-royal men, each group ranked as an unordered set of squares (combinatorial
//! number system), so `KNN` needs 2016 slots for the knights, not 4096. The groups are digits in
//! man order, except that a man alone in his group is moved to the last digit when the last
//! group is not alone (see `Indexer::has_blocks`), and that in a material the colour swap maps
//! onto itself his partner, White's, is the last digit and he the one before (see
//! `digit_groups`). Where G fixes the royal pair, a placement is canonical if no symmetry fixing
//! the pair gives a smaller `r`. Slots whose men share a square, or that are not canonical, are
//! holes.
//!
//! With pawns, an index is `slice · S + pair · rest + r` (see `slices`): the pawn placement
//! is the outermost digit, numbered in build order, and S is `pairs · rest` rounded up to a
//! multiple of the board's squares, a block (the padding slots are holes). G folds only slices (a placement and its
//! left-right mirror image are one slice); within a slice the pairs are every ordered pair
//! of the identity, a pawn's square is a hole for the other men, and pawns are in no group
//! and never the block man. Only in a slice that is its own mirror image are the pairs
//! folded, by the mirror, numbered as the identity numbers them (the others become holes).
//!
//! This module holds the [`Indexer`], which ties the parts together (placement ↔ index, the
//! digits, the strides of lone men); `pairs` folds the royal pairs, `ranks` ranks groups of
//! identical men, `slices` numbers the pawn placements, and `blocks` holds the block-man
//! layout (the Indexer's block methods and the types the builder's block passes use).

mod blocks;
mod divisor;
mod man_slots;
mod pairs;
mod ranks;
mod slices;
mod twins;

pub use blocks::{BlockMove, BlockMoves, BlockShape, Fold};
pub use man_slots::ManSlots;

use crate::board::symmetry_group;
use crate::board::{geometry::Geometry, BoardSize, Color, Square, Sym};
use crate::egt::material::{ManKind, Material, Squares, MAX_MEN};
use crate::with_tables;
use divisor::Divisor;
use pairs::{renumbered, royal_pairs, PairSlot, NO_PAIR};
use ranks::{binomial, Group};
use slices::{pawn_placements, Slices};
use std::ops::Range;

/// The canonical digits of a placement whose royal pair the symmetries `mask` fix (a bit per
/// element of G): the least of `rest(i)`, its digits under element i, over those elements.
#[inline]
fn least_rest(mask: u8, rest: impl Fn(usize) -> u64) -> u64 {
    let mut best = u64::MAX;
    let mut m = mask;
    while m != 0 {
        best = best.min(rest(m.trailing_zeros() as usize));
        m &= m - 1;
    }
    best
}

/// Maps placements of one material to table indexes and back.
#[derive(Clone, Debug)]
pub struct Indexer {
    men: usize,
    /// Squares of the board.
    n: usize,
    /// The board's files (a row of `n`: its ranks are `n / files`).
    files: usize,
    syms: Vec<Sym>,
    images: Vec<Vec<Square>>,
    pairs: Vec<(Square, Square)>,
    /// For each ordered pair (a·n + b): its canonical pair number and the mask of the G
    /// elements (bit i = `syms[i]`) that map it onto its canonical pair.
    pair_slot: Vec<PairSlot>,
    groups: Vec<Group>,
    rest: u64,
    /// log2(rest) when rest is a power of two (no identical men), for cheap division.
    rest_shift: Option<u32>,
    /// Division by `rest` otherwise.
    rest_divisor: Divisor,
    /// Per man: index step of one square for a man alone in its group (0 otherwise).
    strides: [u64; MAX_MEN],
    /// Per man of a group of identical men: the group (its number in `groups`) and the index
    /// step of one rank of the group's digit; `None` for a man alone, a royal or a pawn.
    group_digits: [Option<(usize, u64)>; MAX_MEN],
    /// The man whose square is the last digit of the index, if he is alone in his group.
    block_man: Option<usize>,
    /// Told apart (`twins_apart`): the block man's twin, whose square is the digit before.
    block_twin: Option<usize>,
    /// Per element of G: the fold of a block fixed by it.
    folds: Vec<Fold>,
    /// Division by `n`, the slots of a block (`blocks_in`): a shift where n is a power of
    /// two, else the divisor.
    block_shift: Option<u32>,
    block_divisor: Divisor,
    /// Per man: the blocks his digit's step spans (his stride, or his group's, over `n`),
    /// by which a move of his shifts a block (`BlockMoves::after`).
    block_strides: [u64; MAX_MEN],
    /// Division by the blocks of a royal pair (`rest / n`; 1 in a table without blocks), for
    /// a block's place among them (`Indexer::pair_blocks`).
    pair_blocks: Divisor,
    /// Division by the blocks of a pawn slice (`slice_of_block`; by 1 without pawns).
    slice_blocks: Divisor,
    /// The pawn slices, for a material with pawns (see `slices`): then `pairs` and
    /// `pair_slot` are those of the identity alone, G folds slices.
    slices: Option<Slices>,
    /// The colour swap, when both sides have the same men.
    swap: Option<ColourSwap>,
}

/// The colour swap of a material: each man changes side, taking the place of his partner
/// (the man of the other side with the same letter and rank in man order), and the board
/// turns upside down, so that the position with one side to move becomes one of the
/// colour-swapped material (`KN.KNN` for `KNN.KN`, the material itself for `KQ.KQ` or
/// `KNN.KNN`) with the other side to move. Black's steps are White's turned upside down, so
/// the swap maps every move onto a move: a position and its image have the same value for
/// the side to move.
#[derive(Clone, Debug)]
pub struct ColourSwap {
    /// Per man of the image, his partner in the placement swapped.
    partner: [usize; MAX_MEN],
    /// Per man of the placement swapped, the man of the image who takes his square's image
    /// (the inverse of `partner`; the same when the material is its own image).
    carrier: [usize; MAX_MEN],
    /// Per square, its image with the ranks reversed.
    flip: Vec<Square>,
}

impl ColourSwap {
    /// The swap of `material`'s men on `board`, or `None` when the sides' men differ.
    fn new(material: &Material, board: BoardSize) -> Option<ColourSwap> {
        if !material.is_colour_symmetric() {
            return None;
        }
        Some(ColourSwap::between(material, material, board))
    }

    /// The swap of placements of `from` onto placements of `to`, its colour-swapped material
    /// ([`Material::colour_swapped`]), on `board`.
    ///
    /// # Panics
    /// If `to` is not `from` with its colours swapped.
    pub fn between(from: &Material, to: &Material, board: BoardSize) -> ColourSwap {
        assert_eq!(&from.colour_swapped(), to, "the colour-swapped material");
        let (men, image) = (from.men(), to.men());
        let mut partner = [0; MAX_MEN];
        let mut carrier = [0; MAX_MEN];
        for (i, m) in image.iter().enumerate() {
            let same = |o: &&ManKind| o.letter == m.letter && o.royal == m.royal;
            let rank = image[..i]
                .iter()
                .filter(|o| same(o) && o.color == m.color)
                .count();
            partner[i] = (men.iter().enumerate())
                .filter(|(_, o)| same(o) && o.color != m.color)
                .nth(rank)
                .expect("both materials have the same men, colours swapped")
                .0;
            carrier[partner[i]] = i;
        }
        let flip = (board.all_squares())
            .map(|s| board.image(Sym::FLIP_RANKS, s))
            .collect();
        ColourSwap {
            partner,
            carrier,
            flip,
        }
    }

    /// The man of the image who takes man `j`'s place (the inverse of `partner`).
    #[inline]
    pub fn carrier(&self, j: usize) -> usize {
        self.carrier[j]
    }

    /// The image of square `s`.
    #[inline]
    pub fn square(&self, s: Square) -> Square {
        self.flip[s as usize]
    }

    /// The image of a placement of `men` men: man i's square is the image of his partner's.
    #[inline]
    pub fn placement(&self, sq: &Squares, men: usize) -> Squares {
        let mut image = *sq;
        for (i, to) in image[..men].iter_mut().enumerate() {
            *to = self.flip[sq[self.partner[i]] as usize];
        }
        image
    }
}

/// The digits of an index after its royal pair: the groups of identical non-royal men `men`
/// (pawns aside: they are the slice) as (first man, how many), in digit order, and whether
/// the colour swap `swap` moved men out of man order. The groups are in man order, but for
/// a man alone in his group, the last such, who is the last digit, so that the table is made
/// of blocks (see `Indexer::has_blocks`). Where the swap maps the material onto itself, that
/// man is Black's, and his partner, White's, takes his place as the block man, with him the
/// digit before: the swap takes a block to a line of the partner's digit
/// (`ColourSwap::carrier`), and so to the same slot of consecutive blocks, which a build from
/// one side reads together; and that build, whose steps are all White's, finds the block
/// man's moves and un-moves in a block where they are its own side's, which costs less
/// (KRN.KRN on 8×8 built in 0.82× the time with White's rook as the block man instead of
/// Black's: docs/SPEED.md). With `apart` (`Indexer::twins_apart`), the last group's last man
/// is a man alone, the rest of it a group of one man fewer (of a pair, two men alone; `None`
/// where the men are not groups of identical men alone).
fn digit_groups(
    men: &[ManKind],
    swap: Option<&ColourSwap>,
    apart: bool,
) -> Option<(Vec<(usize, usize)>, bool)> {
    let mut groups = Vec::new();
    let mut i = 2;
    while i < men.len() {
        if men[i].is_pawn() {
            i += 1;
            continue;
        }
        let mut len = 1;
        while i + len < men.len() && men[i + len] == men[i] {
            len += 1;
        }
        groups.push((i, len));
        i += len;
    }
    if apart {
        match groups.last() {
            Some(&(first, len)) if len >= 2 && !groups.iter().any(|g| g.1 == 1) => {
                groups.pop();
                groups.extend([(first, len - 1), (first + len - 1, 1)]);
            }
            _ => return None,
        }
    }
    if let Some(k) = groups.iter().rposition(|g| g.1 == 1) {
        let single = groups.remove(k);
        groups.push(single);
    }
    // The last man alone in man order is Black's; his partner, White's, becomes the block
    // man, and he the digit before.
    let partner = match (swap, groups.last()) {
        (Some(swap), Some(&(last, 1))) => groups.iter().position(|&g| g == (swap.carrier(last), 1)),
        _ => None,
    };
    if let Some(k) = partner {
        let single = groups.remove(k);
        groups.push(single);
    }
    Some((groups, partner.is_some()))
}

impl Indexer {
    /// The indexer of a material read with `geometry`'s piece set; with `fold` false the
    /// index uses no symmetry (every placement has its own slot).
    pub fn new(material: &Material, geometry: &Geometry, fold: bool) -> Indexer {
        Self::with_twins(material, geometry, fold, false).expect("an index of the material")
    }

    /// For a table with no block man (see `has_blocks`) because its non-royal men (pawns
    /// aside) all come in groups of identical men: an indexer that tells the last man of the
    /// last group apart from the others, as the block man (with pawns, on boards of an even
    /// number of files, where pawn tables have blocks); of a pair, the first man becomes a
    /// man alone too, of three or more men the others a group of one man fewer. Each position
    /// then has as many slots as the group has men (one per man standing apart; of a pair, one
    /// per order), and the table is made of blocks; a build in this layout is packed back into
    /// [`Indexer::new`]'s (see `builder/twins.rs`). `None` for other tables.
    ///
    /// ```
    /// use fairy_egt::board::geometry::Geometry;
    /// use fairy_egt::egt::index::Indexer;
    /// use fairy_egt::egt::material::Material;
    /// use fairy_egt::piece::PieceSet;
    ///
    /// let geometry = Geometry::new(&PieceSet::standard());
    /// let krr = Material::parse("KRR.K", geometry.pieces()).unwrap();
    /// let apart = Indexer::twins_apart(&krr, &geometry, true).unwrap();
    /// assert!(apart.has_blocks() && !Indexer::new(&krr, &geometry, true).has_blocks());
    /// // The rooks' 2016 pairs of squares become 64 · 64 ordered ones.
    /// assert_eq!(apart.size(), 462 * 64 * 64);
    /// // Three knights' 41,664 sets of squares: a pair of them, and the third apart.
    /// let knnn = Material::parse("KNNN.K", geometry.pieces()).unwrap();
    /// let apart = Indexer::twins_apart(&knnn, &geometry, true).unwrap();
    /// assert_eq!(apart.size(), 462 * 2016 * 64);
    /// let krn = Material::parse("KRN.K", geometry.pieces()).unwrap();
    /// assert!(Indexer::twins_apart(&krn, &geometry, true).is_none());
    /// ```
    pub fn twins_apart(material: &Material, geometry: &Geometry, fold: bool) -> Option<Indexer> {
        Self::with_twins(material, geometry, fold, true)
    }

    /// [`Indexer::new`], or with `apart` [`Indexer::twins_apart`].
    fn with_twins(
        material: &Material,
        geometry: &Geometry,
        fold: bool,
        apart: bool,
    ) -> Option<Indexer> {
        let men = material.men();
        let pieces = geometry.pieces();
        let board = geometry.board();
        let n = board.squares();
        let has_pawns = men.iter().any(ManKind::is_pawn);
        // A pawn's promotions are in play too: a symmetry that changes a promotion piece's
        // moves (a one-sided piece such as `lW`) would fold positions whose promotions differ.
        let promoted = (geometry.promotions().iter())
            .filter(|_| has_pawns)
            .map(|p| pieces.piece(p.piece));
        let mut syms = symmetry_group(
            men.iter().map(|m| pieces.piece(m.piece)).chain(promoted),
            board,
        );
        if !fold {
            syms.truncate(1);
        }
        if has_pawns {
            // A pawn's rank is part of the slice: only symmetries keeping every square's rank
            // fold (the identity and the left-right mirror).
            let rank = |s| board.rank_of(s);
            syms.retain(|&g| {
                board
                    .all_squares()
                    .all(|s| rank(board.image(g, s)) == rank(s))
            });
        }
        let images: Vec<Vec<Square>> = syms
            .iter()
            .map(|&g| board.all_squares().map(|s| board.image(g, s)).collect())
            .collect();
        // A royal pair is left out when each royal captures the other whatever stands between.
        // With pawns, the pairs are those of the identity, and those folded by the mirror are
        // numbered as the identity numbers them (for the slices the mirror maps onto
        // themselves).
        let (pairs, pair_slot, pair_slot_sym) = with_tables!(geometry, |t| {
            let royal = [0, 1].map(|i| t.moves(men[i].piece, men[i].color));
            let mutual = |a, b| {
                royal[0].attacks_whatever_between(a, b) && royal[1].attacks_whatever_between(b, a)
            };
            if has_pawns {
                let (pairs, plain) = royal_pairs(n, &images[..1], mutual);
                let sym = match images.len() {
                    1 => Vec::new(),
                    _ => renumbered(n, royal_pairs(n, &images, mutual), &plain),
                };
                (pairs, plain, sym)
            } else {
                let (pairs, slots) = royal_pairs(n, &images, mutual);
                (pairs, slots, Vec::new())
            }
        });
        let swap = ColourSwap::new(material, board);
        let (digits, _) = digit_groups(men, swap.as_ref(), apart)?;
        let groups: Vec<Group> = (digits.iter())
            .map(|&(start, len)| Group::new(start, len, n))
            .collect();
        // With pawns, blocks only where the mirror fixes no square (an even number of files).
        let block_man = groups
            .last()
            .filter(|g| g.len == 1 && men.len() > 2)
            .filter(|_| !has_pawns || board.files().is_multiple_of(2))
            .map(|g| g.start);
        if apart && block_man.is_none() {
            return None;
        }
        let rest: u64 = groups.iter().map(|g| g.size).product();
        let mut strides = [0; MAX_MEN];
        let mut group_digits = [None; MAX_MEN];
        let mut stride = 1;
        for (k, g) in groups.iter().enumerate().rev() {
            if g.len == 1 {
                strides[g.start] = stride;
            } else {
                group_digits[g.start..g.start + g.len].fill(Some((k, stride)));
            }
            stride *= g.size;
        }
        let rest_shift = rest.is_power_of_two().then(|| rest.trailing_zeros());
        // Told apart, the pair's first man is the digit before the block man (`digit_groups`).
        let block_twin = (apart && groups.len() >= 2)
            .then(|| groups[groups.len() - 2].start)
            .filter(|&t| strides[t] == n as u64);
        let block_strides = std::array::from_fn(|i| {
            let stride = group_digits[i].map_or(strides[i], |(_, stride)| stride);
            stride / n as u64
        });
        let folds = match block_man {
            Some(_) => (syms.iter().zip(&images))
                .map(|(&g, image)| Fold::new(g, image))
                .collect(),
            None => Vec::new(),
        };
        let slices = has_pawns.then(|| {
            let pawns = [Color::White, Color::Black].map(|c| {
                let first = men.iter().position(|m| m.is_pawn() && m.color == c);
                let count = men.iter().filter(|m| m.is_pawn() && m.color == c).count();
                first.map_or(0..0, |f| f..f + count)
            });
            let mirror = images.get(1).map(Vec::as_slice);
            Slices::new(
                pawns,
                board,
                mirror,
                pairs.len() as u64 * rest,
                pair_slot_sym,
            )
        });
        Some(Indexer {
            men: men.len(),
            n,
            files: board.files() as usize,
            syms,
            images,
            pairs,
            pair_slot,
            groups,
            rest,
            rest_shift,
            rest_divisor: Divisor::new(rest),
            strides,
            group_digits,
            block_man,
            block_twin,
            folds,
            block_shift: n.is_power_of_two().then(|| n.trailing_zeros()),
            block_divisor: Divisor::new(n as u64),
            block_strides,
            pair_blocks: Divisor::new((rest / n as u64).max(1)),
            slice_blocks: Divisor::new(slices.as_ref().map_or(1, |s| s.size / n as u64)),
            slices,
            swap,
        })
    }

    /// Whether the index of `material` on `board` has men out of man order for the colour
    /// swap (see `digit_groups`): a layout that tables saved before it did not have, which
    /// their files' keys tell apart (`TableKey`).
    ///
    /// ```
    /// use fairy_egt::board::BoardSize;
    /// use fairy_egt::egt::index::Indexer;
    /// use fairy_egt::egt::material::Material;
    /// use fairy_egt::piece::PieceSet;
    ///
    /// let pieces = PieceSet::standard();
    /// let swapped = |name| Indexer::partner_moved(&Material::parse(name, &pieces).unwrap(), BoardSize::STANDARD);
    /// // The white rook, the block man, has the black rook's digit before him.
    /// assert!(swapped("KRN.KRN") && swapped("KQ.KQ"));
    /// // KRN.KR has no swap, KNN.KNN no man alone.
    /// assert!(!swapped("KRN.KR") && !swapped("KNN.KNN"));
    /// ```
    pub fn partner_moved(material: &Material, board: BoardSize) -> bool {
        let swap = ColourSwap::new(material, board);
        digit_groups(material.men(), swap.as_ref(), false).is_some_and(|(_, moved)| moved)
    }

    /// The colour swap of the material, when both sides have the same men.
    #[inline]
    pub fn colour_swap(&self) -> Option<&ColourSwap> {
        self.swap.as_ref()
    }

    /// The slot of the colour swap's image of the placement `sq` (see [`ColourSwap`]): where
    /// a table stored once holds the position `sq` with Black to move, as its image with
    /// White to move. `None` if the image has no slot.
    ///
    /// # Panics
    /// If the sides' men differ (no colour swap).
    #[inline]
    pub fn image_index(&self, sq: &Squares) -> Option<u64> {
        let swap = self.swap.as_ref().expect("the sides have the same men");
        self.index(&swap.placement(sq, self.men))
    }

    /// The slot of the colour swap's image of slot `index`'s placement (see
    /// [`Indexer::image_index`]); `None` if it is a hole.
    #[inline]
    pub fn image_slot(&self, index: u64) -> Option<u64> {
        self.image_index(&self.decode(index)?)
    }

    /// Number of men.
    pub fn men(&self) -> usize {
        self.men
    }

    /// Whether man `i` is a pawn (his square is part of the slice).
    #[inline]
    fn is_pawn(&self, i: usize) -> bool {
        self.slices
            .as_ref()
            .is_some_and(|s| s.men().any(|m| m == i))
    }

    /// Bytes the indexer keeps on the heap (its lookup tables).
    pub fn heap_bytes(&self) -> u64 {
        fn of<T>(v: &Vec<T>) -> u64 {
            (v.capacity() * std::mem::size_of::<T>()) as u64
        }
        of(&self.syms)
            + of(&self.images)
            + self.images.iter().map(of).sum::<u64>()
            + of(&self.pairs)
            + of(&self.pair_slot)
            + of(&self.groups)
            + self.groups.iter().map(|g| of(&g.unrank)).sum::<u64>()
            + of(&self.folds)
            + self.slices.as_ref().map_or(0, Slices::heap_bytes)
            + self.swap.as_ref().map_or(0, |s| of(&s.flip))
    }

    /// Number of index slots (holes included).
    pub fn size(&self) -> u64 {
        match &self.slices {
            Some(s) => s.count() * s.size,
            None => self.pairs.len() as u64 * self.rest,
        }
    }

    /// Slots per pawn slice: a multiple of `block_len` (the table's size without pawns). The
    /// slots of slice s are `s · slice_size() ..`, the pair-and-rest index of its placements
    /// and then holes up to the next multiple of `block_len`.
    pub fn slice_size(&self) -> u64 {
        self.slices.as_ref().map_or(self.size(), |s| s.size)
    }

    /// The layers: runs of slices of equal pawn progress, in build order, as ranges of slots.
    /// Every pawn move leads from a layer to an earlier one; each starts on a multiple of
    /// `block_len`.
    /// A table without pawns is one layer.
    pub fn layers(&self) -> Vec<Range<u64>> {
        match &self.slices {
            Some(s) => (s.layers().iter())
                .map(|l| l.start as u64 * s.size..l.end as u64 * s.size)
                .collect(),
            None => std::iter::once(0..self.size()).collect(),
        }
    }

    /// Slots the tables of this index hold: `size` rounded up to a whole number of blocks
    /// (`block_len`), the slots past it holes.
    pub fn padded_size(&self) -> u64 {
        self.size().next_multiple_of(self.n as u64)
    }

    /// Slots of a block: the board's squares. The builder works on a table a block at a time,
    /// whether it has a block man (see `has_blocks`) or not: its sets hold a block's slots in
    /// a set of squares (slot B·w + x as square x), and its tables are a whole number of
    /// blocks long.
    #[inline]
    pub fn block_len(&self) -> usize {
        self.n
    }

    /// Number of royal pairs (per slice, with pawns: every pair of the identity).
    pub fn pair_count(&self) -> usize {
        self.pairs.len()
    }

    /// Number of *chunks*, the (slice, royal pair) runs of contiguous slots, in index order.
    pub fn chunk_count(&self) -> u64 {
        self.pairs.len() as u64 * self.slices.as_ref().map_or(1, Slices::count)
    }

    /// The chunks whose slots are in `slots`, a range of whole slices (a layer, or the
    /// whole table).
    pub fn chunks_of(&self, slots: &Range<u64>) -> Range<u64> {
        let (size, pairs) = (self.slice_size(), self.pairs.len() as u64);
        debug_assert!(slots.start.is_multiple_of(size) && slots.end.is_multiple_of(size));
        slots.start / size * pairs..slots.end / size * pairs
    }

    /// Number of pawn slices; `None` without pawns.
    pub fn slice_count(&self) -> Option<u64> {
        self.slices.as_ref().map(Slices::count)
    }

    /// The slots of chunk `chunk` (a multiple of `block_len` apart when the table has blocks).
    pub fn chunk_slots(&self, chunk: u64) -> Range<u64> {
        let pairs = self.pairs.len() as u64;
        let (slice, pair) = (chunk / pairs, chunk % pairs);
        let start = slice * self.slice_size() + pair * self.rest;
        start..start + self.rest
    }

    /// Whether the placements of chunk `chunk` are plain (see `is_plain`).
    pub fn chunk_is_plain(&self, chunk: u64) -> bool {
        self.is_plain(&self.chunk_men(chunk))
    }

    /// The royals' and pawns' squares of a chunk (other men on square 0).
    fn chunk_men(&self, chunk: u64) -> Squares {
        let pairs = self.pairs.len() as u64;
        let (slice, pair) = (chunk / pairs, chunk % pairs);
        let (a, b) = self.pairs[pair as usize];
        let placed = self.slices.as_ref().map_or(0, |s| s.placed(slice));
        let packed = a as u64 | (b as u64) << 8 | placed;
        let mut sq = [0; MAX_MEN];
        sq.copy_from_slice(&packed.to_le_bytes()[..MAX_MEN]);
        sq
    }

    /// Size of the symmetry group used (1, 2, 4 or 8).
    pub fn symmetry(&self) -> usize {
        self.syms.len()
    }

    /// The symmetry group used: each placement's slot is that of the least image under it.
    pub fn symmetries(&self) -> &[Sym] {
        &self.syms
    }

    /// Whether a placement's royal pair is canonical as it stands and fixed by no other
    /// symmetry: then moving a man that is alone in its group shifts the index by
    /// `(to − from) · stride(man)` (see `shifted`).
    /// With pawns, the placement must also be in its slice's own orientation.
    #[inline]
    pub fn is_plain(&self, sq: &Squares) -> bool {
        if let Some(s) = &self.slices {
            return self.is_plain_sliced(s, sq);
        }
        self.pair_slot[sq[0] as usize * self.n + sq[1] as usize].1 == 1
    }

    /// `is_plain` with pawns.
    fn is_plain_sliced(&self, s: &Slices, sq: &Squares) -> bool {
        s.locate(sq).is_some_and(|(slice, orientation)| {
            let slots = s.pair_slots(slice, &self.pair_slot);
            orientation == 0 && slots[sq[0] as usize * self.n + sq[1] as usize].1 == 1
        })
    }

    /// Index after man `i` of the placement `sq` (slot `index`, `plain` as `is_plain`)
    /// moves, given the new placement `moved`; `None` if the new placement has no slot.
    /// Cheap when `sq` is plain: a man alone in its group shifts the index by a stride, one of
    /// identical men by the change of his group's rank times the group's stride, and a royal
    /// landing on another plain pair keeps the rest of the index.
    #[inline]
    pub fn after_move(
        &self,
        index: u64,
        plain: bool,
        sq: &Squares,
        i: usize,
        moved: &Squares,
    ) -> Option<u64> {
        if plain {
            if i < 2 {
                // With pawns the pair is numbered within the slice, whose pawns stay, by the
                // slice's own pair table (folded by the mirror in a symmetric slice).
                let (base, within, pair_slot) = match &self.slices {
                    Some(s) => {
                        let (slice, within) = s.divisor.div_rem(index);
                        (
                            slice * s.size,
                            within,
                            s.pair_slots(slice as u32, &self.pair_slot),
                        )
                    }
                    None => (0, index, &self.pair_slot[..]),
                };
                let (pair, mask) = pair_slot[moved[0] as usize * self.n + moved[1] as usize];
                if pair == NO_PAIR {
                    return None;
                }
                if mask == 1 {
                    return Some(base + pair as u64 * self.rest + self.split(within).1);
                }
            } else {
                // A pawn has no stride: his move changes the slice, the slow path.
                let stride = self.strides[i] as i64;
                if stride != 0 {
                    return Some((index as i64 + (moved[i] as i64 - sq[i] as i64) * stride) as u64);
                }
                if let Some((g, stride)) = self.group_digits[i] {
                    let group = &self.groups[g];
                    let change = group.rank(moved) as i64 - group.rank(sq) as i64;
                    return Some((index as i64 + change * stride as i64) as u64);
                }
            }
        }
        self.index(moved)
    }

    /// (pair number, rest) of an index (of an index within its slice, with pawns).
    #[inline]
    fn split(&self, index: u64) -> (u64, u64) {
        match self.rest_shift {
            Some(shift) => (index >> shift, index & (self.rest - 1)),
            None => self.rest_divisor.div_rem(index),
        }
    }

    /// Index of a placement (men on distinct squares, canonical man order), or `None` when
    /// its royal pair is left out of the table (every such position is illegal).
    /// With pawns, also `None` when a pawn stands on his first or last rank.
    #[inline]
    pub fn index(&self, sq: &Squares) -> Option<u64> {
        if let Some(s) = &self.slices {
            return self.index_sliced(s, sq);
        }
        self.index_in(self.pair_slot[sq[0] as usize * self.n + sq[1] as usize], sq)
    }

    /// `index` with pawns: the placement turned to its slice's orientation, then indexed
    /// in the slice with its pair slots.
    fn index_sliced(&self, s: &Slices, sq: &Squares) -> Option<u64> {
        let (slice, orientation) = s.locate(sq)?;
        let sq = &self.oriented(sq, orientation);
        let slots = s.pair_slots(slice, &self.pair_slot);
        let within = self.index_in(slots[sq[0] as usize * self.n + sq[1] as usize], sq)?;
        Some(slice as u64 * s.size + within)
    }

    /// The image of a placement under element `k` of G.
    fn oriented(&self, sq: &Squares, k: usize) -> Squares {
        let mut image = *sq;
        if k != 0 {
            for (to, &from) in image[..self.men].iter_mut().zip(sq) {
                *to = self.images[k][from as usize];
            }
        }
        image
    }

    /// `pair · rest + r` of a placement whose royal pair has the slot `(pair, mask)`.
    #[inline]
    fn index_in(&self, (pair, mask): PairSlot, sq: &Squares) -> Option<u64> {
        if pair == NO_PAIR {
            return None;
        }
        if mask == 1 {
            return Some(pair as u64 * self.rest + self.rest_plain(sq));
        }
        let best = least_rest(mask, |i| self.rest_of(&self.images[i], sq));
        Some(pair as u64 * self.rest + best)
    }

    /// The slots of the placements `sq` with man `m` moved to any square: `base + stride ·
    /// image[x]` for square x, when one symmetry alone takes their royal pair to its canonical
    /// pair (`image` is its action on the squares: the identity's for a plain pair) and man m
    /// is alone in his group; `None` otherwise. Slots whose men share a square are holes.
    /// With pawns, the placement must be in its slice's own orientation, and a pawn has no
    /// line.
    #[inline]
    pub fn line(&self, sq: &Squares, m: usize) -> Option<(u64, u64, &[Square])> {
        let stride = self.strides[m];
        let (base, slots) = match &self.slices {
            None => (0, &self.pair_slot[..]),
            Some(s) => {
                let (slice, orientation) = s.locate(sq)?;
                if orientation != 0 {
                    return None;
                }
                (slice as u64 * s.size, s.pair_slots(slice, &self.pair_slot))
            }
        };
        let (pair, mask) = slots[sq[0] as usize * self.n + sq[1] as usize];
        if m < 2 || stride == 0 || pair == NO_PAIR || !mask.is_power_of_two() {
            return None;
        }
        let mut at_zero = *sq;
        at_zero[m] = 0;
        let k = mask.trailing_zeros() as usize;
        let image = &self.images[k][..];
        // Man m alone in his group adds stride · image[x] to the rest (image[0] here).
        let rest = match k {
            0 => self.rest_plain(&at_zero),
            _ => self.rest_of(image, &at_zero) - stride * image[0] as u64,
        };
        Some((base + pair as u64 * self.rest + rest, stride, image))
    }

    /// `rest_of` under the identity.
    #[inline]
    fn rest_plain(&self, sq: &Squares) -> u64 {
        let mut r = 0;
        for g in &self.groups {
            r = r * g.size + g.rank(sq);
        }
        r
    }

    #[inline]
    fn rest_of(&self, image: &[Square], sq: &Squares) -> u64 {
        let mut r = 0;
        for g in &self.groups {
            r = r * g.size + g.rank_mapped(sq, |x| image[x as usize]);
        }
        r
    }

    /// The placement of a slot, or `None` for a hole (men sharing a square, a placement that
    /// is not the canonical one of its symmetry class, or a slot of the last block beyond
    /// the table's [`size`](Indexer::size), as in K.K's 462 pairs of 8 blocks).
    #[inline]
    pub fn decode(&self, index: u64) -> Option<Squares> {
        if let Some(s) = &self.slices {
            return self.decode_sliced(s, index);
        }
        if index >= self.size() {
            return None;
        }
        let sq = self.digits_in(index, 0);
        if !distinct(&sq[..self.men]) {
            return None;
        }
        let (_, mask) = self.pair_slot[sq[0] as usize * self.n + sq[1] as usize];
        if mask != 1 && self.index(&sq) != Some(index) {
            return None;
        }
        Some(sq)
    }

    /// `decode` with pawns: padding slots are holes, and in a slice its own mirror image
    /// the placements whose mirror image has the smaller index.
    fn decode_sliced(&self, s: &Slices, index: u64) -> Option<Squares> {
        let (slice, within) = s.divisor.div_rem(index);
        let sq = self.digits_sliced(s, slice, within)?;
        if !distinct(&sq[..self.men]) {
            return None;
        }
        if s.is_symmetric(slice as u32) && self.index(&sq) != Some(index) {
            return None;
        }
        Some(sq)
    }

    /// The squares an index's digits name, whether or not they form a placement; `None`
    /// for a padding slot of a pawn slice.
    #[inline]
    fn digits(&self, index: u64) -> Option<Squares> {
        match &self.slices {
            None => Some(self.digits_in(index, 0)),
            Some(s) => {
                let (slice, within) = s.divisor.div_rem(index);
                self.digits_sliced(s, slice, within)
            }
        }
    }

    /// `digits` of the index `within` slice `slice`.
    #[inline]
    fn digits_sliced(&self, s: &Slices, slice: u64, within: u64) -> Option<Squares> {
        let used = slice < s.count() && within < self.pairs.len() as u64 * self.rest;
        used.then(|| self.digits_in(within, s.placed(slice)))
    }

    /// The squares of a pair-and-rest index, with the men's squares `placed` (packed as in
    /// `unpack`) added.
    #[inline]
    fn digits_in(&self, index: u64, placed: u64) -> Squares {
        let (pair, r) = self.split(index);
        let (a, b) = self.pairs[pair as usize];
        // The squares are packed in a word, not stored byte by byte, so that reading them
        // back does not wait.
        self.unpack(r, a as u64 | (b as u64) << 8 | placed)
    }

    /// The squares of `packed` (men's squares, each in its byte) with those of the groups'
    /// digits of `r` added.
    #[inline]
    fn unpack(&self, mut r: u64, mut packed: u64) -> Squares {
        if self.rest_shift.is_some() {
            // No identical men: every group is one man, whose digit is one square, at his
            // stride (pawns are no group: their squares come with the slice, in `packed`).
            for g in &self.groups {
                let digit = r >> self.strides[g.start].trailing_zeros() & (self.n as u64 - 1);
                packed |= digit << (8 * g.start);
            }
        } else {
            // Each digit split off by a multiplication.
            for g in self.groups.iter().rev() {
                let (rest, digit) = g.divisor.div_rem(r);
                r = rest;
                if g.len == 1 {
                    packed |= digit << (8 * g.start);
                } else {
                    let squares = &g.unrank[digit as usize][..g.len];
                    for (k, &s) in squares.iter().enumerate() {
                        packed |= (s as u64) << (8 * (g.start + k));
                    }
                }
            }
        }
        let mut sq = [0; MAX_MEN];
        sq.copy_from_slice(&packed.to_le_bytes()[..MAX_MEN]);
        sq
    }

    /// Calls `f(index, placement)` for every slot of one chunk in order, `None` for holes:
    /// the same as `decode` on each slot, without the divisions.
    pub fn for_each_slot_of_chunk(&self, chunk: u64, mut f: impl FnMut(u64, Option<&Squares>)) {
        let base = self.chunk_slots(chunk).start;
        let mut sq = self.chunk_men(chunk);
        let plain = self.is_plain(&sq);
        let mut ranks = [0u64; MAX_MEN];
        for g in &self.groups {
            g.place(0, &mut sq);
        }
        for r in 0..self.rest {
            let valid = distinct(&sq[..self.men]) && (plain || self.index(&sq) == Some(base + r));
            f(base + r, valid.then_some(&sq));
            for (k, g) in self.groups.iter().enumerate().rev() {
                ranks[k] += 1;
                if ranks[k] < g.size {
                    g.place(ranks[k], &mut sq);
                    break;
                }
                ranks[k] = 0;
                g.place(0, &mut sq);
            }
        }
    }

    /// Number of distinct placements (identical men unordered) in the symmetry class of a
    /// canonical placement: |G| divided by the size of its stabiliser.
    /// With pawns: 2 in a slice that is not its own mirror image (when G has the mirror),
    /// else as without.
    pub fn orbit_size(&self, sq: &Squares) -> u64 {
        let mut slots = &self.pair_slot[..];
        if let Some(s) = &self.slices {
            let slice = s.locate(sq).expect("a canonical placement").0;
            if !s.is_symmetric(slice) {
                return self.syms.len() as u64;
            }
            slots = s.pair_slots(slice, &self.pair_slot);
        }
        let (_, mask) = slots[sq[0] as usize * self.n + sq[1] as usize];
        if mask == 1 {
            return self.syms.len() as u64;
        }
        let own = self.rest_of(&self.images[0], sq);
        let fixed = (0..self.syms.len())
            .filter(|&i| mask & (1 << i) != 0 && self.rest_of(&self.images[i], sq) == own)
            .count();
        (self.syms.len() / fixed) as u64
    }

    /// Number of placements of the men on distinct squares of the full board, identical men
    /// counted once per unordered placement, and no pawn on his first or last rank.
    pub fn full_board_placements(&self) -> u64 {
        let (mut total, mut free) = match &self.slices {
            None => (1, self.n as u64),
            Some(s) => {
                let pawns = s.pawns();
                (
                    pawn_placements(s.span(), pawns),
                    self.n as u64 - pawns[0] - pawns[1],
                )
            }
        };
        total *= free * (free - 1);
        free -= 2;
        for g in &self.groups {
            total *= binomial(free, g.len as u64);
            free -= g.len as u64;
        }
        total
    }
}

/// Whether the squares are pairwise distinct.
#[inline]
fn distinct(squares: &[Square]) -> bool {
    (1..squares.len()).all(|i| !squares[..i].contains(&squares[i]))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::piece::PieceSet;

    fn material(spec: &str, set: &PieceSet) -> Material {
        Material::parse(spec, set).unwrap()
    }

    #[test]
    fn every_placement_round_trips_and_orbits_cover_the_board() {
        let set = PieceSet::standard();
        let geo = Geometry::new(&set);
        for spec in ["KR.K", "KNN.K"] {
            let ix = Indexer::new(&material(spec, &set), &geo, true);
            let mut covered = 0u64;
            for i in 0..ix.size() {
                if let Some(sq) = ix.decode(i) {
                    assert_eq!(ix.index(&sq), Some(i));
                    covered += ix.orbit_size(&sq);
                }
            }
            for c in 0..ix.chunk_count() {
                ix.for_each_slot_of_chunk(c, |i, sq| assert_eq!(sq.copied(), ix.decode(i)));
            }
            // Every placement without adjacent kings is covered exactly once.
            let adjacent_pairs = 420u64; // ordered pairs of adjacent squares on 8x8
            let others = ix.full_board_placements() / (64 * 63);
            assert_eq!(
                covered,
                ix.full_board_placements() - adjacent_pairs * others,
                "{spec}"
            );
        }
    }

    /// `after_move` gives the index of the placement moved for every man and target square:
    /// lone men (a stride), identical men (their group's rank), royals, pawns, on plain and
    /// other royal pairs, on 8×8 and 10×8.
    #[test]
    fn a_move_reaches_the_index_of_the_placement_moved() {
        let set = PieceSet::standard();
        let boards = [
            (
                BoardSize::STANDARD,
                &["KNN.KB", "KRR.KN", "KNNN.K", "KNN.KP", "KPP.KN"][..],
            ),
            (BoardSize::new(10, 8).unwrap(), &["KBB.KNN", "KRR.KP"][..]),
        ];
        let mut other = 0;
        for (board, specs) in boards {
            let geo = Geometry::on(&set, board);
            let n = board.squares() as u8;
            for &spec in specs {
                let ix = Indexer::new(&material(spec, &set), &geo, true);
                let mut plain = 0;
                for z in (0..ix.size()).step_by(31_337) {
                    let Some(sq) = ix.decode(z) else { continue };
                    let is_plain = ix.is_plain(&sq);
                    for i in 0..ix.men {
                        for t in (0..n).filter(|t| !sq[..ix.men].contains(t)) {
                            let mut moved = sq;
                            moved[i] = t;
                            let after = ix.after_move(z, is_plain, &sq, i, &moved);
                            assert_eq!(after, ix.index(&moved), "{spec} {sq:?} man {i} to {t}");
                            plain += u64::from(is_plain);
                            other += u64::from(!is_plain);
                        }
                    }
                }
                assert!(plain > 10_000, "{spec}: {plain}");
            }
        }
        assert!(other > 10_000, "{other} moves from other royal pairs");
    }

    /// A line's slots are the index of each placement on it, and lines exist exactly for
    /// lone men of royal pairs that one symmetry alone takes to their canonical pair (plain
    /// ones, and their images).
    #[test]
    fn lines_agree_with_the_index() {
        let set = PieceSet::standard();
        let geo = Geometry::new(&set);
        for spec in ["KBN.K", "KRR.KN"] {
            let ix = Indexer::new(&material(spec, &set), &geo, true);
            let (mut lines, mut checked) = (0, 0);
            let mut mapped = 0;
            for i in (0..ix.size()).step_by(97) {
                let Some(canonical) = ix.decode(i) else {
                    continue;
                };
                // The placement and its images: their pairs go to the canonical one by the
                // inverse symmetry (by several, where a symmetry fixes the pair).
                for k in 0..ix.images.len() {
                    let sq = ix.oriented(&canonical, k);
                    let (_, mask) = ix.pair_slot[sq[0] as usize * ix.n + sq[1] as usize];
                    let one = mask.is_power_of_two();
                    for m in 0..ix.men {
                        let alone = m >= 2 && ix.strides[m] != 0;
                        match ix.line(&sq, m) {
                            Some((base, stride, image)) => {
                                assert!(alone && one, "{spec} {sq:?} {m}");
                                lines += 1;
                                mapped += usize::from(k != 0);
                                for x in 0..64u8 {
                                    let mut s = sq;
                                    s[m] = x;
                                    if distinct(&s[..ix.men]) {
                                        let slot = base + stride * image[x as usize] as u64;
                                        assert_eq!(ix.index(&s), Some(slot));
                                        checked += 1;
                                    }
                                }
                            }
                            None => assert!(!alone || !one, "{spec} {sq:?} {m}"),
                        }
                    }
                }
            }
            assert!(
                lines > 100 && checked > 1000 && mapped > 100,
                "{spec}: {lines} lines"
            );
        }
    }

    /// A man's slots are the index of the placement with the man on each square: royals (of
    /// every royal pair, with pawns in both orientations of a slice), lone men, men of a pair,
    /// on 8×8 and 10×8; and they exist for every royal and every lone man or man of a pair
    /// whose royal pair one symmetry alone folds (without pawns).
    #[test]
    fn man_slots_agree_with_the_index() {
        let set = PieceSet::standard();
        let boards = [
            (
                BoardSize::STANDARD,
                &["KRR.KN", "KQQ.KBB", "KRP.KR", "KP.KRR"][..],
            ),
            (BoardSize::new(10, 8).unwrap(), &["KBB.KN", "KRP.KR"][..]),
        ];
        let mut seen = [0u64; 3];
        for (board, specs) in boards {
            let geo = Geometry::on(&set, board);
            let n = board.squares() as u8;
            for &spec in specs {
                let ix = Indexer::new(&material(spec, &set), &geo, true);
                let mut unfolded = 0;
                // About 1500 placements of each table, each in every orientation.
                for z in (0..ix.size()).step_by((ix.size() / 1500) as usize | 1) {
                    let Some(canonical) = ix.decode(z) else {
                        continue;
                    };
                    for k in 0..ix.images.len() {
                        // With pawns, the placement and its mirror image (another orientation).
                        let sq = ix.oriented(&canonical, k);
                        let (_, mask) = match &ix.slices {
                            None => ix.pair_slot[sq[0] as usize * ix.n + sq[1] as usize],
                            Some(_) => (0, 1),
                        };
                        for m in 0..ix.men {
                            let served = m < 2
                                || (ix.slices.is_none()
                                    && mask.is_power_of_two()
                                    && (ix.strides[m] != 0
                                        || ix.group_digits[m]
                                            .is_some_and(|(g, _)| ix.groups[g].len == 2)));
                            let Some(slots) = ix.man_slots(&sq, m) else {
                                assert!(!served || ix.slices.is_some(), "{spec} {sq:?} {m}");
                                continue;
                            };
                            let kind = match slots {
                                ManSlots::Royal { .. } => 0,
                                ManSlots::Line { .. } => 1,
                                ManSlots::Twin { .. } => 2,
                            };
                            for x in (0..n).filter(|x| !sq[..ix.men].contains(x)) {
                                let mut moved = sq;
                                moved[m] = x;
                                assert_eq!(
                                    slots.slot(x),
                                    ix.index(&moved),
                                    "{spec} {sq:?} {m} {x}"
                                );
                                seen[kind] += 1;
                                unfolded += u64::from(k != 0);
                            }
                        }
                    }
                }
                assert!(unfolded > 1000, "{spec}: {unfolded}");
            }
        }
        assert!(seen.iter().all(|&s| s > 10_000), "{seen:?}");
    }
}
