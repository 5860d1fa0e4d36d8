//! The exit status every command shares: 0 all answered, 1 some input malformed or
//! unsatisfiable, 3 a time or node limit stopped some search, 2 bad usage, 130 interrupted.
//! When several apply, 2 beats 1 beats 3.

use std::process::ExitCode;

use bitcsp::StopReason;

/// What happened over a whole run.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Outcome {
    /// Some input was malformed, unsatisfiable or unreadable.
    pub failed: bool,
    /// A limit stopped some search.
    pub limited: bool,
    /// Ctrl-C stopped the run.
    pub interrupted: bool,
}

impl Outcome {
    /// Some input was malformed, unsatisfiable or unreadable.
    pub const FAILED: Outcome = Outcome {
        failed: true,
        limited: false,
        interrupted: false,
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
    }

    /// The process exit code.
    pub fn code(self) -> ExitCode {
        ExitCode::from(if self.interrupted {
            130
        } else if self.failed {
            1
        } else if self.limited {
            3
        } else {
            0
        })
    }
}

/// Exit status for bad usage, as clap uses it.
pub const USAGE: u8 = 2;
