//! The core through its public API: N-Queens counts, errors, limits and cancellation.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use bitcsp::{
    CountStatus, LastConflict, Model, ModelError, Optimum, Relation, Restarts, SolveResult, Solver,
    StopReason, ValueOrder, VarId, VariableOrder,
};

/// N-Queens built directly on the core: row of the queen in each column.
fn queens(n: usize) -> (Model, Vec<VarId>) {
    let mut m = Model::new();
    let rows = m.new_vars(n, 0..=(n as i32 - 1)).unwrap();
    let up: Vec<i32> = (0..n as i32).collect();
    let down: Vec<i32> = (0..n as i32).map(|i| -i).collect();
    m.all_different(&rows).unwrap();
    m.all_different_offset(&rows, &up).unwrap();
    m.all_different_offset(&rows, &down).unwrap();
    (m, rows)
}

fn attacks(rows: &[i32]) -> bool {
    (0..rows.len()).any(|i| {
        (i + 1..rows.len())
            .any(|j| rows[i] == rows[j] || (rows[i] - rows[j]).unsigned_abs() as usize == j - i)
    })
}

#[test]
fn queens_counts_match_oeis_a000170_up_to_ten() {
    let expected = [1, 0, 0, 2, 10, 4, 40, 92, 352, 724];
    for (n, &want) in (1..=10).zip(&expected) {
        let (model, _) = queens(n);
        let count = Solver::new(&model).count(None);
        assert_eq!(count.count, want, "n = {n}");
        assert_eq!(count.status, CountStatus::Complete);
    }
}

#[test]
fn every_enumerated_queens_solution_is_distinct_and_legal() {
    let (model, rows) = queens(8);
    let mut solver = Solver::new(&model);
    let all: Vec<Vec<i32>> = solver
        .solutions()
        .map(|s| rows.iter().map(|&r| s.value(r)).collect())
        .collect();
    assert_eq!(all.len(), 92);
    assert!(all.iter().all(|s| !attacks(s)));
    let mut sorted = all.clone();
    sorted.dedup();
    assert_eq!(sorted.len(), 92);
}

#[test]
fn middle_out_finds_a_hundred_queens_quickly() {
    let (model, rows) = queens(100);
    let mut solver = Solver::new(&model);
    solver.set_value_order(ValueOrder::MiddleOut);
    let SolveResult::Solution(s) = solver.solve() else {
        panic!("no solution for 100 queens")
    };
    let values: Vec<i32> = rows.iter().map(|&r| s.value(r)).collect();
    assert!(!attacks(&values));
    assert!(solver.stats().nodes < 10_000, "{:?}", solver.stats());
}

#[test]
fn statistics_describe_the_search() {
    let (model, _) = queens(8);
    let mut solver = Solver::new(&model);
    solver.count(None);
    let stats = solver.stats();
    assert_eq!(stats.solutions, 92);
    assert!(stats.nodes > 92 && stats.failures > 0 && stats.propagations > stats.nodes);
    assert!(stats.max_depth >= 4);
}

#[test]
fn fixing_outside_the_domain_makes_the_model_unsatisfiable() {
    let mut m = Model::new();
    let x = m.new_var(1..=3).unwrap();
    m.fix(x, 7).unwrap();
    assert_eq!(Solver::new(&m).solve(), SolveResult::Unsatisfiable);
}

#[test]
fn an_emptied_domain_is_found_in_one_word_and_multi_word_stores() {
    // One-word domains of one base (the store's uniform path) and a mix of bases and a
    // four-word domain (the general path); no constraint would notice the empty domain.
    for wide in [false, true] {
        let mut m = Model::new();
        let x = m.new_var(1..=3).unwrap();
        let y = if wide {
            m.new_var(100..=300).unwrap()
        } else {
            m.new_var(1..=3).unwrap()
        };
        m.new_var(1..=3).unwrap();
        assert!(Solver::new(&m).solve().solution().is_some());
        m.remove_value(x, 2).unwrap();
        m.fix(y, 7).unwrap();
        assert_eq!(
            Solver::new(&m).solve(),
            SolveResult::Unsatisfiable,
            "wide {wide}"
        );
        assert_eq!(Solver::new(&m).count(None).count, 0, "wide {wide}");
    }
}

