//! Conflict analysis: from a clash back along the reasons to the first unique implication
//! point of the current level (1UIP), giving a clause that is false now and asserts one
//! literal after the jump back; then the literals that other literals of the clause imply
//! are dropped (recursive minimisation, as in MiniSat), and each earlier level's
//! literals give way to one literal of that level that implies them, where there is one
//! (all-UIP shrinking, as in Kissat).
//!
//! Every reason is a clause over the options: an option out because another that shares
//! an item is chosen (two literals), an option chosen because its item has no other left
//! (the item's options), or a learned clause. Their false literals are the antecedents.

use super::clauses::option_of;
use super::solver::{Clash, CoverSolver, Reason};

impl CoverSolver {
    /// Learns from `clash` into `self.learnt` (the asserting literal first, a literal of
    /// the jump level second); returns the level to jump back to and the clause's number
    /// of distinct levels.
    pub(super) fn analyze(&mut self, clash: Clash) -> (u32, u32) {
        self.learnt.clear();
        self.learnt.push(0);
        let current = self.decision_level();
        let mut pending = 0u32;
        self.explain_clash(clash);
        let mut at = self.trail.len();
        let uip = loop {
            let antecedents = std::mem::take(&mut self.antecedents);
            for &a in &antecedents {
                let a = a as usize;
                if self.seen[a] || self.level[a] == 0 {
                    continue;
                }
                self.seen[a] = true;
                self.order.in_conflict(a);
                if self.level[a] == current {
                    pending += 1;
                } else {
                    self.learnt.push(self.false_literal(a));
                }
            }
            self.antecedents = antecedents;
            let o = loop {
                at -= 1;
                let o = option_of(self.trail[at]);
                if self.seen[o] {
                    break o;
                }
            };
            self.seen[o] = false;
            pending -= 1;
            if pending == 0 {
                break o;
            }
            if let Reason::Clause(c) = self.reason[o] {
                self.clauses.bump(c);
            }
            self.explain(o);
        };
        self.learnt[0] = self.false_literal(uip);
        self.minimize();
        self.shrink();
        let jump = self.place_jump_literal();
        (jump, self.distinct_levels())
    }

    /// Drops the literals of `learnt[1..]` implied by the others, and clears `seen`.
    fn minimize(&mut self) {
        let abstract_levels = self.abstract_levels();
        // Every literal of the clause is cleared at the end, the dropped ones too.
        self.cleared.clear();
        self.cleared
            .extend(self.learnt[1..].iter().map(|&l| option_of(l) as u32));
        let mut kept = 1;
        for i in 1..self.learnt.len() {
            let lit = self.learnt[i];
            let o = option_of(lit);
            if !self.implied(o, abstract_levels) {
                self.learnt[kept] = lit;
                kept += 1;
            }
        }
        for &o in &self.cleared {
            self.seen[o as usize] = false;
        }
        self.cleared.clear();
        self.clear_failed();
        self.learnt.truncate(kept);
    }

    /// The levels of `learnt[1..]`, as a summary of [`abstract_level`] bits.
    fn abstract_levels(&self) -> u32 {
        self.learnt[1..]
            .iter()
            .fold(0, |acc, &l| acc | abstract_level(self.level[option_of(l)]))
    }

    /// Whether option `o`, not a decision, has a literal that follows from the clause's
    /// ([`redundant`](Self::redundant)).
    fn implied(&mut self, o: usize, abstract_levels: u32) -> bool {
        self.reason[o] != Reason::Decision && self.redundant(o, abstract_levels)
    }

