//! `bitcsp queens N`: one board, a count, or every solution.

use std::io::{self, Write};
use std::time::Duration;

use bitcsp::{queens, CountStatus, SolveResult, Solver, StopReason, ValueOrder};

use crate::exit::Outcome;
use crate::interrupt;
use crate::progress::SearchProgress;

/// What the user asked for.
#[derive(Clone, Copy, Debug)]
pub enum Mode {
    /// One solution as a board.
    One,
    /// The number of solutions, up to a limit.
    Count { limit: Option<u64>, symmetry: bool },
    /// Every solution (up to a limit), one line each.
    All { limit: Option<u64> },
}

/// Settings of one run.
#[derive(Clone, Debug)]
pub struct Settings {
    pub n: usize,
    pub mode: Mode,
    pub threads: usize,
    pub time_limit: Option<Duration>,
    pub node_limit: Option<u64>,
}

fn configure(solver: &mut Solver, settings: &Settings) {
    solver
        .set_value_order(ValueOrder::MiddleOut)
        .set_time_limit(settings.time_limit)
        .set_node_limit(settings.node_limit)
        .set_cancel_flag(Some(interrupt::flag()));
}

/// Runs the command.
pub fn run(settings: &Settings) -> Outcome {
    let parts = match settings.mode {
        Mode::Count { symmetry: true, .. } => queens::mirror_parts(settings.n),
        _ => queens::model(settings.n).map(|(model, rows)| {
            vec![queens::Part {
                model,
                rows,
                weight: 1,
            }]
        }),
    };
    let parts = match parts {
        Ok(p) => p,
        Err(e) => {
            eprintln!("bitcsp queens: {e}");
            return Outcome::FAILED;
        }
    };
    match settings.mode {
        Mode::One => one(&parts[0], settings),
        Mode::Count { limit, .. } => count(&parts, limit, settings),
        Mode::All { limit } => all(&parts[0], limit, settings),
    }
}

fn stopped(reason: StopReason) -> Outcome {
    eprintln!("{reason}");
    Outcome::stopped(reason)
}

fn one(part: &queens::Part, settings: &Settings) -> Outcome {
    let mut solver = Solver::new(&part.model);
    configure(&mut solver, settings);
    match solver.solve() {
        SolveResult::Solution(s) => {
            let rows: Vec<usize> = part.rows.iter().map(|&r| s.value(r) as usize).collect();
            print!("{}", queens::render(&rows));
            Outcome::default()
        }
        SolveResult::Unsatisfiable => {
            println!("unsatisfiable");
            Outcome::FAILED
        }
        SolveResult::Stopped(reason) => {
            println!("unknown");
            stopped(reason)
        }
    }
}

fn count(parts: &[queens::Part], limit: Option<u64>, settings: &Settings) -> Outcome {
    let mut total = 0u64;
    let mut status = CountStatus::Complete;
    let progress = SearchProgress::start();
    for part in parts {
        let mut solver = Solver::new(&part.model);
        configure(&mut solver, settings);
        solver.set_progress_sink(Some(progress.sink()));
        let remaining = limit.map(|l| l.saturating_sub(total));
        let c = solver.count_parallel(remaining, settings.threads);
        total += part.weight * c.count;
        if c.status != CountStatus::Complete {
            status = c.status;
            break;
        }
    }
    progress.finish();
    match status {
        CountStatus::Complete => {
            println!("{total}");
            Outcome::default()
        }
        CountStatus::LimitReached => {
            println!("{total}+");
            Outcome::default()
        }
        CountStatus::Stopped(reason) => {
            println!("{total}+");
            stopped(reason)
        }
    }
}

fn all(part: &queens::Part, limit: Option<u64>, settings: &Settings) -> Outcome {
    let mut solver = Solver::new(&part.model);
    configure(&mut solver, settings);
    // Plain ascending order lists solutions lexicographically, as people expect.
    solver.set_value_order(ValueOrder::Ascending);
    let mut out = io::BufWriter::new(io::stdout());
    let mut printed = 0u64;
    for s in solver
        .solutions()
        .take(limit.map_or(usize::MAX, |l| l as usize))
    {
        let line: Vec<String> = part
            .rows
            .iter()
            .map(|&r| (s.value(r) + 1).to_string())
            .collect();
        if writeln!(out, "{}", line.join(" ")).is_err() {
            return Outcome::default();
        }
        printed += 1;
    }
    let _ = out.flush();
    match solver.stop_reason() {
        Some(reason) => stopped(reason),
        None if printed == 0 => {
            println!("unsatisfiable");
            Outcome::FAILED
        }
        None => Outcome::default(),
    }
}
