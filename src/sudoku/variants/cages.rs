//! Killer cages: the sets of distinct digits that make a sum, and the cage's tuples.

use std::collections::HashMap;
use std::convert::Infallible;
use std::sync::{Arc, Mutex, OnceLock};

use crate::{ModelError, TupleSet};

/// The smallest and largest sums of `k` distinct digits from `1..=n`.
pub fn sum_range(k: usize, n: usize) -> (i64, i64) {
    let k = k as i64;
    let n = n as i64;
    (k * (k + 1) / 2, k * (2 * n - k + 1) / 2)
}

/// A cage's size, the board's side and the cage's sum: what its combinations and tuples
/// depend on.
type CageKey = (usize, usize, i64);

/// The value `cache` holds for `key`, built by `build` the first time and shared after.
/// A poisoned lock only costs the sharing.
fn cached<V: Clone, E>(
    cache: &OnceLock<Mutex<HashMap<CageKey, V>>>,
    key: CageKey,
    build: impl FnOnce() -> Result<V, E>,
) -> Result<V, E> {
    let cache = cache.get_or_init(Mutex::default);
    if let Some(found) = cache.lock().ok().and_then(|c| c.get(&key).cloned()) {
        return Ok(found);
    }
    let built = build()?;
    if let Ok(mut c) = cache.lock() {
        c.insert(key, built.clone());
    }
    Ok(built)
}

/// [`combinations`], worked out once per process for each cage size, board side and sum,
/// and shared: every killer puzzle asks for them, and the same few recur.
pub fn combinations_cached(k: usize, n: usize, sum: i64) -> Arc<[u64]> {
    static CACHE: OnceLock<Mutex<HashMap<CageKey, Arc<[u64]>>>> = OnceLock::new();
    cached(&CACHE, (k, n, sum), || {
        Ok::<_, Infallible>(combinations(k, n, sum).into())
    })
    .unwrap_or_else(|never| match never {})
}

/// Every set of `k` distinct digits from `1..=n` summing to `sum`, as bit masks.
pub fn combinations(k: usize, n: usize, sum: i64) -> Vec<u64> {
    let mut out = Vec::new();
    extend(&mut out, 0, 1, k, n, sum);
    out
}

fn extend(out: &mut Vec<u64>, chosen: u64, next: usize, left: usize, n: usize, sum: i64) {
    if left == 0 {
        if sum == 0 {
            out.push(chosen);
        }
        return;
    }
    for d in next..=n {
        // The smallest sum still reachable with `left` digits from d up.
        let least = (left as i64) * (2 * d as i64 + left as i64 - 1) / 2;
        if least > sum {
            break;
        }
        extend(
            out,
            chosen | 1 << (d - 1),
            d + 1,
            left - 1,
            n,
            sum - d as i64,
        );
    }
}

/// The number of tuples a table over a cage of `k` cells would hold: each combination
/// in every order (`None` past `limit`).
pub fn tuple_count(combos: usize, k: usize, limit: usize) -> Option<usize> {
    (1..=k)
        .try_fold(combos, |acc, i| acc.checked_mul(i))
        .filter(|&t| t <= limit)
}

/// The tuples of a cage of `k` cells summing to `sum` on a board of side `n`, built
/// once per process and shared, with their compiled supports: killer puzzles repeat the
/// same few cages.
///
/// # Errors
/// None in practice: every tuple has `k` digits.
pub fn tuples_cached(k: usize, n: usize, sum: i64) -> Result<TupleSet, ModelError> {
    static CACHE: OnceLock<Mutex<HashMap<CageKey, TupleSet>>> = OnceLock::new();
    cached(&CACHE, (k, n, sum), || {
        TupleSet::new(k, &tuples(&combinations_cached(k, n, sum), k))
    })
}

/// Every ordering of every combination, as tuples of digits.
pub fn tuples(combos: &[u64], k: usize) -> Vec<Vec<i32>> {
    let mut out = Vec::new();
    for &c in combos {
        let digits: Vec<i32> = (0..64).filter(|b| c >> b & 1 == 1).map(|b| b + 1).collect();
        permute(&mut out, &mut Vec::with_capacity(k), &digits, 0);
    }
    out
}

fn permute(out: &mut Vec<Vec<i32>>, prefix: &mut Vec<i32>, digits: &[i32], used: u64) {
    if prefix.len() == digits.len() {
        out.push(prefix.clone());
        return;
    }
    for (i, &d) in digits.iter().enumerate() {
        if used >> i & 1 == 0 {
            prefix.push(d);
            permute(out, prefix, digits, used | 1 << i);
            prefix.pop();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn combinations_are_the_brute_force_subsets() {
        for n in [4usize, 9] {
            for k in 1..=n {
                let (lo, hi) = sum_range(k, n);
                for sum in lo - 1..=hi + 1 {
                    let mut expected: Vec<u64> = (0u64..1 << n)
                        .filter(|m| m.count_ones() as usize == k)
                        .filter(|m| {
                            (0..n)
                                .filter(|b| m >> b & 1 == 1)
                                .map(|b| b as i64 + 1)
                                .sum::<i64>()
                                == sum
                        })
                        .collect();
                    let mut found = combinations(k, n, sum);
                    expected.sort_unstable();
                    found.sort_unstable();
                    assert_eq!(found, expected, "n {n} k {k} sum {sum}");
                    assert_eq!(found.is_empty(), !(lo..=hi).contains(&sum));
                }
            }
        }
    }

    #[test]
    fn tuples_are_every_order_of_every_combination() {
        let combos = combinations(3, 9, 7); // {1,2,4}
        assert_eq!(tuples(&combos, 3).len(), 6);
        assert_eq!(tuple_count(1, 3, 100), Some(6));
        assert_eq!(tuple_count(1, 9, 100), None);
    }
}
