//! `z = xs[i]` over variables whose domains are one word each, on the store's words:
//! the same rules as [`ElementVar`](super::element_var::ElementVar), where whether an
//! entry shares a value with `z` is one AND and the values `z` can take one OR per index
//! left (quasigroup models post these by the hundred).

use crate::bits::{is_single, set_bits};
use crate::propagate::{Conflict, Engine};
use crate::store::Store;

/// `xs`, then `i`, then `z`, all one-word bitsets.
#[derive(Clone, Debug)]
pub(crate) struct WordElement {
    vars: Vec<usize>,
    /// How far each entry's base lies above `z`'s: bit `b` of the entry is bit `b + shift`
    /// of `z`.
    shifts: Vec<i64>,
    /// The bits of `i` that stand for an index of the array.
    in_range: u64,
    /// The index that bit 0 of `i` stands for (`i`'s base).
    first: i64,
}

impl WordElement {
    /// The element constraint `z = xs[i]` (0-based) on words, if the domains allow it
    /// (else `None`: the general propagator takes it).
    pub(crate) fn new(store: &Store, xs: &[usize], i: usize, z: usize) -> Option<Self> {
        let one_word = |v: usize| {
            let l = store.layout(v);
            (!l.wide && l.len == 1).then_some(l.base)
        };
        let base = i64::from(one_word(z)?);
        let shifts = xs
            .iter()
            .map(|&x| one_word(x).map(|b| i64::from(b) - base))
            .collect::<Option<Vec<i64>>>()?;
        let first = i64::from(one_word(i)?);
        let in_range = (0..64u32)
            .filter(|&b| (0..xs.len() as i64).contains(&(first + i64::from(b))))
            .fold(0u64, |m, b| m | 1 << b);
        Some(WordElement {
            vars: xs.iter().copied().chain([i, z]).collect(),
            shifts,
            in_range,
            first,
        })
    }

    /// `xs`, then `i`, then `z`.
    pub(crate) fn vars(&self) -> &[usize] {
        &self.vars
    }

    /// The position in `xs` of the entry that bit `bit` of `i` points at.
    fn entry(&self, bit: usize) -> usize {
        (self.first + bit as i64) as usize
    }

    /// Entry `k`'s domain as values of `z`'s word (values `z`'s word cannot hold dropped).
    fn in_z(&self, e: &Engine, k: usize) -> u64 {
        shift(e.store.first_word(self.vars[k]), self.shifts[k])
    }

    pub(crate) fn propagate(&self, e: &mut Engine) -> Result<(), Conflict> {
        let n = self.vars.len() - 2;
        let (i, z) = (self.vars[n], self.vars[n + 1]);
        // Indices out of range, or whose entry shares no value with `z`, leave `i`.
        let zw = e.store.first_word(z);
        let mut keep = e.store.first_word(i) & self.in_range;
        for bit in set_bits(keep) {
            if self.in_z(e, self.entry(bit)) & zw == 0 {
                keep &= !(1 << bit);
            }
        }
        e.set_one_word(i, keep)?;
        if is_single(keep) {
            // `z` and the one entry left keep their common values.
            let k = self.entry(keep.trailing_zeros() as usize);
            let common = self.in_z(e, k) & e.store.first_word(z);
            e.set_one_word(z, common)?;
            let x = self.vars[k];
            return e.set_one_word(x, e.store.first_word(x) & shift(common, -self.shifts[k]));
        }
        // `z` keeps the values of the entries `i` can still point at.
        let union = set_bits(keep).fold(0, |u, bit| u | self.in_z(e, self.entry(bit)));
        e.set_one_word(z, zw & union)
    }
}

/// `word` moved up by `by` bits (down for a negative `by`), bits moved out of the word
/// dropped.
fn shift(word: u64, by: i64) -> u64 {
    match by {
        0..=63 => word << by,
        -63..=-1 => word >> -by,
        _ => 0,
    }
}
