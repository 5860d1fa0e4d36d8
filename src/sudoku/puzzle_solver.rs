//! One engine solver for many puzzles of one shape.

use super::{configure, model, solved_board, Board, BoxShape, SudokuError};
use crate::{Count, SearchStatus, Solver, VarId};

/// Solves many puzzles of one box shape with one engine [`Solver`]: the empty grid's model
/// (see [`model`](super::model)) is built, compiled and configured once, and each puzzle's
/// givens become the solver's assumptions ([`Solver::assume`]). The answers are those of
/// [`solve`](super::solve) and [`count_solutions`](super::count_solutions), found by the same
/// search; what is saved is the set-up of a model and a solver per puzzle, which costs as
/// much as searching an easy 9×9 puzzle (`cargo bench --bench sudoku -- reused`).
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
    shape: BoxShape,
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
        // The empty grid's model, as `model` builds it for any board of this shape.
        let (model, cells) = model(&empty)?;
        let mut solver = Solver::new(&model);
        configure(&mut solver, &empty);
        Ok(PuzzleSolver {
            shape,
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

    /// The cell variables, in row order (as [`model`](super::model) returns them).
    pub fn cells(&self) -> &[VarId] {
        &self.cells
    }

    /// A solution of `board` (the same as [`solve`](super::solve)'s), or `None` when it
    /// has none or a limit stopped the search first ([`Solver::stop_reason`] tells which).
    ///
    /// # Errors
    /// [`SudokuError::ShapeMismatch`] for a board of another shape; [`SudokuError::Clash`]
    /// when two givens break a rule.
    pub fn solve(&mut self, board: &Board) -> Result<Option<Board>, SudokuError> {
        self.assume_shape_givens(board)?;
        // Read from the domains in place: no copy of the values to decode from.
        match self.solver.solve_in_place() {
            SearchStatus::Solved => Ok(solved_board(board, &self.cells, &self.solver)),
            _ => no_clash(board).map(|()| None),
        }
    }

    /// Counts the solutions of `board` up to `limit`, as
    /// [`count_solutions`](super::count_solutions) does.
    ///
    /// # Errors
    /// As [`solve`](PuzzleSolver::solve).
    pub fn count(&mut self, board: &Board, limit: u64) -> Result<Count, SudokuError> {
        self.assume_shape_givens(board)?;
        let count = self.solver.count(Some(limit));
        if count.count == 0 {
            no_clash(board)?;
        }
        Ok(count)
    }

    /// Makes `board`'s givens the engine's assumptions and returns the engine with the
    /// cell variables (row order, as [`model`](super::model) returns them), for searches
    /// other than [`solve`](PuzzleSolver::solve) and [`count`](PuzzleSolver::count): say,
    /// the first two solutions to tell a unique one, decoded with [`decode`](super::decode).
    /// Clashing givens are not looked for here: they leave the searches without a solution,
    /// and [`Board::find_clash`] names the clash when one is wanted (as `solve` and `count`
    /// do when they find nothing), so puzzles that solve pay nothing for the check.
    ///
    /// # Errors
    /// [`SudokuError::ShapeMismatch`] for a board of another shape.
    pub fn load(&mut self, board: &Board) -> Result<(&mut Solver, &[VarId]), SudokuError> {
        self.assume_shape_givens(board)?;
        Ok((&mut self.solver, &self.cells))
    }

    /// Checks `board`'s shape and makes its givens the solver's assumptions. Whether the
    /// givens clash is left to the callers: [`solve`](PuzzleSolver::solve) and
    /// [`count`](PuzzleSolver::count) look only when they found no solution (clashing
    /// givens leave none, so the check costs nothing on the puzzles that have one).
    fn assume_shape_givens(&mut self, board: &Board) -> Result<(), SudokuError> {
        if board.shape() != self.shape {
            return Err(SudokuError::ShapeMismatch {
                expected: self.shape,
                found: board.shape(),
            });
        }
        // Which cells are given is gathered as bits first, 64 cells at a time with no
        // branch per cell (whether a cell is given is a coin toss for the branch
        // predictor); then only the givens are visited.
        self.givens.clear();
        for (digits, vars) in board.cells().chunks(64).zip(self.cells.chunks(64)) {
            let mut rest = nonzero_bytes(digits);
            while rest != 0 {
                let i = rest.trailing_zeros() as usize;
                rest &= rest - 1;
                self.givens.push((vars[i], i32::from(digits[i])));
            }
        }
        self.solver.assume(&self.givens)?;
        Ok(())
    }
}

/// Bit `i` set for each nonzero byte `i` of `bytes` (at most 64), eight bytes at a time:
/// a byte's high bit is set by adding 0x7f to its low seven bits or by its own, and the
/// eight high bits are gathered into one byte by a multiplication, each landing on its
/// own bit with no carry between them.
fn nonzero_bytes(bytes: &[u8]) -> u64 {
    const LOW_SEVEN: u64 = 0x7f7f_7f7f_7f7f_7f7f;
    const HIGH: u64 = 0x8080_8080_8080_8080;
    const GATHER: u64 = 0x0102_0408_1020_4080;
    let of_eight = |x: u64| {
        let high = (((x & LOW_SEVEN) + LOW_SEVEN) | x) & HIGH;
        (high >> 7).wrapping_mul(GATHER) >> 56
    };
    let bytes = &bytes[..bytes.len().min(64)];
    // Whole chunks are read as words; only a short last one is copied byte by byte (one
    // byte loop for every chunk costs more per puzzle).
    let whole = bytes.chunks_exact(8);
    let rest = whole.remainder();
    let mut bits = 0u64;
    let mut k = 0;
    for eight in whole {
        let mut word = [0u8; 8];
        word.copy_from_slice(eight);
        bits |= of_eight(u64::from_le_bytes(word)) << (8 * k);
        k += 1;
    }
    if !rest.is_empty() {
        let mut word = [0u8; 8];
        for (slot, &b) in word.iter_mut().zip(rest) {
            *slot = b;
        }
        bits |= of_eight(u64::from_le_bytes(word)) << (8 * k);
    }
    bits
}

/// The first clash of `board`'s givens as an error.
fn no_clash(board: &Board) -> Result<(), SudokuError> {
    board.find_clash().map_or(Ok(()), |clash| Err(clash.into()))
}

#[cfg(test)]
mod tests {
    use super::nonzero_bytes;

    #[test]
    fn nonzero_bytes_marks_exactly_the_nonzero_bytes() {
        // Every length up to 64, bytes drawn mostly from the edges of the trick (0, 1,
        // 0x7f, 0x80, 0xff) and at random.
        let mut next = crate::sudoku::test_rng(0x9e37_79b9_7f4a_7c15);
        for len in 0..=64 {
            for _ in 0..50 {
                let bytes: Vec<u8> = (0..len)
                    .map(|_| match next() % 7 {
                        0 | 1 => 0,
                        2 => 1,
                        3 => 0x7f,
                        4 => 0x80,
                        5 => 0xff,
                        _ => next() as u8,
                    })
                    .collect();
                let expected = bytes
                    .iter()
                    .enumerate()
                    .fold(0u64, |bits, (i, &b)| bits | u64::from(b != 0) << i);
                assert_eq!(nonzero_bytes(&bytes), expected, "{bytes:?}");
            }
        }
    }
}
