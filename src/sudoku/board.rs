//! The board: an N×N grid of cells split into boxes of R×C cells, holding digits `1..=N`
//! or nothing, and its text forms.

use std::fmt;

use super::error::{Cell, CheckError, Clash, ParseError, Unit};

/// The largest board side: 64 values still fit one machine word per cell.
pub const MAX_SIZE: usize = 64;

/// The shape of a box: `rows` × `cols` cells, so the board side is `rows * cols`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct BoxShape {
    /// Rows of cells in a box.
    pub rows: usize,
    /// Columns of cells in a box.
    pub cols: usize,
}

impl BoxShape {
    /// The usual shape for a side of `n`: `R` the largest divisor of `n` not above √n,
    /// `C = n / R` (9 → 3×3, 6 → 2×3, 12 → 3×4). A prime side gets 1×n boxes, which makes
    /// the puzzle a Latin square. A side above [`MAX_SIZE`], which no board may have, gets
    /// 1×n boxes without a search for divisors.
    pub fn for_side(n: usize) -> Self {
        if n > MAX_SIZE {
            return BoxShape { rows: 1, cols: n };
        }
        // Downwards from √n: the first divisor is the answer (one division for a
        // square side).
        let rows = (1..=n.isqrt()).rev().find(|r| n % r == 0).unwrap_or(1);
        BoxShape {
            rows,
            cols: n / rows.max(1),
        }
    }

    /// The board side, `rows * cols` (saturating at `usize::MAX`; see
    /// [`BoxShape::checked_side`]).
    pub fn side(self) -> usize {
        self.rows.saturating_mul(self.cols)
    }

    /// The board side, `rows * cols`, or `None` when it overflows.
    pub fn checked_side(self) -> Option<usize> {
        self.rows.checked_mul(self.cols)
    }

    /// The number of cells, side², or `None` when it overflows.
    pub fn checked_cells(self) -> Option<usize> {
        self.checked_side().and_then(|n| n.checked_mul(n))
    }
}

impl fmt::Display for BoxShape {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}x{}", self.rows, self.cols)
    }
}

/// A Sudoku board of any box shape; `0` marks an empty cell.
///
/// ```
/// use bitcsp::sudoku::Board;
/// let line = "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79";
/// let board = Board::from_line(line)?;
/// assert_eq!(board.side(), 9);
/// assert_eq!(board.get(0, 0), Some(5));
/// assert_eq!(board.get(0, 2), None);
/// assert_eq!(board.to_line(), line);
/// # Ok::<(), bitcsp::sudoku::ParseError>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Board {
    shape: BoxShape,
    cells: Vec<u8>,
}

impl Board {
    /// An empty board with boxes of `shape`.
    ///
    /// # Errors
    /// [`ParseError::TooLarge`] when the side exceeds [`MAX_SIZE`], [`ParseError::Empty`] for
    /// a side of 0.
    pub fn empty(shape: BoxShape) -> Result<Self, ParseError> {
        let n = Self::side_of(shape)?;
        Ok(Board {
            shape,
            cells: vec![0; n * n],
        })
    }

    /// The side of a board of `shape`, or why there is no such board.
    fn side_of(shape: BoxShape) -> Result<usize, ParseError> {
        let n =
            shape
                .checked_side()
                .filter(|&n| n <= MAX_SIZE)
                .ok_or(ParseError::ShapeTooLarge {
                    rows: shape.rows,
                    cols: shape.cols,
                    max: MAX_SIZE,
                })?;
        if n == 0 {
            return Err(ParseError::Empty);
        }
        Ok(n)
    }

    /// A board from its cells in row order (`0` empty).
    ///
    /// # Errors
    /// [`ParseError::WrongLength`] when `cells` does not hold side² values,
    /// [`ParseError::ValueOutOfRange`] for a value above the side (reported at line 1 and
    /// the cell's position).
    pub fn from_cells(shape: BoxShape, cells: Vec<u8>) -> Result<Self, ParseError> {
        let n = Self::side_of(shape)?;
        if cells.len() != n * n {
            return Err(ParseError::WrongLength {
                expected: (n * n).to_string(),
                actual: cells.len(),
            });
        }
        // The largest first: a loop without an exit, for the usual case of none too large.
        let largest = cells.iter().copied().max().unwrap_or(0);
        if usize::from(largest) > n {
            // There is one, so the search finds it.
            let i = cells
                .iter()
                .position(|&v| usize::from(v) > n)
                .unwrap_or_default();
            return Err(ParseError::ValueOutOfRange {
                line: 1,
                column: i + 1,
                value: cells[i].to_string(),
                max: n,
            });
        }
        Ok(Board { shape, cells })
    }

    /// The side N of the N×N board.
    pub fn side(&self) -> usize {
        self.shape.side()
    }

