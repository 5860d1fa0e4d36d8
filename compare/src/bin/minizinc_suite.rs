//! bitcsp against Gecode on the MiniZinc benchmark instances of `../shared/data/minizinc`,
//! both through `minizinc`, in one run: every row of the folder's `reference.csv`, each
//! side's whole `minizinc --solver ...` process timed (flattening included), the answers
//! side by side, and every solution bitcsp reports checked by Gecode against the model.
//!
//! `cargo run --release -p bitcsp-compare --bin minizinc_suite -- [--limit SECONDS] [--only TEXT]
//! [--data DIR] [--skip-gecode]`
//!
//! Prints a Markdown table. A row is marked WRONG when the answers contradict (one side
//! proves unsatisfiable what the other solved, two proved optima differ, a solution beats
//! a proved optimum) or when Gecode rejects bitcsp's solution; the exit status is then 1.
//! Needs `minizinc` with Gecode, and `target/release/bitcsp` (built by this `cargo run`
//! only if asked: run `cargo build --release` first).

use std::path::{Path, PathBuf};
use std::process::{Command, ExitCode};
use std::time::{Duration, Instant};

/// One row of `reference.csv`.
struct Row {
    family: String,
    model: String,
    data: String,
    kind: String,
    status: String,
    objective: String,
    seconds: String,
    config: String,
}

/// What one side answered.
#[derive(Clone, Debug, Default)]
struct Answer {
    status: String,
    objective: Option<i64>,
    seconds: f64,
    /// The last solution, as `--output-mode dzn` prints it (without the objective).
    solution: Option<String>,
}

struct Options {
    data: PathBuf,
    limit: Duration,
    only: Option<String>,
    gecode: bool,
}

fn main() -> ExitCode {
    let options = match options() {
        Ok(o) => o,
        Err(message) => {
            eprintln!("minizinc harness: {message}");
            return ExitCode::from(2);
        }
    };
    let repo = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let bitcsp = repo.join("target/release/bitcsp");
    if !bitcsp.exists() {
        eprintln!("minizinc harness: build bitcsp first: cargo build --release");
        return ExitCode::from(2);
    }
    if Command::new("minizinc").arg("--version").output().is_err() {
        eprintln!("minizinc harness: `minizinc` is not on the PATH");
        return ExitCode::from(2);
    }
    let rows = match read_reference(&options.data.join("reference.csv")) {
        Ok(rows) => rows,
        Err(message) => {
            eprintln!("minizinc harness: {message}");
            return ExitCode::from(2);
        }
    };
    println!(
        "| instance | kind | Gecode (reference) | Gecode now | bitcsp | bitcsp / Gecode | check |"
    );
    println!("| --- | --- | --- | --- | --- | --- | --- |");
    let mut wrong = 0;
    for row in rows.iter().filter(|r| {
        let name = instance_name(r);
        options
            .only
            .as_ref()
            .is_none_or(|o| name.contains(o.as_str()))
    }) {
        let model = options.data.join(&row.family).join(&row.model);
        let data = (!row.data.is_empty()).then(|| options.data.join(&row.family).join(&row.data));
        let config: Vec<&str> = row.config.split_whitespace().collect();
        let ours = run(
            &repo,
            &bitcsp,
            "bitcsp",
            &[],
            &model,
            data.as_deref(),
            &row.kind,
            options.limit,
        );
        let theirs = options.gecode.then(|| {
            run(
                &repo,
                &bitcsp,
                "gecode",
                &config,
                &model,
                data.as_deref(),
                &row.kind,
                options.limit,
            )
        });
        let mut problems = contradictions(row, &ours, theirs.as_ref());
        let check = match &ours.solution {
            Some(solution) => match verify(&model, data.as_deref(), &config, solution) {
                Ok(()) => "checked".to_string(),
                Err(reason) => {
                    problems.push(format!("Gecode rejects the solution: {reason}"));
                    "REJECTED".to_string()
                }
            },
            None => "-".to_string(),
        };
        let ratio = theirs
            .as_ref()
            .filter(|t| t.seconds > 0.0)
            .map_or("-".to_string(), |t| {
                format!("{:.2}×", ours.seconds / t.seconds)
            });
        let mark = if problems.is_empty() {
            String::new()
        } else {
            wrong += 1;
            format!(" **WRONG**: {}", problems.join("; "))
        };
        println!(
            "| {} | {} | {} | {} | {} | {} | {}{} |",
            instance_name(row),
            row.kind,
            reference_cell(row),
            theirs.as_ref().map_or("-".to_string(), cell),
            cell(&ours),
            ratio,
            check,
            mark
        );
    }
    if wrong > 0 {
        eprintln!("minizinc harness: {wrong} wrong answer(s)");
        return ExitCode::from(1);
    }
    ExitCode::SUCCESS
}

