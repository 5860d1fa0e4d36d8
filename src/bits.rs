//! Small bitset helpers on machine words, shared by the store, the propagators, the search
//! and the models: written to avoid loops and branches on one-word sets, which are the
//! common case (a Sudoku cell's candidates, a group's cells, a family's groups).
//!
//! Domains live in the store's flat `u64` words, not in a general-purpose bitset type:
//! the propagators read and write them a word at a time (see docs/ARCHITECTURE.md).

/// True when the bitset `m` holds exactly one value.
#[inline]
pub(crate) fn is_single(m: u64) -> bool {
    m != 0 && m & (m - 1) == 0
}

/// The indices of the set bits of `w`, lowest first.
#[inline]
pub(crate) fn set_bits(mut w: u64) -> impl Iterator<Item = usize> {
    std::iter::from_fn(move || {
        let bit = (w != 0).then(|| w.trailing_zeros() as usize)?;
        w &= w - 1;
        Some(bit)
    })
}

/// The masks (at most 64) with one value, as a bitset, and whether any mask is empty;
/// without a branch per mask.
pub(crate) fn singles_among(masks: &[u64]) -> (u64, bool) {
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
pub(crate) fn clear(words: &mut [u64]) {
    match words {
        [] => {}
        [w] => *w = 0,
        _ => words.fill(0),
    }
}

/// The lowest set bit of a bitset, cleared. A one-word bitset is tested first, without a
/// loop over words.
#[inline]
pub(crate) fn take_first(bits: &mut [u64]) -> Option<usize> {
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

/// The lowest and highest set bits of a bitset; `None` when it is empty. One scan from
/// each end, with no loop for domains of one or two words.
#[inline]
pub(crate) fn bit_bounds(words: &[u64]) -> Option<(usize, usize)> {
    let low = |k: usize, w: u64| k * 64 + w.trailing_zeros() as usize;
    let high = |k: usize, w: u64| k * 64 + 63 - w.leading_zeros() as usize;
    match *words {
        [w] => (w != 0).then(|| (low(0, w), high(0, w))),
        [a, b] => match (a != 0, b != 0) {
            (true, true) => Some((low(0, a), high(1, b))),
            (true, false) => Some((low(0, a), high(0, a))),
            (false, true) => Some((low(1, b), high(1, b))),
            (false, false) => None,
        },
        _ => {
            let first = words.iter().position(|&w| w != 0)?;
            let last = words.iter().rposition(|&w| w != 0)?;
            Some((low(first, words[first]), high(last, words[last])))
        }
    }
}

/// The bits of word `k` of a bitset at positions `from..to` (clamped to the word).
#[inline(always)]
pub(crate) fn range_word(k: usize, from: usize, to: usize) -> u64 {
    let (a, b) = (
        from.saturating_sub(64 * k).min(64),
        to.saturating_sub(64 * k).min(64),
    );
    if a >= b {
        0
    } else {
        u64::MAX.checked_shl(a as u32).unwrap_or(0)
            & u64::MAX.checked_shr(64 - b as u32).unwrap_or(0)
    }
}

/// Two `i32`s (a variable's bounds) in one word, for a propagator's scratch space.
#[inline]
pub(crate) fn pack_pair(lo: i32, hi: i32) -> u64 {
    u64::from(lo as u32) << 32 | u64::from(hi as u32)
}

/// The pair [`pack_pair`] stored.
#[inline]
pub(crate) fn unpack_pair(word: u64) -> (i32, i32) {
    ((word >> 32) as u32 as i32, word as u32 as i32)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bits_are_listed_taken_and_counted_in_order() {
        assert_eq!(set_bits(0b1010_0001).collect::<Vec<_>>(), vec![0, 5, 7]);
        assert!(is_single(1 << 63) && !is_single(0) && !is_single(3));
        let mut words = [0u64, 1 << 3 | 1 << 9];
        assert_eq!(take_first(&mut words), Some(67));
        assert_eq!(take_first(&mut words), Some(73));
        assert_eq!(take_first(&mut words), None);
        assert_eq!(singles_among(&[1, 6, 0, 8]), (0b1001, true));
        clear(&mut words);
        assert_eq!(words, [0, 0]);
        for pair in [(i32::MIN, i32::MAX), (-1, 0), (7, -7)] {
            assert_eq!(unpack_pair(pack_pair(pair.0, pair.1)), pair);
        }
    }
}
