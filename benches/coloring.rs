//! Chromatic number of DIMACS graphs from `tests/data/coloring`.

use std::hint::black_box;

use bitcsp::coloring::{self, Graph, Limits};
use criterion::{criterion_group, criterion_main, Criterion};

fn graph(name: &str) -> Graph {
    let path = format!(
        "{}/tests/data/coloring/{name}.col",
        env!("CARGO_MANIFEST_DIR")
    );
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    Graph::from_dimacs(&text).expect("valid graph").graph
}

fn bench_coloring(c: &mut Criterion) {
    let mut group = c.benchmark_group("coloring");
    group.sample_size(10);
    for name in [
        "queen6_6",
        "queen8_8",
        "myciel5",
        "DSJC125.1",
        "le450_15b",
        "school1",
    ] {
        let g = graph(name);
        group.bench_function(format!("chromatic_{name}"), |b| {
            b.iter(|| coloring::chromatic_number(black_box(&g), &Limits::default()))
        });
    }
    group.finish();
}

criterion_group!(benches, bench_coloring);
criterion_main!(benches);
