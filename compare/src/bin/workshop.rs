//! The Sudoku workshop beside its peers: logic coverage (solved without guessing),
//! generation rates, and grades against QQWing's classes, printed as markdown.
//!
//! `cargo run --release -p bitcsp-compare --bin workshop -- [--data DIR] [--take N] [--generate N] [--rounds R] [--only coverage|generation|grades]`
//!
//! Generation alternates the two minimal generators in R rounds (default 5) and reports
//! the median of the rounds' ratios.
//!
//! Peers: the `sudoku` crate's `StrategySolver` with every strategy and its minimal
//! generator (`Sudoku::generate_from`, no symmetry); QQWing 1.3.4 (Debian package
//! `qqwing`, skipped with a note when missing) for coverage, generation and classes.
//! Times are CPU time of this thread for the in-process work, and of the child for
//! QQWing (which is single-threaded), one thread everywhere.

use std::io::Write;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use bitcsp::sudoku::workshop::{Class, Generator, Symmetry, Workshop};
use bitcsp::sudoku::{Board, BoxShape};
use cpu_time::ThreadTime;
use sudoku::strategy::{Strategy, StrategySolver};
use sudoku::Sudoku;

const NINE: BoxShape = BoxShape { rows: 3, cols: 3 };

fn arg(name: &str) -> Option<String> {
    let args: Vec<String> = std::env::args().collect();
    args.iter()
        .position(|a| a == name)
        .and_then(|i| args.get(i + 1).cloned())
}

fn read_set(dir: &str, file: &str, take: usize) -> Vec<String> {
    let text = std::fs::read_to_string(format!("{dir}/{file}")).unwrap_or_default();
    text.lines()
        .map(str::trim)
        .filter(|l| l.len() == 81)
        .take(take)
        .map(str::to_owned)
        .collect()
}

/// Every strategy the crate implements (its mutant fish and avoidable rectangles are
/// declared but not implemented).
fn strategies() -> Vec<Strategy> {
    vec![
        Strategy::NakedSingles,
        Strategy::HiddenSingles,
        Strategy::LockedCandidates,
        Strategy::NakedPairs,
        Strategy::XWing,
        Strategy::HiddenPairs,
        Strategy::NakedTriples,
        Strategy::Swordfish,
        Strategy::HiddenTriples,
        Strategy::XyWing,
        Strategy::XyzWing,
        Strategy::NakedQuads,
        Strategy::Jellyfish,
        Strategy::HiddenQuads,
    ]
}

fn qqwing_present() -> bool {
    Command::new("qqwing").arg("--version").output().is_ok()
}

