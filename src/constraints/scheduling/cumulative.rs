//! `cumulative`: tasks with start times `s[i]`, fixed durations `d[i]` and fixed resource
//! use `r[i]`, whose use at any time adds up to at most the capacity `b`.
//!
//! Time-tabling (Beldiceanu and Carlsson 2002; as in Gecode and OR-Tools): a task whose
//! latest start comes before its earliest end surely runs in between (its compulsory
//! part). The compulsory parts make a profile of surely-used resource; a profile above
//! the capacity fails, and a task that cannot fit on top of a part of the profile may not
//! overlap it, which pushes its earliest start past that part and its latest start before
//! it. Once every start is fixed, each task is its own compulsory part, so an overload is
//! always caught. A task that uses more than the capacity on its own fits nowhere, and
//! fails the constraint at once.
//!
//! When no two tasks fit on the resource together (a machine: the two smallest uses add
//! up to more than the capacity), an energy check runs before the profile (overload
//! checking, Vilím 2004, on a Θ-tree): the tasks that must run between some earliest start
//! and some latest end need duration × use of energy each, and fail when they need more
//! than the capacity times that window. On such a resource compulsory parts appear only
//! once starts are nearly fixed, so the profile alone does not see that a machine's tasks
//! cannot all fit: three tasks of 3 on a resource of 1, all within 8 time units, fail at
//! once. Where tasks may share the resource, the profile sees overloads sooner and the
//! check is left out (its cost against its gain there: callgrind on the MiniZinc suite's
//! rcpsp fixtures, `tests/data/flatzinc/suite`).

use std::cell::RefCell;

use crate::propagator::{Conflict, Domains, Propagator, Strength, Watch};
use crate::var::VarId;

#[derive(Debug)]
pub(crate) struct Cumulative {
    /// The start variables, each once (two tasks may share a start).
    vars: Vec<VarId>,
    starts: Vec<VarId>,
    durations: Vec<i64>,
    uses: Vec<i64>,
    capacity: i64,
    /// Whether no two tasks fit together, so that the energy check runs.
    unary: bool,
    /// Whether some task uses more than the capacity: it fits nowhere, so every run fails.
    overused: bool,
}

/// A piece of the profile: from `from` (inclusive) to `to` (exclusive), `height` used.
#[derive(Clone, Copy, Debug)]
struct Piece {
    from: i64,
    to: i64,
    height: i64,
}

/// A node of the Θ-tree: the energy of the tasks below it, and their envelope (the
/// largest capacity × earliest start + energy from that start on, over its tasks).
#[derive(Clone, Copy, Debug)]
struct Node {
    energy: i64,
    envelope: i64,
}

/// No task below: nothing to add, and an envelope below any real one.
const EMPTY: Node = Node {
    energy: 0,
    envelope: i64::MIN / 4,
};

/// A run's working memory: the profile's events (time, change of height) and its
/// pieces; the tasks by earliest start and by latest end, and the Θ-tree.
#[derive(Default)]
struct Work {
    events: Vec<(i64, i64)>,
    pieces: Vec<Piece>,
    by_start: Vec<(i64, usize)>,
    by_end: Vec<(i64, usize)>,
    /// Each task's leaf: its rank by earliest start.
    leaf_of: Vec<usize>,
    tree: Vec<Node>,
}

thread_local! {
    /// A run's working memory, reused across runs on this thread.
    static WORK: RefCell<Work> = RefCell::new(Work::default());
}

impl Cumulative {
    /// Tasks with no duration or no use are left out: they constrain nothing.
    pub(crate) fn new(starts: &[VarId], durations: &[i32], uses: &[i32], capacity: i32) -> Self {
        let mut c = Cumulative {
            vars: Vec::new(),
            starts: Vec::new(),
            durations: Vec::new(),
            uses: Vec::new(),
            capacity: i64::from(capacity),
            unary: false,
            overused: false,
        };
        let mut seen = std::collections::HashSet::new();
        for ((&s, &d), &r) in starts.iter().zip(durations).zip(uses) {
            if d > 0 && r > 0 {
                c.starts.push(s);
                c.durations.push(i64::from(d));
                c.uses.push(i64::from(r));
                if seen.insert(s) {
                    c.vars.push(s);
                }
            }
        }
        let mut uses = c.uses.clone();
        uses.sort_unstable();
        c.unary = matches!(uses[..], [a, b, ..] if a + b > c.capacity);
        c.overused = uses.last().is_some_and(|&most| most > c.capacity);
        c
    }

    /// The compulsory part of task `i`, if it has one.
    fn compulsory(&self, d: &Domains<'_>, i: usize) -> Option<(i64, i64)> {
        let s = self.starts[i];
        let (earliest, latest) = (i64::from(d.min(s)), i64::from(d.max(s)));
        let end = earliest + self.durations[i];
        (latest < end).then_some((latest, end))
    }

