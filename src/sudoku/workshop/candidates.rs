//! Pencil marks as a public value, and their printed grid.

use std::fmt;

use super::digits::Digits;
use super::grid::Grid;
use crate::sudoku::BoxShape;

/// The state of a board as a person with pencil marks sees it: the placed digits, and
/// each empty cell's candidates.
///
/// ```
/// use bitcsp::sudoku::{workshop, Board};
/// let board = Board::parse(
///     "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79",
/// )?;
/// let marks = workshop::candidates(&board);
/// assert_eq!(marks.digit(0, 0), Some(5));
/// assert_eq!(marks.candidates(0, 2).to_string(), "124");
/// # Ok::<(), bitcsp::sudoku::ParseError>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Candidates {
    shape: BoxShape,
    values: Vec<u8>,
    cands: Vec<Digits>,
}

impl Candidates {
    pub(crate) fn of(grid: &Grid, shape: BoxShape) -> Candidates {
        Candidates {
            shape,
            values: grid.values.clone(),
            cands: grid.cands.iter().map(|&m| Digits(m)).collect(),
        }
    }

    /// The board side.
    pub fn side(&self) -> usize {
        self.shape.side()
    }

    /// The digit placed at 0-based `row`, `col`, if any.
    pub fn digit(&self, row: usize, col: usize) -> Option<u8> {
        let v = *self.values.get(row * self.side() + col)?;
        (v != 0).then_some(v)
    }

    /// The candidates of the cell at 0-based `row`, `col` (empty for a placed cell).
    pub fn candidates(&self, row: usize, col: usize) -> Digits {
        self.cands
            .get(row * self.side() + col)
            .copied()
            .unwrap_or_default()
    }

    /// How many candidates are left on the board.
    pub fn total(&self) -> usize {
        self.cands.iter().map(|d| d.len()).sum()
    }
}

impl fmt::Display for Candidates {
    /// A grid with one column per board column, each as wide as its longest cell, and
    /// box borders. A placed digit is written `=5`, an empty cell's candidates run
    /// together (`124`), so that a placed 5 and a cell whose last candidate is 5 look
    /// different; an empty cell with no candidate left is `-`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let n = self.side();
        let text = |r: usize, c: usize| -> String {
            match self.digit(r, c) {
                Some(d) => format!("={}", crate::sudoku::symbols::symbol(d)),
                None => self.candidates(r, c).to_string(),
            }
        };
        let widths: Vec<usize> = (0..n)
            .map(|c| {
                (0..n)
                    .map(|r| text(r, c).chars().count())
                    .max()
                    .unwrap_or(1)
            })
            .collect();
        let border = {
            let mut line = String::from("+");
            for band in widths.chunks(self.shape.cols) {
                let inner: usize = band.iter().map(|w| w + 1).sum::<usize>() + 1;
                line.push_str(&"-".repeat(inner));
                line.push('+');
            }
            line
        };
        writeln!(f, "{border}")?;
        for r in 0..n {
            let mut line = String::from("|");
            for (c, &w) in widths.iter().enumerate() {
                line.push(' ');
                line.push_str(&format!("{:<w$}", text(r, c)));
                if (c + 1) % self.shape.cols == 0 {
                    line.push_str(" |");
                }
            }
            writeln!(f, "{line}")?;
            if (r + 1) % self.shape.rows == 0 {
                writeln!(f, "{border}")?;
            }
        }
        Ok(())
    }
}
