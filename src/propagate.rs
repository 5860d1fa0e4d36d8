//! Propagation to a fixed point: the queue of constraints to run, the watch lists that wake
//! them, and [`Engine`], the state every propagator reads and narrows.
//!
//! A constraint sits in the queue at most once. It is woken by the domain changes of its
//! variables: "any change" watchers (all-different, whose hidden-single rule looks at every
//! value) and "fixed" watchers (not-equal, which can only act on a fixed variable). Every
//! propagator here reaches its own fixed point in one run, so the change it makes does not
//! wake itself again.

use std::sync::Arc;

use crate::bits::{is_single, range_word, set_bits};
use crate::difference_cycles::{negative_cycle, Difference};
use crate::interrupt::Interruption;
use crate::store::Store;

/// A constraint can no longer be satisfied (a domain became empty): the current search
/// node has no solution. Propagators return it with `?`; the search backtracks.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Conflict;

/// The contract between the engine and a propagator, as the engine sees it. The
/// propagators of `constraints/` implement it through their enum, so the engine is
/// compiled for that one type and calls them without dynamic dispatch.
///
/// A propagator may assume that its variables' domains are those the engine holds when it
/// runs, and must guarantee that:
/// - it never removes a value that belongs to a solution of its constraint within the
///   current domains (soundness);
/// - it reports a constraint that can no longer hold as `Err(Conflict)`, and fails on an
///   assignment of its variables that breaks it (so the search never accepts one);
/// - it narrows domains only through the engine, which records the changes for undo and
///   wakes the other watchers.
///
/// It must leave its own fixed point: the engine does not wake the running propagator for
/// its own writes. (User propagators get this from their wrapper, which runs them again
/// until a run narrows nothing; see `constraints/custom.rs`.)
pub(crate) trait Propagate {
    /// The variables it watches, as store indices.
    fn vars(&self) -> &[usize];
    /// Which changes of its variables wake it.
    fn event(&self) -> Event;
    /// Whether it runs only after the cheap propagators have settled.
    fn is_costly(&self) -> bool;
    /// Whether it reads which of its variables others changed since it last ran
    /// ([`Engine::store_and_changes`]).
    fn keeps_changes(&self) -> bool;
    /// Narrows the domains of its variables.
    fn propagate(&self, engine: &mut Engine, scratch: &mut [u64]) -> Result<(), Conflict>;
    /// Adds to `out` the differences it implies in the current domains, as constraint
    /// `source` (see `difference_cycles`).
    fn differences(&self, engine: &mut Engine, source: u32, out: &mut Vec<Difference>);
}

/// What a constraint must hear about a variable.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Event {
    /// Any removal of a value.
    Change,
    /// A change of the smallest or largest value (a variable becoming fixed included):
    /// for constraints that reason on bounds only, which values leaving the inside of a
    /// domain cannot wake (Gecode's `PC_INT_BND`).
    Bounds,
    /// Only the variable becoming fixed.
    Fix,
}

/// Runs of one propagation beyond which it checks for a cycle of differences
/// ([`Engine::propagate`]), with as many again per constraint: a fixed point of a model
/// seldom takes more than a few runs per constraint, and the check reads every constraint
/// once.
const CREEP_RUNS: u64 = 10_000;
const CREEP_RUNS_PER_CONSTRAINT: u64 = 8;

const NO_CONSTRAINT: u32 = u32::MAX;
/// Never the running constraint.
const MANY_CONSTRAINTS: u32 = u32::MAX - 1;

/// A ring of constraint indices with one slot per constraint.
#[derive(Clone, Debug)]
struct Ring {
    slots: Vec<u32>,
    head: usize,
    len: usize,
}

impl Ring {
    fn new(capacity: usize) -> Self {
        Ring {
            slots: vec![0; capacity.max(1)],
            head: 0,
            len: 0,
        }
    }

    #[inline]
    fn push(&mut self, c: u32) {
        let mut tail = self.head + self.len;
        if tail >= self.slots.len() {
            tail -= self.slots.len();
        }
        self.slots[tail] = c;
        self.len += 1;
    }

    #[inline]
    fn pop(&mut self) -> Option<u32> {
        if self.len == 0 {
            return None;
        }
        let c = self.slots[self.head];
        self.head += 1;
        if self.head == self.slots.len() {
            self.head = 0;
        }
        self.len -= 1;
        Some(c)
    }
}

