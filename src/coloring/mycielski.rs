//! A lower bound beyond the largest clique, from Mycielski's construction.
//!
//! The Mycielskian of a graph S adds, for every vertex `v` of S, a vertex `u_v` joined to
//! the neighbours of `v`, and one more vertex `w` joined to every `u_v`; it needs exactly
//! one color more than S (Mycielski, 1955). Only edges matter for that direction: any
//! graph holding such a structure on distinct vertices (extra edges allowed) needs at
//! least one color more than S does. Starting from a clique of `q` vertices (`q` colors)
//! and finding the construction again and again inside the graph proves `q + 1`,
//! `q + 2`, ... colors, where the clique alone proves `q`: triangle-free graphs of high
//! chromatic number (the Mycielski graphs, every clique an edge) are the cases where
//! cliques say nothing and a search must otherwise refute every coloring.
//!
//! The search ([`tower`]) runs top-down: a vertex `w` is tried as the apex of the top
//! level, its non-neighbours form the subgraph below, and a matching gives each vertex
//! below an image among `w`'s neighbours; the subgraph below is searched the same way, and
//! each subgraph's greedy clique is the bottom of its tower. It is a heuristic, bounded in
//! work; its answer is a [`Tower`] that [`Tower::holds_in`] checks edge by edge against
//! the graph, so a bound is only ever claimed with its proof in hand.

use super::graph::Graph;
use super::watch::Watch;
use crate::StopReason;

/// Steps (word operations, adjacency visits) one bound may take: enough for graphs of a
/// few thousand vertices, bounded so that graphs where no construction exists pay little.
const STEP_BUDGET: usize = 1 << 25;

/// The most words the graph's adjacency bitsets may take (8 MiB: about 8,000 vertices);
/// larger graphs keep their clique bound.
const MAX_ADJACENCY_WORDS: usize = 1 << 20;

/// Mycielski's construction found in a graph, level upon level, on a clique.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Tower {
    /// The clique at the bottom.
    base: Vec<usize>,
    /// Each level: the vertex standing for each vertex of the subgraph below (in the
    /// order of [`Tower::vertices`] up to that level), then the vertex joined to them all.
    levels: Vec<Level>,
}

/// One application of the construction.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Level {
    /// `images[i]` stands for the `i`-th vertex of the subgraph below.
    images: Vec<usize>,
    /// Adjacent to every image.
    apex: usize,
}

impl Tower {
    /// The colors the graph needs at least: the clique's size plus one per level.
    pub(crate) fn bound(&self) -> usize {
        self.base.len() + self.levels.len()
    }

    /// Whether every edge the construction needs is an edge of `graph`, on distinct
    /// vertices: the proof that [`Tower::bound`] holds.
    pub(crate) fn holds_in(&self, graph: &Graph) -> bool {
        let n = graph.num_vertices();
        let mut seen = vec![false; n];
        let mut vertices = Vec::new();
        for &v in &self.base {
            if v >= n || std::mem::replace(&mut seen[v], true) {
                return false;
            }
            vertices.push(v);
        }
        let mut edges = clique_edges(self.base.len());
        if !edges
            .iter()
            .all(|&(a, b)| graph.adjacent(vertices[a as usize], vertices[b as usize]))
        {
            return false;
        }
        for level in &self.levels {
            if level.images.len() != vertices.len() {
                return false;
            }
            for &v in level.images.iter().chain([&level.apex]) {
                if v >= n || std::mem::replace(&mut seen[v], true) {
                    return false;
                }
            }
            let below = vertices.len() as u32;
            let image = |i: u32| level.images[i as usize];
            let kept = edges.iter().all(|&(a, b)| {
                graph.adjacent(image(a), vertices[b as usize])
                    && graph.adjacent(image(b), vertices[a as usize])
            }) && level.images.iter().all(|&u| graph.adjacent(u, level.apex));
            if !kept {
                return false;
            }
            grow(&mut edges, below);
            vertices.extend(level.images.iter().chain([&level.apex]));
        }
        true
    }
}

