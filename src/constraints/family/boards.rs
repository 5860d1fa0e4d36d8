//! A family's fixed point on value-major bitboards, for families of permutation groups:
//! every group has as many cells as the family has values, so every group uses every
//! value (a 9×9 Sudoku and its variants, Latin squares up to 11×11).
//!
//! Each value's candidate cells are one 128-bit word, so the rules become a few word
//! operations each, whatever the number of cells they touch:
//! - a fixed cell's value leaves all its peers with one AND;
//! - a cell left with no value, and the cells left with one, come out of one bit-sliced
//!   count over the values (no cell is visited);
//! - a group with no place for a value is a conflict, and a group with one place holds a
//!   hidden single: one AND with the group's cells;
//! - a value confined to the intersection of two groups in one of them leaves the other's
//!   own cells (locked values): one AND per intersection of the group, tried only when
//!   the group has no more places for the value than its largest intersection holds.
//!
//! Only what changed is looked at again: a value's groups are scanned (hidden singles,
//! conflict, locked values) when cells of theirs left or entered the value since it was
//! last scanned.
//!
//! The per-cell engine run keeps domains per cell and pays for every fixed value with a
//! visit to each peer that held it, and for every change with a scan of the cell's
//! groups; here the same fixed point costs a fraction of that (see docs/PERFORMANCE.md,
//! step 61).

use crate::constraints::set_bits;
use crate::propagate::Conflict;

/// The most values a family run on bitboards handles (its arrays of bitboards live on
/// the stack).
pub(super) const MAX_VALUES: usize = 16;

/// The most cells: one `u128` per value.
pub(super) const MAX_CELLS: usize = 128;

/// Value-major bitboards of a family: one bitset of cells per value.
pub(super) type Places = [u128; MAX_VALUES];

/// The most groups: one bit each in a word.
const MAX_GROUPS: usize = 64;

/// The static bitsets of a family of permutation groups, in arrays of fixed length so
/// that a cell or group index reduced modulo the length (the identity here) needs no
/// bounds check in the hot loops.
#[derive(Clone, Debug)]
pub(super) struct Boards {
    /// Values (bits of the cells' domains), at most [`MAX_VALUES`].
    values: usize,
    /// Every cell of the family.
    cells: u128,
    /// Every group, as a bitset of groups.
    all_groups: u64,
    /// Each cell's peers (the cells sharing a group with it, itself excluded).
    peers: Box<[u128; MAX_CELLS]>,
    /// Each group's cells.
    groups: Box<[u128; MAX_GROUPS]>,
    /// Each cell's groups, as a bitset of groups.
    cell_groups: Box<[u64; MAX_CELLS]>,
    /// For each group, the most cells it shares with another group (two or more; 0 when
    /// it shares at most one with each): with more places than that for a value, the
    /// value cannot be confined to an intersection.
    lockable: Box<[u32; MAX_GROUPS]>,
    /// For each group `g`, `locks[lock_start[g]..lock_start[g + 1]]`: each group sharing
    /// two or more cells with it, as the shared cells and that group's other cells.
    lock_start: Vec<u32>,
    locks: Vec<[u128; 2]>,
}

impl Boards {
    /// The boards of a family with `values` values whose groups are `groups` (lists of
    /// cells, each a permutation of the values). `None` when the family is too large:
    /// over [`MAX_CELLS`] cells, [`MAX_VALUES`] values or 64 groups.
    pub(super) fn new(cells: usize, values: usize, groups: &[Vec<usize>]) -> Option<Self> {
        if cells > MAX_CELLS || values > MAX_VALUES || groups.len() > MAX_GROUPS {
            return None;
        }
        let bits = |list: &[usize]| list.iter().fold(0u128, |acc, &c| acc | 1 << c);
        let mut boards = Boards {
            values,
            cells: if cells == 128 {
                u128::MAX
            } else {
                (1 << cells) - 1
            },
            all_groups: match groups.len() {
                MAX_GROUPS => u64::MAX,
                len => (1 << len) - 1,
            },
            peers: Box::new([0; MAX_CELLS]),
            groups: Box::new([0; MAX_GROUPS]),
            cell_groups: Box::new([0; MAX_CELLS]),
            lockable: Box::new([0; MAX_GROUPS]),
            lock_start: vec![0],
            locks: Vec::new(),
        };
        for (g, cells) in groups.iter().enumerate() {
            let members = bits(cells);
            boards.groups[g] = members;
            for &c in cells {
                boards.peers[c] |= members & !(1 << c);
                boards.cell_groups[c] |= 1 << g;
            }
        }
        for g in 0..groups.len() {
            let mine = boards.groups[g];
            for (h, &theirs) in boards.groups[..groups.len()].iter().enumerate() {
                let shared = mine & theirs;
                if h != g && shared.count_ones() >= 2 {
                    boards.locks.push([shared, theirs & !shared]);
                    boards.lockable[g] = boards.lockable[g].max(shared.count_ones());
                }
            }
            boards.lock_start.push(boards.locks.len() as u32);
        }
        Some(boards)
    }

