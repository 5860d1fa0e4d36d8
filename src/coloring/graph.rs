//! An undirected simple graph with sorted adjacency lists.

/// An undirected graph on vertices `0..n` without loops or repeated edges.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Graph {
    adjacency: Vec<Vec<u32>>,
    edges: usize,
}

impl Graph {
    /// A graph on `n` vertices with the given edges (0-based). Loops are dropped, repeated
    /// and reversed edges kept once; edges naming a vertex `>= n` are ignored.
    pub fn from_edges(n: usize, edges: impl IntoIterator<Item = (usize, usize)>) -> Self {
        let mut builder = GraphBuilder::new(n);
        for (u, v) in edges {
            builder.add_edge(u, v);
        }
        builder.build()
    }

    /// A wheel: a rim of `spokes` vertices, each joined to a hub (vertex `spokes`). For
    /// tests.
    #[cfg(test)]
    pub(crate) fn wheel(spokes: usize) -> Self {
        let rim = (0..spokes).map(|i| (i, (i + 1) % spokes));
        let hub = (0..spokes).map(|i| (i, spokes));
        Graph::from_edges(spokes + 1, rim.chain(hub))
    }

    /// The complete graph on `n` vertices. For tests.
    #[cfg(test)]
    pub(crate) fn complete(n: usize) -> Self {
        Graph::from_edges(n, complete_edges(n))
    }

    /// A graph with a hidden `k`-coloring, for tests: vertex `v` has color `v % k`, each
    /// pair of differently colored vertices is an edge with probability `percent` / 100,
    /// and vertices `0..k` (one of each color) form a clique, so the chromatic number is
    /// `k`.
    #[cfg(test)]
    pub(crate) fn planted(n: usize, k: usize, percent: u64, seed: u64) -> Self {
        let mut random = crate::xorshift::XorShift(seed);
        let mut edges: Vec<(usize, usize)> = complete_edges(k).collect();
        for a in 0..n {
            for b in a + 1..n {
                if random.next_u64() % 100 < percent && a % k != b % k {
                    edges.push((a, b));
                }
            }
        }
        Graph::from_edges(n, edges)
    }

    /// The number of vertices.
    pub fn num_vertices(&self) -> usize {
        self.adjacency.len()
    }

    /// The number of distinct edges.
    pub fn num_edges(&self) -> usize {
        self.edges
    }

    /// The neighbours of `v`, ascending.
    pub fn neighbours(&self, v: usize) -> &[u32] {
        self.adjacency.get(v).map_or(&[], Vec::as_slice)
    }

    /// The degree of `v`.
    pub fn degree(&self, v: usize) -> usize {
        self.neighbours(v).len()
    }

    /// True when `u` and `v` are joined.
    pub fn adjacent(&self, u: usize, v: usize) -> bool {
        self.neighbours(u).binary_search(&(v as u32)).is_ok()
    }

    /// Every edge once, as `(u, v)` with `u < v`.
    pub fn edges(&self) -> impl Iterator<Item = (usize, usize)> + '_ {
        self.adjacency.iter().enumerate().flat_map(|(u, list)| {
            list.iter()
                .map(move |&v| (u, v as usize))
                .filter(|&(u, v)| u < v)
        })
    }

    /// The first edge whose ends share a color in `colors` (one entry per vertex), if any.
    pub fn conflict(&self, colors: &[usize]) -> Option<(usize, usize)> {
        self.edges()
            .find(|&(u, v)| colors.get(u).is_some_and(|c| Some(c) == colors.get(v)))
    }

    /// True when `colors` gives every vertex a color and no edge joins equal colors.
    pub fn is_proper_coloring(&self, colors: &[usize]) -> bool {
        colors.len() == self.num_vertices() && self.conflict(colors).is_none()
    }
}

/// A graph built edge by edge, in memory that follows its distinct edges: a vertex's list
/// is sorted and cleared of repeats whenever it has doubled since the last time, so a file
/// that repeats one edge a million times costs no more than the edge.
pub(crate) struct GraphBuilder {
    adjacency: Vec<Vec<u32>>,
    /// Each list's length after its last clean-up.
    clean: Vec<u32>,
}

impl GraphBuilder {
    /// No edges on `n` vertices.
    pub(crate) fn new(n: usize) -> Self {
        GraphBuilder {
            adjacency: vec![Vec::new(); n],
            clean: vec![0; n],
        }
    }

    /// Adds the edge `u`–`v` (distinct vertices below `n`; others are ignored).
    pub(crate) fn add_edge(&mut self, u: usize, v: usize) {
        if u == v || u >= self.adjacency.len() || v >= self.adjacency.len() {
            return;
        }
        self.push(u, v as u32);
        self.push(v, u as u32);
    }

    fn push(&mut self, from: usize, to: u32) {
        let list = &mut self.adjacency[from];
        list.push(to);
        if list.len() >= 2 * self.clean[from] as usize + 8 {
            list.sort_unstable();
            list.dedup();
            list.shrink_to(2 * list.len() + 8);
            self.clean[from] = list.len() as u32;
        }
    }

    /// The graph.
    pub(crate) fn build(mut self) -> Graph {
        let mut count = 0;
        for list in &mut self.adjacency {
            list.sort_unstable();
            list.dedup();
            list.shrink_to_fit();
            count += list.len();
        }
        Graph {
            adjacency: self.adjacency,
            edges: count / 2,
        }
    }
}

/// Every pair of vertices below `n`, for the test graphs.
#[cfg(test)]
fn complete_edges(n: usize) -> impl Iterator<Item = (usize, usize)> {
    (0..n).flat_map(move |a| (a + 1..n).map(move |b| (a, b)))
}
