//! The linear relaxation of a knapsack: the profit `P = Σ p_i x_i` can be no more than the
//! best fractional filling of the capacity `W ≥ Σ w_i x_i` (Dantzig 1957: items by
//! decreasing profit per unit of weight, the last one cut), with each `x_i` within its
//! bounds. Paired with the two sums themselves (posted beside it as linear equalities),
//! this gives branch and bound the bound that a sum's bounds alone do not: with an
//! objective `P ≥ best + 1`, a branch whose relaxation cannot reach it fails at once.
//!
//! Besides capping `P`, each item's bounds are tested: when moving `x_i` to its largest
//! (or smallest) value leaves the relaxation below `P`'s smallest value, that value goes.
//! Weights and profits are non-negative and the items' values too (checked by the model).

use crate::bits::{pack_pair, unpack_pair};
use crate::propagate::{Conflict, Engine};

/// An item's packed bounds.
fn unpack(word: u64) -> (i64, i64) {
    let (lo, hi) = unpack_pair(word);
    (i64::from(lo), i64::from(hi))
}

/// The relaxation over items `vars` with `weights` and `profits`, capacity `capacity`
/// and profit `profit` (store indices).
#[derive(Clone, Debug)]
pub(crate) struct Knapsack {
    /// The items, then the capacity, then the profit.
    vars: Vec<usize>,
    weights: Vec<i64>,
    profits: Vec<i64>,
    /// The items by decreasing profit per unit of weight (weightless items first).
    order: Vec<usize>,
}

impl Knapsack {
    pub(crate) fn new(
        items: &[usize],
        weights: &[i32],
        profits: &[i32],
        capacity: usize,
        profit: usize,
    ) -> Self {
        let weights: Vec<i64> = weights.iter().map(|&w| i64::from(w)).collect();
        let profits: Vec<i64> = profits.iter().map(|&p| i64::from(p)).collect();
        let mut order: Vec<usize> = (0..items.len()).collect();
        // Weightless items first; the others by p_a / w_a > p_b / w_b, that is
        // p_a · w_b > p_b · w_a, which is a total order only between positive weights (a
        // weightless item would compare equal to every item and break the sort).
        order.sort_by(|&a, &b| match (weights[a] == 0, weights[b] == 0) {
            (true, true) => a.cmp(&b),
            (true, false) => std::cmp::Ordering::Less,
            (false, true) => std::cmp::Ordering::Greater,
            (false, false) => (profits[b] * weights[a])
                .cmp(&(profits[a] * weights[b]))
                .then(a.cmp(&b)),
        });
        let mut vars = items.to_vec();
        vars.push(capacity);
        vars.push(profit);
        Knapsack {
            vars,
            weights,
            profits,
            order,
        }
    }

    pub(crate) fn vars(&self) -> &[usize] {
        &self.vars
    }

    fn items(&self) -> usize {
        self.weights.len()
    }

    /// One scratch word per item: its bounds during a pass.
    pub(crate) fn scratch_words(&self) -> usize {
        self.items()
    }

    #[inline(never)]
    pub(crate) fn propagate(&self, e: &mut Engine, scratch: &mut [u64]) -> Result<(), Conflict> {
        let n = self.items();
        let (capacity, profit) = (self.vars[n], self.vars[n + 1]);
        let bounds = &mut scratch[..n];
        loop {
            self.item_bounds(e, bounds)?;
            let room = i64::from(e.store.max(capacity).ok_or(Conflict)?);
            let best = self.relaxation(bounds, room, None).ok_or(Conflict)?;
            let mut moved = e.restrict_range(profit, None, Some(i128::from(best)))?;
            let need = i64::from(e.store.min(profit).ok_or(Conflict)?);
            for i in 0..n {
                let (lo, hi) = unpack(bounds[i]);
                if lo == hi {
                    continue;
                }
                if self
                    .relaxation(bounds, room, Some((i, hi)))
                    .is_none_or(|b| b < need)
                {
                    moved |= e.restrict_range(self.vars[i], None, Some(i128::from(hi) - 1))?;
                }
                if self
                    .relaxation(bounds, room, Some((i, lo)))
                    .is_none_or(|b| b < need)
                {
                    moved |= e.restrict_range(self.vars[i], Some(i128::from(lo) + 1), None)?;
                }
            }
            if !moved {
                return Ok(());
            }
        }
    }

    /// Each item's smallest and largest value, packed into `bounds`.
    fn item_bounds(&self, e: &Engine, bounds: &mut [u64]) -> Result<(), Conflict> {
        for (slot, &x) in bounds.iter_mut().zip(&self.vars) {
            match (e.store.min(x), e.store.max(x)) {
                (Some(lo), Some(hi)) => *slot = pack_pair(lo, hi),
                _ => return Err(Conflict),
            }
        }
        Ok(())
    }

    /// The best profit of the fractional filling of `room` within `bounds`, with item
    /// `fixed.0` held at `fixed.1` if given (rounded down); `None` when even the smallest
    /// values do not fit.
    fn relaxation(&self, bounds: &[u64], room: i64, fixed: Option<(usize, i64)>) -> Option<i64> {
        let bound = |i: usize| match fixed {
            Some((f, v)) if f == i => (v, v),
            _ => unpack(bounds[i]),
        };
        let mut left = i128::from(room);
        let mut total: i128 = 0;
        for i in 0..self.items() {
            let (lo, _) = bound(i);
            left -= i128::from(self.weights[i]) * i128::from(lo);
            total += i128::from(self.profits[i]) * i128::from(lo);
        }
        if left < 0 {
            return None;
        }
        for &i in &self.order {
            let (lo, hi) = bound(i);
            let (w, p) = (i128::from(self.weights[i]), i128::from(self.profits[i]));
            let more = i128::from(hi - lo);
            if w == 0 {
                total += p * more;
                continue;
            }
            let whole = more.min(left / w);
            total += p * whole;
            left -= w * whole;
            if whole < more {
                // The critical item: the fraction of one more unit that still fits.
                total += p * left / w;
                break;
            }
        }
        Some(i64::try_from(total).unwrap_or(i64::MAX))
    }
}
