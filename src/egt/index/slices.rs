//! Pawn slices: in a table with pawns the pawn placement is the outermost digit of the index.
//! White's pawns are ranked as a set, then Black's, over the squares of ranks 2..H−1 (a pawn
//! never stands on its first or last rank): that pair of ranks is the placement's *key*. A
//! placement and its left-right mirror image, when the symmetry group has the mirror, are one
//! slice; the slice's *orientation* is the symmetry taking a placement to the slice's own
//! (canonical, least) key. Slices are numbered in the order they are built: by descending
//! pawn *progress* (the ranks White's pawns have gone up plus those Black's have gone down),
//! then by key, so that every pawn move leads to a slice of a smaller progress value, that
//! is of an earlier *layer* (a run of slices of equal progress).

use super::distinct;
use super::divisor::Divisor;
use super::pairs::PairSlot;
use super::ranks::{binomial, Group};
use crate::board::{BoardSize, Square};
use crate::egt::material::{Squares, MAX_MEN};
use std::ops::Range;

/// The slice of a key that names no placement (White's and Black's pawns sharing a square).
const NO_SLICE: u32 = u32::MAX;

/// The slices of a material with pawns.
#[derive(Clone, Debug)]
pub(super) struct Slices {
    /// White's pawns, then Black's, as groups ranked over the pawn squares (absent when a
    /// side has none).
    sides: [Option<Group>; 2],
    /// The first pawn square (a1 + one rank) and the number of pawn squares, W·(H−2).
    low: Square,
    span: usize,
    /// Ranks of Black's pawn sets: a key is `white · black_ranks + black`.
    black_ranks: u64,
    /// Per key: its slice and orientation (0 itself, 1 the mirror), `NO_SLICE` for none.
    of_key: Vec<(u32, u8)>,
    /// Per slice: its pawns' squares, each in its man's byte (man i in bits 8i..8i+8).
    placed: Vec<u64>,
    /// Per slice: whether the mirror, when G has it, maps its pawns onto themselves.
    symmetric: Vec<bool>,
    /// The layers, as ranges of slices.
    layers: Vec<Range<u32>>,
    /// Slots per slice, a multiple of the board's squares (a block's slots), and division by
    /// it.
    pub(super) size: u64,
    pub(super) divisor: Divisor,
    /// For a symmetric slice, the royal pairs folded by the mirror: each ordered pair's
    /// canonical pair under {id, mirror}, numbered as the identity numbers it, and the
    /// mask of the elements that map it there.
    pair_slot_sym: Vec<PairSlot>,
}

