//! The houses of a board (rows, columns, boxes or jigsaw regions, and the diagonals and
//! windows of some variants), the cages of killer, and which cells see which.

use std::fmt;

use crate::sudoku::variants::{Variant, VariantPuzzle};
use crate::sudoku::{BoxShape, Cell};

/// What kind of group of cells a house is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum HouseKind {
    /// A row.
    Row,
    /// A column.
    Column,
    /// A box.
    Box,
    /// A jigsaw region (in place of the boxes).
    Region,
    /// A main diagonal (X): 1 from top-left, 2 from top-right.
    Diagonal,
    /// A windoku window, 1 to 4 in row order.
    Window,
    /// A killer cage, numbered in order of first appearance: its digits differ and make
    /// its sum, but it need not hold every digit.
    Cage,
}

/// A row, column, box, region, diagonal, window or cage, numbered from 1.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct House {
    /// Its kind.
    pub kind: HouseKind,
    /// Its number, from 1.
    pub index: usize,
}

impl fmt::Display for House {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let kind = match self.kind {
            HouseKind::Row => "row",
            HouseKind::Column => "column",
            HouseKind::Box => "box",
            HouseKind::Region => "region",
            HouseKind::Diagonal => "diagonal",
            HouseKind::Window => "window",
            HouseKind::Cage => "cage",
        };
        write!(f, "{kind} {}", self.index)
    }
}

/// The houses of a board: cells are numbered in row order from 0; houses are the rows,
/// then the columns, then the boxes (or regions), then any others. Every house holds
/// each digit once; cages and anti-knight or anti-king pairs only keep their digits
/// apart.
#[derive(Clone, Debug)]
pub(crate) struct Geometry {
    pub side: usize,
    /// The cells of each house, in row order.
    pub houses: Vec<Vec<usize>>,
    /// The name of each house.
    names: Vec<House>,
    /// The row, column and box (or region) house of each cell.
    pub houses_of: Vec<[usize; 3]>,
    /// Every house of each cell.
    pub all_houses_of: Vec<Vec<usize>>,
    /// The cells that must differ from each cell, itself excluded.
    pub peers: Vec<Vec<usize>>,
    /// Killer cages: cells, sum, name (a step names cage `i` as house
    /// `houses.len() + i`).
    pub cages: Vec<(Vec<usize>, i64, House)>,
    /// Whether the board is plain Sudoku (unique rectangles need its symmetries).
    pub plain: bool,
}

impl Geometry {
    /// The geometry of plain boards with boxes of `shape` (a side of at most 64).
    pub fn new(shape: BoxShape) -> Geometry {
        let n = shape.side();
        let boxes_per_band = n / shape.cols;
        let box_of = |c: usize| ((c / n) / shape.rows) * boxes_per_band + (c % n) / shape.cols;
        let boxes: Vec<usize> = (0..n * n).map(box_of).collect();
        Geometry::build(
            n,
            &boxes,
            HouseKind::Box,
            Vec::new(),
            Vec::new(),
            Vec::new(),
        )
    }

    /// The geometry of a variant puzzle, or the reason the workshop cannot take it
    /// (non-consecutive neighbours are no house).
    pub fn for_variant(puzzle: &VariantPuzzle) -> Result<Geometry, String> {
        if puzzle.variants.has(Variant::NonConsecutive) {
            return Err("the workshop does not take the non-consecutive variant".into());
        }
        let n = puzzle.side();
        let shape = puzzle.board.shape();
        let (regions, kind) = match &puzzle.regions {
            Some(r) => (r.clone(), HouseKind::Region),
            None => {
                let per_band = n / shape.cols;
                let boxes = (0..n * n)
                    .map(|c| ((c / n) / shape.rows) * per_band + (c % n) / shape.cols)
                    .collect();
                (boxes, HouseKind::Box)
            }
        };
        let mut extra = Vec::new();
        if puzzle.variants.has(Variant::X) {
            extra.push((
                House {
                    kind: HouseKind::Diagonal,
                    index: 1,
                },
                (0..n).map(|i| i * n + i).collect(),
            ));
            extra.push((
                House {
                    kind: HouseKind::Diagonal,
                    index: 2,
                },
                (0..n).map(|i| i * n + n - 1 - i).collect(),
            ));
        }
        if puzzle.variants.has(Variant::Windoku) {
            for (w, (top, left)) in [(1, 1), (1, 5), (5, 1), (5, 5)].into_iter().enumerate() {
                let cells = (0..9).map(|i| (top + i / 3) * n + left + i % 3).collect();
                extra.push((
                    House {
                        kind: HouseKind::Window,
                        index: w + 1,
                    },
                    cells,
                ));
            }
        }
        let cages = puzzle
            .cages
            .iter()
            .enumerate()
            .map(|(i, c)| {
                (
                    c.cells.clone(),
                    c.sum,
                    House {
                        kind: HouseKind::Cage,
                        index: i + 1,
                    },
                )
            })
            .collect();
        let pairs = puzzle.different_pairs();
        let mut geo = Geometry::build(n, &regions, kind, extra, cages, pairs);
        geo.plain = puzzle.variants.iter().next().is_none();
        Ok(geo)
    }

