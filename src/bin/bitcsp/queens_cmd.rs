//! `bitcsp queens N`: one board, a count, or every solution.

use std::fmt::Write as _;
use std::time::Duration;

use bitcsp::{queens, CountStatus, SolveResult, Solver, StopReason, ValueOrder};

use crate::exit::Outcome;
use crate::output::{Lost, Output};
use crate::progress::SearchProgress;
use crate::{interrupt, say};

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
            say!("bitcsp queens: {e}");
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
    say!("{reason}");
    Outcome::stopped(reason)
}

/// Prints `text` and flushes it; a lost output makes the run fail.
fn print(text: std::fmt::Arguments<'_>, outcome: Outcome) -> Outcome {
    let mut out = Output::new();
    match out.write_fmt(text).and_then(|()| out.flush()) {
        Ok(()) => outcome,
        Err(Lost) => Outcome::FAILED,
    }
}

fn one(part: &queens::Part, settings: &Settings) -> Outcome {
    let mut solver = Solver::new(&part.model);
    configure(&mut solver, settings);
    match solver.solve() {
        SolveResult::Solution(s) => {
            let rows: Vec<usize> = part.rows.iter().map(|&r| s.value(r) as usize).collect();
            print(
                format_args!("{}", queens::render(&rows)),
                Outcome::default(),
            )
        }
        SolveResult::Unsatisfiable => print(format_args!("unsatisfiable\n"), Outcome::FAILED),
        SolveResult::Stopped(reason) => print(format_args!("unknown\n"), stopped(reason)),
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
        total = total.saturating_add(part.weight.saturating_mul(c.count));
        if c.status != CountStatus::Complete {
            status = c.status;
            break;
        }
    }
    progress.finish();
    match status {
        // No solution is a failure to answer, whether asked for one or for a count.
        CountStatus::Complete if total == 0 => print(format_args!("0\n"), Outcome::FAILED),
        CountStatus::Complete => print(format_args!("{total}\n"), Outcome::default()),
        CountStatus::LimitReached => print(format_args!("{total}+\n"), Outcome::default()),
        CountStatus::Stopped(reason) => print(format_args!("{total}+\n"), stopped(reason)),
    }
}

fn all(part: &queens::Part, limit: Option<u64>, settings: &Settings) -> Outcome {
    let mut solver = Solver::new(&part.model);
    configure(&mut solver, settings);
    // Plain ascending order lists solutions lexicographically, as people expect.
    solver.set_value_order(ValueOrder::Ascending);
    let mut out = Output::new();
    let mut printed = 0u64;
    let mut lost = false;
    let mut line = String::new();
    let stop = solver.for_each_solution_parallel_while(limit, settings.threads, |s| {
        line.clear();
        for (i, &r) in part.rows.iter().enumerate() {
            let sep = if i == 0 { "" } else { " " };
            let _ = write!(line, "{sep}{}", s.value(r) + 1);
        }
        printed += 1;
        lost = writeln!(out, "{line}").is_err();
        !lost
    });
    if lost || out.flush().is_err() {
        return Outcome::FAILED;
    }
    match stop {
        Some(reason) => stopped(reason),
        None if printed == 0 => print(format_args!("unsatisfiable\n"), Outcome::FAILED),
        None => Outcome::default(),
    }
}
