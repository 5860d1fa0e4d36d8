//! All-different with offsets: the values `x[i] + c[i]` are pairwise different.
//!
//! Each run works on the group's *value space*: variable `i`'s bitset shifted by `shift[i]`
//! so that one bit position means the same value `x[i] + c[i]` for every variable. When the
//! whole space fits one machine word (Sudoku, N-Queens up to 32) every step below is a few
//! bit operations per variable; otherwise the same steps run over several words.
//!
//! The rules, repeated until nothing changes:
//! 1. *Fixed values*: a value taken by a fixed variable leaves every other variable; two
//!    fixed variables on one value fail.
//! 2. *Pigeonhole*: fewer free values than unfixed variables fail.
//! 3. *Hidden single*: when the unfixed variables have exactly as many free values as there
//!    are of them, every free value must be used, so a value with a single place left is
//!    fixed there (and a variable holding two such values fails). With more values than
//!    variables some values stay unused and the rule would be unsound, so it is skipped.
//!
//! Then, as the group's [`Consistency`] asks: bounds consistency by Hall intervals
//! ([`hall_intervals`](super::hall_intervals)), after which the rules run again while it
//! moves a bound; or domain consistency by matching, which implies everything above.

use super::hall_intervals;
use super::matching::prune_to_domain_consistency;
use super::matching_words::prune_words;
use crate::bits::{bit_bounds, is_single, range_word};
use crate::posted::Consistency;
use crate::propagate::{takes_an_end, Conflict, Engine, Event};
use crate::store::Store;

/// The widest value space of a group, in words: [`super::MAX_GROUP_BITS`] bounds the
/// span from the lowest shifted base to the end of the highest shifted domain.
const MAX_WORDS: usize = super::MAX_GROUP_BITS as usize / 64;

/// A compiled all-different group.
#[derive(Clone, Debug)]
pub(crate) struct AllDifferent {
    vars: Vec<usize>,
    /// Bit offset of each variable's bit 0 in the group's value space.
    shifts: Vec<u32>,
    /// Words of the value space; 1 selects the one-word fast path.
    group_words: usize,
    /// Whether the matching-based filter runs after the fast rules.
    domain_consistent: bool,
    /// Whether the Hall intervals run after the fast rules.
    bounds_consistent: bool,
    /// Index in the store of each variable's first word.
    words: Vec<u32>,
    /// The variables start with exactly as many values between them as there are variables.
    permutation: bool,
}

impl AllDifferent {
    /// Lays out the value space for `vars[i] + offsets[i]` (validated by the model).
    pub(crate) fn new(
        store: &Store,
        vars: &[crate::var::VarId],
        offsets: &[i32],
        consistency: Consistency,
    ) -> Self {
        let vars: Vec<usize> = vars.iter().map(|v| v.index()).collect();
        let shifts = value_space_shifts(store, &vars, offsets);
        let one_word = fits_one_word(store, &vars, &shifts);
        let group_words = if one_word {
            1
        } else {
            vars.iter()
                .zip(&shifts)
                .map(|(&v, &s)| (s as usize + 64 * store.words(v).len()).div_ceil(64))
                .max()
                .unwrap_or(1)
        };
        let permutation = group_words == 1 && {
            let union = vars
                .iter()
                .zip(&shifts)
                .fold(0u64, |acc, (&v, &s)| acc | store.words(v)[0] << s);
            union.count_ones() as usize == vars.len()
        };
        debug_assert!(
            group_words <= MAX_WORDS,
            "the model keeps value spaces narrow"
        );
        AllDifferent {
            permutation,
            words: vars.iter().map(|&v| store.layout(v).start).collect(),
            vars,
            shifts,
            group_words,
            domain_consistent: consistency == Consistency::Domain,
            bounds_consistent: consistency == Consistency::Bounds,
        }
    }

    pub(crate) fn vars(&self) -> &[usize] {
        &self.vars
    }

    /// Whether it runs after the cheap propagators have settled: the matching and the
    /// Hall intervals reach the same fixed point then, at a fraction of the cost.
    pub(crate) fn is_costly(&self) -> bool {
        self.domain_consistent || self.bounds_consistent
    }

    /// Working memory: one value-space bitset per variable, of the path's width, then
    /// (for bounds consistency) the ranges and the Hall intervals' memory.
    pub(crate) fn scratch_words(&self) -> usize {
        let n = self.vars.len();
        let hall = if self.bounds_consistent {
            2 * n + hall_intervals::scratch_words(n)
        } else {
            0
        };
        n * self.width() + hall
    }

