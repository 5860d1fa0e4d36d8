//! A cheap upper bound on the chromatic number: a DSATUR greedy coloring. (The lower
//! bound, a large clique, is in `cliques`.)

use std::collections::BinaryHeap;

use fixedbitset::FixedBitSet;

use super::graph::Graph;
use super::watch::Watch;
use crate::StopReason;

/// DSATUR (Brélaz 1979): color next the vertex with the most distinct colors among its
/// neighbours, ties by most uncolored neighbours, then lowest index; give it the smallest
/// color free of its neighbours. Colors are `0..k`; returns one color per vertex.
pub fn dsatur(graph: &Graph) -> Vec<usize> {
    dsatur_watched(graph, &Watch::default()).unwrap_or_default()
}

/// [`dsatur`], stopped when `watch` says so.
pub(crate) fn dsatur_watched(graph: &Graph, watch: &Watch) -> Result<Vec<usize>, StopReason> {
    let n = graph.num_vertices();
    const NONE: usize = usize::MAX;
    let mut color = vec![NONE; n];
    // Each vertex's neighbours' colors: a growable general-purpose set.
    let mut seen: Vec<FixedBitSet> = vec![FixedBitSet::new(); n];
    let mut saturation = vec![0usize; n];
    let mut uncolored_degree: Vec<usize> = (0..n).map(|v| graph.degree(v)).collect();
    let mut heap: BinaryHeap<(usize, usize, std::cmp::Reverse<usize>)> = (0..n)
        .map(|v| (0, uncolored_degree[v], std::cmp::Reverse(v)))
        .collect();
    let mut steps = 0usize;
    while let Some((sat, deg, std::cmp::Reverse(v))) = heap.pop() {
        steps += 1;
        watch.tick(steps)?;
        if color[v] != NONE || sat != saturation[v] || deg != uncolored_degree[v] {
            continue; // a stale entry: a fresher one is in the heap
        }
        let c = seen[v].zeroes().next().unwrap_or(seen[v].len());
        color[v] = c;
        for &u in graph.neighbours(v) {
            let u = u as usize;
            if color[u] != NONE {
                continue;
            }
            uncolored_degree[u] -= 1;
            if seen[u].len() <= c {
                seen[u].grow(c + 1);
            }
            if !seen[u].put(c) {
                saturation[u] += 1;
            }
            heap.push((saturation[u], uncolored_degree[u], std::cmp::Reverse(u)));
        }
    }
    Ok(color)
}

/// The number of colors a coloring uses (largest color + 1).
pub fn colors_used(coloring: &[usize]) -> usize {
    coloring.iter().map(|&c| c + 1).max().unwrap_or(0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dsatur_colors_properly_and_optimally_on_an_even_wheel() {
        let g = Graph::wheel(6);
        let c = dsatur(&g);
        assert!(g.is_proper_coloring(&c));
        assert_eq!(colors_used(&c), 3);
    }
}
