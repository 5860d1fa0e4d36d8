//! `a[0]·x[0] + … + a[n-1]·x[n-1]` compared with a constant (`=`, `≤` or `≥`), kept
//! bounds consistent: every variable's smallest and largest value can be completed by
//! some values of the others within their bounds.
//!
//! Bounds, not domains, because the sum of bitset domains has no cheap exact form; bounds
//! reasoning is what CP solvers offer for linear constraints by default (Gecode's `linear`
//! with `IPL_BND`, MiniCP's `Sum`). Arithmetic is in `i128`: a term is at most
//! 2^31 · 2^31 in size, so no sum of fewer than 2^64 terms can overflow.

use crate::bits::{pack_pair, unpack_pair};
use crate::posted::Relation;
use crate::propagate::{Conflict, Engine};

/// The compiled linear constraint: the terms of a variable listed more than once are
/// added up, terms with a coefficient of zero are dropped, and the relation becomes the
/// bounds it puts on the sum (`=` both).
#[derive(Clone, Debug)]
pub(crate) struct Linear {
    vars: Vec<usize>,
    coeffs: Vec<i128>,
    at_most: Option<i128>,
    at_least: Option<i128>,
}

impl Linear {
    pub(crate) fn new(vars: &[usize], coeffs: &[i32], relation: Relation, rhs: i64) -> Self {
        let mut terms: Vec<(usize, i128)> = Vec::with_capacity(vars.len());
        for (&v, &a) in vars.iter().zip(coeffs) {
            // Few terms repeat a variable; a scan keeps the first one's place.
            match terms.iter_mut().find(|(w, _)| *w == v) {
                Some((_, sum)) => *sum += i128::from(a),
                None => terms.push((v, i128::from(a))),
            }
        }
        let (vars, coeffs) = terms.into_iter().filter(|&(_, a)| a != 0).unzip();
        let rhs = i128::from(rhs);
        let (at_most, at_least) = match relation {
            Relation::Equal => (Some(rhs), Some(rhs)),
            Relation::AtMost => (Some(rhs), None),
            Relation::AtLeast => (None, Some(rhs)),
        };
        Linear {
            vars,
            coeffs,
            at_most,
            at_least,
        }
    }

    pub(crate) fn vars(&self) -> &[usize] {
        &self.vars
    }

    /// One scratch word per term: its bounds, read once per pass.
    pub(crate) fn scratch_words(&self) -> usize {
        self.vars.len()
    }

    /// The terms alone, with no relation: for a constraint that chooses the bounds on
    /// the sum at each run (a reified sum: [`Linear::narrow`], [`Linear::sum_range`]).
    pub(crate) fn terms_only(vars: &[usize], coeffs: &[i32]) -> Self {
        Linear {
            at_most: None,
            ..Linear::new(vars, coeffs, Relation::AtMost, 0)
        }
    }

