//! The Sudoku workshop, for people who solve by hand: pencil marks, hints, step-by-step
//! explanations, grades and new puzzles.
//!
//! It works on pencil marks the way a person does: the finders in `techniques/` look
//! for one pattern each (singles, locked candidates, subsets, fish, wings, unique
//! rectangles, colouring, chains) and a solve always takes the simplest step that
//! applies ([`Technique::LADDER`]). The engine proves first that the puzzle has one
//! solution (a hint for a puzzle without one would be a guess), and every step is
//! checked against that solution before it is shown. Each [`Step`] names the houses,
//! cells and candidates it rests on, so that a reader (or a program) can re-derive it
//! from the pencil marks alone.
//!
//! ```
//! use bitcsp::sudoku::{workshop, Board};
//! let board = Board::parse(
//!     "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79",
//! )?;
//! match workshop::hint(&board)? {
//!     workshop::Hint::Step(step) => println!("{step}"),
//!     other => panic!("an easy puzzle always has a next step, got {other:?}"),
//! }
//! let explanation = workshop::explain(&board)?;
//! assert_eq!(explanation.steps.len(), board.cells().iter().filter(|&&d| d == 0).count());
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

mod candidates;
mod class;
mod desk;
mod digits;
mod generate;
mod geometry;
mod grid;
mod house_digits;
pub mod json;
mod logic;
mod step;
mod swaps;
mod technique;
mod techniques;

pub use candidates::Candidates;
pub use class::{Class, Grade, UnknownClass};
pub use desk::{Explanation, Hint, VariantWorkshop, Workshop, WorkshopError};
pub use digits::{Digits, Iter};
pub use generate::{generate, Generator, Symmetry, UnknownSymmetry};
pub use geometry::{House, HouseKind};
pub use step::{Mark, Step};
pub use technique::{Technique, UnknownTechnique};

use crate::sudoku::Board;

/// The pencil marks of `board`: each empty cell's digits not placed in its row, column
/// or box.
pub fn candidates(board: &Board) -> Candidates {
    let geo = geometry::Geometry::new(board.shape());
    Candidates::of(&grid::Grid::new(&geo, board), board.shape())
}

/// The next step for `board` (see [`Workshop::hint`]; no guesses are looked for).
///
/// # Errors
/// As [`Workshop::hint`].
pub fn hint(board: &Board) -> Result<Hint, WorkshopError> {
    Workshop::new(board.shape())?.hint(board, false)
}

/// The whole solve of `board` as steps (see [`Workshop::explain`]).
///
/// # Errors
/// As [`Workshop::explain`].
pub fn explain(board: &Board) -> Result<Explanation, WorkshopError> {
    Workshop::new(board.shape())?.explain(board)
}

/// The grade of `board` (see [`Workshop::grade`]).
///
/// # Errors
/// As [`Workshop::grade`].
pub fn grade(board: &Board) -> Result<Grade, WorkshopError> {
    Workshop::new(board.shape())?.grade(board)
}
