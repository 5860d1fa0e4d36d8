//! The exact-cover solver against brute force on small random problems, and on Sudoku
//! and Latin-square covers whose answers are known.

use bitcsp::cover::{self, CoverOutcome, CoverSolver, ExactCover};
use bitcsp::CountStatus;

mod common;
use common::Random;

/// The shared test generator, for indices.
struct Rng(Random);

impl Rng {
    fn below(&mut self, n: usize) -> usize {
        self.0.below(n as u64) as usize
    }

    /// A random option of `problem` to force, one time in `one_in`; none otherwise.
    fn forced(&mut self, problem: &ExactCover, one_in: usize) -> Vec<usize> {
        if self.below(one_in) == 0 {
            vec![self.below(problem.options())]
        } else {
            vec![]
        }
    }
}

/// Every cover of `problem`, by trying every subset of options (few options only).
fn brute_force_covers(problem: &ExactCover) -> Vec<Vec<usize>> {
    let m = problem.options();
    assert!(m <= 20);
    (0u32..1 << m)
        .map(|set| (0..m).filter(|&o| set >> o & 1 == 1).collect::<Vec<_>>())
        .filter(|chosen| problem.is_cover(chosen))
        .collect()
}

/// The covers among `covers` that include every option of `forced`, sorted.
fn covers_including(covers: &[Vec<usize>], forced: &[usize]) -> Vec<Vec<usize>> {
    let mut including: Vec<Vec<usize>> = covers
        .iter()
        .filter(|c| forced.iter().all(|f| c.contains(f)))
        .cloned()
        .collect();
    including.sort();
    including
}

fn random_problem(rng: &mut Rng) -> ExactCover {
    let primary = 1 + rng.below(7);
    let secondary = rng.below(3);
    let items = primary + secondary;
    let mut problem = ExactCover::new(primary, secondary).expect("small");
    let options = 1 + rng.below(16);
    for _ in 0..options {
        let mut chosen: Vec<usize> = (0..items).filter(|_| rng.below(3) == 0).collect();
        if chosen.is_empty() {
            chosen.push(rng.below(items));
        }
        problem.add_option(&chosen).expect("valid option");
    }
    problem
}

#[test]
fn random_problems_agree_with_brute_force() {
    let mut rng = Rng(Random(0x2545_F491_4F6C_DD1D));
    let (mut satisfiable, mut unsatisfiable) = (0, 0);
    for case in 0..3000 {
        let problem = random_problem(&mut rng);
        let covers = brute_force_covers(&problem);
        let forced = rng.forced(&problem, 2);
        let exists = covers.iter().any(|c| forced.iter().all(|f| c.contains(f)));
        if answer_agrees(&problem, &forced, exists, case) {
            satisfiable += 1;
        } else {
            unsatisfiable += 1;
        }
    }
    // Both answers occur often enough for the comparison to mean something.
    assert!(
        satisfiable > 300 && unsatisfiable > 300,
        "{satisfiable} / {unsatisfiable}"
    );
}

#[test]
fn random_problems_count_as_brute_force_does() {
    let mut rng = Rng(Random(0x6A09_E667_F3BC_C908));
    let mut several = 0;
    for case in 0..2000 {
        let problem = random_problem(&mut rng);
        let forced = rng.forced(&problem, 3);
        let expected = covers_including(&brute_force_covers(&problem), &forced);
        several += usize::from(expected.len() > 1);
        let mut found = Vec::new();
        let count = CoverSolver::new(&problem)
            .count(&forced, None, |c| found.push(c.to_vec()))
            .expect("known options");
        assert_eq!(count.status, CountStatus::Complete, "case {case}");
        assert_eq!(count.count, found.len() as u64, "case {case}");
        found.sort();
        assert_eq!(found, expected, "case {case}: each cover exactly once");
        // A limit below the number of covers stops there, with distinct covers.
        if expected.len() > 1 {
            let limit = 1 + rng.below(expected.len() - 1) as u64;
            let mut some = Vec::new();
            let count = CoverSolver::new(&problem)
                .count(&forced, Some(limit), |c| some.push(c.to_vec()))
                .expect("known options");
            assert_eq!(
                (count.count, count.status),
                (limit, CountStatus::LimitReached)
            );
            some.sort();
            some.dedup();
            assert_eq!(some.len() as u64, limit, "case {case}: repeated covers");
            assert!(some.iter().all(|c| expected.contains(c)), "case {case}");
        }
    }
    assert!(several > 200, "only {several} problems with several covers");
}

