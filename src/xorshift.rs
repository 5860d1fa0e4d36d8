//! A small reproducible pseudo-random generator (xorshift64, Marsaglia 2003) for the
//! coloring's tabu search and the unit tests' random instances: the same seed gives the
//! same numbers everywhere, with no dependency.

/// xorshift64 with shifts 13, 7, 17. The seed must not be zero (zero stays zero).
#[derive(Clone, Debug)]
pub(crate) struct XorShift(pub(crate) u64);

impl XorShift {
    /// The next number.
    pub(crate) fn next_u64(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }

    /// A number in `0..bound` (0 when `bound` is 0).
    pub(crate) fn below(&mut self, bound: usize) -> usize {
        let x = self.next_u64();
        if bound == 0 {
            0
        } else {
            (x % bound as u64) as usize
        }
    }
}
