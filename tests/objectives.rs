//! Branch and bound against exhaustive search: on small random models the optimum equals
//! the best objective over every solution, the solution returned is one of them and has
//! it, each reported improvement is strictly better than the one before, and knapsacks
//! agree with dynamic programming.

use bitcsp::{Model, Optimum, Relation, Restarts, Solver, StopReason, VarId};

mod common;
use common::Random;

/// A random model: 2–5 variables over small ranges, a few random constraints, and a random
/// linear objective (minimised or maximised); returns it with its variables, the
/// objective's variable and whether it is maximised.
fn random_model(random: &mut Random) -> (Model, Vec<VarId>, VarId, bool) {
    let mut model = Model::new();
    let n = 2 + random.below(4) as usize;
    let vars: Vec<VarId> = (0..n)
        .map(|_| {
            let lo = random.below(5) as i32 - 2;
            model
                .new_var(lo..=lo + random.below(4) as i32)
                .expect("variable")
        })
        .collect();
    for _ in 0..random.below(3) {
        let k = 2 + random.below(n as u64 - 1) as usize;
        let start = random.below((n - k + 1) as u64) as usize;
        let group = &vars[start..start + k];
        match random.below(3) {
            0 => model.all_different(group).expect("group"),
            1 => {
                let coeffs: Vec<i32> = group.iter().map(|_| random.below(5) as i32 - 2).collect();
                let rhs = random.below(7) as i64 - 3;
                model
                    .weighted_sum(group, &coeffs, Relation::AtMost, rhs)
                    .expect("sum")
            }
            _ => model.not_equal(group[0], group[1]).expect("not equal"),
        }
    }
    let coeffs: Vec<i32> = vars.iter().map(|_| random.below(9) as i32 - 4).collect();
    let maximise = random.below(2) == 0;
    let objective = if maximise {
        model.maximize_sum(&vars, &coeffs)
    } else {
        model.minimize_sum(&vars, &coeffs)
    }
    .expect("objective");
    (model, vars, objective, maximise)
}

/// The best objective over every solution of `model`, by enumeration.
fn best_by_enumeration(model: &Model, objective: VarId, maximise: bool) -> Option<i64> {
    let mut solver = Solver::new(model);
    let all = solver.solutions().map(|s| i64::from(s.value(objective)));
    if maximise {
        all.max()
    } else {
        all.min()
    }
}

/// Whether each reported improvement beats the one before it.
fn strictly_better(improvements: &[i64], maximise: bool) -> bool {
    improvements
        .windows(2)
        .all(|w| if maximise { w[1] > w[0] } else { w[1] < w[0] })
}

#[test]
fn the_optimum_is_the_best_objective_of_all_solutions() {
    let mut random = Random::seeded(0x0B1E);
    for round in 0..500 {
        let (model, _, objective, maximise) = random_model(&mut random);
        let best = best_by_enumeration(&model, objective, maximise);
        let mut improvements = Vec::new();
        let answer = Solver::new(&model).optimize_with(|i| improvements.push(i.objective));
        match (answer, best) {
            (
                Optimum::Optimal {
                    solution,
                    objective: value,
                },
                Some(best),
            ) => {
                assert_eq!(value, best, "round {round}");
                assert_eq!(i64::from(solution.value(objective)), value, "round {round}");
                let solutions: Vec<_> = Solver::new(&model).solutions().collect();
                assert!(
                    solutions.contains(&solution),
                    "round {round}: not a solution"
                );
                // Deterministic: the same search finds the same optimal solution.
                let again = Solver::new(&model).optimize();
                assert_eq!(again.best().map(|b| b.0), Some(&solution), "round {round}");
            }
            (Optimum::Infeasible, None) => {}
            (other, best) => panic!("round {round}: {other:?} against {best:?}"),
        }
        assert!(
            strictly_better(&improvements, maximise),
            "round {round}: {improvements:?}"
        );
        if let (Some(&last), Some(best)) = (improvements.last(), best) {
            assert_eq!(last, best, "round {round}");
        }
    }
}

