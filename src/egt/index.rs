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
//! group is not alone (see `Indexer::has_blocks`). Where G fixes the royal
//! pair, a placement is canonical if no symmetry fixing the pair gives a smaller `r`. Slots whose
//! men share a square, or that are not canonical, are holes.

use crate::board::{geometry::Geometry, Square, Sym, BOARD_SQUARES};
use crate::egt::material::{Material, Squares, MAX_MEN};
use crate::piece::symmetry::symmetry_group;

const NO_PAIR: u32 = u32::MAX;

/// A run of identical non-royal men in canonical man order.
#[derive(Clone, Debug)]
struct Group {
    start: usize,
    len: usize,
    size: u64,
    /// Squares of each rank (len > 1 only), ascending.
    unrank: Vec<[Square; MAX_MEN]>,
}

/// Maps placements of one material to table indexes and back.
#[derive(Clone, Debug)]
pub struct Indexer {
    men: usize,
    syms: Vec<Sym>,
    images: Vec<[Square; BOARD_SQUARES]>,
    pairs: Vec<(Square, Square)>,
    /// For each ordered pair (a·64 + b): its canonical pair number and the mask of the G
    /// elements (bit i = syms[i]) that map it onto its canonical pair.
    pair_slot: Vec<(u32, u8)>,
    groups: Vec<Group>,
    rest: u64,
    /// log2(rest) when rest is a power of two (no identical men), for cheap division.
    rest_shift: Option<u32>,
    /// Per man: index step of one square for a man alone in its group (0 otherwise).
    strides: [u64; MAX_MEN],
    /// The man whose square is the last digit of the index, if he is alone in his group.
    block_man: Option<usize>,
    /// Per element of G: the fold of a block fixed by it.
    folds: Vec<Fold>,
}

fn binomial(n: u64, k: u64) -> u64 {
    if k > n {
        return 0;
    }
    (0..k).fold(1, |acc, i| acc * (n - i) / (i + 1))
}

impl Indexer {
    /// The indexer of a material whose letters are all in `geometry`; with `fold` false the
    /// index uses no symmetry (every placement has its own slot).
    pub fn new(
        material: &Material,
        geometry: &Geometry,
        pieces: &crate::piece::PieceSet,
        fold: bool,
    ) -> Indexer {
        let men = material.men();
        let mut syms = symmetry_group(men.iter().filter_map(|m| pieces.get(m.letter)));
        if !fold {
            syms.truncate(1);
        }
        let images: Vec<[Square; BOARD_SQUARES]> = syms
            .iter()
            .map(|g| std::array::from_fn(|s| g.square(s as Square)))
            .collect();
        let royal_moves = [
            geometry
                .moves(men[0].letter, men[0].color)
                .expect("material letters are defined"),
            geometry
                .moves(men[1].letter, men[1].color)
                .expect("material letters are defined"),
        ];
        // A royal pair is left out when each royal captures the other whatever stands between.
        let mutual = |a: Square, b: Square| {
            royal_moves[0].attacks(a, b, !0) && royal_moves[1].attacks(b, a, !0)
        };
        let mut pair_slot = vec![(NO_PAIR, 0u8); BOARD_SQUARES * BOARD_SQUARES];
        let mut pairs = Vec::new();
        for a in 0..BOARD_SQUARES as Square {
            for b in 0..BOARD_SQUARES as Square {
                if a == b || mutual(a, b) {
                    continue;
                }
                let key = |i: usize| (images[i][a as usize], images[i][b as usize]);
                let canon = (0..syms.len())
                    .map(key)
                    .min()
                    .expect("G contains the identity");
                let mask = (0..syms.len())
                    .filter(|&i| key(i) == canon)
                    .fold(0u8, |m, i| m | 1 << i);
                let number = if canon == (a, b) {
                    pairs.push((a, b));
                    (pairs.len() - 1) as u32
                } else {
                    pair_slot[canon.0 as usize * BOARD_SQUARES + canon.1 as usize].0
                };
                pair_slot[a as usize * BOARD_SQUARES + b as usize] = (number, mask);
            }
        }
        let mut groups: Vec<Group> = Vec::new();
        let mut i = 2;
        while i < men.len() {
            let mut len = 1;
            while i + len < men.len() && men[i + len] == men[i] {
                len += 1;
            }
            let size = binomial(BOARD_SQUARES as u64, len as u64);
            let mut unrank = Vec::new();
            if len > 1 {
                unrank = vec![[0; MAX_MEN]; size as usize];
                let mut combo: Vec<Square> = (0..len as Square).collect();
                loop {
                    let mut sq = [0; MAX_MEN];
                    sq[..len].copy_from_slice(&combo);
                    unrank[rank_sorted(&sq[..len]) as usize] = sq;
                    // Next combination in lexicographic order.
                    let mut k = len;
                    while k > 0 && combo[k - 1] as usize == BOARD_SQUARES - len + k - 1 {
                        k -= 1;
                    }
                    if k == 0 {
                        break;
                    }
                    combo[k - 1] += 1;
                    for j in k..len {
                        combo[j] = combo[j - 1] + 1;
                    }
                }
            }
            groups.push(Group {
                start: i,
                len,
                size,
                unrank,
            });
            i += len;
        }
        // The last digit is a man alone in his group where there is one (the last such man in
        // man order), so that the table is made of blocks (see `has_blocks`).
        if let Some(k) = groups.iter().rposition(|g| g.len == 1) {
            let single = groups.remove(k);
            groups.push(single);
        }
        let block_man = groups
            .last()
            .filter(|g| g.len == 1 && men.len() > 2)
            .map(|g| g.start);
        let rest: u64 = groups.iter().map(|g| g.size).product();
        let mut strides = [0; MAX_MEN];
        let mut stride = 1;
        for g in groups.iter().rev() {
            if g.len == 1 {
                strides[g.start] = stride;
            }
            stride *= g.size;
        }
        let rest_shift = rest.is_power_of_two().then(|| rest.trailing_zeros());
        let folds = syms.iter().map(|&g| Fold::new(g)).collect();
        Indexer {
            men: men.len(),
            syms,
            images,
            pairs,
            pair_slot,
            groups,
            rest,
            rest_shift,
            strides,
            block_man,
            folds,
        }
    }

