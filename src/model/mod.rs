//! Variables and posted constraints. All argument validation lives here, so a model that
//! was built without error can always be solved without panicking.

use std::ops::RangeInclusive;
use std::sync::{Arc, OnceLock};

mod arithmetic;
mod counting;
mod expr;
mod logic;
mod scheduling;

pub use expr::{Compare, Comparison, LinearConstraint, LinearExpr};
pub use logic::Literal;

use crate::compiled::Compiled;
use crate::domain::{Domain, WideGaps};
use crate::error::ModelError;
pub use crate::posted::{Consistency, Objective, Relation, Sense, TupleSet};
use crate::posted::{Offsets, Posted};
use crate::propagator::Propagator;
pub use crate::var::VarId;

/// The most variables a model may hold: far beyond what fits in memory with useful
/// constraints, and small enough that every variable index fits a `u32`.
pub const MAX_VARIABLES: usize = 1 << 28;

/// A constraint-satisfaction problem: integer variables with finite domains, and constraints.
///
/// ```
/// use bitcsp::{Model, Solver, SolveResult};
/// let mut model = Model::new();
/// let x = model.new_var(1..=3)?;
/// let y = model.new_var(1..=3)?;
/// let z = model.new_var(1..=3)?;
/// model.all_different(&[x, y, z])?;
/// model.not_equal_offset(y, x, 1)?; // y != x + 1
/// model.fix(x, 1)?;
/// let SolveResult::Solution(s) = Solver::new(&model).solve() else { panic!("no solution") };
/// assert_eq!((s.value(x), s.value(y), s.value(z)), (1, 3, 2));
/// # Ok::<(), bitcsp::ModelError>(())
/// ```
///
/// Cloning a model is cheap, and clones share the solver's compiled form of the
/// constraints until variables or constraints are added: a model built once and cloned per
/// instance (a Sudoku grid with different givens) is compiled only once. Changing domains
/// with [`fix`](Model::fix) or [`remove_value`](Model::remove_value) keeps the shared form.
#[derive(Debug, Default)]
pub struct Model {
    domains: Vec<Domain>,
    posted: Arc<Vec<Posted>>,
    compiled: Arc<OnceLock<Compiled>>,
    objective: Option<Objective>,
}

impl Clone for Model {
    /// Compiles the constraints first (if that was not done yet), so that the shared
    /// compiled form is always the one of this model's current domains, whichever clone is
    /// solved first.
    fn clone(&self) -> Self {
        let _ = self.compiled();
        Model {
            domains: self.domains.clone(),
            posted: Arc::clone(&self.posted),
            compiled: Arc::clone(&self.compiled),
            objective: self.objective,
        }
    }
}

impl Model {
    /// An empty model.
    pub fn new() -> Self {
        Self::default()
    }

    /// Adds a variable taking any value of `range`.
    ///
    /// # Errors
    /// [`ModelError::EmptyDomain`] for an empty range.
    pub fn new_var(&mut self, range: RangeInclusive<i32>) -> Result<VarId, ModelError> {
        self.new_var_with_domain(Domain::range(range)?)
    }

    /// Adds a variable taking one of `values`.
    ///
    /// # Errors
    /// As [`Domain::from_values`].
    pub fn new_var_from_values(&mut self, values: &[i32]) -> Result<VarId, ModelError> {
        self.new_var_with_domain(Domain::from_values(values)?)
    }

    /// Adds a variable with the given domain.
    ///
    /// # Errors
    /// [`ModelError::EmptyDomain`] when `domain` is empty.
    pub fn new_var_with_domain(&mut self, domain: Domain) -> Result<VarId, ModelError> {
        if domain.is_empty() {
            return Err(ModelError::EmptyDomain);
        }
        self.check_room(1)?;
        let id = VarId::new(self.domains.len() as u32); // below MAX_VARIABLES, so it fits
        let gaps = domain.gaps().map(|gaps| match gaps {
            WideGaps::Holes(holes) => (holes.to_vec(), false),
            WideGaps::Only(values) => (values.to_vec(), true),
        });
        self.domains.push(domain);
        self.structure_changed();
        if let Some((values, allowed)) = gaps {
            self.post_validated(Posted::WideMember {
                var: id,
                values,
                allowed,
            });
        }
        Ok(id)
    }

