//! Large Sudoku boards: random full grids with half of their cells kept uniformly at
//! random, one puzzle per seed, each solved by bitcsp with a time limit.
//!
//! `cargo run --release -p bitcsp-compare --bin large -- [--size 6x6] [--seeds 1..=100] [--keep 0.5] [--limit 10] [--engine | --learning | --large] [--threads N] [--unique] [--stats]`
//!
//! Each board takes the search `bitcsp sudoku solve` takes: from 36×36 up
//! `sudoku::large` (a short try of the engine, then the clause-learning search), below it
//! the engine with `sudoku::configure`; `--engine` takes the engine at every size,
//! `--learning` the learning search alone at every size, `--large` the engine's try and
//! then learning (`sudoku::large`) at every size, and `--stats` prints each board's
//! search statistics to stderr. `--threads N` runs the raced learning searches on up to
//! N threads (`cover::solve_raced`); times are then wall time, else the thread's CPU time.
//! `--search-seed K` solves each board by one learning search seeded `K`
//! (`CoverSolver::set_seed`; 0 is the search `bitcsp` makes), on the calling thread: how
//! differently seeded searches fare on the same boards, for weighing a race of seeds;
//! with `--nodes N` too, each such search stops after N choices, so that two builds
//! making the same search can be timed over the same work.
//! `--unique` counts each board's solutions to two instead (as `sudoku solve --unique`
//! does), by `sudoku::large::count`: a board counts as answered when the count ends. Grids come from `sudoku::workshop::Generator::grid`
//! (seeded), so the instances are the same on every run; `--print` writes the puzzles
//! instead of solving them, and `--cnf DIR` writes each as DIMACS CNF
//! (`DIR/seed-N.cnf`) for a SAT solver to take as a peer (`cadical -q DIR/seed-1.cnf`).

use std::path::Path;
use std::time::{Duration, Instant};

use bitcsp::cover::{CoverOutcome, CoverSolver};
use bitcsp::sudoku::large;
use bitcsp::sudoku::learning::{self, Learned};
use bitcsp::sudoku::workshop::{Generator, Symmetry};
use bitcsp::sudoku::{self, Board, BoxShape};
use bitcsp::Solver;
use cpu_time::ThreadTime;

#[path = "../cnf.rs"]
mod cnf;
use cnf::Cnf;

fn arg(name: &str) -> Option<String> {
    let args: Vec<String> = std::env::args().collect();
    args.iter()
        .position(|a| a == name)
        .and_then(|i| args.get(i + 1).cloned())
}

/// A xorshift step, for choosing the kept cells.
fn next(state: &mut u64) -> u64 {
    *state ^= *state << 13;
    *state ^= *state >> 7;
    *state ^= *state << 17;
    *state
}

/// The options that take a value, and the flags.
const VALUED: [&str; 8] = [
    "--nodes",
    "--size",
    "--search-seed",
    "--seeds",
    "--keep",
    "--limit",
    "--threads",
    "--cnf",
];
const FLAGS: [&str; 7] = [
    "--print",
    "--engine",
    "--learning",
    "--large",
    "--stats",
    "--unique",
    "--help",
];

const USAGE: &str = "usage: large [--size 6x6] [--seeds 1..=100] [--keep 0.5] [--limit 10] \
[--engine | --learning | --large | --search-seed K [--nodes N]] [--threads N] [--unique] [--stats] \
[--print | --cnf DIR]";

/// Stops with the usage on `--help`, and with it and an error on anything else unknown
/// (a typo would otherwise start the whole default run).
fn check_args() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let mut i = 0;
    while i < args.len() {
        let a = args[i].as_str();
        if a == "--help" {
            println!("{USAGE}");
            std::process::exit(0);
        }
        if VALUED.contains(&a) {
            if i + 1 == args.len() {
                eprintln!("large: {a} needs a value\n{USAGE}");
                std::process::exit(2);
            }
            i += 2;
            continue;
        }
        if !FLAGS.contains(&a) {
            eprintln!("large: unexpected argument {a:?}\n{USAGE}");
            std::process::exit(2);
        }
        i += 1;
    }
}