    /// Whether option `o`'s literal follows from literals already in the clause (marked
    /// `seen`), through reasons only: a depth-first walk of its antecedents that stops at
    /// marked options. Options found redundant stay marked (in `cleared`), so that later
    /// checks stop at them; the options on the walk's path when it meets one that is not
    /// are marked `failed` (in `poisoned`), so that later checks stop at them too. Both
    /// hold while the marks only grow, which the callers see to: they clear `failed` when
    /// they clear marks.
    fn redundant(&mut self, o: usize, abstract_levels: u32) -> bool {
        self.frames.clear();
        self.frames.push((o as u32, 0));
        while let Some(frame) = self.frames.last_mut() {
            let (x, k) = *frame;
            frame.1 += 1;
            let Some(a) = self.antecedent(x as usize, k as usize) else {
                self.frames.pop();
                if self.frames.is_empty() {
                    break;
                }
                self.seen[x as usize] = true;
                self.cleared.push(x);
                continue;
            };
            let a_us = a as usize;
            if a == x || self.seen[a_us] || self.level[a_us] == 0 {
                continue;
            }
            let removable = !self.failed[a_us]
                && self.reason[a_us] != Reason::Decision
                && abstract_level(self.level[a_us]) & abstract_levels != 0;
            if !removable {
                for &(y, _) in &self.frames {
                    self.failed[y as usize] = true;
                    self.poisoned.push(y);
                }
                return false;
            }
            self.frames.push((a, 0));
        }
        true
    }

    /// Forgets the options marked `failed`.
    fn clear_failed(&mut self) {
        for &o in &self.poisoned {
            self.failed[o as usize] = false;
        }
        self.poisoned.clear();
    }

    /// The `k`-th antecedent of option `o` in the order [`explain`](Self::explain) lists
    /// them, except that a `Last` reason lists `o` itself among its item's options (the
    /// caller skips it); `None` past the last. A walk that stops early reads only the
    /// antecedents it needs.
    fn antecedent(&self, o: usize, k: usize) -> Option<u32> {
        match self.reason[o] {
            Reason::Decision => None,
            Reason::Excluded { by } => (k == 0).then_some(by),
            Reason::Last { item } => {
                let at = self.item_start[item as usize] as usize + k;
                (at < self.item_start[item as usize + 1] as usize).then(|| self.item_options[at])
            }
            Reason::Clause(c) => {
                let lits = self.clauses.literals(c);
                debug_assert_eq!(option_of(lits[0]), o);
                lits.get(k + 1).map(|&l| option_of(l) as u32)
            }
        }
    }

    /// Replaces the literals of each earlier level in `learnt[1..]` by one literal of
    /// that level that implies them all, where there is one (all-UIP shrinking, Fleury
    /// and Biere 2020): the clause keeps its levels and asserts the same literal, with
    /// fewer literals to watch and to resolve on. Levels go from the highest down, since
    /// a level's walk may lean on the clause's literals of lower levels.
    fn shrink(&mut self) {
        if self.learnt.len() < 3 {
            return;
        }
        let rest = &mut self.learnt[1..];
        let level = &self.level;
        rest.sort_unstable_by_key(|&l| std::cmp::Reverse(level[option_of(l)]));
        for &l in &self.learnt {
            self.seen[option_of(l)] = true;
        }
        let abstract_levels = self.abstract_levels();
        self.shrunk.clear();
        self.shrunk.push(self.learnt[0]);
        let mut from = 1;
        while from < self.learnt.len() {
            let at_level = self.level[option_of(self.learnt[from])];
            let mut to = from + 1;
            while to < self.learnt.len() && self.level[option_of(self.learnt[to])] == at_level {
                to += 1;
            }
            let uip = if to - from > 1 {
                self.level_uip(at_level, to - from, abstract_levels)
            } else {
                None
            };
            match uip {
                Some(uip) => self.shrunk.push(self.false_literal(uip)),
                None => self.shrunk.extend_from_slice(&self.learnt[from..to]),
            }
            from = to;
        }
        for &l in &self.learnt {
            self.seen[option_of(l)] = false;
        }
        std::mem::swap(&mut self.learnt, &mut self.shrunk);
        debug_assert!(self
            .learnt
            .iter()
            .all(|&l| self.literal_value(l) == super::solver::FALSE));
    }

