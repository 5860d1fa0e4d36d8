//! Domain consistency for an all-different group whose values fit one word (Régin 1994,
//! stated with bitsets).
//!
//! Find a matching of variables to values covering every variable (none: fail). A value
//! `v` of variable `x`, other than its matched value `m(x)`, belongs to some full matching
//! exactly when reassigning `x` to `v` can be repaired: `v`'s owner moves to another of its
//! values, whose owner moves on, and so on until a free value is reached or `m(x)`, freed by
//! `x`, is taken. Over values, the step "u → w" means "u's owner can take w"; so `v` stays
//! when a free value or `m(x)` is reachable from `v`. With at most 64 values the reachability
//! is a bitset transitive closure on the stack, over the values that have successors only
//! (the values of fixed variables, most of a group deep in a search, have none). The
//! matching is rebuilt at every run, most variables taking a value nobody owns yet at once.

use super::set_bits;
use crate::propagate::Conflict;

const NONE: u8 = u8::MAX;

/// Removes from `masks` (one value-space bitset per variable) every value that belongs to
/// no full matching. Returns whether anything was removed.
pub(crate) fn prune_to_domain_consistency(masks: &mut [u64]) -> Result<bool, Conflict> {
    if masks.len() > 64 {
        // More variables than values: the pigeonhole rule has already failed the group.
        return Err(Conflict);
    }
    let mut matching = Matching {
        owner: [NONE; 64],
        matched: [NONE; 64],
        claimed: 0,
    };
    for (x, &m) in masks.iter().enumerate() {
        // Most variables find a value nobody owns yet (all of them at the first run, and
        // fixed variables always): taken here, without a call.
        if !matching.claim_unowned(x, m) && !matching.augment(x, masks, &mut 0) {
            return Err(Conflict);
        }
    }
    let matched = matching.matched;
    let all_values = masks.iter().fold(0, |acc, m| acc | m);
    let mut pivots = 0u64;
    let mut reach = [0u64; 64];
    for (x, &u) in matched.iter().enumerate().take(masks.len()) {
        let successors = masks[x] & !(1u64 << u);
        pivots |= u64::from(successors != 0) << u;
        reach[u as usize] = successors;
    }
    let free = all_values & !matching.claimed;
    close_transitively(&mut reach, pivots);
    let mut changed = false;
    for (x, m) in masks.iter_mut().enumerate() {
        let own = matched[x];
        let mut keep = 1u64 << own;
        for v in set_bits(*m & !keep) {
            let from_v = reach[v] | (1 << v);
            if from_v & free != 0 || reach[v] >> own & 1 == 1 {
                keep |= 1 << v;
            }
        }
        if keep != *m {
            *m = keep;
            changed = true;
        }
    }
    Ok(changed)
}

/// The transitive closure of the successor rows `reach` (Warshall), where `pivots` are
/// the values with successors. The others — free values, and the values of fixed
/// variables, most of a group deep in a search — have empty rows that stay empty and
/// add nothing as pivots, so the closure runs over the pivots' rows only, gathered side
/// by side. The inner loop has no branch on whether a row reaches the pivot: that is a
/// coin toss for the predictor.
fn close_transitively(reach: &mut [u64; 64], pivots: u64) {
    let mut values = [0u8; 64];
    let mut rows = [0u64; 64];
    let n = pivots.count_ones() as usize;
    for (j, k) in set_bits(pivots).enumerate() {
        values[j] = k as u8;
        rows[j] = reach[k];
    }
    let rows = &mut rows[..n];
    for (j, &k) in values[..n].iter().enumerate() {
        let through_k = rows[j];
        for r in rows.iter_mut() {
            *r |= through_k & 0u64.wrapping_sub(*r >> k & 1);
        }
    }
    for (&k, &row) in values.iter().zip(rows.iter()) {
        reach[usize::from(k)] = row;
    }
}

/// A matching of variables to values, as it is built.
struct Matching {
    /// The variable owning each value (`NONE`: free).
    owner: [u8; 64],
    /// The value of each variable.
    matched: [u8; 64],
    /// The owned values, as a bitset.
    claimed: u64,
}

impl Matching {
    /// Gives `x` the lowest of `values` that nobody owns yet, if there is one.
    #[inline(always)]
    fn claim_unowned(&mut self, x: usize, values: u64) -> bool {
        let unowned = values & !self.claimed;
        if unowned == 0 {
            return false;
        }
        let u = unowned.trailing_zeros() as usize;
        self.claimed |= 1 << u;
        self.assign(x, u);
        true
    }

    #[inline(always)]
    fn assign(&mut self, x: usize, u: usize) {
        self.owner[u] = x as u8;
        self.matched[x] = u as u8;
    }

    /// Kuhn's augmenting path from variable `x`; `visited` holds the owned values already
    /// tried on this path.
    fn augment(&mut self, x: usize, masks: &[u64], visited: &mut u64) -> bool {
        // A value nobody owns yet ends the path at once; try those first.
        if self.claim_unowned(x, masks[x]) {
            return true;
        }
        for u in set_bits(masks[x] & !*visited) {
            *visited |= 1 << u;
            let y = self.owner[u] as usize;
            if self.augment(y, masks, visited) {
                self.assign(x, u);
                return true;
            }
        }
        false
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hall_pair_removes_its_values_elsewhere() {
        // x0, x1 in {0,1}: x2 loses 0 and 1.
        let mut masks = [0b011, 0b011, 0b111];
        assert_eq!(prune_to_domain_consistency(&mut masks), Ok(true));
        assert_eq!(masks, [0b011, 0b011, 0b100]);
    }

    #[test]
    fn too_few_values_fail() {
        let mut masks = [0b11, 0b11, 0b11];
        assert_eq!(prune_to_domain_consistency(&mut masks), Err(Conflict));
    }

    #[test]
    fn consistent_domains_stay() {
        let mut masks = [0b0111, 0b0111, 0b1111];
        assert_eq!(prune_to_domain_consistency(&mut masks), Ok(false));
    }
}
