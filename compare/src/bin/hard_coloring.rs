//! Issue 29's hard colouring targets, generated rather than read: queen graphs n×n (cells
//! are vertices, two cells in one row, column or diagonal are adjacent) and Mycielski
//! graphs (myciel3 is the Grötzsch graph, each next one the Mycielskian of the last),
//! each coloured by `coloring::chromatic_number` on one thread with a time limit.
//!
//! `cargo run --release -p bitcsp-compare --bin hard_coloring -- [--limit 60] [--only queen|myciel] [--dimacs DIR] [--cnf DIR]`
//!
//! `--dimacs DIR` writes the graphs as DIMACS `.col` files (for `bitcsp color` or another
//! solver); `--cnf DIR` writes, for each graph, the claim "χ − 1 colours suffice" as
//! DIMACS CNF (`DIR/NAME-K.cnf`, unsatisfiable), for a SAT solver as a peer on the proof.
//! Neither solves anything.

use std::fmt::Write as _;
use std::path::Path;
use std::process::ExitCode;
use std::time::{Duration, Instant};

use bitcsp::coloring::{self, greedy_clique, Graph, Limits};

#[path = "../cnf.rs"]
#[allow(dead_code)] // shared with `large`, which also asks for exactly one
mod cnf;
use cnf::Cnf;

fn arg(name: &str) -> Option<String> {
    let args: Vec<String> = std::env::args().collect();
    args.iter()
        .position(|a| a == name)
        .and_then(|i| args.get(i + 1).cloned())
}

/// A graph of the benchmark with its chromatic number from the literature.
struct Instance {
    name: String,
    graph: Graph,
    chi: usize,
}

/// myciel3 (11 vertices, χ = 4) up to `myciel{last}`, each the Mycielskian of the one
/// before, starting from one edge (χ = 2).
fn mycielski_graphs(last: usize) -> Vec<Instance> {
    let mut graph = Graph::from_edges(2, [(0, 1)]);
    let mut out = Vec::new();
    for k in 2..=last {
        graph = graph.mycielskian().expect("a small graph");
        if k >= 3 {
            out.push(Instance {
                name: format!("myciel{k}"),
                graph: graph.clone(),
                chi: k + 1,
            });
        }
    }
    out
}

/// Queen graphs 5×5 to 10×10 with their chromatic numbers.
fn queen_graphs() -> Vec<Instance> {
    [(5, 5), (6, 7), (7, 7), (8, 9), (9, 10), (10, 11)]
        .into_iter()
        .map(|(n, chi)| Instance {
            name: format!("queen{n}_{n}"),
            graph: Graph::queen(n).expect("a small board"),
            chi,
        })
        .collect()
}

fn dimacs_graph(graph: &Graph) -> String {
    let mut out = format!("p edge {} {}\n", graph.num_vertices(), graph.num_edges());
    for (a, b) in graph.edges() {
        let _ = writeln!(out, "e {} {}", a + 1, b + 1);
    }
    out
}

/// "`k` colours suffice" as CNF: variable `v * k + c + 1` says vertex `v` has colour `c`;
/// each vertex has a colour, the ends of an edge differ, and a greedy clique's vertices
/// take colours `0, 1, ...` in turn (the usual break of the colours' symmetry).
fn dimacs_cnf(graph: &Graph, k: usize) -> String {
    let var = |v: usize, c: usize| (v * k + c + 1) as i64;
    let mut cnf = Cnf {
        vars: graph.num_vertices() * k,
        ..Cnf::default()
    };
    for v in 0..graph.num_vertices() {
        cnf.clauses.push((0..k).map(|c| var(v, c)).collect());
    }
    for (a, b) in graph.edges() {
        cnf.clauses
            .extend((0..k).map(|c| vec![-var(a, c), -var(b, c)]));
    }
    for (c, v) in greedy_clique(graph).into_iter().enumerate().take(k) {
        cnf.clauses.push(vec![var(v, c)]);
    }
    cnf.to_dimacs()
}

fn main() -> ExitCode {
    let limit =
        Duration::from_secs_f64(arg("--limit").and_then(|l| l.parse().ok()).unwrap_or(60.0));
    let only = arg("--only");
    let mut instances = Vec::new();
    if only.as_deref() != Some("myciel") {
        instances.extend(queen_graphs());
    }
    if only.as_deref() != Some("queen") {
        instances.extend(mycielski_graphs(6));
    }
    let writes = [("--dimacs", false), ("--cnf", true)];
    let mut wrote = false;
    for (flag, cnf) in writes {
        let Some(dir) = arg(flag) else { continue };
        wrote = true;
        for instance in &instances {
            let (file, text) = if cnf {
                let k = instance.chi - 1;
                (
                    format!("{}-{k}.cnf", instance.name),
                    dimacs_cnf(&instance.graph, k),
                )
            } else {
                (
                    format!("{}.col", instance.name),
                    dimacs_graph(&instance.graph),
                )
            };
            if let Err(e) = std::fs::write(Path::new(&dir).join(&file), text) {
                eprintln!("{dir}/{file}: {e}");
                return ExitCode::FAILURE;
            }
        }
    }
    if wrote {
        return ExitCode::SUCCESS;
    }
    let mut wrong = false;
    println!("| graph | vertices | edges | χ | bitcsp, one thread, {limit:.0?} limit |");
    println!("| --- | --- | --- | --- | --- |");
    for instance in &instances {
        let limits = Limits {
            time: Some(limit),
            threads: 1,
            ..Limits::default()
        };
        let started = Instant::now();
        let result = match coloring::chromatic_number(&instance.graph, &limits) {
            Ok(result) => result,
            Err(e) => {
                eprintln!("{}: {e}", instance.name);
                wrong = true;
                continue;
            }
        };
        let seconds = started.elapsed().as_secs_f64();
        let answer = if result.is_exact() {
            format!("χ = {} proved in {seconds:.2} s", result.lower)
        } else {
            format!(
                "bounds {}–{} after {seconds:.1} s",
                result.lower, result.upper
            )
        };
        let consistent = result.lower <= instance.chi
            && instance.chi <= result.upper
            && instance.graph.is_proper_coloring(&result.coloring);
        if !consistent {
            wrong = true;
        }
        println!(
            "| {} | {} | {} | {} | {answer}{} |",
            instance.name,
            instance.graph.num_vertices(),
            instance.graph.num_edges(),
            instance.chi,
            if consistent { "" } else { " WRONG" }
        );
    }
    if wrong {
        ExitCode::FAILURE
    } else {
        ExitCode::SUCCESS
    }
}
