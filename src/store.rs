//! The solver's domains: every variable's bitset laid out in one flat array of words,
//! with trail-based undo.
//!
//! One flat `Vec<u64>` keeps the whole search state in a few cache lines (81 words for a
//! Sudoku) and lets the trail address any word by a single index. A wide domain (see
//! [`MAX_BITSET_SPAN`](crate::domain::MAX_BITSET_SPAN)) is two words: its bounds, as
//! offsets from its base, undone like any other word.

use std::sync::Arc;

use crate::bits::{bit_bounds, is_single, pack_pair};
use crate::domain::{Domain, DomainView};
use crate::trail::Trail;

/// Where one variable's words live and what value bit 0 stands for.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Layout {
    pub(crate) start: u32,
    pub(crate) len: u32,
    pub(crate) base: i32,
    /// The two words are the bounds `lo - base` and `hi - base` (empty when `lo > hi`),
    /// not a bitset.
    pub(crate) wide: bool,
}

/// Domains of all variables, with undo.
#[derive(Clone, Debug)]
pub(crate) struct Store {
    words: Vec<u64>,
    initial: Vec<u64>,
    /// Shared by every store of one compiled model (the layout depends only on the
    /// domains' shapes, which fixing values does not change).
    layout: Arc<[Layout]>,
    trail: Trail,
    /// Every variable has one word and all share one base.
    uniform: bool,
}

impl Store {
    /// A store holding `domains`, at level 0, with its own layout (the compiler's store;
    /// solvers share the compiled layout through [`Store::with_layout`]).
    pub(crate) fn new(domains: &[Domain]) -> Self {
        let mut start = 0;
        let layout: Arc<[Layout]> = domains
            .iter()
            .map(|d| {
                let l = Layout {
                    start,
                    len: d.store_len() as u32,
                    base: d.base(),
                    wide: d.is_wide(),
                };
                start += l.len;
                l
            })
            .collect();
        Self::with_layout(domains, layout, 0)
    }

    /// A store holding `domains`, of the shapes `layout` describes (the layout of an
    /// earlier store of the same model, shared rather than rebuilt), followed by `aux`
    /// words that belong to no variable (propagators' own state, undone with the domains;
    /// initially 0), at level 0.
    pub(crate) fn with_layout(domains: &[Domain], layout: Arc<[Layout]>, aux: usize) -> Self {
        debug_assert!(domains.len() == layout.len());
        let total = layout.last().map_or(0, |l| (l.start + l.len) as usize) + aux;
        let mut words = Vec::with_capacity(total);
        for (d, l) in domains.iter().zip(layout.iter()) {
            debug_assert!(d.store_len() == l.len as usize && d.base() == l.base);
            // Most domains are one word: a push, where `extend_from_slice` calls `memcpy`.
            match d.words() {
                &[w] => words.push(w),
                [] => words.extend_from_slice(&d.store_words()),
                several => words.extend_from_slice(several),
            }
        }
        words.resize(total, 0);
        let uniform = layout
            .iter()
            .all(|l| l.len == 1 && l.base == layout[0].base);
        Store {
            uniform,
            trail: Trail::new(words.len()),
            initial: words.clone(),
            words,
            layout,
        }
    }

    /// The layout, to share with later stores of the same model.
    pub(crate) fn shared_layout(&self) -> Arc<[Layout]> {
        Arc::clone(&self.layout)
    }

    /// Back to the initial domains, level 0.
    pub(crate) fn reset(&mut self) {
        self.words.copy_from_slice(&self.initial);
        self.trail.clear();
    }

    /// The number of words, variables' and auxiliary.
    pub(crate) fn len(&self) -> usize {
        self.words.len()
    }

    /// True when every variable has a one-word domain and all share one base, so that a
    /// bit means the same value in every domain.
    pub(crate) fn is_uniform(&self) -> bool {
        self.uniform
    }

    /// The number of variables.
    pub(crate) fn num_vars(&self) -> usize {
        self.layout.len()
    }

    /// The layout of `var`.
    #[inline]
    pub(crate) fn layout(&self, var: usize) -> Layout {
        self.layout[var]
    }

