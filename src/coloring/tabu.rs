//! A better upper bound than DSATUR's: tabu search for a coloring with fewer colors
//! (TabuCol, Hertz and de Werra 1987).
//!
//! The exhaustive search proves bounds but finds colorings of large, dense graphs slowly,
//! where local search finds them quickly: a graph with a planted coloring that DSATUR
//! misses by far is the example in `coloring::tests::local_search_finds_the_coloring_the_search_budget_misses`.
//! The exhaustive search then only has to prove that no coloring with fewer exists.
//! Seeded and counted in moves, so the coloring found is the same on every run.

use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

use super::graph::Graph;
use crate::xorshift::XorShift;

/// Moves tried per attempt at `k` colors: enough for the planted colorings of the tests,
/// few enough that an attempt at an impossible `k` stays a small part of a proof.
pub(crate) const MOVES: u64 = 200_000;

/// The largest vertices × colors table tabu search keeps (12 bytes an entry: 48 MiB). A
/// move scans every vertex, so graphs that large would also make each attempt slow.
const MAX_TABLE: usize = 1 << 22;

/// A proper coloring of `graph` with colors `0..k`, found by tabu search from `start`
/// (colors `k` and above are first renamed into `0..k`), or `None` once `moves` moves or
/// the `deadline` have passed.
pub(crate) fn tabu_coloring(
    graph: &Graph,
    k: usize,
    start: &[usize],
    moves: u64,
    deadline: Option<Instant>,
    cancel: Option<&AtomicBool>,
) -> Option<Vec<usize>> {
    let n = graph.num_vertices();
    if k == 0 || n == 0 || start.len() != n || n.saturating_mul(k) > MAX_TABLE {
        return (n == 0).then(Vec::new);
    }
    let mut state = State::new(graph, k, start);
    let mut random = XorShift(0x2545_F491_4F6C_DD1D ^ (k as u64) << 32 ^ n as u64);
    let mut best_conflicts = state.conflicts;
    let mut candidates: Vec<(usize, usize)> = Vec::new();
    for iteration in 0..moves {
        if state.conflicts == 0 {
            return Some(state.color);
        }
        let checked = iteration % 256 == 0;
        if checked && deadline.is_some_and(|d| Instant::now() >= d) {
            return None;
        }
        if checked && cancel.is_some_and(|c| c.load(Ordering::Relaxed)) {
            return None;
        }
        // The best move of a vertex in conflict: the fewest conflicts after it, among the
        // moves not tabu and those that would beat the best state seen (aspiration).
        candidates.clear();
        let mut best_delta = i64::MAX;
        let mut in_conflict = 0usize;
        for v in 0..n {
            let own = state.gamma[v * k + state.color[v]];
            if own == 0 {
                continue;
            }
            in_conflict += 1;
            for c in (0..k).filter(|&c| c != state.color[v]) {
                let delta = i64::from(state.gamma[v * k + c]) - i64::from(own);
                let tabu = state.tabu[v * k + c] > iteration;
                let aspired = (state.conflicts as i64 + delta) < best_conflicts as i64;
                if (tabu && !aspired) || delta > best_delta {
                    continue;
                }
                if delta < best_delta {
                    best_delta = delta;
                    candidates.clear();
                }
                candidates.push((v, c));
            }
        }
        let Some(&(v, c)) = candidates.get(random.below(candidates.len())) else {
            continue; // every move is tabu: wait for one to expire
        };
        let old = state.color[v];
        state.recolor(graph, v, c);
        let tenure = in_conflict * 6 / 10 + random.below(10);
        state.tabu[v * k + old] = iteration + 1 + tenure as u64;
        best_conflicts = best_conflicts.min(state.conflicts);
    }
    (state.conflicts == 0).then_some(state.color)
}

/// A coloring with its conflict counts.
struct State {
    k: usize,
    color: Vec<usize>,
    /// `gamma[v * k + c]`: how many neighbours of `v` have color `c`.
    gamma: Vec<u32>,
    /// `tabu[v * k + c]`: the first move at which `v` may take color `c` again.
    tabu: Vec<u64>,
    /// Edges whose ends have the same color.
    conflicts: usize,
}

impl State {
    fn new(graph: &Graph, k: usize, start: &[usize]) -> Self {
        let n = graph.num_vertices();
        let color: Vec<usize> = start.iter().map(|&c| c % k).collect();
        let mut gamma = vec![0u32; n * k];
        let mut conflicts = 0;
        for v in 0..n {
            for &u in graph.neighbours(v) {
                let u = u as usize;
                gamma[v * k + color[u]] += 1;
                if u > v && color[u] == color[v] {
                    conflicts += 1;
                }
            }
        }
        State {
            k,
            color,
            gamma,
            tabu: vec![0; n * k],
            conflicts,
        }
    }

    fn recolor(&mut self, graph: &Graph, v: usize, c: usize) {
        let (k, old) = (self.k, self.color[v]);
        self.conflicts =
            self.conflicts + self.gamma[v * k + c] as usize - self.gamma[v * k + old] as usize;
        for &u in graph.neighbours(v) {
            let u = u as usize;
            self.gamma[u * k + old] -= 1;
            self.gamma[u * k + c] += 1;
        }
        self.color[v] = c;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::coloring::{colors_used, dsatur};

    #[test]
    fn finds_planted_colorings_that_dsatur_misses() {
        let mut beaten = 0;
        for seed in 1..=6 {
            let graph = Graph::planted(150, 8, 35, seed);
            let start = dsatur(&graph);
            let found = tabu_coloring(&graph, 8, &start, MOVES, None, None);
            let coloring = found.expect("a planted 8-coloring");
            assert!(graph.is_proper_coloring(&coloring));
            assert!(colors_used(&coloring) <= 8);
            beaten += usize::from(colors_used(&start) > 8);
        }
        assert!(beaten > 0, "DSATUR found every planted coloring itself");
    }

    #[test]
    fn gives_up_on_impossible_color_counts() {
        // A complete graph on 9 vertices has no 8-coloring.
        let graph = Graph::complete(9);
        let start: Vec<usize> = (0..9).collect();
        assert_eq!(tabu_coloring(&graph, 8, &start, 5_000, None, None), None);
        assert_eq!(
            tabu_coloring(&graph, 9, &start, 5_000, None, None),
            Some(start)
        );
    }

    #[test]
    fn declines_graphs_beyond_its_table() {
        let n = (MAX_TABLE / 4) + 1;
        let graph = Graph::from_edges(n, [(0, 1)]);
        let start = vec![0; n];
        assert_eq!(tabu_coloring(&graph, 4, &start, 10, None, None), None);
        assert!(tabu_coloring(&graph, 2, &start, 10, None, None).is_some());
    }
}