/// One solver, several searches with different forced options: each search starts from
/// the problem as stated, whatever the one before it settled at its root.
#[test]
fn one_solver_answers_each_of_several_searches_as_brute_force_does() {
    let mut rng = Rng(Random(0x3C6E_F372_FE94_F82B));
    let mut forced_with_cover = 0;
    for case in 0..1000 {
        let problem = random_problem(&mut rng);
        let covers = brute_force_covers(&problem);
        let mut solver = CoverSolver::new(&problem);
        for round in 0..4 {
            let forced = rng.forced(&problem, 1);
            let expected = covers_including(&covers, &forced);
            forced_with_cover += usize::from(!expected.is_empty() && !forced.is_empty());
            let mut found = Vec::new();
            let count = solver
                .count(&forced, None, |c| found.push(c.to_vec()))
                .expect("known options");
            found.sort();
            assert_eq!(found, expected, "case {case}, round {round}");
            assert_eq!(
                (count.count, count.status),
                (expected.len() as u64, CountStatus::Complete),
                "case {case}, round {round}"
            );
            match solver.solve(&forced).expect("known options") {
                CoverOutcome::Solution(chosen) => {
                    assert!(expected.contains(&chosen), "case {case}, round {round}")
                }
                CoverOutcome::Unsatisfiable => assert!(expected.is_empty(), "case {case}"),
                other => panic!("case {case}: {other:?}"),
            }
        }
    }
    assert!(
        forced_with_cover > 300,
        "only {forced_with_cover} searches with a forced option and a cover"
    );
}

#[test]
fn latin_squares_and_sudoku_grids_of_order_four_count_as_published() {
    use bitcsp::sudoku::{learning, Board, BoxShape};
    // OEIS A002860: 576 Latin squares of order 4.
    let problem = latin_cover(4);
    let count = CoverSolver::new(&problem)
        .count(&[], None, |c| assert!(problem.is_cover(c)))
        .expect("no forced option");
    assert_eq!((count.count, count.status), (576, CountStatus::Complete));
    // 288 full 4×4 Sudoku grids; a limit of 100 stops at 100.
    let board = Board::empty(BoxShape { rows: 2, cols: 2 }).expect("a shape");
    let (problem, forced) = learning::exact_cover(&board);
    let count = CoverSolver::new(&problem)
        .count(&forced, None, |_| {})
        .expect("no forced option beyond the problem");
    assert_eq!((count.count, count.status), (288, CountStatus::Complete));
    let count = CoverSolver::new(&problem)
        .count(&forced, Some(100), |_| {})
        .expect("no forced option beyond the problem");
    assert_eq!(
        (count.count, count.status),
        (100, CountStatus::LimitReached)
    );
}

/// The Latin square of order `n` as exact cover: option `(r * n + c) * n + v` puts value
/// `v` at row `r`, column `c`; items are the cells, each row's values and each column's.
fn latin_cover(n: usize) -> ExactCover {
    let mut problem = ExactCover::new(3 * n * n, 0).expect("small");
    for r in 0..n {
        for c in 0..n {
            for v in 0..n {
                problem
                    .add_option(&[r * n + c, n * n + r * n + v, 2 * n * n + c * n + v])
                    .expect("valid option");
            }
        }
    }
    problem
}

/// Whether the partial Latin square `given` (cell, value) completes, by the CP engine.
fn completes_by_search(n: usize, given: &[(usize, usize)]) -> bool {
    let mut model = bitcsp::Model::new();
    let cells = model.new_vars(n * n, 0..=(n as i32 - 1)).expect("vars");
    for i in 0..n {
        let row: Vec<_> = (0..n).map(|j| cells[i * n + j]).collect();
        let col: Vec<_> = (0..n).map(|j| cells[j * n + i]).collect();
        model.all_different(&row).expect("row");
        model.all_different(&col).expect("column");
    }
    for &(cell, v) in given {
        if model.fix(cells[cell], v as i32).is_err() {
            return false;
        }
    }
    bitcsp::Solver::new(&model).solve().solution().is_some()
}

/// Solves `problem` with `forced` and asserts the answer against an oracle's: a cover
/// holding the forced options when `exists`, none otherwise. True when it found one.
fn answer_agrees(problem: &ExactCover, forced: &[usize], exists: bool, case: usize) -> bool {
    match CoverSolver::new(problem)
        .solve(forced)
        .expect("known options")
    {
        CoverOutcome::Solution(chosen) => {
            assert!(exists, "case {case}: a cover the oracle says cannot exist");
            assert!(problem.is_cover(&chosen), "case {case}: not a cover");
            assert!(forced.iter().all(|f| chosen.contains(f)), "case {case}");
            true
        }
        CoverOutcome::Unsatisfiable => {
            assert!(!exists, "case {case}: the oracle has a cover");
            false
        }
        CoverOutcome::Stopped(_) => panic!("case {case}: no limit was set"),
    }
}

