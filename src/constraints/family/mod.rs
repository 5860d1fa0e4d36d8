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
//!
//! The files follow a run's order: [`compile`] builds a family from its groups once per
//! model (peer lists, intersecting pairs, removal tables, [`view`], [`segments`]; a family
//! with a view builds its pairs only when a search follows: [`pairs_later`]); a run
//! ([`Family::run`], here) starts with [`load`], then alternates [`fixed_values`] (rule 1),
//! [`hidden_singles`] (rules 2 and 3 on dirty groups) and [`locked`] (locked values on
//! touched pairs) until nothing changes, marking what each change dirties ([`marks`]), and
//! writes the changed cells back. A family that is exactly a 9×9 board runs [`board`]
//! instead, on words of its own, with the tables of [`band_tables`]. [`shape`] holds the
//! compile-time shapes a run is specialised for and the run's working state; [`bits`] the
//! small bitset helpers.

mod band_tables;
mod bits;
mod board;
mod board_pairs;
mod cache;
mod compile;
mod cover;
#[cfg(test)]
mod differential;
mod fixed_values;
mod hidden_singles;
mod load;
mod locked;
mod marks;
mod pairs_later;
mod segments;
mod shape;
mod view;

use std::marker::PhantomData;

use self::board::{Board, BOARD_WORDS};
use self::cover::SegmentCover;
use self::pairs_later::PairsLater;
use self::segments::Segments;
use self::shape::{Dense, General, Shape, Viewed, Work};
use self::view::ValueView;
use super::NeighbourRows;
use crate::bits::{clear, take_first};
use crate::bits::{is_single, set_bits};
use crate::propagate::{Conflict, Engine};

/// The largest table of precomputed removals, in words (512 KiB).
const MAX_REMOVALS: usize = 1 << 16;

/// One group of a family: its variables and where each one's bit 0 lies in the group's
/// value space (all zero for a plain group; `x[i] + c[i]` groups such as N-Queens diagonals
/// have shifts).
///
/// A group borrows its variables and shifts (from the compiler's candidate lists, which
/// hold every group's in two vectors): a model built per puzzle then allocates nothing per
/// group here.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct FamilyGroup<'a> {
    pub(crate) vars: &'a [usize],
    pub(crate) shifts: &'a [u32],
    /// As many values as variables (Sudoku's units, N-Queens' rows): its hidden singles
    /// and pigeonhole need a look after every change. Looser groups (N-Queens' diagonals)
    /// act only through the peers of fixed cells.
    pub(crate) tight: bool,
    /// No shifts: a bit means the same value in every variable (whoever builds a group
    /// sets it to whether every shift is zero).
    pub(crate) aligned: bool,
}

