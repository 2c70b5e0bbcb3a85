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
    // The squares as a `Square` each: `0..n as Square` would be empty on a board of 256.
    let squares = || (0..n).map(|s| s as Square);
    for a in squares() {
        for b in squares() {
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
    }
    (pairs, pair_slot)
}

#[cfg(test)]
mod tests {
    use crate::board::geometry::Geometry;
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

    /// Every ordered pair of non-adjacent squares of a board folds to a canonical pair, on
    /// the largest board (16×16, squares 0 to 255) as on the others: n·(n−1) ordered pairs
    /// minus the adjacent ones, in orbits of at most 8.
    #[test]
    fn every_board_size_has_its_royal_pairs() {
        let set = PieceSet::standard();
        for (w, h) in [(16, 16), (15, 15), (16, 3), (3, 16), (8, 8)] {
            let board = crate::board::BoardSize::new(w, h).unwrap();
            let ix = Indexer::new(&material("K.K", &set), &Geometry::on(&set, board), true);
            let (w, h) = (w as u64, h as u64);
            // Ordered pairs of distinct squares that a king step joins.
            let adjacent = 2 * (h * (w - 1) + w * (h - 1) + 2 * (w - 1) * (h - 1));
            let pairs = w * h * (w * h - 1) - adjacent;
            let g = ix.symmetry() as u64;
            assert!(
                ix.pair_count() as u64 >= pairs / g && (ix.pair_count() as u64) < pairs,
                "{board}: {} pairs of {pairs}",
                ix.pair_count()
            );
        }
    }
}
