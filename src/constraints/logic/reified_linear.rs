//! `b ⇔ (Σ a·x rel c)` (or `b ⇒`) for `=`, `≠` and `≤`, on bounds, in the engine's own
//! form: the sum's bounds come from the store and narrow through the same pass as the
//! [`Linear`] constraint, with no public-layer wrapper around it. Scheduling models post
//! one such constraint per ordering of two tasks (`b ⇔ s₁ + d₁ ≤ s₂`), so it runs many
//! times per search node there (`cargo bench --bench logic -- jobshop`).

use crate::constraints::linear::{Linear, UNBOUNDED};
use crate::difference_cycles::Difference;
use crate::posted::{LinearRelation, Reification};
use crate::propagate::{Conflict, Engine};
use crate::store::Store;

/// The compiled reified sum.
#[derive(Clone, Debug)]
pub(crate) struct ReifiedLinear {
    /// `b`, then the terms' variables (store indices), as the engine watches them.
    vars: Vec<usize>,
    /// The terms, with no relation of their own: each run picks the bounds to enforce.
    sum: Linear,
    relation: LinearRelation,
    rhs: i128,
    kind: Reification,
}

impl ReifiedLinear {
    /// `b ⇔ Σ coeffs·vars relation rhs` (`b` none of `vars`, its domain within `{0, 1}`).
    pub(crate) fn new(
        b: usize,
        vars: &[usize],
        coeffs: &[i32],
        relation: LinearRelation,
        rhs: i64,
        kind: Reification,
        store: &Store,
    ) -> Self {
        ReifiedLinear {
            vars: std::iter::once(b).chain(vars.iter().copied()).collect(),
            // The bounds asked of the sum are the right-hand side or one past it.
            sum: Linear::terms_only(vars, coeffs, store, i128::from(rhs).abs() + 1),
            relation,
            rhs: i128::from(rhs),
            kind,
        }
    }

    pub(crate) fn vars(&self) -> &[usize] {
        &self.vars
    }

    /// The sum's scratch words.
    pub(crate) fn scratch_words(&self) -> usize {
        self.sum.scratch_words()
    }

    /// With `b` fixed, enforces the relation or its negation; with `b` open, fixes it once
    /// the bounds decide the relation. Either way the run ends at its own fixed point:
    /// the sum's narrowing repeats until no bound moves, and a `b` fixed from the bounds
    /// leaves nothing to enforce. Once `b` is fixed and the bounds entail what it says,
    /// nothing below this node can wake the constraint to any effect, so it disposes of
    /// itself: in a job shop, most orderings are decided and their tasks apart long
    /// before the search ends.
    #[inline(never)]
    pub(crate) fn propagate(&self, e: &mut Engine, scratch: &mut [u64]) -> Result<(), Conflict> {
        let b = self.vars[0];
        let entailed = match e.store.fixed_value(b) {
            Some(1) => self.enforce(e, scratch, true)?,
            Some(_) if self.kind == Reification::Full => self.enforce(e, scratch, false)?,
            // b = 0 in a half reification: nothing is required.
            Some(_) => true,
            None => self.settle(e, scratch, b)?,
        };
        if entailed {
            e.dispose_current();
        }
        Ok(())
    }

    /// Adds to `out` the differences the constraint implies in the current domains (see
    /// `difference_cycles`), as constraint `source`: those of the relation or its
    /// negation once `b` is fixed, none while it is open or for a disequality.
    pub(crate) fn differences(&self, store: &Store, source: u32, out: &mut Vec<Difference>) {
        let holds = match store.fixed_value(self.vars[0]) {
            Some(1) => true,
            Some(_) if self.kind == Reification::Full => false,
            _ => return,
        };
        if let Some((least, most)) = self.required(holds) {
            self.sum.differences_within(store, least, most, source, out);
        }
    }

    /// The range the sum must lie in for the relation (`holds`) or its negation; `None`
    /// for `Σ ≠ c`, which removes a value instead.
    fn required(&self, holds: bool) -> Option<(i128, i128)> {
        let c = self.rhs;
        match (self.relation, holds) {
            (LinearRelation::Equal, true) | (LinearRelation::NotEqual, false) => Some((c, c)),
            (LinearRelation::AtMost, true) => Some((-UNBOUNDED, c)),
            (LinearRelation::AtMost, false) => Some((c + 1, UNBOUNDED)),
            (LinearRelation::Equal, false) | (LinearRelation::NotEqual, true) => None,
        }
    }

    /// Enforces the relation (`holds`) or its negation; true when the bounds then entail
    /// it.
    fn enforce(&self, e: &mut Engine, scratch: &mut [u64], holds: bool) -> Result<bool, Conflict> {
        match self.required(holds) {
            Some((least, most)) => {
                // The narrowed sum still reaches the range; it is entailed once it lies
                // within it.
                let (lo, hi) = self.sum.narrow(e, scratch, least, most)?;
                Ok(least <= lo && hi <= most)
            }
            None => self.exclude(e, self.rhs),
        }
    }