#[test]
fn solution_guided_restarted_searches_reach_the_same_optimum() {
    // A restart after every failure (budgets 1, 1, 2, 1, 1, 2, 4, ...), every decision
    // after the first solution tried on the best solution's value first: the searches that
    // stray furthest from plain branch and bound must still prove the optimum.
    let mut random = Random::seeded(0x5EED_6D1D);
    let mut guided_rounds = 0;
    for round in 0..500 {
        let (model, _, objective, maximise) = random_model(&mut random);
        let best = best_by_enumeration(&model, objective, maximise);
        let guided = || {
            let mut solver = Solver::new(&model);
            solver
                .set_solution_guided(true)
                .set_restarts(Restarts::Luby { scale: 1 });
            let mut improvements = Vec::new();
            let answer = solver.optimize_with(|i| improvements.push(i.objective));
            (answer, improvements, solver.stats().restarts)
        };
        let (answer, improvements, restarts) = guided();
        match (&answer, best) {
            (
                Optimum::Optimal {
                    solution,
                    objective: value,
                },
                Some(best),
            ) => {
                assert_eq!(*value, best, "round {round}");
                let solutions: Vec<_> = Solver::new(&model).solutions().collect();
                assert!(
                    solutions.contains(solution),
                    "round {round}: not a solution"
                );
                assert_eq!(i64::from(solution.value(objective)), best, "round {round}");
            }
            (Optimum::Infeasible, None) => {}
            (other, best) => panic!("round {round}: {other:?} against {best:?}"),
        }
        assert!(
            strictly_better(&improvements, maximise),
            "round {round}: {improvements:?}"
        );
        assert_eq!(guided().0, answer, "round {round}: the same search twice");
        if improvements.len() > 1 && restarts > 0 {
            guided_rounds += 1;
        }
    }
    // The guide only acts after a first solution, and restarts after failures: enough
    // rounds must have both for the test to mean something.
    assert!(
        guided_rounds >= 100,
        "only {guided_rounds} rounds improved after restarts"
    );
}

#[test]
fn a_guided_search_keeps_the_best_solutions_values() {
    // Maximise x in 0..=2 with y + 2x >= 2, x before y, smallest values first. The first
    // solution is x = 0, y = 2 (y is forced up); once x may be 1 or 2, y may be 0 again.
    // Plain branch and bound then takes y = 0; a guided search keeps y = 2.
    let mut model = Model::new();
    let x = model.new_var(0..=2).expect("x");
    let y = model.new_var(0..=3).expect("y");
    model
        .weighted_sum(&[y, x], &[1, 2], Relation::AtLeast, 2)
        .expect("sum");
    model.maximize_sum(&[x], &[1]).expect("objective");
    let improvements = |guided: bool| {
        let mut solver = Solver::new(&model);
        solver
            .set_variable_order(bitcsp::VariableOrder::InputOrder)
            .set_solution_guided(guided);
        let mut path = Vec::new();
        let answer =
            solver.optimize_with(|i| path.push((i.solution.value(x), i.solution.value(y))));
        assert!(
            matches!(answer, Optimum::Optimal { objective: 2, .. }),
            "{answer:?}"
        );
        path
    };
    assert_eq!(improvements(false), [(0, 2), (1, 0), (2, 0)]);
    assert_eq!(improvements(true), [(0, 2), (1, 2), (2, 2)]);
}

/// The best value of a 0/1 knapsack, by dynamic programming over capacities.
fn knapsack_by_dp(items: &[(i32, i32)], capacity: i32) -> i64 {
    let mut best = vec![0i64; capacity as usize + 1];
    for &(weight, value) in items {
        for c in (weight as usize..=capacity as usize).rev() {
            best[c] = best[c].max(best[c - weight as usize] + i64::from(value));
        }
    }
    best[capacity as usize]
}

/// `n` random items (weights in `1..=max_weight`, values in `1..=max_value`) and a
/// capacity of a `share`-th of their total weight.
fn random_knapsack(
    random: &mut Random,
    n: usize,
    (max_weight, max_value): (u64, u64),
    share: i32,
) -> (Vec<(i32, i32)>, i32) {
    let items: Vec<(i32, i32)> = (0..n)
        .map(|_| {
            let weight = 1 + random.below(max_weight) as i32;
            (weight, 1 + random.below(max_value) as i32)
        })
        .collect();
    let capacity = items.iter().map(|i| i.0).sum::<i32>() / share;
    (items, capacity)
}

/// The knapsack with plain sums: 0/1 items (returned), the weights' sum at most the
/// capacity, the values' sum maximised.
fn plain_knapsack(items: &[(i32, i32)], capacity: i32) -> (Model, Vec<VarId>) {
    let mut model = Model::new();
    let take = model.new_vars(items.len(), 0..=1).expect("items");
    let weights: Vec<i32> = items.iter().map(|i| i.0).collect();
    let values: Vec<i32> = items.iter().map(|i| i.1).collect();
    model
        .weighted_sum(&take, &weights, Relation::AtMost, i64::from(capacity))
        .expect("capacity");
    model.maximize_sum(&take, &values).expect("objective");
    (model, take)
}

#[path = "../examples/knapsack.rs"]
#[allow(dead_code)]
mod knapsack;

