//! A family that is exactly the 27 groups of a 9×9 board with 3×3 boxes (nine rows, nine
//! columns, nine boxes, cells in any order and values in the nine lowest bits) runs value
//! by value and band by band. For each value and each band of three rows, the cells that
//! still hold the value are one 27-bit word (a "sub-band"); the 27 words and the band's
//! cells not yet placed are kept in the store beside the domains, so that undo restores
//! them with the domains. A run reasons on the words through nine-bit tables
//! ([`band_tables`](super::band_tables)): where a value can go within a band (one cell in
//! each row and each box, which covers both directions of locked candidates between a
//! row and a box), which columns a band takes from the other two, which columns only one
//! band can give, and which rows are left with one cell; then cells with one value left
//! are placed, until nothing changes. The domains are written back from the words for the
//! cells that changed. These reach the fixed point of the family's generic run on such a
//! board (singles, hidden singles, pigeonhole, locked values between a box and a line: in
//! a band of three boxes, a value's placements in mini-rows rule out no more than those),
//! at the cost of a few table lookups per changed word instead of work per cell and peer:
//! the layout of the fastest hand-written 9×9 solvers (JCZSolve's bands by digit), found
//! here from the groups alone, whatever model posted them.

use super::band_tables::{
    ALONE, BAND, BAND_PEERS, FORCED_COLUMNS, LEFT_TO_OTHERS, MINI_ROWS, NINE, PLACEABLE,
};
use super::board_pairs::BoardPairs;
use crate::bits::set_bits;
use crate::propagate::{Conflict, Engine};

/// Cells of the board.
const CELLS: usize = 81;

/// Words in the store: the 27 sub-bands (value `v` in band `b` at `v * 3 + b`), then the
/// three bands' cells not yet placed.
pub(super) const BOARD_WORDS: usize = 30;

/// Where the cells not yet placed start among the board's words.
const UNPLACED: usize = 27;

/// A family recognised as a 9×9 board.
#[derive(Clone, Debug)]
pub(super) struct Board {
    /// The board position (`row * 9 + column`) of each of the family's cells.
    position: [u8; CELLS],
    /// The family's cell at each board position.
    cell_at: [u8; CELLS],
    /// Store index of the first of the board's words.
    start: u32,
    /// Whether each cell's family index is its board position (a model that posts its
    /// cells row by row): a band's cells are then 27 consecutive family cells.
    in_place: bool,
    /// The family's groups of two cells beside the board's (variants' pairs), if any.
    pairs: Option<BoardPairs>,
}

/// The words a run works on, with the state they were loaded in.
struct Bands {
    /// The sub-bands as the run has them.
    now: [u32; 27],
    /// Each sub-band as it was when its rules last ran on it (at a search's first run, a
    /// value no word takes, so that every word's rules run).
    seen: [u32; 27],
    /// Each band's cells not yet placed.
    unplaced: [u32; 3],
}