    /// The box shape.
    pub fn shape(&self) -> BoxShape {
        self.shape
    }

    /// The digit at 0-based `row`, `col`; `None` when empty or outside the board.
    pub fn get(&self, row: usize, col: usize) -> Option<u8> {
        let n = self.side();
        if row >= n || col >= n {
            return None;
        }
        Some(self.cells[row * n + col]).filter(|&d| d != 0)
    }

    /// Sets the cell at 0-based `row`, `col` to `digit` (`0` empties it). Returns false, and
    /// changes nothing, when the position or the digit is outside the board.
    pub fn set(&mut self, row: usize, col: usize, digit: u8) -> bool {
        let n = self.side();
        if row >= n || col >= n || usize::from(digit) > n {
            return false;
        }
        self.cells[row * n + col] = digit;
        true
    }

    /// All cells in row order, `0` for empty.
    pub fn cells(&self) -> &[u8] {
        &self.cells
    }

    /// All cells in row order, to be overwritten with digits of at most the side.
    pub(super) fn cells_mut(&mut self) -> &mut [u8] {
        &mut self.cells
    }

    /// The number of filled cells.
    pub fn givens(&self) -> usize {
        self.cells.iter().filter(|&&d| d != 0).count()
    }

    /// True when every cell is filled.
    pub fn is_complete(&self) -> bool {
        self.cells.iter().all(|&d| d != 0)
    }

    /// The index of the box holding 0-based `row`, `col`.
    pub fn box_of(&self, row: usize, col: usize) -> usize {
        let boxes_per_band = self.side() / self.shape.cols;
        (row / self.shape.rows) * boxes_per_band + col / self.shape.cols
    }

    /// The cell indices (row order) of every row, column and box: 3N units of N cells.
    pub fn units(&self) -> Vec<(Unit, Vec<usize>)> {
        let n = self.side();
        (0..3 * n)
            .map(|u| (self.unit_kind(u), self.unit_cells(u).collect()))
            .collect()
    }

    /// Whether unit `u` (as numbered by [`Board::units`]) is a row, a column or a box.
    fn unit_kind(&self, u: usize) -> Unit {
        match u / self.side() {
            0 => Unit::Row,
            1 => Unit::Column,
            _ => Unit::Box,
        }
    }

    /// The cells of unit `u` (as numbered by [`Board::units`]), without building a list:
    /// a block of the grid (one row, one column or one box) walked row by row, with no
    /// division per cell.
    fn unit_cells(&self, u: usize) -> impl Iterator<Item = usize> {
        let n = self.side();
        let (r, c) = (self.shape.rows, self.shape.cols);
        let i = u % n;
        let (first, width) = match self.unit_kind(u) {
            Unit::Row => (i * n, n),
            Unit::Column => (i, 1),
            Unit::Box => ((i / (n / c)) * r * n + (i % (n / c)) * c, c),
        };
        // Step to the right within the block's row, and to the start of its next row
        // at the end of one.
        let mut at = (first, 0);
        std::iter::repeat_n((), n).map(move |()| {
            let (cell, column) = at;
            at = if column + 1 == width {
                (cell + n + 1 - width, 0)
            } else {
                (cell + 1, column + 1)
            };
            cell
        })
    }

    /// The first pair of givens that share a digit and a row, column or box (LeetCode 36's
    /// "valid Sudoku"), without solving.
    pub fn find_clash(&self) -> Option<Clash> {
        if !self.repeats_a_digit() {
            return None; // the common case, in one pass
        }
        let n = self.side();
        let cell = |i: usize| Cell {
            row: i / n + 1,
            col: i % n + 1,
        };
        for u in 0..3 * n {
            // The digits seen so far in this unit as a bitset, digit d at bit d - 1 (a
            // digit is at most the side, so at most MAX_SIZE = 64) and an empty cell at
            // none: every solve of a puzzle checks its givens first, so no allocation and
            // no branch per cell here.
            let mut seen = 0u64;
            for i in self.unit_cells(u) {
                let d = self.cells[i];
                let bit = (1u64 << (d.wrapping_sub(1) & 63)) & u64::from(d != 0).wrapping_neg();
                if seen & bit != 0 {
                    let first = self.unit_cells(u).find(|&j| self.cells[j] == d)?;
                    return Some(Clash {
                        digit: d,
                        unit: self.unit_kind(u),
                        first: cell(first),
                        second: cell(i),
                    });
                }
                seen |= bit;
            }
        }
        None
    }

