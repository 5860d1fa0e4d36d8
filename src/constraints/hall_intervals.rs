//! Bounds consistency for all-different: the algorithm of López-Ortiz, Quimper, Tromp and
//! van Beek ("A fast and simple algorithm for bounds consistency of the alldifferent
//! constraint", IJCAI 2003), in O(n log n) for the sorting and near-linear time after.
//!
//! Each variable is taken as its range `lo..=hi`. A *Hall interval* is a range of values
//! holding as many variables' whole ranges as it has values: those variables use up every
//! value in it, so no other variable may keep a bound inside it. The lower pass visits the
//! ranges by increasing upper bound and keeps, in two union-find-like forests over the
//! distinct bounds, the capacity left in each stretch of values and the Hall intervals
//! found so far; a range whose lower bound lies in a Hall interval has it moved past the
//! interval's end. The upper pass is its mirror image. After one of each, every range's
//! ends have supports in the others' ranges (bounds(Z) consistency).
//!
//! Everything is on `u64` positions (a group's value space, or values shifted to start at
//! zero), with the working memory the caller passes: no allocation per run.

use crate::propagate::Conflict;

/// The bits of a sort key that hold a variable's index; the bound above them.
const INDEX_BITS: u32 = 28;

/// The words of working memory [`narrow`] needs for `n` variables.
pub(crate) fn scratch_words(n: usize) -> usize {
    4 * n + 4 * (2 * n + 2)
}

/// Whether [`narrow`] can move an end, once the fixed variables' values have left the
/// others (the all-different's first rule): a Hall interval that moves another range's
/// end holds fewer ranges than there are variables, and one of them unfixed, whose range
/// is then no longer than the number of variables less one. When no unfixed range is that
/// short, the sort and the passes are skipped.
pub(crate) fn worth_running(lo: &[u64], hi: &[u64]) -> bool {
    let longest = lo.len().saturating_sub(2) as u64;
    lo.iter().zip(hi).any(|(&l, &h)| l < h && h - l <= longest)
}

/// Moves the ranges' ends out of the Hall intervals of the ranges `lo[i]..=hi[i]`
/// (`lo[i] ≤ hi[i]`, every position below 2^36, fewer than 2^28 ranges: a bound and an
/// index share one sort key), as one lower and one upper
/// pass. Returns whether an end moved. One call reaches bounds consistency on the ranges,
/// as the paper shows (the unit test checks that a second call moves nothing).
///
/// # Errors
/// [`Conflict`] when some range of values holds more variables' ranges than it has
/// values.
pub(crate) fn narrow(lo: &mut [u64], hi: &mut [u64], work: &mut [u64]) -> Result<bool, Conflict> {
    let n = lo.len();
    if n == 0 {
        return Ok(false);
    }
    let slots = 2 * n + 2;
    let (min_sorted, rest) = work.split_at_mut(n);
    let (max_sorted, rest) = rest.split_at_mut(n);
    let (min_rank, rest) = rest.split_at_mut(n);
    let (max_rank, rest) = rest.split_at_mut(n);
    let (bounds, rest) = rest.split_at_mut(slots);
    let (tree, rest) = rest.split_at_mut(slots);
    let (capacity, rest) = rest.split_at_mut(slots);
    let hall = &mut rest[..slots];
    debug_assert!(n < 1 << INDEX_BITS && hi.iter().all(|&h| h < 1 << (64 - INDEX_BITS)));
    for (i, (a, b)) in min_sorted.iter_mut().zip(max_sorted.iter_mut()).enumerate() {
        (*a, *b) = (
            lo[i] << INDEX_BITS | i as u64,
            hi[i] << INDEX_BITS | i as u64,
        );
    }
    min_sorted.sort_unstable();
    max_sorted.sort_unstable();
    let mut ranks = Ranks {
        min_sorted,
        max_sorted,
        min_rank,
        max_rank,
    };
    let top = ranks.fill(bounds);
    let mut forests = Forests {
        bounds,
        tree,
        capacity,
        hall,
    };
    let raised = forests.raise_lower_bounds(&ranks, top, lo)?;
    let lowered = forests.lower_upper_bounds(&ranks, top, hi)?;
    Ok(raised || lowered)
}

/// The variables sorted by lower and by upper bound (as keys: the bound above the index),
/// and each bound's rank among the distinct bounds.
struct Ranks<'a> {
    min_sorted: &'a [u64],
    max_sorted: &'a [u64],
    min_rank: &'a mut [u64],
    max_rank: &'a mut [u64],
}