impl Slices {
    /// The slices of the pawn men `pawns[side]` (the range of man numbers of each side's
    /// pawns, empty for none) on `board`; `mirror` is the square map of the left-right mirror
    /// when the symmetry group has it; `slots` the slots of one slice before rounding up to a
    /// block; `pair_slot_sym` as the field.
    pub(super) fn new(
        pawns: [Range<usize>; 2],
        board: BoardSize,
        mirror: Option<&[Square]>,
        slots: u64,
        pair_slot_sym: Vec<PairSlot>,
    ) -> Slices {
        let width = board.files() as usize;
        let span = board.squares() - 2 * width;
        let sides = pawns.map(|r| (!r.is_empty()).then(|| Group::new(r.start, r.len(), span)));
        let ranks = |g: &Option<Group>| g.as_ref().map_or(1, |g| g.size);
        let black_ranks = ranks(&sides[1]);
        let keys = ranks(&sides[0]) * black_ranks;
        let size = slots.next_multiple_of(board.squares() as u64);
        let mut slices = Slices {
            sides,
            low: width as Square,
            span,
            black_ranks,
            of_key: vec![(NO_SLICE, 0); keys as usize],
            placed: Vec::new(),
            symmetric: Vec::new(),
            layers: Vec::new(),
            size,
            divisor: Divisor::new(size),
            pair_slot_sym,
        };
        // The canonical keys with their progress, and the images of the others.
        let mut canonical: Vec<(u32, u64, u64)> = Vec::new();
        for key in 0..keys {
            let sq = slices.squares_of(key);
            let men = slices.men();
            if !distinct(&men.clone().map(|i| sq[i]).collect::<Vec<_>>()) {
                continue;
            }
            let image = match mirror {
                Some(m) => {
                    let mut image = sq;
                    men.clone().for_each(|i| image[i] = m[sq[i] as usize]);
                    slices.key(&image).expect("the mirror keeps a pawn's rank")
                }
                None => key,
            };
            if key <= image {
                let rank = |i: usize| board.rank_of(sq[i]) as u32;
                let white = slices.range(0).map(rank).sum::<u32>();
                let black = slices.range(1).map(|i| board.ranks() as u32 - 1 - rank(i));
                canonical.push((white + black.sum::<u32>(), key, image));
            }
        }
        canonical.sort_by_key(|&(progress, key, _)| (std::cmp::Reverse(progress), key));
        for (s, &(progress, key, image)) in canonical.iter().enumerate() {
            let s = s as u32;
            slices.of_key[key as usize] = (s, 0);
            if image != key {
                slices.of_key[image as usize] = (s, 1);
            }
            let sq = slices.squares_of(key);
            let placed = slices.men().fold(0, |p, i| p | (sq[i] as u64) << (8 * i));
            slices.placed.push(placed);
            slices.symmetric.push(mirror.is_some() && image == key);
            match slices.layers.last_mut() {
                Some(layer) if canonical[layer.start as usize].0 == progress => layer.end = s + 1,
                _ => slices.layers.push(s..s + 1),
            }
        }
        slices
    }

    /// The man numbers of one side's pawns (0 White, 1 Black).
    fn range(&self, side: usize) -> Range<usize> {
        self.sides[side]
            .as_ref()
            .map_or(0..0, |g| g.start..g.start + g.len)
    }

    /// The man numbers of all pawns.
    pub(super) fn men(&self) -> impl Iterator<Item = usize> + Clone {
        self.range(0).chain(self.range(1))
    }

    /// The pawns' squares of a key (other men on square 0).
    fn squares_of(&self, key: u64) -> Squares {
        let mut sq = [0; MAX_MEN];
        let ranks = [key / self.black_ranks, key % self.black_ranks];
        for (g, rank) in self.sides.iter().zip(ranks) {
            if let Some(g) = g {
                g.place(rank, &mut sq);
            }
        }
        self.men().for_each(|i| sq[i] += self.low);
        sq
    }

    /// The key of a placement's pawns, or `None` when one stands on his first or last rank.
    #[inline]
    fn key(&self, sq: &Squares) -> Option<u64> {
        let mut ranks = [0u64; 2];
        for (g, rank) in self.sides.iter().zip(&mut ranks) {
            let Some(g) = g else { continue };
            let pawns = &sq[g.start..g.start + g.len];
            if pawns
                .iter()
                .any(|&x| x.wrapping_sub(self.low) as usize >= self.span)
            {
                return None;
            }
            *rank = g.rank_mapped(sq, |x| x.wrapping_sub(self.low));
        }
        Some(ranks[0] * self.black_ranks + ranks[1])
    }

    /// The slice of a placement and its orientation (0 itself, 1 the mirror), or `None`
    /// when a pawn stands on his first or last rank or two pawns share a square.
    #[inline]
    pub(super) fn locate(&self, sq: &Squares) -> Option<(u32, usize)> {
        let (slice, orientation) = self.of_key[self.key(sq)? as usize];
        (slice != NO_SLICE).then_some((slice, orientation as usize))
    }

    /// Number of slices.
    pub(super) fn count(&self) -> u64 {
        self.placed.len() as u64
    }

    /// Whether the pawns of a slice are their own mirror image.
    #[inline]
    pub(super) fn is_symmetric(&self, slice: u32) -> bool {
        self.symmetric[slice as usize]
    }

    /// The royal pair slots of a slice: `plain` (the identity's) or, in a symmetric slice,
    /// those folded by the mirror.
    #[inline]
    pub(super) fn pair_slots<'a>(&'a self, slice: u32, plain: &'a [PairSlot]) -> &'a [PairSlot] {
        if self.is_symmetric(slice) {
            &self.pair_slot_sym
        } else {
            plain
        }
    }

