//! The loss half of distance n: each undecided predecessor of a position won in n (found by
//! `gather.rs`) is checked once by a forward look at all its moves, and is lost when every
//! move reaches a position won for the opponent in at most n (in n, or later when a capture
//! reaches a longer win). Tables with blocks look at a block's quiet moves 64 slots at a time
//! (`blocks.rs`).

use super::bitmap::for_each_bit;
use super::far::Kind;
use super::no_escape::NoEscape;
use super::sides::Word;
use super::{Build, MAX_DISTANCE};
use crate::board::{Color, SquareSet};
use crate::egt::material::Squares;
use crate::egt::men::Occupancy;
use crate::egt::value::{win_of, Value, ILLEGAL, UNKNOWN, WIN_FAR, WIN_NEW};
use std::sync::atomic::Ordering::Relaxed;

impl<S: SquareSet> Build<'_, S> {
    /// Distance n: every undecided predecessor of a position won in n whose moves all reach
    /// positions won for the opponent in at most n is lost (in n, or later when a capture
    /// reaches a longer win, in which case it waits for that distance). Each candidate is
    /// checked once however many of its successors were won in n.
    pub(super) fn loss_step(&self, n: u16) -> [u64; 2] {
        Color::BOTH.map(|c| {
            let lost = &self.lost[c.index()];
            let found = self.collect(c, n, Kind::Loss, lost);
            let win = self.far.code(Kind::Win, n);
            self.gather(c, &self.won[c.flip().index()], win);
            let table = self.sides.writer(c);
            let opponent = self.sides.frozen(c.flip());
            let opponent_table: &[u8] = &opponent;
            let wins = OpponentWins {
                table: opponent_table,
                n,
            };
            found
                + self.candidates.check_blocks(
                    &self.no_escape[c.index()],
                    lost,
                    |w| {
                        // SAFETY: check_blocks gives block w to this task only.
                        let word = unsafe { table.word(w) };
                        NoEscape::held(&word.bytes(), win)
                    },
                    |w| table.prefetch(w),
                    |w, bits| {
                        if self.cancelled() {
                            return 0;
                        }
                        // SAFETY: check_blocks gives block w to this task only.
                        let mut word = unsafe { table.word(w) };
                        let bytes = word.bytes();
                        let undecided = bits & bytes.equal(UNKNOWN) & !self.fixed_word(c, w);
                        if undecided == 0 {
                            return 0;
                        }
                        let mut kept = 0;
                        if let Some(block) = self.block(w) {
                            let losers = self.quiet_losers_of_block(
                                w,
                                undecided,
                                &block,
                                c,
                                &self.no_escape[c.flip().index()],
                            );
                            let sq = block.0;
                            let bm = self.men.block_man();
                            for_each_bit(losers, |x| {
                                let mut s = sq;
                                s[bm] = x;
                                let p = w * 64 + x as u64;
                                let occ = self.men.occupancy(&s);
                                // Some legal quiet move reaches a win in exactly n (the
                                // candidate was found from it), or else the pass does: the
                                // candidate would have been settled at the distance of its
                                // longest win otherwise. Where passing is not allowed, every
                                // candidate was found by a legal quiet move.
                                let quiet = (!self.rules.null_move.allows(c)
                                    || self.men.has_quiet_move(&s, occ, c))
                                .then_some(n);
                                let d = self.other_moves_lose(p, &s, occ, c, wins, quiet);
                                if self.settle_loss(c, &mut word, p, d, n) {
                                    kept |= 1 << x;
                                }
                            });
                        } else {
                            for_each_bit(undecided, |b| {
                                let p = w * 64 + b as u64;
                                let sq = self.ix.decode(p).expect("candidates are positions");
                                let d = self.all_moves_lose(p, &sq, c, wins);
                                if self.settle_loss(c, &mut word, p, d, n) {
                                    kept |= 1 << b;
                                }
                            });
                        }
                        kept
                    },
                )
        })
    }

    /// Stores the outcome `d` of `all_moves_lose` at step n for slot `p` of side `c`, in
    /// `word`, the word that holds it: a loss in n (returns true: `p` joins the frontier), a
    /// loss waiting for a later distance, or nothing.
    fn settle_loss(&self, c: Color, word: &mut Word, p: u64, d: Option<u16>, n: u16) -> bool {
        let Some(d) = d else {
            return false;
        };
        if d > MAX_DISTANCE {
            self.too_long.store(true, Relaxed);
            false
        } else if d == n {
            word.store((p % 64) as u8, self.far.code(Kind::Loss, n));
            true
        } else {
            let byte = self.far.provisional(c, p, Value::Loss(d));
            word.store((p % 64) as u8, byte);
            if self.far.is_direct(d) {
                self.pending.add(c, p / 64, byte);
            }
            false
        }
    }

    /// If every legal move of side `c` (and its pass, where allowed) reaches a position won
    /// for the opponent, in at most n moves for positions of this table, the longest such
    /// win. `None` also when `c` has no legal move: mate and stalemate were settled in the
    /// first pass (a stalemated side may not pass). `wins` reads the opponent's table.
    fn all_moves_lose(
        &self,
        index: u64,
        sq: &Squares,
        c: Color,
        wins: OpponentWins,
    ) -> Option<u16> {
        let occ = self.men.occupancy(sq);
        let plain = self.ix.is_plain(sq);
        let mut longest = 0u16;
        let mut quiet = false;
        let quiet_ok = self.men.for_each_quiet(sq, occ, c, |i, t| {
            let mut s2 = *sq;
            s2[i] = t;
            let next = self.ix.after_move(index, plain, sq, i, &s2);
            match next.and_then(|x| wins.at(x)) {
                None => true,
                Some(won) => {
                    quiet = true;
                    won.inspect(|&d| longest = longest.max(d)).is_some()
                }
            }
        });
        if !quiet_ok {
            return None;
        }
        let quiet = quiet.then_some(longest);
        self.other_moves_lose(index, sq, occ, c, wins, quiet)
    }

    /// `all_moves_lose` once every quiet move is known to lose: `quiet` is the longest win
    /// they reach, `None` if there is no legal quiet move.
    fn other_moves_lose(
        &self,
        index: u64,
        sq: &Squares,
        occ: Occupancy<S>,
        c: Color,
        wins: OpponentWins,
        quiet: Option<u16>,
    ) -> Option<u16> {
        let mut moves = quiet.is_some();
        let mut longest = quiet.unwrap_or(0);
        let mut all_lose = true;
        self.men
            .for_each_capture(sq, occ, c, |i, j| match self.capture_value(sq, i, j, c) {
                None => {}
                Some(Value::Win(d)) => {
                    moves = true;
                    longest = longest.max(d);
                }
                Some(_) => all_lose = false,
            });
        if !all_lose || !moves {
            return None;
        }
        if self.may_pass(c, || self.men.royal_attacked(sq, occ.all(), c)) {
            let d = wins.at(index).flatten()?;
            longest = longest.max(d);
        }
        Some(longest)
    }
}

/// The opponent's wins that make a move lose at step n: its table (a frozen view), and n.
#[derive(Clone, Copy)]
struct OpponentWins<'t> {
    table: &'t [u8],
    n: u16,
}

impl OpponentWins<'_> {
    /// For a slot of this table reached by a move or a pass of the opponent's opponent:
    /// `None` if the position is illegal (the move was not legal), `Some(Some(d))` if it is
    /// won for the opponent in d ≤ n moves, `Some(None)` otherwise. A win settled beyond the
    /// direct distances counts as n − 1: it is shorter than n, and every candidate has a move
    /// to a win in n, so the longest win a candidate's moves reach is never one of those.
    #[inline]
    fn at(&self, next: u64) -> Option<Option<u16>> {
        match self.table[next as usize] {
            ILLEGAL => None,
            WIN_FAR => Some(Some(self.n - 1)),
            WIN_NEW => Some(Some(self.n)),
            b => Some(win_of(b).filter(|&d| d <= self.n)),
        }
    }
}
