//! Learned clauses: their literals in one arena, two watched literals each, and the
//! periodic clean-up that keeps the ones likely to be useful.
//!
//! A literal is `2 * option` ("the option is chosen") or `2 * option + 1` ("it is not").

/// The negation of a literal.
#[inline(always)]
pub(super) fn negate(lit: u32) -> u32 {
    lit ^ 1
}

/// The option of a literal.
#[inline(always)]
pub(super) fn option_of(lit: u32) -> usize {
    (lit >> 1) as usize
}

/// Arena words before a clause's literals: its index, then its length. A watch names the
/// clause by where its literals start, so visiting it reads one place in memory, not a
/// header elsewhere and then the literals.
pub(super) const HEADER: u32 = 2;

/// The arena's words past which a clean-up runs at once, and past which, if the clean-up
/// leaves it there, the search gives up: a clause is at most `MAX_ENTRIES` literals (see
/// `ExactCover`), so with one check after each clause added, offsets stay within `u32`.
pub(super) const ARENA_LIMIT: usize = 1 << 31;

/// One learned clause: where its literals start in the arena (its length is the word
/// before), and how it is valued.
#[derive(Clone, Copy, Debug)]
pub(super) struct Clause {
    pub(super) start: u32,
    /// Distinct decision levels among its literals when learned (literal block distance):
    /// the lower, the more the clause ties together.
    pub(super) lbd: u32,
    /// Bumped when it takes part in a conflict.
    pub(super) activity: f32,
}

/// A clause watching a literal, with another of its literals: when that one is true, the
/// clause is satisfied and need not be read.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Watch {
    /// Where the clause's literals start in the arena.
    pub(super) start: u32,
    pub(super) blocker: u32,
}

/// The learned clauses and their watches.
#[derive(Clone, Debug, Default)]
pub(super) struct Clauses {
    /// Each clause as its [`HEADER`] words then its literals.
    pub(super) lits: Vec<u32>,
    pub(super) list: Vec<Clause>,
    /// For each literal, the clauses watching it: the clause is looked at when it becomes
    /// false. Its two watched literals are its first two.
    pub(super) watches: Vec<Vec<Watch>>,
    bump: f32,
}

impl Clauses {
    pub(super) fn new(options: usize) -> Self {
        Clauses {
            lits: Vec::new(),
            list: Vec::new(),
            watches: vec![Vec::new(); 2 * options],
            bump: 1.0,
        }
    }

    /// Adds a clause of two literals or more, watching its first two; returns its index.
    pub(super) fn add(&mut self, lits: &[u32], lbd: u32) -> u32 {
        debug_assert!(lits.len() >= 2);
        let index = self.list.len() as u32;
        let start = self.lits.len() as u32 + HEADER;
        self.list.push(Clause {
            start,
            lbd,
            activity: self.bump,
        });
        self.lits.extend_from_slice(&[index, lits.len() as u32]);
        self.lits.extend_from_slice(lits);
        self.watches[lits[0] as usize].push(Watch {
            start,
            blocker: lits[1],
        });
        self.watches[lits[1] as usize].push(Watch {
            start,
            blocker: lits[0],
        });
        index
    }

    /// The index of the clause whose literals start at `start`.
    #[inline(always)]
    pub(super) fn index_at(&self, start: u32) -> u32 {
        self.lits[(start - HEADER) as usize]
    }

    /// The length of the clause whose literals start at `start`.
    #[inline(always)]
    pub(super) fn len_at(&self, start: u32) -> u32 {
        self.lits[(start - 1) as usize]
    }

    /// The literals of clause `c`.
    #[inline(always)]
    pub(super) fn literals(&self, c: u32) -> &[u32] {
        let start = self.list[c as usize].start;
        &self.lits[start as usize..(start + self.len_at(start)) as usize]
    }

    /// Raises clause `c`'s activity for taking part in a conflict.
    pub(super) fn bump(&mut self, c: u32) {
        let clause = &mut self.list[c as usize];
        clause.activity += self.bump;
        if clause.activity > 1e20 {
            for clause in &mut self.list {
                clause.activity *= 1e-20;
            }
            self.bump *= 1e-20;
        }
    }

    /// After a conflict: later bumps weigh more.
    pub(super) fn decay(&mut self) {
        self.bump /= 0.999;
    }

    /// Drops about half of the clauses that are neither binding (`lbd` of two or less) nor
    /// `locked` (the reason of a current assignment), the least active first, and
    /// renumbers the rest; returns the new index of each old clause (`u32::MAX` if gone).
    pub(super) fn reduce(&mut self, locked: impl Fn(u32) -> bool) -> Vec<u32> {
        let mut candidates: Vec<u32> = (0..self.list.len() as u32)
            .filter(|&c| self.list[c as usize].lbd > 2 && !locked(c))
            .collect();
        candidates.sort_by(|&a, &b| {
            let (x, y) = (self.list[a as usize], self.list[b as usize]);
            y.lbd.cmp(&x.lbd).then(x.activity.total_cmp(&y.activity))
        });
        let mut gone = vec![false; self.list.len()];
        for &c in &candidates[..candidates.len() / 2] {
            gone[c as usize] = true;
        }
        let mut renumber = vec![u32::MAX; self.list.len()];
        let (mut lits, mut list) = (Vec::with_capacity(self.lits.len()), Vec::new());
        for (c, clause) in self.list.iter().enumerate() {
            if gone[c] {
                continue;
            }
            renumber[c] = list.len() as u32;
            let len = self.len_at(clause.start);
            let from = clause.start as usize..(clause.start + len) as usize;
            lits.extend_from_slice(&[renumber[c], len]);
            list.push(Clause {
                start: lits.len() as u32,
                ..*clause
            });
            lits.extend_from_slice(&self.lits[from]);
        }
        let old = std::mem::replace(&mut self.lits, lits);
        self.list = list;
        let list = &self.list;
        for watch in &mut self.watches {
            watch.retain_mut(|w| {
                let c = renumber[old[(w.start - HEADER) as usize] as usize];
                if c == u32::MAX {
                    return false;
                }
                w.start = list[c as usize].start;
                true
            });
        }
        renumber
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reduction_keeps_binding_and_locked_clauses_and_renumbers_watches() {
        let mut clauses = Clauses::new(4);
        let binding = clauses.add(&[0, 2], 2);
        let locked = clauses.add(&[1, 3, 4], 5);
        let idle = clauses.add(&[5, 6, 7], 6);
        let active = clauses.add(&[0, 4, 6], 3);
        clauses.bump(active);
        let renumber = clauses.reduce(|c| c == locked);
        assert_eq!(renumber[idle as usize], u32::MAX);
        assert_ne!(renumber[binding as usize], u32::MAX);
        assert_ne!(renumber[locked as usize], u32::MAX);
        assert_ne!(renumber[active as usize], u32::MAX);
        assert_eq!(clauses.list.len(), 3);
        assert_eq!(clauses.literals(renumber[active as usize]), &[0, 4, 6]);
        assert!(clauses.watches[5].is_empty());
        assert_eq!(clauses.watches[0].len(), 2);
    }
}
