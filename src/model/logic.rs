//! Booleans, clauses and reification on the model: 0/1 variables, literals, clauses
//! (`or`), `and` / `or` / `xor` / `not` / implication as clauses, and `b ⇔ c` / `b ⇒ c`
//! for linear comparisons (`x = v`, `x ≤ v`, `x = y`, `Σ a·x rel c`).

use std::ops::Not;

use super::expr::Gathered;
use super::{check_distinct, Model};
use crate::constraints::logic::{LinearRelation, Reification, ReifiedEqual};
use crate::error::ModelError;
use crate::model::{Comparison, LinearConstraint};
use crate::posted::{Posted, Relation};
use crate::var::VarId;

/// A 0/1 variable or its negation, as a clause takes it: `Literal::from(x)` holds when
/// `x = 1`, `!Literal::from(x)` (or [`Literal::not`]) when `x = 0`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Literal {
    var: VarId,
    positive: bool,
}

impl Literal {
    /// `x = 1`.
    pub fn yes(var: VarId) -> Self {
        Literal {
            var,
            positive: true,
        }
    }

    /// `x = 0`.
    pub fn not(var: VarId) -> Self {
        Literal {
            var,
            positive: false,
        }
    }

    /// The variable.
    pub fn var(&self) -> VarId {
        self.var
    }

    /// True for `x = 1`, false for `x = 0`.
    pub fn is_positive(&self) -> bool {
        self.positive
    }
}

impl From<VarId> for Literal {
    fn from(var: VarId) -> Self {
        Literal::yes(var)
    }
}

impl Not for Literal {
    type Output = Literal;
    fn not(self) -> Literal {
        Literal {
            var: self.var,
            positive: !self.positive,
        }
    }
}

impl Model {
    /// Adds a Boolean variable (domain `{0, 1}`).
    ///
    /// # Errors
    /// [`ModelError::TooManyVariables`].
    pub fn new_bool(&mut self) -> Result<VarId, ModelError> {
        self.new_var(0..=1)
    }

    /// Adds `count` Boolean variables.
    ///
    /// # Errors
    /// [`ModelError::TooManyVariables`].
    pub fn new_bools(&mut self, count: usize) -> Result<Vec<VarId>, ModelError> {
        self.new_vars(count, 0..=1)
    }

    /// Requires at least one of `literals` to hold. Propagated with two watched literals
    /// per clause, so a model of many clauses propagates in time proportional to what
    /// changed. A clause with a variable and its negation always holds (nothing is
    /// posted); the empty clause makes the model unsatisfiable.
    ///
    /// ```
    /// use bitcsp::{Literal, Model, Solver};
    /// let mut model = Model::new();
    /// let [a, b] = [0; 2].map(|_| model.new_bool().expect("bool"));
    /// model.clause(&[a.into(), b.into()])?; // a ∨ b
    /// model.clause(&[!Literal::from(a)])?; // ¬a
    /// let s = Solver::new(&model).solve().solution().expect("satisfiable").clone();
    /// assert_eq!((s.value(a), s.value(b)), (0, 1));
    /// # Ok::<(), bitcsp::ModelError>(())
    /// ```
    ///
    /// # Errors
    /// [`ModelError::UnknownVariable`]; [`ModelError::NotBoolean`] for a literal of a
    /// variable that can take a value other than 0 and 1.
    pub fn clause(&mut self, literals: &[Literal]) -> Result<(), ModelError> {
        for lit in literals {
            self.check_boolean(lit.var)?;
        }
        let mut lits: Vec<(VarId, bool)> = literals.iter().map(|l| (l.var, l.positive)).collect();
        lits.sort_unstable();
        lits.dedup();
        if lits.windows(2).any(|w| w[0].0 == w[1].0) {
            return Ok(()); // x ∨ ¬x
        }
        match lits.as_slice() {
            [] => self.weighted_sum(&[], &[], Relation::AtLeast, 1),
            &[(var, positive)] => {
                self.weighted_sum(&[var], &[1], Relation::Equal, i64::from(positive))
            }
            _ => {
                self.post_validated(Posted::Clause(lits));
                Ok(())
            }
        }
    }

    /// Requires `r ⇔ (l1 ∧ l2 ∧ …)` (the empty conjunction holds).
    ///
    /// # Errors
    /// As [`clause`](Model::clause).
    pub fn and(&mut self, literals: &[Literal], r: Literal) -> Result<(), ModelError> {
        for &l in literals {
            self.clause(&[!r, l])?;
        }
        let mut all: Vec<Literal> = literals.iter().map(|&l| !l).collect();
        all.push(r);
        self.clause(&all)
    }

    /// Requires `r ⇔ (l1 ∨ l2 ∨ …)` (the empty disjunction fails).
    ///
    /// # Errors
    /// As [`clause`](Model::clause).
    pub fn or(&mut self, literals: &[Literal], r: Literal) -> Result<(), ModelError> {
        let negated: Vec<Literal> = literals.iter().map(|&l| !l).collect();
        self.and(&negated, !r)
    }

    /// Requires `r ⇔ (a ⊕ b)`.
    ///
    /// # Errors
    /// As [`clause`](Model::clause).
    pub fn xor(&mut self, a: Literal, b: Literal, r: Literal) -> Result<(), ModelError> {
        self.clause(&[!a, !b, !r])?;
        self.clause(&[a, b, !r])?;
        self.clause(&[a, !b, r])?;
        self.clause(&[!a, b, r])
    }

