//! Static facts about the variables that the search heuristics use: degrees, domain
//! middles, and the neighbour lists of the dynamic-degree tie-break. Part of the compiled
//! form, so that every solver of a model shares them.

use std::sync::OnceLock;

use crate::constraints::{Constraint, NeighbourRows};
use crate::domain::Domain;

/// Static facts about each variable that the heuristics use.
#[derive(Clone, Debug)]
pub(crate) struct VarInfo {
    /// Number of constraints on each variable.
    pub(crate) degree: Vec<u32>,
    /// Every variable has the same degree (then degree breaks no ties).
    pub(crate) equal_degrees: bool,
    /// Bit index (from the variable's base) of the middle of its initial domain.
    pub(crate) middle: Vec<u32>,
    /// Variables sharing a constraint with each variable, for the dynamic degree
    /// tie-break: built on first use by a solver of that order, then shared by every
    /// solver of the model (it is part of the compiled form).
    pub(crate) neighbours: OnceLock<Neighbours>,
}

impl VarInfo {
    /// Degrees and domain middles of the variables of `domains`.
    pub(crate) fn new(domains: &[Domain], constraints: &[Constraint]) -> Self {
        let mut degree = vec![0u32; domains.len()];
        for c in constraints {
            c.add_degrees(&mut degree);
        }
        let middle = domains
            .iter()
            .map(|d| {
                let lo = i64::from(d.min().unwrap_or(0));
                let hi = i64::from(d.max().unwrap_or(0));
                (lo + (hi - lo) / 2 - i64::from(d.base())) as u32
            })
            .collect();
        VarInfo {
            equal_degrees: degree.windows(2).all(|d| d[0] == d[1]),
            degree,
            middle,
            neighbours: OnceLock::new(),
        }
    }
}

/// Models up to this many variables also keep their neighbours as bitsets.
pub(crate) const MAX_BITSET_VARS: usize = 64 * BITSET_WORDS;
pub(crate) const BITSET_WORDS: usize = 32;

/// The neighbour lists as one bitset row per variable.
#[derive(Clone, Debug)]
pub(crate) struct NeighbourBits {
    pub(crate) words: usize,
    rows: Vec<u64>,
}

impl NeighbourBits {
    /// How many neighbours of `v` lie in the bitset `set`, which has one word per row
    /// word: its length is the row length, so that a bitset of known length makes the
    /// count unroll.
    #[inline]
    pub(crate) fn count_in(&self, v: usize, set: &[u64]) -> u32 {
        debug_assert_eq!(set.len(), self.words, "one bitset word per row word");
        let len = set.len();
        self.rows[v * len..(v + 1) * len]
            .iter()
            .zip(set)
            .map(|(n, s)| (n & s).count_ones())
            .sum()
    }
}

/// For each variable, the variables it shares a constraint with (for a family of groups,
/// a group): as bitsets for models of at most [`MAX_BITSET_VARS`] variables, else as
/// compressed rows.
#[derive(Clone, Debug)]
pub(crate) struct Neighbours {
    start: Vec<u32>,
    list: Vec<u32>,
    /// No lists were kept: every variable neighbours every other one (nothing to tell
    /// them apart), or the lists would hold more than [`MAX_NEIGHBOUR_ENTRIES`] entries.
    /// The tie-break then falls back to the static degree.
    pub(crate) unused: bool,
    /// The rows as bitsets, for models of at most `MAX_BITSET_VARS` variables (which
    /// keep no lists).
    pub(crate) bits: Option<NeighbourBits>,
}

/// The most entries the neighbour lists may take (64 MiB): a constraint over `k`
/// variables adds `k (k - 1)` of them, so one all-different or sum over some 4,000
/// variables reaches it. Beyond, the dynamic tie-break is not worth its memory.
const MAX_NEIGHBOUR_ENTRIES: usize = 1 << 24;

impl Neighbours {
    pub(crate) fn new(num_vars: usize, constraints: &[Constraint]) -> Self {
        let entries = constraints
            .iter()
            .fold(0usize, |sum, c| sum.saturating_add(c.neighbour_entries()));
        if entries > MAX_NEIGHBOUR_ENTRIES {
            return Neighbours::unused();
        }
        if num_vars <= MAX_BITSET_VARS {
            return Neighbours::from_bits(num_vars, constraints);
        }
        let mut rows: Vec<Vec<u32>> = vec![Vec::new(); num_vars];
        for c in constraints {
            c.add_neighbours(rows.as_mut_slice());
        }
        let mut start = Vec::with_capacity(num_vars + 1);
        let mut list = Vec::new();
        start.push(0);
        for row in &mut rows {
            row.sort_unstable();
            row.dedup();
            list.extend_from_slice(row);
            start.push(list.len() as u32);
        }
        if rows.iter().all(|r| r.len() + 1 == num_vars) {
            // Nothing to tell the variables apart: keep no lists.
            return Neighbours::unused();
        }
        Neighbours {
            start,
            list,
            unused: false,
            bits: None,
        }
    }

    /// [`Neighbours::new`] for a model of at most [`MAX_BITSET_VARS`] variables: the rows
    /// gathered as bitsets (no sorting, no repeats), the lists read off them.
    fn from_bits(num_vars: usize, constraints: &[Constraint]) -> Self {
        let words = num_vars.div_ceil(64);
        let mut bits = NeighbourBits {
            words,
            rows: vec![0u64; num_vars * words],
        };
        for c in constraints {
            c.add_neighbours(&mut bits);
        }
        // The search reads the bitsets only, so no lists are read off them.
        let everyone = (0..num_vars).all(|v| {
            let row = &bits.rows[v * words..(v + 1) * words];
            row.iter().map(|w| w.count_ones() as usize).sum::<usize>() + 1 == num_vars
        });
        if everyone {
            // Nothing to tell the variables apart: keep no lists.
            return Neighbours::unused();
        }
        Neighbours {
            start: Vec::new(),
            list: Vec::new(),
            unused: false,
            bits: Some(bits),
        }
    }

    /// No lists (see [`Neighbours::unused`]).
    fn unused() -> Self {
        Neighbours {
            start: Vec::new(),
            list: Vec::new(),
            unused: true,
            bits: None,
        }
    }

    /// The listed neighbours of `v` (none when the rows are kept as bitsets only).
    pub(crate) fn of(&self, v: usize) -> &[u32] {
        match (self.start.get(v), self.start.get(v + 1)) {
            (Some(&from), Some(&to)) => &self.list[from as usize..to as usize],
            _ => &[],
        }
    }
}

impl NeighbourRows for NeighbourBits {
    fn extend_row(&mut self, x: usize, others: impl Iterator<Item = u32>) {
        let row = &mut self.rows[x * self.words..(x + 1) * self.words];
        for u in others {
            row[u as usize / 64] |= 1 << (u % 64);
        }
    }

    fn extend_row_bits(&mut self, x: usize, others: &[u64]) -> bool {
        if others.len() > self.words {
            return false;
        }
        let row = &mut self.rows[x * self.words..(x + 1) * self.words];
        for (r, &o) in row.iter_mut().zip(others) {
            *r |= o;
        }
        true
    }
}
