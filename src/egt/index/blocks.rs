//! The block-man layout: when a non-royal man is alone in his group, he is the last digit of
//! the index (the *block man*), and the table is made of *blocks*, runs of as many
//! consecutive slots as the board has squares, that differ only in his square. A move of any other man takes a whole block to one other block
//! ([`BlockMove`]); where a symmetry fixes a block's other men, the block is folded
//! ([`Fold`]) and only half of its slots are positions ([`BlockShape`]).

use super::pairs::{PairSlot, NO_PAIR};
use super::slices::Slices;
use super::Indexer;
use crate::board::{Square, SquareSet, Sym};
use crate::egt::material::Squares;

impl Indexer {
    /// Whether the table is made of blocks: runs of `block_len` slots (the board's squares),
    /// aligned on its multiples, that differ only in the square of one man, the *block man*
    /// (there is one when a non-royal man that is no pawn is alone in his group: the last such
    /// man in man order; with pawns, only on boards of an even number of files, where the
    /// mirror fixes no square). Block b holds slots B·b .. B·b + B − 1, slot B·b + x with the
    /// block man on square x. With pawns, a slice is a whole number of blocks.
    pub fn has_blocks(&self) -> bool {
        self.block_man.is_some()
    }

    /// The block man (see `has_blocks`).
    pub fn block_man(&self) -> Option<usize> {
        self.block_man
    }

    /// In an index that tells a pair of identical men apart ([`Indexer::twins_apart`]; not
    /// a larger group, whose other men are one digit), the block man's twin, whose square is
    /// the digit before his: the blocks of one placement of the other men follow each other,
    /// block `b` of them with the twin on square b, and slot x of block b is the position of
    /// slot b of block x.
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
    /// assert_eq!((apart.block_twin(), apart.block_man()), (Some(2), Some(3)));
    /// // Kings on a1 and c3, the rooks on e5 and h8, and the rooks the other way round.
    /// let (one, other) = ([0, 18, 36, 63, 0, 0], [0, 18, 63, 36, 0, 0]);
    /// let (a, b) = (apart.index(&one).unwrap(), apart.index(&other).unwrap());
    /// assert_eq!((a / 64 - 36 + 63, a % 64), (b / 64, 63));
    /// assert_eq!(Indexer::new(&krr, &geometry, true).block_twin(), None);
    /// ```
    pub fn block_twin(&self) -> Option<usize> {
        self.block_twin
    }

    /// The squares of every man but the block man in block `block` (the block man's entry
    /// is 0), or `None` if two of them share a square (every slot of the block is a hole).
    /// With pawns, they stand as their slice has them (its own orientation).
    #[inline]
    pub fn block_men(&self, block: u64) -> Option<Squares> {
        let sq = self.digits(block * self.n as u64)?;
        let bm = self.block_man.expect("a table with blocks");
        let mut others = [0u64; 4];
        for i in (0..self.men).filter(|&i| i != bm) {
            // On boards of up to 64 squares, one word: the lane is known.
            let lane = if self.n <= 64 { 0 } else { sq[i] as usize / 64 };
            let bit = 1 << (sq[i] % 64);
            if others[lane] & bit != 0 {
                return None;
            }
            others[lane] |= bit;
        }
        Some(sq)
    }

