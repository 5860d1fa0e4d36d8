//! Counting and enumerating on several threads, exactly and deterministically.
//!
//! The search tree is split into subproblems before any thread starts: from the root, each
//! level fixes the branching variable to each of its values in the value order, until there
//! are at least `SUBPROBLEMS` (256) of them (or nothing is left to split). The split depends only
//! on the model and the strategy, never on the number of threads; the subproblems are then
//! solved in any order on any threads and their results are put back in split order. So the
//! count, and the solutions and their order, are the same for 1 thread or 64.

use std::sync::atomic::{AtomicBool, AtomicI64, AtomicU64, AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::Instant;

use super::in_order::run_in_order;
use super::limits::{Budget, Cutoff};
use super::outcome::{Count, CountStatus, Optimum, Solution, SolveResult, StopReason};
use super::solver::Solver;
use crate::model::Sense;

/// How many subproblems a split aims for: enough to balance two to sixteen threads.
pub(crate) const SUBPROBLEMS: usize = 256;

/// The deepest level a split fixes.
const MAX_SPLIT_DEPTH: usize = 6;

/// A subproblem: root fixes, and its share of the whole tree (for progress).
pub(super) struct Subproblem {
    pub(super) fixes: Vec<(u32, i64)>,
    weight: f64,
}

impl Solver {
    /// Counts solutions like [`count`](Solver::count), on `threads` threads (0: one per
    /// core). The count is exact and does not depend on `threads`; with a `limit`, the
    /// count stops once the subproblems taken in split order reach it. The node limit
    /// applies to each subproblem, the time limit to the whole call.
    pub fn count_parallel(&mut self, limit: Option<u64>, threads: usize) -> Count {
        let cap = limit.unwrap_or(u64::MAX);
        let mut count = 0u64;
        let stop = self.run_split(
            threads,
            Lookahead::Unbounded,
            |solver, _| {
                let c = solver.count(limit);
                Part {
                    count: c.count,
                    solutions: Vec::new(),
                    stop: stop_of(c.status),
                    objective: None,
                }
            },
            |part| {
                count = count.saturating_add(part.count);
                count < cap
            },
        );
        let status = match stop {
            Some(reason) => CountStatus::Stopped(reason),
            None if count >= cap => {
                count = cap;
                CountStatus::LimitReached
            }
            None => CountStatus::Complete,
        };
        Count { count, status }
    }

    /// Calls `visit` on every solution (up to `limit`), found on `threads` threads (0: one
    /// per core), in an order that does not depend on `threads`. Memory stays bounded: the
    /// subproblems are solved a few per thread at a time and handed over in split order.
    /// Returns why a limit or cancellation cut the search short, if one did.
    pub fn for_each_solution_parallel(
        &mut self,
        limit: Option<u64>,
        threads: usize,
        mut visit: impl FnMut(&Solution),
    ) -> Option<StopReason> {
        self.for_each_solution_parallel_while(limit, threads, |s| {
            visit(s);
            true
        })
    }

    /// [`for_each_solution_parallel`](Self::for_each_solution_parallel), stopped early
    /// when `visit` returns false (for instance when the solutions cannot be written);
    /// that early stop is not a [`StopReason`].
    ///
    /// ```
    /// use bitcsp::{queens, Solver};
    /// let (model, _) = queens::model(8)?;
    /// let mut seen = 0;
    /// let stop = Solver::new(&model).for_each_solution_parallel_while(None, 2, |_| {
    ///     seen += 1;
    ///     seen < 5
    /// });
    /// assert_eq!((seen, stop), (5, None));
    /// # Ok::<(), bitcsp::ModelError>(())
    /// ```
    pub fn for_each_solution_parallel_while(
        &mut self,
        limit: Option<u64>,
        threads: usize,
        mut visit: impl FnMut(&Solution) -> bool,
    ) -> Option<StopReason> {
        let cap = limit.unwrap_or(u64::MAX);
        let per_part = usize::try_from(cap).unwrap_or(usize::MAX);
        let mut seen = 0u64;
        self.run_split(
            threads,
            Lookahead::PerWorker,
            |solver, _| {
                let solutions: Vec<Solution> = solver.solutions().take(per_part).collect();
                Part {
                    count: solutions.len() as u64,
                    solutions,
                    stop: solver.stop_reason(),
                    objective: None,
                }
            },
            |part| {
                for s in &part.solutions {
                    if seen >= cap {
                        return false;
                    }
                    seen += 1;
                    if !visit(s) {
                        return false;
                    }
                }
                seen < cap
            },
        )
    }

    /// The first solution in search order, like [`solve`](Solver::solve), found on
    /// `threads` threads (0: one per core): the subproblems are searched side by side, and
    /// once one finds a solution the later ones stop, while the earlier ones finish (one of
    /// them may hold a solution that comes first). The answer does not depend on
    /// `threads`. The node limit applies to each subproblem, the time limit to the whole
    /// call; a limit that stops a subproblem before the first solution stops the call.
    ///
    /// ```
    /// use bitcsp::{queens, Solver};
    /// let (model, rows) = queens::model(10)?;
    /// let parallel = Solver::new(&model).solve_parallel(2);
    /// let sequential = Solver::new(&model).solve();
    /// assert_eq!(parallel, sequential);
    /// # Ok::<(), bitcsp::ModelError>(())
    /// ```
    pub fn solve_parallel(&mut self, threads: usize) -> SolveResult {
        let mut found = None;
        let stop = self.run_split(
            threads,
            Lookahead::Unbounded,
            |solver, cutoff| match solver.solve() {
                SolveResult::Solution(s) => {
                    // The subproblems after this one can no longer hold the first.
                    cutoff.at.fetch_min(cutoff.place, Ordering::Relaxed);
                    Part::found(s)
                }
                SolveResult::Unsatisfiable => Part::default(),
                // Cut off or not, a stopped subproblem decides nothing: if it was cut
                // off, an earlier one holds the answer and this one is never looked at.
                SolveResult::Stopped(reason) => Part {
                    stop: Some(reason),
                    ..Part::default()
                },
            },
            |part| {
                found = part.solutions.into_iter().next();
                found.is_none()
            },
        );
        match (found, stop) {
            (Some(s), _) => SolveResult::Solution(s),
            (None, Some(reason)) => SolveResult::Stopped(reason),
            (None, None) => SolveResult::Unsatisfiable,
        }
    }

    /// [`optimize`](Solver::optimize) on `threads` threads (0: one per core): the split's
    /// subproblems are optimised side by side, each pruned by the best objective any of
    /// them has found so far. The optimum does not depend on `threads`, and neither does
    /// the solution returned with it: once the optimum is proved, the answer is the first
    /// solution in split order (as [`solve_parallel`](Solver::solve_parallel) finds it) of
    /// the model with the objective fixed to the optimum. A stopped search reports the
    /// best solution found, which may depend on the timing. The statistics cover both
    /// searches.
    ///
    /// ```
    /// use bitcsp::{Model, Optimum, Solver};
    /// let mut model = Model::new();
    /// let x = model.new_vars(4, 0..=5)?;
    /// model.all_different(&x)?;
    /// model.minimize_sum(&x, &[4, 3, 2, 1])?;
    /// let one = Solver::new(&model).optimize_parallel(1);
    /// let two = Solver::new(&model).optimize_parallel(2);
    /// assert_eq!(one, two);
    /// assert_eq!(one.best().map(|b| b.1), Some(10)); // 4·0 + 3·1 + 2·2 + 1·3
    /// # Ok::<(), bitcsp::ModelError>(())
    /// ```
    pub fn optimize_parallel(&mut self, threads: usize) -> Optimum {
        let Some(objective) = self.objective() else {
            return match self.solve_parallel(threads) {
                SolveResult::Solution(solution) => Optimum::Optimal {
                    solution,
                    objective: 0,
                },
                SolveResult::Unsatisfiable => Optimum::Infeasible,
                SolveResult::Stopped(reason) => Optimum::Unknown(reason),
            };
        };
        // The root's bound, as the sequential search reports it when stopped.
        let root = match self.propagate_within_limits() {
            Err(Some(reason)) => return Optimum::Unknown(reason),
            Err(None) => return Optimum::Infeasible,
            Ok(()) => self
                .domain(objective.var)
                .and_then(|d| match objective.sense {
                    Sense::Minimize => d.min(),
                    Sense::Maximize => d.max(),
                }),
        };
        let root_bound = i64::from(root.unwrap_or_default());
        let shared = Arc::new(AtomicI64::new(i64::MAX));
        self.set_shared_best(Some(Arc::clone(&shared)));
        let better = |a: i64, b: i64| match objective.sense {
            Sense::Minimize => a < b,
            Sense::Maximize => a > b,
        };
        let mut best: Option<(Solution, i64)> = None;
        let stop = self.run_split(
            threads,
            Lookahead::Unbounded,
            |solver, _| match solver.optimize() {
                Optimum::Optimal {
                    solution,
                    objective,
                } => Part {
                    objective: Some(objective),
                    ..Part::found(solution)
                },
                Optimum::Feasible {
                    solution,
                    objective,
                    reason,
                    ..
                } => Part {
                    objective: Some(objective),
                    stop: Some(reason),
                    ..Part::found(solution)
                },
                Optimum::Infeasible => Part::default(),
                Optimum::Unknown(reason) => Part {
                    stop: Some(reason),
                    ..Part::default()
                },
            },
            |part| {
                if let (Some(solution), Some(value)) =
                    (part.solutions.into_iter().next(), part.objective)
                {
                    if best.as_ref().is_none_or(|(_, b)| better(value, *b)) {
                        best = Some((solution, value));
                    }
                }
                true
            },
        );
        self.set_shared_best(None);
        let Some((solution, value)) = best else {
            return stop.map_or(Optimum::Infeasible, Optimum::Unknown);
        };
        if let Some(reason) = stop {
            return Optimum::Feasible {
                solution,
                objective: value,
                bound: root_bound,
                reason,
            };
        }
        // The canonical optimal solution: the first in split order at the optimum. Its
        // search starts the statistics afresh; the optimisation's are added back after.
        let optimised = self.stats();
        let assumed = self.assumptions().to_vec();
        let mut fixed = assumed.clone();
        fixed.push((objective.var.index() as u32, value));
        self.set_assumptions(fixed);
        let canonical = self.solve_parallel(threads);
        self.set_assumptions(assumed);
        self.absorb_earlier(&optimised);
        match canonical {
            SolveResult::Solution(solution) => Optimum::Optimal {
                solution,
                objective: value,
            },
            SolveResult::Stopped(reason) => Optimum::Feasible {
                solution,
                objective: value,
                bound: value,
                reason,
            },
            // Cannot happen: a solution with this objective was found.
            SolveResult::Unsatisfiable => Optimum::Optimal {
                solution,
                objective: value,
            },
        }
    }

    /// Every solution (up to `limit`) as [`for_each_solution_parallel`](Self::for_each_solution_parallel)
    /// finds them, collected; and why the search was cut short, if it was.
    pub fn solutions_parallel(
        &mut self,
        limit: Option<u64>,
        threads: usize,
    ) -> (Vec<Solution>, Option<StopReason>) {
        let mut all = Vec::new();
        let stop = self.for_each_solution_parallel(limit, threads, |s| all.push(s.clone()));
        (all, stop)
    }

    /// Splits, runs `work` on the subproblems in a pool of `threads` (0: one per core), and
    /// hands each result to `consume` in split order until it returns false or a result
    /// carries a stop reason; returns the first stop reason met. Once the results are
    /// settled, the subproblems still running after that place are cut off.
    fn run_split(
        &mut self,
        threads: usize,
        lookahead: Lookahead,
        work: impl Fn(&mut Solver, &Cutoff) -> Part + Sync + Send,
        mut consume: impl FnMut(Part) -> bool,
    ) -> Option<StopReason> {
        self.begin_split();
        let started = Instant::now();
        let limits = self.limits().clone();
        let (subproblems, settled) =
            match self.split_tree(&Budget::start(&limits, started), SUBPROBLEMS) {
                Ok(split) => split,
                Err(reason) => {
                    self.end_split(Some(reason));
                    return Some(reason);
                }
            };
        let cancel = limits
            .cancel
            .clone()
            .unwrap_or_else(|| Arc::new(AtomicBool::new(false)));
        let cut_at = Arc::new(AtomicUsize::new(usize::MAX));
        let sink = self.progress_sink();
        // The progress counts the subtrees the split settled as explored.
        let done = AtomicU64::new((settled * 1e9) as u64);
        let template: Solver = self.clone();
        let run_one = |place: usize, sub: &Subproblem| -> (Part, super::Statistics) {
            let mut solver = template.clone();
            let cutoff = Cutoff {
                at: Arc::clone(&cut_at),
                place,
            };
            solver.set_assumptions(sub.fixes.clone());
            solver.set_cancel_flag(Some(Arc::clone(&cancel)));
            solver.set_cutoff(Some(cutoff.clone()));
            solver.set_progress_sink(None);
            let remaining = limits.time.map(|t| t.saturating_sub(started.elapsed()));
            solver.set_time_limit(remaining);
            let result = work(&mut solver, &cutoff);
            let share = (sub.weight * 1e9) as u64;
            let total = done.fetch_add(share, Ordering::Relaxed) + share;
            if let Some(sink) = &sink {
                sink.store(total.min(1_000_000_000), Ordering::Relaxed);
            }
            (result, solver.stats())
        };
        let workers = match threads {
            0 => std::thread::available_parallelism().map_or(1, |n| n.get()),
            n => n,
        };
        let mut stop = None;
        let mut place = 0;
        let mut halted = false;
        let lookahead = match lookahead {
            Lookahead::PerWorker => 4 * workers,
            Lookahead::Unbounded => subproblems.len(),
        };
        run_in_order(
            &subproblems,
            workers,
            lookahead,
            run_one,
            |(part, stats)| {
                self.absorb(&stats);
                stop = stop.or(part.stop);
                let go_on = consume(part) && stop.is_none();
                if !go_on {
                    cut_at.fetch_min(place, Ordering::Relaxed);
                    halted = true;
                }
                place += 1;
                go_on
            },
        );
        if let (false, Some(sink)) = (halted, &sink) {
            // Every subtree explored: exactly one, whatever the rounding of the shares.
            sink.store(1_000_000_000, Ordering::Relaxed);
        }
        self.end_split(stop);
        stop
    }

    /// The root fixes of at least `target` subproblems (unless the tree has fewer branches),
    /// whole levels deep, in split order, for [`Solver::split`].
    pub(super) fn split_fixes(
        &mut self,
        target: usize,
    ) -> Result<Vec<Vec<(u32, i64)>>, StopReason> {
        let limits = self.limits().clone();
        let budget = Budget::start(&limits, Instant::now());
        let (subproblems, _) = self.split_tree(&budget, target.max(1))?;
        Ok(subproblems.into_iter().map(|s| s.fixes).collect())
    }

    /// The subproblems, in the order a depth-first search would meet them, and the share
    /// of the tree the split itself settled (subtrees whose root failed); or why the
    /// `budget` stopped the split (each subproblem costs a root propagation, which on a
    /// large model is long enough for a limit to pass during the split).
    fn split_tree(
        &mut self,
        budget: &Budget,
        target: usize,
    ) -> Result<(Vec<Subproblem>, f64), StopReason> {
        let mut settled = 0.0;
        // The user's assumptions are the root of every subproblem, and stay afterwards.
        let assumed = self.assumptions().to_vec();
        let mut level = vec![Subproblem {
            fixes: assumed.clone(),
            weight: 1.0,
        }];
        for _ in 0..MAX_SPLIT_DEPTH.max(target.ilog2() as usize) {
            if level.len() >= target {
                break;
            }
            let mut next = Vec::with_capacity(level.len() * 4);
            let mut split_any = false;
            for sub in level {
                if let Some(reason) = budget.check_clock() {
                    self.set_assumptions(assumed);
                    return Err(reason);
                }
                self.set_assumptions(sub.fixes.clone());
                match self.root_branch(budget) {
                    Err(Some(reason)) => {
                        self.set_assumptions(assumed);
                        return Err(reason);
                    }
                    Err(None) => settled += sub.weight, // no solution below: drop it
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
        self.set_assumptions(assumed);
        Ok((level, settled))
    }
}

fn stop_of(status: CountStatus) -> Option<StopReason> {
    match status {
        CountStatus::Stopped(r) => Some(r),
        _ => None,
    }
}

/// How many results may wait to be handed back, behind a subproblem still running.
enum Lookahead {
    /// Four per worker: results that hold solutions take memory.
    PerWorker,
    /// Any number: a count or a first solution is small, and an idle worker may as well
    /// go on (otherwise one long subproblem leaves the others waiting).
    Unbounded,
}

/// What one subproblem found.
#[derive(Default)]
struct Part {
    count: u64,
    solutions: Vec<Solution>,
    stop: Option<StopReason>,
    /// In an optimisation, the objective of the solution kept.
    objective: Option<i64>,
}

impl Part {
    fn found(solution: Solution) -> Self {
        Part {
            count: 1,
            solutions: vec![solution],
            stop: None,
            objective: None,
        }
    }
}
