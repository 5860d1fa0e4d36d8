//! Counting and tables on the model: `count`, `among`, `global_cardinality`, `table` and
//! forbidden tuples, and `element` over variables.

use std::sync::Arc;

use super::Model;
use crate::constraints::{Among, Circuit, Forbidden, GlobalCardinality};
use crate::error::ModelError;
use crate::model::{Compare, LinearExpr, TupleSet};
use crate::posted::{Posted, Relation};
use crate::var::VarId;

impl Model {
    /// Requires `n` to be the number of `xs` equal to `value`. Domain consistent.
    ///
    /// ```
    /// use bitcsp::{Model, Solver};
    /// // Three shifts, each 0 (off) or 1..=2 (a nurse); exactly two shifts go to nurse 1.
    /// let mut model = Model::new();
    /// let shifts = model.new_vars(3, 0..=2)?;
    /// let n = model.new_var(2..=2)?;
    /// model.count(&shifts, 1, n)?;
    /// assert_eq!(Solver::new(&model).count(None).count, 3 * 2);
    /// # Ok::<(), bitcsp::ModelError>(())
    /// ```
    ///
    /// # Errors
    /// [`ModelError::UnknownVariable`]; [`ModelError::DuplicateVariable`] when `n` is one
    /// of `xs` or a variable repeats.
    pub fn count(&mut self, xs: &[VarId], value: i32, n: VarId) -> Result<(), ModelError> {
        self.among(xs, &[value], n)
    }

    /// Requires `n` to be the number of `xs` that take a value of `set`. Domain consistent.
    ///
    /// # Errors
    /// As [`count`](Model::count).
    pub fn among(&mut self, xs: &[VarId], set: &[i32], n: VarId) -> Result<(), ModelError> {
        self.post(Among::new(xs, set, n))
    }

    /// Requires, for each `i`, `counts[i]` to be the number of `xs` equal to `values[i]`
    /// (values outside `values` stay free). One propagator reasons on every value as
    /// [`count`](Model::count) does (each count is domain consistent on its own), plus
    /// `Σ counts ≤ |xs|`; the whole is neither domain nor bounds consistent (that needs a
    /// flow, Régin 1996). A count may be one of the `xs`, and a variable may repeat: a
    /// magic sequence (`x[i]` is the number of `x` equal to `i`) is
    /// `global_cardinality(&x, &[0, 1, ...], &x)`.
    ///
    /// ```
    /// use bitcsp::{Model, Solver};
    /// let mut model = Model::new();
    /// let x = model.new_vars(4, 0..=4)?;
    /// model.global_cardinality(&x, &[0, 1, 2, 3], &x)?;
    /// // The magic sequences of length 4: 1210 and 2020.
    /// assert_eq!(Solver::new(&model).count(None).count, 2);
    /// # Ok::<(), bitcsp::ModelError>(())
    /// ```
    ///
    /// # Errors
    /// [`ModelError::UnknownVariable`], and [`ModelError::CoefficientsLengthMismatch`]
    /// when `values` and `counts` differ in length.
    pub fn global_cardinality(
        &mut self,
        xs: &[VarId],
        values: &[i32],
        counts: &[VarId],
    ) -> Result<(), ModelError> {
        if values.len() != counts.len() {
            return Err(ModelError::CoefficientsLengthMismatch {
                vars: values.len(),
                coeffs: counts.len(),
            });
        }
        self.check_vars(xs)?;
        self.check_vars(counts)?;
        let total = i64::try_from(xs.len()).unwrap_or(i64::MAX);
        // One count per distinct value (a value listed twice is counted once), gathered
        // since a count may repeat.
        let mut seen = std::collections::HashSet::with_capacity(values.len());
        let sum = values
            .iter()
            .zip(counts)
            .filter(|(v, _)| seen.insert(**v))
            .fold(LinearExpr::from(0i64), |sum, (_, &n)| sum + n);
        self.require(sum.at_most(total))?;
        let propagator = GlobalCardinality::new(xs, values, counts);
        self.post_validated(Posted::Custom(Arc::new(propagator)));
        Ok(())
    }

    /// As [`global_cardinality`](Model::global_cardinality) with each count between
    /// `low[i]` and `high[i]`.
    ///
    /// # Errors
    /// [`ModelError::CardinalityOutOfRange`] for a bound below zero or a `low` above its
    /// `high`; [`ModelError::CoefficientsLengthMismatch`] when the lists differ in length.
    pub fn global_cardinality_bounds(
        &mut self,
        xs: &[VarId],
        values: &[i32],
        low: &[i32],
        high: &[i32],
    ) -> Result<(), ModelError> {
        if low.len() != values.len() || high.len() != values.len() {
            return Err(ModelError::CoefficientsLengthMismatch {
                vars: values.len(),
                coeffs: low.len().min(high.len()),
            });
        }
        let mut counts = Vec::with_capacity(values.len());
        for ((&v, &lo), &hi) in values.iter().zip(low).zip(high) {
            if lo < 0 || lo > hi {
                return Err(ModelError::CardinalityOutOfRange {
                    value: v,
                    low: lo,
                    high: hi,
                });
            }
            counts.push(self.new_var(lo..=hi)?);
        }
        self.global_cardinality(xs, values, &counts)
    }