impl Board {
    /// The board these groups form, if they are a 9×9 board's rows, columns and boxes
    /// over `n` cells (group `g`'s cells are `cells(g)`, their shifts `shifts(g)`),
    /// unshifted and with values in the nine lowest bits (`width` 9), and any other
    /// groups are of two cells that [`BoardPairs`] can take; its words go in the store
    /// from `start` on.
    pub(super) fn recognise<'a>(
        groups: usize,
        cells: impl Fn(usize) -> &'a [u32],
        shifts: impl Fn(usize) -> &'a [u32],
        n: usize,
        width: u32,
        start: u32,
    ) -> Option<Board> {
        if n != CELLS || width != 9 {
            return None;
        }
        // The board's 27 groups of nine unshifted cells, and the groups of two.
        let mut units = [0usize; 27];
        let (mut found, mut two) = (0, Vec::new());
        for g in 0..groups {
            match cells(g).len() {
                9 if found < units.len() && shifts(g).iter().all(|&s| s == 0) => {
                    units[found] = g;
                    found += 1;
                }
                2 => two.push(g),
                _ => return None,
            }
        }
        if found != units.len() {
            return None;
        }
        let mut board = Self::recognise_units(|i| cells(units[i]), start)?;
        let pairs: Vec<[(u8, u32); 2]> = two
            .iter()
            .map(|&g| {
                let at = |i: usize| (board.position[cells(g)[i] as usize], shifts(g)[i]);
                [at(0), at(1)]
            })
            .collect();
        if !pairs.is_empty() {
            board.pairs = Some(BoardPairs::new(&pairs)?);
        }
        Some(board)
    }

    /// The board that the 27 groups `cells(0..27)` form, if they are exactly a 9×9
    /// board's rows, columns and boxes.
    fn recognise_units<'a>(cells: impl Fn(usize) -> &'a [u32], start: u32) -> Option<Board> {
        let groups = 27;
        if !Self::first_group_fits(&cells) {
            return None;
        }
        let sets: Vec<u128> = (0..groups)
            .map(|g| cells(g).iter().fold(0u128, |s, &c| s | 1 << c))
            .collect();
        if sets
            .iter()
            .enumerate()
            .any(|(g, s)| s.count_ones() != 9 || cells(g).len() != 9)
        {
            return None;
        }
        // A box meets six groups (three rows, three columns) in three cells each; a line
        // meets three (its boxes).
        let meets_in_three = |g: usize| {
            sets.iter()
                .filter(|&&h| (sets[g] & h).count_ones() == 3)
                .count()
        };
        let (boxes, lines): (Vec<usize>, Vec<usize>) =
            (0..groups).partition(|&g| meets_in_three(g) == 6);
        if boxes.len() != 9 || lines.len() != 18 {
            return None;
        }
        // Rows: the first line and the lines disjoint from it; columns: the others.
        let (rows, columns): (Vec<usize>, Vec<usize>) = lines
            .iter()
            .partition(|&&h| h == lines[0] || sets[h] & sets[lines[0]] == 0);
        let row_of = Self::order_lines(&rows, &boxes, &sets)?;
        let column_of = Self::order_lines(&columns, &boxes, &sets)?;
        let mut position = [0u8; CELLS];
        for (cell, slot) in position.iter_mut().enumerate() {
            let bit = 1u128 << cell;
            let row = rows.iter().position(|&g| sets[g] & bit != 0)?;
            let column = columns.iter().position(|&g| sets[g] & bit != 0)?;
            *slot = (row_of[row] * 9 + column_of[column]) as u8;
        }
        let mut cell_at = [u8::MAX; CELLS];
        for (cell, &p) in position.iter().enumerate() {
            if cell_at[p as usize] != u8::MAX {
                return None;
            }
            cell_at[p as usize] = cell as u8;
        }
        // Each box must be one band's three rows within one stack's three columns.
        let boxes_fit = boxes.iter().all(|&g| {
            let first = position[cells(g)[0] as usize];
            cells(g).iter().all(|&c| {
                let p = position[c as usize];
                p / 27 == first / 27 && p % 9 / 3 == first % 9 / 3
            })
        });
        let in_place = position
            .iter()
            .enumerate()
            .all(|(c, &p)| usize::from(p) == c);
        boxes_fit.then_some(Board {
            position,
            cell_at,
            start,
            in_place,
            pairs: None,
        })
    }

    /// Whether the first group meets the others as a board's line or box does: in 0, 1
    /// or 3 cells, and in 3 cells three groups (a line's boxes) or six (a box's lines).
    /// A cheap test that turns most other layouts away (a jigsaw's regions, compiled
    /// once per puzzle) before the full one.
    fn first_group_fits<'a>(cells: &impl Fn(usize) -> &'a [u32]) -> bool {
        let mut first = [false; CELLS];
        for &c in cells(0) {
            if let Some(slot) = first.get_mut(c as usize) {
                *slot = true;
            }
        }
        let mut in_three = 0;
        for g in 1..27 {
            let shared = cells(g)
                .iter()
                .filter(|&&c| first.get(c as usize) == Some(&true))
                .count();
            match shared {
                0 | 1 => {}
                3 => in_three += 1,
                _ => return false,
            }
        }
        in_three == 3 || in_three == 6
    }

    /// Numbers nine disjoint lines 0–8 so that lines meeting the same three boxes (a band,
    /// or a stack of columns) are consecutive; `None` unless they fall into three such
    /// sets of three.
    fn order_lines(lines: &[usize], boxes: &[usize], sets: &[u128]) -> Option<Vec<usize>> {
        if lines.len() != 9 || lines.iter().fold(0u128, |u, &g| u | sets[g]).count_ones() != 81 {
            return None;
        }
        let met = |g: usize| {
            boxes
                .iter()
                .enumerate()
                .filter(|&(_, &b)| sets[b] & sets[g] != 0)
                .fold(0u16, |m, (i, _)| m | 1 << i)
        };
        let mut kinds: Vec<u16> = Vec::new();
        let mut number = vec![0; lines.len()];
        let mut filled = [0usize; 3];
        for (i, &g) in lines.iter().enumerate() {
            let kind = met(g);
            let k = match kinds.iter().position(|&x| x == kind) {
                Some(k) => k,
                None => {
                    kinds.push(kind);
                    kinds.len() - 1
                }
            };
            if k >= 3 || filled[k] >= 3 || kind.count_ones() != 3 {
                return None;
            }
            number[i] = k * 3 + filled[k];
            filled[k] += 1;
        }
        Some(number)
    }

    /// The run, in place of the family's generic one. `masks` (at least 81 words) and
    /// `changed` (two words) are scratch: the domains written back and the cells changed.
    pub(super) fn run(
        &self,
        e: &mut Engine,
        first_word: Option<u32>,
        (vars, words): (&[usize], &[u32]),
        masks: &mut [u64],
        changed: &mut [u64],
    ) -> Result<(), Conflict> {
        let masks = &mut masks[..CELLS];
        changed.fill(0);
        let mut bands = self.load(e, words, first_word);
        let loaded = bands.now;
        let settled = match &self.pairs {
            None => bands.settle(),
            Some(pairs) => bands.settle_with(pairs),
        };
        let by_band = changed_by_band(&loaded, &bands.now);
        if settled.is_err() {
            self.mark_changed(by_band, changed);
            return settled;
        }
        match first_word {
            Some(first) if e.watches_alone() => {
                if !e.store.saves_writes() {
                    // Written in one copy of all the cells (see `Store::write_changed`).
                    masks.copy_from_slice(e.store.words_from(first as usize, CELLS));
                }
                self.domains_from(&bands.now, by_band, masks, changed);
                e.store.write_changed(first as usize, masks, changed);
            }
            _ => {
                self.domains_from(&bands.now, by_band, masks, changed);
                e.write_back_changed(vars, words, masks, changed);
            }
        }
        let mut stored = [0u64; BOARD_WORDS];
        for (slot, &w) in stored
            .iter_mut()
            .zip(bands.now.iter().chain(&bands.unplaced))
        {
            *slot = u64::from(w);
        }
        e.store.write_differing(self.start as usize, &stored);
        Ok(())
    }

    /// The board's words from the store, with the cells others changed since the last
    /// run (whose domains are at store indices `words`) applied.
    fn load(&self, e: &mut Engine, words: &[u32], first_word: Option<u32>) -> Bands {
        let start = self.start as usize;
        let (store, changes) = e.store_and_changes();
        let saved = store.words_from(start, BOARD_WORDS);
        let mut bands = Bands {
            now: [0; 27],
            seen: [0; 27],
            unplaced: [0; 3],
        };
        let every_cell = changes.iter().map(|w| w.count_ones()).sum::<u32>() as usize == CELLS;
        if every_cell {
            // The first run of a search: from the domains alone, every rule to run (on
            // every word, as none equals a word of more than 27 bits).
            bands.now = [BAND; 27];
            bands.seen = [u32::MAX; 27];
            bands.unplaced = [BAND; 3];
            // Most cells hold every value then: those that do not are gathered as a
            // bitset first (where a puzzle's givens lie is a coin toss for the predictor).
            let full = |w: u64| w & u64::from(NINE) == u64::from(NINE);
            let mut narrow = [0u64; 2];
            match first_word {
                // The domains side by side (a model that made the cells first): a pass
                // over each 64 of them with no index to look up.
                Some(first) => {
                    let domains = store.words_from(first as usize, CELLS);
                    for (bits, chunk) in narrow.iter_mut().zip(domains.chunks(64)) {
                        *bits = chunk
                            .iter()
                            .enumerate()
                            .fold(0, |m, (i, &w)| m | u64::from(!full(w)) << i);
                    }
                }
                None => {
                    for (cell, &w) in words.iter().enumerate() {
                        let wide = u64::from(!full(store.word_at(w as usize)));
                        narrow[cell / 64] |= wide << (cell % 64);
                    }
                }
            }
            for (k, &bits) in narrow.iter().enumerate() {
                for cell in set_bits(bits).map(|b| k * 64 + b) {
                    self.take_out(cell, store.word_at(words[cell] as usize), &mut bands.now);
                }
            }
        } else {
            for (k, (now, &w)) in bands.now.iter_mut().zip(saved).enumerate() {
                *now = w as u32;
                bands.seen[k] = w as u32;
            }
            for (u, &w) in bands.unplaced.iter_mut().zip(&saved[UNPLACED..]) {
                *u = w as u32;
            }
            for (k, &word) in changes.iter().enumerate() {
                for cell in set_bits(word).map(|b| k * 64 + b) {
                    if let Some(&w) = words.get(cell) {
                        self.take_out(cell, store.word_at(w as usize), &mut bands.now);
                    }
                }
            }
        }
        changes.fill(0);
        bands
    }

    /// Takes `cell` out of the sub-bands of the values its domain `mask` lacks.
    #[inline]
    fn take_out(&self, cell: usize, mask: u64, now: &mut [u32; 27]) {
        let p = self.position[cell] as usize;
        let (band, shift) = (p / 27, p % 27);
        for v in 0..9 {
            let lacks = (!mask >> v & 1) as u32;
            now[v * 3 + band] &= !(lacks << shift);
        }
    }

    /// Sets in `changed` the cells `by_band` (as [`changed_by_band`] gives them).
    fn mark_changed(&self, by_band: [u32; 3], changed: &mut [u64]) {
        for (band, &diff) in by_band.iter().enumerate() {
            for bit in set_bits(u64::from(diff)) {
                let cell = self.cell_at[band * 27 + bit] as usize;
                changed[cell / 64] |= 1 << (cell % 64);
            }
        }
    }

    /// Marks the cells `by_band` in `changed` and reads their domains off the sub-bands
    /// into `masks`: for a band with few such cells (a search's step), nine bits gathered
    /// per cell in a loop of fixed length (how many values a cell has left is a coin toss
    /// for the predictor); for a band with many (the first run), every cell's domain at
    /// once, four cells to a word (see [`band_domains`]).
    fn domains_from(
        &self,
        now: &[u32; 27],
        by_band: [u32; 3],
        masks: &mut [u64],
        changed: &mut [u64],
    ) {
        for (band, &diff) in by_band.iter().enumerate() {
            if diff.count_ones() > MANY_CELLS {
                let domains = band_domains(now, band);
                if self.in_place {
                    // The band's 27 cells follow one another: every domain is written
                    // (those of unchanged cells are the ones they have), the changed ones
                    // marked at once.
                    let first = band * 27;
                    for (bit, mask) in masks[first..first + 27].iter_mut().enumerate() {
                        *mask = lane(&domains, bit);
                    }
                    let marks = u128::from(diff) << first;
                    changed[0] |= marks as u64;
                    changed[1] |= (marks >> 64) as u64;
                } else {
                    for bit in set_bits(u64::from(diff)) {
                        let cell = self.cell_at[band * 27 + bit] as usize;
                        changed[cell / 64] |= 1 << (cell % 64);
                        masks[cell] = lane(&domains, bit);
                    }
                }
                continue;
            }
            for bit in set_bits(u64::from(diff)) {
                let cell = self.cell_at[band * 27 + bit] as usize;
                changed[cell / 64] |= 1 << (cell % 64);
                masks[cell] =
                    (0..9).fold(0, |m, v| m | u64::from(now[v * 3 + band] >> bit & 1) << v);
            }
        }
    }
}

