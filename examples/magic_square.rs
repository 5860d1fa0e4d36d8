//! Magic squares: the numbers 1..=n² in an n×n grid, every row, column and both
//! diagonals summing to n(n² + 1)/2. Prints one square, and for n ≤ 4 the number of them.
//!
//! `cargo run --release --example magic_square [N]` (default 4: 7,040 squares).

use std::process::ExitCode;

use bitcsp::{Model, ModelError, Relation, Solver, VarId};

/// The model of an n×n magic square and its cells in row order.
pub fn model(n: usize) -> Result<(Model, Vec<VarId>), ModelError> {
    let mut model = Model::new();
    let top = i32::try_from(n * n).map_err(|_| ModelError::EmptyDomain)?;
    let cells = model.new_vars(n * n, 1..=top)?;
    model.all_different(&cells)?;
    let magic = i64::from(top) * (i64::from(top) + 1) / 2 / n as i64;
    let ones = vec![1; n];
    for i in 0..n {
        let row: Vec<VarId> = (0..n).map(|j| cells[i * n + j]).collect();
        let col: Vec<VarId> = (0..n).map(|j| cells[j * n + i]).collect();
        model.weighted_sum(&row, &ones, Relation::Equal, magic)?;
        model.weighted_sum(&col, &ones, Relation::Equal, magic)?;
    }
    let diagonal: Vec<VarId> = (0..n).map(|i| cells[i * n + i]).collect();
    let anti: Vec<VarId> = (0..n).map(|i| cells[i * n + n - 1 - i]).collect();
    model.weighted_sum(&diagonal, &ones, Relation::Equal, magic)?;
    model.weighted_sum(&anti, &ones, Relation::Equal, magic)?;
    Ok((model, cells))
}

fn main() -> ExitCode {
    let n: usize = std::env::args()
        .nth(1)
        .and_then(|a| a.parse().ok())
        .filter(|&n| (1..=6).contains(&n))
        .unwrap_or(4);
    let (model, cells) = match model(n) {
        Ok(built) => built,
        Err(e) => {
            eprintln!("magic_square: {e}");
            return ExitCode::FAILURE;
        }
    };
    let mut solver = Solver::new(&model);
    match solver.solve().solution() {
        Some(square) => {
            for row in cells.chunks(n) {
                let values: Vec<String> = row
                    .iter()
                    .map(|&c| format!("{:3}", square.value(c)))
                    .collect();
                println!("{}", values.join(" "));
            }
        }
        None => println!("no magic square of side {n}"),
    }
    if n <= 4 {
        println!("{} magic squares", solver.count(None).count);
    }
    ExitCode::SUCCESS
}
