//! Building a family from its groups, once per compiled model: the cells' groups and
//! peers, the intersecting pairs, the removal tables and the value-major view.

use super::board::Board;
use super::cover::SegmentCover;
use super::segments::Segments;
use super::view::{ValueView, MAX_VIEW_CELLS};
use super::{Family, FamilyGroup, Taken, LANES, MAX_REMOVALS, NO_RUN, SMALL};
use super::{GroupScan, PairParts};
use crate::bits::set_bits;

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
        // Local indices by table lookup: compiling asks for them once per group entry and
        // per peer entry. The members are gathered as a bitset of variables, so that they
        // come out in order without a sort; when they are the variables 0, 1, 2, ... (a
        // puzzle's cells) each is its own local index and no table is made.
        let members = member_bits(groups);
        let vars: Vec<usize> = members
            .iter()
            .enumerate()
            .flat_map(|(k, &w)| set_bits(w).map(move |b| k * 64 + b))
            .collect();
        let identity = vars.last().is_none_or(|&last| last + 1 == vars.len());
        let mut local_of = Vec::new();
        if !identity {
            local_of = vec![u32::MAX; vars.last().map_or(0, |&v| v + 1)];
            for (i, &v) in vars.iter().enumerate() {
                local_of[v] = i as u32;
            }
        }
        let local = |v: usize| local_of.get(v).copied().unwrap_or(v as u32);
        let n = vars.len();
        let rows = GroupRows::new(groups, n, &local);
        let masks = GroupMasks::new(&rows, n);
        let aligned = groups.iter().all(FamilyGroup::aligned);
        let viewed = aligned && n <= MAX_VIEW_CELLS && width <= 64;
        let mut peers = if aligned {
            // A run with the view reads its peers as bitsets only: no lists.
            PeerRows::aligned(&rows.by_cell, &masks, !viewed)
        } else {
            PeerRows::new(groups, &rows.by_cell, &local)
        };
        let tight: Vec<bool> = groups.iter().map(|g| g.tight).collect();
        // A family with a view builds its pairs when a run first needs them: puzzles that
        // the first propagation solves by singles never do (see `PairsLater`).
        let tables = if viewed {
            PairTables::without_pairs(n, &rows.start, &rows.cells, &tight)
        } else {
            let aligned_group = |g: usize| groups[g].aligned();
            PairTables::new(
                aligned_group,
                (&masks.masks, masks.words),
                n,
                TightMarks::Rows(&rows.start, &rows.cells),
                &tight,
            )
        };
        let words: Vec<u32> = vars.iter().map(|&v| word_of(v)).collect();
        let consecutive = words.windows(2).all(|w| w[1] == w[0] + 1);
        // Every cell a peer of every other (N-Queens: one group holds them all), no
        // intersecting pairs (a run that sweeps pairs reads the general layout of the
        // removals), and the removals laid out over all cells fit the table's budget.
        let row = n.next_multiple_of(LANES);
        let dense = !aligned
            && tables.pairs.is_empty()
            && row <= 64
            && (0..n).all(|c| peers.len_of(c) + 1 == n)
            && n * row * width as usize <= MAX_REMOVALS;
        let row = if dense { row } else { n };
        let removals = match (aligned, dense) {
            (true, _) => Vec::new(),
            (false, true) => peers.dense_removals(width, row),
            (false, false) => peers.removals(width),
        };
        // The tight group holding every cell unshifted, in order (N-Queens' rows).
        let taken = (0..groups.len())
            .find(|&g| {
                let group = &groups[g];
                dense
                    && group.tight
                    && group.aligned()
                    && group.vars.len() == n
                    && rows.is_run_from_zero(g)
            })
            .map(|g| Taken {
                group: g as u32,
                start: aux_start,
            });
        let view = viewed.then(|| {
            let peer_bits = std::mem::take(&mut peers.bits);
            ValueView::new(n, peer_bits, masks.masks, width, aux_start)
        });
        let mut family = Family {
            taken,
            dense,
            row,
            view,
            removals,
            first_word: words.first().copied().filter(|_| consecutive),
            words,
            aligned,
            tight,
            scans: rows.scans(groups),
            vars,
            group_start: rows.start,
            group_cells: rows.cells,
            group_shifts: rows.shifts,
            cell_start: peers.group_start,
            cell_groups: peers.groups,
            peer_start: peers.start,
            peers: peers.cells,
            peer_pattern: peers.pattern,
            cell_marks: Vec::new(),
            same_marks: None,
            all_marks: None,
            cell_pairs: Vec::new(),
            pair_words: 0,
            pairs: Vec::new(),
            pair_cells: Vec::new(),
            box_lines: Vec::new(),
            segments: Segments::default(),
            cover: None,
            union_words: 0,
            pair_slots: 0,
            union_slots: 0,
            pairs_later: None,
            board: None,
        };
        let group_range =
            |g: usize| family.group_start[g] as usize..family.group_start[g + 1] as usize;
        family.board = Board::recognise(
            family.num_groups(),
            |g| &family.group_cells[group_range(g)],
            |g| &family.group_shifts[group_range(g)],
            n,
            width,
            // A board's words take the view's place in the store (see `view_words`).
            aux_start,
        );
        family.set_pair_tables(tables);
        if viewed {
            // The work keeps room for the pairs to come, each segment being some pair's
            // intersection.
            let most_pairs = family.most_pairs();
            family.pair_slots = most_pairs.div_ceil(64);
            family.union_slots = most_pairs;
            family.pairs_later = Some(Box::default());
        } else {
            family.pair_slots = family.pair_words;
            family.union_slots = family.union_words;
        }
        family
    }

    /// This family with its intersecting pairs, built from its groups' bitsets in the
    /// view (a family defers its pairs only when it has a view, whose groups are all
    /// aligned).
    pub(super) fn with_pairs(&self) -> Family {
        let mut family = Family {
            pairs_later: None,
            ..self.clone()
        };
        if let Some(view) = &self.view {
            family.set_pair_tables(PairTables::new(
                |_| true,
                (&view.group_bits, view.cell_words),
                self.vars.len(),
                TightMarks::Known(&self.cell_marks),
                &self.tight,
            ));
        }
        family
    }

    fn set_pair_tables(&mut self, tables: PairTables) {
        let PairTables {
            pairs,
            pair_cells,
            pair_words,
            cell_pairs,
            cell_marks,
            box_lines,
            cover,
        } = tables;
        self.same_marks = match cell_marks.split_first() {
            Some((first, rest)) if rest.iter().all(|m| m == first) => Some(*first),
            _ => None,
        };
        self.all_marks = (!cell_marks.is_empty()).then(|| {
            cell_marks
                .iter()
                .fold([0, 0], |[g, p], &[mg, mp]| [g | mg, p | mp])
        });
        self.cell_marks = cell_marks;
        self.cell_pairs = cell_pairs;
        self.pair_words = pair_words;
        self.segments = Segments::new(&box_lines);
        self.union_words = cover.as_ref().map_or(0, SegmentCover::segments);
        self.cover = cover;
        self.box_lines = box_lines;
        self.pairs = pairs;
        self.pair_cells = pair_cells;
    }
}

