//! Phase 1 (captures and mates) block by block. In a block only the block man moves, so every
//! attack between the other men is worked out once for all of its squares (with the set of
//! squares where the block man would block it), and a capture between the other men finds
//! its values in one block of the smaller table.

use super::bitmap::for_each_bit;
use super::blocks::QuietMoves;
use super::done::Finished;
use super::exits::{Exits, Reached, Read, NO_EXIT};
use super::sides::Writer;
use super::Build;
use crate::board::{Color, SquareSet};
use crate::egt::index::BlockMove;
use crate::egt::material::{Squares, MAX_MEN};
use crate::egt::value::{ILLEGAL, LOSS_FAR, UNKNOWN, WIN_FAR};
use std::sync::atomic::Ordering::Relaxed;

/// The exits found for the blocks of one placement of the other men, in a table that tells a
/// pair of identical men apart (`Indexer::block_twin`): slot x of the block with the twin on
/// square t is the position of slot t of the block with the twin on x, so a block's slots
/// below its twin's square take the exits found for the blocks before it, and only the others
/// are valued. Blocks that a symmetry folds are neither held nor read.
pub(super) struct TwinTile<S> {
    /// The block with the twin on square 0, of the placement held.
    first: u64,
    /// Per side: the twin's squares whose blocks are held.
    held: [S; 2],
    /// Per side, the exits of each slot of each block held (n · t + x: the twin on t, the
    /// block man on x).
    exits: [Vec<Exits>; 2],
    /// Per side: the slots of each block held with a legal exit.
    exiting: [Vec<S>; 2],
}

impl<S: SquareSet> TwinTile<S> {
    /// An empty tile for blocks of `len` slots.
    pub(super) fn new(len: usize) -> TwinTile<S> {
        TwinTile {
            first: u64::MAX,
            held: [S::default(); 2],
            exits: [0, 1].map(|_| vec![Exits::default(); len * len]),
            exiting: [0, 1].map(|_| vec![S::default(); len]),
        }
    }

    /// Starts holding the placement whose block with the twin on square 0 is `first`, unless
    /// it is the one held.
    fn enter(&mut self, first: u64) {
        if self.first != first {
            self.first = first;
            self.held = [S::default(); 2];
        }
    }
}

