//! Impossible cycles of differences, the check that stops bounds creeping.
//!
//! Bounds reasoning on `x − y ≤ -1` and `y − x ≤ -1` never fails at once: each constraint
//! raises one bound by one, which wakes the other, and the two climb together until a
//! domain runs out. Over the whole `i32` (a MiniZinc `var int`) that takes billions of
//! runs, so a search whose decisions close such a cycle (the orderings of a job shop whose
//! start times have no declared bounds, a reified sliding sum) stalls at one node. Every
//! bounds-reasoning solver has this weakness (Gecode's `IPL_BND` included); what removes it
//! is the classic test on the difference constraints themselves: `x₁ − x₂ ≤ c₁, …,
//! xₖ − x₁ ≤ cₖ` add up to `0 ≤ Σ cᵢ`, so a cycle whose constants add up below zero has
//! no solution (a negative cycle in the constraint graph, found by Bellman and Ford's
//! relaxation).
//!
//! The engine runs the test only when one propagation has gone on far longer than the
//! model's size explains (`Engine::propagate`), with the differences its constraints
//! imply in the current domains: a sum with two open terms of opposite coefficients of one
//! size (the others at their bounds), a reified sum whose literal is fixed, an equality
//! with an offset (a reified one once its literal holds). A cycle found is a conflict of
//! one of its constraints.

/// `x − y ≤ bound`, implied by constraint `source` in the current domains (`x` and `y`
/// are store indices).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Difference {
    pub(crate) x: usize,
    pub(crate) y: usize,
    pub(crate) bound: i64,
    pub(crate) source: u32,
}

/// Differences whose bound is larger than this in size are left out: no cycle through one
/// could add up below zero unless other bounds were as large, and leaving a difference out
/// can only miss a cycle, never invent one.
pub(crate) const LARGEST_BOUND: i64 = 1 << 40;

/// The source of a difference on a cycle whose bounds add up below zero, if `differences`
/// hold such a cycle (so that no assignment satisfies them all).
pub(crate) fn negative_cycle(differences: &[Difference]) -> Option<u32> {
    let graph = Graph::new(differences);
    let component = graph.strong_components();
    // A negative cycle lies within one strongly connected component; Bellman–Ford on the
    // edges inside the components settles all of them together, each within as many
    // rounds as the largest component has nodes.
    let inside: Vec<usize> = (0..differences.len())
        .filter(|&e| component[graph.from[e]] == component[graph.to[e]])
        .collect();
    if inside.is_empty() {
        return None;
    }
    let mut sizes = vec![0usize; graph.nodes];
    for &c in &component {
        sizes[c] += 1;
    }
    let rounds = sizes.iter().copied().max().unwrap_or(0);
    // Distances from a source joined to every node by an edge of length zero, and the
    // edge that last shortened each node's.
    let mut distance = vec![0i128; graph.nodes];
    let mut through_edge = vec![usize::MAX; graph.nodes];
    let mut last = None;
    for _ in 0..rounds {
        last = None;
        for &e in &inside {
            let through = distance[graph.from[e]] + i128::from(differences[e].bound);
            if through < distance[graph.to[e]] {
                distance[graph.to[e]] = through;
                through_edge[graph.to[e]] = e;
                last = Some(e);
            }
        }
        // A round that shortens nothing: every distance is final, no cycle is negative.
        last?;
    }
    // A node shortened in the last round has a shortest path with more edges than its
    // component has nodes: walking its edges back that far lands on the cycle it repeats,
    // a negative one, and the edge that reached that node is on it.
    let last = last?;
    let mut node = graph.to[last];
    for _ in 0..rounds {
        match through_edge[node] {
            usize::MAX => return Some(differences[last].source),
            e => node = graph.from[e],
        }
    }
    match through_edge[node] {
        usize::MAX => Some(differences[last].source),
        e => Some(differences[e].source),
    }
}

/// The differences as a graph on their variables: `x − y ≤ c` is an edge from `y` to `x`
/// of length `c` (a shortest-path distance `d` with `d(x) ≤ d(y) + c` satisfies it).
struct Graph {
    nodes: usize,
    /// Per edge (in the order of the differences), its ends as node numbers.
    from: Vec<usize>,
    to: Vec<usize>,
    /// The edges leaving each node: `out[first[n]..first[n + 1]]`.
    first: Vec<usize>,
    out: Vec<usize>,
}

impl Graph {
    fn new(differences: &[Difference]) -> Self {
        let mut vars: Vec<usize> = differences.iter().flat_map(|d| [d.x, d.y]).collect();
        vars.sort_unstable();
        vars.dedup();
        let node = |v: usize| vars.binary_search(&v).unwrap_or(0);
        let from: Vec<usize> = differences.iter().map(|d| node(d.y)).collect();
        let to: Vec<usize> = differences.iter().map(|d| node(d.x)).collect();
        let nodes = vars.len();
        let mut first = vec![0usize; nodes + 1];
        for &f in &from {
            first[f + 1] += 1;
        }
        for n in 0..nodes {
            first[n + 1] += first[n];
        }
        let mut next = first.clone();
        let mut out = vec![0usize; from.len()];
        for (e, &f) in from.iter().enumerate() {
            out[next[f]] = e;
            next[f] += 1;
        }
        Graph {
            nodes,
            from,
            to,
            first,
            out,
        }
    }