#[test]
fn partial_latin_squares_agree_with_the_cp_engine() {
    let mut rng = Rng(Random(0x9E37_79B9_7F4A_7C15));
    let (mut satisfiable, mut unsatisfiable) = (0, 0);
    for case in 0..400 {
        let n = 4 + rng.below(4);
        let problem = latin_cover(n);
        // Random givens that do not clash directly: some complete, some do not.
        let mut given: Vec<(usize, usize)> = Vec::new();
        for _ in 0..n + rng.below(n * n / 2) {
            let (cell, v) = (rng.below(n * n), rng.below(n));
            let clashes = given
                .iter()
                .any(|&(c, w)| c == cell || (w == v && (c / n == cell / n || c % n == cell % n)));
            if !clashes {
                given.push((cell, v));
            }
        }
        let forced: Vec<usize> = given.iter().map(|&(cell, v)| cell * n + v).collect();
        let expected = completes_by_search(n, &given);
        if answer_agrees(&problem, &forced, expected, case) {
            satisfiable += 1;
        } else {
            unsatisfiable += 1;
        }
    }
    assert!(
        satisfiable > 40 && unsatisfiable > 40,
        "{satisfiable} / {unsatisfiable}"
    );
}

/// A random Latin square of order `n`: the cyclic square with rows, columns and symbols
/// shuffled.
fn random_latin_square(n: usize, rng: &mut Rng) -> Vec<usize> {
    let mut perms: Vec<Vec<usize>> = (0..3).map(|_| (0..n).collect()).collect();
    for perm in &mut perms {
        for i in (1..n).rev() {
            perm.swap(i, rng.below(i + 1));
        }
    }
    let mut square = vec![0; n * n];
    for r in 0..n {
        for c in 0..n {
            square[perms[0][r] * n + perms[1][c]] = perms[2][(r + c) % n];
        }
    }
    square
}

#[test]
fn larger_partial_latin_squares_agree_with_the_cp_engine() {
    // Orders 8 and 9 with holes punched in a full square (always completable), and with
    // up to two kept entries changed where that clashes with no other entry (often not
    // completable, though no rule is broken yet): long enough searches to learn, restart
    // and clean up learned clauses.
    let mut rng = Rng(Random(0xD1B5_4A32_D192_ED03));
    let (mut satisfiable, mut unsatisfiable) = (0, 0);
    for case in 0..60 {
        let n = 8 + case % 2;
        let square = random_latin_square(n, &mut rng);
        let mut given: Vec<(usize, usize)> = (0..n * n)
            .filter(|_| rng.below(100) < if case % 3 == 0 { 45 } else { 60 })
            .map(|cell| (cell, square[cell]))
            .collect();
        for _ in 0..usize::from(case % 3 != 0 && !given.is_empty()) * 2 {
            let k = rng.below(given.len());
            let kept = given[k].1;
            given[k].1 = (kept + 1 + rng.below(n - 1)) % n;
            let (cell, v) = given[k];
            if given
                .iter()
                .any(|&(c, w)| c != cell && w == v && (c / n == cell / n || c % n == cell % n))
            {
                given[k].1 = kept;
            }
        }
        let forced: Vec<usize> = given.iter().map(|&(cell, v)| cell * n + v).collect();
        let expected = completes_by_search(n, &given);
        if answer_agrees(&latin_cover(n), &forced, expected, case) {
            satisfiable += 1;
        } else {
            unsatisfiable += 1;
        }
    }
    assert!(
        satisfiable > 10 && unsatisfiable > 5,
        "{satisfiable} / {unsatisfiable}"
    );
}

#[test]
fn hard_sudoku_puzzles_get_their_unique_solutions_by_learning() {
    use bitcsp::sudoku::{self, learning, Board};
    let text = include_str!("../benches/data/sudoku/forum_hardest_1905_11plus.txt");
    for line in text.lines().filter(|l| !l.trim().is_empty()).take(40) {
        let board = Board::parse(line).expect("a board");
        let expected = sudoku::solve(&board).expect("no clash").expect("solvable");
        // One search, and three raced (a helper may answer with the unique solution).
        for searches in [1, 3] {
            let (outcome, _) = learning::solve(&board, searches, |_| {}).expect("no clash");
            assert_eq!(
                outcome,
                learning::Learned::Solved(expected.clone()),
                "{line}"
            );
        }
    }
}

