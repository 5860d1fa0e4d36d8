//! bitcsp against Gecode 6.2 (through MiniZinc) on the same formulations, in one run:
//! the job shop ft06, random 3-SAT at the threshold and random table CSPs (the seeded
//! generators of `benches/common/generators.rs`), the 40-item knapsack and Golomb rulers.
//!
//! `cargo run --release -p bitcsp-compare --bin gecode -- [--seeds N] [--only NAME]`
//!
//! bitcsp's time is the CPU time of its search (model built before the clock starts);
//! Gecode's is the `solveTime` MiniZinc reports (flattening excluded). Without `minizinc`
//! on the PATH the Gecode column stays empty.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Duration;

use bitcsp::{Model, Optimum, SolveResult, Solver, VariableOrder};
use cpu_time::ThreadTime;

#[path = "../../../benches/common/generators.rs"]
mod generators;

#[path = "../../../examples/jobshop.rs"]
#[allow(dead_code)]
mod jobshop;

#[path = "../../../examples/knapsack.rs"]
#[allow(dead_code)]
mod knapsack;

#[path = "../../../examples/golomb.rs"]
#[allow(dead_code)]
mod golomb;

/// What one side answered: its time and a short answer to compare.
struct Run {
    time: Duration,
    answer: String,
}

/// Solves (or optimises) `model` with bitcsp, timing the search only.
fn ours(model: &Model, order: Option<VariableOrder>) -> Run {
    let clock = ThreadTime::now();
    let mut solver = Solver::new(model);
    if let Some(order) = order {
        solver.set_variable_order(order);
    }
    let answer = if model.objective().is_some() {
        match solver.optimize() {
            Optimum::Optimal { objective, .. } => format!("optimal {objective}"),
            other => format!("{other:?}"),
        }
    } else {
        match solver.solve() {
            SolveResult::Solution(_) => "sat".to_string(),
            SolveResult::Unsatisfiable => "unsat".to_string(),
            SolveResult::Stopped(r) => format!("stopped {r:?}"),
        }
    };
    Run {
        time: clock.elapsed(),
        answer,
    }
}

/// Runs Gecode through MiniZinc on `mzn` with `dzn`; `None` when MiniZinc is missing.
fn gecode(mzn: &Path, dzn: Option<&Path>) -> Option<Run> {
    let out = Command::new("minizinc")
        .args(["--solver", "gecode", "-s", "--output-objective"])
        .arg(mzn)
        .args(dzn)
        .output()
        .ok()?;
    let text = String::from_utf8_lossy(&out.stdout);
    let seconds: f64 = text
        .lines()
        .find_map(|l| l.strip_prefix("%%%mzn-stat: solveTime="))
        .and_then(|s| s.trim().parse().ok())?;
    let answer = if text.contains("=====UNSATISFIABLE=====") {
        "unsat".to_string()
    } else if let Some(objective) = text.lines().find_map(|l| l.strip_prefix("_objective = ")) {
        format!("optimal {}", objective.trim_end_matches(';'))
    } else if text.contains("----------") {
        "sat".to_string()
    } else {
        "unknown".to_string()
    };
    Some(Run {
        time: Duration::from_secs_f64(seconds),
        answer,
    })
}

fn write(dir: &Path, name: &str, text: &str) -> PathBuf {
    let path = dir.join(name);
    std::fs::write(&path, text).expect("temporary file");
    path
}

fn three_sat_dzn(vars: usize, clauses: &[[i32; 3]]) -> String {
    let mut s = format!("n = {vars}; m = {};\nlits = [|", clauses.len());
    for c in clauses {
        let _ = write!(s, " {}, {}, {} |", c[0], c[1], c[2]);
    }
    s.push_str("];\n");
    s
}

fn table_dzn(csp: &generators::TableCsp) -> String {
    let arity = csp.scopes[0].len();
    let k = csp.tuples[0].len();
    let mut s = format!(
        "n = {}; d = {}; t = {}; k = {k}; a = {arity};\nscope = [|",
        csp.vars,
        csp.values,
        csp.scopes.len()
    );
    for scope in &csp.scopes {
        let row: Vec<String> = scope.iter().map(|v| (v + 1).to_string()).collect();
        let _ = write!(s, " {} |", row.join(", "));
    }
    s.push_str("];\ntuples = array3d(1..t, 1..k, 1..a, [");
    let all: Vec<String> = csp
        .tuples
        .iter()
        .flatten()
        .flatten()
        .map(i32::to_string)
        .collect();
    s.push_str(&all.join(","));
    s.push_str("]);\n");
    s
}

