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
    /// A cumulative constraint was given a negative duration, resource use or capacity.
    #[error("a cumulative needs non-negative durations, resource uses and capacity")]
    NegativeTaskTerm,
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
    /// An excluded value assumed for a variable with a wide domain (see
    /// [`Solver::assume_excluded`](crate::Solver::assume_excluded)).
    #[error(
        "variable {var} has a wide domain: only bitset domains take excluded values as assumptions"
    )]
    WideExclusion {
        /// The offending variable.
        var: VarId,
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
    /// A variable used as a Boolean (in a clause or as a reification) that can take a
    /// value other than 0 and 1.
    #[error("variable {var} is used as a Boolean but can take values other than 0 and 1")]
    NotBoolean {
        /// The variable.
        var: VarId,
    },
    /// A tuple of a table whose length is not the number of variables.
    #[error("tuple {tuple} has {found} values for {expected} variables")]
    TupleArity {
        /// Position of the tuple in the list.
        tuple: usize,
        /// The number of variables.
        expected: usize,
        /// The tuple's length.
        found: usize,
    },
    /// A cardinality bound below zero, or a lower bound above the upper one.
    #[error("the count of value {value} cannot lie between {low} and {high}")]
    CardinalityOutOfRange {
        /// The value counted.
        value: i32,
        /// The lower bound.
        low: i32,
        /// The upper bound.
        high: i32,
    },
}