fn options() -> Result<Options, String> {
    let mut options = Options {
        data: Path::new(env!("CARGO_MANIFEST_DIR")).join("../../shared/data/minizinc"),
        limit: Duration::from_secs(60),
        only: None,
        gecode: true,
    };
    let mut args = std::env::args().skip(1);
    while let Some(arg) = args.next() {
        let mut value = || args.next().ok_or(format!("{arg} needs a value"));
        match arg.as_str() {
            "--limit" => {
                let seconds: u64 = value()?.parse().map_err(|e| format!("--limit: {e}"))?;
                options.limit = Duration::from_secs(seconds);
            }
            "--only" => options.only = Some(value()?),
            "--data" => options.data = PathBuf::from(value()?),
            "--skip-gecode" => options.gecode = false,
            other => return Err(format!("unknown argument {other}")),
        }
    }
    Ok(options)
}

fn read_reference(path: &Path) -> Result<Vec<Row>, String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
    let mut rows = Vec::new();
    for (k, line) in text.lines().enumerate().skip(1) {
        let f: Vec<&str> = line.split(',').collect();
        if f.len() < 9 {
            return Err(format!("{}:{}: expected 9 fields", path.display(), k + 1));
        }
        rows.push(Row {
            family: f[0].into(),
            model: f[1].into(),
            data: f[2].into(),
            kind: f[3].into(),
            status: f[4].into(),
            objective: f[5].into(),
            seconds: f[6].into(),
            config: f[7].into(),
        });
    }
    Ok(rows)
}

fn instance_name(row: &Row) -> String {
    let model = row.model.trim_end_matches(".mzn");
    let data = row.data.trim_end_matches(".dzn");
    if data.is_empty() {
        format!("{}/{model}", row.family)
    } else {
        format!("{}/{model}/{data}", row.family)
    }
}

fn reference_cell(row: &Row) -> String {
    let objective = if row.objective.is_empty() {
        String::new()
    } else {
        format!(" {}", row.objective)
    };
    format!("{}{objective} {} s", row.status, row.seconds)
}

fn cell(a: &Answer) -> String {
    let objective = a.objective.map_or(String::new(), |o| format!(" {o}"));
    format!("{}{objective} {:.2} s", a.status, a.seconds)
}

/// Runs `minizinc --solver SOLVER` on the instance, timing the whole process.
#[allow(clippy::too_many_arguments)]
fn run(
    repo: &Path,
    bitcsp: &Path,
    solver: &str,
    config: &[&str],
    model: &Path,
    data: Option<&Path>,
    kind: &str,
    limit: Duration,
) -> Answer {
    let started = Instant::now();
    let output = Command::new("minizinc")
        .env("MZN_SOLVER_PATH", repo.join("share/minizinc/solvers"))
        .env("BITCSP", bitcsp)
        .args(["--solver", solver])
        .args(config)
        .args(["-t", &limit.as_millis().to_string()])
        .args(["--output-mode", "dzn", "--output-objective"])
        .arg(model)
        .args(data)
        .output();
    let seconds = started.elapsed().as_secs_f64();
    let Ok(output) = output else {
        return Answer {
            status: "ERROR (minizinc did not run)".into(),
            seconds,
            ..Answer::default()
        };
    };
    let text = String::from_utf8_lossy(&output.stdout);
    let mut answer = parse_answer(&text, kind);
    answer.seconds = seconds;
    if answer.status == "ERROR" {
        let stderr = String::from_utf8_lossy(&output.stderr);
        let first = stderr.lines().find(|l| !l.trim().is_empty()).unwrap_or("");
        answer.status = format!("ERROR ({})", first.chars().take(80).collect::<String>());
    }
    answer
}

