//! One problem searched by several differently seeded solvers at once, on threads, with
//! the answer a single search would give.
//!
//! On hard problems the time a learning search takes depends heavily on its first
//! choices, and differently seeded searches of one board finish at widely different
//! times. Racing a few seeds on spare cores takes the luckier one. A race must not change
//! the answer, though, only its speed: with one thread or four, a problem with several
//! covers must get the same one.
//! So the answers that end a race are those that cannot differ between searches: the
//! first search (seed 0, the one [`CoverSolver::solve`] makes) ending in any way; another
//! search proving that there is no cover, or finding one and proving it the only one; any
//! search finishing a count (its number is a fact of the problem, whichever search
//! counted).

use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};

use super::{CoverError, CoverOutcome, CoverSolver, CoverStats, ExactCover};
use crate::{Count, CountStatus, StopReason};

/// No search has answered yet.
const NOBODY: usize = usize::MAX;

/// Solves `problem` with the options of `forced` chosen, as [`CoverSolver::solve`] does,
/// by `searches` solvers racing on threads (0 or 1: one, on the calling thread). Each
/// solver gets `set_up`'s limits first; search `k` takes seed `k`
/// ([`CoverSolver::set_seed`]). Seed 0 looks for a cover, the others count to two and
/// answer only with a cover they proved unique, or with none: so the answer is the one a
/// single search gives whatever the number of searches, and only the time differs (and
/// what a time limit or cancellation cuts off). Returns the answer and the statistics of
/// the search that gave it (or of seed 0, when every search stopped).
///
/// ```
/// use bitcsp::cover::{self, CoverOutcome, ExactCover};
/// // Items 0 and 1; the options {0}, {1}, {0, 1}: two covers, so seed 0 answers.
/// let mut problem = ExactCover::new(2, 0)?;
/// for items in [&[0][..], &[1], &[0, 1]] {
///     problem.add_option(items)?;
/// }
/// let (one, _) = cover::solve_raced(&problem, &[], 1, |_| {})?;
/// let (three, _) = cover::solve_raced(&problem, &[], 3, |_| {})?;
/// assert!(matches!(&one, CoverOutcome::Solution(_)));
/// assert_eq!(one, three);
/// # Ok::<(), bitcsp::cover::CoverError>(())
/// ```
///
/// # Errors
/// As [`CoverSolver::solve`]'s, from seed 0 (another seed's error only ends its search).
pub fn solve_raced(
    problem: &ExactCover,
    forced: &[usize],
    searches: usize,
    set_up: impl Fn(&mut CoverSolver) + Sync,
) -> Result<(CoverOutcome, CoverStats), CoverError> {
    race(problem, searches, set_up, |seed, solver| match seed {
        0 => solver.solve(forced),
        _ => unique_cover(solver, forced),
    })
}

/// A helper's answer in [`solve_raced`]: the cover if it is the only one, none if there
/// is none, and a stop (which settles nothing) when there are several or a limit came
/// first.
fn unique_cover(solver: &mut CoverSolver, forced: &[usize]) -> Result<CoverOutcome, CoverError> {
    let mut first = None;
    let count = solver.count(forced, Some(2), |cover| {
        first.get_or_insert_with(|| cover.to_vec());
    })?;
    Ok(match (count.count, count.status, first) {
        (0, CountStatus::Complete, _) => CoverOutcome::Unsatisfiable,
        (1, CountStatus::Complete, Some(cover)) => CoverOutcome::Solution(cover),
        (_, CountStatus::Stopped(reason), _) => CoverOutcome::Stopped(reason),
        // Several covers: which one is the answer is seed 0's to say.
        _ => CoverOutcome::Stopped(StopReason::Cancelled),
    })
}

/// What a raced count found: the count, and the first cover of the search that counted.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RacedCount {
    /// How many covers, and whether that is all of them.
    pub count: Count,
    /// The first cover the answering search found: the only one when the count is 1;
    /// with more, which one comes first depends on the search.
    pub first: Option<Vec<usize>>,
}

/// Counts the covers of `problem` with the options of `forced` chosen, up to `limit`
/// (`None`: all), as [`CoverSolver::count`] does, by `searches` solvers racing on
/// threads (0 or 1: one, on the calling thread), each set up and seeded as in
/// [`solve_raced`]. The first search to finish its count answers: the count is the same
/// whichever it is. Returns the count with the answering search's first cover, and that
/// search's statistics (seed 0's when every search stopped).
///
/// # Errors
/// As [`CoverSolver::count`]'s, from seed 0 (another seed's error only ends its search).
pub fn count_raced(
    problem: &ExactCover,
    forced: &[usize],
    limit: Option<u64>,
    searches: usize,
    set_up: impl Fn(&mut CoverSolver) + Sync,
) -> Result<(RacedCount, CoverStats), CoverError> {
    race(problem, searches, set_up, |_, solver| {
        let mut first = None;
        let count = solver.count(forced, limit, |cover| {
            first.get_or_insert_with(|| cover.to_vec());
        })?;
        Ok(RacedCount { count, first })
    })
}

/// What a search's answer says about the race.
trait Answer {
    /// True when the answer ends the race.
    fn settles(&self) -> bool;
}

impl Answer for CoverOutcome {
    fn settles(&self) -> bool {
        !matches!(self, CoverOutcome::Stopped(_))
    }
}

impl Answer for RacedCount {
    fn settles(&self) -> bool {
        !matches!(self.count.status, CountStatus::Stopped(_))
    }
}

