//! `z = xs[i]` over variables, 0-based: an index outside the array, or whose variable
//! shares no value with `z`, leaves `i`; `z` keeps the values some remaining index's
//! variable can take; once `i` is fixed, `z` and `xs[i]` keep their common values. With
//! distinct variables that is domain consistent on `i` and `z` and, since an unfixed
//! index leaves every `xs[k]` free, on the `xs` too (for domains of at most
//! [`MAX_VALUES`] values; larger ones are compared by their bounds).

use smallvec::SmallVec;

use crate::constraints::logic::MAX_VALUES;
use crate::propagator::{Conflict, Domains, Propagator, Strength};
use crate::var::VarId;

/// `xs`, then `i`, then `z`.
#[derive(Debug)]
pub(crate) struct ElementVar {
    vars: Vec<VarId>,
}

impl ElementVar {
    pub(crate) fn new(xs: &[VarId], index: VarId, z: VarId) -> Self {
        ElementVar {
            vars: xs.iter().copied().chain([index, z]).collect(),
        }
    }

    fn parts(&self) -> (&[VarId], VarId, VarId) {
        let n = self.vars.len() - 2;
        (&self.vars[..n], self.vars[n], self.vars[n + 1])
    }
}

/// Whether `x` and `y` share a value.
fn meet(d: &Domains<'_>, x: VarId, y: VarId) -> bool {
    if d.max(x) < d.min(y) || d.max(y) < d.min(x) {
        return false;
    }
    let (small, other) = if d.size(x) <= d.size(y) {
        (x, y)
    } else {
        (y, x)
    };
    d.size(small) > MAX_VALUES || d.values(small).any(|v| d.contains(other, v))
}

/// Removes from `x` the values `y` cannot take (its bounds only, when either is large).
fn keep_common(d: &mut Domains<'_>, x: VarId, y: VarId) -> Result<(), Conflict> {
    d.set_min(x, d.min(y))?;
    d.set_max(x, d.max(y))?;
    if d.size(x) > MAX_VALUES {
        return Ok(());
    }
    let gone: SmallVec<[i32; 16]> = d.values(x).filter(|&v| !d.contains(y, v)).collect();
    d.remove_values(x, &gone)
}

impl Propagator for ElementVar {
    fn name(&self) -> &str {
        "element (variables)"
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
        let (xs, i, z) = self.parts();
        let n = xs.len();
        if let Some(mut changed) = d.changed_positions() {
            // The index or `z` (positions n and n + 1), or an entry the index still
            // points at: entries it no longer points at change nothing.
            let matters =
                changed.any(|k| k >= n || i32::try_from(k).is_ok_and(|k| d.contains(i, k)));
            if !matters {
                return Ok(());
            }
        }
        let last = i32::try_from(xs.len()).unwrap_or(i32::MAX) - 1;
        d.set_min(i, 0)?;
        d.set_max(i, last)?;
        if d.size(i) <= MAX_VALUES {
            let dead: SmallVec<[i32; 16]> = d
                .values(i)
                .filter(|&k| !meet(d, xs[k as usize], z))
                .collect();
            d.remove_values(i, &dead)?;
        }
        if let Some(k) = d.value(i) {
            let x = xs[k as usize];
            keep_common(d, z, x)?;
            return keep_common(d, x, z);
        }
        self.keep_supported_z(d, xs, i, z)
    }
}

impl ElementVar {
    /// Narrows `z` to the values of the variables `i` can still point at.
    fn keep_supported_z(
        &self,
        d: &mut Domains<'_>,
        xs: &[VarId],
        i: VarId,
        z: VarId,
    ) -> Result<(), Conflict> {
        if d.size(i) > MAX_VALUES {
            return Ok(());
        }
        let indices: SmallVec<[usize; 16]> = d.values(i).map(|k| k as usize).collect();
        let lo = indices
            .iter()
            .map(|&k| d.min(xs[k]))
            .min()
            .ok_or(Conflict)?;
        let hi = indices
            .iter()
            .map(|&k| d.max(xs[k]))
            .max()
            .ok_or(Conflict)?;
        d.set_min(z, lo)?;
        d.set_max(z, hi)?;
        if d.size(z) > MAX_VALUES {
            return Ok(());
        }
        let unsupported: SmallVec<[i32; 16]> = d
            .values(z)
            .filter(|&v| !indices.iter().any(|&k| d.contains(xs[k], v)))
            .collect();
        d.remove_values(z, &unsupported)
    }
}
