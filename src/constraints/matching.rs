//! Domain consistency for an all-different group whose values fit one word (Régin 1994,
//! stated with bitsets).
//!
//! Find a matching of variables to values covering every variable (none: fail). A value
//! `v` of variable `x`, other than its matched value `m(x)`, belongs to some full matching
//! exactly when reassigning `x` to `v` can be repaired: `v`'s owner moves to another of its
//! values, whose owner moves on, and so on until a free value is reached or `m(x)`, freed by
//! `x`, is taken. Over values, the step "u → w" means "u's owner can take w"; so `v` stays
//! when a free value or `m(x)` is reachable from `v`. With at most 64 values this is worked
//! out on bitsets on the stack, two ways: when few values are left besides the matched ones
//! (deep in a search), a transitive closure over the values that have successors only (the
//! values of fixed variables have none) and a test per value; when many are (large boards
//! near the root), a backward search from the free values and the strongly connected
//! components (`m(x)` reaches `v` and `v` reaches `m(x)`), in whole words. The matching is
//! rebuilt at every run, most variables taking a value nobody owns yet at once.

use crate::bits::set_bits;
use crate::propagate::Conflict;

const NONE: u8 = u8::MAX;

/// Removes from `masks` (one value-space bitset per variable) every value that belongs to
/// no full matching. Returns whether anything was removed.
pub(crate) fn prune_to_domain_consistency(masks: &mut [u64]) -> Result<bool, Conflict> {
    prune_with(masks, COMPONENTS_PAY_FROM)
}

/// As [`prune_to_domain_consistency`], through strongly connected components from
/// `components_pay_from` alternatives on (a parameter so that tests can compare the two
/// ways).
#[inline(always)]
fn prune_with(masks: &mut [u64], components_pay_from: u32) -> Result<bool, Conflict> {
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
    let mut alternatives = 0u32;
    for (x, &u) in matched.iter().enumerate().take(masks.len()) {
        let successors = masks[x] & !(1u64 << u);
        pivots |= u64::from(successors != 0) << u;
        alternatives += successors.count_ones();
        reach[u as usize] = successors;
    }
    let free = all_values & !matching.claimed;
    // Value v stays in x's domain when it reaches a free value or x's own value.
    let changed = if alternatives < components_pay_from {
        close_transitively(&mut reach, pivots);
        keep_by_value(masks, &matched, &reach, free)
    } else {
        keep_by_components(masks, &matched, &reach, free, all_values)
    };
    Ok(changed)
}

/// Values other than the matched ones, over all variables, from which
/// [`keep_by_components`]' fixed cost (a matrix transpose) is cheaper than the transitive
/// closure and a test per value.
const COMPONENTS_PAY_FROM: u32 = 96;

/// The keep rule tested value by value: cheapest when few values are left besides the
/// matched ones (deep in a search).
fn keep_by_value(masks: &mut [u64], matched: &[u8; 64], reach: &[u64; 64], free: u64) -> bool {
    narrow_each(masks, |x, m| {
        let own = matched[x];
        let mut keep = 1u64 << own;
        for v in set_bits(m & !keep) {
            let from_v = reach[v] | (1 << v);
            if from_v & free != 0 || reach[v] >> own & 1 == 1 {
                keep |= 1 << v;
            }
        }
        keep
    })
}

/// Replaces each variable's values `masks[x]` by `keep(x, masks[x])`; true when any
/// changed.
#[inline(always)]
fn narrow_each(masks: &mut [u64], keep: impl Fn(usize, u64) -> u64) -> bool {
    let mut changed = false;
    for (x, m) in masks.iter_mut().enumerate() {
        let kept = keep(x, *m);
        if kept != *m {
            *m = kept;
            changed = true;
        }
    }
    changed
}

