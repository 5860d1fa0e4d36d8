//! MiniZinc's global constraints through bitcsp's library, against Gecode: each model of
//! `tests/data/minizinc/globals` (one or two globals over small domains, some reified,
//! some over set variables) is solved by both through `minizinc` for every solution.
//! A satisfaction model must give the same set of solutions; an optimisation model (which
//! prints only its objective) the same optimum. Gecode runs MiniZinc's standard
//! decompositions (`-G std`), so that the two share nothing but the language. Skipped
//! when `minizinc` with Gecode is not installed.

mod common;

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::process::Command;

/// What one solver answered: its solutions (each the lines printed before `----------`),
/// and the status line after them (`==========`, `=====UNSATISFIABLE=====`, ...).
#[derive(Debug, PartialEq, Eq)]
struct Answer {
    solutions: Vec<String>,
    status: String,
}

fn answer(solver: &[&str], model: &Path) -> Answer {
    let root = env!("CARGO_MANIFEST_DIR");
    let out = Command::new("minizinc")
        .env("MZN_SOLVER_PATH", format!("{root}/share/minizinc/solvers"))
        .env("BITCSP", env!("CARGO_BIN_EXE_bitcsp"))
        .args(solver)
        .args(["-a", "-t", "60000"])
        .arg(model)
        .output()
        .expect("minizinc runs");
    let text = String::from_utf8_lossy(&out.stdout);
    let mut solutions = Vec::new();
    let mut current = String::new();
    let mut status = String::new();
    for line in text.lines() {
        if line == "----------" {
            solutions.push(std::mem::take(&mut current));
        } else if line.starts_with("=====") {
            status = line.to_string();
        } else {
            current.push_str(line);
            current.push('\n');
        }
    }
    Answer { solutions, status }
}

fn models() -> Vec<PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/minizinc/globals");
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .expect("the models' folder")
        .map(|e| e.expect("a folder entry").path())
        .filter(|p| p.extension().is_some_and(|e| e == "mzn"))
        .collect();
    files.sort();
    files
}

#[test]
fn globals_give_gecodes_solutions() {
    if !common::minizinc_with_gecode() {
        return;
    }
    let files = models();
    assert!(files.len() >= 40, "{} models", files.len());
    // Two workers: each model's two runs are mostly MiniZinc's start-up.
    let (even, odd): (Vec<_>, Vec<_>) = files.iter().enumerate().partition(|(i, _)| i % 2 == 0);
    let differences: Vec<String> = std::thread::scope(|scope| {
        let workers: Vec<_> = [even, odd]
            .into_iter()
            .map(|part| {
                scope.spawn(move || {
                    part.into_iter()
                        .filter_map(|(_, model)| difference(model))
                        .collect::<Vec<_>>()
                })
            })
            .collect();
        workers
            .into_iter()
            .flat_map(|w| w.join().expect("a worker"))
            .collect()
    });
    assert!(differences.is_empty(), "{}", differences.join("\n"));
}

/// How bitcsp's answer to `model` differs from Gecode's, if it does.
fn difference(model: &Path) -> Option<String> {
    let text = std::fs::read_to_string(model).expect("model read");
    let optimises = text.contains("solve minimize") || text.contains("solve maximize");
    let ours = answer(&["--solver", "bitcsp"], model);
    let theirs = answer(&["--solver", "gecode", "-G", "std"], model);
    let agree = if optimises {
        // Improving solutions differ with the search; the last one is the optimum.
        ours.status == theirs.status && ours.solutions.last() == theirs.solutions.last()
    } else {
        let set = |a: &Answer| a.solutions.iter().cloned().collect::<BTreeSet<_>>();
        ours.status == theirs.status
            && set(&ours) == set(&theirs)
            && ours.solutions.len() == theirs.solutions.len()
    };
    let answered = !theirs.status.is_empty() && !theirs.status.contains("ERROR");
    (!agree || !answered)
        .then(|| format!("{}:\nbitcsp {ours:?}\ngecode {theirs:?}", model.display()))
}

#[test]
fn reified_value_precede_means_what_it_says() {
    // MiniZinc's standard library refuses value_precede in a reified context; bitcsp's
    // library gives it as a formula. Gecode solves the same model with the formula
    // written out.
    if !common::minizinc_with_gecode() {
        return;
    }
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/minizinc/reified");
    let ours = answer(&["--solver", "bitcsp"], &dir.join("value_precede.mzn"));
    let theirs = answer(
        &["--solver", "gecode", "-G", "std"],
        &dir.join("value_precede_formula.mzn"),
    );
    let set = |a: &Answer| a.solutions.iter().cloned().collect::<BTreeSet<_>>();
    assert_eq!(ours.status, "==========", "{ours:?}");
    assert_eq!(ours.status, theirs.status);
    assert!(!theirs.solutions.is_empty());
    assert_eq!(set(&ours), set(&theirs));
    assert_eq!(ours.solutions.len(), theirs.solutions.len());
}

/// Whether `x` (indexed from 0) is a permutation of its indices whose nodes off their
/// own place (all of them when `sub` is false) form one cycle; `sub` also accepts no
/// such node at all.
fn is_circuit(x: &[i32], sub: bool) -> bool {
    let n = x.len();
    let mut seen = vec![false; n];
    for &v in x {
        let Ok(v) = usize::try_from(v) else {
            return false;
        };
        if v >= n || std::mem::replace(&mut seen[v], true) {
            return false;
        }
    }
    let moved: Vec<usize> = (0..n).filter(|&i| x[i] != i as i32).collect();
    if !sub && n > 1 && moved.len() < n {
        return false;
    }
    let Some(&start) = moved.first() else {
        return sub || n == 1;
    };
    let (mut node, mut length) = (start, 0);
    loop {
        node = x[node] as usize;
        length += 1;
        if node == start {
            return length == moved.len();
        }
    }
}

#[test]
fn reified_circuits_mean_what_they_say() {
    // MiniZinc's standard library refuses circuit and subcircuit in a reified context;
    // bitcsp's library gives them as formulas. Every assignment of four successors over
    // -1..3 (values outside the index set included) is listed once, with the truth of
    // the constraint, which a brute force here decides.
    if !common::minizinc_with_gecode() {
        return;
    }
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/minizinc/reified");
    for (file, sub) in [("circuit.mzn", false), ("subcircuit.mzn", true)] {
        let ours = answer(&["--solver", "bitcsp"], &dir.join(file));
        assert_eq!(ours.status, "==========", "{file}: {ours:?}");
        let mut expected = BTreeSet::new();
        for code in 0..5u32.pow(4) {
            let x: Vec<i32> = (0..4)
                .map(|i| (code / 5u32.pow(i) % 5) as i32 - 1)
                .collect();
            let shown: Vec<String> = x.iter().map(i32::to_string).collect();
            expected.insert(format!("[{}] {}\n", shown.join(", "), is_circuit(&x, sub)));
        }
        let listed: BTreeSet<String> = ours.solutions.iter().cloned().collect();
        assert_eq!(ours.solutions.len(), 625, "{file}: each assignment once");
        assert_eq!(listed, expected, "{file}");
        let holding = listed.iter().filter(|s| s.ends_with("true\n")).count();
        assert_eq!(holding, if sub { 1 + 6 + 8 + 6 } else { 6 }, "{file}");
    }
}
