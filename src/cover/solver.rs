//! The conflict-driven search over an [`ExactCover`]: assignments on a trail, the two item
//! rules on counters, learned clauses on watches, backjumping, restarts.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use super::clauses::{negate, option_of, Clauses, Watch, ARENA_LIMIT};
use super::order::Order;
use super::{CoverError, ExactCover};
use crate::search::{luby, Count, CountStatus, StopReason};

/// How an option's value came about; the explanation conflict analysis reads back.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Reason {
    /// A choice, a forced option, or a learned unit.
    Decision,
    /// Not chosen: option `by` is chosen and covers one of its items.
    Excluded { by: u32 },
    /// Chosen: every other option of primary item `item` is out.
    Last { item: u32 },
    /// Set by learned clause `c`, whose first literal it is.
    Clause(u32),
}

/// What went wrong in a propagation.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Clash {
    /// Two chosen options cover the same item.
    Both(u32, u32),
    /// Every option of primary item `item` is out.
    Empty(u32),
    /// Every literal of learned clause `c` is false.
    Clause(u32),
}

/// How a search ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum CoverOutcome {
    /// The chosen options, ascending: a cover.
    Solution(Vec<usize>),
    /// No cover exists (with the forced options).
    Unsatisfiable,
    /// A limit or the cancellation flag stopped the search first.
    Stopped(StopReason),
}

/// What a search did.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct CoverStats {
    /// Dead ends met (each one learned a clause).
    pub conflicts: u64,
    /// Choices made.
    pub decisions: u64,
    /// Times the search went back to the root, keeping what it learned.
    pub restarts: u64,
    /// Learned clauses kept at the end.
    pub learned: u64,
    /// Wall time of the search.
    pub elapsed: Duration,
}

/// Conflicts per unit of the Luby restart sequence.
const RESTART_UNIT: u64 = 1024;
/// The unit of a search with a seed other than 0 (see [`CoverSolver::set_seed`]).
const SEEDED_RESTART_UNIT: u64 = 4096;
/// Conflicts before the first clean-up of learned clauses; each later one comes that many
/// conflicts after the one before, plus `REDUCE_STEP` for every `FIRST_REDUCE` conflicts
/// made so far, so that clean-ups thin out as the search goes on.
const FIRST_REDUCE: u64 = 2000;
const REDUCE_STEP: u64 = 300;
/// How often (in conflicts and decisions) the clock is read.
const CHECK_EVERY: u64 = 256;

pub(super) const UNSET: i8 = 0;
pub(super) const TRUE: i8 = 1;
pub(super) const FALSE: i8 = -1;
pub(super) const NONE: u32 = u32::MAX;

/// A conflict-driven solver for one [`ExactCover`] problem.
#[derive(Clone, Debug)]
pub struct CoverSolver {
    /// Items `0..primary` are covered exactly once. Each option's items:
    /// `option_items[option_start[o]..option_start[o + 1]]`. From the root's propagation
    /// on, a search works on the options still in play and the items still open there,
    /// renumbered ([`compact`](Self::compact)); the `full_` fields keep the problem as
    /// stated, for the next search.
    pub(super) primary: u32,
    pub(super) option_start: Vec<u32>,
    pub(super) option_items: Vec<u32>,
    full_primary: u32,
    full_option_start: Vec<u32>,
    full_option_items: Vec<u32>,
    /// After [`compact`](Self::compact): each option's number in the problem as stated,
    /// and the options (so numbered) the root chose.
    pub(super) original: Vec<u32>,
    pub(super) root_chosen: Vec<usize>,
    /// Each item's options: `item_options[item_start[i]..item_start[i + 1]]`.
    pub(super) item_start: Vec<u32>,
    pub(super) item_options: Vec<u32>,
    full_item_start: Vec<u32>,
    full_item_options: Vec<u32>,
    /// Per option: `TRUE`, `FALSE` or `UNSET`.
    pub(super) value: Vec<i8>,
    pub(super) level: Vec<u32>,
    pub(super) reason: Vec<Reason>,
    /// The phase an option takes when chosen on: its last value.
    phase: Vec<bool>,
    /// Target phases: the values of the longest conflict-free trail so far (0 when none).
    target: Vec<i8>,
    target_size: usize,
    /// True literals in the order they were set; `limits[d]` is where level `d + 1` starts.
    pub(super) trail: Vec<u32>,
    pub(super) limits: Vec<u32>,
    /// Literals before this have had their consequences drawn (and the item counters
    /// count them).
    head: usize,
    /// Per item: its options not yet drawn out, and its chosen option drawn in (or NONE).
    pub(super) live: Vec<u32>,
    pub(super) chosen: Vec<u32>,
    pub(super) clauses: Clauses,
    pub(super) order: Order,
    /// Conflict analysis' scratch: per option, whether it is in the clause being learned.
    pub(super) seen: Vec<bool>,
    pub(super) learnt: Vec<u32>,
    /// [`shrink`](Self::shrink)'s scratch: the clause being rebuilt.
    pub(super) shrunk: Vec<u32>,
    /// [`redundant`](Self::redundant)'s scratch: the walk's path (an option and how many
    /// of its antecedents it has passed), the options known not to be implied, and a list
    /// of those.
    pub(super) frames: Vec<(u32, u32)>,
    pub(super) failed: Vec<bool>,
    pub(super) poisoned: Vec<u32>,
    pub(super) cleared: Vec<u32>,
    pub(super) antecedents: Vec<u32>,
    pub(super) level_stamp: Vec<u64>,
    pub(super) stamp: u64,
    time_limit: Option<Duration>,
    node_limit: Option<u64>,
    /// Conflicts per unit of the restart sequence, and the clean-up schedule
    /// ([`RESTART_UNIT`], [`FIRST_REDUCE`], [`REDUCE_STEP`]; the unit tests take them
    /// smaller).
    restart_unit: u64,
    first_reduce: u64,
    reduce_step: u64,
    /// [`ARENA_LIMIT`] (the unit tests take it smaller).
    arena_limit: usize,
    cancel: Option<Arc<AtomicBool>>,
    /// Set when another search of a race has answered ([`race`](super::race)).
    pub(super) race_over: Option<Arc<AtomicBool>>,
    /// Draws the starting scores' tie-breaks (0: ties go to the lower option).
    pub(super) seed: u64,
    stats: CoverStats,
}

