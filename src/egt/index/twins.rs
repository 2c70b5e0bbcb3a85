//! The way back from a layout that tells a pair of identical men apart
//! ([`Indexer::twins_apart`]) to the table's own, where the pair is one digit.

use super::Indexer;

impl Indexer {
    /// For each slot of royal pair `pair`'s run in this layout (slots `pair · rest ..` of a
    /// table without pawns), in order: `f(k, slot)`, k counting from the run's first slot,
    /// `slot` that of the same position in `apart`'s layout (this material's
    /// [`Indexer::twins_apart`]), in the run of the same royal pair there, or `None` for a
    /// hole.
    pub fn for_each_apart_slot(
        &self,
        apart: &Indexer,
        pair: usize,
        mut f: impl FnMut(usize, Option<u64>),
    ) {
        let (a, b) = self.pairs[pair];
        let (_, mask) = self.pair_slot[a as usize * self.n + b as usize];
        let run = pair as u64 * self.rest;
        if mask != 1 {
            // A royal pair a symmetry fixes: the other men's placement is the canonical one
            // of its class, in either layout.
            for k in 0..self.rest {
                f(
                    k as usize,
                    self.decode(run + k).and_then(|sq| apart.index(&sq)),
                );
            }
            return;
        }
        // A plain royal pair: the other digits are the same in both layouts, and the pair's
        // rank (its squares in ascending order) becomes the first man's square times the
        // board's squares plus the second's (the block man's).
        let twins = self.groups.last().expect("a pair of identical men");
        let n = self.n as u64;
        let within: Vec<u64> = (twins.unrank.iter())
            .map(|s| s[0] as u64 * n + s[1] as u64)
            .collect();
        let mut k = 0;
        for others in 0..self.rest / twins.size {
            let from = pair as u64 * apart.rest + others * n * n;
            for &o in &within {
                f(k, Some(from + o));
                k += 1;
            }
        }
    }

    /// Slots of a royal pair's run (without pawns).
    pub fn pair_run(&self) -> u64 {
        self.rest
    }
}
