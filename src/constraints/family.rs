//! A family of overlapping all-different groups propagated as one: Sudoku's 27 units, the
//! rows and columns of a Latin square, the rows and diagonals of N-Queens.
//!
//! Every group's values fit one 64-bit word (with the offsets of `x[i] + c[i]` groups
//! applied as bit shifts). Run one by one, such groups wake each other
//! through the queue for every value removed: a single decision in a hard Sudoku used to
//! trigger about a hundred propagator runs. Here the family works on a private copy of its
//! domains and writes them back once, so the queue sees one run and one wake per changed
//! variable. Inside, the rules of [`AllDifferent`](super::AllDifferent) run where they are
//! cheapest: a newly fixed value leaves the cell's peers (every cell sharing a group with
//! it) directly, through all their common groups at once; pigeonhole and hidden singles
//! look only at tight groups (as many values as cells) changed since they were last looked
//! at; [`LockedValues`](super::LockedValues) between every two groups sharing two or more
//! cells runs last, on pairs with a changed cell outside their intersection. The two inner
//! loops whose branches are unpredictable (is this cell fixed? does this peer still hold
//! the value?) are branch-free. A run is compiled once per [`Shape`] of family (with a
//! value-major view, dense with shifts, general), so that each copy carries only the code
//! its families need.

use std::marker::PhantomData;

use super::all_different::hidden_values;
use super::locked_values::locked_values;
use super::{is_single, set_bits};
use crate::propagate::{Conflict, Engine};

/// The largest table of precomputed removals, in words (512 KiB).
const MAX_REMOVALS: usize = 1 << 16;

/// One group of a family: its variables and where each one's bit 0 lies in the group's
/// value space (all zero for a plain group; `x[i] + c[i]` groups such as N-Queens diagonals
/// have shifts).
#[derive(Clone, Debug)]
pub(crate) struct FamilyGroup {
    pub(crate) vars: Vec<usize>,
    pub(crate) shifts: Vec<u32>,
    /// As many values as variables (Sudoku's units, N-Queens' rows): its hidden singles
    /// and pigeonhole need a look after every change. Looser groups (N-Queens' diagonals)
    /// act only through the peers of fixed cells.
    pub(crate) tight: bool,
}

impl FamilyGroup {
    /// No shifts: a bit means the same value in every variable.
    pub(crate) fn aligned(&self) -> bool {
        self.shifts.iter().all(|&s| s == 0)
    }
}

/// The compiled family.
#[derive(Clone, Debug)]
pub(crate) struct Family {
    /// Engine variables; a variable's position here is its local index.
    vars: Vec<usize>,
    /// Flat store index of each variable's word.
    words: Vec<u32>,
    /// Cells (local indices) of each group and their shifts, compressed rows.
    group_start: Vec<u32>,
    group_cells: Vec<u32>,
    group_shifts: Vec<u32>,
    /// Groups of each cell, compressed rows.
    cell_start: Vec<u32>,
    cell_groups: Vec<u32>,
    /// When there are at most 64 groups and 64 pairs: per cell, its tight groups and the
    /// pairs it lies outside of as two bitset words, so that marking a cell is two ORs
    /// after one bounds check (else the marks go through `cell_groups` and `cell_pairs`).
    cell_marks: Vec<[u64; 2]>,
    /// The marks of every cell, when all cells have the same (N-Queens: every cell lies
    /// in every group, and there are no pairs): a removal pass that changed any cell
    /// marks them once.
    same_marks: Option<[u64; 2]>,
    /// The marks of all cells together, when there are `cell_marks`.
    all_marks: Option<[u64; 2]>,
    /// For each cell, `pair_words` words: the pairs (below) in which it lies outside the
    /// intersection. Only a change there can confine a value of one group to the
    /// intersection, so only those pairs need another look.
    cell_pairs: Vec<u64>,
    pair_words: usize,
    /// Which groups are tight.
    tight: Vec<bool>,
    /// What a hidden-single scan of each group needs, in one record: its cells'
    /// bounds in `group_cells`, its first cell if they are consecutive (else `NO_RUN`),
    /// and 1 if it has no shifts.
    scans: Vec<[u32; 4]>,
    /// For each cell, every cell sharing a group with it (compressed rows), and where a
    /// value's bit lands in the peer: bit `64 + d` of the pattern is set for every group
    /// through which the bit moves by `d` (N-Queens: 0 and both diagonals' ±distance), so
    /// `(pattern << bit) >> 64` is the peer's mask of values to remove.
    peer_start: Vec<u32>,
    peers: Vec<u32>,
    peer_pattern: Vec<u128>,
    /// The patterns worked out for every value when that is small (`removals[bit * peers
    /// + entry]`, at most `MAX_REMOVALS` words): one load instead of a 128-bit shift.
    removals: Vec<u64>,
    /// Intersections of aligned groups: for each pair, bounds into `pair_cells` of the
    /// shared cells, the cells only in the first group and the cells only in the second.
    pairs: Vec<[u32; 4]>,
    pair_cells: Vec<u32>,
    /// When every pair is a 9×9 board's box-line intersection (three shared cells, six
    /// on each side) and the family has at most [`SMALL`] cells, each pair's cells as
    /// one record: shared, then A's, then B's.
    box_lines: Vec<[u8; 15]>,
    /// When there are box-line records, at most 64 pairs, and each record's two outside
    /// parts are each the union of two of the pairs' intersections ("segments", at most
    /// 64; a 9×9 board's mini-rows and mini-columns): the segments, and for each pair
    /// its segments as (intersection, A's two, B's two). A sweep forms the union of every
    /// segment once, and a pair check ORs five unions instead of fifteen masks.
    segments: Segments,
    /// No group has shifts: a bit means the same value in every cell.
    aligned: bool,
    /// The store index of the first cell's word when the cells' words are consecutive.
    first_word: Option<u32>,
    /// The value-major view of an aligned family, if it has one.
    view: Option<ValueView>,
    /// Every cell is a peer of every other and `removals` is laid out over all cells:
    /// `removals[(bit * cells + cell) * row + other]`.
    dense: bool,
    /// A removal row's length in a dense family: the number of cells rounded up to a
    /// multiple of [`LANES`], so that a row is whole groups of lanes (the number of cells
    /// in other families).
    row: usize,
}

