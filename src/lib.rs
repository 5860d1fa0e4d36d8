//! # bitcsp
//!
//! A small constraint-satisfaction engine: integer variables with bitset domains;
//! all-different (with offsets), not-equal, weighted sums and constraints of your own;
//! propagation to a fixed point; depth-first search with MRV and friends, restarts,
//! limits, and exact, deterministic parallel search.
//!
//! ## Where to start
//!
//! - **Modelling**: build a [`Model`] (variables with [`Model::new_var`], constraints such
//!   as [`Model::all_different`], [`Model::weighted_sum`], [`Model::not_equal_offset`]),
//!   then ask a [`Solver`] to [`solve`](Solver::solve), [`count`](Solver::count) or
//!   iterate [`solutions`](Solver::solutions). Limits, strategies and threads are set on
//!   the solver.
//! - **A constraint the engine lacks**: implement [`Propagator`] and post it with
//!   [`Model::post`]; the [`propagator`] module states the contract.
//! - **Example models**, each a thin module that only builds constraints: [`sudoku`]
//!   (solving, counting, checking, boards of any box shape), [`queens`], [`coloring`]
//!   (DIMACS graphs, chromatic numbers). The `examples/` folder has runnable programs
//!   (`cargo run --example sudoku`, `queens`, `coloring`, `sums`, `custom_propagator`).
//! - **Without writing Rust**: the `bitcsp` command line (`bitcsp sudoku solve FILE`,
//!   `bitcsp queens 12 --count`, `bitcsp color FILE.col`); see the README.
//!
//! ```
//! use bitcsp::{Model, Solver, SolveResult};
//!
//! // Three different digits with a != b + 2 and c fixed (sums: `Model::sum`).
//! let mut model = Model::new();
//! let [a, b, c] = [0; 3].map(|_| model.new_var(1..=3).expect("non-empty range"));
//! model.all_different(&[a, b, c])?;
//! model.not_equal_offset(a, b, 2)?;
//! model.fix(c, 2)?;
//! let mut solver = Solver::new(&model);
//! match solver.solve() {
//!     SolveResult::Solution(s) => assert_eq!((s.value(a), s.value(b), s.value(c)), (1, 3, 2)),
//!     other => panic!("expected a solution, got {other:?}"),
//! }
//! assert_eq!(solver.count(None).count, 1);
//! # Ok::<(), bitcsp::ModelError>(())
//! ```
//!
//! Inside, the layers point one way, from bit helpers, domains and the trailed store at
//! the bottom, through the propagation engine and the propagators, to the model, the
//! search and the models on top (`docs/ARCHITECTURE.md`).
#![forbid(unsafe_code)]
#![deny(missing_docs)]

// The core.
mod bits;
mod compiled;
mod constraints;
pub mod cover;
mod difference_cycles;
pub mod domain;
mod error;
mod interrupt;
mod model;
mod posted;
mod propagate;
pub mod propagator;
mod search;
mod store;
mod trail;
mod var;
mod xorshift;

// Thin models on top of the core.
pub mod coloring;
pub mod flatzinc;
pub mod parts;
pub mod queens;
pub mod sudoku;

pub use domain::{Domain, DomainView};
pub use error::ModelError;
pub use model::{
    Compare, Comparison, Consistency, LinearConstraint, LinearExpr, Literal, Model, Objective,
    Relation, Sense, TupleSet, VarId, MAX_VARIABLES,
};
pub use propagator::{Conflict, Cost, Domains, Propagator, Strength, Watch};
pub use search::{
    Count, CountStatus, Improvement, LastConflict, Optimum, Restarts, SearchPhase, SearchStatus,
    Solution, Solutions, SolveResult, Solver, Statistics, StopReason, ValueOrder, ValueSymmetry,
    VariableOrder,
};