/// The edges of a clique on local vertices `0..q`.
fn clique_edges(q: usize) -> Vec<(u32, u32)> {
    let q = q as u32;
    (0..q)
        .flat_map(|a| (a + 1..q).map(move |b| (a, b)))
        .collect()
}

/// The edges of the Mycielskian of the subgraph on local vertices `0..below` with
/// `edges`: image `i` is local vertex `below + i`, the apex `2 * below`.
fn grow(edges: &mut Vec<(u32, u32)>, below: u32) {
    let old = edges.len();
    for k in 0..old {
        let (a, b) = edges[k];
        edges.push((below + a, b));
        edges.push((below + b, a));
    }
    edges.extend((0..below).map(|i| (below + i, 2 * below)));
}

/// The tallest tower it finds in `graph` within its work budget, or the tower of `clique`
/// alone (which must be a clique of `graph`) when that is taller.
///
/// The search runs top-down. A vertex `w` is tried as the apex of the top level: its
/// neighbours can be images, its non-neighbours form the subgraph H below, and each
/// vertex of H needs an image adjacent to all its neighbours in H. A maximum matching
/// assigns the images; while it leaves a vertex without one, the vertices of H with the
/// fewest neighbours in H are dropped (which only makes the others' needs smaller). The
/// apexes leaving the
/// largest H are followed, [`BEAM`] of them per level, and H is searched the same way;
/// every subgraph's own greedy clique is the bottom of its tower.
///
/// # Errors
/// The call's time limit or cancellation, read through `watch`.
pub(crate) fn tower(graph: &Graph, clique: &[usize], watch: &Watch) -> Result<Tower, StopReason> {
    let fallback = Tower {
        base: clique.to_vec(),
        levels: Vec::new(),
    };
    let n = graph.num_vertices();
    let words = n.div_ceil(64);
    let Some(size) = n.checked_mul(words).filter(|&w| w <= MAX_ADJACENCY_WORDS) else {
        return Ok(fallback);
    };
    let mut adjacency = vec![0u64; size];
    for v in 0..n {
        for &u in graph.neighbours(v) {
            adjacency[v * words + u as usize / 64] |= 1 << (u % 64);
        }
    }
    let mut search = Search {
        adjacency,
        words,
        vertices: n,
        budget: Budget { watch, steps: 0 },
        matching: Matching::default(),
    };
    let mut everything = vec![0u64; words];
    for v in 0..n {
        everything[v / 64] |= 1 << (v % 64);
    }
    let found = search.best(&everything)?;
    // Claimed only with its proof checked: a wrong lower bound is a wrong answer.
    let proved = found.holds_in(graph);
    debug_assert!(proved, "a tower must hold in its graph");
    Ok(if proved && found.bound() > fallback.bound() {
        found
    } else {
        fallback
    })
}

/// How many apexes of the largest subgraphs below each level follows.
const BEAM: usize = 2;

/// The state of one tower search.
struct Search<'a> {
    /// Each vertex's neighbours as a bitset of `words` words.
    adjacency: Vec<u64>,
    words: usize,
    /// The graph's number of vertices.
    vertices: usize,
    budget: Budget<'a>,
    matching: Matching,
}

/// One way to put a level on top of a subgraph: the apex, the subgraph below, and the
/// image of each of its vertices.
struct Peeled {
    apex: usize,
    below: Vec<u64>,
    images: Vec<(usize, usize)>,
}