    /// Adds `count` variables over the same range.
    ///
    /// # Errors
    /// As [`Model::new_var`].
    pub fn new_vars(
        &mut self,
        count: usize,
        range: RangeInclusive<i32>,
    ) -> Result<Vec<VarId>, ModelError> {
        let domain = Domain::range(range)?;
        self.check_room(count)?;
        if domain.gaps().is_some() {
            self.domains.reserve(count);
            return (0..count)
                .map(|_| self.new_var_with_domain(domain.clone()))
                .collect();
        }
        // A range without gaps posts nothing beside the variables: they are pushed at once.
        let first = self.domains.len();
        self.domains.extend(std::iter::repeat_n(domain, count));
        self.structure_changed();
        // Below MAX_VARIABLES (checked above), so every index fits.
        Ok((first..first + count)
            .map(|i| VarId::new(i as u32))
            .collect())
    }

    /// Requires the variables to take pairwise different values.
    ///
    /// # Errors
    /// [`ModelError::UnknownVariable`], [`ModelError::DuplicateVariable`].
    pub fn all_different(&mut self, vars: &[VarId]) -> Result<(), ModelError> {
        self.all_different_with(vars, Consistency::Fast)
    }

    /// Requires the values `vars[i] + offsets[i]` to be pairwise different (N-Queens
    /// diagonals are `all_different_offset(&rows, &[0, 1, 2, ...])`).
    ///
    /// # Errors
    /// [`ModelError::OffsetsLengthMismatch`] when the two slices differ in length,
    /// [`ModelError::UnknownVariable`] or [`ModelError::DuplicateVariable`].
    pub fn all_different_offset(
        &mut self,
        vars: &[VarId],
        offsets: &[i32],
    ) -> Result<(), ModelError> {
        self.all_different_offset_with(vars, offsets, Consistency::Fast)
    }

    /// As [`Model::all_different`], with the propagation strength chosen.
    ///
    /// ```
    /// use bitcsp::{Consistency, Model, Solver};
    /// let mut model = Model::new();
    /// let x = model.new_vars(3, 1..=3)?;
    /// model.all_different_with(&x, Consistency::Domain)?;
    /// assert_eq!(Solver::new(&model).count(None).count, 6);
    /// # Ok::<(), bitcsp::ModelError>(())
    /// ```
    ///
    /// # Errors
    /// As [`Model::all_different`].
    pub fn all_different_with(
        &mut self,
        vars: &[VarId],
        consistency: Consistency,
    ) -> Result<(), ModelError> {
        self.post_all_different(vars, Offsets::Zero, consistency)
    }

    /// As [`Model::all_different_offset`], with the propagation strength chosen.
    ///
    /// # Errors
    /// As [`Model::all_different_offset`].
    pub fn all_different_offset_with(
        &mut self,
        vars: &[VarId],
        offsets: &[i32],
        consistency: Consistency,
    ) -> Result<(), ModelError> {
        if vars.len() != offsets.len() {
            return Err(ModelError::OffsetsLengthMismatch {
                vars: vars.len(),
                offsets: offsets.len(),
            });
        }
        self.post_all_different(vars, Offsets::from_slice(offsets), consistency)
    }

    /// Posts an all-different over `vars` with `offsets` (of the same length) once the
    /// variables are checked.
    fn post_all_different(
        &mut self,
        vars: &[VarId],
        offsets: Offsets,
        consistency: Consistency,
    ) -> Result<(), ModelError> {
        self.check_vars(vars)?;
        check_distinct(vars)?;
        self.post_validated(Posted::AllDifferent {
            vars: vars.into(),
            offsets,
            consistency,
        });
        Ok(())
    }