/// Locked values between two overlapping groups that no family holds (some variables are
/// in no group with as many values as variables): `a` is a permutation of 1..=3 with
/// a0 = 3, so 1 and 2 lie in a1 and a2, which the second group shares, and leave `b`,
/// which is left with 4; then `c`, two cells over {4, 5} beside `b`, has one value for
/// two cells. Without the rule the root sees no conflict (the second group has five
/// values for four cells, the third four for three) and the search must find it.
#[test]
fn locked_values_outside_a_family_prove_this_model_unsatisfiable_at_the_root() {
    let mut m = Model::new();
    let a = m.new_vars(3, 1..=3).unwrap();
    m.fix(a[0], 3).unwrap();
    let b = m.new_var_from_values(&[1, 2, 4]).unwrap();
    // Values 5 and 6 over the base of the others (the rule needs one common base).
    let g = m.new_var(1..=6).unwrap();
    for v in 1..=4 {
        m.remove_value(g, v).unwrap();
    }
    let c = m.new_vars(2, 4..=5).unwrap();
    m.all_different(&a).unwrap();
    m.all_different(&[a[1], a[2], b, g]).unwrap();
    m.all_different(&[b, c[0], c[1]]).unwrap();
    let mut solver = Solver::new(&m);
    assert_eq!(solver.solve(), SolveResult::Unsatisfiable);
    assert_eq!(solver.stats().nodes, 0);
}

#[test]
fn removing_values_is_respected() {
    let mut m = Model::new();
    let x = m.new_var(1..=3).unwrap();
    m.remove_value(x, 1).unwrap();
    m.remove_value(x, 3).unwrap();
    let s = Solver::new(&m).solve().solution().unwrap();
    assert_eq!(s.value(x), 2);
}

#[test]
fn pigeonhole_is_proved_without_search() {
    let mut m = Model::new();
    let v = m.new_vars(6, 1..=5).unwrap();
    m.all_different(&v).unwrap();
    let mut solver = Solver::new(&m);
    assert_eq!(solver.solve(), SolveResult::Unsatisfiable);
    assert_eq!(solver.stats().nodes, 0);
}

/// Seven pigeons in six holes, stated as pairwise disequalities: propagation alone sees
/// nothing, so the search must refute every placement.
fn weak_pigeonhole() -> Model {
    let mut m = Model::new();
    let v = m.new_vars(7, 1..=6).unwrap();
    for (i, &x) in v.iter().enumerate() {
        for &y in &v[i + 1..] {
            m.not_equal(x, y).unwrap();
        }
    }
    m
}

/// The weak pigeonhole beside three unrelated variables with fewer values: MRV branches
/// on those first and proves the pigeonhole again under each of their combinations.
fn pigeonhole_behind_unrelated_variables() -> Model {
    let mut m = weak_pigeonhole();
    let unrelated = m.new_vars(3, 1..=5).unwrap();
    m.all_different(&unrelated).unwrap();
    m
}

#[test]
fn last_conflict_goes_back_to_the_failing_variable() {
    // After the first proof fails a pigeon's decision, the search backs up to an
    // unrelated variable's decision, refutes it, and branches on that pigeon again before
    // anything else: the proof is found once per unrelated decision, not once per
    // combination of them.
    let m = pigeonhole_behind_unrelated_variables();
    let nodes = |last_conflict| {
        let mut solver = Solver::new(&m);
        solver
            .set_variable_order(VariableOrder::Mrv)
            .set_last_conflict(last_conflict);
        assert_eq!(solver.solve(), SolveResult::Unsatisfiable);
        solver.stats().nodes
    };
    let (plain, focused) = (
        nodes(LastConflict::Ignore),
        nodes(LastConflict::BranchFirst),
    );
    // Measured: 43,199 nodes without, 6,779 with.
    assert!(
        focused * 5 < plain,
        "last conflict {focused} nodes, MRV {plain}"
    );
}

#[test]
fn conflict_weights_steer_the_search_to_where_it_fails() {
    // dom/wdeg learns from the first proof's failures that the conflicts come from the
    // pigeons, and branches on them first from then on.
    let m = pigeonhole_behind_unrelated_variables();
    let nodes = |order| {
        let mut solver = Solver::new(&m);
        solver.set_variable_order(order);
        assert_eq!(solver.solve(), SolveResult::Unsatisfiable, "{order:?}");
        solver.stats().nodes
    };
    let (mrv, weighted) = (
        nodes(VariableOrder::MrvDynamicDegree),
        nodes(VariableOrder::DomWdeg),
    );
    // Measured: 43,199 nodes under MRV, 2,879 under dom/wdeg.
    assert!(weighted * 5 < mrv, "dom/wdeg {weighted} nodes, MRV {mrv}");
}

#[test]
fn restarts_learn_nogoods_and_still_prove_unsatisfiability() {
    let m = weak_pigeonhole();
    let mut plain = Solver::new(&m);
    assert_eq!(plain.solve(), SolveResult::Unsatisfiable);
    let mut restarted = Solver::new(&m);
    restarted.set_restarts(Restarts::Luby { scale: 1 });
    assert_eq!(restarted.solve(), SolveResult::Unsatisfiable);
    let (plain, restarted) = (plain.stats(), restarted.stats());
    assert_eq!(plain.nogoods, 0);
    assert!(restarted.restarts > 100, "{restarted:?}");
    assert!(restarted.nogoods > 0, "{restarted:?}");
    // Without nogoods a restart after every failure repeats its refuted prefixes: the
    // proof took 6,831 nodes against the plain search's 719 (measured); with them 1,194.
    assert!(
        restarted.nodes < 3 * plain.nodes,
        "{restarted:?} against {plain:?}"
    );
}