impl Search<'_> {
    fn neighbours(&self, v: usize) -> &[u64] {
        &self.adjacency[v * self.words..(v + 1) * self.words]
    }

    /// The tallest tower found inside the subgraph induced by `within`.
    fn best(&mut self, within: &[u64]) -> Result<Tower, StopReason> {
        let mut best = Tower {
            base: self.clique_in(within),
            levels: Vec::new(),
        };
        // Every vertex below needs an image of its own among the apex's neighbours, so
        // an apex leaves at most its degree below: apexes are tried by degree, down to
        // where none can enter the beam.
        let size = count(within);
        if !self.budget.spend(size.saturating_mul(self.words))? {
            return Ok(best);
        }
        let degree = |v: usize| count_and(self.neighbours(v), within);
        let mut apexes: Vec<(usize, usize)> = members(within).map(|w| (degree(w), w)).collect();
        apexes.sort_by_key(|&(d, w)| (std::cmp::Reverse(d), w));
        let mut tried: Vec<(usize, usize)> = Vec::new();
        for (d, w) in apexes {
            if tried.len() >= BEAM && d < tried[BEAM - 1].0 {
                break;
            }
            match self.peel(w, within)? {
                Some(peeled) => tried.push((count(&peeled.below), w)),
                None => return Ok(best),
            }
            // Largest subgraph below first; ties by the lower apex, so the answer is the
            // same on every run.
            tried.sort_by_key(|&(size, w)| (std::cmp::Reverse(size), w));
        }
        for &(size, w) in tried.iter().take(BEAM) {
            if size < 2 {
                break;
            }
            let Some(peeled) = self.peel(w, within)? else {
                break;
            };
            let below = self.best(&peeled.below)?;
            if below.bound() + 1 > best.bound() {
                best = below.raised(&peeled);
            }
        }
        Ok(best)
    }

    /// Peels apex `w` off the subgraph `within`; `None` once the budget is spent.
    fn peel(&mut self, w: usize, within: &[u64]) -> Result<Option<Peeled>, StopReason> {
        let words = self.words;
        let adjacent: Vec<u64> = self
            .neighbours(w)
            .iter()
            .zip(within)
            .map(|(a, b)| a & b)
            .collect();
        let images: Vec<usize> = members(&adjacent).collect();
        let mut below: Vec<u64> = self
            .neighbours(w)
            .iter()
            .zip(within)
            .map(|(a, b)| !a & b)
            .collect();
        below[w / 64] &= !(1 << (w % 64));
        loop {
            // Vertices below, fewest neighbours below first: a vertex with none adds no
            // color (it would only take an image another may need), and when the images
            // do not go round, those with the fewest neighbours leave first, as in
            // peeling a graph to its core (the others' needs shrink with them).
            if !self.budget.spend(count(&below).saturating_mul(words))? {
                return Ok(None);
            }
            let degree = |v: usize| count_and(self.neighbours(v), &below);
            let mut vertices: Vec<(usize, usize)> = members(&below)
                .map(|v| (degree(v), v))
                .filter(|&(d, _)| d > 0)
                .collect();
            vertices.sort_by_key(|&(d, v)| (std::cmp::Reverse(d), v));
            let fewest = vertices.last().map_or(0, |&(d, _)| d);
            let weakest = vertices.iter().filter(|&&(d, _)| d == fewest).count();
            let vertices: Vec<usize> = vertices.into_iter().map(|(_, v)| v).collect();
            below.fill(0);
            for &v in &vertices {
                below[v / 64] |= 1 << (v % 64);
            }
            if !self.budget.spend(
                vertices
                    .len()
                    .saturating_mul(images.len())
                    .saturating_mul(words),
            )? {
                return Ok(None);
            }
            let options: Vec<Vec<u32>> = vertices
                .iter()
                .map(|&v| {
                    let needs = self.neighbours(v);
                    images
                        .iter()
                        .filter(|&&u| {
                            let has = self.neighbours(u);
                            (0..words).all(|k| needs[k] & below[k] & !has[k] == 0)
                        })
                        .map(|&u| u as u32)
                        .collect()
                })
                .collect();
            let chosen = self.matching.maximum(&options, self.vertices);
            if chosen.iter().all(|&u| u != FREE) {
                let images = vertices
                    .iter()
                    .zip(&chosen)
                    .map(|(&v, &u)| (v, u as usize))
                    .collect();
                return Ok(Some(Peeled {
                    apex: w,
                    below,
                    images,
                }));
            }
            for &v in &vertices[vertices.len() - weakest..] {
                below[v / 64] &= !(1 << (v % 64));
            }
        }
    }

    /// A clique of the subgraph `within`, grown greedily from its vertices of most
    /// neighbours inside it.
    fn clique_in(&self, within: &[u64]) -> Vec<usize> {
        let degree = |v: usize| count_and(self.neighbours(v), within);
        let mut order: Vec<usize> = members(within).collect();
        order.sort_by_key(|&v| (std::cmp::Reverse(degree(v)), v));
        let mut open = within.to_vec();
        let mut clique = Vec::new();
        for v in order {
            if open[v / 64] >> (v % 64) & 1 == 1 {
                clique.push(v);
                for (o, a) in open.iter_mut().zip(self.neighbours(v)) {
                    *o &= a;
                }
            }
        }
        clique
    }
}

