//! Branch and bound: the 40-item knapsack of `examples/data` proved optimal (702) through
//! `Model::knapsack`, and Golomb rulers of 8 marks (34), one thread.

use std::hint::black_box;

use bitcsp::{Model, Solver, VariableOrder};
use criterion::{criterion_group, criterion_main, Criterion};

#[path = "../examples/golomb.rs"]
#[allow(dead_code)]
mod golomb;

/// The knapsack model of a `n capacity` / `weight value` text.
fn knapsack(text: &str) -> Model {
    let numbers: Vec<Vec<i32>> = text
        .lines()
        .map(|l| {
            l.split_whitespace()
                .map(|t| t.parse().expect("number"))
                .collect()
        })
        .filter(|l: &Vec<i32>| !l.is_empty())
        .collect();
    let capacity = numbers[0][1];
    let items = &numbers[1..];
    let mut model = Model::new();
    let take = model.new_vars(items.len(), 0..=1).expect("items");
    let weights: Vec<i32> = items.iter().map(|i| i[0]).collect();
    let values: Vec<i32> = items.iter().map(|i| i[1]).collect();
    let weight = model.new_var(0..=capacity).expect("weight");
    let value = model
        .new_var(0..=values.iter().sum::<i32>())
        .expect("value");
    model
        .knapsack(&take, &weights, weight, &values, value)
        .expect("knapsack");
    model.maximize(value).expect("objective");
    model
}

fn bench_objectives(c: &mut Criterion) {
    let mut group = c.benchmark_group("objectives");
    group.sample_size(10);
    let text = include_str!("../examples/data/knapsack_uncorrelated_40.txt");
    let model = knapsack(text);
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
    group.finish();
}

criterion_group!(benches, bench_objectives);
criterion_main!(benches);