    /// A slice's pawns' squares, each in its man's byte.
    #[inline]
    pub(super) fn placed(&self, slice: u64) -> u64 {
        self.placed[slice as usize]
    }

    /// The layers as ranges of slices.
    pub(super) fn layers(&self) -> &[Range<u32>] {
        &self.layers
    }

    /// Number of pawns of each side.
    pub(super) fn pawns(&self) -> [u64; 2] {
        [0, 1].map(|side| self.range(side).len() as u64)
    }

    /// Squares a pawn may stand on.
    pub(super) fn span(&self) -> u64 {
        self.span as u64
    }

    /// Bytes kept on the heap.
    pub(super) fn heap_bytes(&self) -> u64 {
        fn of<T>(v: &Vec<T>) -> u64 {
            (v.capacity() * std::mem::size_of::<T>()) as u64
        }
        of(&self.of_key)
            + of(&self.placed)
            + of(&self.symmetric)
            + of(&self.layers)
            + of(&self.pair_slot_sym)
            + self
                .sides
                .iter()
                .flatten()
                .map(|g| of(&g.unrank))
                .sum::<u64>()
    }
}

/// The number of placements of `pawns` (White's, Black's) on `span` pawn squares.
pub(super) fn pawn_placements(span: u64, pawns: [u64; 2]) -> u64 {
    binomial(span, pawns[0]) * binomial(span - pawns[0], pawns[1])
}

#[cfg(test)]
mod tests {
    use super::super::Indexer;
    use crate::board::geometry::Geometry;
    use crate::board::test_random::TestRandom;
    use crate::board::{BoardSize, Square, Sym};
    use crate::egt::material::{pieces_with_pawn, ManKind, Material, Squares, MAX_MEN};

    /// An indexer of `spec` (its men, and the board) with the test pawn.
    struct Case {
        ix: Indexer,
        men: Vec<ManKind>,
        board: BoardSize,
        /// The left-right mirror, when the index folds by it.
        mirror: Option<Sym>,
    }

    impl Case {
        fn new(spec: &str, board: BoardSize, fold: bool) -> Case {
            let set = pieces_with_pawn();
            let material = Material::parse(spec, &set).unwrap();
            let ix = Indexer::new(&material, &Geometry::on(&set, board), fold);
            let keeps_ranks = |g: Sym| {
                board
                    .all_squares()
                    .all(|s| board.rank_of(board.image(g, s)) == board.rank_of(s))
            };
            let mirror = board
                .symmetries()
                .filter(|&g| keeps_ranks(g))
                .find(|&g| board.all_squares().any(|s| board.image(g, s) != s))
                .filter(|_| fold);
            assert_eq!(ix.symmetry(), 1 + usize::from(mirror.is_some()), "{spec}");
            Case {
                ix,
                men: material.men().to_vec(),
                board,
                mirror,
            }
        }

        /// The placement with identical men's squares in ascending order.
        fn norm(&self, sq: &Squares) -> Squares {
            let mut s = *sq;
            let mut start = 0;
            for i in 1..=self.men.len() {
                if i == self.men.len() || self.men[i] != self.men[start] {
                    s[start..i].sort_unstable();
                    start = i;
                }
            }
            s
        }

        /// The placements of `sq`'s symmetry class: itself and its mirror image, normalised.
        fn class(&self, sq: &Squares) -> Vec<Squares> {
            let mut class = vec![self.norm(sq)];
            if let Some(g) = self.mirror {
                let mut image = *sq;
                for s in &mut image[..self.men.len()] {
                    *s = self.board.image(g, *s);
                }
                class.push(self.norm(&image));
            }
            class.dedup();
            class
        }

        fn is_pawn_square(&self, s: Square) -> bool {
            (1..self.board.ranks() as i8 - 1).contains(&self.board.rank_of(s))
        }