#[test]
fn every_model_error_variant_is_reported() {
    let mut m = Model::new();
    let (lo, hi) = (5, 4);
    assert_eq!(m.new_var(lo..=hi), Err(ModelError::EmptyDomain));
    assert_eq!(m.new_var_from_values(&[]), Err(ModelError::EmptyDomain));
    let all = m.new_vars(2, i32::MIN..=i32::MAX).unwrap();
    assert!(matches!(
        m.minimize_sum(&all, &[1, 1]),
        Err(ModelError::DomainTooLarge { .. })
    ));
    let v = m.new_vars(2, 0..=3).unwrap();
    let stranger = {
        let mut other = Model::new();
        other.new_vars(10, 0..=1).unwrap().pop().unwrap()
    };
    assert!(matches!(
        m.not_equal(v[0], stranger),
        Err(ModelError::UnknownVariable { .. })
    ));
    assert!(matches!(
        m.all_different(&[v[0], v[0]]),
        Err(ModelError::DuplicateVariable { .. })
    ));
    assert!(matches!(
        m.all_different_offset(&v, &[1]),
        Err(ModelError::OffsetsLengthMismatch { .. })
    ));
    assert_eq!(
        m.weighted_sum(&v, &[1, 2, 3], bitcsp::Relation::Equal, 0),
        Err(ModelError::CoefficientsLengthMismatch { vars: 2, coeffs: 3 })
    );
    assert!(matches!(
        m.sum(&[v[0], stranger], bitcsp::Relation::AtMost, 1),
        Err(ModelError::UnknownVariable { .. })
    ));
    assert_eq!(
        m.num_constraints(),
        0,
        "a rejected constraint is not posted"
    );
}

#[test]
fn time_limit_stops_a_long_count_and_says_so() {
    let (model, _) = queens(30);
    let mut solver = Solver::new(&model);
    solver.set_time_limit(Some(Duration::from_millis(100)));
    let start = Instant::now();
    let count = solver.count(None);
    assert_eq!(count.status, CountStatus::Stopped(StopReason::TimeLimit));
    assert!(start.elapsed() < Duration::from_secs(5));
    assert_eq!(solver.stop_reason(), Some(StopReason::TimeLimit));
}

/// A constraint that holds always and takes `delay` at each run while at most
/// `slow_while_fixed` of its variables are fixed: a stand-in for a large global constraint
/// whose nodes cost milliseconds each near the root and little deep down.
#[derive(Debug)]
struct Slow {
    vars: Vec<VarId>,
    delay: Duration,
    slow_while_fixed: usize,
}

impl bitcsp::Propagator for Slow {
    fn name(&self) -> &str {
        "slow"
    }

    fn vars(&self) -> &[VarId] {
        &self.vars
    }

    fn propagate(&self, d: &mut bitcsp::Domains<'_>) -> Result<(), bitcsp::Conflict> {
        let fixed = self.vars.iter().filter(|&&x| d.size(x) == 1).count();
        if fixed <= self.slow_while_fixed {
            std::thread::sleep(self.delay);
        }
        Ok(())
    }
}

/// Eight pigeons in seven holes, which only a long search proves impossible, and a
/// [`Slow`] constraint over them.
fn slow_pigeons(delay: Duration, slow_while_fixed: usize) -> Model {
    let mut m = Model::new();
    let vars = m.new_vars(8, 0..=6).unwrap();
    for (i, &x) in vars.iter().enumerate() {
        for &y in &vars[i + 1..] {
            m.not_equal(x, y).unwrap();
        }
    }
    m.post(Slow {
        vars,
        delay,
        slow_while_fixed,
    })
    .unwrap();
    m
}

/// Solves `model` with a limit of 100 ms and asserts that it stops at the limit, and
/// soon after it.
fn assert_stops_in_time(model: &Model, restarts: Restarts) -> Solver {
    let mut solver = Solver::new(model);
    solver.set_restarts(restarts);
    solver.set_time_limit(Some(Duration::from_millis(100)));
    let start = Instant::now();
    let result = solver.solve();
    assert_eq!(result, SolveResult::Stopped(StopReason::TimeLimit));
    assert!(start.elapsed() < Duration::from_secs(1), "{restarts:?}");
    solver
}

#[test]
fn time_limit_stops_a_search_whose_nodes_are_all_slow_within_a_few_nodes() {
    let model = slow_pigeons(Duration::from_millis(5), 8);
    let solver = assert_stops_in_time(&model, Restarts::Never);
    let nodes = solver.stats().nodes;
    assert!(nodes < 60, "{nodes} nodes of 5 ms for a 100 ms limit");
}