/// What the locked-values rule needs: the intersecting pairs, which cells' changes touch
/// them, and the layouts a sweep reads them through; with each cell's marks.
struct PairTables {
    pairs: Vec<PairParts>,
    pair_cells: Vec<u32>,
    pair_words: usize,
    cell_pairs: Vec<u64>,
    cell_marks: Vec<[u64; 2]>,
    box_lines: Vec<[u8; 15]>,
    cover: Option<SegmentCover>,
}

/// Where each cell's marks of its tight groups come from: the groups' cells (group `g`'s
/// are `cells[start[g]..start[g + 1]]`), or the marks a family compiled without pairs
/// already has (each cell's tight groups, and a pairs word to be replaced).
enum TightMarks<'a> {
    Rows(&'a [u32], &'a [u32]),
    Known(&'a [[u64; 2]]),
}

impl PairTables {
    /// The tables of groups over `n` cells, pairing those for which `aligned` holds: the
    /// groups' cells as bitsets (`masks`, rows of `words` words), and each cell's marks of
    /// its tight groups from `tight_marks`.
    fn new(
        aligned: impl Fn(usize) -> bool,
        (masks, words): (&[u64], usize),
        n: usize,
        tight_marks: TightMarks<'_>,
        tight: &[bool],
    ) -> Self {
        let (pairs, pair_cells, pair_groups) = intersecting_pairs(aligned, masks, words);
        let pair_words = pairs.len().div_ceil(64);
        let cell_pairs =
            cells_touching_pairs(&pairs, &pair_cells, &pair_groups, tight, n, pair_words);
        let cell_marks = match tight_marks {
            _ if tight.len() > 64 || pair_words > 1 => Vec::new(),
            TightMarks::Rows(group_start, group_cells) => {
                marks_per_cell(n, group_start, group_cells, tight, &cell_pairs)
            }
            // One word of pairs per cell, if any, beside the known groups' word.
            TightMarks::Known(known) => known
                .iter()
                .enumerate()
                .map(|(c, &[groups, _])| [groups, cell_pairs.get(c).copied().unwrap_or(0)])
                .collect(),
        };
        let box_lines = box_line_records(&pairs, &pair_cells, n);
        let cover = if box_lines.is_empty() {
            SegmentCover::new(&pairs, &pair_cells, n)
        } else {
            None
        };
        PairTables {
            pairs,
            pair_cells,
            pair_words,
            cell_pairs,
            cell_marks,
            box_lines,
            cover,
        }
    }

