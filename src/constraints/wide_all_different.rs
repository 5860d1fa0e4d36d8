//! All-different with offsets over wide domains, or over value spaces too wide for the
//! bitset rules of [`AllDifferent`](super::AllDifferent): `x[i] + c[i]` pairwise different.
//!
//! It reasons on values, never on a bitset of the group's value space, so its cost does not
//! grow with the span of the domains:
//! 1. *Fixed values*: the value of a fixed variable leaves every other variable (from a wide
//!    domain only when it is a bound: a wide domain keeps no holes, and the variable is
//!    checked again once it is fixed); two fixed variables on one value fail.
//! 2. *Pigeonhole on the bounds*: more variables than values between the smallest lower
//!    bound and the largest upper bound fail.
//!
//! It keeps the list of its variables that changed since it last ran (the engine's change
//! tracking), so that a run costs the newly fixed variables times the group, not the whole
//! group squared. Bounds consistency (Hall intervals, López-Ortiz et al. 2003) is not done.

use crate::bits::take_first;
use crate::propagate::{Conflict, Engine};

/// A compiled all-different group that reasons on values.
#[derive(Clone, Debug)]
pub(crate) struct WideAllDifferent {
    vars: Vec<usize>,
    offsets: Vec<i64>,
}

impl WideAllDifferent {
    pub(crate) fn new(vars: &[usize], offsets: &[i32]) -> Self {
        WideAllDifferent {
            vars: vars.to_vec(),
            offsets: offsets.iter().map(|&c| i64::from(c)).collect(),
        }
    }

    pub(crate) fn vars(&self) -> &[usize] {
        &self.vars
    }

    /// One bit per variable: the variables still to visit in a run.
    pub(crate) fn scratch_words(&self) -> usize {
        self.vars.len().div_ceil(64)
    }

    pub(crate) fn propagate(&self, e: &mut Engine, scratch: &mut [u64]) -> Result<(), Conflict> {
        let pending = &mut scratch[..self.scratch_words()];
        e.take_changes(pending);
        while let Some(i) = take_first(pending) {
            let x = self.vars[i];
            if !e.store.is_fixed(x) {
                continue;
            }
            let value = i64::from(e.store.min(x).ok_or(Conflict)?) + self.offsets[i];
            for (j, (&y, &c)) in self.vars.iter().zip(&self.offsets).enumerate() {
                if j == i || e.store.is_fixed(y) && i64::from(e.store.single_value(y)) + c != value
                {
                    continue;
                }
                e.remove(y, value - c)?;
                // Changes made here wake every watcher but this group: it visits them itself.
                if e.store.is_fixed(y) {
                    pending[j / 64] |= 1 << (j % 64);
                }
            }
        }
        self.check_pigeonhole(e)
    }

    /// Fails when the variables outnumber the values between the group's outer bounds.
    fn check_pigeonhole(&self, e: &Engine) -> Result<(), Conflict> {
        let (mut lo, mut hi) = (i64::MAX, i64::MIN);
        for (&x, &c) in self.vars.iter().zip(&self.offsets) {
            let (min, max) = e.store.bounds(x).ok_or(Conflict)?;
            lo = lo.min(i64::from(min) + c);
            hi = hi.max(i64::from(max) + c);
        }
        if hi - lo + 1 < self.vars.len() as i64 {
            return Err(Conflict);
        }
        Ok(())
    }
}
