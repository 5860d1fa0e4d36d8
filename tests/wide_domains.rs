//! Wide domains (spans beyond `MAX_BITSET_SPAN`, kept as intervals): any `i32` range,
//! holes and value lists kept exact, all-different that does not scan the span, and
//! objectives over them.

use bitcsp::domain::MAX_BITSET_SPAN;
use std::time::Duration;

use bitcsp::{
    Compare, Domain, Model, Optimum, Relation, Restarts, SolveResult, Solver, VariableOrder,
};

/// The cliff: 200 variables of 2^20 values under all-different. The first
/// solution takes one node per variable, with no failure.
#[test]
fn all_different_over_two_hundred_wide_variables_solves_without_failing() {
    let mut model = Model::new();
    let x = model.new_vars(200, 0..=(1 << 20) - 1).unwrap();
    model.all_different(&x).unwrap();
    let mut solver = Solver::new(&model);
    let SolveResult::Solution(s) = solver.solve() else {
        panic!("no solution");
    };
    let mut values: Vec<i32> = x.iter().map(|&v| s.value(v)).collect();
    values.sort_unstable();
    values.dedup();
    assert_eq!(values.len(), 200, "values repeat");
    assert_eq!(solver.stats().failures, 0);
    assert!(solver.stats().nodes <= 200, "{:?}", solver.stats());
}

/// Bounds of a billion values move in one step each (the store keeps two words).
#[test]
fn a_billion_values_cost_two_words_and_sums_move_their_bounds() {
    let mut model = Model::new();
    let x = model.new_var(0..=1_000_000_000).unwrap();
    let y = model.new_var(0..=1_000_000_000).unwrap();
    model
        .weighted_sum(&[x, y], &[1, 1], Relation::AtLeast, 1_500_000_000)
        .unwrap();
    model
        .weighted_sum(&[x, y], &[1, -1], Relation::AtMost, 10)
        .unwrap();
    model.minimize(x).unwrap();
    let mut solver = Solver::new(&model);
    match solver.optimize() {
        Optimum::Optimal {
            solution,
            objective,
        } => {
            assert_eq!(objective, 500_000_000);
            assert_eq!(solution.value(y), 1_000_000_000);
        }
        other => panic!("{other:?}"),
    }
    assert!(solver.stats().nodes <= 4, "{:?}", solver.stats());
}

#[test]
fn the_full_i32_range_is_a_domain() {
    let mut model = Model::new();
    let x = model.new_var(i32::MIN..=i32::MAX).unwrap();
    let y = model.new_var(i32::MIN..=i32::MAX).unwrap();
    model.not_equal(x, y).unwrap();
    model.minimize(x).unwrap();
    match Solver::new(&model).optimize() {
        Optimum::Optimal {
            solution,
            objective,
        } => {
            assert_eq!(objective, i64::from(i32::MIN));
            assert_ne!(solution.value(x), solution.value(y));
        }
        other => panic!("{other:?}"),
    }
}

/// Holes in a wide range are kept by the model and never taken by a solution.
#[test]
fn holes_of_a_wide_range_are_never_taken() {
    let mut model = Model::new();
    let mut domain = Domain::range(0..=100_000).unwrap();
    for v in 10..=20 {
        domain.remove(v);
    }
    let x = model.new_var_with_domain(domain).unwrap();
    let y = model.new_var(0..=100_000).unwrap();
    model.remove_value(y, 50).unwrap();
    model
        .weighted_sum(&[x], &[1], Relation::AtLeast, 10)
        .unwrap();
    model
        .weighted_sum(&[y], &[1], Relation::AtLeast, 50)
        .unwrap();
    model.minimize_sum(&[x, y], &[1, 1]).unwrap();
    match Solver::new(&model).optimize() {
        Optimum::Optimal {
            solution,
            objective,
        } => {
            assert_eq!((solution.value(x), solution.value(y)), (21, 51));
            assert_eq!(objective, 72);
        }
        other => panic!("{other:?}"),
    }
}

