//! A family of overlapping permutation groups propagated as one: Sudoku's 27 units, the
//! rows and columns of a Latin square.
//!
//! Each group is an all-different over as many values as variables (a permutation), all
//! over one-word domains with one common base. Run one by one, such groups wake each other
//! through the queue for every value removed: a single decision in a hard Sudoku used to
//! trigger about a hundred propagator runs. Here the family works on a private copy of its
//! domains, sweeps only the groups touched since they were last settled ("dirty" groups),
//! and writes the domains back once, so the queue sees one run and one wake per changed
//! variable. The rules are those of [`AllDifferent`](super::AllDifferent) (fixed values,
//! pigeonhole, hidden singles) plus [`LockedValues`](super::LockedValues) between every
//! two groups that share two or more variables, tried once the singles have settled.

use crate::propagate::{Conflict, Engine};

/// The compiled family.
#[derive(Clone, Debug)]
pub(crate) struct Family {
    /// Engine variables; a variable's position here is its local index.
    vars: Vec<usize>,
    /// Flat store index of each variable's word.
    words: Vec<u32>,
    /// Cells (local indices) of each group, compressed rows.
    group_start: Vec<u32>,
    group_cells: Vec<u32>,
    /// Groups of each cell, compressed rows.
    cell_start: Vec<u32>,
    cell_groups: Vec<u32>,
    /// Intersections: for each pair, bounds into `pair_cells` of the shared cells, the
    /// cells only in the first group and the cells only in the second.
    pairs: Vec<[u32; 4]>,
    /// The two groups of each pair.
    pair_groups: Vec<[u32; 2]>,
    pair_cells: Vec<u32>,
}

impl Family {
    /// The family of `groups` (engine variables), whose words sit at `word_of(var)`.
    pub(crate) fn new(groups: &[Vec<usize>], word_of: impl Fn(usize) -> u32) -> Self {
        let mut vars: Vec<usize> = groups.iter().flatten().copied().collect();
        vars.sort_unstable();
        vars.dedup();
        let local = |v: usize| vars.binary_search(&v).unwrap_or(0) as u32;
        let mut group_start = vec![0];
        let mut group_cells = Vec::new();
        let mut by_cell: Vec<Vec<u32>> = vec![Vec::new(); vars.len()];
        for (g, group) in groups.iter().enumerate() {
            for &v in group {
                group_cells.push(local(v));
                by_cell[local(v) as usize].push(g as u32);
            }
            group_start.push(group_cells.len() as u32);
        }
        let mut cell_start = vec![0];
        let mut cell_groups = Vec::new();
        for row in &by_cell {
            cell_groups.extend_from_slice(row);
            cell_start.push(cell_groups.len() as u32);
        }
        let mut pairs = Vec::new();
        let mut pair_groups = Vec::new();
        let mut pair_cells = Vec::new();
        for (a, ga) in groups.iter().enumerate() {
            for (b, gb) in groups.iter().enumerate().skip(a + 1) {
                let shared: Vec<u32> = ga
                    .iter()
                    .filter(|v| gb.contains(v))
                    .map(|&v| local(v))
                    .collect();
                if shared.len() < 2 {
                    continue;
                }
                let begin = pair_cells.len() as u32;
                pair_cells.extend_from_slice(&shared);
                let only_a = pair_cells.len() as u32;
                pair_cells.extend(ga.iter().filter(|v| !gb.contains(v)).map(|&v| local(v)));
                let only_b = pair_cells.len() as u32;
                pair_cells.extend(gb.iter().filter(|v| !ga.contains(v)).map(|&v| local(v)));
                pairs.push([begin, only_a, only_b, pair_cells.len() as u32]);
                pair_groups.push([a as u32, b as u32]);
            }
        }
        Family {
            words: vars.iter().map(|&v| word_of(v)).collect(),
            vars,
            group_start,
            group_cells,
            cell_start,
            cell_groups,
            pairs,
            pair_groups,
            pair_cells,
        }
    }

    pub(crate) fn vars(&self) -> &[usize] {
        &self.vars
    }

    fn num_groups(&self) -> usize {
        self.group_start.len() - 1
    }

    /// One word per variable, plus the dirty and touched group bitsets.
    pub(crate) fn scratch_words(&self) -> usize {
        self.vars.len() + 2 * self.num_groups().div_ceil(64)
    }

    pub(crate) fn propagate(&self, e: &mut Engine, scratch: &mut [u64]) -> Result<(), Conflict> {
        let n = self.vars.len();
        let (masks, sets) = scratch[..self.scratch_words()].split_at_mut(n);
        let (dirty, touched) = sets.split_at_mut(sets.len() / 2);
        dirty.fill(0);
        // Only the groups of variables written since the last run need another look.
        let since = e.last_run();
        for (i, (m, &w)) in masks.iter_mut().zip(&self.words).enumerate() {
            *m = e.store.word_at(w as usize);
            if e.store.modified_at(w as usize) > since {
                self.touch(i, dirty);
            }
        }
        touched.copy_from_slice(dirty);
        loop {
            while let Some(g) = first_set(dirty, self.num_groups()) {
                self.settle_group(g, masks, dirty, touched)?;
            }
            if !self.apply_locked_values(masks, dirty, touched)? {
                break;
            }
        }
        for (i, &m) in masks.iter().enumerate() {
            e.set_word(self.vars[i], self.words[i] as usize, m)?;
        }
        Ok(())
    }