    /// Requires `x != y`.
    ///
    /// # Errors
    /// [`ModelError::UnknownVariable`], or [`ModelError::DuplicateVariable`] when `x == y`.
    pub fn not_equal(&mut self, x: VarId, y: VarId) -> Result<(), ModelError> {
        self.not_equal_offset(x, y, 0)
    }

    /// Requires `x != y + offset`.
    ///
    /// # Errors
    /// [`ModelError::UnknownVariable`], or [`ModelError::DuplicateVariable`] when `x == y`.
    pub fn not_equal_offset(&mut self, x: VarId, y: VarId, offset: i32) -> Result<(), ModelError> {
        self.check_vars(&[x, y])?;
        check_distinct(&[x, y])?;
        self.post_validated(Posted::NotEqual { x, y, offset });
        Ok(())
    }

    /// Requires `vars[0] + vars[1] + ...` to stand in `relation` to `rhs` (an empty sum
    /// is 0). Propagated on bounds: see [`Model::weighted_sum`].
    ///
    /// ```
    /// use bitcsp::{Model, Relation, Solver};
    /// let mut model = Model::new();
    /// let dice = model.new_vars(2, 1..=6)?;
    /// model.sum(&dice, Relation::Equal, 7)?;
    /// assert_eq!(Solver::new(&model).count(None).count, 6);
    /// # Ok::<(), bitcsp::ModelError>(())
    /// ```
    ///
    /// # Errors
    /// [`ModelError::UnknownVariable`].
    pub fn sum(&mut self, vars: &[VarId], relation: Relation, rhs: i64) -> Result<(), ModelError> {
        self.weighted_sum(vars, &vec![1; vars.len()], relation, rhs)
    }

    /// Requires `coeffs[0] * vars[0] + coeffs[1] * vars[1] + ...` to stand in `relation`
    /// to `rhs`. A variable may appear more than once. The propagation keeps bounds
    /// consistency on the real relaxation (bounds(R), as is usual for linear sums): after
    /// it, every variable's smallest and largest value can be completed with real values
    /// within the other variables' bounds (integer completions and values inside a
    /// domain's holes are not examined), and the search finds exactly the solutions.
    ///
    /// # Errors
    /// [`ModelError::UnknownVariable`], or [`ModelError::CoefficientsLengthMismatch`] when
    /// the lists differ in length.
    pub fn weighted_sum(
        &mut self,
        vars: &[VarId],
        coeffs: &[i32],
        relation: Relation,
        rhs: i64,
    ) -> Result<(), ModelError> {
        check_coefficients(vars, coeffs)?;
        self.check_vars(vars)?;
        self.post_validated(Posted::Linear {
            vars: vars.to_vec(),
            coeffs: coeffs.to_vec(),
            relation,
            rhs,
        });
        Ok(())
    }

    /// Requires `Σ weights[i]·items[i] = capacity` and `Σ profits[i]·items[i] = profit`
    /// (MiniZinc's `knapsack`), with non-negative weights, profits and item values. Beside
    /// the two sums, their linear relaxation is propagated: `profit` can be no more than
    /// the best fractional filling of `capacity`'s largest value (Dantzig's bound), and an
    /// item's bound goes when taking it (or leaving it) makes that bound fall short of
    /// `profit`'s smallest value. With `maximize(profit)` this is the bound that makes
    /// branch and bound fast on knapsacks.
    ///
    /// ```
    /// use bitcsp::{Model, Solver};
    /// let mut model = Model::new();
    /// let take = model.new_vars(3, 0..=1)?;
    /// let weight = model.new_var(0..=5)?;
    /// let value = model.new_var(0..=100)?;
    /// model.knapsack(&take, &[3, 4, 2], weight, &[4, 5, 3], value)?;
    /// model.maximize(value)?;
    /// let best = Solver::new(&model).optimize();
    /// assert_eq!(best.best().map(|b| b.1), Some(7)); // items 1 and 3: weight 5, value 7
    /// # Ok::<(), bitcsp::ModelError>(())
    /// ```
    ///
    /// # Errors
    /// [`ModelError::UnknownVariable`], [`ModelError::CoefficientsLengthMismatch`] when the
    /// lists differ in length, [`ModelError::NegativeKnapsackTerm`] for a negative weight,
    /// profit or item value.
    pub fn knapsack(
        &mut self,
        items: &[VarId],
        weights: &[i32],
        capacity: VarId,
        profits: &[i32],
        profit: VarId,
    ) -> Result<(), ModelError> {
        check_coefficients(items, weights)?;
        check_coefficients(items, profits)?;
        self.check_vars(items)?;
        self.check_vars(&[capacity, profit])?;
        let negative_item = items
            .iter()
            .position(|v| self.domains[v.index()].min().is_some_and(|m| m < 0));
        let negative_factor = weights.iter().chain(profits).any(|&c| c < 0);
        if negative_item.is_some() || negative_factor {
            return Err(ModelError::NegativeKnapsackTerm);
        }
        let mut all = items.to_vec();
        all.push(capacity);
        let mut w = weights.to_vec();
        w.push(-1);
        self.weighted_sum(&all, &w, Relation::Equal, 0)?;
        all.pop();
        all.push(profit);
        let mut p = profits.to_vec();
        p.push(-1);
        self.weighted_sum(&all, &p, Relation::Equal, 0)?;
        self.post_validated(Posted::Knapsack {
            items: items.to_vec(),
            weights: weights.to_vec(),
            profits: profits.to_vec(),
            capacity,
            profit,
        });
        Ok(())
    }

