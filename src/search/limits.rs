//! Node and time limits, and the cancellation flag, checked as the search goes.

use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use super::outcome::StopReason;

/// How often (in nodes) the clock and the cancellation flag are read: often enough to stop
/// within a millisecond or so, rarely enough to cost nothing measurable.
const CHECK_EVERY: u64 = 256;

/// SearchLimits set on a solver.
#[derive(Clone, Debug, Default)]
pub(crate) struct SearchLimits {
    pub(crate) nodes: Option<u64>,
    pub(crate) time: Option<Duration>,
    pub(crate) cancel: Option<Arc<AtomicBool>>,
    pub(crate) cutoff: Option<Cutoff>,
}

/// A subproblem's place in split order and the shared place from which results are no
/// longer needed (a solution was found there, or the results before it reached a limit):
/// the subproblem's search stops once the cutoff falls below its place.
#[derive(Clone, Debug)]
pub(crate) struct Cutoff {
    pub(crate) at: Arc<AtomicUsize>,
    pub(crate) place: usize,
}

impl Cutoff {
    fn is_cut(&self) -> bool {
        self.at.load(Ordering::Relaxed) < self.place
    }
}

/// SearchLimits as applied to one running search.
#[derive(Clone, Debug)]
pub(crate) struct Budget {
    nodes: u64,
    deadline: Option<Instant>,
    cancel: Option<Arc<AtomicBool>>,
    cutoff: Option<Cutoff>,
}

impl Budget {
    /// No limit at all (a solver's budget before its first search).
    pub(crate) fn unlimited() -> Self {
        Budget {
            nodes: u64::MAX,
            deadline: None,
            cancel: None,
            cutoff: None,
        }
    }

    pub(crate) fn start(limits: &SearchLimits, now: Instant) -> Self {
        Budget {
            nodes: limits.nodes.unwrap_or(u64::MAX),
            deadline: limits.time.and_then(|t| now.checked_add(t)),
            cancel: limits.cancel.clone(),
            cutoff: limits.cutoff.clone(),
        }
    }

    /// Whether the search must stop before taking node number `nodes + 1`.
    #[inline]
    pub(crate) fn check(&self, nodes: u64) -> Option<StopReason> {
        if nodes >= self.nodes {
            return Some(StopReason::NodeLimit);
        }
        if nodes % CHECK_EVERY == 0 {
            return self.check_clock();
        }
        None
    }

    /// The time and cancellation part of [`Budget::check`], for places that are not nodes.
    pub(crate) fn check_clock(&self) -> Option<StopReason> {
        if let Some(flag) = &self.cancel {
            if flag.load(Ordering::Relaxed) {
                return Some(StopReason::Cancelled);
            }
        }
        if self.cutoff.as_ref().is_some_and(Cutoff::is_cut) {
            return Some(StopReason::Cancelled);
        }
        match self.deadline {
            Some(d) if Instant::now() >= d => Some(StopReason::TimeLimit),
            _ => None,
        }
    }
}
