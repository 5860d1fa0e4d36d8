//! One step of a solve: what a technique found, what it rests on and what it changes.

use std::fmt;

use super::geometry::{Geometry, House};
use super::technique::Technique;
use crate::sudoku::Cell;

/// A digit in a cell, rows and columns from 1: a placement, an elimination or a
/// candidate of a pattern.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Mark {
    /// Row, from 1.
    pub row: usize,
    /// Column, from 1.
    pub col: usize,
    /// The digit.
    pub digit: u8,
}

impl Mark {
    /// The cell of the mark.
    pub fn cell(self) -> Cell {
        Cell {
            row: self.row,
            col: self.col,
        }
    }
}

/// One step a person takes: the technique, the pattern it rests on (houses, cells and
/// the candidates of the pattern), and the digits it places or the candidates it
/// removes. Placing a digit also removes it from the cell's row, column and box; those
/// removals are the bookkeeping of pencil marks and are not listed.
#[derive(Clone, Debug, PartialEq)]
pub struct Step {
    /// The technique used.
    pub technique: Technique,
    /// The pattern in words, e.g. `7 in row 3`.
    pub summary: String,
    /// Digits placed.
    pub placements: Vec<Mark>,
    /// Candidates removed.
    pub eliminations: Vec<Mark>,
    /// The houses of the pattern.
    pub houses: Vec<House>,
    /// The cells of the pattern.
    pub cells: Vec<Cell>,
    /// The candidates of the pattern: every candidate the deduction reads.
    pub pattern: Vec<Mark>,
}

impl fmt::Display for Step {
    /// `hidden single: 7 in row 3 → r3c5 = 7`, `pointing: 4 in box 1 is on row 2 → r2c4
    /// r2c7 ≠ 4`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.technique)?;
        if self.technique.assumes_uniqueness() {
            f.write_str(" (assumes one solution)")?;
        }
        write!(f, ": {} →", self.summary)?;
        let mut first = true;
        for p in &self.placements {
            let sep = if first { " " } else { ", " };
            first = false;
            write!(f, "{sep}{} = {}", p.cell(), symbol(p.digit))?;
        }
        let mut digits: Vec<u8> = self.eliminations.iter().map(|m| m.digit).collect();
        digits.sort_unstable();
        digits.dedup();
        for d in digits {
            let sep = if first { " " } else { ", " };
            first = false;
            f.write_str(sep)?;
            for (i, m) in self
                .eliminations
                .iter()
                .filter(|m| m.digit == d)
                .enumerate()
            {
                let gap = if i == 0 { "" } else { " " };
                write!(f, "{gap}{}", m.cell())?;
            }
            write!(f, " ≠ {}", symbol(d))?;
        }
        Ok(())
    }
}

pub(crate) use crate::sudoku::symbols::symbol;

/// A step as the finders produce it, over cell and house numbers.
#[derive(Clone, Debug, Default)]
pub(crate) struct Found {
    pub technique: Option<Technique>,
    pub summary: String,
    pub placements: Vec<(usize, u8)>,
    pub eliminations: Vec<(usize, u8)>,
    pub houses: Vec<usize>,
    pub cells: Vec<usize>,
    pub pattern: Vec<(usize, u8)>,
}

impl Found {
    /// A step of `technique` described by `summary`.
    pub fn new(technique: Technique, summary: String) -> Found {
        Found {
            technique: Some(technique),
            summary,
            ..Found::default()
        }
    }

    /// The public form, with rows, columns and houses numbered from 1.
    pub fn to_step(&self, geo: &Geometry) -> Step {
        let mark = |&(c, d): &(usize, u8)| {
            let cell = geo.cell(c);
            Mark {
                row: cell.row,
                col: cell.col,
                digit: d,
            }
        };
        let mut eliminations: Vec<Mark> = self.eliminations.iter().map(mark).collect();
        eliminations.sort_by_key(|m| (m.digit, m.row, m.col));
        eliminations.dedup();
        Step {
            technique: self.technique.unwrap_or(Technique::Guess),
            summary: self.summary.clone(),
            placements: self.placements.iter().map(mark).collect(),
            eliminations,
            houses: self.houses.iter().map(|&h| geo.house(h)).collect(),
            cells: self.cells.iter().map(|&c| geo.cell(c)).collect(),
            pattern: self.pattern.iter().map(mark).collect(),
        }
    }
}
