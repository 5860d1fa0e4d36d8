//! The library route in a page: parse a board, build the engine model, solve, count, print.
//!
//! Run with `cargo run --example sudoku`.

use bitcsp::sudoku::{self, Board};
use bitcsp::{SolveResult, Solver};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    // Any accepted form works; this is LeetCode 37's example as nine strings.
    let board = Board::parse(
        r#"["53..7....","6..195...",".98....6.","8...6...3","4..8.3..1",
            "7...2...6",".6....28.","...419..5","....8..79"]"#,
    )?;
    println!("puzzle ({} givens):\n{board}", board.givens());

    // A board is a graph-coloring instance: 81 variables, 27 all-different groups.
    let (model, cells) = sudoku::model(&board)?;
    let mut solver = Solver::new(&model);
    // The search the model recommends for the board's size (the defaults on 9×9; from
    // 16×16 up, conflict-weighted branching, last-conflict reasoning and restarts).
    sudoku::configure(&mut solver, &board);
    match solver.solve() {
        SolveResult::Solution(s) => {
            let solved = sudoku::decode(&board, &cells, &s);
            solved.check_solves(&board)?;
            println!("solution:\n{solved}");
            println!("as a line: {}", solved.to_line());
        }
        SolveResult::Unsatisfiable => println!("no solution"),
        SolveResult::Stopped(reason) => println!("{reason}"),
    }
    println!("search: {:?}", solver.stats());

    // Uniqueness is a count up to two.
    let count = solver.count(Some(2));
    println!("solutions (up to 2): {} ({:?})", count.count, count.status);
    Ok(())
}
