//! `global_cardinality`: for each value `cover[k]`, the number of the variables `xs` that
//! take it is `counts[k]`. One propagator for all the values, so that a change to one
//! variable runs one pass over the variables rather than one per value.
//!
//! Per value, as [`Among`](super::Among) does for a one-value set: the variables fixed to
//! it are surely counted, those holding it possibly; its count lies between the two; when
//! the count can only be the sure number, the others lose the value, and when it can only
//! be the possible number, they take it. A value listed more than once has one number of
//! occurrences, so its counts share their bounds, and the rules read the bounds they
//! share. Every rule holds for any assignment, so a count may itself be one of the `xs`
//! (a magic sequence) and a variable may repeat.

use std::cell::RefCell;
use std::collections::BTreeMap;

use crate::propagator::{Conflict, Cost, Domains, Propagator, Strength};
use crate::var::VarId;

#[derive(Debug)]
pub(crate) struct GlobalCardinality {
    /// The `xs`, then the counts.
    vars: Vec<VarId>,
    /// How many of `vars` are `xs`.
    len: usize,
    /// The distinct cover values, ascending, each with the positions of its counts (a
    /// value may be listed more than once).
    cover: Vec<(i32, Vec<usize>)>,
    /// The first cover value when the values are consecutive (a magic sequence's
    /// `0..n`): a value's place in `cover` is then its distance from this one, with no
    /// search.
    consecutive_from: Option<i32>,
    /// Per variable of `vars`: how many times it is one of the `xs` (a count may be one,
    /// as in a magic sequence, and a variable may repeat).
    weight: Vec<u32>,
}

thread_local! {
    /// Per value: (surely counted, possibly counted), reused across runs on this thread.
    static TALLY: RefCell<Vec<(u32, u32)>> = const { RefCell::new(Vec::new()) };
}

impl GlobalCardinality {
    pub(crate) fn new(xs: &[VarId], values: &[i32], counts: &[VarId]) -> Self {
        let mut cover: Vec<(i32, Vec<usize>)> = Vec::with_capacity(values.len());
        let mut listed: Vec<(i32, usize)> = values.iter().copied().zip(0..).collect();
        listed.sort_unstable();
        for (value, at) in listed {
            match cover.last_mut() {
                Some((last, positions)) if *last == value => positions.push(at),
                _ => cover.push((value, vec![at])),
            }
        }
        let consecutive_from = cover.first().map(|&(first, _)| first).filter(|&first| {
            cover
                .iter()
                .zip(0i64..)
                .all(|(&(v, _), k)| i64::from(v) == i64::from(first) + k)
        });
        let vars: Vec<VarId> = xs.iter().chain(counts).copied().collect();
        let mut occurrences: BTreeMap<VarId, u32> = BTreeMap::new();
        for &x in xs {
            *occurrences.entry(x).or_insert(0) += 1;
        }
        let weight = vars
            .iter()
            .map(|v| occurrences.get(v).copied().unwrap_or(0))
            .collect();
        GlobalCardinality {
            vars,
            len: xs.len(),
            cover,
            consecutive_from,
            weight,
        }
    }

    /// The position in `cover` of each value of `x`: one look-up per value of a small
    /// domain, one membership test per cover value otherwise.
    fn tally(&self, d: &Domains<'_>, x: VarId, tally: &mut [(u32, u32)]) {
        let fixed = d.size(x) == 1;
        let mut count = |k: usize| {
            tally[k].1 += 1;
            tally[k].0 += u32::from(fixed);
        };
        if d.size(x) as usize <= self.cover.len() {
            for v in d.values(x) {
                if let Some(k) = self.place(v) {
                    count(k);
                }
            }
        } else {
            self.places_within(d.min(x), d.max(x))
                .filter(|&k| d.contains(x, self.cover[k].0))
                .for_each(count);
        }
    }

    /// The place of `value` in `cover`, if it is a cover value.
    #[inline(always)]
    fn place(&self, value: i32) -> Option<usize> {
        match self.consecutive_from {
            Some(first) => {
                let k = i64::from(value) - i64::from(first);
                (0..self.cover.len() as i64)
                    .contains(&k)
                    .then_some(k as usize)
            }
            None => self.cover.binary_search_by_key(&value, |c| c.0).ok(),
        }
    }

    /// Narrows to the fixed point of the rules on the tally, which it keeps exact as it
    /// narrows: after the first tally, a pass over the cover values costs only its own
    /// changes, where a new run would read every variable again (a magic sequence near
    /// the root settles through hundreds of small steps).
    fn run(&self, d: &mut Domains<'_>, tally: &mut Vec<(u32, u32)>) -> Result<(), Conflict> {
        tally.clear();
        tally.resize(self.cover.len(), (0, 0));
        for &x in &self.vars[..self.len] {
            self.tally(d, x, tally);
        }
        while self.pass(d, tally)? {}
        Ok(())
    }

