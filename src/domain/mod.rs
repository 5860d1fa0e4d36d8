//! The initial domain of a variable: a finite set of integers.
//!
//! A domain of at most [`MAX_BITSET_SPAN`] consecutive values is a base value plus a
//! bitset: bit `i` set means value `base + i` is allowed. Domains of at most 64 values fit
//! in one machine word, which is where the engine spends nearly all of its time. A wider
//! domain is *wide*: the solver keeps only its bounds (two words, whatever the span), and
//! the values a wide domain leaves out between its bounds (holes, or the list of values
//! it allows) are enforced at the bounds by a constraint the model posts for it.

use std::ops::RangeInclusive;

use smallvec::SmallVec;

use crate::error::ModelError;

mod view;

pub use view::{DomainView, Values};

/// The widest span (largest value minus smallest value, plus one) kept as a bitset:
/// eight words, one cache line. Wider domains are intervals in the solver.
pub const MAX_BITSET_SPAN: u64 = 512;

/// A finite set of allowed integer values for one variable.
///
/// ```
/// use bitcsp::Domain;
/// let d = Domain::range(-2..=2)?;
/// assert_eq!(d.len(), 5);
/// assert_eq!(d.min(), Some(-2));
/// let e = Domain::from_values(&[7, 3, 3, 100])?;
/// assert_eq!(e.iter().collect::<Vec<_>>(), vec![3, 7, 100]);
/// // Any i32 range: a wide domain costs the same whatever its span.
/// let wide = Domain::range(0..=1_000_000_000)?;
/// assert_eq!(wide.len(), 1_000_000_001);
/// # Ok::<(), bitcsp::ModelError>(())
/// ```
#[derive(Debug, PartialEq, Eq, Hash)]
pub struct Domain {
    repr: Repr,
}

#[derive(Clone, Debug, PartialEq, Eq, Hash)]
enum Repr {
    /// Bit `i` of `words` is the value `base + i`.
    Bits {
        base: i32,
        words: SmallVec<[u64; 1]>,
    },
    /// `lo..=hi` (empty when `lo > hi`) less what `gaps` leaves out. `base` is the smallest
    /// value the domain was created with: the solver stores the bounds relative to it, so
    /// that narrowing a domain never changes where its words lie.
    Wide {
        base: i32,
        lo: i64,
        hi: i64,
        gaps: Gaps,
    },
}

/// What a wide domain leaves out between its bounds.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
enum Gaps {
    /// Nothing: every value of the interval.
    None,
    /// These values (sorted, strictly between the bounds).
    Holes(Vec<i32>),
    /// Everything but these values (sorted, the first and last being the bounds).
    Only(Vec<i32>),
}

