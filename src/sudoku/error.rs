//! What can be wrong with a Sudoku board, said with its place.

use std::fmt;

use super::BoxShape;
use crate::ModelError;

/// A cell position, 1-based row and column as people count them.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Cell {
    /// Row, from 1.
    pub row: usize,
    /// Column, from 1.
    pub col: usize,
}

impl fmt::Display for Cell {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "r{}c{}", self.row, self.col)
    }
}

/// Why a text could not be read as a board. Lines and columns are 1-based, columns count
/// characters.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum ParseError {
    /// Nothing to read.
    #[error("empty input: no cells")]
    Empty,
    /// A character that is neither a symbol of this board size, an empty mark nor a separator.
    #[error("line {line}, column {column}: invalid character {ch:?}")]
    InvalidCharacter {
        /// Line of the character.
        line: usize,
        /// Column of the character.
        column: usize,
        /// The character itself.
        ch: char,
    },
    /// A number outside `1..=N` in the numbers form.
    #[error("line {line}, column {column}: value {value} is outside 1..={max}")]
    ValueOutOfRange {
        /// Line of the number.
        line: usize,
        /// Column where the number starts.
        column: usize,
        /// The number as written.
        value: String,
        /// The largest allowed value.
        max: usize,
    },
    /// The number of cells is not N² for a supported N, or not the size asked for.
    #[error("expected {expected} cells, found {actual}")]
    WrongLength {
        /// What was expected, e.g. `81` or `a square number (16, 36, 81, ...)`.
        expected: String,
        /// How many cells were found.
        actual: usize,
    },
    /// A row of a block has the wrong number of cells.
    #[error("line {line}: expected {expected} cells in the row, found {actual}")]
    WrongRowLength {
        /// Line of the row.
        line: usize,
        /// Cells a row needs.
        expected: usize,
        /// Cells found.
        actual: usize,
    },
    /// A block with the wrong number of rows.
    #[error("expected {expected} rows, found {actual}")]
    WrongRowCount {
        /// Rows needed.
        expected: usize,
        /// Rows found.
        actual: usize,
    },
    /// The board side is too large for the symbols or the engine.
    #[error("board side {size} is larger than the maximum of {max}")]
    TooLarge {
        /// The side asked for.
        size: usize,
        /// The maximum.
        max: usize,
    },
    /// A box shape whose board side is larger than the maximum.
    #[error("boxes of {rows}x{cols} make a board side larger than the maximum of {max}")]
    ShapeTooLarge {
        /// Box rows.
        rows: usize,
        /// Box columns.
        cols: usize,
        /// The maximum side.
        max: usize,
    },
    /// A box shape that does not tile the board, such as `--size 2x4` for 81 cells.
    #[error("box of {rows}x{cols} does not fit a board of {cells} cells")]
    BadBoxShape {
        /// Box rows.
        rows: usize,
        /// Box columns.
        cols: usize,
        /// Cells on the board.
        cells: usize,
    },
    /// A LeetCode-style array that is not well formed.
    #[error("line {line}, column {column}: {reason}")]
    MalformedArray {
        /// Line of the problem.
        line: usize,
        /// Column of the problem.
        column: usize,
        /// What is wrong.
        reason: String,
    },
}

/// Two givens that break a rule: the same digit twice in a row, column or box.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
#[error("digit {digit} appears twice in {unit}: {first} and {second}")]
pub struct Clash {
    /// The repeated digit.
    pub digit: u8,
    /// The kind of unit both cells share.
    pub unit: Unit,
    /// The earlier cell.
    pub first: Cell,
    /// The later cell.
    pub second: Cell,
}

/// A row, column or box of the board.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Unit {
    /// A row.
    Row,
    /// A column.
    Column,
    /// A box.
    Box,
}

impl fmt::Display for Unit {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Unit::Row => "a row",
            Unit::Column => "a column",
            Unit::Box => "a box",
        })
    }
}

/// Why a grid is not a solution of a puzzle.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum CheckError {
    /// Grid and puzzle differ in size or box shape.
    #[error("the grid is {grid}x{grid}, the puzzle {puzzle}x{puzzle}")]
    SizeMismatch {
        /// Side of the grid.
        grid: usize,
        /// Side of the puzzle.
        puzzle: usize,
    },
    /// A cell left empty.
    #[error("cell {0} is empty")]
    Incomplete(Cell),
    /// A given of the puzzle was changed.
    #[error("cell {cell} holds {found} but the puzzle gives {given}")]
    GivenChanged {
        /// The cell.
        cell: Cell,
        /// The given digit.
        given: u8,
        /// The digit in the grid.
        found: u8,
    },
    /// A rule is broken.
    #[error(transparent)]
    Clash(#[from] Clash),
}

/// Errors of the Sudoku layer.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum SudokuError {
    /// The text is not a board.
    #[error(transparent)]
    Parse(#[from] ParseError),
    /// The givens clash.
    #[error(transparent)]
    Clash(#[from] Clash),
    /// A board given to a [`PuzzleSolver`](super::PuzzleSolver) of another shape.
    #[error("a {found} board given to a solver of {expected} boxes")]
    ShapeMismatch {
        /// The solver's box shape.
        expected: BoxShape,
        /// The board's box shape.
        found: BoxShape,
    },
    /// The engine rejected the model (a bug if it ever happens: boards are validated).
    #[error("model error: {0}")]
    Model(#[from] ModelError),
    /// The clause-learning search of a large board gave up (see
    /// [`CoverError::OutOfClauseSpace`](crate::cover::CoverError::OutOfClauseSpace)).
    #[error(transparent)]
    Cover(#[from] crate::cover::CoverError),
}
