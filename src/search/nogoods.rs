//! Nogoods recorded at restarts, so that a restarted search does not explore again what
//! it has already refuted (Lecoutre, Saïs, Tabary and Vidal, "Recording and Minimizing
//! Nogoods from Restarts", 2007).
//!
//! When the search refutes `x = v` at depth `d`, the subtree below the decisions
//! `x1 = v1, ..., xd = vd` and `x = v` has failed entirely, so those `d + 1` assignments
//! together are a nogood: no solution holds all of them. Refutations made under those
//! decisions are consequences of them, so they need not appear in it (the reduced
//! negative-decision nogoods of the paper). Until a restart the refutations themselves
//! carry this knowledge; a restart throws the path away, so it is turned into nogoods
//! then.
//!
//! Each nogood watches two of its assignments that do not hold yet (are not fixed). When
//! a watched one becomes fixed, the watch moves to another; when none is left, the other
//! watched assignment must not happen and its value is removed. Nothing needs undoing on
//! backtrack: undoing decisions only makes assignments stop holding.

use crate::store::Store;

/// The nogoods of one search, with two watched assignments each.
#[derive(Clone, Debug, Default)]
pub(crate) struct Nogoods {
    /// The assignments of every nogood, one after another; the first two of each are the
    /// watched ones.
    lits: Vec<(u32, i64)>,
    /// Where each nogood ends in `lits` (it starts where the previous one ends).
    ends: Vec<u32>,
    /// Per variable: the nogoods watching one of its assignments.
    watches: Vec<Vec<u32>>,
    /// Variables that have had a watch in this search, each once (a list may empty
    /// again: watches only move between variables).
    watched: Vec<u32>,
    /// Whether each variable is in `watched`.
    listed: Vec<bool>,
    /// Whether each variable's watches were visited since it was last fixed.
    visited: Vec<bool>,
    /// The visited variables, with the search depth of the visit: on a return to a
    /// shallower depth the deeper ones have been unfixed and must be visited again.
    visits: Vec<(u32, u32)>,
}

/// What checking the nogoods against the domains found.
#[derive(Debug, PartialEq, Eq)]
pub(crate) enum Check {
    /// Every nogood is satisfied or has two assignments that may still fail.
    Quiet,
    /// Values to remove were pushed on the caller's list (variable, value).
    Remove,
    /// A nogood's assignments all hold.
    Conflict,
}

/// How an assignment stands in the current domains.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum State {
    Holds,
    Open,
    Impossible,
}

fn state(store: &Store, (var, value): (u32, i64)) -> State {
    let var = var as usize;
    if !store.contains(var, value) {
        State::Impossible
    } else if store.size(var) == 1 {
        State::Holds
    } else {
        State::Open
    }
}

impl Nogoods {
    /// Forgets every nogood (a new search).
    pub(crate) fn clear(&mut self) {
        self.lits.clear();
        self.ends.clear();
        for &var in &self.watched {
            self.watches[var as usize].clear();
            self.listed[var as usize] = false;
            self.visited[var as usize] = false;
        }
        self.watched.clear();
        self.visits.clear();
    }

    /// The number of nogoods kept.
    pub(crate) fn len(&self) -> usize {
        self.ends.len()
    }

    /// Records that the assignments `lits` cannot all hold, given the current domains
    /// (the root's, after a restart). Assignments that already hold are left out; a nogood
    /// with an impossible assignment is dropped. Values that must go at once are pushed on
    /// `removals`; `Conflict` when every assignment already holds.
    pub(crate) fn add(
        &mut self,
        store: &Store,
        lits: impl IntoIterator<Item = (u32, i64)>,
        removals: &mut Vec<(u32, i64)>,
    ) -> Check {
        // Sized on first use: most searches never restart, and a solver is built per
        // puzzle.
        let num_vars = store.num_vars();
        if self.watches.len() < num_vars {
            self.watches.resize_with(num_vars, Vec::new);
            self.listed.resize(num_vars, false);
            self.visited.resize(num_vars, false);
        }
        let start = self.lits.len();
        for lit in lits {
            match state(store, lit) {
                State::Holds => {}
                State::Open => self.lits.push(lit),
                State::Impossible => {
                    self.lits.truncate(start);
                    return Check::Quiet;
                }
            }
        }
        match self.lits.len() - start {
            0 => Check::Conflict,
            1 => {
                removals.extend(self.lits.drain(start..));
                Check::Remove
            }
            _ => {
                let id = self.len() as u32;
                self.ends.push(self.lits.len() as u32);
                self.watch(self.lits[start].0, id);
                self.watch(self.lits[start + 1].0, id);
                Check::Quiet
            }
        }
    }

    fn watch(&mut self, var: u32, id: u32) {
        if !self.listed[var as usize] {
            self.listed[var as usize] = true;
            self.watched.push(var);
        }
        self.watches[var as usize].push(id);
    }

    /// Moves the watches off assignments that now hold, and pushes on `removals` the
    /// values that the nogoods left with one open assignment forbid. `depth` is the
    /// number of decisions on the current path.
    pub(crate) fn check(
        &mut self,
        store: &Store,
        depth: u32,
        removals: &mut Vec<(u32, i64)>,
    ) -> Check {
        while let Some(&(visit_depth, var)) = self.visits.last() {
            if visit_depth <= depth {
                break;
            }
            self.visits.pop();
            self.visited[var as usize] = false;
        }
        let mut conflict = false;
        let mut k = 0;
        while k < self.watched.len() && !conflict {
            let var = self.watched[k];
            k += 1;
            // Each fixing is looked at once: a watch stays only where its nogood is
            // satisfied or forbids its other watched value, which holds until undone.
            if !self.visited[var as usize] && store.size(var as usize) == 1 {
                self.visited[var as usize] = true;
                self.visits.push((depth, var));
                conflict = self.fixed(store, var, removals);
            }
        }
        if conflict {
            Check::Conflict
        } else if removals.is_empty() {
            Check::Quiet
        } else {
            Check::Remove
        }
    }

