//! MiniZinc benchmark instances (compiled to FlatZinc with bitcsp's library by
//! `tests/data/flatzinc/suite/regenerate.sh` from `../shared/data/minizinc`) give Gecode's
//! answers from that folder's `reference.csv`: the status, and the optimum where Gecode
//! proved one. When `minizinc` is installed, Gecode also checks every solution against
//! the original model, and the fixtures are checked to be what the script makes today.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Duration;

use bitcsp::flatzinc::{build, parse, Built, Goal};
use bitcsp::{Optimum, Solution, SolveResult, Solver};

/// Each instance gets this long; all of them take a few seconds at most.
const BUDGET: Duration = Duration::from_secs(30);

fn suite() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/flatzinc/suite")
}

/// One line of `expected.csv`: file, kind, status, objective.
struct Expected {
    file: String,
    kind: String,
    status: String,
    objective: Option<i64>,
}

fn expected() -> Vec<Expected> {
    let text = std::fs::read_to_string(suite().join("expected.csv")).expect("expected.csv");
    text.lines()
        .skip(1)
        .map(|line| {
            let f: Vec<&str> = line.split(',').collect();
            assert_eq!(f.len(), 4, "expected.csv: {line}");
            Expected {
                file: f[0].to_string(),
                kind: f[1].to_string(),
                status: f[2].to_string(),
                objective: f[3].parse().ok(),
            }
        })
        .collect()
}

fn built(file: &str) -> Built {
    let text = std::fs::read_to_string(suite().join(file)).expect("fixture");
    build(&parse(&text).expect("parsed")).expect("built")
}

/// Solves as `bitcsp fzn` does (with the search annotations): the status, objective and
/// solution.
fn solve(b: &Built) -> (String, Option<i64>, Option<Solution>) {
    let mut solver = Solver::new(&b.model);
    solver.set_time_limit(Some(BUDGET));
    b.configure(&mut solver, false);
    match b.goal {
        Goal::Satisfy => match solver.solve() {
            SolveResult::Solution(s) => ("SATISFIED".into(), None, Some(s)),
            SolveResult::Unsatisfiable => ("UNSAT".into(), None, None),
            SolveResult::Stopped(r) => (format!("stopped: {r:?}"), None, None),
        },
        Goal::Minimize(_) | Goal::Maximize(_) => match solver.optimize() {
            Optimum::Optimal {
                solution,
                objective,
            } => ("OPTIMAL".into(), Some(objective), Some(solution)),
            Optimum::Infeasible => ("UNSAT".into(), None, None),
            other => (format!("not proved: {other:?}"), None, None),
        },
    }
}

#[test]
fn suite_instances_give_the_reference_answers() {
    let cases = expected();
    assert!(cases.len() >= 15, "the fixtures are listed");
    for case in &cases {
        let b = built(&case.file);
        let (status, objective, _) = solve(&b);
        match (case.status.as_str(), case.objective) {
            ("OPTIMAL", _) => {
                assert_eq!(status, "OPTIMAL", "{}", case.file);
                assert_eq!(objective, case.objective, "{}", case.file);
            }
            // Gecode's best within its limit: the optimum is at least as good.
            ("SATISFIED", Some(best)) => {
                assert_eq!(status, "OPTIMAL", "{}", case.file);
                let as_good = |o: i64| {
                    if case.kind == "min" {
                        o <= best
                    } else {
                        o >= best
                    }
                };
                assert!(
                    objective.is_some_and(as_good),
                    "{}: {objective:?}",
                    case.file
                );
            }
            _ => assert_eq!(status, case.status, "{}", case.file),
        }
    }
}

fn minizinc_available() -> bool {
    let found = Command::new("minizinc")
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success());
    if !found {
        eprintln!("skipped: minizinc is not installed");
    }
    found
}

fn shared_data() -> Option<PathBuf> {
    let data = Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/data/minizinc");
    if data.join("reference.csv").exists() {
        Some(data)
    } else {
        eprintln!("skipped: ../shared/data/minizinc is not there");
        None
    }
}

#[test]
fn fixtures_are_what_the_script_makes() {
    if !minizinc_available() || shared_data().is_none() {
        return;
    }
    let out = std::env::temp_dir().join(format!("bitcsp-fzn-suite-{}", std::process::id()));
    let status = Command::new(suite().join("regenerate.sh"))
        .arg(&out)
        .status()
        .expect("the script runs");
    assert!(status.success());
    for entry in std::fs::read_dir(&out).expect("written") {
        let path = entry.expect("entry").path();
        let name = path.file_name().expect("a name").to_owned();
        let fresh = std::fs::read(&path).expect("fresh");
        let kept = std::fs::read(suite().join(&name)).expect("checked in");
        assert!(fresh == kept, "{name:?} is out of date: run regenerate.sh");
    }
    let _ = std::fs::remove_dir_all(&out);
}

/// The `model.mzn` and `data.dzn` an instance's fixture was compiled from.
fn sources(data: &Path, file: &str) -> Option<(PathBuf, Option<PathBuf>)> {
    let script = std::fs::read_to_string(suite().join("regenerate.sh")).ok()?;
    script.lines().find_map(|line| {
        let f: Vec<&str> = line.split_whitespace().collect();
        let [family, model, dzn] = f.as_slice() else {
            return None;
        };
        let base = model.trim_end_matches(".mzn");
        let name = if *dzn == "-" {
            format!("{family}-{base}.fzn")
        } else {
            format!("{family}-{base}-{}.fzn", dzn.trim_end_matches(".dzn"))
        };
        (name == file).then(|| {
            let dzn = (*dzn != "-").then(|| data.join(family).join(dzn));
            (data.join(family).join(model), dzn)
        })
    })
}

#[test]
fn gecode_accepts_every_solution() {
    if !minizinc_available() {
        return;
    }
    let Some(data) = shared_data() else { return };
    for case in expected() {
        let b = built(&case.file);
        let (_, _, Some(solution)) = solve(&b) else {
            continue;
        };
        let (model, dzn) = sources(&data, &case.file).expect("listed in the script");
        // The printed outputs are the model's own variables, in data-file syntax.
        let fixed = std::env::temp_dir().join(format!("bitcsp-check-{}.dzn", std::process::id()));
        std::fs::write(&fixed, b.format(&solution)).expect("written");
        let out = Command::new("minizinc")
            .args(["--solver", "gecode", "-G", "std"])
            .arg(&model)
            .args(dzn)
            .arg(&fixed)
            .output()
            .expect("minizinc runs");
        let text = String::from_utf8_lossy(&out.stdout);
        assert!(
            text.lines().any(|l| l == "----------"),
            "{}: Gecode rejects the solution:\n{}{}",
            case.file,
            text,
            String::from_utf8_lossy(&out.stderr)
        );
    }
}
