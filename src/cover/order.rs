//! The order of choices: options by conflict history (CHB, Liang, Ganesh, Poupart and
//! Czarnecki 2016), in a four-way heap that keeps every unassigned option and can take one
//! back in when it is unassigned.
//!
//! Each time an option gets a value, its score moves towards a reward: the closer the
//! last conflict it took part in, the larger the reward, and larger still when the
//! propagation that set it ended in a conflict. The score is a weighted average that
//! forgets old rewards at a step size that starts at 0.4 and shrinks to 0.06 over the
//! first 340,000 conflicts. Against activity bumped at each conflict (VSIDS), this
//! favours options that keep turning up near conflicts now, not those that once did
//! (docs/PERFORMANCE.md compares the two with `cargo run --release -p bitcsp-compare
//! --bin large`).

/// The step size at the start, its floor, and how much each conflict takes off it.
const STEP_START: f64 = 0.4;
const STEP_FLOOR: f64 = 0.06;
const STEP_DECREMENT: f64 = 1e-6;
/// The reward of an option set by a propagation that ended without a conflict, against
/// 1 for one that ended in a conflict.
const QUIET_REWARD: f64 = 0.9;

/// Options by score, highest first.
#[derive(Clone, Debug)]
pub(super) struct Order {
    score: Vec<f64>,
    /// Per option: the conflict (counted from 1) it last took part in, or 0.
    last_conflict: Vec<u64>,
    conflicts: u64,
    step: f64,
    /// A four-way heap whose entries carry their option's score: a sift compares
    /// entries that lie side by side instead of looking each score up, and has half
    /// the levels of a binary heap.
    heap: Vec<Entry>,
    /// Where each option sits in `heap`, or `ABSENT`.
    place: Vec<u32>,
}

/// An option in the heap, with its score as it stands.
#[derive(Clone, Copy, Debug)]
struct Entry {
    score: f64,
    option: u32,
}

impl Entry {
    /// Whether this entry comes out of the heap before `other`: the higher score first,
    /// ties to the lower option.
    #[inline(always)]
    fn before(&self, other: &Entry) -> bool {
        self.score > other.score || (self.score == other.score && self.option < other.option)
    }
}

const ABSENT: u32 = u32::MAX;
/// Children per heap node.
const ARITY: usize = 4;

/// Random starting scores lie below this, far below any reward within the first 10^9
/// conflicts (at least 0.06 · 0.9 / 10^9), so that they only order options never set.
const TIE_BREAKS: f64 = 1e-12;

impl Order {
    /// Every option in the heap, all with score zero (ties go to the lower index).
    pub(super) fn new(options: usize) -> Self {
        let mut order = Order {
            score: vec![0.0; options],
            last_conflict: vec![0; options],
            conflicts: 0,
            step: STEP_START,
            heap: Vec::with_capacity(options),
            place: vec![ABSENT; options],
        };
        for o in 0..options {
            order.insert(o);
        }
        order
    }

    /// Starting scores far below any reward, drawn from `seed` (not 0): the first
    /// choices, made before any option has a score, and later ties between options never
    /// set, go in a random order instead of by option number. Option `o`'s score is the
    /// draw of number `numbers[o]` (ascending): the options' numbers in the problem as
    /// stated, so that a search over the options left after the root orders them as a
    /// search over all of them would.
    pub(super) fn break_ties(&mut self, seed: u64, numbers: &[u32]) {
        debug_assert_eq!(numbers.len(), self.score.len());
        debug_assert!(numbers.windows(2).all(|w| w[0] < w[1]));
        let mut random = crate::xorshift::XorShift(seed);
        // 53 random bits scaled into [0, TIE_BREAKS): exact in an f64.
        let scale = TIE_BREAKS / (1u64 << 53) as f64;
        let mut drawn = 0;
        for (a, &number) in self.score.iter_mut().zip(numbers) {
            while drawn < number {
                random.next_u64();
                drawn += 1;
            }
            *a = (random.next_u64() >> 11) as f64 * scale;
            drawn += 1;
        }
        self.heap.clear();
        self.place.fill(ABSENT);
        for o in 0..self.score.len() {
            self.insert(o);
        }
    }