/// A few values far apart: exactly those are counted, whatever the span.
#[test]
fn a_wide_value_list_counts_exactly_its_values() {
    let values = [-1_000_000, -3, 0, 7, 1_000_000, 2_000_000_000];
    let mut model = Model::new();
    let x = model.new_var_from_values(&values).unwrap();
    let y = model.new_var_from_values(&values).unwrap();
    model.all_different(&[x, y]).unwrap();
    let mut found: Vec<(i32, i32)> = Solver::new(&model)
        .solutions()
        .map(|s| (s.value(x), s.value(y)))
        .collect();
    found.sort_unstable();
    let mut expected: Vec<(i32, i32)> = values
        .iter()
        .flat_map(|&a| values.iter().map(move |&b| (a, b)))
        .filter(|(a, b)| a != b)
        .collect();
    expected.sort_unstable();
    assert_eq!(found, expected);
}

/// Posts `z = x · y`, `w = |z|` and all-different `x, y, w` over four variables of
/// `-6..=6`, wide ones (made wide by one far value, then removed) when `wide`; returns
/// `[x, y, w]`.
fn post_times_abs_all_different(model: &mut Model, wide: bool) -> [bitcsp::VarId; 3] {
    let mut var = || {
        if wide {
            let values: Vec<i32> = (-6..=6).chain([1 << 20]).collect();
            let v = model.new_var_from_values(&values).unwrap();
            model.remove_value(v, 1 << 20).unwrap();
            v
        } else {
            model.new_var(-6..=6).unwrap()
        }
    };
    let (x, y, z, w) = (var(), var(), var(), var());
    model.times(x, y, z).unwrap();
    model.abs(z, w).unwrap();
    model.all_different(&[x, y, w]).unwrap();
    [x, y, w]
}

/// The same model over narrow and over wide domains (wide by one far value, then
/// removed) has the same solutions: here a small magic-sum puzzle with times and abs.
#[test]
fn wide_and_narrow_forms_of_one_model_agree() {
    let count = |wide: bool| {
        let mut model = Model::new();
        let [x, y, w] = post_times_abs_all_different(&mut model, wide);
        model
            .weighted_sum(&[x, y, w], &[1, 2, -1], Relation::AtMost, 3)
            .unwrap();
        Solver::new(&model).count(None).count
    };
    let narrow = count(false);
    let expected = (-6..=6i32)
        .flat_map(|x| (-6..=6i32).map(move |y| (x, y)))
        .filter(|&(x, y)| {
            let z = x * y;
            let w = z.abs();
            (-6..=6).contains(&z) && x != y && x != w && y != w && x + 2 * y - w <= 3
        })
        .count() as u64;
    assert_eq!(narrow, expected);
    assert_eq!(count(true), expected);
    const { assert!(MAX_BITSET_SPAN < 1 << 20) };
}

/// A guided search with a restart after every failure over wide domains (where the best
/// solution's value guides a decision only at a bound) proves the optimum that
/// enumeration gives, within a node limit.
#[test]
fn guided_restarted_optimisation_over_wide_domains_proves_the_optimum() {
    let mut model = Model::new();
    let [x, y, w] = post_times_abs_all_different(&mut model, true);
    model.minimize_sum(&[x, y, w], &[1, -2, 3]).unwrap();
    let best = (-6..=6i64)
        .flat_map(|x| (-6..=6i64).map(move |y| (x, y)))
        .filter_map(|(x, y)| {
            let w = (x * y).abs();
            (w <= 6 && x != y && x != w && y != w).then_some(x - 2 * y + 3 * w)
        })
        .min();
    let mut solver = Solver::new(&model);
    solver
        .set_solution_guided(true)
        .set_restarts(Restarts::Luby { scale: 1 })
        .set_node_limit(Some(100_000));
    match solver.optimize() {
        Optimum::Optimal { objective, .. } => assert_eq!(Some(objective), best),
        other => panic!("{other:?} against {best:?}"),
    }
    assert!(solver.stats().restarts > 0);
}

