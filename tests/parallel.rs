//! Parallel counting and enumeration: exact, and the same whatever the number of threads.

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;

use bitcsp::{
    coloring, queens, Compare, CountStatus, Model, Solver, StopReason, ValueOrder, ValueSymmetry,
    VarId, VariableOrder,
};
use proptest::prelude::*;

#[test]
fn parallel_counts_equal_sequential_counts_for_any_thread_count() {
    for n in 1..=10 {
        let (model, _) = queens::model(n).unwrap();
        let sequential = Solver::new(&model).count(None);
        for threads in [1, 2, 3, 8] {
            let parallel = Solver::new(&model).count_parallel(None, threads);
            assert_eq!(parallel, sequential, "n = {n}, threads = {threads}");
        }
    }
}

#[test]
fn parallel_solutions_come_in_the_same_order_for_any_thread_count() {
    let (model, rows) = queens::model(8).unwrap();
    let listing = |threads: usize| {
        let mut solver = Solver::new(&model);
        solver.set_value_order(ValueOrder::MiddleOut);
        parallel_listing(&mut solver, &rows, threads)
    };
    let one = listing(1);
    assert_eq!(distinct_count(&one), (92, 92));
    for threads in [2, 4, 7] {
        assert_eq!(listing(threads), one, "threads = {threads}");
    }
}

#[test]
fn parallel_solving_finds_the_first_solution_in_search_order() {
    for n in 1..=12 {
        let (model, _) = queens::model(n).unwrap();
        let sequential = Solver::new(&model).solve();
        for threads in [1, 2, 3, 8] {
            let parallel = Solver::new(&model).solve_parallel(threads);
            assert_eq!(parallel, sequential, "n = {n}, threads = {threads}");
        }
    }
}

#[test]
fn parallel_solving_stops_at_its_limits() {
    // Thirty queens with a middle-out order and a tiny node budget per subproblem: every
    // subproblem stops before a solution, and the call says so.
    let (model, _) = queens::model(30).unwrap();
    let mut solver = Solver::new(&model);
    solver
        .set_value_order(ValueOrder::MiddleOut)
        .set_node_limit(Some(1));
    assert!(matches!(
        solver.solve_parallel(2),
        bitcsp::SolveResult::Stopped(StopReason::NodeLimit)
    ));
}

#[test]
fn interchangeable_values_are_split_once_per_class() {
    // Colorings of small graphs with more colors than needed: with interchangeable
    // values the sequential search lists one coloring per renaming class, and the split
    // must try one unused color per node as well, or the parallel count repeats classes.
    let graphs = [
        coloring::Graph::from_edges(5, [(0, 1), (1, 2), (2, 3), (3, 4), (4, 0)]),
        coloring::Graph::from_edges(6, [(0, 1), (2, 3), (4, 5), (1, 2)]),
        coloring::Graph::from_edges(7, [(0, 1), (1, 2), (2, 0), (3, 4), (5, 6)]),
    ];
    for (i, graph) in graphs.iter().enumerate() {
        let mut m = Model::new();
        let vertices = m.new_vars(graph.num_vertices(), 0..=4).unwrap();
        for (u, v) in graph.edges() {
            m.not_equal(vertices[u], vertices[v]).unwrap();
        }
        let solver = |m: &Model| {
            let mut s = Solver::new(m);
            s.set_value_symmetry(ValueSymmetry::Interchangeable);
            s
        };
        let sequential = solver(&m).count(None);
        assert!(sequential.count > 1, "graph {i}");
        for threads in [1, 2, 3] {
            assert_eq!(
                solver(&m).count_parallel(None, threads),
                sequential,
                "graph {i}"
            );
        }
        let (listed, _) = solver(&m).solutions_parallel(None, 2);
        let canonical: Vec<_> = solver(&m).solutions().collect();
        assert_eq!(listed, canonical, "graph {i}");
        assert_eq!(
            solver(&m).solve_parallel(3),
            solver(&m).solve(),
            "graph {i}"
        );
    }
}