#[test]
fn knapsacks_agree_with_dynamic_programming() {
    let mut random = Random::seeded(0x4B4E);
    for round in 0..60 {
        let n = 4 + random.below(11) as usize;
        let (items, capacity) = random_knapsack(&mut random, n, (30, 40), 2);
        let (model, take) = plain_knapsack(&items, capacity);
        let Optimum::Optimal {
            solution,
            objective,
        } = Solver::new(&model).optimize()
        else {
            panic!("round {round}: a knapsack always has an optimum")
        };
        assert_eq!(objective, knapsack_by_dp(&items, capacity), "round {round}");
        let chosen: Vec<&(i32, i32)> = items
            .iter()
            .zip(&take)
            .filter(|(_, &t)| solution.value(t) == 1)
            .map(|(i, _)| i)
            .collect();
        assert!(chosen.iter().map(|i| i.0).sum::<i32>() <= capacity);
        assert_eq!(
            chosen.iter().map(|i| i64::from(i.1)).sum::<i64>(),
            objective
        );
    }
}

#[test]
fn a_stopped_search_reports_its_best_and_a_proved_bound() {
    let mut random = Random::seeded(0x5709);
    let (items, capacity) = random_knapsack(&mut random, 22, (30, 40), 3);
    let (model, _) = plain_knapsack(&items, capacity);
    let optimum = knapsack_by_dp(&items, capacity);
    match Solver::new(&model).set_node_limit(Some(30)).optimize() {
        Optimum::Feasible {
            objective,
            bound,
            reason,
            ..
        } => {
            assert_eq!(reason, StopReason::NodeLimit);
            assert!(
                objective <= optimum && optimum <= bound,
                "{objective} {optimum} {bound}"
            );
        }
        Optimum::Unknown(StopReason::NodeLimit) => {}
        other => panic!("{other:?}"),
    }
}

#[test]
fn an_infeasible_model_has_no_optimum() {
    let mut model = Model::new();
    let x = model.new_vars(3, 1..=2).expect("variables");
    model.all_different(&x).expect("pigeonhole");
    model.minimize(x[0]).expect("objective");
    assert_eq!(Solver::new(&model).optimize(), Optimum::Infeasible);
}

#[test]
fn assumptions_restrict_the_optimisation() {
    let mut model = Model::new();
    let x = model.new_vars(3, 0..=3).expect("variables");
    model.all_different(&x).expect("group");
    let total = model.minimize_sum(&x, &[1, 1, 1]).expect("objective");
    let mut solver = Solver::new(&model);
    assert_eq!(solver.optimize().best().map(|b| b.1), Some(3)); // 0 + 1 + 2
    solver.assume(&[(x[0], 3)]).expect("assumption");
    let answer = solver.optimize();
    let (solution, objective) = answer.best().expect("an optimum");
    assert_eq!((objective, solution.value(x[0])), (4, 3)); // 3 + 0 + 1
    assert_eq!(i64::from(solution.value(total)), objective);
}

#[test]
fn the_parallel_optimum_is_the_sequential_one_whatever_the_threads() {
    let mut random = Random::seeded(0x9A7A);
    for round in 0..150 {
        let (model, _, objective, _) = random_model(&mut random);
        let sequential = Solver::new(&model).optimize();
        let answers: Vec<Optimum> = [1, 2, 3]
            .iter()
            .map(|&threads| Solver::new(&model).optimize_parallel(threads))
            .collect();
        assert_eq!(
            answers[0].best().map(|b| b.1),
            sequential.best().map(|b| b.1),
            "round {round}: the optimum"
        );
        assert!(
            answers.iter().all(|a| a == &answers[0]),
            "round {round}: {answers:?}"
        );
        if let Some((solution, value)) = answers[0].best() {
            assert_eq!(i64::from(solution.value(objective)), value, "round {round}");
        }
    }
    // A knapsack large enough to split and to prune across subproblems.
    let mut random = Random::seeded(0xD00D);
    let (items, capacity) = random_knapsack(&mut random, 16, (30, 40), 2);
    let (model, _) = plain_knapsack(&items, capacity);
    let one = Solver::new(&model).optimize_parallel(1);
    let two = Solver::new(&model).optimize_parallel(2);
    assert_eq!(one, two);
    assert_eq!(
        one.best().map(|b| b.1),
        Some(knapsack_by_dp(&items, capacity))
    );
}

