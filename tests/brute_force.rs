//! The engine against exhaustive enumeration on small random models: same solution count,
//! same set of solutions, for every strategy, on one-word, multi-word and interval (wide)
//! domains, with all-different, not-equal and (weighted) sum constraints.

use std::collections::BTreeSet;

use bitcsp::{
    Consistency, CountStatus, LastConflict, Model, Relation, Restarts, SearchPhase, SolveResult,
    Solver, ValueOrder, VarId, VariableOrder,
};
use proptest::prelude::*;
use proptest::sample::Index;

#[derive(Clone, Debug)]
enum Spec {
    AllDifferent {
        vars: Vec<usize>,
        offsets: Vec<i32>,
        consistency: Consistency,
    },
    NotEqual {
        x: usize,
        y: usize,
        offset: i32,
    },
    Sum {
        vars: Vec<usize>,
        coeffs: Vec<i32>,
        relation: Relation,
        rhs: i64,
    },
}

#[derive(Clone, Debug)]
struct Instance {
    domains: Vec<Vec<i32>>,
    constraints: Vec<Spec>,
    /// Every domain made wide (kept as an interval by the solver) over the same values.
    intervals: bool,
}

/// A value far from the instances' own: a domain holding it is wide.
const FAR: i32 = 1_000_000;

impl Instance {
    fn model(&self) -> (Model, Vec<VarId>) {
        let mut m = Model::new();
        let vars: Vec<VarId> = self
            .domains
            .iter()
            .map(|d| self.new_var(&mut m, d))
            .collect();
        for c in &self.constraints {
            match c {
                Spec::AllDifferent {
                    vars: vs,
                    offsets,
                    consistency,
                } => {
                    let ids: Vec<VarId> = vs.iter().map(|&i| vars[i]).collect();
                    m.all_different_offset_with(&ids, offsets, *consistency)
                        .unwrap();
                }
                Spec::NotEqual { x, y, offset } => {
                    m.not_equal_offset(vars[*x], vars[*y], *offset).unwrap()
                }
                Spec::Sum {
                    vars: vs,
                    coeffs,
                    relation,
                    rhs,
                } => {
                    let ids: Vec<VarId> = vs.iter().map(|&i| vars[i]).collect();
                    m.weighted_sum(&ids, coeffs, *relation, *rhs).unwrap();
                }
            }
        }
        (m, vars)
    }

    /// A variable over `values`; with `intervals`, a wide domain over the same values: one
    /// far value makes it wide, and removing it leaves the shape as it is.
    fn new_var(&self, m: &mut Model, values: &[i32]) -> VarId {
        if !self.intervals {
            return m.new_var_from_values(values).unwrap();
        }
        let mut wide = values.to_vec();
        wide.push(FAR);
        let var = m.new_var_from_values(&wide).unwrap();
        m.remove_value(var, FAR).unwrap();
        var
    }

    /// The same problem with every all-different replaced by pairwise not-equal.
    fn decomposed(&self) -> Instance {
        let mut constraints = Vec::new();
        for c in &self.constraints {
            match c {
                Spec::AllDifferent { vars, offsets, .. } => {
                    for i in 0..vars.len() {
                        for j in i + 1..vars.len() {
                            // x_i + c_i != x_j + c_j  <=>  x_i != x_j + (c_j - c_i)
                            constraints.push(Spec::NotEqual {
                                x: vars[i],
                                y: vars[j],
                                offset: offsets[j] - offsets[i],
                            });
                        }
                    }
                }
                other => constraints.push(other.clone()),
            }
        }
        Instance {
            domains: self.domains.clone(),
            constraints,
            intervals: self.intervals,
        }
    }

    fn satisfied(&self, a: &[i32]) -> bool {
        self.constraints.iter().all(|c| match c {
            Spec::AllDifferent { vars, offsets, .. } => {
                let vals: Vec<i64> = vars
                    .iter()
                    .zip(offsets)
                    .map(|(&v, &o)| i64::from(a[v]) + i64::from(o))
                    .collect();
                let set: BTreeSet<i64> = vals.iter().copied().collect();
                set.len() == vals.len()
            }
            Spec::NotEqual { x, y, offset } => {
                i64::from(a[*x]) != i64::from(a[*y]) + i64::from(*offset)
            }
            Spec::Sum {
                vars,
                coeffs,
                relation,
                rhs,
            } => {
                let total: i64 = vars
                    .iter()
                    .zip(coeffs)
                    .map(|(&v, &c)| i64::from(c) * i64::from(a[v]))
                    .sum();
                match relation {
                    Relation::Equal => total == *rhs,
                    Relation::AtMost => total <= *rhs,
                    Relation::AtLeast => total >= *rhs,
                }
            }
        })
    }

    fn brute_force(&self) -> BTreeSet<Vec<i32>> {
        let mut out = BTreeSet::new();
        let mut current = Vec::with_capacity(self.domains.len());
        self.enumerate(&mut current, &mut out);
        out
    }

