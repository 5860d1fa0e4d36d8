//! What a change dirties: the cell's tight groups (hidden singles), the pairs it lies
//! outside of (locked values), and the stack of fixed cells (rule 1).

use super::shape::{Shape, Work};
use super::Family;
use crate::bits::is_single;
use crate::propagate::Conflict;

impl Family {
    /// Marks the tight groups of `cell` dirty (for hidden singles) and the pairs it lies
    /// outside of touched (for locked values).
    #[inline(always)]
    pub(super) fn mark<S: Shape>(&self, cell: usize, work: &mut Work<'_, S>) {
        if let Some(&[groups, pairs]) = self.cell_marks.get(cell) {
            self.mark_with(groups, pairs, work);
            return;
        }
        let (from, to) = (self.cell_start[cell], self.cell_start[cell + 1]);
        for &g in &self.cell_groups[from as usize..to as usize] {
            if self.tight[g as usize] {
                work.dirty[g as usize / 64] |= 1u64 << (g % 64);
            }
        }
        if !S::PAIRS {
            return;
        }
        match self.pair_words {
            0 => {}
            1 => work.touched[0] |= self.cell_pairs[cell],
            pw => {
                let pairs = &self.cell_pairs[cell * pw..(cell + 1) * pw];
                for (t, &p) in work.touched.iter_mut().zip(pairs) {
                    *t |= p;
                }
            }
        }
    }

    /// Marks tight `groups` dirty and `pairs` touched (one word each: see
    /// [`Family::cell_marks`]).
    #[inline(always)]
    pub(super) fn mark_with<S: Shape>(&self, groups: u64, pairs: u64, work: &mut Work<'_, S>) {
        work.dirty[0] |= groups;
        if let (true, Some(touched)) = (S::PAIRS, work.touched.first_mut()) {
            *touched |= pairs;
        }
    }

    /// Narrows `cell` to `kept` (non-empty, a subset), marking its groups and stacking it
    /// when it became fixed.
    #[inline(always)]
    pub(super) fn narrow<S: Shape>(&self, cell: usize, kept: u64, work: &mut Work<'_, S>) {
        work.masks[cell] = kept;
        work.changed[cell / 64] |= 1 << (cell % 64);
        self.note_change(cell, kept, work);
    }

    /// [`Family::narrow`] after a removal, which may have emptied the cell: a conflict.
    #[inline(always)]
    pub(super) fn narrow_or_fail<S: Shape>(
        &self,
        cell: usize,
        kept: u64,
        work: &mut Work<'_, S>,
    ) -> Result<(), Conflict> {
        if kept == 0 {
            return Err(Conflict);
        }
        self.narrow(cell, kept, work);
        Ok(())
    }

    /// `cell`'s domain changed to `mask`: its groups and pairs need a look, and its value
    /// must leave its peers if it became fixed.
    #[inline(always)]
    pub(super) fn note_change<S: Shape>(&self, cell: usize, mask: u64, work: &mut Work<'_, S>) {
        self.mark(cell, work);
        if is_single(mask) {
            work.push(cell);
        }
    }
}