/// Every solution the parallel enumeration lists, as the values of `vars`.
fn parallel_listing(solver: &mut Solver, vars: &[VarId], threads: usize) -> Vec<Vec<i32>> {
    let (solutions, stop) = solver.solutions_parallel(None, threads);
    assert_eq!(stop, None);
    solutions
        .iter()
        .map(|s| vars.iter().map(|&v| s.value(v)).collect())
        .collect()
}

/// How many solutions a listing holds, and how many distinct ones.
fn distinct_count(listing: &[Vec<i32>]) -> (usize, usize) {
    let mut distinct = listing.to_vec();
    distinct.sort();
    distinct.dedup();
    (listing.len(), distinct.len())
}

#[test]
fn learned_weights_keep_parallel_enumeration_exact_and_ordered() {
    // Eight queens as pairwise disequalities (many constraints, so dom/wdeg's weights
    // differ between variables and change during each subproblem's search): every
    // subproblem starts from the same weights, so neither the count nor the order
    // depends on the number of threads.
    let mut m = Model::new();
    let rows = m.new_vars(8, 0..=7).unwrap();
    for i in 0..8 {
        for j in i + 1..8 {
            let d = (j - i) as i32;
            m.not_equal(rows[i], rows[j]).unwrap();
            m.not_equal_offset(rows[i], rows[j], d).unwrap();
            m.not_equal_offset(rows[i], rows[j], -d).unwrap();
        }
    }
    let solver = || {
        let mut solver = Solver::new(&m);
        solver.set_variable_order(VariableOrder::DomWdeg);
        solver
    };
    assert_eq!(solver().count(None).count, 92);
    let one = parallel_listing(&mut solver(), &rows, 1);
    assert_eq!(distinct_count(&one), (92, 92));
    for threads in [2, 3, 8] {
        let listing = parallel_listing(&mut solver(), &rows, threads);
        assert_eq!(listing, one, "threads = {threads}");
        assert_eq!(solver().count_parallel(None, threads).count, 92);
    }
}

#[test]
fn parallel_limits_cap_the_count_and_the_listing() {
    let (model, _) = queens::model(10).unwrap();
    let c = Solver::new(&model).count_parallel(Some(100), 4);
    assert_eq!((c.count, c.status), (100, CountStatus::LimitReached));
    let (solutions, _) = Solver::new(&model).solutions_parallel(Some(7), 3);
    assert_eq!(solutions.len(), 7);
    let mut solver = Solver::new(&model);
    solver.set_node_limit(Some(5));
    let c = solver.count_parallel(None, 2);
    assert_eq!(c.status, CountStatus::Stopped(StopReason::NodeLimit));
}

