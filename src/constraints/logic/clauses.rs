//! Every clause of a model (`l1 ∨ l2 ∨ …` over 0/1 variables) in one propagator, with two
//! watched literals per clause, as SAT solvers propagate them.
//!
//! A clause needs attention only when one of its two watched literals becomes false:
//! another literal that is not false takes its place, or, when none is left, the other
//! watch must be true (it is made so) or the clause fails. A variable becoming fixed
//! therefore visits only the clauses in which its now-false literal occurs, and of those
//! does work only for the ones that watch it: a run costs what changed, not the number
//! of clauses.
//!
//! The watches live in store words after the domains (one word per clause, both
//! positions), so the trail restores them with the domains; watches restored to an earlier
//! level were valid at that level, which is all the scheme needs. The engine's list of
//! changed variables tells a run which variables to visit.

use crate::bits::take_first;
use crate::constraints::NeighbourRows;
use crate::propagate::{Conflict, Engine};

/// A literal inside the propagator: a local variable index and its sign.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Lit {
    pub(crate) var: u32,
    pub(crate) positive: bool,
}

/// The compiled clauses of a model.
#[derive(Clone, Debug)]
pub(crate) struct Clauses {
    /// The variables, each once; literals refer to them by position.
    vars: Vec<usize>,
    /// The literals of all clauses, clause after clause (each clause at least two long).
    literals: Vec<Lit>,
    /// Where clause `c`'s literals start in `literals` (one more entry at the end).
    starts: Vec<u32>,
    /// For each local variable and sign, the clauses in which that literal occurs
    /// (compressed rows: row `2v + positive`).
    occurrences: Vec<u32>,
    occurrence_starts: Vec<u32>,
    /// The store index of clause 0's watch word.
    first_watch: u32,
}

impl Clauses {
    /// Clauses over `vars` (store indices, each once), each a list of literals over
    /// positions in `vars` with two or more literals on distinct variables.
    pub(crate) fn new(vars: Vec<usize>, clauses: &[Vec<Lit>], first_watch: u32) -> Self {
        let mut literals = Vec::new();
        let mut starts = vec![0u32];
        let mut rows: Vec<Vec<u32>> = vec![Vec::new(); 2 * vars.len()];
        for (c, clause) in clauses.iter().enumerate() {
            debug_assert!(clause.len() >= 2);
            for lit in clause {
                rows[2 * lit.var as usize + usize::from(lit.positive)].push(c as u32);
            }
            literals.extend_from_slice(clause);
            starts.push(literals.len() as u32);
        }
        let mut occurrence_starts = vec![0u32];
        let mut occurrences = Vec::new();
        for row in rows {
            occurrences.extend(row);
            occurrence_starts.push(occurrences.len() as u32);
        }
        Clauses {
            vars,
            literals,
            starts,
            occurrences,
            occurrence_starts,
            first_watch,
        }
    }

    pub(crate) fn vars(&self) -> &[usize] {
        &self.vars
    }

    /// One store word per clause: its two watched positions.
    pub(crate) fn aux_words(&self) -> usize {
        self.starts.len() - 1
    }

    /// One bit per variable (the variables still to visit in a run), then the failing
    /// clause of a failed run.
    pub(crate) fn scratch_words(&self) -> usize {
        self.pending_words() + 1
    }

    fn pending_words(&self) -> usize {
        self.vars.len().div_ceil(64)
    }

    /// Calls `blame` with the variables of the clause whose failure ended the last run
    /// (`scratch` as that run left it): conflict-driven heuristics then weigh the clause,
    /// not every variable of the model's clauses.
    pub(crate) fn for_each_blamed(&self, scratch: &[u64], mut blame: impl FnMut(usize)) {
        let c = scratch[self.pending_words()] as usize;
        let (from, to) = (self.starts[c] as usize, self.starts[c + 1] as usize);
        for lit in &self.literals[from..to] {
            blame(self.vars[lit.var as usize]);
        }
    }