    /// Requires `z = xs[index]` (0-based) over variables; an index outside the array is
    /// removed from `index`'s domain. Domain consistent on `index` and `z` (and on the
    /// `xs`, when they are distinct from `index` and `z`).
    ///
    /// # Errors
    /// [`ModelError::UnknownVariable`]; [`ModelError::EmptyDomain`] for an empty array;
    /// [`ModelError::DuplicateVariable`] when `index` is `z` or one of `xs`.
    pub fn element_var(&mut self, xs: &[VarId], index: VarId, z: VarId) -> Result<(), ModelError> {
        if xs.is_empty() {
            return Err(ModelError::EmptyDomain);
        }
        self.check_vars(xs)?;
        self.check_vars(&[index, z])?;
        let mut others: Vec<VarId> = xs.to_vec();
        others.push(z);
        if let Some(first) = others.iter().position(|&v| v == index) {
            return Err(ModelError::DuplicateVariable {
                var: index,
                first,
                second: others.len(),
            });
        }
        self.post_validated(Posted::ElementVar {
            xs: xs.to_vec(),
            index,
            z,
        });
        Ok(())
    }

    /// Requires the successors `next[i]` (0-based node numbers) to form one cycle through
    /// every node (a Hamiltonian circuit): an all-different over them, and a propagator
    /// that forbids closing a shorter cycle.
    ///
    /// ```
    /// use bitcsp::{Model, Solver};
    /// let mut model = Model::new();
    /// let next = model.new_vars(4, 0..=3)?;
    /// model.circuit(&next)?;
    /// assert_eq!(Solver::new(&model).count(None).count, 6); // (4 - 1)! cycles
    /// # Ok::<(), bitcsp::ModelError>(())
    /// ```
    ///
    /// # Errors
    /// [`ModelError::UnknownVariable`], [`ModelError::DuplicateVariable`].
    pub fn circuit(&mut self, next: &[VarId]) -> Result<(), ModelError> {
        self.all_different(next)?;
        self.post(Circuit::new(next))
    }

    /// Requires the variables to take one of `tuples` (each as long as `vars`). Domain
    /// consistent, by bitsets over the tuples (Compact-Table's operations). An empty list
    /// makes the model unsatisfiable; repeated tuples are accepted.
    ///
    /// ```
    /// use bitcsp::{Model, Solver};
    /// let mut model = Model::new();
    /// let x = model.new_vars(2, 0..=3)?;
    /// model.table(&x, &[vec![0, 1], vec![1, 3], vec![2, 2]])?;
    /// assert_eq!(Solver::new(&model).count(None).count, 3);
    /// # Ok::<(), bitcsp::ModelError>(())
    /// ```
    ///
    /// # Errors
    /// [`ModelError::UnknownVariable`], [`ModelError::DuplicateVariable`], and
    /// [`ModelError::TupleArity`] for a tuple of the wrong length.
    pub fn table(&mut self, vars: &[VarId], tuples: &[Vec<i32>]) -> Result<(), ModelError> {
        let flat = self.checked_tuples(vars, tuples)?;
        self.post_table(vars, TupleSet::from_flat(vars.len(), flat))
    }

    /// [`table`](Model::table) over the tuples of `tuples`, which every table posted with
    /// it shares (see [`TupleSet`]).
    ///
    /// # Errors
    /// [`ModelError::UnknownVariable`], [`ModelError::DuplicateVariable`], and
    /// [`ModelError::TupleArity`] when the set's tuples are not as long as `vars`.
    pub fn table_set(&mut self, vars: &[VarId], tuples: &TupleSet) -> Result<(), ModelError> {
        self.check_vars(vars)?;
        super::check_distinct(vars)?;
        if tuples.arity() != vars.len() && !tuples.is_empty() {
            return Err(ModelError::TupleArity {
                tuple: 0,
                expected: vars.len(),
                found: tuples.arity(),
            });
        }
        self.post_table(vars, tuples.clone())
    }

    /// Posts a checked table; no tuple makes the model unsatisfiable.
    fn post_table(&mut self, vars: &[VarId], tuples: TupleSet) -> Result<(), ModelError> {
        if tuples.is_empty() {
            return self.weighted_sum(&[], &[], Relation::AtLeast, 1);
        }
        self.post_validated(Posted::Table {
            vars: vars.to_vec(),
            tuples,
        });
        Ok(())
    }

    /// Requires the variables to take none of `tuples`. Checked as variables are fixed;
    /// once all but one are, the values completing a forbidden tuple leave the last one.
    ///
    /// # Errors
    /// As [`table`](Model::table).
    pub fn forbidden(&mut self, vars: &[VarId], tuples: &[Vec<i32>]) -> Result<(), ModelError> {
        let flat = self.checked_tuples(vars, tuples)?;
        if flat.is_empty() {
            return Ok(());
        }
        self.post(Forbidden::new(vars, &flat))
    }

    /// The tuples as one flat list, after checking the variables and the arity.
    fn checked_tuples(&self, vars: &[VarId], tuples: &[Vec<i32>]) -> Result<Vec<i32>, ModelError> {
        self.check_vars(vars)?;
        super::check_distinct(vars)?;
        let mut flat = Vec::with_capacity(tuples.len().saturating_mul(vars.len()));
        for (i, t) in tuples.iter().enumerate() {
            if t.len() != vars.len() {
                return Err(ModelError::TupleArity {
                    tuple: i,
                    expected: vars.len(),
                    found: t.len(),
                });
            }
            flat.extend_from_slice(t);
        }
        Ok(flat)
    }
}
