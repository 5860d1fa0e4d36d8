//! Propagators of your own: the contract between a constraint and the engine, as the
//! public API offers it.
//!
//! A constraint the engine does not have is one type that implements [`Propagator`] and is
//! posted with [`Model::post`](crate::Model::post). The engine wakes it when one of its
//! variables changes (or only when a bound moves, or it becomes fixed: see [`Watch`]), and
//! it narrows domains through
//! [`Domains`]; the search, undo on backtracking, limits and the parallel search work for
//! it as for the built-in constraints.
//!
//! # The contract
//!
//! A propagator may assume that:
//! - it runs with the current domains of its variables, none of them empty;
//! - it is run again whenever one of the variables in [`Propagator::vars`] changes (its
//!   smallest or largest value, under [`Watch::Bounds`]; becomes fixed, under
//!   [`Watch::Fixed`]) through another constraint or a search decision, and
//!   also after any run of its own that narrowed a domain, until a run narrows nothing.
//!
//! It must guarantee that:
//! - it never removes a value that belongs to a solution of its constraint within the
//!   current domains (it is *sound*);
//! - once all its variables are fixed, it returns `Err(Conflict)` when their values break
//!   the constraint (so the search never accepts a non-solution);
//! - it reads and narrows only through [`Domains`], and only its own variables.
//!
//! How much it prunes besides is its own choice: checking complete assignments only is
//! correct, merely slow. [`Propagator::consistency`] states what it claims, and a test
//! harness can check the claim against brute force (see `tests/propagators.rs`).
//!
//! ```
//! use bitcsp::{Conflict, Domains, Model, Propagator, Solver, VarId};
//!
//! /// `x < y`, on bounds.
//! #[derive(Debug)]
//! struct Less {
//!     vars: [VarId; 2],
//! }
//!
//! impl Propagator for Less {
//!     fn name(&self) -> &str {
//!         "less"
//!     }
//!     fn vars(&self) -> &[VarId] {
//!         &self.vars
//!     }
//!     fn propagate(&self, domains: &mut Domains<'_>) -> Result<(), Conflict> {
//!         let [x, y] = self.vars;
//!         domains.set_max(x, domains.max(y) - 1)?;
//!         domains.set_min(y, domains.min(x) + 1)
//!     }
//! }
//!
//! let mut model = Model::new();
//! let x = model.new_var(1..=3)?;
//! let y = model.new_var(1..=3)?;
//! model.post(Less { vars: [x, y] })?;
//! assert_eq!(Solver::new(&model).count(None).count, 3);
//! # Ok::<(), bitcsp::ModelError>(())
//! ```

use std::fmt;

use crate::domain::DomainView;
pub use crate::propagate::Conflict;
use crate::propagate::Engine;
use crate::var::VarId;

/// Which changes of its variables wake a propagator.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Watch {
    /// Any value removed from any of its variables.
    #[default]
    AnyChange,
    /// A change of the smallest or largest value of one of its variables (becoming fixed
    /// included): for propagators that read only bounds, whom values leaving the inside
    /// of a domain cannot concern.
    Bounds,
    /// Only a variable becoming fixed (cheaper, for constraints that can only act then,
    /// such as a not-equal).
    Fixed,
}

/// When a propagator runs relative to the others.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Cost {
    /// As soon as it is woken.
    #[default]
    Cheap,
    /// After every cheap propagator has settled: for propagators whose run costs far more
    /// than the cheap rules' (a matching, a flow), which then run once on a settled state
    /// rather than after every small change.
    Costly,
}

/// How strong a propagator claims to be, for tests that check the claim.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Strength {
    /// Only soundness is claimed: no value of a solution is removed, and a broken
    /// complete assignment fails.
    #[default]
    Sound,
    /// Bounds consistency (bounds(Z)): after a run, each variable's smallest and largest
    /// values have integer supports within the other variables' bounds.
    Bounds,
    /// Domain consistency: after a run, every value left has a support among the other
    /// variables' values.
    Domain,
}

/// A constraint's propagator (see the [module documentation](self) for the contract).
pub trait Propagator: fmt::Debug + Send + Sync {
    /// A short name for messages and statistics (`"lex_less"`, `"at_most_k_distinct"`).
    fn name(&self) -> &str;

    /// The variables it constrains (each once); the engine wakes it when they change.
    fn vars(&self) -> &[VarId];

    /// Which changes wake it.
    fn watch(&self) -> Watch {
        Watch::AnyChange
    }

    /// When it runs relative to the others.
    fn cost(&self) -> Cost {
        Cost::Cheap
    }

    /// What it claims to achieve after a run.
    fn consistency(&self) -> Strength {
        Strength::Sound
    }

    /// Whether it reads which of its variables changed ([`Domains::changed`]): the engine
    /// then keeps, for it, a bit per variable set by every change made by others. A
    /// propagator woken by changes it does not care about (an element constraint by the
    /// array entries its index no longer points at) can then return at once.
    fn reads_changes(&self) -> bool {
        false
    }

