//! Splitting a problem into parts, and searching one part.

use std::sync::atomic::AtomicBool;
use std::sync::Arc;
use std::time::{Duration, Instant};

use super::lines::{fingerprint, Answer, Part};
use super::problem::{Piece, Problem};
use crate::coloring::Graph;
use crate::sudoku::{large, learning, Board, SudokuError};
use crate::{Count, CountStatus, SolveResult, Solver, Statistics, VarId};

/// Limits for a split or a part.
#[derive(Clone, Debug, Default)]
pub struct Limits {
    /// Wall time.
    pub time: Option<Duration>,
    /// Search nodes.
    pub nodes: Option<u64>,
    /// Stops the search when set.
    pub cancel: Option<Arc<AtomicBool>>,
}

fn limited(mut solver: Solver, limits: &Limits) -> Solver {
    solver
        .set_time_limit(limits.time)
        .set_node_limit(limits.nodes)
        .set_cancel_flag(limits.cancel.clone());
    solver
}

/// Splits `problem` into at least `k` parts (see [`Solver::split`]), numbered in split
/// order; `graph` is the colouring problem's graph (read from its file by the caller),
/// `limit` a count limit every part carries.
///
/// # Errors
/// Why the problem cannot be modelled, or the limit that stopped the split.
pub fn split(
    problem: &Problem,
    graph: Option<&Graph>,
    k: usize,
    limit: Option<u64>,
    limits: &Limits,
) -> Result<Vec<Part>, String> {
    let pieces = problem.pieces(graph)?;
    let per_piece = k.div_ceil(pieces.len().max(1)).max(1);
    // Each part: its piece, the piece's weight, the root fixes.
    type Planned = (usize, u64, Vec<(usize, i32)>);
    let mut planned: Vec<Planned> = Vec::new();
    for (p, piece) in pieces.iter().enumerate() {
        let mut solver = limited(problem.solver(piece), limits);
        let parts = solver
            .split(per_piece)
            .map_err(|reason| format!("the split {reason}"))?;
        for fixes in parts {
            let fixes = fixes.into_iter().map(|(v, x)| (v.index(), x)).collect();
            planned.push((p, piece.weight, fixes));
        }
    }
    if planned.is_empty() {
        // Every branch failed at the root: one part without fixes still carries the
        // answer (nothing) through `part` and `merge`.
        planned.push((0, pieces.first().map_or(1, |p| p.weight), Vec::new()));
    }
    let model = fingerprint(problem.describe().as_bytes());
    let mut described = format!("{model:016x} k={k}");
    for (p, _, fixes) in &planned {
        described.push_str(&format!(" {p}:{fixes:?}"));
    }
    let split = fingerprint(described.as_bytes());
    let of = planned.len();
    Ok(planned
        .into_iter()
        .enumerate()
        .map(|(i, (piece, weight, fixes))| Part {
            split,
            model,
            index: i + 1,
            of,
            problem: problem.clone(),
            piece,
            weight,
            limit: limit.filter(|_| problem.counts()),
            fixes,
        })
        .collect())
}

