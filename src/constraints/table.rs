//! `table`: the variables take one of the allowed tuples. Domain consistent, by bitwise
//! operations over the tuples in the manner of Compact-Table (Demeulenaere et al., CP 2016):
//! for each variable and value, the set of tuples that give the variable that value is a
//! bitset (its *supports*). A run intersects, over the variables, the union of the
//! supports of the values each still has: what is left are the tuples still valid. A
//! value whose supports miss every valid tuple has no support and leaves its variable.
//!
//! The valid tuples are kept in store words of the table's own (as the tuples ruled out,
//! so that the zeros a store starts with mean all valid), undone with the domains: a run
//! intersects them with the unions of the variables changed since its last run only, and
//! when a single variable changed, its own values keep their supports and are not looked
//! at again (both as Compact-Table does). A value outside a variable's column is removed at the first run (from a wide domain:
//! its bounds move to the column's extremes; an inner value is refused once fixed, since
//! its supports are then empty).

use std::sync::Arc;

use crate::bits::set_bits;
use crate::posted::TableData;
use crate::propagate::{Conflict, Engine};

/// A compiled table.
#[derive(Clone, Debug)]
pub(crate) struct Table {
    vars: Vec<usize>,
    /// The store index of the first word of tuples ruled out.
    first_word: u32,
    /// What the tuples compile to, shared by every table over the same
    /// [`TupleSet`](crate::TupleSet).
    data: Arc<TableData>,
}

impl Table {
    /// The table over `vars` of the compiled tuples `data` (as many columns as `vars`).
    pub(crate) fn new(vars: &[usize], data: Arc<TableData>) -> Self {
        Table {
            vars: vars.to_vec(),
            first_word: 0,
            data,
        }
    }

    /// Words of its own in the store: the tuples ruled out.
    pub(crate) fn aux_words(&self) -> usize {
        self.data.words
    }

    /// Keeps its own words from store index `first` on.
    pub(crate) fn place_words(&mut self, first: u32) {
        self.first_word = first;
    }

    pub(crate) fn vars(&self) -> &[usize] {
        &self.vars
    }

    /// The valid tuples, a union being built, and the variables changed since the last
    /// run.
    pub(crate) fn scratch_words(&self) -> usize {
        2 * self.data.words + self.vars.len().div_ceil(64)
    }

    fn support(&self, p: usize, j: usize) -> &[u64] {
        let at = self.data.support_starts[p] + j * self.data.words;
        &self.data.supports[at..at + self.data.words]
    }

    pub(crate) fn propagate(&self, e: &mut Engine, scratch: &mut [u64]) -> Result<(), Conflict> {
        let words = self.data.words;
        let (valid, rest) = scratch[..self.scratch_words()].split_at_mut(words);
        let (union, changed) = rest.split_at_mut(words);
        e.take_changes(changed);
        let first = self.first_word as usize;
        for (k, t) in valid.iter_mut().enumerate() {
            *t = !e.store.word_at(first + k);
        }
        valid[words - 1] &= self.data.last_mask;
        let mut sole = None;
        let mut count = 0;
        for (word, &bits) in changed.iter().enumerate() {
            for p in set_bits(bits).map(|b| word * 64 + b) {
                self.restrict_to(e, p, valid, union);
                sole = Some(p);
                count += 1;
            }
        }
        let mut any = 0;
        for (k, &t) in valid.iter().enumerate() {
            any |= t;
            let ruled_out = !t;
            if e.store.word_at(first + k) != ruled_out {
                e.store.write_at(first + k, ruled_out);
            }
        }
        if any == 0 {
            return Err(Conflict);
        }
        // A variable that alone changed since the last run, which left every value
        // supported, keeps a valid tuple for each of its values. (A first run, after a
        // reset, sees every variable changed; with one variable there is no last run to
        // lean on.)
        let skip = if count == 1 && self.vars.len() > 1 {
            sole
        } else {
            None
        };
        for (p, &x) in self.vars.iter().enumerate() {
            if Some(p) != skip {
                self.keep_supported(e, p, x, valid)?;
            }
        }
        Ok(())
    }

