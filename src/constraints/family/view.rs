//! The value-major view: for each value, the bitset of cells that still hold it.

use crate::bits::{is_single, set_bits};

/// Where each value can still go, as a bitset of cells per value, kept in the store
/// beside the domains (so that undo restores it with them) for aligned families. A fixed
/// value then leaves all of a cell's peers with one AND per word of cells, and only the
/// peers that held it are visited; the per-cell domains stay the primary state, and the
/// view is brought up to date for every cell written by others since the last run.
#[derive(Clone, Debug)]
pub(super) struct ValueView {
    /// Words per bitset of cells.
    pub(super) cell_words: usize,
    /// Values, so the view is `values * cell_words` words, followed by `cell_words` words
    /// for the bitset of fixed cells.
    pub(super) values: usize,
    /// Store index of the view's first word.
    pub(super) start: u32,
    /// Each cell's peers as a bitset of cells.
    pub(super) peer_bits: Vec<u64>,
    /// Each group's cells as a bitset of cells.
    pub(super) group_bits: Vec<u64>,
}

/// The most cells for which a family keeps a value-major view (its peer bitsets take
/// `cells² / 64` words).
pub(super) const MAX_VIEW_CELLS: usize = 1024;

impl ValueView {
    /// The view of a family of `n` cells whose peers and groups are the bitsets
    /// `peer_bits` (`n` rows) and `group_bits` (a row per group), rows of `n / 64`
    /// words rounded up, and whose values take `width` bits, kept in the store from index
    /// `start` on.
    pub(super) fn new(
        n: usize,
        peer_bits: Vec<u64>,
        group_bits: Vec<u64>,
        width: u32,
        start: u32,
    ) -> Self {
        ValueView {
            cell_words: n.div_ceil(64),
            values: width as usize,
            start,
            peer_bits,
            group_bits,
        }
    }

    /// True when `places` holds exactly the cells whose `masks` hold each value.
    pub(super) fn agrees_with(&self, masks: &[u64], places: &[u64]) -> bool {
        (0..self.values).all(|v| {
            masks.iter().enumerate().all(|(cell, &m)| {
                let placed = places[v * self.cell_words + cell / 64] >> (cell % 64) & 1 == 1;
                placed == (m >> v & 1 == 1)
            })
        })
    }

    /// The view of the domains `masks`, from scratch, with its bitset of fixed cells. Cells
    /// holding every value (most of them before the first run of a search) are gathered
    /// into one bitset that every value then takes with one OR per word, rather than set
    /// value by value. Which cells are full is gathered without a branch per cell (at a
    /// search's start the givens lie where the branch predictor cannot guess); the others
    /// are then visited.
    pub(super) fn rebuild(&self, masks: &[u64], places: &mut [u64]) {
        places.fill(0);
        let every = u64::MAX >> (64 - self.values);
        let (by_value, fixed) = places.split_at_mut(self.fixed_at());
        let mut full = [0u64; MAX_VIEW_CELLS / 64];
        for (k, chunk) in masks.chunks(64).enumerate() {
            let (all, single) = chunk
                .iter()
                .enumerate()
                .fold((0, 0), |(all, single), (i, &m)| {
                    (
                        all | u64::from(m & every == every) << i,
                        single | u64::from(is_single(m)) << i,
                    )
                });
            full[k] = all;
            fixed[k] = single;
            for i in set_bits(!all & (u64::MAX >> (64 - chunk.len()))) {
                let m = chunk[i];
                for v in set_bits(m & every) {
                    by_value[v * self.cell_words + k] |= 1 << i;
                }
            }
        }
        for value in by_value.chunks_exact_mut(self.cell_words) {
            for (w, &f) in value.iter_mut().zip(&full) {
                *w |= f;
            }
        }
    }

    /// Where the bitset of fixed cells starts in the view.
    #[inline(always)]
    pub(super) fn fixed_at(&self) -> usize {
        self.values * self.cell_words
    }

    /// How many cells of group `g` are fixed.
    #[inline(always)]
    pub(super) fn fixed_in(&self, g: usize, places: &[u64]) -> u32 {
        let (w, f) = (self.cell_words, self.fixed_at());
        if w == 2 {
            // Up to 128 cells (a 9×9 board): two words, no loop.
            let (cells, fixed) = (&self.group_bits[g * 2..g * 2 + 2], &places[f..f + 2]);
            return (cells[0] & fixed[0]).count_ones() + (cells[1] & fixed[1]).count_ones();
        }
        self.group_bits[g * w..(g + 1) * w]
            .iter()
            .zip(&places[f..f + w])
            .map(|(g, f)| (g & f).count_ones())
            .sum()
    }

    /// Rewrites `cell`'s bit in every value's bitset from its domain `mask`.
    #[inline]
    pub(super) fn refresh(&self, cell: usize, mask: u64, places: &mut [u64]) {
        let (k, bit) = (cell / 64, 1u64 << (cell % 64));
        for v in 0..self.values {
            let slot = &mut places[v * self.cell_words + k];
            *slot = (*slot & !bit) | (u64::from(mask >> v & 1 == 1) * bit);
        }
        let slot = &mut places[self.fixed_at() + k];
        *slot = (*slot & !bit) | (u64::from(is_single(mask)) * bit);
    }
}