    /// The tables of a family of `n` cells whose pairs come later: none, and each cell's
    /// marks of its tight groups (group `g`'s cells are `group_cells[group_start[g]..
    /// group_start[g + 1]]`).
    fn without_pairs(n: usize, group_start: &[u32], group_cells: &[u32], tight: &[bool]) -> Self {
        let cell_marks = if tight.len() <= 64 {
            marks_per_cell(n, group_start, group_cells, tight, &[])
        } else {
            Vec::new()
        };
        PairTables {
            pairs: Vec::new(),
            pair_cells: Vec::new(),
            pair_words: 0,
            cell_pairs: Vec::new(),
            cell_marks,
            box_lines: Vec::new(),
            cover: None,
        }
    }
}

/// The variables of `groups` as a bitset (bit `v % 64` of word `v / 64`).
fn member_bits(groups: &[FamilyGroup]) -> Vec<u64> {
    let mut members: Vec<u64> = Vec::new();
    for group in groups {
        for &v in group.vars {
            let word = v / 64;
            if word >= members.len() {
                members.resize(word + 1, 0);
            }
            members[word] |= 1 << (v % 64);
        }
    }
    members
}

/// Each group's cells (local indices) and shifts as compressed rows, and each cell's
/// groups with its shift in them.
struct GroupRows {
    start: Vec<u32>,
    cells: Vec<u32>,
    shifts: Vec<u32>,
    by_cell: ByCell,
}

/// Each cell's groups with its shift in them, as compressed rows.
struct ByCell {
    start: Vec<u32>,
    entries: Vec<(u32, u32)>,
}

impl ByCell {
    /// How many cells there are.
    fn len(&self) -> usize {
        self.start.len() - 1
    }

    /// Cell `c`'s groups and shifts.
    fn of(&self, c: usize) -> &[(u32, u32)] {
        &self.entries[self.start[c] as usize..self.start[c + 1] as usize]
    }

    /// Every cell's groups and shifts, in cell order.
    fn iter(&self) -> impl Iterator<Item = &[(u32, u32)]> {
        (0..self.len()).map(|c| self.of(c))
    }
}

