//! Where one man's squares take a placement: the slots of `sq` with man m moved to each
//! square x, found once for all the squares. A builder reads a smaller table so where a
//! capture's capturer lands on each square of its block man ([`Indexer::man_slots`]), which
//! would otherwise index every placement from scratch.

use super::pairs::{PairSlot, NO_PAIR};
use super::ranks::pair_rank;
use super::{least_rest, Indexer};
use crate::board::Square;
use crate::egt::material::Squares;

/// The slots of a placement's man m on each square (see [`Indexer::man_slots`]).
#[derive(Clone, Copy, Debug)]
pub enum ManSlots<'a> {
    /// A man alone in his group: `base + stride · image[x]` ([`Indexer::line`]).
    Line {
        base: u64,
        stride: u64,
        image: &'a [Square],
    },
    /// A man of a pair of identical men whose partner stands on `partner` (its image):
    /// `base + stride · rank(image[x], partner)`, the pair ranked as an unordered set.
    Twin {
        base: u64,
        stride: u64,
        image: &'a [Square],
        partner: Square,
    },
    /// A royal: each square gives another royal pair, whose slot and symmetries (`mask`) say
    /// under which images the other men's digits (`rests`, one per element of the group) are
    /// read, the least of them where several fix the pair.
    Royal {
        /// The slice's first slot (0 without pawns).
        base: u64,
        /// The royal pairs' slots of the slice (or the table).
        slots: &'a [PairSlot],
        /// Where the other royal stands, and whether man m is White's royal (the pair's
        /// first square).
        other: Square,
        first: bool,
        /// The squares' images under the slice's orientation (the identity without pawns).
        orient: &'a [Square],
        n: usize,
        rest: u64,
        rests: [u64; 8],
    },
}

impl ManSlots<'_> {
    /// The slot of the placement with man m on square `x` (a square no other man takes),
    /// `None` where it is a hole (the royals attacking each other whatever stands between).
    #[inline]
    pub fn slot(&self, x: Square) -> Option<u64> {
        match *self {
            ManSlots::Line {
                base,
                stride,
                image,
            } => Some(base + stride * image[x as usize] as u64),
            ManSlots::Twin {
                base,
                stride,
                image,
                partner,
            } => Some(base + stride * pair_rank(image[x as usize], partner)),
            ManSlots::Royal {
                base,
                slots,
                other,
                first,
                orient,
                n,
                rest,
                ref rests,
            } => {
                let x = orient[x as usize];
                let (pair, mask) = match first {
                    true => slots[x as usize * n + other as usize],
                    false => slots[other as usize * n + x as usize],
                };
                if pair == NO_PAIR {
                    return None;
                }
                Some(base + pair as u64 * rest + least_rest(mask, |i| rests[i]))
            }
        }
    }
}

impl Indexer {
    /// The slots of the placements `sq` with man `m` moved to any square, found once for all
    /// squares ([`ManSlots::slot`]): a man alone in his group where one symmetry folds the
    /// royal pair ([`Indexer::line`]), a man of a pair of identical men likewise, or a royal;
    /// `None` for the others (a pawn, a man of a larger group, or where several symmetries fix
    /// the royal pair), to be indexed one by one. With pawns, `sq` must be in its slice's
    /// own orientation for a man who is not royal.
    ///
    /// ```
    /// use fairy_egt::board::geometry::Geometry;
    /// use fairy_egt::egt::index::Indexer;
    /// use fairy_egt::egt::material::Material;
    /// use fairy_egt::piece::PieceSet;
    ///
    /// let geometry = Geometry::new(&PieceSet::standard());
    /// let krr = Material::parse("KRR.KN", geometry.pieces()).unwrap();
    /// let ix = Indexer::new(&krr, &geometry, true);
    /// // The kings on b1 and g8, the rooks on d4 and e6, the knight on h2.
    /// let placed = [1, 62, 27, 44, 15, 0];
    /// for m in 0..5 {
    ///     let slots = ix.man_slots(&placed, m).expect("a royal, a rook of the pair, the knight");
    ///     for x in (0..64).filter(|x| !placed[..5].contains(x)) {
    ///         let mut sq = placed;
    ///         sq[m] = x;
    ///         assert_eq!(slots.slot(x), ix.index(&sq));
    ///     }
    /// }
    /// ```
    pub fn man_slots(&self, sq: &Squares, m: usize) -> Option<ManSlots<'_>> {
        if m < 2 {
            return self.royal_slots(sq, m);
        }
        if let Some((base, stride, image)) = self.line(sq, m) {
            return Some(ManSlots::Line {
                base,
                stride,
                image,
            });
        }
        let (k, stride) = self.group_digits[m]?;
        let group = &self.groups[k];
        if group.len != 2 || self.slices.is_some() {
            return None;
        }
        let (pair, mask) = self.pair_slot[sq[0] as usize * self.n + sq[1] as usize];
        if pair == NO_PAIR || !mask.is_power_of_two() {
            return None;
        }
        let p = if group.start == m { m + 1 } else { group.start };
        let image = &self.images[mask.trailing_zeros() as usize][..];
        let partner = image[sq[p] as usize];
        // The digits with man m on his partner's square, less his pair's rank there.
        let mut at = *sq;
        at[m] = sq[p];
        let rest = self.rest_of(image, &at) - stride * pair_rank(partner, partner);
        Some(ManSlots::Twin {
            base: pair as u64 * self.rest + rest,
            stride,
            image,
            partner,
        })
    }

    /// `man_slots` for a royal: the other men's digits under each element of the group, read
    /// once.
    fn royal_slots(&self, sq: &Squares, m: usize) -> Option<ManSlots<'_>> {
        let (base, slots, orientation) = match &self.slices {
            None => (0, &self.pair_slot[..], 0),
            Some(s) => {
                let (slice, orientation) = s.locate(sq)?;
                (
                    slice as u64 * s.size,
                    s.pair_slots(slice, &self.pair_slot),
                    orientation,
                )
            }
        };
        if self.images.len() > 8 {
            return None;
        }
        let sq = &self.oriented(sq, orientation);
        let mut rests = [0; 8];
        for (r, image) in rests.iter_mut().zip(&self.images) {
            *r = self.rest_of(image, sq);
        }
        Some(ManSlots::Royal {
            base,
            slots,
            other: sq[1 - m],
            first: m == 0,
            orient: &self.images[orientation],
            n: self.n,
            rest: self.rest,
            rests,
        })
    }
}