#[test]
fn the_knapsack_constraint_has_exactly_the_solutions_of_its_sums() {
    let mut random = Random::seeded(0x5ACC);
    for round in 0..3_000 {
        let n = 1 + random.below(4) as usize;
        let weights: Vec<i32> = (0..n).map(|_| random.below(5) as i32).collect();
        let profits: Vec<i32> = (0..n).map(|_| random.below(5) as i32).collect();
        let mut model = Model::new();
        let items: Vec<VarId> = (0..n)
            .map(|_| model.new_var(0..=random.below(3) as i32).expect("item"))
            .collect();
        let cap_hi = random.below(12) as i32;
        let capacity = model
            .new_var(random.below(3) as i32..=cap_hi.max(2))
            .expect("capacity");
        let profit = model.new_var(random.below(6) as i32..=20).expect("profit");
        model
            .knapsack(&items, &weights, capacity, &profits, profit)
            .expect("knapsack");
        let mut found: Vec<Vec<i32>> = Solver::new(&model)
            .solutions()
            .map(|s| {
                items
                    .iter()
                    .chain([&capacity, &profit])
                    .map(|&v| s.value(v))
                    .collect()
            })
            .collect();
        found.sort();
        // Brute force over the items; capacity and profit follow from them.
        let domains: Vec<Vec<i32>> = items
            .iter()
            .map(|&v| model.domain(v).expect("item").iter().collect())
            .collect();
        let cap_domain: Vec<i32> = model.domain(capacity).expect("capacity").iter().collect();
        let profit_domain: Vec<i32> = model.domain(profit).expect("profit").iter().collect();
        let mut expected = Vec::new();
        let mut tuple = vec![0; n];
        loop {
            let w: i32 = tuple.iter().zip(&weights).map(|(x, w)| x * w).sum();
            let p: i32 = tuple.iter().zip(&profits).map(|(x, p)| x * p).sum();
            if cap_domain.contains(&w) && profit_domain.contains(&p) {
                let mut row = tuple.clone();
                row.push(w);
                row.push(p);
                expected.push(row);
            }
            // Next tuple over the item domains (all start at 0 and are ranges).
            let mut k = 0;
            while k < n {
                tuple[k] += 1;
                if domains[k].contains(&tuple[k]) {
                    break;
                }
                tuple[k] = 0;
                k += 1;
            }
            if k == n {
                break;
            }
        }
        expected.sort();
        assert_eq!(found, expected, "round {round}: {weights:?} {profits:?}");
    }
}

#[test]
fn knapsack_constraints_agree_with_dynamic_programming() {
    let mut random = Random::seeded(0xD9D9);
    for round in 0..40 {
        let n = 5 + random.below(26) as usize;
        let (items, capacity) = random_knapsack(&mut random, n, (50, 60), 3);
        let (model, _) = knapsack::model(i64::from(capacity), &items).expect("model");
        let answer = Solver::new(&model).optimize();
        assert_eq!(
            answer.best().map(|b| b.1),
            Some(knapsack_by_dp(&items, capacity)),
            "round {round}"
        );
    }
}

#[test]
fn a_knapsack_refuses_negative_terms() {
    let mut model = Model::new();
    let x = model.new_var(-1..=1).expect("item");
    let y = model.new_var(0..=1).expect("item");
    let [w, p] = [0; 2].map(|_| model.new_var(0..=10).expect("sum"));
    assert_eq!(
        model.knapsack(&[x], &[1], w, &[1], p),
        Err(bitcsp::ModelError::NegativeKnapsackTerm)
    );
    assert_eq!(
        model.knapsack(&[y], &[-1], w, &[1], p),
        Err(bitcsp::ModelError::NegativeKnapsackTerm)
    );
    assert!(model.knapsack(&[y], &[1, 2], w, &[1], p).is_err());
}

#[path = "../examples/golomb.rs"]
#[allow(dead_code)]
mod golomb;

#[test]
fn golomb_rulers_have_their_known_optimal_lengths() {
    // OEIS A003022: the shortest Golomb rulers with 2..=8 marks.
    for (n, length) in [(2, 1), (3, 3), (4, 6), (5, 11), (6, 17), (7, 25), (8, 34)] {
        let (model, marks) = golomb::model(n, (n * n) as i32).expect("model");
        let answer = Solver::new(&model).optimize();
        let (solution, objective) = answer.best().expect("a ruler");
        assert_eq!(objective, length, "{n} marks");
        let positions: Vec<i32> = marks.iter().map(|&m| solution.value(m)).collect();
        let mut distances: Vec<i32> = Vec::new();
        for (i, a) in positions.iter().enumerate() {
            distances.extend(positions[i + 1..].iter().map(|b| b - a));
        }
        let count = distances.len();
        distances.sort_unstable();
        distances.dedup();
        assert_eq!(
            distances.len(),
            count,
            "{n} marks: {positions:?} repeats a distance"
        );
    }
}