    /// Number of men.
    pub fn men(&self) -> usize {
        self.men
    }

    /// Bytes the indexer keeps on the heap (its lookup tables).
    pub fn heap_bytes(&self) -> u64 {
        fn of<T>(v: &Vec<T>) -> u64 {
            (v.capacity() * std::mem::size_of::<T>()) as u64
        }
        of(&self.syms)
            + of(&self.images)
            + of(&self.pairs)
            + of(&self.pair_slot)
            + of(&self.groups)
            + self.groups.iter().map(|g| of(&g.unrank)).sum::<u64>()
            + of(&self.folds)
    }

    /// Number of index slots (holes included).
    pub fn size(&self) -> u64 {
        self.pairs.len() as u64 * self.rest
    }

    /// Slots per royal pair; the slots of one pair are contiguous.
    pub fn slots_per_pair(&self) -> u64 {
        self.rest
    }

    /// Number of canonical royal pairs.
    pub fn pair_count(&self) -> usize {
        self.pairs.len()
    }

    /// Size of the symmetry group used (1, 2, 4 or 8).
    pub fn symmetry(&self) -> usize {
        self.syms.len()
    }

    /// Whether a placement's royal pair is canonical as it stands and fixed by no other
    /// symmetry: then moving a man that is alone in its group shifts the index by
    /// `(to − from) · stride(man)` (see `shifted`).
    #[inline]
    pub fn is_plain(&self, sq: &Squares) -> bool {
        self.pair_slot[sq[0] as usize * BOARD_SQUARES + sq[1] as usize].1 == 1
    }

    /// Whether the royal pair number `pair` is plain (see `is_plain`).
    pub fn pair_is_plain(&self, pair: usize) -> bool {
        let (a, b) = self.pairs[pair];
        self.pair_slot[a as usize * BOARD_SQUARES + b as usize].1 == 1
    }