impl CoverSolver {
    /// A solver for `problem`, with no limits.
    pub fn new(problem: &ExactCover) -> Self {
        let options = problem.options();
        let items = problem.items();
        let (item_start, item_options) =
            item_lists(items, &problem.option_start, &problem.option_items);
        CoverSolver {
            primary: problem.primary() as u32,
            option_start: problem.option_start.clone(),
            option_items: problem.option_items.clone(),
            full_primary: problem.primary() as u32,
            full_option_start: problem.option_start.clone(),
            full_option_items: problem.option_items.clone(),
            original: Vec::new(),
            root_chosen: Vec::new(),
            item_start: item_start.clone(),
            item_options: item_options.clone(),
            full_item_start: item_start,
            full_item_options: item_options,
            value: vec![UNSET; options],
            level: vec![0; options],
            reason: vec![Reason::Decision; options],
            phase: vec![true; options],
            target: vec![0; options],
            target_size: 0,
            trail: Vec::with_capacity(options),
            limits: Vec::new(),
            head: 0,
            live: vec![0; items],
            chosen: vec![NONE; items],
            // Each search sizes these for its options (`reset`, `compact`).
            clauses: Clauses::new(0),
            order: Order::new(0),
            seen: vec![false; options],
            learnt: Vec::new(),
            shrunk: Vec::new(),
            frames: Vec::new(),
            failed: vec![false; options],
            poisoned: Vec::new(),
            cleared: Vec::new(),
            antecedents: Vec::new(),
            level_stamp: Vec::new(),
            stamp: 0,
            time_limit: None,
            node_limit: None,
            restart_unit: RESTART_UNIT,
            first_reduce: FIRST_REDUCE,
            reduce_step: REDUCE_STEP,
            arena_limit: ARENA_LIMIT,
            cancel: None,
            race_over: None,
            seed: 0,
            stats: CoverStats::default(),
        }
    }

    /// Stops each search after this much time (`None`: no limit).
    pub fn set_time_limit(&mut self, limit: Option<Duration>) -> &mut Self {
        self.time_limit = limit;
        self
    }

    /// Stops each search after this many choices (`None`: no limit): a choice is this
    /// search's node.
    pub fn set_node_limit(&mut self, limit: Option<u64>) -> &mut Self {
        self.node_limit = limit;
        self
    }

    /// Stops each search soon after `flag` is set (`None`: no flag). The flag is read as
    /// often as the clock.
    pub fn set_cancel_flag(&mut self, flag: Option<Arc<AtomicBool>>) -> &mut Self {
        self.cancel = flag;
        self
    }

    /// Breaks the ties of the first choices at random, drawn from `seed`, in every search
    /// from now on; 0 (the default) breaks them by option number. A seed other than 0 also
    /// restarts a quarter as often (every 4,096 conflicts times the Luby sequence, against
    /// 1,024), so that its search differs from seed 0's in more than its first choices
    /// (`compare --bin large -- --search-seed K` weighs seeds on the same boards). Each
    /// seed gives its own search, as reproducible as the default one: on hard problems
    /// their times differ widely, which a race of several
    /// ([`cover::solve_raced`](super::solve_raced)) uses.
    pub fn set_seed(&mut self, seed: u64) -> &mut Self {
        self.seed = seed;
        self.restart_unit = if seed == 0 {
            RESTART_UNIT
        } else {
            SEEDED_RESTART_UNIT
        };
        self
    }

    /// What the latest search did.
    pub fn stats(&self) -> CoverStats {
        self.stats
    }

    /// Searches for a cover that includes every option of `forced`. Each search starts
    /// afresh: what one learned depends on its forced options.
    ///
    /// # Errors
    /// [`CoverError::UnknownOption`] for a forced option beyond the problem's;
    /// [`CoverError::OutOfClauseSpace`] if the clauses the search must keep outgrow their
    /// store.
    pub fn solve(&mut self, forced: &[usize]) -> Result<CoverOutcome, CoverError> {
        let started = self.start(forced)?;
        let outcome = match self.begin(forced, started) {
            Some(mut schedule) => self.search(&mut schedule),
            None => Ok(CoverOutcome::Unsatisfiable),
        };
        self.finish(started);
        outcome
    }

