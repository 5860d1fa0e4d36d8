//! Sudoku variants as thin models: X, windoku, jigsaw, killer, anti-knight, anti-king and
//! non-consecutive, alone or combined (killer + X, jigsaw + anti-knight, ...).
//!
//! A variant is a few more constraints on the Sudoku model, all posted through the public
//! API: more all-different groups (diagonals, windows, regions, cages), pairwise `≠`
//! (knight and king moves), `x − y ≠ ±1` (non-consecutive), and for killer cages a table
//! of the digit orderings that make each cage's sum. The engine has no code for any of
//! them. Line formats are in docs/FORMATS.md.
//!
//! ```
//! use bitcsp::sudoku::variants::{self, VariantPuzzle};
//! let x = "8.3.7.........8.69..7.......193..2..4............4.....64....7............8.6...1";
//! let puzzle = VariantPuzzle::parse(x, &"x".parse()?, None)?;
//! let solution = variants::solve(&puzzle)?.expect("a solution");
//! assert!(puzzle.check_solution(&solution).is_ok());
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

mod cages;
mod error;
mod labels;
mod model;
mod puzzle;
mod variant;

pub use error::VariantError;
pub use model::{count_solutions, model, solve, solver, VariantSolver};
pub use puzzle::{Cage, VariantPuzzle};
pub use variant::{UnknownVariant, Variant, Variants};