    /// Adds to `rows[x]` the variables sharing a clause with `x`.
    pub(crate) fn add_neighbours<R: NeighbourRows + ?Sized>(&self, rows: &mut R) {
        for c in 0..self.starts.len() - 1 {
            let lits = &self.literals[self.starts[c] as usize..self.starts[c + 1] as usize];
            for a in lits {
                let x = self.vars[a.var as usize];
                rows.extend_row(
                    x,
                    lits.iter()
                        .filter(|b| b.var != a.var)
                        .map(|b| self.vars[b.var as usize] as u32),
                );
            }
        }
    }

    /// An upper bound on the entries [`Clauses::add_neighbours`] adds.
    pub(crate) fn neighbour_entries(&self) -> usize {
        (0..self.starts.len() - 1)
            .map(|c| {
                let k = (self.starts[c + 1] - self.starts[c]) as usize;
                k * (k - 1)
            })
            .sum()
    }

    /// Adds to each variable's degree the number of clauses it occurs in.
    pub(crate) fn add_degrees(&self, degree: &mut [u32]) {
        for lit in &self.literals {
            degree[self.vars[lit.var as usize]] += 1;
        }
    }

    pub(crate) fn propagate(&self, e: &mut Engine, scratch: &mut [u64]) -> Result<(), Conflict> {
        let (pending, failing) = scratch[..self.scratch_words()].split_at_mut(self.pending_words());
        e.take_changes(pending);
        while let Some(v) = take_first(pending) {
            let Some(value) = e.store.fixed_value(self.vars[v]) else {
                continue;
            };
            // The literal of `v` that is now false: positive when `v` is 0.
            let row = 2 * v + usize::from(value == 0);
            let (from, to) = (
                self.occurrence_starts[row] as usize,
                self.occurrence_starts[row + 1] as usize,
            );
            for &c in &self.occurrences[from..to] {
                if let Err(conflict) = self.falsified(e, c as usize, v as u32, pending) {
                    failing[0] = u64::from(c);
                    return Err(conflict);
                }
            }
        }
        Ok(())
    }

    /// Clause `c` lost its literal on local variable `v`: if that literal was watched, a
    /// replacement is found, or the other watch is made true, or the clause fails.
    fn falsified(
        &self,
        e: &mut Engine,
        c: usize,
        v: u32,
        pending: &mut [u64],
    ) -> Result<(), Conflict> {
        let start = self.starts[c] as usize;
        let lits = &self.literals[start..self.starts[c + 1] as usize];
        let at = self.first_watch as usize + c;
        let (a, b) = decode(e.store.word_at(at));
        let (gone, other) = if lits[a].var == v {
            (a, b)
        } else if lits[b].var == v {
            (b, a)
        } else {
            return Ok(());
        };
        if self.state(e, lits[other]) == Some(true) {
            return Ok(());
        }
        let replacement = (0..lits.len())
            .find(|&k| k != gone && k != other && self.state(e, lits[k]) != Some(false));
        if let Some(k) = replacement {
            e.store.write_at(at, encode(k, other));
            return Ok(());
        }
        match self.state(e, lits[other]) {
            Some(false) => Err(Conflict),
            _ => {
                let lit = lits[other];
                e.assign(self.vars[lit.var as usize], i64::from(lit.positive))?;
                // A change made here wakes every watcher but this propagator: it visits
                // the variable itself.
                let w = lit.var as usize;
                pending[w / 64] |= 1 << (w % 64);
                Ok(())
            }
        }
    }

    /// The truth of `lit` when its variable is fixed.
    #[inline]
    fn state(&self, e: &Engine, lit: Lit) -> Option<bool> {
        e.store
            .fixed_value(self.vars[lit.var as usize])
            .map(|value| (value == 1) == lit.positive)
    }
}

/// The watched positions `(a, b)` from a clause's word. A fresh word (0) watches the first
/// two literals: `b` is stored XOR 1 so that the zero every auxiliary word starts with
/// means `(0, 1)`.
fn decode(word: u64) -> (usize, usize) {
    ((word as u32) as usize, ((word >> 32) as u32 ^ 1) as usize)
}

fn encode(a: usize, b: usize) -> u64 {
    a as u64 | u64::from(b as u32 ^ 1) << 32
}
