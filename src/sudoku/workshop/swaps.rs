//! Two-digit swaps of a full grid: the smallest sets of cells, holding two digits `a` and
//! `b`, whose digits can be exchanged and leave a valid grid.
//!
//! Exchanging `a` for `b` in a cell breaks each of its houses until the cell of that
//! house holding `b` is exchanged too; a set closed under "the other digit's cell in the
//! same row, column and box" keeps every house with one `a` and one `b`. The closure of
//! one cell and one other digit is the smallest such set holding the cell (it is an
//! unavoidable set of the grid: the 4-cell rectangles, the 6-cell ones, and so on up to
//! all `2N` cells of the two digits). A puzzle with the grid as its solution and no given
//! in such a set has a second solution, the grid with the set's digits exchanged, so the
//! generator can refuse a removal that empties one without a search.

use super::geometry::Geometry;
use crate::sudoku::Board;

/// Where each digit lies in each row, column and box of one full grid, and the scratch
/// of a closure.
#[derive(Clone, Debug, Default)]
pub(crate) struct Swaps {
    side: usize,
    /// `place[h * side + d - 1]`: the cell of house `h` (rows, columns, boxes) holding `d`.
    place: Vec<usize>,
    /// The closure being grown, and which cells are in it.
    stack: Vec<usize>,
    member: Vec<bool>,
}

impl Swaps {
    /// Reads where every digit of `grid` (full and valid) lies.
    pub fn learn(&mut self, geo: &Geometry, grid: &Board) {
        let n = geo.side;
        self.side = n;
        self.place.clear();
        self.place.resize(3 * n * n, 0);
        for (h, cells) in geo.houses[..3 * n].iter().enumerate() {
            for &c in cells {
                let d = usize::from(grid.cells()[c]);
                self.place[h * n + d - 1] = c;
            }
        }
        self.member.clear();
        self.member.resize(n * n, false);
    }

    /// Whether some two-digit swap through `cell` meets no given of `puzzle`, whose
    /// solution is the grid last learned: then `puzzle` has another solution.
    pub fn frees_a_swap(
        &mut self,
        geo: &Geometry,
        grid: &Board,
        puzzle: &Board,
        cell: usize,
    ) -> bool {
        let a = grid.cells()[cell];
        (1..=self.side as u8)
            .filter(|&b| b != a)
            .any(|b| self.closure_is_empty(geo, grid, puzzle, cell, a, b))
    }

    /// Grows the closure of `cell` for digits `a` and `b`; false as soon as it reaches a
    /// given of `puzzle`.
    fn closure_is_empty(
        &mut self,
        geo: &Geometry,
        grid: &Board,
        puzzle: &Board,
        cell: usize,
        a: u8,
        b: u8,
    ) -> bool {
        let n = self.side;
        self.stack.clear();
        self.stack.push(cell);
        self.member[cell] = true;
        let mut next = 0;
        let mut empty = puzzle.cells()[cell] == 0;
        'grow: while next < self.stack.len() {
            let x = self.stack[next];
            next += 1;
            let other = if grid.cells()[x] == a { b } else { a };
            for &h in &geo.houses_of[x] {
                let partner = self.place[h * n + usize::from(other) - 1];
                if self.member[partner] {
                    continue;
                }
                if puzzle.cells()[partner] != 0 {
                    empty = false;
                    break 'grow;
                }
                self.member[partner] = true;
                self.stack.push(partner);
            }
        }
        for &x in &self.stack {
            self.member[x] = false;
        }
        empty
    }
}

#[cfg(test)]
mod tests {
    use super::*;
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

    /// Every closure, with its digits exchanged, is a valid grid other than the first.
    #[test]
    fn every_closure_exchanged_is_another_valid_grid() {
        let (grid, geo, mut swaps) = learned();
        let empty = Board::empty(grid.shape()).expect("empty");
        for cell in 0..81 {
            let a = grid.cells()[cell];
            for b in (1..=9).filter(|&b| b != a) {
                assert!(swaps.closure_is_empty(&geo, &grid, &empty, cell, a, b));
                let mut swapped = grid.clone();
                for &x in &swaps.stack {
                    let d = grid.cells()[x];
                    swapped.set(x / 9, x % 9, if d == a { b } else { a });
                }
                assert!(
                    swapped.is_valid() && swapped.is_complete(),
                    "{cell} {a}/{b}"
                );
                assert_ne!(swapped, grid);
                assert!(swaps.stack.len() >= 4 && swaps.stack.len() <= 18);
            }
        }
    }

    /// A given anywhere in every swap through a cell: no free swap; one swap emptied:
    /// found.
    #[test]
    fn a_swap_is_free_only_when_it_holds_no_given() {
        let (grid, geo, mut swaps) = learned();
        let mut puzzle = grid.clone();
        puzzle.set(0, 0, 0);
        assert!(!swaps.frees_a_swap(&geo, &grid, &puzzle, 0));
        // Empty the closure of r1c1 with the digit of r1c2 (5 and 3).
        assert!(swaps.closure_is_empty(
            &geo,
            &grid,
            &Board::empty(grid.shape()).expect("empty"),
            0,
            5,
            3
        ));
        let closure = swaps.stack.clone();
        for &x in &closure {
            puzzle.set(x / 9, x % 9, 0);
        }
        assert!(swaps.frees_a_swap(&geo, &grid, &puzzle, 0));
        puzzle.set(closure[1] / 9, closure[1] % 9, grid.cells()[closure[1]]);
        assert!(!swaps.closure_is_empty(&geo, &grid, &puzzle, 0, 5, 3));
    }
}