impl FamilyGroup<'_> {
    /// No shifts: a bit means the same value in every variable.
    pub(crate) fn aligned(&self) -> bool {
        debug_assert_eq!(self.aligned, self.shifts.iter().all(|&s| s == 0));
        self.aligned
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
    /// intersection. Only a change there can confine a value of a tight group to the
    /// intersection, so only those pairs need another look; a pair with a group looser
    /// than a permutation is also looked at again after a change inside the
    /// intersection, which can leave that group with as many values as cells.
    cell_pairs: Vec<u64>,
    pair_words: usize,
    /// Which groups are tight.
    tight: Vec<bool>,
    /// What a hidden-single scan of each group needs, in one record.
    scans: Vec<GroupScan>,
    /// For each cell, every cell sharing a group with it (compressed rows), and where a
    /// value's bit lands in the peer: bit `64 + d` of the pattern is set for every group
    /// through which the bit moves by `d` (N-Queens: 0 and both diagonals' ±distance), so
    /// `(pattern << bit) >> 64` is the peer's mask of values to remove. A family without
    /// shifts keeps no patterns: it removes a fixed value from its peers as it is.
    peer_start: Vec<u32>,
    peers: Vec<u32>,
    peer_pattern: Vec<u128>,
    /// The patterns worked out for every value when that is small (`removals[bit * peers
    /// + entry]`, at most `MAX_REMOVALS` words): one load instead of a 128-bit shift.
    removals: Vec<u64>,
    /// Intersections of aligned groups: for each pair, where its cells lie in
    /// `pair_cells`.
    pairs: Vec<PairParts>,
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
    /// Without box-line records: the pairs' parts as unions of the pairs' intersections,
    /// when every part is one (Sudoku boards of any box shape). A sweep that looks at
    /// more pairs than it costs to form every segment's union works from those unions.
    cover: Option<SegmentCover>,
    /// The cover's segments (0 without one): scratch words for their unions.
    union_words: usize,
    /// The words a run's work holds for the touched and the sweeping pairs (each) and
    /// for the segments' unions: `pair_words` and `union_words`, or in a family whose
    /// pairs come later, bounds on those of the family with them, which keeps the same
    /// (see [`PairsLater`]).
    pair_slots: usize,
    union_slots: usize,
    /// For a family compiled without its pairs (then all the pair tables above are
    /// empty): the copy of the family with them, built when a run first needs them.
    /// Boxed: a family holding its cell inline would be interior-mutable, and the
    /// compiler could then no longer take its fields as fixed through a run.
    pairs_later: Option<Box<PairsLater>>,
    /// No group has shifts: a bit means the same value in every cell.
    aligned: bool,
    /// The store index of the first cell's word when the cells' words are consecutive.
    first_word: Option<u32>,
    /// The value-major view of an aligned family, if it has one.
    view: Option<ValueView>,
    /// In a dense family, the tight group that holds every cell with no shifts
    /// (N-Queens' rows), if there is one, and the store index of its taken values.
    taken: Option<Taken>,
    /// Every cell is a peer of every other, there are no pairs, and `removals` is laid
    /// out over all cells:
    /// `removals[(bit * cells + cell) * row + other]`.
    dense: bool,
    /// The family as a 9×9 board, when it is one: its runs go band by band (see
    /// [`board`]).
    board: Option<Board>,
    /// A removal row's length in a dense family: the number of cells rounded up to a
    /// multiple of [`LANES`], so that a row is whole groups of lanes (the number of cells
    /// in other families).
    row: usize,
}

/// The tight group of a dense family that holds every cell with no shifts, and where the
/// store keeps the values its fixed cells have taken (so that undo restores them with
/// the domains). With those values known, a hidden-single scan of the group is a plain
/// union of its masks: see [`Family::hidden_singles`].
#[derive(Clone, Copy, Debug)]
pub(crate) struct Taken {
    group: u32,
    start: u32,
}

/// Families of at most this many cells index their working masks through a fixed-size
/// array.
const SMALL: usize = 256;

/// What a hidden-single scan of one group needs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct GroupScan {
    /// The group's cells are `group_cells[from..to]`.
    pub(super) from: u32,
    /// See `from`.
    pub(super) to: u32,
    /// Its first cell if its cells are consecutive, else `NO_RUN`.
    pub(super) run: u32,
    /// The group has no shifts (every value lands on itself).
    pub(super) plain: bool,
}

/// Where the cells of an intersecting pair lie in `Family::pair_cells`: the shared ones
/// in `begin..only_a`, those only in the first group in `only_a..only_b`, those only in
/// the second in `only_b..end`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct PairParts {
    /// Start of the shared cells.
    pub(super) begin: u32,
    /// Start of the cells only in the first group.
    pub(super) only_a: u32,
    /// Start of the cells only in the second group.
    pub(super) only_b: u32,
    /// End of the pair's cells.
    pub(super) end: u32,
}

/// The run start (`Family::scans`) of a group whose cells are not consecutive.
const NO_RUN: u32 = u32::MAX;

/// How many cells a dense family's removal loop handles per step.
const LANES: usize = 4;

impl Family {
    pub(crate) fn vars(&self) -> &[usize] {
        &self.vars
    }

    /// How many entries [`Family::add_neighbours`] adds: every cell's peers.
    pub(crate) fn peer_entries(&self) -> usize {
        match &self.view {
            Some(view) => view.peer_bits.iter().map(|w| w.count_ones() as usize).sum(),
            None => self.peers.len(),
        }
    }

