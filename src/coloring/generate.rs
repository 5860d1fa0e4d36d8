//! Graphs of the classic colouring benchmarks, generated: queen graphs and Mycielski
//! graphs, as the DIMACS files of the same names hold them.

use super::Graph;

impl Graph {
    /// The `n`×`n` queen graph: a vertex per cell (`row * n + col`), two cells adjacent
    /// when they share a row, a column or a diagonal, as queens attack. Its chromatic
    /// number is at least `n` (a row is a clique), and `n` when `n` is coprime to 6;
    /// `None` when `n²` overflows.
    ///
    /// ```
    /// use bitcsp::coloring::Graph;
    /// let graph = Graph::queen(5).expect("a small board");
    /// assert_eq!((graph.num_vertices(), graph.num_edges()), (25, 160));
    /// ```
    pub fn queen(n: usize) -> Option<Graph> {
        let cells = n.checked_mul(n)?;
        let attacks = move |a: usize, b: usize| {
            let (ra, ca, rb, cb) = (a / n, a % n, b / n, b % n);
            ra == rb || ca == cb || ra.abs_diff(rb) == ca.abs_diff(cb)
        };
        let edges = (0..cells).flat_map(move |a| {
            (a + 1..cells)
                .filter(move |&b| attacks(a, b))
                .map(move |b| (a, b))
        });
        Some(Graph::from_edges(cells, edges))
    }

    /// The Mycielskian of this graph on `n` vertices: a copy `n + v` of each vertex `v`,
    /// adjacent to the neighbours of `v`, and an apex `2n` adjacent to every copy. It has
    /// no triangle when this graph has none, and its chromatic number is one more: from
    /// one edge, applying it twice gives myciel3 (the Grötzsch graph, χ = 4), and each
    /// further time the next of the DIMACS Mycielski graphs. `None` when `2n + 1`
    /// overflows.
    ///
    /// ```
    /// use bitcsp::coloring::Graph;
    /// let edge = Graph::from_edges(2, [(0, 1)]);
    /// let five_cycle = edge.mycielskian().expect("a small graph");
    /// let myciel3 = five_cycle.mycielskian().expect("a small graph");
    /// assert_eq!((myciel3.num_vertices(), myciel3.num_edges()), (11, 20));
    /// ```
    pub fn mycielskian(&self) -> Option<Graph> {
        let n = self.num_vertices();
        let vertices = n.checked_mul(2)?.checked_add(1)?;
        let copies = self
            .edges()
            .flat_map(|(a, b)| [(a, b), (a, n + b), (b, n + a)]);
        let apex = (0..n).map(|v| (n + v, 2 * n));
        Some(Graph::from_edges(vertices, copies.chain(apex)))
    }
}