    /// Which of the slots of block `block` are canonical positions: `sq` are its men
    /// (`block_men`). Only a block whose royal pair is fixed by a symmetry h can have holes:
    /// when h also fixes the other men, the block man on x and on h(x) give the same
    /// position. With pawns (blocks are made only where the mirror fixes no square), a block
    /// is whole or a hole: whole where its slice keeps its royal pair as it is.
    #[inline]
    pub fn block_shape(&self, block: u64, sq: &Squares) -> BlockShape {
        if let Some(s) = &self.slices {
            let slice = self.slice_of_block(block).0 as u32;
            let (_, mask) =
                s.pair_slots(slice, &self.pair_slot)[sq[0] as usize * self.n + sq[1] as usize];
            return if mask == 1 {
                BlockShape::Whole
            } else {
                BlockShape::Hole
            };
        }
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

    /// Where the slots of block `block` go when one of its men moves (see [`BlockMoves`]):
    /// `sq` are the block's men (`block_men` of a block that is no hole).
    #[inline]
    pub fn block_moves(&self, block: u64, sq: &Squares) -> BlockMoves<'_> {
        let (first, pair_slot) = match &self.slices {
            // The block's placement is in its slice's orientation (see `block_men`).
            Some(s) => {
                let (slice, first) = self.slice_of_block(block);
                (first, s.pair_slots(slice as u32, &self.pair_slot))
            }
            None => (0, &self.pair_slot[..]),
        };
        let plain = pair_slot[sq[0] as usize * self.n + sq[1] as usize].1 == 1;
        BlockMoves {
            ix: self,
            block,
            first,
            pair_slot,
            plain,
            in_pair: self.pair_blocks.div_rem(block - first).1,
        }
    }

    /// The blocks of a royal pair, in a table with blocks (whose `rest` holds the block man's
    /// squares, so that it is at least 1).
    #[inline]
    fn pair_blocks(&self) -> u64 {
        debug_assert!(self.block_man.is_some(), "a table with blocks");
        self.pair_blocks.divisor()
    }

    /// Where the slots of the placements `sq` (the block man's square left open) are, in a
    /// table with blocks.
    #[inline]
    pub fn block_of(&self, sq: &Squares) -> BlockMove {
        if let Some(s) = &self.slices {
            return self.block_of_sliced(s, sq);
        }
        let (pair, mask) = self.pair_slot[sq[0] as usize * self.n + sq[1] as usize];
        if pair == NO_PAIR {
            return BlockMove::Off;
        }
        let block = |rest: u64| pair as u64 * self.pair_blocks() + self.blocks_in(rest);
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
            let (own, image) = (self.blocks_in(rest), self.blocks_in(rest2));
            if image < own {
                return BlockMove::Mapped(block(rest2), self.syms[k2]);
            }
            if image == own {
                let (a, b) = self.pairs[pair as usize];
                let fixing = self.pair_slot[a as usize * self.n + b as usize].1 & !1;
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

    /// `block_of` with pawns: the placement is turned to its slice's orientation, and then,
    /// in a slice that is its own mirror image, its royal pair to the canonical one. On 8×8
    /// the mirror fixes no pair (blocks with pawns are made only on boards where it fixes no
    /// square), so at most one of the two turns is the mirror, and no block is folded. `Off`
    /// also when a pawn stands on his first or last rank.
    #[inline]
    fn block_of_sliced(&self, s: &Slices, sq: &Squares) -> BlockMove {
        let Some((slice, orientation)) = s.locate(sq) else {
            return BlockMove::Off;
        };
        let sq = self.oriented(sq, orientation);
        let pair = s.pair_slots(slice, &self.pair_slot)[sq[0] as usize * self.n + sq[1] as usize];
        let first = slice as u64 * self.blocks_in(s.size);
        match (self.block_in_slice(first, pair, &sq), orientation) {
            (BlockMove::Block(b), 1) => BlockMove::Mapped(b, self.syms[1]),
            (to, _) => to,
        }
    }

    /// `block_of` for placements `sq` in their slice's orientation, whose slice starts at
    /// block `first` and whose royal pair has the slot `pair` in that slice.
    #[inline]
    fn block_in_slice(&self, first: u64, (pair, mask): PairSlot, sq: &Squares) -> BlockMove {
        if pair == NO_PAIR {
            return BlockMove::Off;
        }
        let first = first + pair as u64 * self.pair_blocks();
        if mask == 1 {
            return BlockMove::Block(first + self.blocks_in(self.rest_plain(sq)));
        }
        // In a slice that is its own mirror image, the mirror takes the pair to its
        // canonical one (the mirror fixes no pair where tables with pawns have blocks).
        debug_assert_eq!(mask, 2, "{sq:?}");
        BlockMove::Mapped(
            first + self.blocks_in(self.rest_of(&self.images[1], sq)),
            self.syms[1],
        )
    }
}

/// Where the slots of a block go when a man other than the block man moves.
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
/// same position, and only the smaller of the two squares is its canonical slot. Its sets of
/// squares are kept as the lanes of a set of any width (`SquareSet::lane`); what needs the
/// symmetry's action on squares is the indexer's (`Indexer::fold`, `Indexer::unfold`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Fold {
    sym: Sym,
    keep: [u64; 4],
    fixed: [u64; 4],
}

impl Fold {
    /// The fold of symmetry `sym`, whose image of square x is `image[x]`.
    pub(super) fn new(sym: Sym, image: &[Square]) -> Fold {
        let squares = |test: &dyn Fn(Square) -> bool| {
            let mut lanes = [0u64; 4];
            // Squares as usize: a board of 256 squares has no Square for their count.
            for x in (0..image.len()).filter(|&x| test(x as Square)) {
                lanes[x / 64] |= 1 << (x % 64);
            }
            lanes
        };
        Fold {
            sym,
            keep: squares(&|x| x <= image[x as usize]),
            fixed: squares(&|x| x == image[x as usize]),
        }
    }