    /// Posts a constraint of your own, propagated by `propagator` (see the
    /// [`propagator`](crate::propagator) module for the contract and an example).
    ///
    /// # Errors
    /// [`ModelError::UnknownVariable`] when one of its variables is not of this model,
    /// [`ModelError::DuplicateVariable`] when one appears twice.
    pub fn post(&mut self, propagator: impl Propagator + 'static) -> Result<(), ModelError> {
        self.check_vars(propagator.vars())?;
        check_distinct(propagator.vars())?;
        self.post_validated(Posted::Custom(Arc::new(propagator)));
        Ok(())
    }

    /// Makes the model an optimisation problem: the smaller `var`'s value, the better (see
    /// [`Solver::optimize`](crate::Solver::optimize)). Replaces any objective set before.
    ///
    /// # Errors
    /// [`ModelError::UnknownVariable`].
    pub fn minimize(&mut self, var: VarId) -> Result<(), ModelError> {
        self.set_objective(var, Sense::Minimize)
    }

    /// As [`minimize`](Model::minimize), the larger the better.
    ///
    /// # Errors
    /// [`ModelError::UnknownVariable`].
    pub fn maximize(&mut self, var: VarId) -> Result<(), ModelError> {
        self.set_objective(var, Sense::Maximize)
    }

    /// Minimises `coeffs[0] * vars[0] + coeffs[1] * vars[1] + ...`, through a new variable
    /// that equals the sum (returned, to read the objective from a solution).
    ///
    /// ```
    /// use bitcsp::{Model, Optimum, Solver};
    /// let mut model = Model::new();
    /// let [x, y] = [0; 2].map(|_| model.new_var(0..=5).expect("range"));
    /// model.not_equal(x, y)?;
    /// let cost = model.minimize_sum(&[x, y], &[3, 2])?;
    /// let Optimum::Optimal { solution, objective } = Solver::new(&model).optimize() else {
    ///     panic!("a finite model with solutions has an optimum")
    /// };
    /// assert_eq!((objective, solution.value(cost)), (2, 2)); // x = 0, y = 1
    /// # Ok::<(), bitcsp::ModelError>(())
    /// ```
    ///
    /// # Errors
    /// As [`weighted_sum`](Model::weighted_sum), and [`ModelError::DomainTooLarge`] when the
    /// sum can take more values than a domain may hold.
    pub fn minimize_sum(&mut self, vars: &[VarId], coeffs: &[i32]) -> Result<VarId, ModelError> {
        let total = self.sum_var(vars, coeffs)?;
        self.minimize(total)?;
        Ok(total)
    }

