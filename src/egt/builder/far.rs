//! Distances beyond what a byte holds directly (`value::MAX_DIRECT` moves), which the longest
//! 6-man mates (KRN.KNN: 262) and some fairy 5-man ones need, at one byte per position still.
//!
//! Below the limit a distance is its byte. Beyond it the byte only tells the kind, and the
//! distance is kept aside, in a list, for the few positions that have one:
//! - the step at distance n > limit writes `WIN_NEW` / `LOSS_NEW` (`LOSS_NEW_ODD` at odd n,
//!   as a DTZ build holds two distances' losses), so that the next step finds its frontier by
//!   byte, as below the limit; once that step has un-moved from it, the
//!   frontier is *settled*: each slot becomes `WIN_FAR` / `LOSS_FAR` and its distance joins
//!   the table's exceptions;
//! - a provisional value beyond the limit (a capture into a long win, a seed, a loss whose
//!   capture reaches a longer win) is written `WIN_LATER` / `LOSS_LATER`, its distance waiting
//!   here, and joins the frontier when the iterations reach it, if nothing better came first.
//!
//! The steps' byte tests then hold unchanged: `WIN_FAR` and `WIN_NEW` sit above the direct
//! wins and below `WIN_LATER`, so "won in at most n" stays "an even byte up to the win byte of
//! n", and "won in more than n" "an even byte above it".

use super::bitmap::for_each_bit;
use super::frontier::Frontier;
use super::Build;
use crate::board::{Color, SquareSet};
use crate::egt::value::{
    loss_byte, win_byte, Value, LOSS_FAR, LOSS_LATER, LOSS_NEW, LOSS_NEW_ODD, MAX_DIRECT, WIN_FAR,
    WIN_LATER, WIN_NEW,
};
use std::collections::BTreeMap;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering::Relaxed};
use std::sync::Mutex;

/// Win or loss.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Kind {
    Win,
    Loss,
}

impl Kind {
    /// The byte of this kind at distance d, held directly (d at most `MAX_DIRECT`).
    #[inline]
    fn direct(self, d: u16) -> u8 {
        match self {
            Kind::Win => win_byte(d),
            Kind::Loss => loss_byte(d),
        }
    }

    /// The byte of this kind at distance n, the distance reached (or, for losses counted in
    /// plies, the one after), beyond the direct ones: the losses of two distances are held
    /// apart by their parity.
    #[inline]
    fn now(self, n: u16) -> u8 {
        match self {
            Kind::Win => WIN_NEW,
            Kind::Loss if n % 2 == 1 => LOSS_NEW_ODD,
            Kind::Loss => LOSS_NEW,
        }
    }

    /// The byte of this kind, settled beyond the direct distances.
    fn far(self) -> u8 {
        match self {
            Kind::Win => WIN_FAR,
            Kind::Loss => LOSS_FAR,
        }
    }

    /// The byte of a provisional value of this kind beyond the direct distances.
    fn later(self) -> u8 {
        match self {
            Kind::Win => WIN_LATER,
            Kind::Loss => LOSS_LATER,
        }
    }
}

/// Provisional values beyond the direct distances, by distance: side, slot, kind.
type Waiting = BTreeMap<u16, Vec<(Color, u64, Kind)>>;

/// Bytes a provisional value takes while it waits (its entry in a list of `Waiting`).
const WAITING_BYTES: u64 = std::mem::size_of::<(Color, u64, Kind)>() as u64;

/// Bytes a settled distance takes in the table's exceptions.
const SETTLED_BYTES: u64 = std::mem::size_of::<u64>() as u64;

/// The long distances of a build: the provisional ones waiting for their distance, and the
/// settled ones, the table's exceptions.
///
/// How many positions have a long distance is not known before the build, so the memory
/// budget cannot count their lists beforehand: they get the room the budget leaves, and a
/// settled list that would outgrow it is not grown (`over_budget`), so that the build stops.
pub(super) struct Far {
    /// Distances up to this are held by the byte (`MAX_DIRECT`; lower in tests, to run the
    /// long-distance code on small tables).
    direct: u16,
    /// Provisional values beyond `direct`.
    waiting: Mutex<Waiting>,
    /// Per side: the settled slots beyond `direct`, `slot << 16 | distance`.
    settled: [Mutex<Vec<u64>>; 2],
    /// Bytes the lists may take.
    room: u64,
    /// Bytes the lists take, with those refused room.
    bytes: AtomicU64,
    /// Whether the lists were refused room.
    over: AtomicBool,
}

impl Far {
    /// Nothing long yet; distances up to `direct` (at most `MAX_DIRECT`) held by the byte,
    /// and `room` bytes for the lists of the longer ones.
    pub(super) fn new(direct: u16, room: u64) -> Far {
        assert!(direct <= MAX_DIRECT, "a byte holds at most MAX_DIRECT");
        Far {
            direct,
            waiting: Mutex::new(BTreeMap::new()),
            settled: [0, 1].map(|_| Mutex::new(Vec::new())),
            room,
            bytes: AtomicU64::new(0),
            over: AtomicBool::new(false),
        }
    }

    /// Counts `bytes` more for the lists; false, and the build over budget from now on,
    /// if they do not fit in its room.
    fn take_room(&self, bytes: u64) -> bool {
        let total = self.bytes.fetch_add(bytes, Relaxed) + bytes;
        if total > self.room {
            self.over.store(true, Relaxed);
        }
        !self.over.load(Relaxed)
    }

