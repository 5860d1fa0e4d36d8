//! Locked values across intersecting pairs of groups touched since the last sweep.

use super::bits::small;
use super::cover::SegmentCover;
use super::shape::{Shape, Work};
use super::Family;
use super::PairParts;
use crate::bits::clear;
use crate::bits::set_bits;
use crate::constraints::locked_values::locked_values;
use crate::propagate::Conflict;

impl Family {
    /// Locked values across every intersecting pair touched since the last sweep; true
    /// when something changed.
    pub(super) fn apply_locked_values<S: Shape>(
        &self,
        work: &mut Work<'_, S>,
    ) -> Result<bool, Conflict> {
        if !S::PAIRS || self.pairs.is_empty() || self.all_fixed(work) {
            return Ok(false);
        }
        // This sweep looks at the pairs touched so far; what it changes is touched anew
        // for the next sweep.
        work.sweeping.copy_from_slice(work.touched);
        clear(work.touched);
        if let (false, Some(&sweeping)) = (self.segments.pairs.is_empty(), work.sweeping.first()) {
            return self.locked_values_by_segments(sweeping, work);
        }
        if let Some(cover) = self.cover.as_ref().filter(|c| self.unions_pay(c, work)) {
            return self.locked_values_by_cover(cover, work);
        }
        let mut changed = false;
        for k in 0..self.pair_words {
            for p in set_bits(work.sweeping[k]).map(|b| k * 64 + b) {
                changed |= self.locked_values(p, work)?;
            }
        }
        Ok(changed)
    }

    /// Whether forming every segment's union costs fewer loads than the pairs of this
    /// sweep would load cell by cell.
    #[inline]
    fn unions_pay<S: Shape>(&self, cover: &SegmentCover, work: &Work<'_, S>) -> bool {
        let pairs: usize = work.sweeping.iter().map(|w| w.count_ones() as usize).sum();
        pairs * self.pair_cells.len() > cover.cells() * self.pairs.len()
    }

    /// The sweep over the pairs in `sweeping` from the segments' unions. As with
    /// [`Family::locked_values_by_segments`], a union formed before a pair's check removed
    /// values is a superset of the current one, and the pairs such a removal touches are
    /// swept again: the fixed point is the same.
    fn locked_values_by_cover<S: Shape>(
        &self,
        cover: &SegmentCover,
        work: &mut Work<'_, S>,
    ) -> Result<bool, Conflict> {
        cover.form_unions(work.masks, work.unions);
        let mut changed = false;
        for k in 0..self.pair_words {
            for p in set_bits(work.sweeping[k]).map(|b| k * 64 + b) {
                changed |= self.lock_pair(p, cover.pair_unions(p, work.unions), work)?;
            }
        }
        Ok(changed)
    }

    /// True when the view says every cell is fixed (and, the stack being empty, every
    /// fixed value has left its peers): then no value can be locked anywhere, since each
    /// group holds each of its values in one cell, shared by every group through it.
    #[inline]
    pub(super) fn all_fixed<S: Shape>(&self, work: &Work<'_, S>) -> bool {
        self.view::<S>()
            .is_some_and(|view| self.holds_every_cell(&work.places[view.fixed_at()..]))
    }

    /// True when the bitset of cells `bits` holds every cell of the family.
    #[inline]
    pub(super) fn holds_every_cell(&self, bits: &[u64]) -> bool {
        bits.iter().map(|w| w.count_ones() as usize).sum::<usize>() == self.vars.len()
    }