/// The status, objective and last solution of a run's standard output.
fn parse_answer(text: &str, kind: &str) -> Answer {
    let mut solutions: Vec<String> = Vec::new();
    let mut current = String::new();
    let mut finished = false;
    let mut status = None;
    for line in text.lines() {
        match line.trim() {
            "----------" => solutions.push(std::mem::take(&mut current)),
            "==========" => finished = true,
            "=====UNSATISFIABLE=====" => status = Some("UNSAT"),
            "=====UNKNOWN=====" => status = Some("UNKNOWN"),
            "=====ERROR=====" => status = Some("ERROR"),
            l if l.starts_with("=====") => status = Some("ERROR"),
            l if l.starts_with('%') => {}
            _ => {
                current.push_str(line);
                current.push('\n');
            }
        }
    }
    let last = solutions.last();
    let objective = last.and_then(|s| {
        s.lines()
            .find_map(|l| l.trim().strip_prefix("_objective = "))
            .and_then(|v| v.trim_end_matches(';').trim().parse().ok())
    });
    let status = match (status, last, finished) {
        (Some(s), _, _) => s.to_string(),
        (None, Some(_), true) if kind != "sat" => "OPTIMAL".into(),
        (None, Some(_), _) => "SATISFIED".into(),
        (None, None, _) => "UNKNOWN".into(),
    };
    let solution = last.map(|s| {
        s.lines()
            .filter(|l| !l.trim_start().starts_with("_objective"))
            .collect::<Vec<_>>()
            .join("\n")
    });
    Answer {
        status,
        objective,
        seconds: 0.0,
        solution,
    }
}

/// The contradictions between bitcsp's answer, Gecode's now, and the reference.
fn contradictions(row: &Row, ours: &Answer, theirs: Option<&Answer>) -> Vec<String> {
    let reference = Answer {
        status: row.status.clone(),
        objective: row.objective.parse().ok(),
        ..Answer::default()
    };
    let mut problems = Vec::new();
    for (who, other) in [("the reference", Some(&reference)), ("Gecode", theirs)] {
        let Some(other) = other else { continue };
        let solved = |a: &Answer| a.status == "SATISFIED" || a.status == "OPTIMAL";
        if (ours.status == "UNSAT" && solved(other)) || (solved(ours) && other.status == "UNSAT") {
            problems.push(format!("{} against {who}'s {}", ours.status, other.status));
        }
        let better = |a: i64, b: i64| if row.kind == "min" { a < b } else { a > b };
        if let (Some(mine), Some(theirs)) = (ours.objective, other.objective) {
            if ours.status == "OPTIMAL" && better(theirs, mine) && solved(other) {
                problems.push(format!("optimum {mine}, but {who} found {theirs}"));
            }
            if other.status == "OPTIMAL" && better(mine, theirs) {
                problems.push(format!("{mine} beats {who}'s optimum {theirs}"));
            }
        }
    }
    problems
}

/// Gecode checks `solution` against the model: the output variables fixed by a data
/// file, a solution must exist.
fn verify(
    model: &Path,
    data: Option<&Path>,
    config: &[&str],
    solution: &str,
) -> Result<(), String> {
    let file = std::env::temp_dir().join(format!("bitcsp-check-{}.dzn", std::process::id()));
    std::fs::write(&file, solution).map_err(|e| format!("{}: {e}", file.display()))?;
    let output = Command::new("minizinc")
        .args(["--solver", "gecode"])
        .args(config)
        .args(["-t", "60000"])
        .arg(model)
        .args(data)
        .arg(&file)
        .output()
        .map_err(|e| format!("minizinc: {e}"))?;
    let _ = std::fs::remove_file(&file);
    let text = String::from_utf8_lossy(&output.stdout);
    if text.lines().any(|l| l.trim() == "----------") {
        Ok(())
    } else if text.contains("=====UNSATISFIABLE=====") {
        Err("no solution with these values".into())
    } else {
        let stderr = String::from_utf8_lossy(&output.stderr);
        Err(format!(
            "no verdict: {}",
            stderr
                .lines()
                .next()
                .unwrap_or("")
                .chars()
                .take(80)
                .collect::<String>()
        ))
    }
}
