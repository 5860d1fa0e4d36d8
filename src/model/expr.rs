//! Linear expressions and comparisons that read as written: `x - y`, `2 * x + 3 * y - 4`,
//! compared with [`Compare`]'s methods (`(x - y).equals(z)`, `x.less_than(y)`,
//! `(2 * x + 3 * y).at_most(10)`) and posted with [`Model::require`]. Values, coefficients
//! and constants are `i64` in expressions; posting checks that they fit the engine's
//! `i32` coefficients.

use std::ops::{Add, Mul, Neg, Sub};

use super::Model;
use crate::error::ModelError;
use crate::posted::Relation;
use crate::var::VarId;

/// `Σ coeff · var + constant`.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct LinearExpr {
    terms: Vec<(VarId, i64)>,
    constant: i64,
}

/// How a [`LinearConstraint`] compares its two sides.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Comparison {
    /// `=`
    Equal,
    /// `≠`
    NotEqual,
    /// `<`
    Less,
    /// `≤`
    AtMost,
    /// `>`
    Greater,
    /// `≥`
    AtLeast,
}

/// `left (comparison) right`, ready for [`Model::require`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LinearConstraint {
    left: LinearExpr,
    comparison: Comparison,
    right: LinearExpr,
}

impl From<VarId> for LinearExpr {
    fn from(var: VarId) -> Self {
        LinearExpr {
            terms: vec![(var, 1)],
            constant: 0,
        }
    }
}

impl From<i64> for LinearExpr {
    fn from(constant: i64) -> Self {
        LinearExpr {
            terms: Vec::new(),
            constant,
        }
    }
}

impl From<i32> for LinearExpr {
    fn from(constant: i32) -> Self {
        LinearExpr::from(i64::from(constant))
    }
}

impl LinearExpr {
    fn scaled(mut self, k: i64) -> Self {
        self.terms
            .iter_mut()
            .for_each(|t| t.1 = t.1.saturating_mul(k));
        self.constant = self.constant.saturating_mul(k);
        self
    }

    fn plus(mut self, other: LinearExpr) -> Self {
        self.terms.extend(other.terms);
        self.constant = self.constant.saturating_add(other.constant);
        self
    }
}

impl<T: Into<LinearExpr>> Add<T> for LinearExpr {
    type Output = LinearExpr;
    fn add(self, other: T) -> LinearExpr {
        self.plus(other.into())
    }
}

impl<T: Into<LinearExpr>> Sub<T> for LinearExpr {
    type Output = LinearExpr;
    fn sub(self, other: T) -> LinearExpr {
        self.plus(other.into().scaled(-1))
    }
}

impl Neg for LinearExpr {
    type Output = LinearExpr;
    fn neg(self) -> LinearExpr {
        self.scaled(-1)
    }
}

impl Mul<i64> for LinearExpr {
    type Output = LinearExpr;
    fn mul(self, k: i64) -> LinearExpr {
        self.scaled(k)
    }
}

impl<T: Into<LinearExpr>> Add<T> for VarId {
    type Output = LinearExpr;
    fn add(self, other: T) -> LinearExpr {
        LinearExpr::from(self) + other
    }
}

impl<T: Into<LinearExpr>> Sub<T> for VarId {
    type Output = LinearExpr;
    fn sub(self, other: T) -> LinearExpr {
        LinearExpr::from(self) - other
    }
}

impl Neg for VarId {
    type Output = LinearExpr;
    fn neg(self) -> LinearExpr {
        -LinearExpr::from(self)
    }
}

impl Mul<i64> for VarId {
    type Output = LinearExpr;
    fn mul(self, k: i64) -> LinearExpr {
        LinearExpr::from(self) * k
    }
}

impl Mul<VarId> for i64 {
    type Output = LinearExpr;
    fn mul(self, var: VarId) -> LinearExpr {
        LinearExpr::from(var) * self
    }
}

impl Mul<LinearExpr> for i64 {
    type Output = LinearExpr;
    fn mul(self, expr: LinearExpr) -> LinearExpr {
        expr * self
    }
}

