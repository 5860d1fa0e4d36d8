//! Swaps of a full grid: sets of cells whose digits can be exchanged among themselves
//! and leave another valid grid. Each is an unavoidable set: a puzzle with the grid as
//! its solution and no given in a swap has a second solution, the grid after the swap,
//! so the generator refuses a removal that empties one without a search.
//!
//! Two kinds are found, both cheap to read off the grid:
//! - *two-digit swaps*: exchanging `a` for `b` in a cell breaks each of its houses until
//!   the cell of that house holding `b` is exchanged too, so a set closed under "the
//!   other digit's cell in the same row, column and box" keeps every house whole. The
//!   cells of two digits fall apart into such closures (the 4-cell rectangles, the 6-cell
//!   ones, and so on up to all `2N` cells of the two digits).
//! - *line swaps*: in two rows (or two columns), the positions where the first line's
//!   digit is found in the second line at another position form cycles; exchanging the
//!   two lines' digits along a cycle keeps both lines and every crossing line whole, and
//!   it is a swap when every box keeps its digits too (always, when both lines cross the
//!   same boxes). The 2-cycles are rectangles, two-digit swaps already, and are left out.
//!
//! The generator removes givens one at a time, so each swap keeps a count of its givens
//! and a removal only updates the swaps through its cell.

use super::geometry::Geometry;
use crate::sudoku::Board;

/// The swaps of one full grid, with how many givens each holds in the puzzle being
/// carved from it.
#[derive(Clone, Debug, Default)]
pub(crate) struct Swaps {
    /// Each swap's cells, one swap after another, with the digit each takes in the other
    /// grid.
    members: Vec<(usize, u8)>,
    /// Where each swap's members end in `members`.
    ends: Vec<usize>,
    /// How many of each swap's cells are given.
    givens: Vec<u32>,
    /// The swaps through each cell.
    through: Vec<Vec<u32>>,
    /// Which cells the closure being grown holds.
    member: Vec<bool>,
}

impl Swaps {
    /// Finds the swaps of `grid` (full and valid), every cell counted as given.
    pub fn learn(&mut self, geo: &Geometry, grid: &Board) {
        let n = geo.side;
        self.members.clear();
        self.ends.clear();
        self.through.iter_mut().for_each(Vec::clear);
        self.through.resize(n * n, Vec::new());
        self.member.clear();
        self.member.resize(n * n, false);
        self.learn_two_digit_swaps(geo, grid);
        self.learn_line_swaps(geo, grid);
        self.givens.clear();
        let mut begin = 0;
        for &end in &self.ends {
            self.givens.push((end - begin) as u32);
            begin = end;
        }
    }

    /// Takes the given out of `cell`; whether some swap through it now holds no given.
    pub fn remove(&mut self, cell: usize) -> bool {
        let mut freed = false;
        for &s in &self.through[cell] {
            let count = &mut self.givens[s as usize];
            *count -= 1;
            freed |= *count == 0;
        }
        freed
    }

    /// Puts the given of `cell` back.
    pub fn restore(&mut self, cell: usize) {
        for &s in &self.through[cell] {
            self.givens[s as usize] += 1;
        }
    }

    /// The swaps found: for each, its cells with the digit each takes in the other grid.
    #[cfg(test)]
    fn all(&self) -> impl Iterator<Item = &[(usize, u8)]> {
        let begins = std::iter::once(0).chain(self.ends.iter().copied());
        begins
            .zip(self.ends.iter().copied())
            .map(|(begin, end)| &self.members[begin..end])
    }

    /// Ends the swap made of the members pushed since `begin`.
    fn close_swap(&mut self, begin: usize) {
        let index = self.ends.len() as u32;
        for &(cell, _) in &self.members[begin..] {
            self.through[cell].push(index);
        }
        self.ends.push(self.members.len());
    }

    /// For every two digits, their cells split into closures.
    fn learn_two_digit_swaps(&mut self, geo: &Geometry, grid: &Board) {
        let n = geo.side;
        let values = grid.cells();
        let mut place = vec![0usize; 3 * n * n];
        for (h, cells) in geo.houses[..3 * n].iter().enumerate() {
            for &c in cells {
                place[h * n + usize::from(values[c]) - 1] = c;
            }
        }
        for a in 1..=n as u8 {
            for b in a + 1..=n as u8 {
                let pair_begin = self.members.len();
                // Every closure holds an `a` in some row.
                for row in 0..n {
                    let start = place[row * n + usize::from(a) - 1];
                    if self.member[start] {
                        continue;
                    }
                    let begin = self.members.len();
                    self.grow_closure(geo, values, &place, start, a, b);
                    self.close_swap(begin);
                }
                for &(cell, _) in &self.members[pair_begin..] {
                    self.member[cell] = false;
                }
            }
        }
    }

    /// Pushes the closure of `start` for digits `a` and `b`, marking its cells.
    fn grow_closure(
        &mut self,
        geo: &Geometry,
        values: &[u8],
        place: &[usize],
        start: usize,
        a: u8,
        b: u8,
    ) {
        let n = geo.side;
        let exchanged = |d: u8| if d == a { b } else { a };
        let mut next = self.members.len();
        self.members.push((start, exchanged(values[start])));
        self.member[start] = true;
        while next < self.members.len() {
            let (x, other) = self.members[next];
            next += 1;
            for &h in &geo.houses_of[x] {
                let partner = place[h * n + usize::from(other) - 1];
                if !self.member[partner] {
                    self.member[partner] = true;
                    self.members.push((partner, exchanged(values[partner])));
                }
            }
        }
    }