    /// As [`minimize_sum`](Model::minimize_sum), the larger the better.
    ///
    /// # Errors
    /// As [`minimize_sum`](Model::minimize_sum).
    pub fn maximize_sum(&mut self, vars: &[VarId], coeffs: &[i32]) -> Result<VarId, ModelError> {
        let total = self.sum_var(vars, coeffs)?;
        self.maximize(total)?;
        Ok(total)
    }

    /// The objective, if the model has one.
    pub fn objective(&self) -> Option<Objective> {
        self.objective
    }

    fn set_objective(&mut self, var: VarId, sense: Sense) -> Result<(), ModelError> {
        self.check_var(var)?;
        self.objective = Some(Objective { var, sense });
        Ok(())
    }

    /// A new variable equal to the weighted sum, over the range the sum can reach.
    fn sum_var(&mut self, vars: &[VarId], coeffs: &[i32]) -> Result<VarId, ModelError> {
        check_coefficients(vars, coeffs)?;
        self.check_vars(vars)?;
        // In i128: up to 2^28 terms of at most 2^62 each cannot overflow it.
        let (mut lo, mut hi) = (0i128, 0i128);
        for (&v, &c) in vars.iter().zip(coeffs) {
            let d = &self.domains[v.index()];
            let (a, b) = (
                i128::from(c) * i128::from(d.min().unwrap_or(0)),
                i128::from(c) * i128::from(d.max().unwrap_or(0)),
            );
            lo += a.min(b);
            hi += a.max(b);
        }
        let too_large = |_| ModelError::DomainTooLarge {
            span: u64::try_from(hi - lo + 1).unwrap_or(u64::MAX),
            max: 1 << 32,
        };
        let lo = i32::try_from(lo).map_err(too_large)?;
        let hi = i32::try_from(hi).map_err(too_large)?;
        let total = self.new_var(lo..=hi)?;
        let mut all: Vec<VarId> = vars.to_vec();
        all.push(total);
        let mut weights = coeffs.to_vec();
        weights.push(-1);
        self.weighted_sum(&all, &weights, Relation::Equal, 0)?;
        Ok(total)
    }

    /// Fixes `var` to `value` (a given of a puzzle). Fixing to a value outside the domain
    /// leaves the domain empty: the model is then unsatisfiable, which the solver reports.
    ///
    /// # Errors
    /// [`ModelError::UnknownVariable`].
    pub fn fix(&mut self, var: VarId, value: i32) -> Result<(), ModelError> {
        self.check_var(var)?;
        self.domains[var.index()].restrict_to(value);
        Ok(())
    }

    /// Removes `value` from the domain of `var` (nothing happens when it is not there).
    ///
    /// # Errors
    /// [`ModelError::UnknownVariable`].
    pub fn remove_value(&mut self, var: VarId, value: i32) -> Result<(), ModelError> {
        self.check_var(var)?;
        let domain = &mut self.domains[var.index()];
        // A wide domain's solver form is its bounds: a hole between them is a constraint.
        let hole = domain.is_wide()
            && domain.contains(value)
            && domain.min() != Some(value)
            && domain.max() != Some(value);
        domain.remove(value);
        if hole {
            self.post_validated(Posted::WideMember {
                var,
                values: vec![value],
                allowed: false,
            });
        }
        Ok(())
    }

    /// The current domain of `var`, or `None` for a variable of another model.
    pub fn domain(&self, var: VarId) -> Option<&Domain> {
        self.domains.get(var.index())
    }

    /// The number of variables.
    pub fn num_vars(&self) -> usize {
        self.domains.len()
    }

    /// The number of posted constraints.
    pub fn num_constraints(&self) -> usize {
        self.posted.len()
    }

