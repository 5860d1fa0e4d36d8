//! Branch and bound: the 40-item knapsack of `examples/data` proved optimal (702) through
//! `Model::knapsack`, and Golomb rulers of 8 marks (34), one thread. And wide domains:
//! the first solution of all-different over 200 variables of 2^20 values.

use std::hint::black_box;

use bitcsp::{Model, Solver, VariableOrder};
use criterion::{criterion_group, criterion_main, Criterion};

#[path = "../examples/golomb.rs"]
#[allow(dead_code)]
mod golomb;

#[path = "../examples/knapsack.rs"]
#[allow(dead_code)]
mod knapsack;

fn bench_objectives(c: &mut Criterion) {
    let mut group = c.benchmark_group("objectives");
    group.sample_size(10);
    let text = include_str!("../examples/data/knapsack_uncorrelated_40.txt");
    let (capacity, items) = knapsack::parse(text).expect("instance");
    let (model, _) = knapsack::model(capacity, &items).expect("model");
    group.bench_function("knapsack_uncorrelated_40", |b| {
        b.iter(|| Solver::new(black_box(&model)).optimize())
    });
    let (model, _) = golomb::model(8, 64).expect("golomb");
    group.bench_function("golomb_8", |b| {
        b.iter(|| {
            Solver::new(black_box(&model))
                .set_variable_order(VariableOrder::InputOrder)
                .optimize()
        })
    });
    let mut wide = Model::new();
    let x = wide.new_vars(200, 0..=(1 << 20) - 1).expect("variables");
    wide.all_different(&x).expect("all-different");
    group.bench_function("wide_all_different_200", |b| {
        b.iter(|| Solver::new(black_box(&wide)).solve())
    });
    group.finish();
}

criterion_group!(benches, bench_objectives);
criterion_main!(benches);
