//! `a[0]·x[0] + … + a[n-1]·x[n-1]` compared with a constant (`=`, `≤` or `≥`), kept
//! bounds consistent: every variable's smallest and largest value can be completed by
//! some values of the others within their bounds.
//!
//! Bounds, not domains, because the sum of bitset domains has no cheap exact form; bounds
//! reasoning is what CP solvers offer for linear constraints by default (Gecode's `linear`
//! with `IPL_BND`, MiniCP's `Sum`). Arithmetic is in `i128`, where a term is at most
//! 2^31 · 2^31 in size, so no sum of fewer than 2^64 terms can overflow; or in `i64`
//! (one register a value, no 128-bit multiplication or division) for a sum whose terms
//! over the initial domains add up to less than 2^60 in size (nearly every sum of a real
//! model: `Linear::fit`).

use std::ops::{Add, Div, Mul, Neg, Rem, Sub};

use crate::bits::{pack_pair, unpack_pair};
use crate::difference_cycles::{Difference, LARGEST_BOUND};
use crate::posted::Relation;
use crate::propagate::{Conflict, Engine};
use crate::store::{Layout, Store};

/// The compiled linear constraint: the terms of a variable listed more than once are
/// added up, terms with a coefficient of zero are dropped, and the relation becomes the
/// bounds it puts on the sum (`=` both).
#[derive(Clone, Debug)]
pub(crate) struct Linear {
    vars: Vec<usize>,
    coeffs: Vec<i128>,
    at_most: Option<i128>,
    at_least: Option<i128>,
    /// Whether every sum of the terms over the variables' initial domains, and the
    /// right-hand side, lie within `±2^60` ([`Linear::fit`]): the passes then run in
    /// `i64`.
    fits_i64: bool,
    /// Where each term's variable lies in the store, so that a pass reads its bounds
    /// without looking the layout up.
    layouts: Vec<Layout>,
}

impl Linear {
    /// The sum of `coeffs[i]·vars[i]` in `relation` with `rhs`, over the variables of
    /// `store`.
    pub(crate) fn new(
        vars: &[usize],
        coeffs: &[i32],
        relation: Relation,
        rhs: i64,
        store: &Store,
    ) -> Self {
        let mut terms: Vec<(usize, i128)> = Vec::with_capacity(vars.len());
        for (&v, &a) in vars.iter().zip(coeffs) {
            // Few terms repeat a variable; a scan keeps the first one's place.
            match terms.iter_mut().find(|(w, _)| *w == v) {
                Some((_, sum)) => *sum += i128::from(a),
                None => terms.push((v, i128::from(a))),
            }
        }
        let (vars, coeffs): (Vec<usize>, Vec<i128>) =
            terms.into_iter().filter(|&(_, a)| a != 0).unzip();
        let rhs = i128::from(rhs);
        let (at_most, at_least) = match relation {
            Relation::Equal => (Some(rhs), Some(rhs)),
            Relation::AtMost => (Some(rhs), None),
            Relation::AtLeast => (None, Some(rhs)),
        };
        let layouts = vars.iter().map(|&x| store.layout(x)).collect();
        Linear {
            vars,
            coeffs,
            at_most,
            at_least,
            fits_i64: false,
            layouts,
        }
        .fit(store, rhs.abs())
    }

    /// Lets the passes run in `i64` when the terms over the domains of `store` (which
    /// only shrink), with `largest_bound` (the largest size of a bound the sum is compared
    /// with), stay within `±2^60`.
    fn fit(mut self, store: &Store, largest_bound: i128) -> Self {
        let magnitude: Option<i128> = self
            .terms()
            .map(|(x, a)| {
                let (lo, hi) = store.bounds(x)?;
                Some(a.abs() * i128::from(lo.unsigned_abs().max(hi.unsigned_abs())))
            })
            .sum();
        self.fits_i64 = magnitude.is_some_and(|m| m + largest_bound < I64_REACH);
        self
    }

    pub(crate) fn vars(&self) -> &[usize] {
        &self.vars
    }

    /// One scratch word per term: its bounds, read once per pass.
    pub(crate) fn scratch_words(&self) -> usize {
        self.vars.len()
    }

