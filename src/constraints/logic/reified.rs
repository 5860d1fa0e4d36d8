//! Reified constraints: a 0/1 variable `b` that is 1 exactly when a constraint holds
//! (`b ⇔ c`), or only implies it (`b ⇒ c`, half reification). Each propagates both ways:
//! `b` fixed enforces `c` or its negation, and `c` entailed or disentailed by the domains
//! fixes `b` (for a half reification, only a disentailed `c` does: it forces `b = 0`).
//!
//! * `b ⇔ (x = v)` is compiled with the other indicators of `x`
//!   ([`Indicators`](super::Indicators)), domain consistent.
//! * [`ReifiedEqual`]: `b ⇔ (x = y + k)`, domain consistent while the domains have at most
//!   [`MAX_VALUES`] values, on bounds beyond.
//! * `b ⇔ (Σ a·x rel c)` for `=`, `≠`, `≤` is the engine's own
//!   [`ReifiedLinear`](super::ReifiedLinear), on bounds (as the linear constraint itself).

use crate::constraints::arithmetic::{equate, shifted};
use crate::propagator::{Conflict, Domains, Propagator, Strength};
use crate::var::VarId;

/// Domains up to this size are read value by value; larger ones by their bounds.
pub(crate) const MAX_VALUES: u32 = 4096;

pub(crate) use crate::posted::{LinearRelation, Reification};

/// Fixes `b` from what the domains say of the constraint: entailed (`Some(true)`) or
/// disentailed (`Some(false)`).
fn settle(
    d: &mut Domains<'_>,
    b: VarId,
    kind: Reification,
    truth: Option<bool>,
) -> Result<(), Conflict> {
    match (truth, kind) {
        (Some(false), _) => d.fix(b, 0),
        (Some(true), Reification::Full) => d.fix(b, 1),
        _ => Ok(()),
    }
}

/// `b ⇔ (x = y + k)` (or `b ⇒`).
#[derive(Debug)]
pub(crate) struct ReifiedEqual {
    vars: [VarId; 3],
    offset: i64,
    kind: Reification,
}

impl ReifiedEqual {
    pub(crate) fn new(b: VarId, x: VarId, y: VarId, offset: i64, kind: Reification) -> Self {
        ReifiedEqual {
            vars: [b, x, y],
            offset,
            kind,
        }
    }

    /// Whether `x = y + k` holds (`Some(true)`), cannot hold (`Some(false)`), or is open.
    fn truth(&self, d: &Domains<'_>) -> Option<bool> {
        let [_, x, y] = self.vars;
        let k = self.offset;
        if let (Some(a), Some(c)) = (d.value(x), d.value(y)) {
            return Some(i64::from(a) == i64::from(c) + k);
        }
        let (x_lo, x_hi) = (i64::from(d.min(x)), i64::from(d.max(x)));
        let (y_lo, y_hi) = (i64::from(d.min(y)) + k, i64::from(d.max(y)) + k);
        if x_hi < y_lo || y_hi < x_lo {
            return Some(false);
        }
        if d.size(x) <= MAX_VALUES {
            let meets = d
                .values(x)
                .any(|a| shifted(a, -k).is_some_and(|c| d.contains(y, c)));
            if !meets {
                return Some(false);
            }
        }
        None
    }
}

impl Propagator for ReifiedEqual {
    fn name(&self) -> &str {
        "reified equality"
    }

    fn vars(&self) -> &[VarId] {
        &self.vars
    }

    fn consistency(&self) -> Strength {
        Strength::Domain
    }

    fn propagate(&self, d: &mut Domains<'_>) -> Result<(), Conflict> {
        let [b, x, y] = self.vars;
        match d.value(b) {
            Some(1) => {
                let [_, x, y] = self.vars;
                equate(d, x, y, self.offset)
            }
            Some(_) if self.kind == Reification::Full => {
                // x ≠ y + k: only a fixed side removes a value from the other.
                if let Some(c) = d.value(y) {
                    if let Some(a) = shifted(c, self.offset) {
                        d.remove(x, a)?;
                    }
                }
                if let Some(a) = d.value(x) {
                    if let Some(c) = shifted(a, -self.offset) {
                        d.remove(y, c)?;
                    }
                }
                Ok(())
            }
            Some(_) => Ok(()),
            None => settle(d, b, self.kind, self.truth(d)),
        }
    }

    fn differences(&self, d: &Domains<'_>, out: &mut Vec<(VarId, VarId, i64)>) {
        // Once b holds, x = y + k is two differences, as for the plain equality.
        let [b, x, y] = self.vars;
        if d.value(b) == Some(1) {
            out.push((x, y, self.offset));
            out.push((y, x, -self.offset));
        }
    }
}