    /// Whether some digit repeats in a row, column or box: one pass over the cells with
    /// each row's, column's and box's digits seen so far as a bitset (digit d at bit
    /// d - 1, an empty cell at none), and no branch per cell. [`find_clash`](Board::find_clash)
    /// then names the first clash in unit order only when there is one.
    fn repeats_a_digit(&self) -> bool {
        let n = self.side();
        let (box_rows, box_cols) = (self.shape.rows, self.shape.cols);
        let boxes_across = n / box_cols;
        // No division per cell: each row is walked box segment by box segment.
        let (mut rows, mut cols, mut boxes) =
            ([0u64; MAX_SIZE], [0u64; MAX_SIZE], [0u64; MAX_SIZE]);
        let mut repeated = 0u64;
        // Indices are taken modulo MAX_SIZE (a power of two, and no side exceeds it) so
        // that the compiler drops the bounds checks.
        const MASK: usize = MAX_SIZE - 1;
        let mut cells = self.cells.iter();
        for r in 0..n {
            let box_row = r / box_rows * boxes_across;
            let mut c = 0;
            for k in 0..boxes_across {
                let b = (box_row + k) & MASK;
                for &d in cells.by_ref().take(box_cols) {
                    let bit = (1u64 << (d.wrapping_sub(1) & 63)) & u64::from(d != 0).wrapping_neg();
                    repeated |= (rows[r & MASK] | cols[c & MASK] | boxes[b]) & bit;
                    rows[r & MASK] |= bit;
                    cols[c & MASK] |= bit;
                    boxes[b] |= bit;
                    c += 1;
                }
            }
        }
        repeated != 0
    }

    /// True when no digit repeats in a row, column or box.
    pub fn is_valid(&self) -> bool {
        self.find_clash().is_none()
    }

    /// Checks that `self`, a completed grid, obeys the rules and keeps the givens of
    /// `puzzle`.
    ///
    /// # Errors
    /// The first problem found, as a [`CheckError`].
    pub fn check_solves(&self, puzzle: &Board) -> Result<(), CheckError> {
        if self.shape != puzzle.shape {
            return Err(CheckError::SizeMismatch {
                grid: self.side(),
                puzzle: puzzle.side(),
            });
        }
        let n = self.side();
        for (i, (&found, &given)) in self.cells.iter().zip(&puzzle.cells).enumerate() {
            let cell = Cell {
                row: i / n + 1,
                col: i % n + 1,
            };
            if found == 0 {
                return Err(CheckError::Incomplete(cell));
            }
            if given != 0 && given != found {
                return Err(CheckError::GivenChanged { cell, given, found });
            }
        }
        match self.find_clash() {
            Some(clash) => Err(clash.into()),
            None => Ok(()),
        }
    }

    /// The board as one line of N² symbols, `.` for empty.
    pub fn to_line(&self) -> String {
        if self.side() > super::symbols::MAX_SYMBOL_SIDE {
            return self.to_numbers();
        }
        let bytes: Vec<u8> = self
            .cells
            .iter()
            .map(|&d| super::symbols::symbol_byte(d))
            .collect();
        // Every symbol is ASCII, so the bytes are UTF-8 and the fallback never runs.
        String::from_utf8(bytes)
            .unwrap_or_else(|e| String::from_utf8_lossy(e.as_bytes()).into_owned())
    }

    /// The board as whitespace-separated numbers, `0` for empty (any side).
    pub fn to_numbers(&self) -> String {
        let parts: Vec<String> = self.cells.iter().map(u8::to_string).collect();
        parts.join(" ")
    }

    /// The board as a block of N lines with `|` between boxes and `-+-` lines between
    /// bands of boxes.
    pub fn to_block(&self) -> String {
        let n = self.side();
        let (r, c) = (self.shape.rows, self.shape.cols);
        let numbers = n > super::symbols::MAX_SYMBOL_SIDE;
        let width = if numbers { n.to_string().len() } else { 1 };
        let render = |d: u8| -> String {
            if numbers {
                format!(
                    "{:>width$}",
                    if d == 0 { ".".into() } else { d.to_string() }
                )
            } else {
                super::symbols::symbol(d).to_string()
            }
        };
        let box_width = c * (width + 1) - 1;
        let rule: Vec<String> = (0..n / c).map(|_| "-".repeat(box_width)).collect();
        let rule = rule.join("-+-");
        let mut out = String::new();
        for row in 0..n {
            if row > 0 && row % r == 0 {
                out.push_str(&rule);
                out.push('\n');
            }
            let boxes: Vec<String> = (0..n / c)
                .map(|b| {
                    let cells: Vec<String> = (0..c)
                        .map(|k| render(self.cells[row * n + b * c + k]))
                        .collect();
                    cells.join(" ")
                })
                .collect();
            out.push_str(&boxes.join(" | "));
            out.push('\n');
        }
        out
    }
}

