//! Large boards by clause learning: a board as exact cover, solved by
//! [`CoverSolver`].
//!
//! From 36×36 up, boards with about half their cells given sit at a hardness peak where
//! depth-first search meets the same dead ends under many different choices; learning
//! each dead end once as a clause is what finishes them. The exact-cover form states the
//! rules the way the learning search reasons: "this cell holds this digit" is an option,
//! covering the cell and the digit in its row, its column and its box.

use super::{Board, SudokuError};
use crate::cover::{self, CoverOutcome, CoverSolver, CoverStats, ExactCover};
use crate::{Count, StopReason};

/// From this side up, [`solve`](super::solve), [`count_solutions`](super::count_solutions)
/// and the command line's `sudoku solve` and `sudoku count` take the learning search,
/// after a short try of the engine's ([`large`](super::large); `cargo run --release -p
/// bitcsp-compare --bin large` compares).
pub const LEARNING_SIDE: usize = 36;

/// `board` as exact cover, with the options its givens force. Option `cell * n + d`
/// (cells in row order, `d` from 0) puts digit `d + 1` in the cell; it covers item `cell`
/// and item `n² + u * n + d` for each of the cell's units `u` (numbered as
/// [`Board::units`]: rows, then columns, then boxes). Every item is primary.
///
/// ```
/// use bitcsp::cover::{CoverOutcome, CoverSolver};
/// use bitcsp::sudoku::{learning, Board, BoxShape};
/// let board = Board::empty(BoxShape { rows: 2, cols: 2 })?;
/// let (problem, forced) = learning::exact_cover(&board);
/// assert_eq!((problem.options(), problem.items(), forced.len()), (64, 64, 0));
/// let outcome = CoverSolver::new(&problem).solve(&forced).expect("no forced option");
/// assert!(matches!(outcome, CoverOutcome::Solution(chosen) if chosen.len() == 16));
/// # Ok::<(), bitcsp::sudoku::SudokuError>(())
/// ```
pub fn exact_cover(board: &Board) -> (ExactCover, Vec<usize>) {
    let n = board.side();
    // At most 4 · 64² items: a board is at most 64×64.
    let mut problem = ExactCover::new(4 * n * n, 0).expect("a board's items fit");
    for cell in 0..n * n {
        let (row, col) = (cell / n, cell % n);
        // Units as `Board::units` numbers them: rows, then columns, then boxes.
        let units = [row, n + col, 2 * n + board.box_of(row, col)];
        for d in 0..n {
            let items = [
                cell,
                item(n, units[0], d),
                item(n, units[1], d),
                item(n, units[2], d),
            ];
            // Four distinct items below 4n², on a board of at most 64×64: always valid.
            let added = problem.add_option(&items);
            debug_assert!(added.is_ok());
        }
    }
    let forced = (0..n * n)
        .filter_map(|cell| {
            let digit = board.get(cell / n, cell % n)?;
            Some(cell * n + usize::from(digit) - 1)
        })
        .collect();
    (problem, forced)
}

/// The item of digit `d` (from 0) in unit `u`.
fn item(n: usize, u: usize, d: usize) -> usize {
    n * n + u * n + d
}

/// How a learning solve ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Learned {
    /// A solution of the board.
    Solved(Board),
    /// The board has no solution.
    NoSolution,
    /// A limit or the cancellation flag stopped the search first.
    Stopped(StopReason),
}

/// Solves `board` by the learning search, with the limits `set_up` puts on each solver
/// (time, nodes, a cancellation flag): differently seeded searches raced in slices on up
/// to `threads` threads (0 or 1: on the calling thread; [`cover::solve_raced`], which
/// gives the same answer for any number); returns how it ended and what the answering
/// search did.
///
/// ```
/// use bitcsp::sudoku::{learning::{self, Learned}, Board};
/// let board = Board::parse(
///     "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79",
/// )?;
/// let (outcome, _) = learning::solve(&board, 1, |_| {})?;
/// assert!(matches!(outcome, Learned::Solved(s) if s.check_solves(&board).is_ok()));
/// # Ok::<(), bitcsp::sudoku::SudokuError>(())
/// ```
///
/// # Errors
/// [`SudokuError::Clash`] when two givens break a rule; [`SudokuError::Cover`] if the
/// search outgrows its clause store.
pub fn solve(
    board: &Board,
    threads: usize,
    set_up: impl Fn(&mut CoverSolver) + Sync,
) -> Result<(Learned, CoverStats), SudokuError> {
    let (problem, forced) = problem_for(board)?;
    let (outcome, stats) = cover::solve_raced(&problem, &forced, threads, set_up)?;
    let learned = match outcome {
        CoverOutcome::Solution(chosen) => Learned::Solved(decode(board, &chosen)),
        CoverOutcome::Unsatisfiable => Learned::NoSolution,
        CoverOutcome::Stopped(reason) => Learned::Stopped(reason),
    };
    Ok((learned, stats))
}

