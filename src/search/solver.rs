//! Depth-first search with binary branching (`x = v`, then `x != v`) over the propagation
//! engine, written as a resumable state machine so that `solve`, `count` and the solution
//! iterator share one loop.

use std::sync::atomic::{AtomicBool, AtomicI64, AtomicU64, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use super::branch::{select_among, select_value, select_variable, ValueRule};
use super::limits::{Budget, Cutoff, SearchLimits};
use super::nogoods::{Check, Nogoods};
use super::outcome::{
    Count, CountStatus, Improvement, Optimum, SearchStatus, Solution, SolveResult, StopReason,
};
use super::restarts::{RestartPlan, Restarts};
use super::stats::Statistics;
use super::strategy::{LastConflict, SearchPhase, ValueOrder, ValueSymmetry, VariableOrder};
use crate::bits::is_single;
use crate::compiled::{Neighbours, VarInfo};
use crate::constraints::Constraint;
use crate::domain::{DomainView, MAX_BITSET_SPAN};
use crate::error::ModelError;
use crate::model::{Model, Objective, Sense, VarId};
use crate::propagate::{Conflict, Engine};
use crate::store::Store;

/// What a value rule decides: an assignment, or a half of the domain.
#[inline]
fn decision_of(rule: ValueRule) -> Decision {
    match rule {
        ValueRule::Ordered(ValueOrder::SplitLower) => Decision::AtMost,
        ValueRule::Ordered(ValueOrder::SplitUpper) => Decision::Above,
        _ => Decision::Assign,
    }
}

/// One branching decision on the search stack: `var = value` was tried at this level.
#[derive(Clone, Copy, Debug)]
struct Frame {
    var: u32,
    value: i64,
    /// Share of the whole search tree below this node (for progress).
    weight: f64,
    /// Values the variable had when the decision was taken.
    values: u32,
    /// With interchangeable values: the values no fixed variable used at this node, when
    /// `value` was one of them (all of them are then refuted together); else 0.
    fresh: u64,
    /// What the decision was: `var = value`, or a half of the domain.
    kind: Decision,
}

/// A decision, refuted by its opposite.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Decision {
    /// `var = value`, refuted by `var != value`.
    Assign,
    /// `var <= value`, refuted by `var > value`.
    AtMost,
    /// `var > value`, refuted by `var <= value`.
    Above,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Phase {
    /// Nothing propagated yet.
    Fresh,
    /// The domains hold a solution that has been reported.
    AtSolution,
    /// Between nodes.
    Running,
    /// The search space is exhausted or a limit stopped it.
    Done,
}

/// Why the search loop paused: a solution, the end of the tree, or a stop.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Pause {
    Solution,
    Exhausted,
    Stopped(StopReason),
}

/// How the search chooses: set by the user, unchanged by the searches.
#[derive(Clone, Debug)]
struct Strategy {
    variable_order: VariableOrder,
    value_order: ValueOrder,
    value_symmetry: ValueSymmetry,
    restarts: Restarts,
    /// Where the random values of restarted attempts start (0: the default stream).
    random_seed: u64,
    last_conflict: LastConflict,
    /// Whether an optimisation's decisions follow the best solution so far.
    solution_guided: bool,
    /// The search plan's phases, branched on before the rest of the variables.
    phases: Arc<[PlanPhase]>,
    /// The variables that tell solutions apart, if not all of them (see
    /// [`Solver::set_projection`]).
    projection: Option<Projection>,
    /// Whether the choice goes through [`Solver::choose_by_scan`]: a search plan, a
    /// projection, or a variable order with no fast path.
    scanning: bool,
}

impl Strategy {
    fn update_scanning(&mut self) {
        self.scanning = !self.phases.is_empty()
            || self.projection.is_some()
            || self.variable_order.is_plain_scan();
    }

    /// Whether `var` tells solutions apart: every variable does without a projection.
    fn projects(&self, var: usize) -> bool {
        self.projection
            .as_ref()
            .is_none_or(|p| p.member.get(var).copied().unwrap_or(false))
    }
}

/// The variables a projection keeps, as a list and as a membership table.
#[derive(Clone, Debug)]
struct Projection {
    vars: Arc<[u32]>,
    member: Arc<[bool]>,
}

/// A [`SearchPhase`] as the search reads it.
#[derive(Clone, Debug)]
struct PlanPhase {
    vars: Box<[u32]>,
    variable_order: VariableOrder,
    value_order: ValueOrder,
}

/// What a search learns as it goes; reset when a search starts.
#[derive(Clone, Debug)]
struct Learning {
    /// The restarts of the current search (none while counting or iterating).
    plan: RestartPlan,
    /// Refutations on the current path while restarts are planned: (depth, variable,
    /// value), by depth; each becomes a nogood at the next restart.
    refuted: Vec<(u32, u32, i64)>,
    /// What the restarts of this search taught.
    nogoods: Nogoods,
    /// Values the nogoods forbid, waiting to be removed.
    forbidden: Vec<(u32, i64)>,
    /// Each variable's conflict weight under [`VariableOrder::DomWdeg`] (empty under the
    /// other orders).
    conflict_weights: Vec<u32>,
    /// Under [`LastConflict::BranchFirst`], the variable whose decision failed last.
    culprit: Option<u32>,
    /// While optimising, the values the objective must keep to beat the best solution so
    /// far (branch and bound), enforced after every propagation.
    bound: Option<Bound>,
    /// Whether anything must be settled after a propagation (nogoods, or a bound): one
    /// test per node for searches that have neither.
    settling: bool,
    /// Under [`Solver::set_solution_guided`], each variable's value in the best solution
    /// so far (empty before the first): the value its decisions try first.
    guide: Vec<i64>,
}

/// The objective's bound while optimising: its variable may only take values in
/// `lo..=hi` (one side open).
#[derive(Clone, Copy, Debug)]
struct Bound {
    var: usize,
    lo: Option<i64>,
    hi: Option<i64>,
}

/// How much of the search tree has been explored, for progress reports.
#[derive(Clone, Debug)]
struct Tracking {
    /// Share of the tree already explored.
    explored: f64,
    /// Share of the tree below the current node.
    current_weight: f64,
    /// Where the share explored is published, if anywhere.
    sink: Option<Arc<AtomicU64>>,
}

/// The assumption levels of [`Solver::push`]. The first lives at the trail's root, where
/// its fixes are written in bulk as a search's root assumptions are; each further level
/// is a trail level. A search over them opens one more trail level of its own (its root,
/// where its assumptions go and where refutations at depth 0 land), closed when the next
/// search starts or a level is pushed or popped.
#[derive(Clone, Copy, Debug, Default)]
struct Levels {
    /// How many levels are open.
    open: usize,
    /// The first open level whose propagation failed (1-based), if any: while it is
    /// open, no search has a solution.
    failed: Option<usize>,
    /// Whether a search's root level is open above them.
    search_root: bool,
}

/// Searches the solutions of a [`Model`].
///
/// The solver takes a snapshot of the model when it is built; later changes to the model do
/// not affect it. Each of [`solve`](Solver::solve), [`count`](Solver::count) and
/// [`solutions`](Solver::solutions) starts a fresh search.
///
/// ```
/// use bitcsp::{Model, Solver, CountStatus};
/// // Four queens: one variable per column holding its row.
/// let mut model = Model::new();
/// let rows = model.new_vars(4, 0..=3)?;
/// model.all_different(&rows)?;
/// model.all_different_offset(&rows, &[0, 1, 2, 3])?;
/// model.all_different_offset(&rows, &[0, -1, -2, -3])?;
/// let mut solver = Solver::new(&model);
/// let count = solver.count(None);
/// assert_eq!((count.count, count.status), (2, CountStatus::Complete));
/// let first: Vec<i32> = rows.iter().map(|&r| solver.solve().solution().unwrap().value(r)).collect();
/// assert_eq!(first, vec![1, 3, 0, 2]);
/// # Ok::<(), bitcsp::ModelError>(())
/// ```
#[derive(Clone, Debug)]
pub struct Solver {
    constraints: Arc<[Constraint]>,
    engine: Engine,
    /// Working memory for the propagators, sized once when the solver is built.
    scratch: Vec<u64>,
    info: Arc<VarInfo>,
    strategy: Strategy,
    /// The model's objective, if it has one.
    objective: Option<Objective>,
    /// In a parallel optimisation, the best objective any subproblem has found, in
    /// minimising terms (negated when maximising): solutions must beat it too.
    shared_best: Option<Arc<AtomicI64>>,
    learning: Learning,
    limits: SearchLimits,
    budget: Budget,
    /// Fixes applied at the root before propagation (the user's, or a subproblem's).
    assumptions: Vec<(u32, i64)>,
    /// Values removed at the root of every search (see [`Solver::assume_excluded`]).
    exclusions: Vec<(u32, i64)>,
    /// Assumption levels open (see [`Solver::push`]); searches start from their state.
    levels: Levels,
    /// The decisions of the current path.
    stack: Vec<Frame>,
    phase: Phase,
    last: Pause,
    stats: Statistics,
    /// When the latest search started (`None` before the first): the clock is read when
    /// a search starts, not when the solver is built: a read of the clock is a visible
    /// share of solving an easy Sudoku, so each search reads it once.
    started: Option<Instant>,
    tracking: Tracking,
    #[cfg(test)]
    snapshots: Vec<Vec<Vec<u64>>>,
}

