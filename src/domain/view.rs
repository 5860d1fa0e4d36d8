//! Reading a domain in place: [`DomainView`] and its iterator [`Values`].

/// A read-only view of a domain (see [`Solver::domain`](crate::Solver::domain)): the values
/// still allowed, read in place, without a copy.
///
/// A bitset domain is read bit by bit; a wide domain (see
/// [`MAX_BITSET_SPAN`](crate::domain::MAX_BITSET_SPAN)) is an interval, with the values a
/// [`Domain`](crate::Domain) excludes from it (holes) or the list of values it allows.
#[derive(Clone, Copy, Debug)]
pub struct DomainView<'a> {
    repr: ViewRepr<'a>,
}

#[derive(Clone, Copy, Debug)]
enum ViewRepr<'a> {
    /// Bit `i` of `words` is the value `base + i`.
    Bits { base: i32, words: &'a [u64] },
    /// `lo..=hi` without `holes` (sorted, strictly between the bounds); empty when `lo > hi`.
    Interval { lo: i64, hi: i64, holes: &'a [i32] },
    /// Exactly these values, sorted.
    Set(&'a [i32]),
}

impl<'a> DomainView<'a> {
    pub(crate) fn bits(base: i32, words: &'a [u64]) -> Self {
        DomainView {
            repr: ViewRepr::Bits { base, words },
        }
    }

    pub(crate) fn interval(lo: i64, hi: i64, holes: &'a [i32]) -> Self {
        DomainView {
            repr: ViewRepr::Interval { lo, hi, holes },
        }
    }

    pub(crate) fn set(values: &'a [i32]) -> Self {
        DomainView {
            repr: ViewRepr::Set(values),
        }
    }

    /// The number of values left.
    pub fn len(&self) -> usize {
        match self.repr {
            ViewRepr::Bits { words, .. } => words.iter().map(|w| w.count_ones() as usize).sum(),
            ViewRepr::Interval { lo, hi, holes } if lo <= hi => {
                usize::try_from(hi - lo + 1).map_or(usize::MAX, |n| n - holes.len())
            }
            ViewRepr::Interval { .. } => 0,
            ViewRepr::Set(values) => values.len(),
        }
    }

    /// True when no value is left.
    pub fn is_empty(&self) -> bool {
        match self.repr {
            ViewRepr::Bits { words, .. } => words.iter().all(|&w| w == 0),
            ViewRepr::Interval { lo, hi, .. } => lo > hi,
            ViewRepr::Set(values) => values.is_empty(),
        }
    }

    /// True when `value` is still allowed.
    pub fn contains(&self, value: i32) -> bool {
        match self.repr {
            ViewRepr::Bits { base, words } => {
                let offset = i64::from(value) - i64::from(base);
                (0..(words.len() * 64) as i64).contains(&offset)
                    && words[offset as usize / 64] >> (offset % 64) & 1 == 1
            }
            ViewRepr::Interval { lo, hi, holes } => {
                (lo..=hi).contains(&i64::from(value)) && holes.binary_search(&value).is_err()
            }
            ViewRepr::Set(values) => values.binary_search(&value).is_ok(),
        }
    }

    /// The smallest value left, or `None` when empty.
    pub fn min(&self) -> Option<i32> {
        if let ViewRepr::Bits { base, words } = self.repr {
            // The first nonzero word's lowest bit, without an iterator.
            let (k, &w) = words.iter().enumerate().find(|&(_, &w)| w != 0)?;
            return Some(value_at(base, k * 64 + w.trailing_zeros() as usize));
        }
        self.iter().next()
    }

    /// The largest value left, or `None` when empty.
    pub fn max(&self) -> Option<i32> {
        if let ViewRepr::Bits { base, words } = self.repr {
            // The last nonzero word's highest bit, without an iterator.
            let (k, &w) = words.iter().enumerate().rev().find(|&(_, &w)| w != 0)?;
            return Some(value_at(base, k * 64 + 63 - w.leading_zeros() as usize));
        }
        self.iter().next_back()
    }

    /// The values left, ascending.
    pub fn iter(&self) -> Values<'a> {
        let repr = match self.repr {
            ViewRepr::Bits { base, words } => ValuesRepr::Bits {
                base,
                words,
                front: 0,
                back: words.len() * 64,
            },
            ViewRepr::Interval { lo, hi, holes } => ValuesRepr::Interval {
                front: lo,
                back: hi,
                holes,
            },
            ViewRepr::Set(values) => ValuesRepr::Set(values.iter()),
        };
        Values { repr }
    }
}

/// Iterator over the values of a domain, ascending (or descending from the back).
#[derive(Clone, Debug)]
pub struct Values<'a> {
    repr: ValuesRepr<'a>,
}