/// The distinct bounds and the two forests over the stretches between them.
struct Forests<'a> {
    /// The distinct lower bounds and upper bounds plus one, all shifted up by 2, between
    /// two sentinels.
    bounds: &'a mut [u64],
    /// Where each stretch's capacity is found (a path to the next stretch with room).
    tree: &'a mut [u64],
    /// The values of each stretch not yet given to a variable.
    capacity: &'a mut [u64],
    /// The Hall intervals found so far, as paths to their ends.
    hall: &'a mut [u64],
}

impl Ranks<'_> {
    /// Merges the lower bounds and the upper bounds plus one into `bounds` (shifted up by
    /// 2, so that the sentinel below stays at or above zero), giving each variable the
    /// rank of both its bounds; returns the rank of the largest.
    fn fill(&mut self, bounds: &mut [u64]) -> usize {
        let n = self.min_sorted.len();
        let low = |k: usize| (self.min_sorted[k] >> INDEX_BITS) + 2;
        let high = |k: usize| (self.max_sorted[k] >> INDEX_BITS) + 3;
        let (mut min, mut max) = (low(0), high(0));
        let mut last = min - 2;
        bounds[0] = last;
        let (mut top, mut i, mut j) = (0, 0, 0);
        loop {
            if i < n && min < max {
                if min != last {
                    top += 1;
                    bounds[top] = min;
                    last = min;
                }
                self.min_rank[index(self.min_sorted[i])] = top as u64;
                i += 1;
                if i < n {
                    min = low(i);
                }
            } else {
                if max != last {
                    top += 1;
                    bounds[top] = max;
                    last = max;
                }
                self.max_rank[index(self.max_sorted[j])] = top as u64;
                j += 1;
                if j == n {
                    break;
                }
                max = high(j);
            }
        }
        bounds[top + 1] = bounds[top] + 2;
        top
    }
}

impl Forests<'_> {
    /// The lower pass: ranges by increasing upper bound, each taking the first value with
    /// room from its lower bound on; a lower bound inside a Hall interval moves past it.
    fn raise_lower_bounds(
        &mut self,
        ranks: &Ranks,
        top: usize,
        lo: &mut [u64],
    ) -> Result<bool, Conflict> {
        let Forests {
            bounds,
            tree,
            capacity,
            hall,
        } = self;
        for i in 1..=top + 1 {
            tree[i] = (i - 1) as u64;
            hall[i] = (i - 1) as u64;
            capacity[i] = bounds[i] - bounds[i - 1];
        }
        let mut moved = false;
        for &key in ranks.max_sorted {
            let v = index(key);
            let (x, y) = (ranks.min_rank[v] as usize, ranks.max_rank[v] as usize);
            let mut z = path_max(tree, x + 1);
            let j = tree[z] as usize;
            capacity[z] -= 1;
            if capacity[z] == 0 {
                tree[z] = (z + 1) as u64;
                z = path_max(tree, tree[z] as usize);
                tree[z] = j as u64;
            }
            path_set(tree, x + 1, z, z);
            if slack(capacity[z], bounds[z], bounds[y]) < 0 {
                return Err(Conflict);
            }
            if hall[x] as usize > x {
                let w = path_max(hall, hall[x] as usize);
                lo[v] = bounds[w] - 2;
                path_set(hall, x, w, w);
                moved = true;
            }
            if slack(capacity[z], bounds[z], bounds[y]) == 0 {
                path_set(hall, hall[y] as usize, j - 1, y);
                hall[y] = (j - 1) as u64;
            }
        }
        Ok(moved)
    }

    /// The upper pass, the mirror image of the lower one: ranges by decreasing lower
    /// bound, each taking the last value with room up to its upper bound.
    fn lower_upper_bounds(
        &mut self,
        ranks: &Ranks,
        top: usize,
        hi: &mut [u64],
    ) -> Result<bool, Conflict> {
        let Forests {
            bounds,
            tree,
            capacity,
            hall,
        } = self;
        for i in 0..=top {
            tree[i] = (i + 1) as u64;
            hall[i] = (i + 1) as u64;
            capacity[i] = bounds[i + 1] - bounds[i];
        }
        let mut moved = false;
        for &key in ranks.min_sorted.iter().rev() {
            let v = index(key);
            let (x, y) = (ranks.max_rank[v] as usize, ranks.min_rank[v] as usize);
            let mut z = path_min(tree, x - 1);
            let j = tree[z] as usize;
            capacity[z] -= 1;
            if capacity[z] == 0 {
                tree[z] = (z - 1) as u64;
                z = path_min(tree, tree[z] as usize);
                tree[z] = j as u64;
            }
            path_set(tree, x - 1, z, z);
            if slack(capacity[z], bounds[y], bounds[z]) < 0 {
                return Err(Conflict);
            }
            if (hall[x] as usize) < x {
                let w = path_min(hall, hall[x] as usize);
                hi[v] = bounds[w] - 3;
                path_set(hall, x, w, w);
                moved = true;
            }
            if slack(capacity[z], bounds[y], bounds[z]) == 0 {
                path_set(hall, hall[y] as usize, j + 1, y);
                hall[y] = (j + 1) as u64;
            }
        }
        Ok(moved)
    }
}

