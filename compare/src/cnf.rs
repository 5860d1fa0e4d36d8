//! DIMACS CNF for a SAT solver taken as a peer: the harnesses write their instances with
//! it (`large --cnf`, `hard_coloring --cnf`).

use std::fmt::Write as _;

/// A formula over variables `1..=vars`, clauses of nonzero literals (negative: negated).
#[derive(Default)]
pub struct Cnf {
    pub vars: usize,
    pub clauses: Vec<Vec<i64>>,
}

impl Cnf {
    /// Exactly one of the variables `vars` holds: one clause that some does, one per two
    /// that not both do (the pairwise encoding of SAT studies of Sudoku and colouring).
    pub fn exactly_one(&mut self, vars: &[i64]) {
        self.clauses.push(vars.to_vec());
        for (k, &a) in vars.iter().enumerate() {
            for &b in &vars[k + 1..] {
                self.clauses.push(vec![-a, -b]);
            }
        }
    }

    /// The formula as DIMACS text.
    pub fn to_dimacs(&self) -> String {
        let mut out = format!("p cnf {} {}\n", self.vars, self.clauses.len());
        for clause in &self.clauses {
            for lit in clause {
                let _ = write!(out, "{lit} ");
            }
            out.push_str("0\n");
        }
        out
    }
}
