//! Node and time limits, and the cancellation flag, checked as the search goes.

use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use super::outcome::StopReason;
use crate::interrupt::{Pace, StopSignal};

/// The longest run of nodes between two readings of the clock and the flags.
const MAX_INTERVAL: u64 = 256;

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

/// What a running search watches besides its nodes: its deadline and its flags.
#[derive(Debug)]
struct Watched {
    deadline: Option<Instant>,
    cancel: Option<Arc<AtomicBool>>,
    cutoff: Option<Cutoff>,
}

impl Watched {
    /// Whether `limits` have anything to watch.
    fn wanted(limits: &SearchLimits) -> bool {
        limits.time.is_some() || limits.cancel.is_some() || limits.cutoff.is_some()
    }

    /// What to watch under `limits` for a search started at `now`.
    fn of(limits: &SearchLimits, now: Option<Instant>) -> Self {
        Watched {
            deadline: limits.time.zip(now).and_then(|(t, now)| now.checked_add(t)),
            cancel: limits.cancel.clone(),
            cutoff: limits.cutoff.clone(),
        }
    }

    /// Why the search must stop at `now`, if it must.
    fn stop_reason(&self, now: Instant) -> Option<StopReason> {
        if let Some(flag) = &self.cancel {
            if flag.load(Ordering::Relaxed) {
                return Some(StopReason::Cancelled);
            }
        }
        if self.cutoff.as_ref().is_some_and(Cutoff::is_cut) {
            return Some(StopReason::Cancelled);
        }
        match self.deadline {
            Some(d) if now >= d => Some(StopReason::TimeLimit),
            _ => None,
        }
    }
}

impl StopSignal for Watched {
    fn stop_at(&self, now: Instant) -> bool {
        self.stop_reason(now).is_some()
    }
}

/// SearchLimits as applied to one running search.
///
/// The clock and the flags are read once in a run of nodes whose length adapts to what
/// the nodes cost ([`Pace`], up to [`MAX_INTERVAL`] nodes), so that a search whose nodes
/// take milliseconds each (a large global constraint near the root) reads them at every
/// node. A restart sets the run back to one node, because the nodes near the root it
/// returns to are the expensive ones. Nodes that turn slow without a restart are noticed
/// at the next reading, up to [`MAX_INTERVAL`] nodes later; a single propagation that
/// takes long is stopped from inside by the engine's interruption, which reads the same
/// [`signal`](Budget::signal).
#[derive(Clone, Debug)]
pub(crate) struct Budget {
    nodes: u64,
    /// The deadline and flags (`None` when there are none to watch).
    watched: Option<Arc<Watched>>,
    /// The node count at which the clock and flags are read next.
    next_read: u64,
    pace: Pace,
    /// The start of a search with no deadline, which its first reading takes for the
    /// time: with only flags to read, the clock there would only pace the readings, and
    /// an easy search (most of a batch's puzzles) ends before a second one.
    first_reading_at: Option<Instant>,
}

impl Budget {
    /// No limit at all (a solver's budget before its first search).
    pub(crate) fn unlimited() -> Self {
        Budget::new(&SearchLimits::default(), None)
    }

    /// The budget of `limits` for a search that starts `now`.
    pub(crate) fn start(limits: &SearchLimits, now: Instant) -> Self {
        Budget::new(limits, Some(now))
    }

    /// The budget of `limits` from `now`, which only a budget without a deadline may leave
    /// unknown (a solver's budget before its first search).
    fn new(limits: &SearchLimits, now: Option<Instant>) -> Self {
        Budget::with_watched(limits, now, None)
    }

    /// [`Budget::start`] in place of this budget: the flags and deadline to watch take
    /// this budget's allocation for them when nothing else holds it, so that a batch of
    /// searches on one solver allocates nothing per search for them.
    pub(crate) fn start_over(&mut self, limits: &SearchLimits, now: Instant) {
        let reused = self
            .watched
            .take()
            .filter(|_| Watched::wanted(limits))
            .and_then(|mut watched| {
                *Arc::get_mut(&mut watched)? = Watched::of(limits, Some(now));
                Some(watched)
            });
        *self = Budget::with_watched(limits, Some(now), reused);
    }

    /// [`Budget::new`], watching `reused` when given (already set from `limits`).
    fn with_watched(
        limits: &SearchLimits,
        now: Option<Instant>,
        reused: Option<Arc<Watched>>,
    ) -> Self {
        let watched =
            reused.or_else(|| Watched::wanted(limits).then(|| Arc::new(Watched::of(limits, now))));
        Budget {
            nodes: limits.nodes.unwrap_or(u64::MAX),
            next_read: if watched.is_some() { 0 } else { u64::MAX },
            watched,
            pace: Pace::new(MAX_INTERVAL, now),
            first_reading_at: now.filter(|_| limits.time.is_none()),
        }
    }

