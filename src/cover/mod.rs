//! Exact cover with clause learning: a problem stated as items and options (Knuth's
//! formulation), solved by conflict-driven search.
//!
//! Each option covers some items. A solution chooses options so that every *primary* item
//! is covered exactly once and every *secondary* item at most once. A Sudoku is one: an
//! option is "this cell holds this digit", covering the cell and the digit in its row, its
//! column and its box; a Latin square and a tiling are others.
//!
//! The search is the one of SAT solvers, with the items in place of clauses: every option
//! is a Boolean choice, an item's options exclude each other once one is chosen, and a
//! primary item with a single option left chooses it. Those two rules run on counters per
//! item, not on the quadratic clauses an encoding would need. A conflict is explained in
//! the same terms (this option is out because that one covers the same item; this option
//! is in because it is the last of its item), the explanation becomes a learned clause
//! (minimised, and shrunk to one literal per earlier level where one implies the rest),
//! and the search jumps back to where the clause first applies. Choices come from each
//! option's conflict history (CHB: how recently it took part in a conflict when it was
//! set) with target and saved phases, and the search restarts on the Luby sequence.
//! Where a depth-first search meets the same dead end under many different choices
//! (large Sudoku boards at the phase transition), the learned clauses prune it
//! everywhere at once. [`CoverSolver::count`] counts covers the same way: each cover found
//! is ruled out by a clause of its own, and the search goes on with what it learned.
//! [`solve_raced`] and [`count_raced`] race differently seeded searches on threads for
//! the same answer sooner.
//!
//! ```
//! use bitcsp::cover::{CoverOutcome, CoverSolver, ExactCover};
//! // Items 0, 1, 2 (all primary); the options {0, 1}, {2}, {1, 2}, {0}.
//! let mut problem = ExactCover::new(3, 0)?;
//! let a = problem.add_option(&[0, 1])?;
//! let b = problem.add_option(&[2])?;
//! problem.add_option(&[1, 2])?;
//! problem.add_option(&[0])?;
//! let mut solver = CoverSolver::new(&problem);
//! match solver.solve(&[b])? {
//!     CoverOutcome::Solution(chosen) => assert_eq!(chosen, vec![a, b]),
//!     other => panic!("expected a cover, got {other:?}"),
//! }
//! # Ok::<(), bitcsp::cover::CoverError>(())
//! ```

mod analyze;
mod clauses;
mod compact;
mod order;
mod race;
mod solver;

pub use race::{count_raced, solve_raced, RacedCount, RACED_SEARCHES, RACE_SLICE};
pub use solver::{CoverOutcome, CoverSolver, CoverStats};

use thiserror::Error;

/// A mistake in stating an exact-cover problem, or a search that outgrew the solver.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum CoverError {
    /// An option names an item beyond the problem's items.
    #[error("option {option} covers item {item}, but the problem has {items} items")]
    UnknownItem {
        /// The option's index (the one being added).
        option: usize,
        /// The item it names.
        item: usize,
        /// How many items the problem has.
        items: usize,
    },
    /// An option names the same item twice.
    #[error("option {option} covers item {item} twice")]
    RepeatedItem {
        /// The option's index (the one being added).
        option: usize,
        /// The repeated item.
        item: usize,
    },
    /// A forced option beyond the problem's options.
    #[error("forced option {option}, but the problem has {options} options")]
    UnknownOption {
        /// The option named.
        option: usize,
        /// How many options the problem has.
        options: usize,
    },
    /// More items, options or item entries than the solver's 32-bit indices hold.
    #[error("the problem is too large: more than {max} items, options or item entries")]
    TooLarge {
        /// The largest count allowed.
        max: usize,
    },
    /// The clauses the search must keep (those that bind, and in a count one per cover
    /// found) outgrew the 32-bit arena that holds them.
    #[error("the search's learned clauses outgrew their {max}-word store")]
    OutOfClauseSpace {
        /// The words the store may hold.
        max: usize,
    },
}

/// The largest number of options, and of option-item entries in all: indices are `u32`,
/// and a literal takes one bit more.
const MAX_ENTRIES: usize = (u32::MAX >> 2) as usize;

/// An exact-cover problem: items, the first `primary` of which must be covered exactly
/// once and the rest at most once, and options, each a set of items.
#[derive(Clone, Debug)]
pub struct ExactCover {
    primary: usize,
    items: usize,
    /// The items of option `o` are `option_items[option_start[o]..option_start[o + 1]]`.
    option_start: Vec<u32>,
    option_items: Vec<u32>,
}

impl ExactCover {
    /// A problem with `primary` items covered exactly once (numbered first) and
    /// `secondary` items covered at most once (numbered after them), and no options yet.
    ///
    /// # Errors
    /// [`CoverError::TooLarge`] for more items than the solver's indices hold.
    pub fn new(primary: usize, secondary: usize) -> Result<Self, CoverError> {
        let items = primary
            .checked_add(secondary)
            .filter(|&items| items <= MAX_ENTRIES)
            .ok_or(CoverError::TooLarge { max: MAX_ENTRIES })?;
        Ok(ExactCover {
            primary,
            items,
            option_start: vec![0],
            option_items: Vec::new(),
        })
    }

    /// Adds an option covering `items`; returns its index (options are numbered from 0 in
    /// the order they are added).
    ///
    /// # Errors
    /// [`CoverError::UnknownItem`] for an item beyond the problem's,
    /// [`CoverError::RepeatedItem`] for an item named twice, [`CoverError::TooLarge`] past
    /// the solver's limits; the option is not added then.
    pub fn add_option(&mut self, items: &[usize]) -> Result<usize, CoverError> {
        let option = self.options();
        let entries = self.option_items.len().saturating_add(items.len());
        if option >= MAX_ENTRIES || entries > MAX_ENTRIES {
            return Err(CoverError::TooLarge { max: MAX_ENTRIES });
        }
        for (k, &item) in items.iter().enumerate() {
            if item >= self.items {
                return Err(CoverError::UnknownItem {
                    option,
                    item,
                    items: self.items,
                });
            }
            if items[..k].contains(&item) {
                return Err(CoverError::RepeatedItem { option, item });
            }
        }
        // In range: checked against MAX_ENTRIES above.
        self.option_items.extend(items.iter().map(|&i| i as u32));
        self.option_start.push(entries as u32);
        Ok(option)
    }

    /// How many options the problem has.
    pub fn options(&self) -> usize {
        self.option_start.len() - 1
    }

    /// How many items the problem has, primary and secondary.
    pub fn items(&self) -> usize {
        self.items
    }

    /// How many items must be covered exactly once (items `0..primary`).
    pub fn primary(&self) -> usize {
        self.primary
    }

    /// The items option `option` covers (empty for an option beyond the problem's).
    pub fn option_items(&self, option: usize) -> impl Iterator<Item = usize> + '_ {
        let range = match (
            self.option_start.get(option),
            self.option_start.get(option.saturating_add(1)),
        ) {
            (Some(&from), Some(&to)) => from as usize..to as usize,
            _ => 0..0,
        };
        self.option_items[range].iter().map(|&i| i as usize)
    }

    /// True when `chosen` covers every primary item exactly once and every secondary item
    /// at most once (options beyond the problem's make it false).
    pub fn is_cover(&self, chosen: &[usize]) -> bool {
        let mut covered = vec![0u32; self.items];
        for &o in chosen {
            if o >= self.options() {
                return false;
            }
            for item in self.option_items(o) {
                covered[item] += 1;
            }
        }
        covered
            .iter()
            .enumerate()
            .all(|(item, &c)| c == 1 || (c == 0 && item >= self.primary))
    }
}
