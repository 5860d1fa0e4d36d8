//! FlatZinc models of the MiniZinc benchmark suite (the repository's fixtures), searched
//! as `bitcsp fzn` searches them (the solve item's annotations, then dom/wdeg with the
//! last conflict first), one thread, to the proved optimum: job-shop la01 (reified
//! orderings of two tasks, and clauses; 666) and open stacks problem_10_10_1 (element over
//! constants, reified comparisons; 5). Parsing and building are outside the timing.

use std::hint::black_box;

use bitcsp::flatzinc::{build, parse, Built};
use bitcsp::{Optimum, Solver};
use criterion::{criterion_group, criterion_main, Criterion};

/// The fixtures and their proved optima.
const MODELS: [(&str, &str, i64); 2] = [
    (
        "jobshop_la01",
        include_str!("../tests/data/flatzinc/suite/jobshop-jobshop-jobshop_la01.fzn"),
        666,
    ),
    (
        "open_stacks_problem_10_10_1",
        include_str!("../tests/data/flatzinc/suite/open_stacks-open_stacks_01-problem_10_10_1.fzn"),
        5,
    ),
];

/// The proved optimum of `built`, searched as `bitcsp fzn` does.
fn optimum(built: &Built) -> i64 {
    let mut solver = Solver::new(&built.model);
    built.configure(&mut solver, false);
    match solver.optimize() {
        Optimum::Optimal { objective, .. } => objective,
        other => panic!("not proved: {other:?}"),
    }
}

fn bench_flatzinc(c: &mut Criterion) {
    let mut group = c.benchmark_group("flatzinc");
    group.sample_size(10);
    for (name, text, expected) in MODELS {
        let built = build(&parse(text).expect("fixture parses")).expect("fixture builds");
        assert_eq!(optimum(&built), expected, "{name}");
        group.bench_function(name, |b| b.iter(|| black_box(optimum(&built))));
    }
    group.finish();
}

criterion_group!(benches, bench_flatzinc);
criterion_main!(benches);
