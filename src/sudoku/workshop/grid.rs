//! The pencil-mark state of a solve: placed digits and each empty cell's candidates.

use super::digits::{bit, Digits};
use super::geometry::Geometry;
use super::step::Found;
use crate::sudoku::Board;

/// Placed digits and candidates, over a board's geometry.
#[derive(Clone, Debug)]
pub(crate) struct Grid<'g> {
    pub geo: &'g Geometry,
    /// The digit of each cell, 0 when empty.
    pub values: Vec<u8>,
    /// The candidates of each empty cell (0 for placed cells).
    pub cands: Vec<u64>,
}

impl<'g> Grid<'g> {
    /// The pencil marks of `board`: each empty cell's digits not placed in its row,
    /// column or box.
    pub fn new(geo: &'g Geometry, board: &Board) -> Grid<'g> {
        let all = Digits::all(geo.side).0;
        let mut grid = Grid {
            geo,
            values: vec![0; geo.cells()],
            cands: vec![all; geo.cells()],
        };
        for (cell, &d) in board.cells().iter().enumerate() {
            if d != 0 {
                grid.place(cell, d);
            }
        }
        grid
    }

    /// Places `d` in `cell` and removes it from the cell's peers.
    pub fn place(&mut self, cell: usize, d: u8) {
        self.values[cell] = d;
        self.cands[cell] = 0;
        let geo = self.geo;
        for &p in &geo.peers[cell] {
            self.cands[p] &= !bit(d);
        }
    }

    /// Whether `d` is a candidate of `cell`.
    pub fn has(&self, cell: usize, d: u8) -> bool {
        self.cands[cell] & bit(d) != 0
    }

    /// The positions within house `h` (bit i: its i-th cell) where `d` is a candidate.
    pub fn places(&self, h: usize, d: u8) -> u64 {
        let b = bit(d);
        self.geo.houses[h]
            .iter()
            .enumerate()
            .filter(|&(_, &c)| self.cands[c] & b != 0)
            .fold(0, |m, (i, _)| m | 1 << i)
    }

    /// The cells of house `h` where `d` is a candidate.
    pub fn cells_with(&self, h: usize, d: u8) -> impl Iterator<Item = usize> + '_ {
        let b = bit(d);
        self.geo.houses[h]
            .iter()
            .copied()
            .filter(move |&c| self.cands[c] & b != 0)
    }

    /// The candidates of `cells` within `mask`, as `(cell, digit)` pairs.
    pub fn marks(&self, cells: &[usize], mask: u64) -> Vec<(usize, u8)> {
        cells
            .iter()
            .flat_map(|&c| Digits(self.cands[c] & mask).iter().map(move |d| (c, d)))
            .collect()
    }

    /// Applies a step's placements and eliminations.
    pub fn apply(&mut self, step: &Found) {
        for &(c, d) in &step.placements {
            self.place(c, d);
        }
        for &(c, d) in &step.eliminations {
            self.cands[c] &= !bit(d);
        }
    }

    /// Whether every cell holds a digit.
    pub fn is_solved(&self) -> bool {
        self.values.iter().all(|&v| v != 0)
    }

    /// The number of candidates of `cell`.
    pub fn count(&self, cell: usize) -> u32 {
        self.cands[cell].count_ones()
    }

    /// Empty cells, in row order.
    pub fn empty_cells(&self) -> impl Iterator<Item = usize> + '_ {
        (0..self.values.len()).filter(|&c| self.values[c] == 0)
    }
}
