//! `table`: the variables take one of the allowed tuples. Domain consistent, by bitwise
//! operations over the tuples in the manner of Compact-Table (Demeulenaere et al., CP 2016):
//! for each variable and value, the set of tuples that give the variable that value is a
//! bitset (its *supports*). A run intersects, over the variables, the union of the
//! supports of the values each still has: what is left are the tuples still valid. A
//! value whose supports miss every valid tuple has no support and leaves its variable.
//!
//! The valid tuples are recomputed at each run rather than kept in the store, which costs
//! the sum of the domain sizes times the tuple words per run and keeps no state to undo.
//! A value outside a variable's column is removed at the first run (from a wide domain:
//! its bounds move to the column's extremes; an inner value is refused once fixed, since
//! its supports are then empty).

use std::sync::Arc;

use crate::posted::TableData;
use crate::propagate::{Conflict, Engine};

/// A compiled table.
#[derive(Clone, Debug)]
pub(crate) struct Table {
    vars: Vec<usize>,
    /// What the tuples compile to, shared by every table over the same
    /// [`TupleSet`](crate::TupleSet).
    data: Arc<TableData>,
}

impl Table {
    /// The table over `vars` of the compiled tuples `data` (as many columns as `vars`).
    pub(crate) fn new(vars: &[usize], data: Arc<TableData>) -> Self {
        Table {
            vars: vars.to_vec(),
            data,
        }
    }

    pub(crate) fn vars(&self) -> &[usize] {
        &self.vars
    }

    /// The valid tuples, and a union being built.
    pub(crate) fn scratch_words(&self) -> usize {
        2 * self.data.words
    }

    fn support(&self, p: usize, j: usize) -> &[u64] {
        let at = self.data.support_starts[p] + j * self.data.words;
        &self.data.supports[at..at + self.data.words]
    }

    pub(crate) fn propagate(&self, e: &mut Engine, scratch: &mut [u64]) -> Result<(), Conflict> {
        let (valid, union) = scratch[..2 * self.data.words].split_at_mut(self.data.words);
        valid.iter_mut().for_each(|w| *w = u64::MAX);
        valid[self.data.words - 1] = self.data.last_mask;
        for (p, &x) in self.vars.iter().enumerate() {
            union.iter_mut().for_each(|w| *w = 0);
            for (j, &v) in self.data.values[p].iter().enumerate() {
                if e.store.contains(x, i64::from(v)) {
                    for (u, s) in union.iter_mut().zip(self.support(p, j)) {
                        *u |= s;
                    }
                }
            }
            let mut any = 0;
            for (t, u) in valid.iter_mut().zip(union.iter()) {
                *t &= u;
                any |= *t;
            }
            if any == 0 {
                return Err(Conflict);
            }
        }
        for (p, &x) in self.vars.iter().enumerate() {
            self.keep_supported(e, p, x, valid)?;
        }
        Ok(())
    }

    /// Removes from variable `p` (`x`) its values without a valid tuple.
    fn keep_supported(
        &self,
        e: &mut Engine,
        p: usize,
        x: usize,
        valid: &[u64],
    ) -> Result<(), Conflict> {
        let column = &self.data.values[p];
        let supported = |j: usize| {
            self.support(p, j)
                .iter()
                .zip(valid)
                .any(|(s, t)| s & t != 0)
        };
        let (mut lo, mut hi) = (None, None);
        let mut kept = 0u32;
        for (j, &v) in column.iter().enumerate() {
            if !e.store.contains(x, i64::from(v)) {
                continue;
            }
            if supported(j) {
                lo = lo.or(Some(v));
                hi = Some(v);
                kept += 1;
            } else {
                e.remove(x, i64::from(v))?;
            }
        }
        let (Some(lo), Some(hi)) = (lo, hi) else {
            return Err(Conflict);
        };
        e.restrict_range(x, Some(i128::from(lo)), Some(i128::from(hi)))?;
        // More values than supported column values: some lie outside the column.
        if !e.store.is_wide(x) && e.store.size(x) > kept {
            self.remove_outside_column(e, p, x)?;
        }
        Ok(())
    }

    /// Removes from a bitset domain the values its column does not hold.
    fn remove_outside_column(&self, e: &mut Engine, p: usize, x: usize) -> Result<(), Conflict> {
        let column = &self.data.values[p];
        let (Some(lo), Some(hi)) = (e.store.min(x), e.store.max(x)) else {
            return Err(Conflict);
        };
        for v in lo..=hi {
            if column.binary_search(&v).is_err() {
                e.remove(x, i64::from(v))?;
            }
        }
        Ok(())
    }
}