/// Changed cells in a band above which [`band_domains`] reads their domains more cheaply
/// than a gather per cell.
const MANY_CELLS: u32 = 6;

/// For each four bits, those bits spread to the low bits of four 16-bit lanes.
static SPREAD: [u64; 16] = {
    let mut table = [0; 16];
    let mut nibble = 0;
    while nibble < 16 {
        let mut i = 0;
        while i < 4 {
            if nibble >> i & 1 == 1 {
                table[nibble] |= 1 << (16 * i);
            }
            i += 1;
        }
        nibble += 1;
    }
    table
};

/// The domains of a band's 27 cells from its nine sub-bands: cell `i`'s in lane `i % 4`
/// (16 bits) of word `i / 4`. Each value's word is spread four bits at a time into the
/// lanes, shifted to the value's bit.
fn band_domains(now: &[u32; 27], band: usize) -> [u64; 7] {
    let mut domains = [0u64; 7];
    for v in 0..9 {
        let cells = now[v * 3 + band];
        for (j, lanes) in domains.iter_mut().enumerate() {
            *lanes |= SPREAD[(cells >> (4 * j) & 15) as usize] << v;
        }
    }
    domains
}

/// Cell `bit`'s domain from [`band_domains`]' lanes.
#[inline(always)]
fn lane(domains: &[u64; 7], bit: usize) -> u64 {
    domains[bit / 4] >> (bit % 4 * 16) & u64::from(NINE)
}