    /// `option` takes part in the analysis of the conflict being learned from.
    pub(super) fn in_conflict(&mut self, option: usize) {
        self.last_conflict[option] = self.conflicts + 1;
    }

    /// `option` was set by a propagation that ended in a conflict (`conflict`) or not.
    pub(super) fn reward(&mut self, option: usize, conflict: bool) {
        let (now, reward) = if conflict {
            (self.conflicts + 1, 1.0)
        } else {
            (self.conflicts, QUIET_REWARD)
        };
        // `last_conflict` is at most `now`: an option in the conflict being analysed
        // was set by an earlier propagation, rewarded before it.
        let reward = reward / (now.saturating_sub(self.last_conflict[option]) + 1) as f64;
        let old = self.score[option];
        let new = old + self.step * (reward - old);
        self.score[option] = new;
        // In the heap, the option moves up if its score rose and down if it fell.
        let at = self.place[option];
        if at != ABSENT {
            let at = at as usize;
            self.heap[at].score = new;
            if reward > old {
                self.up(at);
            } else {
                self.down(at);
            }
        }
    }

    /// After each conflict: the conflict is counted, and later rewards weigh less.
    pub(super) fn after_conflict(&mut self) {
        self.conflicts += 1;
        self.step = (self.step - STEP_DECREMENT).max(STEP_FLOOR);
    }

    /// Puts `option` back (when it is unassigned); nothing if it is there.
    pub(super) fn insert(&mut self, option: usize) {
        if self.place[option] != ABSENT {
            return;
        }
        self.place[option] = self.heap.len() as u32;
        self.heap.push(Entry {
            score: self.score[option],
            option: option as u32,
        });
        self.up(self.heap.len() - 1);
    }

    /// Takes out the option of highest score.
    pub(super) fn pop(&mut self) -> Option<usize> {
        let top = self.heap.first()?.option;
        let last = self.heap.pop()?;
        self.place[top as usize] = ABSENT;
        if !self.heap.is_empty() {
            self.put(0, last);
            self.down(0);
        }
        Some(top as usize)
    }

    fn up(&mut self, mut at: usize) {
        let entry = self.heap[at];
        while at > 0 {
            let parent = (at - 1) / ARITY;
            if !entry.before(&self.heap[parent]) {
                break;
            }
            self.put(at, self.heap[parent]);
            at = parent;
        }
        self.put(at, entry);
    }

    /// Places `entry` at `at` in the heap.
    #[inline(always)]
    fn put(&mut self, at: usize, entry: Entry) {
        self.heap[at] = entry;
        self.place[entry.option as usize] = at as u32;
    }