/// One row: both sides on one instance.
fn row(name: &str, ours: Run, peer: Option<Run>) -> (Duration, Option<Duration>) {
    let (peer_time, peer_answer, ratio) = match &peer {
        Some(p) => (
            format!("{:.3} s", p.time.as_secs_f64()),
            p.answer.clone(),
            format!(
                "{:.2}×",
                ours.time.as_secs_f64() / p.time.as_secs_f64().max(1e-6)
            ),
        ),
        None => ("-".into(), "-".into(), "-".into()),
    };
    println!(
        "| {name} | {:.3} s | {} | {peer_time} | {} | {ratio} |",
        ours.time.as_secs_f64(),
        ours.answer,
        peer_answer
    );
    (ours.time, peer.map(|p| p.time))
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let flag = |name: &str| {
        args.iter()
            .position(|a| a == name)
            .and_then(|i| args.get(i + 1))
    };
    let seeds: u64 = flag("--seeds").and_then(|s| s.parse().ok()).unwrap_or(20);
    let only = flag("--only").cloned();
    let wanted = |name: &str| only.as_deref().is_none_or(|o| o == name);
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let mzn = root.join("minizinc");
    let dir = std::env::temp_dir().join(format!("bitcsp-gecode-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temporary folder");

    println!("| instance | bitcsp | answer | Gecode solveTime | answer | ratio |");
    println!("| --- | --- | --- | --- | --- | --- |");
    if wanted("jobshop") {
        let text = std::fs::read_to_string(root.join("../examples/data/ft06.txt")).expect("ft06");
        let instance = jobshop::parse(&text).expect("ft06");
        let (model, _, _) = jobshop::model(&instance).expect("model");
        row(
            "jobshop ft06",
            ours(&model, None),
            gecode(
                &mzn.join("jobshop.mzn"),
                Some(&mzn.join("jobshop_ft06.dzn")),
            ),
        );
    }
    for (name, vars, clauses, kind) in [
        ("3-SAT 150/639", 150, 639, "sat"),
        ("table CSP", 50, 0, "table"),
    ] {
        if !wanted(kind) {
            continue;
        }
        let (mut total_ours, mut total_peer, mut peer_complete) =
            (Duration::ZERO, Duration::ZERO, true);
        for seed in 1..=seeds {
            let (model, dzn, model_file) = if kind == "sat" {
                let formula = generators::three_sat(vars, clauses, seed);
                let (model, _) = generators::three_sat_model(vars, &formula);
                (model, three_sat_dzn(vars, &formula), "three_sat.mzn")
            } else {
                let csp = generators::table_csp(50, 10, 20, 1000, 5, seed);
                let (model, _) = generators::table_csp_model(&csp);
                (model, table_dzn(&csp), "table_csp.mzn")
            };
            let data = write(&dir, &format!("{kind}_{seed}.dzn"), &dzn);
            let (o, p) = row(
                &format!("{name} seed {seed}"),
                ours(&model, None),
                gecode(&mzn.join(model_file), Some(&data)),
            );
            total_ours += o;
            match p {
                Some(p) => total_peer += p,
                None => peer_complete = false,
            }
        }
        let peer = peer_complete.then(|| Run {
            time: total_peer,
            answer: "-".into(),
        });
        row(
            &format!("{name}, {seeds} seeds in total"),
            Run {
                time: total_ours,
                answer: "-".into(),
            },
            peer,
        );
    }
    if wanted("knapsack") {
        let text =
            std::fs::read_to_string(root.join("../examples/data/knapsack_uncorrelated_40.txt"))
                .expect("knapsack");
        let (capacity, items) = knapsack::parse(&text).expect("knapsack");
        let (model, _) = knapsack::model(capacity, &items).expect("model");
        let mut dzn = format!("n = {}; capacity = {capacity};\n", items.len());
        let weights: Vec<String> = items.iter().map(|i| i.0.to_string()).collect();
        let values: Vec<String> = items.iter().map(|i| i.1.to_string()).collect();
        let _ = write!(
            dzn,
            "weight = [{}];\nvalue = [{}];\n",
            weights.join(","),
            values.join(",")
        );
        let data = write(&dir, "knapsack.dzn", &dzn);
        row(
            "knapsack uncorrelated_40",
            ours(&model, None),
            gecode(&mzn.join("knapsack.mzn"), Some(&data)),
        );
    }
    if wanted("golomb") {
        let (model, _) = golomb::model(10, 100).expect("golomb");
        row(
            "golomb 10 marks",
            ours(&model, Some(VariableOrder::InputOrder)),
            gecode(&mzn.join("golomb.mzn"), None),
        );
    }
    let _ = std::fs::remove_dir_all(&dir);
}