/// Bounds reasoning alone climbs `x < y < z < x` one step a run across the whole `i32`;
/// the cycle of differences adding up below zero fails it at once.
#[test]
fn orderings_that_close_a_cycle_fail_without_creeping_across_the_domain() {
    let mut model = Model::new();
    let x = model.new_vars(3, i32::MIN..=i32::MAX).unwrap();
    model.require(x[0].less_than(x[1])).unwrap();
    model.require(x[1].less_than(x[2])).unwrap();
    // Closed through an equality with an offset: z + 5 = w, w ≤ x + 5.
    let w = model.new_var(i32::MIN..=i32::MAX).unwrap();
    model.equal_offset(w, x[2], 5).unwrap();
    model.require(w.at_most(x[0] + 5)).unwrap();
    let mut solver = Solver::new(&model);
    solver.set_time_limit(Some(Duration::from_secs(20)));
    assert!(matches!(solver.solve(), SolveResult::Unsatisfiable));
    let runs = solver.stats().propagations;
    assert!(runs < 1_000_000, "{runs} propagator runs");
}

/// A job shop (four jobs of three tasks on three machines) whose start times have no
/// declared bounds, as a textbook MiniZinc model leaves them: each pair of tasks on a
/// machine is ordered by a reified ordering either way. The search's choices of
/// orderings close cycles, which must fail at once for the optimum to be proved.
#[test]
fn a_job_shop_with_unbounded_start_times_proves_its_optimum() {
    let durations = [[3, 2, 2], [2, 1, 4], [4, 3, 1], [2, 2, 3]];
    let machines = [[0, 1, 2], [1, 0, 2], [2, 1, 0], [0, 2, 1]];
    let mut model = Model::new();
    let end = model.new_var(i32::MIN..=i32::MAX).unwrap();
    let mut tasks = Vec::new();
    for (job, row) in durations.iter().enumerate() {
        let starts = model.new_vars(3, i32::MIN..=i32::MAX).unwrap();
        for (k, &s) in starts.iter().enumerate() {
            model.require(s.at_least(0)).unwrap();
            model.require((s + row[k]).at_most(end)).unwrap();
            if k > 0 {
                model
                    .require((starts[k - 1] + row[k - 1]).at_most(s))
                    .unwrap();
            }
            tasks.push((s, row[k], machines[job][k]));
        }
    }
    for (i, &(si, di, mi)) in tasks.iter().enumerate() {
        for &(sj, dj, mj) in &tasks[i + 1..] {
            if mi != mj {
                continue;
            }
            let (before, after) = (model.new_bool().unwrap(), model.new_bool().unwrap());
            model.reify(before.into(), (si + di).at_most(sj)).unwrap();
            model.reify(after.into(), (sj + dj).at_most(si)).unwrap();
            model.clause(&[before.into(), after.into()]).unwrap();
        }
    }
    model.minimize(end).unwrap();
    let mut solver = Solver::new(&model);
    solver
        .set_variable_order(VariableOrder::DomWdeg)
        .set_time_limit(Some(Duration::from_secs(20)));
    let Optimum::Optimal {
        solution: best,
        objective,
    } = solver.optimize()
    else {
        panic!("the optimum is not proved: {:?}", solver.stats());
    };
    assert_eq!((objective, best.value(end)), (12, 12));
    for (i, &(si, di, mi)) in tasks.iter().enumerate() {
        let (a, b) = (best.value(si), best.value(si) + di);
        assert!(a >= 0 && b <= 12, "task {i} at {a}..{b}");
        for &(sj, dj, mj) in &tasks[i + 1..] {
            let (c, d) = (best.value(sj), best.value(sj) + dj);
            assert!(
                mi != mj || b <= c || d <= a,
                "{a}..{b} and {c}..{d} overlap"
            );
        }
    }
}

/// The same cycle through a reified equality whose literal a clause sets: `b ⇔ x = y + 2`
/// with `b`, `y < z` and `z + 5 < x`.
#[test]
fn a_cycle_through_a_reified_equality_fails_once_its_literal_holds() {
    let mut model = Model::new();
    let x = model.new_vars(3, i32::MIN..=i32::MAX).unwrap();
    let b = model.new_bool().unwrap();
    model.reify(b.into(), x[0].equals(x[1] + 2)).unwrap();
    model.clause(&[b.into()]).unwrap();
    model.require(x[1].less_than(x[2])).unwrap();
    model.require((x[2] + 5).less_than(x[0])).unwrap();
    let mut solver = Solver::new(&model);
    solver.set_time_limit(Some(Duration::from_secs(20)));
    assert!(matches!(solver.solve(), SolveResult::Unsatisfiable));
    let runs = solver.stats().propagations;
    assert!(runs < 1_000_000, "{runs} propagator runs");
}