    /// The terms alone, with no relation: for a constraint that chooses the bounds on
    /// the sum at each run (a reified sum: [`Linear::narrow`], [`Linear::sum_range`]);
    /// `largest_bound` is the largest size of a bound it will choose.
    pub(crate) fn terms_only(
        vars: &[usize],
        coeffs: &[i32],
        store: &Store,
        largest_bound: i128,
    ) -> Self {
        Linear {
            at_most: None,
            ..Linear::new(vars, coeffs, Relation::AtMost, 0, store)
        }
        .fit(store, largest_bound)
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
        if self.fits_i64 {
            // Bounds beyond the reach of every sum keep their meaning when clamped.
            let clamp = |v: i128| v.clamp(-2 * I64_REACH, 2 * I64_REACH) as i64;
            let (low, high) = self.narrow_in::<i64>(e, scratch, clamp(least), clamp(most))?;
            Ok((i128::from(low), i128::from(high)))
        } else {
            self.narrow_in::<i128>(e, scratch, least, most)
        }
    }

    /// [`Linear::narrow`] in the integers `N`, wide enough for every sum and bound.
    #[inline(always)]
    fn narrow_in<N: Num>(
        &self,
        e: &mut Engine,
        scratch: &mut [u64],
        least: N,
        most: N,
    ) -> Result<(N, N), Conflict> {
        let terms = &mut scratch[..self.vars.len()];
        let (mut low, mut high) = self.sum_bounds::<N>(e, terms)?;
        if low > most || high < least {
            return Err(Conflict);
        }
        // The terms are visited in a cycle, and `low` and `high` follow every bound that
        // moves (each variable has one term), so each visit sees every narrowing before
        // it. A term is settled once visited with no other term moving since: its own
        // move leaves its range from the others unchanged. When all are settled, the
        // bounds are at their fixed point and `low` and `high` exact; the visits and
        // writes are those of whole passes repeated until one moves nothing, without
        // that last pass.
        let n = terms.len();
        let (mut i, mut settled) = (0, 0);
        while settled < n {
            let (x, a) = (self.vars[i], N::from_coeff(self.coeffs[i]));
            let (term_low, term_high) = unpack(terms[i], a);
            // What this term may contribute, given the others' bounds.
            let term_most = most - (low - term_low);
            let term_least = least - (high - term_high);
            // Dividing by a negative coefficient swaps the bounds. Unit coefficients
            // (differences, plain sums) need no division, which on `i128` is a call.
            let (lo, hi) = if a == N::ONE {
                (term_least, term_most)
            } else if a == -N::ONE {
                (-term_most, -term_least)
            } else if a > N::ZERO {
                (ceil_div(term_least, a), floor_div(term_most, a))
            } else {
                (ceil_div(term_most, a), floor_div(term_least, a))
            };
            // Most visits tighten no bound: skip the store when neither moves.
            let (min, max) = bounds::<N>(terms[i]);
            let (raise, lower) = (lo > min, hi < max);
            settled += 1;
            if raise || lower {
                let narrowed = e.restrict_range_bounds(
                    x,
                    raise.then_some(lo.wide()),
                    lower.then_some(hi.wide()),
                )?;
                if let Some((min, max)) = narrowed {
                    terms[i] = pack_pair(min, max);
                    let (new_low, new_high) = unpack(terms[i], a);
                    low = low + (new_low - term_low);
                    high = high + (new_high - term_high);
                    if low > most || high < least {
                        return Err(Conflict);
                    }
                    settled = 1;
                }
            }
            i = if i + 1 == n { 0 } else { i + 1 };
        }
        Ok((low, high))
    }

    /// Adds to `out` the differences the constraint implies in the current bounds (see
    /// `difference_cycles`), as constraint `source`.
    pub(crate) fn differences(&self, store: &Store, source: u32, out: &mut Vec<Difference>) {
        let least = self.at_least.unwrap_or(-UNBOUNDED);
        let most = self.at_most.unwrap_or(UNBOUNDED);
        self.differences_within(store, least, most, source, out);
    }

