//! Reified constraints: a 0/1 variable `b` that is 1 exactly when a constraint holds
//! (`b ⇔ c`), or only implies it (`b ⇒ c`, half reification). Each propagates both ways:
//! `b` fixed enforces `c` or its negation, and `c` entailed or disentailed by the domains
//! fixes `b` (for a half reification, only a disentailed `c` does: it forces `b = 0`).
//!
//! * `b ⇔ (x = v)` is compiled with the other indicators of `x`
//!   ([`Indicators`](super::Indicators)), domain consistent.
//! * [`ReifiedEqual`]: `b ⇔ (x = y + k)`, domain consistent while the domains have at most
//!   [`MAX_VALUES`] values, on bounds beyond.
//! * [`ReifiedLinear`]: `b ⇔ (Σ a·x rel c)` for `=`, `≠`, `≤`, on bounds (as the linear
//!   constraint itself).

use crate::constraints::arithmetic::{equate, shifted};
use crate::propagator::{Conflict, Domains, Propagator, Strength};
use crate::var::VarId;

/// Domains up to this size are read value by value; larger ones by their bounds.
pub(crate) const MAX_VALUES: u32 = 4096;

pub(crate) use crate::posted::Reification;

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
}

/// The relation of a reified linear constraint.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum LinearRelation {
    /// `Σ = c`
    Equal,
    /// `Σ ≠ c`
    NotEqual,
    /// `Σ ≤ c`
    AtMost,
}

/// `b ⇔ (Σ a·x rel c)` (or `b ⇒`), on bounds.
#[derive(Debug)]
pub(crate) struct ReifiedLinear {
    /// `b`, then the terms' variables.
    vars: Vec<VarId>,
    coeffs: Vec<i64>,
    relation: LinearRelation,
    rhs: i64,
    kind: Reification,
}

impl ReifiedLinear {
    pub(crate) fn new(
        b: VarId,
        vars: &[VarId],
        coeffs: &[i32],
        relation: LinearRelation,
        rhs: i64,
        kind: Reification,
    ) -> Self {
        ReifiedLinear {
            vars: std::iter::once(b).chain(vars.iter().copied()).collect(),
            coeffs: coeffs.iter().map(|&a| i64::from(a)).collect(),
            relation,
            rhs,
            kind,
        }
    }

