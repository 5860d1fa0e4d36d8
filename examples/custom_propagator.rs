//! Constraints the engine does not have, written outside the crate through the public
//! `Propagator` trait: strict lexicographic order between two rows, and "at most k
//! distinct values". Then a model that uses both: rows of a 3×3 grid over 1..=3, each row
//! lexicographically smaller than the next (symmetry breaking), with at most two distinct
//! values per row.
//!
//! `cargo run --example custom_propagator`

use bitcsp::{Conflict, Domains, Model, ModelError, Propagator, Solver, VarId};

/// `xs <lex ys`: the rows differ, and at the first place they differ `xs` is smaller.
#[derive(Debug)]
pub struct LexLess {
    xs: Vec<VarId>,
    ys: Vec<VarId>,
    vars: Vec<VarId>,
}

impl LexLess {
    /// `xs <lex ys` over two rows of the same length.
    pub fn new(xs: &[VarId], ys: &[VarId]) -> Self {
        let vars = xs.iter().chain(ys).copied().collect();
        LexLess {
            xs: xs.to_vec(),
            ys: ys.to_vec(),
            vars,
        }
    }
}

impl Propagator for LexLess {
    fn name(&self) -> &str {
        "lex_less"
    }

    fn vars(&self) -> &[VarId] {
        &self.vars
    }

    fn propagate(&self, domains: &mut Domains<'_>) -> Result<(), Conflict> {
        // Skip the prefix fixed to equal values; at the first other place, x ≤ y.
        for (&x, &y) in self.xs.iter().zip(&self.ys) {
            match (domains.value(x), domains.value(y)) {
                (Some(a), Some(b)) if a == b => continue,
                _ => {
                    domains.set_max(x, domains.max(y))?;
                    return domains.set_min(y, domains.min(x));
                }
            }
        }
        Err(Conflict) // equal rows
    }
}

/// At most `k` distinct values among `vars`.
#[derive(Debug)]
pub struct AtMostDistinct {
    vars: Vec<VarId>,
    k: usize,
}

impl AtMostDistinct {
    /// At most `k` distinct values among `vars`.
    pub fn new(vars: &[VarId], k: usize) -> Self {
        AtMostDistinct {
            vars: vars.to_vec(),
            k,
        }
    }
}

impl Propagator for AtMostDistinct {
    fn name(&self) -> &str {
        "at_most_distinct"
    }

    fn vars(&self) -> &[VarId] {
        &self.vars
    }

    fn propagate(&self, domains: &mut Domains<'_>) -> Result<(), Conflict> {
        let mut used: Vec<i32> = self.vars.iter().filter_map(|&v| domains.value(v)).collect();
        used.sort_unstable();
        used.dedup();
        if used.len() > self.k {
            return Err(Conflict);
        }
        if used.len() == self.k {
            // Every value in use: the others may only repeat them.
            for &v in &self.vars {
                let unused: Vec<i32> = domains.values(v).filter(|x| !used.contains(x)).collect();
                for value in unused {
                    domains.remove(v, value)?;
                }
            }
        }
        Ok(())
    }
}

fn main() -> Result<(), ModelError> {
    let mut model = Model::new();
    let rows: Vec<Vec<VarId>> = (0..3)
        .map(|_| model.new_vars(3, 1..=3))
        .collect::<Result<_, _>>()?;
    for pair in rows.windows(2) {
        model.post(LexLess::new(&pair[0], &pair[1]))?;
    }
    for row in &rows {
        model.post(AtMostDistinct::new(row, 2))?;
    }
    let mut solver = Solver::new(&model);
    let count = solver.count(None);
    println!("{} grids", count.count);
    if let Some(first) = solver.solve().solution() {
        for row in &rows {
            let values: Vec<String> = row.iter().map(|&v| first.value(v).to_string()).collect();
            println!("{}", values.join(" "));
        }
    }
    Ok(())
}