    /// The terms' variables and coefficients, without those of coefficient zero.
    pub(crate) fn terms(&self) -> impl Iterator<Item = (usize, i128)> + '_ {
        self.vars.iter().copied().zip(self.coeffs.iter().copied())
    }

    /// Narrows every variable's bounds until none moves (a narrowed bound can tighten
    /// the others), or fails when the bounds cannot reach the right-hand side. Kept out
    /// of the engine's dispatch loop, whose code the other models' speed depends on.
    #[inline(never)]
    pub(crate) fn propagate(&self, e: &mut Engine, scratch: &mut [u64]) -> Result<(), Conflict> {
        // An absent side as a bound no sum reaches (terms are below 2^62 in size, and
        // fewer than 2^32 of them), so that the pass needs no `Option`s.
        let most = self.at_most.unwrap_or(UNBOUNDED);
        let least = self.at_least.unwrap_or(-UNBOUNDED);
        self.narrow(e, scratch, least, most).map(|_| ())
    }

    /// Narrows the bounds until the sum can lie in `least..=most` (either may be
    /// [`UNBOUNDED`] or its negation), whatever the constraint's own relation; returns
    /// the smallest and largest sums the narrowed bounds allow.
    pub(crate) fn narrow(
        &self,
        e: &mut Engine,
        scratch: &mut [u64],
        least: i128,
        most: i128,
    ) -> Result<(i128, i128), Conflict> {
        let terms = &mut scratch[..self.vars.len()];
        let (mut low, mut high) = self.sum_bounds(e, terms)?;
        loop {
            if low > most || high < least {
                return Err(Conflict);
            }
            // `low` and `high` follow every bound that moves (each variable has one term),
            // so the later terms of a pass see the earlier ones' narrowing, and a pass
            // that moves nothing ends with them exact.
            let mut moved = false;
            for (i, (&x, &a)) in self.vars.iter().zip(&self.coeffs).enumerate() {
                let (term_low, term_high) = unpack(terms[i], a);
                // What this term may contribute, given the others' bounds.
                let term_most = most - (low - term_low);
                let term_least = least - (high - term_high);
                // Dividing by a negative coefficient swaps the bounds. Unit coefficients
                // (differences, plain sums) need no division, which on `i128` is a call.
                let (lo, hi) = match a {
                    1 => (term_least, term_most),
                    -1 => (-term_most, -term_least),
                    _ if a > 0 => (ceil_div(term_least, a), floor_div(term_most, a)),
                    _ => (ceil_div(term_most, a), floor_div(term_least, a)),
                };
                // Most passes tighten few bounds: skip the store when neither moves.
                let (min, max) = bounds(terms[i]);
                let (raise, lower) = (lo > min, hi < max);
                if (raise || lower)
                    && e.restrict_range(x, raise.then_some(lo), lower.then_some(hi))?
                {
                    // Read back: a bitset's new bound may lie past a hole.
                    let (min, max) = e.store.bounds(x).ok_or(Conflict)?;
                    terms[i] = pack_pair(min, max);
                    let (new_low, new_high) = unpack(terms[i], a);
                    low += new_low - term_low;
                    high += new_high - term_high;
                    moved = true;
                }
            }
            if !moved {
                return Ok((low, high));
            }
        }
    }

    /// The smallest and largest values the whole sum can take within the current bounds
    /// (`scratch` as for [`Linear::narrow`]).
    pub(crate) fn sum_range(
        &self,
        e: &Engine,
        scratch: &mut [u64],
    ) -> Result<(i128, i128), Conflict> {
        self.sum_bounds(e, &mut scratch[..self.vars.len()])
    }

    /// The smallest and largest values the whole sum can take within the bounds; each
    /// variable's bounds are kept in `terms` (packed), so that the pass reads them once.
    fn sum_bounds(&self, e: &Engine, terms: &mut [u64]) -> Result<(i128, i128), Conflict> {
        let (mut low, mut high) = (0, 0);
        for (i, (&x, &a)) in self.vars.iter().zip(&self.coeffs).enumerate() {
            let (min, max) = e.store.bounds(x).ok_or(Conflict)?;
            terms[i] = pack_pair(min, max);
            let (l, h) = unpack(terms[i], a);
            low += l;
            high += h;
        }
        Ok((low, high))
    }
}

/// Beyond any sum of terms: stands for an absent side of the comparison.
pub(crate) const UNBOUNDED: i128 = 1 << 110;

/// A variable's packed bounds.
fn bounds(word: u64) -> (i128, i128) {
    let (min, max) = unpack_pair(word);
    (i128::from(min), i128::from(max))
}

/// The smallest and largest values of a term with coefficient `a` over packed bounds.
fn unpack(word: u64, a: i128) -> (i128, i128) {
    let (min, max) = bounds(word);
    // Unit coefficients (differences, plain sums) need no 128-bit multiplication.
    match a {
        1 => (min, max),
        -1 => (-max, -min),
        _ if a > 0 => (a * min, a * max),
        _ => (a * max, a * min),
    }
}

/// `n / d` rounded down (`d != 0`).
fn floor_div(n: i128, d: i128) -> i128 {
    let q = n / d;
    if (n % d != 0) && ((n < 0) != (d < 0)) {
        q - 1
    } else {
        q
    }
}

/// `n / d` rounded up (`d != 0`).
fn ceil_div(n: i128, d: i128) -> i128 {
    let q = n / d;
    if (n % d != 0) && ((n < 0) == (d < 0)) {
        q + 1
    } else {
        q
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn divisions_round_the_right_way_for_every_sign() {
        for n in -20i128..=20 {
            for d in [-7i128, -3, -2, -1, 1, 2, 3, 7] {
                let exact = n as f64 / d as f64;
                assert_eq!(floor_div(n, d), exact.floor() as i128, "{n} / {d}");
                assert_eq!(ceil_div(n, d), exact.ceil() as i128, "{n} / {d}");
            }
        }
    }
}