    /// The words a run gives each variable: one on the one-word path, else the group's
    /// words rounded up to a power of two (the `W` of [`AllDifferent::propagate_words`]).
    fn width(&self) -> usize {
        match self.group_words {
            0 | 1 => 1,
            words => words.next_power_of_two(),
        }
    }

    /// Which changes wake the group. Rules 2 and 3 can only fire once the free values are
    /// as few as the unfixed variables; a group that starts with more values than variables
    /// (a diagonal of N-Queens, a clique in coloring) gets there rarely, so it runs on fixes
    /// only, which is all rule 1 needs. Groups with exactly as many values as variables
    /// (Sudoku's rows, columns and boxes) and domain-consistent groups wake on every change,
    /// bounds-consistent groups when a bound moves.
    pub(crate) fn event(&self) -> Event {
        if self.permutation || self.domain_consistent {
            Event::Change
        } else if self.bounds_consistent {
            Event::Bounds
        } else {
            Event::Fix
        }
    }

    #[inline]
    pub(crate) fn propagate(&self, e: &mut Engine, scratch: &mut [u64]) -> Result<(), Conflict> {
        if self.group_words == 1 {
            self.propagate_one_word(e, scratch)
        } else {
            self.propagate_wide(e, scratch)
        }
    }

    /// The one-word path: every rule on whole words, domains written back once at the end.
    fn propagate_one_word(&self, e: &mut Engine, scratch: &mut [u64]) -> Result<(), Conflict> {
        let n = self.vars.len();
        let (masks, hall) = scratch.split_at_mut(n);
        let mut fixed = 0u64;
        for (i, m) in masks.iter_mut().enumerate() {
            *m = e.store.word_at(self.words[i] as usize) << self.shifts[i];
            if is_single(*m) {
                if fixed & *m != 0 {
                    return Err(Conflict);
                }
                fixed |= *m;
            }
        }
        loop {
            // Rule 1: fixed values leave the others; values fixed in this pass are applied
            // in the next one.
            let mut newly_fixed = 0u64;
            let mut once = 0u64;
            let mut twice = 0u64;
            let mut unfixed = 0u32;
            for m in masks.iter_mut() {
                if is_single(*m) {
                    continue;
                }
                let kept = *m & !fixed;
                *m = kept;
                if kept == 0 {
                    return Err(Conflict);
                }
                if is_single(kept) {
                    if newly_fixed & kept != 0 {
                        return Err(Conflict);
                    }
                    newly_fixed |= kept;
                    continue;
                }
                twice |= once & kept;
                once |= kept;
                unfixed += 1;
            }
            if newly_fixed != 0 {
                fixed |= newly_fixed;
                continue;
            }
            // Rules 2 and 3: pigeonhole and hidden singles.
            let hidden = hidden_values(once, twice, unfixed)?;
            if hidden != 0 {
                for m in masks.iter_mut() {
                    let h = *m & hidden;
                    if h == 0 || is_single(*m) {
                        continue;
                    }
                    if !is_single(h) {
                        return Err(Conflict);
                    }
                    *m = h;
                    fixed |= h;
                }
                continue;
            }
            if self.bounds_consistent && narrow_to_hall_bounds::<1>(masks, hall)? {
                continue;
            }
            // Domain consistency last. It implies the rules above (a fixed value in no
            // other domain; a value that must be used and has one place, fixed there), so
            // its result is the group's fixed point: no second pass.
            if self.domain_consistent {
                prune_to_domain_consistency(masks)?;
                debug_assert!(
                    prune_to_domain_consistency(&mut masks.to_vec()) == Ok(false),
                    "domain consistency is its own fixed point"
                );
            }
            break;
        }
        for (i, &m) in masks.iter().enumerate() {
            let index = self.words[i] as usize;
            let new = m >> self.shifts[i];
            if new != e.store.word_at(index) {
                e.set_word(self.vars[i], index, new)?;
            }
        }
        Ok(())
    }

    /// The path for value spaces of several words: `W` words a variable, the group's
    /// words rounded up to a power of two, so that every step below runs on arrays of
    /// a known length.
    fn propagate_wide(&self, e: &mut Engine, scratch: &mut [u64]) -> Result<(), Conflict> {
        match self.width() {
            2 => self.propagate_words::<2>(e, scratch),
            4 => self.propagate_words::<4>(e, scratch),
            8 => self.propagate_words::<8>(e, scratch),
            16 => self.propagate_words::<16>(e, scratch),
            32 => self.propagate_words::<32>(e, scratch),
            _ => self.propagate_words::<MAX_WORDS>(e, scratch),
        }
    }