    /// Index after man `i` of the placement `sq` (slot `index`, `plain` as `is_plain`)
    /// moves, given the new placement `moved`; `None` if the new placement has no slot.
    /// Cheap when `sq` is plain: a man alone in its group shifts the index by a stride, and a
    /// royal landing on another plain pair keeps the rest of the index.
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
                let (pair, mask) =
                    self.pair_slot[moved[0] as usize * BOARD_SQUARES + moved[1] as usize];
                if pair == NO_PAIR {
                    return None;
                }
                if mask == 1 {
                    return Some(pair as u64 * self.rest + self.split(index).1);
                }
            } else if self.strides[i] != 0 {
                let step = (moved[i] as i64 - sq[i] as i64) * self.strides[i] as i64;
                return Some((index as i64 + step) as u64);
            }
        }
        self.index(moved)
    }

    /// (pair number, rest) of an index.
    #[inline]
    fn split(&self, index: u64) -> (u64, u64) {
        match self.rest_shift {
            Some(shift) => (index >> shift, index & (self.rest - 1)),
            None => (index / self.rest, index % self.rest),
        }
    }

    /// Index of a placement (men on distinct squares, canonical man order), or `None` when
    /// its royal pair is left out of the table (every such position is illegal).
    #[inline]
    pub fn index(&self, sq: &Squares) -> Option<u64> {
        let (pair, mask) = self.pair_slot[sq[0] as usize * BOARD_SQUARES + sq[1] as usize];
        if pair == NO_PAIR {
            return None;
        }
        if mask == 1 {
            return Some(pair as u64 * self.rest + self.rest_plain(sq));
        }
        let mut best = u64::MAX;
        let mut m = mask;
        while m != 0 {
            let i = m.trailing_zeros() as usize;
            m &= m - 1;
            best = best.min(self.rest_of(&self.images[i], sq));
        }
        Some(pair as u64 * self.rest + best)
    }

    /// The slots of the placements `sq` with man `m` moved to any square: `base + stride · x`
    /// for square x, when their royal pair is plain and man m is alone in his group; `None`
    /// otherwise. Slots whose men share a square are holes.
    #[inline]
    pub fn line(&self, sq: &Squares, m: usize) -> Option<(u64, u64)> {
        let stride = self.strides[m];
        let (pair, mask) = self.pair_slot[sq[0] as usize * BOARD_SQUARES + sq[1] as usize];
        if m < 2 || stride == 0 || pair == NO_PAIR || mask != 1 {
            return None;
        }
        let mut at_zero = *sq;
        at_zero[m] = 0;
        Some((pair as u64 * self.rest + self.rest_plain(&at_zero), stride))
    }

    /// `rest_of` under the identity.
    #[inline]
    fn rest_plain(&self, sq: &Squares) -> u64 {
        let mut r = 0;
        for g in &self.groups {
            let rank = if g.len == 1 {
                sq[g.start] as u64
            } else {
                let mut s = [0; MAX_MEN];
                s[..g.len].copy_from_slice(&sq[g.start..g.start + g.len]);
                s[..g.len].sort_unstable();
                rank_sorted(&s[..g.len])
            };
            r = r * g.size + rank;
        }
        r
    }

    #[inline]
    fn rest_of(&self, image: &[Square; BOARD_SQUARES], sq: &Squares) -> u64 {
        let mut r = 0;
        for g in &self.groups {
            let rank = if g.len == 1 {
                image[sq[g.start] as usize] as u64
            } else {
                let mut s = [0; MAX_MEN];
                for k in 0..g.len {
                    s[k] = image[sq[g.start + k] as usize];
                }
                s[..g.len].sort_unstable();
                rank_sorted(&s[..g.len])
            };
            r = r * g.size + rank;
        }
        r
    }

    /// The placement of a slot, or `None` for a hole (men sharing a square, or a placement
    /// that is not the canonical one of its symmetry class).
    #[inline]
    pub fn decode(&self, index: u64) -> Option<Squares> {
        let sq = self.digits(index);
        if !distinct(&sq[..self.men]) {
            return None;
        }
        let (_, mask) = self.pair_slot[sq[0] as usize * BOARD_SQUARES + sq[1] as usize];
        if mask != 1 && self.index(&sq) != Some(index) {
            return None;
        }
        Some(sq)
    }

    /// The squares an index's digits name, whether or not they form a placement.
    #[inline]
    fn digits(&self, index: u64) -> Squares {
        let (pair, mut r) = self.split(index);
        let mut sq = [0; MAX_MEN];
        (sq[0], sq[1]) = self.pairs[pair as usize];
        if self.rest_shift.is_some() {
            // No identical men: every man's digit is one square, at his stride. Packed in a
            // word, not stored byte by byte, so that reading the squares back does not wait.
            let mut packed = sq[0] as u64 | (sq[1] as u64) << 8;
            for i in 2..self.men {
                packed |= (r >> self.strides[i].trailing_zeros() & 63) << (8 * i);
            }
            let bytes = packed.to_le_bytes();
            sq.copy_from_slice(&bytes[..MAX_MEN]);
            return sq;
        }
        for g in self.groups.iter().rev() {
            if g.len == 1 {
                sq[g.start] = (r % 64) as Square;
                r /= 64;
            } else {
                let rank = r % g.size;
                r /= g.size;
                sq[g.start..g.start + g.len].copy_from_slice(&g.unrank[rank as usize][..g.len]);
            }
        }
        sq
    }

    /// Whether the table is made of blocks: runs of 64 slots, aligned on multiples of 64,
    /// that differ only in the square of one man, the *block man* (there is one when a
    /// non-royal man is alone in his group: the last such man in man order). Block b holds
    /// slots 64·b .. 64·b + 63, slot 64·b + x with the block man on square x.
    pub fn has_blocks(&self) -> bool {
        self.block_man.is_some()
    }

    /// The block man (see `has_blocks`).
    pub fn block_man(&self) -> Option<usize> {
        self.block_man
    }

    /// The squares of every man but the block man in block `block` (the block man's entry
    /// is 0), or `None` if two of them share a square (every slot of the block is a hole).
    #[inline]
    pub fn block_men(&self, block: u64) -> Option<Squares> {
        let sq = self.digits(block * BOARD_SQUARES as u64);
        let bm = self.block_man.expect("a table with blocks");
        let mut others = 0u64;
        for i in (0..self.men).filter(|&i| i != bm) {
            if others & 1 << sq[i] != 0 {
                return None;
            }
            others |= 1 << sq[i];
        }
        Some(sq)
    }

    /// Which of a block's slots are canonical positions: `sq` are its men (`block_men`).
    /// Only a block whose royal pair is fixed by a symmetry h can have holes: when h also
    /// fixes the other men, the block man on x and on h(x) give the same position.
    #[inline]
    pub fn block_shape(&self, sq: &Squares) -> BlockShape {
        if self.is_plain(sq) {
            return BlockShape::Whole;
        }
        // Where its slots are canonical: in itself, folded into itself, or in another block.
        match self.block_of(sq) {
            BlockMove::Block(_) => BlockShape::Whole,
            BlockMove::Folded(_, _, fold) => BlockShape::Half(fold),
            BlockMove::Mapped(..) | BlockMove::Off => BlockShape::Hole,
        }
    }

    /// Where the slots of a block go when man `i` (not the block man) moves: `sq` are the
    /// block's men (`block_men`) and `moved` the men after the move. The same as
    /// `block_of(moved)`, cheaper.
    #[inline]
    pub fn block_after_move(
        &self,
        block: u64,
        sq: &Squares,
        i: usize,
        moved: &Squares,
    ) -> BlockMove {
        if i >= 2 && self.strides[i] != 0 && self.is_plain(sq) {
            let stride = (self.strides[i] / BOARD_SQUARES as u64) as i64;
            return BlockMove::Block(
                (block as i64 + (moved[i] as i64 - sq[i] as i64) * stride) as u64,
            );
        }
        if i < 2 {
            let (pair, mask) =
                self.pair_slot[moved[0] as usize * BOARD_SQUARES + moved[1] as usize];
            if pair != NO_PAIR && mask == 1 {
                let per_pair = self.rest / BOARD_SQUARES as u64;
                return BlockMove::Block(pair as u64 * per_pair + block % per_pair);
            }
        }
        self.block_of(moved)
    }

    /// Where the slots of the placements `sq` (the block man's square left open) are, in a
    /// table with blocks.
    #[inline]
    pub fn block_of(&self, sq: &Squares) -> BlockMove {
        let (pair, mask) = self.pair_slot[sq[0] as usize * BOARD_SQUARES + sq[1] as usize];
        if pair == NO_PAIR {
            return BlockMove::Off;
        }
        let per_pair = self.rest / BOARD_SQUARES as u64;
        let block = |rest: u64| pair as u64 * per_pair + rest / BOARD_SQUARES as u64;
        if mask == 1 {
            return BlockMove::Block(block(self.rest_plain(sq)));
        }
        // One element of G, or two (then they differ by the symmetry h fixing the new pair),
        // map the pair onto its canonical pair: the one giving the smaller rest wins, and on
        // a tie h fixes the other men too, so the block man's square decides.
        let k = mask.trailing_zeros() as usize;
        let rest = self.rest_of(&self.images[k], sq);
        let others = mask & !(1 << k);
        if others != 0 {
            let k2 = others.trailing_zeros() as usize;
            debug_assert_eq!(
                others.count_ones(),
                1,
                "two royals are fixed by one reflection"
            );
            let rest2 = self.rest_of(&self.images[k2], sq);
            let (own, image) = (rest / BOARD_SQUARES as u64, rest2 / BOARD_SQUARES as u64);
            if image < own {
                return BlockMove::Mapped(block(rest2), self.syms[k2]);
            }
            if image == own {
                let (a, b) = self.pairs[pair as usize];
                let fixing = self.pair_slot[a as usize * BOARD_SQUARES + b as usize].1 & !1;
                let fold = self.folds[fixing.trailing_zeros() as usize];
                return BlockMove::Folded(block(rest), self.syms[k], fold);
            }
        }
        if k == 0 {
            BlockMove::Block(block(rest))
        } else {
            BlockMove::Mapped(block(rest), self.syms[k])
        }
    }

    /// Calls `f(index, placement)` for every slot of one royal pair in order, `None` for
    /// holes: the same as `decode` on each slot, without the divisions.
    pub fn for_each_slot_of_pair(&self, pair: usize, mut f: impl FnMut(u64, Option<&Squares>)) {
        let base = pair as u64 * self.rest;
        let mut sq = [0; MAX_MEN];
        (sq[0], sq[1]) = self.pairs[pair];
        let plain = self.is_plain(&sq);
        let mut ranks = [0u64; MAX_MEN];
        for g in &self.groups {
            self.place(g, 0, &mut sq);
        }
        for r in 0..self.rest {
            let occupied = sq[..self.men].iter().fold(0u64, |o, &s| o | 1 << s);
            let valid = occupied.count_ones() as usize == self.men
                && (plain || self.index(&sq) == Some(base + r));
            f(base + r, valid.then_some(&sq));
            for (k, g) in self.groups.iter().enumerate().rev() {
                ranks[k] += 1;
                if ranks[k] < g.size {
                    self.place(g, ranks[k], &mut sq);
                    break;
                }
                ranks[k] = 0;
                self.place(g, 0, &mut sq);
            }
        }
    }

    /// Puts the squares of rank `rank` of group `g` into `sq`.
    #[inline]
    fn place(&self, g: &Group, rank: u64, sq: &mut Squares) {
        if g.len == 1 {
            sq[g.start] = rank as Square;
        } else {
            sq[g.start..g.start + g.len].copy_from_slice(&g.unrank[rank as usize][..g.len]);
        }
    }

    /// Number of distinct placements (identical men unordered) in the symmetry class of a
    /// canonical placement: |G| divided by the size of its stabiliser.
    pub fn orbit_size(&self, sq: &Squares) -> u64 {
        let (_, mask) = self.pair_slot[sq[0] as usize * BOARD_SQUARES + sq[1] as usize];
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
    /// counted once per unordered placement.
    pub fn full_board_placements(&self) -> u64 {
        let mut free = BOARD_SQUARES as u64;
        let mut total = free * (free - 1);
        free -= 2;
        for g in &self.groups {
            total *= binomial(free, g.len as u64);
            free -= g.len as u64;
        }
        total
    }
}

