//! The core through its public API: N-Queens counts, errors, limits and cancellation.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use bitcsp::{
    CountStatus, Domain, Model, ModelError, SolveResult, Solver, StopReason, ValueOrder, VarId,
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

#[test]
fn every_model_error_variant_is_reported() {
    let mut m = Model::new();
    let (lo, hi) = (5, 4);
    assert_eq!(m.new_var(lo..=hi), Err(ModelError::EmptyDomain));
    assert_eq!(m.new_var_from_values(&[]), Err(ModelError::EmptyDomain));
    assert!(matches!(
        m.new_var(i32::MIN..=i32::MAX),
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
    let far = m
        .new_var_with_domain(Domain::from_values(&[-500_000, 500_000]).unwrap())
        .unwrap();
    assert!(matches!(
        m.all_different_offset(&[v[0], far], &[i32::MAX, i32::MIN]),
        Err(ModelError::GroupSpanTooLarge { .. })
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

/// Reduced Latin squares (first row and column in order): OEIS A000315.
fn reduced_latin_squares(n: usize, consistency: bitcsp::Consistency) -> u64 {
    let mut m = Model::new();
    let cells = m.new_vars(n * n, 1..=n as i32).unwrap();
    let zeros = vec![0; n];
    for i in 0..n {
        let row: Vec<VarId> = (0..n).map(|j| cells[i * n + j]).collect();
        let col: Vec<VarId> = (0..n).map(|j| cells[j * n + i]).collect();
        m.all_different_with(&row, &zeros, consistency).unwrap();
        m.all_different_with(&col, &zeros, consistency).unwrap();
    }
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
