//! The way back from a layout that tells identical men apart ([`Indexer::twins_apart`]) to
//! the table's own, where their group is one digit.

use super::ranks::rank_sorted;
use super::Indexer;

impl Indexer {
    /// For each slot of chunk `chunk` in this layout (`chunk_slots`), in order: `f(k, slot)`,
    /// k counting from the chunk's first slot, `slot` that of the same position in `apart`'s
    /// layout (this material's [`Indexer::twins_apart`], whose chunks are this layout's, a
    /// position's slot in the same chunk), or `None` for a hole.
    pub fn for_each_apart_slot(
        &self,
        apart: &Indexer,
        chunk: u64,
        mut f: impl FnMut(usize, Option<u64>),
    ) {
        let slots = self.chunk_slots(chunk);
        if !self.chunk_is_plain(chunk) {
            // A symmetry is in play: the other men's placement is the canonical one of its
            // class, in either layout.
            for (k, slot) in slots.enumerate() {
                f(k, self.decode(slot).and_then(|sq| apart.index(&sq)));
            }
            return;
        }
        // A plain chunk: the other digits are the same in both layouts, and the group's rank
        // (its squares in ascending order) becomes the rank of all but its last square among
        // the group of one man fewer (of a pair, the first man's square) times the board's
        // squares, plus the last square (the block man's). Men sharing a square are holes in
        // both.
        let twins = self.groups.last().expect("a group of identical men");
        let (n, men) = (self.n as u64, twins.len);
        let within: Vec<u64> = (twins.unrank.iter())
            .map(|s| rank_sorted(&s[..men - 1]) * n + s[men - 1] as u64)
            .collect();
        // The slots of one placement of the other men told apart: its last two digits.
        let told_apart: u64 = apart.groups[apart.groups.len() - 2..]
            .iter()
            .map(|g| g.size)
            .product();
        let start = apart.chunk_slots(chunk).start;
        let mut k = 0;
        for others in 0..self.rest / twins.size {
            let from = start + others * told_apart;
            for &o in &within {
                f(k, Some(from + o));
                k += 1;
            }
        }
    }
}