impl Part {
    /// Searches this part: counts its solutions (up to its limit; Sudoku boards from
    /// [`learning::LEARNING_SIDE`] up as `sudoku count` counts them, by [`large::count`]),
    /// or for colouring looks for one colouring.
    ///
    /// # Errors
    /// A part that does not fit its problem (no such piece, weight or variable).
    pub fn run(&self, graph: Option<&Graph>, limits: &Limits) -> Result<Answer, String> {
        let limit = self.limit;
        let pieces = self.problem.pieces(graph)?;
        let piece: &Piece = pieces
            .get(self.piece)
            .ok_or_else(|| format!("piece={} does not exist", self.piece))?;
        if piece.weight != self.weight {
            return Err(format!(
                "weight={} is not piece {}'s weight",
                self.weight, self.piece
            ));
        }
        let fixes = self
            .fixes
            .iter()
            .map(|&(v, x)| {
                let var: VarId = *piece
                    .vars
                    .iter()
                    .find(|r| r.index() == v)
                    .ok_or_else(|| format!("fix {v}:{x}: no such variable"))?;
                Ok((var, x))
            })
            .collect::<Result<Vec<_>, String>>()?;
        if let Problem::Sudoku { board } = &self.problem {
            if board.side() >= learning::LEARNING_SIDE {
                return self.count_large(board, &piece.vars, &fixes, limits);
            }
        }
        let mut solver = limited(self.problem.solver(piece), limits);
        solver.assume(&fixes).map_err(|e| e.to_string())?;
        let started = Instant::now();
        let (count, status, solution) = if self.problem.counts() {
            let c = solver.count(limit);
            (c.count, status_of(c.status), None)
        } else {
            match solver.solve() {
                SolveResult::Solution(s) => {
                    let colours: Vec<String> =
                        piece.vars.iter().map(|&v| s.value(v).to_string()).collect();
                    (1, "complete".to_owned(), Some(colours.join(",")))
                }
                SolveResult::Unsatisfiable => (0, "complete".to_owned(), None),
                SolveResult::Stopped(reason) => (0, stopped(&reason.to_string()), None),
            }
        };
        let stats = solver.stats();
        Ok(Answer {
            split: self.split,
            model: self.model,
            index: self.index,
            of: self.of,
            counting: self.problem.counts(),
            count,
            weight: self.weight,
            limit: limit.filter(|_| self.problem.counts()),
            status,
            solution,
            colors: match self.problem {
                Problem::Color { colors, .. } => Some(colors),
                _ => None,
            },
            nodes: stats.nodes,
            failures: stats.failures,
            ms: started.elapsed().as_secs_f64() * 1e3,
        })
    }

    /// A large board's part, counted as `sudoku count` counts the board
    /// ([`large::count`]), with the part's fixes (the board's variables, one per cell in
    /// row order, over its digits) added to the givens. Fixes that contradict the givens
    /// or each other leave the part without solutions, as they do in the engine.
    fn count_large(
        &self,
        board: &Board,
        cells: &[VarId],
        fixes: &[(VarId, i32)],
        limits: &Limits,
    ) -> Result<Answer, String> {
        let n = board.side();
        let mut fixed = Some(board.clone());
        for &(var, value) in fixes {
            let cell = cells.iter().position(|&c| c == var).unwrap_or(usize::MAX);
            let digit = u8::try_from(value).unwrap_or(0);
            let fits = |b: &Board| {
                cell < n * n
                    && (1..=n).contains(&usize::from(digit))
                    && b.get(cell / n, cell % n).is_none_or(|given| given == digit)
            };
            fixed = fixed.filter(fits);
            if let Some(b) = fixed.as_mut() {
                b.set(cell / n, cell % n, digit);
            }
        }
        let started = Instant::now();
        let large_limits = large::Limits {
            time: limits.time,
            nodes: limits.nodes,
            cancel: limits.cancel.clone(),
            // Parts run side by side under a job runner: one thread each.
            threads: 1,
        };
        let counted = fixed.map(|b| large::count(&b, self.limit, &large_limits));
        let (count, stats) = match counted {
            None | Some(Err(SudokuError::Clash(_))) => (
                Count {
                    count: 0,
                    status: CountStatus::Complete,
                },
                Statistics::default(),
            ),
            Some(Ok((found, stats))) => (found.count, stats),
            Some(Err(e)) => return Err(e.to_string()),
        };
        Ok(Answer {
            split: self.split,
            model: self.model,
            index: self.index,
            of: self.of,
            counting: true,
            count: count.count,
            weight: self.weight,
            limit: self.limit,
            status: status_of(count.status),
            solution: None,
            colors: None,
            nodes: stats.nodes,
            failures: stats.failures,
            ms: started.elapsed().as_secs_f64() * 1e3,
        })
    }
}

/// A count's status in a part's answer.
fn status_of(status: CountStatus) -> String {
    match status {
        CountStatus::Complete => "complete".to_owned(),
        CountStatus::LimitReached => "limit".to_owned(),
        CountStatus::Stopped(reason) => stopped(&reason.to_string()),
    }
}

/// `stopped(by-time-limit)`: a status without spaces.
fn stopped(reason: &str) -> String {
    format!("stopped({})", reason.replace(' ', "-"))
}
