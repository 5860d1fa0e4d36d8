//! Rule 1: a newly fixed cell's value leaves every peer, through the value-major view,
//! a dense family's removal rows or the peer lists.

use super::shape::{Shape, Work};
use super::view::ValueView;
use super::{Family, LANES};
use crate::bits::{is_single, set_bits};
use crate::propagate::Conflict;

impl Family {
    /// Rule 1 through the peers: the value of each newly fixed cell leaves every cell that
    /// shares a group with it.
    pub(super) fn eliminate_fixed_values<S: Shape>(
        &self,
        work: &mut Work<'_, S>,
    ) -> Result<(), Conflict> {
        while let Some(cell) = work.pop() {
            if S::VIEW {
                // A run of this shape always has a view (see `propagate`); the test
                // keeps the other shapes' code out of its copy.
                if let Some(view) = self.view::<S>() {
                    // A cell enters the view's bitset of fixed cells when it leaves the
                    // stack: only the hidden-single scans read that bitset, and they wait
                    // for an empty stack.
                    work.places[view.fixed_at() + cell / 64] |= 1 << (cell % 64);
                    self.take_from_holders(view, cell, work)?;
                }
                continue;
            }
            let range = self.peer_start[cell] as usize..self.peer_start[cell + 1] as usize;
            if self.aligned::<S>() {
                // Every peer sees the value at the same bit: no shifting.
                let value = work.masks[cell];
                for chunk in self.peers[range].chunks(64) {
                    self.take_from_peers(chunk, work, |_| value)?;
                }
                continue;
            }
            let bit = work.masks[cell].trailing_zeros();
            if S::DENSE {
                // Every cell lies in the taken group (if the family has one) with no
                // shift: its value is taken.
                work.taken |= work.masks[cell];
                let (n, row) = (self.vars.len(), self.row);
                let start = (bit as usize * n + cell) * row;
                self.take_from_all(&self.removals[start..start + row], work)?;
                continue;
            }
            if !self.removals.is_empty() {
                let base = bit as usize * self.peers.len() + range.start;
                let removals = &self.removals[base..base + range.len()];
                let peers = &self.peers[range];
                for (chunk, removals) in peers.chunks(64).zip(removals.chunks(64)) {
                    self.take_from_peers(chunk, work, |i| removals[i])?;
                }
                continue;
            }
            let (peers, patterns) = (&self.peers[range.clone()], &self.peer_pattern[range]);
            for (chunk, patterns) in peers.chunks(64).zip(patterns.chunks(64)) {
                // The same value, seen from the peer's side of each common group.
                self.take_from_peers(chunk, work, |i| ((patterns[i] << bit) >> 64) as u64)?;
            }
        }
        Ok(())
    }

    /// Removes the value of fixed `cell` from the peers that still hold it, found through
    /// the value-major view.
    #[inline(always)]
    fn take_from_holders<S: Shape>(
        &self,
        view: &ValueView,
        cell: usize,
        work: &mut Work<'_, S>,
    ) -> Result<(), Conflict> {
        let value = work.masks[cell];
        let places = value.trailing_zeros() as usize * view.cell_words;
        let peers = &view.peer_bits[cell * view.cell_words..(cell + 1) * view.cell_words];
        if let [low, high] = *peers {
            // Up to 128 cells (a 9×9 Sudoku): one loop over both words, so the loop's end
            // is mispredicted once rather than once per word.
            let (lo_slot, hi_slot) = (places, places + 1);
            let mut holders = u128::from(work.places[lo_slot] & low)
                | u128::from(work.places[hi_slot] & high) << 64;
            work.places[lo_slot] &= !low;
            work.places[hi_slot] &= !high;
            // Every holder changes: their bits of `changed` at once, not one per holder.
            if let [lo, hi] = work.changed {
                *lo |= holders as u64;
                *hi |= (holders >> 64) as u64;
            }
            while holders != 0 {
                let p = holders.trailing_zeros() as usize;
                holders &= holders - 1;
                let kept = work.masks[p] & !value;
                if kept == 0 {
                    return Err(Conflict);
                }
                work.masks[p] = kept;
                self.mark(p, work);
                work.push_if(p, is_single(kept));
            }
            return Ok(());
        }
        for (k, &peer_bits) in peers.iter().enumerate() {
            let slot = &mut work.places[places + k];
            let holders = *slot & peer_bits;
            *slot &= !peer_bits;
            for p in set_bits(holders).map(|b| k * 64 + b) {
                self.narrow_or_fail(p, work.masks[p] & !value, work)?;
            }
        }
        Ok(())
    }

