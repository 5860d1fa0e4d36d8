//! Wide domains (spans beyond `MAX_BITSET_SPAN`, kept as intervals): any `i32` range,
//! holes and value lists kept exact, all-different that does not scan the span, and
//! objectives over them.

use bitcsp::domain::MAX_BITSET_SPAN;
use bitcsp::{Domain, Model, Optimum, Relation, Restarts, SolveResult, Solver};

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