fn main() {
    check_args();
    let size = arg("--size").unwrap_or_else(|| "6x6".into());
    let (r, c) = size.split_once('x').expect("RxC");
    let shape = BoxShape {
        rows: r.parse().expect("rows"),
        cols: c.parse().expect("cols"),
    };
    let seeds = arg("--seeds").unwrap_or_else(|| "1..=100".into());
    let (from, to) = seeds.split_once("..=").expect("A..=B");
    let (from, to): (u64, u64) = (from.parse().expect("A"), to.parse().expect("B"));
    let keep: f64 = arg("--keep").and_then(|k| k.parse().ok()).unwrap_or(0.5);
    let limit =
        Duration::from_secs_f64(arg("--limit").and_then(|l| l.parse().ok()).unwrap_or(10.0));
    let print = std::env::args().any(|a| a == "--print");
    let cnf = arg("--cnf");
    let engine = std::env::args().any(|a| a == "--engine");
    let learning = std::env::args().any(|a| a == "--learning");
    let large = std::env::args().any(|a| a == "--large");
    let stats = std::env::args().any(|a| a == "--stats");
    let threads: usize = arg("--threads").and_then(|t| t.parse().ok()).unwrap_or(1);
    let unique = std::env::args().any(|a| a == "--unique");
    let search_seed: Option<u64> = arg("--search-seed").map(|k| k.parse().expect("a seed"));
    let nodes: Option<u64> = arg("--nodes").map(|n| n.parse().expect("a number of choices"));
    let n = shape.side();
    let mut times = Vec::new();
    let mut unsolved = Vec::new();
    for seed in from..=to {
        let mut generator = Generator::new(shape, Symmetry::None, None, seed).expect("a shape");
        let grid = generator.grid(0).expect("a grid");
        let mut state = seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1;
        let mut puzzle = grid.clone();
        for cell in 0..n * n {
            if (next(&mut state) % 1_000_000) as f64 >= keep * 1e6 {
                puzzle.set(cell / n, cell % n, 0);
            }
        }
        if print {
            println!("{}", puzzle.to_numbers());
            continue;
        }
        if let Some(dir) = &cnf {
            let path = Path::new(dir).join(format!("seed-{seed}.cnf"));
            std::fs::write(&path, dimacs(&puzzle)).expect("a writable CNF file");
            continue;
        }
        let (cpu, wall) = (ThreadTime::now(), Instant::now());
        let run = Run {
            limit,
            nodes,
            threads,
            seed,
            stats,
        };
        let found = if unique {
            count_to_two(&puzzle, &run)
        } else if let Some(k) = search_seed {
            solve_seeded(&puzzle, k, &run)
        } else if learning {
            solve_by_learning(&puzzle, &run)
        } else if large || (n >= learning::LEARNING_SIDE && !engine) {
            solve_large(&puzzle, &run)
        } else {
            solve_by_engine(&puzzle, &run)
        };
        let t = if threads > 1 {
            wall.elapsed()
        } else {
            cpu.elapsed()
        };
        match found {
            Some(solution) if solution.check_solves(&puzzle).is_ok() => times.push(t),
            Some(_) => panic!("seed {seed}: a wrong solution"),
            None => unsolved.push(seed),
        }
    }
    if print || cnf.is_some() {
        return;
    }
    times.sort();
    let median = times.get(times.len() / 2).copied().unwrap_or_default();
    let max = times.last().copied().unwrap_or_default();
    println!(
        "{n}x{n}, {:.0} % kept, seeds {from}..={to}: {} solved (median {:.3} s, slowest {:.3} s), unsolved within {:.0} s: {unsolved:?}",
        keep * 100.0,
        times.len(),
        median.as_secs_f64(),
        max.as_secs_f64(),
        limit.as_secs_f64()
    );
}

/// How one board is searched: within `limit`, the learning searches raced on `threads`,
/// its statistics printed if `stats`, reported under `seed`.
struct Run {
    limit: Duration,
    /// Choices after which a search of `--search-seed` stops.
    nodes: Option<u64>,
    threads: usize,
    seed: u64,
    stats: bool,
}

impl Run {
    /// `sudoku::large`'s limits for the board.
    fn large_limits(&self) -> large::Limits {
        large::Limits {
            time: Some(self.limit),
            threads: self.threads,
            ..large::Limits::default()
        }
    }
}

