//! A set of digits `1..=64`, one bit each: a cell's candidates.

use std::fmt;

/// A set of digits, as a person writes pencil marks in a cell.
///
/// ```
/// use bitcsp::sudoku::workshop::Digits;
/// let d: Digits = [1, 5, 9].into_iter().collect();
/// assert!(d.contains(5) && !d.contains(2));
/// assert_eq!(d.iter().collect::<Vec<_>>(), vec![1, 5, 9]);
/// assert_eq!(d.to_string(), "159");
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Digits(pub(crate) u64);

impl Digits {
    /// The empty set.
    pub const EMPTY: Digits = Digits(0);

    /// The digits `1..=n`.
    pub fn all(n: usize) -> Digits {
        Digits(if n >= 64 { u64::MAX } else { (1u64 << n) - 1 })
    }

    /// The set holding `digit` alone.
    pub fn single(digit: u8) -> Digits {
        Digits(bit(digit))
    }

    /// Whether `digit` is in the set.
    pub fn contains(self, digit: u8) -> bool {
        self.0 & bit(digit) != 0
    }

    /// How many digits the set holds.
    pub fn len(self) -> usize {
        self.0.count_ones() as usize
    }

    /// Whether the set is empty.
    pub fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// The smallest digit, if any.
    pub fn first(self) -> Option<u8> {
        (self.0 != 0).then(|| self.0.trailing_zeros() as u8 + 1)
    }

    /// The digits in increasing order.
    pub fn iter(self) -> Iter {
        Iter(self.0)
    }
}

/// The bit of `digit` (1-based); digits outside `1..=64` have none.
pub(crate) fn bit(digit: u8) -> u64 {
    match digit {
        1..=64 => 1u64 << (digit - 1),
        _ => 0,
    }
}

impl FromIterator<u8> for Digits {
    fn from_iter<I: IntoIterator<Item = u8>>(iter: I) -> Self {
        Digits(iter.into_iter().fold(0, |m, d| m | bit(d)))
    }
}

/// The digits of a [`Digits`], in increasing order.
#[derive(Clone, Debug)]
pub struct Iter(u64);

impl Iterator for Iter {
    type Item = u8;
    fn next(&mut self) -> Option<u8> {
        if self.0 == 0 {
            return None;
        }
        let d = self.0.trailing_zeros() as u8 + 1;
        self.0 &= self.0 - 1;
        Some(d)
    }
}

impl fmt::Display for Digits {
    /// Digits as the board's symbols, run together (`159`), or `-` for the empty set.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.is_empty() {
            return f.write_str("-");
        }
        for d in self.iter() {
            write!(f, "{}", crate::sudoku::symbols::symbol(d))?;
        }
        Ok(())
    }
}