/// Families of at most this many cells index their working masks through a fixed-size
/// array.
const SMALL: usize = 256;

/// The first [`SMALL`] working masks as an array: a cell index reduced modulo its length
/// (the identity for the cells of a family that small) needs no bounds check, where a
/// slice index checks every load.
#[inline(always)]
fn small(masks: &[u64]) -> &[u64; SMALL] {
    // The working masks always span at least SMALL words (`Family::span`).
    debug_assert!(masks.len() >= SMALL, "the working masks span SMALL words");
    match masks.first_chunk() {
        Some(array) => array,
        None => &[0; SMALL],
    }
}

/// The pairs' intersections as segments (see [`Family::segments`]); empty when the pairs
/// are not all box-line records whose outside parts are unions of two segments.
#[derive(Clone, Debug, Default)]
struct Segments {
    /// Each segment's three cells.
    cells: Vec<[u8; 3]>,
    /// Each pair's segments: its intersection, then A's two, then B's two.
    pairs: Vec<[u8; 5]>,
}

impl Segments {
    fn new(box_lines: &[[u8; 15]]) -> Self {
        let sorted = |cells: &[u8]| {
            let mut cells = cells.to_vec();
            cells.sort_unstable();
            cells
        };
        let mut cells: Vec<Vec<u8>> = box_lines.iter().map(|r| sorted(&r[..3])).collect();
        cells.sort_unstable();
        cells.dedup();
        if box_lines.len() > 64 || cells.len() > 64 {
            return Segments::default();
        }
        let index = |segment: &[u8]| cells.iter().position(|c| c.as_slice() == segment);
        // The two segments whose cells make up `side` exactly, if there are two.
        let cover = |side: &[u8]| -> Option<[u8; 2]> {
            let side = sorted(side);
            let inside: Vec<usize> = (0..cells.len())
                .filter(|&s| cells[s].iter().all(|c| side.contains(c)))
                .collect();
            match inside[..] {
                [x, y] if sorted(&[cells[x].clone(), cells[y].clone()].concat()) == side => {
                    Some([x as u8, y as u8])
                }
                _ => None,
            }
        };
        let pairs: Option<Vec<[u8; 5]>> = box_lines
            .iter()
            .map(|r| {
                let i = index(&sorted(&r[..3]))? as u8;
                let [a1, a2] = cover(&r[3..9])?;
                let [b1, b2] = cover(&r[9..])?;
                Some([i, a1, a2, b1, b2])
            })
            .collect();
        match pairs {
            Some(pairs) if !pairs.is_empty() => Segments {
                cells: cells.iter().map(|c| [c[0], c[1], c[2]]).collect(),
                pairs,
            },
            _ => Segments::default(),
        }
    }
}

/// The run start (`Family::scans`) of a group whose cells are not consecutive.
const NO_RUN: u32 = u32::MAX;

/// How many cells a dense family's removal loop handles per step.
const LANES: usize = 4;