/// The constraints waiting to run, each at most once, in two priorities: cheap propagators
/// run first, and the costlier ones (reasoning across groups) only once the cheap ones have
/// settled, so they see a state that is already narrowed instead of running again and
/// again on intermediate ones (Gecode orders its propagators by cost the same way). Rings of
/// one slot per constraint never overflow and never allocate during search.
#[derive(Clone, Debug)]
struct Queue {
    cheap: Ring,
    costly: Ring,
    queued: Vec<bool>,
    is_costly: Vec<bool>,
}

impl Queue {
    fn new<P: Propagate>(constraints: &[P]) -> Self {
        Queue {
            cheap: Ring::new(constraints.len()),
            costly: Ring::new(constraints.len()),
            queued: vec![false; constraints.len()],
            is_costly: constraints.iter().map(P::is_costly).collect(),
        }
    }

    #[inline]
    fn push(&mut self, c: u32) {
        let i = c as usize;
        if !self.queued[i] {
            self.queued[i] = true;
            if self.is_costly[i] {
                self.costly.push(c);
            } else {
                self.cheap.push(c);
            }
        }
    }

    #[inline]
    fn pop(&mut self) -> Option<u32> {
        let c = self.cheap.pop().or_else(|| self.costly.pop())?;
        self.queued[c as usize] = false;
        Some(c)
    }

    fn clear(&mut self) {
        while self.pop().is_some() {}
    }
}

/// For each variable, the constraints to wake on a change, on a change of its bounds and
/// on a fix (compressed rows).
#[derive(Clone, Debug)]
pub(crate) struct Watchers {
    change_start: Vec<u32>,
    change: Vec<u32>,
    bound_start: Vec<u32>,
    bound: Vec<u32>,
    fix_start: Vec<u32>,
    fix: Vec<u32>,
    /// For each variable, the one constraint watching it if only one does,
    /// `NO_CONSTRAINT` if none does, `MANY_CONSTRAINTS` otherwise: a family writing back
    /// its own variables then wakes nobody, and the check costs one load instead of a
    /// walk over the watch lists.
    sole: Vec<u32>,
    /// Parallel to `change`: the variable's index inside the watching constraint when
    /// that constraint keeps a list of its changed variables (a family), else `UNTRACKED`.
    change_local: Vec<u32>,
    /// For each constraint, where its changed-variable bitset starts in `Engine::changes`
    /// (compressed rows; empty for constraints that keep none).
    changes_start: Vec<u32>,
    /// For each constraint that keeps one, how many variables it tracks.
    tracked: Vec<u32>,
    /// For each constraint, whether it is the only watcher of every one of its variables
    /// (then its own writes wake nobody).
    alone: Vec<bool>,
    /// For each variable watched by exactly one constraint, on changes: that constraint,
    /// where the variable's bit lies in `Engine::changes` (`UNTRACKED` if nowhere) and
    /// which bit; `NO_CONSTRAINT` first for the other variables.
    single_change: Vec<SingleWatch>,
    /// Where the bitset of disposed constraints starts in the store (bit `c % 64` of word
    /// `c / 64` for constraint `c`), or `NO_DISPOSALS` when no constraint disposes of
    /// itself. See [`Engine::dispose_current`].
    disposed_from: u32,
}

/// `Watchers::disposed_from` of a model whose constraints never dispose of themselves.
const NO_DISPOSALS: u32 = u32::MAX;

/// The one constraint that watches a variable's changes, when only one does.
#[derive(Clone, Copy, Debug)]
struct SingleWatch {
    /// The constraint, or `NO_CONSTRAINT`.
    constraint: u32,
    /// The word of `Engine::changes` holding the variable's bit, or `UNTRACKED`.
    word: u32,
    /// The variable's bit in that word.
    bit: u32,
}

/// `change_local` entry of a constraint that keeps no list of changed variables.
const UNTRACKED: u32 = u32::MAX;