/// What a learning count found: the solutions counted, and the first of them.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LearnedCount {
    /// How many solutions were found, and whether that is all of them.
    pub count: Count,
    /// The first solution found, if any: the only one when the count is 1; with more,
    /// which one comes first depends on the search (and, raced, on which search answered).
    pub first: Option<Board>,
}

/// Counts the solutions of `board` up to `limit` (`None`: all of them; `Some(2)` decides
/// uniqueness) by the learning search, with the limits `set_up` puts on the solver,
/// raced by `searches` differently seeded searches on threads ([`cover::count_raced`]);
/// returns the count, the first solution and what the answering search did. After each
/// solution the search rules that one out and goes on, keeping what it learned.
///
/// ```
/// use bitcsp::sudoku::{learning, Board};
/// use bitcsp::CountStatus;
/// let board = Board::parse(
///     "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79",
/// )?;
/// let (found, _) = learning::count(&board, Some(2), 1, |_| {})?;
/// assert_eq!((found.count.count, found.count.status), (1, CountStatus::Complete));
/// assert!(found.first.is_some_and(|s| s.check_solves(&board).is_ok()));
/// # Ok::<(), bitcsp::sudoku::SudokuError>(())
/// ```
///
/// # Errors
/// [`SudokuError::Clash`] when two givens break a rule; [`SudokuError::Cover`] if the
/// search outgrows its clause store.
pub fn count(
    board: &Board,
    limit: Option<u64>,
    searches: usize,
    set_up: impl Fn(&mut CoverSolver) + Sync,
) -> Result<(LearnedCount, CoverStats), SudokuError> {
    let (problem, forced) = problem_for(board)?;
    let (raced, stats) = cover::count_raced(&problem, &forced, limit, searches, set_up)?;
    let count = raced.count;
    let first = raced.first.map(|chosen| decode(board, &chosen));
    Ok((LearnedCount { count, first }, stats))
}

/// `board` as exact cover with its givens' options, once its givens are checked.
fn problem_for(board: &Board) -> Result<(ExactCover, Vec<usize>), SudokuError> {
    if let Some(clash) = board.find_clash() {
        return Err(clash.into());
    }
    Ok(exact_cover(board))
}

/// `board` with the digits of `chosen` filled in: options of [`exact_cover`]`(board)`,
/// such as a cover the solver returns.
pub fn decode(board: &Board, chosen: &[usize]) -> Board {
    let n = board.side();
    let mut solved = board.clone();
    for &option in chosen {
        let (cell, d) = (option / n, option % n);
        // A digit of 1..=n (n ≤ 64) in a cell of the board.
        solved.set(cell / n, cell % n, (d + 1) as u8);
    }
    solved
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sudoku::BoxShape;

    #[test]
    fn options_cover_the_cell_and_the_digit_in_each_unit() {
        let board = Board::empty(BoxShape { rows: 2, cols: 3 }).expect("a shape");
        let (problem, _) = exact_cover(&board);
        let n = 6;
        // Cell (4, 5) is in row 4, column 5 and box 5 (boxes of 2 rows by 3 columns).
        let cell = 4 * n + 5;
        let items: Vec<usize> = problem.option_items(cell * n + 2).collect();
        assert_eq!(
            items,
            vec![
                cell,
                item(n, 4, 2),
                item(n, n + 5, 2),
                item(n, 2 * n + 5, 2)
            ]
        );
    }

    #[test]
    fn clashing_givens_are_an_error_and_an_impossible_board_has_no_solution() {
        let clash = Board::parse(&format!("11{}", ".".repeat(79))).expect("a board");
        assert!(solve(&clash, 1, |_| {}).is_err());
        // Row 0 lacks a 9 and every empty cell of it sees a 9 elsewhere: no solution,
        // though no two givens clash.
        let stuck = Board::parse(
            "12345678.........9..................................................9............",
        )
        .expect("a board");
        assert!(stuck.find_clash().is_none());
        let (outcome, _) = solve(&stuck, 2, |_| {}).expect("no clash");
        assert_eq!(outcome, Learned::NoSolution);
    }
}