    fn enumerate(&self, current: &mut Vec<i32>, out: &mut BTreeSet<Vec<i32>>) {
        if current.len() == self.domains.len() {
            if self.satisfied(current) {
                out.insert(current.clone());
            }
            return;
        }
        for &v in &self.domains[current.len()] {
            current.push(v);
            self.enumerate(current, out);
            current.pop();
        }
    }
}

fn engine_solutions(inst: &Instance, var: VariableOrder, val: ValueOrder) -> Vec<Vec<i32>> {
    engine_solutions_with(inst, var, val, LastConflict::Ignore)
}

fn engine_solutions_with(
    inst: &Instance,
    var: VariableOrder,
    val: ValueOrder,
    last_conflict: LastConflict,
) -> Vec<Vec<i32>> {
    let (model, vars) = inst.model();
    let mut solver = Solver::new(&model);
    solver
        .set_variable_order(var)
        .set_value_order(val)
        .set_last_conflict(last_conflict);
    let sols: Vec<Vec<i32>> = solver
        .solutions()
        .map(|s| vars.iter().map(|&v| s.value(v)).collect())
        .collect();
    assert_eq!(solver.stop_reason(), None);
    sols
}

fn instance(
    max_vars: usize,
    values: std::ops::RangeInclusive<i32>,
    offsets: std::ops::RangeInclusive<i32>,
) -> impl Strategy<Value = Instance> {
    (3..=max_vars).prop_flat_map(move |n| {
        let domain = proptest::collection::btree_set(values.clone(), 1..=5)
            .prop_map(|s| s.into_iter().collect::<Vec<i32>>());
        let offsets = offsets.clone();
        let all_diff = (
            proptest::sample::subsequence((0..n).collect::<Vec<_>>(), 2..=n),
            proptest::collection::vec(offsets.clone(), n),
            any::<bool>(),
        )
            .prop_map(|(vars, offs, domain)| {
                let offsets = offs[..vars.len()].to_vec();
                let consistency = if domain {
                    Consistency::Domain
                } else {
                    Consistency::Fast
                };
                Spec::AllDifferent {
                    vars,
                    offsets,
                    consistency,
                }
            });
        let not_equal = (0..n, 0..n, offsets).prop_filter_map("distinct", |(x, y, offset)| {
            (x != y).then_some(Spec::NotEqual { x, y, offset })
        });
        // Sums of up to four terms (a variable may repeat), coefficients -3..=3 (zero
        // included), and a right-hand side near the sums the values can reach.
        let reach = i64::from(values.start().abs().max(values.end().abs())) * 3;
        let sum = (
            proptest::collection::vec((0..n, -3i32..=3), 0..=4),
            prop_oneof![
                Just(Relation::Equal),
                Just(Relation::AtMost),
                Just(Relation::AtLeast)
            ],
            -reach..=reach,
        )
            .prop_map(|(terms, relation, rhs)| {
                let (vars, coeffs) = terms.into_iter().unzip();
                Spec::Sum {
                    vars,
                    coeffs,
                    relation,
                    rhs,
                }
            });
        (
            proptest::collection::vec(domain, n),
            proptest::collection::vec(prop_oneof![all_diff, not_equal, sum], 0..=4),
        )
            .prop_map(|(domains, constraints)| Instance {
                domains,
                constraints,
                intervals: false,
            })
    })
}

const VARIABLE_ORDERS: [VariableOrder; 9] = [
    VariableOrder::InputOrder,
    VariableOrder::Mrv,
    VariableOrder::MrvDegree,
    VariableOrder::MrvDynamicDegree,
    VariableOrder::DomWdeg,
    VariableOrder::MostValues,
    VariableOrder::Smallest,
    VariableOrder::Largest,
    VariableOrder::Occurrence,
];
const VALUE_ORDERS: [ValueOrder; 7] = [
    ValueOrder::Ascending,
    ValueOrder::Descending,
    ValueOrder::MiddleOut,
    ValueOrder::Median,
    ValueOrder::SplitLower,
    ValueOrder::SplitUpper,
    ValueOrder::Random,
];