/// Where each value can still go, as a bitset of cells per value, kept in the store
/// beside the domains (so that undo restores it with them) for aligned families. A fixed
/// value then leaves all of a cell's peers with one AND per word of cells, and only the
/// peers that held it are visited; the per-cell domains stay the primary state, and the
/// view is brought up to date for every cell written by others since the last run.
#[derive(Clone, Debug)]
struct ValueView {
    /// Words per bitset of cells.
    cell_words: usize,
    /// Values, so the view is `values * cell_words` words, followed by `cell_words` words
    /// for the bitset of fixed cells.
    values: usize,
    /// Store index of the view's first word.
    start: u32,
    /// Each cell's peers as a bitset of cells.
    peer_bits: Vec<u64>,
    /// Each group's cells as a bitset of cells.
    group_bits: Vec<u64>,
}

/// The most cells for which a family keeps a value-major view (its peer bitsets take
/// `cells² / 64` words).
const MAX_VIEW_CELLS: usize = 1024;

impl Family {
    /// The family of `groups`, whose variables' words sit at `word_of(var)`.
    /// `width` bounds the bits of the variables' domains (bit `width - 1` is the highest
    /// that can be set).
    /// The family keeps its value-major view, if any, in the store from index `aux_start`
    /// on (see [`Family::aux_words`]).
    pub(crate) fn new(
        groups: &[FamilyGroup],
        width: u32,
        word_of: impl Fn(usize) -> u32,
        aux_start: u32,
    ) -> Self {
        let mut vars: Vec<usize> = groups.iter().flat_map(|g| g.vars.iter().copied()).collect();
        vars.sort_unstable();
        vars.dedup();
        let local = |v: usize| vars.binary_search(&v).unwrap_or(0) as u32;
        let mut group_start = vec![0];
        let mut group_cells = Vec::new();
        let mut group_shifts = Vec::new();
        let mut by_cell: Vec<Vec<(u32, u32)>> = vec![Vec::new(); vars.len()];
        for (g, group) in groups.iter().enumerate() {
            for (&v, &shift) in group.vars.iter().zip(&group.shifts) {
                group_cells.push(local(v));
                group_shifts.push(shift);
                by_cell[local(v) as usize].push((g as u32, shift));
            }
            group_start.push(group_cells.len() as u32);
        }
        let mut cell_start = vec![0];
        let mut cell_groups = Vec::new();
        let mut peer_start = vec![0];
        let mut peers = Vec::new();
        let mut peer_pattern: Vec<u128> = Vec::new();
        for (cell, memberships) in by_cell.iter().enumerate() {
            cell_groups.extend(memberships.iter().map(|&(g, _)| g));
            cell_start.push(cell_groups.len() as u32);
            let mut mine: Vec<(u32, i32)> = memberships
                .iter()
                .flat_map(|&(g, own)| {
                    let group = &groups[g as usize];
                    group
                        .vars
                        .iter()
                        .zip(&group.shifts)
                        .map(move |(&v, &theirs)| (local(v), own as i32 - theirs as i32))
                })
                .filter(|&(c, _)| c as usize != cell)
                .collect();
            mine.sort_unstable();
            let row_start = peers.len();
            for (c, d) in mine {
                // Shifts lie in 0..64, so 64 + d lies in 1..128.
                let bit = 1u128 << (64 + d);
                if peers.len() > row_start && peers.last() == Some(&c) {
                    if let Some(pattern) = peer_pattern.last_mut() {
                        *pattern |= bit;
                    }
                } else {
                    peers.push(c);
                    peer_pattern.push(bit);
                }
            }
            peer_start.push(peers.len() as u32);
        }
        let mut pairs = Vec::new();
        let mut pair_cells = Vec::new();
        for (a, ga) in groups.iter().enumerate() {
            for gb in groups.iter().skip(a + 1) {
                if !ga.aligned() || !gb.aligned() {
                    continue;
                }
                let (ga, gb) = (&ga.vars, &gb.vars);
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
            }
        }
        let tight: Vec<bool> = groups.iter().map(|g| g.tight).collect();
        let plain: Vec<bool> = groups.iter().map(FamilyGroup::aligned).collect();
        let group_run: Vec<u32> = (0..groups.len())
            .map(|g| {
                let cells = &group_cells[group_start[g] as usize..group_start[g + 1] as usize];
                let consecutive = cells.windows(2).all(|w| w[1] == w[0] + 1);
                match cells.first() {
                    Some(&first) if consecutive => first,
                    _ => NO_RUN,
                }
            })
            .collect();
        let pair_words = pairs.len().div_ceil(64);
        let mut cell_pairs = vec![0u64; vars.len() * pair_words];
        for (p, &[_, only_a, _, end]) in pairs.iter().enumerate() {
            for &c in &pair_cells[only_a as usize..end as usize] {
                cell_pairs[c as usize * pair_words + p / 64] |= 1 << (p % 64);
            }
        }
        let cell_marks = if groups.len() <= 64 && pair_words <= 1 {
            by_cell
                .iter()
                .enumerate()
                .map(|(c, m)| {
                    let groups = m
                        .iter()
                        .filter(|&&(g, _)| tight[g as usize])
                        .fold(0u64, |acc, &(g, _)| acc | 1 << g);
                    [groups, cell_pairs.get(c).copied().unwrap_or(0)]
                })
                .collect()
        } else {
            Vec::new()
        };
        let same_marks = match cell_marks.split_first() {
            Some((first, rest)) if rest.iter().all(|m| m == first) => Some(*first),
            _ => None,
        };
        let all_marks = (!cell_marks.is_empty()).then(|| {
            cell_marks
                .iter()
                .fold([0, 0], |[g, p], &[mg, mp]| [g | mg, p | mp])
        });
        let words: Vec<u32> = vars.iter().map(|&v| word_of(v)).collect();
        let consecutive = words.windows(2).all(|w| w[1] == w[0] + 1);
        let aligned = groups.iter().all(FamilyGroup::aligned);
        let n = vars.len();
        // Every cell a peer of every other (N-Queens: one group holds them all), and the
        // removals laid out over all cells fit the table's budget.
        let row = n.next_multiple_of(LANES);
        let dense = !aligned
            && row <= 64
            && (0..n).all(|c| (peer_start[c + 1] - peer_start[c]) as usize + 1 == n)
            && n * row * width as usize <= MAX_REMOVALS;
        let row = if dense { row } else { n };
        let removals = if aligned {
            Vec::new()
        } else if dense {
            // Laid out over all cells, the cell itself included (nothing to remove), so
            // that a fixed cell's row lines up with the cells' masks.
            let pattern = |cell: usize, other: usize| {
                let entry = other - usize::from(other > cell);
                peer_pattern[peer_start[cell] as usize + entry]
            };
            // Rows padded with zeros up to `row`: removing nothing from the padding.
            (0..width as usize)
                .flat_map(|bit| {
                    (0..n).flat_map(move |cell| {
                        (0..row).map(move |other| {
                            if other == cell || other >= n {
                                0
                            } else {
                                ((pattern(cell, other) << bit) >> 64) as u64
                            }
                        })
                    })
                })
                .collect()
        } else if peer_pattern.len() * width as usize <= MAX_REMOVALS {
            (0..width)
                .flat_map(|bit| peer_pattern.iter().map(move |&p| ((p << bit) >> 64) as u64))
                .collect()
        } else {
            Vec::new()
        };
        let view = (aligned && vars.len() <= MAX_VIEW_CELLS && width <= 64).then(|| {
            let cell_words = vars.len().div_ceil(64);
            let mut peer_bits = vec![0u64; vars.len() * cell_words];
            for cell in 0..vars.len() {
                let range = peer_start[cell] as usize..peer_start[cell + 1] as usize;
                for &p in &peers[range] {
                    peer_bits[cell * cell_words + p as usize / 64] |= 1 << (p % 64);
                }
            }
            let mut group_bits = vec![0u64; groups.len() * cell_words];
            for (g, group) in groups.iter().enumerate() {
                for &v in &group.vars {
                    let c = local(v) as usize;
                    group_bits[g * cell_words + c / 64] |= 1 << (c % 64);
                }
            }
            ValueView {
                cell_words,
                values: width as usize,
                start: aux_start,
                peer_bits,
                group_bits,
            }
        });
        let box_lines: Vec<[u8; 15]> = pairs
            .iter()
            .map(|&[begin, only_a, only_b, end]| {
                let shape = (only_a - begin, only_b - only_a, end - only_b);
                // Cell indices below 256 (the family has at most SMALL cells).
                (shape == (3, 6, 6))
                    .then(|| std::array::from_fn(|i| pair_cells[begin as usize + i] as u8))
            })
            .collect::<Option<Vec<_>>>()
            .filter(|_| n <= SMALL)
            .unwrap_or_default();
        Family {
            dense,
            row,
            view,
            removals,
            first_word: words.first().copied().filter(|_| consecutive),
            words,
            aligned,
            cell_marks,
            same_marks,
            all_marks,
            cell_pairs,
            pair_words,
            tight,
            scans: (0..groups.len())
                .map(|g| {
                    [
                        group_start[g],
                        group_start[g + 1],
                        group_run[g],
                        u32::from(plain[g]),
                    ]
                })
                .collect(),
            vars,
            group_start,
            group_cells,
            group_shifts,
            cell_start,
            cell_groups,
            peer_start,
            peers,
            peer_pattern,
            segments: Segments::new(&box_lines),
            box_lines,
            pairs,
            pair_cells,
        }
    }