    /// The number of values.
    pub(super) fn values(&self) -> usize {
        self.values
    }

    /// Propagates `places` to the fixed point of the family's rules. `fixed` holds the
    /// cells whose single value has already left their peers (updated); `seen` is the
    /// places at the previous fixed point, or all zero when there was none: only what
    /// changed since is looked at.
    pub(super) fn propagate(
        &self,
        places: &mut Places,
        fixed: &mut u128,
        seen: &Places,
    ) -> Result<(), Conflict> {
        let mut scanned = *seen;
        loop {
            self.settle_singles(places, fixed)?;
            if !self.scan_groups(places, *fixed, &mut scanned)? {
                return Ok(());
            }
        }
    }

    /// Removes the value of every cell left with one from its peers, until no new cell
    /// is left with one; a conflict when a cell is left with none.
    fn settle_singles(&self, places: &mut Places, fixed: &mut u128) -> Result<(), Conflict> {
        let places = &mut places[..self.values];
        loop {
            let (once, twice) = places.iter().fold((0u128, 0u128), |(once, twice), &p| {
                (once | p, twice | (once & p))
            });
            if self.cells & !once != 0 {
                return Err(Conflict);
            }
            let new = once & !twice & !*fixed;
            if new == 0 {
                return Ok(());
            }
            *fixed |= new;
            for p in places.iter_mut() {
                let mut holders = new & *p;
                while holders != 0 {
                    let c = holders.trailing_zeros() as usize;
                    holders &= holders - 1;
                    // Two new singles of one value in one group take it from each other,
                    // and the next count finds them empty.
                    *p &= !self.peers[c % MAX_CELLS];
                }
            }
        }
    }

    /// Scans the groups of the cells each value left since it was last scanned: a
    /// group with no place for the value is a conflict; one place is a hidden single (the
    /// cell leaves every other value's bitboard); places all inside the group's
    /// intersection with another group are locked values (the value leaves that group's
    /// other cells). True when something changed.
    fn scan_groups(
        &self,
        places: &mut Places,
        fixed: u128,
        scanned: &mut Places,
    ) -> Result<bool, Conflict> {
        let mut changed = false;
        for u in (0..self.values).map(|u| u % MAX_VALUES) {
            let mut p = places[u];
            let moved = p ^ scanned[u];
            if moved == 0 {
                continue;
            }
            // Never scanned (no earlier fixed point): every group, including any that
            // never had a place for the value.
            let groups = if scanned[u] == 0 {
                self.all_groups
            } else {
                self.groups_of(moved)
            };
            scanned[u] = p;
            for g in set_bits(groups).map(|g| g % MAX_GROUPS) {
                let here = p & self.groups[g];
                let count = here.count_ones();
                if count == 0 {
                    return Err(Conflict);
                }
                if count == 1 {
                    if here & fixed == 0 {
                        // The cell leaves every other value: all of them, then back to
                        // `u`.
                        for q in places[..self.values].iter_mut() {
                            *q &= !here;
                        }
                        places[u] = p;
                        changed = true;
                    }
                } else if count <= self.lockable[g] {
                    p = self.lock(g, here, p);
                }
            }
            changed |= p != places[u];
            places[u] = p;
        }
        Ok(changed)
    }

    /// Locked values for a value whose places in group `g` are `here` and in the whole
    /// family `p`: for each group sharing cells with `g` that hold all of `here`, the
    /// value leaves that group's other cells. Returns the new places.
    #[inline]
    fn lock(&self, g: usize, here: u128, mut p: u128) -> u128 {
        let range = self.lock_start[g] as usize..self.lock_start[g + 1] as usize;
        for &[shared, others] in &self.locks[range] {
            if here & !shared == 0 {
                p &= !others;
            }
        }
        p
    }

    /// The groups of the cells in `cells`.
    #[inline]
    fn groups_of(&self, mut cells: u128) -> u64 {
        let mut groups = 0u64;
        while cells != 0 {
            groups |= self.cell_groups[cells.trailing_zeros() as usize % MAX_CELLS];
            cells &= cells - 1;
        }
        groups
    }
}