#[test]
fn a_half_kept_large_board_has_two_distinct_solutions_by_learning() {
    use bitcsp::sudoku::{learning, Board};
    let board = common::board_36(2, 50);
    let (problem, forced) = learning::exact_cover(&board);
    let mut solutions: Vec<Board> = Vec::new();
    let count = CoverSolver::new(&problem)
        .count(&forced, Some(2), |chosen| {
            solutions.push(learning::decode(&board, chosen))
        })
        .expect("the givens' options");
    assert_eq!((count.count, count.status), (2, CountStatus::LimitReached));
    for solved in &solutions {
        solved
            .check_solves(&board)
            .expect("a solution of the board");
    }
    assert_ne!(solutions[0], solutions[1]);
    let (found, _) = learning::count(&board, Some(2), 1, |_| {}).expect("no clash");
    assert_eq!(found.count, count);
    assert!(found.first.is_some_and(|s| s.check_solves(&board).is_ok()));
}

#[test]
fn limits_stop_the_search_and_say_which() {
    use bitcsp::sudoku::{learning, Board, BoxShape};
    use bitcsp::StopReason;
    use std::sync::atomic::AtomicBool;
    use std::sync::Arc;
    let board = Board::empty(BoxShape { rows: 5, cols: 5 }).expect("a shape");
    let (problem, forced) = learning::exact_cover(&board);
    let mut solver = CoverSolver::new(&problem);
    solver.set_node_limit(Some(10));
    assert_eq!(
        solver.solve(&forced).expect("known options"),
        CoverOutcome::Stopped(StopReason::NodeLimit)
    );
    assert_eq!(solver.stats().decisions, 10);
    solver
        .set_node_limit(None)
        .set_cancel_flag(Some(Arc::new(AtomicBool::new(true))));
    assert_eq!(
        solver.solve(&forced).expect("known options"),
        CoverOutcome::Stopped(StopReason::Cancelled)
    );
    assert_eq!(
        solver.stats().decisions,
        0,
        "a flag set beforehand stops at once"
    );
    solver.set_cancel_flag(None);
    match solver.solve(&forced).expect("known options") {
        CoverOutcome::Solution(chosen) => assert!(problem.is_cover(&chosen)),
        other => panic!("expected a cover, got {other:?}"),
    }
}

#[test]
fn mistakes_in_a_problem_are_errors_and_degenerate_problems_are_answered() {
    use bitcsp::cover::CoverError;
    assert_eq!(
        ExactCover::new(usize::MAX, 1).err(),
        Some(CoverError::TooLarge {
            max: (u32::MAX >> 2) as usize
        })
    );
    let mut problem = ExactCover::new(2, 1).expect("small");
    assert_eq!(
        problem.add_option(&[0, 3]),
        Err(CoverError::UnknownItem {
            option: 0,
            item: 3,
            items: 3
        })
    );
    assert_eq!(
        problem.add_option(&[1, 1]),
        Err(CoverError::RepeatedItem { option: 0, item: 1 })
    );
    assert_eq!(problem.options(), 0);
    let a = problem.add_option(&[0, 2]).expect("valid");
    let mut solver = CoverSolver::new(&problem);
    assert_eq!(
        solver.solve(&[5]),
        Err(CoverError::UnknownOption {
            option: 5,
            options: 1
        })
    );
    // Item 1 has no option: no cover.
    assert_eq!(solver.solve(&[]), Ok(CoverOutcome::Unsatisfiable));
    let b = problem.add_option(&[1]).expect("valid");
    let mut solver = CoverSolver::new(&problem);
    assert_eq!(solver.solve(&[]), Ok(CoverOutcome::Solution(vec![a, b])));
    // No items at all: the empty cover.
    let empty = ExactCover::new(0, 0).expect("small");
    assert_eq!(
        CoverSolver::new(&empty).solve(&[]),
        Ok(CoverOutcome::Solution(vec![]))
    );
}