        /// Whether the kings stand next to each other.
        fn adjacent_kings(&self, sq: &Squares) -> bool {
            let (b, [x, y]) = (self.board, [sq[0], sq[1]]);
            (b.file_of(x) - b.file_of(y)).abs() <= 1 && (b.rank_of(x) - b.rank_of(y)).abs() <= 1
        }

        /// Calls `f` for every placement on distinct squares, identical men once per set.
        fn each_placement(&self, f: &mut dyn FnMut(&Squares)) {
            fn go(c: &Case, k: usize, sq: &mut Squares, f: &mut dyn FnMut(&Squares)) {
                if k == c.men.len() {
                    return f(sq);
                }
                let after = (k > 0 && c.men[k] == c.men[k - 1]).then(|| sq[k - 1]);
                for s in c.board.all_squares() {
                    let pawn_ok = !c.men[k].is_pawn() || c.is_pawn_square(s);
                    if pawn_ok && after.is_none_or(|a| s > a) && !sq[..k].contains(&s) {
                        sq[k] = s;
                        go(c, k + 1, sq, f);
                    }
                }
            }
            go(self, 0, &mut [0; MAX_MEN], f);
        }

        /// The layer of a slot.
        fn layer_of(&self, layers: &[std::ops::Range<u64>], index: u64) -> usize {
            layers
                .iter()
                .position(|l| l.contains(&index))
                .expect("in a layer")
        }

        /// Checks, for a placement (kings not adjacent) in slot `index`, that every pawn
        /// push of one or two squares to a free pawn square leads to an earlier layer;
        /// returns how many pushes.
        fn pushes_go_back(&self, layers: &[std::ops::Range<u64>], sq: &Squares, index: u64) -> u64 {
            let width = self.board.files() as i16;
            let mut pushes = 0;
            for (i, man) in self.men.iter().enumerate().filter(|(_, m)| m.is_pawn()) {
                let forward = if man.color.index() == 0 {
                    width
                } else {
                    -width
                };
                for step in [forward, 2 * forward] {
                    let to = sq[i] as i16 + step;
                    let Ok(to) = Square::try_from(to) else {
                        continue;
                    };
                    if !self.is_pawn_square(to) || sq[..self.men.len()].contains(&to) {
                        continue;
                    }
                    let mut moved = *sq;
                    moved[i] = to;
                    let after = self.ix.index(&moved).expect("a placement");
                    let (from, to) = (self.layer_of(layers, index), self.layer_of(layers, after));
                    assert!(
                        to < from,
                        "{sq:?} layer {from}, pawn {i} pushed: layer {to}"
                    );
                    pushes += 1;
                }
            }
            pushes
        }
    }

    /// Slices and layers are aligned on blocks (of the board's squares) and the layers cover
    /// the table in order.
    fn check_layout(c: &Case) {
        let ix = &c.ix;
        assert_eq!(ix.slice_size() % ix.block_len() as u64, 0);
        let layers = ix.layers();
        assert!(layers.len() > 1);
        assert_eq!(layers[0].start, 0);
        assert_eq!(layers.last().unwrap().end, ix.size());
        for pair in layers.windows(2) {
            assert_eq!(pair[0].end, pair[1].start);
        }
        assert!(layers
            .iter()
            .all(|l| l.start % ix.slice_size() == 0 && l.end > l.start));
        // The slice vectors are counted in the indexer's heap.
        let s = ix.slices.as_ref().expect("pawn slices");
        assert!(s.heap_bytes() >= 8 * s.of_key.len() as u64 + 8 * s.count());
        assert!(ix.heap_bytes() > s.heap_bytes());
    }