    /// Bytes the lists may take.
    pub(super) fn room(&self) -> u64 {
        self.room
    }

    /// The bytes the lists needed where they outgrew their room: None while they fit.
    pub(super) fn over_budget(&self) -> Option<u64> {
        self.over.load(Relaxed).then(|| self.bytes.load(Relaxed))
    }

    /// Whether distance `n` is held by the byte.
    #[inline]
    pub(super) fn is_direct(&self, n: u16) -> bool {
        n <= self.direct
    }

    /// The byte of the positions of `kind` at distance n, the distance the build has
    /// reached.
    #[inline]
    pub(super) fn code(&self, kind: Kind, n: u16) -> u8 {
        if self.is_direct(n) {
            kind.direct(n)
        } else {
            kind.now(n)
        }
    }

    /// The byte of a provisional value `v` (a win or a loss at a distance not reached yet) of
    /// slot `slot` of side `c`; beyond the direct distances its distance waits here.
    pub(super) fn provisional(&self, c: Color, slot: u64, v: Value) -> u8 {
        let (d, kind) = match v {
            Value::Win(d) => (d, Kind::Win),
            Value::Loss(d) => (d, Kind::Loss),
            Value::Draw => unreachable!("draws are not provisional"),
        };
        if self.is_direct(d) {
            return kind.direct(d);
        }
        // Over budget, the entry is kept all the same: the build stops after the step.
        self.take_room(WAITING_BYTES);
        let mut waiting = self.waiting.lock().expect("no panic holds it");
        waiting.entry(d).or_default().push((c, slot, kind));
        kind.later()
    }

    /// Whether a provisional value waits at a distance beyond `n`.
    pub(super) fn waiting_beyond(&self, n: u16) -> bool {
        let waiting = self.waiting.lock().expect("no panic holds it");
        waiting.range(n + 1..).next().is_some()
    }

    /// Takes the slots of side `c` whose provisional value of `kind` waits at distance `n`.
    fn take(&self, c: Color, n: u16, kind: Kind) -> Vec<u64> {
        let mut waiting = self.waiting.lock().expect("no panic holds it");
        let Some(at_n) = waiting.get_mut(&n) else {
            return Vec::new();
        };
        let (due, rest): (Vec<_>, Vec<_>) =
            at_n.drain(..).partition(|&(s, _, k)| (s, k) == (c, kind));
        *at_n = rest;
        self.bytes
            .fetch_sub(WAITING_BYTES * due.len() as u64, Relaxed);
        if at_n.is_empty() {
            waiting.remove(&n);
        }
        due.into_iter().map(|(_, slot, _)| slot).collect()
    }

    /// The settled exceptions of each side, sorted by slot.
    pub(super) fn into_exceptions(self) -> [Vec<u64>; 2] {
        self.settled.map(|side| {
            let mut list = side.into_inner().expect("no panic holds it");
            list.sort_unstable();
            list
        })
    }
}

impl<S: SquareSet> Build<'_, S> {
    /// Adds to side `c`'s frontier of `into` its provisional values of `kind` at distance n
    /// beyond the direct ones: those still provisional become `WIN_NEW` / `LOSS_NEW` (a
    /// provisional win may have been bettered since). Returns how many joined.
    pub(super) fn collect_far(&self, c: Color, n: u16, kind: Kind, into: &[Frontier; 2]) -> u64 {
        let (later, now) = (kind.later(), kind.now(n));
        let slots = self.far.take(c, n, kind);
        if slots.is_empty() {
            return 0;
        }
        let table = self.sides.writer(c);
        let (mut joined, mut recorder) = (0, self.recorder(c, kind, into));
        for slot in slots {
            if table.load(slot) == later {
                table.store(slot, now);
                let (w, x) = self.ix.block_and_square(slot);
                recorder.join(w, S::bit(x));
                joined += 1;
            }
        }
        joined
    }

    /// Settles the frontier `frontier` of side `c`, of `kind` at distance n beyond the direct
    /// ones, once the step after it has un-moved from it: its bytes become `WIN_FAR` /
    /// `LOSS_FAR`, its distances join the exceptions. If the exceptions would outgrow the
    /// room the budget leaves them, they are left as they were and the build is over budget
    /// (`Far::over_budget`).
    pub(super) fn settle_far(&self, c: Color, frontier: &Frontier, kind: Kind, n: u16) {
        if self.far.is_direct(n) {
            return;
        }
        let (now, far) = (kind.now(n), kind.far());
        let settled = &self.far.settled[c.index()];
        // Counted first, so that the budget is asked before the list grows, and the list
        // grows once, by exactly that.
        let count = AtomicU64::new(0);
        let start = {
            let frozen = self.sides.frozen(c);
            frontier.for_each(&frozen, now, |_, slots: S| {
                count.fetch_add(slots.count() as u64, Relaxed);
            });
            let count = count.into_inner();
            if !self.far.take_room(SETTLED_BYTES * count) {
                return;
            }
            let mut list = settled.lock().expect("no panic holds it");
            list.reserve_exact(count as usize);
            let start = list.len();
            drop(list);
            let len = self.ix.block_len() as u64;
            frontier.for_each(&frozen, now, |w, slots: S| {
                let mut list = settled.lock().expect("no panic holds it");
                for_each_bit(slots, |b| list.push((w * len + b as u64) << 16 | n as u64));
            });
            start
        };
        let table = self.sides.writer(c);
        let list = settled.lock().expect("no panic holds it");
        for &entry in &list[start..] {
            table.store(entry >> 16, far);
        }
    }
}