impl Solver {
    /// A solver for `model` with the default strategy (MRV with ties to the most unfixed
    /// neighbours, ascending values) and no limits.
    pub fn new(model: &Model) -> Self {
        let compiled = model.compiled();
        let store = Store::with_layout(
            model.domains(),
            Arc::clone(&compiled.layout),
            compiled.aux_words,
        );
        let constraints = Arc::clone(&compiled.constraints);
        let info = Arc::clone(&compiled.info);
        let engine = Engine::new(store, &constraints, Arc::clone(&compiled.watchers));
        let limits = SearchLimits::default();
        Solver {
            budget: Budget::unlimited(),
            constraints,
            engine,
            scratch: vec![0; compiled.scratch_words],
            info,
            strategy: Strategy {
                variable_order: VariableOrder::default(),
                value_order: ValueOrder::default(),
                value_symmetry: ValueSymmetry::default(),
                restarts: Restarts::default(),
                random_seed: 0,
                solution_guided: false,
                last_conflict: LastConflict::default(),
                phases: Arc::from([]),
                projection: None,
                scanning: false,
            },
            objective: model.objective(),
            shared_best: None,
            learning: Learning {
                plan: RestartPlan::none(),
                refuted: Vec::new(),
                nogoods: Nogoods::default(),
                forbidden: Vec::new(),
                conflict_weights: Vec::new(),
                culprit: None,
                bound: None,
                settling: false,
                guide: Vec::new(),
            },
            limits,
            // Grown as the search deepens (a few times per solver at most), so that a
            // search settled by the root's propagation never allocates it.
            stack: Vec::new(),
            phase: Phase::Fresh,
            last: Pause::Exhausted,
            stats: Statistics::default(),
            started: None,
            assumptions: Vec::new(),
            exclusions: Vec::new(),
            levels: Levels::default(),
            tracking: Tracking {
                explored: 0.0,
                current_weight: 1.0,
                sink: None,
            },
            #[cfg(test)]
            snapshots: Vec::new(),
        }
    }

    /// Sets the variable order for the following searches.
    pub fn set_variable_order(&mut self, order: VariableOrder) -> &mut Self {
        self.strategy.variable_order = order;
        self.strategy.update_scanning();
        self
    }

    /// Sets the search plan of the following searches: the search branches on the first
    /// phase's variables (each phase with its own orders) until they are all fixed, then
    /// on the next phase's, and so on, and last on the rest under the solver's own
    /// orders. An empty plan (the default) leaves every choice to those orders.
    ///
    /// ```
    /// use bitcsp::{Model, SearchPhase, Solver, ValueOrder, VariableOrder};
    /// let mut model = Model::new();
    /// let xs = model.new_vars(3, 0..=2)?;
    /// model.all_different(&xs)?;
    /// let mut solver = Solver::new(&model);
    /// solver.set_search_plan(&[SearchPhase {
    ///     vars: vec![xs[2]],
    ///     variable_order: VariableOrder::InputOrder,
    ///     value_order: ValueOrder::Descending,
    /// }])?;
    /// let first = solver.solve().solution().map(|s| s.value(xs[2]));
    /// assert_eq!(first, Some(2));
    /// # Ok::<(), bitcsp::ModelError>(())
    /// ```
    ///
    /// # Errors
    /// [`ModelError::UnknownVariable`] for a variable beyond this solver's model (the plan
    /// is then left as it was).
    pub fn set_search_plan(&mut self, phases: &[SearchPhase]) -> Result<&mut Self, ModelError> {
        let count = self.engine.store.num_vars();
        let unknown = phases
            .iter()
            .flat_map(|p| &p.vars)
            .find(|v| v.index() >= count);
        if let Some(&var) = unknown {
            return Err(ModelError::UnknownVariable { var, count });
        }
        self.strategy.phases = phases
            .iter()
            .map(|p| PlanPhase {
                vars: p.vars.iter().map(|v| v.index() as u32).collect(),
                variable_order: p.variable_order,
                value_order: p.value_order,
            })
            .collect();
        self.strategy.update_scanning();
        Ok(self)
    }

    /// Tells solutions apart by `vars` alone (`None`: by every variable, the default).
    /// Enumerating and counting then meet each assignment of `vars` that some solution
    /// extends once, with one such solution: the search branches on `vars` first (the
    /// search plan's phases and the variable order choosing among them), and once they
    /// are all fixed looks for one extension to the other variables, then goes back to
    /// the last decision on `vars`. For auxiliary variables that a model's constraints
    /// leave free (a FlatZinc model's introduced variables), which would otherwise
    /// repeat each solution once for every value they can take.
    ///
    /// ```
    /// use bitcsp::{Model, Solver};
    /// let mut m = Model::new();
    /// let x = m.new_var(1..=3)?;
    /// let free = m.new_var(1..=4)?;
    /// m.not_equal(x, free)?;
    /// let mut solver = Solver::new(&m);
    /// assert_eq!(solver.count(None).count, 9);
    /// solver.set_projection(Some(&[x]))?;
    /// assert_eq!(solver.count(None).count, 3);
    /// # Ok::<(), bitcsp::ModelError>(())
    /// ```
    ///
    /// # Errors
    /// [`ModelError::UnknownVariable`] for a variable beyond this solver's model (the
    /// projection is then left as it was).
    pub fn set_projection(&mut self, vars: Option<&[VarId]>) -> Result<&mut Self, ModelError> {
        let count = self.engine.store.num_vars();
        let Some(vars) = vars else {
            self.strategy.projection = None;
            self.strategy.update_scanning();
            return Ok(self);
        };
        if let Some(&var) = vars.iter().find(|v| v.index() >= count) {
            return Err(ModelError::UnknownVariable { var, count });
        }
        let mut member = vec![false; count];
        for v in vars {
            member[v.index()] = true;
        }
        let kept: Arc<[u32]> = (0..count as u32).filter(|&v| member[v as usize]).collect();
        // A projection onto every variable is none, and keeps the fast paths.
        self.strategy.projection = (kept.len() < count).then(|| Projection {
            vars: kept,
            member: member.into(),
        });
        self.strategy.update_scanning();
        Ok(self)
    }

    /// Sets whether the following searches branch first on the variable whose decision
    /// failed last (see [`LastConflict`]).
    pub fn set_last_conflict(&mut self, last_conflict: LastConflict) -> &mut Self {
        self.strategy.last_conflict = last_conflict;
        self
    }

    /// Sets the value order for the following searches.
    pub fn set_value_order(&mut self, order: ValueOrder) -> &mut Self {
        self.strategy.value_order = order;
        self
    }

    /// Declares whether renaming the values changes the model. With
    /// [`ValueSymmetry::Interchangeable`] (the colors of graph coloring) the search tries,
    /// at each node, only one of the values that no fixed variable uses, since the others
    /// would give renamed copies of the same subtree. Only for finding a solution or proving
    /// there is none: counts then count solutions up to renaming. Takes effect when every
    /// variable has a one-word domain of one common base, and is ignored otherwise.
    pub fn set_value_symmetry(&mut self, symmetry: ValueSymmetry) -> &mut Self {
        self.strategy.value_symmetry = symmetry;
        self
    }

    /// Sets when [`solve`](Solver::solve) restarts from the root (see [`Restarts`]).
    pub fn set_restarts(&mut self, restarts: Restarts) -> &mut Self {
        self.strategy.restarts = restarts;
        self
    }

    /// Sets the seed of the random values that restarted attempts draw (see
    /// [`Restarts::Luby`]) and that [`ValueOrder::Random`] draws: the same seed gives the
    /// same search, another seed another order of values (after the first restart, or
    /// from the first decision for the random order), and so maybe another solution. The
    /// default is 0. Other searches that never restart draw no random values.
    ///
    /// ```
    /// use bitcsp::{Model, Restarts, Solver};
    /// let mut model = Model::new();
    /// let x = model.new_vars(10, 0..=9)?;
    /// model.all_different(&x)?;
    /// model.all_different_offset(&x, &(0..10).collect::<Vec<_>>())?;
    /// model.all_different_offset(&x, &(0..10).map(|i| -i).collect::<Vec<_>>())?;
    /// let solve = |seed: u64| {
    ///     let mut solver = Solver::new(&model);
    ///     solver
    ///         .set_restarts(Restarts::Luby { scale: 1 })
    ///         .set_random_seed(seed);
    ///     let solution = solver.solve().solution().map(|s| s.values().to_vec());
    ///     (solution, solver.stats().nodes)
    /// };
    /// assert_eq!(solve(7), solve(7));
    /// # Ok::<(), bitcsp::ModelError>(())
    /// ```
    pub fn set_random_seed(&mut self, seed: u64) -> &mut Self {
        self.strategy.random_seed = seed;
        self
    }

