//! 0/1 knapsack by branch and bound: read `n capacity`, then `n` lines `weight value`
//! (the format of `../shared/data/knapsack/`), and print the optimum and the items taken.
//!
//! `cargo run --release --example knapsack [FILE] [SECONDS]` (default: the 40-item
//! instance in `examples/data`, and a 10-second limit, after which the best value found and
//! the proved bound are printed). The model is one `knapsack` constraint, whose linear
//! relaxation (Dantzig's bound) prunes the branch and bound.

use std::process::ExitCode;

use bitcsp::{Model, ModelError, Optimum, Solver, VarId};

const DEFAULT: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/examples/data/knapsack_uncorrelated_40.txt"
);

/// The model: one 0/1 variable per item (returned), a `knapsack` constraint over the
/// items' weights and values, and the value maximised.
///
/// # Errors
/// [`ModelError::DomainTooLarge`] when the capacity or the total value does not fit an
/// `i32`, and the errors of [`Model::knapsack`].
pub fn model(capacity: i64, items: &[(i32, i32)]) -> Result<(Model, Vec<VarId>), ModelError> {
    let mut model = Model::new();
    let take = model.new_vars(items.len(), 0..=1)?;
    let weights: Vec<i32> = items.iter().map(|i| i.0).collect();
    let values: Vec<i32> = items.iter().map(|i| i.1).collect();
    let top = |x: i64| {
        i32::try_from(x).map_err(|_| ModelError::DomainTooLarge {
            span: x.unsigned_abs(),
            max: i32::MAX as u64,
        })
    };
    let weight = model.new_var(0..=top(capacity)?)?;
    let total = values.iter().map(|&v| i64::from(v)).sum::<i64>();
    let value = model.new_var(0..=top(total)?)?;
    model.knapsack(&take, &weights, weight, &values, value)?;
    model.maximize(value)?;
    Ok((model, take))
}

/// The capacity and the items (weight, value), or why the text is not an instance.
pub fn parse(text: &str) -> Result<(i64, Vec<(i32, i32)>), String> {
    let mut lines = text
        .lines()
        .enumerate()
        .filter(|(_, l)| !l.trim().is_empty());
    let numbers = |(i, line): (usize, &str)| -> Result<Vec<i64>, String> {
        line.split_whitespace()
            .map(|t| {
                t.parse()
                    .map_err(|_| format!("line {}: {t:?} is not a number", i + 1))
            })
            .collect()
    };
    let header = numbers(lines.next().ok_or("empty file")?)?;
    let [n, capacity] = header[..] else {
        return Err("line 1: expected `n capacity`".into());
    };
    if capacity < 0 {
        return Err("line 1: the capacity is negative".into());
    }
    let mut items = Vec::new();
    for line in lines {
        let number = line.0 + 1;
        match numbers(line)?[..] {
            [w, v] => items.push((
                i32::try_from(w).map_err(|_| format!("line {number}: weight out of range"))?,
                i32::try_from(v).map_err(|_| format!("line {number}: value out of range"))?,
            )),
            _ => return Err(format!("line {number}: expected `weight value`")),
        }
    }
    if i64::try_from(items.len()) != Ok(n) {
        return Err(format!("{n} items announced, {} found", items.len()));
    }
    Ok((capacity, items))
}

fn main() -> ExitCode {
    let path = std::env::args()
        .nth(1)
        .unwrap_or_else(|| DEFAULT.to_string());
    let seconds: f64 = std::env::args()
        .nth(2)
        .and_then(|s| s.parse().ok())
        .filter(|s: &f64| s.is_finite() && *s >= 0.0)
        .unwrap_or(10.0);
    let parsed = std::fs::read_to_string(&path)
        .map_err(|e| format!("cannot read: {e}"))
        .and_then(|text| parse(&text));
    let (capacity, items) = match parsed {
        Ok(instance) => instance,
        Err(e) => {
            eprintln!("{path}: {e}");
            return ExitCode::FAILURE;
        }
    };
    let built = model(capacity, &items);
    let (model, take) = match built {
        Ok(built) => built,
        Err(e) => {
            eprintln!("{path}: {e}");
            return ExitCode::FAILURE;
        }
    };
    let mut solver = Solver::new(&model);
    solver.set_time_limit(Some(std::time::Duration::from_secs_f64(seconds)));
    match solver.optimize_with(|i| {
        eprintln!(
            "value {} after {:.3} s",
            i.objective,
            i.elapsed.as_secs_f64()
        )
    }) {
        Optimum::Optimal {
            solution,
            objective,
        } => {
            let chosen: Vec<String> = (0..items.len())
                .filter(|&i| solution.value(take[i]) == 1)
                .map(|i| (i + 1).to_string())
                .collect();
            println!("optimum {objective}");
            println!("items {}", chosen.join(" "));
            eprintln!("{} nodes", solver.stats().nodes);
            ExitCode::SUCCESS
        }
        Optimum::Feasible {
            objective,
            bound,
            reason,
            ..
        } => {
            println!("best {objective} ({reason}; no solution is worth more than {bound})");
            ExitCode::SUCCESS
        }
        other => {
            eprintln!("{other:?}");
            ExitCode::FAILURE
        }
    }
}