impl Watchers {
    /// The watch lists of `constraints` over `num_vars` variables; `disposed_from` is the
    /// store index of the words of disposed constraints, if any constraint disposes of
    /// itself (one bit per constraint).
    pub(crate) fn new<P: Propagate>(
        num_vars: usize,
        constraints: &[P],
        disposed_from: Option<u32>,
    ) -> Self {
        // Rows laid out flat in two passes (count, then fill in constraint order), not
        // grown one vector per variable: a model with many small constraints (a killer
        // Sudoku per puzzle) builds them once per solver.
        let mut change_start = vec![0u32; num_vars + 1];
        let mut bound_start = vec![0u32; num_vars + 1];
        let mut fix_start = vec![0u32; num_vars + 1];
        let mut tracked = Vec::with_capacity(constraints.len());
        for constraint in constraints {
            let keeps_changes = constraint.keeps_changes();
            let vars = constraint.vars();
            tracked.push(if keeps_changes { vars.len() as u32 } else { 0 });
            let counts = match constraint.event() {
                Event::Change => &mut change_start,
                Event::Bounds => &mut bound_start,
                Event::Fix => &mut fix_start,
            };
            for &v in vars {
                counts[v + 1] += 1;
            }
        }
        for starts in [&mut change_start, &mut bound_start, &mut fix_start] {
            for v in 0..num_vars {
                starts[v + 1] += starts[v];
            }
        }
        let mut change = vec![0u32; change_start[num_vars] as usize];
        let mut change_local = vec![0u32; change.len()];
        let mut bound = vec![0u32; bound_start[num_vars] as usize];
        let mut fix = vec![0u32; fix_start[num_vars] as usize];
        let mut change_next = change_start.clone();
        let mut bound_next = bound_start.clone();
        let mut fix_next = fix_start.clone();
        for (c, constraint) in constraints.iter().enumerate() {
            let keeps_changes = constraint.keeps_changes();
            let event = constraint.event();
            for (local, &v) in constraint.vars().iter().enumerate() {
                match event {
                    Event::Change => {
                        let at = change_next[v] as usize;
                        change_next[v] += 1;
                        change[at] = c as u32;
                        change_local[at] = if keeps_changes {
                            local as u32
                        } else {
                            UNTRACKED
                        };
                    }
                    Event::Bounds => {
                        let at = bound_next[v] as usize;
                        bound_next[v] += 1;
                        bound[at] = c as u32;
                    }
                    Event::Fix => {
                        let at = fix_next[v] as usize;
                        fix_next[v] += 1;
                        fix[at] = c as u32;
                    }
                }
            }
        }
        let mut changes_start = vec![0u32];
        for &t in &tracked {
            let last = changes_start.last().copied().unwrap_or(0);
            changes_start.push(last + t.div_ceil(64));
        }
        // Each variable's sole watcher and its single change watch, in one pass.
        let mut sole = Vec::with_capacity(num_vars);
        let mut single_change = Vec::with_capacity(num_vars);
        let rows = change_start
            .windows(2)
            .zip(bound_start.windows(2))
            .zip(fix_start.windows(2));
        for ((c, b), f) in rows {
            let from = c[0] as usize;
            let (changes, bounds, fixes) = (c[1] - c[0], b[1] - b[0], f[1] - f[0]);
            sole.push(match (changes, bounds, fixes) {
                (1, 0, 0) => change[from],
                (0, 1, 0) => bound[b[0] as usize],
                (0, 0, 1) => fix[f[0] as usize],
                (0, 0, 0) => NO_CONSTRAINT,
                _ => MANY_CONSTRAINTS,
            });
            single_change.push(match (changes, bounds, fixes) {
                (1, 0, 0) => {
                    let (only, local) = (change[from], change_local[from]);
                    let (word, bit) = if local == UNTRACKED {
                        (UNTRACKED, 0)
                    } else {
                        (changes_start[only as usize] + local / 64, local % 64)
                    };
                    SingleWatch {
                        constraint: only,
                        word,
                        bit,
                    }
                }
                _ => SingleWatch {
                    constraint: NO_CONSTRAINT,
                    word: UNTRACKED,
                    bit: 0,
                },
            });
        }
        let alone = constraints
            .iter()
            .enumerate()
            .map(|(c, constraint)| constraint.vars().iter().all(|&v| sole[v] == c as u32))
            .collect();
        Watchers {
            single_change,
            alone,
            change_local,
            changes_start,
            tracked,
            sole,
            change_start,
            change,
            bound_start,
            bound,
            fix_start,
            fix,
            disposed_from: disposed_from.unwrap_or(NO_DISPOSALS),
        }
    }
}

/// The search state seen by propagators: domains plus the machinery that reacts to their
/// changes. Domain-narrowing methods return `Err(Conflict)` when a domain becomes empty.
#[derive(Clone, Debug)]
pub(crate) struct Engine {
    pub(crate) store: Store,
    queue: Queue,
    watchers: Arc<Watchers>,
    current: u32,
    /// The constraint whose run failed last (`NO_CONSTRAINT` before any failure), for
    /// heuristics that learn from conflicts.
    failed: u32,
    /// Number of propagator runs since the last reset.
    pub(crate) propagations: u64,
    /// For each constraint that keeps one (a family), the bitset of its variables changed
    /// by others since it last ran; rows at `Watchers::changes_start`. A backtrack restores
    /// domains to a state the constraint had already seen settled, so undo adds nothing;
    /// a row may hold changes since undone, which only costs a second look.
    changes: Vec<u64>,
    /// Read between propagator runs: a search's limits stop a propagation in its middle.
    pub(crate) interruption: Interruption,
}

