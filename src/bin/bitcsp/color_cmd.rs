//! `bitcsp color FILE.col`: the chromatic number and a colouring, or a k-colourability
//! decision; optionally the coloured graph as Graphviz DOT.

use std::fmt::Write as _;
use std::io::{self, Write};
use std::time::Duration;

use bitcsp::coloring::{self, Decision, Graph, Limits};

use crate::exit::Outcome;
use crate::interrupt;
use crate::progress::SearchProgress;

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
    let Some(graph) = read_graph(&settings.file) else {
        return Outcome::FAILED;
    };
    let progress = SearchProgress::start_for("of the search at this number of colours");
    let limits = Limits {
        time: settings.time_limit,
        nodes: settings.node_limit,
        cancel: Some(interrupt::flag()),
        threads: settings.threads,
        progress: Some(progress.sink()),
    };
    let (first_line, colouring, outcome) = match settings.colors {
        Some(k) => decide(&graph, k, &limits),
        None => chromatic(&graph, &limits),
    };
    progress.finish();
    let mut out = io::BufWriter::new(io::stdout());
    let _ = writeln!(out, "{first_line}");
    if let Some(colouring) = &colouring {
        for (v, c) in colouring.iter().enumerate() {
            let _ = writeln!(out, "{} {}", v + 1, c + 1);
        }
    }
    let _ = out.flush();
    let mut outcome = outcome;
    if let (Some(path), Some(colouring)) = (&settings.dot, &colouring) {
        if let Err(e) = std::fs::write(path, to_dot(&graph, colouring)) {
            eprintln!("{path}: cannot write: {e}");
            outcome.failed = true;
        }
    }
    outcome
}

fn read_graph(file: &str) -> Option<Graph> {
    let bytes = match std::fs::read(file) {
        Ok(b) => b,
        Err(e) => {
            eprintln!("{file}: cannot read: {e}");
            return None;
        }
    };
    let text = String::from_utf8_lossy(&bytes);
    match Graph::from_dimacs(&text) {
        Ok(parsed) => {
            for w in &parsed.warnings {
                eprintln!("{}", located(file, &w.to_string(), "warning: "));
            }
            Some(parsed.graph)
        }
        Err(e) => {
            eprintln!("{}", located(file, &e.to_string(), ""));
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
    match coloring::colour_with(graph, k, limits) {
        Ok(Decision::Colouring(c)) => (k.to_string(), Some(c), Outcome::default()),
        Ok(Decision::Impossible) => ("unsatisfiable".into(), None, Outcome::FAILED),
        Ok(Decision::Unknown(reason)) => {
            eprintln!("{reason}");
            ("unknown".into(), None, Outcome::stopped(reason))
        }
        Err(e) => {
            eprintln!("bitcsp color: {e}");
            ("unknown".into(), None, Outcome::FAILED)
        }
    }
}

fn chromatic(graph: &Graph, limits: &Limits) -> Answer {
    match coloring::chromatic_number(graph, limits) {
        Ok(r) if r.is_exact() => (r.upper.to_string(), Some(r.colouring), Outcome::default()),
        Ok(r) => {
            let reason = r.stopped.unwrap_or(bitcsp::StopReason::TimeLimit);
            eprintln!(
                "{reason}: chromatic number between {} and {}",
                r.lower, r.upper
            );
            (
                format!("{} {}", r.lower, r.upper),
                Some(r.colouring),
                Outcome::stopped(reason),
            )
        }
        Err(e) => {
            eprintln!("bitcsp color: {e}");
            ("unknown".into(), None, Outcome::FAILED)
        }
    }
}

/// The graph in Graphviz DOT, each vertex filled with its colour.
fn to_dot(graph: &Graph, colouring: &[usize]) -> String {
    const PALETTE: [&str; 12] = [
        "#e6194b", "#3cb44b", "#ffe119", "#4363d8", "#f58231", "#911eb4", "#46f0f0", "#f032e6",
        "#bcf60c", "#fabebe", "#008080", "#e6beff",
    ];
    let mut dot = String::from("graph coloring {\n  node [style=filled];\n");
    for (v, &c) in colouring.iter().enumerate() {
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