/// The keep rule in whole words per variable, for wide-open domains (large boards near
/// the root), from the successor rows `succ` (not closed). The values that reach a free
/// value are found by one backward search from the free values; a value v of x other
/// than its own is on an alternating cycle through x's own value exactly when the two lie
/// in one strongly connected component (x's own value has an edge to v), found with
/// Kosaraju's two searches on bitsets: each step takes the lowest unvisited successor,
/// so each search costs a few word operations per value instead of the closure's one
/// per pair of values.
fn keep_by_components(
    masks: &mut [u64],
    matched: &[u8; 64],
    succ: &[u64; 64],
    free: u64,
    all_values: u64,
) -> bool {
    let pred = transposed(succ, all_values);
    let to_free = reached_backwards(&pred, free, all_values);
    let mut order = [0u8; 64];
    let finished = finishing_order(succ, all_values, &mut order);
    let mut component = [0u64; 64];
    let mut unassigned = all_values;
    for &u in order[..finished].iter().rev() {
        if unassigned >> u & 1 == 0 {
            continue;
        }
        let members = reached_backwards(&pred, 1 << u, unassigned);
        unassigned &= !members;
        for v in set_bits(members) {
            component[v] = members;
        }
    }
    narrow_each(masks, |x, m| {
        let own = usize::from(matched[x]);
        m & (1 << own | to_free | component[own])
    })
}

/// The values of `within` from which some value of `from` can be reached, `from`
/// included (`pred[w]`: the values with an edge to `w`).
fn reached_backwards(pred: &[u64; 64], from: u64, within: u64) -> u64 {
    let mut seen = from;
    let mut todo = from;
    while todo != 0 {
        let w = todo.trailing_zeros() as usize;
        todo &= todo - 1;
        let new = pred[w] & within & !seen;
        seen |= new;
        todo |= new;
    }
    seen
}

/// Kosaraju's first search: the values of `all_values` in the order a depth-first search
/// over `succ` finishes them, written to `order`; returns how many.
fn finishing_order(succ: &[u64; 64], all_values: u64, order: &mut [u8; 64]) -> usize {
    let mut unvisited = all_values;
    let mut stack = [0u8; 64];
    let mut finished = 0;
    while unvisited != 0 {
        let start = unvisited.trailing_zeros() as u8;
        unvisited &= unvisited - 1;
        stack[0] = start;
        let mut depth = 1;
        while depth > 0 {
            let u = usize::from(stack[depth - 1]);
            let next = succ[u] & unvisited;
            if next != 0 {
                let w = next.trailing_zeros() as u8;
                unvisited &= !(1u64 << w);
                stack[depth] = w;
                depth += 1;
            } else {
                depth -= 1;
                order[finished] = u as u8;
                finished += 1;
            }
        }
    }
    finished
}