impl Engine {
    /// An engine over `store` for `constraints`, watched through `watchers`.
    pub(crate) fn new<P: Propagate>(
        store: Store,
        constraints: &[P],
        watchers: Arc<Watchers>,
    ) -> Self {
        let changes = vec![0; watchers.changes_start.last().copied().unwrap_or(0) as usize];
        let mut engine = Engine {
            watchers,
            queue: Queue::new(constraints),
            store,
            current: NO_CONSTRAINT,
            failed: NO_CONSTRAINT,
            propagations: 0,
            changes,
            interruption: Interruption::default(),
        };
        engine.mark_all_changed();
        engine
    }

    /// Every tracked variable counts as changed (nothing has been seen yet).
    fn mark_all_changed(&mut self) {
        let w = &self.watchers;
        for (c, &t) in w.tracked.iter().enumerate() {
            let row =
                &mut self.changes[w.changes_start[c] as usize..w.changes_start[c + 1] as usize];
            for (k, word) in row.iter_mut().enumerate() {
                let bits = (t as usize).saturating_sub(k * 64).min(64);
                *word = if bits == 64 {
                    u64::MAX
                } else {
                    (1u64 << bits) - 1
                };
            }
        }
    }

    /// Back to the initial domains with every constraint queued.
    pub(crate) fn reset(&mut self) {
        self.store.reset();
        self.queue.clear();
        for c in 0..self.queue.queued.len() {
            self.queue.push(c as u32);
        }
        self.propagations = 0;
        self.failed = NO_CONSTRAINT;
        self.mark_all_changed();
    }

    /// The store, and the running constraint's bitset of variables changed by others since
    /// it last ran (by position in its own variable list), which it clears as it reads.
    pub(crate) fn store_and_changes(&mut self) -> (&Store, &mut [u64]) {
        let c = self.current as usize;
        let w = &self.watchers;
        let range = match (w.changes_start.get(c), w.changes_start.get(c + 1)) {
            (Some(&from), Some(&to)) => from as usize..to as usize,
            _ => 0..0,
        };
        (&self.store, &mut self.changes[range])
    }

    /// Moves the running constraint's bitset of variables changed by others since it last
    /// ran into `into` (as long as that bitset), clearing it.
    pub(crate) fn take_changes(&mut self, into: &mut [u64]) {
        let (_, changes) = self.store_and_changes();
        into.copy_from_slice(changes);
        changes.iter_mut().for_each(|w| *w = 0);
    }

    /// Runs queued constraints until none is left (a fixed point) or one fails.
    /// `scratch` is working memory for the propagators, at least as long as the largest
    /// scratch space a propagator asks for. An armed [`Interruption`] that says stop ends
    /// the propagation with a conflict too, which is none (see
    /// [`Interruption::stopped`]).
    pub(crate) fn propagate(
        &mut self,
        constraints: &[impl Propagate],
        scratch: &mut [u64],
    ) -> Result<(), Conflict> {
        let mut result = Ok(());
        self.interruption.begin();
        // A propagation this long, for the model's size, may be bounds creeping around a
        // cycle of differences; the check runs again after twice as many runs each time.
        let mut gap = CREEP_RUNS + CREEP_RUNS_PER_CONSTRAINT * constraints.len() as u64;
        let mut check_at = self.propagations + gap;
        while let Some(c) = self.queue.pop() {
            self.current = c;
            self.propagations += 1;
            if let Err(conflict) = constraints[c as usize].propagate(self, scratch) {
                self.failed = c;
                self.queue.clear();
                result = Err(conflict);
                break;
            }
            if self.propagations == check_at {
                gap = gap.saturating_mul(2);
                check_at = check_at.saturating_add(gap);
                if let Some(source) = self.difference_cycle(constraints) {
                    self.failed = source;
                    self.queue.clear();
                    result = Err(Conflict);
                    break;
                }
            }
            if self.interruption.tick() {
                self.queue.clear();
                result = Err(Conflict);
                break;
            }
        }
        self.current = NO_CONSTRAINT;
        result
    }

    /// A constraint on a cycle of differences that adds up below zero, if the
    /// differences the constraints imply in the current domains hold one.
    #[cold]
    #[inline(never)]
    fn difference_cycle(&mut self, constraints: &[impl Propagate]) -> Option<u32> {
        let mut differences = Vec::new();
        for (c, constraint) in constraints.iter().enumerate() {
            constraint.differences(self, c as u32, &mut differences);
        }
        negative_cycle(&differences)
    }