/// The values a wide domain leaves out between its bounds, as the model passes them to
/// the constraint that enforces them.
#[derive(Clone, Copy, Debug)]
pub(crate) enum WideGaps<'a> {
    /// These values are excluded.
    Holes(&'a [i32]),
    /// Only these values are allowed.
    Only(&'a [i32]),
}

impl Clone for Domain {
    /// A one-word domain (the common case) is copied from its word directly: the derived
    /// clone goes through `SmallVec`'s generic path, which was most of the cost of cloning
    /// a Sudoku template (81 domains) for every puzzle.
    fn clone(&self) -> Self {
        let repr = match &self.repr {
            Repr::Bits { base, words } => Repr::Bits {
                base: *base,
                words: match words.as_slice() {
                    &[word] => SmallVec::from_buf([word]),
                    several => SmallVec::from_slice(several),
                },
            },
            wide => wide.clone(),
        };
        Domain { repr }
    }
}

impl Domain {
    /// All integers of `range`.
    ///
    /// # Errors
    /// [`ModelError::EmptyDomain`] when the range is empty.
    pub fn range(range: RangeInclusive<i32>) -> Result<Self, ModelError> {
        let (lo, hi) = (*range.start(), *range.end());
        if lo > hi {
            return Err(ModelError::EmptyDomain);
        }
        let Some(span) = bitset_span(lo, hi) else {
            return Ok(Domain::wide(lo, hi, Gaps::None));
        };
        let mut words = zeroed_words(span);
        for (i, word) in words.iter_mut().enumerate() {
            let bits_left = span - 64 * i;
            *word = if bits_left >= 64 {
                u64::MAX
            } else {
                (1u64 << bits_left) - 1
            };
        }
        Ok(Domain {
            repr: Repr::Bits { base: lo, words },
        })
    }

    /// All integers of `range`, kept as an interval whatever its span: two store words,
    /// whose bounds are read at once, where [`Domain::range`] makes a bitset of up to
    /// [`MAX_BITSET_SPAN`] values. An interval keeps no holes: a constraint that would
    /// remove a value between its bounds leaves it, and checks the variable again once it
    /// is fixed. So it suits variables that only bounds reasoning narrows (the start times
    /// of a schedule under sums and orderings), and loses propagation elsewhere.
    ///
    /// ```
    /// use bitcsp::{Domain, Model, Relation, Solver};
    /// let mut model = Model::new();
    /// let start = model.new_var_with_domain(Domain::interval(0..=200)?)?;
    /// let end = model.new_var(0..=200)?;
    /// model.weighted_sum(&[start, end], &[1, -1], Relation::AtMost, -30)?;
    /// let mut solver = Solver::new(&model);
    /// solver.propagate().expect("consistent");
    /// assert_eq!(solver.domain(start).and_then(|d| d.max()), Some(170));
    /// # Ok::<(), bitcsp::ModelError>(())
    /// ```
    ///
    /// # Errors
    /// [`ModelError::EmptyDomain`] when the range is empty.
    pub fn interval(range: RangeInclusive<i32>) -> Result<Self, ModelError> {
        let (lo, hi) = (*range.start(), *range.end());
        if lo > hi {
            return Err(ModelError::EmptyDomain);
        }
        Ok(Domain::wide(lo, hi, Gaps::None))
    }

    /// Exactly the given values (duplicates are ignored, order does not matter).
    ///
    /// # Errors
    /// [`ModelError::EmptyDomain`] when `values` is empty.
    pub fn from_values(values: &[i32]) -> Result<Self, ModelError> {
        let mut sorted = values.to_vec();
        sorted.sort_unstable();
        sorted.dedup();
        let (&lo, &hi) = sorted
            .first()
            .zip(sorted.last())
            .ok_or(ModelError::EmptyDomain)?;
        let Some(span) = bitset_span(lo, hi) else {
            let gaps = if sorted.len() as u64 == span_of(lo, hi) {
                Gaps::None
            } else {
                Gaps::Only(sorted)
            };
            return Ok(Domain::wide(lo, hi, gaps));
        };
        let mut words = zeroed_words(span);
        for &v in &sorted {
            let bit = (i64::from(v) - i64::from(lo)) as usize;
            words[bit / 64] |= 1 << (bit % 64);
        }
        Ok(Domain {
            repr: Repr::Bits { base: lo, words },
        })
    }

    fn wide(lo: i32, hi: i32, gaps: Gaps) -> Self {
        Domain {
            repr: Repr::Wide {
                base: lo,
                lo: i64::from(lo),
                hi: i64::from(hi),
                gaps,
            },
        }
    }

    /// The domain as a read-only view, which does the reading.
    pub fn view(&self) -> DomainView<'_> {
        match &self.repr {
            Repr::Bits { base, words } => DomainView::bits(*base, words),
            Repr::Wide { lo, hi, gaps, .. } => match gaps {
                Gaps::None => DomainView::interval(*lo, *hi, &[]),
                Gaps::Holes(holes) => DomainView::interval(*lo, *hi, holes),
                Gaps::Only(values) => DomainView::set(values),
            },
        }
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
        if !self.contains(value) {
            return;
        }
        match &mut self.repr {
            Repr::Bits { base, words } => {
                let bit = (i64::from(value) - i64::from(*base)) as usize;
                words[bit / 64] &= !(1 << (bit % 64));
            }
            Repr::Wide { lo, hi, gaps, .. } => {
                let value = i64::from(value);
                match gaps {
                    Gaps::Only(values) => {
                        values.retain(|&v| i64::from(v) != value);
                        match (values.first(), values.last()) {
                            (Some(&first), Some(&last)) => {
                                (*lo, *hi) = (i64::from(first), i64::from(last));
                            }
                            _ => *lo = *hi + 1,
                        }
                    }
                    _ if value == *lo => *lo += 1,
                    _ if value == *hi => *hi -= 1,
                    Gaps::None => *gaps = Gaps::Holes(vec![value as i32]),
                    Gaps::Holes(holes) => {
                        let at = holes.partition_point(|&h| i64::from(h) < value);
                        holes.insert(at, value as i32);
                    }
                }
                trim_holes(lo, hi, gaps);
            }
        }
    }

    /// Keeps only `value` (the domain becomes empty when `value` was not in it).
    pub fn restrict_to(&mut self, value: i32) {
        let keep = self.contains(value);
        match &mut self.repr {
            Repr::Bits { base, words } => {
                words.iter_mut().for_each(|w| *w = 0);
                if keep {
                    let bit = (i64::from(value) - i64::from(*base)) as usize;
                    words[bit / 64] = 1 << (bit % 64);
                }
            }
            Repr::Wide { lo, hi, gaps, .. } => {
                let value = i64::from(value);
                (*lo, *hi) = if keep { (value, value) } else { (*hi + 1, *hi) };
                *gaps = Gaps::None;
            }
        }
    }

    /// The value the solver's words count from: bit 0 of a bitset, offset 0 of a wide
    /// domain's bounds.
    pub(crate) fn base(&self) -> i32 {
        match &self.repr {
            Repr::Bits { base, .. } | Repr::Wide { base, .. } => *base,
        }
    }

    /// True for a domain the solver keeps as an interval.
    pub(crate) fn is_wide(&self) -> bool {
        matches!(self.repr, Repr::Wide { .. })
    }

    /// The words the solver starts from: the bitset, least significant value first; for a
    /// wide domain its bounds as offsets from [`base`](Domain::base) (`[1, 0]` when empty).
    pub(crate) fn store_words(&self) -> SmallVec<[u64; 2]> {
        match &self.repr {
            Repr::Bits { words, .. } => SmallVec::from_slice(words),
            Repr::Wide { base, lo, hi, .. } if lo <= hi => {
                let base = i64::from(*base);
                SmallVec::from_slice(&[(lo - base) as u64, (hi - base) as u64])
            }
            Repr::Wide { .. } => SmallVec::from_slice(&[1, 0]),
        }
    }

    /// The number of words the solver keeps for this domain.
    pub(crate) fn store_len(&self) -> usize {
        match &self.repr {
            Repr::Bits { words, .. } => words.len(),
            Repr::Wide { .. } => 2,
        }
    }

    /// The bitset words, least significant value first (none for a wide domain).
    pub(crate) fn words(&self) -> &[u64] {
        match &self.repr {
            Repr::Bits { words, .. } => words,
            Repr::Wide { .. } => &[],
        }
    }

    /// What a wide domain leaves out between its bounds, if anything.
    pub(crate) fn gaps(&self) -> Option<WideGaps<'_>> {
        match &self.repr {
            Repr::Wide {
                gaps: Gaps::Holes(holes),
                ..
            } => Some(WideGaps::Holes(holes)),
            Repr::Wide {
                gaps: Gaps::Only(values),
                ..
            } => Some(WideGaps::Only(values)),
            _ => None,
        }
    }
}