    /// Every placement of the full board (pawns on ranks 2..H−1) is indexed once: a slot
    /// whose placement is it or its mirror image; every slot's placement round-trips; the
    /// placements reaching a slot are its orbit; every pawn push goes to an earlier layer;
    /// and `full_board_placements` counts them all.
    fn check_every_placement(spec: &str, board: BoardSize, fold: bool) {
        let c = Case::new(spec, board, fold);
        check_layout(&c);
        let ix = &c.ix;
        let layers = ix.layers();
        let mut hits = vec![0u8; ix.size() as usize];
        let (mut placements, mut adjacent, mut pushes) = (0u64, 0u64, 0u64);
        c.each_placement(&mut |sq| {
            placements += 1;
            let index = ix.index(sq);
            if c.adjacent_kings(sq) {
                assert_eq!(index, None, "{spec} {sq:?}");
                adjacent += 1;
                return;
            }
            let index = index.unwrap_or_else(|| panic!("{spec}: {sq:?} has no slot"));
            let slot = ix
                .decode(index)
                .unwrap_or_else(|| panic!("{spec}: {index} is a hole"));
            assert!(
                c.class(sq).contains(&c.norm(&slot)),
                "{spec}: {sq:?} in {slot:?}"
            );
            hits[index as usize] += 1;
            pushes += c.pushes_go_back(&layers, sq, index);
        });
        let mut slots = 0;
        for (index, &hit) in hits.iter().enumerate() {
            let index = index as u64;
            match ix.decode(index) {
                Some(sq) => {
                    assert_eq!(ix.index(&sq), Some(index), "{spec}");
                    assert_eq!(hit as u64, ix.orbit_size(&sq), "{spec} {sq:?}");
                    assert_eq!(
                        c.class(&sq).len() as u64,
                        ix.orbit_size(&sq),
                        "{spec} {sq:?}"
                    );
                    slots += 1;
                }
                None => assert_eq!(hit, 0, "{spec}: {index}"),
            }
        }
        for chunk in 0..ix.chunk_count() {
            ix.for_each_slot_of_chunk(chunk, |i, sq| assert_eq!(sq.copied(), ix.decode(i)));
        }
        assert_eq!(ix.full_board_placements(), placements, "{spec} on {board}");
        assert!(slots > 0 && adjacent > 0 && pushes > 0, "{spec}");
    }

    #[test]
    fn one_pawn_indexes_every_placement_on_every_board() {
        for (w, h) in [(8, 8), (10, 8), (5, 5), (4, 4)] {
            let board = BoardSize::new(w, h).unwrap();
            check_every_placement("KP.K", board, true);
            check_every_placement("K.KP", board, true);
        }
        check_every_placement("KP.K", BoardSize::STANDARD, false);
    }

    #[test]
    fn two_pawns_index_every_placement() {
        check_every_placement("KPP.K", BoardSize::STANDARD, true);
        check_every_placement("KP.KP", BoardSize::STANDARD, true);
        check_every_placement("KP.KP", BoardSize::new(5, 5).unwrap(), false);
        check_every_placement("KRP.KR", BoardSize::new(4, 4).unwrap(), true);
    }

    /// KRP.KR on 8×8, too large to walk: random placements are indexed in their class and
    /// their pushes go back; sampled slots round-trip.
    #[test]
    fn krp_kr_samples_index_and_round_trip() {
        let c = Case::new("KRP.KR", BoardSize::STANDARD, true);
        check_layout(&c);
        let ix = &c.ix;
        assert_eq!(ix.slice_size(), 3612 * 64 * 64);
        assert_eq!(ix.layers().len(), 6);
        let layers = ix.layers();
        let mut rng = TestRandom::new(0x9e37_79b9_7f4a_7c15);
        let mut random = |below: u64| rng.below(below);
        let (mut indexed, mut pushes) = (0, 0);
        while indexed < 100_000 {
            let mut sq = [0; MAX_MEN];
            for s in &mut sq[..5] {
                *s = random(64) as Square;
            }
            let distinct = (1..5).all(|i| !sq[..i].contains(&sq[i]));
            if !distinct || !c.is_pawn_square(sq[3]) {
                continue;
            }
            match ix.index(&sq) {
                None => assert!(c.adjacent_kings(&sq), "{sq:?}"),
                Some(index) => {
                    let slot = ix.decode(index).expect("a placement's slot");
                    assert!(c.class(&sq).contains(&c.norm(&slot)), "{sq:?} in {slot:?}");
                    pushes += c.pushes_go_back(&layers, &sq, index);
                    indexed += 1;
                }
            }
        }
        let mut slots = 0;
        for index in (0..ix.size()).step_by(4999) {
            if let Some(sq) = ix.decode(index) {
                assert_eq!(ix.index(&sq), Some(index));
                assert_eq!(c.class(&sq).len() as u64, ix.orbit_size(&sq), "{sq:?}");
                slots += 1;
            }
        }
        assert!(pushes > 100_000 && slots > 50_000, "{pushes} {slots}");
    }