    /// The constraint whose run failed since the last call, if any (cleared by the call).
    pub(crate) fn take_failed(&mut self) -> Option<usize> {
        let failed = std::mem::replace(&mut self.failed, NO_CONSTRAINT);
        (failed != NO_CONSTRAINT).then_some(failed as usize)
    }

    /// Drops whatever is queued (after a conflict found outside [`Engine::propagate`]).
    pub(crate) fn abandon_queue(&mut self) {
        self.queue.clear();
        self.current = NO_CONSTRAINT;
    }

    /// Replaces the one-word domain of `var` by `new` (a subset of it) and wakes watchers.
    #[inline]
    pub(crate) fn set_one_word(&mut self, var: usize, new: u64) -> Result<(), Conflict> {
        let index = self.store.layout(var).start as usize;
        self.set_word(var, index, new)
    }

    /// Sets the word at flat `index` (the one word of a one-word `var`) to `new`, a subset of
    /// it, waking the watchers of `var` when it changed.
    #[inline]
    pub(crate) fn set_word(&mut self, var: usize, index: usize, new: u64) -> Result<(), Conflict> {
        if new == 0 {
            return Err(Conflict);
        }
        self.write_back(var, index, new);
        Ok(())
    }

    /// True when the running constraint is the only watcher of all its variables.
    #[inline]
    pub(crate) fn watches_alone(&self) -> bool {
        self.watchers
            .alone
            .get(self.current as usize)
            .copied()
            .unwrap_or(false)
    }

    /// [`Engine::set_word`] for a `new` word known not to be empty.
    #[inline(always)]
    fn write_back(&mut self, var: usize, index: usize, new: u64) {
        debug_assert!(new != 0, "write_back takes non-empty words only");
        debug_assert!(
            self.store.layout(var).len == 1,
            "write_back takes one-word domains"
        );
        let old = self.store.write_at(index, new);
        if old != new && self.watchers.sole[var] != self.current {
            self.wake(var, is_single(new), || takes_an_end(&[old], |_| old & !new));
        }
    }

    /// Writes `masks[i]` to the one-word domain of `vars[i]` (at store index `words[i]`)
    /// for every `i` set in the bitset `changed`, waking watchers: how a family whose
    /// cells others watch too hands its results back. Outlined, so that the wake-ups do
    /// not weigh on how the family's own loops are compiled.
    #[inline(never)]
    pub(crate) fn write_back_changed(
        &mut self,
        vars: &[usize],
        words: &[u32],
        masks: &[u64],
        changed: &[u64],
    ) {
        for (k, &bits) in changed.iter().enumerate() {
            for i in set_bits(bits).map(|b| k * 64 + b) {
                // Never empty: a run fails as soon as a cell empties.
                self.write_back(vars[i], words[i] as usize, masks[i]);
            }
        }
    }

    /// Intersects word `k` of `var` with `keep` without waking anyone; the caller calls
    /// [`Engine::changed`] once all words are written. Returns true when the word changed.
    #[inline]
    pub(crate) fn narrow_word_quietly(&mut self, var: usize, k: usize, keep: u64) -> bool {
        let old = self.store.words(var)[k];
        let new = old & keep;
        if new != old {
            self.store
                .write_at(self.store.layout(var).start as usize + k, new);
            true
        } else {
            false
        }
    }

    /// Marks the running constraint as entailed by the domains as they stand: no change of
    /// its variables wakes it again until the search backtracks above this point (the mark
    /// is a store bit, undone with the domains). Gecode calls this subsumption. The mark
    /// is read where a variable's watch list is walked; a variable's sole watcher is woken
    /// without looking at it, which is harmless: a run of an entailed constraint changes
    /// nothing.
    pub(crate) fn dispose_current(&mut self) {
        let c = self.current;
        if self.watchers.disposed_from == NO_DISPOSALS || c >= MANY_CONSTRAINTS {
            return;
        }
        let (at, bit) = self.disposal_bit(c);
        let word = self.store.word_at(at);
        self.store.write_at(at, word | bit);
    }

    /// Whether constraint `c` disposed of itself ([`Engine::dispose_current`]) above
    /// the current point of the search, in a model with disposals.
    #[inline]
    fn is_disposed(&self, c: u32) -> bool {
        let (at, bit) = self.disposal_bit(c);
        self.store.word_at(at) & bit != 0
    }

    /// The store word and bit that mark constraint `c` disposed of.
    #[inline]
    fn disposal_bit(&self, c: u32) -> (usize, u64) {
        let at = self.watchers.disposed_from as usize + c as usize / 64;
        (at, 1 << (c % 64))
    }

