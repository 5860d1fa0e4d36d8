//! Seeded random instances shared by the benchmarks and by the comparison with Gecode in
//! `compare/` (which includes this file by path), so that an instance named by its seed is
//! the same instance on both sides: random 3-SAT and random table CSPs, each as data and
//! as a bitcsp model.
#![allow(dead_code)]

use bitcsp::{Literal, Model, VarId};

/// A xorshift generator: repeatable, no dependency.
pub struct Random(u64);

impl Random {
    /// The sequence of `seed`.
    pub fn seeded(seed: u64) -> Self {
        Random(0x9E37_79B9_7F4A_7C15 ^ seed.wrapping_mul(0x2545_F491_4F6C_DD1D))
    }

    /// A number below `n` (`n > 0`).
    pub fn below(&mut self, n: u64) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0 % n
    }
}

/// A 3-SAT formula: clauses of three literals on distinct variables, a literal being
/// `v + 1` or `-(v + 1)` as in DIMACS.
pub fn three_sat(vars: usize, clauses: usize, seed: u64) -> Vec<[i32; 3]> {
    let mut random = Random::seeded(seed);
    (0..clauses)
        .map(|_| {
            let mut c = [0i32; 3];
            let mut k = 0;
            while k < 3 {
                let v = random.below(vars as u64) as i32 + 1;
                if !c[..k].iter().any(|l| l.abs() == v) {
                    c[k] = if random.below(2) == 0 { v } else { -v };
                    k += 1;
                }
            }
            c
        })
        .collect()
}

/// The formula as a model: one Boolean per variable, one clause per clause.
pub fn three_sat_model(vars: usize, clauses: &[[i32; 3]]) -> (Model, Vec<VarId>) {
    let mut model = Model::new();
    let x = model.new_bools(vars).expect("variables");
    for c in clauses {
        let lits: Vec<Literal> = c
            .iter()
            .map(|&l| {
                let v = x[l.unsigned_abs() as usize - 1];
                if l > 0 {
                    Literal::yes(v)
                } else {
                    Literal::not(v)
                }
            })
            .collect();
        model.clause(&lits).expect("clause");
    }
    (model, x)
}

/// A random table CSP: `vars` variables over `0..values`, `tables` tables of `tuples`
/// random tuples each (with repeats) over `arity` distinct random variables.
pub struct TableCsp {
    /// The number of variables.
    pub vars: usize,
    /// The number of values of each.
    pub values: i32,
    /// Per table, its variables.
    pub scopes: Vec<Vec<usize>>,
    /// Per table, its tuples.
    pub tuples: Vec<Vec<Vec<i32>>>,
}

/// The instance of `seed`.
pub fn table_csp(
    vars: usize,
    values: i32,
    tables: usize,
    tuples: usize,
    arity: usize,
    seed: u64,
) -> TableCsp {
    let mut random = Random::seeded(seed);
    let mut scopes = Vec::new();
    let mut all = Vec::new();
    for _ in 0..tables {
        let mut scope: Vec<usize> = Vec::new();
        while scope.len() < arity {
            let v = random.below(vars as u64) as usize;
            if !scope.contains(&v) {
                scope.push(v);
            }
        }
        let rows: Vec<Vec<i32>> = (0..tuples)
            .map(|_| {
                (0..arity)
                    .map(|_| random.below(values as u64) as i32)
                    .collect()
            })
            .collect();
        scopes.push(scope);
        all.push(rows);
    }
    TableCsp {
        vars,
        values,
        scopes,
        tuples: all,
    }
}

/// The table CSP as a model.
pub fn table_csp_model(csp: &TableCsp) -> (Model, Vec<VarId>) {
    let mut model = Model::new();
    let x = model
        .new_vars(csp.vars, 0..=csp.values - 1)
        .expect("variables");
    for (scope, rows) in csp.scopes.iter().zip(&csp.tuples) {
        let vars: Vec<VarId> = scope.iter().map(|&i| x[i]).collect();
        model.table(&vars, rows).expect("table");
    }
    (model, x)
}