    pub(crate) fn vars(&self) -> &[usize] {
        &self.vars
    }

    /// How many entries [`Family::add_neighbours`] adds: every cell's peers.
    pub(crate) fn peer_entries(&self) -> usize {
        self.peers.len()
    }

    /// Adds to `rows[x]` every variable sharing a group with `x`.
    pub(crate) fn add_neighbours(&self, rows: &mut [Vec<u32>]) {
        for (cell, &x) in self.vars.iter().enumerate() {
            let range = self.peer_start[cell] as usize..self.peer_start[cell + 1] as usize;
            rows[x].extend(
                self.peers[range]
                    .iter()
                    .map(|&p| self.vars[p as usize] as u32),
            );
        }
    }

    /// The value-major view, in a run of a shape that has one.
    #[inline(always)]
    fn view<S: Shape>(&self) -> Option<&ValueView> {
        if S::VIEW {
            self.view.as_ref()
        } else {
            None
        }
    }

    /// No group has shifts, as far as a run of shape `S` needs to know.
    #[inline(always)]
    fn aligned<S: Shape>(&self) -> bool {
        match S::ALIGNED {
            Some(aligned) => aligned,
            None => self.aligned,
        }
    }

    /// The working masks' length: at least [`SMALL`] words, so that a family of up to
    /// that many cells can index them through a fixed-size array (see [`small`]).
    fn span(&self) -> usize {
        self.row.max(SMALL)
    }