    /// Intersects `valid` with the supports of the values variable `p` still has.
    fn restrict_to(&self, e: &Engine, p: usize, valid: &mut [u64], union: &mut [u64]) {
        let x = self.vars[p];
        let column = &self.data.values[p];
        let has = Membership::of(e, x);
        if column.iter().all(|&v| has.contains(e, x, v)) {
            // Every tuple gives the variable a value it still has (a first run sees
            // most variables so): the union is every tuple.
            return;
        }
        union.iter_mut().for_each(|w| *w = 0);
        for (j, &v) in column.iter().enumerate() {
            if has.contains(e, x, v) {
                for (u, s) in union.iter_mut().zip(self.support(p, j)) {
                    *u |= s;
                }
            }
        }
        for (t, u) in valid.iter_mut().zip(union.iter()) {
            *t &= u;
        }
    }

    /// Removes from variable `p` (`x`) its values without a valid tuple.
    fn keep_supported(
        &self,
        e: &mut Engine,
        p: usize,
        x: usize,
        valid: &[u64],
    ) -> Result<(), Conflict> {
        let column = &self.data.values[p];
        let supported = |j: usize| {
            self.support(p, j)
                .iter()
                .zip(valid)
                .any(|(s, t)| s & t != 0)
        };
        if let Membership::OneWord { word, base } = Membership::of(e, x) {
            return self.keep_supported_in_word(e, p, x, word, base, supported);
        }
        let (mut lo, mut hi) = (None, None);
        let mut kept = 0u32;
        for (j, &v) in column.iter().enumerate() {
            if !e.store.contains(x, i64::from(v)) {
                continue;
            }
            if supported(j) {
                lo = lo.or(Some(v));
                hi = Some(v);
                kept += 1;
            } else {
                e.remove(x, i64::from(v))?;
            }
        }
        let (Some(lo), Some(hi)) = (lo, hi) else {
            return Err(Conflict);
        };
        if e.store.is_wide(x) {
            // A range holds values outside the column, which only its bounds can shed.
            e.restrict_range(x, Some(i128::from(lo)), Some(i128::from(hi)))?;
        } else if e.store.size(x) > kept {
            // More values than supported column values: some lie outside the column.
            // (Otherwise the bitset holds exactly the supported values, the bounds
            // included.)
            self.remove_outside_column(e, p, x)?;
        }
        Ok(())
    }

    /// [`Table::keep_supported`] for a domain of one word, read once: the values without
    /// a valid tuple and those outside the column leave in one removal.
    fn keep_supported_in_word(
        &self,
        e: &mut Engine,
        p: usize,
        x: usize,
        word: u64,
        base: i64,
        supported: impl Fn(usize) -> bool,
    ) -> Result<(), Conflict> {
        let mut keep = 0u64;
        for (j, &v) in self.data.values[p].iter().enumerate() {
            let bit = bit_of(base, v);
            if word & bit != 0 && supported(j) {
                keep |= bit;
            }
        }
        if keep == 0 {
            return Err(Conflict);
        }
        if word & !keep != 0 {
            e.remove_mask(x, word & !keep)?;
        }
        Ok(())
    }

    /// Removes from a bitset domain the values its column does not hold.
    fn remove_outside_column(&self, e: &mut Engine, p: usize, x: usize) -> Result<(), Conflict> {
        let column = &self.data.values[p];
        let (Some(lo), Some(hi)) = (e.store.min(x), e.store.max(x)) else {
            return Err(Conflict);
        };
        for v in lo..=hi {
            if column.binary_search(&v).is_err() {
                e.remove(x, i64::from(v))?;
            }
        }
        Ok(())
    }
}

/// How a run tests whether a variable still has a value: a domain of one word is read
/// once, other domains through the store.
#[derive(Clone, Copy)]
enum Membership {
    OneWord { word: u64, base: i64 },
    Store,
}

impl Membership {
    fn of(e: &Engine, x: usize) -> Membership {
        let layout = e.store.layout(x);
        if layout.len == 1 && !layout.wide {
            Membership::OneWord {
                word: e.store.first_word(x),
                base: i64::from(layout.base),
            }
        } else {
            Membership::Store
        }
    }

    #[inline]
    fn contains(self, e: &Engine, x: usize, v: i32) -> bool {
        match self {
            Membership::OneWord { word, base } => word & bit_of(base, v) != 0,
            Membership::Store => e.store.contains(x, i64::from(v)),
        }
    }
}

/// The bit of value `v` in a one-word domain starting at `base`; none outside it.
#[inline]
fn bit_of(base: i64, v: i32) -> u64 {
    u64::try_from(i64::from(v) - base)
        .ok()
        .filter(|&offset| offset < 64)
        .map_or(0, |offset| 1 << offset)
}