/// For each band, the cells whose values differ between the sub-bands `before` and
/// `after`.
fn changed_by_band(before: &[u32; 27], after: &[u32; 27]) -> [u32; 3] {
    let mut by_band = [0; 3];
    for (band, diff) in by_band.iter_mut().enumerate() {
        *diff = (0..9).fold(0, |d, v| d | (before[v * 3 + band] ^ after[v * 3 + band]));
    }
    by_band
}

impl Bands {
    /// The rules until nothing changes: each changed sub-band's, then cells with one value.
    fn settle(&mut self) -> Result<(), Conflict> {
        // Cells with one value first: a search's decision, or a puzzle's givens, whose
        // values leave their peers before the words' rules look at them.
        self.place_singles()?;
        loop {
            self.update_changed_words()?;
            if !self.place_singles()? {
                return Ok(());
            }
        }
    }

    /// [`Bands::settle`] on a board with groups of two beside it: each cell placed in
    /// this run passes its value on to its partners in `pairs`, and the rules run again,
    /// until no cell is newly placed. Apart from [`Bands::settle`], so that a board
    /// without pairs carries none of this code in its run.
    #[inline(never)]
    fn settle_with(&mut self, pairs: &BoardPairs) -> Result<(), Conflict> {
        // Cells placed before this run passed their values on in the run that placed them.
        let mut open = self.unplaced;
        loop {
            self.settle()?;
            let mut any = false;
            for (band, open) in open.iter_mut().enumerate() {
                let placed = *open & !self.unplaced[band];
                *open = self.unplaced[band];
                any |= placed != 0;
                for bit in set_bits(u64::from(placed)) {
                    // A cell emptied by a partner placed before it in this loop has no
                    // value to pass on; the next settle fails on it.
                    if let Some(v) = (0..9).find(|&v| self.now[v * 3 + band] >> bit & 1 == 1) {
                        pairs.pass_on(band * 27 + bit, v, &mut self.now);
                    }
                }
            }
            if !any {
                return Ok(());
            }
        }
    }

