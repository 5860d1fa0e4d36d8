//! The chromatic number two ways, to decide how `bitcsp color` searches for a minimum:
//! `coloring::chromatic_number` (bottom-up k-colourability probes, tabu search, top-down
//! descent) against branch and bound on one model (as many colours as DSATUR uses, the
//! largest colour minimised by `Solver::optimize`).
//!
//! `cargo run --release -p bitcsp-compare --bin chromatic_bb`

use bitcsp::coloring::{self, Graph, Limits};
use bitcsp::{Optimum, Solver};
use std::time::{Duration, Instant};
fn main() {
    for name in [
        "myciel3",
        "myciel4",
        "myciel5",
        "queen5_5",
        "queen6_6",
        "queen7_7",
        "DSJC125.1",
        "anna",
        "games120",
        "miles250",
        "le450_5a",
    ] {
        let path = format!(
            "{}/../tests/data/coloring/{name}.col",
            env!("CARGO_MANIFEST_DIR")
        );
        let Ok(file) = std::fs::File::open(&path) else {
            continue;
        };
        let graph = Graph::read_dimacs(std::io::BufReader::new(file))
            .unwrap()
            .graph;
        let t = Instant::now();
        let limits = Limits {
            time: Some(Duration::from_secs(20)),
            ..Limits::default()
        };
        let c = coloring::chromatic_number(&graph, &limits).unwrap();
        let ours = t.elapsed();

        // largest colour minimised.
        let t = Instant::now();
        let upper = c.upper.max(1);
        let (mut model, vars) = coloring::model(&graph, upper).unwrap();
        let top = model.new_var(0..=upper as i32 - 1).unwrap();
        model.max(&vars, top).unwrap();
        model.minimize(top).unwrap();
        let mut s = Solver::new(&model);
        s.set_time_limit(Some(Duration::from_secs(20)));
        let r = s.optimize();
        let bb = t.elapsed();
        let answer = match r {
            Optimum::Optimal { objective, .. } => format!("{}", objective + 1),
            o => format!("{:?}", std::mem::discriminant(&o)),
        };
        println!(
            "{name}: chromatic_number {}..{} in {:.3} s; branch and bound {answer} in {:.3} s",
            c.lower,
            c.upper,
            ours.as_secs_f64(),
            bb.as_secs_f64()
        );
    }
}
