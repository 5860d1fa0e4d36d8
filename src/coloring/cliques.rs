//! Cliques found greedily: a large one for the lower bound and the symmetry breaking, and a
//! set of them for the model's all-different constraints.
//!
//! Every clique grows the same way: from its first vertices, repeatedly add the candidate
//! (a common neighbour of the clique so far) with the most neighbours among the remaining
//! candidates, the lowest index on ties. Graphs of up to [`DENSE_LIMIT`] vertices keep
//! their adjacency as bitset rows, so a candidate's score is a few ANDs and popcounts
//! rather than a merge of two sorted lists.

use std::cmp::Reverse;
use std::collections::BTreeSet;

use fixedbitset::FixedBitSet;

use super::graph::Graph;
use super::watch::Watch;
use crate::StopReason;

/// How many seed vertices the greedy clique search tries: all of them on small graphs, the
/// highest-degree ones on large graphs.
const CLIQUE_SEEDS: usize = 2000;

/// Graphs up to this many vertices get bitset rows (at most 2 MiB of them).
const DENSE_LIMIT: usize = 4096;

/// A graph prepared for growing cliques.
pub(crate) struct CliqueFinder<'g> {
    graph: &'g Graph,
    /// One adjacency row per vertex, or none for large graphs.
    rows: Vec<FixedBitSet>,
}

impl<'g> CliqueFinder<'g> {
    pub(crate) fn new(graph: &'g Graph) -> Self {
        let n = graph.num_vertices();
        if n > DENSE_LIMIT {
            return CliqueFinder {
                graph,
                rows: Vec::new(),
            };
        }
        let rows = (0..n)
            .map(|v| {
                let mut row = FixedBitSet::with_capacity(n);
                graph
                    .neighbours(v)
                    .iter()
                    .for_each(|&u| row.insert(u as usize));
                row
            })
            .collect();
        CliqueFinder { graph, rows }
    }

    /// A maximal clique holding every vertex of `start` (which must be a clique), grown
    /// greedily; vertices ascending. With `beat`, the growth gives up (returning what it
    /// has) once it cannot reach more than `beat` vertices.
    pub(crate) fn grow(&self, start: &[usize], beat: usize) -> Vec<usize> {
        let mut clique = start.to_vec();
        let Some((&first, rest)) = start.split_first() else {
            return clique;
        };
        let common = |&&c: &&u32| rest.iter().all(|&v| self.graph.adjacent(c as usize, v));
        let candidates: Vec<u32> = self
            .graph
            .neighbours(first)
            .iter()
            .filter(|c| common(c))
            .copied()
            .collect();
        if self.rows.is_empty() {
            grow_by_lists(self.graph, &mut clique, candidates, beat);
        } else {
            let mut set = FixedBitSet::with_capacity(self.rows.len());
            candidates.iter().for_each(|&c| set.insert(c as usize));
            self.grow_by_rows(&mut clique, &mut set, candidates.len(), beat);
        }
        clique.sort_unstable();
        clique
    }

    fn grow_by_rows(
        &self,
        clique: &mut Vec<usize>,
        set: &mut FixedBitSet,
        mut left: usize,
        beat: usize,
    ) {
        while left > 0 && clique.len() + left > beat {
            // The lowest index wins ties.
            let Some(pick) = set
                .ones()
                .max_by_key(|&c| (self.rows[c].intersection_count(set), Reverse(c)))
            else {
                return;
            };
            clique.push(pick);
            set.intersect_with(&self.rows[pick]);
            left = set.count_ones(..);
        }
    }
}

/// The growth of [`CliqueFinder::grow`] on sorted adjacency lists (large graphs).
fn grow_by_lists(graph: &Graph, clique: &mut Vec<usize>, mut candidates: Vec<u32>, beat: usize) {
    while !candidates.is_empty() && clique.len() + candidates.len() > beat {
        let pick = candidates
            .iter()
            .copied()
            .max_by_key(|&c| {
                (
                    intersection_size(graph.neighbours(c as usize), &candidates),
                    Reverse(c),
                )
            })
            .unwrap_or(candidates[0]);
        clique.push(pick as usize);
        let keep = graph.neighbours(pick as usize);
        candidates.retain(|c| keep.binary_search(c).is_ok());
    }
}