/// QQWing's CSV statistics for `puzzles`: (guesses, difficulty) per puzzle.
fn qqwing_stats(puzzles: &[String]) -> Vec<(u64, String)> {
    let mut child = Command::new("qqwing")
        .args(["--solve", "--stats", "--csv", "--nosolution"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .expect("qqwing");
    let mut input = String::new();
    for p in puzzles {
        input.push_str(p);
        input.push('\n');
    }
    let mut stdin = child.stdin.take().expect("stdin");
    let writer = std::thread::spawn(move || stdin.write_all(input.as_bytes()));
    let out = child.wait_with_output().expect("qqwing output");
    let _ = writer.join();
    String::from_utf8_lossy(&out.stdout)
        .lines()
        .skip(1)
        .filter_map(|l| {
            let f: Vec<&str> = l.split(',').collect();
            Some((f.get(7)?.parse().ok()?, f.get(9)?.to_string()))
        })
        .collect()
}

/// QQWing's generator: puzzles and the child's CPU time.
fn qqwing_generate(count: usize, difficulty: &str) -> (Vec<String>, Duration) {
    let started = Instant::now();
    let out = Command::new("qqwing")
        .args([
            "--generate",
            &count.to_string(),
            "--one-line",
            "--difficulty",
            difficulty,
        ])
        .output()
        .expect("qqwing");
    let wall = started.elapsed();
    let puzzles = String::from_utf8_lossy(&out.stdout)
        .lines()
        .map(str::trim)
        .filter(|l| l.len() == 81)
        .map(str::to_owned)
        .collect();
    (puzzles, wall)
}

fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(f64::total_cmp);
    if v.is_empty() {
        f64::NAN
    } else {
        v[v.len() / 2]
    }
}

fn coverage(dir: &str, take: usize, qqwing: bool) {
    println!("## Solved without guessing ({take} puzzles per set, or the whole set)\n");
    println!(
        "| set | puzzles | bitcsp | crate StrategySolver | QQWing | bitcsp ms/puzzle (grade) |"
    );
    println!("|---|---:|---:|---:|---:|---:|");
    let mut workshop = Workshop::new(NINE).expect("9x9");
    let all = strategies();
    for (name, file) in [
        ("kaggle", "kaggle_first10000.txt"),
        ("17-clue", "17_clue.txt"),
        ("magictour", "magictour_top1465.txt"),
        ("forum_hardest", "forum_hardest_1905_11plus.txt"),
    ] {
        let set = read_set(dir, file, take);
        if set.is_empty() {
            println!("| {name} | missing | | | | |");
            continue;
        }
        let started = ThreadTime::now();
        let ours = set
            .iter()
            .filter(|p| {
                let board = Board::parse(p).expect("a board");
                workshop
                    .grade(&board)
                    .map(|g| g.guesses == 0)
                    .unwrap_or(false)
            })
            .count();
        let ms = started.elapsed().as_secs_f64() * 1e3 / set.len() as f64;
        let crate_solved = set
            .iter()
            .filter(|p| {
                let s = Sudoku::from_str_line(p).expect("a board");
                StrategySolver::from_sudoku(s).solve(&all).is_ok()
            })
            .count();
        let qq = if qqwing {
            let stats = qqwing_stats(&set);
            let solved = stats.iter().filter(|(g, _)| *g == 0).count();
            format!("{:.1} %", 100.0 * solved as f64 / set.len() as f64)
        } else {
            "not installed".into()
        };
        let pct = |k: usize| 100.0 * k as f64 / set.len() as f64;
        println!(
            "| {name} | {} | {:.1} % | {:.1} % | {qq} | {ms:.3} |",
            set.len(),
            pct(ours),
            pct(crate_solved)
        );
    }
    println!();
}

fn generation(count: usize, rounds: usize, qqwing: bool) {
    println!(
        "## Generation, one thread ({count} puzzles per row, in {rounds} alternating rounds)\n"
    );
    println!("| generator | puzzles per CPU second | givens (mean) |");
    println!("|---|---:|---:|");
    let mean = |g: &[usize]| g.iter().sum::<usize>() as f64 / g.len().max(1) as f64;
    let crate_givens = |s: &Sudoku| s.to_bytes().iter().filter(|&&b| b != 0).count();
    // The machine changes speed over seconds: both minimal generators take turns, and
    // the ratio is the median of each round's own ratio.
    let mut generator = Generator::new(NINE, Symmetry::None, None, 1).expect("9x9");
    let per_round = (count / rounds.max(1)).max(1);
    let (mut ours, mut theirs) = (Vec::new(), Vec::new());
    let (mut ours_time, mut theirs_time) = (Duration::ZERO, Duration::ZERO);
    let mut ratios = Vec::new();
    for round in 0..rounds.max(1) {
        let first = (round * per_round) as u64;
        let started = ThreadTime::now();
        ours.extend(
            (first..first + per_round as u64).map(|i| generator.puzzle(i).expect("a puzzle")),
        );
        let ours_round = started.elapsed();
        let started = ThreadTime::now();
        theirs.extend(
            (0..per_round).map(|_| crate_givens(&Sudoku::generate_from(Sudoku::generate_solved()))),
        );
        let theirs_round = started.elapsed();
        ratios.push(theirs_round.as_secs_f64() / ours_round.as_secs_f64());
        ours_time += ours_round;
        theirs_time += theirs_round;
    }
    let givens: Vec<usize> = ours.iter().map(Board::givens).collect();
    println!(
        "| bitcsp, minimal, no symmetry | {:.0} | {:.1} |",
        ours.len() as f64 / ours_time.as_secs_f64(),
        mean(&givens)
    );
    println!(
        "| crate, minimal, no symmetry (`generate_from`) | {:.0} | {:.1} |",
        theirs.len() as f64 / theirs_time.as_secs_f64(),
        mean(&theirs)
    );
    let started = ThreadTime::now();
    let made: Vec<usize> = (0..count)
        .map(|_| crate_givens(&Sudoku::generate()))
        .collect();
    println!(
        "| crate default (half-turn symmetry) | {:.0} | {:.1} |",
        count as f64 / started.elapsed().as_secs_f64(),
        mean(&made)
    );
    let low = ratios.iter().copied().fold(f64::INFINITY, f64::min);
    let high = ratios.iter().copied().fold(0.0, f64::max);
    let ratio_line = format!(
        "bitcsp's rate / the crate's minimal rate: median {:.2}x over {} rounds ({low:.2}-{high:.2}x)",
        median(ratios.clone()),
        ratios.len()
    );
    let ours_time = ours_time;
    let count = ours.len();
    if qqwing {
        let n = (count / 10).max(20);
        for difficulty in ["any", "expert"] {
            let (made, wall) = qqwing_generate(n, difficulty);
            println!(
                "| QQWing --difficulty {difficulty} (process) | {:.0} | {:.1} |",
                made.len() as f64 / wall.as_secs_f64(),
                mean(
                    &made
                        .iter()
                        .map(|p| p.bytes().filter(|&b| b != b'.').count())
                        .collect::<Vec<_>>()
                )
            );
        }
        let lines: Vec<String> = ours.iter().map(Board::to_line).collect();
        let stats = qqwing_stats(&lines);
        let expert = stats.iter().filter(|(_, d)| d == "Expert").count();
        println!(
            "| bitcsp puzzles that QQWing rates expert | {:.0} | ({expert} of {count}) |",
            expert as f64 / ours_time.as_secs_f64()
        );
    }
    println!();
    println!("{ratio_line}\n");
}

fn grades(dir: &str, per_class: usize, qqwing: bool) {
    let mut workshop = Workshop::new(NINE).expect("9x9");
    if qqwing {
        println!("## Grades of QQWing's classes ({per_class} generated puzzles each)\n");
        println!(
            "| QQWing class | bitcsp median rating | easy | medium | hard | expert | extreme |"
        );
        println!("|---|---:|---:|---:|---:|---:|---:|");
        for class in ["simple", "easy", "intermediate", "expert"] {
            let (made, _) = qqwing_generate(per_class, class);
            let graded: Vec<_> = made
                .iter()
                .filter_map(|p| workshop.grade(&Board::parse(p).ok()?).ok())
                .collect();
            let counts: Vec<String> = Class::ALL
                .iter()
                .map(|c| graded.iter().filter(|g| g.class == *c).count().to_string())
                .collect();
            println!(
                "| {class} | {:.1} | {} |",
                median(graded.iter().map(|g| g.rating).collect()),
                counts.join(" | ")
            );
        }
        println!();
    }
    let hardest = read_set(dir, "forum_hardest_1905_11plus.txt", per_class * 10);
    let started = ThreadTime::now();
    let top = hardest
        .iter()
        .filter(|p| {
            let board = Board::parse(p).expect("a board");
            workshop
                .explain(&board)
                .map(|e| e.grade().class == Class::Extreme)
                .unwrap_or(false)
        })
        .count();
    let ms = started.elapsed().as_secs_f64() * 1e3 / hardest.len().max(1) as f64;
    println!(
        "forum_hardest (Sudoku Explainer 11+): {top} of {} in the top class (extreme); explain {ms:.1} ms per puzzle.\n",
        hardest.len()
    );
}

fn main() {
    let dir = arg("--data").unwrap_or_else(|| "../shared/data/sudoku".into());
    let take: usize = arg("--take").and_then(|t| t.parse().ok()).unwrap_or(1000);
    let count: usize = arg("--generate")
        .and_then(|t| t.parse().ok())
        .unwrap_or(2000);
    let rounds: usize = arg("--rounds").and_then(|t| t.parse().ok()).unwrap_or(5);
    let qqwing = qqwing_present();
    if !qqwing {
        println!("(QQWing not installed: its columns are skipped; `apt-get install qqwing`)\n");
    }
    let only = arg("--only");
    let wanted = |part: &str| only.as_deref().is_none_or(|o| o == part);
    if wanted("coverage") {
        coverage(&dir, take, qqwing);
    }
    if wanted("generation") {
        generation(count, rounds, qqwing);
    }
    if wanted("grades") {
        grades(&dir, 100, qqwing);
    }
}