    /// The canonical slots.
    #[inline]
    pub fn keep<S: SquareSet>(&self) -> S {
        S::from_lanes(|k| self.keep[k])
    }

    /// The squares the symmetry maps onto themselves (canonical slots, each standing for
    /// half as many placements as the other canonical slots).
    #[inline]
    pub fn fixed<S: SquareSet>(&self) -> S {
        S::from_lanes(|k| self.fixed[k])
    }

    /// Whether square `x` is a canonical slot.
    #[inline]
    fn keeps(&self, x: Square) -> bool {
        self.keep[x as usize / 64] & 1 << (x % 64) != 0
    }
}

/// Most squares of a set whose image `Indexer::image` takes square by square: beyond,
/// a rank at a time costs less.
const SPARSE_IMAGE: u32 = 12;

impl Indexer {
    /// The image of the squares `bits` under `g`, one of the index's symmetries (or the
    /// inverse of one): on the 8×8 board by bit twiddling, a mirror up to 128 squares by a
    /// bit reversal, a set of a few squares square by square, and the rest a rank at a time
    /// (`Sym::set_image`). The twiddling is the 8×8 board's alone, not that of the other
    /// boards of 64 squares (16×4, 4×16).
    #[inline]
    pub fn image<S: SquareSet>(&self, g: Sym, bits: S) -> S {
        if S::LANES == 1 && self.n == 64 && self.files == 8 {
            let b = g.bitboard(bits.lane(0));
            return S::from_lanes(|_| b);
        }
        if S::LANES <= 2 && !g.transposes() {
            let set = (0..S::LANES).fold(0u128, |set, k| set | (bits.lane(k) as u128) << (64 * k));
            let image = mirrored(set, g, self.n, self.files);
            return S::from_lanes(|k| (image >> (64 * k)) as u64);
        }
        if bits.count() > SPARSE_IMAGE {
            let lanes = g.set_image(
                std::array::from_fn(|k| if k < S::LANES { bits.lane(k) } else { 0 }),
                self.files,
                self.n / self.files,
            );
            return S::from_lanes(|k| lanes[k]);
        }
        let image = self.images_of(g);
        let mut out = S::default();
        crate::board::for_each_bit(bits, |x| out |= S::bit(image[x as usize]));
        out
    }

    /// The image of square `x` under `g`, one of the index's symmetries (or an inverse).
    #[inline]
    pub fn image_square(&self, g: Sym, x: Square) -> Square {
        self.images_of(g)[x as usize]
    }

    /// The block of slot `slot` and the slot's square in it (`slot / block_len()` and the
    /// rest), by a shift where the board's squares are a power of two, as on 8×8.
    #[inline]
    pub fn block_and_square(&self, slot: u64) -> (u64, Square) {
        let w = self.blocks_in(slot);
        (w, (slot - w * self.n as u64) as Square)
    }