    fn num_groups(&self) -> usize {
        self.group_start.len() - 1
    }

    /// Words kept in the store: the value-major view.
    pub(crate) fn aux_words(&self) -> usize {
        self.view
            .as_ref()
            .map_or(0, |view| (view.values + 1) * view.cell_words)
    }

    /// The working masks ([`Family::span`] words: one per cell, padded), one word per cell
    /// for the stack of fixed cells, the value-major view, the changed-cell bitset, the
    /// dirty group bitset and the touched and sweeping pair bitsets.
    pub(crate) fn scratch_words(&self) -> usize {
        self.span()
            + self.vars.len()
            + self.aux_words()
            + self.vars.len().div_ceil(64)
            + self.num_groups().div_ceil(64)
            + 2 * self.pair_words
    }

    pub(crate) fn propagate(&self, e: &mut Engine, scratch: &mut [u64]) -> Result<(), Conflict> {
        match (self.view.is_some(), self.dense && self.pairs.is_empty()) {
            (true, _) => self.run::<Viewed>(e, scratch),
            (false, true) => self.run::<Dense>(e, scratch),
            (false, false) => self.run::<General>(e, scratch),
        }
    }

    /// [`Family::propagate`] for a family of shape `S`.
    fn run<S: Shape>(&self, e: &mut Engine, scratch: &mut [u64]) -> Result<(), Conflict> {
        let n = self.vars.len();
        let bits = self.num_groups().div_ceil(64);
        let (masks, rest) = scratch[..self.scratch_words()].split_at_mut(self.span());
        let (stack, rest) = rest.split_at_mut(n);
        let (places, rest) = rest.split_at_mut(self.aux_words());
        let (changed, rest) = rest.split_at_mut(n.div_ceil(64));
        let (dirty, rest) = rest.split_at_mut(bits);
        let (touched, sweeping) = rest.split_at_mut(self.pair_words);
        let mut work = Work::<S> {
            masks,
            stack,
            places,
            pending: 0,
            changed,
            dirty,
            touched,
            sweeping,
            shape: PhantomData,
        };
        clear(work.changed);
        clear(work.dirty);
        clear(work.touched);
        if self.load(e, &mut work) {
            self.start_afresh(&mut work)?;
        }
        loop {
            self.eliminate_fixed_values(&mut work)?;
            if let Some(g) = take_first(work.dirty) {
                self.hidden_singles(g, &mut work)?;
                continue;
            }
            if !self.apply_locked_values(&mut work)? {
                break;
            }
        }
        if let (Some(first), true) = (self.first_word, e.watches_alone()) {
            // Nobody else watches the cells (Sudoku, N-Queens): plain writes, saved for
            // undo, with no watch list to consult.
            e.store
                .write_changed(first as usize, &work.masks[..self.vars.len()], work.changed);
        } else {
            for (k, &changed) in work.changed.iter().enumerate() {
                for i in set_bits(changed).map(|b| k * 64 + b) {
                    // Never empty: a run fails as soon as a cell empties.
                    e.write_back(self.vars[i], self.words[i] as usize, work.masks[i]);
                }
            }
        }
        if let Some(view) = self.view::<S>() {
            debug_assert!(
                view.agrees_with(&work.masks[..self.vars.len()], work.places),
                "the value-major view must be the transpose of the domains"
            );
            debug_assert!(
                (0..self.vars.len()).all(|c| {
                    let fixed = work.places[view.fixed_at() + c / 64] >> (c % 64) & 1 == 1;
                    fixed == is_single(work.masks[c])
                }),
                "the view's fixed cells must be the cells with one value"
            );
            // Nobody watches the view: plain writes (of the changed words only), saved for
            // undo. Which words changed is gathered first, without a branch per word
            // (which values a run moved is a coin toss for the predictor).
            let start = view.start as usize;
            if work.places.len() <= 64 {
                let stored = e.store.words_from(start, work.places.len());
                let changed = work
                    .places
                    .iter()
                    .zip(stored)
                    .enumerate()
                    .fold(0u64, |acc, (j, (new, old))| {
                        acc | u64::from(new != old) << j
                    });
                e.store.write_changed(start, work.places, &[changed]);
            } else {
                for (j, &w) in work.places.iter().enumerate() {
                    e.store.write_at(start + j, w);
                }
            }
        }
        Ok(())
    }

