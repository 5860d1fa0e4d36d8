//! Every public constructor and model method fed empty slices, extreme values and absurd
//! shapes: a typed error or a correct answer, never a panic (this profile checks overflow,
//! as the `dev` profile of every crate that depends on ours does).

use std::time::Duration;

use bitcsp::coloring::{self, Graph, Limits};
use bitcsp::sudoku::{self, Board, BoxShape, PuzzleSolver};
use bitcsp::{queens, Domain, Model, Relation, Solver, VarId};
use proptest::prelude::*;

fn cases() -> u32 {
    std::env::var("BITCSP_FUZZ_CASES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(256)
        .min(2_000)
}

/// Integers that break careless arithmetic.
fn extreme_i32() -> impl Strategy<Value = i32> {
    prop_oneof![
        Just(i32::MIN),
        Just(i32::MIN + 1),
        Just(-1),
        Just(0),
        Just(1),
        Just(i32::MAX - 1),
        Just(i32::MAX),
        any::<i32>(),
        -5..5i32,
    ]
}

fn extreme_i64() -> impl Strategy<Value = i64> {
    prop_oneof![
        Just(i64::MIN),
        Just(i64::MAX),
        Just(0),
        any::<i64>(),
        -20..20i64
    ]
}

fn extreme_usize() -> impl Strategy<Value = usize> {
    prop_oneof![
        Just(0),
        Just(1),
        Just(usize::MAX),
        Just(usize::MAX / 2 + 1),
        Just(1 << 32),
        0..70usize,
    ]
}

/// A small domain placed anywhere in the `i32` range.
fn placed_range() -> impl Strategy<Value = (i32, i32)> {
    (extreme_i32(), 0..4i32).prop_map(|(lo, width)| (lo, lo.saturating_add(width)))
}

/// Solves and counts `model` on a small node budget; neither may panic.
fn solve_bounded(model: &Model) {
    let mut solver = Solver::new(model);
    solver.set_node_limit(Some(2_000));
    let _ = solver.solve();
    let _ = Solver::new(model)
        .set_node_limit(Some(2_000))
        .count(Some(10));
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(cases()))]

    #[test]
    fn models_with_extreme_values_never_panic(
        ranges in prop::collection::vec(placed_range(), 0..5),
        offsets in prop::collection::vec(extreme_i32(), 0..5),
        coeffs in prop::collection::vec(extreme_i32(), 0..5),
        rhs in extreme_i64(),
        value in extreme_i32(),
        relation in prop_oneof![Just(Relation::Equal), Just(Relation::AtMost), Just(Relation::AtLeast)],
    ) {
        let mut model = Model::new();
        let vars: Vec<VarId> = ranges
            .iter()
            .filter_map(|&(lo, hi)| model.new_var(lo..=hi).ok())
            .collect();
        let k = vars.len().min(offsets.len()).min(coeffs.len());
        let _ = model.all_different(&vars);
        let _ = model.all_different(&[]);
        let _ = model.all_different_offset(&vars[..k], &offsets[..k]);
        let _ = model.weighted_sum(&vars[..k], &coeffs[..k], relation, rhs);
        let _ = model.sum(&vars, relation, rhs);
        let _ = model.sum(&[], relation, rhs);
        if let [x, y, ..] = vars[..] {
            let _ = model.not_equal_offset(x, y, value);
            let _ = model.not_equal_offset(y, x, value);
        }
        if let Some(&x) = vars.first() {
            let _ = model.fix(x, value);
            let _ = model.remove_value(x, value);
        }
        solve_bounded(&model);
        let mut solver = Solver::new(&model);
        if let Some(&x) = vars.first() {
            let _ = solver.assume(&[(x, value)]);
        }
        let _ = solver.set_time_limit(Some(Duration::MAX)).set_node_limit(Some(1_000)).solve();
        let _ = Solver::new(&model).set_node_limit(Some(0)).count_parallel(Some(u64::MAX), 2);
    }

    #[test]
    fn domains_and_variable_counts_at_the_limits_never_panic(
        a in extreme_i32(), b in extreme_i32(), count in extreme_usize(),
        values in prop::collection::vec(extreme_i32(), 0..6),
    ) {
        let _ = Domain::range(a..=b);
        let _ = Domain::from_values(&values);
        let mut model = Model::new();
        if let Ok(vars) = model.new_vars(count.min(1 << 12), 0..=1) {
            prop_assert_eq!(vars.len(), count.min(1 << 12));
        }
        if count > bitcsp::MAX_VARIABLES {
            prop_assert!(model.new_vars(count, 0..=1).is_err());
        }
        let _ = model.new_var_from_values(&values);
    }

    #[test]
    fn absurd_sudoku_shapes_are_typed_errors(rows in extreme_usize(), cols in extreme_usize()) {
        let shape = BoxShape { rows, cols };
        let side = rows.checked_mul(cols);
        let board = Board::empty(shape);
        prop_assert_eq!(
            board.is_ok(),
            side.is_some_and(|n| (1..=sudoku::MAX_SIZE).contains(&n))
        );
        if let (Err(e), None) = (&board, side) {
            // The message names what was asked, never a wrapped-around side.
            prop_assert!(e.to_string().contains(&format!("boxes of {rows}x{cols}")), "{}", e);
        }
        let _ = Board::parse_with_shape("1234", Some(shape));
        let _ = Board::parse_with_shape(&".".repeat(81), Some(shape));
        let _ = Board::parse_with_shape("1 2\n3 4\n", Some(shape));
        let _ = Board::from_cells(shape, vec![0; 16]);
        let _ = BoxShape::for_side(rows);
        if side.is_some_and(|n| n <= 9) {
            prop_assert!(PuzzleSolver::new(shape).is_ok() == board.is_ok());
        } else {
            prop_assert!(side.is_some_and(|n| n <= sudoku::MAX_SIZE) || PuzzleSolver::new(shape).is_err());
        }
    }

    #[test]
    fn queens_and_coloring_at_the_limits_never_panic(n in extreme_usize(), k in extreme_usize()) {
        prop_assert_eq!(queens::model(n).is_ok(), (1..=queens::MAX_N).contains(&n));
        if n <= 12 {
            let _ = queens::mirror_parts(n);
            let _ = queens::solve(n);
        } else {
            prop_assert!(queens::mirror_parts(n).is_err() || n <= queens::MAX_N);
        }
        let graph = Graph::from_edges(6, [(0, 1), (1, 2), (2, 0), (3, 4), (usize::MAX, 2), (n, k)]);
        let limits = Limits { nodes: Some(1_000), ..Limits::default() };
        match coloring::color_with(&graph, k, &limits) {
            Ok(coloring::Decision::Coloring(c)) => prop_assert!(k >= 3 && graph.is_proper_coloring(&c)),
            Ok(coloring::Decision::Impossible) => prop_assert!(k < 3),
            other => prop_assert!(false, "{:?}", other),
        }
        let _ = coloring::model(&graph, k.min(1 << 16));
    }
}

#[test]
fn an_empty_all_different_is_no_constraint() {
    let mut model = Model::new();
    let x = model.new_var(1..=3).expect("variable");
    model.all_different(&[]).expect("empty group");
    model.all_different(&[x]).expect("one variable");
    assert_eq!(Solver::new(&model).count(None).count, 3);
}

#[test]
fn coloring_with_a_million_colors_answers_at_once() {
    // Two vertices of 2,000 joined by one edge: DSATUR's two colors answer it, in memory
    // that does not depend on k.
    let graph = Graph::from_edges(2000, [(0, 1)]);
    let decision = coloring::color_with(&graph, 1_000_000, &Limits::default()).expect("model");
    let coloring::Decision::Coloring(c) = decision else {
        panic!("{decision:?}")
    };
    assert!(graph.is_proper_coloring(&c));
    assert!(c.iter().all(|&color| color < 2));
}