/// How many entries two ascending lists share.
pub(super) fn intersection_size(a: &[u32], b: &[u32]) -> usize {
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

/// A clique found greedily from many seeds (see the module documentation). Vertices
/// ascending.
pub fn greedy_clique(graph: &Graph) -> Vec<usize> {
    largest_clique(&CliqueFinder::new(graph), &Watch::default()).unwrap_or_default()
}

/// [`greedy_clique`] with a prepared finder, stopped when `watch` says so.
pub(crate) fn largest_clique(
    finder: &CliqueFinder<'_>,
    watch: &Watch,
) -> Result<Vec<usize>, StopReason> {
    let graph = finder.graph;
    let mut seeds: Vec<usize> = (0..graph.num_vertices()).collect();
    seeds.sort_by_key(|&v| Reverse(graph.degree(v)));
    seeds.truncate(CLIQUE_SEEDS);
    let mut best: Vec<usize> = seeds.first().map(|&v| vec![v]).unwrap_or_default();
    for (i, &seed) in seeds.iter().enumerate() {
        watch.tick(i)?;
        if graph.degree(seed) < best.len() {
            continue; // cannot beat the best clique
        }
        let clique = finder.grow(&[seed], best.len());
        if clique.len() > best.len() {
            best = clique;
        }
    }
    Ok(best) // grown cliques come sorted
}

/// A maximal clique containing `v`, grown greedily (most common neighbours first).
pub fn clique_around(graph: &Graph, v: usize) -> Vec<usize> {
    CliqueFinder::new(graph).grow(&[v], 0)
}

/// Cliques for a coloring model's all-different constraints.
pub(crate) struct CliqueCover {
    /// One greedy maximal clique around each vertex with an edge in no clique before it,
    /// without repeats, of size three or more.
    pub(crate) around_vertices: Vec<Vec<usize>>,
    /// Greedy maximal cliques around the edges in no clique before, until every edge is in
    /// one; of size three or more.
    pub(crate) extra: Vec<Vec<usize>>,
}

/// The cliques around the vertices (those with an edge in no clique yet), then around the
/// edges they leave out.
pub(crate) fn clique_cover(
    finder: &CliqueFinder<'_>,
    watch: &Watch,
) -> Result<CliqueCover, StopReason> {
    let graph = finder.graph;
    let mut covered = Covered::new(graph);
    let mut around_vertices = BTreeSet::new();
    for v in 0..graph.num_vertices() {
        watch.tick(v)?;
        if graph
            .neighbours(v)
            .iter()
            .all(|&u| covered.holds(v, u as usize))
        {
            // Every edge of `v` is in a clique already: its own would mostly repeat them,
            // and on dense graphs growing one per vertex is quadratic work.
            continue;
        }
        let c = finder.grow(&[v], 0);
        if c.len() >= 3 {
            covered.mark(&c);
            around_vertices.insert(c);
        }
    }
    let mut extra = Vec::new();
    for (i, (u, v)) in graph.edges().enumerate() {
        watch.tick(i)?;
        if covered.holds(u, v) {
            continue;
        }
        let c = finder.grow(&[u, v], 0);
        covered.mark(&c);
        if c.len() >= 3 {
            extra.push(c);
        }
    }
    Ok(CliqueCover {
        around_vertices: around_vertices.into_iter().collect(),
        extra,
    })
}

/// Which edges of `graph` lie in a clique already chosen: one flag per entry of the
/// adjacency lists.
struct Covered<'g> {
    graph: &'g Graph,
    start: Vec<usize>,
    flags: Vec<bool>,
}

impl<'g> Covered<'g> {
    fn new(graph: &'g Graph) -> Self {
        let mut start = Vec::with_capacity(graph.num_vertices() + 1);
        let mut total = 0;
        for v in 0..graph.num_vertices() {
            start.push(total);
            total += graph.degree(v);
        }
        start.push(total);
        Covered {
            graph,
            start,
            flags: vec![false; total],
        }
    }

    fn slot(&self, u: usize, v: usize) -> Option<usize> {
        let i = self.graph.neighbours(u).binary_search(&(v as u32)).ok()?;
        Some(self.start[u] + i)
    }

    fn holds(&self, u: usize, v: usize) -> bool {
        self.slot(u, v).is_some_and(|s| self.flags[s])
    }

    fn mark(&mut self, clique: &[usize]) {
        for &a in clique {
            for &b in clique {
                if let Some(s) = self.slot(a, b) {
                    self.flags[s] = true;
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::xorshift::XorShift;

    fn is_clique(g: &Graph, c: &[usize]) -> bool {
        c.iter()
            .enumerate()
            .all(|(i, &a)| c[i + 1..].iter().all(|&b| g.adjacent(a, b)))
    }

    /// A random graph on `n` vertices with each edge present with probability `p / 100`.
    fn random_graph(n: usize, p: u64, random: &mut XorShift) -> Graph {
        let mut edges = Vec::new();
        for u in 0..n {
            for v in u + 1..n {
                if random.next_u64() % 100 < p {
                    edges.push((u, v));
                }
            }
        }
        Graph::from_edges(n, edges)
    }

    #[test]
    fn greedy_clique_finds_the_triangles_of_a_wheel() {
        let g = Graph::wheel(5);
        let clique = greedy_clique(&g);
        assert_eq!(clique.len(), 3);
        assert!(is_clique(&g, &clique));
    }

    #[test]
    fn bitset_rows_grow_the_same_cliques_as_sorted_lists() {
        let mut random = XorShift(0x9E37_79B9_7F4A_7C15);
        for (n, p) in [(20, 30), (70, 50), (130, 80), (90, 10)] {
            let g = random_graph(n, p, &mut random);
            let rows = CliqueFinder::new(&g);
            let lists = CliqueFinder {
                graph: &g,
                rows: Vec::new(),
            };
            assert!(!rows.rows.is_empty());
            for v in 0..n {
                let grown = rows.grow(&[v], 0);
                assert!(is_clique(&g, &grown));
                assert_eq!(grown, lists.grow(&[v], 0), "n = {n}, v = {v}");
                for &u in g.neighbours(v).iter().take(3) {
                    let grown = rows.grow(&[v, u as usize], 0);
                    assert!(grown.contains(&v) && grown.contains(&(u as usize)));
                    assert_eq!(grown, lists.grow(&[v, u as usize], 0));
                }
                assert_eq!(rows.grow(&[v], 4), lists.grow(&[v], 4));
            }
            let none = Watch::default();
            assert_eq!(largest_clique(&rows, &none), largest_clique(&lists, &none));
        }
    }

    #[test]
    fn a_complete_graph_is_covered_by_one_clique() {
        let n = 60;
        let g = Graph::complete(n);
        let cover = clique_cover(&CliqueFinder::new(&g), &Watch::default()).unwrap();
        assert_eq!(cover.around_vertices, vec![(0..n).collect::<Vec<_>>()]);
        assert!(cover.extra.is_empty());
    }
}
