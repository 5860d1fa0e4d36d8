//! Sudoku as a thin model on the engine.
//!
//! A board is a graph-coloring instance: cells are vertices, cells sharing a row, column
//! or box are joined, and digits are colors. [`model`] therefore posts one all-different
//! per row, column and box (27 on 81 variables for 9×9) and fixes the givens; every bit of
//! reasoning happens in the core. Boards of any box shape work: 4×4, 6×6, 9×9, 12×12, 16×16,
//! 25×25 and beyond, up to 64×64. [`model`] chooses the groups' strength for the board's
//! size and [`configure`] the search (variable order, last-conflict reasoning, restarts).
//!
//! ```
//! use bitcsp::sudoku::{self, Board};
//! let board = Board::parse(
//!     "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79",
//! )?;
//! let solution = sudoku::solve(&board)?.expect("this puzzle has a solution");
//! assert!(solution.check_solves(&board).is_ok());
//! assert_eq!(sudoku::count_solutions(&board, 2)?.count, 1);
//! # Ok::<(), bitcsp::sudoku::SudokuError>(())
//! ```

mod board;
mod error;
pub mod large;
pub mod learning;
mod parse;
mod puzzle_solver;
mod symbols;
mod templates;
pub mod variants;
pub mod workshop;

/// A xorshift generator for the unit tests' random boards and texts (repeatable, no
/// dependency).
#[cfg(test)]
fn test_rng(seed: u64) -> impl FnMut() -> u64 {
    let mut random = crate::xorshift::XorShift(seed);
    move || random.next_u64()
}

pub use board::{Board, BoxShape, MAX_SIZE};
pub use error::{Cell, CheckError, Clash, ParseError, SudokuError, Unit};
pub use puzzle_solver::PuzzleSolver;
pub use symbols::MAX_SYMBOL_SIDE;

use crate::{
    Consistency, Count, LastConflict, Model, Restarts, Solution, SolveResult, Solver, VarId,
    VariableOrder,
};

/// The engine model of `board`: one variable per cell over `1..=N` (row order), one
/// all-different per row, column and box, and the givens fixed. Clashing givens give an
/// unsatisfiable model, not an error.
///
/// Boards up to 12×12 use [`Consistency::Fast`] groups; from 16×16 up the groups are
/// [`Consistency::Domain`], whose Hall-set pruning cuts the worst cases of large boards
/// by orders of magnitude (`cargo bench --bench sudoku -- sudoku_large`).
///
/// # Errors
/// [`SudokuError::Model`] only if the engine rejects the model, which a valid `Board`
/// cannot cause.
pub fn model(board: &Board) -> Result<(Model, Vec<VarId>), SudokuError> {
    model_with(board, consistency(board))
}

/// The groups' strength [`model`] chooses for `board`'s size.
fn consistency(board: &Board) -> Consistency {
    if is_large(board) {
        Consistency::Domain
    } else {
        Consistency::Fast
    }
}

/// The restarts recommended for solving `board`: none up to 12×12 (the search is short,
/// and a solve returns the first solution in search order), and from 16×16 up
/// [`Restarts::Luby`] with a scale of 100 failures. Large boards have heavy-tailed search
/// costs: a search stuck under an early wrong decision is cut off and retried with
/// shuffled values, keeping what it refuted as nogoods
/// (`tests/sudoku.rs::restarts_end_the_long_searches_of_large_boards`).
///
/// ```
/// use bitcsp::sudoku::{self, Board, BoxShape};
/// use bitcsp::{Restarts, Solver};
/// let board = Board::empty(BoxShape { rows: 4, cols: 4 })?;
/// let (model, _) = sudoku::model(&board)?;
/// let mut solver = Solver::new(&model);
/// solver.set_restarts(sudoku::restarts(&board));
/// assert_ne!(sudoku::restarts(&board), Restarts::Never);
/// assert!(solver.solve().solution().is_some());
/// # Ok::<(), bitcsp::sudoku::SudokuError>(())
/// ```
pub fn restarts(board: &Board) -> Restarts {
    if is_large(board) {
        Restarts::Luby {
            scale: RESTART_SCALE,
        }
    } else {
        Restarts::Never
    }
}

