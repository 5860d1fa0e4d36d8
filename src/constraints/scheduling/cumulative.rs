//! `cumulative`: tasks with start times `s[i]`, fixed durations `d[i]` and fixed resource
//! use `r[i]`, whose use at any time adds up to at most the capacity `b`.
//!
//! Time-tabling (Beldiceanu and Carlsson 2002; as in Gecode and OR-Tools): a task whose
//! latest start comes before its earliest end surely runs in between (its compulsory
//! part). The compulsory parts make a profile of surely-used resource; a profile above
//! the capacity fails, and a task that cannot fit on top of a part of the profile may not
//! overlap it, which pushes its earliest start past that part and its latest start before
//! it. Once every start is fixed, each task is its own compulsory part, so an overload is
//! always caught.

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
}

/// A piece of the profile: from `from` (inclusive) to `to` (exclusive), `height` used.
#[derive(Clone, Copy, Debug)]
struct Piece {
    from: i64,
    to: i64,
    height: i64,
}

/// The profile's events (time, change of height) and its pieces.
type Work = (Vec<(i64, i64)>, Vec<Piece>);

thread_local! {
    /// A run's working memory, reused across runs on this thread.
    static WORK: RefCell<Work> = const { RefCell::new((Vec::new(), Vec::new())) };
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

    fn run(
        &self,
        d: &mut Domains<'_>,
        events: &mut Vec<(i64, i64)>,
        pieces: &mut Vec<Piece>,
    ) -> Result<(), Conflict> {
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
            Ok(mut work) => {
                let (events, pieces) = &mut *work;
                self.run(d, events, pieces)
            }
            Err(_) => self.run(d, &mut Vec::new(), &mut Vec::new()),
        })
    }
}
