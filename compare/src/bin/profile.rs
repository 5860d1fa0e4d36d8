//! A fixed workload for profilers (`valgrind --tool=callgrind`):
//! `profile sudoku FILE [count]`, `profile peer FILE [count]` (the `sudoku` crate),
//! `profile queens N` or `profile generate [count]` (minimal 9×9 puzzles of seed 1). With
//! `SETUP=1` in the environment, `profile sudoku` builds each puzzle's model and solver
//! and stops there (the per-puzzle setup alone); with `REUSE=1` one
//! `sudoku::PuzzleSolver` solves the whole file.

use bitcsp::sudoku::{self, Board};
use bitcsp::{queens, Solver};

fn main() {
    let args: Vec<String> = std::env::args().collect();
    match args.get(1).map(String::as_str) {
        Some("sudoku") => {
            let text = std::fs::read_to_string(&args[2]).expect("puzzle file");
            let counting = args.get(3).is_some_and(|a| a == "count");
            let mut nodes = 0;
            // RESTARTS=0: never; RESTARTS=n: Luby restarts of scale n; unset: the default.
            let restarts = std::env::var("RESTARTS")
                .ok()
                .and_then(|s| s.parse().ok())
                .map(|scale| match scale {
                    0 => bitcsp::Restarts::Never,
                    scale => bitcsp::Restarts::Luby { scale },
                });
            if std::env::var("REUSE").is_ok() {
                // One PuzzleSolver for the whole file (9×9 puzzles).
                let shape = sudoku::BoxShape { rows: 3, cols: 3 };
                let mut reused = sudoku::PuzzleSolver::new(shape).expect("solver");
                for line in text.lines().filter(|l| !l.is_empty()) {
                    let board = Board::from_line(line).expect("valid puzzle");
                    if counting {
                        reused.count(&board, 2).expect("valid");
                    } else {
                        reused.solve(&board).expect("valid");
                    }
                    nodes += reused.engine().stats().nodes;
                }
                println!("nodes {nodes}");
                return;
            }
            for line in text.lines().filter(|l| !l.is_empty()) {
                let board = Board::from_line(line).expect("valid puzzle");
                let (model, _) = if std::env::var("DOMAIN").is_ok() {
                    sudoku::model_with(&board, bitcsp::Consistency::Domain).expect("model")
                } else {
                    sudoku::model(&board).expect("model")
                };
                let mut solver = Solver::new(&model);
                match std::env::var("ORDER").as_deref() {
                    Ok("mrv") => {
                        solver.set_variable_order(bitcsp::VariableOrder::Mrv);
                    }
                    Ok("dyn") => {
                        solver.set_variable_order(bitcsp::VariableOrder::MrvDynamicDegree);
                    }
                    _ => {}
                }
                if let Some(restarts) = restarts {
                    solver.set_restarts(restarts);
                }
                if std::env::var("SETUP").is_ok() {
                    nodes += std::hint::black_box(&solver).stats().nodes;
                    continue;
                }
                if counting {
                    solver.count(Some(2));
                } else {
                    solver.solve();
                }
                nodes += solver.stats().nodes;
            }
            println!("nodes {nodes}");
        }
        Some("peer") => {
            // The `sudoku` crate on the same file, for instruction counts to compare with.
            let text = std::fs::read_to_string(&args[2]).expect("puzzle file");
            let counting = args.get(3).is_some_and(|a| a == "count");
            let mut solved = 0;
            for line in text.lines().filter(|l| !l.is_empty()) {
                let s = ::sudoku::Sudoku::from_str_line(line).expect("valid puzzle");
                solved += usize::from(if counting {
                    s.solutions_count_up_to(2) == 1
                } else {
                    s.some_solution().is_some()
                });
            }
            println!("solved {solved}");
        }
        Some("generate") => {
            // Minimal 9×9 puzzles from the workshop's generator, no symmetry, seed 1.
            let count: u64 = args.get(2).and_then(|a| a.parse().ok()).unwrap_or(2000);
            let shape = sudoku::BoxShape { rows: 3, cols: 3 };
            let symmetry = bitcsp::sudoku::workshop::Symmetry::None;
            let mut generator =
                bitcsp::sudoku::workshop::Generator::new(shape, symmetry, None, 1).expect("9x9");
            let givens: usize = (0..count)
                .map(|i| generator.puzzle(i).expect("a puzzle").givens())
                .sum();
            println!("givens {givens}");
        }
        Some("variant") => {
            // Each puzzle of a variant file solved once, as the variants harness does.
            let variants: bitcsp::sudoku::variants::Variants =
                args[2].parse().expect("a variant name");
            let text = std::fs::read_to_string(&args[3]).expect("readable file");
            let mut solver = bitcsp::sudoku::variants::VariantSolver::new();
            let mut solved = 0;
            for line in text.lines().filter(|l| !l.trim().is_empty() && !l.starts_with('#')) {
                let puzzle = bitcsp::sudoku::variants::VariantPuzzle::parse(line, &variants, None)
                    .expect("a puzzle");
                solved += usize::from(solver.solve(&puzzle).expect("solves").is_some());
            }
            println!("solved {solved}");
        }
        Some("queens") => {
            let n: usize = args[2].parse().expect("n");
            let (model, _) = queens::model(n).expect("model");
            let mut solver = Solver::new(&model);
            if let Ok("input") = std::env::var("ORDER").as_deref() {
                solver.set_variable_order(bitcsp::VariableOrder::InputOrder);
            }
            if let Ok("desc") = std::env::var("VALUES").as_deref() {
                solver.set_value_order(bitcsp::ValueOrder::Descending);
            }
            println!("{:?} {:?}", solver.count(None), solver.stats());
        }
        _ => eprintln!(
            "usage: profile sudoku|peer FILE [count] | profile queens N | profile generate [count] \\
             | profile variant NAME FILE"
        ),
    }
}