#[test]
fn time_limit_stops_a_restarting_search_whose_shallow_nodes_are_slow() {
    // Each attempt runs a few cheap nodes deep down and two slow ones near the root;
    // reading the clock once every 256 nodes would stop after about two seconds.
    let model = slow_pigeons(Duration::from_millis(20), 1);
    let solver = assert_stops_in_time(&model, Restarts::Luby { scale: 1 });
    assert!(solver.stats().restarts > 0);
}

/// `x < y` on bounds, sleeping at each run while `slow` is set.
#[derive(Debug)]
struct SlowLess {
    vars: [VarId; 2],
    slow: Arc<AtomicBool>,
}

impl bitcsp::Propagator for SlowLess {
    fn name(&self) -> &str {
        "slow less"
    }

    fn vars(&self) -> &[VarId] {
        &self.vars
    }

    fn propagate(&self, d: &mut bitcsp::Domains<'_>) -> Result<(), bitcsp::Conflict> {
        if self.slow.load(Ordering::Relaxed) {
            std::thread::sleep(Duration::from_millis(2));
        }
        let [x, y] = self.vars;
        d.set_max(x, d.max(y) - 1)?;
        d.set_min(y, d.min(x) + 1)
    }
}

/// `x0 < x1 < … < x99`, one [`SlowLess`] a link: the root's propagation alone takes
/// thousands of runs (seconds while slow). Returns the flag that makes it slow.
fn slow_chain() -> (Model, Vec<VarId>, Arc<AtomicBool>) {
    let mut m = Model::new();
    let xs = m.new_vars(100, 0..=150).unwrap();
    let slow = Arc::new(AtomicBool::new(true));
    for pair in xs.windows(2) {
        m.post(SlowLess {
            vars: [pair[0], pair[1]],
            slow: Arc::clone(&slow),
        })
        .unwrap();
    }
    (m, xs, slow)
}

/// Asserts that a search started at `start` and stopped at 50 ms stopped well before the
/// seconds its propagation would take.
fn stopped_soon(start: Instant) {
    let took = start.elapsed();
    assert!(took < Duration::from_secs(1), "stopped after {took:?}");
}

#[test]
fn time_limit_stops_a_long_propagation_in_its_middle_and_claims_nothing() {
    let (model, xs, slow) = slow_chain();
    let mut solver = Solver::new(&model);
    solver.set_time_limit(Some(Duration::from_millis(50)));
    let start = Instant::now();
    assert_eq!(solver.solve(), SolveResult::Stopped(StopReason::TimeLimit));
    stopped_soon(start);
    assert_eq!(solver.stats().failures, 0, "a stop is no failure");
    // The same solver, quick and unlimited, still finds a solution: the stop left
    // nothing behind that a later search would take for a proof.
    slow.store(false, Ordering::Relaxed);
    solver.set_time_limit(None);
    let solution = solver.solve().solution().expect("satisfiable").clone();
    assert!(xs
        .windows(2)
        .all(|p| solution.value(p[0]) < solution.value(p[1])));
}

#[test]
fn cancellation_stops_a_long_propagation_in_its_middle() {
    let (model, _, _) = slow_chain();
    let flag = Arc::new(AtomicBool::new(false));
    let mut solver = Solver::new(&model);
    solver.set_cancel_flag(Some(Arc::clone(&flag)));
    let setter = std::thread::spawn(move || {
        std::thread::sleep(Duration::from_millis(50));
        flag.store(true, Ordering::Relaxed);
    });
    let start = Instant::now();
    let count = solver.count(None);
    setter.join().unwrap();
    assert_eq!(count.status, CountStatus::Stopped(StopReason::Cancelled));
    assert_eq!(count.count, 0);
    stopped_soon(start);
}

#[test]
fn time_limit_stops_the_root_of_an_optimisation_without_claiming_infeasibility() {
    let (mut model, xs, _) = slow_chain();
    model.minimize(xs[99]).unwrap();
    let mut solver = Solver::new(&model);
    solver.set_time_limit(Some(Duration::from_millis(50)));
    let start = Instant::now();
    assert_eq!(solver.optimize(), Optimum::Unknown(StopReason::TimeLimit));
    stopped_soon(start);
}

#[test]
fn time_limit_stops_a_long_propagation_in_the_parallel_searches() {
    let (mut model, xs, _) = slow_chain();
    model.minimize(xs[99]).unwrap();
    let limited = || {
        let mut solver = Solver::new(&model);
        solver.set_time_limit(Some(Duration::from_millis(50)));
        (solver, Instant::now())
    };
    let (mut solver, start) = limited();
    assert_eq!(
        solver.solve_parallel(2),
        SolveResult::Stopped(StopReason::TimeLimit)
    );
    stopped_soon(start);
    let (mut solver, start) = limited();
    let count = solver.count_parallel(None, 2);
    assert_eq!(
        (count.count, count.status),
        (0, CountStatus::Stopped(StopReason::TimeLimit))
    );
    stopped_soon(start);
    let (mut solver, start) = limited();
    assert_eq!(
        solver.optimize_parallel(2),
        Optimum::Unknown(StopReason::TimeLimit)
    );
    stopped_soon(start);
}

