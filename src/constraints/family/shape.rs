//! The compile-time shapes a run is specialised for, and a run's working state.

use std::marker::PhantomData;

/// What a run may take for granted about its family, fixed at compile time: each shape
/// gets its own copy of the run, without the branches (and the register pressure) of the
/// others.
pub(super) trait Shape {
    /// The family has a value-major view (then it is aligned).
    const VIEW: bool;
    /// Every cell is a peer of every other, with removals laid out over all cells.
    const DENSE: bool;
    /// Whether no group has shifts, when the shape says.
    const ALIGNED: Option<bool>;
    /// Whether the family may have intersecting pairs for the locked-values rule.
    const PAIRS: bool;
}

/// Aligned families with a value-major view (Sudoku, Latin squares).
pub(super) struct Viewed;

/// Families where every cell is a peer of every other, with shifts and no intersecting
/// pairs (N-Queens).
pub(super) struct Dense;

/// Any other family.
pub(super) struct General;

impl Shape for Viewed {
    const VIEW: bool = true;
    const DENSE: bool = false;
    const ALIGNED: Option<bool> = Some(true);
    const PAIRS: bool = true;
}

impl Shape for Dense {
    const VIEW: bool = false;
    const DENSE: bool = true;
    const ALIGNED: Option<bool> = Some(false);
    const PAIRS: bool = false;
}

impl Shape for General {
    const VIEW: bool = false;
    const DENSE: bool = false;
    const ALIGNED: Option<bool> = None;
    const PAIRS: bool = true;
}

/// The working state of one run, laid out in the engine's scratch space.
pub(super) struct Work<'a, S> {
    pub(super) masks: &'a mut [u64],
    /// Cells fixed but not yet removed from their peers; a cell becomes fixed at most once
    /// per run, so the stack never holds more than one entry per cell.
    pub(super) stack: &'a mut [u64],
    /// The working copy of the value-major view (empty without one): value `v`'s cells
    /// are words `v * cell_words..`.
    pub(super) places: &'a mut [u64],
    /// The values taken by the fixed cells of the family's [`Taken`](super::Taken) group
    /// (0 without one).
    pub(super) taken: u64,
    pub(super) pending: usize,
    /// Cells narrowed in this run, to write back.
    pub(super) changed: &'a mut [u64],
    pub(super) dirty: &'a mut [u64],
    pub(super) touched: &'a mut [u64],
    /// The pairs the current locked-values sweep looks at.
    pub(super) sweeping: &'a mut [u64],
    /// The segments' unions during a sweep (see [`Family::cover`](super::Family::cover)).
    pub(super) unions: &'a mut [u64],
    /// In a family whose pairs come later, the view as the last locked-values sweep of
    /// this run found it (all zero before the first): see
    /// [`Family::locked_values_by_view`](super::Family::locked_values_by_view).
    pub(super) swept: &'a mut [u64],
    pub(super) shape: PhantomData<S>,
}

impl<S> Work<'_, S> {
    #[inline]
    pub(super) fn push(&mut self, cell: usize) {
        if let Some(slot) = self.stack.get_mut(self.pending) {
            *slot = cell as u64;
            self.pending += 1;
        }
    }

    /// Stacks `cell` if `fixed`, without a branch: in the removal passes, whether a cell
    /// that lost a value is left with one is a coin toss for the predictor. The slot is
    /// written either way and kept only when the stack grows.
    #[inline(always)]
    pub(super) fn push_if(&mut self, cell: usize, fixed: bool) {
        if let Some(slot) = self.stack.get_mut(self.pending) {
            *slot = cell as u64;
        }
        self.pending += usize::from(fixed);
    }

    #[inline]
    pub(super) fn pop(&mut self) -> Option<usize> {
        self.pending = self.pending.checked_sub(1)?;
        Some(self.stack[self.pending] as usize)
    }

    #[inline]
    pub(super) fn union(&self, cells: &[u32]) -> u64 {
        cells.iter().fold(0, |acc, &c| acc | self.masks[c as usize])
    }
}
