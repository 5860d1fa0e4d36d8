//! What a search call tells its caller: always whether it finished, and if not, why.

use std::fmt;

use crate::var::VarId;

/// Why a search stopped before finishing.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum StopReason {
    /// The node limit was reached.
    NodeLimit,
    /// The time limit was reached.
    TimeLimit,
    /// The cancellation flag was set.
    Cancelled,
}

impl fmt::Display for StopReason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            StopReason::NodeLimit => "stopped by node limit",
            StopReason::TimeLimit => "stopped by time limit",
            StopReason::Cancelled => "cancelled",
        })
    }
}

/// What [`Solver::solve_in_place`](crate::Solver::solve_in_place) found; the solution, if
/// any, stays in the solver.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum SearchStatus {
    /// A solution: read it with [`Solver::solved_value`](crate::Solver::solved_value).
    Solved,
    /// The search finished without a solution.
    Unsatisfiable,
    /// A limit or cancellation stopped the search first.
    Stopped(StopReason),
}

/// The result of [`Solver::optimize`](crate::Solver::optimize).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Optimum {
    /// The best solution, proved optimal: no solution has a better objective.
    Optimal {
        /// The solution (the last improvement the search found).
        solution: Solution,
        /// Its objective value.
        objective: i64,
    },
    /// A limit or cancellation stopped the search after it found solutions: the best of
    /// them, and a proved bound (no solution is better than `bound`).
    Feasible {
        /// The best solution found.
        solution: Solution,
        /// Its objective value.
        objective: i64,
        /// No solution has an objective better than this.
        bound: i64,
        /// What stopped the search.
        reason: StopReason,
    },
    /// The model has no solution.
    Infeasible,
    /// A limit or cancellation stopped the search before any solution.
    Unknown(StopReason),
}

impl Optimum {
    /// The best solution found and its objective, if any.
    pub fn best(&self) -> Option<(&Solution, i64)> {
        match self {
            Optimum::Optimal {
                solution,
                objective,
            }
            | Optimum::Feasible {
                solution,
                objective,
                ..
            } => Some((solution, *objective)),
            Optimum::Infeasible | Optimum::Unknown(_) => None,
        }
    }
}

/// A solution better than every one before it, as
/// [`Solver::optimize_with`](crate::Solver::optimize_with) reports it.
#[derive(Clone, Copy, Debug)]
pub struct Improvement<'a> {
    /// The solution.
    pub solution: &'a Solution,
    /// Its objective value.
    pub objective: i64,
    /// Time since the search started.
    pub elapsed: std::time::Duration,
}

/// One assignment of every variable of a model.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Solution {
    values: Vec<i32>,
}

impl Solution {
    pub(crate) fn new(values: Vec<i32>) -> Self {
        Solution { values }
    }

    /// The value of `var`.
    ///
    /// # Panics
    /// When `var` belongs to a model with more variables than this solution's.
    pub fn value(&self, var: VarId) -> i32 {
        self.values[var.index()]
    }

    /// The value of `var`, or `None` for a variable of another model.
    pub fn get(&self, var: VarId) -> Option<i32> {
        self.values.get(var.index()).copied()
    }

    /// The values of all variables, in creation order.
    pub fn values(&self) -> &[i32] {
        &self.values
    }
}

/// The result of [`Solver::solve`](crate::Solver::solve).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SolveResult {
    /// A solution was found.
    Solution(Solution),
    /// The search proved that there is no solution.
    Unsatisfiable,
    /// A limit stopped the search before it found a solution or proved there is none.
    Stopped(StopReason),
}

impl SolveResult {
    /// The solution, if one was found.
    pub fn solution(self) -> Option<Solution> {
        match self {
            SolveResult::Solution(s) => Some(s),
            _ => None,
        }
    }
}

/// How a count ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum CountStatus {
    /// Every solution was counted.
    Complete,
    /// The count reached the requested limit; there may be more.
    LimitReached,
    /// A node or time limit or cancellation stopped the count; the number is a lower bound.
    Stopped(StopReason),
}

/// The result of [`Solver::count`](crate::Solver::count).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Count {
    /// Solutions found.
    pub count: u64,
    /// Whether `count` is exact, capped by the limit, or cut short.
    pub status: CountStatus,
}

impl Count {
    /// True when `count` is the exact number of solutions.
    pub fn is_exact(&self) -> bool {
        self.status == CountStatus::Complete
    }
}