/// Runs `run` on a solver per seed `0..searches`, each on its own thread (seed 0 on the
/// calling one); the first whose answer settles (or seed 0, whatever its answer) stops
/// the others, and its answer and statistics are returned. With no settling answer,
/// seed 0's.
fn race<R: Answer + Send>(
    problem: &ExactCover,
    searches: usize,
    set_up: impl Fn(&mut CoverSolver) + Sync,
    run: impl Fn(u64, &mut CoverSolver) -> Result<R, CoverError> + Sync,
) -> Result<(R, CoverStats), CoverError> {
    let solver_for = |seed: u64, over: Option<Arc<AtomicBool>>| {
        let mut solver = CoverSolver::new(problem);
        set_up(&mut solver);
        solver.set_seed(seed);
        solver.race_over = over;
        solver
    };
    if searches <= 1 {
        let mut solver = solver_for(0, None);
        let answer = run(0, &mut solver)?;
        return Ok((answer, solver.stats()));
    }
    let over = Arc::new(AtomicBool::new(false));
    let winner = AtomicUsize::new(NOBODY);
    let settled: Mutex<Option<(R, CoverStats)>> = Mutex::new(None);
    // Claims the race for `seed`'s answer if nobody has: true when it won.
    let claim = |seed: usize| {
        let won = winner
            .compare_exchange(NOBODY, seed, Ordering::AcqRel, Ordering::Acquire)
            .is_ok();
        if won {
            over.store(true, Ordering::Relaxed);
        }
        won
    };
    let search = |seed: usize| {
        let mut solver = solver_for(seed as u64, Some(Arc::clone(&over)));
        let answer = run(seed as u64, &mut solver);
        (answer, solver.stats())
    };
    let first = std::thread::scope(|scope| {
        for seed in 1..searches {
            let (search, claim, settled) = (&search, &claim, &settled);
            let helper = std::thread::Builder::new().spawn_scoped(scope, move || {
                if let (Ok(answer), stats) = search(seed) {
                    if answer.settles() && claim(seed) {
                        *settled.lock().unwrap_or_else(|e| e.into_inner()) = Some((answer, stats));
                    }
                }
            });
            // A thread the system refuses is a search fewer: the answer does not change.
            if helper.is_err() {
                break;
            }
        }
        let (answer, stats) = search(0);
        let stopped = matches!(&answer, Ok(a) if !a.settles());
        // Seed 0's own end (an answer, an error, or the caller's limit) ends the race; a
        // stop because another search won leaves the race to it.
        if !stopped || winner.load(Ordering::Acquire) == NOBODY {
            claim(0);
        }
        (answer, stats)
    });
    if winner.load(Ordering::Acquire) != 0 {
        if let Some(won) = settled.into_inner().unwrap_or_else(|e| e.into_inner()) {
            return Ok(won);
        }
    }
    let (answer, stats) = first;
    Ok((answer?, stats))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Items 0 and 1 and the options `options`.
    fn problem(options: &[&[usize]]) -> ExactCover {
        let mut problem = ExactCover::new(2, 0).expect("small");
        for items in options {
            problem.add_option(items).expect("valid");
        }
        problem
    }

    #[test]
    fn helpers_answer_only_with_a_unique_cover_or_none() {
        let answer = |options: &[&[usize]]| {
            let problem = problem(options);
            unique_cover(&mut CoverSolver::new(&problem), &[]).expect("no forced option")
        };
        assert_eq!(answer(&[&[0], &[1]]), CoverOutcome::Solution(vec![0, 1]));
        assert_eq!(answer(&[&[0], &[0, 1]]), CoverOutcome::Solution(vec![1]));
        assert_eq!(answer(&[&[0]]), CoverOutcome::Unsatisfiable);
        assert!(!answer(&[&[0], &[1], &[0, 1]]).settles());
    }

    #[test]
    fn the_first_helper_to_settle_answers_while_seed_0_waits() {
        let problem = problem(&[&[0], &[1]]);
        let (answer, stats) = race(
            &problem,
            3,
            |_| {},
            |seed, solver| match seed {
                // Seed 0 only stops when the race is over.
                0 => {
                    let over = solver.race_over.clone().expect("a race's flag");
                    while !over.load(Ordering::Relaxed) {
                        std::thread::yield_now();
                    }
                    Ok(CoverOutcome::Stopped(StopReason::Cancelled))
                }
                1 => Ok(CoverOutcome::Stopped(StopReason::TimeLimit)),
                _ => solver.solve(&[]),
            },
        )
        .expect("no error");
        assert_eq!(answer, CoverOutcome::Solution(vec![0, 1]));
        // The answering search's statistics: it found the cover by propagation alone.
        assert_eq!((stats.decisions, stats.conflicts), (0, 0));
    }

    #[test]
    fn with_no_settling_answer_seed_0s_stop_is_the_answer() {
        let problem = problem(&[&[0], &[1], &[0, 1]]);
        let cancelled = Arc::new(AtomicBool::new(true));
        let (answer, _) = solve_raced(&problem, &[], 3, |solver| {
            solver.set_cancel_flag(Some(Arc::clone(&cancelled)));
        })
        .expect("no error");
        assert_eq!(answer, CoverOutcome::Stopped(StopReason::Cancelled));
        let (answer, _) = count_raced(&problem, &[], None, 3, |solver| {
            solver.set_cancel_flag(Some(Arc::clone(&cancelled)));
        })
        .expect("no error");
        assert_eq!(
            answer.count.status,
            CountStatus::Stopped(StopReason::Cancelled)
        );
    }
}