#[test]
fn cancellation_from_another_thread_stops_the_search() {
    let (model, _) = queens(30);
    let flag = Arc::new(AtomicBool::new(false));
    let mut solver = Solver::new(&model);
    solver.set_cancel_flag(Some(Arc::clone(&flag)));
    let setter = std::thread::spawn(move || {
        std::thread::sleep(Duration::from_millis(50));
        flag.store(true, Ordering::Relaxed);
    });
    let count = solver.count(None);
    setter.join().unwrap();
    assert_eq!(count.status, CountStatus::Stopped(StopReason::Cancelled));
}

#[test]
fn node_limit_on_solve_reports_stopped() {
    let mut m = Model::new();
    // 12 pigeons in 11 holes, posted pairwise so that only search can prove it.
    let v = m.new_vars(12, 1..=11).unwrap();
    for i in 0..12 {
        for j in i + 1..12 {
            m.not_equal(v[i], v[j]).unwrap();
        }
    }
    let mut solver = Solver::new(&m);
    solver.set_node_limit(Some(1000));
    assert_eq!(solver.solve(), SolveResult::Stopped(StopReason::NodeLimit));
}

/// A Latin square of side `n`: cells over `1..=n`, rows and columns all-different.
fn latin_square(n: usize, consistency: bitcsp::Consistency) -> (Model, Vec<VarId>) {
    let mut m = Model::new();
    let cells = m.new_vars(n * n, 1..=n as i32).unwrap();
    for i in 0..n {
        let row: Vec<VarId> = (0..n).map(|j| cells[i * n + j]).collect();
        let col: Vec<VarId> = (0..n).map(|j| cells[j * n + i]).collect();
        m.all_different_with(&row, consistency).unwrap();
        m.all_different_with(&col, consistency).unwrap();
    }
    (m, cells)
}

/// Reduced Latin squares (first row and column in order): OEIS A000315.
fn reduced_latin_squares(n: usize, consistency: bitcsp::Consistency) -> u64 {
    let (mut m, cells) = latin_square(n, consistency);
    for i in 0..n {
        m.fix(cells[i], i as i32 + 1).unwrap();
        m.fix(cells[i * n], i as i32 + 1).unwrap();
    }
    Solver::new(&m).count(None).count
}

#[test]
fn reduced_latin_square_counts_match_oeis_a000315_at_both_strengths() {
    for consistency in [bitcsp::Consistency::Fast, bitcsp::Consistency::Domain] {
        let counts: Vec<u64> = (1..=6)
            .map(|n| reduced_latin_squares(n, consistency))
            .collect();
        assert_eq!(counts, vec![1, 1, 1, 4, 56, 9408], "{consistency:?}");
    }
}

/// The 27 units of a 9×9 grid whose cell (r, c) is `cell(r, c)`, except those in `skip`
/// (given as the unit's sorted cells).
fn post_grid(m: &mut Model, cell: impl Fn(usize, usize) -> VarId, skip: &[Vec<VarId>]) {
    let mut units: Vec<Vec<VarId>> = Vec::new();
    for i in 0..9 {
        units.push((0..9).map(|j| cell(i, j)).collect());
        units.push((0..9).map(|j| cell(j, i)).collect());
        units.push(
            (0..9)
                .map(|j| cell(i / 3 * 3 + j / 3, i % 3 * 3 + j % 3))
                .collect(),
        );
    }
    for unit in units {
        let mut sorted = unit.clone();
        sorted.sort_by_key(|v| v.index());
        if !skip.contains(&sorted) {
            m.all_different(&unit).unwrap();
        }
    }
}

/// Counts (up to `limit`) the completions of `b` (81 digits, 0 for blank) in a grid that
/// shares its top-left box with the bottom-right box of a second grid, fully given as
/// `a`; or, with `twin` false, of `b` alone. With `a` fixed, both counts must agree.
fn count_grid(a: &[u8], b: &[u8], twin: bool, limit: u64) -> u64 {
    let mut m = Model::new();
    let a_cells = m.new_vars(81, 1..=9).unwrap();
    // Grid B's cells: its top-left box is A's bottom-right box when twinned.
    let own = m.new_vars(81, 1..=9).unwrap();
    let b_cell = |r: usize, c: usize| {
        if twin && r < 3 && c < 3 {
            a_cells[(r + 6) * 9 + c + 6]
        } else {
            own[r * 9 + c]
        }
    };
    if twin {
        post_grid(&mut m, |r, c| a_cells[r * 9 + c], &[]);
        let mut shared: Vec<VarId> = (0..9).map(|j| b_cell(j / 3, j % 3)).collect();
        shared.sort_by_key(|v| v.index());
        post_grid(&mut m, b_cell, &[shared]);
        // B's own top-left cells are unused here: fixed, so they add no solutions.
        for j in 0..9 {
            m.fix(own[(j / 3) * 9 + j % 3], 1).unwrap();
        }
    } else {
        post_grid(&mut m, b_cell, &[]);
    }
    // Given in both cases (alone, A's cells are free of constraints and must not add
    // solutions).
    for (i, &d) in a.iter().enumerate() {
        m.fix(a_cells[i], i32::from(d)).unwrap();
    }
    for (i, &d) in b.iter().enumerate() {
        if d != 0 {
            m.fix(b_cell(i / 9, i % 9), i32::from(d)).unwrap();
        }
    }
    Solver::new(&m).count(Some(limit)).count
}

