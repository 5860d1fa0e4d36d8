//! Cheap bounds on the chromatic number: a large clique found greedily (lower bound) and a
//! DSATUR greedy colouring (upper bound).

use std::collections::BinaryHeap;

use super::graph::Graph;

/// How many seed vertices the greedy clique search tries: all of them on small graphs, the
/// highest-degree ones on large graphs.
const CLIQUE_SEEDS: usize = 2000;

/// A clique found greedily from many seeds: from each seed, repeatedly add the candidate
/// with the most neighbours among the remaining candidates. Vertices ascending.
pub fn greedy_clique(graph: &Graph) -> Vec<usize> {
    let n = graph.num_vertices();
    let mut seeds: Vec<usize> = (0..n).collect();
    seeds.sort_by_key(|&v| std::cmp::Reverse(graph.degree(v)));
    seeds.truncate(CLIQUE_SEEDS);
    let mut best: Vec<usize> = seeds.first().map(|&v| vec![v]).unwrap_or_default();
    for &seed in &seeds {
        if graph.degree(seed) < best.len() {
            continue; // cannot beat the best clique
        }
        let mut clique = vec![seed];
        let mut candidates: Vec<u32> = graph.neighbours(seed).to_vec();
        while !candidates.is_empty() {
            if clique.len() + candidates.len() <= best.len() {
                break;
            }
            let pick = candidates
                .iter()
                .copied()
                .max_by_key(|&c| {
                    (
                        intersection_size(graph.neighbours(c as usize), &candidates),
                        std::cmp::Reverse(c),
                    )
                })
                .unwrap_or(candidates[0]);
            clique.push(pick as usize);
            let keep = graph.neighbours(pick as usize);
            candidates.retain(|c| keep.binary_search(c).is_ok());
        }
        if clique.len() > best.len() {
            best = clique;
        }
    }
    best.sort_unstable();
    best
}

/// A maximal clique containing `v`, grown greedily (most common neighbours first).
pub fn clique_around(graph: &Graph, v: usize) -> Vec<usize> {
    let mut clique = vec![v];
    let mut candidates: Vec<u32> = graph.neighbours(v).to_vec();
    while let Some(pick) = candidates.iter().copied().max_by_key(|&c| {
        (
            intersection_size(graph.neighbours(c as usize), &candidates),
            std::cmp::Reverse(c),
        )
    }) {
        clique.push(pick as usize);
        let keep = graph.neighbours(pick as usize);
        candidates.retain(|c| keep.binary_search(c).is_ok());
    }
    clique.sort_unstable();
    clique
}

fn intersection_size(a: &[u32], b: &[u32]) -> usize {
    let (mut i, mut j, mut count) = (0, 0, 0);
    while i < a.len() && j < b.len() {
        match a[i].cmp(&b[j]) {
            std::cmp::Ordering::Less => i += 1,
            std::cmp::Ordering::Greater => j += 1,
            std::cmp::Ordering::Equal => {
                count += 1;
                i += 1;
                j += 1;
            }
        }
    }
    count
}

/// DSATUR (Brélaz 1979): colour next the vertex with the most distinct colours among its
/// neighbours, ties by most uncoloured neighbours, then lowest index; give it the smallest
/// colour free of its neighbours. Colours are `0..k`; returns one colour per vertex.
pub fn dsatur(graph: &Graph) -> Vec<usize> {
    let n = graph.num_vertices();
    const NONE: usize = usize::MAX;
    let mut colour = vec![NONE; n];
    let mut seen: Vec<Vec<u64>> = vec![Vec::new(); n];
    let mut saturation = vec![0usize; n];
    let mut uncoloured_degree: Vec<usize> = (0..n).map(|v| graph.degree(v)).collect();
    let mut heap: BinaryHeap<(usize, usize, std::cmp::Reverse<usize>)> = (0..n)
        .map(|v| (0, uncoloured_degree[v], std::cmp::Reverse(v)))
        .collect();
    while let Some((sat, deg, std::cmp::Reverse(v))) = heap.pop() {
        if colour[v] != NONE || sat != saturation[v] || deg != uncoloured_degree[v] {
            continue; // a stale entry: a fresher one is in the heap
        }
        let c = first_free(&seen[v]);
        colour[v] = c;
        for &u in graph.neighbours(v) {
            let u = u as usize;
            if colour[u] != NONE {
                continue;
            }
            uncoloured_degree[u] -= 1;
            let (word, bit) = (c / 64, 1u64 << (c % 64));
            if seen[u].len() <= word {
                seen[u].resize(word + 1, 0);
            }
            if seen[u][word] & bit == 0 {
                seen[u][word] |= bit;
                saturation[u] += 1;
            }
            heap.push((saturation[u], uncoloured_degree[u], std::cmp::Reverse(u)));
        }
    }
    colour
}

fn first_free(used: &[u64]) -> usize {
    for (k, &w) in used.iter().enumerate() {
        if w != u64::MAX {
            return k * 64 + (!w).trailing_zeros() as usize;
        }
    }
    used.len() * 64
}

/// The number of colours a colouring uses (largest colour + 1).
pub fn colours_used(colouring: &[usize]) -> usize {
    colouring.iter().map(|&c| c + 1).max().unwrap_or(0)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn wheel(spokes: usize) -> Graph {
        let rim = (0..spokes).map(|i| (i, (i + 1) % spokes));
        let hub = (0..spokes).map(|i| (i, spokes));
        Graph::from_edges(spokes + 1, rim.chain(hub))
    }

    #[test]
    fn dsatur_colours_properly_and_optimally_on_an_even_wheel() {
        let g = wheel(6);
        let c = dsatur(&g);
        assert!(g.is_proper_colouring(&c));
        assert_eq!(colours_used(&c), 3);
    }

    #[test]
    fn greedy_clique_finds_the_triangles_of_a_wheel() {
        let g = wheel(5);
        let clique = greedy_clique(&g);
        assert_eq!(clique.len(), 3);
        for (i, &a) in clique.iter().enumerate() {
            for &b in &clique[i + 1..] {
                assert!(g.adjacent(a, b));
            }
        }
    }
}