/// Comparisons between expressions (and variables), as constraints to post with
/// [`Model::require`].
///
/// ```
/// use bitcsp::{Compare, Model, Solver};
/// let mut model = Model::new();
/// let [x, y, z] = [0; 3].map(|_| model.new_var(0..=9).expect("range"));
/// model.require((x - y).equals(z))?;
/// model.require(x.less_than(y + 3))?;
/// model.require((2 * x + 3 * y).at_most(10))?;
/// model.require(z.not_equal(0))?;
/// let solutions = Solver::new(&model).solutions().count();
/// assert_eq!(solutions, 4); // (x, y, z) = (1, 0, 1), (2, 0, 2), (2, 1, 1), (3, 1, 2)
/// # Ok::<(), bitcsp::ModelError>(())
/// ```
pub trait Compare: Into<LinearExpr> + Sized {
    /// `self = other`.
    fn equals(self, other: impl Into<LinearExpr>) -> LinearConstraint {
        compare(self, Comparison::Equal, other)
    }
    /// `self ≠ other`.
    fn not_equal(self, other: impl Into<LinearExpr>) -> LinearConstraint {
        compare(self, Comparison::NotEqual, other)
    }
    /// `self < other`.
    fn less_than(self, other: impl Into<LinearExpr>) -> LinearConstraint {
        compare(self, Comparison::Less, other)
    }
    /// `self ≤ other`.
    fn at_most(self, other: impl Into<LinearExpr>) -> LinearConstraint {
        compare(self, Comparison::AtMost, other)
    }
    /// `self > other`.
    fn greater_than(self, other: impl Into<LinearExpr>) -> LinearConstraint {
        compare(self, Comparison::Greater, other)
    }
    /// `self ≥ other`.
    fn at_least(self, other: impl Into<LinearExpr>) -> LinearConstraint {
        compare(self, Comparison::AtLeast, other)
    }
}

impl Compare for LinearExpr {}
impl Compare for VarId {}

fn compare(
    left: impl Into<LinearExpr>,
    comparison: Comparison,
    right: impl Into<LinearExpr>,
) -> LinearConstraint {
    LinearConstraint {
        left: left.into(),
        comparison,
        right: right.into(),
    }
}

impl Model {
    /// Posts a linear comparison built with [`Compare`]: the terms of both sides are
    /// gathered on the left (a variable's coefficients added up) and the constants on the
    /// right, then posted as a [`weighted_sum`](Model::weighted_sum) (`<` and `>` become
    /// `≤ rhs - 1` and `≥ rhs + 1`) or a [`linear_not_equal`](Model::linear_not_equal).
    ///
    /// # Errors
    /// [`ModelError::UnknownVariable`]; [`ModelError::CoefficientOutOfRange`] when a
    /// gathered coefficient does not fit an `i32` (or the arithmetic overflowed).
    pub fn require(&mut self, constraint: LinearConstraint) -> Result<(), ModelError> {
        let Gathered {
            vars,
            coeffs,
            comparison,
            rhs,
        } = constraint.gather()?;
        match comparison {
            Comparison::Equal => self.weighted_sum(&vars, &coeffs, Relation::Equal, rhs),
            Comparison::AtMost => self.weighted_sum(&vars, &coeffs, Relation::AtMost, rhs),
            Comparison::AtLeast => self.weighted_sum(&vars, &coeffs, Relation::AtLeast, rhs),
            Comparison::Less => self.weighted_sum(&vars, &coeffs, Relation::AtMost, rhs - 1),
            Comparison::Greater => self.weighted_sum(&vars, &coeffs, Relation::AtLeast, rhs + 1),
            Comparison::NotEqual => self.linear_not_equal(&vars, &coeffs, rhs),
        }
    }
}

/// A linear comparison with its terms gathered on the left (each variable once, no zero
/// coefficient) and its constant on the right.
pub(crate) struct Gathered {
    pub(crate) vars: Vec<VarId>,
    pub(crate) coeffs: Vec<i32>,
    pub(crate) comparison: Comparison,
    pub(crate) rhs: i64,
}

impl LinearConstraint {
    /// The comparison as `Σ coeffs·vars (comparison) rhs`.
    ///
    /// # Errors
    /// [`ModelError::CoefficientOutOfRange`] when a gathered coefficient does not fit an
    /// `i32` (below 2^30 in size) or the constant is 2^62 or more in size.
    pub(crate) fn gather(self) -> Result<Gathered, ModelError> {
        let LinearConstraint {
            left,
            comparison,
            right,
        } = self;
        let all = left - right;
        let mut terms: Vec<(VarId, i64)> = Vec::new();
        for (var, coeff) in all.terms {
            match terms.iter_mut().find(|t| t.0 == var) {
                Some(t) => t.1 = t.1.saturating_add(coeff),
                None => terms.push((var, coeff)),
            }
        }
        terms.retain(|t| t.1 != 0);
        let vars: Vec<VarId> = terms.iter().map(|t| t.0).collect();
        let coeffs = terms
            .iter()
            .map(|&(_, c)| i32::try_from(c).ok().filter(|c| c.unsigned_abs() < 1 << 30))
            .collect::<Option<Vec<i32>>>()
            .ok_or(ModelError::CoefficientOutOfRange)?;
        let rhs = all
            .constant
            .checked_neg()
            .filter(|r| r.unsigned_abs() < 1 << 62)
            .ok_or(ModelError::CoefficientOutOfRange)?;
        Ok(Gathered {
            vars,
            coeffs,
            comparison,
            rhs,
        })
    }
}
