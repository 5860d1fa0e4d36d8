//! The initial domain of a variable: a finite set of integers stored as a bitset.
//!
//! A domain is a base value plus a bitset: bit `i` set means value `base + i` is allowed.
//! Domains of at most 64 consecutive values fit in one machine word, which is where the
//! engine spends nearly all of its time; wider domains use several words.

use std::ops::RangeInclusive;

use smallvec::SmallVec;

use crate::error::ModelError;

/// The widest span (largest value minus smallest value, plus one) a domain may cover.
///
/// Beyond this the bitset would waste memory on values nobody uses; such models want a
/// different representation than this engine offers.
pub const MAX_DOMAIN_SPAN: u64 = 1 << 20;

/// A finite set of allowed integer values for one variable.
///
/// ```
/// use bitcsp::Domain;
/// let d = Domain::range(-2..=2)?;
/// assert_eq!(d.len(), 5);
/// assert_eq!(d.min(), Some(-2));
/// let e = Domain::from_values(&[7, 3, 3, 100])?;
/// assert_eq!(e.iter().collect::<Vec<_>>(), vec![3, 7, 100]);
/// # Ok::<(), bitcsp::ModelError>(())
/// ```
#[derive(Debug, PartialEq, Eq, Hash)]
pub struct Domain {
    base: i32,
    words: SmallVec<[u64; 1]>,
}

impl Clone for Domain {
    /// A copy of the words as one slice: the derived clone goes word by word through
    /// `SmallVec`'s generic path, which was most of the cost of cloning a Sudoku template
    /// (81 domains) for every puzzle. A one-word domain (the common case) is built from
    /// its word directly, without the `memcpy` call `from_slice` makes.
    fn clone(&self) -> Self {
        let words = match self.words.as_slice() {
            &[word] => SmallVec::from_buf([word]),
            several => SmallVec::from_slice(several),
        };
        Domain {
            base: self.base,
            words,
        }
    }
}

impl Domain {
    /// All integers of `range`.
    ///
    /// # Errors
    /// [`ModelError::EmptyDomain`] when the range is empty, [`ModelError::DomainTooLarge`] when
    /// it spans more than [`MAX_DOMAIN_SPAN`] values.
    pub fn range(range: RangeInclusive<i32>) -> Result<Self, ModelError> {
        let (lo, hi) = (*range.start(), *range.end());
        if lo > hi {
            return Err(ModelError::EmptyDomain);
        }
        let span = span_of(lo, hi)?;
        let mut words = zeroed_words(span);
        for (i, word) in words.iter_mut().enumerate() {
            let bits_left = span - 64 * i;
            *word = if bits_left >= 64 {
                u64::MAX
            } else {
                (1u64 << bits_left) - 1
            };
        }
        Ok(Domain { base: lo, words })
    }

    /// Exactly the given values (duplicates are ignored, order does not matter).
    ///
    /// # Errors
    /// [`ModelError::EmptyDomain`] when `values` is empty, [`ModelError::DomainTooLarge`] when
    /// the values span more than [`MAX_DOMAIN_SPAN`].
    pub fn from_values(values: &[i32]) -> Result<Self, ModelError> {
        let lo = values
            .iter()
            .copied()
            .min()
            .ok_or(ModelError::EmptyDomain)?;
        let hi = values
            .iter()
            .copied()
            .max()
            .ok_or(ModelError::EmptyDomain)?;
        let span = span_of(lo, hi)?;
        let mut domain = Domain {
            base: lo,
            words: zeroed_words(span),
        };
        for &v in values {
            let bit = (i64::from(v) - i64::from(lo)) as usize;
            domain.words[bit / 64] |= 1 << (bit % 64);
        }
        Ok(domain)
    }

    /// The domain as a read-only view, which does the reading.
    pub fn view(&self) -> DomainView<'_> {
        DomainView::new(self.base, &self.words)
    }

    /// The number of values in the domain.
    pub fn len(&self) -> usize {
        self.view().len()
    }

    /// True when no value is left (the model is then unsatisfiable).
    pub fn is_empty(&self) -> bool {
        self.view().is_empty()
    }

    /// True when `value` is allowed.
    pub fn contains(&self, value: i32) -> bool {
        self.view().contains(value)
    }

    /// The smallest value, or `None` when empty.
    pub fn min(&self) -> Option<i32> {
        self.view().min()
    }

    /// The largest value, or `None` when empty.
    pub fn max(&self) -> Option<i32> {
        self.view().max()
    }

    /// The values in ascending order.
    pub fn iter(&self) -> Values<'_> {
        self.view().iter()
    }

    /// Removes `value`; does nothing when it is not in the domain.
    pub fn remove(&mut self, value: i32) {
        if let Some(bit) = self.bit_of(value) {
            self.words[bit / 64] &= !(1 << (bit % 64));
        }
    }

    /// Keeps only `value` (the domain becomes empty when `value` was not in it).
    pub fn restrict_to(&mut self, value: i32) {
        let keep = self.contains(value);
        self.words.iter_mut().for_each(|w| *w = 0);
        if let Some(bit) = self.bit_of(value).filter(|_| keep) {
            self.words[bit / 64] = 1 << (bit % 64);
        }
    }

    /// The value of bit 0.
    pub(crate) fn base(&self) -> i32 {
        self.base
    }

    /// The bitset words, least significant value first.
    pub(crate) fn words(&self) -> &[u64] {
        &self.words
    }

    fn bit_of(&self, value: i32) -> Option<usize> {
        let offset = i64::from(value) - i64::from(self.base);
        if offset < 0 || offset >= (self.words.len() * 64) as i64 {
            None
        } else {
            Some(offset as usize)
        }
    }
}