/// A solution by the clause-learning search.
fn solve_by_learning(puzzle: &Board, run: &Run) -> Option<Board> {
    let (outcome, s) = learning::solve(puzzle, run.threads, |solver| {
        solver.set_time_limit(Some(run.limit));
    })
    .expect("a valid board");
    found(outcome, &s, run)
}

/// A solution by one learning search seeded `k`.
fn solve_seeded(puzzle: &Board, k: u64, run: &Run) -> Option<Board> {
    let (problem, forced) = learning::exact_cover(puzzle);
    let mut solver = CoverSolver::new(&problem);
    solver.set_seed(k).set_time_limit(Some(run.limit));
    solver.set_node_limit(run.nodes);
    let outcome = match solver.solve(&forced).expect("a valid board") {
        CoverOutcome::Solution(chosen) => Learned::Solved(learning::decode(puzzle, &chosen)),
        CoverOutcome::Unsatisfiable => Learned::NoSolution,
        CoverOutcome::Stopped(reason) => Learned::Stopped(reason),
    };
    found(outcome, &solver.stats(), run)
}

/// A solution as `bitcsp sudoku solve` finds one on a large board.
fn solve_large(puzzle: &Board, run: &Run) -> Option<Board> {
    let (outcome, s) = large::solve(puzzle, &run.large_limits()).expect("a valid board");
    found(outcome, &s, run)
}

/// The first solution of a board whose count to two, as `sudoku solve --unique` makes
/// it, ended within the limit.
fn count_to_two(puzzle: &Board, run: &Run) -> Option<Board> {
    let (found, s) = large::count(puzzle, Some(2), &run.large_limits()).expect("a valid board");
    if run.stats {
        eprintln!("seed {}: {:?} {s:?}", run.seed, found.count);
    }
    match found.count.status {
        bitcsp::CountStatus::Stopped(_) => None,
        _ => found.first,
    }
}

/// The solution of a search that ended with `outcome`, printing its statistics if asked.
fn found(outcome: Learned, s: &dyn std::fmt::Debug, run: &Run) -> Option<Board> {
    let seed = run.seed;
    if run.stats {
        eprintln!("seed {seed}: {s:?}");
    }
    match outcome {
        Learned::Solved(solution) => Some(solution),
        Learned::NoSolution => panic!("seed {seed}: no solution claimed for a carved grid"),
        Learned::Stopped(_) => None,
    }
}

/// A solution by the engine with `sudoku::configure` (one thread).
fn solve_by_engine(puzzle: &Board, run: &Run) -> Option<Board> {
    let (model, cells) = sudoku::model(puzzle).expect("a model");
    let mut solver = Solver::new(&model);
    sudoku::configure(&mut solver, puzzle);
    solver.set_time_limit(Some(run.limit));
    let found = solver
        .solve()
        .solution()
        .map(|s| sudoku::decode(puzzle, &cells, &s));
    if run.stats {
        eprintln!("seed {}: {:?}", run.seed, solver.stats());
    }
    found
}

/// The puzzle as DIMACS CNF in the full ("extended") encoding that SAT studies of Sudoku
/// use: variable `(cell * n + digit) + 1` says the cell holds the digit; every cell and
/// every house holds each digit exactly once, and every given is a unit.
fn dimacs(puzzle: &Board) -> String {
    let n = puzzle.side();
    let var = |cell: usize, digit: usize| (cell * n + digit + 1) as i64;
    let mut cnf = Cnf {
        vars: n * n * n,
        ..Cnf::default()
    };
    for cell in 0..n * n {
        cnf.exactly_one(&(0..n).map(|d| var(cell, d)).collect::<Vec<_>>());
    }
    // Row i, column i and box i in turn: the order the timings in docs/PERFORMANCE.md
    // were taken with (a SAT solver's time on these depends on the clauses' order).
    let units = puzzle.units();
    for i in 0..n {
        for (_, cells) in [&units[i], &units[n + i], &units[2 * n + i]] {
            for d in 0..n {
                cnf.exactly_one(&cells.iter().map(|&cell| var(cell, d)).collect::<Vec<_>>());
            }
        }
    }
    for cell in 0..n * n {
        if let Some(d) = puzzle.get(cell / n, cell % n) {
            cnf.clauses.push(vec![var(cell, usize::from(d) - 1)]);
        }
    }
    cnf.to_dimacs()
}