/// Where the 64 slots of a block go when a man other than the block man moves.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BlockMove {
    /// Nowhere: the royals would attack each other (every such position is illegal).
    Off,
    /// To block `b`, the block man staying on his square.
    Block(u64),
    /// To block `b` under symmetry `g`: the slot with the block man on x goes to the slot
    /// with him on `g.square(x)`.
    Mapped(u64, Sym),
    /// To block `b` under symmetry `g`, into a block that is folded: the slot with the block
    /// man on x goes to the slot `fold.square(g.square(x))`.
    Folded(u64, Sym, Fold),
}

/// Which slots of a block are canonical positions (men sharing a square aside).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BlockShape {
    /// All of them.
    Whole,
    /// Those that `Fold` keeps: the block's men are fixed by a symmetry.
    Half(Fold),
    /// None: the block's men are the image of another block's.
    Hole,
}

/// A block whose men (the block man aside) a symmetry h fixes: its slots x and h(x) are the
/// same position, and only the smaller of the two squares is its canonical slot.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Fold {
    sym: Sym,
    keep: u64,
}

impl Fold {
    fn new(sym: Sym) -> Fold {
        let keep = (0..BOARD_SQUARES as Square)
            .filter(|&x| x <= sym.square(x))
            .fold(0u64, |k, x| k | 1 << x);
        Fold { sym, keep }
    }