    /// Adds to `rows[x]` every variable sharing a group with `x`.
    pub(crate) fn add_neighbours<R: NeighbourRows + ?Sized>(&self, rows: &mut R) {
        if let Some(view) = &self.view {
            self.add_neighbours_from_bits(&view.peer_bits, view.cell_words, rows);
            return;
        }
        for (cell, &x) in self.vars.iter().enumerate() {
            let range = self.peer_start[cell] as usize..self.peer_start[cell + 1] as usize;
            rows.extend_row(
                x,
                self.peers[range]
                    .iter()
                    .map(|&p| self.vars[p as usize] as u32),
            );
        }
    }

    /// [`Family::add_neighbours`] from the peers as bitsets of cells (`words` a row): as
    /// whole words when every cell is the variable of its own index and the rows take
    /// bitsets, else variable by variable.
    fn add_neighbours_from_bits<R: NeighbourRows + ?Sized>(
        &self,
        peer_bits: &[u64],
        words: usize,
        rows: &mut R,
    ) {
        let identity = self
            .vars
            .last()
            .is_some_and(|&last| last + 1 == self.vars.len());
        for (cell, &x) in self.vars.iter().enumerate() {
            let row = &peer_bits[cell * words..(cell + 1) * words];
            if identity && rows.extend_row_bits(x, row) {
                continue;
            }
            let peers = row
                .iter()
                .enumerate()
                .flat_map(|(j, &w)| set_bits(w).map(move |b| self.vars[j * 64 + b] as u32));
            rows.extend_row(x, peers);
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
    /// that many cells can index them through a fixed-size array (see [`small`](bits::small)).
    fn span(&self) -> usize {
        self.row.max(SMALL)
    }

    fn num_groups(&self) -> usize {
        self.group_start.len() - 1
    }

    /// Words kept in the store: the value-major view, a dense family's taken values, or a
    /// board's words.
    pub(crate) fn aux_words(&self) -> usize {
        self.view_words()
            + usize::from(self.taken.is_some())
            + if self.board.is_some() { BOARD_WORDS } else { 0 }
    }

    /// The value-major view's words in the store and the work (0 without one, and in a
    /// board, whose runs keep their own words and leave the view to its peer bitsets).
    fn view_words(&self) -> usize {
        match (&self.view, &self.board) {
            (Some(view), None) => (view.values + 1) * view.cell_words,
            _ => 0,
        }
    }

    /// The working masks ([`Family::span`] words: one per cell, padded), one word per cell
    /// for the stack of fixed cells, the value-major view, the changed-cell bitset, the
    /// dirty group bitset, the touched and sweeping pair bitsets, the segments' unions,
    /// and in a family whose pairs come later a copy of the view.
    pub(crate) fn scratch_words(&self) -> usize {
        self.span()
            + self.vars.len()
            + self.view_words()
            + self.vars.len().div_ceil(64)
            + self.num_groups().div_ceil(64)
            + 2 * self.pair_slots
            + self.union_slots
            + self.swept_words()
    }

    /// The words of the view's copy that the sweeps of a family without pairs compare
    /// against (0 in other families).
    fn swept_words(&self) -> usize {
        if self.pairs_later.is_some() {
            self.view_words()
        } else {
            0
        }
    }

    /// After a run of this family failed, with `scratch` as that run left it: the
    /// variables the run had narrowed before it failed (the neighbourhood of the conflict,
    /// for heuristics that learn from conflicts); empty when it failed before narrowing any.
    pub(crate) fn narrowed_before_failing<'a>(
        &'a self,
        scratch: &'a [u64],
    ) -> impl Iterator<Item = usize> + 'a {
        let n = self.vars.len();
        let start = self.span() + n + self.view_words();
        let changed = scratch.get(start..start + n.div_ceil(64)).unwrap_or(&[]);
        changed
            .iter()
            .enumerate()
            .flat_map(move |(k, &word)| set_bits(word).map(move |b| self.vars[k * 64 + b]))
    }

    pub(crate) fn propagate(&self, e: &mut Engine, scratch: &mut [u64]) -> Result<(), Conflict> {
        if let Some(board) = &self.board {
            // The working masks, then where the generic run keeps its changed cells (read
            // by `narrowed_before_failing`).
            let n = self.vars.len();
            let (masks, rest) = scratch.split_at_mut(self.span());
            let at = n + self.view_words();
            let changed = &mut rest[at..at + n.div_ceil(64)];
            return board.run(
                e,
                self.first_word,
                (&self.vars, &self.words),
                masks,
                changed,
            );
        }
        match (self.view.is_some(), self.dense) {
            (true, _) => self.run::<Viewed>(e, scratch),
            (false, true) => self.run::<Dense>(e, scratch),
            (false, false) => self.run::<General>(e, scratch),
        }
    }

