//! `among`: how many of the variables `xs` take a value of the set `S` is `n`.
//!
//! A variable whose values all lie in `S` is surely counted, one with some value in `S`
//! possibly: `n` lies between the two counts. When `n` can only be the sure count, the
//! possible ones leave `S`; when it can only be the possible count, they take a value of
//! `S`. That is domain consistent on every variable (for domains of at most
//! [`MAX_VALUES`] values; a larger domain is never counted as surely in `S`, which is
//! sound, and only its bounds are narrowed when it must leave or join `S`).

use crate::constraints::logic::MAX_VALUES;
use crate::propagator::{Conflict, Domains, Propagator, Strength};
use crate::var::VarId;

/// `|{i : xs[i] ∈ S}| = n`.
#[derive(Debug)]
pub(crate) struct Among {
    /// `xs`, then `n`.
    vars: Vec<VarId>,
    /// `S`, sorted and distinct.
    set: Vec<i32>,
}

impl Among {
    pub(crate) fn new(xs: &[VarId], set: &[i32], n: VarId) -> Self {
        let mut set = set.to_vec();
        set.sort_unstable();
        set.dedup();
        Among {
            vars: xs.iter().copied().chain([n]).collect(),
            set,
        }
    }

    fn in_set(&self, v: i32) -> bool {
        self.set.binary_search(&v).is_ok()
    }

    /// Whether `x` can take a value of `S`, and whether it surely does.
    fn standing(&self, d: &Domains<'_>, x: VarId) -> (bool, bool) {
        let (Some(&first), Some(&last)) = (self.set.first(), self.set.last()) else {
            return (false, false);
        };
        let (lo, hi) = (d.min(x), d.max(x));
        if hi < first || lo > last {
            return (false, false);
        }
        if lo == hi {
            let counted = self.in_set(lo);
            return (counted, counted);
        }
        if self.set.len() == 1 {
            // Two values or more: possibly the one value, never surely.
            return (d.contains(x, first), false);
        }
        let possible = self.set.iter().any(|&v| d.contains(x, v));
        let sure = possible
            && d.size(x) as usize <= self.set.len()
            && d.size(x) <= MAX_VALUES
            && d.values(x).all(|v| self.in_set(v));
        (possible, sure)
    }
}

impl Propagator for Among {
    fn name(&self) -> &str {
        "among"
    }

    fn vars(&self) -> &[VarId] {
        &self.vars
    }

    fn consistency(&self) -> Strength {
        Strength::Domain
    }

    fn propagate(&self, d: &mut Domains<'_>) -> Result<(), Conflict> {
        let (xs, n) = self.vars.split_at(self.vars.len() - 1);
        let n = n[0];
        let (mut sure, mut possible) = (0i32, 0i32);
        for &x in xs {
            let (p, s) = self.standing(d, x);
            possible += i32::from(p);
            sure += i32::from(s);
        }
        d.set_min(n, sure)?;
        d.set_max(n, possible)?;
        if sure == possible {
            return Ok(());
        }
        let leave = d.max(n) == sure;
        let join = d.min(n) == possible;
        if !leave && !join {
            return Ok(());
        }
        for &x in xs {
            let (p, s) = self.standing(d, x);
            if p && !s {
                if leave {
                    d.remove_values(x, &self.set)?;
                } else {
                    self.keep_set_values(d, x)?;
                }
            }
        }
        Ok(())
    }
}

impl Among {
    /// Removes from `x` every value outside `S` (its bounds only, when it is too large to
    /// visit).
    fn keep_set_values(&self, d: &mut Domains<'_>, x: VarId) -> Result<(), Conflict> {
        if d.size(x) > MAX_VALUES {
            let lo = self.set.iter().find(|&&v| d.contains(x, v));
            let hi = self.set.iter().rev().find(|&&v| d.contains(x, v));
            let (Some(&lo), Some(&hi)) = (lo, hi) else {
                return Err(Conflict);
            };
            d.set_min(x, lo)?;
            return d.set_max(x, hi);
        }
        let outside: smallvec::SmallVec<[i32; 16]> =
            d.values(x).filter(|&v| !self.in_set(v)).collect();
        d.remove_values(x, &outside)
    }
}