#[test]
fn progress_is_monotone_and_ends_at_one() {
    let (model, _) = queens::model(9).unwrap();
    let sink = Arc::new(AtomicU64::new(0));
    let mut solver = Solver::new(&model);
    solver.set_progress_sink(Some(Arc::clone(&sink)));
    let mut last = 0.0;
    let mut seen = 0;
    let mut solutions = solver.solutions();
    while solutions.next().is_some() {
        let p = solutions.progress();
        assert!(p >= last && p <= 1.0, "{p} after {last}");
        last = p;
        seen += 1;
    }
    assert_eq!(seen, 352);
    assert_eq!(solver.progress(), 1.0);
    assert_eq!(sink.load(Ordering::Relaxed), 1_000_000_000);

    let mut stopped = Solver::new(&model);
    stopped.set_node_limit(Some(100));
    stopped.count(None);
    assert!(stopped.progress() > 0.0 && stopped.progress() < 1.0);
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(100))]

    #[test]
    fn parallel_count_matches_sequential_on_random_models(
        n in 3usize..=7,
        domains in proptest::collection::vec(proptest::collection::btree_set(-3i32..=3, 1..=5), 7),
        pairs in proptest::collection::vec((0usize..7, 0usize..7, -2i32..=2), 0..10),
        groups in proptest::collection::vec(proptest::collection::btree_set(0usize..7, 2..=4), 0..3),
    ) {
        let mut m = Model::new();
        let vars: Vec<_> = domains[..n]
            .iter()
            .map(|d| m.new_var_from_values(&d.iter().copied().collect::<Vec<_>>()).unwrap())
            .collect();
        for (x, y, c) in pairs {
            if x < n && y < n && x != y {
                m.not_equal_offset(vars[x], vars[y], c).unwrap();
            }
        }
        for g in groups {
            let g: Vec<_> = g.into_iter().filter(|&i| i < n).map(|i| vars[i]).collect();
            if g.len() >= 2 {
                m.all_different(&g).unwrap();
            }
        }
        let sequential = Solver::new(&m).count(None);
        prop_assert_eq!(Solver::new(&m).count_parallel(None, 3), sequential);
        let (listed, _) = Solver::new(&m).solutions_parallel(None, 2);
        prop_assert_eq!(listed.len() as u64, sequential.count);
        let (again, _) = Solver::new(&m).solutions_parallel(None, 5);
        prop_assert_eq!(again, listed);
        prop_assert_eq!(Solver::new(&m).solve_parallel(2), Solver::new(&m).solve());
    }
}

/// A split lists the values of the variable it splits on, one part each: over a wide
/// range that would be a hundred million parts, listed before any search (and past any
/// limit). Such a variable is not split; the search is the sequential one.
#[test]
fn a_variable_of_a_hundred_million_values_is_not_split_value_by_value() {
    let mut model = Model::new();
    let x = model.new_var(0..=100_000_000).unwrap();
    let y = model.new_var(0..=100_000_000).unwrap();
    model.require((x + 7).at_most(y)).unwrap();
    model.minimize(y).unwrap();
    let sequential = Solver::new(&model).optimize();
    let bitcsp::Optimum::Optimal { objective, .. } = &sequential else {
        panic!("not proved: {sequential:?}");
    };
    assert_eq!(*objective, 7);
    for threads in [2, 3] {
        let mut solver = Solver::new(&model);
        solver.set_time_limit(Some(std::time::Duration::from_secs(20)));
        assert_eq!(
            solver.optimize_parallel(threads),
            sequential,
            "{threads} threads"
        );
    }
    let mut counting = Model::new();
    let xs = counting.new_vars(2, 0..=100_000_000).unwrap();
    counting.require(xs[0].less_than(xs[1])).unwrap();
    counting.require(xs[1].at_most(3)).unwrap();
    counting.require(xs[0].at_least(1)).unwrap();
    let mut solver = Solver::new(&counting);
    solver.set_time_limit(Some(std::time::Duration::from_secs(20)));
    assert_eq!(solver.count_parallel(None, 2).count, 3);
}

#[test]
fn parallel_optimisation_statistics_cover_the_optimisation_and_the_canonical_pass() {
    // The answer comes from a second search (the first solution in split order with the
    // objective fixed at the optimum); the statistics must count the first one too, so
    // they exceed those of the second search alone.
    let mut model = Model::new();
    let x = model.new_vars(7, 0..=9).unwrap();
    model.all_different(&x).unwrap();
    let total = model.minimize_sum(&x, &[7, 6, 5, 4, 3, 2, 1]).unwrap();
    let mut solver = Solver::new(&model);
    let best = solver.optimize_parallel(2).best().map(|b| b.1);
    let optimum = i32::try_from(best.expect("an optimum")).unwrap();
    let both = solver.stats();
    let mut canonical = Solver::new(&model);
    canonical.assume(&[(total, optimum)]).unwrap();
    assert!(canonical.solve_parallel(2).solution().is_some());
    let alone = canonical.stats();
    assert!(
        both.nodes > alone.nodes && both.propagations > alone.propagations,
        "{both:?} against {alone:?}"
    );
}
