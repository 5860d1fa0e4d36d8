//! `x = y + k`, domain consistent: each side keeps the values the other can match (on
//! bounds alone where a domain has more than [`MAX_VALUES`] values). The same reasoning
//! serves the reified form once its literal holds.

use crate::constraints::logic::MAX_VALUES;
use crate::propagator::{Conflict, Domains, Propagator, Strength};
use crate::var::VarId;

/// `x = y + k`.
#[derive(Debug)]
pub(crate) struct EqualOffset {
    vars: [VarId; 2],
    offset: i64,
}

impl EqualOffset {
    pub(crate) fn new(x: VarId, y: VarId, offset: i64) -> Self {
        EqualOffset {
            vars: [x, y],
            offset,
        }
    }
}

impl Propagator for EqualOffset {
    fn name(&self) -> &str {
        "equality with an offset"
    }

    fn vars(&self) -> &[VarId] {
        &self.vars
    }

    fn consistency(&self) -> Strength {
        Strength::Domain
    }

    fn propagate(&self, d: &mut Domains<'_>) -> Result<(), Conflict> {
        let [x, y] = self.vars;
        equate(d, x, y, self.offset)
    }

    fn differences(&self, _: &Domains<'_>, out: &mut Vec<(VarId, VarId, i64)>) {
        let [x, y] = self.vars;
        out.push((x, y, self.offset));
        out.push((y, x, -self.offset));
    }
}

/// Enforces `x = y + k`: each side keeps the values the other can match.
pub(crate) fn equate(d: &mut Domains<'_>, x: VarId, y: VarId, k: i64) -> Result<(), Conflict> {
    narrow_to_bounds(d, x, i64::from(d.min(y)) + k, i64::from(d.max(y)) + k)?;
    narrow_to_bounds(d, y, i64::from(d.min(x)) - k, i64::from(d.max(x)) - k)?;
    keep_matched(d, x, y, -k)?;
    keep_matched(d, y, x, k)
}

/// `a + k` when it is an `i32`.
pub(crate) fn shifted(a: i32, k: i64) -> Option<i32> {
    i32::try_from(i64::from(a) + k).ok()
}

/// Narrows `x` to `lo..=hi` (clamped to `i32`).
fn narrow_to_bounds(d: &mut Domains<'_>, x: VarId, lo: i64, hi: i64) -> Result<(), Conflict> {
    let clamp = |v: i64| v.clamp(i64::from(i32::MIN), i64::from(i32::MAX)) as i32;
    if lo > i64::from(i32::MAX) || hi < i64::from(i32::MIN) {
        return Err(Conflict);
    }
    d.set_min(x, clamp(lo))?;
    d.set_max(x, clamp(hi))
}

/// Removes from `x` the values `a` for which `a + k` is not in `y` (when `x` is small
/// enough to visit).
fn keep_matched(d: &mut Domains<'_>, x: VarId, y: VarId, k: i64) -> Result<(), Conflict> {
    if d.size(x) > MAX_VALUES {
        return Ok(());
    }
    let unmatched: smallvec::SmallVec<[i32; 16]> = d
        .values(x)
        .filter(|&a| !shifted(a, k).is_some_and(|c| d.contains(y, c)))
        .collect();
    d.remove_values(x, &unmatched)
}
