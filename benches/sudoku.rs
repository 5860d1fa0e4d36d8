//! Sudoku through the public model API (`sudoku::model` + the engine, and one
//! `sudoku::PuzzleSolver` for a whole set: `_reused`) on the fixed samples in
//! `benches/data/sudoku`: first solution and count up to two. Parsing is done before the
//! clock starts. `carved_25x25_50.txt` holds twelve 25×25 puzzles carved from one grid with
//! about half the givens kept (seeds 0–11 of `orders -- 5 50`), solved with the search
//! `sudoku::configure` recommends (dom/wdeg, last-conflict reasoning, restarts).

use std::hint::black_box;

use bitcsp::sudoku::learning::Learned;
use bitcsp::sudoku::{self, large, Board};
use bitcsp::Solver;
use criterion::{criterion_group, criterion_main, Criterion};

fn boards(file: &str) -> Vec<Board> {
    let path = format!(
        "{}/benches/data/sudoku/{file}.txt",
        env!("CARGO_MANIFEST_DIR")
    );
    std::fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("{path}: {e}"))
        .lines()
        .take(200)
        .map(|l| Board::from_line(l).expect("valid puzzle"))
        .collect()
}

fn solve_all(boards: &[Board], count: bool) -> u64 {
    boards
        .iter()
        .map(|b| {
            let (model, _) = sudoku::model(b).expect("model");
            let mut solver = Solver::new(&model);
            if count {
                solver.count(Some(2)).count
            } else {
                u64::from(solver.solve().solution().is_some())
            }
        })
        .sum()
}

/// The same work with one `PuzzleSolver` for the whole set (no model or solver built per
/// puzzle; the answers are decoded into boards, as a user of it gets them).
fn solve_all_reused(solver: &mut sudoku::PuzzleSolver, boards: &[Board], count: bool) -> u64 {
    boards
        .iter()
        .map(|b| {
            if count {
                solver.count(b, 2).expect("valid").count
            } else {
                u64::from(solver.solve(b).expect("valid").is_some())
            }
        })
        .sum()
}

fn bench_sudoku(c: &mut Criterion) {
    let mut group = c.benchmark_group("sudoku");
    group.sample_size(20);
    for file in ["17_clue", "forum_hardest_1905_11plus", "magictour_top1465"] {
        let set = boards(file);
        group.bench_function(format!("{file}/solve_200"), |b| {
            b.iter(|| solve_all(black_box(&set), false))
        });
        group.bench_function(format!("{file}/count2_200"), |b| {
            b.iter(|| solve_all(black_box(&set), true))
        });
        let shape = sudoku::BoxShape { rows: 3, cols: 3 };
        let mut reused = sudoku::PuzzleSolver::new(shape).expect("solver");
        group.bench_function(format!("{file}/solve_200_reused"), |b| {
            b.iter(|| solve_all_reused(&mut reused, black_box(&set), false))
        });
        group.bench_function(format!("{file}/count2_200_reused"), |b| {
            b.iter(|| solve_all_reused(&mut reused, black_box(&set), true))
        });
    }
    group.finish();
}

fn bench_large_boards(c: &mut Criterion) {
    let mut group = c.benchmark_group("sudoku_large");
    group.sample_size(10);
    let set = boards("carved_25x25_50");
    group.bench_function("carved_25x25_50/solve_12", |b| {
        b.iter(|| {
            black_box(&set)
                .iter()
                .map(|board| {
                    let (model, _) = sudoku::model(board).expect("model");
                    let mut solver = Solver::new(&model);
                    sudoku::configure(&mut solver, board);
                    u64::from(solver.solve().solution().is_some())
                })
                .sum::<u64>()
        })
    });
    group.finish();
}

/// 36×36 boards from the `large` harness (`--print`): seed 7 with half its cells kept,
/// which only the learning search solves, and seed 1 with 40 % kept, which has thousands
/// of solutions.
fn bench_learning(c: &mut Criterion) {
    let path = format!(
        "{}/benches/data/sudoku/carved_36x36.txt",
        env!("CARGO_MANIFEST_DIR")
    );
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    let set: Vec<Board> = text
        .lines()
        .map(|l| Board::parse(l).expect("valid board"))
        .collect();
    let limits = large::Limits::default();
    let mut group = c.benchmark_group("sudoku_36");
    group.sample_size(10);
    group.bench_function("half_kept_seed_7/solve", |b| {
        b.iter(|| {
            let (learned, _) = large::solve(black_box(&set[0]), &limits).expect("no clash");
            matches!(learned, Learned::Solved(_))
        })
    });
    group.bench_function("kept_40_seed_1/count_200", |b| {
        b.iter(|| {
            let (found, _) =
                large::count(black_box(&set[1]), Some(200), &limits).expect("no clash");
            found.count.count
        })
    });
    group.finish();
}

criterion_group!(benches, bench_sudoku, bench_large_boards, bench_learning);
criterion_main!(benches);
