//! The reified values of one variable together: `b[k] ⇔ (x = v[k])` (or `⇒`) for every
//! `k`, as MiniZinc's decompositions write them by the dozen (a channel between a
//! position and its number, a count over a sequence). One propagator per `x`: a change
//! of `x` is one pass over its indicators rather than one wake-up of a propagator each,
//! and a change of an indicator touches `x` alone.

use crate::propagator::{Conflict, Domains, Propagator, Strength};
use crate::var::VarId;

use super::Reification;

/// `x`, then the indicators `b[k]`, each with its value and its kind.
#[derive(Debug)]
pub(crate) struct Indicators {
    vars: Vec<VarId>,
    links: Vec<(i32, Reification)>,
}

impl Indicators {
    /// `b ⇔ x = value` (or `⇒`) for each `(b, value, kind)` of `links`; the `b` are
    /// distinct 0/1 variables, none of them `x`.
    pub(crate) fn new(x: VarId, links: &[(VarId, i32, Reification)]) -> Self {
        Indicators {
            vars: std::iter::once(x)
                .chain(links.iter().map(|l| l.0))
                .collect(),
            links: links.iter().map(|&(_, v, kind)| (v, kind)).collect(),
        }
    }

    /// The indicators whose truth the domain of `x` now settles.
    fn settle_indicators(&self, d: &mut Domains<'_>) -> Result<(), Conflict> {
        let x = self.vars[0];
        let fixed = d.value(x);
        for (&b, &(value, kind)) in self.vars[1..].iter().zip(&self.links) {
            match d.value(b) {
                // A wide `x` keeps no holes, so a removal may not have taken: checked
                // again once `x` is fixed.
                Some(0) if kind == Reification::Full && fixed == Some(value) => {
                    return Err(Conflict)
                }
                Some(1) if fixed.is_some_and(|v| v != value) => return Err(Conflict),
                Some(_) => {}
                None if !d.contains(x, value) => d.fix(b, 0)?,
                None if fixed.is_some() && kind == Reification::Full => d.fix(b, 1)?,
                None => {}
            }
        }
        Ok(())
    }
}

impl Propagator for Indicators {
    fn name(&self) -> &str {
        "reified values"
    }

    fn vars(&self) -> &[VarId] {
        &self.vars
    }

    fn consistency(&self) -> Strength {
        Strength::Domain
    }

    fn reads_changes(&self) -> bool {
        true
    }

    fn propagate(&self, d: &mut Domains<'_>) -> Result<(), Conflict> {
        let x = self.vars[0];
        // Indicators fixed since the last run act on `x`.
        for (k, (&b, &(value, kind))) in self.vars[1..].iter().zip(&self.links).enumerate() {
            if !d.changed(k + 1) {
                continue;
            }
            match d.value(b) {
                Some(1) => d.fix(x, value)?,
                Some(_) if kind == Reification::Full => d.remove(x, value)?,
                _ => {}
            }
        }
        if d.changed(0) || d.value(x).is_some() {
            self.settle_indicators(d)?;
        }
        Ok(())
    }
}