impl Tower {
    /// The tower's vertices, bottom up: the base, then each level's images and apex.
    fn vertices(&self) -> impl Iterator<Item = usize> + '_ {
        self.base.iter().copied().chain(
            self.levels
                .iter()
                .flat_map(|l| l.images.iter().copied().chain([l.apex])),
        )
    }

    /// This tower (found inside `peeled.below`, every vertex of which has an image) with
    /// `peeled`'s level on top.
    fn raised(mut self, peeled: &Peeled) -> Tower {
        let image_of: std::collections::HashMap<usize, usize> =
            peeled.images.iter().copied().collect();
        // A vertex without an image cannot occur; if it did, `holds_in` would refuse the
        // tower for its out-of-range vertex.
        let images = self
            .vertices()
            .map(|v| image_of.get(&v).copied().unwrap_or(usize::MAX))
            .collect();
        self.levels.push(Level {
            images,
            apex: peeled.apex,
        });
        self
    }
}

/// The vertices of a bitset, ascending.
fn members(set: &[u64]) -> impl Iterator<Item = usize> + '_ {
    set.iter()
        .enumerate()
        .flat_map(|(k, &word)| crate::bits::set_bits(word).map(move |b| k * 64 + b))
}

/// The number of vertices in a bitset.
fn count(set: &[u64]) -> usize {
    set.iter().map(|w| w.count_ones() as usize).sum()
}

/// The number of vertices in both bitsets.
fn count_and(a: &[u64], b: &[u64]) -> usize {
    a.iter()
        .zip(b)
        .map(|(x, y)| (x & y).count_ones() as usize)
        .sum()
}

/// The work one tower search has done, against [`STEP_BUDGET`] and the call's clock.
struct Budget<'a> {
    watch: &'a Watch,
    steps: usize,
}

impl Budget<'_> {
    /// Counts `n` steps; false once the budget is spent. Reads the clock now and then.
    fn spend(&mut self, n: usize) -> Result<bool, StopReason> {
        let before = self.steps / 1024;
        self.steps = self.steps.saturating_add(n);
        if self.steps / 1024 != before {
            self.watch.check()?;
        }
        Ok(self.steps <= STEP_BUDGET)
    }
}

/// Scratch for maximum matchings of the left vertices `0..options.len()` into graph
/// vertices, by augmenting paths (Kuhn).
#[derive(Default)]
struct Matching {
    /// The left vertex each right vertex is matched to.
    owner: Vec<u32>,
    /// The search that last visited each right vertex.
    visited: Vec<u32>,
    /// The augmenting path being grown: a left vertex and how many of its options were
    /// tried.
    path: Vec<(u32, usize)>,
}

const FREE: u32 = u32::MAX;