    /// Sets whether [`optimize`](Solver::optimize) steers its decisions by the best
    /// solution so far: once a solution is found, each decision first tries the value its
    /// variable has in the best one, when the variable still has it, and otherwise the
    /// value order's choice. With [`Restarts`], each attempt then searches around the best
    /// solution, changing it where the bound on the objective and the conflicts force it,
    /// as a local search would, and a restarted attempt keeps the value order rather than
    /// random values: the best solution is what varies between attempts. This is
    /// solution-based phase saving (Demirović, Chu and Stuckey, CP 2018), and it finds good
    /// solutions of large scheduling models far sooner than plain branch and bound. The
    /// search stays complete: the optimum is still proved. Off by default; it changes
    /// only the order of the choices, and only while optimising.
    ///
    /// ```
    /// use bitcsp::{Model, Optimum, Relation, Restarts, Solver};
    /// let mut model = Model::new();
    /// let x = model.new_vars(6, 0..=9)?;
    /// model.all_different(&x)?;
    /// model.weighted_sum(&x[..3], &[1, 1, 1], Relation::AtLeast, 12)?;
    /// let total = model.minimize_sum(&x, &[3, 1, 4, 1, 5, 9])?;
    /// let plain = Solver::new(&model).optimize();
    /// let mut solver = Solver::new(&model);
    /// solver
    ///     .set_solution_guided(true)
    ///     .set_restarts(Restarts::Luby { scale: 10 });
    /// let guided = solver.optimize();
    /// // The same optimum, though not necessarily the same optimal solution.
    /// assert!(matches!(guided, Optimum::Optimal { .. }));
    /// assert_eq!(guided.best().map(|b| b.1), plain.best().map(|b| b.1));
    /// # Ok::<(), bitcsp::ModelError>(())
    /// ```
    pub fn set_solution_guided(&mut self, guided: bool) -> &mut Self {
        self.strategy.solution_guided = guided;
        self
    }

    /// Fixes each `(variable, value)` of `fixes` at the root of every following search,
    /// replacing the fixes given before (`&[]` clears them). One solver then answers many
    /// questions that differ only in some fixed variables — the puzzles of one Sudoku shape,
    /// a graph with a few vertices precolored — without copying and compiling the model
    /// and allocating its store for each, a set-up that costs as much as the search of an
    /// easy puzzle (`cargo bench --bench sudoku -- reused`). A value outside its variable's
    /// domain, or two fixes
    /// that contradict the constraints, leave the searches without a solution.
    ///
    /// ```
    /// use bitcsp::{Model, Solver};
    /// let mut model = Model::new();
    /// let xs = model.new_vars(3, 1..=3)?;
    /// model.all_different(&xs)?;
    /// let mut solver = Solver::new(&model);
    /// solver.assume(&[(xs[0], 3)])?;
    /// assert_eq!(solver.count(None).count, 2);
    /// solver.assume(&[(xs[0], 3), (xs[1], 3)])?;
    /// assert!(solver.solve().solution().is_none());
    /// solver.assume(&[])?;
    /// assert_eq!(solver.count(None).count, 6);
    /// # Ok::<(), bitcsp::ModelError>(())
    /// ```
    ///
    /// # Errors
    /// [`ModelError::UnknownVariable`] for a variable beyond this solver's model (the fixes
    /// are then left as they were). A variable of another model that happens to share an
    /// index with one of this model's is taken as that one, as everywhere in the API.
    pub fn assume(&mut self, fixes: &[(VarId, i32)]) -> Result<&mut Self, ModelError> {
        self.check_known(fixes)?;
        self.assumptions.clear();
        self.assumptions.extend(engine_pairs(fixes));
        Ok(self)
    }

    /// Refuses a pair whose variable is beyond this solver's model.
    fn check_known(&self, pairs: &[(VarId, i32)]) -> Result<(), ModelError> {
        let count = self.engine.store.num_vars();
        match pairs.iter().find(|(v, _)| v.index() >= count) {
            Some(&(var, _)) => Err(ModelError::UnknownVariable { var, count }),
            None => Ok(()),
        }
    }

    /// Makes `var ≠ value` for each pair an assumption of every following search, beside
    /// the fixes of [`assume`](Solver::assume) and until replaced (`&[]` removes them):
    /// "is there a solution other than this one at this variable?" is then one search.
    ///
    /// ```
    /// use bitcsp::{Model, Solver};
    /// let mut model = Model::new();
    /// let xs = model.new_vars(3, 1..=3)?;
    /// model.all_different(&xs)?;
    /// let mut solver = Solver::new(&model);
    /// solver.assume_excluded(&[(xs[0], 1), (xs[0], 2)])?;
    /// assert_eq!(solver.count(None).count, 2);
    /// solver.assume(&[(xs[1], 3)])?;
    /// assert!(solver.solve().solution().is_none());
    /// solver.assume_excluded(&[])?;
    /// assert_eq!(solver.count(None).count, 2);
    /// # Ok::<(), bitcsp::ModelError>(())
    /// ```
    ///
    /// # Errors
    /// [`ModelError::UnknownVariable`] for a variable beyond this solver's model, and
    /// [`ModelError::WideExclusion`] for a variable with a wide domain (which keeps no
    /// holes); the exclusions are then left as they were.
    pub fn assume_excluded(
        &mut self,
        exclusions: &[(VarId, i32)],
    ) -> Result<&mut Self, ModelError> {
        self.check_known(exclusions)?;
        if let Some(&(var, _)) = exclusions
            .iter()
            .find(|(v, _)| self.engine.store.is_wide(v.index()))
        {
            return Err(ModelError::WideExclusion { var });
        }
        self.exclusions.clear();
        self.exclusions.extend(engine_pairs(exclusions));
        Ok(self)
    }

    /// Opens an assumption level: `fixes` hold, beside those of the levels already open,
    /// until [`pop`](Solver::pop) closes it, and are propagated now. Every following search
    /// starts from the open levels' propagated state (its own [`assume`](Solver::assume)
    /// and [`assume_excluded`](Solver::assume_excluded) pairs applied over it) instead of
    /// propagating the root from scratch: for many related questions that share most of
    /// their fixes, as incremental SAT solvers take assumptions. Returns whether the
    /// levels are still consistent as far as propagation tells; when not, every search
    /// finds nothing until the failed level is popped.
    ///
    /// ```
    /// use bitcsp::{Model, Solver};
    /// let mut model = Model::new();
    /// let xs = model.new_vars(3, 1..=3)?;
    /// model.all_different(&xs)?;
    /// let mut solver = Solver::new(&model);
    /// assert!(solver.push(&[(xs[0], 1)])?);
    /// assert_eq!(solver.count(None).count, 2);
    /// assert!(solver.push(&[(xs[1], 3)])?);
    /// assert_eq!(solver.count(None).count, 1);
    /// solver.assume(&[(xs[2], 3)])?;
    /// assert!(solver.solve().solution().is_none());
    /// solver.assume(&[])?;
    /// assert!(!solver.push(&[(xs[2], 1)])?); // 1 is x0's already
    /// assert_eq!(solver.count(None).count, 0);
    /// solver.pop();
    /// solver.pop();
    /// assert_eq!(solver.count(None).count, 2);
    /// solver.pop();
    /// assert_eq!(solver.count(None).count, 6);
    /// # Ok::<(), bitcsp::ModelError>(())
    /// ```
    ///
    /// # Errors
    /// [`ModelError::UnknownVariable`] for a variable beyond this solver's model (no level
    /// is opened then).
    pub fn push(&mut self, fixes: &[(VarId, i32)]) -> Result<bool, ModelError> {
        self.check_known(fixes)?;
        self.close_search_levels();
        self.last = Pause::Exhausted;
        self.levels.open += 1;
        if self.levels.open == 1 {
            // The first level is the root: written after a reset, as a search's
            // assumptions are, with every propagator queued.
            self.engine.reset();
            #[cfg(test)]
            self.snapshots.clear();
        } else {
            // Opened over a failed level too, so that each pop closes its own level.
            self.open_level();
        }
        if self.levels.failed.is_some() {
            return Ok(false);
        }
        let consistent = if self.levels.open == 1 {
            !self.engine.store.any_empty()
                && engine_pairs(fixes)
                    .all(|(var, value)| self.engine.assign_after_reset(var as usize, value).is_ok())
        } else {
            engine_pairs(fixes).all(|(var, value)| self.engine.assign(var as usize, value).is_ok())
        };
        let consistent = self.propagate_fixes(consistent);
        if !consistent {
            self.levels.failed = Some(self.levels.open);
        }
        Ok(consistent)
    }

    /// Closes the newest assumption level opened by [`push`](Solver::push); false when
    /// none is open.
    pub fn pop(&mut self) -> bool {
        if self.levels.open == 0 {
            return false;
        }
        self.close_search_levels();
        // The latest search's solution is undone with its levels.
        self.last = Pause::Exhausted;
        if self.levels.open > 1 {
            self.close_level();
        }
        self.levels.open -= 1;
        if self.levels.failed.is_some_and(|f| f > self.levels.open) {
            self.levels.failed = None;
        }
        true
    }