    /// The rules of the one-word path on value spaces of `W` words, domains written back
    /// once at the end.
    fn propagate_words<const W: usize>(
        &self,
        e: &mut Engine,
        scratch: &mut [u64],
    ) -> Result<(), Conflict> {
        let n = self.vars.len();
        let (masks, hall) = scratch.split_at_mut(n * W);
        let mut fixed = [0u64; W];
        for (i, m) in arrays::<W>(masks).enumerate() {
            load_shifted(e.store.words(self.vars[i]), self.shifts[i] as usize, m);
            if count(m) == 1 {
                if intersects(&fixed, m) {
                    return Err(Conflict);
                }
                or_into(&mut fixed, m);
            }
        }
        loop {
            // Rule 1: fixed values leave the others; values fixed in this pass are applied
            // in the next one.
            let (mut newly_fixed, mut once, mut twice) = ([0u64; W], [0u64; W], [0u64; W]);
            let (mut any_newly_fixed, mut unfixed) = (false, 0u32);
            for m in arrays::<W>(masks) {
                if count(m) == 1 {
                    continue;
                }
                m.iter_mut().zip(&fixed).for_each(|(a, f)| *a &= !f);
                match count(m) {
                    0 => return Err(Conflict),
                    1 => {
                        if intersects(&newly_fixed, m) {
                            return Err(Conflict);
                        }
                        or_into(&mut newly_fixed, m);
                        any_newly_fixed = true;
                    }
                    _ => {
                        for k in 0..W {
                            twice[k] |= once[k] & m[k];
                            once[k] |= m[k];
                        }
                        unfixed += 1;
                    }
                }
            }
            if any_newly_fixed {
                or_into(&mut fixed, &newly_fixed);
                continue;
            }
            // Rules 2 and 3: pigeonhole and hidden singles.
            let free = count(&once);
            if free < unfixed {
                return Err(Conflict);
            }
            once.iter_mut().zip(&twice).for_each(|(o, t)| *o &= !t);
            if free > unfixed || count(&once) == 0 {
                if self.bounds_consistent && narrow_to_hall_bounds::<W>(masks, hall)? {
                    continue;
                }
                // Domain consistency last: it implies the rules above, so its result is
                // the group's fixed point.
                if self.domain_consistent {
                    prune_words::<W>(masks)?;
                }
                break;
            }
            for m in arrays::<W>(masks) {
                let mut hit = [0u64; W];
                hit.iter_mut()
                    .zip(m.iter().zip(&once))
                    .for_each(|(h, (a, o))| *h = a & o);
                match count(&hit) {
                    0 => continue,
                    _ if count(m) == 1 => continue,
                    1 => {
                        *m = hit;
                        or_into(&mut fixed, &hit);
                    }
                    _ => return Err(Conflict),
                }
            }
        }
        for (i, m) in masks.chunks_exact(W).enumerate() {
            self.write_wide(e, i, m)?;
        }
        Ok(())
    }

    /// Writes variable `i`'s value-space bitset `mask` (within its domain) back, when it
    /// lost values.
    fn write_wide(&self, e: &mut Engine, i: usize, mask: &[u64]) -> Result<(), Conflict> {
        let var = self.vars[i];
        let shift = self.shifts[i] as usize;
        let words = e.store.words(var);
        let kept = |k: usize| extract_shifted(mask, shift, k);
        if words.iter().enumerate().all(|(k, &w)| w == kept(k)) {
            return Ok(());
        }
        let end = e.bounds_watched(var) && takes_an_end(words, |k| words[k] & !kept(k));
        for k in 0..words.len() {
            e.narrow_word_quietly(var, k, kept(k));
        }
        e.changed_knowing_ends(var, end)
    }
}

/// Moves each variable's value-space bounds out of the group's Hall intervals (masks of
/// `W` words each; `hall` holds the ranges and [`hall_intervals::narrow`]'s memory),
/// clearing the values outside. Returns whether a mask lost values.
fn narrow_to_hall_bounds<const W: usize>(
    masks: &mut [u64],
    hall: &mut [u64],
) -> Result<bool, Conflict> {
    let n = masks.len() / W;
    let (lo, rest) = hall.split_at_mut(n);
    let (hi, work) = rest.split_at_mut(n);
    for (k, m) in masks.chunks_exact(W).enumerate() {
        let (l, h) = bit_bounds(m).ok_or(Conflict)?;
        (lo[k], hi[k]) = (l as u64, h as u64);
    }
    if !hall_intervals::worth_running(lo, hi) || !hall_intervals::narrow(lo, hi, work)? {
        return Ok(false);
    }
    for (k, m) in masks.chunks_exact_mut(W).enumerate() {
        let (from, to) = (lo[k] as usize, hi[k] as usize + 1);
        for (j, w) in m.iter_mut().enumerate() {
            *w &= range_word(j, from, to);
        }
        if m.iter().all(|&w| w == 0) {
            return Err(Conflict);
        }
    }
    Ok(true)
}