impl GroupRows {
    fn new(groups: &[FamilyGroup], n: usize, local: &impl Fn(usize) -> u32) -> Self {
        let entries: usize = groups.iter().map(|g| g.vars.len()).sum();
        let mut start = Vec::with_capacity(groups.len() + 1);
        start.push(0);
        let mut cells = Vec::with_capacity(entries);
        let mut shifts = Vec::with_capacity(entries);
        // Each cell's memberships counted first, so that they are laid out in one vector.
        let mut cell_start = vec![0u32; n + 1];
        for group in groups {
            let from = cells.len();
            cells.extend(group.vars.iter().map(|&v| local(v)));
            shifts.extend_from_slice(group.shifts);
            for &c in &cells[from..] {
                cell_start[c as usize + 1] += 1;
            }
            start.push(cells.len() as u32);
        }
        for c in 0..n {
            cell_start[c + 1] += cell_start[c];
        }
        let mut next = cell_start.clone();
        let mut by_cell = vec![(0, 0); entries];
        for (g, bounds) in start.windows(2).enumerate() {
            let (from, to) = (bounds[0] as usize, bounds[1] as usize);
            for (&c, &shift) in cells[from..to].iter().zip(&shifts[from..to]) {
                let slot = &mut next[c as usize];
                by_cell[*slot as usize] = (g as u32, shift);
                *slot += 1;
            }
        }
        GroupRows {
            start,
            cells,
            shifts,
            by_cell: ByCell {
                start: cell_start,
                entries: by_cell,
            },
        }
    }

    /// Group `g`'s cells.
    fn cells_of(&self, g: usize) -> &[u32] {
        &self.cells[self.start[g] as usize..self.start[g + 1] as usize]
    }

    /// Whether group `g`'s cells are the cells `0, 1, 2, ...` in order.
    fn is_run_from_zero(&self, g: usize) -> bool {
        let (from, to) = (self.start[g] as usize, self.start[g + 1] as usize);
        self.cells[from..to].iter().zip(0..).all(|(&c, i)| c == i)
    }

    /// What a hidden-single scan of each group needs (see [`Family::scans`]).
    fn scans(&self, groups: &[FamilyGroup]) -> Vec<GroupScan> {
        (0..groups.len())
            .map(|g| {
                let (from, to) = (self.start[g], self.start[g + 1]);
                let cells = &self.cells[from as usize..to as usize];
                let consecutive = cells.windows(2).all(|w| w[1] == w[0] + 1);
                let run = match cells.first() {
                    Some(&first) if consecutive => first,
                    _ => NO_RUN,
                };
                GroupScan {
                    from,
                    to,
                    run,
                    plain: groups[g].aligned(),
                }
            })
            .collect()
    }
}

/// Each group's cells (local indices) as a bitset, so that sets of groups are joined and
/// compared a word at a time.
struct GroupMasks {
    words: usize,
    masks: Vec<u64>,
}

impl GroupMasks {
    fn new(rows: &GroupRows, n: usize) -> Self {
        let words = n.div_ceil(64);
        let groups = rows.start.len() - 1;
        let mut masks = vec![0u64; groups * words];
        for g in 0..groups {
            for &c in rows.cells_of(g) {
                masks[g * words + c as usize / 64] |= 1 << (c % 64);
            }
        }
        GroupMasks { words, masks }
    }

    /// Group `g`'s cells.
    fn of(&self, g: usize) -> &[u64] {
        &self.masks[g * self.words..(g + 1) * self.words]
    }
}

/// Each cell's groups, and its peers with their shift patterns (see
/// [`Family::peer_pattern`]), as compressed rows.
struct PeerRows {
    group_start: Vec<u32>,
    groups: Vec<u32>,
    start: Vec<u32>,
    cells: Vec<u32>,
    pattern: Vec<u128>,
    /// Each cell's peers as a bitset (a row of `n / 64` words rounded up), for a family
    /// without shifts (else empty).
    bits: Vec<u64>,
}