    /// The option of `level` whose value, with the clause's literals of lower levels,
    /// implies the values of the `count` options of that level marked `seen`: found by
    /// walking that level's trail back from its end, resolving each marked option on its
    /// reason until one is left. `None` if a reason leans on a lower level's option that
    /// is neither in the clause nor implied by it. Marks added on the way are cleared
    /// again.
    fn level_uip(&mut self, level: u32, count: usize, abstract_levels: u32) -> Option<usize> {
        let start = self.limits[level as usize - 1] as usize;
        let end = self
            .limits
            .get(level as usize)
            .map_or(self.trail.len(), |&e| e as usize);
        let mut pending = count;
        let top = self.cleared.len();
        let mut uip = None;
        for at in (start..end).rev() {
            let o = option_of(self.trail[at]);
            if !self.seen[o] {
                continue;
            }
            pending -= 1;
            if pending == 0 {
                uip = Some(o);
                break;
            }
            self.explain(o);
            let antecedents = std::mem::take(&mut self.antecedents);
            let leans_outside = antecedents.iter().any(|&a| {
                let a = a as usize;
                let lower = self.level[a] != 0 && self.level[a] < level;
                lower && !self.seen[a] && !self.implied(a, abstract_levels)
            });
            if !leans_outside {
                for &a in &antecedents {
                    let a = a as usize;
                    if self.level[a] == level && !self.seen[a] {
                        self.seen[a] = true;
                        self.cleared.push(a as u32);
                        pending += 1;
                    }
                }
            }
            self.antecedents = antecedents;
            if leans_outside {
                break;
            }
        }
        for &c in &self.cleared[top..] {
            self.seen[c as usize] = false;
        }
        self.cleared.truncate(top);
        self.clear_failed();
        uip
    }

    /// Moves a literal of the highest level among `learnt[1..]` to position 1; returns
    /// that level (0 for a unit clause).
    fn place_jump_literal(&mut self) -> u32 {
        if self.learnt.len() == 1 {
            return 0;
        }
        let mut best = 1;
        for i in 2..self.learnt.len() {
            if self.level[option_of(self.learnt[i])] > self.level[option_of(self.learnt[best])] {
                best = i;
            }
        }
        self.learnt.swap(1, best);
        self.level[option_of(self.learnt[1])]
    }

    /// The number of distinct decision levels among the learned clause's literals.
    fn distinct_levels(&mut self) -> u32 {
        self.stamp += 1;
        let levels = self.decision_level() as usize + 1;
        if self.level_stamp.len() < levels {
            self.level_stamp.resize(levels, 0);
        }
        let mut count = 0;
        for &lit in &self.learnt {
            let level = self.level[option_of(lit)] as usize;
            if self.level_stamp[level] != self.stamp {
                self.level_stamp[level] = self.stamp;
                count += 1;
            }
        }
        count
    }

    /// Fills `antecedents` with the options whose values, by `o`'s reason, gave `o` its
    /// value.
    ///
    /// It lists them as [`antecedent`](Self::antecedent) does, in one pass per reason
    /// rather than one look-up per antecedent: conflict analysis calls it for every
    /// option it resolves on.
    fn explain(&mut self, o: usize) {
        self.antecedents.clear();
        match self.reason[o] {
            Reason::Decision => {}
            Reason::Excluded { by } => self.antecedents.push(by),
            Reason::Last { item } => {
                let options = self.item_start[item as usize] as usize
                    ..self.item_start[item as usize + 1] as usize;
                self.antecedents.extend(
                    self.item_options[options]
                        .iter()
                        .copied()
                        .filter(|&p| p as usize != o),
                );
            }
            Reason::Clause(c) => {
                let lits = self.clauses.literals(c);
                debug_assert_eq!(option_of(lits[0]), o);
                self.antecedents
                    .extend(lits[1..].iter().map(|&l| option_of(l) as u32));
            }
        }
    }

    /// Fills `antecedents` with the options whose values make `clash`.
    fn explain_clash(&mut self, clash: Clash) {
        self.antecedents.clear();
        match clash {
            Clash::Both(o, p) => self.antecedents.extend([o, p]),
            Clash::Empty(item) => {
                let options = self.item_start[item as usize] as usize
                    ..self.item_start[item as usize + 1] as usize;
                self.antecedents
                    .extend_from_slice(&self.item_options[options]);
            }
            Clash::Clause(c) => {
                self.clauses.bump(c);
                let lits = self.clauses.literals(c);
                self.antecedents
                    .extend(lits.iter().map(|&l| option_of(l) as u32));
            }
        }
    }
}

/// A level's bit in a 32-bit summary of levels: a cheap first test of whether a literal's
/// level occurs in the clause.
fn abstract_level(level: u32) -> u32 {
    1 << (level & 31)
}