    /// The rules on every word changed since they last ran on it, until none is. Which
    /// words changed is gathered without a branch per word (a coin toss for the
    /// predictor), then the changed ones are visited.
    fn update_changed_words(&mut self) -> Result<(), Conflict> {
        loop {
            let changed = (0..27).fold(0u32, |acc, k| {
                acc | (0u32.wrapping_sub(u32::from(self.now[k] != self.seen[k])) & 1 << k)
            });
            if changed == 0 {
                return Ok(());
            }
            for k in set_bits(u64::from(changed)) {
                self.update(k)?;
            }
        }
    }

    /// The rules on sub-band `k` (value `k / 3` in band `k % 3`).
    #[inline(always)]
    fn update(&mut self, k: usize) -> Result<(), Conflict> {
        let held = self.now[k];
        let mini = u32::from(MINI_ROWS[(held & NINE) as usize])
            | u32::from(MINI_ROWS[(held >> 9 & NINE) as usize]) << 3
            | u32::from(MINI_ROWS[(held >> 18) as usize]) << 6;
        let cells = held & PLACEABLE[mini as usize];
        if cells == 0 {
            return Err(Conflict);
        }
        self.seen[k] = cells;
        let [band, a, b] = BAND_AND_OTHERS[k].map(usize::from);
        let columns = fold_columns(cells);
        let (in_a, in_b) = (fold_columns(self.now[a]), fold_columns(self.now[b]));
        if columns | in_a | in_b != NINE {
            // A column where no band can hold the value.
            return Err(Conflict);
        }
        let left = LEFT_TO_OTHERS[columns as usize];
        self.now[a] &= left & FORCED_COLUMNS[(in_a & !(columns | in_b)) as usize];
        self.now[b] &= left & FORCED_COLUMNS[(in_b & !(columns | in_a)) as usize];
        // A row of the band left with one cell for the value places it there: the cell
        // loses its other values.
        let placed = u32::from(ALONE[(cells & NINE) as usize])
            | u32::from(ALONE[(cells >> 9 & NINE) as usize]) << 9
            | u32::from(ALONE[(cells >> 18) as usize]) << 18;
        // Whether any row was left with one cell is a coin toss for the predictor: the
        // band's words are masked either way, this one's then set to its cells.
        self.unplaced[band] &= !placed;
        for v in 0..9 {
            self.now[v * 3 + band] &= !placed;
        }
        self.now[k] = cells;
        Ok(())
    }

