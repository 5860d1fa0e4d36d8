//! One problem searched by several differently seeded solvers, on threads, with an
//! answer that does not depend on the number of threads.
//!
//! On hard problems the time a learning search takes depends heavily on its first
//! choices, and differently seeded searches of one board finish at widely different
//! times. Racing a few seeds on spare cores takes the luckier one. A race must not change
//! the answer with the number of threads, though, only its speed: with one thread or two,
//! a problem with several covers must get the same one.
//!
//! A raced solve ([`solve_raced`]) therefore runs [`RACED_SEARCHES`] searches whatever the
//! number of threads, each in slices of [`RACE_SLICE`] conflicts, and orders their ends by
//! slice, then seed: the answer is the end that comes first in that order. Slices are
//! counted in conflicts, which a search makes in the same order on any machine, so the
//! order and the answer are fixed by the problem; threads only run slices side by side.
//! On one thread the searches take turns slice by slice. Beyond its first choices, a seed
//! other than 0 restarts a quarter as often ([`CoverSolver::set_seed`]), so that the
//! searches differ in more than their tie-breaks. A raced count ([`count_raced`])
//! needs no order: whichever search finishes its count answers, since the number is a
//! fact of the problem.

use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};

use super::solver::Slices;
use super::{CoverError, CoverOutcome, CoverSolver, CoverStats, ExactCover};
use crate::{Count, CountStatus, StopReason};

/// No search has answered yet.
const NOBODY: usize = usize::MAX;

/// The searches a raced solve runs, seeded `0..RACED_SEARCHES`, whatever the number of
/// threads.
pub const RACED_SEARCHES: usize = 2;

/// Conflicts per slice of a raced solve's searches (one unit of the learning search's
/// restart sequence): short enough that a search seldom waits long for another to finish
/// the slice that decides the answer.
pub const RACE_SLICE: u64 = 1024;

/// Solves `problem` with the options of `forced` chosen, as [`CoverSolver::solve`] does,
/// by [`RACED_SEARCHES`] searches (search `k` seeded `k`, [`CoverSolver::set_seed`]) run
/// in slices on up to `threads` threads (0 or 1: all on the calling thread). Each solver
/// gets `set_up`'s limits first. The answer is the first end of a search, a cover, the
/// proof that there is none, or an error, in the order of slices, then seeds: the same
/// for any number of threads, which change only the time (and what a time limit or
/// cancellation cuts off: then the first end found, if any, answers). Returns the
/// answer and the statistics of the search that gave it (or of seed 0, when every
/// search stopped).
///
/// ```
/// use bitcsp::cover::{self, CoverOutcome, ExactCover};
/// // Items 0 and 1; the options {0}, {1}, {0, 1}: two covers.
/// let mut problem = ExactCover::new(2, 0)?;
/// for items in [&[0][..], &[1], &[0, 1]] {
///     problem.add_option(items)?;
/// }
/// let (one, _) = cover::solve_raced(&problem, &[], 1, |_| {})?;
/// let (two, _) = cover::solve_raced(&problem, &[], 2, |_| {})?;
/// assert!(matches!(&one, CoverOutcome::Solution(_)));
/// assert_eq!(one, two);
/// # Ok::<(), bitcsp::cover::CoverError>(())
/// ```
///
/// # Errors
/// As [`CoverSolver::solve`]'s: a forced option beyond the problem's, or the error of
/// the search whose end answers.
pub fn solve_raced(
    problem: &ExactCover,
    forced: &[usize],
    threads: usize,
    set_up: impl Fn(&mut CoverSolver) + Sync,
) -> Result<(CoverOutcome, CoverStats), CoverError> {
    solve_in_slices(problem, forced, threads, RACE_SLICE, set_up)
}

