//! `sudoku::large`: boards from 36×36 up, the engine's short try and then clause learning,
//! against the engine's and the learning search's own answers.

mod common;

use bitcsp::sudoku::large::{self, Limits, ENGINE_NODES};
use bitcsp::sudoku::learning::{self, Learned};
use bitcsp::sudoku::{self, SudokuError};
use bitcsp::{CountStatus, StopReason};
use common::{board_36, engine, engine_count};

#[test]
fn boards_with_many_givens_are_settled_within_the_engines_try() {
    for seed in 1..=4 {
        let board = board_36(seed, 65);
        let (learned, stats) = large::solve(&board, &Limits::default()).expect("no clash");
        // The engine alone, within the same nodes, gives the same answer at the same cost:
        // the answer is the engine's, and the learning search never ran.
        let (mut engine, cells) = engine(&board);
        engine.set_node_limit(Some(ENGINE_NODES));
        let solution = engine
            .solve()
            .solution()
            .map(|s| sudoku::decode(&board, &cells, &s))
            .expect("settled within the try");
        solution.check_solves(&board).expect("a solution");
        assert_eq!(learned, Learned::Solved(solution), "seed {seed}");
        assert_eq!(stats.nodes, engine.stats().nodes, "seed {seed}");
        assert_eq!(stats.solutions, 1);
    }
}

#[test]
fn boards_at_the_hardness_peak_go_on_to_the_learning_search() {
    let board = board_36(2, 50);
    let (learned, stats) = large::solve(&board, &Limits::default()).expect("no clash");
    match learned {
        Learned::Solved(s) => s.check_solves(&board).expect("a solution"),
        other => panic!("{other:?}"),
    }
    // Past the engine's try, the learning search's choices and clauses add up.
    assert!(stats.nodes > ENGINE_NODES, "{stats:?}");
    assert!(stats.nogoods > 0, "{stats:?}");
    // The caller's node limit holds over both searches: within the try, the engine
    // stops there; beyond it, the learning search has what is left.
    for nodes in [ENGINE_NODES / 2, ENGINE_NODES + 40] {
        let limits = Limits {
            nodes: Some(nodes),
            ..Limits::default()
        };
        let (learned, stats) = large::solve(&board, &limits).expect("no clash");
        assert_eq!(learned, Learned::Stopped(StopReason::NodeLimit));
        assert!(stats.nodes <= nodes, "{nodes}: {stats:?}");
    }
    let (found, _) = large::count(&board, Some(2), &Limits::default()).expect("no clash");
    let (alone, _) = learning::count(&board, Some(2), 1, |_| {}).expect("no clash");
    assert_eq!(found.count, alone.count);
    assert!(found.first.is_some_and(|s| s.check_solves(&board).is_ok()));
}

#[test]
fn counts_agree_with_the_engine_under_every_limit() {
    let mut settled = 0;
    // (6, 54) has 2,304 solutions.
    for (seed, keep) in [(1, 58), (2, 57), (3, 60), (4, 55), (5, 52), (6, 54)] {
        let board = board_36(seed, keep);
        let whole = engine_count(&board, None);
        assert_eq!(whole.status, CountStatus::Complete);
        for limit in [None, Some(0), Some(1), Some(3), Some(whole.count)] {
            let (found, stats) = large::count(&board, limit, &Limits::default()).expect("no clash");
            assert_eq!(
                found.count,
                engine_count(&board, limit),
                "seed {seed}, {limit:?}"
            );
            assert_eq!(stats.solutions, found.count.count);
            match &found.first {
                Some(first) => first.check_solves(&board).expect("a solution"),
                None => assert_eq!(found.count.count, 0),
            }
            // Past the try, the nodes are at least the try's.
            settled += usize::from(stats.nodes < ENGINE_NODES);
        }
    }
    // Both routes are taken: some counts settle in the engine, some need learning.
    assert!((1..30).contains(&settled), "{settled}");
}

#[test]
fn clashing_and_unsatisfiable_boards_are_told_apart() {
    let board = board_36(3, 60);
    let n = board.side();
    let (cell, digit) = (0..n * n)
        .find_map(|c| board.get(c / n, c % n).map(|d| (c, d)))
        .expect("a given");
    // The same digit again in the given's row: a clash.
    let mut clashing = board.clone();
    let other = (0..n)
        .map(|col| (cell / n) * n + col)
        .find(|&c| board.get(c / n, c % n).is_none())
        .expect("an empty cell in the row");
    clashing.set(other / n, other % n, digit);
    assert!(matches!(
        large::solve(&clashing, &Limits::default()),
        Err(SudokuError::Clash(_))
    ));
    assert!(matches!(
        large::count(&clashing, None, &Limits::default()),
        Err(SudokuError::Clash(_))
    ));
    // An empty cell given a digit that its peers' solution needs elsewhere, without a
    // clash among the givens: no solution, whichever search proves it.
    let (solved, _) = large::solve(&board, &Limits::default()).expect("no clash");
    let Learned::Solved(solution) = solved else {
        panic!("a solution")
    };
    let unsolvable = (0..n * n)
        .filter(|&c| board.get(c / n, c % n).is_none())
        .find_map(|c| {
            let mut b = board.clone();
            let wrong = solution.get(c / n, c % n)? % n as u8 + 1;
            b.set(c / n, c % n, wrong);
            let none = b.find_clash().is_none() && engine_count(&b, Some(1)).count == 0;
            none.then_some(b)
        })
        .expect("a wrong digit that clashes with no given");
    let (learned, _) = large::solve(&unsolvable, &Limits::default()).expect("no clash");
    assert_eq!(learned, Learned::NoSolution);
    let (found, _) = large::count(&unsolvable, None, &Limits::default()).expect("no clash");
    assert_eq!(
        (found.count.count, found.count.status, found.first),
        (0, CountStatus::Complete, None)
    );
}
