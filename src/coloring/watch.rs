//! The clock and the cancellation flag of one coloring call, read by every phase of it
//! (cliques, DSATUR, tabu search, model building, the searches) so that a limit holds
//! whichever phase is running when it passes.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use super::Limits;
use crate::StopReason;

/// How many steps (vertices, edges) pass between two readings of the clock.
const CHECK_EVERY: usize = 1024;

/// A call's deadline and cancellation flag.
#[derive(Clone, Debug, Default)]
pub(crate) struct Watch {
    deadline: Option<Instant>,
    cancel: Option<Arc<AtomicBool>>,
}

impl Watch {
    /// Starts the clock of a call made with `limits`.
    pub(crate) fn start(limits: &Limits) -> Self {
        Watch {
            deadline: limits.time.and_then(|t| Instant::now().checked_add(t)),
            cancel: limits.cancel.clone(),
        }
    }

    /// Whether the call must stop now, and why.
    pub(crate) fn check(&self) -> Result<(), StopReason> {
        if self
            .cancel
            .as_ref()
            .is_some_and(|c| c.load(Ordering::Relaxed))
        {
            return Err(StopReason::Cancelled);
        }
        match self.deadline {
            Some(d) if Instant::now() >= d => Err(StopReason::TimeLimit),
            _ => Ok(()),
        }
    }

    /// [`Watch::check`] on every [`CHECK_EVERY`]th step of a loop.
    #[inline]
    pub(crate) fn tick(&self, step: usize) -> Result<(), StopReason> {
        if step % CHECK_EVERY == 0 {
            self.check()
        } else {
            Ok(())
        }
    }

    /// The time left (`None`: no time limit).
    pub(crate) fn remaining(&self) -> Option<Duration> {
        self.deadline
            .map(|d| d.saturating_duration_since(Instant::now()))
    }

    /// The deadline, if there is one.
    pub(crate) fn deadline(&self) -> Option<Instant> {
        self.deadline
    }
}
