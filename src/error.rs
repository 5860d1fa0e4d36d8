//! Errors of the core: a model that cannot be built as asked.

use crate::var::VarId;

/// Why a variable or constraint could not be added to a [`Model`](crate::Model).
///
/// Every constraint method validates its arguments and returns one of these instead of
/// panicking, so that a model built from user input can never crash the solver.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum ModelError {
    /// More variables than a model may hold.
    #[error("{requested} variables asked for, more than the maximum of {max}")]
    TooManyVariables {
        /// The variables the model would have.
        requested: usize,
        /// The limit, [`MAX_VARIABLES`](crate::MAX_VARIABLES).
        max: usize,
    },
    /// A linear expression whose gathered coefficient or constant is too large.
    #[error("a coefficient or constant of a linear expression is out of range")]
    CoefficientOutOfRange,
    /// A knapsack with a negative weight, profit or item value.
    #[error("a knapsack needs non-negative weights, profits and item values")]
    NegativeKnapsackTerm,
    /// A variable was given no values at all.
    #[error("empty domain: a variable needs at least one value")]
    EmptyDomain,
    /// A range of values wider than the engine can represent: the values a sum can reach
    /// beyond `i32`, or a model parameter above its documented maximum.
    #[error("a range of {span} values, more than the maximum of {max}")]
    DomainTooLarge {
        /// Largest value minus smallest value, plus one.
        span: u64,
        /// The limit.
        max: u64,
    },
    /// A variable that does not belong to this model.
    #[error("unknown variable {var}: the model has {count} variables")]
    UnknownVariable {
        /// The offending variable.
        var: VarId,
        /// How many variables the model has.
        count: usize,
    },
    /// The same variable appears twice where distinct variables are required.
    #[error("variable {var} appears twice (positions {first} and {second})")]
    DuplicateVariable {
        /// The repeated variable.
        var: VarId,
        /// Position of its first occurrence.
        first: usize,
        /// Position of its second occurrence.
        second: usize,
    },
    /// An offsets list whose length differs from the variables list.
    #[error("{offsets} offsets given for {vars} variables")]
    OffsetsLengthMismatch {
        /// Number of variables.
        vars: usize,
        /// Number of offsets.
        offsets: usize,
    },
    /// A coefficients list whose length differs from the variables list.
    #[error("{coeffs} coefficients given for {vars} variables")]
    CoefficientsLengthMismatch {
        /// Number of variables.
        vars: usize,
        /// Number of coefficients.
        coeffs: usize,
    },
}