    /// What the engine reads between propagator runs to stop a long propagation (`None`
    /// when there is no deadline or flag to watch).
    pub(crate) fn signal(&self) -> Option<Arc<dyn StopSignal>> {
        self.watched
            .clone()
            .map(|watched| -> Arc<dyn StopSignal> { watched })
    }

    /// Whether the search must stop before taking node number `nodes + 1`.
    #[inline]
    pub(crate) fn check(&mut self, nodes: u64) -> Option<StopReason> {
        if nodes >= self.nodes {
            return Some(StopReason::NodeLimit);
        }
        if nodes >= self.next_read {
            return self.read(nodes);
        }
        None
    }

    /// The search went back to the root: reads the clock at the next node and adapts
    /// from there.
    pub(crate) fn restarted(&mut self, nodes: u64) {
        // A budget with nothing to watch never reads (`next_read` stays at the end).
        if self.next_read != u64::MAX {
            self.pace.reset();
            self.next_read = nodes;
        }
    }

    /// Reads the flags and the clock at node `nodes` and sets the next reading.
    #[cold]
    #[inline(never)]
    fn read(&mut self, nodes: u64) -> Option<StopReason> {
        let now = self.first_reading_at.take().unwrap_or_else(Instant::now);
        self.next_read = nodes.saturating_add(self.pace.read(now));
        self.stop_reason(now)
    }

    /// The time and cancellation part of [`Budget::check`], for places that are not nodes.
    pub(crate) fn check_clock(&self) -> Option<StopReason> {
        self.stop_reason(Instant::now())
    }

    /// Why the search must stop at `now`, if it must.
    fn stop_reason(&self, now: Instant) -> Option<StopReason> {
        self.watched.as_ref().and_then(|w| w.stop_reason(now))
    }

    /// Why the engine stopped a propagation that read this budget's
    /// [`signal`](Budget::signal): a flag or the deadline, each of which stays so once it
    /// is so.
    pub(crate) fn interrupted_by(&self) -> StopReason {
        self.check_clock().unwrap_or(StopReason::TimeLimit)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn timed(limit: Duration) -> Budget {
        let limits = SearchLimits {
            time: Some(limit),
            ..SearchLimits::default()
        };
        Budget::start(&limits, Instant::now())
    }

    /// Runs `budget` over cheap nodes `from..to` and returns those at which it reads the
    /// clock.
    fn readings(budget: &mut Budget, from: u64, to: u64) -> Vec<u64> {
        (from..to)
            .filter(|&n| {
                let due = n >= budget.next_read;
                assert_eq!(budget.check(n), None);
                due
            })
            .collect()
    }

    #[test]
    fn cheap_nodes_space_the_readings_out_to_the_longest_interval() {
        let mut budget = timed(Duration::from_secs(3600));
        let read = readings(&mut budget, 0, 4000);
        assert_eq!(read[0], 0);
        // The gaps double while the nodes are cheap (a busy machine may shrink one).
        let gaps: Vec<u64> = read.windows(2).map(|w| w[1] - w[0]).collect();
        assert!(gaps.iter().all(|&g| g <= MAX_INTERVAL), "{gaps:?}");
        assert!(gaps.contains(&MAX_INTERVAL), "{gaps:?}");
    }

    #[test]
    fn a_restart_reads_the_clock_at_the_next_node() {
        let mut budget = timed(Duration::from_secs(3600));
        readings(&mut budget, 0, 2000);
        budget.restarted(2000);
        assert_eq!(readings(&mut budget, 2000, 2001), vec![2000]);
    }

    #[test]
    fn slow_nodes_read_the_clock_at_every_node() {
        let mut budget = timed(Duration::from_secs(3600));
        let read: Vec<u64> = (0..6)
            .filter(|&n| {
                let due = n >= budget.next_read;
                assert_eq!(budget.check(n), None);
                std::thread::sleep(crate::interrupt::READ_PERIOD * 4);
                due
            })
            .collect();
        // The reading after the first slow node shrinks the interval to one node.
        assert!(read.ends_with(&[2, 3, 4, 5]), "{read:?}");
    }

    #[test]
    fn no_limit_never_reads_the_clock() {
        let mut budget = Budget::unlimited();
        assert!(readings(&mut budget, 0, 1000).is_empty());
    }

    #[test]
    fn a_passed_deadline_stops_at_the_next_reading() {
        let mut budget = timed(Duration::ZERO);
        assert_eq!(budget.check(0), Some(StopReason::TimeLimit));
    }
}