    /// Requires `a ⇒ b`.
    ///
    /// # Errors
    /// As [`clause`](Model::clause).
    pub fn implies(&mut self, a: Literal, b: Literal) -> Result<(), ModelError> {
        self.clause(&[!a, b])
    }

    /// Requires `b = ¬a`.
    ///
    /// # Errors
    /// As [`clause`](Model::clause).
    pub fn not(&mut self, a: Literal, b: Literal) -> Result<(), ModelError> {
        self.clause(&[a, b])?;
        self.clause(&[!a, !b])
    }

    /// Requires `b ⇔ constraint`: `b` is 1 exactly when the comparison holds, so that
    /// disjunctions (`b ⇔ x + d ≤ y`, `¬b ⇔ y + d ≤ x`) and counts (`Σ [x_i = v]`) are
    /// stated directly. `x = v` and `x = y + k` are domain consistent; other linear
    /// comparisons work on bounds, as sums do.
    ///
    /// ```
    /// use bitcsp::{Compare, Literal, Model, Solver};
    /// // x is 3 exactly when b is 1; b must be 0.
    /// let mut model = Model::new();
    /// let x = model.new_var(0..=5)?;
    /// let b = model.new_bool()?;
    /// model.reify(b.into(), x.equals(3))?;
    /// model.clause(&[!Literal::from(b)])?;
    /// assert_eq!(Solver::new(&model).count(None).count, 5);
    /// # Ok::<(), bitcsp::ModelError>(())
    /// ```
    ///
    /// # Errors
    /// [`ModelError::UnknownVariable`], [`ModelError::NotBoolean`] for `b`,
    /// [`ModelError::DuplicateVariable`] when `b` occurs in the comparison, and the
    /// errors of [`require`](Model::require).
    pub fn reify(&mut self, b: Literal, constraint: LinearConstraint) -> Result<(), ModelError> {
        self.post_reified(b, constraint, Reification::Full)
    }

    /// Requires `b ⇒ constraint` (half reification): when `b` is 1 the comparison holds;
    /// when the comparison cannot hold, `b` is 0.
    ///
    /// # Errors
    /// As [`reify`](Model::reify).
    pub fn implies_constraint(
        &mut self,
        b: Literal,
        constraint: LinearConstraint,
    ) -> Result<(), ModelError> {
        self.post_reified(b, constraint, Reification::Half)
    }

    fn post_reified(
        &mut self,
        b: Literal,
        constraint: LinearConstraint,
        kind: Reification,
    ) -> Result<(), ModelError> {
        self.check_boolean(b.var)?;
        let Gathered {
            vars,
            coeffs,
            comparison,
            rhs,
        } = constraint.gather()?;
        self.check_vars(&vars)?;
        let mut all = vars.clone();
        all.push(b.var);
        check_distinct(&all)?;
        let b = if b.positive {
            b.var
        } else {
            // A fresh variable equal to the literal (that is, to 1 - x), so that every
            // reified propagator reads a positive one.
            let equal = self.new_bool()?;
            self.not(!b, equal.into())?;
            equal
        };
        let (relation, coeffs, rhs) = normalized(comparison, coeffs, rhs);
        match (vars.as_slice(), coeffs.as_slice(), relation) {
            (&[x], &[a], LinearRelation::Equal) => match i32::try_from(rhs / i64::from(a)) {
                Ok(value) if rhs % i64::from(a) == 0 => {
                    self.post_validated(Posted::Indicator { b, x, value, kind });
                    Ok(())
                }
                // a·x = rhs has no integer solution: b is 0.
                _ => self.weighted_sum(&[b], &[1], Relation::Equal, 0),
            },
            (&[x, y], &[1, -1], LinearRelation::Equal) => {
                self.post(ReifiedEqual::new(b, x, y, rhs, kind))
            }
            (&[x, y], &[-1, 1], LinearRelation::Equal) => {
                self.post(ReifiedEqual::new(b, y, x, rhs, kind))
            }
            _ => {
                self.post_validated(Posted::ReifiedLinear {
                    b,
                    vars,
                    coeffs,
                    relation,
                    rhs,
                    kind,
                });
                Ok(())
            }
        }
    }

    /// Fails unless `var` is a variable of this model whose values are within `{0, 1}`.
    pub(super) fn check_boolean(&self, var: VarId) -> Result<(), ModelError> {
        self.check_vars(&[var])?;
        let domain = &self.domains[var.index()];
        if domain.min().is_some_and(|m| m < 0) || domain.max().is_some_and(|m| m > 1) {
            return Err(ModelError::NotBoolean { var });
        }
        Ok(())
    }
}

/// The comparison as `=`, `≠` or `≤` (`<` and `>` moved by one, `≥` negated).
fn normalized(
    comparison: Comparison,
    coeffs: Vec<i32>,
    rhs: i64,
) -> (LinearRelation, Vec<i32>, i64) {
    let negate = |coeffs: Vec<i32>| -> Vec<i32> { coeffs.iter().map(|&a| -a).collect() };
    match comparison {
        Comparison::Equal => (LinearRelation::Equal, coeffs, rhs),
        Comparison::NotEqual => (LinearRelation::NotEqual, coeffs, rhs),
        Comparison::AtMost => (LinearRelation::AtMost, coeffs, rhs),
        Comparison::Less => (LinearRelation::AtMost, coeffs, rhs - 1),
        Comparison::AtLeast => (LinearRelation::AtMost, negate(coeffs), -rhs),
        Comparison::Greater => (LinearRelation::AtMost, negate(coeffs), -rhs - 1),
    }
}
