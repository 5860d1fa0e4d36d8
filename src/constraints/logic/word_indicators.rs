//! The indicators of a variable whose domain is one word: `b[k] ⇔ (x = v[k])` (or `⇒`),
//! propagated on the store's words. This is the form MiniZinc's channels take (langford's
//! `(Pos[i] = p) ⇔ (Num[p] = i)` is two sets of indicators sharing their Booleans), where
//! a removal from `x` should cost the links of the removed value, not a pass over all of
//! them. The propagator keeps in a store word of its own the values of `x` whose removal
//! it has already passed on, so that a run finds the newly removed ones with two word
//! operations, and undo restores that word with the domains.

use crate::bits::{is_single, set_bits, take_first};
use crate::propagate::{Conflict, Engine};
use crate::store::Store;

use super::Reification;

/// `x`, then the indicators, linked to the bits of `x`'s one word.
#[derive(Clone, Debug)]
pub(crate) struct WordIndicators {
    /// `x`, then each link's indicator.
    vars: Vec<usize>,
    /// Each link's value and whether it is a full reification (else `b ⇒ x = v`).
    links: Vec<(i64, bool)>,
    /// The links of each bit of `x`'s word, as compressed rows (65 starts).
    bit_start: Vec<u32>,
    bit_links: Vec<u32>,
    /// The bits that have links.
    linked: u64,
    /// The store word holding the linked bits already seen removed from `x`.
    seen: u32,
}

impl WordIndicators {
    /// The indicators `(b, value, kind)` of `x`, if `x` has a one-word bitset domain and
    /// every value lies within that word's reach (else `None`: the general
    /// [`Indicators`](super::Indicators) propagator takes them). `seen` is the index of the
    /// store word it may keep for itself.
    pub(crate) fn new(
        store: &Store,
        x: usize,
        links: &[(usize, i32, Reification)],
        seen: u32,
    ) -> Option<Self> {
        let layout = store.layout(x);
        if layout.wide || layout.len != 1 {
            return None;
        }
        let offsets: Vec<usize> = links
            .iter()
            .map(|&(_, value, _)| {
                let offset = i64::from(value) - i64::from(layout.base);
                (0..64).contains(&offset).then_some(offset as usize)
            })
            .collect::<Option<_>>()?;
        let mut bit_start = vec![0u32; 65];
        for &o in &offsets {
            bit_start[o + 1] += 1;
        }
        for b in 0..64 {
            bit_start[b + 1] += bit_start[b];
        }
        let mut next = bit_start.clone();
        let mut bit_links = vec![0u32; links.len()];
        for (k, &o) in offsets.iter().enumerate() {
            bit_links[next[o] as usize] = k as u32;
            next[o] += 1;
        }
        Some(WordIndicators {
            vars: std::iter::once(x)
                .chain(links.iter().map(|l| l.0))
                .collect(),
            links: links
                .iter()
                .map(|&(_, v, kind)| (i64::from(v), kind == Reification::Full))
                .collect(),
            bit_start,
            bit_links,
            linked: offsets.iter().fold(0, |m, &o| m | 1 << o),
            seen,
        })
    }

    /// `x`, then the indicators.
    pub(crate) fn vars(&self) -> &[usize] {
        &self.vars
    }

    /// One word of its own: the linked values seen removed.
    pub(crate) fn aux_words(&self) -> usize {
        1
    }

    /// Words of scratch: the bitset of its variables changed since its last run.
    pub(crate) fn scratch_words(&self) -> usize {
        self.vars.len().div_ceil(64)
    }

    pub(crate) fn propagate(&self, e: &mut Engine, scratch: &mut [u64]) -> Result<(), Conflict> {
        let x = self.vars[0];
        let pending = &mut scratch[..self.scratch_words()];
        e.take_changes(pending);
        pending[0] &= !1;
        // Indicators fixed since the last run act on `x`.
        while let Some(p) = take_first(pending) {
            let (value, full) = self.links[p - 1];
            match e.store.fixed_value(self.vars[p]) {
                Some(1) => e.assign(x, value)?,
                Some(_) if full => e.remove(x, value)?,
                _ => {}
            }
        }
        // Then the values `x` lost since then settle their indicators.
        let word = e.store.first_word(x);
        let seen = e.store.word_at(self.seen as usize);
        let gone = self.linked & !word & !seen;
        if gone != 0 {
            e.store.write_at(self.seen as usize, seen | gone);
            for bit in set_bits(gone) {
                for &k in self.links_of(bit) {
                    let b = self.vars[k as usize + 1];
                    if e.store.fixed_value(b) != Some(0) {
                        e.assign(b, 0)?;
                    }
                }
            }
        }
        if is_single(word) && word & self.linked != 0 {
            for &k in self.links_of(word.trailing_zeros() as usize) {
                let b = self.vars[k as usize + 1];
                if self.links[k as usize].1 && e.store.fixed_value(b) != Some(1) {
                    e.assign(b, 1)?;
                }
            }
        }
        Ok(())
    }

    fn links_of(&self, bit: usize) -> &[u32] {
        &self.bit_links[self.bit_start[bit] as usize..self.bit_start[bit + 1] as usize]
    }
}
