//! Intersecting pairs built when a run first needs them. Compiling the pairs of a family
//! with a view (the locked-values tables) costs about as much as the rest of its compile,
//! and a model built per puzzle whose first propagation solves it by fixed values and
//! hidden singles never sweeps a pair. Such a family is compiled without pairs; the first
//! run that settles with cells still open builds a copy of the family with them, carries
//! on in it (every pair touched, since nothing tracked them), and every later run goes
//! straight to the copy. The fixed point, and so every search, is the same as with pairs
//! from the start.

use std::sync::OnceLock;

use super::shape::{Shape, Work};
use super::Family;

/// The pairs of a family compiled without them.
#[derive(Clone, Debug, Default)]
pub(super) struct PairsLater {
    /// The family with its pairs, once a run needed them.
    full: OnceLock<Box<Family>>,
}

impl PairsLater {
    /// The family with its pairs, if a run built it.
    #[inline]
    pub(super) fn built(&self) -> Option<&Family> {
        self.full.get().map(Box::as_ref)
    }

    /// The family with pairs of `family` (compiled without them), built now if no run
    /// built it before.
    #[inline(never)]
    pub(super) fn with_pairs(&self, family: &Family) -> &Family {
        let full = self.full.get_or_init(|| Box::new(family.with_pairs()));
        debug_assert!(full.pair_words <= full.pair_slots && full.union_words <= full.union_slots);
        full
    }
}

impl Family {
    /// At most how many pairs the groups of this family form, from their cells alone.
    pub(super) fn most_pairs(&self) -> usize {
        // Two groups pair when they share two cells or more. A cell in k groups lies in
        // k(k - 1)/2 intersections of two, so all the pairs' shared cells number
        // Σ k(k - 1)/2, at least twice the number of pairs.
        let groups = self.num_groups();
        let by_groups = groups * groups.saturating_sub(1) / 2;
        let by_cells = self
            .cell_start
            .windows(2)
            .map(|b| {
                let k = (b[1] - b[0]) as usize;
                k * k.saturating_sub(1)
            })
            .sum::<usize>()
            / 4;
        by_groups.min(by_cells)
    }

    /// Marks every pair touched: a run that goes on in the family with pairs tracked none.
    pub(super) fn touch_every_pair<S: Shape>(&self, work: &mut Work<'_, S>) {
        let mut left = self.pairs.len();
        for word in work.touched.iter_mut() {
            *word = if left >= 64 {
                u64::MAX
            } else {
                (1 << left) - 1
            };
            left = left.saturating_sub(64);
        }
    }
}