    /// Starts a search for a cover that includes every option of `forced`, as
    /// [`solve`](Self::solve) does, to be run a slice at a time by
    /// [`run_slice`](Self::run_slice).
    pub(super) fn start_slices(&mut self, forced: &[usize]) -> Result<Slices, CoverError> {
        let started = self.start(forced)?;
        let schedule = self.begin(forced, started);
        Ok(Slices { schedule, started })
    }

    /// Runs the search of `slices` on until it has made `until` conflicts in all
    /// (`None`: paused there, to go on at the next call) or until it ends as
    /// [`solve`](Self::solve) would have ended.
    pub(super) fn run_slice(
        &mut self,
        slices: &mut Slices,
        until: u64,
    ) -> Result<Option<CoverOutcome>, CoverError> {
        let outcome = match &mut slices.schedule {
            Some(schedule) => self.search_until(schedule, until),
            None => Ok(Some(CoverOutcome::Unsatisfiable)),
        };
        if !matches!(outcome, Ok(None)) {
            self.finish(slices.started);
        }
        outcome
    }

    /// Counts the covers that include every option of `forced`, stopping once `limit`
    /// have been found (`None`: count them all), and hands each one found to `each` (its
    /// chosen options, ascending). The limits stop the whole count, which is then a lower
    /// bound. After each cover the search learns a clause that rules out that cover alone
    /// and goes on from the level before its last choice, keeping everything learned so
    /// far. Those clauses are kept to the end, so memory grows with the number of covers
    /// counted: a large limit on a problem with many covers costs memory as well as time.
    ///
    /// ```
    /// use bitcsp::cover::{CoverSolver, ExactCover};
    /// use bitcsp::CountStatus;
    /// // Item 0 covered by option 0 or option 1: two covers.
    /// let mut problem = ExactCover::new(1, 0)?;
    /// problem.add_option(&[0])?;
    /// problem.add_option(&[0])?;
    /// let mut covers = Vec::new();
    /// let count = CoverSolver::new(&problem).count(&[], None, |c| covers.push(c.to_vec()))?;
    /// assert_eq!((count.count, count.status), (2, CountStatus::Complete));
    /// covers.sort();
    /// assert_eq!(covers, vec![vec![0], vec![1]]);
    /// # Ok::<(), bitcsp::cover::CoverError>(())
    /// ```
    ///
    /// # Errors
    /// [`CoverError::UnknownOption`] for a forced option beyond the problem's;
    /// [`CoverError::OutOfClauseSpace`] if the clauses the search must keep outgrow their
    /// store.
    pub fn count(
        &mut self,
        forced: &[usize],
        limit: Option<u64>,
        mut each: impl FnMut(&[usize]),
    ) -> Result<Count, CoverError> {
        let started = self.start(forced)?;
        let mut count = 0;
        let limit = limit.unwrap_or(u64::MAX);
        let status = self.count_covers(forced, limit, &mut each, &mut count, started);
        self.finish(started);
        Ok(Count {
            count,
            status: status?,
        })
    }

    /// The search of [`count`](Self::count), from a fresh start: `count` holds the covers
    /// found so far, whatever the end.
    fn count_covers(
        &mut self,
        forced: &[usize],
        limit: u64,
        each: &mut impl FnMut(&[usize]),
        count: &mut u64,
        started: Instant,
    ) -> Result<CountStatus, CoverError> {
        if limit == 0 {
            return Ok(CountStatus::LimitReached);
        }
        let Some(mut schedule) = self.begin(forced, started) else {
            return Ok(CountStatus::Complete);
        };
        loop {
            match self.search(&mut schedule)? {
                CoverOutcome::Solution(cover) => {
                    *count += 1;
                    each(&cover);
                    if *count >= limit {
                        return Ok(CountStatus::LimitReached);
                    }
                    if !self.rule_out_current() {
                        return Ok(CountStatus::Complete);
                    }
                    self.keep_arena_in_bounds()?;
                }
                CoverOutcome::Unsatisfiable => return Ok(CountStatus::Complete),
                CoverOutcome::Stopped(reason) => return Ok(CountStatus::Stopped(reason)),
            }
        }
    }

    /// Checks `forced` and starts afresh; returns the start time.
    fn start(&mut self, forced: &[usize]) -> Result<Instant, CoverError> {
        let options = self.full_option_start.len() - 1;
        if let Some(&option) = forced.iter().find(|&&o| o >= options) {
            return Err(CoverError::UnknownOption { option, options });
        }
        let started = Instant::now();
        self.reset();
        Ok(started)
    }

    /// Sets the root for `forced` and plans the search that began at `started`; `None`
    /// when the root already leaves no cover.
    fn begin(&mut self, forced: &[usize], started: Instant) -> Option<Schedule> {
        if !self.set_root(forced) {
            return None;
        }
        self.compact();
        Some(Schedule::new(self, started))
    }

    /// Completes the statistics of a search that began at `started`.
    fn finish(&mut self, started: Instant) {
        self.stats.learned = self.clauses.list.len() as u64;
        self.stats.elapsed = started.elapsed();
    }

