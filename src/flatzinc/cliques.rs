//! Pairwise disequalities gathered into all-different constraints. MiniZinc decomposes
//! models such as N-Queens into one `x - y != c` per pair; where a set of variables has
//! such a constraint between every two of them with offsets that agree (`x[u] + p[u]` all
//! distinct for some `p`), one all-different with offsets says the same thing exactly and
//! propagates far more cheaply (and more strongly, through the engine's families).
//!
//! The search is greedy: from each disequality not yet covered, a group grows by every
//! variable linked to all its members with the offsets its potentials demand. A group of
//! three or more becomes an all-different; the disequalities no group covers are posted
//! one by one.

use std::collections::{HashMap, HashSet};

/// `x[a] != x[b] + c`, with variables numbered from 0.
pub(crate) type Disequality = (u32, u32, i64);

/// All-different groups (each variable with its offset: the `x[u] + offset` are all
/// distinct) and the disequalities left out of every group.
#[derive(Debug, Default)]
pub(crate) struct Gathered {
    pub(crate) groups: Vec<Vec<(u32, i64)>>,
    pub(crate) rest: Vec<Disequality>,
}

/// Gathers `disequalities` (each between two distinct variables) into groups; together,
/// the groups and the rest require exactly what the disequalities do.
pub(crate) fn gather(disequalities: &[Disequality]) -> Gathered {
    // Each disequality once, as `x[a] + p[a] != x[b] + p[b]` with `p[b] - p[a] = c`
    // and `a < b`.
    let mut present: HashSet<(u32, u32, i64)> = HashSet::with_capacity(disequalities.len());
    let mut neighbours: HashMap<u32, Vec<(u32, i64)>> = HashMap::new();
    let mut order = Vec::with_capacity(disequalities.len());
    for &(a, b, c) in disequalities {
        debug_assert!(a != b, "a variable against itself is the caller's to post");
        let key = normal(a, b, c);
        if present.insert(key) {
            neighbours.entry(key.0).or_default().push((key.1, key.2));
            neighbours.entry(key.1).or_default().push((key.0, -key.2));
            order.push(key);
        }
    }
    let mut covered: HashSet<(u32, u32, i64)> = HashSet::new();
    let mut out = Gathered::default();
    for &(a, b, c) in &order {
        if covered.contains(&(a, b, c)) {
            continue;
        }
        let group = grow(a, b, c, &present, &covered, &neighbours);
        if group.len() < 3 {
            out.rest.push((a, b, c));
            covered.insert((a, b, c));
            continue;
        }
        for (i, &(u, pu)) in group.iter().enumerate() {
            for &(w, pw) in &group[i + 1..] {
                covered.insert(normal(u, w, pw - pu));
            }
        }
        out.groups.push(group);
    }
    out
}

/// `x[a] != x[b] + c` with the smaller variable first.
fn normal(a: u32, b: u32, c: i64) -> (u32, u32, i64) {
    if a < b {
        (a, b, c)
    } else {
        (b, a, -c)
    }
}

/// The group grown from `x[a] != x[b] + c`: potentials 0 for `a` and `c` for `b`, then
/// every neighbour of `a` whose disequalities with all members, none yet covered, agree.
fn grow(
    a: u32,
    b: u32,
    c: i64,
    present: &HashSet<(u32, u32, i64)>,
    covered: &HashSet<(u32, u32, i64)>,
    neighbours: &HashMap<u32, Vec<(u32, i64)>>,
) -> Vec<(u32, i64)> {
    let mut group = vec![(a, 0), (b, c)];
    let mut members: HashSet<u32> = HashSet::from([a, b]);
    let joins = |w: u32, pw: i64, group: &[(u32, i64)]| {
        group.iter().all(|&(u, pu)| {
            let key = normal(u, w, pw - pu);
            present.contains(&key) && !covered.contains(&key)
        })
    };
    for &(w, c_aw) in neighbours.get(&a).map_or(&[][..], Vec::as_slice) {
        // `x[a] != x[w] + c_aw` puts `w` at potential `c_aw`.
        if !members.contains(&w) && joins(w, c_aw, &group) {
            members.insert(w);
            group.push((w, c_aw));
        }
    }
    group
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The disequalities a set of groups and leftovers stands for.
    fn meaning(g: &Gathered) -> HashSet<(u32, u32, i64)> {
        let mut all: HashSet<_> = g.rest.iter().map(|&(a, b, c)| normal(a, b, c)).collect();
        for group in &g.groups {
            for (i, &(u, pu)) in group.iter().enumerate() {
                for &(w, pw) in &group[i + 1..] {
                    all.insert(normal(u, w, pw - pu));
                }
            }
        }
        all
    }

    #[test]
    fn queens_pairs_become_three_groups() {
        let n = 12u32;
        let mut pairs = Vec::new();
        for i in 0..n {
            for j in i + 1..n {
                let d = i64::from(j - i);
                pairs.extend([(i, j, 0), (i, j, d), (i, j, -d)]);
            }
        }
        let g = gather(&pairs);
        assert_eq!(g.groups.len(), 3);
        assert!(g.rest.is_empty());
        assert!(g.groups.iter().all(|group| group.len() == n as usize));
        let expected: HashSet<_> = pairs.iter().map(|&(a, b, c)| normal(a, b, c)).collect();
        assert_eq!(meaning(&g), expected);
    }

    #[test]
    fn random_disequalities_keep_their_meaning() {
        let mut state = 0x9E37_79B9_7F4A_7C15u64;
        let mut next = |m: u64| {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            state % m
        };
        for _ in 0..300 {
            let vars = 2 + next(7) as u32;
            let count = next(30) as usize;
            let pairs: Vec<Disequality> = (0..count)
                .map(|_| {
                    let a = next(u64::from(vars)) as u32;
                    let b = (a + 1 + next(u64::from(vars - 1)) as u32) % vars;
                    (a, b, next(3) as i64 - 1)
                })
                .collect();
            let g = gather(&pairs);
            let expected: HashSet<_> = pairs.iter().map(|&(a, b, c)| normal(a, b, c)).collect();
            assert_eq!(meaning(&g), expected, "{pairs:?}");
        }
    }
}