    /// Reports that `var` lost values, some of them possibly its smallest or largest:
    /// fails when it is empty, else wakes its watchers.
    #[inline]
    pub(crate) fn changed(&mut self, var: usize) -> Result<(), Conflict> {
        self.changed_knowing_ends(var, true)
    }

    /// Whether some constraint watches the bounds of `var`: only then is it worth asking
    /// whether a write takes one of them ([`takes_an_end`]).
    #[inline]
    pub(crate) fn bounds_watched(&self, var: usize) -> bool {
        let w = &self.watchers;
        w.bound_start[var] != w.bound_start[var + 1]
    }

    /// [`Engine::changed`] for a bitset `var` that lost values, of which its smallest or
    /// largest only when `took_an_end` ([`takes_an_end`], asked before the writes): its
    /// bound watchers wake only then.
    #[inline]
    pub(crate) fn changed_knowing_ends(
        &mut self,
        var: usize,
        took_an_end: bool,
    ) -> Result<(), Conflict> {
        match self.store.size(var) {
            0 => Err(Conflict),
            size => {
                self.wake(var, size == 1, || took_an_end);
                Ok(())
            }
        }
    }

    /// Fixes `var` to `value` right after [`reset`](Engine::reset), while every constraint
    /// is queued and counts every variable as changed, so no watcher needs waking: the
    /// root's assumptions cost a few word writes each instead of an [`assign`](Engine::assign)
    /// with its wake-ups (see `cargo bench --bench sudoku -- reused`).
    pub(crate) fn assign_after_reset(&mut self, var: usize, value: i64) -> Result<(), Conflict> {
        debug_assert!(self.queue.queued.iter().all(|&q| q), "not just reset");
        if self.store.is_wide(var) {
            return self
                .narrow_wide_quietly(var, Some(i128::from(value)), Some(i128::from(value)))
                .map(|_| ());
        }
        let (k, bit) = self.store.bit_of(var, value).ok_or(Conflict)?;
        let layout = self.store.layout(var);
        if layout.len == 1 {
            // One word (a puzzle's cells): the given's bit kept, with no loop over words
            // and no size count; the assumptions of a batch of puzzles come here.
            let at = layout.start as usize;
            let old = self.store.word_at(at);
            if old & bit == 0 {
                return Err(Conflict);
            }
            if old != bit {
                self.store.write_at(at, bit);
            }
            return Ok(());
        }
        for j in 0..layout.len as usize {
            self.narrow_word_quietly(var, j, if j == k { bit } else { 0 });
        }
        match self.store.size(var) {
            0 => Err(Conflict),
            _ => Ok(()),
        }
    }

    /// Removes `value` from a bitset variable right after a reset, as an assumption (the
    /// propagators are all queued then); a conflict when nothing is left.
    pub(crate) fn exclude_after_reset(&mut self, var: usize, value: i64) -> Result<(), Conflict> {
        if let Some((k, bit)) = self.store.bit_of(var, value) {
            self.narrow_word_quietly(var, k, !bit);
        }
        match self.store.size(var) {
            0 => Err(Conflict),
            _ => Ok(()),
        }
    }

    /// Removes `value` from `var` (from a wide variable only when it is one of its bounds:
    /// a wide domain keeps no holes, so the constraint that asked must check the value again
    /// once the variable is fixed, as every propagator does).
    #[inline]
    pub(crate) fn remove(&mut self, var: usize, value: i64) -> Result<(), Conflict> {
        let layout = self.store.layout(var);
        if layout.len == 1 {
            let offset = value - i64::from(layout.base);
            if (0..64).contains(&offset) {
                return self.remove_mask(var, 1 << offset);
            }
            return Ok(());
        }
        self.remove_from_several_words(var, value)
    }

    /// [`Engine::remove`] for a domain of several words, bitset or wide: outlined, so
    /// that the one-word path stays small enough to inline into the search loop.
    #[inline(never)]
    fn remove_from_several_words(&mut self, var: usize, value: i64) -> Result<(), Conflict> {
        if self.store.is_wide(var) {
            return self.remove_wide_bound(var, value);
        }
        if let Some((k, bit)) = self.store.bit_of(var, value) {
            let end = self.bounds_watched(var)
                && takes_an_end(self.store.words(var), |j| if j == k { bit } else { 0 });
            if self.narrow_word_quietly(var, k, !bit) {
                return self.changed_knowing_ends(var, end);
            }
        }
        Ok(())
    }

    /// Removes the values of `mask` from the one-word domain of `var`.
    pub(crate) fn remove_mask(&mut self, var: usize, mask: u64) -> Result<(), Conflict> {
        self.set_one_word(var, self.store.first_word(var) & !mask)
    }

