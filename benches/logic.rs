//! Logic, reification and tables, one thread: the job shop ft06 proved optimal (55), a
//! random 3-SAT formula at the threshold (150 variables, 639 clauses, seed 1) and a random
//! table CSP (50 variables of 10 values, 20 tables of 1,000 tuples over 5, seed 1), each
//! solved to its first solution or proof that none exists; and one table of 100,000
//! tuples over 10 variables, propagated at the root and solved.

use std::hint::black_box;

use bitcsp::Solver;
use criterion::{criterion_group, criterion_main, Criterion};

#[path = "../examples/jobshop.rs"]
#[allow(dead_code)]
mod jobshop;

#[path = "common/generators.rs"]
mod generators;

fn bench_logic(c: &mut Criterion) {
    let mut group = c.benchmark_group("logic");
    group.sample_size(10);
    let instance = jobshop::parse(include_str!("../examples/data/ft06.txt")).expect("ft06");
    let (model, _, _) = jobshop::model(&instance).expect("model");
    group.bench_function("jobshop_ft06", |b| {
        b.iter(|| Solver::new(black_box(&model)).optimize())
    });
    let formula = generators::three_sat(150, 639, 1);
    let (model, _) = generators::three_sat_model(150, &formula);
    group.bench_function("three_sat_150_639_seed1", |b| {
        b.iter(|| Solver::new(black_box(&model)).solve())
    });
    let csp = generators::table_csp(50, 10, 20, 1000, 5, 1);
    let (model, _) = generators::table_csp_model(&csp);
    group.bench_function("table_csp_50_20x1000_seed1", |b| {
        b.iter(|| Solver::new(black_box(&model)).solve())
    });
    let big = generators::table_csp(10, 10, 1, 100_000, 10, 1);
    let (model, _) = generators::table_csp_model(&big);
    group.bench_function("table_100000_tuples_10_vars", |b| {
        b.iter(|| Solver::new(black_box(&model)).solve())
    });
    group.finish();
}

criterion_group!(benches, bench_logic);
criterion_main!(benches);
