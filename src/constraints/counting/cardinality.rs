//! `global_cardinality`: for each value `cover[k]`, the number of the variables `xs` that
//! take it is `counts[k]`. One propagator for all the values, so that a change to one
//! variable runs one pass over the variables rather than one per value.
//!
//! Per value, as [`Among`](super::Among) does for a one-value set: the variables fixed to
//! it are surely counted, those holding it possibly; its count lies between the two; when
//! the count can only be the sure number, the others lose the value, and when it can only
//! be the possible number, they take it. Every rule holds for any assignment, so a count
//! may itself be one of the `xs` (a magic sequence) and a variable may repeat.

use std::cell::RefCell;

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
        GlobalCardinality {
            vars: xs.iter().chain(counts).copied().collect(),
            len: xs.len(),
            cover,
            consecutive_from,
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
            let (lo, hi) = (d.min(x), d.max(x));
            for (k, &(v, _)) in self.cover.iter().enumerate() {
                if (lo..=hi).contains(&v) && d.contains(x, v) {
                    count(k);
                }
            }
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

    fn run(&self, d: &mut Domains<'_>, tally: &mut Vec<(u32, u32)>) -> Result<(), Conflict> {
        tally.clear();
        tally.resize(self.cover.len(), (0, 0));
        let (xs, counts) = self.vars.split_at(self.len);
        for &x in xs {
            self.tally(d, x, tally);
        }
        for ((value, positions), &(sure, possible)) in self.cover.iter().zip(tally.iter()) {
            let value = *value;
            let (sure, possible) = (clamp(sure), clamp(possible));
            for &c in positions {
                d.set_min(counts[c], sure)?;
                d.set_max(counts[c], possible)?;
            }
            if sure == possible {
                continue;
            }
            // Every count of the value is the same number: the first speaks for all.
            let n = counts[positions[0]];
            if d.max(n) == sure {
                for &x in xs {
                    if d.size(x) > 1 {
                        d.remove(x, value)?;
                    }
                }
            } else if d.min(n) == possible {
                for &x in xs {
                    if d.size(x) > 1 && d.contains(x, value) {
                        d.fix(x, value)?;
                    }
                }
            }
        }
        Ok(())
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