    fn terms(&self) -> impl Iterator<Item = (VarId, i128)> + '_ {
        self.vars[1..]
            .iter()
            .copied()
            .zip(self.coeffs.iter().map(|&a| i128::from(a)))
    }

    /// The smallest and largest values of the sum.
    fn sum_bounds(&self, d: &Domains<'_>) -> (i128, i128) {
        self.terms().fold((0, 0), |(lo, hi), (x, a)| {
            let (p, q) = (a * i128::from(d.min(x)), a * i128::from(d.max(x)));
            (lo + p.min(q), hi + p.max(q))
        })
    }

    fn truth(&self, d: &Domains<'_>) -> Option<bool> {
        let (lo, hi) = self.sum_bounds(d);
        let c = i128::from(self.rhs);
        let equal = match (lo == hi && lo == c, c < lo || c > hi) {
            (true, _) => Some(true),
            (_, true) => Some(false),
            _ => None,
        };
        match self.relation {
            LinearRelation::Equal => equal,
            LinearRelation::NotEqual => equal.map(|e| !e),
            LinearRelation::AtMost if hi <= c => Some(true),
            LinearRelation::AtMost if lo > c => Some(false),
            LinearRelation::AtMost => None,
        }
    }

    /// Narrows the bounds so that the sum can lie in `lo..=hi`.
    fn enforce_range(
        &self,
        d: &mut Domains<'_>,
        lo: Option<i128>,
        hi: Option<i128>,
    ) -> Result<(), Conflict> {
        let (sum_lo, sum_hi) = self.sum_bounds(d);
        if hi.is_some_and(|h| sum_lo > h) || lo.is_some_and(|l| sum_hi < l) {
            return Err(Conflict);
        }
        let terms: Vec<(VarId, i128)> = self.terms().collect();
        for (x, a) in terms {
            let (p, q) = (a * i128::from(d.min(x)), a * i128::from(d.max(x)));
            let (own_lo, own_hi) = (p.min(q), p.max(q));
            // The term a·x must lie in [lo - (sum_hi - own_hi), hi - (sum_lo - own_lo)].
            let term_lo = lo.map(|l| l - (sum_hi - own_hi));
            let term_hi = hi.map(|h| h - (sum_lo - own_lo));
            let (x_lo, x_hi) = if a > 0 {
                (
                    term_lo.map(|t| ceil_div(t, a)),
                    term_hi.map(|t| floor_div(t, a)),
                )
            } else {
                (
                    term_hi.map(|t| ceil_div(t, a)),
                    term_lo.map(|t| floor_div(t, a)),
                )
            };
            if let Some(v) = x_lo {
                if v > i128::from(d.max(x)) {
                    return Err(Conflict);
                }
                if v > i128::from(d.min(x)) {
                    d.set_min(x, v as i32)?;
                }
            }
            if let Some(v) = x_hi {
                if v < i128::from(d.min(x)) {
                    return Err(Conflict);
                }
                if v < i128::from(d.max(x)) {
                    d.set_max(x, v as i32)?;
                }
            }
        }
        Ok(())
    }

    /// `Σ ≠ c`: once every term but one is fixed, the value that would make the sum `c`
    /// leaves the last one; all fixed and equal to `c` fails.
    fn enforce_not_equal(&self, d: &mut Domains<'_>) -> Result<(), Conflict> {
        let mut open = None;
        let mut fixed_sum = 0i128;
        for (x, a) in self.terms() {
            match d.value(x) {
                Some(v) => fixed_sum += a * i128::from(v),
                None if open.is_none() => open = Some((x, a)),
                None => return Ok(()),
            }
        }
        let rest = i128::from(self.rhs) - fixed_sum;
        match open {
            None if rest == 0 => Err(Conflict),
            None => Ok(()),
            Some((x, a)) => {
                if rest % a == 0 {
                    if let Ok(v) = i32::try_from(rest / a) {
                        d.remove(x, v)?;
                    }
                }
                Ok(())
            }
        }
    }

    /// Enforces the relation (`holds`) or its negation.
    fn enforce(&self, d: &mut Domains<'_>, holds: bool) -> Result<(), Conflict> {
        let c = i128::from(self.rhs);
        match (self.relation, holds) {
            (LinearRelation::Equal, true) | (LinearRelation::NotEqual, false) => {
                self.enforce_range(d, Some(c), Some(c))
            }
            (LinearRelation::Equal, false) | (LinearRelation::NotEqual, true) => {
                self.enforce_not_equal(d)
            }
            (LinearRelation::AtMost, true) => self.enforce_range(d, None, Some(c)),
            (LinearRelation::AtMost, false) => self.enforce_range(d, Some(c + 1), None),
        }
    }
}

fn floor_div(a: i128, b: i128) -> i128 {
    let q = a / b;
    if (a % b != 0) && ((a < 0) != (b < 0)) {
        q - 1
    } else {
        q
    }
}

fn ceil_div(a: i128, b: i128) -> i128 {
    -floor_div(-a, b)
}

impl Propagator for ReifiedLinear {
    fn name(&self) -> &str {
        "reified linear"
    }

    fn vars(&self) -> &[VarId] {
        &self.vars
    }

    fn propagate(&self, d: &mut Domains<'_>) -> Result<(), Conflict> {
        let b = self.vars[0];
        match d.value(b) {
            Some(1) => self.enforce(d, true),
            Some(_) if self.kind == Reification::Full => self.enforce(d, false),
            Some(_) => Ok(()),
            None => settle(d, b, self.kind, self.truth(d)),
        }
    }
}
