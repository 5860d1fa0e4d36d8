//! `bitcsp color FILE.col`: the chromatic number and a coloring, or a k-colorability
//! decision; optionally the colored graph as Graphviz DOT.

use std::fmt::Write as _;
use std::io::BufReader;
use std::path::Path;
use std::time::Duration;

use bitcsp::coloring::{self, Decision, Graph, Limits};

use crate::exit::Outcome;
use crate::output::{Lost, Output};
use crate::progress::SearchProgress;
use crate::{files, interrupt, say};

/// Settings of one run.
#[derive(Clone, Debug)]
pub struct Settings {
    pub file: String,
    pub colors: Option<usize>,
    pub time_limit: Option<Duration>,
    pub node_limit: Option<u64>,
    pub dot: Option<String>,
    pub threads: usize,
}

/// Runs the command.
pub fn run(settings: &Settings) -> Outcome {
    if let Some(dot) = &settings.dot {
        if files::same_file(Path::new(dot), Path::new(&settings.file)) {
            say!("bitcsp color: --dot {dot} would overwrite the input graph");
            return Outcome::USAGE;
        }
    }
    let Some(graph) = read_graph(&settings.file) else {
        return Outcome::FAILED;
    };
    // The time limit counts from here: the whole command after reading its input.
    let progress = SearchProgress::start_for("of the search at this number of colors");
    let limits = Limits {
        time: settings.time_limit,
        nodes: settings.node_limit,
        cancel: Some(interrupt::flag()),
        threads: settings.threads,
        progress: Some(progress.sink()),
    };
    let (first_line, coloring, mut outcome) = match settings.colors {
        Some(k) => decide(&graph, k, &limits),
        None => chromatic(&graph, &limits),
    };
    progress.finish();
    if print(&first_line, coloring.as_deref()).is_err() {
        outcome.failed = true;
        return outcome;
    }
    if let Some(path) = &settings.dot {
        match &coloring {
            Some(coloring) => {
                let dot = to_dot(&graph, coloring);
                if let Err(e) = files::write_atomically(Path::new(path), dot.as_bytes()) {
                    say!("{path}: cannot write: {e}");
                    outcome.failed = true;
                }
            }
            None => say!("{path}: not written: no coloring was found"),
        }
    }
    outcome
}

fn print(first_line: &str, coloring: Option<&[usize]>) -> Result<(), Lost> {
    let mut out = Output::new();
    writeln!(out, "{first_line}")?;
    for (v, c) in coloring.unwrap_or_default().iter().enumerate() {
        writeln!(out, "{} {}", v + 1, c + 1)?;
    }
    out.flush()
}

fn read_graph(file: &str) -> Option<Graph> {
    let opened = files::open_input(file);
    let parsed = match opened {
        Ok(f) => Graph::read_dimacs(BufReader::with_capacity(1 << 16, f)),
        Err(e) => {
            say!("{file}: cannot read: {e}");
            return None;
        }
    };
    match parsed {
        Ok(parsed) => {
            for w in &parsed.warnings {
                say!("{}", located(file, &w.to_string(), "warning: "));
            }
            Some(parsed.graph)
        }
        Err(e) => {
            say!("{}", located(file, &e.to_string(), ""));
            None
        }
    }
}

/// `FILE:LINE: message` from a message that starts with `line N: `.
fn located(file: &str, message: &str, kind: &str) -> String {
    match message
        .strip_prefix("line ")
        .and_then(|rest| rest.split_once(": "))
    {
        Some((line, rest)) if line.chars().all(|c| c.is_ascii_digit()) => {
            format!("{file}:{line}: {kind}{rest}")
        }
        _ => format!("{file}: {kind}{message}"),
    }
}

type Answer = (String, Option<Vec<usize>>, Outcome);

fn decide(graph: &Graph, k: usize, limits: &Limits) -> Answer {
    match coloring::color_with(graph, k, limits) {
        Ok(Decision::Coloring(c)) => (k.to_string(), Some(c), Outcome::default()),
        Ok(Decision::Impossible) => ("unsatisfiable".into(), None, Outcome::FAILED),
        Ok(Decision::Unknown(reason)) => {
            say!("{reason}");
            ("unknown".into(), None, Outcome::stopped(reason))
        }
        Err(e) => {
            say!("bitcsp color: {e}");
            ("unknown".into(), None, Outcome::FAILED)
        }
    }
}

fn chromatic(graph: &Graph, limits: &Limits) -> Answer {
    match coloring::chromatic_number(graph, limits) {
        Ok(r) if r.is_exact() => (r.upper.to_string(), Some(r.coloring), Outcome::default()),
        Ok(r) => {
            let reason = r.stopped.unwrap_or(bitcsp::StopReason::TimeLimit);
            say!(
                "{reason}: chromatic number between {} and {}",
                r.lower,
                r.upper
            );
            (
                format!("{} {}", r.lower, r.upper),
                Some(r.coloring),
                Outcome::stopped(reason),
            )
        }
        Err(e) => {
            say!("bitcsp color: {e}");
            ("unknown".into(), None, Outcome::FAILED)
        }
    }
}

/// The graph in Graphviz DOT, each vertex filled with its color.
fn to_dot(graph: &Graph, coloring: &[usize]) -> String {
    const PALETTE: [&str; 12] = [
        "#e6194b", "#3cb44b", "#ffe119", "#4363d8", "#f58231", "#911eb4", "#46f0f0", "#f032e6",
        "#bcf60c", "#fabebe", "#008080", "#e6beff",
    ];
    let mut dot = String::from("graph coloring {\n  node [style=filled];\n");
    for (v, &c) in coloring.iter().enumerate() {
        let fill = PALETTE[c % PALETTE.len()];
        let _ = writeln!(
            dot,
            "  {} [label=\"{}:{}\", fillcolor=\"{fill}\"];",
            v + 1,
            v + 1,
            c + 1
        );
    }
    for (u, v) in graph.edges() {
        let _ = writeln!(dot, "  {} -- {};", u + 1, v + 1);
    }
    dot.push_str("}\n");
    dot
}