    /// Narrows the domains of its variables; `Err(Conflict)` when the constraint can no
    /// longer be satisfied.
    ///
    /// # Errors
    /// [`Conflict`] when the current domains hold no solution of the constraint.
    fn propagate(&self, domains: &mut Domains<'_>) -> Result<(), Conflict>;

    /// Adds to `out` the differences it enforces in the current `domains`, each `(x, y,
    /// c)` standing for `x − y ≤ c` (none by default). Bounds reasoning on a cycle of
    /// differences that add up below zero (`x < y` and `y < x`) fails only once the bounds
    /// have crept across the whole domain, one step a run; when one propagation runs far
    /// longer than the model's size explains, the engine looks for such a cycle among the
    /// differences its constraints report, and fails at once if it finds one. A
    /// propagator that orders or offsets variables with wide domains should report them.
    ///
    /// ```
    /// use bitcsp::{Conflict, Domains, Model, Propagator, Solver, VarId};
    ///
    /// /// `x < y`, on bounds.
    /// #[derive(Debug)]
    /// struct Before([VarId; 2]);
    ///
    /// impl Propagator for Before {
    ///     fn name(&self) -> &str { "before" }
    ///     fn vars(&self) -> &[VarId] { &self.0 }
    ///     fn propagate(&self, d: &mut Domains<'_>) -> Result<(), Conflict> {
    ///         let [x, y] = self.0;
    ///         d.set_min(y, d.min(x).saturating_add(1))?;
    ///         d.set_max(x, d.max(y).saturating_sub(1))
    ///     }
    ///     fn differences(&self, _: &Domains<'_>, out: &mut Vec<(VarId, VarId, i64)>) {
    ///         out.push((self.0[0], self.0[1], -1));
    ///     }
    /// }
    ///
    /// let mut m = Model::new();
    /// let x = m.new_var(i32::MIN..=i32::MAX)?;
    /// let y = m.new_var(i32::MIN..=i32::MAX)?;
    /// m.post(Before([x, y]))?;
    /// m.post(Before([y, x]))?;
    /// // Without the differences, this would run for billions of steps.
    /// assert!(Solver::new(&m).solve().solution().is_none());
    /// # Ok::<(), bitcsp::ModelError>(())
    /// ```
    fn differences(&self, domains: &Domains<'_>, out: &mut Vec<(VarId, VarId, i64)>) {
        let _ = (domains, out);
    }
}

/// The current domains, as a propagator reads and narrows them.
///
/// Reading a variable that is not in the model panics, as indexing a slice out of range
/// does: it is a bug in the propagator, not a property of the input.
pub struct Domains<'a> {
    engine: &'a mut Engine,
    narrowed: bool,
    /// For a propagator that reads changes, in the first run of a wake-up: a bit per
    /// position in its variables, set when that variable changed since its last run.
    changes: Option<&'a [u64]>,
}

impl<'a> Domains<'a> {
    pub(crate) fn new(engine: &'a mut Engine, changes: Option<&'a [u64]>) -> Self {
        Domains {
            engine,
            narrowed: false,
            changes,
        }
    }

    /// Whether the variable at `position` in the propagator's [`vars`](Propagator::vars)
    /// may have changed since the propagator last ran: exact (a change made by another
    /// constraint or a decision) in the first run of a wake-up of a propagator that
    /// [reads changes](Propagator::reads_changes), and `true` otherwise (its other runs
    /// follow its own changes, which are not recorded). Where this is false for every
    /// variable a propagator cares about, its last run's conclusions still hold.
    pub fn changed(&self, position: usize) -> bool {
        self.changes.is_none_or(|bits| {
            bits.get(position / 64)
                .is_none_or(|w| w >> (position % 64) & 1 == 1)
        })
    }