/// The variable order recommended for solving `board`: the default
/// ([`VariableOrder::MrvDynamicDegree`]) up to 12×12, and from 16×16 up
/// [`VariableOrder::DomWdeg`], which learns from the conflicts which cells to branch on
/// first. From 16×16 up each unit's matching is a propagator of its own and a failing run
/// of the units' family weights the cells it narrowed, so the weights tell cells apart.
/// On large boards that finishes searches the default order leaves unsolved; on 9×9
/// boards the default order visits fewer nodes and stays (both compared by
/// `cargo run --release -p bitcsp-compare --bin orders`).
///
/// ```
/// use bitcsp::sudoku::{self, Board, BoxShape};
/// use bitcsp::{Solver, VariableOrder};
/// let board = Board::empty(BoxShape { rows: 4, cols: 4 })?;
/// let (model, _) = sudoku::model(&board)?;
/// let mut solver = Solver::new(&model);
/// solver
///     .set_variable_order(sudoku::variable_order(&board))
///     .set_restarts(sudoku::restarts(&board));
/// assert_eq!(sudoku::variable_order(&board), VariableOrder::DomWdeg);
/// assert!(solver.solve().solution().is_some());
/// # Ok::<(), bitcsp::sudoku::SudokuError>(())
/// ```
pub fn variable_order(board: &Board) -> VariableOrder {
    if is_large(board) {
        VariableOrder::DomWdeg
    } else {
        VariableOrder::default()
    }
}

/// Sets on `solver` the search recommended for `board`: [`variable_order`], [`restarts`],
/// and from 16×16 up [`LastConflict::BranchFirst`] (the cell whose decision failed last
/// is branched on first until it is fixed). [`solve`], [`count_solutions`] and the
/// command line use it. Last-conflict reasoning goes back to the cell that failed and
/// shortens the searches of large boards (`cargo bench --bench sudoku -- sudoku_large`).
/// Up to 12×12 it sets the defaults, so a solve returns the first solution in search
/// order.
///
/// ```
/// use bitcsp::sudoku::{self, Board};
/// use bitcsp::Solver;
/// let board = Board::parse(
///     "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79",
/// )?;
/// let (model, _) = sudoku::model(&board)?;
/// let mut solver = Solver::new(&model);
/// sudoku::configure(&mut solver, &board);
/// assert!(solver.solve().solution().is_some());
/// # Ok::<(), bitcsp::sudoku::SudokuError>(())
/// ```
pub fn configure<'s>(solver: &'s mut Solver, board: &Board) -> &'s mut Solver {
    let last_conflict = if is_large(board) {
        LastConflict::BranchFirst
    } else {
        LastConflict::Ignore
    };
    solver
        .set_variable_order(variable_order(board))
        .set_last_conflict(last_conflict)
        .set_restarts(restarts(board))
}

/// From 16×16 up a board is modelled and searched differently: domain-consistent units
/// (each keeps its own matching beside the units' family), conflict-weighted branching,
/// last-conflict reasoning and restarts. Smaller boards are settled fast enough by the
/// family of fast units and the default search, which returns the first solution in
/// search order.
fn is_large(board: &Board) -> bool {
    board.side() >= 16
}

/// Failures before the first restart on large boards: short enough to cut off the heavy
/// tail of 25×25 searches, long enough not to restart the ordinary ones. On 9×9 boards
/// restarts would only interrupt the hardest puzzles' searches, hence none there.
const RESTART_SCALE: u64 = 100;

/// As [`model`], with the propagation strength of the all-different groups chosen.
///
/// # Errors
/// As [`model`].
pub fn model_with(
    board: &Board,
    consistency: Consistency,
) -> Result<(Model, Vec<VarId>), SudokuError> {
    let (mut m, cells) = templates::template(board, consistency)?;
    for (i, &d) in board.cells().iter().enumerate() {
        if d != 0 {
            m.fix(cells[i], i32::from(d))?;
        }
    }
    Ok((m, cells))
}

/// The completed board that `solution` describes, for the `cells` returned by [`model`].
pub fn decode(board: &Board, cells: &[VarId], solution: &Solution) -> Board {
    decode_with(board, cells, |v| solution.get(v).unwrap_or(0))
}

/// The completed board of the solution that `solver`'s latest search stopped at (see
/// [`Solver::solve_in_place`]), for the `cells` of [`model`] or [`PuzzleSolver::load`];
/// `None` when that search did not stop at a solution.
///
/// ```
/// use bitcsp::sudoku::{self, Board};
/// use bitcsp::{SearchStatus, Solver};
/// let board = Board::parse(
///     "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79",
/// )?;
/// let (model, cells) = sudoku::model(&board)?;
/// let mut solver = Solver::new(&model);
/// assert_eq!(solver.solve_in_place(), SearchStatus::Solved);
/// let solved = sudoku::solved_board(&board, &cells, &solver).expect("a solution");
/// assert!(solved.check_solves(&board).is_ok());
/// assert_eq!(sudoku::solved_line(&board, &cells, &solver), Some(solved.to_line()));
/// # Ok::<(), bitcsp::sudoku::SudokuError>(())
/// ```
pub fn solved_board(board: &Board, cells: &[VarId], solver: &Solver) -> Option<Board> {
    solver
        .is_at_solution()
        .then(|| decode_with(board, cells, |v| solver.solved_value(v).unwrap_or(0)))
}