/// [`solve_raced`] in slices of `slice` conflicts.
fn solve_in_slices(
    problem: &ExactCover,
    forced: &[usize],
    threads: usize,
    slice: u64,
    set_up: impl Fn(&mut CoverSolver) + Sync,
) -> Result<(CoverOutcome, CoverStats), CoverError> {
    let standing = Mutex::new(Standing {
        first: None,
        round: vec![0; RACED_SEARCHES],
    });
    let flags: Vec<Arc<AtomicBool>> = (0..RACED_SEARCHES)
        .map(|_| Arc::new(AtomicBool::new(false)))
        .collect();
    let groups = threads.clamp(1, RACED_SEARCHES);
    let mut slots: Vec<Vec<Sliced>> = (0..groups).map(|_| Vec::new()).collect();
    for seed in 0..RACED_SEARCHES {
        let mut solver = CoverSolver::new(problem);
        set_up(&mut solver);
        solver.set_seed(seed as u64);
        solver.race_over = Some(Arc::clone(&flags[seed]));
        let slices = solver.start_slices(forced)?;
        slots[seed % groups].push(Sliced {
            seed,
            solver,
            slices,
            end: None,
        });
    }
    let race = SliceRace {
        standing: &standing,
        flags: &flags,
        slice,
    };
    let mut searches = race.run_on_threads(slots);
    searches.sort_by_key(|search| search.seed);
    let first = lock(&standing).first;
    answer_of(&mut searches, first)
}

/// The answer of a raced solve whose `searches` (by seed) have run: the end of the one
/// that came `first`, else the stop of the first that stopped.
fn answer_of(
    searches: &mut [Sliced],
    first: Option<(u64, usize)>,
) -> Result<(CoverOutcome, CoverStats), CoverError> {
    if let Some((_, seed)) = first {
        if let Some(search) = searches.iter_mut().find(|search| search.seed == seed) {
            if let Some(end) = search.end.take() {
                return end.map(|answer| (answer, search.solver.stats()));
            }
        }
    }
    let (reason, stats) = searches
        .iter_mut()
        .find_map(|search| match search.end.take() {
            Some(Ok(CoverOutcome::Stopped(reason))) => Some((reason, search.solver.stats())),
            _ => None,
        })
        .unwrap_or((StopReason::Cancelled, CoverStats::default()));
    Ok((CoverOutcome::Stopped(reason), stats))
}

/// One search of a raced solve: its seed, its solver, where it stands, and how it ended
/// (`None` while it goes on).
struct Sliced {
    seed: usize,
    solver: CoverSolver,
    slices: Slices,
    end: Option<Result<CoverOutcome, CoverError>>,
}

/// What the searches of a raced solve share: the first end so far in the order of
/// (slice, seed), and the slice each search is in (0 before its first).
struct Standing {
    first: Option<(u64, usize)>,
    round: Vec<u64>,
}

/// The state a raced solve's threads share.
#[derive(Clone, Copy)]
struct SliceRace<'a> {
    standing: &'a Mutex<Standing>,
    /// Per search: set when its slice in progress can no longer answer, which stops it.
    flags: &'a [Arc<AtomicBool>],
    /// Conflicts per slice.
    slice: u64,
}