    /// The pawn slice that holds block `block`, and the slice's first block (in a table with
    /// pawns; a slice is a whole number of blocks).
    #[inline]
    fn slice_of_block(&self, block: u64) -> (u64, u64) {
        let (slice, within) = self.slice_blocks.div_rem(block);
        (slice, block - within)
    }

    /// `slots / block_len()`: by a shift where the board's squares are a power of two.
    #[inline]
    fn blocks_in(&self, slots: u64) -> u64 {
        match self.block_shift {
            Some(shift) => slots >> shift,
            None => self.block_divisor.div_rem(slots).0,
        }
    }

    /// The squares' images under `g`, one of the index's symmetries (or an inverse).
    #[inline]
    pub fn images_of(&self, g: Sym) -> &[Square] {
        let k = (self.syms.iter().position(|&h| h == g))
            .expect("a symmetry of the index (whose inverse is one too)");
        &self.images[k]
    }

    /// The canonical slot of square `x` in a block folded by `fold`.
    #[inline]
    pub fn fold_square(&self, fold: &Fold, x: Square) -> Square {
        if fold.keeps(x) {
            x
        } else {
            self.image_square(fold.sym, x)
        }
    }

    /// The canonical slots of the squares in `bits`, in a block folded by `fold`.
    #[inline]
    pub fn fold<S: SquareSet>(&self, fold: &Fold, bits: S) -> S {
        let keep = fold.keep::<S>();
        bits & keep | self.image(fold.sym, bits & !keep)
    }

    /// The squares whose canonical slot is in `bits` (a set of canonical slots), in a block
    /// folded by `fold`.
    #[inline]
    pub fn unfold<S: SquareSet>(&self, fold: &Fold, bits: S) -> S {
        let kept = bits & fold.keep::<S>();
        kept | self.image(fold.sym, kept)
    }
}

/// The image under `g`, a mirror of files, of ranks or of both (no transpose), of a set of the
/// `n` squares of a board of `files` files, held in the low bits of a word: reversing the
/// word's bits turns the board half round (both mirrors), and the ranks are reversed a row at
/// a time.
#[inline]
fn mirrored(set: u128, g: Sym, n: usize, files: usize) -> u128 {
    let (flip_files, flip_ranks) = (g.0 & 1 != 0, g.0 & 2 != 0);
    let turned = match flip_files {
        true => set.reverse_bits() >> (128 - n),
        false => set,
    };
    if flip_files == flip_ranks {
        return turned;
    }
    let (ranks, row) = (n / files, (1u128 << files) - 1);
    (0..ranks).fold(0, |image, r| {
        image | (turned >> (r * files) & row) << ((ranks - 1 - r) * files)
    })
}

/// Where the slots of one block go when one of its men (not the block man) moves, the
/// block's slice and royal pair worked out once for all of its moves
/// ([`Indexer::block_moves`]): a gather or a check moves a block's men a dozen times or more.
pub struct BlockMoves<'a> {
    ix: &'a Indexer,
    block: u64,
    /// The first block of the block's slice (0 without pawns).
    first: u64,
    /// The royal pairs' slots in the block's slice.
    pair_slot: &'a [PairSlot],
    /// Whether the block's royal pair is canonical with no symmetry fixing it.
    plain: bool,
    /// The block's place among its royal pair's blocks.
    in_pair: u64,
}

