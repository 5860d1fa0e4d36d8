//! Rules 2 and 3 on a dirty tight group: the pigeonhole conflict and hidden singles.

use super::bits::small;
use super::shape::{Shape, Work};
use super::view::ValueView;
use super::GroupScan;
use super::{Family, NO_RUN, SMALL};
use crate::bits::{is_single, set_bits};
use crate::constraints::all_different::hidden_values;
use crate::propagate::Conflict;

impl Family {
    /// Rules 2 and 3 on group `g`, in its value space: pigeonhole, and hidden singles when
    /// every free value must be used.
    pub(super) fn hidden_singles<S: Shape>(
        &self,
        g: usize,
        work: &mut Work<'_, S>,
    ) -> Result<(), Conflict> {
        let GroupScan {
            from,
            to,
            run,
            plain,
        } = self.scans[g];
        let range = from as usize..to as usize;
        if S::VIEW {
            // A run of this shape always has a view (see `propagate`).
            return match self.view::<S>() {
                Some(view) => self.hidden_singles_viewed(view, g, range, run, work),
                None => Ok(()),
            };
        }
        if let (true, Some(taken)) = (S::DENSE, self.taken) {
            if taken.group as usize == g {
                return self.hidden_singles_taken(work);
            }
        }
        let cells = &self.group_cells[range.clone()];
        let shifts = &self.group_shifts[range];
        let aligned = self.aligned::<S>() || plain;
        let (once, twice, unfixed) = match (aligned, <&[u32; 9]>::try_from(cells)) {
            (true, Ok(_)) if run != NO_RUN => {
                let run = run as usize;
                count_masks(work.masks[run..run + 9].iter().copied())
            }
            // Groups of nine (a 9×9 board's units, any nine-variable group): a loop of
            // known length unrolls, with no end for the predictor to guess on every scan.
            (true, Ok(nine)) if self.vars.len() <= SMALL => {
                let masks = small(work.masks);
                count_masks(nine.iter().map(|&c| masks[c as usize % SMALL]))
            }
            (true, Ok(nine)) => count_cells(work.masks, nine),
            (true, Err(_)) if run != NO_RUN => {
                let run = run as usize;
                tally_run(&work.masks[run..run + cells.len()])
            }
            (true, Err(_)) => tally(work.masks, cells),
            (false, _) => {
                let (mut once, mut twice, mut unfixed) = (0u64, 0u64, 0u32);
                // As `count_cells`, each value moved into the group's value space.
                for (&c, &s) in cells.iter().zip(shifts) {
                    let m = work.masks[c as usize];
                    let free = !is_single(m);
                    let m = (m << s) & u64::from(free).wrapping_neg();
                    twice |= once & m;
                    once |= m;
                    unfixed += u32::from(free);
                }
                (once, twice, unfixed)
            }
        };
        let hidden = hidden_values(once, twice, unfixed)?;
        if hidden == 0 {
            return Ok(());
        }
        for (&c, &s) in cells.iter().zip(shifts) {
            let m = work.masks[c as usize];
            let h = (m << s) & hidden;
            if h == 0 || is_single(m) {
                continue;
            }
            if !is_single(h) {
                return Err(Conflict);
            }
            self.forget(c as usize, m & !(h >> s), work);
            self.narrow(c as usize, h >> s, work);
        }
        Ok(())
    }

    /// [`Family::hidden_singles`] on a dense family's [`Taken`](super::Taken) group, which
    /// holds every cell, in order. Its fixed cells' values have left every
    /// other cell (the stack is empty when a group is scanned), so each lies in one cell
    /// only and the values taken are known: the scan is a plain union of the masks, with
    /// no test per cell of whether it is fixed. Fewer values than cells is the pigeonhole
    /// conflict; with as many, a value in one cell that is not taken is a hidden single.
    fn hidden_singles_taken<S: Shape>(&self, work: &mut Work<'_, S>) -> Result<(), Conflict> {
        let cells = 0..self.vars.len();
        let len = cells.len();
        let (once, twice) = union_twice(work.masks[cells.clone()].iter().copied());
        let values = once.count_ones() as usize;
        if values < len {
            return Err(Conflict);
        }
        let hidden = once & !twice & !work.taken;
        if values > len || hidden == 0 {
            return Ok(());
        }
        for c in cells {
            let m = work.masks[c];
            let h = m & hidden;
            if h == 0 {
                continue;
            }
            if !is_single(h) {
                return Err(Conflict);
            }
            self.narrow(c, h, work);
        }
        Ok(())
    }

