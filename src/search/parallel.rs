//! Counting and enumerating on several threads, exactly and deterministically.
//!
//! The search tree is split into subproblems before any thread starts: from the root, each
//! level fixes the branching variable to each of its values in the value order, until there
//! are at least `SUBPROBLEMS` (256) of them (or nothing is left to split). The split depends only
//! on the model and the strategy, never on the number of threads; the subproblems are then
//! solved in any order on any threads and their results are put back in split order. So the
//! count, and the solutions and their order, are the same for 1 thread or 64.

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Arc;
use std::time::Instant;

use rayon::prelude::*;

use super::outcome::{Count, CountStatus, Solution, StopReason};
use super::solver::Solver;

/// How many subproblems a split aims for: enough to balance two to sixteen threads.
pub(crate) const SUBPROBLEMS: usize = 256;

/// The deepest level a split fixes.
const MAX_SPLIT_DEPTH: usize = 6;

/// A subproblem: root fixes, and its share of the whole tree (for progress).
struct Subproblem {
    fixes: Vec<(u32, i64)>,
    weight: f64,
}

impl Solver {
    /// Counts solutions like [`count`](Solver::count), on `threads` threads (0: one per
    /// core). The count is exact and does not depend on `threads`. A `limit` caps the total;
    /// every subproblem counts up to it, so the work can exceed a sequential capped count.
    /// The node limit applies to each subproblem, the time limit to the whole call.
    pub fn count_parallel(&mut self, limit: Option<u64>, threads: usize) -> Count {
        let (results, stop) = self.run_split(threads, |solver| {
            let c = solver.count(limit);
            Part {
                count: c.count,
                solutions: Vec::new(),
                stop: stop_of(c.status),
            }
        });
        let count = results
            .iter()
            .fold(0u64, |acc, part| acc.saturating_add(part.count));
        let mut count = count;
        let status = match (stop, limit) {
            (Some(reason), _) => CountStatus::Stopped(reason),
            (None, Some(l)) if count >= l => {
                count = l;
                CountStatus::LimitReached
            }
            _ => CountStatus::Complete,
        };
        Count { count, status }
    }

    /// Every solution (up to `limit`), found on `threads` threads (0: one per core), in an
    /// order that does not depend on `threads`. Returns the solutions and, when a limit
    /// or cancellation cut the search short, why.
    pub fn solutions_parallel(
        &mut self,
        limit: Option<u64>,
        threads: usize,
    ) -> (Vec<Solution>, Option<StopReason>) {
        let cap = limit.map_or(usize::MAX, |l| usize::try_from(l).unwrap_or(usize::MAX));
        let (results, stop) = self.run_split(threads, |solver| {
            let solutions: Vec<Solution> = solver.solutions().take(cap).collect();
            Part {
                count: solutions.len() as u64,
                solutions,
                stop: solver.stop_reason(),
            }
        });
        let mut all: Vec<Solution> = results.into_iter().flat_map(|p| p.solutions).collect();
        all.truncate(cap);
        (all, stop)
    }

    /// Splits, runs `work` on each subproblem in a pool of `threads`, returns the results
    /// in split order and the first stop reason met.
    fn run_split(
        &mut self,
        threads: usize,
        work: impl Fn(&mut Solver) -> Part + Sync + Send,
    ) -> (Vec<Part>, Option<StopReason>) {
        self.begin_split();
        let started = Instant::now();
        let subproblems = self.split();
        let limits = self.limits().clone();
        let cancel = limits
            .cancel
            .clone()
            .unwrap_or_else(|| Arc::new(AtomicBool::new(false)));
        let sink = self.progress_sink();
        let done = AtomicU64::new(0);
        let template: Solver = self.clone();
        let run_one = |sub: &Subproblem| -> (Part, super::Statistics) {
            let mut solver = template.clone();
            solver.set_assumptions(sub.fixes.clone());
            solver.set_cancel_flag(Some(Arc::clone(&cancel)));
            solver.set_progress_sink(None);
            let remaining = limits.time.map(|t| t.saturating_sub(started.elapsed()));
            solver.set_time_limit(remaining);
            let result = work(&mut solver);
            let share = (sub.weight * 1e9) as u64;
            let total = done.fetch_add(share, Ordering::Relaxed) + share;
            if let Some(sink) = &sink {
                sink.store(total.min(1_000_000_000), Ordering::Relaxed);
            }
            (result, solver.stats())
        };
        let results: Vec<(Part, super::Statistics)> =
            match rayon::ThreadPoolBuilder::new().num_threads(threads).build() {
                Ok(pool) => pool.install(|| subproblems.par_iter().map(run_one).collect()),
                Err(_) => subproblems.iter().map(run_one).collect(),
            };
        let mut stop = None;
        let mut parts = Vec::with_capacity(results.len());
        for (part, stats) in results {
            self.absorb(&stats);
            stop = stop.or(part.stop);
            parts.push(part);
        }
        self.end_split(stop);
        self.set_assumptions(Vec::new());
        (parts, stop)
    }

    /// The subproblems, in the order a depth-first search would meet them.
    fn split(&mut self) -> Vec<Subproblem> {
        let mut level = vec![Subproblem {
            fixes: Vec::new(),
            weight: 1.0,
        }];
        for _ in 0..MAX_SPLIT_DEPTH {
            if level.len() >= SUBPROBLEMS {
                break;
            }
            let mut next = Vec::with_capacity(level.len() * 4);
            let mut split_any = false;
            for sub in level {
                self.set_assumptions(sub.fixes.clone());
                match self.root_branch() {
                    Err(()) => {} // no solution below: drop it
                    Ok(None) => next.push(sub),
                    Ok(Some((var, values))) => {
                        split_any = true;
                        let weight = sub.weight / values.len() as f64;
                        for value in values {
                            let mut fixes = sub.fixes.clone();
                            fixes.push((var, value));
                            next.push(Subproblem { fixes, weight });
                        }
                    }
                }
            }
            level = next;
            if !split_any {
                break;
            }
        }
        self.set_assumptions(Vec::new());
        level
    }
}

fn stop_of(status: CountStatus) -> Option<StopReason> {
    match status {
        CountStatus::Stopped(r) => Some(r),
        _ => None,
    }
}

/// What one subproblem found.
struct Part {
    count: u64,
    solutions: Vec<Solution>,
    stop: Option<StopReason>,
}