    /// The profile of the compulsory parts, as pieces of positive height in time order;
    /// a conflict where it exceeds the capacity.
    fn profile(
        &self,
        d: &Domains<'_>,
        events: &mut Vec<(i64, i64)>,
        pieces: &mut Vec<Piece>,
    ) -> Result<(), Conflict> {
        events.clear();
        pieces.clear();
        for i in 0..self.starts.len() {
            if let Some((from, to)) = self.compulsory(d, i) {
                events.push((from, self.uses[i]));
                events.push((to, -self.uses[i]));
            }
        }
        events.sort_unstable();
        let mut height = 0;
        let mut k = 0;
        while k < events.len() {
            let at = events[k].0;
            while k < events.len() && events[k].0 == at {
                height += events[k].1;
                k += 1;
            }
            if height > self.capacity {
                return Err(Conflict);
            }
            if let Some(&(next, _)) = events.get(k) {
                if height > 0 {
                    pieces.push(Piece {
                        from: at,
                        to: next,
                        height,
                    });
                }
            }
        }
        Ok(())
    }

    /// Moves task `i`'s earliest start past, and its latest start before, every piece it
    /// cannot share.
    fn push_task(&self, d: &mut Domains<'_>, i: usize, pieces: &[Piece]) -> Result<(), Conflict> {
        let s = self.starts[i];
        let (duration, used) = (self.durations[i], self.uses[i]);
        let own = self.compulsory(d, i);
        // The height of others in a piece: the task's own compulsory part taken out.
        let others = |p: &Piece| {
            let mine = own.is_some_and(|(from, to)| from <= p.from && p.to <= to);
            p.height - if mine { used } else { 0 }
        };
        let mut earliest = i64::from(d.min(s));
        for p in pieces {
            if p.to <= earliest {
                continue;
            }
            if p.from >= earliest + duration {
                break;
            }
            if others(p) + used > self.capacity {
                earliest = p.to;
            }
        }
        let mut latest = i64::from(d.max(s));
        for p in pieces.iter().rev() {
            if p.from >= latest + duration {
                continue;
            }
            if p.to <= latest {
                break;
            }
            if others(p) + used > self.capacity {
                latest = p.from - duration;
            }
        }
        if earliest > latest {
            return Err(Conflict);
        }
        d.set_min(s, clamp(earliest))?;
        d.set_max(s, clamp(latest))
    }

    /// Overload checking: the tasks taken by increasing latest end go into a Θ-tree whose
    /// leaves are in earliest-start order; once the tasks so far need more energy from
    /// some earliest start than the capacity gives up to the latest end, they fail.
    fn check_energy(&self, d: &Domains<'_>, work: &mut Work) -> Result<(), Conflict> {
        let n = self.starts.len();
        if n < 2 {
            return Ok(());
        }
        work.by_start.clear();
        work.by_end.clear();
        for (i, &s) in self.starts.iter().enumerate() {
            work.by_start.push((i64::from(d.min(s)), i));
            work.by_end
                .push((i64::from(d.max(s)) + self.durations[i], i));
        }
        work.by_start.sort_unstable();
        work.by_end.sort_unstable();
        let leaves = n.next_power_of_two();
        work.tree.clear();
        work.tree.resize(2 * leaves, EMPTY);
        work.leaf_of.clear();
        work.leaf_of.resize(n, 0);
        for (rank, &(_, i)) in work.by_start.iter().enumerate() {
            work.leaf_of[i] = rank;
        }
        for k in 0..n {
            let (end, i) = work.by_end[k];
            let leaf = work.leaf_of[i];
            let est = work.by_start[leaf].0;
            // Saturating: durations, uses and times are `i32`s, and many tasks add up.
            let energy = self.durations[i].saturating_mul(self.uses[i]);
            let mut at = leaves + leaf;
            work.tree[at] = Node {
                energy,
                envelope: self.capacity.saturating_mul(est).saturating_add(energy),
            };
            while at > 1 {
                at /= 2;
                let (left, right) = (work.tree[2 * at], work.tree[2 * at + 1]);
                work.tree[at] = Node {
                    energy: left.energy.saturating_add(right.energy),
                    envelope: left
                        .envelope
                        .saturating_add(right.energy)
                        .max(right.envelope),
                };
            }
            if work.tree[1].envelope > self.capacity.saturating_mul(end) {
                return Err(Conflict);
            }
        }
        Ok(())
    }

    fn run(&self, d: &mut Domains<'_>, work: &mut Work) -> Result<(), Conflict> {
        if self.overused {
            return Err(Conflict);
        }
        if self.unary {
            self.check_energy(d, work)?;
        }
        let Work { events, pieces, .. } = work;
        self.profile(d, events, pieces)?;
        if pieces.is_empty() {
            return Ok(());
        }
        for i in 0..self.starts.len() {
            self.push_task(d, i, pieces)?;
        }
        Ok(())
    }
}

fn clamp(t: i64) -> i32 {
    i32::try_from(t).unwrap_or(if t < 0 { i32::MIN } else { i32::MAX })
}

impl Propagator for Cumulative {
    fn name(&self) -> &str {
        "cumulative"
    }

    fn vars(&self) -> &[VarId] {
        &self.vars
    }

    /// It reads bounds only.
    fn watch(&self) -> Watch {
        Watch::Bounds
    }

    fn consistency(&self) -> Strength {
        Strength::Sound
    }

    fn propagate(&self, d: &mut Domains<'_>) -> Result<(), Conflict> {
        WORK.with(|w| match w.try_borrow_mut() {
            Ok(mut work) => self.run(d, &mut work),
            Err(_) => self.run(d, &mut Work::default()),
        })
    }
}
