//! Royal-pair folding: the pairs (White's royal square, Black's) that are canonical under
//! the symmetry group G, the least image of their orbit, numbered in order; for every ordered
//! pair its canonical pair's number and which elements of G map it there. Pairs whose royals
//! attack each other whatever stands between (adjacent kings) get no number: every position
//! with them is illegal.

use crate::board::Square;

/// The pair number of an ordered pair that has none (see the module doc).
pub(super) const NO_PAIR: u32 = u32::MAX;

/// What an ordered royal pair maps to: its canonical pair number and the mask of the
/// elements of G (bit i = the i-th) that map it onto its canonical pair.
pub(super) type PairSlot = (u32, u8);

/// The canonical royal pairs of a board of `n` squares under the symmetries whose square maps
/// are `images` (the identity first, bit i of a mask is `images[i]`), and the [`PairSlot`] of
/// each ordered pair (a·n + b), `NO_PAIR` for a pair left out; `mutual(a, b)` tells whether
/// royals on a and b capture each other whatever stands between.
pub(super) fn royal_pairs(
    n: usize,
    images: &[Vec<Square>],
    mutual: impl Fn(Square, Square) -> bool,
) -> (Vec<(Square, Square)>, Vec<PairSlot>) {
    let mut pair_slot = vec![(NO_PAIR, 0u8); n * n];
    let mut pairs = Vec::new();
    // Squares run to n - 1, which may be 255: counted in usize, so that n = 256 is no 0.
    for (a, b) in (0..n).flat_map(|a| (0..n).map(move |b| (a as Square, b as Square))) {
        if a == b || mutual(a, b) {
            continue;
        }
        let key = |i: usize| (images[i][a as usize], images[i][b as usize]);
        let canon = (0..images.len())
            .map(key)
            .min()
            .expect("G contains the identity");
        let mask = (0..images.len())
            .filter(|&i| key(i) == canon)
            .fold(0u8, |m, i| m | 1 << i);
        let number = if canon == (a, b) {
            pairs.push((a, b));
            (pairs.len() - 1) as u32
        } else {
            pair_slot[canon.0 as usize * n + canon.1 as usize].0
        };
        pair_slot[a as usize * n + b as usize] = (number, mask);
    }
    (pairs, pair_slot)
}

/// The slots of `folded` (the pairs and slots of `royal_pairs` under a larger group) with each
/// canonical pair numbered as `plain` (the slots under the identity alone) numbers it: the
/// pairs a larger group folds away become holes among the identity's numbers.
pub(super) fn renumbered(
    n: usize,
    (pairs, slots): (Vec<(Square, Square)>, Vec<PairSlot>),
    plain: &[PairSlot],
) -> Vec<PairSlot> {
    slots
        .into_iter()
        .map(|(number, mask)| match pairs.get(number as usize) {
            Some(&(a, b)) => (plain[a as usize * n + b as usize].0, mask),
            None => (NO_PAIR, mask),
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use crate::board::geometry::Geometry;
    use crate::board::BoardSize;
    use crate::egt::index::Indexer;
    use crate::egt::material::Material;
    use crate::piece::PieceSet;

    fn material(spec: &str, set: &PieceSet) -> Material {
        Material::parse(spec, set).unwrap()
    }

    #[test]
    fn kings_fold_to_462_pairs() {
        let set = PieceSet::standard();
        let ix = Indexer::new(&material("K.K", &set), &Geometry::new(&set), true);
        assert_eq!(ix.pair_count(), 462);
        assert_eq!(ix.symmetry(), 8);
    }

    /// On every board the canonical pairs' orbits cover each ordered pair of squares not
    /// adjacent exactly once: 16×16 too, whose last square is 255.
    #[test]
    fn pairs_cover_every_board() {
        let set = PieceSet::standard();
        for (w, h) in [(8, 8), (10, 8), (3, 5), (16, 16)] {
            let board = BoardSize::new(w, h).unwrap();
            let ix = Indexer::new(&material("K.K", &set), &Geometry::on(&set, board), true);
            let covered: u64 = (0..ix.size())
                .filter_map(|i| ix.decode(i))
                .map(|sq| ix.orbit_size(&sq))
                .sum();
            let n = (w * h) as u64;
            let (w, h) = (w as u64, h as u64);
            let adjacent = 2 * ((w - 1) * h + w * (h - 1) + 2 * (w - 1) * (h - 1));
            assert_eq!(covered, n * (n - 1) - adjacent, "{board}");
        }
    }
}