    /// Removes the values of `var` below `lo` and above `hi` (either bound may be absent);
    /// true when it lost any, a conflict when none is left.
    pub(crate) fn restrict_range(
        &mut self,
        var: usize,
        lo: Option<i128>,
        hi: Option<i128>,
    ) -> Result<bool, Conflict> {
        Ok(self.restrict_range_bounds(var, lo, hi)?.is_some())
    }

    /// [`Engine::restrict_range`], returning the new smallest and largest values when
    /// `var` lost any: a bitset's new bound may lie past a hole, and the caller that
    /// follows bounds learns it here without reading the words again.
    pub(crate) fn restrict_range_bounds(
        &mut self,
        var: usize,
        lo: Option<i128>,
        hi: Option<i128>,
    ) -> Result<Option<(i32, i32)>, Conflict> {
        let layout = self.store.layout(var);
        if layout.wide {
            let changed = self.narrow_wide_quietly(var, lo, hi)?;
            if !changed {
                return Ok(None);
            }
            self.changed(var)?;
            return Ok(self.store.bounds(var));
        }
        // The kept values as bit offsets `from..to` into the domain's words, clamped to
        // them (bit `b` of word `k` is the value `base + 64k + b`).
        let (base, start, len) = (
            i128::from(layout.base),
            layout.start as usize,
            layout.len as usize,
        );
        let span = 64 * len as i128;
        let from = lo.map_or(0, |lo| (lo - base).clamp(0, span)) as usize;
        let to = hi.map_or(span, |hi| (hi - base + 1).clamp(0, span)) as usize;
        let (mut changed, mut size) = (false, 0);
        // The first and last words left non-empty, with their positions.
        let (mut first, mut last) = ((usize::MAX, 0u64), (0, 0u64));
        for k in 0..len {
            let keep = range_word(k, from, to);
            let old = self.store.word_at(start + k);
            let new = old & keep;
            if new != old {
                self.store.write_at(start + k, new);
                changed = true;
            }
            if new != 0 {
                if first.0 == usize::MAX {
                    first = (k, new);
                }
                last = (k, new);
            }
            size += new.count_ones();
        }
        match (changed, size) {
            (false, _) => Ok(None),
            (true, 0) => Err(Conflict),
            (true, size) => {
                // A bitset's values left from below `lo` or above `hi`: a bound moved.
                self.wake(var, size == 1, || true);
                let bit = |(k, w): (usize, u64), top: bool| {
                    let at = if top {
                        63 - w.leading_zeros()
                    } else {
                        w.trailing_zeros()
                    };
                    (i64::from(layout.base) + 64 * k as i64 + i64::from(at)) as i32
                };
                Ok(Some((bit(first, false), bit(last, true))))
            }
        }
    }

    /// Fixes `var` to `value` (fails when `value` is not in its domain).
    #[inline(always)]
    pub(crate) fn assign(&mut self, var: usize, value: i64) -> Result<(), Conflict> {
        let layout = self.store.layout(var);
        if layout.len == 1 {
            let offset = value - i64::from(layout.base);
            if !(0..64).contains(&offset) {
                return Err(Conflict);
            }
            return self.set_one_word(var, self.store.first_word(var) & 1 << offset);
        }
        self.assign_several_words(var, value)
    }

    /// [`Engine::assign`] for a domain of several words, bitset or wide: outlined, so that
    /// the one-word path stays small enough to inline into the search loop.
    #[inline(never)]
    fn assign_several_words(&mut self, var: usize, value: i64) -> Result<(), Conflict> {
        let layout = self.store.layout(var);
        if layout.wide {
            let value = Some(i128::from(value));
            return self.restrict_range(var, value, value).map(|_| ());
        }
        let (k, bit) = self.store.bit_of(var, value).ok_or(Conflict)?;
        let mut changed = false;
        for j in 0..self.store.layout(var).len as usize {
            let keep = if j == k { bit } else { 0 };
            changed |= self.narrow_word_quietly(var, j, keep);
        }
        if changed {
            self.changed(var)
        } else {
            Ok(())
        }
    }

    /// Removes `value` from a wide `var` when it is a bound.
    #[inline]
    fn remove_wide_bound(&mut self, var: usize, value: i64) -> Result<(), Conflict> {
        let layout = self.store.layout(var);
        let Ok(offset) = u64::try_from(value - i64::from(layout.base)) else {
            return Ok(());
        };
        let (lo, hi) = self.store.wide_offsets(var);
        let at = layout.start as usize;
        if offset == lo {
            if lo >= hi {
                return Err(Conflict);
            }
            self.store.write_at(at, lo + 1);
            self.wake(var, lo + 1 == hi, || true);
        } else if offset == hi {
            if lo >= hi {
                return Err(Conflict);
            }
            self.store.write_at(at + 1, hi - 1);
            self.wake(var, lo == hi - 1, || true);
        }
        Ok(())
    }

