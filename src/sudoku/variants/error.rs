//! Why a variant puzzle line is not a puzzle.

use crate::sudoku::ParseError;

/// A malformed variant puzzle line. Messages name the field and label at fault.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum VariantError {
    /// The line has the wrong number of space-separated fields.
    #[error("expected {expected} fields ({fields}), found {found}")]
    Fields {
        /// How many the variants need.
        expected: usize,
        /// Their names.
        fields: String,
        /// How many the line has.
        found: usize,
    },
    /// The givens are not a board.
    #[error("givens: {0}")]
    Givens(ParseError),
    /// A regions or cages field of the wrong length.
    #[error("{field}: {found} labels for {expected} cells")]
    Length {
        /// `regions` or `cages`.
        field: &'static str,
        /// Cells on the board.
        expected: usize,
        /// Labels found.
        found: usize,
    },
    /// A region with the wrong number of cells.
    #[error("region {label} has {found} cells, not {expected}")]
    RegionSize {
        /// The region's label.
        label: String,
        /// Its cells.
        found: usize,
        /// The board side.
        expected: usize,
    },
    /// A region or cage whose cells are not orthogonally connected.
    #[error("{kind} {label} is not connected")]
    NotConnected {
        /// `region` or `cage`.
        kind: &'static str,
        /// Its label.
        label: String,
    },
    /// A cage of more cells than there are digits.
    #[error("cage {label} has {size} cells, more than {max}")]
    CageTooLarge {
        /// Its label.
        label: String,
        /// Its cells.
        size: usize,
        /// The board side.
        max: usize,
    },
    /// A cage sum that no set of distinct digits of the cage's size makes.
    #[error("cage {label}: no {size} distinct digits sum to {sum} (possible: {min} to {max})")]
    ImpossibleSum {
        /// Its label.
        label: String,
        /// Its cells.
        size: usize,
        /// The sum given.
        sum: i64,
        /// The smallest possible sum.
        min: i64,
        /// The largest possible sum.
        max: i64,
    },
    /// A cage with no sum.
    #[error("cage {0} has no sum")]
    CageWithoutSum(String),
    /// A sum for a label that is no cage.
    #[error("sum for {0}, which is not a cage")]
    SumWithoutCage(String),
    /// Two sums for one cage.
    #[error("cage {0} has two sums")]
    TwoSums(String),
    /// A sums entry that is not `LABEL=TOTAL`.
    #[error("sums: {0:?} is not LABEL=TOTAL")]
    BadSum(String),
    /// Windoku on a board other than 9×9.
    #[error("windoku is defined on 9x9 boards only, not {0}x{0}")]
    WindokuSize(usize),
}