/// Rules 2 and 3 on one word, from the values of a group's unfixed cells (`once`: in at
/// least one of them, `twice`: in at least two) and how many they are. Pigeonhole: fewer
/// values than cells is a conflict. Hidden singles: when there are exactly as many values
/// as cells every value must be used, so a value only one cell holds is that cell's;
/// returns those values (none otherwise).
#[inline]
pub(crate) fn hidden_values(once: u64, twice: u64, unfixed: u32) -> Result<u64, Conflict> {
    let free = once.count_ones();
    if free < unfixed {
        return Err(Conflict);
    }
    Ok(if free == unfixed { once & !twice } else { 0 })
}

/// Where each variable's bit 0 lies in the value space of `vars[i] + offsets[i]`: the
/// group's smallest possible value is bit 0.
pub(crate) fn value_space_shifts(store: &Store, vars: &[usize], offsets: &[i32]) -> Vec<u32> {
    let bases = || {
        vars.iter()
            .zip(offsets)
            .map(|(&v, &c)| i64::from(store.layout(v).base) + i64::from(c))
    };
    let low = bases().min().unwrap_or(0);
    bases().map(|b| (b - low) as u32).collect()
}

/// True when every variable has a one-word domain that, shifted, stays within one word.
pub(crate) fn fits_one_word(store: &Store, vars: &[usize], shifts: &[u32]) -> bool {
    vars.iter().zip(shifts).all(|(&v, &s)| {
        let w = store.words(v);
        w.len() == 1 && u64::from(s) + u64::from(highest_bit(w[0])) < 64
    })
}

fn highest_bit(w: u64) -> u32 {
    63u32.saturating_sub(w.leading_zeros())
}

/// `words` as consecutive arrays of `W` words (its length a multiple of `W`).
fn arrays<const W: usize>(words: &mut [u64]) -> impl Iterator<Item = &mut [u64; W]> {
    words.chunks_exact_mut(W).filter_map(|c| c.try_into().ok())
}

fn count(m: &[u64]) -> u32 {
    m.iter().map(|w| w.count_ones()).sum()
}

fn intersects(a: &[u64], b: &[u64]) -> bool {
    a.iter().zip(b).any(|(x, y)| x & y != 0)
}

fn or_into(acc: &mut [u64], m: &[u64]) {
    acc.iter_mut().zip(m).for_each(|(a, b)| *a |= b);
}

/// Writes `src` shifted left by `shift` bits into `dst` (cleared first; bits beyond it
/// dropped). In place, word by word: an array built on the stack and copied would be
/// read back in wider loads than it was written in, which stalls.
fn load_shifted(src: &[u64], shift: usize, dst: &mut [u64]) {
    dst.fill(0);
    let (q, r) = (shift / 64, shift % 64);
    for (k, &word) in src.iter().enumerate() {
        if let Some(d) = dst.get_mut(k + q) {
            *d |= word << r;
        }
        if r != 0 {
            if let Some(d) = dst.get_mut(k + q + 1) {
                *d |= word >> (64 - r);
            }
        }
    }
}

/// Word `k` of `src` shifted right by `shift` bits: the inverse of [`load_shifted`].
fn extract_shifted(src: &[u64], shift: usize, k: usize) -> u64 {
    let (q, r) = (shift / 64, shift % 64);
    let low = src.get(k + q).copied().unwrap_or(0) >> r;
    let high = if r == 0 {
        0
    } else {
        src.get(k + q + 1).copied().unwrap_or(0) << (64 - r)
    };
    low | high
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shifting_round_trips_across_word_boundaries() {
        let src = [0x8000_0000_0000_0001u64, 0b101];
        for shift in [0, 1, 63, 64, 65, 130] {
            let mut dst = [0; 5];
            load_shifted(&src, shift, &mut dst);
            assert_eq!(count(&dst), 4);
            assert_eq!(extract_shifted(&dst, shift, 0), src[0], "shift {shift}");
            assert_eq!(extract_shifted(&dst, shift, 1), src[1], "shift {shift}");
        }
    }
}
