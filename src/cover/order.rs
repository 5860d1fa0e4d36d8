//! The order of choices: options by conflict activity (VSIDS), in a binary heap that
//! keeps every unassigned option and can take one back in when it is unassigned.

/// Activities above this are scaled down, all together, so that they stay finite.
const RESCALE_ABOVE: f64 = 1e100;

/// Options by activity, highest first.
#[derive(Clone, Debug)]
pub(super) struct Order {
    activity: Vec<f64>,
    /// The amount a bump adds; it grows by `1 / decay` after every conflict, which decays
    /// every earlier bump relative to the later ones.
    bump: f64,
    decay: f64,
    heap: Vec<u32>,
    /// Where each option sits in `heap`, or `ABSENT`.
    place: Vec<u32>,
}

const ABSENT: u32 = u32::MAX;

/// Random starting activities lie below this: a thousandth of the first bump, so that
/// any option that took part in a conflict comes before every option that did not.
const TIE_BREAKS: f64 = 1e-3;

impl Order {
    /// Every option in the heap, all with activity zero (ties go to the lower index).
    pub(super) fn new(options: usize, decay: f64) -> Self {
        let mut order = Order {
            activity: vec![0.0; options],
            bump: 1.0,
            decay,
            heap: Vec::with_capacity(options),
            place: vec![ABSENT; options],
        };
        for o in 0..options {
            order.insert(o);
        }
        order
    }

    /// Starting activities far below a bump, drawn from `seed` (not 0): the first choices,
    /// made before any conflict, and later ties between options never bumped, go in a
    /// random order instead of by option number.
    pub(super) fn break_ties(&mut self, seed: u64) {
        let mut random = crate::xorshift::XorShift(seed);
        // 53 random bits scaled into [0, TIE_BREAKS): exact in an f64.
        let scale = TIE_BREAKS / (1u64 << 53) as f64;
        for a in &mut self.activity {
            *a = (random.next_u64() >> 11) as f64 * scale;
        }
        self.heap.clear();
        self.place.fill(ABSENT);
        for o in 0..self.activity.len() {
            self.insert(o);
        }
    }

    /// Raises `option`'s activity for taking part in a conflict.
    pub(super) fn bump(&mut self, option: usize) {
        self.activity[option] += self.bump;
        if self.activity[option] > RESCALE_ABOVE {
            for a in &mut self.activity {
                *a *= 1.0 / RESCALE_ABOVE;
            }
            self.bump *= 1.0 / RESCALE_ABOVE;
        }
        if self.place[option] != ABSENT {
            self.up(self.place[option] as usize);
        }
    }

    /// After a conflict: later bumps weigh more.
    pub(super) fn decay(&mut self) {
        self.bump /= self.decay;
    }

    /// Puts `option` back (when it is unassigned); nothing if it is there.
    pub(super) fn insert(&mut self, option: usize) {
        if self.place[option] != ABSENT {
            return;
        }
        self.place[option] = self.heap.len() as u32;
        self.heap.push(option as u32);
        self.up(self.heap.len() - 1);
    }

    /// Takes out the most active option.
    pub(super) fn pop(&mut self) -> Option<usize> {
        let top = *self.heap.first()?;
        let last = self.heap.pop()?;
        self.place[top as usize] = ABSENT;
        if !self.heap.is_empty() {
            self.heap[0] = last;
            self.place[last as usize] = 0;
            self.down(0);
        }
        Some(top as usize)
    }

    fn before(&self, a: u32, b: u32) -> bool {
        let (x, y) = (self.activity[a as usize], self.activity[b as usize]);
        x > y || (x == y && a < b)
    }

    fn up(&mut self, mut at: usize) {
        let o = self.heap[at];
        while at > 0 {
            let parent = (at - 1) / 2;
            if !self.before(o, self.heap[parent]) {
                break;
            }
            self.put(at, self.heap[parent]);
            at = parent;
        }
        self.put(at, o);
    }

    /// Places option `o` at `at` in the heap.
    fn put(&mut self, at: usize, o: u32) {
        self.heap[at] = o;
        self.place[o as usize] = at as u32;
    }

    fn down(&mut self, mut at: usize) {
        let o = self.heap[at];
        loop {
            let left = 2 * at + 1;
            if left >= self.heap.len() {
                break;
            }
            let right = left + 1;
            let child = if right < self.heap.len() && self.before(self.heap[right], self.heap[left])
            {
                right
            } else {
                left
            };
            if !self.before(self.heap[child], o) {
                break;
            }
            self.put(at, self.heap[child]);
            at = child;
        }
        self.put(at, o);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pops_by_activity_then_index_and_takes_options_back() {
        let mut order = Order::new(5, 0.95);
        order.bump(3);
        order.bump(1);
        order.bump(3);
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
    fn later_bumps_outweigh_earlier_ones() {
        let mut order = Order::new(2, 0.5);
        order.bump(0);
        order.decay();
        order.bump(1);
        assert_eq!(order.pop(), Some(1));
    }

    #[test]
    fn seeded_ties_are_reproducible_and_yield_to_any_bump() {
        let popped = |seed: u64, bumped: Option<usize>| {
            let mut order = Order::new(50, 0.95);
            order.break_ties(seed);
            if let Some(o) = bumped {
                order.bump(o);
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
}
