//! Intersecting pairs built when a search needs them. The pairs (the locked-values
//! tables) are a large part of compiling a family with a view (`profile variant jigsaw`
//! under callgrind shows their share), and a model built per puzzle whose first
//! propagation solves it would use them for one sweep at most. Such a family is compiled
//! without pairs and finds locked values on its value-major view instead
//! ([`Family::locked_values_by_view`]: the same removals, from a sweep over groups and
//! values that costs more per look than the pairs' but needs no tables). A run that
//! settles with cells still open is followed by a search, whose runs each touch few
//! pairs: it builds a copy of the family with pairs, and every later run goes to the
//! copy. The fixed point, and so every search, is the same either way.

use std::sync::OnceLock;

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

    /// Builds the family with pairs of `family` (compiled without them), unless a run
    /// built it before.
    #[inline(never)]
    pub(super) fn build(&self, family: &Family) {
        let full = self.full.get_or_init(|| Box::new(family.with_pairs()));
        debug_assert!(full.pair_words <= full.pair_slots && full.union_words <= full.union_slots);
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
}