#[derive(Clone, Debug)]
enum ValuesRepr<'a> {
    Bits {
        base: i32,
        words: &'a [u64],
        front: usize,
        back: usize,
    },
    /// The values of `front..=back` not in `holes` (sorted).
    Interval {
        front: i64,
        back: i64,
        holes: &'a [i32],
    },
    Set(std::slice::Iter<'a, i32>),
}

fn value_at(base: i32, bit: usize) -> i32 {
    (i64::from(base) + bit as i64) as i32
}

impl Iterator for Values<'_> {
    type Item = i32;

    fn next(&mut self) -> Option<i32> {
        match &mut self.repr {
            ValuesRepr::Bits {
                base,
                words,
                front,
                back,
            } => {
                // A word at a time: the next set bit at `front` or above.
                while *front < *back {
                    let k = *front / 64;
                    let word = words.get(k).copied().unwrap_or(0) & (u64::MAX << (*front % 64));
                    if word == 0 {
                        *front = (k + 1) * 64;
                        continue;
                    }
                    let bit = k * 64 + word.trailing_zeros() as usize;
                    if bit >= *back {
                        *front = *back;
                        return None;
                    }
                    *front = bit + 1;
                    return Some(value_at(*base, bit));
                }
                None
            }
            ValuesRepr::Interval { front, back, holes } => {
                while *front <= *back {
                    let value = *front as i32;
                    *front += 1;
                    if holes.binary_search(&value).is_err() {
                        return Some(value);
                    }
                }
                None
            }
            ValuesRepr::Set(values) => values.next().copied(),
        }
    }
}

impl DoubleEndedIterator for Values<'_> {
    fn next_back(&mut self) -> Option<i32> {
        match &mut self.repr {
            ValuesRepr::Bits {
                base,
                words,
                front,
                back,
            } => {
                // A word at a time: the last set bit below `back`.
                while *back > *front {
                    let last = *back - 1;
                    let k = last / 64;
                    let word = words.get(k).copied().unwrap_or(0) & (u64::MAX >> (63 - last % 64));
                    if word == 0 {
                        *back = k * 64;
                        continue;
                    }
                    let bit = k * 64 + 63 - word.leading_zeros() as usize;
                    if bit < *front {
                        *back = *front;
                        return None;
                    }
                    *back = bit;
                    return Some(value_at(*base, bit));
                }
                None
            }
            ValuesRepr::Interval { front, back, holes } => {
                while *back >= *front {
                    let value = *back as i32;
                    *back -= 1;
                    if holes.binary_search(&value).is_err() {
                        return Some(value);
                    }
                }
                None
            }
            ValuesRepr::Set(values) => values.next_back().copied(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn values_from_both_ends_match_a_scan_of_the_bits() {
        let mut random = crate::xorshift::XorShift(0x1234_5678_9ABC_DEF1);
        for round in 0..500 {
            let len = 1 + round % 3;
            let words: Vec<u64> = (0..len)
                .map(|k| match (round + k) % 4 {
                    0 => 0,
                    1 => 1 << (random.next_u64() % 64),
                    _ => random.next_u64() & random.next_u64(),
                })
                .collect();
            let base = (round as i32 % 7) - 3;
            let expected: Vec<i32> = (0..len * 64)
                .filter(|&b| words[b / 64] >> (b % 64) & 1 == 1)
                .map(|b| base + b as i32)
                .collect();
            let view = DomainView::bits(base, &words);
            assert_eq!(view.iter().collect::<Vec<_>>(), expected);
            assert_eq!(view.min(), expected.first().copied());
            assert_eq!(view.max(), expected.last().copied());
            let mut backwards: Vec<i32> = view.iter().rev().collect();
            backwards.reverse();
            assert_eq!(backwards, expected);
            // Alternating ends meet without losing or repeating a value.
            let mut it = view.iter();
            let (mut front, mut back) = (Vec::new(), Vec::new());
            while let Some(v) = it.next() {
                front.push(v);
                match it.next_back() {
                    Some(v) => back.push(v),
                    None => break,
                }
            }
            back.reverse();
            front.extend(back);
            assert_eq!(front, expected);
        }
    }
}