/// The transpose of the bit matrix `rows` (bit `u` of row `v` becomes bit `v` of row `u`),
/// by swapping ever smaller blocks (32×32 when every value is below 32). `values` holds
/// every row and column that can be non-empty.
fn transposed(rows: &[u64; 64], values: u64) -> [u64; 64] {
    let mut a = *rows;
    let size = if values >> 32 == 0 { 32 } else { 64 };
    let mut j = size / 2;
    let mut mask: u64 = if size == 64 {
        0x0000_0000_FFFF_FFFF
    } else {
        0x0000_FFFF
    };
    while j != 0 {
        let mut k = 0;
        while k < size {
            let t = ((a[k] >> j) ^ a[k + j]) & mask;
            a[k] ^= t << j;
            a[k + j] ^= t;
            k = (k + j + 1) & !j;
        }
        j /= 2;
        mask ^= mask << j;
    }
    a
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

    /// A reproducible stream of pseudo-random words.
    fn xorshift(seed: u64) -> impl FnMut() -> u64 {
        let mut random = crate::xorshift::XorShift(seed);
        move || random.next_u64()
    }

    #[test]
    fn transposing_swaps_rows_and_columns() {
        let mut rows = [0u64; 64];
        let mut next = xorshift(0x2545_F491_4F6C_DD1D);
        for (values, limit) in [(u64::MAX, 64), (u32::MAX as u64, 32)] {
            for (v, row) in rows.iter_mut().enumerate() {
                let word = next();
                *row = if v < limit { word & values } else { 0 };
            }
            let t = transposed(&rows, values);
            for (v, row) in rows.iter().enumerate() {
                for (u, column) in t.iter().enumerate() {
                    assert_eq!(column >> v & 1, row >> u & 1, "bit ({v}, {u})");
                }
            }
        }
    }

    #[test]
    fn both_ways_of_keeping_values_agree() {
        let mut next = xorshift(0x9E37_79B9_7F4A_7C15);
        let mut pruned = 0;
        for round in 0..2000 {
            let values = if round % 2 == 0 { 25 } else { 64 };
            let n = values as usize - (next() % 4) as usize;
            // Each variable holds its value in a random permutation (so a full matching
            // exists) and a few random others: Hall sets and free values both occur.
            let mut perm: Vec<u64> = (0..values).collect();
            for i in (1..perm.len()).rev() {
                perm.swap(i, (next() % (i as u64 + 1)) as usize);
            }
            let universe = if values == 64 {
                u64::MAX
            } else {
                (1 << values) - 1
            };
            let sparse = round % 3;
            let masks: Vec<u64> = (0..n)
                .map(|i| {
                    let noise = match sparse {
                        0 => next() & next() & next(),
                        1 => next() & next() & next() & next() & next(),
                        _ => next() & next(),
                    };
                    (noise | 1 << perm[i]) & universe
                })
                .collect();
            let (mut by_value, mut by_words) = (masks.clone(), masks.clone());
            let a = prune_with(&mut by_value, u32::MAX);
            let b = prune_with(&mut by_words, 0);
            assert_eq!(a, b, "{masks:x?}");
            assert_eq!(by_value, by_words, "{masks:x?}");
            pruned += usize::from(a == Ok(true));
        }
        assert!(
            pruned > 200,
            "only {pruned} of 2000 instances pruned anything"
        );
    }

    /// Every value some complete matching gives its variable, by trying them all.
    fn supported_by_brute_force(masks: &[u64]) -> Option<Vec<u64>> {
        fn extend(masks: &[u64], x: usize, used: u64, chosen: &mut Vec<usize>, out: &mut [u64]) {
            if x == masks.len() {
                for (y, &v) in chosen.iter().enumerate() {
                    out[y] |= 1 << v;
                }
                return;
            }
            for v in set_bits(masks[x] & !used) {
                chosen.push(v);
                extend(masks, x + 1, used | 1 << v, chosen, out);
                chosen.pop();
            }
        }
        let mut out = vec![0; masks.len()];
        extend(masks, 0, 0, &mut Vec::new(), &mut out);
        out.iter().all(|&m| m != 0).then_some(out)
    }

    #[test]
    fn both_ways_keep_exactly_the_values_of_some_complete_matching() {
        let mut next = xorshift(0x2545_F491_4F6C_DD1D);
        for _ in 0..3000 {
            let values = 2 + next() % 6;
            let n = 1 + (next() % values) as usize;
            let masks: Vec<u64> = (0..n)
                .map(|_| next() & next() & ((1 << values) - 1))
                .collect();
            let expected = supported_by_brute_force(&masks);
            for components_from in [0, u32::MAX] {
                let mut pruned = masks.clone();
                match prune_with(&mut pruned, components_from) {
                    Ok(_) => assert_eq!(Some(pruned), expected, "{masks:?}"),
                    Err(Conflict) => assert_eq!(expected, None, "{masks:?}"),
                }
            }
        }
    }

    #[test]
    fn consistent_domains_stay() {
        let mut masks = [0b0111, 0b0111, 0b1111];
        assert_eq!(prune_to_domain_consistency(&mut masks), Ok(false));
    }
}