#[test]
fn twin_grids_sharing_a_box_count_as_the_single_grid_does() {
    // 153 cells in one family, past the 128-cell fast paths, with 114 box-line pairs,
    // past the segment unions (at most 64 pairs): the counts must not change.
    let digits = |line: &str| line.bytes().map(|b| b - b'0').collect::<Vec<u8>>();
    let a =
        digits("534678912672195348198342567859761423426853791713924856961537284287419635345286179");
    // Grid B: A with its digits renamed so that B's top-left box is A's bottom-right box.
    let mut rename = [0u8; 10];
    for j in 0..9 {
        rename[usize::from(a[(j / 3) * 9 + j % 3])] = a[(j / 3 + 6) * 9 + j % 3 + 6];
    }
    let full_b: Vec<u8> = a.iter().map(|&d| rename[usize::from(d)]).collect();
    let mut seed = 12_345u64;
    for blanks in [30, 40, 45, 50] {
        let mut b = full_b.clone();
        let mut left = blanks;
        while left > 0 {
            seed = seed.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1);
            let i = (seed >> 33) as usize % 81;
            // The shared box stays given (it belongs to A too).
            if b[i] != 0 && !(i / 9 < 3 && i % 9 < 3) {
                b[i] = 0;
                left -= 1;
            }
        }
        let alone = count_grid(&a, &b, false, 20_000);
        assert!(alone >= 1, "the carved grid keeps its solution");
        assert_eq!(count_grid(&a, &b, true, 20_000), alone, "{blanks} blanks");
    }
}

#[test]
fn large_latin_square_solutions_are_latin_squares() {
    // 400 cells in one family: its value-major view spans 21 × 7 = 147 words, past the
    // one-word bitset of changed view words (the write-back's other path).
    let n = 20usize;
    let mut m = Model::new();
    let cells = m.new_vars(n * n, 1..=n as i32).unwrap();
    for i in 0..n {
        m.all_different(&(0..n).map(|j| cells[i * n + j]).collect::<Vec<_>>())
            .unwrap();
        m.all_different(&(0..n).map(|j| cells[j * n + i]).collect::<Vec<_>>())
            .unwrap();
    }
    // The first row in order.
    for (&cell, value) in cells[..n].iter().zip(1..) {
        m.fix(cell, value).unwrap();
    }
    let mut solver = Solver::new(&m);
    solver.set_node_limit(Some(1_000_000));
    let solutions: Vec<Vec<i32>> = solver
        .solutions()
        .take(3)
        .map(|s| cells.iter().map(|&c| s.value(c)).collect())
        .collect();
    assert_eq!(solutions.len(), 3);
    let permutation = |line: Vec<i32>| {
        let mut line = line;
        line.sort_unstable();
        line == (1..=n as i32).collect::<Vec<_>>()
    };
    for square in &solutions {
        assert_eq!(&square[..n], &(1..=n as i32).collect::<Vec<_>>()[..]);
        for i in 0..n {
            assert!(permutation((0..n).map(|j| square[i * n + j]).collect()));
            assert!(permutation((0..n).map(|j| square[j * n + i]).collect()));
        }
    }
    assert!(solutions[0] != solutions[1] && solutions[1] != solutions[2]);
}

/// One all-different over 2,100 variables (past the bitset form of the neighbour lists)
/// beside a free variable: every unfixed variable of the group ties with every other, and
/// counting each one's 2,099 neighbours at every node ran past this 60 s limit (checked;
/// a permutation of 3,000 took nine minutes). The dynamic tie-break now looks at a
/// bounded share of the candidates per node.
#[test]
fn a_large_permutation_beside_a_free_variable_is_found() {
    let n = 2_100;
    let mut m = Model::new();
    let xs = m.new_vars(n, 0..=(n as i32 - 1)).unwrap();
    m.new_var(0..=1).unwrap();
    m.all_different(&xs).unwrap();
    let mut solver = Solver::new(&m);
    solver.set_time_limit(Some(Duration::from_secs(60)));
    let solution = solver
        .solve()
        .solution()
        .expect("a permutation, well within the limit");
    let mut values: Vec<i32> = xs.iter().map(|&x| solution.value(x)).collect();
    values.sort_unstable();
    assert!(values.iter().enumerate().all(|(i, &v)| v == i as i32));
}

