//! Progress on stderr: indicatif's live bar on a terminal, and otherwise (stderr piped to a
//! file or a CI log, where indicatif draws nothing) one plain line every few seconds, so a
//! long run is never silent.

use std::io::IsTerminal;
use std::time::{Duration, Instant};

/// How often a plain progress line is printed when stderr is not a terminal.
const EVERY: Duration = Duration::from_secs(5);

/// A progress bar that falls back to periodic plain lines.
pub(super) struct Status {
    bar: indicatif::ProgressBar,
    plain: bool,
    last: Instant,
}

impl Status {
    /// Wraps `bar` (already styled).
    pub(super) fn new(bar: indicatif::ProgressBar) -> Status {
        Status {
            bar,
            plain: !std::io::stderr().is_terminal(),
            last: Instant::now(),
        }
    }

    /// The wrapped bar (position, length, finish).
    pub(super) fn bar(&self) -> &indicatif::ProgressBar {
        &self.bar
    }

    /// Shows `msg` now, also as a plain line (a phase that starts).
    pub(super) fn announce(&mut self, msg: String) {
        if self.plain {
            self.last = Instant::now();
            eprintln!("{msg}");
        } else {
            self.bar.set_message(msg);
            self.bar.tick();
        }
    }

    /// Shows `msg`: on the bar, or as a plain line when the last one is [`EVERY`] old.
    pub(super) fn set(&mut self, msg: String) {
        if !self.plain {
            self.bar.set_message(msg);
            self.bar.tick();
            return;
        }
        if self.last.elapsed() >= EVERY {
            self.last = Instant::now();
            match self.bar.length() {
                Some(len) => eprintln!("[{}/{len}] {msg}", self.bar.position()),
                None => eprintln!("{msg}"),
            }
        }
    }
}