impl Matching {
    /// A maximum matching: for each left vertex `i` a distinct right vertex from
    /// `options[i]`, or [`FREE`] for those a maximum matching leaves out; right vertices
    /// lie in `0..right`.
    fn maximum(&mut self, options: &[Vec<u32>], right: usize) -> Vec<u32> {
        self.owner.clear();
        self.owner.resize(right, FREE);
        self.visited.clear();
        self.visited.resize(right, FREE);
        let mut chosen = vec![FREE; options.len()];
        for root in 0..options.len() as u32 {
            // A vertex that finds no augmenting path now finds none later either: the
            // matched right vertices only ever stay matched.
            self.augment(root, options, &mut chosen);
        }
        chosen
    }

    /// Matches `root` by an augmenting path; false when there is none.
    fn augment(&mut self, root: u32, options: &[Vec<u32>], chosen: &mut [u32]) -> bool {
        self.path.clear();
        self.path.push((root, 0));
        while let Some(&(left, tried)) = self.path.last() {
            let Some(&right) = options[left as usize].get(tried) else {
                self.path.pop();
                continue;
            };
            if let Some(top) = self.path.last_mut() {
                top.1 += 1;
            }
            let r = right as usize;
            if self.visited[r] == root {
                continue;
            }
            self.visited[r] = root;
            if self.owner[r] == FREE {
                // Each left vertex on the path takes the right vertex it last tried.
                for &(l, t) in &self.path {
                    let taken = options[l as usize][t - 1];
                    self.owner[taken as usize] = l;
                    chosen[l as usize] = taken;
                }
                return true;
            }
            self.path.push((self.owner[r], 0));
        }
        false
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cycle(n: usize) -> Graph {
        Graph::from_edges(n, (0..n).map(|i| (i, (i + 1) % n)))
    }

    #[test]
    fn the_five_cycle_is_the_mycielskian_of_an_edge() {
        let g = cycle(5);
        let t = tower(&g, &[0, 1], &Watch::default()).unwrap();
        assert_eq!(t.bound(), 3);
        assert!(t.holds_in(&g));
    }

    #[test]
    fn an_even_cycle_gets_no_level() {
        let g = cycle(8);
        let t = tower(&g, &[0, 1], &Watch::default()).unwrap();
        assert_eq!(t.bound(), 2);
    }

    #[test]
    fn a_tower_with_a_missing_edge_does_not_hold() {
        let g = cycle(5);
        let mut t = tower(&g, &[0, 1], &Watch::default()).unwrap();
        assert!(t.holds_in(&g));
        t.levels[0].apex = t.base[0];
        assert!(!t.holds_in(&g), "a vertex used twice");
        let path = Graph::from_edges(5, [(0, 1), (1, 2), (2, 3), (3, 4)]);
        let t = tower(&g, &[0, 1], &Watch::default()).unwrap();
        assert!(!t.holds_in(&path), "the 5-cycle's closing edge is missing");
    }

    #[test]
    fn matching_moves_an_earlier_choice_along_an_augmenting_path() {
        // Left 0 may take 5 or 6, left 1 only 5: the first choice must move.
        let mut m = Matching::default();
        assert_eq!(m.maximum(&[vec![5, 6], vec![5]], 7), vec![6, 5]);
        assert_eq!(m.maximum(&[vec![5], vec![5]], 7), vec![5, FREE]);
    }

    /// The graph with its vertices renamed by a seeded random permutation.
    fn relabelled(graph: &Graph, seed: u64) -> Graph {
        let n = graph.num_vertices();
        let mut random = crate::xorshift::XorShift(seed);
        let mut name: Vec<usize> = (0..n).collect();
        for i in (1..n).rev() {
            name.swap(i, (random.next_u64() % (i as u64 + 1)) as usize);
        }
        Graph::from_edges(n, graph.edges().map(|(a, b)| (name[a], name[b])))
    }

    /// The chromatic number by trying 1, 2, ... colors exhaustively (small graphs).
    fn brute_force_chromatic(graph: &Graph) -> usize {
        fn extend(graph: &Graph, k: usize, colors: &mut Vec<usize>) -> bool {
            let v = colors.len();
            if v == graph.num_vertices() {
                return true;
            }
            for c in 0..k {
                if graph
                    .neighbours(v)
                    .iter()
                    .all(|&u| (u as usize) >= v || colors[u as usize] != c)
                {
                    colors.push(c);
                    if extend(graph, k, colors) {
                        return true;
                    }
                    colors.pop();
                }
            }
            false
        }
        (0..=graph.num_vertices())
            .find(|&k| extend(graph, k, &mut Vec::new()))
            .unwrap_or(0)
    }

    fn tower_of(graph: &Graph) -> Tower {
        let clique = crate::coloring::greedy_clique(graph);
        tower(graph, &clique, &Watch::default()).unwrap()
    }

    #[test]
    fn relabelled_mycielski_graphs_get_their_chromatic_number() {
        // From an edge (2 colors), each construction needs one color more: up to
        // myciel7 (191 vertices, 8 colors), with no help from the vertices' order.
        let mut graph = Graph::from_edges(2, [(0, 1)]);
        for colors in 3..=8 {
            graph = graph.mycielskian().unwrap();
            let shuffled = relabelled(&graph, colors as u64);
            let t = tower_of(&shuffled);
            assert_eq!(t.bound(), colors, "{} vertices", graph.num_vertices());
            assert!(t.holds_in(&shuffled));
        }
    }

    #[test]
    fn the_bound_never_exceeds_the_brute_force_chromatic_number() {
        let mut random = crate::xorshift::XorShift(0x0C01_0B0D);
        let grotzsch = Graph::from_edges(2, [(0, 1)])
            .mycielskian()
            .and_then(|g| g.mycielskian())
            .unwrap();
        let g = grotzsch.num_vertices();
        for case in 0..300 {
            let mut edges: Vec<(usize, usize)> = grotzsch.edges().collect();
            let (n, graph) = match case % 3 {
                // The Grötzsch graph (4 colors) with up to three vertices added, each
                // joined to at most one earlier vertex: the construction is still
                // there, as an induced subgraph.
                0 => {
                    let n = g + (random.next_u64() % 4) as usize;
                    for z in g..n {
                        if random.next_u64() % 2 == 0 {
                            edges.push((z, random.next_u64() as usize % z));
                        }
                    }
                    (
                        n,
                        relabelled(&Graph::from_edges(n, edges), random.next_u64()),
                    )
                }
                // ... with random edges added anywhere.
                1 => {
                    let n = g + (random.next_u64() % 3) as usize;
                    for _ in 0..1 + random.next_u64() % 8 {
                        let (a, b) = (
                            random.next_u64() as usize % n,
                            random.next_u64() as usize % n,
                        );
                        edges.push((a, b));
                    }
                    (
                        n,
                        relabelled(&Graph::from_edges(n, edges), random.next_u64()),
                    )
                }
                // Random graphs of every density.
                _ => {
                    let n = 2 + (random.next_u64() % 9) as usize;
                    let percent = random.next_u64() % 101;
                    let edges: Vec<(usize, usize)> = (0..n)
                        .flat_map(|a| (a + 1..n).map(move |b| (a, b)))
                        .filter(|_| random.next_u64() % 100 < percent)
                        .collect();
                    (n, Graph::from_edges(n, edges))
                }
            };
            assert_eq!(graph.num_vertices(), n);
            let t = tower_of(&graph);
            let chromatic = brute_force_chromatic(&graph);
            assert!(t.holds_in(&graph), "case {case}");
            assert!(
                t.bound() <= chromatic,
                "case {case}: {} > {chromatic}",
                t.bound()
            );
            if case % 3 == 0 {
                assert_eq!(
                    t.bound(),
                    4,
                    "case {case}: the Grötzsch graph is still there"
                );
            }
        }
    }
}