    /// Every variable's one word, in variable order, when the store
    /// [`is_uniform`](Store::is_uniform).
    #[inline]
    pub(crate) fn uniform_words(&self) -> Option<&[u64]> {
        self.uniform.then_some(self.words.as_slice())
    }

    /// True when some variable has no value left.
    pub(crate) fn any_empty(&self) -> bool {
        match self.uniform_words() {
            // One word per variable: a search for a zero word.
            Some(words) => words[..self.num_vars()].contains(&0),
            None => (0..self.num_vars()).any(|v| self.size(v) == 0),
        }
    }

    /// True when `var` is kept as bounds rather than a bitset.
    #[inline]
    pub(crate) fn is_wide(&self, var: usize) -> bool {
        self.layout[var].wide
    }

    /// The bounds of a wide `var` as offsets from its base, `(lo, hi)`; empty when
    /// `lo > hi`.
    #[inline]
    pub(crate) fn wide_offsets(&self, var: usize) -> (u64, u64) {
        let at = self.layout[var].start as usize;
        (self.words[at], self.words[at + 1])
    }

    /// The words of `var` (for a wide variable, its two bound offsets).
    #[inline]
    pub(crate) fn words(&self, var: usize) -> &[u64] {
        let l = self.layout[var];
        &self.words[l.start as usize..(l.start + l.len) as usize]
    }

    /// The first word of `var` (its whole domain when it fits one word).
    #[inline]
    pub(crate) fn first_word(&self, var: usize) -> u64 {
        self.words[self.layout[var].start as usize]
    }

    /// The number of values left in `var`.
    #[inline]
    pub(crate) fn size(&self, var: usize) -> u32 {
        let l = self.layout[var];
        if l.len == 1 {
            self.words[l.start as usize].count_ones()
        } else {
            self.size_of_several_words(var)
        }
    }

    /// [`Store::size`] of a domain of several words, bitset or wide.
    #[inline(never)]
    fn size_of_several_words(&self, var: usize) -> u32 {
        let l = self.layout[var];
        if l.wide {
            let (lo, hi) = self.wide_offsets(var);
            // Sizes saturate below u32::MAX, which the variable orders use as "no
            // variable yet": only comparisons read the size of a wide domain.
            if lo > hi {
                0
            } else {
                (hi - lo + 1).min(u64::from(u32::MAX - 1)) as u32
            }
        } else {
            self.words(var).iter().map(|w| w.count_ones()).sum()
        }
    }

    /// The value of `var` if it has exactly one left.
    #[inline]
    pub(crate) fn fixed_value(&self, var: usize) -> Option<i32> {
        let l = self.layout[var];
        if l.len == 1 {
            let word = self.words[l.start as usize];
            is_single(word).then(|| value_at(l.base, word.trailing_zeros() as usize))
        } else if self.is_fixed(var) {
            self.min(var)
        } else {
            None
        }
    }

    /// True when `var` has exactly one value left.
    #[inline]
    pub(crate) fn is_fixed(&self, var: usize) -> bool {
        let l = self.layout[var];
        if l.wide {
            let (lo, hi) = self.wide_offsets(var);
            lo == hi
        } else {
            self.size(var) == 1
        }
    }

    /// [`Store::bounds`] of the variable laid out at `l`, packed in one word
    /// ([`pack_pair`]), inline for domains of one or two words and intervals: for a
    /// caller that keeps its variables' layouts and reads bounds in its inner loop (a
    /// sum). One word comes back in registers, where a pair of `i32`s behind an
    /// `Option` comes back through memory.
    #[inline(always)]
    pub(crate) fn packed_bounds_at(&self, var: usize, l: Layout) -> Option<u64> {
        let at = l.start as usize;
        let pair = |lo: usize, hi: usize| pack_pair(value_at(l.base, lo), value_at(l.base, hi));
        if l.wide {
            let (lo, hi) = (self.words[at], self.words[at + 1]);
            return (lo <= hi).then(|| pair(lo as usize, hi as usize));
        }
        match l.len {
            1 => bit_bounds(&self.words[at..at + 1]).map(|(lo, hi)| pair(lo, hi)),
            2 => bit_bounds(&self.words[at..at + 2]).map(|(lo, hi)| pair(lo, hi)),
            _ => self.packed_bounds(var),
        }
    }

