//! # bitcsp
//!
//! A small constraint-satisfaction engine: integer variables with bitset domains,
//! all-different (with offsets), not-equal and (weighted) sum constraints, propagation to a
//! fixed point, and depth-first search with MRV branching and trail-based undo.
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
//! The layers, from the bottom: [`Domain`] and the flat store of bitset words with its trail;
//! the propagators in `constraints/` woken through a queue; the [`Solver`] in `search/`; and on
//! top, thin models that only build constraints. See `docs/ARCHITECTURE.md`.
#![forbid(unsafe_code)]
#![deny(missing_docs)]

// The core.
mod bits;
mod compiled;
mod constraints;
pub mod domain;
mod error;
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
pub mod queens;
pub mod sudoku;

pub use domain::{Domain, DomainView};
pub use error::ModelError;
pub use model::{Consistency, Model, Relation, VarId, MAX_VARIABLES};
pub use propagator::{Conflict, Cost, Domains, Propagator, Strength, Watch};
pub use search::{
    Count, CountStatus, LastConflict, Restarts, SearchStatus, Solution, Solutions, SolveResult,
    Solver, Statistics, StopReason, ValueOrder, ValueSymmetry, VariableOrder,
};
