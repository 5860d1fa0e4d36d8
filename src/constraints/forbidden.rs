//! Forbidden tuples (a negative table): the variables take none of the listed tuples.
//! Woken when a variable is fixed; once all but one are fixed, the values that would
//! complete a forbidden tuple leave the last one, and a complete forbidden tuple fails.
//! Sound, and domain consistent only from that point on.

use crate::propagator::{Conflict, Domains, Propagator, Watch};
use crate::var::VarId;

/// The variables and the forbidden tuples, one row after the other.
#[derive(Debug)]
pub(crate) struct Forbidden {
    vars: Vec<VarId>,
    tuples: Vec<i32>,
}

impl Forbidden {
    pub(crate) fn new(vars: &[VarId], tuples: &[i32]) -> Self {
        Forbidden {
            vars: vars.to_vec(),
            tuples: tuples.to_vec(),
        }
    }
}

impl Propagator for Forbidden {
    fn name(&self) -> &str {
        "forbidden tuples"
    }

    fn vars(&self) -> &[VarId] {
        &self.vars
    }

    fn watch(&self) -> Watch {
        Watch::Fixed
    }

    fn propagate(&self, d: &mut Domains<'_>) -> Result<(), Conflict> {
        let mut open = None;
        for (p, &x) in self.vars.iter().enumerate() {
            if d.value(x).is_none() {
                if open.is_some() {
                    return Ok(());
                }
                open = Some(p);
            }
        }
        let arity = self.vars.len();
        for row in self.tuples.chunks_exact(arity) {
            let matches = row
                .iter()
                .zip(&self.vars)
                .enumerate()
                .all(|(p, (&v, &x))| Some(p) == open || d.value(x) == Some(v));
            if matches {
                match open {
                    Some(p) => d.remove(self.vars[p], row[p])?,
                    None => return Err(Conflict),
                }
            }
        }
        Ok(())
    }
}