impl PeerRows {
    fn new(groups: &[FamilyGroup], by_cell: &ByCell, local: &impl Fn(usize) -> u32) -> Self {
        // At most every other cell of each of a cell's groups is its peer, and at most
        // every other cell.
        let n = by_cell.len();
        let most_peers = groups
            .iter()
            .map(|g| g.vars.len() * g.vars.len().saturating_sub(1))
            .sum::<usize>()
            .min(n * n.saturating_sub(1));
        let memberships = by_cell.entries.len();
        let mut rows = PeerRows {
            group_start: Vec::with_capacity(n + 1),
            groups: Vec::with_capacity(memberships),
            start: Vec::with_capacity(n + 1),
            cells: Vec::with_capacity(most_peers),
            pattern: Vec::with_capacity(most_peers),
            bits: Vec::new(),
        };
        rows.group_start.push(0);
        rows.start.push(0);
        // Each peer's shift pattern gathered in place, and the peers touched as bits, so
        // that they come out in order by sorting only the words that hold them.
        let mut pattern_of = vec![0u128; n];
        let mut touched = vec![0u64; n.div_ceil(64)];
        let mut touched_words: Vec<usize> = Vec::new();
        for (cell, memberships) in by_cell.iter().enumerate() {
            rows.groups.extend(memberships.iter().map(|&(g, _)| g));
            rows.group_start.push(rows.groups.len() as u32);
            touched_words.clear();
            for &(g, own) in memberships {
                let group = &groups[g as usize];
                for (&v, &theirs) in group.vars.iter().zip(group.shifts) {
                    let c = local(v);
                    if c as usize == cell {
                        continue;
                    }
                    // Shifts lie in 0..64, so 64 + d lies in 1..128.
                    let d = own as i32 - theirs as i32;
                    let slot = &mut pattern_of[c as usize];
                    if *slot == 0 {
                        let word = c as usize / 64;
                        if touched[word] == 0 {
                            touched_words.push(word);
                        }
                        touched[word] |= 1 << (c % 64);
                    }
                    *slot |= 1u128 << (64 + d);
                }
            }
            touched_words.sort_unstable();
            for &word in &touched_words {
                let mut bits = std::mem::take(&mut touched[word]);
                while bits != 0 {
                    let c = word * 64 + bits.trailing_zeros() as usize;
                    bits &= bits - 1;
                    rows.cells.push(c as u32);
                    rows.pattern.push(std::mem::take(&mut pattern_of[c]));
                }
            }
            rows.start.push(rows.cells.len() as u32);
        }
        rows
    }

    /// The rows of a family without shifts: a cell's peers are the union of its groups'
    /// cells, read out of their bitsets in order. No patterns: such a family removes a
    /// fixed value from its peers unshifted.
    fn aligned(by_cell: &ByCell, masks: &GroupMasks, lists: bool) -> Self {
        let n = by_cell.len();
        let mut rows = PeerRows {
            // A cell's groups are its memberships without their (zero) shifts.
            group_start: by_cell.start.clone(),
            groups: by_cell.entries.iter().map(|&(g, _)| g).collect(),
            start: Vec::with_capacity(n + 1),
            cells: Vec::new(),
            pattern: Vec::new(),
            bits: vec![0u64; n * masks.words],
        };
        rows.start.push(0);
        // Rows of a length known at compile time unroll.
        match masks.words {
            1 => peer_unions::<1>(by_cell, masks, &mut rows.bits),
            2 => peer_unions::<2>(by_cell, masks, &mut rows.bits),
            _ => peer_unions::<0>(by_cell, masks, &mut rows.bits),
        }
        if !lists {
            return rows;
        }
        // The peer lists read off the rows into slots made first.
        let entries = rows.bits.iter().map(|w| w.count_ones() as usize).sum();
        rows.cells.resize(entries, 0);
        let mut at = 0;
        for row in rows.bits.chunks(masks.words.max(1)).take(n) {
            at = write_set_bits(&mut rows.cells, at, row.len(), |k| row[k]);
            rows.start.push(at as u32);
        }
        rows
    }

    /// How many peers `cell` has.
    fn len_of(&self, cell: usize) -> usize {
        (self.start[cell + 1] - self.start[cell]) as usize
    }

    /// The removal table of a family with shifts, `removals[bit * peers + entry]`, when it
    /// fits [`MAX_REMOVALS`] words (else empty: the patterns are shifted at run time).
    fn removals(&self, width: u32) -> Vec<u64> {
        if self.pattern.len() * width as usize > MAX_REMOVALS {
            return Vec::new();
        }
        (0..width)
            .flat_map(|bit| self.pattern.iter().map(move |&p| ((p << bit) >> 64) as u64))
            .collect()
    }

    /// The removal table of a dense family, laid out over all cells, the cell itself
    /// included (nothing to remove), so that a fixed cell's row lines up with the cells'
    /// masks: `removals[(bit * cells + cell) * row + other]`, rows padded with zeros up to
    /// `row` (removing nothing from the padding).
    fn dense_removals(&self, width: u32, row: usize) -> Vec<u64> {
        let n = self.start.len() - 1;
        let pattern = |cell: usize, other: usize| {
            let entry = other - usize::from(other > cell);
            self.pattern[self.start[cell] as usize + entry]
        };
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
    }
}