impl BlockMoves<'_> {
    /// Where the block's slots go when man `i` moves: `sq` are its men, `moved` the men after
    /// the move. The same as `block_of(moved)`, cheaper.
    #[inline(always)]
    pub fn after(&self, sq: &Squares, i: usize, moved: &Squares) -> BlockMove {
        let ix = self.ix;
        if i >= 2 && self.plain {
            // A man alone in his group shifts the block by his stride, one of identical men
            // by the change of his group's rank times the group's stride (`after_move`).
            let change = if ix.strides[i] != 0 {
                Some(moved[i] as i64 - sq[i] as i64)
            } else {
                ix.group_digits[i].map(|(g, _)| {
                    let group = &ix.groups[g];
                    group.rank(moved) as i64 - group.rank(sq) as i64
                })
            };
            if let Some(change) = change {
                let stride = ix.block_strides[i] as i64;
                return BlockMove::Block((self.block as i64 + change * stride) as u64);
            }
        }
        let pair_of = |sq: &Squares| self.pair_slot[sq[0] as usize * ix.n + sq[1] as usize];
        if i < 2 {
            let (pair, mask) = pair_of(moved);
            if pair != NO_PAIR && mask == 1 {
                let b = self.first + pair as u64 * ix.pair_blocks() + self.in_pair;
                return BlockMove::Block(b);
            }
        }
        match &ix.slices {
            // A man but a pawn keeps the slice and its orientation.
            Some(_) if !ix.is_pawn(i) => ix.block_in_slice(self.first, pair_of(moved), moved),
            _ => ix.block_of(moved),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::geometry::Geometry;
    use crate::board::test_random::TestRandom;
    use crate::board::{Bits192, Bits256, BoardSize};
    use crate::egt::material::Material;
    use crate::piece::PieceSet;

    fn material(spec: &str, set: &PieceSet) -> Material {
        Material::parse(spec, set).unwrap()
    }

    /// A symmetry maps a set of squares as it maps each square, by bit twiddling (8×8, and the
    /// mirrors of boards of up to 128 squares), square by square (a few squares) or a rank at
    /// a time (the rest), on board shapes of sets of one, two and four words, for sets of
    /// every density.
    #[test]
    fn sets_map_as_their_squares_do() {
        fn check<S: SquareSet>(files: u32, ranks: u32) {
            let set = PieceSet::standard();
            let board = BoardSize::new(files, ranks).unwrap();
            let ix = Indexer::new(&material("KQ.KR", &set), &Geometry::on(&set, board), true);
            let mut random = TestRandom::new(0x2545_f491_4f6c_dd1d);
            for one_in in [1, 2, 7, 40] {
                for _ in 0..20 {
                    let bits: S = random.set(board.squares(), one_in);
                    for g in board.symmetries() {
                        let mut want = S::default();
                        crate::board::for_each_bit(bits, |x| want |= S::bit(board.image(g, x)));
                        assert_eq!(ix.image(g, bits), want, "{board} {g:?}");
                    }
                }
            }
        }
        check::<u64>(8, 8);
        check::<u64>(7, 7);
        check::<u64>(6, 4);
        check::<u64>(7, 9);
        check::<u128>(10, 8);
        check::<u128>(9, 9);
        check::<u128>(11, 11);
        check::<u128>(16, 8);
        check::<u128>(13, 9);
        check::<Bits192>(12, 12);
        check::<Bits192>(13, 13);
        check::<Bits192>(11, 12);
        check::<Bits256>(12, 12);
        check::<Bits256>(16, 16);
        check::<Bits256>(16, 9);
    }

    /// Blocks fold and move as the index says: a block's canonical slots are those its shape
    /// names, and when a man other than the block man goes to any square, each slot of the
    /// block goes where `BlockMoves::after` says, folded blocks and symmetric royal pairs
    /// included; with pawns, pawn moves to other slices (and their mirror images) too. On
    /// the 8×8 board and on boards of other sizes and shapes (blocks of their squares).
    #[test]
    fn blocks_fold_and_move_as_the_index_says() {
        let set = PieceSet::standard();
        let boards = [
            (
                BoardSize::STANDARD,
                &[
                    "KQ.KR", "KBN.K", "KRR.KN", "KRP.K", "KP.KR", "KRP.KR", "KNP.KP",
                ][..],
            ),
            (
                BoardSize::new(10, 8).unwrap(),
                &["KQ.KR", "KBN.K", "KRP.K", "KP.KN"][..],
            ),
            (BoardSize::new(7, 7).unwrap(), &["KQ.KR", "KNN.KB"][..]),
            (BoardSize::new(12, 12).unwrap(), &["KR.KN"][..]),
        ];
        for (board, specs) in boards {
            let geo = Geometry::on(&set, board);
            for &spec in specs {
                // A block folds where a symmetry fixes squares: the diagonals of a square
                // board, the middle file or rank of an odd side; never with pawns.
                let odd = board.files() % 2 == 1 || board.ranks() % 2 == 1;
                let folds = !spec.contains('P') && (board.is_square() || odd);
                check_blocks(
                    &Indexer::new(&material(spec, &set), &geo, true),
                    spec,
                    folds,
                );
            }
        }
    }

    fn check_blocks(ix: &Indexer, spec: &str, folds: bool) {
        let bm = ix.block_man().expect("a table with blocks");
        let n = ix.block_len();
        let len = n as u64;
        let pawns = spec.contains('P');
        let (mut halves, mut folded, mut checked) = (0, 0, 0);
        // About 400 blocks of a pawn table; of a pawnless one every block folded in half (the
        // few whose slots a symmetry maps among themselves) and about 2,000 others (every 29th
        // of a small table), an odd step apart, so as not to keep in step with the layout's
        // powers of two.
        let blocks = ix.size() / len;
        let step = if pawns {
            (blocks / 400).max(1)
        } else {
            (blocks / 2000).max(29) | 1
        };
        // Pawn tables never fold: only their sampled blocks are visited.
        let visited = if pawns { step } else { 1 };
        for w in (0..blocks).step_by(visited as usize) {
            let Some(sq) = ix.block_men(w) else { continue };
            let shape = ix.block_shape(w, &sq);
            if w % step != 0 && !matches!(shape, BlockShape::Half(_)) {
                continue;
            }
            let others = (0..ix.men)
                .filter(|&i| i != bm)
                .fold(Bits256::default(), |o, i| o | Bits256::bit(sq[i]));
            let canonical = match shape {
                BlockShape::Whole => Bits256::below(n),
                BlockShape::Half(f) => {
                    halves += 1;
                    f.keep()
                }
                BlockShape::Hole => Bits256::default(),
            };
            for x in (0..n).map(|x| x as u8).filter(|&x| !others.contains(x)) {
                let slot = w * len + x as u64;
                assert_eq!(
                    ix.decode(slot).is_some(),
                    canonical.contains(x),
                    "{spec} {slot}"
                );
            }
            if canonical.is_empty() {
                continue;
            }
            for i in (0..ix.men).filter(|&i| i != bm) {
                for t in (0..n).map(|x| x as u8).filter(|&t| !others.contains(t)) {
                    let mut moved = sq;
                    moved[i] = t;
                    let to = ix.block_moves(w, &sq).after(&sq, i, &moved);
                    folded += usize::from(matches!(to, BlockMove::Folded(..)));
                    let occupied = others & !Bits256::bit(sq[i]) | Bits256::bit(t);
                    for x in (0..n).map(|x| x as u8).filter(|&x| !occupied.contains(x)) {
                        moved[bm] = x;
                        let slot = match to {
                            BlockMove::Off => None,
                            BlockMove::Block(b) => Some(b * len + x as u64),
                            BlockMove::Mapped(b, g) => Some(b * len + ix.image_square(g, x) as u64),
                            BlockMove::Folded(b, g, f) => {
                                Some(b * len + ix.fold_square(&f, ix.image_square(g, x)) as u64)
                            }
                        };
                        assert_eq!(slot, ix.index(&moved), "{spec} {moved:?} from {sq:?}");
                        if let BlockMove::Mapped(_, g) | BlockMove::Folded(_, g, _) = to {
                            // The set action agrees with the square action.
                            let image: Bits256 = ix.image(g, Bits256::bit(x));
                            assert_eq!(image, Bits256::bit(ix.image_square(g, x)));
                        }
                        checked += 1;
                    }
                }
            }
        }
        assert!(
            (halves > 0 && folded > 0) == folds && checked > 20_000,
            "{spec} on {n} squares: {halves} {folded} {checked}"
        );
    }
}