    /// [`Family::hidden_singles`] in a family with a value-major view, which also keeps
    /// the bitset of fixed cells. Once the fixed cells' values have left their peers
    /// (always so when a group is scanned), a fixed cell's value lies in that cell only,
    /// so the scan counts values over all cells without telling fixed cells apart:
    /// fewer values than cells is the pigeonhole conflict, and values in one cell only
    /// are hidden singles unless there are just as many as fixed cells (their values).
    fn hidden_singles_viewed<S: Shape>(
        &self,
        view: &ValueView,
        g: usize,
        range: std::ops::Range<usize>,
        run: u32,
        work: &mut Work<'_, S>,
    ) -> Result<(), Conflict> {
        let cells = &self.group_cells[range];
        let fixed = view.fixed_in(g, work.places);
        if fixed as usize == cells.len() {
            // Every cell fixed, and their values gone from each other (the stack is
            // empty): distinct values, nothing hidden (the last cell fixed in a group
            // marks it dirty).
            return Ok(());
        }
        let (once, twice) = match <&[u32; 9]>::try_from(cells) {
            Ok(_) if run != NO_RUN => {
                // Nine consecutive cells: a run of known length, unrolled.
                let run = run as usize;
                union_twice(work.masks[run..run + 9].iter().copied())
            }
            _ if run != NO_RUN => {
                let run = run as usize;
                union_twice(work.masks[run..run + cells.len()].iter().copied())
            }
            Ok(nine) if self.vars.len() <= SMALL => {
                let masks = small(work.masks);
                union_twice(nine.iter().map(|&c| masks[c as usize % SMALL]))
            }
            _ => union_twice(cells.iter().map(|&c| work.masks[c as usize])),
        };
        let values = once.count_ones() as usize;
        if values < cells.len() {
            return Err(Conflict);
        }
        let hidden = once & !twice;
        if values > cells.len() || hidden.count_ones() == fixed {
            // Not every value must be used, or the values in one cell are the fixed ones.
            return Ok(());
        }
        // Which cells take a hidden value, found without a branch per cell (which ones
        // do is a coin toss for the predictor), then placed. A group has at most 64
        // cells here: it has as many cells as values.
        let placed = cells.iter().enumerate().fold(0u64, |acc, (i, &c)| {
            let m = work.masks[c as usize];
            acc | u64::from((m & hidden != 0) & !is_single(m)) << i
        });
        for i in set_bits(placed) {
            let c = cells[i] as usize;
            let m = work.masks[c];
            let h = m & hidden;
            if !is_single(h) {
                return Err(Conflict);
            }
            self.forget(c, m & !h, work);
            self.narrow(c, h, work);
        }
        Ok(())
    }
}

/// The values of `masks`, and those in at least two of them.
#[inline(always)]
fn union_twice(masks: impl IntoIterator<Item = u64>) -> (u64, u64) {
    masks
        .into_iter()
        .fold((0, 0), |(once, twice), m| (once | m, twice | (once & m)))
}

/// Values seen in at least one and in at least two of the unfixed `cells`, and how many
/// cells are unfixed. Branch-free: whether a cell is fixed is a coin toss for the branch
/// predictor.
#[inline(always)]
fn count_cells(masks: &[u64], cells: &[u32]) -> (u64, u64, u32) {
    count_masks(cells.iter().map(|&c| masks[c as usize]))
}

/// [`count_cells`] over the masks themselves.
#[inline(always)]
fn count_masks(masks: impl IntoIterator<Item = u64>) -> (u64, u64, u32) {
    let (mut once, mut twice, mut unfixed) = (0u64, 0u64, 0u32);
    for m in masks {
        let free = !is_single(m);
        let m = m & u64::from(free).wrapping_neg();
        twice |= once & m;
        once |= m;
        unfixed += u32::from(free);
    }
    (once, twice, unfixed)
}

/// [`count_cells`] in a small function of its own, where the loop keeps its pointers in
/// registers.
#[inline(never)]
fn tally(masks: &[u64], cells: &[u32]) -> (u64, u64, u32) {
    count_cells(masks, cells)
}

/// [`count_masks`] over a run of consecutive cells (N-Queens' row group, a board's
/// rows): no indices to load and no bounds to check per cell.
#[inline(never)]
fn tally_run(masks: &[u64]) -> (u64, u64, u32) {
    count_masks(masks.iter().copied())
}
