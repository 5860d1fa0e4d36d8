//! Locked values across intersecting pairs of groups touched since the last sweep, or
//! read off the value-major view in a family whose pairs come later.

use super::bits::small;
use super::cover::SegmentCover;
use super::shape::{Shape, Work};
use super::view::{ValueView, MAX_VIEW_CELLS};
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
        if !S::PAIRS || self.all_fixed(work) {
            return Ok(false);
        }
        if self.pairs.is_empty() {
            // A family whose pairs come later finds the same locked values on its view.
            return match (&self.pairs_later, self.view::<S>()) {
                (Some(_), Some(view)) => self.locked_values_by_view(view, work),
                _ => Ok(false),
            };
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

    /// The locked-values rule read off the value-major view, for a family compiled
    /// without its pairs: in each group that must use every value it can hold (as many
    /// values as cells), a value whose places are two cells or more, all in one other
    /// group, leaves the rest of that group. These are the removals of the rule on every
    /// intersecting pair (a value with one place is a hidden single, whose removals rule
    /// 1 makes). Only groups with a place changed since the last sweep of this run (all
    /// of them in its first) are looked at again: places only shrink within a run, so an
    /// unchanged group finds nothing new. True when something changed.
    pub(super) fn locked_values_by_view<S: Shape>(
        &self,
        view: &ValueView,
        work: &mut Work<'_, S>,
    ) -> Result<bool, Conflict> {
        let w = view.cell_words;
        let by_value = view.values * w;
        // The cells with a place changed since the last sweep, and the view as of now.
        let mut moved = [0u64; MAX_VIEW_CELLS / 64];
        for (i, (place, seen)) in work.places[..by_value]
            .iter()
            .zip(work.swept[..by_value].iter_mut())
            .enumerate()
        {
            moved[i % w] |= place ^ *seen;
            *seen = *place;
        }
        let mut changed = false;
        // Up to 128 cells (a 9×9 board): each value's places as one `u128`, read once.
        let mut buffer = [0u128; 64];
        let mut small = (w <= 2).then(|| {
            for (v, p) in buffer.iter_mut().enumerate().take(view.values) {
                let low = u128::from(work.places[v * w]);
                *p = if w == 2 {
                    low | u128::from(work.places[v * w + 1]) << 64
                } else {
                    low
                };
            }
            &mut buffer[..view.values]
        });
        for g in 0..self.num_groups() {
            let cells = &view.group_bits[g * w..(g + 1) * w];
            if cells.iter().zip(&moved).all(|(c, m)| c & m == 0) {
                continue;
            }
            changed |= match (small.as_deref_mut(), w) {
                (Some(places), 1) => self.lock_group_by_view::<S, 1>(view, g, places, work)?,
                (Some(places), _) => self.lock_group_by_view::<S, 2>(view, g, places, work)?,
                (None, _) => self.lock_wide_group_by_view(view, g, work)?,
            };
        }
        Ok(changed)
    }

    /// [`Family::locked_values_by_view`] for group `g`, in a family of up to 128 cells
    /// (`W` words per bitset of cells): each bitset of cells is one `u128`, and
    /// `places[v]` holds value `v`'s places (kept up to date as values leave cells).
    fn lock_group_by_view<S: Shape, const W: usize>(
        &self,
        view: &ValueView,
        g: usize,
        places: &mut [u128],
        work: &mut Work<'_, S>,
    ) -> Result<bool, Conflict> {
        let group = |h: usize| {
            let words = &view.group_bits[h * W..h * W + W];
            words
                .iter()
                .enumerate()
                .fold(0u128, |acc, (k, &word)| acc | u128::from(word) << (64 * k))
        };
        let cells = group(g);
        // A group tight from the start holds as many values as cells whenever a sweep
        // runs: hidden singles have looked at it since its last change, and found no
        // pigeonhole. A looser group must be counted.
        if !self.tight[g] {
            let len = (self.group_start[g + 1] - self.group_start[g]) as usize;
            let held = places.iter().filter(|&&p| p & cells != 0).count();
            if held != len {
                return Ok(false);
            }
        }
        let mut changed = false;
        for (v, place) in places.iter_mut().enumerate() {
            let here = *place & cells;
            if here.count_ones() < 2 {
                continue;
            }
            let first = here.trailing_zeros() as usize;
            let (from, to) = (self.cell_start[first], self.cell_start[first + 1]);
            for &h in &self.cell_groups[from as usize..to as usize] {
                let other = group(h as usize);
                if h as usize == g || here & !other != 0 {
                    continue;
                }
                // v lies in g only where g meets h: it leaves the rest of h.
                let mut rest = *place & other & !cells;
                *place &= !rest;
                while rest != 0 {
                    let c = rest.trailing_zeros() as usize;
                    rest &= rest - 1;
                    changed |= self.take_away(c, 1 << v, work)?;
                }
            }
        }
        Ok(changed)
    }

    /// [`Family::lock_group_by_view`] in a family of more than 128 cells.
    fn lock_wide_group_by_view<S: Shape>(
        &self,
        view: &ValueView,
        g: usize,
        work: &mut Work<'_, S>,
    ) -> Result<bool, Conflict> {
        let w = view.cell_words;
        let cells = &view.group_bits[g * w..(g + 1) * w];
        let len = (self.group_start[g + 1] - self.group_start[g]) as usize;
        let places_in = |places: &[u64], v: usize| {
            let mut here = [0u64; MAX_VIEW_CELLS / 64];
            for (k, h) in here.iter_mut().enumerate().take(w) {
                *h = places[v * w + k] & cells[k];
            }
            here
        };
        let held = (0..view.values)
            .filter(|&v| places_in(work.places, v)[..w].iter().any(|&h| h != 0))
            .count();
        if held != len {
            return Ok(false);
        }
        let mut changed = false;
        for v in 0..view.values {
            let here = places_in(work.places, v);
            let count: u32 = here[..w].iter().map(|h| h.count_ones()).sum();
            if count < 2 {
                continue;
            }
            let Some(first) = here[..w]
                .iter()
                .enumerate()
                .find_map(|(k, &h)| set_bits(h).next().map(|b| k * 64 + b))
            else {
                continue;
            };
            let (from, to) = (self.cell_start[first], self.cell_start[first + 1]);
            for &h in &self.cell_groups[from as usize..to as usize] {
                let h = h as usize;
                let other = &view.group_bits[h * w..(h + 1) * w];
                if h == g || here[..w].iter().zip(other).any(|(x, o)| x & !o != 0) {
                    continue;
                }
                // v lies in g only where g meets h: it leaves the rest of h.
                let mut rest = [0u64; MAX_VIEW_CELLS / 64];
                for (k, r) in rest.iter_mut().enumerate().take(w) {
                    *r = work.places[v * w + k] & other[k] & !cells[k];
                }
                for (k, &r) in rest[..w].iter().enumerate() {
                    for c in set_bits(r).map(|b| k * 64 + b) {
                        changed |= self.take_away(c, 1 << v, work)?;
                    }
                }
            }
        }
        Ok(changed)
    }
}