/// A search plan over `vars`: phase `k` takes the variables whose entry of `phase_of` is
/// `k` (entries past the phase count leave the variable to the solver), in reverse order
/// of creation, so that the plan's order differs from the model's.
fn plan(vars: &[VarId], phase_of: &[usize], orders: &[(usize, usize)]) -> Vec<SearchPhase> {
    orders
        .iter()
        .enumerate()
        .map(|(k, &(var, val))| SearchPhase {
            vars: vars
                .iter()
                .zip(phase_of)
                .rev()
                .filter(|&(_, &p)| p == k)
                .map(|(&v, _)| v)
                .collect(),
            variable_order: VARIABLE_ORDERS[var],
            value_order: VALUE_ORDERS[val],
        })
        .collect()
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(400))]

    #[test]
    fn solutions_equal_exhaustive_enumeration(inst in instance(7, -3..=3, -2..=2)) {
        let expected = inst.brute_force();
        // Every value order, and last-conflict reasoning (which reorders the search,
        // never its answers) with one of them.
        let strategies = VALUE_ORDERS
            .map(|val| (val, LastConflict::Ignore))
            .into_iter()
            .chain([(ValueOrder::Ascending, LastConflict::BranchFirst)]);
        for var in VARIABLE_ORDERS {
            for (val, last_conflict) in strategies.clone() {
                let found = engine_solutions_with(&inst, var, val, last_conflict);
                let set: BTreeSet<Vec<i32>> = found.iter().cloned().collect();
                prop_assert_eq!(set.len(), found.len(), "a solution was reported twice");
                prop_assert_eq!(&set, &expected, "{:?} {:?} {:?}", var, val, last_conflict);
            }
        }
        let (model, _) = inst.model();
        let count = Solver::new(&model).count(None);
        prop_assert_eq!(count.count, expected.len() as u64);
        prop_assert_eq!(count.status, CountStatus::Complete);
    }

    #[test]
    fn wide_domains_match_exhaustive_enumeration(inst in instance(5, -100..=100, -90..=90)) {
        let expected = inst.brute_force();
        let found = engine_solutions(&inst, VariableOrder::MrvDegree, ValueOrder::MiddleOut);
        prop_assert_eq!(found.into_iter().collect::<BTreeSet<_>>(), expected);
    }

    #[test]
    fn interval_domains_match_exhaustive_enumeration(inst in instance(6, -4..=4, -3..=3)) {
        let inst = Instance { intervals: true, ..inst };
        let expected = inst.brute_force();
        for var in VARIABLE_ORDERS {
            for val in VALUE_ORDERS {
                let found = engine_solutions(&inst, var, val);
                let set: BTreeSet<Vec<i32>> = found.iter().cloned().collect();
                prop_assert_eq!(set.len(), found.len(), "a solution was reported twice");
                prop_assert_eq!(&set, &expected, "{:?} {:?}", var, val);
            }
        }
        let (model, _) = inst.model();
        let mut restarted = Solver::new(&model);
        restarted.set_restarts(Restarts::Luby { scale: 1 });
        prop_assert_eq!(restarted.count(None).count, expected.len() as u64);
    }

    #[test]
    fn all_different_agrees_with_pairwise_not_equal(inst in instance(7, -3..=3, -2..=2)) {
        let plain = engine_solutions(&inst, VariableOrder::InputOrder, ValueOrder::Ascending);
        let pairwise = engine_solutions(&inst.decomposed(), VariableOrder::InputOrder, ValueOrder::Ascending);
        // Same order too: input order and ascending values enumerate lexicographically.
        prop_assert_eq!(plain, pairwise);
    }

    #[test]
    fn count_stops_exactly_at_the_limit(inst in instance(6, -3..=3, -2..=2), limit in 1u64..6) {
        let total = inst.brute_force().len() as u64;
        let (model, _) = inst.model();
        let count = Solver::new(&model).count(Some(limit));
        if total >= limit {
            prop_assert_eq!(count.count, limit);
            prop_assert_eq!(count.status, CountStatus::LimitReached);
        } else {
            prop_assert_eq!(count.count, total);
            prop_assert_eq!(count.status, CountStatus::Complete);
        }
    }

    #[test]
    fn solve_finds_a_solution_exactly_when_one_exists(inst in instance(7, -3..=3, -2..=2)) {
        let expected = inst.brute_force();
        let (model, vars) = inst.model();
        match Solver::new(&model).solve() {
            SolveResult::Solution(s) => {
                let values: Vec<i32> = vars.iter().map(|&v| s.value(v)).collect();
                prop_assert!(expected.contains(&values));
            }
            SolveResult::Unsatisfiable => prop_assert!(expected.is_empty()),
            SolveResult::Stopped(r) => prop_assert!(false, "stopped without a limit: {:?}", r),
        }
    }

    #[test]
    fn search_plans_keep_every_solution_and_branch_in_their_order(
        inst in instance(6, -3..=3, -2..=2),
        phase_of in prop::collection::vec(0usize..4, 6),
        orders in prop::collection::vec((0..VARIABLE_ORDERS.len(), 0..VALUE_ORDERS.len()), 1..4),
        intervals in any::<bool>(),
    ) {
        let inst = Instance { intervals, ..inst };
        let expected = inst.brute_force();
        let (model, vars) = inst.model();
        let phases = plan(&vars, &phase_of[..vars.len().min(phase_of.len())], &orders);
        let mut solver = Solver::new(&model);
        solver.set_search_plan(&phases).expect("the model's variables");
        let found: Vec<Vec<i32>> = solver
            .solutions()
            .map(|s| vars.iter().map(|&v| s.value(v)).collect())
            .collect();
        let set: BTreeSet<Vec<i32>> = found.iter().cloned().collect();
        prop_assert_eq!(set.len(), found.len(), "a solution was reported twice");
        prop_assert_eq!(&set, &expected);
        // On two threads, the split of the tree follows the plan too.
        let mut parallel = Solver::new(&model);
        parallel.set_search_plan(&phases).expect("the model's variables");
        prop_assert_eq!(parallel.count_parallel(None, 2).count, expected.len() as u64);
        // A first phase of one variable in input order, ascending: the first solution
        // holds that variable's least value over all solutions.
        if let (Some(first), Some(&x)) = (found.first(), vars.first()) {
            let mut solver = Solver::new(&model);
            solver
                .set_search_plan(&[SearchPhase {
                    vars: vec![x],
                    variable_order: VariableOrder::InputOrder,
                    value_order: ValueOrder::Descending,
                }])
                .expect("the model's variables");
            let top = solver.solve().solution().map(|s| s.value(x));
            let greatest = expected.iter().map(|s| s[0]).max();
            prop_assert_eq!(top, greatest, "first solution {:?}", first);
        }
    }

    #[test]
    fn projected_searches_meet_each_projection_of_a_solution_once(
        inst in instance(6, -3..=3, -2..=2),
        kept in prop::collection::vec(any::<bool>(), 6),
        phase_of in prop::collection::vec(0usize..3, 6),
        orders in prop::collection::vec((0..VARIABLE_ORDERS.len(), 0..VALUE_ORDERS.len()), 0..3),
        var in 0..VARIABLE_ORDERS.len(),
        last_conflict in any::<bool>(),
    ) {
        let expected = inst.brute_force();
        let (model, vars) = inst.model();
        let last_conflict = if last_conflict {
            LastConflict::BranchFirst
        } else {
            LastConflict::Ignore
        };
        let projected: Vec<usize> = (0..vars.len()).filter(|&i| kept[i]).collect();
        let project = |s: &[i32]| -> Vec<i32> { projected.iter().map(|&i| s[i]).collect() };
        let distinct: BTreeSet<Vec<i32>> = expected.iter().map(|s| project(s)).collect();
        let on: Vec<VarId> = projected.iter().map(|&i| vars[i]).collect();
        let phases = plan(&vars, &phase_of[..vars.len().min(phase_of.len())], &orders);
        let configure = |solver: &mut Solver| {
            solver
                .set_variable_order(VARIABLE_ORDERS[var])
                .set_last_conflict(last_conflict)
                .set_search_plan(&phases)
                .and_then(|s| s.set_projection(Some(&on)))
                .map(|_| ())
        };
        let mut solver = Solver::new(&model);
        configure(&mut solver).expect("the model's variables");
        let found: Vec<Vec<i32>> = solver
            .solutions()
            .map(|s| vars.iter().map(|&v| s.value(v)).collect())
            .collect();
        // Each one a solution, no two with the same projection, every projection met.
        for s in &found {
            prop_assert!(expected.contains(s), "not a solution: {:?}", s);
        }
        let met: BTreeSet<Vec<i32>> = found.iter().map(|s| project(s)).collect();
        prop_assert_eq!(met.len(), found.len(), "a projection was met twice");
        prop_assert_eq!(&met, &distinct);
        let mut counting = Solver::new(&model);
        configure(&mut counting).expect("the model's variables");
        prop_assert_eq!(counting.count(None).count, distinct.len() as u64);
        // Split over two threads, the parts never share a projection.
        let mut parallel = Solver::new(&model);
        configure(&mut parallel).expect("the model's variables");
        prop_assert_eq!(parallel.count_parallel(None, 2).count, distinct.len() as u64);
        // Without a projection again, every solution.
        solver.set_projection(None).expect("no variables");
        prop_assert_eq!(solver.count(None).count, expected.len() as u64);
    }

    #[test]
    fn restarted_searches_stay_sound_complete_and_reproducible(
        inst in instance(7, -3..=3, -2..=2),
        order in 0..VARIABLE_ORDERS.len(),
        value_order in 0..VALUE_ORDERS.len(),
        last_conflict in prop_oneof![Just(LastConflict::Ignore), Just(LastConflict::BranchFirst)],
    ) {
        // A restart after every failure (budgets 1, 1, 2, 1, 1, 2, 4, ...): the most
        // restarts a search can make, every later attempt with random values.
        let expected = inst.brute_force();
        let (model, vars) = inst.model();
        let solve = || {
            let mut solver = Solver::new(&model);
            solver
                .set_variable_order(VARIABLE_ORDERS[order])
                .set_value_order(VALUE_ORDERS[value_order])
                .set_last_conflict(last_conflict)
                .set_restarts(Restarts::Luby { scale: 1 });
            let result = solver.solve();
            let stats = solver.stats();
            (result, (stats.nodes, stats.failures, stats.restarts))
        };
        let (result, counters) = solve();
        match &result {
            SolveResult::Solution(s) => {
                let values: Vec<i32> = vars.iter().map(|&v| s.value(v)).collect();
                prop_assert!(expected.contains(&values));
            }
            SolveResult::Unsatisfiable => prop_assert!(expected.is_empty()),
            SolveResult::Stopped(r) => prop_assert!(false, "stopped without a limit: {:?}", r),
        }
        let (_, failures, restarts) = counters;
        prop_assert!(restarts <= failures);
        prop_assert_eq!(solve(), (result, counters), "the same search twice");
    }
}