    fn build(
        n: usize,
        regions: &[usize],
        kind: HouseKind,
        extra: Vec<(House, Vec<usize>)>,
        cages: Vec<(Vec<usize>, i64, House)>,
        pairs: Vec<(usize, usize)>,
    ) -> Geometry {
        let mut houses = vec![Vec::with_capacity(n); 3 * n];
        let mut names = Vec::with_capacity(3 * n + extra.len());
        for kind in [HouseKind::Row, HouseKind::Column, kind] {
            names.extend((0..n).map(|i| House { kind, index: i + 1 }));
        }
        let mut houses_of = Vec::with_capacity(n * n);
        for (cell, &region) in regions.iter().enumerate().take(n * n) {
            let of = [cell / n, n + cell % n, 2 * n + region];
            for h in of {
                houses[h].push(cell);
            }
            houses_of.push(of);
        }
        let mut all_houses_of: Vec<Vec<usize>> = houses_of.iter().map(|h| h.to_vec()).collect();
        for (name, cells) in extra {
            let h = houses.len();
            for &c in &cells {
                all_houses_of[c].push(h);
            }
            houses.push(cells);
            names.push(name);
        }
        let mut peers: Vec<Vec<usize>> = (0..n * n)
            .map(|cell| {
                all_houses_of[cell]
                    .iter()
                    .flat_map(|&h| houses[h].iter().copied())
                    .filter(|&p| p != cell)
                    .collect()
            })
            .collect();
        for (cells, _, _) in &cages {
            for &a in cells {
                peers[a].extend(cells.iter().copied().filter(|&b| b != a));
            }
        }
        for &(a, b) in &pairs {
            peers[a].push(b);
            peers[b].push(a);
        }
        for p in &mut peers {
            p.sort_unstable();
            p.dedup();
        }
        // Cages are named after the houses: a step names cage `i` as `houses.len() + i`.
        names.extend(cages.iter().map(|&(_, _, name)| name));
        Geometry {
            side: n,
            houses,
            names,
            houses_of,
            all_houses_of,
            peers,
            cages,
            plain: true,
        }
    }

    /// Number of cells.
    pub fn cells(&self) -> usize {
        self.side * self.side
    }

    /// Whether two distinct cells must differ.
    pub fn sees(&self, a: usize, b: usize) -> bool {
        a != b && {
            let (x, y) = (self.houses_of[a], self.houses_of[b]);
            x[0] == y[0]
                || x[1] == y[1]
                || x[2] == y[2]
                || (!self.plain && self.peers[a].binary_search(&b).is_ok())
        }
    }

    /// The public name of house `h`.
    pub fn house(&self, h: usize) -> House {
        self.names[h]
    }

    /// The public (1-based) name of cell `c`.
    pub fn cell(&self, c: usize) -> Cell {
        Cell {
            row: c / self.side + 1,
            col: c % self.side + 1,
        }
    }

    /// Whether house `h` is a box or region (for naming locked candidates).
    pub fn is_block(&self, h: usize) -> bool {
        (2 * self.side..3 * self.side).contains(&h)
    }
}
