//! Sudoku variants beside Gecode: each shared variant set solved by bitcsp (read, model,
//! solve, one thread, CPU time per puzzle, as the command line does it: one
//! `VariantSolver` reused, as plain 9×9 reuses one `PuzzleSolver`) and by Gecode through MiniZinc on the data
//! folder's `models/` (Gecode's own `solveTime` from `-s`, so that MiniZinc's compile
//! time is not counted), with plain 9×9 Sudoku's median as the yardstick. Every set is
//! timed in each of R rounds (default 5), the sets taking turns within a round; a
//! variant's ratio to plain 9×9 is the median of the rounds' own ratios, with their range.
//!
//! `cargo run --release -p bitcsp-compare --bin variants -- [--data DIR] [--rounds R] [--no-gecode]`

use std::process::Command;
use std::time::Duration;

use bitcsp::sudoku::variants::{VariantPuzzle, VariantSolver, Variants};
use bitcsp::sudoku::{Board, BoxShape, PuzzleSolver};
use cpu_time::ThreadTime;

fn arg(name: &str) -> Option<String> {
    let args: Vec<String> = std::env::args().collect();
    args.iter()
        .position(|a| a == name)
        .and_then(|i| args.get(i + 1).cloned())
}

fn lines(path: &str) -> Vec<String> {
    std::fs::read_to_string(path)
        .unwrap_or_default()
        .lines()
        .filter(|l| !l.trim().is_empty() && !l.starts_with('#'))
        .map(str::to_owned)
        .collect()
}

fn median(mut v: Vec<Duration>) -> Duration {
    v.sort();
    v.get(v.len() / 2).copied().unwrap_or_default()
}

fn micros(d: Duration) -> String {
    format!("{:.1} µs", d.as_secs_f64() * 1e6)
}

/// One set's solve of each puzzle, timed.
type Timed<'a> = Box<dyn FnMut(usize) + 'a>;