    /// With a complete cover on the trail: adds the clause "not every choice made above
    /// the root", which only this cover breaks (the choices imply every other value), and
    /// goes back to the level before the last choice, where the clause undoes that choice,
    /// to look for another: the choices before it stay, so the next cover costs a few
    /// choices rather than a descent from the root. False when the cover has no choices
    /// (or the clause leaves nothing at the root): then no other cover exists.
    fn rule_out_current(&mut self) -> bool {
        // The last choice's negation first (the literal the clause sets), the one before
        // it second (false at the level the search goes back to): the two it watches.
        self.learnt.clear();
        self.learnt.extend(
            self.limits
                .iter()
                .rev()
                .map(|&at| negate(self.trail[at as usize])),
        );
        let Some(jump) = self.learnt.len().checked_sub(1) else {
            return false;
        };
        // LBD 0: a clause binding at every level, which clean-ups keep (`Clauses::reduce`).
        self.assert_learnt(jump as u32, 0);
        // A single choice's negation is set at the root: settle what it leaves there now.
        jump > 0 || self.propagate().is_none()
    }

    /// The problem as stated, every option unassigned, nothing learned, the counters
    /// full.
    fn reset(&mut self) {
        let options = self.full_option_start.len() - 1;
        self.primary = self.full_primary;
        self.option_start.clone_from(&self.full_option_start);
        self.option_items.clone_from(&self.full_option_items);
        self.item_start.clone_from(&self.full_item_start);
        self.item_options.clone_from(&self.full_item_options);
        self.original.clear();
        self.root_chosen.clear();
        self.clear_options(options);
        // No choice comes before `compact`, which orders the options left.
        self.order = Order::new(0);
        let items = self.full_item_start.len() - 1;
        self.live.resize(items, 0);
        for (item, live) in self.live.iter_mut().enumerate() {
            *live = self.item_start[item + 1] - self.item_start[item];
        }
        self.chosen.clear();
        self.chosen.resize(items, NONE);
        self.stats = CoverStats::default();
    }

    /// `options` options, every one unassigned, with nothing learned.
    pub(super) fn clear_options(&mut self, options: usize) {
        for values in [&mut self.value, &mut self.target] {
            values.clear();
            values.resize(options, UNSET);
        }
        self.level.resize(options, 0);
        self.reason.clear();
        self.reason.resize(options, Reason::Decision);
        self.phase.clear();
        self.phase.resize(options, true);
        for marks in [&mut self.seen, &mut self.failed] {
            marks.clear();
            marks.resize(options, false);
        }
        self.target_size = 0;
        self.trail.clear();
        self.limits.clear();
        self.head = 0;
        self.clauses = Clauses::new(options);
    }

    /// Searches on from the current state until a cover, a proof that none is left, or
    /// a stop; `schedule` carries the restart and clean-up plan from one cover to the
    /// next.
    fn search(&mut self, schedule: &mut Schedule) -> Result<CoverOutcome, CoverError> {
        // No search makes u64::MAX conflicts: this one never pauses.
        Ok(self
            .search_until(schedule, u64::MAX)?
            .unwrap_or(CoverOutcome::Stopped(StopReason::NodeLimit)))
    }

    /// [`search`](Self::search), paused (`None`) once the search has made `until`
    /// conflicts in all, in a state from which a later call goes on where it left off.
    fn search_until(
        &mut self,
        schedule: &mut Schedule,
        until: u64,
    ) -> Result<Option<CoverOutcome>, CoverError> {
        loop {
            if self.stats.conflicts >= until {
                return Ok(None);
            }
            // Checked before the first step too: a flag set beforehand stops at once.
            if schedule.steps % CHECK_EVERY == 0 {
                if let Some(reason) = self.should_stop(schedule.deadline) {
                    return Ok(Some(CoverOutcome::Stopped(reason)));
                }
            }
            schedule.steps += 1;
            let from = self.head;
            let clash = self.propagate();
            self.reward_set_since(from, clash.is_some());
            if let Some(clash) = clash {
                self.stats.conflicts += 1;
                if self.limits.is_empty() {
                    return Ok(Some(CoverOutcome::Unsatisfiable));
                }
                self.learn(clash);
                self.keep_arena_in_bounds()?;
                schedule.restart_in -= 1;
                if schedule.restart_in == 0 {
                    schedule.luby_index += 1;
                    schedule.restart_in = self.restart_unit * luby(schedule.luby_index);
                    self.restart();
                }
                if self.stats.conflicts >= schedule.next_reduce {
                    schedule.next_reduce += self.first_reduce
                        + self.reduce_step * self.stats.conflicts / self.first_reduce;
                    self.reduce();
                }
                continue;
            }
            let Some(lit) = self.next_choice() else {
                return Ok(Some(CoverOutcome::Solution(self.cover())));
            };
            if self.node_limit.is_some_and(|l| self.stats.decisions >= l) {
                return Ok(Some(CoverOutcome::Stopped(StopReason::NodeLimit)));
            }
            self.stats.decisions += 1;
            self.limits.push(self.trail.len() as u32);
            self.assign(lit, Reason::Decision);
        }
    }

    /// Rewards the options set from trail position `from` on, by the propagation that
    /// just ended in a conflict (`conflict`) or not ([`Order::reward`]).
    fn reward_set_since(&mut self, from: usize, conflict: bool) {
        for &lit in &self.trail[from..] {
            self.order.reward(option_of(lit), conflict);
        }
    }