    /// Adds to `out` the differences that the sum lying in `least..=most` implies in the
    /// current bounds: for two open terms `a·x` and `-a·y` (`a > 0`), the others at
    /// their bounds give `x − y ≤ ⌊(most − their least)/a⌋` and `y − x ≤ ⌊(their most −
    /// least)/a⌋`. Sums of many open terms are left out: a creeping cycle runs through
    /// orderings and small sums.
    pub(crate) fn differences_within(
        &self,
        store: &Store,
        least: i128,
        most: i128,
        source: u32,
        out: &mut Vec<Difference>,
    ) {
        const MOST_OPEN: usize = 6;
        let mut open: [(usize, i128, i128, i128); MOST_OPEN] = [(0, 0, 0, 0); MOST_OPEN];
        let (mut opened, mut low, mut high) = (0, 0i128, 0i128);
        for (x, a) in self.terms() {
            let Some((lo, hi)) = store.bounds(x) else {
                return;
            };
            let (lo, hi) = (i128::from(lo), i128::from(hi));
            let (term_low, term_high) = if a > 0 {
                (a * lo, a * hi)
            } else {
                (a * hi, a * lo)
            };
            low += term_low;
            high += term_high;
            if lo < hi {
                if opened == MOST_OPEN {
                    return;
                }
                open[opened] = (x, a, term_low, term_high);
                opened += 1;
            }
        }
        let open = &open[..opened];
        for (i, &(x, a, x_low, x_high)) in open.iter().enumerate() {
            for &(y, b, y_low, y_high) in &open[i + 1..] {
                if a != -b {
                    continue;
                }
                // `a·x + b·y` is the pair's part of the sum; `x` takes the positive side.
                let (x, y, size) = if a > 0 { (x, y, a) } else { (y, x, b) };
                let (rest_low, rest_high) = (low - x_low - y_low, high - x_high - y_high);
                let mut add = |x: usize, y: usize, room: i128| {
                    let bound = room.div_euclid(size);
                    if bound.abs() <= i128::from(LARGEST_BOUND) {
                        out.push(Difference {
                            x,
                            y,
                            bound: bound as i64,
                            source,
                        });
                    }
                };
                if most < UNBOUNDED {
                    add(x, y, most - rest_low);
                }
                if least > -UNBOUNDED {
                    add(y, x, rest_high - least);
                }
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
        self.sum_bounds::<i128>(e, &mut scratch[..self.vars.len()])
    }

    /// The smallest and largest values the whole sum can take within the bounds; each
    /// variable's bounds are kept in `terms` (packed), so that the pass reads them once.
    #[inline(always)]
    fn sum_bounds<N: Num>(&self, e: &Engine, terms: &mut [u64]) -> Result<(N, N), Conflict> {
        let (mut low, mut high) = (N::ZERO, N::ZERO);
        for (i, (&x, &a)) in self.vars.iter().zip(&self.coeffs).enumerate() {
            terms[i] = e
                .store
                .packed_bounds_at(x, self.layouts[i])
                .ok_or(Conflict)?;
            let (l, h) = unpack(terms[i], N::from_coeff(a));
            low = low + l;
            high = high + h;
        }
        Ok((low, high))
    }
}

/// How far sums may reach for [`Linear::narrow`] to run in `i64`: with bounds clamped to
/// twice this, no intermediate value of a pass leaves `i64`.
const I64_REACH: i128 = 1 << 60;

/// The integers a pass runs in: `i64` for sums known to stay small, else `i128`.
trait Num:
    Copy
    + Ord
    + Add<Output = Self>
    + Sub<Output = Self>
    + Mul<Output = Self>
    + Div<Output = Self>
    + Rem<Output = Self>
    + Neg<Output = Self>
{
    const ZERO: Self;
    const ONE: Self;
    fn from_i32(v: i32) -> Self;
    /// A coefficient (below 2^31 in size).
    fn from_coeff(a: i128) -> Self;
    fn wide(self) -> i128;
}

impl Num for i64 {
    const ZERO: Self = 0;
    const ONE: Self = 1;
    fn from_i32(v: i32) -> Self {
        i64::from(v)
    }
    fn from_coeff(a: i128) -> Self {
        a as i64
    }
    fn wide(self) -> i128 {
        i128::from(self)
    }
}

impl Num for i128 {
    const ZERO: Self = 0;
    const ONE: Self = 1;
    fn from_i32(v: i32) -> Self {
        i128::from(v)
    }
    fn from_coeff(a: i128) -> Self {
        a
    }
    fn wide(self) -> i128 {
        self
    }
}

/// Beyond any sum of terms: stands for an absent side of the comparison.
pub(crate) const UNBOUNDED: i128 = 1 << 110;

/// A variable's packed bounds.
#[inline(always)]
fn bounds<N: Num>(word: u64) -> (N, N) {
    let (min, max) = unpack_pair(word);
    (N::from_i32(min), N::from_i32(max))
}

/// The smallest and largest values of a term with coefficient `a` over packed bounds.
#[inline(always)]
fn unpack<N: Num>(word: u64, a: N) -> (N, N) {
    let (min, max) = bounds::<N>(word);
    // Unit coefficients (differences, plain sums) need no multiplication.
    if a == N::ONE {
        (min, max)
    } else if a == -N::ONE {
        (-max, -min)
    } else if a > N::ZERO {
        (a * min, a * max)
    } else {
        (a * max, a * min)
    }
}

/// `n / d` rounded down (`d != 0`).
fn floor_div<N: Num>(n: N, d: N) -> N {
    let q = n / d;
    if (n % d != N::ZERO) && ((n < N::ZERO) != (d < N::ZERO)) {
        q - N::ONE
    } else {
        q
    }
}

/// `n / d` rounded up (`d != 0`).
fn ceil_div<N: Num>(n: N, d: N) -> N {
    let q = n / d;
    if (n % d != N::ZERO) && ((n < N::ZERO) == (d < N::ZERO)) {
        q + N::ONE
    } else {
        q
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::domain::Domain;
    use crate::xorshift::XorShift;

    /// Every assignment within `bounds`, as lists of values.
    fn assignments(bounds: &[(i32, i32)]) -> Vec<Vec<i32>> {
        bounds.iter().fold(vec![Vec::new()], |partial, &(lo, hi)| {
            partial
                .iter()
                .flat_map(|p| {
                    (lo..=hi).map(move |v| {
                        let mut next = p.clone();
                        next.push(v);
                        next
                    })
                })
                .collect()
        })
    }

    /// Checks on random small sums that every difference [`Linear::differences_within`]
    /// reports holds in every assignment within the bounds whose sum lies in the range
    /// asked: the brute-force oracle for the check on creeping bounds. Returns how many
    /// differences were checked, so that the test can see the check is not vacuous.
    fn check_differences(seed: u64, cases: usize) -> usize {
        let mut random = XorShift(seed);
        let mut checked = 0;
        for _ in 0..cases {
            let n = 2 + random.below(3);
            let bounds: Vec<(i32, i32)> = (0..n)
                .map(|_| {
                    let lo = random.below(9) as i32 - 5;
                    (lo, lo + random.below(4) as i32)
                })
                .collect();
            let domains: Vec<Domain> = bounds
                .iter()
                .map(|&(lo, hi)| Domain::range(lo..=hi).expect("a small range"))
                .collect();
            let store = Store::new(&domains);
            let vars: Vec<usize> = (0..n).collect();
            let coeffs: Vec<i32> = (0..n)
                .map(|_| {
                    let a = 1 + random.below(3) as i32;
                    if random.below(2) == 0 {
                        a
                    } else {
                        -a
                    }
                })
                .collect();
            let sum = Linear::terms_only(&vars, &coeffs, &store, 100);
            let least = random.below(25) as i128 - 12;
            let most = least + random.below(6) as i128;
            let (least, most) = match random.below(3) {
                0 => (-UNBOUNDED, most),
                1 => (least, UNBOUNDED),
                _ => (least, most),
            };
            let mut found = Vec::new();
            sum.differences_within(&store, least, most, 0, &mut found);
            for values in assignments(&bounds) {
                let total: i128 = values
                    .iter()
                    .zip(&coeffs)
                    .map(|(&v, &a)| i128::from(v) * i128::from(a))
                    .sum();
                if total < least || total > most {
                    continue;
                }
                for d in &found {
                    let gap = i64::from(values[d.x]) - i64::from(values[d.y]);
                    assert!(
                        gap <= d.bound,
                        "{coeffs:?} over {bounds:?} in {least}..={most}: {d:?} fails at {values:?}"
                    );
                }
            }
            checked += found.len();
        }
        checked
    }

    #[test]
    fn the_differences_a_sum_reports_hold_in_all_its_solutions() {
        let checked = check_differences(7, 3_000);
        assert!(checked > 1_000, "{checked} differences checked");
    }

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
