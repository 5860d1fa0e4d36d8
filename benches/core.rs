//! The core alone: N-Queens counting built directly on `Model`, and Latin squares, where
//! every node wakes several overlapping all-different groups.

use std::hint::black_box;

use bitcsp::{Model, Solver, VarId};
use criterion::{criterion_group, criterion_main, Criterion};

fn queens(n: usize) -> Model {
    let mut m = Model::new();
    let rows = m.new_vars(n, 0..=(n as i32 - 1)).expect("range");
    let up: Vec<i32> = (0..n as i32).collect();
    let down: Vec<i32> = (0..n as i32).map(|i| -i).collect();
    m.all_different(&rows).expect("rows");
    m.all_different_offset(&rows, &up).expect("diagonal");
    m.all_different_offset(&rows, &down).expect("anti-diagonal");
    m
}

fn latin_square(n: usize) -> Model {
    let mut m = Model::new();
    let cells: Vec<VarId> = m.new_vars(n * n, 1..=n as i32).expect("range");
    for i in 0..n {
        let row: Vec<VarId> = (0..n).map(|j| cells[i * n + j]).collect();
        let col: Vec<VarId> = (0..n).map(|j| cells[j * n + i]).collect();
        m.all_different(&row).expect("row");
        m.all_different(&col).expect("column");
    }
    // Fix the first row and column to count reduced squares.
    for i in 0..n {
        m.fix(cells[i], i as i32 + 1).expect("first row");
        m.fix(cells[i * n], i as i32 + 1).expect("first column");
    }
    m
}

fn bench_core(c: &mut Criterion) {
    for n in [8, 10] {
        let model = queens(n);
        c.bench_function(&format!("core/queens_count_{n}"), |b| {
            b.iter(|| Solver::new(black_box(&model)).count(None))
        });
    }
    let model = latin_square(6);
    c.bench_function("core/latin6_reduced_count", |b| {
        b.iter(|| Solver::new(black_box(&model)).count(None))
    });
}

criterion_group!(benches, bench_core);
criterion_main!(benches);