    /// [`Store::bounds`] packed in one word ([`pack_pair`]).
    #[inline(never)]
    fn packed_bounds(&self, var: usize) -> Option<u64> {
        self.bounds(var).map(|(lo, hi)| pack_pair(lo, hi))
    }

    /// The smallest and largest values of `var`; `None` when empty.
    #[inline]
    pub(crate) fn bounds(&self, var: usize) -> Option<(i32, i32)> {
        let l = self.layout[var];
        if l.wide {
            let (lo, hi) = self.wide_offsets(var);
            (lo <= hi).then(|| (value_at(l.base, lo as usize), value_at(l.base, hi as usize)))
        } else {
            bit_bounds(self.words(var)).map(|(lo, hi)| (value_at(l.base, lo), value_at(l.base, hi)))
        }
    }

    /// The value of `var` when it has exactly one (its smallest when it has several; no
    /// meaning, and no panic, when it has none): with one-word domains of one base, the
    /// base plus the bit.
    #[inline]
    pub(crate) fn single_value(&self, var: usize) -> i32 {
        self.single_values()(var)
    }

    /// [`Store::single_value`] for many variables: the store's layout looked at once,
    /// then each variable read on its own.
    #[inline]
    pub(crate) fn single_values(&self) -> impl Fn(usize) -> i32 + '_ {
        let uniform = match (self.uniform_words(), self.layout.first()) {
            (Some(words), Some(first)) => Some((&words[..self.num_vars()], first.base)),
            _ => None,
        };
        move |var| match uniform {
            Some((words, base)) => value_at(base, words[var].trailing_zeros() as usize),
            None => self.min(var).unwrap_or_default(),
        }
    }

    /// The current domain of `var`, read in place.
    pub(crate) fn view(&self, var: usize) -> DomainView<'_> {
        let l = self.layout[var];
        if l.wide {
            let (lo, hi) = self.wide_offsets(var);
            let base = i64::from(l.base);
            DomainView::interval(base + lo as i64, base + hi as i64, &[])
        } else {
            DomainView::bits(l.base, self.words(var))
        }
    }

    /// The smallest value of `var` (its value once fixed); `None` when empty.
    pub(crate) fn min(&self, var: usize) -> Option<i32> {
        let l = self.layout[var];
        if l.wide {
            let (lo, hi) = self.wide_offsets(var);
            return (lo <= hi).then(|| value_at(l.base, lo as usize));
        }
        let words = self.words(var);
        if let [w] = words {
            // One word: no loop.
            return (*w != 0).then(|| value_at(l.base, w.trailing_zeros() as usize));
        }
        words
            .iter()
            .enumerate()
            .find(|(_, &w)| w != 0)
            .map(|(k, &w)| value_at(l.base, k * 64 + w.trailing_zeros() as usize))
    }

    /// The largest value of `var`; `None` when empty.
    pub(crate) fn max(&self, var: usize) -> Option<i32> {
        let l = self.layout[var];
        if l.wide {
            let (lo, hi) = self.wide_offsets(var);
            return (lo <= hi).then(|| value_at(l.base, hi as usize));
        }
        let words = self.words(var);
        if let [w] = words {
            return (*w != 0).then(|| value_at(l.base, 63 - w.leading_zeros() as usize));
        }
        words
            .iter()
            .enumerate()
            .rev()
            .find(|(_, &w)| w != 0)
            .map(|(k, &w)| value_at(l.base, k * 64 + 63 - w.leading_zeros() as usize))
    }

    /// The value of every variable once all are fixed, in variable order.
    pub(crate) fn values(&self) -> Vec<i32> {
        (0..self.num_vars()).map(self.single_values()).collect()
    }

    /// The word index inside `var` and the bit mask of `value`, if it lies in the bitset
    /// (never for a wide variable).
    #[inline]
    pub(crate) fn bit_of(&self, var: usize, value: i64) -> Option<(usize, u64)> {
        let l = self.layout[var];
        if l.wide {
            return None;
        }
        let offset = value - i64::from(l.base);
        if offset < 0 || offset >= 64 * i64::from(l.len) {
            return None;
        }
        Some(((offset / 64) as usize, 1u64 << (offset % 64)))
    }

    /// True when `value` is in the current domain of `var`.
    #[inline]
    pub(crate) fn contains(&self, var: usize, value: i64) -> bool {
        let l = self.layout[var];
        if l.wide {
            let (lo, hi) = self.wide_offsets(var);
            let offset = value - i64::from(l.base);
            offset >= 0 && (lo..=hi).contains(&(offset as u64))
        } else {
            self.bit_of(var, value)
                .is_some_and(|(k, bit)| self.words(var)[k] & bit != 0)
        }
    }

    /// The `len` words from flat `index` on.
    #[inline]
    pub(crate) fn words_from(&self, index: usize, len: usize) -> &[u64] {
        &self.words[index..index + len]
    }

    /// The word at `index` of the flat array.
    #[inline]
    pub(crate) fn word_at(&self, index: usize) -> u64 {
        self.words[index]
    }

    /// Writes the word at `index` of the flat array, saving the old word on the trail.
    /// Returns the old word.
    #[inline]
    pub(crate) fn write_at(&mut self, index: usize, new: u64) -> u64 {
        replace(&mut self.words[index], &mut self.trail, index, new)
    }

    /// Writes `words[i]` at flat index `first + i` for every bit `i` set in `which`, as
    /// [`Store::write_at`] does. The other words of `words` must equal the store's.
    #[inline]
    pub(crate) fn write_changed(&mut self, first: usize, words: &[u64], which: &[u64]) {
        if !self.saves_writes() {
            // One copy of them all, where visiting only the changed words mispredicts
            // (which of a given's peers still held its value depends on the puzzle).
            self.write_unsaved(first, words);
            return;
        }
        let target = &mut self.words[first..first + words.len()];
        for (k, &bits) in which.iter().enumerate() {
            let mut bits = bits;
            while bits != 0 {
                let i = k * 64 + bits.trailing_zeros() as usize;
                bits &= bits - 1;
                replace(&mut target[i], &mut self.trail, first + i, words[i]);
            }
        }
    }

    /// Writes `words` (at most 64) from flat index `first` on, as [`Store::write_at`]
    /// would each one that differs from the store's: where writes need no saving, one
    /// copy of them all; else the differing words only, found without a branch per word
    /// (which words a propagator changed is a coin toss for the predictor).
    #[inline]
    pub(crate) fn write_differing(&mut self, first: usize, words: &[u64]) {
        debug_assert!(words.len() <= 64, "write_differing takes at most 64 words");
        if !self.saves_writes() {
            self.write_unsaved(first, words);
            return;
        }
        let differing = words
            .iter()
            .zip(self.words_from(first, words.len()))
            .enumerate()
            .fold(0u64, |acc, (j, (new, old))| {
                acc | u64::from(new != old) << j
            });
        self.write_changed(first, words, &[differing]);
    }

    /// Writes every word of `words` from flat index `first` on, where writes need no
    /// saving (see [`Store::saves_writes`]): one copy does it.
    #[inline]
    pub(crate) fn write_unsaved(&mut self, first: usize, words: &[u64]) {
        debug_assert!(!self.saves_writes());
        self.words[first..first + words.len()].copy_from_slice(words);
    }

    /// Whether a write must save the old word for undo: not at level 0 (never undone),
    /// nor under a trail that copies every word at each level.
    #[inline]
    pub(crate) fn saves_writes(&self) -> bool {
        !(self.at_root() || self.trail.copies_levels())
    }

    /// True at level 0 (no search level open), where nothing is saved for undo.
    #[inline]
    pub(crate) fn at_root(&self) -> bool {
        self.trail.at_root()
    }

    /// Opens a search level.
    pub(crate) fn push_level(&mut self) {
        self.trail.push_level(&self.words);
    }

    /// Undoes every change made since the newest level was opened, and closes it.
    pub(crate) fn pop_level(&mut self) {
        self.trail.pop_level(&mut self.words);
    }
}

fn value_at(base: i32, bit: usize) -> i32 {
    (i64::from(base) + bit as i64) as i32
}

/// Writes `new` into `word` (flat index `index`), saving the old word on `trail` when it
/// changes; returns the old word.
#[inline(always)]
fn replace(word: &mut u64, trail: &mut Trail, index: usize, new: u64) -> u64 {
    let old = *word;
    if old != new {
        trail.save(index, old);
        *word = new;
    }
    old
}
