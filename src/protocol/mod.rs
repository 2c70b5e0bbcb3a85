//! Protocols: input lines → engine [`Command`]s, engine [`Event`]s → output lines. All protocol
//! text lives here; the engine and the session see only commands and events.

pub mod uci;
pub mod xboard;

use crate::egt::progress::BuildEvent;
use crate::engine::{Command, Event, Options};

pub use crate::config::MAX_THREADS;

/// Most megabytes the `TableMemory` option of either protocol offers (16 TB: more than any
/// machine this runs on, and within a GUI's 32-bit spin values).
pub const MAX_TABLE_MEMORY: u64 = 16_000_000;

/// Text made fit for one output line: every control character but the tab (line ends, NUL,
/// escape sequences) becomes `?`, so that text echoed from the input can neither split a line
/// nor reach the GUI as a control sequence.
pub fn one_line(text: &str) -> String {
    text.chars()
        .map(|c| if c.is_control() && c != '\t' { '?' } else { c })
        .collect()
}

/// What an input line asks for.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Input {
    /// A command for the engine (carried out in order with the others).
    Engine(Command),
    /// A line to write at once (handshake answers, which never wait).
    Reply(String),
    /// Leave at once.
    Quit,
}

/// A protocol spoken on stdin/stdout.
pub trait Protocol {
    /// What one input line (without its line end) asks for, given the engine's options in
    /// force (the handshake shows them as defaults).
    fn read(&mut self, line: &str, options: &Options) -> Vec<Input>;
    /// The output lines of an engine event (possibly none).
    fn render(&self, event: &Event) -> Vec<String>;
    /// The line that shows build progress, if the protocol shows it now.
    fn progress(&self, event: &BuildEvent) -> Option<String>;
}

/// The protocols a session may speak.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Dialect {
    /// XBoard / WinBoard (CECP), the default.
    XBoard,
    /// UCI, recognised by a first command `uci`.
    Uci,
}

impl Dialect {
    /// The dialect announced by the first input line.
    pub fn of_first_line(line: &str) -> Dialect {
        if line.trim() == "uci" {
            Dialect::Uci
        } else {
            Dialect::XBoard
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_line_keeps_text_on_one_line() {
        assert_eq!(one_line("a\rb\nc\u{0}d\u{1b}[2J\u{85}"), "a?b?c?d?[2J?");
        assert_eq!(one_line("\tmove é 😀"), "\tmove é 😀");
    }
}
