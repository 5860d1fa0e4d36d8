//! Small bitset helpers of a run, written to avoid loops and branches on one-word sets.

use super::SMALL;
use crate::constraints::is_single;

/// The first [`SMALL`] working masks as an array: a cell index reduced modulo its length
/// (the identity for the cells of a family that small) needs no bounds check, where a
/// slice index checks every load.
#[inline(always)]
pub(super) fn small(masks: &[u64]) -> &[u64; SMALL] {
    // The working masks always span at least SMALL words (`Family::span`).
    debug_assert!(masks.len() >= SMALL, "the working masks span SMALL words");
    match masks.first_chunk() {
        Some(array) => array,
        None => &[0; SMALL],
    }
}

/// The masks (at most 64) with one value, as a bitset, and whether any mask is empty;
/// without a branch per mask.
pub(super) fn singles_among(masks: &[u64]) -> (u64, bool) {
    masks
        .iter()
        .enumerate()
        .fold((0, false), |(singles, empty), (b, &m)| {
            (singles | u64::from(is_single(m)) << b, empty | (m == 0))
        })
}

/// Zeroes a scratch bitset. Most are one word or none, where a call to `memset` (what
/// `fill(0)` becomes for a slice of unknown length) costs more than the store.
#[inline(always)]
pub(super) fn clear(words: &mut [u64]) {
    match words {
        [] => {}
        [w] => *w = 0,
        _ => words.fill(0),
    }
}

/// The lowest set bit of a bitset, cleared. A one-word bitset (at most 64 groups: every
/// model here but large Latin squares) is tested first, without a loop over words.
#[inline]
pub(super) fn take_first(bits: &mut [u64]) -> Option<usize> {
    if let [w] = bits {
        let first = (*w != 0).then(|| w.trailing_zeros() as usize);
        *w &= w.wrapping_sub(1);
        return first;
    }
    let (k, w) = bits.iter_mut().enumerate().find(|(_, w)| **w != 0)?;
    let first = k * 64 + w.trailing_zeros() as usize;
    *w &= *w - 1;
    Some(first)
}