    /// [`Family::propagate`] for a family of shape `S`.
    fn run<S: Shape>(&self, e: &mut Engine, scratch: &mut [u64]) -> Result<(), Conflict> {
        // Once a run built this family's pairs, the family with them runs in its place.
        let family = self
            .pairs_later
            .as_deref()
            .and_then(PairsLater::built)
            .unwrap_or(self);
        family.run_from::<S>(e, scratch)
    }

    /// A run from the store's domains.
    fn run_from<S: Shape>(&self, e: &mut Engine, scratch: &mut [u64]) -> Result<(), Conflict> {
        let mut work = self.work::<S>(scratch);
        clear(work.changed);
        clear(work.dirty);
        clear(work.touched);
        clear(work.swept);
        if self.load(e, &mut work) {
            self.start_afresh(&mut work)?;
        }
        self.settle(&mut work)?;
        if let Some(later) = &self.pairs_later {
            if !self.all_fixed(&work) {
                // Settled (locked values found on the view) with cells still open: a
                // search follows, whose runs sweep only the pairs their changes touch.
                later.build(self);
            }
        }
        self.write_back(e, &work);
        Ok(())
    }

    /// The working state of a run, laid out in `scratch`.
    #[inline(always)]
    fn work<'a, S: Shape>(&self, scratch: &'a mut [u64]) -> Work<'a, S> {
        let n = self.vars.len();
        let bits = self.num_groups().div_ceil(64);
        let (masks, rest) = scratch[..self.scratch_words()].split_at_mut(self.span());
        let (stack, rest) = rest.split_at_mut(n);
        let (places, rest) = rest.split_at_mut(self.view_words());
        let (changed, rest) = rest.split_at_mut(n.div_ceil(64));
        let (dirty, rest) = rest.split_at_mut(bits);
        let (touched, rest) = rest.split_at_mut(self.pair_slots);
        // Only shapes with pairs sweep them (N-Queens' dense family has none).
        let (sweeping, rest) = if S::PAIRS {
            rest.split_at_mut(self.pair_slots)
        } else {
            (rest, Default::default())
        };
        let (unions, swept) = rest.split_at_mut(self.union_slots.min(rest.len()));
        Work {
            masks,
            stack,
            places,
            taken: 0,
            pending: 0,
            changed,
            dirty,
            touched,
            sweeping,
            unions,
            swept,
            shape: PhantomData,
        }
    }

    /// The rules run in turn until none changes anything.
    #[inline(always)]
    fn settle<S: Shape>(&self, work: &mut Work<'_, S>) -> Result<(), Conflict> {
        loop {
            self.eliminate_fixed_values(work)?;
            if let Some(g) = take_first(work.dirty) {
                self.hidden_singles(g, work)?;
                continue;
            }
            if !self.apply_locked_values(work)? {
                return Ok(());
            }
        }
    }

    /// Writes the cells a run changed (and the view and taken values) to the store.
    #[inline(always)]
    fn write_back<S: Shape>(&self, e: &mut Engine, work: &Work<'_, S>) {
        if let (Some(first), true) = (self.first_word, e.watches_alone()) {
            // Nobody else watches the cells (Sudoku, N-Queens): plain writes, saved for
            // undo, with no watch list to consult.
            e.store
                .write_changed(first as usize, &work.masks[..self.vars.len()], work.changed);
        } else {
            e.write_back_changed(&self.vars, &self.words, work.masks, work.changed);
        }
        if let (true, Some(taken)) = (S::DENSE, self.taken) {
            e.store.write_at(taken.start as usize, work.taken);
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
            // Nobody watches the view: plain writes, as one copy where writes need no
            // saving, else the changed words only, saved for undo.
            let start = view.start as usize;
            if work.places.len() <= 64 {
                e.store.write_differing(start, work.places);
            } else if !e.store.saves_writes() {
                e.store.write_unsaved(start, work.places);
            } else {
                for (j, &w) in work.places.iter().enumerate() {
                    e.store.write_at(start + j, w);
                }
            }
        }
    }
}