impl fmt::Display for Board {
    /// The block form.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.to_block())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn from_cells_reports_the_first_value_above_the_side() {
        let shape = BoxShape { rows: 2, cols: 2 };
        let mut cells = vec![0u8; 16];
        cells[5] = 5;
        cells[9] = 200;
        match Board::from_cells(shape, cells.clone()) {
            Err(ParseError::ValueOutOfRange {
                column, value, max, ..
            }) => assert_eq!((column, value.as_str(), max), (6, "5", 4)),
            other => panic!("{other:?}"),
        }
        cells[5] = 4;
        cells[9] = 0;
        let board = Board::from_cells(shape, cells.clone()).expect("in range");
        assert_eq!(board.cells(), cells.as_slice());
        assert!(matches!(
            Board::from_cells(shape, vec![0; 15]),
            Err(ParseError::WrongLength { actual: 15, .. })
        ));
        assert!(matches!(
            Board::from_cells(BoxShape { rows: 0, cols: 3 }, vec![]),
            Err(ParseError::Empty)
        ));
    }

    #[test]
    fn usual_box_shapes_follow_the_largest_divisor_rule() {
        let shape = |n| {
            let s = BoxShape::for_side(n);
            (s.rows, s.cols)
        };
        assert_eq!(shape(4), (2, 2));
        assert_eq!(shape(6), (2, 3));
        assert_eq!(shape(9), (3, 3));
        assert_eq!(shape(12), (3, 4));
        assert_eq!(shape(16), (4, 4));
        assert_eq!(shape(25), (5, 5));
        assert_eq!(shape(7), (1, 7));
    }

    #[test]
    fn boxes_of_a_six_board_are_two_by_three() {
        let b = Board::empty(BoxShape::for_side(6)).unwrap();
        let units = b.units();
        let first_box = &units[12].1;
        assert_eq!(first_box, &vec![0, 1, 2, 6, 7, 8]);
        assert_eq!(b.box_of(2, 4), 3);
    }

    #[test]
    fn clash_names_the_digit_and_both_cells() {
        let mut b = Board::empty(BoxShape::for_side(9)).unwrap();
        b.set(0, 0, 5);
        b.set(2, 2, 5);
        let clash = b.find_clash().unwrap();
        assert_eq!(clash.digit, 5);
        assert_eq!(clash.unit, Unit::Box);
        assert_eq!(
            (clash.first, clash.second),
            (Cell { row: 1, col: 1 }, Cell { row: 3, col: 3 })
        );
        assert_eq!(
            clash.to_string(),
            "digit 5 appears twice in a box: r1c1 and r3c3"
        );
    }

    #[test]
    fn clash_search_matches_a_plain_pairwise_one() {
        // Random boards, sparse enough that some have no clash: the first clash in unit
        // order (rows, columns, boxes) and cell order, against a pairwise search over
        // units written out here.
        let mut next = crate::sudoku::test_rng(0x9e37_79b9_7f4a_7c15u64);
        let mut clashes = 0;
        let shapes = [(2, 2), (2, 3), (3, 2), (3, 3), (4, 3), (4, 4)];
        for round in 0..600 {
            let (rows, cols) = shapes[round % shapes.len()];
            let shape = BoxShape { rows, cols };
            let side = shape.side();
            let mut b = Board::empty(shape).unwrap();
            for i in 0..side * side {
                if next() % 100 < 12 {
                    b.set(i / side, i % side, (next() % side as u64) as u8 + 1);
                }
            }
            let (r, c) = (shape.rows, shape.cols);
            let mut units: Vec<(Unit, Vec<usize>)> = Vec::new();
            for i in 0..side {
                units.push((Unit::Row, (0..side).map(|j| i * side + j).collect()));
            }
            for j in 0..side {
                units.push((Unit::Column, (0..side).map(|i| i * side + j).collect()));
            }
            for t in (0..side).step_by(r) {
                for l in (0..side).step_by(c) {
                    let cells = (0..r)
                        .flat_map(|y| (0..c).map(move |x| (t + y) * side + l + x))
                        .collect();
                    units.push((Unit::Box, cells));
                }
            }
            let at = |i: usize| Cell {
                row: i / side + 1,
                col: i % side + 1,
            };
            let expected = units.iter().find_map(|(unit, cells)| {
                cells.iter().enumerate().find_map(|(k, &second)| {
                    let d = b.cells()[second];
                    let first = cells[..k].iter().find(|&&f| d != 0 && b.cells()[f] == d)?;
                    Some((d, *unit, at(*first), at(second)))
                })
            });
            let found = b.find_clash().map(|c| (c.digit, c.unit, c.first, c.second));
            assert_eq!(found, expected, "round {round}: {}", b.to_line());
            clashes += usize::from(found.is_some());
        }
        assert!(
            (100..500).contains(&clashes),
            "both outcomes occur: {clashes}"
        );
    }

    #[test]
    fn block_form_separates_boxes() {
        let b = Board::empty(BoxShape::for_side(4)).unwrap();
        assert_eq!(
            b.to_block(),
            ". . | . .\n. . | . .\n----+----\n. . | . .\n. . | . .\n"
        );
    }
}