    /// `Σ ≠ c`: once every term but one is fixed, the value that would make the sum `c`
    /// leaves the last one; every term fixed with the sum `c` fails. (A wide variable
    /// loses such a value only at its bounds; it is checked again once fixed, since a
    /// bound moving wakes this constraint.)
    fn exclude(&self, e: &mut Engine, c: i128) -> Result<bool, Conflict> {
        let mut open = None;
        let mut fixed_sum = 0i128;
        for (x, a) in self.sum.terms() {
            match e.store.fixed_value(x) {
                Some(v) => fixed_sum += a * i128::from(v),
                None if open.is_none() => open = Some((x, a)),
                None => return Ok(false),
            }
        }
        let rest = c - fixed_sum;
        match open {
            None if rest == 0 => Err(Conflict),
            None => Ok(true),
            Some((x, a)) => {
                if rest % a == 0 {
                    if let Ok(v) = i64::try_from(rest / a) {
                        e.remove(x, v)?;
                    }
                }
                // Entailed unless the value could not leave: a wide domain keeps it
                // between its bounds until fixed.
                Ok(!e.store.is_wide(x))
            }
        }
    }

    /// Fixes `b` when the sum's bounds entail the relation (for a full reification) or
    /// rule it out; true when `b` is then fixed (and what it says entailed).
    fn settle(&self, e: &mut Engine, scratch: &mut [u64], b: usize) -> Result<bool, Conflict> {
        let (lo, hi) = self.sum.sum_range(e, scratch)?;
        let c = self.rhs;
        let equal = if lo == c && hi == c {
            Some(true)
        } else if c < lo || c > hi {
            Some(false)
        } else {
            None
        };
        let truth = match self.relation {
            LinearRelation::Equal => equal,
            LinearRelation::NotEqual => equal.map(|holds| !holds),
            LinearRelation::AtMost if hi <= c => Some(true),
            LinearRelation::AtMost if lo > c => Some(false),
            LinearRelation::AtMost => None,
        };
        match (truth, self.kind) {
            (Some(false), _) => e.assign(b, 0).map(|()| true),
            (Some(true), Reification::Full) => e.assign(b, 1).map(|()| true),
            _ => Ok(false),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::domain::Domain;
    use crate::xorshift::XorShift;

    #[test]
    fn the_differences_of_a_fixed_literal_hold_in_all_solutions_of_what_it_says() {
        let mut random = XorShift(11);
        let mut checked = 0;
        for _ in 0..4_000 {
            let bounds: Vec<(i32, i32)> = (0..3)
                .map(|_| {
                    let lo = random.below(7) as i32 - 3;
                    (lo, lo + random.below(4) as i32)
                })
                .collect();
            let b_value = random.below(2) as i32;
            let mut domains: Vec<Domain> = bounds
                .iter()
                .map(|&(lo, hi)| Domain::range(lo..=hi).expect("a small range"))
                .collect();
            domains.push(Domain::range(b_value..=b_value).expect("a value"));
            let store = Store::new(&domains);
            let coeffs: Vec<i32> = (0..3).map(|_| random.below(5) as i32 - 2).collect();
            let relation = *[
                LinearRelation::Equal,
                LinearRelation::NotEqual,
                LinearRelation::AtMost,
            ]
            .get(random.below(3))
            .expect("three relations");
            let kind = if random.below(2) == 0 {
                Reification::Full
            } else {
                Reification::Half
            };
            let rhs = random.below(9) as i64 - 4;
            let c = ReifiedLinear::new(3, &[0, 1, 2], &coeffs, relation, rhs, kind, &store);
            let mut found = Vec::new();
            c.differences(&store, 0, &mut found);
            for x in bounds[0].0..=bounds[0].1 {
                for y in bounds[1].0..=bounds[1].1 {
                    for z in bounds[2].0..=bounds[2].1 {
                        let values = [x, y, z];
                        let sum: i64 = values
                            .iter()
                            .zip(&coeffs)
                            .map(|(&v, &a)| i64::from(v) * i64::from(a))
                            .sum();
                        let holds = match relation {
                            LinearRelation::Equal => sum == rhs,
                            LinearRelation::NotEqual => sum != rhs,
                            LinearRelation::AtMost => sum <= rhs,
                        };
                        let solution = match (b_value, kind) {
                            (1, _) => holds,
                            (_, Reification::Full) => !holds,
                            _ => true,
                        };
                        if !solution {
                            continue;
                        }
                        for d in &found {
                            let gap = i64::from(values[d.x]) - i64::from(values[d.y]);
                            assert!(gap <= d.bound, "{relation:?} {coeffs:?} {rhs} b = {b_value} {kind:?}: {d:?} at {values:?}");
                        }
                    }
                }
            }
            checked += found.len();
        }
        assert!(checked > 400, "{checked} differences checked");
    }
}
