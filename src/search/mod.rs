//! The solver: depth-first search with MRV branching, limits, statistics, counting and
//! solution iteration.

mod branch;
mod in_order;
mod limits;
mod nogoods;
mod outcome;
mod parallel;
mod restarts;
mod solver;
mod split;
mod stats;
mod strategy;

pub use outcome::{
    Count, CountStatus, Improvement, Optimum, SearchStatus, Solution, SolveResult, StopReason,
};
pub(crate) use restarts::luby;
pub use restarts::Restarts;
pub use solver::{Solutions, Solver};
pub use stats::Statistics;
pub use strategy::{LastConflict, SearchPhase, ValueOrder, ValueSymmetry, VariableOrder};