/// Moves bounds that fell on holes past them, and drops holes outside the bounds.
fn trim_holes(lo: &mut i64, hi: &mut i64, gaps: &mut Gaps) {
    let Gaps::Holes(holes) = gaps else {
        return;
    };
    holes.retain(|&h| i64::from(h) >= *lo && i64::from(h) <= *hi);
    let mut from = 0;
    while holes.get(from).is_some_and(|&h| i64::from(h) == *lo) {
        *lo += 1;
        from += 1;
    }
    holes.drain(..from);
    while holes.last().is_some_and(|&h| i64::from(h) == *hi) {
        *hi -= 1;
        holes.pop();
    }
    if holes.is_empty() {
        *gaps = Gaps::None;
    }
}

impl<'a> IntoIterator for &'a Domain {
    type Item = i32;
    type IntoIter = Values<'a>;

    fn into_iter(self) -> Values<'a> {
        self.iter()
    }
}

/// The number of values from `lo` to `hi` (`lo <= hi`).
fn span_of(lo: i32, hi: i32) -> u64 {
    (i64::from(hi) - i64::from(lo) + 1) as u64
}

/// The span of `lo..=hi` when it is kept as a bitset.
fn bitset_span(lo: i32, hi: i32) -> Option<usize> {
    let span = span_of(lo, hi);
    (span <= MAX_BITSET_SPAN).then_some(span as usize)
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
    fn any_i32_span_is_a_wide_domain_of_two_words() {
        let d = Domain::from_values(&[i32::MIN, 0, i32::MAX]).unwrap();
        assert!(d.is_wide());
        assert_eq!(d.store_len(), 2);
        assert_eq!(d.iter().collect::<Vec<_>>(), vec![i32::MIN, 0, i32::MAX]);
        let r = Domain::range(i32::MIN..=i32::MAX).unwrap();
        assert_eq!(r.len(), 1 << 32);
        assert_eq!((r.min(), r.max()), (Some(i32::MIN), Some(i32::MAX)));
        assert_eq!(r.store_words().as_slice(), &[0, u32::MAX as u64]);
    }

    #[test]
    fn holes_of_a_wide_range_are_kept_and_bounds_skip_them() {
        let mut d = Domain::range(0..=1000).unwrap();
        for v in [500, 2, 1, 999, 1000, 5000] {
            d.remove(v);
        }
        assert_eq!(d.len(), 1001 - 5);
        assert!(!d.contains(500) && d.contains(501));
        d.remove(0);
        assert_eq!(d.min(), Some(3));
        assert_eq!(d.max(), Some(998));
        assert!(matches!(d.gaps(), Some(WideGaps::Holes(&[500]))));
        d.restrict_to(500);
        assert!(d.is_empty());
    }

    #[test]
    fn wide_value_lists_keep_exactly_their_values() {
        let mut d = Domain::from_values(&[10, -7, 100_000]).unwrap();
        assert_eq!(d.len(), 3);
        assert!(!d.contains(0));
        d.remove(-7);
        assert_eq!(d.min(), Some(10));
        d.restrict_to(100_000);
        assert_eq!(d.iter().collect::<Vec<_>>(), vec![100_000]);
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