    /// The canonical slots.
    #[inline]
    pub fn keep(&self) -> u64 {
        self.keep
    }

    /// The canonical slot of square `x`.
    #[inline]
    pub fn square(&self, x: Square) -> Square {
        if self.keep & 1 << x != 0 {
            x
        } else {
            self.sym.square(x)
        }
    }

    /// The canonical slots of the squares in `bits`.
    #[inline]
    pub fn fold(&self, bits: u64) -> u64 {
        bits & self.keep | self.sym.bitboard(bits & !self.keep)
    }

    /// The squares whose canonical slot is in `bits` (a set of canonical slots).
    #[inline]
    pub fn unfold(&self, bits: u64) -> u64 {
        let kept = bits & self.keep;
        kept | self.sym.bitboard(kept)
    }
}

/// Whether the squares are pairwise distinct.
#[inline]
fn distinct(squares: &[Square]) -> bool {
    let mut occupied = 0u64;
    for &s in squares {
        if occupied & (1 << s) != 0 {
            return false;
        }
        occupied |= 1 << s;
    }
    true
}

/// Rank of an ascending set of squares in the combinatorial number system.
#[inline]
fn rank_sorted(s: &[Square]) -> u64 {
    s.iter()
        .enumerate()
        .map(|(i, &q)| BINOMIALS[q as usize][i + 1])
        .sum()
}