    /// Sets the options that are the only ones of their item and the forced options, at
    /// the root; false when that already leaves no cover.
    fn set_root(&mut self, forced: &[usize]) -> bool {
        for item in 0..self.primary as usize {
            match self.live[item] {
                0 => return false,
                1 => {
                    let only = self.item_options[self.item_start[item] as usize];
                    if self.value[only as usize] == UNSET {
                        self.assign(2 * only, Reason::Last { item: item as u32 });
                    }
                }
                _ => {}
            }
        }
        if self.propagate().is_some() {
            return false;
        }
        for &o in forced {
            match self.value[o] {
                FALSE => return false,
                UNSET => self.assign(2 * o as u32, Reason::Decision),
                _ => {}
            }
            if self.propagate().is_some() {
                return false;
            }
        }
        true
    }

    /// Why the search must stop now, if it must: the cancellation flag, or the deadline.
    fn should_stop(&self, deadline: Option<Instant>) -> Option<StopReason> {
        let set = |flag: &Option<Arc<AtomicBool>>| {
            flag.as_ref().is_some_and(|f| f.load(Ordering::Relaxed))
        };
        if set(&self.cancel) || set(&self.race_over) {
            return Some(StopReason::Cancelled);
        }
        deadline
            .is_some_and(|d| Instant::now() >= d)
            .then_some(StopReason::TimeLimit)
    }

    /// The literal of the next choice: the unassigned option of highest score, in its target
    /// phase if it has one, else in its saved phase; `None` when every option has a value.
    fn next_choice(&mut self) -> Option<u32> {
        while let Some(o) = self.order.pop() {
            if self.value[o] == UNSET {
                let chosen = match self.target[o] {
                    TRUE => true,
                    FALSE => false,
                    _ => self.phase[o],
                };
                return Some(2 * o as u32 + u32::from(!chosen));
            }
        }
        None
    }

    /// The chosen options, ascending, numbered as stated.
    fn cover(&self) -> Vec<usize> {
        let mut chosen = self.root_chosen.clone();
        chosen.extend(
            (0..self.value.len())
                .filter(|&o| self.value[o] == TRUE)
                .map(|o| self.original[o] as usize),
        );
        chosen.sort_unstable();
        chosen
    }

    /// The current decision level.
    pub(super) fn decision_level(&self) -> u32 {
        self.limits.len() as u32
    }

    /// Makes `lit` true (its option must be unassigned).
    pub(super) fn assign(&mut self, lit: u32, reason: Reason) {
        let o = option_of(lit);
        debug_assert_eq!(self.value[o], UNSET);
        self.value[o] = if lit & 1 == 0 { TRUE } else { FALSE };
        self.level[o] = self.decision_level();
        self.reason[o] = reason;
        self.trail.push(lit);
    }

    /// The literal of option `o` that is false now (`o` is assigned).
    #[inline(always)]
    pub(super) fn false_literal(&self, o: usize) -> u32 {
        2 * o as u32 + u32::from(self.value[o] == TRUE)
    }

    pub(super) fn literal_value(&self, lit: u32) -> i8 {
        let v = self.value[option_of(lit)];
        if lit & 1 == 0 {
            v
        } else {
            -v
        }
    }

    /// Draws the consequences of every literal set and not yet drawn from, until none is
    /// left or something clashes.
    fn propagate(&mut self) -> Option<Clash> {
        while self.head < self.trail.len() {
            let lit = self.trail[self.head];
            self.head += 1;
            let o = option_of(lit);
            let clash = if lit & 1 == 0 {
                self.exclude_others(o)
            } else {
                self.count_out(o)
            };
            if clash.is_some() {
                return clash;
            }
            if let Some(clash) = self.visit_watches(negate(lit)) {
                return Some(clash);
            }
        }
        None
    }

    /// Chosen option `o` takes its items: every other option of them is out. All its
    /// items are taken before any clash is reported, so that undo gives back each one.
    fn exclude_others(&mut self, o: usize) -> Option<Clash> {
        let items = self.option_start[o] as usize..self.option_start[o + 1] as usize;
        for &item in &self.option_items[items.clone()] {
            debug_assert_eq!(self.chosen[item as usize], NONE);
            self.chosen[item as usize] = o as u32;
        }
        for k in items {
            let item = self.option_items[k] as usize;
            let others = self.item_start[item] as usize..self.item_start[item + 1] as usize;
            for j in others {
                let p = self.item_options[j];
                match self.value[p as usize] {
                    UNSET => self.assign(2 * p + 1, Reason::Excluded { by: o as u32 }),
                    TRUE if p as usize != o => return Some(Clash::Both(o as u32, p)),
                    _ => {}
                }
            }
        }
        None
    }