    /// All variables, in creation order.
    pub fn vars(&self) -> impl Iterator<Item = VarId> + '_ {
        (0..self.domains.len() as u32).map(VarId::new)
    }

    pub(crate) fn domains(&self) -> &[Domain] {
        &self.domains
    }

    /// The posted constraints (for the tests that compile them other ways).
    #[cfg(test)]
    pub(crate) fn posted(&self) -> &[Posted] {
        &self.posted
    }

    /// The compiled constraints, built on first use and shared with clones.
    pub(crate) fn compiled(&self) -> &Compiled {
        self.compiled
            .get_or_init(|| Compiled::new(&self.domains, &self.posted))
    }

    /// Adds a validated constraint.
    pub(super) fn post_validated(&mut self, posted: Posted) {
        self.structure_changed();
        Arc::make_mut(&mut self.posted).push(posted);
    }

    /// Variables or constraints were added: this model needs its own compiled form.
    fn structure_changed(&mut self) {
        if self.compiled.get().is_some() || Arc::strong_count(&self.compiled) > 1 {
            self.compiled = Arc::default();
        }
    }

    /// Whether `more` variables can be added.
    fn check_room(&self, more: usize) -> Result<(), ModelError> {
        match self.domains.len().checked_add(more) {
            Some(total) if total <= MAX_VARIABLES => Ok(()),
            total => Err(ModelError::TooManyVariables {
                requested: total.unwrap_or(usize::MAX),
                max: MAX_VARIABLES,
            }),
        }
    }

    pub(super) fn check_vars(&self, vars: &[VarId]) -> Result<(), ModelError> {
        vars.iter().try_for_each(|&v| self.check_var(v))
    }

    fn check_var(&self, var: VarId) -> Result<(), ModelError> {
        if var.index() < self.domains.len() {
            Ok(())
        } else {
            Err(ModelError::UnknownVariable {
                var,
                count: self.domains.len(),
            })
        }
    }
}

/// One coefficient per variable.
pub(super) fn check_coefficients(vars: &[VarId], coeffs: &[i32]) -> Result<(), ModelError> {
    if vars.len() == coeffs.len() {
        Ok(())
    } else {
        Err(ModelError::CoefficientsLengthMismatch {
            vars: vars.len(),
            coeffs: coeffs.len(),
        })
    }
}

/// Lists up to this long are checked for repeats by comparing pairs.
const SHORT_LIST: usize = 16;

/// Every variable of `vars` at most once.
pub(super) fn check_distinct(vars: &[VarId]) -> Result<(), ModelError> {
    if all_distinct_in_a_window(vars) {
        return Ok(());
    }
    // Short lists (a Sudoku unit, a pair) compared in place, without a sorted copy; the
    // error names the same pair either way: the smallest repeated variable's first two
    // positions.
    if vars.len() <= SHORT_LIST {
        let mut found: Option<(VarId, usize, usize)> = None;
        for (second, &var) in vars.iter().enumerate() {
            if found.is_some_and(|(v, _, _)| v <= var) {
                continue;
            }
            if let Some(first) = vars[..second].iter().position(|&v| v == var) {
                found = Some((var, first, second));
            }
        }
        return match found {
            Some((var, first, second)) => Err(ModelError::DuplicateVariable { var, first, second }),
            None => Ok(()),
        };
    }
    check_distinct_sorted(vars)
}

/// True when `vars` lie within 128 consecutive indices and no index repeats: one bit per
/// index in a window from the smallest, and the bits set as many as the variables (a
/// repeat sets a bit twice), with no branch per variable. False proves nothing (the
/// window may be too narrow): the slower checks then find the repeat.
fn all_distinct_in_a_window(vars: &[VarId]) -> bool {
    let Some(first) = vars.first() else {
        return true;
    };
    let (mut low, mut high) = (first.index(), first.index());
    for v in vars {
        low = low.min(v.index());
        high = high.max(v.index());
    }
    if high - low < 64 {
        let seen = vars
            .iter()
            .fold(0u64, |seen, v| seen | 1 << (v.index() - low));
        seen.count_ones() as usize == vars.len()
    } else if high - low < 128 {
        let seen = vars
            .iter()
            .fold(0u128, |seen, v| seen | 1 << (v.index() - low));
        seen.count_ones() as usize == vars.len()
    } else {
        false
    }
}