    /// Copies the domains into the working masks and takes note of the variables others
    /// wrote since the last run: their groups need another look, and their value if fixed.
    fn load<S: Shape>(&self, e: &mut Engine, work: &mut Work<'_, S>) -> bool {
        let (store, changes) = e.store_and_changes();
        if let Some(view) = self.view::<S>() {
            let start = view.start as usize;
            work.places
                .copy_from_slice(store.words_from(start, work.places.len()));
        }
        if let Some(first) = self.first_word {
            // The family's words lie side by side in the store (Sudoku, N-Queens): one copy.
            let n = self.vars.len();
            work.masks[..n].copy_from_slice(store.words_from(first as usize, n));
        } else {
            for (mask, &w) in work.masks.iter_mut().zip(&self.words) {
                *mask = store.word_at(w as usize);
            }
        }
        if self.view::<S>().is_some() && self.holds_every_cell(changes) {
            // The first run of a search: see `start_afresh`.
            changes.fill(0);
            return true;
        }
        for (k, word) in changes.iter_mut().enumerate() {
            for i in set_bits(*word).map(|b| k * 64 + b) {
                self.look_again(i, work);
            }
            *word = 0;
        }
        false
    }

    /// The start of a run in which every cell changed (the first run of a search), in a
    /// family with a value-major view: the view is built from the domains' set bits
    /// rather than by rewriting every cell's bit of every value, every group and pair is
    /// marked at once, and rule 1 runs for every fixed cell (a puzzle's givens) in bulk.
    /// Most peers of a given still hold its value, so rather than visit them one by one
    /// through the view (a branchy loop with its bookkeeping per holder), each fixed value
    /// leaves all the cell's peers in a loop of fixed length, and the cells left with one
    /// value are found in one pass afterwards. Outlined: it runs once per search.
    #[inline(never)]
    fn start_afresh<S: Shape>(&self, work: &mut Work<'_, S>) -> Result<(), Conflict> {
        let Some(view) = self.view::<S>() else {
            return Ok(());
        };
        let (words, fixed_at, n) = (view.cell_words, view.fixed_at(), self.vars.len());
        view.rebuild(&work.masks[..n], work.places);
        match self.all_marks {
            Some([groups, pairs]) => self.mark_with(groups, pairs, work),
            None => (0..n).for_each(|i| self.mark(i, work)),
        }
        for k in 0..words {
            for c in set_bits(work.places[fixed_at + k]).map(|b| k * 64 + b) {
                let value = work.masks[c];
                if value == 0 {
                    // Emptied by a fixed peer with the same value.
                    return Err(Conflict);
                }
                let peers =
                    &self.peers[self.peer_start[c] as usize..self.peer_start[c + 1] as usize];
                if let Some(masks) = work.masks.first_chunk_mut::<SMALL>().filter(|_| n <= SMALL) {
                    // Indices below SMALL: no bounds checks.
                    for &p in peers {
                        masks[p as usize % SMALL] &= !value;
                    }
                } else {
                    for &p in peers {
                        work.masks[p as usize] &= !value;
                    }
                }
                let places = value.trailing_zeros() as usize * words;
                let peer_bits = &view.peer_bits[c * words..(c + 1) * words];
                for (j, &bits) in peer_bits.iter().enumerate() {
                    work.places[places + j] &= !bits;
                    work.changed[j] |= bits;
                }
            }
        }
        // The fixed cells' values have left their peers: a cell with one value outside the
        // view's bitset of fixed cells was narrowed to it just now. Gathered as a bitset
        // first: which cells are is a coin toss for the predictor.
        let mut empty = false;
        for k in 0..words {
            let (singles, none) = singles_among(&work.masks[k * 64..n.min(k * 64 + 64)]);
            empty |= none;
            for b in set_bits(singles & !work.places[fixed_at + k]) {
                work.push(k * 64 + b);
            }
        }
        if empty {
            return Err(Conflict);
        }
        Ok(())
    }

