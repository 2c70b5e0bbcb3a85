//! Tables whose non-royal men (pawns aside) all come in groups of identical men have no block man
//! (`Indexer::has_blocks`), and are built slot by slot at about ten times the cost of a
//! position built block by block. Where the budget allows, such a table is built with the last
//! man of its last group told apart from the others instead ([`Indexer::twins_apart`]): each
//! position of a pair then has two slots, one per order of the pair, and of a group of k men
//! k slots, one per man standing apart, all found by the same steps; the man apart is a block
//! man. The built table is then packed back, in place, into the table's own layout, where each
//! position has one slot: what files, probes and statistics read.

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

/// Packs one side's bytes in place, a chunk (a royal pair's run of a pawn slice, or of the
/// table without pawns) at a time: chunk c is read from `apart`'s chunk c and written to
/// `plain`'s, which ends below where the other starts (a group of k men takes more than k
/// times the slots told apart), so chunks lo .. hi may be packed at once when every one of
/// them ends its writes before chunk lo's reads start: chunk 0 first, then runs about twice
/// as long as the runs before. The slots of no chunk (the padding of pawn slices, and up to
/// the last block) become `ILLEGAL`, as a build in `plain`'s layout leaves them.
fn pack_bytes(plain: &Indexer, apart: &Indexer, bytes: &mut Vec<AtomicU8>) {
    let chunks = plain.chunk_count();
    let mut lo = 0;
    while lo < chunks {
        let reads = apart.chunk_slots(lo).start;
        let mut hi = lo + 1;
        while hi < chunks && plain.chunk_slots(hi).end <= reads {
            hi += 1;
        }
        (lo..hi).into_par_iter().for_each(|chunk| {
            let into = plain.chunk_slots(chunk);
            let mut packed = vec![ILLEGAL; (into.end - into.start) as usize];
            plain.for_each_apart_slot(apart, chunk, |k, slot| {
                if let Some(slot) = slot {
                    packed[k] = bytes[slot as usize].load(Relaxed);
                }
            });
            for (k, byte) in packed.into_iter().enumerate() {
                bytes[into.start as usize + k].store(byte, Relaxed);
            }
        });
        lo = hi;
    }
    bytes.truncate(plain.padded_size() as usize);
    let mut end = 0;
    for chunk in 0..chunks {
        let slots = plain.chunk_slots(chunk);
        (end..slots.start).for_each(|i| bytes[i as usize].store(ILLEGAL, Relaxed));
        end = slots.end;
    }
    bytes[end as usize..]
        .iter()
        .for_each(|b| b.store(ILLEGAL, Relaxed));
    bytes.shrink_to_fit();
}