    /// How many assumption levels are open (see [`push`](Solver::push)).
    pub fn pushed(&self) -> usize {
        self.levels.open
    }

    /// Stops each following search after `limit` nodes (`None`: no limit).
    pub fn set_node_limit(&mut self, limit: Option<u64>) -> &mut Self {
        self.limits.nodes = limit;
        self
    }

    /// Stops each following search after `limit` of wall-clock time (`None`: no limit).
    ///
    /// The clock is read between nodes, at intervals that adapt to what the nodes cost so
    /// that readings come about once a millisecond (at every node when nodes take longer,
    /// and at the first node after a restart), and inside a node's propagation between
    /// propagator runs, paced the same way: a long propagation stops in its middle. Only
    /// a single propagator run that takes long overshoots the limit, by that run.
    /// [`propagate`](Solver::propagate) and [`push`](Solver::push), which cannot report a
    /// stop, run their propagation to its end.
    pub fn set_time_limit(&mut self, limit: Option<Duration>) -> &mut Self {
        self.limits.time = limit;
        self
    }

    /// Stops the search soon after another thread sets `flag` to true.
    pub fn set_cancel_flag(&mut self, flag: Option<Arc<AtomicBool>>) -> &mut Self {
        self.limits.cancel = flag;
        self
    }

    /// Publishes the share of the search tree explored so far, as parts per billion, into
    /// `sink` every few hundred nodes and when the search ends. The share is the sum of the
    /// finished subtrees, each weighted by the product of 1/(values) along its path: cheap,
    /// monotone, and exact at the end (`1_000_000_000`).
    pub fn set_progress_sink(&mut self, sink: Option<Arc<AtomicU64>>) -> &mut Self {
        self.tracking.sink = sink;
        self
    }

    /// The progress sink, if any.
    pub(super) fn progress_sink(&self) -> Option<Arc<AtomicU64>> {
        self.tracking.sink.clone()
    }

    /// The share of the search tree explored by the latest search, from 0 to 1.
    pub fn progress(&self) -> f64 {
        self.tracking.explored.min(1.0)
    }

    /// The statistics of the latest search (so far, while iterating).
    pub fn stats(&self) -> Statistics {
        let mut stats = self.stats;
        if self.phase == Phase::AtSolution {
            // Paused at a solution: the clock is read here rather than at every solution
            // found (a count reads it once, at the end).
            stats.elapsed = self.elapsed();
        }
        stats
    }

    /// The time since the latest search started.
    fn elapsed(&self) -> Duration {
        self.started.map_or(Duration::ZERO, |t| t.elapsed())
    }

    /// Why the latest search stopped early, if it did.
    pub fn stop_reason(&self) -> Option<StopReason> {
        match self.last {
            Pause::Stopped(r) => Some(r),
            _ => None,
        }
    }

    /// Finds a solution: the first in search order, unless [`Restarts`] are set and the
    /// search reaches their budget (then the first one the restarted search reaches).
    pub fn solve(&mut self) -> SolveResult {
        match self.solve_in_place() {
            SearchStatus::Solved => SolveResult::Solution(self.current_solution()),
            SearchStatus::Unsatisfiable => SolveResult::Unsatisfiable,
            SearchStatus::Stopped(r) => SolveResult::Stopped(r),
        }
    }

    /// [`solve`](Solver::solve), leaving the solution in the solver instead of copying it
    /// into a [`Solution`]: read it with [`solved_value`](Solver::solved_value) until the
    /// next search starts. For callers that turn the values into their own form at once
    /// (a Sudoku board), and save the copy.
    ///
    /// ```
    /// use bitcsp::{queens, SearchStatus, Solver};
    /// let (model, rows) = queens::model(6)?;
    /// let mut solver = Solver::new(&model);
    /// assert_eq!(solver.solve_in_place(), SearchStatus::Solved);
    /// let placed: Vec<i32> = rows.iter().filter_map(|&r| solver.solved_value(r)).collect();
    /// assert!(queens::is_solution(&placed.iter().map(|&r| r as usize).collect::<Vec<_>>()));
    /// # Ok::<(), bitcsp::ModelError>(())
    /// ```
    pub fn solve_in_place(&mut self) -> SearchStatus {
        self.begin_search();
        self.learning.plan = self.restart_plan();
        match self.next_event() {
            Pause::Solution => {
                self.finish();
                SearchStatus::Solved
            }
            Pause::Exhausted => SearchStatus::Unsatisfiable,
            Pause::Stopped(r) => SearchStatus::Stopped(r),
        }
    }

    /// Whether the latest search (a [`solve_in_place`](Solver::solve_in_place), or a
    /// [`solutions`](Solver::solutions) iterator at its latest item) stopped at a solution,
    /// whose values [`solved_value`](Solver::solved_value) reads.
    #[inline]
    pub fn is_at_solution(&self) -> bool {
        self.last == Pause::Solution
    }

    /// The value of `var` in the solution that the latest search (a
    /// [`solve_in_place`](Solver::solve_in_place), or a [`solutions`](Solver::solutions)
    /// iterator at its latest item) stopped at; `None` when it did not stop at a solution,
    /// or for a variable of another model.
    #[inline]
    pub fn solved_value(&self, var: VarId) -> Option<i32> {
        (self.is_at_solution() && var.index() < self.engine.store.num_vars())
            .then(|| self.engine.store.single_value(var.index()))
    }

