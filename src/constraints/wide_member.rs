//! A wide variable's gaps: the values its [`Domain`](crate::Domain) leaves out between its
//! bounds, which the solver's interval cannot hold. Each bound moves past the values it
//! may not take (bounds consistency on the set), so a fixed variable always holds an
//! allowed value.

use crate::propagate::{Conflict, Engine};

/// `x` takes a value of `values` (`allowed`), or none of them (holes).
#[derive(Clone, Debug)]
pub(crate) struct WideMember {
    var: [usize; 1],
    /// Sorted, distinct.
    values: Vec<i32>,
    allowed: bool,
}

impl WideMember {
    pub(crate) fn new(var: usize, values: &[i32], allowed: bool) -> Self {
        let mut values = values.to_vec();
        values.sort_unstable();
        values.dedup();
        WideMember {
            var: [var],
            values,
            allowed,
        }
    }

    pub(crate) fn vars(&self) -> &[usize] {
        &self.var
    }

    pub(crate) fn propagate(&self, e: &mut Engine) -> Result<(), Conflict> {
        let x = self.var[0];
        let (Some(lo), Some(hi)) = (e.store.min(x), e.store.max(x)) else {
            return Err(Conflict);
        };
        let (lo, hi) = if self.allowed {
            self.allowed_bounds(lo, hi)?
        } else {
            self.bounds_past_holes(lo, hi)
        };
        e.restrict_range(x, Some(i128::from(lo)), Some(i128::from(hi)))?;
        Ok(())
    }

    /// The smallest and largest allowed values within `lo..=hi`.
    fn allowed_bounds(&self, lo: i32, hi: i32) -> Result<(i64, i64), Conflict> {
        let from = self.values.partition_point(|&v| v < lo);
        let to = self.values.partition_point(|&v| v <= hi);
        if from >= to {
            return Err(Conflict);
        }
        Ok((i64::from(self.values[from]), i64::from(self.values[to - 1])))
    }

    /// `lo` moved up past consecutive holes, `hi` down past them (the range may come out
    /// empty, which the narrowing reports).
    fn bounds_past_holes(&self, lo: i32, hi: i32) -> (i64, i64) {
        let (mut lo, mut hi) = (i64::from(lo), i64::from(hi));
        let mut at = self.values.partition_point(|&v| i64::from(v) < lo);
        while self.values.get(at).is_some_and(|&v| i64::from(v) == lo) {
            lo += 1;
            at += 1;
        }
        let mut at = self.values.partition_point(|&v| i64::from(v) <= hi);
        while at > 0 && i64::from(self.values[at - 1]) == hi {
            hi -= 1;
            at -= 1;
        }
        (lo, hi)
    }
}
