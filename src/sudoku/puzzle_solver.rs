//! One engine solver for many puzzles of one shape.

use super::{configure, decode, template, Board, BoxShape, SudokuError};
use crate::{Consistency, Count, Solution, Solver, VarId};

/// Solves many puzzles of one box shape with one engine [`Solver`]: the empty grid's model
/// (see [`model`](super::model)) is built, compiled and configured once, and each puzzle's
/// givens become the solver's assumptions ([`Solver::assume`]). The answers are those of
/// [`solve`](super::solve) and [`count_solutions`](super::count_solutions), found by the same
/// search; what is saved is the set-up of a model and a solver per puzzle, about a fifth of
/// the work of an easy 9×9 puzzle (`docs/PERFORMANCE.md`).
///
/// ```
/// use bitcsp::sudoku::{Board, BoxShape, PuzzleSolver};
/// let mut solver = PuzzleSolver::new(BoxShape { rows: 3, cols: 3 })?;
/// for line in [
///     "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79",
///     "..9748...7.........2.1.9.....7...24..64.1.59..98...3.....8.3.2.........6...2759..",
/// ] {
///     let board = Board::parse(line)?;
///     let solution = solver.solve(&board)?.expect("these puzzles have solutions");
///     assert!(solution.check_solves(&board).is_ok());
///     assert_eq!(solver.count(&board, 2)?.count, 1);
/// }
/// # Ok::<(), bitcsp::sudoku::SudokuError>(())
/// ```
#[derive(Clone, Debug)]
pub struct PuzzleSolver {
    empty: Board,
    cells: Vec<VarId>,
    solver: Solver,
    /// The current puzzle's givens, kept to reuse the allocation.
    givens: Vec<(VarId, i32)>,
}

impl PuzzleSolver {
    /// A solver for the puzzles of boxes of `shape`, with the search of
    /// [`configure`](super::configure).
    ///
    /// # Errors
    /// [`SudokuError::Parse`] when `shape` gives no board (see [`Board::empty`]).
    pub fn new(shape: BoxShape) -> Result<Self, SudokuError> {
        let empty = Board::empty(shape)?;
        let consistency = if super::is_large(&empty) {
            Consistency::Domain
        } else {
            Consistency::Fast
        };
        let (model, cells) = template(&empty, consistency)?;
        let mut solver = Solver::new(&model);
        configure(&mut solver, &empty);
        Ok(PuzzleSolver {
            empty,
            cells,
            solver,
            givens: Vec::new(),
        })
    }

    /// The engine solver, to set limits or read the latest search's statistics. Its
    /// assumptions are replaced at each puzzle.
    pub fn engine(&mut self) -> &mut Solver {
        &mut self.solver
    }

    /// A solution of `board` (the same as [`solve`](super::solve)'s), or `None` when it
    /// has none or a limit stopped the search first ([`Solver::stop_reason`] tells which).
    ///
    /// # Errors
    /// [`SudokuError::ShapeMismatch`] for a board of another shape; [`SudokuError::Clash`]
    /// when two givens break a rule.
    pub fn solve(&mut self, board: &Board) -> Result<Option<Board>, SudokuError> {
        self.assume_givens(board)?;
        let solution = self.solver.solve().solution();
        Ok(solution.map(|s: Solution| decode(board, &self.cells, &s)))
    }

    /// Counts the solutions of `board` up to `limit`, as
    /// [`count_solutions`](super::count_solutions) does.
    ///
    /// # Errors
    /// As [`solve`](PuzzleSolver::solve).
    pub fn count(&mut self, board: &Board, limit: u64) -> Result<Count, SudokuError> {
        self.assume_givens(board)?;
        Ok(self.solver.count(Some(limit)))
    }

    /// Makes `board`'s givens the engine's assumptions and returns the engine with the
    /// cell variables (row order, as [`model`](super::model) returns them), for searches
    /// other than [`solve`](PuzzleSolver::solve) and [`count`](PuzzleSolver::count): say,
    /// the first two solutions to tell a unique one, decoded with [`decode`](super::decode).
    ///
    /// # Errors
    /// As [`solve`](PuzzleSolver::solve).
    pub fn load(&mut self, board: &Board) -> Result<(&mut Solver, &[VarId]), SudokuError> {
        self.assume_givens(board)?;
        Ok((&mut self.solver, &self.cells))
    }

    /// Checks `board` and makes its givens the solver's assumptions.
    fn assume_givens(&mut self, board: &Board) -> Result<(), SudokuError> {
        if board.shape() != self.empty.shape() {
            return Err(SudokuError::ShapeMismatch {
                expected: self.empty.shape(),
                found: board.shape(),
            });
        }
        if let Some(clash) = board.find_clash() {
            return Err(clash.into());
        }
        self.givens.clear();
        self.givens.extend(
            board
                .cells()
                .iter()
                .zip(&self.cells)
                .filter(|(&d, _)| d != 0)
                .map(|(&d, &var)| (var, i32::from(d))),
        );
        self.solver.assume(&self.givens)?;
        Ok(())
    }
}
