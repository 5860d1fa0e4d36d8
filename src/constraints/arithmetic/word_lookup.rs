//! `z = table[i]` over constants when `i` and `z` have one-word domains, on the store's
//! words: the same rule as [`Element`](super::element::Element), domain consistent, where
//! each bit of `i` stands for at most one bit of `z` (the table's entry at that index), so
//! that a run is one load and one OR per index left. MiniZinc writes many of these (a
//! `regular` constraint's transitions, as in a nonogram).

use crate::bits::set_bits;
use crate::propagate::{Conflict, Engine};
use crate::store::Store;

/// `z = table[i]` on words.
#[derive(Clone, Debug)]
pub(crate) struct WordLookup {
    /// `[i, z]`.
    vars: [usize; 2],
    /// For each bit of `i`, the bit of `z` its entry stands for; 0 where the bit is no
    /// index of the table, or the entry lies outside `z`'s word (no value of `z` matches).
    entries: Box<[u64; 64]>,
}

impl WordLookup {
    /// The element constraint `z = table[i]` (0-based) on words, if both domains are one
    /// word (else `None`: the general propagator takes it).
    pub(crate) fn new(store: &Store, table: &[i32], i: usize, z: usize) -> Option<Self> {
        let one_word = |v: usize| {
            let l = store.layout(v);
            (!l.wide && l.len == 1).then_some(i64::from(l.base))
        };
        let (first, base) = (one_word(i)?, one_word(z)?);
        let mut entries = Box::new([0u64; 64]);
        for (bit, entry) in entries.iter_mut().enumerate() {
            let value = usize::try_from(first + bit as i64)
                .ok()
                .and_then(|k| table.get(k));
            if let Some(&value) = value {
                let offset = i64::from(value) - base;
                if (0..64).contains(&offset) {
                    *entry = 1 << offset;
                }
            }
        }
        Some(WordLookup {
            vars: [i, z],
            entries,
        })
    }

    /// `[i, z]`.
    pub(crate) fn vars(&self) -> &[usize] {
        &self.vars
    }

    /// `i` keeps the indices whose entry `z` can take, `z` the entries some index left
    /// gives. One pass reaches the fixed point: every value `z` keeps is some kept
    /// index's entry.
    pub(crate) fn propagate(&self, e: &mut Engine) -> Result<(), Conflict> {
        let [i, z] = self.vars;
        let (indices, values) = (e.store.first_word(i), e.store.first_word(z));
        let (mut kept, mut given) = (0u64, 0u64);
        for bit in set_bits(indices) {
            let entry = self.entries[bit] & values;
            given |= entry;
            kept |= u64::from(entry != 0) << bit;
        }
        e.set_one_word(i, kept)?;
        e.set_one_word(z, given)
    }
}
