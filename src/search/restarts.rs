//! Restarts for the search of one solution: when a search has failed often enough on its
//! current path, it goes back to the root and tries again with its choices shuffled.
//! Puzzles such as large Latin squares and large Sudoku boards have heavy-tailed search
//! costs (Gomes, Selman and Kautz, "Boosting Combinatorial Search Through Randomization",
//! 1998): one early wrong choice can cost hours, while a different early choice finds a
//! solution at once. Restarting with growing budgets bounds how long a bad start lasts.

/// When a search for one solution ([`Solver::solve`](crate::Solver::solve)) starts again
/// from the root. Counting and iterating never restart: they must visit every solution
/// once.
///
/// At each restart the refutations on the abandoned path become nogoods (the decisions
/// above a refuted `x = v`, with `x = v`, cannot all hold), kept for the rest of the
/// search and propagated with two watched assignments each, so a later attempt does not
/// explore a refuted subtree again under the same decisions; [`Statistics::nogoods`]
/// counts them. They do not cover the refutations' consequences in other orders, so
/// restarts still pay mainly on satisfiable problems with heavy-tailed costs.
///
/// The default is [`Restarts::Never`]: `solve` then returns the first solution in search
/// order, and proving that a model has no solution never pays for restarts. Models whose
/// instances are usually satisfiable turn them on: the Sudoku model recommends them from
/// 16×16 up ([`sudoku::restarts`](crate::sudoku::restarts)).
///
/// [`Statistics::nogoods`]: crate::Statistics::nogoods
///
/// ```
/// use bitcsp::{Model, Restarts, Solver};
/// let mut model = Model::new();
/// let x = model.new_vars(8, 0..=7)?;
/// model.all_different(&x)?;
/// let mut solver = Solver::new(&model);
/// solver.set_restarts(Restarts::Luby { scale: 100 });
/// assert!(solver.solve().solution().is_some());
/// # Ok::<(), bitcsp::ModelError>(())
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Restarts {
    /// Never: `solve` returns the first solution in search order.
    #[default]
    Never,
    /// After `scale` failures, then after `scale` times each following term of the Luby
    /// sequence (1, 1, 2, 1, 1, 2, 4, 1, ...) failures since the previous restart. The
    /// root's propagation is kept; the first attempt follows the strategy as set, and each
    /// later one picks the values of the chosen variables at random, from a fixed seed
    /// ([`Solver::set_random_seed`](crate::Solver::set_random_seed) changes it), so a
    /// solve is reproducible. The solution found is a solution, not necessarily the
    /// first in search order (the same one on a puzzle with one solution). The search
    /// stays complete: the budgets grow without bound, so an unsatisfiable model is still
    /// proved so.
    Luby {
        /// Failures allowed before the first restart (0 counts as 1).
        scale: u64,
    },
}

/// The `i`-th term (from 0) of the Luby sequence 1, 1, 2, 1, 1, 2, 4, 1, 1, 2, ...
pub(crate) fn luby(mut i: u64) -> u64 {
    // Find the complete subsequence (of length 2^k - 1) containing position i, then
    // descend into its halves until i is the last position of one.
    let mut size = 1u64;
    let mut exponent = 0u32;
    while size < i + 1 {
        exponent += 1;
        size = 2 * size + 1;
    }
    while size - 1 != i {
        size = (size - 1) / 2;
        exponent -= 1;
        i %= size;
    }
    1u64 << exponent
}

/// The restart state of one search: when the next restart is due, and the random
/// generator of the shuffled attempts.
#[derive(Clone, Copy, Debug)]
pub(crate) struct RestartPlan {
    scale: u64,
    /// Restarts made so far in this search.
    done: u64,
    /// The failure count at which the next restart is due (`u64::MAX`: never).
    pub(crate) due_at: u64,
    rng: u64,
}

impl RestartPlan {
    /// No restarts (counting, iterating, or [`Restarts::Never`]).
    pub(crate) fn none() -> Self {
        RestartPlan {
            scale: 0,
            done: 0,
            due_at: u64::MAX,
            rng: SEED,
        }
    }

    /// The plan of a search starting with no failures counted, its random values drawn
    /// from `seed` (see [`Solver::set_random_seed`](crate::Solver::set_random_seed)).
    pub(crate) fn start(restarts: Restarts, seed: u64) -> Self {
        match restarts {
            Restarts::Never => Self::seeded(seed),
            Restarts::Luby { scale } => {
                let scale = scale.max(1);
                RestartPlan {
                    scale,
                    due_at: scale.saturating_mul(luby(0)),
                    rng: generator_start(seed),
                    ..Self::none()
                }
            }
        }
    }

    /// No restarts, with random values (a random value order's) drawn from `seed`.
    pub(crate) fn seeded(seed: u64) -> Self {
        RestartPlan {
            rng: generator_start(seed),
            ..Self::none()
        }
    }

    /// Records a restart at `failures` failures and sets the next one.
    pub(crate) fn restarted(&mut self, failures: u64) {
        self.done += 1;
        let budget = self.scale.saturating_mul(luby(self.done));
        self.due_at = failures.saturating_add(budget);
    }

    /// Whether this search restarts at all.
    pub(crate) fn is_active(&self) -> bool {
        self.due_at != u64::MAX
    }

    /// Whether choices are shuffled (every attempt after the first).
    pub(crate) fn shuffles(&self) -> bool {
        self.done > 0
    }

    /// The next pseudo-random number (xorshift64*).
    pub(crate) fn next_random(&mut self) -> u64 {
        let mut x = self.rng;
        x ^= x >> 12;
        x ^= x << 25;
        x ^= x >> 27;
        self.rng = x;
        x.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }
}

/// A fixed, non-zero seed: the same model and strategy always give the same solve.
const SEED: u64 = 0x9e37_79b9_7f4a_7c15;

/// The generator's first state for a user's `seed`: [`SEED`] for seed 0 (the default),
/// and for the others a state spread over the whole word, never zero (xorshift would
/// stay there).
fn generator_start(seed: u64) -> u64 {
    match SEED ^ seed.wrapping_mul(0xbf58_476d_1ce4_e5b9) {
        0 => SEED,
        state => state,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn luby_sequence_starts_as_published() {
        let terms: Vec<u64> = (0..15).map(luby).collect();
        assert_eq!(terms, vec![1, 1, 2, 1, 1, 2, 4, 1, 1, 2, 1, 1, 2, 4, 8]);
    }

    #[test]
    fn budgets_follow_the_sequence_times_the_scale() {
        let mut plan = RestartPlan::start(Restarts::Luby { scale: 10 }, 0);
        assert_eq!(plan.due_at, 10);
        let mut budgets = Vec::new();
        let mut failures = 10;
        for _ in 0..6 {
            plan.restarted(failures);
            budgets.push(plan.due_at - failures);
            failures = plan.due_at;
        }
        assert_eq!(budgets, vec![10, 20, 10, 10, 20, 40]);
        assert!(plan.shuffles());
        assert_eq!(RestartPlan::start(Restarts::Never, 0).due_at, u64::MAX);
    }
}