    #[inline]
    fn look_again<S: Shape>(&self, cell: usize, work: &mut Work<'_, S>) {
        if let Some(view) = self.view::<S>() {
            view.refresh(cell, work.masks[cell], work.places);
        }
        self.note_change(cell, work.masks[cell], work);
    }

    /// Marks the tight groups of `cell` dirty (for hidden singles) and the pairs it lies
    /// outside of touched (for locked values).
    #[inline(always)]
    fn mark<S: Shape>(&self, cell: usize, work: &mut Work<'_, S>) {
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
    fn mark_with<S: Shape>(&self, groups: u64, pairs: u64, work: &mut Work<'_, S>) {
        work.dirty[0] |= groups;
        if let (true, Some(touched)) = (S::PAIRS, work.touched.first_mut()) {
            *touched |= pairs;
        }
    }

    /// Narrows `cell` to `kept` (non-empty, a subset), marking its groups and stacking it
    /// when it became fixed.
    #[inline(always)]
    fn narrow<S: Shape>(&self, cell: usize, kept: u64, work: &mut Work<'_, S>) {
        work.masks[cell] = kept;
        work.changed[cell / 64] |= 1 << (cell % 64);
        self.note_change(cell, kept, work);
    }

    /// [`Family::narrow`] after a removal, which may have emptied the cell: a conflict.
    #[inline(always)]
    fn narrow_or_fail<S: Shape>(
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
    fn note_change<S: Shape>(&self, cell: usize, mask: u64, work: &mut Work<'_, S>) {
        self.mark(cell, work);
        if is_single(mask) {
            work.push(cell);
        }
    }

    /// Rule 1 through the peers: the value of each newly fixed cell leaves every cell that
    /// shares a group with it.
    fn eliminate_fixed_values<S: Shape>(&self, work: &mut Work<'_, S>) -> Result<(), Conflict> {
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
    fn forget<S: Shape>(&self, cell: usize, removed: u64, work: &mut Work<'_, S>) {
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
    fn take_away<S: Shape>(
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

    /// Rules 2 and 3 on group `g`, in its value space: pigeonhole, and hidden singles when
    /// every free value must be used.
    fn hidden_singles<S: Shape>(&self, g: usize, work: &mut Work<'_, S>) -> Result<(), Conflict> {
        let [from, to, run, plain] = self.scans[g];
        let range = from as usize..to as usize;
        if S::VIEW {
            // A run of this shape always has a view (see `propagate`).
            return match self.view::<S>() {
                Some(view) => self.hidden_singles_viewed(view, g, range, run, work),
                None => Ok(()),
            };
        }
        let cells = &self.group_cells[range.clone()];
        let shifts = &self.group_shifts[range];
        let aligned = self.aligned::<S>() || plain == 1;
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

    /// Locked values across every intersecting pair touched since the last sweep; true
    /// when something changed.
    fn apply_locked_values<S: Shape>(&self, work: &mut Work<'_, S>) -> Result<bool, Conflict> {
        if !S::PAIRS || self.pairs.is_empty() || self.all_fixed(work) {
            return Ok(false);
        }
        // This sweep looks at the pairs touched so far; what it changes is touched anew
        // for the next sweep.
        work.sweeping.copy_from_slice(work.touched);
        clear(work.touched);
        if let (false, Some(&sweeping)) = (self.segments.pairs.is_empty(), work.sweeping.first()) {
            return self.locked_values_by_segments(sweeping, work);
        }
        let mut changed = false;
        for k in 0..self.pair_words {
            for p in set_bits(work.sweeping[k]).map(|b| k * 64 + b) {
                changed |= self.locked_values(p, work)?;
            }
        }
        Ok(changed)
    }

    /// True when the view says every cell is fixed (and, the stack being empty, every
    /// fixed value has left its peers): then no value can be locked anywhere, since each
    /// group holds each of its values in one cell, shared by every group through it.
    #[inline]
    fn all_fixed<S: Shape>(&self, work: &Work<'_, S>) -> bool {
        self.view::<S>()
            .is_some_and(|view| self.holds_every_cell(&work.places[view.fixed_at()..]))
    }

    /// True when the bitset of cells `bits` holds every cell of the family.
    #[inline]
    fn holds_every_cell(&self, bits: &[u64]) -> bool {
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
        let [begin, only_a, only_b, end] = self.pairs[p];
        let cells = |from: u32, to: u32| &self.pair_cells[from as usize..to as usize];
        let (shared, a, b) = (
            cells(begin, only_a),
            cells(only_a, only_b),
            cells(only_b, end),
        );
        let unions = [work.union(shared), work.union(a), work.union(b)];
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
}

/// What a run may take for granted about its family, fixed at compile time: each shape
/// gets its own copy of the run, without the branches (and the register pressure) of the
/// others.
trait Shape {
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
struct Viewed;
/// Families where every cell is a peer of every other, with shifts and no intersecting
/// pairs (N-Queens).
struct Dense;
/// Any other family.
struct General;

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
struct Work<'a, S> {
    masks: &'a mut [u64],
    /// Cells fixed but not yet removed from their peers; a cell becomes fixed at most once
    /// per run, so the stack never holds more than one entry per cell.
    stack: &'a mut [u64],
    /// The working copy of the value-major view (empty without one): value `v`'s cells
    /// are words `v * cell_words..`.
    places: &'a mut [u64],
    pending: usize,
    /// Cells narrowed in this run, to write back.
    changed: &'a mut [u64],
    dirty: &'a mut [u64],
    touched: &'a mut [u64],
    /// The groups the current locked-values sweep looks at.
    sweeping: &'a mut [u64],
    shape: PhantomData<S>,
}

impl<S> Work<'_, S> {
    #[inline]
    fn push(&mut self, cell: usize) {
        if let Some(slot) = self.stack.get_mut(self.pending) {
            *slot = cell as u64;
            self.pending += 1;
        }
    }

    /// Stacks `cell` if `fixed`, without a branch: in the removal passes, whether a cell
    /// that lost a value is left with one is a coin toss for the predictor. The slot is
    /// written either way and kept only when the stack grows.
    #[inline(always)]
    fn push_if(&mut self, cell: usize, fixed: bool) {
        if let Some(slot) = self.stack.get_mut(self.pending) {
            *slot = cell as u64;
        }
        self.pending += usize::from(fixed);
    }

    #[inline]
    fn pop(&mut self) -> Option<usize> {
        self.pending = self.pending.checked_sub(1)?;
        Some(self.stack[self.pending] as usize)
    }

    #[inline]
    fn union(&self, cells: &[u32]) -> u64 {
        cells.iter().fold(0, |acc, &c| acc | self.masks[c as usize])
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

/// The masks (at most 64) with one value, as a bitset, and whether any mask is empty;
/// without a branch per mask.
fn singles_among(masks: &[u64]) -> (u64, bool) {
    masks
        .iter()
        .enumerate()
        .fold((0, false), |(singles, empty), (b, &m)| {
            (singles | u64::from(is_single(m)) << b, empty | (m == 0))
        })
}

/// Zeroes a scratch bitset. Most are one word or none, where a call to `memset` (what
/// `fill(0)` becomes for a slice of unknown length) costs more than the store.
#[inline(always)]
fn clear(words: &mut [u64]) {
    match words {
        [] => {}
        [w] => *w = 0,
        _ => words.fill(0),
    }
}

/// The lowest set bit of a bitset, cleared. A one-word bitset (at most 64 groups: every
/// model here but large Latin squares) is tested first, without a loop over words.
#[inline]
fn take_first(bits: &mut [u64]) -> Option<usize> {
    if let [w] = bits {
        let first = (*w != 0).then(|| w.trailing_zeros() as usize);
        *w &= w.wrapping_sub(1);
        return first;
    }
    let (k, w) = bits.iter_mut().enumerate().find(|(_, w)| **w != 0)?;
    let first = k * 64 + w.trailing_zeros() as usize;
    *w &= *w - 1;
    Some(first)
}

impl ValueView {
    /// True when `places` holds exactly the cells whose `masks` hold each value.
    fn agrees_with(&self, masks: &[u64], places: &[u64]) -> bool {
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
    /// value by value.
    fn rebuild(&self, masks: &[u64], places: &mut [u64]) {
        places.fill(0);
        let every = u64::MAX >> (64 - self.values);
        let (by_value, fixed) = places.split_at_mut(self.fixed_at());
        let mut full = [0u64; MAX_VIEW_CELLS / 64];
        for (cell, &m) in masks.iter().enumerate() {
            let (k, bit) = (cell / 64, 1u64 << (cell % 64));
            if m & every == every {
                full[k] |= bit;
                continue;
            }
            fixed[k] |= u64::from(is_single(m)) * bit;
            for v in set_bits(m & every) {
                by_value[v * self.cell_words + k] |= bit;
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
    fn fixed_at(&self) -> usize {
        self.values * self.cell_words
    }

    /// How many cells of group `g` are fixed.
    #[inline(always)]
    fn fixed_in(&self, g: usize, places: &[u64]) -> u32 {
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
    fn refresh(&self, cell: usize, mask: u64, places: &mut [u64]) {
        let (k, bit) = (cell / 64, 1u64 << (cell % 64));
        for v in 0..self.values {
            let slot = &mut places[v * self.cell_words + k];
            *slot = (*slot & !bit) | (u64::from(mask >> v & 1 == 1) * bit);
        }
        let slot = &mut places[self.fixed_at() + k];
        *slot = (*slot & !bit) | (u64::from(is_single(mask)) * bit);
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