    /// Option `o` is out: each of its primary items left with one option takes it, and
    /// one left with none clashes. All its items count it before any clash is reported,
    /// so that undo gives back each count.
    fn count_out(&mut self, o: usize) -> Option<Clash> {
        let items = self.option_start[o] as usize..self.option_start[o + 1] as usize;
        for &item in &self.option_items[items.clone()] {
            self.live[item as usize] -= 1;
        }
        for k in items {
            let item = self.option_items[k] as usize;
            if item >= self.primary as usize || self.chosen[item] != NONE {
                continue;
            }
            match self.live[item] {
                0 => return Some(Clash::Empty(item as u32)),
                1 => {
                    let others = self.item_start[item] as usize..self.item_start[item + 1] as usize;
                    let last = self.item_options[others]
                        .iter()
                        .copied()
                        .find(|&q| self.value[q as usize] != FALSE);
                    // An option set out but not yet counted leaves none: the clash comes
                    // when it is counted.
                    if let Some(q) = last.filter(|&q| self.value[q as usize] == UNSET) {
                        self.assign(2 * q, Reason::Last { item: item as u32 });
                    }
                }
                _ => {}
            }
        }
        None
    }

    /// The learned clauses watching `false_lit`, which has just become false: each finds
    /// another literal to watch, sets its other watched literal, or clashes.
    fn visit_watches(&mut self, false_lit: u32) -> Option<Clash> {
        let mut watching = std::mem::take(&mut self.clauses.watches[false_lit as usize]);
        let mut kept = 0;
        let mut clash = None;
        let mut i = 0;
        while i < watching.len() {
            let watch = watching[i];
            i += 1;
            if self.literal_value(watch.blocker) == TRUE {
                watching[kept] = watch;
                kept += 1;
                continue;
            }
            let start = watch.start as usize;
            let len = self.clauses.len_at(watch.start) as usize;
            let lits = &mut self.clauses.lits[start..start + len];
            if lits[0] == false_lit {
                lits.swap(0, 1);
            }
            let first = lits[0];
            if self.literal_value(first) == TRUE {
                watching[kept] = Watch {
                    start: watch.start,
                    blocker: first,
                };
                kept += 1;
                continue;
            }
            let lits = &self.clauses.lits[start..start + len];
            let replacement = (2..lits.len()).find(|&k| self.literal_value(lits[k]) != FALSE);
            if let Some(k) = replacement {
                let lits = &mut self.clauses.lits[start..start + len];
                lits.swap(1, k);
                let new_watch = lits[1] as usize;
                self.clauses.watches[new_watch].push(Watch {
                    start: watch.start,
                    blocker: first,
                });
                continue;
            }
            watching[kept] = Watch {
                start: watch.start,
                blocker: first,
            };
            kept += 1;
            let c = self.clauses.index_at(watch.start);
            if self.literal_value(first) == FALSE {
                clash = Some(Clash::Clause(c));
                // Keep the rest of the watches as they are.
                while i < watching.len() {
                    watching[kept] = watching[i];
                    kept += 1;
                    i += 1;
                }
                break;
            }
            self.assign(first, Reason::Clause(c));
        }
        watching.truncate(kept);
        // Nothing was pushed to this list meanwhile: a clause moves its watch to a literal
        // that is not false, and this one is.
        debug_assert!(self.clauses.watches[false_lit as usize].is_empty());
        self.clauses.watches[false_lit as usize] = watching;
        clash
    }

    /// Undoes every level above `level`; the counters forget what they had counted.
    pub(super) fn backtrack(&mut self, level: u32) {
        if self.decision_level() <= level {
            return;
        }
        let stop = self.limits[level as usize] as usize;
        for at in (stop..self.trail.len()).rev() {
            let lit = self.trail[at];
            let o = option_of(lit);
            if at < self.head {
                let items = self.option_start[o] as usize..self.option_start[o + 1] as usize;
                for k in items {
                    let item = self.option_items[k] as usize;
                    if lit & 1 == 0 {
                        self.chosen[item] = NONE;
                    } else {
                        self.live[item] += 1;
                    }
                }
            }
            self.phase[o] = lit & 1 == 0;
            self.value[o] = UNSET;
            self.order.insert(o);
        }
        self.trail.truncate(stop);
        self.limits.truncate(level as usize);
        self.head = self.head.min(stop);
    }

    /// Learns from `clash`, jumps back to where the learned clause first applies, and sets
    /// its asserting literal there.
    fn learn(&mut self, clash: Clash) {
        self.update_target();
        let (jump, lbd) = self.analyze(clash);
        self.assert_learnt(jump, lbd);
        self.order.after_conflict();
        self.clauses.decay();
    }

    /// Goes back to `level`, where the clause in `learnt` (its first literal the one it
    /// sets, its second false at `level`) binds, keeps it with `lbd` (a single literal is
    /// a fact of the root) and sets its first literal.
    fn assert_learnt(&mut self, level: u32, lbd: u32) {
        self.backtrack(level);
        let asserting = self.learnt[0];
        if self.learnt.len() == 1 {
            self.assign(asserting, Reason::Decision);
        } else {
            let learnt = std::mem::take(&mut self.learnt);
            let c = self.clauses.add(&learnt, lbd);
            self.learnt = learnt;
            self.assign(asserting, Reason::Clause(c));
        }
    }

    /// At a conflict: if the trail before the failing level is the longest one without a
    /// conflict since the last restart, its values become the target phases, which later
    /// choices follow. The search then keeps returning to the largest consistent partial
    /// cover it has found and extends it, rather than wandering off with every conflict
    /// (as CaDiCaL's stable mode does).
    fn update_target(&mut self) {
        let clean = self.limits.last().map_or(0, |&start| start as usize);
        if clean <= self.target_size {
            return;
        }
        self.target_size = clean;
        for &lit in &self.trail[..clean] {
            self.target[option_of(lit)] = if lit & 1 == 0 { TRUE } else { FALSE };
        }
    }