    /// The positions (in [`vars`](Propagator::vars)) of the variables changed since the
    /// propagator last ran, ascending, when they are known (see
    /// [`changed`](Self::changed)); `None` when any of them may have changed.
    pub fn changed_positions(&self) -> Option<impl Iterator<Item = usize> + '_> {
        self.changes.map(|bits| {
            bits.iter()
                .enumerate()
                .flat_map(|(k, &w)| crate::bits::set_bits(w).map(move |b| k * 64 + b))
        })
    }

    /// Forgets the changes once the first run has read them.
    pub(crate) fn forget_changes(&mut self) {
        self.changes = None;
    }

    /// Whether a write since the last call narrowed a domain (and clears the mark).
    pub(crate) fn take_narrowed(&mut self) -> bool {
        std::mem::take(&mut self.narrowed)
    }

    fn index(&self, var: VarId) -> usize {
        let v = var.index();
        assert!(
            v < self.engine.store.num_vars(),
            "{var} is not a variable of this model"
        );
        v
    }

    /// The smallest value of `var`.
    pub fn min(&self, var: VarId) -> i32 {
        self.engine.store.min(self.index(var)).unwrap_or(i32::MAX)
    }

    /// The largest value of `var`.
    pub fn max(&self, var: VarId) -> i32 {
        self.engine.store.max(self.index(var)).unwrap_or(i32::MIN)
    }

    /// How many values `var` has left.
    pub fn size(&self, var: VarId) -> u32 {
        self.engine.store.size(self.index(var))
    }

    /// The current domain of `var`, read in place.
    pub fn domain(&self, var: VarId) -> DomainView<'_> {
        self.engine.store.view(self.index(var))
    }

    /// Whether `var` can still take `value`.
    pub fn contains(&self, var: VarId, value: i32) -> bool {
        self.engine
            .store
            .contains(self.index(var), i64::from(value))
    }

    /// The value of `var` if it is fixed.
    pub fn value(&self, var: VarId) -> Option<i32> {
        self.engine.store.fixed_value(self.index(var))
    }

    /// The values `var` can still take, ascending.
    pub fn values(&self, var: VarId) -> impl Iterator<Item = i32> + '_ {
        self.domain(var).iter()
    }

    /// Removes `value` from `var` (nothing happens when it is not there). A wide domain
    /// (see [`MAX_BITSET_SPAN`](crate::domain::MAX_BITSET_SPAN)) keeps only its bounds, so
    /// from one of those only a bound is removed; a propagator checks its relation again
    /// once the variables are fixed, which makes this sound.
    ///
    /// # Errors
    /// [`Conflict`] when the domain becomes empty.
    pub fn remove(&mut self, var: VarId, value: i32) -> Result<(), Conflict> {
        if self.contains(var, value) {
            let before = self.size(var);
            let v = self.index(var);
            self.engine.remove(v, i64::from(value))?;
            self.narrowed |= self.size(var) != before;
        }
        Ok(())
    }

    /// Removes every value of `values` (ascending) from `var`. Unlike [`remove`](Self::remove)
    /// one value at a time, a run of them at either end of a wide domain takes the bound
    /// past the whole run: removed from the lowest up only, the upper bound would move by
    /// one value, and the propagator would run again for each.
    ///
    /// ```
    /// use bitcsp::{Conflict, Domains, Model, Propagator, Solver, VarId};
    /// // Keeps the multiples of three, value by value, in one run.
    /// #[derive(Debug)]
    /// struct Thirds([VarId; 1]);
    /// impl Propagator for Thirds {
    ///     fn name(&self) -> &str { "thirds" }
    ///     fn vars(&self) -> &[VarId] { &self.0 }
    ///     fn propagate(&self, d: &mut Domains<'_>) -> Result<(), Conflict> {
    ///         let x = self.0[0];
    ///         let others: Vec<i32> = d.values(x).filter(|v| v % 3 != 0).collect();
    ///         d.remove_values(x, &others)
    ///     }
    /// }
    /// let mut model = Model::new();
    /// let x = model.new_var(1..=2000)?; // wide: it keeps its bounds only
    /// model.post(Thirds([x]))?;
    /// let solution = Solver::new(&model).solve().solution().expect("a multiple of three");
    /// assert_eq!(solution.value(x), 3);
    /// # Ok::<(), bitcsp::ModelError>(())
    /// ```
    ///
    /// # Errors
    /// [`Conflict`] when the domain becomes empty.
    pub fn remove_values(&mut self, var: VarId, values: &[i32]) -> Result<(), Conflict> {
        for &value in values {
            self.remove(var, value)?;
        }
        // The run at the top, from the top down: below it, a value is gone already or
        // inside a wide domain, where it cannot go.
        for &value in values.iter().rev() {
            let max = self.max(var);
            if value < max {
                break;
            }
            if value == max {
                self.remove(var, value)?;
            }
        }
        Ok(())
    }

    /// Fixes `var` to `value`.
    ///
    /// # Errors
    /// [`Conflict`] when `var` cannot take `value`.
    pub fn fix(&mut self, var: VarId, value: i32) -> Result<(), Conflict> {
        if !self.contains(var, value) {
            return Err(Conflict);
        }
        if self.size(var) > 1 {
            self.narrowed = true;
            let v = self.index(var);
            self.engine.assign(v, i64::from(value))?;
        }
        Ok(())
    }

    /// Removes the values of `var` below `lo`.
    ///
    /// # Errors
    /// [`Conflict`] when none is left.
    pub fn set_min(&mut self, var: VarId, lo: i32) -> Result<(), Conflict> {
        self.restrict(var, Some(lo), None)
    }

    /// Removes the values of `var` above `hi`.
    ///
    /// # Errors
    /// [`Conflict`] when none is left.
    pub fn set_max(&mut self, var: VarId, hi: i32) -> Result<(), Conflict> {
        self.restrict(var, None, Some(hi))
    }

    fn restrict(&mut self, var: VarId, lo: Option<i32>, hi: Option<i32>) -> Result<(), Conflict> {
        let v = self.index(var);
        let changed = self
            .engine
            .restrict_range(v, lo.map(i128::from), hi.map(i128::from))?;
        self.narrowed |= changed;
        Ok(())
    }
}
