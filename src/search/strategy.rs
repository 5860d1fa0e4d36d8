//! Branching strategies: which variable to branch on, and which value to try first.

/// Which unfixed variable the search branches on next.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum VariableOrder {
    /// The first unfixed variable in creation order.
    InputOrder,
    /// Fewest remaining values first ("minimum remaining values"); ties go to the earlier
    /// variable.
    Mrv,
    /// Fewest remaining values first; ties go to the variable in the most constraints, then
    /// to the earlier one.
    MrvDegree,
    /// Fewest remaining values first; ties go to the variable with the most unfixed
    /// neighbours (variables sharing a constraint with it; inside a family of overlapping
    /// all-different groups, a group), as in DSATUR graph coloring, then to the one with
    /// the most neighbours that have as few values as it, then to the earlier one. The
    /// default: on Sudoku it visits far fewer nodes than [`MrvDegree`](Self::MrvDegree)
    /// (`cargo run --release -p bitcsp-compare --bin orders`), and where every variable
    /// neighbours every other
    /// (N-Queens) it costs nothing extra. Its cost stays bounded on large models: above
    /// 2,048 variables it weighs, at each node, only the first tied candidates whose
    /// neighbours number up to four per variable of the model, and where the constraints
    /// would give the variables more than 2^24 neighbours in all (one constraint over some
    /// 4,000 variables) it keeps no lists and breaks ties as `MrvDegree` does.
    #[default]
    MrvDynamicDegree,
    /// Fewest remaining values per unit of conflict weight ("dom/wdeg", Boussemart et al.
    /// 2004): every time a constraint fails, each of its variables gains one unit of
    /// weight (all start at one), and the search branches on the variable with the
    /// smallest ratio of values to weight; ties go to the heavier variable, then to the
    /// earlier one. The weights last for the whole search, across restarts, so the
    /// search learns which variables its failures come from. Useful where the model has
    /// many constraints and the failures concentrate on a few of them (large Latin
    /// squares and Sudoku boards with domain-consistent groups). A family of groups (a
    /// Sudoku board's units, compiled as one constraint) charges a failure to the cells
    /// its failing run had narrowed, not to the whole board.
    DomWdeg,
    /// The most remaining values first ("anti first fail"); ties go to the earlier
    /// variable.
    MostValues,
    /// The variable with the smallest value in its domain first; ties go to the earlier
    /// variable.
    Smallest,
    /// The variable with the largest value in its domain first; ties go to the earlier
    /// variable.
    Largest,
    /// The variable in the most constraints first ("occurrence"); ties go to the earlier
    /// variable.
    Occurrence,
}

/// Whether the search goes back to the variable whose decision failed last
/// ("last-conflict reasoning", Lecoutre et al. 2009). With
/// [`BranchFirst`](Self::BranchFirst), after a decision `x = v` fails (and `x != v` has
/// been propagated), `x` is chosen again at every following node until it is fixed,
/// whatever the variable order says. When the refutation fails too, the search backs up
/// to an earlier decision and, after refuting it, tries `x` first again: the decisions
/// between the culprit and `x` are skipped rather than searched through. A layer over
/// any [`VariableOrder`]; the order of the answers changes, the answers do not.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum LastConflict {
    /// The variable order alone chooses.
    #[default]
    Ignore,
    /// The variable of the last failed decision is chosen first while it is unfixed.
    BranchFirst,
}

/// Which value of the chosen variable is tried first. The search branches `x = v` first,
/// then `x != v`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum ValueOrder {
    /// Smallest value first.
    #[default]
    Ascending,
    /// Largest value first.
    Descending,
    /// The value nearest the middle of the variable's initial domain first (ties to the
    /// smaller value). Large N-Queens boards need it.
    MiddleOut,
    /// The median of the variable's current values (the lower of the two middle values
    /// when their number is even). A variable with a wide domain (see
    /// [`Domain`](crate::Domain)) tries its lower bound.
    Median,
    /// Halves the domain instead of trying one value: the search branches `x ≤ m` first,
    /// then `x > m`, where `m` is the middle of the variable's current bounds (rounded
    /// down). [`Restarts`](crate::Restarts) are not used while a split order is in use
    /// (their nogoods are made of `x = v` decisions).
    SplitLower,
    /// As [`SplitLower`](Self::SplitLower), the upper half first: `x > m`, then `x ≤ m`.
    SplitUpper,
    /// A value drawn at random among the variable's current values (a bound of a wide
    /// domain), from the solver's seed ([`Solver::set_random_seed`](crate::Solver::set_random_seed)):
    /// the same seed gives the same search. A parallel search draws within each of its
    /// subproblems from the same seed, so its answers are the same for any number of
    /// threads, though not always the one-thread search's (MiniZinc's
    /// `indomain_random`).
    Random,
}

impl ValueOrder {
    /// Whether the order halves domains rather than trying values.
    pub(crate) fn splits(self) -> bool {
        matches!(self, ValueOrder::SplitLower | ValueOrder::SplitUpper)
    }
}

/// One phase of a search plan (see [`Solver::set_search_plan`](crate::Solver::set_search_plan)):
/// the search branches on these variables, chosen by `variable_order` and tried with
/// `value_order`, until every one of them is fixed.
///
/// Within a phase, [`VariableOrder::MrvDynamicDegree`] breaks ties as
/// [`VariableOrder::MrvDegree`] does.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SearchPhase {
    /// The variables, in the order that [`VariableOrder::InputOrder`] and every tie
    /// follow.
    pub vars: Vec<crate::var::VarId>,
    /// Which of them is branched on next.
    pub variable_order: VariableOrder,
    /// Which value is tried first.
    pub value_order: ValueOrder,
}

/// Whether the values of the model are interchangeable (see
/// [`Solver::set_value_symmetry`](crate::Solver::set_value_symmetry)).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum ValueSymmetry {
    /// Values mean different things; every value is tried.
    #[default]
    None,
    /// Renaming values maps solutions to solutions (colors); one unused value is tried
    /// per node.
    Interchangeable,
}