/// `BINOMIALS[n][k]` = C(n, k) for the squares of the board and group sizes up to MAX_MEN.
const BINOMIALS: [[u64; MAX_MEN + 1]; BOARD_SQUARES + 1] = {
    let mut t = [[0u64; MAX_MEN + 1]; BOARD_SQUARES + 1];
    let mut n = 0;
    while n <= BOARD_SQUARES {
        t[n][0] = 1;
        let mut k = 1;
        while k <= MAX_MEN && k <= n {
            t[n][k] = t[n - 1][k - 1] + if k < n { t[n - 1][k] } else { 0 };
            k += 1;
        }
        n += 1;
    }
    t
};

#[cfg(test)]
mod tests {
    use super::*;
    use crate::piece::PieceSet;

    fn material(spec: &str, set: &PieceSet) -> Material {
        Material::parse(spec, set).unwrap()
    }

    #[test]
    fn kings_fold_to_462_pairs() {
        let set = PieceSet::standard();
        let ix = Indexer::new(&material("K.K", &set), &Geometry::new(&set), &set, true);
        assert_eq!(ix.pair_count(), 462);
        assert_eq!(ix.symmetry(), 8);
    }

    #[test]
    fn every_placement_round_trips_and_orbits_cover_the_board() {
        let set = PieceSet::standard();
        let geo = Geometry::new(&set);
        for spec in ["KR.K", "KNN.K"] {
            let ix = Indexer::new(&material(spec, &set), &geo, &set, true);
            let mut covered = 0u64;
            for i in 0..ix.size() {
                if let Some(sq) = ix.decode(i) {
                    assert_eq!(ix.index(&sq), Some(i));
                    covered += ix.orbit_size(&sq);
                }
            }
            for p in 0..ix.pair_count() {
                ix.for_each_slot_of_pair(p, |i, sq| assert_eq!(sq.copied(), ix.decode(i)));
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

    /// Blocks fold and move as the index says: a block's canonical slots are those its shape
    /// names, and when a man other than the block man goes to any square, each slot of the
    /// block goes where `block_after_move` says, folded blocks and symmetric royal pairs
    /// included.
    #[test]
    fn blocks_fold_and_move_as_the_index_says() {
        let set = PieceSet::standard();
        let geo = Geometry::new(&set);
        for spec in ["KQ.KR", "KBN.K", "KRR.KN"] {
            let ix = Indexer::new(&material(spec, &set), &geo, &set, true);
            let bm = ix.block_man().expect("a table with blocks");
            let (mut halves, mut folded, mut checked) = (0, 0, 0);
            for w in (0..ix.size() / 64).step_by(29) {
                let Some(sq) = ix.block_men(w) else { continue };
                let others = (0..ix.men)
                    .filter(|&i| i != bm)
                    .fold(0u64, |o, i| o | 1 << sq[i]);
                let canonical = match ix.block_shape(&sq) {
                    BlockShape::Whole => !0,
                    BlockShape::Half(f) => {
                        halves += 1;
                        f.keep()
                    }
                    BlockShape::Hole => 0,
                };
                for x in (0..64u8).filter(|&x| others & 1 << x == 0) {
                    let slot = w * 64 + x as u64;
                    assert_eq!(
                        ix.decode(slot).is_some(),
                        canonical & 1 << x != 0,
                        "{spec} {slot}"
                    );
                }
                if canonical == 0 {
                    continue;
                }
                for i in (0..ix.men).filter(|&i| i != bm) {
                    for t in (0..64u8).filter(|&t| others & 1 << t == 0) {
                        let mut moved = sq;
                        moved[i] = t;
                        let to = ix.block_after_move(w, &sq, i, &moved);
                        folded += usize::from(matches!(to, BlockMove::Folded(..)));
                        let occupied = others & !(1 << sq[i]) | 1 << t;
                        for x in (0..64u8).filter(|&x| occupied & 1 << x == 0) {
                            moved[bm] = x;
                            let slot = match to {
                                BlockMove::Off => None,
                                BlockMove::Block(b) => Some(b * 64 + x as u64),
                                BlockMove::Mapped(b, g) => Some(b * 64 + g.square(x) as u64),
                                BlockMove::Folded(b, g, f) => {
                                    Some(b * 64 + f.square(g.square(x)) as u64)
                                }
                            };
                            assert_eq!(slot, ix.index(&moved), "{spec} {moved:?} from {sq:?}");
                            checked += 1;
                        }
                    }
                }
            }
            assert!(
                halves > 0 && folded > 0 && checked > 100_000,
                "{spec}: {halves} {folded}"
            );
        }
    }

    /// A line's slots are the index of each placement on it, and lines exist exactly for
    /// lone men of plain royal pairs.
    #[test]
    fn lines_agree_with_the_index() {
        let set = PieceSet::standard();
        let geo = Geometry::new(&set);
        for spec in ["KBN.K", "KRR.KN"] {
            let ix = Indexer::new(&material(spec, &set), &geo, &set, true);
            let (mut lines, mut checked) = (0, 0);
            for i in (0..ix.size()).step_by(97) {
                let Some(sq) = ix.decode(i) else { continue };
                for m in 0..ix.men {
                    let alone = m >= 2 && ix.strides[m] != 0;
                    match ix.line(&sq, m) {
                        Some((base, stride)) => {
                            assert!(alone && ix.is_plain(&sq), "{spec} {sq:?} {m}");
                            lines += 1;
                            for x in 0..64u8 {
                                let mut s = sq;
                                s[m] = x;
                                if distinct(&s[..ix.men]) {
                                    assert_eq!(ix.index(&s), Some(base + stride * x as u64));
                                    checked += 1;
                                }
                            }
                        }
                        None => assert!(!alone || !ix.is_plain(&sq), "{spec} {sq:?} {m}"),
                    }
                }
            }
            assert!(lines > 100 && checked > 1000, "{spec}: {lines} lines");
        }
    }
}