    /// Back to the root, keeping what was learned; the target phases stay as guides, and
    /// the next trail longer than nothing replaces them.
    fn restart(&mut self) {
        self.stats.restarts += 1;
        self.target_size = 0;
        self.backtrack(0);
    }

    /// Cleans up at once when the clause arena passes [`ARENA_LIMIT`] words, and gives
    /// up if the clauses that must stay still fill it.
    fn keep_arena_in_bounds(&mut self) -> Result<(), CoverError> {
        if self.clauses.lits.len() > self.arena_limit {
            self.reduce();
            if self.clauses.lits.len() > self.arena_limit {
                return Err(CoverError::OutOfClauseSpace {
                    max: self.arena_limit,
                });
            }
        }
        Ok(())
    }

    /// Drops about half of the learned clauses (see [`Clauses::reduce`]).
    fn reduce(&mut self) {
        let mut locked = vec![false; self.clauses.list.len()];
        for &lit in &self.trail {
            if let Reason::Clause(c) = self.reason[option_of(lit)] {
                locked[c as usize] = true;
            }
        }
        let renumber = self.clauses.reduce(|c| locked[c as usize]);
        for &lit in &self.trail {
            let o = option_of(lit);
            if let Reason::Clause(c) = self.reason[o] {
                self.reason[o] = Reason::Clause(renumber[c as usize]);
            }
        }
    }
}

/// Each item's options, ascending, as compressed rows (`starts`, then the options), from
/// each option's items.
pub(super) fn item_lists(
    items: usize,
    option_start: &[u32],
    option_items: &[u32],
) -> (Vec<u32>, Vec<u32>) {
    // Entries fit u32: see ExactCover::add_option.
    let mut start = vec![0u32; items + 1];
    for &i in option_items {
        start[i as usize + 1] += 1;
    }
    for i in 0..items {
        start[i + 1] += start[i];
    }
    let mut next = start.clone();
    let mut options = vec![0u32; option_items.len()];
    for o in 0..option_start.len() - 1 {
        for &item in &option_items[option_start[o] as usize..option_start[o + 1] as usize] {
            options[next[item as usize] as usize] = o as u32;
            next[item as usize] += 1;
        }
    }
    (start, options)
}

/// A search of [`CoverSolver::solve`] run a slice at a time ([`CoverSolver::run_slice`]):
/// its plan, or `None` when the root already leaves no cover, and when it began.
pub(super) struct Slices {
    schedule: Option<Schedule>,
    started: Instant,
}

/// When a search restarts, cleans up and reads the clock: carried from one cover to the
/// next while counting.
struct Schedule {
    deadline: Option<Instant>,
    restart_in: u64,
    luby_index: u64,
    next_reduce: u64,
    steps: u64,
}

