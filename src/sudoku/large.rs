//! Boards from [`LEARNING_SIDE`](learning::LEARNING_SIDE) up, as [`solve`](super::solve),
//! [`count_solutions`](super::count_solutions), the command line and split counts search
//! them: the depth-first engine first, for at most [`ENGINE_NODES`] nodes, then the
//! clause-learning search ([`learning`]).
//!
//! Boards with many givens settle in the engine within a few nodes, before the learning
//! search would have built its exact cover; boards near the hardness peak need learning,
//! and lose only the engine's short try (`cargo run --release -p bitcsp-compare --bin
//! large -- --keep 0.6` against `--learning`).

use std::sync::atomic::AtomicBool;
use std::sync::Arc;
use std::time::{Duration, Instant};

use super::learning::{self, Learned, LearnedCount};
use super::{configured, decode, Board, SudokuError};
use crate::cover::{CoverSolver, CoverStats};
use crate::{Count, CountStatus, SolveResult, Solver, Statistics, StopReason, VarId};

/// The engine's nodes on a large board before the learning search takes over: about
/// what the learning search's set-up costs in time on a 36×36 board, so that a board
/// the engine does not settle costs at most about twice its learning search's minimum.
pub const ENGINE_NODES: u64 = 128;

/// Limits on a large board's search, shared by both searches: the engine's nodes and
/// time count against them.
#[derive(Clone, Debug, Default)]
pub struct Limits {
    /// Wall time of the whole search.
    pub time: Option<Duration>,
    /// Nodes (the engine's, then the learning search's choices).
    pub nodes: Option<u64>,
    /// Stops the search when set.
    pub cancel: Option<Arc<AtomicBool>>,
    /// Threads for the learning searches (0 or 1: one): a solve runs its raced searches
    /// on up to this many ([`cover::solve_raced`](crate::cover::solve_raced)), a count
    /// races this many; the answer is the same for any number, the time is not. Under a
    /// node limit a count runs one search, so that the limit cuts it off at the same place
    /// every time (a solve's slices already do).
    pub threads: usize,
}

impl Limits {
    /// The learning searches to race for a count under these limits.
    fn searches(&self) -> usize {
        if self.nodes.is_some() {
            1
        } else {
            self.threads
        }
    }
}

/// Solves a large `board`: how the search ended, and what both searches did together
/// (the learning search's choices count as nodes, its conflicts as failures and its
/// learned clauses as nogoods).
///
/// ```
/// use bitcsp::sudoku::large::{self, Limits};
/// use bitcsp::sudoku::{learning::Learned, Board, BoxShape};
/// let board = Board::empty(BoxShape { rows: 6, cols: 6 })?;
/// let (learned, _) = large::solve(&board, &Limits::default())?;
/// assert!(matches!(learned, Learned::Solved(s) if s.check_solves(&board).is_ok()));
/// # Ok::<(), bitcsp::sudoku::SudokuError>(())
/// ```
///
/// # Errors
/// [`SudokuError::Clash`] when two givens break a rule; [`SudokuError::Cover`] if the
/// learning search outgrows its clause store.
pub fn solve(board: &Board, limits: &Limits) -> Result<(Learned, Statistics), SudokuError> {
    let started = Instant::now();
    let (mut solver, cells) = engine(board, limits)?;
    let answer = match solver.solve() {
        SolveResult::Solution(s) => Some(Learned::Solved(decode(board, &cells, &s))),
        SolveResult::Unsatisfiable => Some(Learned::NoSolution),
        SolveResult::Stopped(reason) if !only_the_try(reason, limits) => {
            Some(Learned::Stopped(reason))
        }
        SolveResult::Stopped(_) => None,
    };
    let tried = solver.stats();
    if let Some(answer) = answer {
        return Ok((answer, tried));
    }
    let set_up = |s: &mut CoverSolver| limit_rest(s, limits, &tried, started);
    let (learned, stats) = learning::solve(board, limits.threads, set_up)?;
    let solutions = u64::from(matches!(learned, Learned::Solved(_)));
    Ok((learned, together(tried, stats, solutions, started)))
}

/// Counts the solutions of a large `board` up to `limit` (`None`: all), with the first
/// of them; statistics as [`solve`]'s.
///
/// # Errors
/// As [`solve`].
pub fn count(
    board: &Board,
    limit: Option<u64>,
    limits: &Limits,
) -> Result<(LearnedCount, Statistics), SudokuError> {
    let started = Instant::now();
    let (mut solver, cells) = engine(board, limits)?;
    let mut first = None;
    let mut counted = 0u64;
    if limit != Some(0) {
        for s in solver.solutions() {
            if first.is_none() {
                first = Some(decode(board, &cells, &s));
            }
            counted += 1;
            if Some(counted) == limit {
                break;
            }
        }
    }
    let status = match solver.stop_reason() {
        Some(reason) if only_the_try(reason, limits) => None,
        Some(reason) => Some(CountStatus::Stopped(reason)),
        None if Some(counted) == limit => Some(CountStatus::LimitReached),
        None => Some(CountStatus::Complete),
    };
    let tried = solver.stats();
    if let Some(status) = status {
        let count = Count {
            count: counted,
            status,
        };
        return Ok((LearnedCount { count, first }, tried));
    }
    let set_up = |s: &mut CoverSolver| limit_rest(s, limits, &tried, started);
    let (found, stats) = learning::count(board, limit, limits.searches(), set_up)?;
    let solutions = found.count.count;
    Ok((found, together(tried, stats, solutions, started)))
}

/// The engine's search of `board`, under the limits and [`ENGINE_NODES`].
fn engine(board: &Board, limits: &Limits) -> Result<(Solver, Vec<VarId>), SudokuError> {
    let (mut solver, cells) = configured(board)?;
    let nodes = limits.nodes.map_or(ENGINE_NODES, |n| n.min(ENGINE_NODES));
    solver
        .set_node_limit(Some(nodes))
        .set_time_limit(limits.time)
        .set_cancel_flag(limits.cancel.clone());
    Ok((solver, cells))
}

/// True when the engine stopped at the end of its try, not at one of the caller's limits.
fn only_the_try(reason: StopReason, limits: &Limits) -> bool {
    reason == StopReason::NodeLimit && limits.nodes.is_none_or(|n| n > ENGINE_NODES)
}

/// The caller's limits on the learning search, less what the engine's try used.
fn limit_rest(solver: &mut CoverSolver, limits: &Limits, tried: &Statistics, started: Instant) {
    solver
        .set_time_limit(limits.time.map(|t| t.saturating_sub(started.elapsed())))
        .set_node_limit(limits.nodes.map(|n| n.saturating_sub(tried.nodes)))
        .set_cancel_flag(limits.cancel.clone());
}

/// Both searches' statistics as one.
fn together(
    tried: Statistics,
    learned: CoverStats,
    solutions: u64,
    started: Instant,
) -> Statistics {
    Statistics {
        nodes: tried.nodes.saturating_add(learned.decisions),
        failures: tried.failures.saturating_add(learned.conflicts),
        solutions,
        restarts: tried.restarts.saturating_add(learned.restarts),
        nogoods: tried.nogoods.saturating_add(learned.learned),
        elapsed: started.elapsed(),
        ..tried
    }
}
