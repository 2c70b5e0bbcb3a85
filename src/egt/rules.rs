//! Rule variants of EGTgen/FairyGen that change what a table means.

use crate::board::Color;
use std::fmt;
use std::str::FromStr;

/// Which side may pass (make a null move) when it is not stalemated and not in check.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum NullMove {
    /// Nobody passes (normal chess).
    #[default]
    None,
    /// White may pass.
    White,
    /// Black may pass.
    Black,
    /// Both sides may pass.
    Both,
}

impl NullMove {
    /// `"none"`, `"white"`, `"black"` or `"both"`.
    pub fn name(self) -> &'static str {
        match self {
            NullMove::None => "none",
            NullMove::White => "white",
            NullMove::Black => "black",
            NullMove::Both => "both",
        }
    }

    /// Whether `side` may pass.
    pub fn allows(self, side: Color) -> bool {
        match self {
            NullMove::None => false,
            NullMove::White => side == Color::White,
            NullMove::Black => side == Color::Black,
            NullMove::Both => true,
        }
    }
}

impl fmt::Display for NullMove {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A text that names no null-move rule, as given.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("expected none, white, black or both, found '{0}'")]
pub struct ParseNullMoveError(pub String);

impl FromStr for NullMove {
    type Err = ParseNullMoveError;

    /// `none`, `white`, `black` or `both`, in any case.
    fn from_str(s: &str) -> Result<NullMove, ParseNullMoveError> {
        match s.trim().to_ascii_lowercase().as_str() {
            "none" => Ok(NullMove::None),
            "white" => Ok(NullMove::White),
            "black" => Ok(NullMove::Black),
            "both" => Ok(NullMove::Both),
            _ => Err(ParseNullMoveError(s.to_string())),
        }
    }
}

/// The rules a table is built under. The default is orthodox chess.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Rules {
    /// Who may pass.
    pub null_move: NullMove,
    /// A stalemated side has lost (loss in 0) instead of drawing.
    pub stalemate_wins: bool,
    /// A side left with only its royal, while the other side has more, has lost (loss in 0
    /// when it is to move), so a capture that bares the enemy royal wins like a mate.
    pub bare_royal_loses: bool,
}

impl Rules {
    /// Whether the rules are those of orthodox chess.
    pub fn is_orthodox(&self) -> bool {
        *self == Rules::default()
    }

    /// The rule options in EGTgen's words, e.g. `null move (black), stalemate wins`;
    /// `orthodox rules` when none is set.
    pub fn describe(&self) -> String {
        let mut parts = Vec::new();
        if self.null_move != NullMove::None {
            parts.push(format!("null move ({})", self.null_move));
        }
        if self.stalemate_wins {
            parts.push("stalemate wins".to_string());
        }
        if self.bare_royal_loses {
            parts.push("bare royal loses".to_string());
        }
        if parts.is_empty() {
            "orthodox rules".to_string()
        } else {
            parts.join(", ")
        }
    }
}
