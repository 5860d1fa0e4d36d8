//! `y = min(xs)` or `y = max(xs)`, on bounds: `y` within the bounds the list can reach,
//! every `x` on the right side of `y`, and when only one `x` can reach `y`'s bound, that
//! `x` there. Bounds consistent.

use crate::propagator::{Conflict, Domains, Propagator, Strength, Watch};
use crate::var::VarId;

/// `y = max(xs)` (or, with `is_min`, `y = min(xs)`): the list, then `y`.
#[derive(Debug)]
pub(crate) struct Extremum {
    vars: Vec<VarId>,
    is_min: bool,
}

impl Extremum {
    pub(crate) fn new(xs: &[VarId], y: VarId, is_min: bool) -> Self {
        let mut vars = xs.to_vec();
        vars.push(y);
        Extremum { vars, is_min }
    }
}

impl Propagator for Extremum {
    fn name(&self) -> &str {
        if self.is_min {
            "min"
        } else {
            "max"
        }
    }

    fn vars(&self) -> &[VarId] {
        &self.vars
    }

    /// It reads bounds only.
    fn watch(&self) -> Watch {
        Watch::Bounds
    }

    fn consistency(&self) -> Strength {
        Strength::Bounds
    }

    fn propagate(&self, d: &mut Domains<'_>) -> Result<(), Conflict> {
        let (xs, y) = self.vars.split_at(self.vars.len() - 1);
        let y = y[0];
        // Work in "max" terms: min(xs) = -max(-xs).
        let sign = if self.is_min { -1i64 } else { 1 };
        let lo = |d: &Domains<'_>, v: VarId| {
            if sign > 0 {
                i64::from(d.min(v))
            } else {
                -i64::from(d.max(v))
            }
        };
        let hi = |d: &Domains<'_>, v: VarId| {
            if sign > 0 {
                i64::from(d.max(v))
            } else {
                -i64::from(d.min(v))
            }
        };
        let set_lo = |d: &mut Domains<'_>, v: VarId, b: i64| -> Result<(), Conflict> {
            let b = i32::try_from(b * sign).map_err(|_| Conflict)?;
            if sign > 0 {
                d.set_min(v, b)
            } else {
                d.set_max(v, b)
            }
        };
        let set_hi = |d: &mut Domains<'_>, v: VarId, b: i64| -> Result<(), Conflict> {
            let b = i32::try_from(b * sign).map_err(|_| Conflict)?;
            if sign > 0 {
                d.set_max(v, b)
            } else {
                d.set_min(v, b)
            }
        };
        let reach_lo = xs.iter().map(|&x| lo(d, x)).max().ok_or(Conflict)?;
        let reach_hi = xs.iter().map(|&x| hi(d, x)).max().ok_or(Conflict)?;
        set_lo(d, y, reach_lo)?;
        set_hi(d, y, reach_hi)?;
        let y_hi = hi(d, y);
        for &x in xs {
            set_hi(d, x, y_hi)?;
        }
        let y_lo = lo(d, y);
        let mut can = xs.iter().copied().filter(|&x| hi(d, x) >= y_lo);
        match (can.next(), can.next()) {
            (None, _) => Err(Conflict),
            (Some(only), None) => set_lo(d, only, y_lo),
            _ => Ok(()),
        }
    }
}