    /// Each node's strongly connected component, numbered from zero (Tarjan's algorithm,
    /// with an explicit stack: a chain of thousands of differences is common).
    fn strong_components(&self) -> Vec<usize> {
        const UNSEEN: usize = usize::MAX;
        let n = self.nodes;
        let mut index = vec![UNSEEN; n];
        let mut low = vec![0usize; n];
        let mut on_stack = vec![false; n];
        let mut component = vec![UNSEEN; n];
        let mut stack = Vec::new();
        // The depth-first path: a node and the position of its next edge to follow.
        let mut path: Vec<(usize, usize)> = Vec::new();
        let (mut next_index, mut components) = (0, 0);
        for root in 0..n {
            if index[root] != UNSEEN {
                continue;
            }
            path.push((root, self.first[root]));
            index[root] = next_index;
            low[root] = next_index;
            next_index += 1;
            stack.push(root);
            on_stack[root] = true;
            while let Some(&mut (v, ref mut at)) = path.last_mut() {
                if *at < self.first[v + 1] {
                    let w = self.to[self.out[*at]];
                    *at += 1;
                    if index[w] == UNSEEN {
                        index[w] = next_index;
                        low[w] = next_index;
                        next_index += 1;
                        stack.push(w);
                        on_stack[w] = true;
                        path.push((w, self.first[w]));
                    } else if on_stack[w] {
                        low[v] = low[v].min(index[w]);
                    }
                    continue;
                }
                path.pop();
                if let Some(&(parent, _)) = path.last() {
                    low[parent] = low[parent].min(low[v]);
                }
                if low[v] == index[v] {
                    while let Some(w) = stack.pop() {
                        on_stack[w] = false;
                        component[w] = components;
                        if w == v {
                            break;
                        }
                    }
                    components += 1;
                }
            }
        }
        component
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::xorshift::XorShift;

    fn difference(x: usize, y: usize, bound: i64, source: u32) -> Difference {
        Difference {
            x,
            y,
            bound,
            source,
        }
    }

    #[test]
    fn two_orderings_that_contradict_each_other_form_a_negative_cycle() {
        // x ≥ y + 1 and y ≥ x + 3, over variables far apart in the store.
        let cycle = [difference(7, 900, -1, 4), difference(900, 7, -3, 5)];
        assert!(matches!(negative_cycle(&cycle), Some(4 | 5)));
        // x ≥ y + 1 and y ≥ x - 3 hold together.
        let fine = [difference(7, 900, -1, 4), difference(900, 7, 3, 5)];
        assert_eq!(negative_cycle(&fine), None);
    }

    #[test]
    fn a_long_chain_has_no_cycle_and_closing_it_makes_one() {
        let mut chain: Vec<Difference> = (0..5_000)
            .map(|i| difference(i, i + 1, -1, i as u32))
            .collect();
        assert_eq!(negative_cycle(&chain), None);
        chain.push(difference(5_000, 0, 5_000, 9_999));
        assert_eq!(negative_cycle(&chain), None, "the cycle adds up to zero");
        chain.push(difference(5_000, 0, 4_999, 10_000));
        let source = negative_cycle(&chain).expect("a cycle adding up to -1");
        assert!(source <= 5_000 || source == 10_000, "{source}");
    }

    /// The shortest path from each node to each other over `differences` (Floyd and
    /// Warshall), `i128::MAX / 4` where there is none.
    fn shortest_paths(differences: &[Difference], nodes: usize) -> Vec<Vec<i128>> {
        let mut d = vec![vec![i128::MAX / 4; nodes]; nodes];
        for e in differences {
            d[e.y][e.x] = d[e.y][e.x].min(i128::from(e.bound));
        }
        for k in 0..nodes {
            for i in 0..nodes {
                for j in 0..nodes {
                    let through = d[i][k] + d[k][j];
                    if through < d[i][j] {
                        d[i][j] = through;
                    }
                }
            }
        }
        d
    }

    #[test]
    fn negative_cycles_are_those_shortest_paths_find() {
        let mut random = XorShift(2026);
        let (mut found, mut cases) = (0, 0);
        for _ in 0..3_000 {
            let nodes = 1 + random.below(6);
            let edges = random.below(12);
            let differences: Vec<Difference> = (0..edges)
                .map(|e| {
                    let x = random.below(nodes);
                    let mut y = random.below(nodes);
                    if y == x {
                        y = (x + 1) % nodes;
                    }
                    let bound = random.below(9) as i64 - 5;
                    difference(x * 3, y * 3, bound, e as u32)
                })
                .filter(|d| d.x != d.y)
                .collect();
            let paths = shortest_paths(
                &differences
                    .iter()
                    .map(|d| difference(d.x / 3, d.y / 3, d.bound, d.source))
                    .collect::<Vec<_>>(),
                nodes,
            );
            let expected = (0..nodes).any(|i| paths[i][i] < 0);
            let source = negative_cycle(&differences);
            assert_eq!(source.is_some(), expected, "{differences:?}");
            if let Some(s) = source {
                // The source named is a difference on a negative cycle: the others hold a
                // path back from its `x` to its `y` shorter than minus its bound.
                let without: Vec<Difference> = differences
                    .iter()
                    .copied()
                    .filter(|d| d.source != s)
                    .map(|d| difference(d.x / 3, d.y / 3, d.bound, d.source))
                    .collect();
                let on_cycle = {
                    let e = differences
                        .iter()
                        .find(|d| d.source == s)
                        .copied()
                        .expect("a source of the list");
                    // A path back from x to y closes a cycle with e, negative.
                    shortest_paths(&without, nodes)[e.x / 3][e.y / 3] + i128::from(e.bound) < 0
                };
                assert!(on_cycle, "{differences:?} named {s}");
                found += 1;
            }
            cases += 1;
        }
        assert!(
            found > cases / 10 && found < cases * 9 / 10,
            "{found} of {cases}"
        );
    }
}