impl SliceRace<'_> {
    /// Runs each group of searches of `slots` on a thread of its own (the first on the
    /// calling thread) and returns them all, ended. A group whose thread the system
    /// refuses runs on the calling thread, to the same answer.
    fn run_on_threads(self, slots: Vec<Vec<Sliced>>) -> Vec<Sliced> {
        let slots: Vec<Mutex<Vec<Sliced>>> = slots.into_iter().map(Mutex::new).collect();
        std::thread::scope(|scope| {
            let mut calling = std::mem::take(&mut *lock_slot(&slots[0]));
            for slot in &slots[1..] {
                let spawned = std::thread::Builder::new()
                    .spawn_scoped(scope, move || self.run(&mut lock_slot(slot)));
                if spawned.is_err() {
                    calling.append(&mut lock_slot(slot));
                }
            }
            self.run(&mut calling);
            *lock_slot(&slots[0]) = calling;
        });
        slots
            .into_iter()
            .flat_map(|slot| slot.into_inner().unwrap_or_else(|e| e.into_inner()))
            .collect()
    }

    /// Runs `searches` a slice each in turn, round after round, until each has ended or
    /// can no longer answer: a slice that comes after the first end found is not run.
    fn run(self, searches: &mut [Sliced]) {
        for round in 1u64.. {
            let mut ran = false;
            for search in searches.iter_mut().filter(|s| s.end.is_none()) {
                if !self.enter(round, search.seed) {
                    search.end = Some(Ok(CoverOutcome::Stopped(StopReason::Cancelled)));
                    continue;
                }
                ran = true;
                let until = round.saturating_mul(self.slice);
                let end = match search.solver.run_slice(&mut search.slices, until) {
                    Ok(None) => continue,
                    // A limit, a cancellation, or a slice that can no longer answer.
                    Ok(Some(CoverOutcome::Stopped(reason))) => Ok(CoverOutcome::Stopped(reason)),
                    Ok(Some(answer)) => {
                        self.ended(round, search.seed);
                        Ok(answer)
                    }
                    Err(e) => {
                        self.ended(round, search.seed);
                        Err(e)
                    }
                };
                search.end = Some(end);
            }
            if !ran {
                return;
            }
        }
    }

    /// Whether slice `round` of search `seed` may still answer: it comes before the first
    /// end found so far. If so, the search is noted as in that slice.
    fn enter(self, round: u64, seed: usize) -> bool {
        let mut standing = lock(self.standing);
        if standing.first.is_some_and(|first| (round, seed) > first) {
            return false;
        }
        standing.round[seed] = round;
        true
    }

    /// Search `seed` ended in slice `round`: if that comes first so far, the searches in a
    /// later slice stop.
    fn ended(self, round: u64, seed: usize) {
        let mut standing = lock(self.standing);
        if standing.first.is_some_and(|first| first < (round, seed)) {
            return;
        }
        standing.first = Some((round, seed));
        for (other, &at) in standing.round.iter().enumerate() {
            if (at, other) > (round, seed) {
                self.flags[other].store(true, Ordering::Relaxed);
            }
        }
    }
}

/// A helper's searches, whatever another thread's panic left in them.
fn lock_slot(slot: &Mutex<Vec<Sliced>>) -> MutexGuard<'_, Vec<Sliced>> {
    slot.lock().unwrap_or_else(|e| e.into_inner())
}

/// The standing, whatever another thread's panic left in it.
fn lock(standing: &Mutex<Standing>) -> MutexGuard<'_, Standing> {
    standing.lock().unwrap_or_else(|e| e.into_inner())
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

    /// A random problem of 10 items (the first 8 primary) and 24 options of one to
    /// three items: most have several covers, and their searches make a few conflicts.
    fn random_problem(random: &mut crate::xorshift::XorShift) -> ExactCover {
        let mut problem = ExactCover::new(8, 2).expect("small");
        for _ in 0..24 {
            let mut items: Vec<usize> =
                (0..1 + random.below(3)).map(|_| random.below(10)).collect();
            items.sort_unstable();
            items.dedup();
            problem.add_option(&items).expect("valid");
        }
        problem
    }

    /// Seed `seed`'s answer alone.
    fn alone(problem: &ExactCover, seed: u64) -> CoverOutcome {
        let mut solver = CoverSolver::new(problem);
        solver.set_seed(seed);
        solver.solve(&[]).expect("no forced option")
    }

    #[test]
    fn slices_give_one_answer_for_any_number_of_threads_and_any_seed_may_give_it() {
        let mut random = crate::xorshift::XorShift(0x5EED_5EED);
        let mut by_seed_1 = 0;
        for case in 0..400 {
            let problem = random_problem(&mut random);
            let (zero, one) = (alone(&problem, 0), alone(&problem, 1));
            let answers: Vec<CoverOutcome> = [1, 2, 3]
                .iter()
                .map(|&threads| {
                    solve_in_slices(&problem, &[], threads, 1, |_| {})
                        .expect("no forced option")
                        .0
                })
                .collect();
            let answer = &answers[0];
            assert!(
                answers.iter().all(|a| a == answer),
                "case {case}: {answers:?}"
            );
            // Pausing does not change a search: the answer is one seed's own.
            assert!(*answer == zero || *answer == one, "case {case}: {answer:?}");
            if let CoverOutcome::Solution(cover) = answer {
                assert!(problem.is_cover(cover), "case {case}");
            }
            by_seed_1 += usize::from(*answer != zero);
        }
        // Seed 1 ended first in some problems with several covers.
        assert!(by_seed_1 > 0, "seed 0 answered every problem");
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
