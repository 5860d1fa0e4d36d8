//! N-Queens through the library in a page: build the model, solve, count, check.
//!
//! Run with `cargo run --example queens`.

use bitcsp::{queens, SolveResult, Solver, ValueOrder};

fn main() -> Result<(), bitcsp::ModelError> {
    // One variable per column (the row of its queen); rows and both diagonals all-different.
    let (model, rows) = queens::model(12)?;
    let mut solver = Solver::new(&model);
    solver.set_value_order(ValueOrder::MiddleOut);
    if let SolveResult::Solution(s) = solver.solve() {
        let placed: Vec<usize> = rows.iter().map(|&r| s.value(r) as usize).collect();
        assert!(queens::is_solution(&placed));
        print!("{}", queens::render(&placed));
    }
    let count = solver.count(None);
    println!("12 queens: {} solutions, {:?}", count.count, solver.stats());

    // Mirror symmetry halves the work of counting.
    let halved: u64 = queens::mirror_parts(12)?
        .iter()
        .map(|part| part.weight * Solver::new(&part.model).count(None).count)
        .sum();
    println!("with symmetry breaking: {halved}");

    // Large boards need the middle-out value order.
    let big = queens::solve(200)?.map(|rows| queens::is_solution(&rows));
    println!("200 queens solved and checked: {big:?}");
    Ok(())
}