    /// One pass of the rules over the cover values; true when it narrowed a domain.
    fn pass(&self, d: &mut Domains<'_>, tally: &mut [(u32, u32)]) -> Result<bool, Conflict> {
        let counts = self.len..self.vars.len();
        let mut moved = false;
        for (k, (value, positions)) in self.cover.iter().enumerate() {
            let value = *value;
            // Every count of the value is the same number: each lies within the bounds
            // they all share.
            let (mut low, mut high) = (i32::MIN, i32::MAX);
            for &c in positions {
                let n = self.vars[counts.start + c];
                (low, high) = (low.max(d.min(n)), high.min(d.max(n)));
            }
            let (sure, possible) = (clamp(tally[k].0), clamp(tally[k].1));
            if low < sure || high > possible || positions.len() > 1 {
                let (min, max) = (sure.max(low), possible.min(high));
                for &c in positions {
                    let at = counts.start + c;
                    let n = self.vars[at];
                    if d.min(n) < min || d.max(n) > max {
                        moved |= self.narrow(d, at, tally, Change::Within(min, max))?;
                    }
                }
            }
            let (sure, possible) = (clamp(tally[k].0), clamp(tally[k].1));
            if sure == possible {
                continue;
            }
            let change = if high == sure {
                Change::Remove(value)
            } else if low == possible {
                Change::Fix(value)
            } else {
                continue;
            };
            for at in 0..self.len {
                let x = self.vars[at];
                if d.size(x) > 1 && d.contains(x, value) {
                    moved |= self.narrow(d, at, tally, change)?;
                }
            }
        }
        Ok(moved)
    }

    /// Applies `change` to `vars[at]` and takes the cover values it removes out of the
    /// tally, and the value it fixes into it; true when the domain changed. Reads only
    /// the values the change removes. A fix or new bounds remove exactly the values
    /// counted before the change, or fail (and a failed run's tally is dropped); a value
    /// removed from inside an interval domain may stay, so a removal is counted after.
    fn narrow(
        &self,
        d: &mut Domains<'_>,
        at: usize,
        tally: &mut [(u32, u32)],
        change: Change,
    ) -> Result<bool, Conflict> {
        let x = self.vars[at];
        let weight = self.weight[at];
        let size = d.size(x);
        if weight == 0 {
            change.apply(d, x)?;
            return Ok(d.size(x) != size);
        }
        let lose = |k: usize| tally[k].1 -= weight;
        match change {
            // Counted after the change, below.
            Change::Remove(_) => {}
            // The callers fix only a value `x` holds, with others beside it.
            Change::Fix(v) => d
                .values(x)
                .filter(|&w| w != v)
                .filter_map(|w| self.place(w))
                .for_each(lose),
            Change::Within(min, max) => self
                .places_within(d.min(x), min.saturating_sub(1))
                .chain(self.places_within(max.saturating_add(1), d.max(x)))
                .filter(|&k| d.contains(x, self.cover[k].0))
                .for_each(lose),
        }
        change.apply(d, x)?;
        if let Change::Remove(v) = change {
            if let Some(k) = self.place(v).filter(|_| !d.contains(x, v)) {
                tally[k].1 -= weight;
            }
        }
        if size > 1 && d.size(x) == 1 {
            if let Some(k) = self.place(d.min(x)) {
                tally[k].0 += weight;
            }
        }
        Ok(d.size(x) != size)
    }

    /// The places in `cover` of the cover values within `lo..=hi`.
    fn places_within(&self, lo: i32, hi: i32) -> std::ops::Range<usize> {
        let start = self.cover.partition_point(|c| c.0 < lo);
        let end = self.cover.partition_point(|c| c.0 <= hi);
        start..end.max(start)
    }
}

/// A narrowing of one variable by the rules.
#[derive(Clone, Copy)]
enum Change {
    Remove(i32),
    Fix(i32),
    /// Into `min..=max`.
    Within(i32, i32),
}

impl Change {
    fn apply(self, d: &mut Domains<'_>, x: VarId) -> Result<(), Conflict> {
        match self {
            Change::Remove(v) => d.remove(x, v),
            Change::Fix(v) => d.fix(x, v),
            Change::Within(min, max) => {
                d.set_min(x, min)?;
                d.set_max(x, max)
            }
        }
    }
}

fn clamp(n: u32) -> i32 {
    i32::try_from(n).unwrap_or(i32::MAX)
}

impl Propagator for GlobalCardinality {
    fn name(&self) -> &str {
        "global_cardinality"
    }

    fn vars(&self) -> &[VarId] {
        &self.vars
    }

    fn consistency(&self) -> Strength {
        Strength::Sound
    }

    /// Each run reads every variable: it waits until the cheap propagators (a magic
    /// sequence's sums) have settled, rather than running again after each of them.
    fn cost(&self) -> Cost {
        Cost::Costly
    }

    fn propagate(&self, d: &mut Domains<'_>) -> Result<(), Conflict> {
        TALLY.with(|t| match t.try_borrow_mut() {
            Ok(mut tally) => self.run(d, &mut tally),
            // Never nested on one thread; a fresh tally keeps it correct if it were.
            Err(_) => self.run(d, &mut Vec::new()),
        })
    }
}