    /// The sweep over the pairs in `sweeping` with segment unions (see
    /// [`Family::segments`]). A union formed before a pair's check removed values is a
    /// superset of the current one, which can only make the rule fire less (or fire
    /// where the state is already a conflict); the pairs such a removal touches are swept
    /// again, so the fixed point is the same.
    fn locked_values_by_segments<S: Shape>(
        &self,
        sweeping: u64,
        work: &mut Work<'_, S>,
    ) -> Result<bool, Conflict> {
        let segments = &self.segments;
        // Every segment's union, in a loop of fixed length: cheaper than finding the
        // ones the touched pairs need (a loop over pairs, then one over segments, both
        // of unpredictable length) and zeroing an array for them.
        let mut unions = [0u64; 64];
        let masks = small(work.masks);
        for (union, &[a, b, c]) in unions.iter_mut().zip(&segments.cells) {
            *union = masks[usize::from(a)] | masks[usize::from(b)] | masks[usize::from(c)];
        }
        let mut changed = false;
        for p in set_bits(sweeping) {
            let (Some(&[i, a1, a2, b1, b2]), Some(cells)) =
                (segments.pairs.get(p), self.box_lines.get(p))
            else {
                continue;
            };
            let union = |s: u8| unions[usize::from(s) % 64];
            let parts = [union(i), union(a1) | union(a2), union(b1) | union(b2)];
            changed |= self.lock_box_line(cells, parts, work)?;
        }
        Ok(changed)
    }

    /// The rule on pair `p`, both ways; true when something changed.
    #[inline]
    fn locked_values<S: Shape>(&self, p: usize, work: &mut Work<'_, S>) -> Result<bool, Conflict> {
        if let Some(cells) = self.box_lines.get(p) {
            // One record per pair: no bounds to look up, and unions over arrays of known
            // length that unroll.
            let masks = small(work.masks);
            // A byte indexes an array of 256 without a bounds check.
            let union = |cells: &[u8]| cells.iter().fold(0, |acc, &c| acc | masks[usize::from(c)]);
            let unions = [union(&cells[..3]), union(&cells[3..9]), union(&cells[9..])];
            return self.lock_box_line(cells, unions, work);
        }
        let [shared, a, b] = self.pair_parts(p);
        let unions = [work.union(shared), work.union(a), work.union(b)];
        self.lock_pair(p, unions, work)
    }

    /// Pair `p`'s cells: the shared ones, those only in A, those only in B.
    #[inline(always)]
    fn pair_parts(&self, p: usize) -> [&[u32]; 3] {
        let PairParts {
            begin,
            only_a,
            only_b,
            end,
        } = self.pairs[p];
        let cells = |from: u32, to: u32| &self.pair_cells[from as usize..to as usize];
        [
            cells(begin, only_a),
            cells(only_a, only_b),
            cells(only_b, end),
        ]
    }

    /// The rule on pair `p` whose three parts have the value unions `unions`.
    #[inline(always)]
    fn lock_pair<S: Shape>(
        &self,
        p: usize,
        unions: [u64; 3],
        work: &mut Work<'_, S>,
    ) -> Result<bool, Conflict> {
        let [shared, a, b] = self.pair_parts(p);
        self.lock(
            locked_values(unions, shared.len() + a.len(), shared.len() + b.len()),
            a.iter().map(|&c| c as usize),
            b.iter().map(|&c| c as usize),
            work,
        )
    }

    /// The rule on a box-line record `cells` (shared, A's, B's) whose three parts have
    /// the value unions `unions`.
    #[inline(always)]
    fn lock_box_line<S: Shape>(
        &self,
        cells: &[u8; 15],
        unions: [u64; 3],
        work: &mut Work<'_, S>,
    ) -> Result<bool, Conflict> {
        self.lock(
            locked_values(unions, 9, 9),
            cells[3..9].iter().map(|&c| usize::from(c)),
            cells[9..].iter().map(|&c| usize::from(c)),
            work,
        )
    }

    /// Takes the values `to_b` out of the cells `b` and `to_a` out of `a` (the two
    /// outside parts of a pair); true when something changed.
    #[inline(always)]
    fn lock<S: Shape>(
        &self,
        (to_b, to_a): (u64, u64),
        a: impl Iterator<Item = usize>,
        b: impl Iterator<Item = usize>,
        work: &mut Work<'_, S>,
    ) -> Result<bool, Conflict> {
        let mut changed = false;
        if to_b != 0 {
            for c in b {
                changed |= self.take_away(c, to_b, work)?;
            }
        }
        if to_a != 0 {
            for c in a {
                changed |= self.take_away(c, to_a, work)?;
            }
        }
        Ok(changed)
    }
}
