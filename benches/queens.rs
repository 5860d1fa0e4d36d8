//! N-Queens counting through `queens::model` (no symmetry breaking), one thread.

use std::hint::black_box;

use bitcsp::{queens, Solver};
use criterion::{criterion_group, criterion_main, Criterion};

fn bench_queens(c: &mut Criterion) {
    let mut group = c.benchmark_group("queens");
    group.sample_size(10);
    for n in [8, 10, 12] {
        let (model, _) = queens::model(n).expect("model");
        group.bench_function(format!("count_{n}"), |b| {
            b.iter(|| Solver::new(black_box(&model)).count(None))
        });
    }
    group.finish();
}

criterion_group!(benches, bench_queens);
criterion_main!(benches);