/// A 5×5 Latin square (rows and columns all-different, which the compiler gathers into
/// one family) whose first row starts with a Hall pair: cells 0 and 1 hold only 1 and 2.
/// Counting with a fixed variable order, domain-consistent groups prune what the fast
/// rules cannot (1 and 2 leave the rest of the row at the root), so they visit fewer
/// nodes for the same count (16,128 squares: 16,127 nodes against 16,175): their
/// matching runs beside a family too.
#[test]
fn domain_consistent_groups_in_a_family_prune_hall_sets() {
    let count = |consistency: bitcsp::Consistency| {
        let n = 5;
        let (mut m, cells) = latin_square(n, consistency);
        for cell in [0, 1] {
            for value in 3..=n as i32 {
                m.remove_value(cells[cell], value).unwrap();
            }
        }
        let mut solver = Solver::new(&m);
        solver.set_variable_order(VariableOrder::InputOrder);
        let count = solver.count(None);
        assert_eq!(count.status, CountStatus::Complete);
        (count.count, solver.stats().nodes)
    };
    let (fast, domain) = (
        count(bitcsp::Consistency::Fast),
        count(bitcsp::Consistency::Domain),
    );
    // Of the 161,280 Latin squares of side 5 (OEIS A002860), those whose first two
    // cells are 1 and 2 in either order: by symmetry 2 of the 5 × 4 ordered pairs.
    assert_eq!(fast.0, 161_280 * 2 / 20);
    assert_eq!(domain.0, fast.0, "same count");
    assert!(
        domain.1 < fast.1,
        "nodes: fast {}, domain {}",
        fast.1,
        domain.1
    );
}

#[test]
fn each_value_order_tries_its_value_first() {
    // Unconstrained variables: the first solution shows the value each order tries first.
    let first = |values: &[i32], order: ValueOrder| {
        let mut model = Model::new();
        let x = model.new_var_from_values(values).expect("valid values");
        let mut solver = Solver::new(&model);
        solver.set_value_order(order);
        solver.solve().solution().map(|s| s.value(x))
    };
    let sparse = [1, 3, 5, 8];
    // Halving: the lower half first finds the least value, the upper half the greatest.
    assert_eq!(first(&sparse, ValueOrder::SplitLower), Some(1));
    assert_eq!(first(&sparse, ValueOrder::SplitUpper), Some(8));
    assert_eq!(first(&sparse, ValueOrder::Ascending), Some(1));
    assert_eq!(first(&sparse, ValueOrder::Descending), Some(8));
    assert_eq!(first(&sparse, ValueOrder::Median), Some(3));
    assert_eq!(first(&[1, 3, 5, 8, 9], ValueOrder::Median), Some(5));
}

#[test]
fn the_random_value_order_is_the_seed_s_and_lists_every_solution() {
    // Eight queens listed with random values: the same 92 boards in an order the seed
    // decides, the same order again for the same seed and for any number of threads.
    let (model, rows) = queens(8);
    let listing = |seed: u64, threads: Option<usize>| {
        let mut solver = Solver::new(&model);
        solver
            .set_value_order(ValueOrder::Random)
            .set_random_seed(seed);
        let solutions = match threads {
            None => solver.solutions().collect::<Vec<_>>(),
            Some(t) => solver.solutions_parallel(None, t).0,
        };
        solutions
            .iter()
            .map(|s| rows.iter().map(|&r| s.value(r)).collect::<Vec<i32>>())
            .collect::<Vec<_>>()
    };
    let first = listing(1, None);
    assert_eq!(first.len(), 92);
    for board in &first {
        for (i, &a) in board.iter().enumerate() {
            for (j, &b) in board.iter().enumerate().skip(i + 1) {
                let apart = (j - i) as i32;
                assert!(a != b && (a - b).abs() != apart, "{board:?}");
            }
        }
    }
    let mut distinct = first.clone();
    distinct.sort();
    distinct.dedup();
    assert_eq!(distinct.len(), 92, "each board once");
    assert_eq!(listing(1, None), first, "the same seed, the same order");
    let firsts: std::collections::BTreeSet<Vec<i32>> =
        (0..8).map(|seed| listing(seed, None)[0].clone()).collect();
    assert!(firsts.len() > 1, "eight seeds, one first board: {firsts:?}");
    let ascending = {
        let mut solver = Solver::new(&model);
        let s = solver.solve().solution().unwrap();
        rows.iter().map(|&r| s.value(r)).collect::<Vec<i32>>()
    };
    assert!(
        firsts.iter().any(|b| *b != ascending),
        "random is not ascending"
    );
    let two = listing(5, Some(2));
    assert_eq!(listing(5, Some(3)), two, "any number of threads");
    let mut sorted = two.clone();
    sorted.sort();
    assert_eq!(sorted, distinct, "the same boards on threads");
}