    fn down(&mut self, mut at: usize) {
        let entry = self.heap[at];
        let len = self.heap.len();
        loop {
            let first = ARITY * at + 1;
            if first >= len {
                break;
            }
            let mut child = first;
            for c in first + 1..(first + ARITY).min(len) {
                if self.heap[c].before(&self.heap[child]) {
                    child = c;
                }
            }
            if !self.heap[child].before(&entry) {
                break;
            }
            self.put(at, self.heap[child]);
            at = child;
        }
        self.put(at, entry);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pops_by_score_then_index_and_takes_options_back() {
        let mut order = Order::new(5);
        order.in_conflict(3);
        order.reward(3, true);
        order.reward(1, false);
        assert_eq!(order.pop(), Some(3));
        assert_eq!(order.pop(), Some(1));
        assert_eq!(order.pop(), Some(0));
        order.insert(3);
        order.insert(3);
        assert_eq!(order.pop(), Some(3));
        assert_eq!(order.pop(), Some(2));
        assert_eq!(order.pop(), Some(4));
        assert_eq!(order.pop(), None);
    }

    #[test]
    fn recent_conflicts_earn_more_and_old_scores_fade() {
        let mut order = Order::new(3);
        // Option 0 takes part in the first conflict, option 1 in the tenth.
        order.in_conflict(0);
        order.after_conflict();
        for _ in 1..9 {
            order.after_conflict();
        }
        order.in_conflict(1);
        order.after_conflict();
        order.reward(0, false);
        order.reward(1, false);
        assert_eq!(order.pop(), Some(1));
        assert_eq!(order.pop(), Some(0));
        // Rewards in a conflict's propagation outweigh quiet ones at the same distance
        // (one conflict since each option's last).
        let mut order = Order::new(2);
        order.in_conflict(0);
        order.after_conflict();
        order.in_conflict(1);
        order.after_conflict();
        order.reward(0, false);
        order.reward(1, true);
        assert_eq!(order.pop(), Some(1));
        // A high score decays towards small rewards as they come.
        let mut order = Order::new(2);
        order.in_conflict(0);
        order.reward(0, true);
        order.after_conflict();
        order.reward(1, true);
        for _ in 0..1000 {
            order.after_conflict();
        }
        for _ in 0..20 {
            order.reward(0, false);
        }
        assert_eq!(order.pop(), Some(1));
    }

    #[test]
    fn seeded_ties_are_reproducible_and_yield_to_any_reward() {
        let popped = |seed: u64, rewarded: Option<usize>| {
            let mut order = Order::new(50);
            order.break_ties(seed, &(0..50).collect::<Vec<u32>>());
            for _ in 0..1000 {
                order.after_conflict();
            }
            if let Some(o) = rewarded {
                order.reward(o, false);
            }
            std::iter::from_fn(|| order.pop()).collect::<Vec<_>>()
        };
        let one = popped(1, None);
        assert_eq!(one, popped(1, None));
        assert_ne!(one, popped(2, None));
        assert_ne!(one, (0..50).collect::<Vec<_>>());
        let mut sorted = one.clone();
        sorted.sort_unstable();
        assert_eq!(sorted, (0..50).collect::<Vec<_>>());
        let last = one[49];
        assert_eq!(popped(1, Some(last))[0], last);
    }

    #[test]
    fn a_subset_of_options_keeps_the_order_their_tie_breaks_give_among_all() {
        let all: Vec<u32> = (0..60).collect();
        let mut full = Order::new(60);
        full.break_ties(5, &all);
        let kept: Vec<u32> = all.iter().copied().filter(|o| o % 3 != 1).collect();
        let mut part = Order::new(kept.len());
        part.break_ties(5, &kept);
        let among_all: Vec<u32> = std::iter::from_fn(|| full.pop())
            .map(|o| o as u32)
            .filter(|o| kept.contains(o))
            .collect();
        let among_kept: Vec<u32> = std::iter::from_fn(|| part.pop()).map(|o| kept[o]).collect();
        assert_eq!(among_kept, among_all);
        assert_ne!(among_kept, kept);
    }

    #[test]
    fn pops_follow_the_scores_through_any_mix_of_rewards_pops_and_inserts() {
        let mut random = crate::xorshift::XorShift(7);
        let options = 300;
        let mut order = Order::new(options);
        order.break_ties(3, &(0..options as u32).collect::<Vec<u32>>());
        let mut out = Vec::new();
        for round in 0..2000 {
            let o = random.next_u64() as usize % options;
            match random.next_u64() % 6 {
                0 => order.in_conflict(o),
                1 => order.after_conflict(),
                2 => {
                    if let Some(p) = order.pop() {
                        out.push(p);
                    }
                }
                3 => {
                    if let Some(p) = out.pop() {
                        order.insert(p);
                    }
                }
                _ => order.reward(o, round % 3 == 0),
            }
        }
        let mut expected: Vec<usize> = (0..options).filter(|o| !out.contains(o)).collect();
        expected.sort_by(|&a, &b| order.score[b].total_cmp(&order.score[a]).then(a.cmp(&b)));
        let popped: Vec<usize> = std::iter::from_fn(|| order.pop()).collect();
        assert_eq!(popped, expected);
    }
}
