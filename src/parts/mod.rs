//! Searches split into parts that an existing job runner executes anywhere, and the
//! answers merged: N-Queens counts, Sudoku counts and graph colourability
//! (docs/DISTRIBUTED.md).
//!
//! A split cuts the search tree near the root into independent subproblems
//! ([`Solver::split`](crate::Solver::split)); each [`Part`] is a line of text that names
//! its problem and root fixes, and carries fingerprints of the model and of the whole
//! split, so that a part or an answer of another split is refused. [`merge`] adds the
//! answers and gives no total while a part is missing or unfinished.
//!
//! ```
//! use bitcsp::parts::{self, Answer, Part, Problem};
//! let problem = Problem::Queens { n: 10, symmetry: true };
//! let lines: Vec<String> = parts::split(&problem, None, 20, None, &parts::Limits::default())?
//!     .iter()
//!     .map(|p| p.to_string())
//!     .collect();
//! // Anywhere else: each line searched on its own.
//! let answers: Vec<Answer> = lines
//!     .iter()
//!     .map(|l| l.parse::<Part>()?.run(None, &parts::Limits::default()).map_err(Into::into))
//!     .collect::<Result<_, Box<dyn std::error::Error>>>()?;
//! assert_eq!(parts::merge(&answers)?.total, Some(724));
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

mod lines;
mod merge;
mod problem;
mod run;

pub use lines::{fingerprint, Answer, LineError, Part};
pub use merge::{merge, MergeError, Merged};
pub use problem::Problem;
pub use run::{split, Limits};