    /// For every two rows and every two columns, the cycles that are swaps.
    fn learn_line_swaps(&mut self, geo: &Geometry, grid: &Board) {
        let n = geo.side;
        for columns in [false, true] {
            for first in 0..n {
                for second in first + 1..n {
                    self.learn_cycles(geo, grid.cells(), |i, which| {
                        let line = if which == 0 { first } else { second };
                        if columns {
                            i * n + line
                        } else {
                            line * n + i
                        }
                    });
                }
            }
        }
    }

    /// The cycles of one pair of lines, position `i` of line 0 or 1 being cell
    /// `cell_at(i, line)`.
    fn learn_cycles(
        &mut self,
        geo: &Geometry,
        values: &[u8],
        cell_at: impl Fn(usize, usize) -> usize,
    ) {
        let n = geo.side;
        let mut position_in_second = [0usize; 64];
        for i in 0..n {
            position_in_second[usize::from(values[cell_at(i, 1)]) - 1] = i;
        }
        let mut seen = 0u64;
        for start in 0..n {
            let begin = self.members.len();
            let mut i = start;
            while seen >> i & 1 == 0 {
                seen |= 1 << i;
                let (upper, lower) = (cell_at(i, 0), cell_at(i, 1));
                self.members.push((upper, values[lower]));
                self.members.push((lower, values[upper]));
                i = position_in_second[usize::from(values[upper]) - 1];
            }
            let cycle = &self.members[begin..];
            if cycle.len() >= 6 && keeps_boxes_whole(geo, cycle) {
                self.close_swap(begin);
            } else {
                self.members.truncate(begin);
            }
        }
    }
}

/// Whether exchanging the digits of a cycle of two lines (its members in pairs, upper
/// then lower) leaves every box with the digits it had: when each pair lies in one box
/// (the lines cross the same boxes), or when each line's part of the cycle lies in one
/// box (any box the cycle leaves would lose a digit it does not get back).
fn keeps_boxes_whole(geo: &Geometry, cycle: &[(usize, u8)]) -> bool {
    let box_of = |m: &(usize, u8)| geo.houses_of[m.0][2];
    let pairs_share_boxes = cycle
        .chunks_exact(2)
        .all(|p| box_of(&p[0]) == box_of(&p[1]));
    let one_box_per_line = cycle
        .chunks_exact(2)
        .all(|p| box_of(&p[0]) == box_of(&cycle[0]) && box_of(&p[1]) == box_of(&cycle[1]));
    pairs_share_boxes || one_box_per_line
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sudoku::workshop::digits::bit;
    use crate::sudoku::BoxShape;

    const GRID: &str =
        "534678912672195348198342567859761423426853791713924856961537284287419635345286179";

    /// The test grid, its geometry, and the swaps learned from it.
    fn learned() -> (Board, Geometry, Swaps) {
        let grid = Board::parse(GRID).expect("grid");
        let geo = Geometry::new(BoxShape { rows: 3, cols: 3 });
        let mut swaps = Swaps::default();
        swaps.learn(&geo, &grid);
        (grid, geo, swaps)
    }

    /// Every swap, made, is a valid grid other than the first; every two digits' cells
    /// are covered by their two-digit swaps, so each cell is in at least `N - 1` swaps.
    #[test]
    fn every_swap_made_is_another_valid_grid() {
        let (grid, _, swaps) = learned();
        let (mut two_digit, mut line) = (0, 0);
        for swap in swaps.all() {
            let mut other = grid.clone();
            let mut digits = 0u64;
            for &(cell, digit) in swap {
                assert_ne!(grid.cells()[cell], digit);
                other.set(cell / 9, cell % 9, digit);
                digits |= bit(digit);
            }
            assert!(other.is_valid() && other.is_complete(), "{swap:?}");
            assert!((4..=18).contains(&swap.len()), "{swap:?}");
            if digits.count_ones() == 2 {
                two_digit += 1;
            } else {
                line += 1;
            }
        }
        assert!(swaps.through.iter().all(|t| t.len() >= 8));
        assert!(two_digit >= 36 && line > 0, "{two_digit} {line}");
    }

    /// A removal frees a swap exactly when it takes the swap's last given: checked
    /// against every swap's cells, removing all cells in a random order and putting
    /// back those that free a swap (as the generator does) and every fifth.
    #[test]
    fn a_removal_frees_a_swap_when_it_takes_its_last_given() {
        let (_, _, mut swaps) = learned();
        let sets: Vec<Vec<usize>> = swaps
            .all()
            .map(|s| s.iter().map(|m| m.0).collect())
            .collect();
        let mut random = crate::xorshift::XorShift(12345);
        let mut order: Vec<usize> = (0..81).collect();
        for i in (1..81).rev() {
            order.swap(i, random.below(i + 1));
        }
        let mut given = [true; 81];
        let mut freed_any = false;
        for (k, &cell) in order.iter().enumerate() {
            given[cell] = false;
            let expected = sets
                .iter()
                .any(|s| s.contains(&cell) && s.iter().all(|&c| !given[c]));
            assert_eq!(swaps.remove(cell), expected, "removal {k}, cell {cell}");
            freed_any |= expected;
            if expected || k % 5 == 4 {
                swaps.restore(cell);
                given[cell] = true;
            }
        }
        assert!(freed_any);
    }
}
