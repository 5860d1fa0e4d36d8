//! The constraints as the user posted them: plain data that the model validates and the
//! compiler turns into propagators.

use std::sync::Arc;

mod tuple_set;

pub(crate) use tuple_set::TableData;
pub use tuple_set::TupleSet;

use smallvec::SmallVec;

use crate::propagator::Propagator;
use crate::var::VarId;

/// How hard an all-different group works at each propagation.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Consistency {
    /// Cheap bit-parallel rules: fixed values leave the others, pigeonhole, hidden singles.
    #[default]
    Fast,
    /// The fast rules, then bounds consistency: no variable keeps a bound inside a Hall
    /// interval, a range of values that as many variables' ranges lie within as it has
    /// values (López-Ortiz et al. 2003, in O(n log n)). Gecode's default for
    /// all-different; far cheaper than [`Consistency::Domain`] and often as strong where
    /// domains are ranges (Golomb rulers, scheduling). Wide (interval) domains get it too.
    Bounds,
    /// The fast rules, then every value that belongs to no complete matching of variables to
    /// values is removed (domain consistency, Régin 1994). Far fewer search nodes on hard
    /// Latin-square-like instances, at a higher cost per node. Groups with a wide
    /// (interval) domain, or whose values with their offsets span more than 4,096, reason
    /// on values: they get bounds consistency, as [`Consistency::Bounds`] does.
    Domain,
}

/// How a sum compares with its right-hand side (see [`Model::weighted_sum`](crate::Model::weighted_sum)).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Relation {
    /// The sum equals the right-hand side.
    Equal,
    /// The sum is at most the right-hand side.
    AtMost,
    /// The sum is at least the right-hand side.
    AtLeast,
}

/// Whether an objective is to be made small or large.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Sense {
    /// The smaller the better.
    Minimize,
    /// The larger the better.
    Maximize,
}

/// The variable whose value a model optimises, and in which direction.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Objective {
    /// The variable (for a linear expression, the variable that equals it).
    pub var: VarId,
    /// The direction.
    pub sense: Sense,
}

/// The offsets of an all-different's variables: all zero (the usual case, kept without a
/// vector, since models such as a jigsaw Sudoku are built per puzzle) or one per variable.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Offsets {
    Zero,
    Each(Vec<i32>),
}

impl Offsets {
    /// The offsets `given` (one per variable), kept as [`Offsets::Zero`] when all are zero.
    pub(crate) fn from_slice(given: &[i32]) -> Self {
        if given.iter().all(|&c| c == 0) {
            Offsets::Zero
        } else {
            Offsets::Each(given.to_vec())
        }
    }

    /// The offset of variable `i`.
    #[inline]
    pub(crate) fn of(&self, i: usize) -> i32 {
        match self {
            Offsets::Zero => 0,
            Offsets::Each(each) => each.get(i).copied().unwrap_or(0),
        }
    }

    /// The offsets of `len` variables as a vector.
    pub(crate) fn to_vec(&self, len: usize) -> Vec<i32> {
        (0..len).map(|i| self.of(i)).collect()
    }

    /// Whether every offset is zero.
    pub(crate) fn all_zero(&self) -> bool {
        match self {
            Offsets::Zero => true,
            Offsets::Each(each) => each.iter().all(|&c| c == 0),
        }
    }
}

/// A constraint as the user posted it; the solver compiles these into propagators.
#[derive(Clone, Debug)]
pub(crate) enum Posted {
    /// `vars[i] + offsets[i]` pairwise different (a group of up to 16 variables, such as a
    /// Sudoku unit, kept inline: models built per puzzle allocate nothing for it).
    AllDifferent {
        vars: SmallVec<[VarId; 16]>,
        offsets: Offsets,
        consistency: Consistency,
    },
    /// `x != y + offset`.
    NotEqual { x: VarId, y: VarId, offset: i32 },
    /// `coeffs[0] * vars[0] + ... (relation) rhs`.
    Linear {
        vars: Vec<VarId>,
        coeffs: Vec<i32>,
        relation: Relation,
        rhs: i64,
    },
    /// The linear relaxation of `Σ weights·items = capacity`, `Σ profits·items = profit`.
    Knapsack {
        items: Vec<VarId>,
        weights: Vec<i32>,
        profits: Vec<i32>,
        capacity: VarId,
        profit: VarId,
    },
    /// A wide variable takes one of `values` (`allowed`) or none of them: the gaps of its
    /// domain, which the solver's interval does not hold.
    WideMember {
        var: VarId,
        values: Vec<i32>,
        allowed: bool,
    },
    /// At least one of the literals `(var, positive)` holds (two or more, on distinct 0/1
    /// variables).
    Clause(Vec<(VarId, bool)>),
    /// `b ⇔ (x = value)` (or `b ⇒`, by `kind`), on a 0/1 variable `b` that is not `x`;
    /// compiled together with the other indicators of `x`.
    Indicator {
        b: VarId,
        x: VarId,
        value: i32,
        kind: Reification,
    },
    /// The variables take one of the tuples (one row of `vars.len()` values after the
    /// other).
    Table { vars: Vec<VarId>, tuples: TupleSet },
    /// `z = table[index]` (0-based) over constants; `index` is not `z`.
    Element {
        table: Vec<i32>,
        index: VarId,
        z: VarId,
    },
    /// `z = xs[index]` (0-based) over variables; `index` is neither `z` nor one of `xs`.
    ElementVar {
        xs: Vec<VarId>,
        index: VarId,
        z: VarId,
    },
    /// `b ⇔ (Σ coeffs·vars relation rhs)` (or `b ⇒`, by `kind`), on a 0/1 variable `b`
    /// that is none of `vars`.
    ReifiedLinear {
        b: VarId,
        vars: Vec<VarId>,
        coeffs: Vec<i32>,
        relation: LinearRelation,
        rhs: i64,
        kind: Reification,
    },
    /// A propagator of the user's own.
    Custom(Arc<dyn Propagator>),
}

/// The relation of a reified linear constraint.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum LinearRelation {
    /// `Σ = c`
    Equal,
    /// `Σ ≠ c`
    NotEqual,
    /// `Σ ≤ c`
    AtMost,
}

/// What a reified constraint's `b` stands for: the constraint holding exactly when `b = 1`,
/// or implied by it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Reification {
    /// `b ⇔ c`.
    Full,
    /// `b ⇒ c`.
    Half,
}