/// Which of three variables under all-different the order branches on first: each
/// domain holds `shared`, which the value order tries first, so the first variable
/// chosen takes it and the others cannot. `extra` variables get one more constraint each.
fn branched_first(
    domains: [&[i32]; 3],
    extra: &[usize],
    order: VariableOrder,
    value_order: ValueOrder,
    shared: i32,
) -> Option<usize> {
    let mut model = Model::new();
    let vars: Vec<VarId> = domains
        .iter()
        .map(|d| model.new_var_from_values(d).expect("valid values"))
        .collect();
    model.all_different(&vars).expect("known variables");
    for &k in extra {
        model
            .sum(&[vars[k]], Relation::AtMost, 1_000)
            .expect("known variables");
    }
    let mut solver = Solver::new(&model);
    solver
        .set_variable_order(order)
        .set_value_order(value_order);
    let solution = solver.solve().solution()?;
    vars.iter().position(|&v| solution.value(v) == shared)
}

#[test]
fn variable_orders_that_look_at_values_or_degrees_choose_as_documented() {
    use ValueOrder::{Ascending, Descending};
    // Sizes 2, 4, 3; largest values 5, 20, 9; the third variable in two constraints.
    let mixed: [&[i32]; 3] = [&[4, 5], &[4, 6, 7, 20], &[4, 8, 9]];
    let first = |order| branched_first(mixed, &[2], order, Ascending, 4);
    assert_eq!(first(VariableOrder::InputOrder), Some(0));
    assert_eq!(first(VariableOrder::Mrv), Some(0));
    assert_eq!(first(VariableOrder::MostValues), Some(1));
    assert_eq!(first(VariableOrder::Largest), Some(1));
    assert_eq!(first(VariableOrder::Occurrence), Some(2));
    // Least values 5, 3, 4, all tried from their top value 9.
    let low: [&[i32]; 3] = [&[5, 9], &[3, 9], &[4, 9]];
    let smallest = branched_first(low, &[], VariableOrder::Smallest, Descending, 9);
    assert_eq!(smallest, Some(1));
}

#[test]
fn each_search_of_one_solver_watches_the_limits_set_before_it() {
    // The flags and deadline of one search are kept for the next when nothing else holds
    // them: each search must still read the ones set last.
    let (model, _) = queens(30);
    let mut solver = Solver::new(&model);
    let raised = Arc::new(AtomicBool::new(true));
    let lowered = Arc::new(AtomicBool::new(false));
    for round in 0..3 {
        solver.set_cancel_flag(Some(Arc::clone(&lowered)));
        assert!(
            solver.solve().solution().is_some(),
            "round {round}: flag down"
        );
        solver.set_cancel_flag(Some(Arc::clone(&raised)));
        assert_eq!(
            solver.solve(),
            SolveResult::Stopped(StopReason::Cancelled),
            "round {round}: flag up"
        );
        solver.set_cancel_flag(None);
        solver.set_time_limit(Some(Duration::ZERO));
        let count = solver.count(None);
        assert_eq!(
            count.status,
            CountStatus::Stopped(StopReason::TimeLimit),
            "round {round}: no time"
        );
        solver.set_time_limit(Some(Duration::from_secs(3600)));
        assert!(
            solver.solve().solution().is_some(),
            "round {round}: an hour"
        );
        solver.set_time_limit(None);
    }
}

#[test]
fn solved_values_read_each_variable_as_solved_value_does() {
    // Uniform one-word stores (queens) and mixed ones (other bases, a wide domain, two
    // words), with a variable of another model in the list.
    let (queens_model, rows) = queens(10);
    let mut mixed = Model::new();
    let a = mixed.new_var(-5..=5).unwrap();
    let b = mixed.new_var(100..=170).unwrap();
    let c = mixed.new_var(0..=1_000_000).unwrap();
    mixed.all_different(&[a, b, c]).unwrap();
    mixed.sum(&[a, b, c], Relation::Equal, 300).unwrap();
    for (model, mut vars) in [(queens_model, rows), (mixed, vec![a, b, c])] {
        let mut solver = Solver::new(&model);
        assert!(solver.solved_values(&vars).is_none(), "before a search");
        // A variable of a larger model, beyond this one's.
        let stranger = Model::new().new_vars(200, 0..=1).unwrap()[199];
        vars.push(stranger);
        assert_eq!(solver.solve_in_place(), bitcsp::SearchStatus::Solved);
        let read: Vec<Option<i32>> = solver
            .solved_values(&vars)
            .expect("at a solution")
            .collect();
        let one_by_one: Vec<Option<i32>> = vars.iter().map(|&v| solver.solved_value(v)).collect();
        assert_eq!(read, one_by_one);
        assert!(read[..vars.len() - 1].iter().all(Option::is_some));
        assert_eq!(read.last(), Some(&None), "a variable of another model");
    }
}
