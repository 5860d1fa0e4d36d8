//! `bitcsp fzn MODEL.fzn`: a FlatZinc model solved as MiniZinc expects of a solver. Each
//! solution prints its outputs and `----------`; `==========` follows when the search
//! finished; `=====UNSATISFIABLE=====`, `=====UNKNOWN=====` and `=====ERROR=====` say the
//! rest. These are answers: the status is 0 after any of them but ERROR (1).

use std::io::Read;
use std::time::{Duration, Instant};

use bitcsp::flatzinc::{build, parse, Built, Goal};
use bitcsp::{Optimum, Solution, Solver, Statistics};

use crate::exit::Outcome;
use crate::output::{Lost, Output};
use crate::{files, interrupt, say};

/// Settings of one run.
#[derive(Clone, Debug)]
pub struct Settings {
    /// The model's path, or `-` for standard input.
    pub file: String,
    /// Every solution of a satisfaction problem; every improvement of an optimisation.
    pub all: bool,
    /// Every improvement of an optimisation.
    pub intermediate: bool,
    /// Stop after this many solutions.
    pub solutions: Option<u64>,
    /// The time limit.
    pub time_limit: Option<Duration>,
    /// Print statistics.
    pub statistics: bool,
}

/// Runs the command.
pub fn run(settings: &Settings) -> Outcome {
    let mut out = Output::new();
    let started = Instant::now();
    let result = read(&settings.file).and_then(|text| {
        let located =
            |e: bitcsp::flatzinc::FznError| format!("{}:{}: {}", settings.file, e.line, e.message);
        let items = parse(&text).map_err(located)?;
        build(&items).map_err(located)
    });
    let written = match result {
        Ok(built) => solve(&built, settings, &mut out, started),
        Err(message) => {
            say!("bitcsp fzn: {message}");
            let _ = writeln!(out, "=====ERROR=====");
            let _ = out.flush();
            return Outcome::FAILED;
        }
    };
    match written.and_then(|()| out.flush()) {
        Ok(()) => Outcome::default(),
        Err(Lost) => Outcome::FAILED,
    }
}

fn read(path: &str) -> Result<String, String> {
    let mut text = String::new();
    let read = if path == "-" {
        std::io::stdin().read_to_string(&mut text)
    } else {
        files::open_input(path).and_then(|mut f| f.read_to_string(&mut text))
    };
    read.map(|_| text).map_err(|e| format!("{path}: {e}"))
}

fn configure(solver: &mut Solver, settings: &Settings) {
    solver
        .set_time_limit(settings.time_limit)
        .set_cancel_flag(Some(interrupt::flag()));
}

fn print_solution(out: &mut Output, built: &Built, solution: &Solution) -> Result<(), Lost> {
    write!(out, "{}", built.format(solution))?;
    writeln!(out, "----------")
}

fn solve(
    built: &Built,
    settings: &Settings,
    out: &mut Output,
    started: Instant,
) -> Result<(), Lost> {
    let mut solver = Solver::new(&built.model);
    configure(&mut solver, settings);
    let limit = settings
        .solutions
        .unwrap_or(if settings.all { u64::MAX } else { 1 });
    let (complete, found, objective) = match built.goal {
        Goal::Satisfy => {
            let mut found = 0u64;
            let mut result = Ok(());
            {
                let mut solutions = solver.solutions();
                while found < limit {
                    let Some(s) = solutions.next() else { break };
                    found += 1;
                    result = result.and_then(|()| print_solution(out, built, &s));
                }
            }
            result?;
            let complete = found < limit && solver.stop_reason().is_none();
            (complete, found, None)
        }
        Goal::Minimize(_) | Goal::Maximize(_) => {
            let every = settings.all || settings.intermediate;
            let mut printed: Option<i64> = None;
            let mut result = Ok(());
            let optimum = solver.optimize_with(|i| {
                if every {
                    result = result.and_then(|()| print_solution(out, built, i.solution));
                    printed = Some(i.objective);
                }
            });
            result?;
            match optimum {
                Optimum::Optimal {
                    solution,
                    objective,
                } => {
                    if printed != Some(objective) {
                        print_solution(out, built, &solution)?;
                    }
                    (true, 1, Some(objective))
                }
                Optimum::Feasible {
                    solution,
                    objective,
                    ..
                } => {
                    if printed != Some(objective) {
                        print_solution(out, built, &solution)?;
                    }
                    (false, 1, Some(objective))
                }
                Optimum::Infeasible => (true, 0, None),
                _ => (false, 0, None),
            }
        }
    };
    match (found, complete) {
        (0, true) => writeln!(out, "=====UNSATISFIABLE=====")?,
        (0, false) => writeln!(out, "=====UNKNOWN=====")?,
        (_, true) => writeln!(out, "==========")?,
        _ => {}
    }
    if settings.statistics {
        statistics(out, &solver.stats(), found, objective, started)?;
    }
    Ok(())
}

fn statistics(
    out: &mut Output,
    stats: &Statistics,
    solutions: u64,
    objective: Option<i64>,
    started: Instant,
) -> Result<(), Lost> {
    writeln!(out, "%%%mzn-stat: nodes={}", stats.nodes)?;
    writeln!(out, "%%%mzn-stat: failures={}", stats.failures)?;
    writeln!(out, "%%%mzn-stat: solutions={solutions}")?;
    writeln!(
        out,
        "%%%mzn-stat: solveTime={:.6}",
        started.elapsed().as_secs_f64()
    )?;
    if let Some(objective) = objective {
        writeln!(out, "%%%mzn-stat: objective={objective}")?;
    }
    writeln!(out, "%%%mzn-stat-end")
}