/// An `n`-queens board (rows and both diagonals all-different) whose columns lost some
/// rows: every column keeps the rows whose bit is set in its mask. Compiled as one dense
/// family whose row group, while every row is still possible somewhere, takes the
/// hidden-single scan that relies on the values its fixed cells have taken.
fn queens_with_holes(n: usize, masks: &[u32]) -> Instance {
    let domains = masks
        .iter()
        .take(n)
        .map(|&mask| (0..n as i32).filter(|r| mask >> r & 1 == 1).collect())
        .collect();
    let columns: Vec<usize> = (0..n).collect();
    let rising: Vec<i32> = (0..n as i32).collect();
    let constraints = [
        vec![0; n],
        rising.clone(),
        rising.iter().map(|i| -i).collect(),
    ]
    .into_iter()
    .map(|offsets| Spec::AllDifferent {
        vars: columns.clone(),
        offsets,
        consistency: Consistency::Fast,
    })
    .collect();
    Instance {
        domains,
        constraints,
        intervals: false,
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    #[test]
    fn queens_with_holes_match_exhaustive_enumeration(
        n in 4usize..=7,
        // Most columns keep most rows; a column with no row is an empty domain.
        masks in proptest::collection::vec(prop_oneof![3 => Just(u32::MAX), 2 => any::<u32>()], 7),
    ) {
        let inst = queens_with_holes(n, &masks);
        prop_assume!(inst.domains.iter().all(|d| !d.is_empty()));
        let expected = inst.brute_force();
        for var in VARIABLE_ORDERS {
            let found = engine_solutions(&inst, var, ValueOrder::Ascending);
            prop_assert_eq!(found.iter().cloned().collect::<BTreeSet<_>>(), expected.clone());
            prop_assert_eq!(found.len(), expected.len(), "a solution was reported twice");
        }
    }
}

#[test]
fn two_hundred_value_domains_match_brute_force() {
    let domain: Vec<i32> = (-100..100).collect();
    let inst = Instance {
        domains: vec![domain.clone(), domain.clone(), domain],
        constraints: vec![
            Spec::AllDifferent {
                vars: vec![0, 1, 2],
                offsets: vec![0, 7, -150],
                consistency: Consistency::Domain,
            },
            Spec::NotEqual {
                x: 0,
                y: 2,
                offset: 3,
            },
        ],
        intervals: false,
    };
    let expected = inst.brute_force().len() as u64;
    let (model, _) = inst.model();
    assert_eq!(Solver::new(&model).count(None).count, expected);
    let wide = Instance {
        intervals: true,
        ..inst
    };
    let (model, _) = wide.model();
    assert_eq!(Solver::new(&model).count(None).count, expected);
}

/// A Latin square of side `n` (rows and columns all-different over `1..=n`, and with
/// `diagonal` the main diagonal too, with `boxes` the 2×2 boxes of a 4×4 Sudoku, whose
/// intersections with rows and columns give the locked-values rule work) whose cells
/// lost the listed values.
#[derive(Clone, Debug)]
struct Latin {
    n: usize,
    diagonal: bool,
    boxes: bool,
    removed: Vec<(usize, i32)>,
}

impl Latin {
    fn allowed(&self, cell: usize, value: i32) -> bool {
        !self.removed.contains(&(cell, value))
    }

    /// The squares, counted by plain backtracking in cell order.
    fn count_by_backtracking(&self, grid: &mut Vec<i32>) -> u64 {
        let n = self.n;
        let cell = grid.len();
        if cell == n * n {
            return 1;
        }
        let (r, c) = (cell / n, cell % n);
        let mut total = 0;
        for v in 1..=n as i32 {
            let clash = (0..c).any(|k| grid[r * n + k] == v)
                || (0..r).any(|k| grid[k * n + c] == v)
                || (self.diagonal && r == c && (0..r).any(|k| grid[k * n + k] == v))
                || (self.boxes && (0..cell).any(|k| same_box(k, cell) && grid[k] == v));
            if clash || !self.allowed(cell, v) {
                continue;
            }
            grid.push(v);
            total += self.count_by_backtracking(grid);
            grid.pop();
        }
        total
    }

    /// The engine's count. With `compile_first` the model is compiled with full domains
    /// and the values removed afterwards (as `sudoku::model` fixes givens on a clone of a
    /// compiled template): every group is then a permutation of the values, so the family
    /// keeps a value-major view and runs hidden singles and locked values on every group.
    /// Without it the removals can leave groups short of values (not tight, so they act
    /// only through fixed cells) and the family compiles differently. Domain-consistent
    /// groups join the family too, with their matching run after it settles.
    fn count_by_engine(&self, compile_first: bool, consistency: Consistency) -> u64 {
        let n = self.n;
        let mut m = Model::new();
        let cells = m.new_vars(n * n, 1..=n as i32).unwrap();
        let mut groups: Vec<Vec<VarId>> = (0..n)
            .flat_map(|i| {
                [
                    (0..n).map(|k| cells[i * n + k]).collect(),
                    (0..n).map(|k| cells[k * n + i]).collect(),
                ]
            })
            .collect();
        if self.diagonal {
            groups.push((0..n).map(|k| cells[k * n + k]).collect());
        }
        if self.boxes {
            for b in 0..4 {
                groups.push(
                    (0..16)
                        .filter(|&k| box_of(k) == b)
                        .map(|k| cells[k])
                        .collect(),
                );
            }
        }
        for g in &groups {
            m.all_different_with(g, consistency).unwrap();
        }
        if compile_first {
            drop(Solver::new(&m));
        }
        for &(cell, value) in &self.removed {
            m.remove_value(cells[cell], value).unwrap();
        }
        let mut solver = Solver::new(&m);
        let count = solver.count(None);
        assert_eq!(count.status, CountStatus::Complete);
        count.count
    }
}

/// The 2×2 box of cell `k` of a 4×4 grid.
fn box_of(k: usize) -> usize {
    (k / 8) * 2 + (k % 4) / 2
}

fn same_box(a: usize, b: usize) -> bool {
    box_of(a) == box_of(b)
}

fn latin() -> impl Strategy<Value = Latin> {
    (3usize..=5, any::<bool>(), any::<bool>()).prop_flat_map(|(n, diagonal, boxes)| {
        let removal = (0..n * n, 1..=n as i32);
        proptest::collection::vec(removal, 0..=2 * n * n).prop_map(move |removed| Latin {
            n,
            diagonal,
            boxes: boxes && n == 4,
            removed,
        })
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    /// Families of permutation groups (rows, columns, a diagonal, 4×4 boxes), compiled
    /// with full or with narrowed domains, count what backtracking counts.
    #[test]
    fn latin_squares_match_backtracking(square in latin()) {
        let expected = square.count_by_backtracking(&mut Vec::new());
        for consistency in [Consistency::Fast, Consistency::Domain] {
            prop_assert_eq!(square.count_by_engine(true, consistency), expected);
            prop_assert_eq!(square.count_by_engine(false, consistency), expected);
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    /// One solver, reused under a sequence of assumption sets (values inside and outside
    /// the domains, repeated variables, the empty set): each search finds exactly the
    /// enumerated solutions that agree with the fixes, in the same order as a solver of the
    /// model with those fixes built in, on one thread and split across two.
    #[test]
    fn assumptions_restrict_a_reused_solver_exactly(
        inst in instance(6, -3..=3, -2..=2),
        sets in proptest::collection::vec(
            proptest::collection::vec((0usize..6, -4i32..=4), 0..=3),
            1..=4,
        ),
    ) {
        let expected = inst.brute_force();
        let (model, vars) = inst.model();
        let mut reused = Solver::new(&model);
        for set in sets {
            let fixes: Vec<(VarId, i32)> = set
                .iter()
                .filter(|&&(i, _)| i < vars.len())
                .map(|&(i, value)| (vars[i], value))
                .collect();
            let agreeing: BTreeSet<Vec<i32>> = expected
                .iter()
                .filter(|s| fixes.iter().all(|&(v, value)| s[v.index()] == value))
                .cloned()
                .collect();
            reused.assume(&fixes).unwrap();
            let found: Vec<Vec<i32>> = reused
                .solutions()
                .map(|s| vars.iter().map(|&v| s.value(v)).collect())
                .collect();
            prop_assert_eq!(found.iter().cloned().collect::<BTreeSet<_>>(), agreeing.clone());
            // The same order as the model with the fixes posted as constraints.
            let mut fixed = model.clone();
            for &(v, value) in &fixes {
                fixed.fix(v, value).unwrap(); // outside the domain: an empty one
            }
            let direct: Vec<Vec<i32>> = Solver::new(&fixed)
                .solutions()
                .map(|s| vars.iter().map(|&v| s.value(v)).collect())
                .collect();
            prop_assert_eq!(&found, &direct);
            let parallel = reused.count_parallel(None, 2);
            prop_assert_eq!(parallel.count, agreeing.len() as u64);
            prop_assert_eq!(reused.count(None).count, agreeing.len() as u64);
        }
        reused.assume(&[]).unwrap();
        prop_assert_eq!(reused.count(None).count, expected.len() as u64);
    }

    /// Excluded values as assumptions: the solutions found are exactly the enumerated
    /// ones that avoid every excluded value (and agree with the fixes), on one thread and
    /// split across two; `&[]` lifts them.
    #[test]
    fn exclusions_restrict_a_reused_solver_exactly(
        inst in instance(6, -3..=3, -2..=2),
        sets in proptest::collection::vec(
            (
                proptest::collection::vec((0usize..6, -4i32..=4), 0..=4),
                proptest::collection::vec((0usize..6, -4i32..=4), 0..=1),
            ),
            1..=4,
        ),
    ) {
        let expected = inst.brute_force();
        let (model, vars) = inst.model();
        let mut reused = Solver::new(&model);
        let pick = |set: &Vec<(usize, i32)>| -> Vec<(VarId, i32)> {
            set.iter()
                .filter(|&&(i, _)| i < vars.len())
                .map(|&(i, value)| (vars[i], value))
                .collect()
        };
        for (excluded, fixed) in sets {
            let (excluded, fixes) = (pick(&excluded), pick(&fixed));
            let agreeing: BTreeSet<Vec<i32>> = expected
                .iter()
                .filter(|s| excluded.iter().all(|&(v, value)| s[v.index()] != value))
                .filter(|s| fixes.iter().all(|&(v, value)| s[v.index()] == value))
                .cloned()
                .collect();
            reused.assume_excluded(&excluded).unwrap();
            reused.assume(&fixes).unwrap();
            let found: BTreeSet<Vec<i32>> = reused
                .solutions()
                .map(|s| vars.iter().map(|&v| s.value(v)).collect())
                .collect();
            prop_assert_eq!(&found, &agreeing);
            prop_assert_eq!(reused.count_parallel(None, 2).count, agreeing.len() as u64);
            prop_assert_eq!(reused.solve().solution().is_some(), !agreeing.is_empty());
        }
        reused.assume_excluded(&[]).unwrap();
        reused.assume(&[]).unwrap();
        prop_assert_eq!(reused.count(None).count, expected.len() as u64);
    }
}

proptest! {
    // Sequences of pushes and pops: a bug can hide behind one order of a few steps.
    #![proptest_config(ProptestConfig::with_cases(2000))]

    /// Assumption levels pushed and popped in any order, with a search's own fixes and
    /// exclusions over them: each search finds exactly the enumerated solutions that
    /// agree with every open level and the search's pairs, on one thread and on two, and
    /// a push reports a conflict only when no such solution exists.
    #[test]
    fn assumption_levels_restrict_a_reused_solver_exactly(
        inst in instance(6, -3..=3, -2..=2),
        steps in proptest::collection::vec(
            (
                0u8..3,
                proptest::collection::vec((0usize..6, any::<Index>()), 0..=2),
                proptest::collection::vec((0usize..6, any::<Index>()), 0..=2),
            ),
            1..=12,
        ),
    ) {
        let expected = inst.brute_force();
        let (model, vars) = inst.model();
        let mut reused = Solver::new(&model);
        // Values from the variables' domains, so that most levels leave solutions.
        let pick = |set: &Vec<(usize, Index)>| -> Vec<(VarId, i32)> {
            set.iter()
                .filter(|&&(i, _)| i < vars.len())
                .map(|&(i, at)| (vars[i], inst.domains[i][at.index(inst.domains[i].len())]))
                .collect()
        };
        let agreeing = |levels: &[Vec<(VarId, i32)>], fixes: &[(VarId, i32)], excluded: &[(VarId, i32)]| {
            expected
                .iter()
                .filter(|s| levels.iter().flatten().chain(fixes).all(|&(v, x)| s[v.index()] == x))
                .filter(|s| excluded.iter().all(|&(v, x)| s[v.index()] != x))
                .cloned()
                .collect::<BTreeSet<Vec<i32>>>()
        };
        let mut levels: Vec<Vec<(VarId, i32)>> = Vec::new();
        for (kind, first, second) in steps {
            match kind {
                0 => {
                    let fixes = pick(&first);
                    levels.push(fixes.clone());
                    let consistent = reused.push(&fixes).unwrap();
                    if !consistent {
                        prop_assert!(agreeing(&levels, &[], &[]).is_empty());
                    }
                }
                1 => {
                    prop_assert_eq!(reused.pop(), levels.pop().is_some());
                }
                _ => {
                    let (fixes, excluded) = (pick(&first), pick(&second));
                    reused.assume(&fixes).unwrap();
                    reused.assume_excluded(&excluded).unwrap();
                    let want = agreeing(&levels, &fixes, &excluded);
                    let found: BTreeSet<Vec<i32>> = reused
                        .solutions()
                        .map(|s| vars.iter().map(|&v| s.value(v)).collect())
                        .collect();
                    prop_assert_eq!(&found, &want);
                    prop_assert_eq!(reused.solve().solution().is_some(), !want.is_empty());
                    prop_assert_eq!(reused.count_parallel(None, 2).count, want.len() as u64);
                    prop_assert_eq!(reused.count(Some(2)).count, want.len().min(2) as u64);
                }
            }
            prop_assert_eq!(reused.pushed(), levels.len());
        }
        reused.assume(&[]).unwrap();
        reused.assume_excluded(&[]).unwrap();
        while reused.pop() {}
        prop_assert_eq!(reused.count(None).count, expected.len() as u64);
    }
}

#[test]
fn assuming_a_variable_of_a_larger_model_is_an_error() {
    let mut small = Model::new();
    let x = small.new_var(0..=1).unwrap();
    let mut large = Model::new();
    let vars = large.new_vars(3, 0..=1).unwrap();
    let mut solver = Solver::new(&small);
    solver.assume(&[(x, 1)]).unwrap();
    assert!(matches!(
        solver.assume(&[(x, 0), (vars[2], 1)]),
        Err(bitcsp::ModelError::UnknownVariable { count: 1, .. })
    ));
    // The earlier assumption stays.
    assert_eq!(solver.solve().solution().map(|s| s.value(x)), Some(1));
}

#[test]
fn excluding_a_value_of_a_wide_domain_is_refused_and_changes_nothing() {
    let mut model = Model::new();
    let wide = model.new_var(0..=1_000_000_000).unwrap();
    let small = model.new_var(0..=1).unwrap();
    let mut solver = Solver::new(&model);
    solver.assume_excluded(&[(small, 0)]).unwrap();
    assert!(matches!(
        solver.assume_excluded(&[(wide, 5)]),
        Err(bitcsp::ModelError::WideExclusion { .. })
    ));
    assert_eq!(solver.solve().solution().map(|s| s.value(small)), Some(1));
}

/// Found by `solve_finds_a_solution_exactly_when_one_exists`: three groups with offsets
/// over the same cells, two of them sharing two cells (an intersecting pair) in a family
/// where every cell is a peer of every other. The family once laid out its removals for
/// the pairless run and read them as the general run does, losing the shifted group's
/// removals; the instance has no solution (the second group forces x2 = 1, the first
/// forbids it).
#[test]
fn a_family_with_offsets_and_a_pair_keeps_every_group() {
    let mut m = Model::new();
    let x0 = m.new_var_from_values(&[-1]).expect("x0");
    let x1 = m.new_var_from_values(&[1, 3]).expect("x1");
    let x2 = m.new_var_from_values(&[0, 1]).expect("x2");
    let xs = [x0, x1, x2];
    m.all_different_offset(&xs, &[1, 0, -1]).expect("posted");
    m.all_different_offset(&xs, &[0, -2, -1]).expect("posted");
    m.all_different_offset(&[x0, x1], &[1, -1]).expect("posted");
    let brute = [1, 3]
        .iter()
        .flat_map(|&b| [0, 1].map(move |c| [-1, b, c]))
        .filter(|t| {
            let distinct = |v: [i32; 3]| v[0] != v[1] && v[0] != v[2] && v[1] != v[2];
            distinct([t[0] + 1, t[1], t[2] - 1])
                && distinct([t[0], t[1] - 2, t[2] - 1])
                && t[0] + 1 != t[1] - 1
        })
        .count();
    assert_eq!(brute, 0);
    assert!(Solver::new(&m).solve().solution().is_none());
    assert_eq!(Solver::new(&m).count(None).count, 0);
}

#[test]
fn a_projection_keeps_last_conflict_reasoning_off_the_other_variables_until_its_own_are_fixed() {
    // Five auxiliary variables around a cycle, neighbours different, none equal to p:
    // p = 1 leaves them two values, and an odd cycle cannot alternate two, which only
    // decisions on them find (one of them then becomes the last conflict's variable).
    // The search must still fix p before branching on that variable again: below a
    // decision on it, the other variables' part of the tree is cut after each solution,
    // and the first auxiliary variable at 1 rules out p = 5.
    let mut m = Model::new();
    let p = m.new_var_from_values(&[1, 4, 5]).expect("a variable");
    let aux: Vec<VarId> = (0..5)
        .map(|_| m.new_var(1..=3).expect("a variable"))
        .collect();
    for (i, &a) in aux.iter().enumerate() {
        m.not_equal(a, p).expect("a constraint");
        m.not_equal(a, aux[(i + 1) % aux.len()])
            .expect("a constraint");
    }
    m.not_equal_offset(aux[0], p, -4).expect("a constraint");
    for last_conflict in [LastConflict::Ignore, LastConflict::BranchFirst] {
        let mut solver = Solver::new(&m);
        solver
            .set_last_conflict(last_conflict)
            .set_projection(Some(&[p]))
            .expect("a variable of the model");
        let met: Vec<i32> = solver.solutions().map(|s| s.value(p)).collect();
        assert_eq!(met, vec![4, 5], "{last_conflict:?}");
        assert!(solver.stats().failures > 0, "p = 1 fails only below it");
    }
    // Without the projection, p = 4 with the 30 proper colourings of a five-cycle in
    // three colours, and p = 5 with the 20 of them whose first colour is not 1.
    assert_eq!(Solver::new(&m).count(None).count, 50);
}