/// [`solved_board`] as [`Board::to_line`] writes it, without the board in between.
pub fn solved_line(board: &Board, cells: &[VarId], solver: &Solver) -> Option<String> {
    if !solver.is_at_solution() {
        return None;
    }
    if board.side() > symbols::MAX_SYMBOL_SIDE {
        return solved_board(board, cells, solver).map(|b| b.to_line());
    }
    let side = board.side();
    let line: Vec<u8> = solver
        .solved_values(cells)?
        .map(|d| symbols::symbol_byte(cell_digit(d.unwrap_or(0), side)))
        .collect();
    // Every symbol is ASCII.
    String::from_utf8(line).ok()
}

/// The completed board whose cell `i` holds `value(cells[i])`.
fn decode_with(board: &Board, cells: &[VarId], value: impl Fn(VarId) -> i32) -> Board {
    let mut out = board.clone();
    let side = board.side();
    for (cell, &v) in out.cells_mut().iter_mut().zip(cells) {
        *cell = cell_digit(value(v), side);
    }
    out
}

/// The digit a cell of a board of `side` takes for `value`: a value outside `1..=side`
/// (a solution of another model) leaves the cell empty.
#[inline]
fn cell_digit(value: i32, side: usize) -> u8 {
    match u8::try_from(value) {
        Ok(d) if d >= 1 && usize::from(d) <= side => d,
        _ => 0,
    }
}

/// A solution of `board` (the first in search order up to 12×12; see [`restarts`]), or
/// `None` when it has none, found with the recommended search ([`configure`]); from
/// [`learning::LEARNING_SIDE`] up as [`large::solve`] finds it (a short try of that
/// search, then clause learning).
///
/// # Errors
/// [`SudokuError::Clash`] when two givens break a rule (the board is not valid). From
/// 36×36 up, [`SudokuError::Cover`] if the learning search outgrows its clause store.
pub fn solve(board: &Board) -> Result<Option<Board>, SudokuError> {
    if board.side() >= learning::LEARNING_SIDE {
        // The large boards' search checks the givens itself.
        return Ok(match large::solve(board, &large::Limits::default())?.0 {
            learning::Learned::Solved(solution) => Some(solution),
            // With no limit and no flag the search ends only by an answer.
            learning::Learned::NoSolution | learning::Learned::Stopped(_) => None,
        });
    }
    let (mut solver, cells) = configured(board)?;
    Ok(match solver.solve() {
        SolveResult::Solution(s) => Some(decode(board, &cells, &s)),
        _ => None,
    })
}

/// Counts solutions up to `limit` (`limit = 2` decides uniqueness), with the recommended
/// search ([`configure`]; counting never restarts); from [`learning::LEARNING_SIDE`] up as
/// [`large::count`] counts (a short try of that search, then clause learning).
///
/// # Errors
/// [`SudokuError::Clash`] when two givens break a rule. From 36×36 up,
/// [`SudokuError::Cover`] if the learning search outgrows its clause store.
pub fn count_solutions(board: &Board, limit: u64) -> Result<Count, SudokuError> {
    if board.side() >= learning::LEARNING_SIDE {
        // The large boards' search checks the givens itself.
        return Ok(large::count(board, Some(limit), &large::Limits::default())?
            .0
            .count);
    }
    let (mut solver, _) = configured(board)?;
    Ok(solver.count(Some(limit)))
}

/// The engine's solver for a valid `board`, with its [`model`]'s cells and the search
/// [`configure`] recommends.
///
/// # Errors
/// [`SudokuError::Clash`] when two givens break a rule; as [`model`].
fn configured(board: &Board) -> Result<(Solver, Vec<VarId>), SudokuError> {
    if let Some(clash) = board.find_clash() {
        return Err(clash.into());
    }
    let (m, cells) = model(board)?;
    let mut solver = Solver::new(&m);
    configure(&mut solver, board);
    Ok((solver, cells))
}

/// True when no given repeats in a row, column or box (LeetCode 36), without solving.
pub fn is_valid(board: &Board) -> bool {
    board.is_valid()
}