/// Every set timed in `rounds` rounds, the sets taking turns within each round (the
/// machine changes speed over seconds, so a set timed apart from the yardstick could
/// meet another phase): for each set, the median over puzzles of each puzzle's median
/// over rounds, and each round's median over puzzles.
fn timed_in_turns(
    sets: &mut [(usize, Timed<'_>)],
    rounds: usize,
) -> Vec<(Duration, Vec<Duration>)> {
    let mut each: Vec<Vec<Vec<Duration>>> = sets
        .iter()
        .map(|(count, _)| vec![Vec::new(); *count])
        .collect();
    for _ in 0..rounds.max(1) {
        for ((count, one), times) in sets.iter_mut().zip(&mut each) {
            for (i, t) in times.iter_mut().enumerate().take(*count) {
                let started = ThreadTime::now();
                one(i);
                t.push(started.elapsed());
            }
        }
    }
    each.into_iter()
        .map(|times| {
            let rounds_of = times.first().map_or(0, Vec::len);
            let per_round = (0..rounds_of)
                .map(|r| median(times.iter().map(|t| t[r]).collect()))
                .collect();
            (median(times.into_iter().map(median).collect()), per_round)
        })
        .collect()
}

/// A MiniZinc data file for one puzzle line of `variant`.
fn dzn(variant: &str, line: &str) -> String {
    let fields: Vec<&str> = line.split(' ').collect();
    let grid = |text: &str, f: &dyn Fn(char) -> String| -> String {
        let cells: Vec<String> = text.chars().map(f).collect();
        format!("array2d(1..9,1..9,[{}])", cells.join(","))
    };
    let mut out = format!(
        "givens = {};\n",
        grid(fields[0], &|c| c
            .to_digit(10)
            .map_or("0".into(), |d| d.to_string()))
    );
    if variant == "jigsaw" {
        let labels: Vec<char> = {
            let mut seen = Vec::new();
            for c in fields[1].chars() {
                if !seen.contains(&c) {
                    seen.push(c);
                }
            }
            seen
        };
        let number =
            move |c: char| (labels.iter().position(|&l| l == c).unwrap_or(0) + 1).to_string();
        out.push_str(&format!("regions = {};\n", grid(fields[1], &number)));
    }
    if variant == "killer" {
        let sums: Vec<(String, String)> = fields[2]
            .split(',')
            .filter_map(|e| e.split_once('=').map(|(a, b)| (a.to_owned(), b.to_owned())))
            .collect();
        let order: Vec<String> = sums.iter().map(|(l, _)| l.clone()).collect();
        let number = move |c: char| {
            (order.iter().position(|l| l == &c.to_string()).unwrap_or(0) + 1).to_string()
        };
        out.push_str(&format!("ncages = {};\n", sums.len()));
        out.push_str(&format!("cage = {};\n", grid(fields[1], &number)));
        let totals: Vec<&str> = sums.iter().map(|(_, s)| s.as_str()).collect();
        out.push_str(&format!("sums = [{}];\n", totals.join(",")));
    }
    out
}

/// Gecode's solveTime for one puzzle, in seconds.
fn gecode(model: &str, data: &str) -> Option<Duration> {
    let path = std::env::temp_dir().join(format!("bitcsp_variant_{}.dzn", std::process::id()));
    std::fs::write(&path, data).ok()?;
    let out = Command::new("minizinc")
        .args(["--solver", "gecode", "-s", model])
        .arg(&path)
        .output()
        .ok()?;
    let text = String::from_utf8_lossy(&out.stdout);
    let seconds: f64 = text
        .lines()
        .find_map(|l| l.strip_prefix("%%%mzn-stat: solveTime="))?
        .trim()
        .parse()
        .ok()?;
    Some(Duration::from_secs_f64(seconds))
}

fn main() {
    let dir = arg("--data").unwrap_or_else(|| "../shared/data/sudoku-variants".into());
    let sudoku_dir = arg("--sudoku").unwrap_or_else(|| "../shared/data/sudoku".into());
    let rounds: usize = arg("--rounds").and_then(|r| r.parse().ok()).unwrap_or(5);
    let with_gecode = !std::env::args().any(|a| a == "--no-gecode")
        && Command::new("minizinc").arg("--version").output().is_ok();
    println!("| puzzles | bitcsp median per puzzle | × plain 9×9 (17-clue) | Gecode median solveTime | bitcsp / Gecode |");
    println!("|---|---:|---:|---:|---:|");
    let names = [
        "x",
        "windoku",
        "jigsaw",
        "killer",
        "antiknight",
        "antiking",
        "nonconsecutive",
    ];
    let files: Vec<(Vec<String>, Vec<String>, Variants)> = names
        .iter()
        .map(|name| {
            (
                lines(&format!("{dir}/{name}.txt")),
                lines(&format!("{dir}/{name}.solutions.txt")),
                name.parse().expect("a variant"),
            )
        })
        .collect();
    let boards: Vec<String> = lines(&format!("{sudoku_dir}/17_clue.txt"))
        .into_iter()
        .take(40)
        .collect();
    let mut plain_solver = PuzzleSolver::new(BoxShape { rows: 3, cols: 3 }).expect("9x9");
    let mut sets: Vec<(usize, Timed<'_>)> = vec![(
        boards.len(),
        Box::new(|i: usize| {
            let b = Board::parse(&boards[i]).expect("a board");
            std::hint::black_box(plain_solver.solve(&b).expect("solves"));
        }),
    )];
    for (name, (puzzles, solutions, variants)) in names.iter().zip(&files) {
        let mut solver = VariantSolver::new();
        sets.push((
            puzzles.len(),
            Box::new(move |i: usize| {
                let p = VariantPuzzle::parse(&puzzles[i], variants, None).expect("a puzzle");
                let s = solver.solve(&p).expect("solves").expect("a solution");
                assert_eq!(s.to_line(), solutions[i], "{name} line {}", i + 1);
            }),
        ));
    }
    let results = timed_in_turns(&mut sets, rounds);
    drop(sets);
    let (plain, plain_rounds) = results[0].clone();
    println!("| plain 9×9, 17-clue (40) | {} | | | |", micros(plain));
    for ((name, (puzzles, _, _)), (ours, ours_rounds)) in
        names.iter().zip(&files).zip(&results[1..])
    {
        let mut ratios: Vec<f64> = ours_rounds
            .iter()
            .zip(&plain_rounds)
            .map(|(o, p)| o.as_secs_f64() / p.as_secs_f64())
            .collect();
        ratios.sort_by(f64::total_cmp);
        let ratio = ratios.get(ratios.len() / 2).copied().unwrap_or(0.0);
        let (g, vs_gecode) = if with_gecode {
            let model = format!("{dir}/models/{name}.mzn");
            let times: Vec<Duration> = puzzles
                .iter()
                .filter_map(|l| gecode(&model, &dzn(name, l)))
                .collect();
            let g = median(times);
            (
                micros(g),
                format!("{:.2}×", ours.as_secs_f64() / g.as_secs_f64()),
            )
        } else {
            ("not run".into(), String::new())
        };
        println!(
            "| {name} ({}) | {} | {ratio:.2}× ({:.2}–{:.2}×) | {g} | {vs_gecode} |",
            puzzles.len(),
            micros(*ours),
            ratios.first().copied().unwrap_or(0.0),
            ratios.last().copied().unwrap_or(0.0),
        );
    }
}
