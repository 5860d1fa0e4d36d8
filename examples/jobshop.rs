//! Job shop scheduling: each job runs its operations in order, each on one machine for a
//! given time; a machine runs one operation at a time. The makespan (when the last job
//! ends) is minimised. Each pair of operations on one machine gets a Boolean that orders
//! them, reified both ways: `b ⇔ (a ends before c starts)` and `¬b ⇔ (c ends before a
//! starts)`.
//!
//! `cargo run --release --example jobshop [FILE]` (default `examples/data/ft06.txt`,
//! Fisher and Thompson's 6×6 instance: makespan 55).

use std::process::ExitCode;

use bitcsp::{Compare, Literal, Model, ModelError, Optimum, Solver, VarId};

/// A job shop instance: per job, its operations as `(machine, duration)`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Instance {
    /// The number of machines.
    pub machines: usize,
    /// Per job, its operations in order.
    pub jobs: Vec<Vec<(usize, i32)>>,
}

/// Reads the format of `examples/data/ft06.txt`: `#` comments, a line `jobs machines`,
/// then one line per job of `machine duration` pairs.
///
/// # Errors
/// A message naming the line that is wrong.
pub fn parse(text: &str) -> Result<Instance, String> {
    let mut lines = text
        .lines()
        .enumerate()
        .map(|(i, l)| (i + 1, l.trim()))
        .filter(|(_, l)| !l.is_empty() && !l.starts_with('#'));
    let numbers = |(n, line): (usize, &str)| -> Result<Vec<i64>, String> {
        line.split_whitespace()
            .map(|w| {
                w.parse::<i64>()
                    .map_err(|_| format!("line {n}: '{w}' is not a number"))
            })
            .collect()
    };
    let (n, header) = lines.next().ok_or("no header line")?;
    let header = numbers((n, header))?;
    let [jobs, machines] = header[..] else {
        return Err(format!("line {n}: expected 'jobs machines'"));
    };
    let machines = usize::try_from(machines).map_err(|_| format!("line {n}: bad machines"))?;
    let mut all = Vec::new();
    for _ in 0..jobs {
        let (n, line) = lines.next().ok_or("fewer job lines than the header says")?;
        let values = numbers((n, line))?;
        if values.len() % 2 != 0 {
            return Err(format!("line {n}: machine and duration pairs expected"));
        }
        let ops = values
            .chunks(2)
            .map(|p| match (usize::try_from(p[0]), i32::try_from(p[1])) {
                (Ok(m), Ok(d)) if m < machines && d >= 0 => Ok((m, d)),
                _ => Err(format!("line {n}: machine or duration out of range")),
            })
            .collect::<Result<Vec<_>, _>>()?;
        all.push(ops);
    }
    Ok(Instance {
        machines,
        jobs: all,
    })
}

/// The model: operation start times (returned, per job) and the makespan (minimised).
///
/// # Errors
/// [`ModelError::DomainTooLarge`] when the total duration does not fit an `i32`.
pub fn model(instance: &Instance) -> Result<(Model, Vec<Vec<VarId>>, VarId), ModelError> {
    let horizon: i64 = instance
        .jobs
        .iter()
        .flatten()
        .map(|op| i64::from(op.1))
        .sum();
    let horizon = i32::try_from(horizon).map_err(|_| ModelError::DomainTooLarge {
        span: horizon.unsigned_abs(),
        max: i32::MAX as u64,
    })?;
    let mut model = Model::new();
    let makespan = model.new_var(0..=horizon)?;
    let mut starts = Vec::new();
    for job in &instance.jobs {
        let s = model.new_vars(job.len(), 0..=horizon)?;
        for (k, &(_, d)) in job.iter().enumerate() {
            let end = s[k] + i64::from(d);
            match s.get(k + 1) {
                Some(&next) => model.require(end.at_most(next))?,
                None => model.require(end.at_most(makespan))?,
            }
        }
        starts.push(s);
    }
    let ops: Vec<(usize, VarId, i64)> = instance
        .jobs
        .iter()
        .zip(&starts)
        .flat_map(|(job, s)| job.iter().zip(s).map(|(&(m, d), &v)| (m, v, i64::from(d))))
        .collect();
    for (i, &(m, a, da)) in ops.iter().enumerate() {
        for &(m2, c, dc) in &ops[i + 1..] {
            if m == m2 {
                let before = model.new_bool()?;
                model.reify(before.into(), (a + da).at_most(c))?;
                model.reify(!Literal::from(before), (c + dc).at_most(a))?;
            }
        }
    }
    model.minimize(makespan)?;
    Ok((model, starts, makespan))
}

fn main() -> ExitCode {
    let path = std::env::args().nth(1);
    let text = match &path {
        Some(p) => match std::fs::read_to_string(p) {
            Ok(t) => t,
            Err(e) => {
                eprintln!("jobshop: {p}: {e}");
                return ExitCode::FAILURE;
            }
        },
        None => include_str!("data/ft06.txt").to_string(),
    };
    let name = path.as_deref().unwrap_or("examples/data/ft06.txt");
    let built = parse(&text)
        .map_err(|e| format!("{name}: {e}"))
        .and_then(|i| model(&i).map_err(|e| format!("{name}: {e}")));
    let (model, starts, _) = match built {
        Ok(b) => b,
        Err(e) => {
            eprintln!("jobshop: {e}");
            return ExitCode::FAILURE;
        }
    };
    let mut solver = Solver::new(&model);
    match solver.optimize_with(|i| {
        eprintln!(
            "makespan {} after {:.2} s",
            i.objective,
            i.elapsed.as_secs_f64()
        )
    }) {
        Optimum::Optimal {
            solution,
            objective,
        } => {
            println!("makespan {objective} (optimal)");
            for (j, s) in starts.iter().enumerate() {
                let times: Vec<String> = s.iter().map(|&v| solution.value(v).to_string()).collect();
                println!("job {j}: starts {}", times.join(" "));
            }
            eprintln!("{:?}", solver.stats());
            ExitCode::SUCCESS
        }
        Optimum::Infeasible => {
            println!("infeasible");
            ExitCode::FAILURE
        }
        other => {
            println!("{other:?}");
            ExitCode::FAILURE
        }
    }
}