/// [`check_distinct`] on a sorted copy.
fn check_distinct_sorted(vars: &[VarId]) -> Result<(), ModelError> {
    let mut seen: Vec<(VarId, usize)> = vars.iter().copied().zip(0..).collect();
    seen.sort_unstable();
    for pair in seen.windows(2) {
        if pair[0].0 == pair[1].0 {
            return Err(ModelError::DuplicateVariable {
                var: pair[0].0,
                first: pair[0].1,
                second: pair[1].1,
            });
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Asserts that `check_distinct` reports what the sorted check reports on every list
    /// of up to `longest` variables drawn from `indices` (four of them).
    fn agrees_with_the_sorted_check(indices: [u32; 4], longest: u32) {
        for len in 0..=longest {
            for code in 0..4u32.pow(len) {
                let vars: Vec<VarId> = (0..len)
                    .map(|i| VarId::new(indices[(code / 4u32.pow(i) % 4) as usize]))
                    .collect();
                assert_eq!(
                    check_distinct(&vars),
                    check_distinct_sorted(&vars),
                    "{vars:?}"
                );
            }
        }
    }

    #[test]
    fn short_lists_report_the_repeat_a_sorted_copy_reports() {
        // Every list of up to six variables among four.
        agrees_with_the_sorted_check([0, 1, 2, 3], 6);
    }

    #[test]
    fn lists_in_the_two_word_window_report_the_repeat_a_sorted_copy_reports() {
        // Spans of 64 to 127 indices take the quick check's 128-bit window.
        agrees_with_the_sorted_check([0, 63, 64, 127], 5);
        agrees_with_the_sorted_check([3, 70, 90, 100], 5);
    }

    #[test]
    fn lists_wider_than_the_window_report_the_repeat_a_sorted_copy_reports() {
        // Every list of up to five variables among four spread further apart than the
        // 128-index window of the quick check.
        agrees_with_the_sorted_check([0, 1, 200, 1000], 5);
    }

    #[test]
    fn foreign_variable_is_rejected() {
        let mut small = Model::new();
        let mut big = Model::new();
        big.new_vars(5, 0..=1).unwrap();
        let foreign = big.vars().last().unwrap();
        small.new_var(0..=1).unwrap();
        assert_eq!(
            small.fix(foreign, 0),
            Err(ModelError::UnknownVariable {
                var: foreign,
                count: 1
            })
        );
    }

    #[test]
    fn repeated_variable_in_all_different_names_both_positions() {
        let mut m = Model::new();
        let v = m.new_vars(3, 0..=5).unwrap();
        assert_eq!(
            m.all_different(&[v[0], v[1], v[2], v[1]]),
            Err(ModelError::DuplicateVariable {
                var: v[1],
                first: 1,
                second: 3
            })
        );
    }

    #[test]
    fn offsets_of_wrong_length_are_rejected() {
        let mut m = Model::new();
        let v = m.new_vars(3, 0..=5).unwrap();
        assert_eq!(
            m.all_different_offset(&v, &[0, 1]),
            Err(ModelError::OffsetsLengthMismatch {
                vars: 3,
                offsets: 2
            })
        );
    }

    #[test]
    fn not_equal_to_itself_is_rejected() {
        let mut m = Model::new();
        let x = m.new_var(0..=5).unwrap();
        assert!(matches!(
            m.not_equal(x, x),
            Err(ModelError::DuplicateVariable { .. })
        ));
    }

    #[test]
    fn offsets_spreading_values_far_apart_reason_on_values() {
        let mut m = Model::new();
        let v = m.new_vars(2, 0..=5).unwrap();
        m.all_different_offset(&v, &[i32::MIN, i32::MAX]).unwrap();
        assert_eq!(crate::Solver::new(&m).count(None).count, 36);
        m.all_different_offset(&v, &[0, 1]).unwrap();
        assert_eq!(crate::Solver::new(&m).count(None).count, 36 - 5);
    }

    #[test]
    fn empty_domain_variable_is_rejected() {
        let mut m = Model::new();
        let mut d = Domain::range(1..=1).unwrap();
        d.remove(1);
        assert_eq!(m.new_var_with_domain(d), Err(ModelError::EmptyDomain));
    }
}