    /// For sampled slots, a move of any man to any free square (a pawn's too) lands where
    /// `index` says through `after_move`'s shortcuts, and lines exist exactly for lone men
    /// of plain placements and agree with the index.
    #[test]
    fn moves_and_lines_agree_with_the_index() {
        for (spec, board, step) in [
            ("KRP.KR", BoardSize::STANDARD, 3001),
            ("KNP.KP", BoardSize::new(5, 5).unwrap(), 7),
            ("KP.KP", BoardSize::STANDARD, 11),
        ] {
            let c = Case::new(spec, board, true);
            let (ix, men) = (&c.ix, c.men.len());
            let (mut moves, mut lines, mut plain) = (0, 0, 0);
            for index in (0..ix.size()).step_by(step) {
                let Some(sq) = ix.decode(index) else { continue };
                let is_plain = ix.is_plain(&sq);
                plain += usize::from(is_plain);
                for i in 0..men {
                    for to in board.all_squares().filter(|t| !sq[..men].contains(t)) {
                        let mut moved = sq;
                        moved[i] = to;
                        if c.men[i].is_pawn() && !c.is_pawn_square(to) {
                            continue;
                        }
                        let after = ix.after_move(index, is_plain, &sq, i, &moved);
                        assert_eq!(after, ix.index(&moved), "{spec} {sq:?} man {i} to {to}");
                        moves += 1;
                    }
                    let lone = i >= 2
                        && !c.men[i].is_pawn()
                        && c.men.iter().filter(|m| **m == c.men[i]).count() == 1;
                    match ix.line(&sq, i) {
                        Some((base, stride, image)) => {
                            assert!(lone && is_plain, "{spec} {sq:?} {i}");
                            lines += 1;
                            for x in board.all_squares() {
                                let mut s = sq;
                                s[i] = x;
                                if (0..men).all(|k| k == i || s[k] != x) {
                                    let slot = base + stride * image[x as usize] as u64;
                                    assert_eq!(ix.index(&s), Some(slot));
                                }
                            }
                        }
                        None => assert!(!lone || !is_plain, "{spec} {sq:?} {i}"),
                    }
                }
            }
            assert!(moves > 10_000 && plain > 100, "{spec}: {moves} {plain}");
            assert!(lines > 0 || spec == "KP.KP", "{spec}");
        }
    }

    /// A pawn on his first or last rank has no slot, and the padding slots of a slice and
    /// the slots past the table are holes.
    #[test]
    fn pawns_off_their_ranks_and_padding_have_no_slot() {
        let c = Case::new("KP.KP", BoardSize::STANDARD, true);
        let ix = &c.ix;
        // Kings on a1 and h1 (0, 7); a pawn on the first (8..16 is the second) or last rank.
        for (white, black) in [(3, 20), (60, 20), (20, 5), (20, 62), (12, 52)] {
            let sq = [0, 7, white, black, 0, 0];
            let edge = !c.is_pawn_square(white) || !c.is_pawn_square(black);
            assert_eq!(ix.index(&sq).is_none(), edge, "{sq:?}");
        }
        let used = ix.pair_count() as u64; // one slot per pair: no other men
        assert!(ix.slice_size() > used, "KP.KP pads its slices");
        for slice in [0, 1, ix.size() / ix.slice_size() - 1] {
            let start = slice * ix.slice_size();
            assert!((start..start + used).any(|i| ix.decode(i).is_some()));
            for index in start + used..start + ix.slice_size() {
                assert_eq!(ix.decode(index), None, "{index}");
            }
        }
        for index in [ix.size(), ix.size() + 63, u64::MAX] {
            assert_eq!(ix.decode(index), None);
        }
    }
}