    /// The values of `vars` in the solution that the latest search stopped at, in order,
    /// each as [`solved_value`](Solver::solved_value) gives it (`None` for a variable of
    /// another model); `None` when that search did not stop at a solution. For callers
    /// that turn many values into their own form at once: the store's layout is looked
    /// at once for all of them.
    ///
    /// ```
    /// use bitcsp::{queens, SearchStatus, Solver};
    /// let (model, rows) = queens::model(8)?;
    /// let mut solver = Solver::new(&model);
    /// assert!(solver.solved_values(&rows).is_none(), "no search yet");
    /// assert_eq!(solver.solve_in_place(), SearchStatus::Solved);
    /// let placed: Vec<usize> = solver
    ///     .solved_values(&rows)
    ///     .expect("at a solution")
    ///     .map(|r| r.expect("a variable of the model") as usize)
    ///     .collect();
    /// assert!(queens::is_solution(&placed));
    /// # Ok::<(), bitcsp::ModelError>(())
    /// ```
    pub fn solved_values<'a>(
        &'a self,
        vars: &'a [VarId],
    ) -> Option<impl Iterator<Item = Option<i32>> + 'a> {
        if !self.is_at_solution() {
            return None;
        }
        let store = &self.engine.store;
        let count = store.num_vars();
        let value = store.single_values();
        Some(
            vars.iter()
                .map(move |v| (v.index() < count).then(|| value(v.index()))),
        )
    }

    /// Finds an optimal solution of a model with an objective ([`Model::minimize`] and
    /// friends) by branch and bound in one search: each solution found tightens the
    /// objective's bound in place (the next must be strictly better), until the search
    /// proves that none is. The answer is the last improvement the search found: the same
    /// for the same model, strategy and assumptions (the bound steers the search, so it
    /// need not be the optimal solution that plain enumeration meets first). Limits,
    /// assumptions and restarts apply as to
    /// [`solve`](Solver::solve); a model without an objective gets its first solution,
    /// with objective 0.
    ///
    /// ```
    /// use bitcsp::{Model, Optimum, Relation, Solver};
    /// // Two items of weights 3 and 4, values 4 and 5, capacity 6: take the second.
    /// let mut model = Model::new();
    /// let take = model.new_vars(2, 0..=1)?;
    /// model.weighted_sum(&take, &[3, 4], Relation::AtMost, 6)?;
    /// let value = model.maximize_sum(&take, &[4, 5])?;
    /// match Solver::new(&model).optimize() {
    ///     Optimum::Optimal { solution, objective } => {
    ///         assert_eq!(objective, 5);
    ///         assert_eq!((solution.value(take[0]), solution.value(take[1])), (0, 1));
    ///         assert_eq!(solution.value(value), 5);
    ///     }
    ///     other => panic!("{other:?}"),
    /// }
    /// # Ok::<(), bitcsp::ModelError>(())
    /// ```
    pub fn optimize(&mut self) -> Optimum {
        self.optimize_with(|_| {})
    }

    /// [`optimize`](Solver::optimize), calling `on_improvement` with each solution that
    /// is better than every one before it, as it is found.
    pub fn optimize_with(&mut self, mut on_improvement: impl FnMut(&Improvement<'_>)) -> Optimum {
        let Some(objective) = self.objective else {
            return match self.solve() {
                SolveResult::Solution(solution) => Optimum::Optimal {
                    solution,
                    objective: 0,
                },
                SolveResult::Unsatisfiable => Optimum::Infeasible,
                SolveResult::Stopped(reason) => Optimum::Unknown(reason),
            };
        };
        let var = objective.var.index();
        // The root's bound on the objective: what a stopped search can still promise.
        let root_bound = match self.propagate_within_limits() {
            Err(Some(reason)) => return Optimum::Unknown(reason),
            Err(None) => return Optimum::Infeasible,
            Ok(()) => match objective.sense {
                Sense::Minimize => self.engine.store.min(var),
                Sense::Maximize => self.engine.store.max(var),
            },
        };
        let root_bound = i64::from(root_bound.unwrap_or_default());
        self.begin_search();
        self.learning.plan = self.restart_plan();
        if self.shared_best.is_some() {
            // Another subproblem's solutions bound this search from the start.
            self.learning.bound = Some(Bound {
                var,
                lo: None,
                hi: None,
            });
            self.learning.settling = true;
        }
        let mut best: Option<(Solution, i64)> = None;
        loop {
            match self.next_event() {
                Pause::Solution => {
                    let value = i64::from(self.engine.store.single_value(var));
                    let solution = self.current_solution();
                    on_improvement(&Improvement {
                        solution: &solution,
                        objective: value,
                        elapsed: self.elapsed(),
                    });
                    best = Some((solution, value));
                    if self.strategy.solution_guided {
                        self.remember_guide();
                    }
                    if let Some(shared) = &self.shared_best {
                        let minimising = match objective.sense {
                            Sense::Minimize => value,
                            Sense::Maximize => -value,
                        };
                        shared.fetch_min(minimising, Ordering::Relaxed);
                    }
                    let (lo, hi) = match objective.sense {
                        Sense::Minimize => (None, Some(value - 1)),
                        Sense::Maximize => (Some(value + 1), None),
                    };
                    self.learning.bound = Some(Bound { var, lo, hi });
                    self.learning.settling = true;
                }
                Pause::Exhausted => {
                    return match best {
                        Some((solution, objective)) => Optimum::Optimal {
                            solution,
                            objective,
                        },
                        None => Optimum::Infeasible,
                    }
                }
                Pause::Stopped(reason) => {
                    return match best {
                        Some((solution, objective)) => Optimum::Feasible {
                            solution,
                            objective,
                            bound: root_bound,
                            reason,
                        },
                        None => Optimum::Unknown(reason),
                    }
                }
            }
        }
    }

    /// Propagates the root (the model's constraints under the assumptions, as every
    /// search starts) and leaves the fixed point for [`domain`](Solver::domain) to read,
    /// until the next search starts.
    ///
    /// ```
    /// use bitcsp::{Model, Solver};
    /// let mut model = Model::new();
    /// let x = model.new_var(1..=3)?;
    /// let y = model.new_var(1..=3)?;
    /// model.all_different(&[x, y])?;
    /// model.fix(x, 2)?;
    /// let mut solver = Solver::new(&model);
    /// assert!(solver.propagate().is_ok());
    /// let y_values: Vec<i32> = solver.domain(y).map(|d| d.iter().collect()).unwrap_or_default();
    /// assert_eq!(y_values, vec![1, 3]);
    /// # Ok::<(), bitcsp::ModelError>(())
    /// ```
    ///
    /// # Errors
    /// [`Conflict`] when the root has no solution.
    pub fn propagate(&mut self) -> Result<(), Conflict> {
        self.begin_search();
        self.phase = Phase::Done;
        self.last = Pause::Exhausted;
        if self.propagate_root() {
            Ok(())
        } else {
            Err(Conflict)
        }
    }

    /// [`propagate`](Solver::propagate) under the time limit and the cancellation flags,
    /// which may stop it in its middle: `Err(Some(reason))` then, `Err(None)` when the
    /// root has no solution.
    pub(crate) fn propagate_within_limits(&mut self) -> Result<(), Option<StopReason>> {
        self.begin_search();
        self.phase = Phase::Done;
        let budget = self.budget.clone();
        let root = self.propagate_root_within(&budget);
        self.last = match root {
            Err(Some(reason)) => Pause::Stopped(reason),
            _ => Pause::Exhausted,
        };
        root
    }

    /// [`Solver::propagate_root`] with the engine reading `budget`'s signal:
    /// `Err(Some(reason))` when the signal stopped the propagation, `Err(None)` when the
    /// root fails.
    fn propagate_root_within(&mut self, budget: &Budget) -> Result<(), Option<StopReason>> {
        self.engine.interruption.arm(budget.signal());
        let consistent = self.propagate_root();
        let stopped = self.engine.interruption.stopped();
        self.engine.interruption.disarm();
        match (stopped, consistent) {
            (true, _) => Err(Some(budget.interrupted_by())),
            (false, true) => Ok(()),
            (false, false) => Err(None),
        }
    }

    /// The current domain of `var` (after [`propagate`](Solver::propagate), or at the
    /// solution a search stopped at), read in place; `None` for a variable of another
    /// model.
    pub fn domain(&self, var: VarId) -> Option<DomainView<'_>> {
        let v = var.index();
        (v < self.engine.store.num_vars()).then(|| self.engine.store.view(v))
    }

    /// Counts solutions, stopping once `limit` have been found (`None`: count them all).
    /// Counting allocates nothing per solution.
    pub fn count(&mut self, limit: Option<u64>) -> Count {
        self.begin_search();
        let limit = limit.unwrap_or(u64::MAX);
        let mut count = 0;
        if limit == 0 {
            return Count {
                count,
                status: CountStatus::LimitReached,
            };
        }
        loop {
            match self.next_event() {
                Pause::Solution => {
                    count += 1;
                    if count >= limit {
                        self.finish();
                        return Count {
                            count,
                            status: CountStatus::LimitReached,
                        };
                    }
                }
                Pause::Exhausted => {
                    return Count {
                        count,
                        status: CountStatus::Complete,
                    }
                }
                Pause::Stopped(r) => {
                    return Count {
                        count,
                        status: CountStatus::Stopped(r),
                    }
                }
            }
        }
    }

    /// Iterates over all solutions in search order (deterministic for a given model and
    /// strategy). After the iterator ends, [`stop_reason`](Solver::stop_reason) tells whether
    /// a limit cut it short.
    pub fn solutions(&mut self) -> Solutions<'_> {
        self.begin_search();
        Solutions { solver: self }
    }

    fn begin_search(&mut self) {
        self.tracking.explored = 0.0;
        self.tracking.current_weight = 1.0;
        if self.levels.open > 0 {
            self.close_search_levels();
            self.engine.propagations = 0;
        } else {
            self.engine.reset();
            #[cfg(test)]
            self.snapshots.clear();
        }
        self.stack.clear();
        self.phase = Phase::Fresh;
        self.stats = Statistics::default();
        self.learning.plan = RestartPlan::seeded(self.strategy.random_seed);
        self.learning.refuted.clear();
        self.learning.nogoods.clear();
        self.learning.bound = None;
        self.learning.settling = false;
        self.learning.guide.clear();
        let now = Instant::now();
        self.started = Some(now);
        self.budget.start_over(&self.limits, now);
        self.learning.conflict_weights.clear();
        self.learning.culprit = None;
        let weighs = |order| order == VariableOrder::DomWdeg;
        if weighs(self.strategy.variable_order)
            || self
                .strategy
                .phases
                .iter()
                .any(|p| weighs(p.variable_order))
        {
            self.learning
                .conflict_weights
                .resize(self.engine.store.num_vars(), 1);
        }
    }

    /// Ends a search (`solve` and `count` also end it at a solution): the clock stops,
    /// and a later search starts afresh.
    fn finish(&mut self) {
        self.phase = Phase::Done;
        self.stats.elapsed = self.elapsed();
    }

    fn current_solution(&self) -> Solution {
        Solution::new(self.engine.store.values())
    }

    fn next_event(&mut self) -> Pause {
        self.engine.interruption.arm(self.budget.signal());
        let mut event = self.run();
        if self.engine.interruption.stopped() {
            // A propagation stopped in its middle: the search unwound from there at once,
            // and the failure it reported is none.
            debug_assert_ne!(event, Pause::Solution);
            event = Pause::Stopped(self.budget.interrupted_by());
        }
        self.engine.interruption.disarm();
        self.last = event;
        self.stats.propagations = self.engine.propagations;
        if event != Pause::Solution {
            self.finish();
        }
        if event == Pause::Exhausted {
            self.tracking.explored = 1.0;
        }
        self.publish_progress();
        event
    }

    fn run(&mut self) -> Pause {
        match self.phase {
            Phase::Done => return self.last,
            Phase::Fresh => {
                self.phase = Phase::Running;
                if let Some(reason) = self.budget.check_clock() {
                    return Pause::Stopped(reason);
                }
                if !self.propagate_root() {
                    // A stopped propagation is no failure (`next_event` reports the stop).
                    if !self.engine.interruption.stopped() {
                        self.stats.failures += 1;
                    }
                    return Pause::Exhausted;
                }
            }
            Phase::AtSolution => {
                self.phase = Phase::Running;
                self.leave_extension();
                if !self.backtrack() {
                    return Pause::Exhausted;
                }
            }
            Phase::Running => {}
        }
        loop {
            if self.stats.failures >= self.learning.plan.due_at && !self.restart_from_root() {
                return Pause::Exhausted;
            }
            let Some(var) = self.choose() else {
                self.phase = Phase::AtSolution;
                self.stats.solutions += 1;
                self.tracking.explored += self.tracking.current_weight;
                return Pause::Solution;
            };
            if let Some(reason) = self.budget.check(self.stats.nodes) {
                return Pause::Stopped(reason);
            }
            if self.stats.nodes % 1024 == 0 {
                self.publish_progress();
            }
            let order = self.value_order_of(var);
            let shuffled = self.learning.plan.shuffles() && !self.strategy.solution_guided;
            let rule = if shuffled || order == ValueOrder::Random {
                ValueRule::Random(self.learning.plan.next_random())
            } else {
                ValueRule::Ordered(order)
            };
            let mut value = select_value(&self.engine.store, &self.info, var, rule);
            let kind = decision_of(rule);
            if !self.learning.guide.is_empty() && kind == Decision::Assign {
                value = self.guided_value(var, value);
            }
            // A split leaves half the values on each side.
            let (values, fresh) = if kind == Decision::Assign {
                (self.engine.store.size(var), self.fresh_values(var, value))
            } else {
                (2, 0)
            };
            self.stats.nodes += 1;
            self.open_level();
            self.stack.push(Frame {
                var: var as u32,
                value,
                weight: self.tracking.current_weight,
                values,
                fresh,
                kind,
            });
            self.tracking.current_weight /= f64::from(values);
            self.stats.max_depth = self.stats.max_depth.max(self.stack.len() as u64);
            let decided = if kind == Decision::Assign {
                self.engine.assign(var, value)
            } else {
                self.decide_half(var, value, kind == Decision::AtMost)
            };
            let ok = decided.is_ok()
                && self
                    .engine
                    .propagate(&self.constraints, &mut self.scratch)
                    .is_ok()
                && self.settle();
            if !ok {
                if self.engine.interruption.stopped() {
                    return Pause::Exhausted;
                }
                self.note_failure();
                if self.strategy.last_conflict == LastConflict::BranchFirst {
                    self.learning.culprit = Some(var as u32);
                }
                if !self.backtrack() {
                    return Pause::Exhausted;
                }
            }
        }
    }

    /// Abandons the current path: its refutations become nogoods, every decision is
    /// undone (the root's propagation stays) and the next attempt starts. False when the
    /// nogoods prove that the model has no solution.
    #[cold]
    #[inline(never)]
    fn restart_from_root(&mut self) -> bool {
        // Back to the root first: the nogoods leave out what holds there. The frames stay
        // until the nogoods are built from their decisions.
        for _ in 0..self.stack.len() {
            self.close_level();
        }
        let mut consistent = true;
        for &(depth, var, value) in &self.learning.refuted {
            // A refutation at the root is kept by the root's domains already.
            if depth > 0 {
                let path = self.stack[..depth as usize].iter();
                let lits = path.map(|f| (f.var, f.value)).chain([(var, value)]);
                let check = self.learning.nogoods.add(
                    &self.engine.store,
                    lits,
                    &mut self.learning.forbidden,
                );
                consistent &= check != Check::Conflict;
            }
        }
        self.learning.refuted.clear();
        self.stack.clear();
        self.learning.plan.restarted(self.stats.failures);
        self.budget.restarted(self.stats.nodes);
        self.stats.restarts += 1;
        self.stats.nogoods = self.learning.nogoods.len() as u64;
        self.learning.settling |= self.learning.nogoods.len() > 0;
        // The share explored so far was of a tree the next attempt orders differently.
        self.tracking.explored = 0.0;
        self.tracking.current_weight = 1.0;
        let settled = consistent && self.remove_forbidden() && self.settle();
        if !settled {
            self.learning.forbidden.clear();
            if !self.engine.interruption.stopped() {
                self.stats.failures += 1;
            }
        }
        settled
    }

    /// After a propagation: enforces the objective's bound and removes the values the
    /// nogoods forbid, propagating until both are quiet; false on a conflict.
    #[inline]
    fn settle(&mut self) -> bool {
        if !self.learning.settling {
            return true;
        }
        self.settle_slowly()
    }

    /// [`Solver::settle`] when there is a bound or nogoods (outlined: most searches have
    /// neither, and their loop stays small).
    #[inline(never)]
    fn settle_slowly(&mut self) -> bool {
        if let Some(mut bound) = self.learning.bound {
            if let (Some(shared), Some(objective)) = (&self.shared_best, self.objective) {
                let best = shared.load(Ordering::Relaxed);
                if best != i64::MAX {
                    match objective.sense {
                        Sense::Minimize => {
                            bound.hi = Some(bound.hi.map_or(best - 1, |h| h.min(best - 1)))
                        }
                        Sense::Maximize => {
                            bound.lo = Some(bound.lo.map_or(1 - best, |l| l.max(1 - best)))
                        }
                    }
                }
            }
            let narrowed = self.engine.restrict_range(
                bound.var,
                bound.lo.map(i128::from),
                bound.hi.map(i128::from),
            );
            match narrowed {
                Err(_) => return false,
                Ok(true) => {
                    let propagated = self.engine.propagate(&self.constraints, &mut self.scratch);
                    if propagated.is_err() {
                        return false;
                    }
                }
                Ok(false) => {}
            }
        }
        if self.learning.nogoods.len() == 0 {
            return true;
        }
        loop {
            let depth = self.stack.len() as u32;
            match self.learning.nogoods.check(
                &self.engine.store,
                depth,
                &mut self.learning.forbidden,
            ) {
                Check::Quiet => return true,
                Check::Conflict => {
                    self.learning.forbidden.clear();
                    return false;
                }
                Check::Remove => {
                    if !self.remove_forbidden() {
                        return false;
                    }
                }
            }
        }
    }

    /// Removes the values in `forbidden` and propagates; false on a conflict.
    fn remove_forbidden(&mut self) -> bool {
        let engine = &mut self.engine;
        let removed = self
            .learning
            .forbidden
            .drain(..)
            .all(|(var, value)| engine.remove(var as usize, value).is_ok());
        removed
            && self
                .engine
                .propagate(&self.constraints, &mut self.scratch)
                .is_ok()
    }

    /// Applies the assumptions and propagates the root; false when that fails (or a domain
    /// was empty from the start).
    fn propagate_root(&mut self) -> bool {
        if self.levels.open > 0 {
            return self.propagate_root_over_levels();
        }
        let emptied = self.engine.store.any_empty();
        let assumed =
            self.assumptions
                .iter()
                .all(|&(var, value)| self.engine.assign_after_reset(var as usize, value).is_ok())
                && self.exclusions.iter().all(|&(var, value)| {
                    self.engine.exclude_after_reset(var as usize, value).is_ok()
                });
        self.propagate_fixes(!emptied && assumed)
    }

    /// Propagates fixes just written at a root (a search's, or an assumption level's) when
    /// they held (`written`); false on a conflict, with what was still queued dropped.
    fn propagate_fixes(&mut self, written: bool) -> bool {
        let consistent = written
            && self
                .engine
                .propagate(&self.constraints, &mut self.scratch)
                .is_ok();
        if !consistent {
            self.engine.abandon_queue();
        }
        consistent
    }

    /// [`Solver::propagate_root`] over open assumption levels: the levels' state is
    /// already propagated, so the assumptions are applied on a level of the search's own
    /// and only what they wake runs.
    fn propagate_root_over_levels(&mut self) -> bool {
        if self.levels.failed.is_some() {
            return false;
        }
        self.open_level();
        self.levels.search_root = true;
        let engine = &mut self.engine;
        let assumed = self
            .assumptions
            .iter()
            .all(|&(var, value)| engine.assign(var as usize, value).is_ok())
            && self
                .exclusions
                .iter()
                .all(|&(var, value)| engine.remove(var as usize, value).is_ok());
        self.propagate_fixes(assumed)
    }

    /// Closes the latest search's levels (its decisions' and its root's), back to the
    /// state of the open assumption levels.
    fn close_search_levels(&mut self) {
        for _ in 0..self.stack.len() {
            self.close_level();
        }
        self.stack.clear();
        if self.levels.search_root {
            self.close_level();
            self.levels.search_root = false;
        }
        self.phase = Phase::Done;
    }

    /// The model's objective, for the parallel optimisation.
    pub(super) fn objective(&self) -> Option<Objective> {
        self.objective
    }

    /// Shares the best objective between the subproblems of a parallel optimisation.
    pub(super) fn set_shared_best(&mut self, shared: Option<Arc<AtomicI64>>) {
        self.shared_best = shared;
    }

    /// Sets the root fixes of a subproblem.
    pub(super) fn set_assumptions(&mut self, assumptions: Vec<(u32, i64)>) {
        self.assumptions = assumptions;
    }

    /// The root fixes: the user's (see [`assume`](Solver::assume)), or a subproblem's.
    pub(super) fn assumptions(&self) -> &[(u32, i64)] {
        &self.assumptions
    }

    /// The limits, for the subproblem solvers of a split search.
    pub(super) fn limits(&self) -> &SearchLimits {
        &self.limits
    }

    /// Stops the following searches once the split's results are settled before this
    /// subproblem (see [`Cutoff`]).
    pub(super) fn set_cutoff(&mut self, cutoff: Option<Cutoff>) {
        self.limits.cutoff = cutoff;
    }

    /// Adds a subproblem's statistics to this solver's.
    pub(super) fn absorb(&mut self, other: &Statistics) {
        self.stats.nodes += other.nodes;
        self.stats.failures += other.failures;
        self.stats.propagations += other.propagations;
        self.stats.solutions += other.solutions;
        self.stats.max_depth = self.stats.max_depth.max(other.max_depth);
    }

    /// Adds the statistics of an earlier search of the same call, its time included.
    pub(super) fn absorb_earlier(&mut self, earlier: &Statistics) {
        self.absorb(earlier);
        self.stats.restarts += earlier.restarts;
        self.stats.nogoods += earlier.nogoods;
        self.stats.elapsed += earlier.elapsed;
    }

    /// Resets the statistics before a split search.
    pub(super) fn begin_split(&mut self) {
        self.stats = Statistics::default();
        self.started = Some(Instant::now());
    }

    /// Ends a split search: elapsed time, and why it stopped.
    pub(super) fn end_split(&mut self, stop: Option<StopReason>) {
        self.stats.elapsed = self.elapsed();
        self.last = stop.map_or(Pause::Exhausted, Pause::Stopped);
        self.tracking.explored = 1.0;
    }

    /// Propagates the root under the current assumptions and names the branching variable
    /// and its values in the value order: `Err(None)` when the root fails, `Ok(None)` when
    /// every variable is fixed. `budget`'s limits may stop the propagation in its middle:
    /// `Err(Some(reason))` then.
    pub(super) fn root_branch(
        &mut self,
        budget: &Budget,
    ) -> Result<Option<(u32, Vec<i64>)>, Option<StopReason>> {
        self.begin_search();
        self.phase = Phase::Running;
        self.propagate_root_within(budget)?;
        // A split on a variable outside the projection would give two parts the same
        // solutions: such a part is left whole.
        // Nor is one on a variable with more values than a bitset holds: as many parts,
        // each a root propagation, and listing a wide range value by value could outlast
        // the search and its limits.
        let Some(var) = self
            .choose()
            .filter(|&v| self.strategy.projects(v))
            .filter(|&v| u64::from(self.engine.store.size(v)) <= MAX_BITSET_SPAN)
        else {
            return Ok(None);
        };
        // The split lists values: a split order lists them in its direction.
        let value_order = match self.value_order_of(var) {
            ValueOrder::SplitLower | ValueOrder::Random => ValueOrder::Ascending,
            ValueOrder::SplitUpper => ValueOrder::Descending,
            order => order,
        };
        // Take the values off one by one in the value order, then undo the removals.
        let mut values = Vec::new();
        self.engine.store.push_level();
        loop {
            let value = select_value(
                &self.engine.store,
                &self.info,
                var,
                ValueRule::Ordered(value_order),
            );
            values.push(value);
            if self.engine.store.size(var) <= 1 {
                break;
            }
            // As the search's refutation does: past an unused value of interchangeable
            // values, every unused value is done with (see `fresh_values`).
            let fresh = self.fresh_values(var, value);
            if self.refute(var, value, fresh).is_err() {
                break;
            }
        }
        self.engine.abandon_queue();
        self.engine.store.pop_level();
        Ok(Some((var as u32, values)))
    }

    fn publish_progress(&self) {
        if let Some(sink) = &self.tracking.sink {
            sink.store((self.progress() * 1e9) as u64, Ordering::Relaxed);
        }
    }

    /// Undoes decisions until one whose refutation `x != v` propagates without failure;
    /// false when the stack empties (the search space is exhausted).
    fn backtrack(&mut self) -> bool {
        while let Some(frame) = self.stack.pop() {
            self.close_level();
            if self.learning.plan.is_active() {
                self.record_refutation(&frame);
            }
            // The refuted branch holds the other values of the variable.
            self.tracking.current_weight = frame.weight - frame.weight / f64::from(frame.values);
            let refuted = match frame.kind {
                Decision::Assign => self.refute(frame.var as usize, frame.value, frame.fresh),
                Decision::AtMost => self.decide_half(frame.var as usize, frame.value, false),
                Decision::Above => self.decide_half(frame.var as usize, frame.value, true),
            };
            let ok = refuted.is_ok()
                && self
                    .engine
                    .propagate(&self.constraints, &mut self.scratch)
                    .is_ok()
                && self.settle();
            if ok {
                return true;
            }
            if self.engine.interruption.stopped() {
                return false;
            }
            self.note_failure();
        }
        false
    }

    /// After a solution under a projection: undoes the decisions on variables outside it
    /// without trying their other values (another extension of the same projected values
    /// would be the same solution). Those decisions are the deepest, since the search
    /// fixes the projection's variables first.
    fn leave_extension(&mut self) {
        while let Some(frame) = self.stack.last() {
            if self.strategy.projects(frame.var as usize) {
                return;
            }
            // The values left untried count as explored.
            self.tracking.explored += frame.weight - frame.weight / f64::from(frame.values);
            self.stack.pop();
            self.close_level();
        }
    }

    /// The variable to branch on next, or `None` when every variable is fixed: the search
    /// plan's choice while a phase has an unfixed variable, else the solver's own.
    #[inline]
    fn choose(&self) -> Option<usize> {
        if self.strategy.variable_order == VariableOrder::MrvDynamicDegree
            && self.info.neighbours.get().is_none()
        {
            self.build_neighbours_if_unfixed();
        }
        if self.strategy.scanning {
            return self.choose_by_scan();
        }
        self.select_variable()
    }

    /// The value order for `var`, chosen by [`choose`](Self::choose): its phase's, else the
    /// solver's.
    #[inline]
    fn value_order_of(&self, var: usize) -> ValueOrder {
        if self.strategy.phases.is_empty() {
            return self.strategy.value_order;
        }
        self.phase_value_order(var)
    }

    /// The value order of the first phase holding `var`: the phase that chose it, since
    /// every variable of the phases before it is fixed.
    #[cold]
    #[inline(never)]
    fn phase_value_order(&self, var: usize) -> ValueOrder {
        let phase = self
            .strategy
            .phases
            .iter()
            .find(|p| p.vars.contains(&(var as u32)));
        phase.map_or(self.strategy.value_order, |p| p.value_order)
    }

    /// [`choose`](Self::choose) with a search plan or an order with no fast path: the first
    /// phase of the plan with an unfixed variable chooses, else the solver's own order.
    #[cold]
    #[inline(never)]
    fn choose_by_scan(&self) -> Option<usize> {
        if let Some(projection) = &self.strategy.projection {
            if let Some(var) = self.choose_projected(projection) {
                return Some(var);
            }
        }
        let store = &self.engine.store;
        let weights = &self.learning.conflict_weights;
        let in_plan = self.strategy.phases.iter().find_map(|phase| {
            let candidates = phase.vars.iter().map(|&v| v as usize);
            select_among(store, &self.info, phase.variable_order, weights, candidates)
        });
        if in_plan.is_some() {
            return in_plan;
        }
        let order = self.strategy.variable_order;
        if !order.is_plain_scan() {
            return self.select_variable();
        }
        self.open_culprit()
            .or_else(|| select_among(store, &self.info, order, weights, 0..store.num_vars()))
    }

    /// [`choose_by_scan`](Self::choose_by_scan) among the variables of a projection,
    /// which are all fixed before any other is branched on: the plan's phases, then the
    /// last failed decision's variable, then the solver's order; `None` when they are all
    /// fixed.
    fn choose_projected(&self, projection: &Projection) -> Option<usize> {
        let store = &self.engine.store;
        let weights = &self.learning.conflict_weights;
        let kept = |v: &&u32| projection.member[**v as usize];
        let in_plan = self.strategy.phases.iter().find_map(|phase| {
            let candidates = phase.vars.iter().filter(kept).map(|&v| v as usize);
            select_among(store, &self.info, phase.variable_order, weights, candidates)
        });
        in_plan
            .or_else(|| self.open_culprit().filter(|&x| projection.member[x]))
            .or_else(|| {
                let candidates = projection.vars.iter().map(|&v| v as usize);
                select_among(
                    store,
                    &self.info,
                    self.strategy.variable_order,
                    weights,
                    candidates,
                )
            })
    }

    /// The last failed decision's variable while it is unfixed
    /// ([`LastConflict::BranchFirst`]).
    #[inline]
    fn open_culprit(&self) -> Option<usize> {
        let x = self.learning.culprit? as usize;
        (self.engine.store.size(x) > 1).then_some(x)
    }

    /// The variable to branch on next, or `None` when every variable is fixed: the last
    /// failed decision's variable while it is unfixed ([`LastConflict::BranchFirst`]),
    /// else the variable order's choice (one with a fast path: see
    /// [`VariableOrder::is_plain_scan`]).
    #[inline]
    fn select_variable(&self) -> Option<usize> {
        if let Some(x) = self.open_culprit() {
            return Some(x);
        }
        select_variable(
            &self.engine.store,
            &self.info,
            self.strategy.variable_order,
            &self.learning.conflict_weights,
        )
    }

    /// Builds the neighbour lists of the dynamic-degree tie-break when a variable is still
    /// unfixed: built at the first decision rather than with the solver, a model that
    /// propagation alone solves (most jigsaw puzzles) never pays for them. Every solver of
    /// the model shares them once built, so the order of decisions is the same either way.
    #[cold]
    #[inline(never)]
    fn build_neighbours_if_unfixed(&self) {
        let store = &self.engine.store;
        let num_vars = store.num_vars();
        if (0..num_vars).any(|v| store.size(v) > 1) {
            self.info
                .neighbours
                .get_or_init(|| Neighbours::new(num_vars, &self.constraints));
        }
    }

    /// A decision or refutation failed: counted, its branch explored, and under
    /// [`VariableOrder::DomWdeg`] each variable the failing constraint blames
    /// ([`Constraint::for_each_blamed`]) gains a unit of weight.
    #[inline]
    fn note_failure(&mut self) {
        self.stats.failures += 1;
        self.tracking.explored += self.tracking.current_weight;
        if self.learning.conflict_weights.is_empty() {
            return;
        }
        if let Some(c) = self.engine.take_failed() {
            let weights = &mut self.learning.conflict_weights;
            self.constraints[c].for_each_blamed(&self.scratch, |v| {
                weights[v] = weights[v].saturating_add(1);
            });
        }
    }

    /// Notes the refutation of `frame`'s decision at the current depth. Refutations below
    /// it were made under that decision, which is now undone: dropped, since the new one
    /// is a stronger nogood (a subset of theirs).
    fn record_refutation(&mut self, frame: &Frame) {
        let depth = self.stack.len() as u32;
        while self.learning.refuted.last().is_some_and(|r| r.0 > depth) {
            self.learning.refuted.pop();
        }
        // A refutation of several interchangeable values at once is not recorded.
        if frame.fresh == 0 && frame.kind == Decision::Assign {
            self.learning.refuted.push((depth, frame.var, frame.value));
        }
    }

    /// The restarts of a search: none while a split order is in use (a nogood is made of
    /// `x = v` decisions).
    fn restart_plan(&self) -> RestartPlan {
        let splits = self.strategy.value_order.splits()
            || self.strategy.phases.iter().any(|p| p.value_order.splits());
        if splits {
            RestartPlan::seeded(self.strategy.random_seed)
        } else {
            RestartPlan::start(self.strategy.restarts, self.strategy.random_seed)
        }
    }

    /// Records the current solution's values as the guide of the following decisions.
    #[cold]
    fn remember_guide(&mut self) {
        let store = &self.engine.store;
        let values = (0..store.num_vars()).map(|v| i64::from(store.single_value(v)));
        self.learning.guide.clear();
        self.learning.guide.extend(values);
    }

    /// The value a decision on `var` assigns under the guide: the best solution's value
    /// while `var` still has it and, for a wide domain (whose refutation narrows only a
    /// bound), while it is one of its bounds; otherwise `chosen`, the value order's.
    #[cold]
    #[inline(never)]
    fn guided_value(&self, var: usize, chosen: i64) -> i64 {
        let store = &self.engine.store;
        let guide = self.learning.guide[var];
        let can_try = if store.is_wide(var) {
            let (lo, hi) = store.bounds(var).unwrap_or((0, 0));
            guide == i64::from(lo) || guide == i64::from(hi)
        } else {
            store.contains(var, guide)
        };
        if can_try {
            guide
        } else {
            chosen
        }
    }

    /// Keeps the values of `var` at most `value` (`lower`), or those above it.
    #[cold]
    fn decide_half(&mut self, var: usize, value: i64, lower: bool) -> Result<(), Conflict> {
        let at = i128::from(value);
        let narrowed = if lower {
            self.engine.restrict_range(var, None, Some(at))
        } else {
            self.engine.restrict_range(var, Some(at + 1), None)
        };
        narrowed.map(|_| ())
    }

    /// Refutes `var = value`: removes the value, or with `fresh` (see `fresh_values`)
    /// every unused interchangeable value at once.
    fn refute(&mut self, var: usize, value: i64, fresh: u64) -> Result<(), Conflict> {
        if fresh != 0 {
            self.engine.remove_mask(var, fresh)
        } else {
            self.engine.remove(var, value)
        }
    }

    /// With interchangeable values, the values of `var` that no fixed variable uses, if
    /// `value` is one of them; 0 otherwise.
    fn fresh_values(&self, var: usize, value: i64) -> u64 {
        let store = &self.engine.store;
        if self.strategy.value_symmetry != ValueSymmetry::Interchangeable || !store.is_uniform() {
            return 0;
        }
        let used = (0..store.num_vars())
            .map(|v| store.first_word(v))
            .filter(|&w| is_single(w))
            .fold(0u64, |acc, w| acc | w);
        let bit = store.bit_of(var, value).map_or(0, |(_, b)| b);
        if bit & used == 0 {
            store.first_word(var) & !used
        } else {
            0
        }
    }

    fn open_level(&mut self) {
        #[cfg(test)]
        self.snapshots.push(self.snapshot());
        self.engine.store.push_level();
    }

    fn close_level(&mut self) {
        self.engine.abandon_queue();
        self.engine.store.pop_level();
        #[cfg(test)]
        {
            let expected = self.snapshots.pop();
            assert_eq!(
                Some(self.snapshot()),
                expected,
                "undo must restore the level"
            );
        }
    }

    #[cfg(test)]
    fn snapshot(&self) -> Vec<Vec<u64>> {
        let store = &self.engine.store;
        (0..store.num_vars())
            .map(|v| store.words(v).to_vec())
            .collect()
    }
}

