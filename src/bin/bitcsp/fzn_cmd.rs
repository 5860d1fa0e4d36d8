//! `bitcsp fzn MODEL.fzn`: a FlatZinc model solved as MiniZinc expects of a solver. Each
//! solution prints its outputs and `----------`; `==========` follows when the search
//! finished; `=====UNSATISFIABLE=====`, `=====UNKNOWN=====` and `=====ERROR=====` say the
//! rest. These are answers: the status is 0 after any of them but ERROR (1).

use std::io::Read;
use std::time::{Duration, Instant};

use bitcsp::flatzinc::{build, parse, Built, Goal};
use bitcsp::{Optimum, Restarts, Solution, SolveResult, Solver, Statistics};

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
    /// Ignore the search annotations.
    pub free_search: bool,
    /// Threads of the search.
    pub threads: usize,
    /// The seed of the random values restarted attempts draw.
    pub random_seed: u64,
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

fn configure(solver: &mut Solver, built: &Built, settings: &Settings) {
    solver
        .set_time_limit(settings.time_limit)
        .set_cancel_flag(Some(interrupt::flag()));
    built.configure(solver, settings.free_search);
    solver.set_random_seed(settings.random_seed);
    if !settings.free_search {
        for warning in &built.search.warnings {
            say!("bitcsp fzn: {}: {warning}", settings.file);
        }
    }
}

fn print_solution(out: &mut Output, built: &Built, solution: &Solution) -> Result<(), Lost> {
    write!(out, "{}", built.format(solution))?;
    writeln!(out, "----------")
}

/// What a search answered: solutions printed, whether it finished, and the objective's
/// best value and bound.
#[derive(Clone, Copy, Debug, Default)]
struct Answer {
    found: u64,
    complete: bool,
    objective: Option<i64>,
    bound: Option<i64>,
}

fn solve(
    built: &Built,
    settings: &Settings,
    out: &mut Output,
    started: Instant,
) -> Result<(), Lost> {
    let mut solver = Solver::new(&built.model);
    configure(&mut solver, built, settings);
    let answer = match built.goal {
        Goal::Satisfy => satisfy(&mut solver, built, settings, out)?,
        Goal::Minimize(_) | Goal::Maximize(_) => optimize(&mut solver, built, settings, out)?,
    };
    match (answer.found, answer.complete) {
        (0, true) => writeln!(out, "=====UNSATISFIABLE=====")?,
        (0, false) => writeln!(out, "=====UNKNOWN=====")?,
        (_, true) => writeln!(out, "==========")?,
        _ => {}
    }
    if settings.statistics {
        statistics(out, &solver.stats(), &answer, started)?;
    }
    Ok(())
}

/// A satisfaction problem: the first solution, or as many as asked for.
fn satisfy(
    solver: &mut Solver,
    built: &Built,
    settings: &Settings,
    out: &mut Output,
) -> Result<Answer, Lost> {
    let limit = settings
        .solutions
        .unwrap_or(if settings.all { u64::MAX } else { 1 });
    if limit > 1 {
        // Solutions that print the same are one solution: the introduced variables that
        // MiniZinc's flattening leaves free would repeat each of them many times over.
        let projected = solver.set_projection(Some(&built.output_vars())).is_ok();
        debug_assert!(projected, "the outputs are variables of the model");
    }
    let mut found = 0u64;
    let mut result = Ok(());
    let mut print = |s: &Solution| {
        found += 1;
        result = result.and_then(|()| print_solution(out, built, s));
        result.is_ok()
    };
    // Restarts belong to the search for one solution (`Solver::solve`); enumerating
    // never restarts, since it must meet every solution once. That search runs on one
    // thread whatever `-p` says, so that the solution printed does not depend on it.
    let restarting = built.restarts(settings.free_search) != Restarts::Never;
    let stopped = if limit == 1 && restarting {
        match solver.solve() {
            SolveResult::Solution(s) => {
                print(&s);
                false
            }
            SolveResult::Unsatisfiable => false,
            SolveResult::Stopped(_) => true,
        }
    } else if settings.threads > 1 {
        let limit = (limit < u64::MAX).then_some(limit);
        solver
            .for_each_solution_parallel_while(limit, settings.threads, &mut print)
            .is_some()
    } else {
        let take = usize::try_from(limit).unwrap_or(usize::MAX);
        for s in solver.solutions().take(take) {
            if !print(&s) {
                break;
            }
        }
        solver.stop_reason().is_some()
    };
    result?;
    Ok(Answer {
        found,
        complete: found < limit && !stopped,
        ..Answer::default()
    })
}

/// An optimisation problem: the best solution, and with `-a` or `-i` every improvement
/// on the way (on one thread; several threads print the best only).
fn optimize(
    solver: &mut Solver,
    built: &Built,
    settings: &Settings,
    out: &mut Output,
) -> Result<Answer, Lost> {
    let every = settings.all || settings.intermediate;
    let mut printed: Option<i64> = None;
    let mut result = Ok(());
    // Each improving solution counts, as MiniZinc's `solutions` statistic does; several
    // threads report their best only.
    let mut improvements = 0u64;
    let optimum = if settings.threads > 1 {
        solver.optimize_parallel(settings.threads)
    } else {
        solver.optimize_with(|i| {
            improvements += 1;
            if every {
                result = result.and_then(|()| print_solution(out, built, i.solution));
                printed = Some(i.objective);
            }
        })
    };
    result?;
    let (solution, objective, bound, complete) = match optimum {
        Optimum::Optimal {
            solution,
            objective,
        } => (solution, objective, objective, true),
        Optimum::Feasible {
            solution,
            objective,
            bound,
            ..
        } => (solution, objective, bound, false),
        Optimum::Infeasible => {
            return Ok(Answer {
                complete: true,
                ..Answer::default()
            })
        }
        _ => return Ok(Answer::default()),
    };
    if printed != Some(objective) {
        print_solution(out, built, &solution)?;
    }
    Ok(Answer {
        found: improvements.max(1),
        complete,
        objective: Some(objective),
        bound: Some(bound),
    })
}

fn statistics(
    out: &mut Output,
    stats: &Statistics,
    answer: &Answer,
    started: Instant,
) -> Result<(), Lost> {
    writeln!(out, "%%%mzn-stat: nodes={}", stats.nodes)?;
    writeln!(out, "%%%mzn-stat: failures={}", stats.failures)?;
    writeln!(out, "%%%mzn-stat: restarts={}", stats.restarts)?;
    writeln!(out, "%%%mzn-stat: propagations={}", stats.propagations)?;
    writeln!(out, "%%%mzn-stat: solutions={}", answer.found)?;
    writeln!(
        out,
        "%%%mzn-stat: solveTime={:.6}",
        started.elapsed().as_secs_f64()
    )?;
    if let Some(objective) = answer.objective {
        writeln!(out, "%%%mzn-stat: objective={objective}")?;
    }
    if let Some(bound) = answer.bound {
        writeln!(out, "%%%mzn-stat: objectiveBound={bound}")?;
    }
    writeln!(out, "%%%mzn-stat-end")
}
