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
//! group squared.
//!
//! A group asked for more than the fast rules ([`Consistency::Bounds`], or
//! [`Consistency::Domain`], whose matching needs the group's values as bits) then gets
//! bounds consistency: the ranges' ends leave the Hall intervals
//! ([`hall_intervals`](super::hall_intervals)) until none moves.

use super::hall_intervals;
use crate::bits::take_first;
use crate::posted::Consistency;
use crate::propagate::{Conflict, Engine};

/// A compiled all-different group that reasons on values.
#[derive(Clone, Debug)]
pub(crate) struct WideAllDifferent {
    vars: Vec<usize>,
    offsets: Vec<i64>,
    /// Whether the Hall intervals run after the rules on values.
    bounds_consistent: bool,
}

impl WideAllDifferent {
    pub(crate) fn new(vars: &[usize], offsets: &[i32], consistency: Consistency) -> Self {
        WideAllDifferent {
            vars: vars.to_vec(),
            offsets: offsets.iter().map(|&c| i64::from(c)).collect(),
            bounds_consistent: consistency != Consistency::Fast,
        }
    }

    pub(crate) fn vars(&self) -> &[usize] {
        &self.vars
    }

    /// One bit per variable: the variables still to visit in a run; then, for bounds
    /// consistency, the ranges and the Hall intervals' memory.
    pub(crate) fn scratch_words(&self) -> usize {
        let n = self.vars.len();
        let hall = if self.bounds_consistent {
            2 * n + hall_intervals::scratch_words(n)
        } else {
            0
        };
        self.pending_words() + hall
    }

    fn pending_words(&self) -> usize {
        self.vars.len().div_ceil(64)
    }

    pub(crate) fn propagate(&self, e: &mut Engine, scratch: &mut [u64]) -> Result<(), Conflict> {
        let (pending, hall) = scratch.split_at_mut(self.pending_words());
        e.take_changes(pending);
        loop {
            self.remove_fixed_values(e, pending)?;
            self.check_pigeonhole(e)?;
            if !self.bounds_consistent || !self.narrow_to_hall_bounds(e, hall, pending)? {
                return Ok(());
            }
        }
    }

    /// Rule 1 from the variables marked in `pending` (cleared as they are visited).
    fn remove_fixed_values(&self, e: &mut Engine, pending: &mut [u64]) -> Result<(), Conflict> {
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
        Ok(())
    }

    /// One round of Hall intervals on the variables' ranges, each value `x + c` counted
    /// from the group's smallest; returns whether a bound moved, and marks in `pending`
    /// the variables it fixed, whose values rule 1 takes from the others.
    fn narrow_to_hall_bounds(
        &self,
        e: &mut Engine,
        hall: &mut [u64],
        pending: &mut [u64],
    ) -> Result<bool, Conflict> {
        let n = self.vars.len();
        let (lo, rest) = hall.split_at_mut(n);
        let (hi, work) = rest.split_at_mut(n);
        let mut base = i64::MAX;
        for (&x, &c) in self.vars.iter().zip(&self.offsets) {
            let (min, _) = e.store.bounds(x).ok_or(Conflict)?;
            base = base.min(i64::from(min) + c);
        }
        for (k, (&x, &c)) in self.vars.iter().zip(&self.offsets).enumerate() {
            let (min, max) = e.store.bounds(x).ok_or(Conflict)?;
            // Within 2^33 of `base`: the values are `i32`s moved by `i32` offsets.
            lo[k] = (i64::from(min) + c - base) as u64;
            hi[k] = (i64::from(max) + c - base) as u64;
        }
        // No `worth_running` here: rule 1 above takes a fixed value only from the
        // domains it bounds, so Hall intervals of fixed variables can still move bounds.
        if !hall_intervals::narrow(lo, hi, work)? {
            return Ok(false);
        }
        let mut moved = false;
        for (k, (&x, &c)) in self.vars.iter().zip(&self.offsets).enumerate() {
            let value = |p: u64| i128::from(p as i64 + base - c);
            if e.restrict_range(x, Some(value(lo[k])), Some(value(hi[k])))? {
                moved = true;
                if e.store.is_fixed(x) {
                    pending[k / 64] |= 1 << (k % 64);
                }
            }
        }
        Ok(moved)
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