    /// Places every cell not yet placed that has one value left: the value leaves the
    /// cell's row and box within its band (the sub-band's rules do the rest). Fails on a
    /// cell with no value; false when there was none to place.
    fn place_singles(&mut self) -> Result<bool, Conflict> {
        let mut placed_any = false;
        for band in 0..3 {
            let (mut once, mut twice) = (0, 0);
            for v in 0..9 {
                let held = self.now[v * 3 + band];
                twice |= once & held;
                once |= held;
            }
            if once != BAND {
                return Err(Conflict);
            }
            let singles = once & !twice & self.unplaced[band];
            self.unplaced[band] &= !singles;
            placed_any |= singles != 0;
            for bit in set_bits(u64::from(singles)) {
                // Which value the cell holds is a coin toss for the predictor: every
                // value's word is masked, by the peers or by nothing.
                for v in 0..9 {
                    let word = &mut self.now[v * 3 + band];
                    let holds = 0u32.wrapping_sub(*word >> bit & 1);
                    *word &= !(BAND_PEERS[bit] & holds);
                }
            }
        }
        Ok(placed_any)
    }
}

/// For each sub-band, its band and the sub-bands of the same value in the other two.
static BAND_AND_OTHERS: [[u8; 3]; 27] = {
    let mut table = [[0; 3]; 27];
    let mut k = 0;
    while k < 27 {
        let (band, base) = (k % 3, k - k % 3);
        table[k] = [
            band as u8,
            (base + (band + 1) % 3) as u8,
            (base + (band + 2) % 3) as u8,
        ];
        k += 1;
    }
    table
};

/// The columns of a band's word that hold any cell.
#[inline(always)]
fn fold_columns(cells: u32) -> u32 {
    (cells | cells >> 9 | cells >> 18) & NINE
}
