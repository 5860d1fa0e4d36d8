//! The engine model of a variant puzzle: the Sudoku model (or rows and columns with
//! jigsaw regions) plus the variants' constraints, all from the public API.

use super::cages;
use super::puzzle::VariantPuzzle;
use crate::sudoku::{self, Board, SudokuError};
use crate::{Consistency, Count, Model, Relation, Solver, VarId};

/// Tables of a cage hold at most this many tuples; a larger cage is posted as a sum
/// beside its all-different.
const TABLE_LIMIT: usize = 50_000;

/// The model of `puzzle`: one variable per cell over `1..=N` (row order), an
/// all-different per row, column and box (jigsaw: region), and per variant:
/// all-different diagonals (x) and windows (windoku); `x ≠ y` for cells a knight's or
/// king's move apart; `x − y ≠ ±1` for orthogonal neighbours (non-consecutive); for each
/// killer cage an all-different and a table of the orderings of the digit sets that make
/// its sum (so that digits no combination uses are pruned, not only bounds), or a sum for
/// a cage whose table would be too large.
///
/// # Errors
/// [`SudokuError::Model`] only if the engine rejects the model, which a parsed puzzle
/// cannot cause.
pub fn model(puzzle: &VariantPuzzle) -> Result<(Model, Vec<VarId>), SudokuError> {
    let n = puzzle.side();
    let consistency = if n >= 16 {
        Consistency::Domain
    } else {
        Consistency::Fast
    };
    let (mut m, cells) = match &puzzle.regions {
        None => sudoku::model_with(&puzzle.board, consistency)?,
        Some(_) => latin_square(&puzzle.board, consistency)?,
    };
    let vars = |group: &[usize]| -> Vec<VarId> { group.iter().map(|&c| cells[c]).collect() };
    // Rows, columns and boxes come first in `groups`; the template has posted them
    // unless regions replace the boxes.
    let skip = if puzzle.regions.is_some() {
        2 * n
    } else {
        3 * n
    };
    let cage_groups = puzzle.cages.iter().filter(|c| c.cells.len() > 1).count();
    let groups = puzzle.groups();
    for group in &groups[skip..groups.len() - cage_groups] {
        m.all_different_with(&vars(group), consistency)?;
    }
    for (a, b) in puzzle.different_pairs() {
        m.not_equal(cells[a], cells[b])?;
    }
    for (a, b) in puzzle.neighbour_pairs() {
        m.not_equal_offset(cells[a], cells[b], 1)?;
        m.not_equal_offset(cells[a], cells[b], -1)?;
    }
    for cage in &puzzle.cages {
        let xs = vars(&cage.cells);
        let k = xs.len();
        if k > 1 {
            m.all_different(&xs)?;
        }
        let combos = cages::combinations(k, n, cage.sum);
        match cages::tuple_count(combos.len(), k, TABLE_LIMIT) {
            Some(_) => m.table(&xs, &cages::tuples(&combos, k))?,
            None => m.sum(&xs, Relation::Equal, cage.sum)?,
        }
    }
    Ok((m, cells))
}

/// Rows and columns all-different, the jigsaw regions of `puzzle` added by the caller.
fn latin_square(
    board: &Board,
    consistency: Consistency,
) -> Result<(Model, Vec<VarId>), SudokuError> {
    let n = board.side();
    let mut m = Model::new();
    let top = i32::try_from(n).map_err(|_| SudokuError::from(crate::ModelError::EmptyDomain))?;
    let cells = m.new_vars(n * n, 1..=top)?;
    for i in 0..n {
        let row: Vec<VarId> = (0..n).map(|c| cells[i * n + c]).collect();
        let col: Vec<VarId> = (0..n).map(|r| cells[r * n + i]).collect();
        m.all_different_with(&row, consistency)?;
        m.all_different_with(&col, consistency)?;
    }
    for (i, &d) in board.cells().iter().enumerate() {
        if d != 0 {
            m.fix(cells[i], i32::from(d))?;
        }
    }
    Ok((m, cells))
}

/// A solver for `puzzle`, with the search [`sudoku::configure`] sets for its board.
///
/// # Errors
/// As [`model`].
pub fn solver(puzzle: &VariantPuzzle) -> Result<(Solver, Vec<VarId>), SudokuError> {
    let (m, cells) = model(puzzle)?;
    let mut solver = Solver::new(&m);
    sudoku::configure(&mut solver, &puzzle.board);
    Ok((solver, cells))
}

/// The first solution of `puzzle`, or `None` when it has none.
///
/// # Errors
/// As [`model`].
pub fn solve(puzzle: &VariantPuzzle) -> Result<Option<Board>, SudokuError> {
    let (mut solver, cells) = solver(puzzle)?;
    Ok(solver
        .solve()
        .solution()
        .map(|s| sudoku::decode(&puzzle.board, &cells, &s)))
}

/// The number of solutions of `puzzle`, up to `limit`.
///
/// # Errors
/// As [`model`].
pub fn count_solutions(puzzle: &VariantPuzzle, limit: u64) -> Result<Count, SudokuError> {
    let (mut solver, _) = solver(puzzle)?;
    Ok(solver.count(Some(limit)))
}