/// [`intersecting_pairs`] of groups over the variables `0..n` (local index = variable).
#[cfg(test)]
pub(super) fn pairs_of(groups: &[FamilyGroup], n: usize) -> (Vec<PairParts>, Vec<u32>) {
    let rows = GroupRows::new(groups, n, &|v| v as u32);
    let masks = GroupMasks::new(&rows, n);
    let (pairs, cells, _) = intersecting_pairs(|g| groups[g].aligned(), &masks.masks, masks.words);
    (pairs, cells)
}

/// Each cell's peers into `bits` (zeroed, a row of `masks.words` words per cell): the
/// union of its groups' bitsets less the cell itself. `W` is the row length, 0 when it
/// is only known at run time.
fn peer_unions<const W: usize>(by_cell: &ByCell, masks: &GroupMasks, bits: &mut [u64]) {
    let words = if W == 0 { masks.words } else { W };
    if words == 0 {
        return;
    }
    for (cell, row) in bits.chunks_exact_mut(words).enumerate() {
        let (from, to) = (
            by_cell.start[cell] as usize,
            by_cell.start[cell + 1] as usize,
        );
        for &(g, _) in &by_cell.entries[from..to] {
            let group = &masks.of(g as usize)[..words];
            for (r, &m) in row.iter_mut().zip(group) {
                *r |= m;
            }
        }
        row[cell / 64] &= !(1 << (cell % 64));
    }
}

/// Every two groups for which `aligned` holds sharing at least two cells, as bounds into
/// the returned cells: the shared cells, the cells only in the first group, those only in
/// the second; and each pair's two groups. The groups' cells are the bitsets `masks`,
/// rows of `words` words.
fn intersecting_pairs(
    aligned: impl Fn(usize) -> bool,
    masks: &[u64],
    words: usize,
) -> (Vec<PairParts>, Vec<u32>, Vec<[u32; 2]>) {
    // Bitsets of a length known at compile time unroll (most families have at most 128
    // cells).
    match words {
        1 => pairs_of_width::<1>(aligned, masks, words),
        2 => pairs_of_width::<2>(aligned, masks, words),
        _ => pairs_of_width::<0>(aligned, masks, words),
    }
}

/// [`intersecting_pairs`] over bitsets of `W` words (0: of `words` words).
fn pairs_of_width<const W: usize>(
    aligned: impl Fn(usize) -> bool,
    masks: &[u64],
    words: usize,
) -> (Vec<PairParts>, Vec<u32>, Vec<[u32; 2]>) {
    let words = if W == 0 { words } else { W };
    if words == 0 {
        return (Vec::new(), Vec::new(), Vec::new());
    }
    let groups = masks.len() / words;
    // Room for as many pairs as two per group, of about two groups' cells each (a 9×9
    // board's boxes and lines, or its jigsaw regions and lines, fit), so that the vectors
    // rarely grow.
    let entries = masks.iter().map(|w| w.count_ones() as usize).sum::<usize>();
    let mut pairs = Vec::with_capacity(2 * groups);
    let mut pair_groups = Vec::with_capacity(2 * groups);
    let mut pair_cells = Vec::with_capacity((4 * entries).min(1 << 14));
    // Rows walked as chunks (of a length known at compile time when `W` is), with no
    // index to check per pair.
    let rows = masks.chunks_exact(words);
    for (a, ma) in rows.clone().enumerate() {
        if !aligned(a) {
            continue;
        }
        for (b, mb) in rows.clone().enumerate().skip(a + 1) {
            if !aligned(b) {
                continue;
            }
            // Most pairs share at most one cell: passed over with a few word operations.
            let common: u32 = ma.iter().zip(mb).map(|(x, y)| (x & y).count_ones()).sum();
            if common < 2 {
                continue;
            }
            // Each part's cells in ascending order, read off the two groups' bitsets into
            // slots made first.
            let begin = pair_cells.len();
            let cells: u32 = ma.iter().zip(mb).map(|(x, y)| (x | y).count_ones()).sum();
            pair_cells.resize(begin + cells as usize, 0);
            let out = &mut pair_cells[begin..];
            let only_a = write_set_bits(out, 0, words, |k| ma[k] & mb[k]);
            let only_b = write_set_bits(out, only_a, words, |k| ma[k] & !mb[k]);
            write_set_bits(out, only_b, words, |k| mb[k] & !ma[k]);
            let begin = begin as u32;
            pairs.push(PairParts {
                begin,
                only_a: begin + only_a as u32,
                only_b: begin + only_b as u32,
                end: pair_cells.len() as u32,
            });
            pair_groups.push([a as u32, b as u32]);
        }
    }
    (pairs, pair_cells, pair_groups)
}

