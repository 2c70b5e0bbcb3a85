//! Tables whose non-royal men all come in groups of identical men have no block man
//! (`Indexer::has_blocks`), and are built slot by slot at about ten times the cost of a
//! position built block by block. Where the budget allows, such a table is built with its last
//! pair told apart instead ([`Indexer::twins_apart`]): each position then has two slots, one
//! per order of the pair, both found by the same steps, and the second man of the pair is a
//! block man. The built table is then packed back, in place, into the table's own layout,
//! where each position has one slot: what files, probes and statistics read.

use crate::egt::index::Indexer;
use crate::egt::value::ILLEGAL;
use rayon::prelude::*;
use std::sync::atomic::{AtomicU8, Ordering::Relaxed};

/// Packs `data` (each side's bytes, or none for a side not held) and `far` (each side's long
/// distances, `slot << 16 | distance`, sorted), built in `apart`'s layout, into `plain`'s:
/// the same material's [`Indexer::twins_apart`] and [`Indexer::new`].
pub(super) fn pack(
    plain: &Indexer,
    apart: &Indexer,
    data: &mut [Vec<AtomicU8>; 2],
    far: &mut [Vec<u64>; 2],
) {
    for bytes in data.iter_mut().filter(|d| !d.is_empty()) {
        pack_bytes(plain, apart, bytes);
    }
    for list in far.iter_mut() {
        let mut packed: Vec<u64> = (list.iter())
            .filter_map(|&e| {
                let sq = apart
                    .decode(e >> 16)
                    .expect("a long distance is a position's");
                plain.index(&sq).map(|slot| slot << 16 | (e & 0xffff))
            })
            .collect();
        // Both orders of the pair give the same slot.
        packed.sort_unstable();
        packed.dedup();
        *list = packed;
    }
}

/// Packs one side's bytes in place. Royal pair p's run is read from slots `p · A ..` of
/// `apart`'s layout (A its run's length) and written to `p · R ..` (R = `plain`'s, less than
/// half of A), so that the runs of pairs lo .. hi may be packed at once when every one they
/// write, below hi · R, lies below every one they read, from lo · A on: pair 0 first, then
/// runs of pairs each about twice as long as the runs before.
fn pack_bytes(plain: &Indexer, apart: &Indexer, bytes: &mut Vec<AtomicU8>) {
    let (run, from) = (plain.pair_run(), apart.pair_run());
    let pairs = plain.pair_count();
    let mut lo = 0;
    while lo < pairs {
        let hi = match lo {
            0 => 1,
            _ => ((lo as u64 * from / run) as usize).clamp(lo + 1, pairs),
        };
        (lo..hi).into_par_iter().for_each(|pair| {
            let mut packed = vec![ILLEGAL; run as usize];
            plain.for_each_apart_slot(apart, pair, |k, slot| {
                if let Some(slot) = slot {
                    packed[k] = bytes[slot as usize].load(Relaxed);
                }
            });
            let start = pair as u64 * run;
            for (k, byte) in packed.into_iter().enumerate() {
                bytes[start as usize + k].store(byte, Relaxed);
            }
        });
        lo = hi;
    }
    let (size, padded) = (plain.size() as usize, plain.padded_size() as usize);
    bytes.truncate(padded);
    bytes[size..].iter().for_each(|b| b.store(ILLEGAL, Relaxed));
    bytes.shrink_to_fit();
}