/// Iterator over the solutions of a [`Solver`], from [`Solver::solutions`].
#[derive(Debug)]
pub struct Solutions<'a> {
    solver: &'a mut Solver,
}

impl Solutions<'_> {
    /// The share of the search tree explored so far, from 0 to 1.
    pub fn progress(&self) -> f64 {
        self.solver.progress()
    }

    /// The statistics so far.
    pub fn stats(&self) -> Statistics {
        self.solver.stats()
    }
}

impl Iterator for Solutions<'_> {
    type Item = Solution;

    fn next(&mut self) -> Option<Solution> {
        match self.solver.next_event() {
            Pause::Solution => Some(self.solver.current_solution()),
            Pause::Exhausted | Pause::Stopped(_) => None,
        }
    }
}

/// Variable-value pairs of the API as the engine keeps them.
fn engine_pairs(pairs: &[(VarId, i32)]) -> impl Iterator<Item = (u32, i64)> + '_ {
    pairs
        .iter()
        .map(|&(var, value)| (var.index() as u32, i64::from(value)))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn queens(n: usize) -> Model {
        crate::queens::model(n).map(|(m, _)| m).expect("valid size")
    }

    #[test]
    fn undo_restores_every_level_during_a_full_count() {
        // The snapshot assertion in close_level runs at every backtrack.
        for order in [VariableOrder::InputOrder, VariableOrder::MrvDegree] {
            let mut s = Solver::new(&queens(7));
            s.set_variable_order(order);
            assert_eq!(s.count(None).count, 40);
            assert!(s.stats().failures > 0);
        }
    }

    #[test]
    fn assumption_levels_restore_their_state_when_popped() {
        // The snapshot assertion in close_level checks every level closed, the pushed ones
        // included; counts are checked against a fresh solver with the same fixes.
        let model = queens(8);
        let vars: Vec<VarId> = (0..8).map(VarId::new).collect();
        let fresh = |fixes: &[(VarId, i32)]| {
            let mut s = Solver::new(&model);
            s.assume(fixes).expect("known variables");
            s.count(None).count
        };
        let mut s = Solver::new(&model);
        let mut open: Vec<(VarId, i32)> = Vec::new();
        for (k, &value) in [0, 4, 7].iter().enumerate() {
            open.push((vars[k], value));
            assert!(s.push(&open[k..]).expect("known variables"));
            assert_eq!(s.count(None).count, fresh(&open));
            assert_eq!(s.solve_in_place(), SearchStatus::Solved);
            assert!(s.solved_value(vars[7]).is_some());
        }
        assert!(s.pop());
        assert_eq!(
            s.solved_value(vars[7]),
            None,
            "the solution left with the levels"
        );
        open.pop();
        while open.pop().is_some() {
            assert!(s.pop());
            assert_eq!(s.count(None).count, fresh(&open));
        }
        assert!(!s.pop());
        assert_eq!(s.count(None).count, 92);
    }

    #[test]
    fn solutions_resume_after_each_yield() {
        let mut s = Solver::new(&queens(6));
        let all: Vec<Solution> = s.solutions().collect();
        assert_eq!(all.len(), 4);
        assert_eq!(s.stop_reason(), None);
    }

    #[test]
    fn node_limit_stops_and_says_so() {
        let mut s = Solver::new(&queens(10));
        s.set_node_limit(Some(50));
        let c = s.count(None);
        assert_eq!(c.status, CountStatus::Stopped(StopReason::NodeLimit));
        assert_eq!(s.stats().nodes, 50);
        assert_eq!(s.stop_reason(), Some(StopReason::NodeLimit));
    }
}