impl<S: SquareSet> Build<'_, S> {
    /// Phase 1 for block `w`: sets the bytes of its slots in `tables`, both sides' (or
    /// White's alone, see `Build::sides_built`), counting
    /// them in `bytes`; returns the number of legal positions. `exits` is room for a value
    /// per slot of a block; `tile`, in a table that tells twins apart, the exits of the
    /// blocks before it of the same placement of the other men.
    pub(super) fn setup_block(
        &self,
        w: u64,
        tables: &[Writer; 2],
        bytes: &mut [[u64; 256]; 2],
        exits: &mut [Exits],
        tile: Option<&mut TwinTile<S>>,
    ) -> u64 {
        let len = self.ix.block_len() as u64;
        let block = S::below(len as usize);
        let Some((sq, fold)) = self.block_men(w) else {
            for &c in self.sides_built() {
                for x in 0..len {
                    tables[c.index()].store(w * len + x, ILLEGAL);
                }
            }
            self.black_illegal(w, block);
            return 0;
        };
        let others = self.men.others_of_block(&sq);
        let attacked = Color::BOTH.map(|c| self.men.royal_attacked_in_block(&sq, others, c));
        // Where no rule can make a quiet position decided, a position without captures and
        // out of check stays UNKNOWN (it has a quiet move, or it is stalemate: a draw), as the
        // fresh table already says.
        let rules_decide_quiet = self.rules.stalemate_wins || self.rules.bare_royal_loses;
        let mut legal = 0;
        let canonical = fold.map_or(block, |f| f.keep::<S>());
        let black_positions = canonical & !others & !attacked[Color::White.index()];
        self.black_illegal(w, block & !black_positions);
        // The twin's square, and the tile holding the blocks of this placement of the others.
        let mut twin = (tile.filter(|_| fold.is_none()))
            .zip(self.ix.block_twin())
            .map(|(tile, i)| {
                let t = sq[i] as usize;
                tile.enter(w - t as u64);
                (t, tile)
            });
        for &c in self.sides_built() {
            let positions = canonical & !others & !attacked[c.flip().index()];
            let exiting = match &mut twin {
                Some((t, tile)) => self.twin_exits(&sq, others, positions, c, *t, tile, exits),
                None => self.exits_in_block(&sq, others, positions, c, exits),
            };
            for_each_bit(block & !positions, |x| {
                tables[c.index()].store(w * len + x as u64, ILLEGAL)
            });
            legal += positions.count() as u64;
            let quiet = if rules_decide_quiet {
                S::default()
            } else {
                positions & !exiting & !attacked[c.index()]
            };
            bytes[c.index()][UNKNOWN as usize] += quiet.count() as u64;
            // Where c has a quiet move: found for the block as first asked.
            let mut moves = QuietMoves::new(self, &sq, c, Some(attacked[c.index()]));
            // The longest loss an undecided position's exits give (`exit_bounds.rs`).
            let mut longest = 0;
            for_each_bit(positions & !quiet, |x| {
                let in_check = attacked[c.index()].contains(x);
                let slot = w * len + x as u64;
                let byte =
                    self.byte_given_exits(slot, c, in_check, exits[x as usize], || moves.has(x));
                if byte == UNKNOWN {
                    longest = longest.max(exits[x as usize].worst_loss().unwrap_or(0));
                }
                bytes[c.index()][byte as usize] += 1;
                tables[c.index()].store(slot, byte);
            });
            self.exit_bounds.set(c, w, longest);
        }
        legal
    }

    /// `exits_in_block` for a block whose twin stands on square `t`, in a table that tells
    /// twins apart: the slots below t whose blocks `tile` holds take their exits from there,
    /// the others are valued; the block is then held.
    #[allow(clippy::too_many_arguments)]
    fn twin_exits(
        &self,
        sq: &Squares,
        others: S,
        positions: S,
        c: Color,
        t: usize,
        tile: &mut TwinTile<S>,
        exits: &mut [Exits],
    ) -> S {
        let n = self.ix.block_len();
        let (held, found, exiting_of) = (
            tile.held[c.index()],
            &mut tile.exits[c.index()],
            &mut tile.exiting[c.index()],
        );
        let copied = positions & S::below(t) & held;
        let mut exiting = self.exits_in_block(sq, others, positions & !copied, c, exits);
        for_each_bit(copied, |x| {
            exits[x as usize] = found[x as usize * n + t];
            if exiting_of[x as usize].contains(t as u8) {
                exiting |= S::bit(x);
            }
        });
        found[t * n..(t + 1) * n].copy_from_slice(&exits[..n]);
        exiting_of[t] = exiting;
        tile.held[c.index()] = held | S::bit(t as u8);
        exiting
    }

    /// In a build from one side, adds the slots `illegal` of block `w` to Black's no-escape
    /// set: they are illegal with Black to move (see `no_escape.rs`).
    #[inline]
    pub(super) fn black_illegal(&self, w: u64, illegal: S) {
        if self.swap.is_some() {
            self.no_escape[Color::Black.index()].or(w, illegal);
        }
    }

    /// For each square of the block man among `positions`, what side `c`'s exits give it
    /// (its captures; with pawns, their moves and promotions too), in `out[x]` (`out` has an
    /// entry per slot of the block); returns the squares where it has a legal exit. Every
    /// exit counts: a position whose only legal moves are exits, and whose exits were left
    /// out, would stay undecided.
    pub(super) fn exits_in_block(
        &self,
        sq: &Squares,
        others: S,
        positions: S,
        c: Color,
        out: &mut [Exits],
    ) -> S {
        out.fill(Exits::default());
        let mut exiting = S::default();
        // An exit reaching `read` from square x, as `how` says.
        let mut add = |x: u8, how: Reached, read: Read| {
            let worth = self.worth.of(how, read);
            if worth != NO_EXIT {
                exiting |= S::bit(x);
                out[x as usize].add_worth(worth);
            }
        };
        let bm = self.men.block_man();
        let last_rank = self.men.last_rank(c);
        for &i in self.men.of(c) {
            let pawn = self.men.is_pawn(i);
            for &j in &self.men.of(c.flip())[1..] {
                if i == bm {
                    // The same position follows from every square the block man takes from.
                    let reach = positions & self.men.moves(bm).attackers(sq[j], others);
                    if !reach.is_empty() {
                        let v = Read::Value(self.captured_value(sq, i, j, c));
                        for_each_bit(reach, |x| add(x, Reached::Capture, v));
                    }
                    continue;
                }
                // The squares of the block man where the capture exists, and the man left on
                // that square (his number among the men left): man i landing on the block
                // man's square, or the block man himself.
                let (reach, m) = if j == bm {
                    let reach = self.men.moves(i).attack_set(sq[i], others) & positions;
                    (reach, i - usize::from(j < i))
                } else {
                    let allowed = self.men.moves(i).attacks_with_extra(sq[i], sq[j], others);
                    if allowed.is_empty() {
                        continue;
                    }
                    (positions & allowed, bm - usize::from(j < bm))
                };
                // A pawn taking on its last rank promotes (when it takes the block man, on
                // the squares of that rank alone).
                let promoting = match (pawn, j == bm) {
                    (false, _) => S::default(),
                    (true, true) => reach & last_rank,
                    (true, false) if self.men.promotes_on(sq[j], c) => reach,
                    (true, false) => S::default(),
                };
                let after = self.men.after_capture(sq, i, j);
                self.sub_values(
                    self.sub(j),
                    after,
                    m,
                    reach & !promoting,
                    c.flip(),
                    |x, read| add(x, Reached::Capture, read),
                );
                if !promoting.is_empty() {
                    for (table, perm) in &self.capture_promos[i * MAX_MEN + j] {
                        let after = self.men.after_promotion(sq, i, sq[j], Some(j), perm);
                        self.sub_values(*table, after, perm[m], promoting, c.flip(), |x, read| {
                            add(x, Reached::Capture, read)
                        });
                    }
                }
            }
        }
        // The pawns' steps: to a finished layer of this table (the block man stays the block
        // man), or, promoting, to the smaller tables.
        self.men
            .for_each_pawn_move_of_block(sq, others, c, |i, to, allowed| {
                let squares = positions & allowed;
                if squares.is_empty() {
                    return;
                }
                if self.men.promotes_on(to, c) {
                    for (table, perm) in &self.promos[i] {
                        let after = self.men.after_promotion(sq, i, to, None, perm);
                        self.sub_values(*table, after, perm[bm], squares, c.flip(), |x, read| {
                            add(x, Reached::Capture, read)
                        });
                    }
                    return;
                }
                let mut moved = *sq;
                moved[i] = to;
                // A double step that an enemy pawn may take en passant: the right's value for
                // each square of the block man (who may pin the taker, or be the only other
                // move) but the square passed, where he blocks the double step (the move is
                // then another step's, which gives no right).
                let en_passant = self.pawn_rules.and_then(|rules| {
                    let passed = rules.passed(c, sq[i], to, |s| others.contains(s))?;
                    let mut takers = self.en_passant_takers(sq, passed, c.flip(), rules);
                    takers.next().map(|_| (rules, passed))
                });
                self.sub_values(&self.done, moved, bm, squares, c.flip(), |x, read| {
                    let Some((rules, passed)) = en_passant.filter(|&(_, p)| p != x) else {
                        return add(x, Reached::Push, read);
                    };
                    let v = read.value().map(|without| {
                        let mut s = moved;
                        s[bm] = x;
                        self.after_double_step(&s, i, passed, c.flip(), without, rules)
                    });
                    add(x, Reached::Push, Read::Value(v))
                });
            });
        exiting
    }

    /// Calls `f(x, read)` for every square x in `squares` of man `m` in the placements
    /// `after` of table `sub` (a smaller table, or this one's finished layers), `stm` to
    /// move: one block of `sub` when m is its block man too. Black's side of a table stored
    /// once is read from White's at the colour swap's images, and a table read from the
    /// colour-swapped material's from that one's.
    fn sub_values<T: Finished + ?Sized>(
        &self,
        sub: &T,
        after: Squares,
        m: usize,
        squares: S,
        stm: Color,
        mut f: impl FnMut(u8, Read),
    ) {
        if squares.is_empty() {
            return;
        }
        match sub.swapped(stm) {
            Some((swap, held)) => {
                let image = swap.placement(&after, sub.indexer().men());
                let mut turned = S::default();
                for_each_bit(squares, |x| turned |= S::bit(swap.square(x)));
                let carrier = swap.carrier(m);
                self.held_values(held, image, carrier, turned, stm.flip(), |x, v| {
                    f(swap.square(x), v)
                })
            }
            None => self.held_values(sub, after, m, squares, stm, f),
        }
    }

    /// `sub_values` from a side whose bytes `sub` holds.
    #[inline]
    fn held_values<T: Finished + ?Sized>(
        &self,
        sub: &T,
        mut after: Squares,
        m: usize,
        squares: S,
        stm: Color,
        mut f: impl FnMut(u8, Read),
    ) {
        let ix = sub.indexer();
        if ix.block_man() == Some(m) {
            let len = ix.block_len() as u64;
            let block = |b: u64| held_slots(sub, b * len, stm);
            match ix.block_of(&after) {
                BlockMove::Off => for_each_bit(squares, |x| f(x, Read::Value(None))),
                BlockMove::Block(b) => {
                    let slot = block(b);
                    for_each_bit(squares, |x| f(x, slot(x as u64)))
                }
                BlockMove::Mapped(b, g) => {
                    let (slot, image) = (block(b), ix.images_of(g));
                    for_each_bit(squares, |x| f(x, slot(image[x as usize] as u64)))
                }
                BlockMove::Folded(b, g, fold) => {
                    let (slot, image) = (block(b), ix.images_of(g));
                    for_each_bit(squares, |x| {
                        f(x, slot(ix.fold_square(&fold, image[x as usize]) as u64))
                    })
                }
            }
            return;
        }
        match ix.man_slots(&after, m) {
            Some(slots) => {
                let read = held_slots(sub, 0, stm);
                for_each_bit(squares, |x| {
                    f(x, slots.slot(x).map_or(Read::Value(None), &read))
                })
            }
            None => for_each_bit(squares, |x| {
                after[m] = x;
                f(x, Read::Value(sub.value(&after, stm)))
            }),
        }
    }
}

/// The values of `sub`'s slots `start + k` with `stm` to move, by k: their bytes where the
/// table holds that side itself, one run for all of a block's or a line's slots (a byte beyond
/// the direct distances is looked up in the table's list of them); slot by slot through
/// `Finished::value_at` otherwise.
#[inline]
fn held_slots<T: Finished + ?Sized>(sub: &T, start: u64, stm: Color) -> impl Fn(u64) -> Read + '_ {
    let bytes = sub.held_bytes(start, stm);
    move |k| match bytes.map(|bytes| bytes[k as usize].load(Relaxed)) {
        Some(byte) if byte != WIN_FAR && byte != LOSS_FAR => Read::Byte(byte),
        _ => Read::Value(sub.value_at(start + k, stm)),
    }
}
