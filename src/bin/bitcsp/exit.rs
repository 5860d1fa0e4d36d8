//! The exit status every command shares (`bitcsp fzn` excepted, which follows MiniZinc's
//! conventions):
//!
//! | status | meaning |
//! | --- | --- |
//! | 0 | every input answered |
//! | 1 | some input malformed, unreadable or without a solution; or output lost to a write error |
//! | 2 | bad usage (unknown or contradictory options, an output file that is an input) |
//! | 3 | a time or node limit stopped some search |
//! | 130 | interrupted by Ctrl-C |
//! | 141 | standard output (or error) closed by its reader, as for a program killed by `SIGPIPE` |
//!
//! When several apply, 130 beats 2 beats 1 beats 3; 141 ends the process at once.

use bitcsp::StopReason;

use crate::interrupt;

/// What happened over a whole run.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Outcome {
    /// Some input was malformed, unsatisfiable or unreadable, or output was lost.
    pub failed: bool,
    /// A limit stopped some search.
    pub limited: bool,
    /// Ctrl-C stopped the run.
    pub interrupted: bool,
    /// The options cannot be used together.
    pub usage: bool,
}

impl Outcome {
    /// Some input was malformed, unsatisfiable or unreadable.
    pub const FAILED: Outcome = Outcome {
        failed: true,
        limited: false,
        interrupted: false,
        usage: false,
    };

    /// The command was used wrongly.
    pub const USAGE: Outcome = Outcome {
        failed: false,
        limited: false,
        interrupted: false,
        usage: true,
    };

    /// A search stopped for `reason`: by a limit, or by Ctrl-C.
    pub fn stopped(reason: StopReason) -> Outcome {
        Outcome {
            limited: reason != StopReason::Cancelled,
            interrupted: reason == StopReason::Cancelled,
            ..Outcome::default()
        }
    }

    /// Merges another puzzle's outcome into this one.
    pub fn merge(&mut self, other: Outcome) {
        self.failed |= other.failed;
        self.limited |= other.limited;
        self.interrupted |= other.interrupted;
        self.usage |= other.usage;
    }

    /// The process exit status.
    pub fn status(self) -> u8 {
        if self.interrupted || interrupt::interrupted() {
            interrupt::STATUS
        } else if self.usage {
            USAGE
        } else if self.failed {
            1
        } else if self.limited {
            3
        } else {
            0
        }
    }
}

/// Exit status for bad usage, as clap uses it.
pub const USAGE: u8 = 2;