    /// Visits the nogoods watching `var`, which is fixed; true on a conflict.
    fn fixed(&mut self, store: &Store, var: u32, removals: &mut Vec<(u32, i64)>) -> bool {
        let mut list = std::mem::take(&mut self.watches[var as usize]);
        let mut kept = 0;
        let mut conflict = false;
        for i in 0..list.len() {
            let id = list[i];
            if conflict || !self.watch_moved(store, var, id, removals, &mut conflict) {
                list[kept] = id;
                kept += 1;
            }
        }
        list.truncate(kept);
        self.watches[var as usize] = list;
        conflict
    }

    /// Handles nogood `id`, one of whose watched assignments is on the fixed `var`: true
    /// when the watch moved to another variable, false when it stays on `var`.
    fn watch_moved(
        &mut self,
        store: &Store,
        var: u32,
        id: u32,
        removals: &mut Vec<(u32, i64)>,
        conflict: &mut bool,
    ) -> bool {
        let id = id as usize;
        let start = id.checked_sub(1).map_or(0, |p| self.ends[p] as usize);
        let end = self.ends[id] as usize;
        let lits = &mut self.lits[start..end];
        if lits[0].0 != var {
            lits.swap(0, 1);
        }
        if state(store, lits[0]) != State::Holds {
            // Fixed to another value: the nogood is satisfied on this path.
            return false;
        }
        if let Some(j) = (2..lits.len()).find(|&j| state(store, lits[j]) != State::Holds) {
            lits.swap(0, j);
            let new = lits[0].0;
            self.watch(new, id as u32);
            return true;
        }
        match state(store, lits[1]) {
            State::Holds => *conflict = true,
            State::Open => removals.push(lits[1]),
            State::Impossible => {}
        }
        false
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::domain::Domain;

    /// Four variables over 0..=2.
    fn store() -> Store {
        let d = Domain::range(0..=2).expect("domain");
        Store::new(&[d.clone(), d.clone(), d.clone(), d])
    }

    fn fix(store: &mut Store, var: usize, value: u32) {
        let start = store.layout(var).start as usize;
        store.write_at(start, 1 << value);
    }

    #[test]
    fn the_last_open_assignment_is_forbidden_once_the_others_hold() {
        let mut s = store();
        let mut nogoods = Nogoods::default();
        let mut removals = Vec::new();
        let add = nogoods.add(&s, [(0, 1), (1, 2), (2, 0)], &mut removals);
        assert_eq!((add, nogoods.len()), (Check::Quiet, 1));
        fix(&mut s, 0, 1);
        assert_eq!(nogoods.check(&s, 0, &mut removals), Check::Quiet);
        fix(&mut s, 2, 0);
        assert_eq!(nogoods.check(&s, 0, &mut removals), Check::Remove);
        assert_eq!(removals, vec![(1, 2)]);
        removals.clear();
        fix(&mut s, 1, 2);
        assert_eq!(nogoods.check(&s, 0, &mut removals), Check::Conflict);
    }

    #[test]
    fn a_nogood_fixed_otherwise_is_satisfied() {
        let mut s = store();
        let mut nogoods = Nogoods::default();
        let mut removals = Vec::new();
        nogoods.add(&s, [(0, 1), (1, 2), (3, 0)], &mut removals);
        fix(&mut s, 0, 2);
        fix(&mut s, 1, 2);
        fix(&mut s, 3, 0);
        assert_eq!(nogoods.check(&s, 0, &mut removals), Check::Quiet);
        assert!(removals.is_empty());
    }

    #[test]
    fn adding_drops_what_holds_and_what_cannot() {
        let mut s = store();
        fix(&mut s, 0, 1);
        let mut nogoods = Nogoods::default();
        let mut removals = Vec::new();
        // One open assignment once the fixed one is left out: forbidden at once.
        assert_eq!(
            nogoods.add(&s, [(0, 1), (2, 2)], &mut removals),
            Check::Remove
        );
        assert_eq!(removals, vec![(2, 2)]);
        // An assignment that cannot happen: never violated, not kept.
        removals.clear();
        assert_eq!(
            nogoods.add(&s, [(0, 2), (1, 1), (2, 1)], &mut removals),
            Check::Quiet
        );
        assert_eq!((nogoods.len(), removals.len()), (0, 0));
        // Everything holds: the root itself is a dead end.
        assert_eq!(nogoods.add(&s, [(0, 1)], &mut removals), Check::Conflict);
    }

    #[test]
    fn clearing_forgets_the_nogoods_and_their_watches() {
        let mut s = store();
        let mut nogoods = Nogoods::default();
        let mut removals = Vec::new();
        nogoods.add(&s, [(0, 1), (1, 1)], &mut removals);
        nogoods.clear();
        assert_eq!(nogoods.len(), 0);
        fix(&mut s, 0, 1);
        assert_eq!(nogoods.check(&s, 0, &mut removals), Check::Quiet);
        assert!(removals.is_empty());
    }
}