    /// Intersects the wide domain of `var` with `lo..=hi` without waking anyone; true when
    /// a bound moved, a conflict when nothing is left.
    fn narrow_wide_quietly(
        &mut self,
        var: usize,
        lo: Option<i128>,
        hi: Option<i128>,
    ) -> Result<bool, Conflict> {
        let layout = self.store.layout(var);
        let (old_lo, old_hi) = self.store.wide_offsets(var);
        let base = i128::from(layout.base);
        let new_lo = lo.map_or(old_lo, |lo| (lo - base).max(i128::from(old_lo)) as u64);
        let new_hi = hi.map_or(i128::from(old_hi), |hi| (hi - base).min(i128::from(old_hi)));
        if new_hi < i128::from(new_lo) {
            return Err(Conflict);
        }
        let new_hi = new_hi as u64;
        let at = layout.start as usize;
        let changed = new_lo != old_lo || new_hi != old_hi;
        self.store.write_at(at, new_lo);
        self.store.write_at(at + 1, new_hi);
        Ok(changed)
    }

    /// Queues the watchers of `var` after it lost values: its change watchers, its bound
    /// watchers when `bounds()` says its smallest or largest value went, its fix watchers
    /// when `fixed`. `bounds` is asked only when a bound watcher could hear of it: never
    /// for a variable with one change watcher and no other (a Sudoku's cell).
    #[inline(always)]
    fn wake(&mut self, var: usize, fixed: bool, bounds: impl FnOnce() -> bool) {
        if !self.wake_sole_watcher(var) {
            self.wake_lists(var, fixed, bounds);
        }
    }

    /// Queues the one watcher of `var` when it has one change watcher and no other (every
    /// cell of a Sudoku or N-Queens family), with no watch lists to walk; false when
    /// `var` has other watchers.
    #[inline(always)]
    fn wake_sole_watcher(&mut self, var: usize) -> bool {
        let Some(&SingleWatch {
            constraint: c,
            word: at,
            bit,
        }) = self.watchers.single_change.get(var)
        else {
            return false;
        };
        if c == NO_CONSTRAINT {
            return false;
        }
        if c != self.current {
            self.queue.push(c);
            if at != UNTRACKED {
                self.changes[at as usize] |= 1 << bit;
            }
        }
        true
    }

    /// [`Engine::wake`] through the watch lists of `var`: outlined, so that the callers
    /// whose variables have one watcher keep only the test above.
    #[inline(never)]
    fn wake_lists(&mut self, var: usize, fixed: bool, bounds: impl FnOnce() -> bool) {
        let w = &self.watchers;
        let (from, to) = (w.change_start[var], w.change_start[var + 1]);
        let disposals = w.disposed_from != NO_DISPOSALS;
        for i in from as usize..to as usize {
            let c = w.change[i];
            if c != self.current && !(disposals && self.is_disposed(c)) {
                self.queue.push(c);
                let local = w.change_local[i];
                if local != UNTRACKED {
                    let at = w.changes_start[c as usize] as usize + local as usize / 64;
                    self.changes[at] |= 1 << (local % 64);
                }
            }
        }
        let (from, to) = (w.bound_start[var], w.bound_start[var + 1]);
        if from != to && (fixed || bounds()) {
            for i in from as usize..to as usize {
                let c = w.bound[i];
                if c != self.current && !(disposals && self.is_disposed(c)) {
                    self.queue.push(c);
                }
            }
        }
        if fixed {
            let (from, to) = (w.fix_start[var], w.fix_start[var + 1]);
            for i in from..to {
                let c = self.watchers.fix[i as usize];
                if c != self.current {
                    self.queue.push(c);
                }
            }
        }
    }
}

/// Whether taking `removed(k)` out of word `k` of the bitset domain `words`, for every
/// `k`, takes its smallest or largest value: the bits of both are found in the first and
/// last words that hold any, with no call and no layout lookup.
#[inline]
pub(crate) fn takes_an_end(words: &[u64], removed: impl Fn(usize) -> u64) -> bool {
    let (Some(first), Some(last)) = (
        words.iter().position(|&w| w != 0),
        words.iter().rposition(|&w| w != 0),
    ) else {
        return false;
    };
    let lowest = words[first] & words[first].wrapping_neg();
    let highest = (1 << 63) >> words[last].leading_zeros();
    removed(first) & lowest != 0 || removed(last) & highest != 0
}