/// Writes the positions of the set bits of the `words` words `word(k)` (word `k`
/// holding bits `64k..`) into `out` from `at` on; returns where they end.
#[inline(always)]
fn write_set_bits(
    out: &mut [u32],
    mut at: usize,
    words: usize,
    word: impl Fn(usize) -> u64,
) -> usize {
    for k in 0..words {
        for b in set_bits(word(k)) {
            out[at] = (k * 64 + b) as u32;
            at += 1;
        }
    }
    at
}

/// For each of `n` cells, `pair_words` words: the pairs whose rule a change of the cell
/// can set off (see [`Family::cell_pairs`]): those in which it lies outside the
/// intersection, and every pair that holds it of which one group (`pair_groups[p]`) is
/// looser than a permutation (not `tight`), since a change anywhere in such a group can
/// leave it with as many values as cells.
fn cells_touching_pairs(
    pairs: &[PairParts],
    pair_cells: &[u32],
    pair_groups: &[[u32; 2]],
    tight: &[bool],
    n: usize,
    pair_words: usize,
) -> Vec<u64> {
    let mut cell_pairs = vec![0u64; n * pair_words];
    for (p, (parts, &[a, b])) in pairs.iter().zip(pair_groups).enumerate() {
        let loose = !tight[a as usize] || !tight[b as usize];
        let from = if loose { parts.begin } else { parts.only_a };
        for &c in &pair_cells[from as usize..parts.end as usize] {
            cell_pairs[c as usize * pair_words + p / 64] |= 1 << (p % 64);
        }
    }
    cell_pairs
}

/// Each of `n` cells' tight groups (group `g`'s cells are `group_cells[group_start[g]..
/// group_start[g + 1]]`) and the pairs it lies outside of, as two words (at most 64
/// groups and one word of pairs: see [`Family::cell_marks`]).
fn marks_per_cell(
    n: usize,
    group_start: &[u32],
    group_cells: &[u32],
    tight: &[bool],
    cell_pairs: &[u64],
) -> Vec<[u64; 2]> {
    let mut marks = vec![[0u64; 2]; n];
    for (g, bounds) in group_start.windows(2).enumerate() {
        if tight[g] {
            for &c in &group_cells[bounds[0] as usize..bounds[1] as usize] {
                marks[c as usize][0] |= 1 << g;
            }
        }
    }
    // One word of pairs per cell, if any.
    for (mark, &pairs) in marks.iter_mut().zip(cell_pairs) {
        mark[1] = pairs;
    }
    marks
}

/// Each pair's cells as one box-line record (shared, A's, B's), when every pair has the
/// 9×9 shape (three shared cells, six on each side) and the family has at most [`SMALL`]
/// cells (indices fit a byte); else none.
fn box_line_records(pairs: &[PairParts], pair_cells: &[u32], n: usize) -> Vec<[u8; 15]> {
    pairs
        .iter()
        .map(
            |&PairParts {
                 begin,
                 only_a,
                 only_b,
                 end,
             }| {
                let shape = (only_a - begin, only_b - only_a, end - only_b);
                (shape == (3, 6, 6))
                    .then(|| std::array::from_fn(|i| pair_cells[begin as usize + i] as u8))
            },
        )
        .collect::<Option<Vec<_>>>()
        .filter(|_| n <= SMALL)
        .unwrap_or_default()
}