impl Schedule {
    fn new(solver: &CoverSolver, started: Instant) -> Self {
        Schedule {
            deadline: solver.time_limit.and_then(|t| started.checked_add(t)),
            restart_in: solver.restart_unit * luby(0),
            luby_index: 0,
            next_reduce: solver.first_reduce,
            steps: 0,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Restarts after every conflict or two and a clean-up every two conflicts, so that
    /// small searches go through both.
    fn hasty(problem: &ExactCover) -> CoverSolver {
        let mut solver = CoverSolver::new(problem);
        solver.restart_unit = 1;
        solver.first_reduce = 2;
        solver.reduce_step = 0;
        solver
    }

    /// Domino tilings of a `w`×`h` board without the `holes`: every square left is a
    /// primary item, every domino on two of them an option.
    fn dominoes(w: usize, h: usize, holes: &[usize]) -> (ExactCover, Vec<usize>) {
        let mut index = vec![usize::MAX; w * h];
        let mut squares = Vec::new();
        for sq in (0..w * h).filter(|sq| !holes.contains(sq)) {
            index[sq] = squares.len();
            squares.push(sq);
        }
        let mut problem = ExactCover::new(squares.len(), 0).expect("a small board");
        for &sq in &squares {
            let (x, y) = (sq % w, sq / w);
            for other in [(x + 1 < w).then_some(sq + 1), (y + 1 < h).then_some(sq + w)] {
                if let Some(o) = other.filter(|&o| index[o] != usize::MAX) {
                    problem.add_option(&[index[sq], index[o]]).expect("valid");
                }
            }
        }
        (problem, squares)
    }

    /// Whether the squares of a board have a perfect matching of neighbours (a tiling),
    /// by augmenting paths from the squares of one colour.
    fn tiles(w: usize, squares: &[usize]) -> bool {
        let neighbours = |a: usize, b: usize| {
            let (ax, ay, bx, by) = (a % w, a / w, b % w, b / w);
            ax.abs_diff(bx) + ay.abs_diff(by) == 1
        };
        let (black, white): (Vec<usize>, Vec<usize>) =
            squares.iter().partition(|&&sq| (sq % w + sq / w) % 2 == 0);
        if black.len() != white.len() {
            return false;
        }
        let mut partner = vec![usize::MAX; white.len()];
        fn augment(
            b: usize,
            black: &[usize],
            white: &[usize],
            partner: &mut [usize],
            visited: &mut [bool],
            neighbours: &dyn Fn(usize, usize) -> bool,
        ) -> bool {
            for j in 0..white.len() {
                if visited[j] || !neighbours(black[b], white[j]) {
                    continue;
                }
                visited[j] = true;
                if partner[j] == usize::MAX
                    || augment(partner[j], black, white, partner, visited, neighbours)
                {
                    partner[j] = b;
                    return true;
                }
            }
            false
        }
        (0..black.len()).all(|b| {
            let mut visited = vec![false; white.len()];
            augment(b, &black, &white, &mut partner, &mut visited, &neighbours)
        })
    }

    #[test]
    fn restarts_and_clean_ups_keep_the_answers_of_a_matching() {
        let mut random = crate::xorshift::XorShift(0x5DEE_CE66_D1CE_4E5B);
        let (mut tiled, mut untiled, mut long) = (0, 0, 0);
        for case in 0..300 {
            let (w, h) = (4 + random.below(4), 4 + random.below(4));
            let holes: Vec<usize> = (0..random.below(7)).map(|_| random.below(w * h)).collect();
            let (problem, squares) = dominoes(w, h, &holes);
            let mut solver = hasty(&problem);
            let outcome = solver.solve(&[]).expect("nothing forced");
            long += u32::from(solver.stats().conflicts >= 20);
            match outcome {
                CoverOutcome::Solution(chosen) => {
                    assert!(problem.is_cover(&chosen), "case {case}");
                    assert!(tiles(w, &squares), "case {case}: no perfect matching");
                    tiled += 1;
                }
                CoverOutcome::Unsatisfiable => {
                    assert!(
                        !tiles(w, &squares),
                        "case {case}: a perfect matching exists"
                    );
                    untiled += 1;
                }
                CoverOutcome::Stopped(_) => panic!("case {case}: no limit was set"),
            }
        }
        assert!(
            tiled > 30 && untiled > 30 && long > 20,
            "{tiled} / {untiled} / {long}"
        );
    }

    #[test]
    fn mutilated_boards_have_no_tiling() {
        // Two opposite corners gone: two squares of one colour fewer, which no search
        // sees; the learned clauses must add up to that.
        for n in [4, 6] {
            let (problem, _) = dominoes(n, n, &[0, n * n - 1]);
            let mut solver = hasty(&problem);
            assert_eq!(solver.solve(&[]), Ok(CoverOutcome::Unsatisfiable));
            assert!(solver.stats().restarts > 0);
            let (problem, _) = dominoes(n, n, &[0, n * n - 2]);
            match CoverSolver::new(&problem).solve(&[]) {
                Ok(CoverOutcome::Solution(chosen)) => assert!(problem.is_cover(&chosen)),
                other => panic!("expected a tiling, got {other:?}"),
            }
        }
    }

    #[test]
    fn counts_survive_restarts_and_clean_ups() {
        // Domino tilings: 36 of the 4×4 board, 6,728 of the 6×6 (OEIS A004003), 153 of
        // the 3×8 (OEIS A001835: 1, 3, 11, 41, 153). Every cover is ruled out by a
        // clause that clean-ups must keep, or a tiling would be counted twice.
        for (w, h, tilings) in [(4, 4, 36), (6, 6, 6728), (8, 3, 153)] {
            let (problem, _) = dominoes(w, h, &[]);
            let mut found = std::collections::HashSet::new();
            let count = hasty(&problem)
                .count(&[], None, |c| assert!(found.insert(c.to_vec())))
                .expect("no forced option");
            assert_eq!(
                (count.count, count.status),
                (tilings, CountStatus::Complete)
            );
            assert!(found.iter().all(|c| problem.is_cover(c)));
        }
    }

    #[test]
    fn a_full_clause_store_is_cleaned_up_at_once_or_given_up_with_an_error() {
        // Stores of a few hundred and a thousand words: the clean-ups they force keep the
        // answers right.
        let (problem, _) = dominoes(6, 6, &[]);
        let mut solver = hasty(&problem);
        solver.first_reduce = u64::MAX;
        solver.arena_limit = 300;
        let count = solver.count(&[], Some(5), |c| assert!(problem.is_cover(c)));
        assert_eq!(
            count.map(|c| (c.count, c.status)),
            Ok((5, CountStatus::LimitReached))
        );
        let (mutilated, _) = dominoes(8, 8, &[0, 63]);
        let mut solver = hasty(&mutilated);
        solver.first_reduce = u64::MAX;
        solver.arena_limit = 1000;
        assert_eq!(solver.solve(&[]), Ok(CoverOutcome::Unsatisfiable));
        // Far more conflicts than the 200 clauses of five words or more the store holds,
        // and no scheduled clean-up: the forced ones kept it within bounds.
        let stats = solver.stats();
        assert!(stats.conflicts > 400 && stats.learned <= 200, "{stats:?}");
        // A count keeps a clause per tiling: all 6,728 of them do not fit.
        let mut solver = hasty(&problem);
        solver.arena_limit = 3000;
        assert_eq!(
            solver.count(&[], None, |_| {}),
            Err(CoverError::OutOfClauseSpace { max: 3000 })
        );
    }
}
