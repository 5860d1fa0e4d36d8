//! The houses of a board (rows, columns, boxes) and which cells see which.

use std::fmt;

use crate::sudoku::{Board, BoxShape, Cell, Unit};

/// A row, column or box of the board, numbered from 1 (boxes in row order).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct House {
    /// Row, column or box.
    pub kind: Unit,
    /// Its number, from 1.
    pub index: usize,
}

impl fmt::Display for House {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let kind = match self.kind {
            Unit::Row => "row",
            Unit::Column => "column",
            Unit::Box => "box",
        };
        write!(f, "{kind} {}", self.index)
    }
}

/// The houses of one box shape: cells are numbered in row order from 0, houses are the
/// rows, then the columns, then the boxes.
#[derive(Clone, Debug)]
pub(crate) struct Geometry {
    pub side: usize,
    /// The cells of each house, in row order.
    pub houses: Vec<Vec<usize>>,
    /// The row, column and box house of each cell.
    pub houses_of: Vec<[usize; 3]>,
    /// The cells sharing a house with each cell, itself excluded.
    pub peers: Vec<Vec<usize>>,
}

impl Geometry {
    /// The geometry of boards with boxes of `shape` (a side of at most 64).
    pub fn new(shape: BoxShape) -> Geometry {
        let n = shape.side();
        let boxes_per_band = n / shape.cols;
        let box_of = |r: usize, c: usize| (r / shape.rows) * boxes_per_band + c / shape.cols;
        let mut houses = vec![Vec::with_capacity(n); 3 * n];
        let mut houses_of = Vec::with_capacity(n * n);
        for cell in 0..n * n {
            let (r, c) = (cell / n, cell % n);
            let of = [r, n + c, 2 * n + box_of(r, c)];
            for h in of {
                houses[h].push(cell);
            }
            houses_of.push(of);
        }
        let peers = (0..n * n)
            .map(|cell| {
                let mut seen: Vec<usize> = houses_of[cell]
                    .iter()
                    .flat_map(|&h| houses[h].iter().copied())
                    .filter(|&p| p != cell)
                    .collect();
                seen.sort_unstable();
                seen.dedup();
                seen
            })
            .collect();
        Geometry {
            side: n,
            houses,
            houses_of,
            peers,
        }
    }

    /// Number of cells.
    pub fn cells(&self) -> usize {
        self.side * self.side
    }

    /// Whether two distinct cells share a house.
    pub fn sees(&self, a: usize, b: usize) -> bool {
        a != b && {
            let (x, y) = (self.houses_of[a], self.houses_of[b]);
            x[0] == y[0] || x[1] == y[1] || x[2] == y[2]
        }
    }

    /// The public name of house `h`.
    pub fn house(&self, h: usize) -> House {
        let kind = match h / self.side {
            0 => Unit::Row,
            1 => Unit::Column,
            _ => Unit::Box,
        };
        House {
            kind,
            index: h % self.side + 1,
        }
    }

    /// The public (1-based) name of cell `c`.
    pub fn cell(&self, c: usize) -> Cell {
        Cell {
            row: c / self.side + 1,
            col: c % self.side + 1,
        }
    }

    /// Whether the givens of `board` (with `cell` empty) force `d` into `cell`: every
    /// other digit is given among its peers (a naked single), or in one of its houses
    /// every other empty cell sees a given `d` (a hidden single).
    pub fn forced_by_a_single(&self, board: &Board, cell: usize, d: u8) -> bool {
        let values = board.cells();
        let seen = self.peers[cell]
            .iter()
            .fold(0u64, |m, &p| m | super::digits::bit(values[p]));
        if seen | super::digits::bit(d) == super::digits::Digits::all(self.side).0 {
            return true;
        }
        let sees_d = |c: usize| self.peers[c].iter().any(|&p| values[p] == d);
        self.houses_of[cell].iter().any(|&h| {
            self.houses[h]
                .iter()
                .all(|&c| c == cell || values[c] != 0 || sees_d(c))
        })
    }
}