    fn cells(&self, g: usize) -> &[u32] {
        &self.group_cells[self.group_start[g] as usize..self.group_start[g + 1] as usize]
    }

    /// Marks every group of `cell` dirty.
    #[inline]
    fn touch(&self, cell: usize, dirty: &mut [u64]) {
        self.touch_both(cell, dirty, None);
    }

    /// Marks every group of `cell` dirty and, when given, touched.
    #[inline]
    fn touch_both(&self, cell: usize, dirty: &mut [u64], touched: Option<&mut [u64]>) {
        let (from, to) = (self.cell_start[cell], self.cell_start[cell + 1]);
        let groups = &self.cell_groups[from as usize..to as usize];
        if let Some(touched) = touched {
            for &g in groups {
                touched[g as usize / 64] |= 1 << (g % 64);
            }
        }
        for &g in groups {
            dirty[g as usize / 64] |= 1 << (g % 64);
        }
    }

    /// Fixed values, pigeonhole and hidden singles on group `g` until it changes no more.
    fn settle_group(
        &self,
        g: usize,
        masks: &mut [u64],
        dirty: &mut [u64],
        touched: &mut [u64],
    ) -> Result<(), Conflict> {
        let cells = self.cells(g);
        loop {
            let mut fixed = 0u64;
            for &c in cells {
                let m = masks[c as usize];
                if is_single(m) {
                    if fixed & m != 0 {
                        return Err(Conflict);
                    }
                    fixed |= m;
                }
            }
            let mut again = false;
            let mut once = 0u64;
            let mut twice = 0u64;
            let mut unfixed = 0u32;
            for &c in cells {
                let m = masks[c as usize];
                if is_single(m) {
                    continue;
                }
                let kept = m & !fixed;
                if kept != m {
                    if kept == 0 {
                        return Err(Conflict);
                    }
                    masks[c as usize] = kept;
                    self.touch_both(c as usize, dirty, Some(touched));
                    if is_single(kept) {
                        again = true;
                        continue;
                    }
                }
                twice |= once & kept;
                once |= kept;
                unfixed += 1;
            }
            if again {
                continue;
            }
            let free = once.count_ones();
            if free < unfixed {
                return Err(Conflict);
            }
            let hidden = once & !twice;
            if free != unfixed || hidden == 0 {
                break;
            }
            for &c in cells {
                let m = masks[c as usize];
                let h = m & hidden;
                if h == 0 || is_single(m) {
                    continue;
                }
                if !is_single(h) {
                    return Err(Conflict);
                }
                masks[c as usize] = h;
                self.touch_both(c as usize, dirty, Some(touched));
            }
        }
        dirty[g / 64] &= !(1 << (g % 64));
        Ok(())
    }

    /// Locked values across every intersecting pair with a group touched since the last
    /// sweep; true when something changed.
    fn apply_locked_values(
        &self,
        masks: &mut [u64],
        dirty: &mut [u64],
        touched: &mut [u64],
    ) -> Result<bool, Conflict> {
        let mut changed = false;
        let is_touched = |g: u32, t: &[u64]| t[g as usize / 64] >> (g % 64) & 1 == 1;
        for (&[begin, only_a, only_b, end], &[ga, gb]) in self.pairs.iter().zip(&self.pair_groups) {
            if !is_touched(ga, touched) && !is_touched(gb, touched) {
                continue;
            }
            let cells = |from: u32, to: u32| &self.pair_cells[from as usize..to as usize];
            let union =
                |cs: &[u32], masks: &[u64]| cs.iter().fold(0, |acc, &c| acc | masks[c as usize]);
            let (shared, a, b) = (
                cells(begin, only_a),
                cells(only_a, only_b),
                cells(only_b, end),
            );
            let inside = union(shared, masks);
            let outside_a = union(a, masks);
            let outside_b = union(b, masks);
            if (inside | outside_a).count_ones() as usize == shared.len() + a.len() {
                changed |= self.remove(inside & !outside_a, b, masks, dirty)?;
            }
            if (inside | outside_b).count_ones() as usize == shared.len() + b.len() {
                changed |= self.remove(inside & !outside_b, a, masks, dirty)?;
            }
        }
        // Changes made by this sweep marked their groups dirty: the next sweep looks at
        // the pairs of those groups only.
        touched.copy_from_slice(dirty);
        Ok(changed)
    }

    fn remove(
        &self,
        values: u64,
        cells: &[u32],
        masks: &mut [u64],
        dirty: &mut [u64],
    ) -> Result<bool, Conflict> {
        if values == 0 {
            return Ok(false);
        }
        let mut changed = false;
        for &c in cells {
            let m = masks[c as usize];
            if m & values != 0 {
                let kept = m & !values;
                if kept == 0 {
                    return Err(Conflict);
                }
                masks[c as usize] = kept;
                self.touch(c as usize, dirty);
                changed = true;
            }
        }
        Ok(changed)
    }
}

/// The lowest set bit among the first `groups` bits (the caller clears it).
#[inline]
fn first_set(dirty: &[u64], groups: usize) -> Option<usize> {
    for (k, &w) in dirty.iter().enumerate() {
        let w = if (k + 1) * 64 > groups {
            w & (u64::MAX >> ((k + 1) * 64 - groups))
        } else {
            w
        };
        if w != 0 {
            return Some(k * 64 + w.trailing_zeros() as usize);
        }
    }
    None
}

#[inline]
fn is_single(m: u64) -> bool {
    m != 0 && m & (m - 1) == 0
}
