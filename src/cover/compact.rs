//! After the root's propagation: the search goes on over the options still in play and
//! the items still open, renumbered from 0 in their order.
//!
//! On a large Sudoku board with half its cells given, most options are settled at the
//! root (docs/PERFORMANCE.md counts them). Every array a search indexes by option
//! (values, levels, reasons, phases, scores, watch lists) then holds only the others,
//! side by side in memory, rather than spread among the options settled for good. The
//! numbers keep their order, and a seeded search draws each option's tie-break by its
//! number as stated, so ties fall as they would over the problem as stated: the search
//! is the same either way.

use super::order::Order;
use super::solver::{item_lists, CoverSolver, NONE, TRUE, UNSET};

impl CoverSolver {
    /// Keeps the options unassigned at the root and the items no option covers there,
    /// renumbered in order; notes the options chosen at the root (numbered as stated)
    /// and each kept option's number as stated. The search starts again from an empty
    /// trail over what is kept: what the root settled is in the problem's shape now.
    pub(super) fn compact(&mut self) {
        let mut renumbered = vec![NONE; self.live.len()];
        let (mut open, mut primary) = (0u32, 0u32);
        for (item, number) in renumbered.iter_mut().enumerate() {
            if self.chosen[item] == NONE {
                *number = open;
                open += 1;
                primary += u32::from(item < self.primary as usize);
            }
        }
        self.root_chosen.clear();
        self.original.clear();
        let mut option_start = vec![0u32];
        let mut option_items = Vec::new();
        for o in 0..self.value.len() {
            if self.value[o] == TRUE {
                self.root_chosen.push(o);
            }
            if self.value[o] != UNSET {
                continue;
            }
            // Options fit u32: see ExactCover::add_option.
            self.original.push(o as u32);
            let its = self.option_start[o] as usize..self.option_start[o + 1] as usize;
            // An option in play covers only open items: one covering a covered item
            // would have been set out by the option that covers it.
            option_items.extend(
                self.option_items[its]
                    .iter()
                    .map(|&i| renumbered[i as usize]),
            );
            option_start.push(option_items.len() as u32);
        }
        debug_assert!(!option_items.contains(&NONE));
        let (item_start, item_options) = item_lists(open as usize, &option_start, &option_items);
        self.primary = primary;
        self.option_start = option_start;
        self.option_items = option_items;
        self.item_start = item_start;
        self.item_options = item_options;
        self.live.clear();
        self.live
            .extend(self.item_start.windows(2).map(|w| w[1] - w[0]));
        self.chosen.clear();
        self.chosen.resize(open as usize, NONE);
        self.clear_options(self.original.len());
        self.order = Order::new(self.original.len());
        if self.seed != 0 {
            self.order.break_ties(self.seed, &self.original);
        }
    }
}
