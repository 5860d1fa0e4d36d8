//! Golomb rulers: `n` marks at distinct integer positions, starting at 0, with all
//! pairwise distances different; the shortest ruler is found by branch and bound.
//!
//! `cargo run --release --example golomb [MARKS]` (default 10: length 55).

use std::process::ExitCode;

use bitcsp::{Model, ModelError, Optimum, Relation, Solver, VarId, VariableOrder};

/// The model for `n` marks within `0..=max_length`: the marks and the distances.
pub fn model(n: usize, max_length: i32) -> Result<(Model, Vec<VarId>), ModelError> {
    let mut model = Model::new();
    let marks = model.new_vars(n, 0..=max_length)?;
    model.fix(marks[0], 0)?;
    let mut distances = Vec::new();
    for i in 0..n {
        for j in i + 1..n {
            let d = model.new_var(1..=max_length)?;
            // d = marks[j] - marks[i]
            model.weighted_sum(&[marks[j], marks[i], d], &[1, -1, -1], Relation::Equal, 0)?;
            distances.push(d);
        }
    }
    for pair in marks.windows(2) {
        model.weighted_sum(pair, &[-1, 1], Relation::AtLeast, 1)?; // marks ascending
    }
    model.all_different(&distances)?;
    // Symmetry: the first distance is shorter than the last.
    if n > 2 {
        let (first, last) = (distances[0], distances[distances.len() - 1]);
        model.weighted_sum(&[first, last], &[1, -1], Relation::AtMost, -1)?;
    }
    model.minimize(marks[n - 1])?;
    Ok((model, marks))
}

fn main() -> ExitCode {
    let n: usize = std::env::args()
        .nth(1)
        .and_then(|a| a.parse().ok())
        .filter(|&n| (2..=14).contains(&n))
        .unwrap_or(10);
    // Marks at 0, 1, 3, 7, ... make a ruler of length 2^(n-1) - 1, and every known optimal
    // ruler is shorter than n² (up to 14 marks, which this example allows).
    let max_length = ((1i32 << (n - 1)) - 1).min((n * n) as i32);
    let (model, marks) = match model(n, max_length) {
        Ok(built) => built,
        Err(e) => {
            eprintln!("golomb: {e}");
            return ExitCode::FAILURE;
        }
    };
    let mut solver = Solver::new(&model);
    // Marks first, smallest values first, as the MiniZinc benchmark model's annotation
    // says: once the marks are placed every distance is known.
    solver.set_variable_order(VariableOrder::InputOrder);
    match solver.optimize_with(|i| {
        eprintln!(
            "length {} after {:.2} s",
            i.objective,
            i.elapsed.as_secs_f64()
        )
    }) {
        Optimum::Optimal {
            solution,
            objective,
        } => {
            let ruler: Vec<String> = marks
                .iter()
                .map(|&m| solution.value(m).to_string())
                .collect();
            println!("length {objective}: {}", ruler.join(" "));
            eprintln!("{} nodes", solver.stats().nodes);
            ExitCode::SUCCESS
        }
        other => {
            eprintln!("{other:?}");
            ExitCode::FAILURE
        }
    }
}