/// The variable a sort key stands for.
fn index(key: u64) -> usize {
    (key & ((1 << INDEX_BITS) - 1)) as usize
}

/// `capacity - (far - near)`, signed: the stretch's room beyond what the values from
/// `near` to `far` (which may lie on either side) demand. Negative is a conflict, zero a
/// Hall interval.
fn slack(capacity: u64, far: u64, near: u64) -> i64 {
    // Positions stay below 2^38 (shifted bounds of positions below 2^36).
    capacity as i64 - (far as i64 - near as i64)
}

/// Follows `t` upwards from `i` to the end of its path.
fn path_max(t: &[u64], mut i: usize) -> usize {
    while t[i] as usize > i {
        i = t[i] as usize;
    }
    i
}

/// Follows `t` downwards from `i` to the end of its path.
fn path_min(t: &[u64], mut i: usize) -> usize {
    while (t[i] as usize) < i {
        i = t[i] as usize;
    }
    i
}

/// Points every node on the path from `start` to `end` (excluded) at `to`.
fn path_set(t: &mut [u64], start: usize, end: usize, to: usize) {
    let mut node = start;
    while node != end {
        let next = t[node] as usize;
        t[node] = to as u64;
        node = next;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::xorshift::XorShift;

    /// Bounds consistency by brute force: each range's ends moved in until each has a
    /// support, an assignment of different values within the others' ranges.
    fn reference(lo: &[u64], hi: &[u64]) -> Option<(Vec<u64>, Vec<u64>)> {
        let n = lo.len();
        let supported = |var: usize, value: u64| {
            let mut used = vec![value];
            place(lo, hi, var, 0, &mut used)
        };
        let (mut new_lo, mut new_hi) = (lo.to_vec(), hi.to_vec());
        for v in 0..n {
            new_lo[v] = (lo[v]..=hi[v]).find(|&x| supported(v, x))?;
            new_hi[v] = (lo[v]..=hi[v]).rev().find(|&x| supported(v, x))?;
        }
        Some((new_lo, new_hi))
    }

    /// Whether the variables from `at` on (skipping `skip`) take values in their ranges
    /// different from `used` and from each other.
    fn place(lo: &[u64], hi: &[u64], skip: usize, at: usize, used: &mut Vec<u64>) -> bool {
        if at == lo.len() {
            return true;
        }
        if at == skip {
            return place(lo, hi, skip, at + 1, used);
        }
        for x in lo[at]..=hi[at] {
            if !used.contains(&x) {
                used.push(x);
                if place(lo, hi, skip, at + 1, used) {
                    return true;
                }
                used.pop();
            }
        }
        false
    }

    #[test]
    fn one_call_reaches_bounds_consistency() {
        let mut rng = XorShift(7);
        for case in 0..20_000 {
            let n = 1 + (rng.next_u64() % 7) as usize;
            let span = 1 + rng.next_u64() % 9;
            let mut lo: Vec<u64> = (0..n).map(|_| rng.next_u64() % span).collect();
            let mut hi: Vec<u64> = lo.iter().map(|&l| l + rng.next_u64() % 4).collect();
            let expected = reference(&lo, &hi);
            let start = (lo.clone(), hi.clone());
            let mut work = vec![0; scratch_words(n)];
            let result = narrow(&mut lo, &mut hi, &mut work).map(|_| false);
            if result.is_ok() && narrow(&mut lo, &mut hi, &mut work) == Ok(true) {
                panic!("case {case} {start:?}: a second call moved a bound");
            }
            if result.is_ok() {
                assert!(
                    lo.iter().zip(&hi).all(|(l, h)| l <= h),
                    "case {case}: an empty range"
                );
            }
            match expected {
                None => assert_eq!(result, Err(Conflict), "case {case}"),
                Some((l, h)) => {
                    assert_eq!(result, Ok(false), "case {case} {start:?}");
                    assert_eq!((lo, hi), (l, h), "case {case}");
                }
            }
        }
    }
}
