//! Recording a step's decided slots, block after block (`Recorder`): each block's slots join
//! their side's frontier; a build of both sides adds the wins to the mover's no-escape set. From
//! one side (`images.rs`), their images, Black's positions decided at that distance, join
//! Black's frontier instead (their blocks marked, and their slots listed where it lists them);
//! and wins join Black's no-escape set, at their images' slots, here where the wins are held
//! back a tile at a time (`Build::holds_wins_back`, `held_wins.rs`), or else when the loss step
//! reads them back from the frontier (`Build::gather`).
//!
//! A parallel task records its blocks through one recorder, which keeps from one block to the
//! next what they share: the marks of a word of Black's frontier, the thread's tile of held
//! wins, and where the images of the current word of White's blocks lie (`WordImages`), which
//! a block's men would otherwise have to be decoded and its images' line found for.

use super::bitmap::for_each_bit;
use super::far::Kind;
use super::frontier::{Frontier, Lister};
use super::held_wins::Holder;
use super::images::WordImages;
use super::Build;
use crate::board::{Color, Square, SquareSet};

/// Records decided slots of one side, of one kind, into a pair of frontiers (by side), block
/// after block: see the module. A recorder holds the calling thread's list of Black's
/// frontier slots, so it lives within one parallel task and no parallel call is made while it
/// lives.
pub(super) struct Recorder<'a, 'b, S> {
    build: &'a Build<'b, S>,
    c: Color,
    kind: Kind,
    into: &'a [Frontier; 2],
    /// From one side: what marks (and lists) the images in Black's frontier of `into`.
    images: Option<Lister<'a>>,
    /// Wins that join Black's no-escape set here: the calling thread's tile (`None`: each
    /// set at once).
    held: Option<Holder<'a, S>>,
    /// Whether wins join Black's no-escape set here.
    joins_set: bool,
    /// Whether the images of a word of White's blocks may form a tile (`Build::has_tiles`).
    tiles: bool,
    /// The last word of White's blocks recorded where that was asked, and where its images
    /// lie if they form a tile.
    word: Option<(u64, Option<WordImages<'a, S>>)>,
}

impl<'b, S: SquareSet> Build<'b, S> {
    /// A recorder of side `c`'s slots decided as `kind` says at the distance reached, into
    /// `into`, a pair of frontiers by side.
    pub(super) fn recorder<'a>(
        &'a self,
        c: Color,
        kind: Kind,
        into: &'a [Frontier; 2],
    ) -> Recorder<'a, 'b, S> {
        let from_one_side = self.swap.is_some();
        let joins_set = from_one_side && kind == Kind::Win && self.holds_wins_back();
        let set = &self.no_escape[Color::Black.index()];
        Recorder {
            build: self,
            c,
            kind,
            into,
            images: from_one_side.then(|| into[Color::Black.index()].lister()),
            held: joins_set.then(|| self.held_wins.holder(set)).flatten(),
            joins_set,
            tiles: self.has_tiles(),
            word: None,
        }
    }

    /// Whether White's wins join Black's no-escape set as they are recorded, held back a tile
    /// at a time (`held_wins.rs`): from one side, where a frontier's words of blocks have
    /// their images in tiles (`Build::has_tiles`). Elsewhere a White block's images are not
    /// known to lie in one word of blocks, and each would be set alone.
    #[inline]
    pub(super) fn holds_wins_back(&self) -> bool {
        self.has_tiles()
    }
}

impl<'a, 'b, S: SquareSet> Recorder<'a, 'b, S> {
    /// Adds the slots `slots` of block `w`, which no other thread writes meanwhile, to the
    /// side's own frontier, and records them.
    #[inline]
    pub(super) fn join(&mut self, w: u64, slots: S) {
        self.into[self.c.index()].mark(w, slots);
        self.record(w, slots);
    }

    /// Records the slots `slots` of block `w` (already in the side's own frontier), which no
    /// other thread writes meanwhile: see the module.
    pub(super) fn record(&mut self, w: u64, slots: S) {
        if slots.is_empty() {
            return;
        }
        let Recorder {
            build,
            c,
            kind,
            images,
            held,
            joins_set,
            tiles,
            word,
            ..
        } = self;
        let Some(images) = images else {
            if *kind == Kind::Win {
                build.no_escape[c.index()].add_alone(w, slots);
            }
            return;
        };
        let word = match tiles {
            true => Self::image_word(build, word, w, slots),
            false => None,
        };
        // Slot s of the blocks 64·k + q for the bits q of `blocks` join Black's set.
        let set = &build.no_escape[Color::Black.index()];
        let mut add = |k: u64, s: Square, blocks: u64| match held {
            Some(held) => held.add_blocks(k, s, blocks),
            None => for_each_bit(blocks, |q| _ = set.or(k * 64 + u64::from(q), S::bit(s))),
        };
        match word {
            Some((_, _, 0)) => {}
            Some((k, s, blocks)) => {
                images.mark_word(k, s, blocks);
                if *joins_set {
                    add(k, s, blocks);
                }
            }
            None => build.for_each_image(w, slots, |_, p| {
                let (b, x) = build.ix.block_and_square(p);
                images.mark(b, p);
                if *joins_set {
                    add(b / 64, x, 1 << (b % 64));
                }
            }),
        }
        images.end_block();
    }

    /// Where the images of block w's slots `slots` lie at one slot s of blocks of one word
    /// of Black's blocks k: `(k, s, blocks)` (`Build::image_word`), found from the images of
    /// block w's word of White's blocks, kept in `last` from the last block of that word.
    /// `None` where they do not lie so, and for a hole.
    #[inline]
    fn image_word(
        build: &'a Build<'b, S>,
        last: &mut Option<(u64, Option<WordImages<'a, S>>)>,
        w: u64,
        slots: S,
    ) -> Option<(u64, Square, u64)> {
        if last.as_ref().is_none_or(|(v, _)| *v != w / 64) {
            *last = Some((w / 64, build.word_images(w)));
        }
        match last {
            Some((_, Some(images))) => Some(images.of(w, slots)),
            _ => build.image_word(w, slots),
        }
    }
}