/// These small problems end within a raced solve's first slice, where seed 0 comes first:
/// the race answers as seed 0 alone, on any number of threads.
#[test]
fn raced_searches_answer_as_one_search_does() {
    let mut rng = Rng(Random(0xBB67_AE85_84CA_A73B));
    let mut covered = 0;
    for case in 0..600 {
        let problem = random_problem(&mut rng);
        let forced = rng.forced(&problem, 3);
        let alone = CoverSolver::new(&problem)
            .solve(&forced)
            .expect("known options");
        covered += usize::from(matches!(alone, CoverOutcome::Solution(_)));
        let counted = CoverSolver::new(&problem)
            .count(&forced, None, |_| {})
            .expect("known options");
        for searches in [0, 2, 3] {
            let (raced, _) =
                cover::solve_raced(&problem, &forced, searches, |_| {}).expect("known options");
            assert_eq!(raced, alone, "case {case}, {searches} searches");
            let (raced, _) = cover::count_raced(&problem, &forced, None, searches, |_| {})
                .expect("known options");
            assert_eq!(raced.count, counted, "case {case}, {searches} searches");
            assert_eq!(raced.first.is_some(), counted.count > 0, "case {case}");
            let first = raced.first.unwrap_or_default();
            assert!(
                counted.count == 0 || problem.is_cover(&first),
                "case {case}"
            );
        }
    }
    assert!(covered > 100, "only {covered} problems with a cover");
}

#[test]
fn seeds_change_the_search_but_not_a_unique_answer() {
    use bitcsp::sudoku::{learning, Board};
    let text = include_str!("../benches/data/sudoku/forum_hardest_1905_11plus.txt");
    let board = Board::parse(text.lines().next().expect("a puzzle")).expect("a board");
    let (problem, forced) = learning::exact_cover(&board);
    let mut answers = Vec::new();
    let mut decisions = Vec::new();
    for seed in [0, 1, 2, 0] {
        let mut solver = CoverSolver::new(&problem);
        solver.set_seed(seed);
        answers.push(solver.solve(&forced).expect("the givens' options"));
        decisions.push(solver.stats().decisions);
    }
    assert!(matches!(&answers[0], CoverOutcome::Solution(c) if problem.is_cover(c)));
    assert!(answers.iter().all(|a| *a == answers[0]), "{answers:?}");
    // Each seed is reproducible, and the seeds search differently.
    assert_eq!(decisions[0], decisions[3]);
    assert!(
        decisions[0] != decisions[1] || decisions[0] != decisions[2],
        "{decisions:?}"
    );
}

/// A 36×36 board with many solutions where seed 1 ends in its first slice of conflicts
/// and seed 0 needs two: seed 1's cover answers, on one thread as on two, though the
/// searches took turns on one and ran side by side on two.
#[test]
fn a_raced_board_gets_the_cover_that_ends_first_in_the_order_of_slices() {
    use bitcsp::sudoku::learning;
    let board = common::board_36(1, 45);
    let (problem, forced) = learning::exact_cover(&board);
    let alone = |seed: u64| {
        let mut solver = CoverSolver::new(&problem);
        solver.set_seed(seed);
        let outcome = solver.solve(&forced).expect("the givens' options");
        (outcome, solver.stats().conflicts)
    };
    let ((zero, zero_conflicts), (one, one_conflicts)) = (alone(0), alone(1));
    // The board as the test needs it: seed 1 within the first slice, seed 0 beyond it,
    // and two different covers.
    assert!(
        one_conflicts < cover::RACE_SLICE,
        "seed 1: {one_conflicts} conflicts"
    );
    assert!(
        zero_conflicts >= cover::RACE_SLICE,
        "seed 0: {zero_conflicts} conflicts"
    );
    assert_ne!(zero, one);
    let CoverOutcome::Solution(chosen) = &one else {
        panic!("{one:?}")
    };
    assert!(problem.is_cover(chosen));
    for threads in [1, 2] {
        let (raced, stats) =
            cover::solve_raced(&problem, &forced, threads, |_| {}).expect("known options");
        assert_eq!(raced, one, "{threads} threads");
        assert_eq!(stats.conflicts, one_conflicts, "{threads} threads");
    }
}

#[test]
fn a_raced_board_with_many_solutions_gets_one_solution_for_any_number_of_threads() {
    use bitcsp::sudoku::learning;
    // 40 % of a 36×36 grid kept: thousands of solutions, one of which must answer.
    let board = common::board_36(1, 40);
    let (one_thread, _) = learning::solve(&board, 1, |_| {}).expect("no clash");
    let learning::Learned::Solved(solution) = &one_thread else {
        panic!("{one_thread:?}")
    };
    solution.check_solves(&board).expect("a solution");
    for threads in [2, 3] {
        let (raced, _) = learning::solve(&board, threads, |_| {}).expect("no clash");
        assert_eq!(raced, one_thread, "{threads} threads");
        let (counted, _) = learning::count(&board, Some(50), threads, |_| {}).expect("no clash");
        assert_eq!(
            (counted.count.count, counted.count.status),
            (50, CountStatus::LimitReached)
        );
    }
}