    /// Takes `removed` values of `cell` out of the value-major view, if there is one.
    #[inline(always)]
    pub(super) fn forget<S: Shape>(&self, cell: usize, removed: u64, work: &mut Work<'_, S>) {
        if let Some(view) = self.view::<S>() {
            // Over every value rather than the removed ones: a loop of fixed length, where
            // the number of values removed is a guess for the branch predictor.
            let (k, bit) = (cell / 64, 1u64 << (cell % 64));
            for v in 0..view.values {
                work.places[v * view.cell_words + k] &= !(bit * (removed >> v & 1));
            }
        }
    }

    /// Removes `removals[j]` from cell `j`, for every cell: no peer indices to load, and
    /// a loop over two aligned arrays of whole groups of [`LANES`] words (at most 64
    /// words: a dense family's padded row), with no tail for the odd cells.
    #[inline(always)]
    fn take_from_all<S: Shape>(
        &self,
        removals: &[u64],
        work: &mut Work<'_, S>,
    ) -> Result<(), Conflict> {
        let hit = remove_by_lanes(&mut work.masks[..removals.len()], removals);
        let same_marks = self.same_marks.filter(|_| hit != 0);
        if let Some([groups, pairs]) = same_marks {
            self.mark_with(groups, pairs, work);
        }
        for j in set_bits(hit).map(lane_major_cell) {
            let kept = work.masks[j];
            if kept == 0 {
                return Err(Conflict);
            }
            work.changed[j / 64] |= 1 << (j % 64);
            if same_marks.is_none() {
                self.mark(j, work);
            }
            work.push_if(j, is_single(kept));
        }
        Ok(())
    }

    /// Removes `values(i)` from the `i`-th of (at most 64) `peers`. Whether a peer still
    /// has the value is unpredictable, so the loop does not branch on it: it writes every
    /// peer and collects the changed ones in a bitset, handled afterwards.
    #[inline(always)]
    fn take_from_peers<S: Shape>(
        &self,
        peers: &[u32],
        work: &mut Work<'_, S>,
        values: impl Fn(usize) -> u64,
    ) -> Result<(), Conflict> {
        let mut hit = 0u64;
        for (i, &p) in peers.iter().enumerate() {
            let slot = &mut work.masks[p as usize];
            let m = *slot;
            let kept = m & !values(i);
            *slot = kept;
            hit |= u64::from(kept != m) << i;
        }
        // Only a peer that lost a value can have emptied.
        for i in set_bits(hit) {
            let p = peers[i] as usize;
            self.narrow_or_fail(p, work.masks[p], work)?;
        }
        Ok(())
    }

    /// Removes `values` from `cell`; true when it lost any, a conflict when none is left.
    #[inline(always)]
    pub(super) fn take_away<S: Shape>(
        &self,
        cell: usize,
        values: u64,
        work: &mut Work<'_, S>,
    ) -> Result<bool, Conflict> {
        let m = work.masks[cell];
        if m & values == 0 {
            return Ok(false);
        }
        self.forget(cell, m & values, work);
        self.narrow_or_fail(cell, m & !values, work)?;
        Ok(true)
    }
}

/// Removes `removals[j]` from `masks[j]` for every `j`, whole groups of [`LANES`] at a
/// time, and returns the masks that lost a value as a lane-major bitset: mask
/// `q * LANES + j` is bit `j * GROUPS + q` (see [`lane_major_cell`]). Each lane keeps its
/// own word of bits, all shifted by the same group index, and "lost a value" is computed
/// arithmetically, so the loop vectorises without per-lane shifts or compares. A
/// function of its own, so that the loop keeps its pointers in registers (inside a run
/// it reloaded them from the stack on every group).
#[inline(never)]
fn remove_by_lanes(masks: &mut [u64], removals: &[u64]) -> u64 {
    let mut lost = [0u64; LANES];
    let lanes = masks
        .chunks_exact_mut(LANES)
        .zip(removals.chunks_exact(LANES));
    for (q, (slots, removals)) in lanes.enumerate() {
        for ((slot, &r), lost) in slots.iter_mut().zip(removals).zip(lost.iter_mut()) {
            let taken = *slot & r;
            // 1 when `taken` is not zero: its top bit or the top bit of its negation.
            *lost |= ((taken | taken.wrapping_neg()) >> 63) << (q % GROUPS);
            *slot &= !r;
        }
    }
    lost.iter()
        .enumerate()
        .fold(0, |hit, (j, &bits)| hit | bits << (j * GROUPS))
}

/// Groups of [`LANES`] masks in a dense family's row (at most 64 masks).
const GROUPS: usize = 64 / LANES;

/// The mask index of bit `bit` of a lane-major bitset from [`remove_by_lanes`].
#[inline(always)]
fn lane_major_cell(bit: usize) -> usize {
    (bit % GROUPS) * LANES + bit / GROUPS
}