/// A read-only view of a variable's current domain (see [`Solver::domain`](crate::Solver::domain)):
/// the values still allowed, read in place, without a copy.
#[derive(Clone, Copy, Debug)]
pub struct DomainView<'a> {
    base: i32,
    words: &'a [u64],
}

impl<'a> DomainView<'a> {
    pub(crate) fn new(base: i32, words: &'a [u64]) -> Self {
        DomainView { base, words }
    }

    /// The number of values left.
    pub fn len(&self) -> usize {
        self.words.iter().map(|w| w.count_ones() as usize).sum()
    }

    /// True when no value is left.
    pub fn is_empty(&self) -> bool {
        self.words.iter().all(|&w| w == 0)
    }

    /// True when `value` is still allowed.
    pub fn contains(&self, value: i32) -> bool {
        let offset = i64::from(value) - i64::from(self.base);
        (0..(self.words.len() * 64) as i64).contains(&offset)
            && self.words[offset as usize / 64] >> (offset % 64) & 1 == 1
    }

    /// The smallest value left, or `None` when empty.
    pub fn min(&self) -> Option<i32> {
        self.iter().next()
    }

    /// The largest value left, or `None` when empty.
    pub fn max(&self) -> Option<i32> {
        self.iter().next_back()
    }

    /// The values left, ascending.
    pub fn iter(&self) -> Values<'a> {
        Values {
            base: self.base,
            words: self.words,
            front: 0,
            back: self.words.len() * 64,
        }
    }
}

/// Iterator over the values of a [`Domain`], ascending (or descending from the back).
#[derive(Clone, Debug)]
pub struct Values<'a> {
    base: i32,
    words: &'a [u64],
    front: usize,
    back: usize,
}

impl Values<'_> {
    fn is_set(&self, bit: usize) -> bool {
        self.words[bit / 64] >> (bit % 64) & 1 == 1
    }

    fn value_of(&self, bit: usize) -> i32 {
        (i64::from(self.base) + bit as i64) as i32
    }
}

impl Iterator for Values<'_> {
    type Item = i32;

    fn next(&mut self) -> Option<i32> {
        while self.front < self.back {
            let bit = self.front;
            self.front += 1;
            if self.is_set(bit) {
                return Some(self.value_of(bit));
            }
        }
        None
    }
}

impl DoubleEndedIterator for Values<'_> {
    fn next_back(&mut self) -> Option<i32> {
        while self.back > self.front {
            self.back -= 1;
            if self.is_set(self.back) {
                return Some(self.value_of(self.back));
            }
        }
        None
    }
}

impl<'a> IntoIterator for &'a Domain {
    type Item = i32;
    type IntoIter = Values<'a>;

    fn into_iter(self) -> Values<'a> {
        self.iter()
    }
}

fn span_of(lo: i32, hi: i32) -> Result<usize, ModelError> {
    let span = (i64::from(hi) - i64::from(lo) + 1) as u64;
    if span > MAX_DOMAIN_SPAN {
        return Err(ModelError::DomainTooLarge {
            span,
            max: MAX_DOMAIN_SPAN,
        });
    }
    Ok(span as usize)
}

fn zeroed_words(span: usize) -> SmallVec<[u64; 1]> {
    smallvec::smallvec![0; span.div_ceil(64)]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn range_of_sixty_four_values_fills_one_word() {
        let d = Domain::range(0..=63).unwrap();
        assert_eq!(d.words(), &[u64::MAX]);
        assert_eq!(d.len(), 64);
    }

    #[test]
    fn wide_range_spans_several_words_and_iterates_both_ways() {
        let d = Domain::range(-100..=99).unwrap();
        assert_eq!(d.words().len(), 4);
        assert_eq!(d.len(), 200);
        assert_eq!(d.min(), Some(-100));
        assert_eq!(d.max(), Some(99));
        assert_eq!(d.iter().rev().take(2).collect::<Vec<_>>(), vec![99, 98]);
    }

    #[test]
    fn empty_inputs_are_errors() {
        let (lo, hi) = (3, 2);
        assert_eq!(Domain::range(lo..=hi), Err(ModelError::EmptyDomain));
        assert_eq!(Domain::from_values(&[]), Err(ModelError::EmptyDomain));
    }

    #[test]
    fn absurd_span_is_an_error() {
        assert!(matches!(
            Domain::from_values(&[i32::MIN, i32::MAX]),
            Err(ModelError::DomainTooLarge { .. })
        ));
    }

    #[test]
    fn remove_and_restrict_change_membership() {
        let mut d = Domain::range(1..=9).unwrap();
        d.remove(5);
        d.remove(42);
        assert!(!d.contains(5));
        assert_eq!(d.len(), 8);
        d.restrict_to(7);
        assert_eq!(d.iter().collect::<Vec<_>>(), vec![7]);
        d.restrict_to(8);
        assert!(d.is_empty());
    }
}
