//! Graph coloring as a thin model: one variable per vertex over `k` colors, all-different
//! on cliques that cover the edges (which prunes far more than the edges alone: a clique
//! of k vertices must use every color once), not-equal on any edge no posted clique
//! holds, and the colors of one large clique fixed to
//! break the symmetry between colors. The cliques are grown greedily around each vertex,
//! then around each edge that none of them holds (the 9×9 queen graph's rows and columns
//! are found this way), once per graph.
//!
//! The chromatic number is found between a lower bound and a DSATUR upper bound (lowered
//! by tabu search when the quick probes at the lower bound fail) by asking
//! the engine for colorings with fewer and fewer colors, branching DSATUR-style (fewest
//! colors left, ties by most uncolored neighbours). The lower bound is a greedy clique,
//! raised where Mycielski's construction is found on top of one (a graph holding the
//! Mycielskian of a subgraph needs one color more than the subgraph; see `mycielski`):
//! that proves the triangle-free Mycielski graphs, where cliques say nothing.
//!
//! ```
//! use bitcsp::coloring::{self, Graph, Limits};
//! // A 5-cycle needs three colors.
//! let graph = Graph::from_edges(5, [(0, 1), (1, 2), (2, 3), (3, 4), (4, 0)]);
//! let result = coloring::chromatic_number(&graph, &Limits::default())?;
//! assert_eq!((result.lower, result.upper), (3, 3));
//! assert!(graph.is_proper_coloring(&result.coloring));
//! # Ok::<(), bitcsp::ModelError>(())
//! ```

mod bounds;
mod cliques;
mod dimacs;
mod generate;
mod graph;
mod mycielski;
mod tabu;
mod watch;

pub use bounds::{colors_used, dsatur};
pub use cliques::{clique_around, greedy_clique};
pub use dimacs::{DimacsError, DimacsWarning, Parsed, MAX_LINE, MAX_VERTICES};
pub use graph::Graph;

use std::cell::OnceCell;
use std::sync::atomic::{AtomicBool, AtomicU64};
use std::sync::Arc;
use std::time::{Duration, Instant};

use self::bounds::dsatur_watched;
use self::cliques::{clique_cover, intersection_size, CliqueCover, CliqueFinder};
use self::watch::Watch;
use crate::{
    Model, ModelError, SolveResult, Solver, StopReason, ValueSymmetry, VarId, VariableOrder,
};

/// Limits for coloring searches.
#[derive(Clone, Debug, Default)]
pub struct Limits {
    /// Wall-clock budget for the whole call, every phase of it (bounds, cliques, model
    /// building, searches).
    pub time: Option<Duration>,
    /// Node budget for each k-colorability search.
    pub nodes: Option<u64>,
    /// Stops the search when set.
    pub cancel: Option<Arc<AtomicBool>>,
    /// Threads for each exhaustive k-colorability search: 0 or 1 searches on the calling
    /// thread, more split the search tree between them (see [`Solver::solve_parallel`]).
    /// The coloring found does not depend on it. The chromatic number's bottom-up
    /// probes, small searches on a node budget, stay on the calling thread.
    pub threads: usize,
    /// Where each k-colorability search publishes the share of its tree explored (parts
    /// per billion, as [`Solver::set_progress_sink`]); it starts again from 0 for each
    /// number of colors tried.
    pub progress: Option<Arc<AtomicU64>>,
}

/// The engine model for coloring `graph` with colors `0..k`, and its vertex variables.
///
/// # Errors
/// [`ModelError::EmptyDomain`] when `k = 0` and the graph has vertices.
pub fn model(graph: &Graph, k: usize) -> Result<(Model, Vec<VarId>), ModelError> {
    let watch = Watch::default();
    let cliques = Cliques::of(graph, &watch).map_err(|_| ModelError::EmptyDomain)?;
    match model_on(graph, k, &cliques, &watch) {
        Built::Model(m, vertices) => Ok((m, vertices)),
        Built::Invalid(e) => Err(e),
        Built::Stopped(_) => Err(ModelError::EmptyDomain), // no watch: never stops
    }
}

/// A coloring model, or why there is none.
enum Built {
    Model(Model, Vec<VarId>),
    Invalid(ModelError),
    Stopped(StopReason),
}

/// [`model`] on cliques found beforehand, stopped when `watch` says so.
fn model_on(graph: &Graph, k: usize, cliques: &Cliques, watch: &Watch) -> Built {
    let cover = match cliques.cover(watch) {
        Ok(cover) => cover,
        Err(reason) => return Built::Stopped(reason),
    };
    match build(graph, k, cliques, cover) {
        Ok((m, vertices)) => Built::Model(m, vertices),
        Err(e) => Built::Invalid(e),
    }
}

fn build(
    graph: &Graph,
    k: usize,
    cliques: &Cliques,
    cover: &CliqueCover,
) -> Result<(Model, Vec<VarId>), ModelError> {
    let mut m = Model::new();
    let top = i32::try_from(k).map_err(|_| ModelError::EmptyDomain)? - 1;
    let vertices = m.new_vars(graph.num_vertices(), 0..=top)?;
    // The edges' cliques that can prune: a clique of k - 1 or k vertices (k: a permutation of
    // the colors) gives hidden singles and pigeonhole failures that its edges alone do
    // not; smaller ones only repeat the edges. At most as many as the vertices' cliques,
    // so that graphs made of many overlapping large cliques (school1: 1,695 such) do not
    // pay for them at every node.
    let extra = cover
        .extra
        .iter()
        .filter(|c| c.len() + 1 >= k)
        .take(cover.around_vertices.len());
    let posted: Vec<&Vec<usize>> = cover.around_vertices.iter().chain(extra).collect();
    for clique in &posted {
        let vars: Vec<VarId> = clique.iter().map(|&v| vertices[v]).collect();
        m.all_different(&vars)?;
    }
    // An edge inside a posted clique is already kept apart by it: a propagator of its own
    // would only repeat, at every fixed vertex, what the clique does.
    let cliques_of = cliques_per_vertex(graph.num_vertices(), &posted);
    for (u, v) in graph.edges() {
        if intersection_size(&cliques_of[u], &cliques_of[v]) == 0 {
            m.not_equal(vertices[u], vertices[v])?;
        }
    }
    // Symmetry: any coloring can be renamed so that a given clique gets 0, 1, 2, ...
    for (color, &v) in cliques.largest.iter().enumerate() {
        m.fix(vertices[v], color as i32)?;
    }
    Ok((m, vertices))
}

/// For each of `n` vertices, the indices of the `cliques` holding it, ascending.
fn cliques_per_vertex(n: usize, cliques: &[&Vec<usize>]) -> Vec<Vec<u32>> {
    let mut of = vec![Vec::new(); n];
    for (i, clique) in cliques.iter().enumerate() {
        for &v in clique.iter() {
            of[v].push(i as u32);
        }
    }
    of
}

/// The cliques a coloring model is built on, found once per graph: the largest at once
/// (the lower bound), the cover when a model is first built (a graph whose bounds meet
/// never needs it).
struct Cliques<'g> {
    finder: CliqueFinder<'g>,
    /// A large clique: the lower bound, and the vertices whose colors are fixed.
    largest: Vec<usize>,
    cover: OnceCell<CliqueCover>,
}

impl<'g> Cliques<'g> {
    fn of(graph: &'g Graph, watch: &Watch) -> Result<Self, StopReason> {
        let finder = CliqueFinder::new(graph);
        Ok(Cliques {
            largest: cliques::largest_clique(&finder, watch)?,
            finder,
            cover: OnceCell::new(),
        })
    }

    fn cover(&self, watch: &Watch) -> Result<&CliqueCover, StopReason> {
        if let Some(cover) = self.cover.get() {
            return Ok(cover);
        }
        let cover = clique_cover(&self.finder, watch)?;
        Ok(self.cover.get_or_init(|| cover))
    }
}

/// The answer to "can `graph` be colored with k colors?".
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Decision {
    /// Yes: one color in `0..k` per vertex, verified against the edges.
    Coloring(Vec<usize>),
    /// No: the search proved it.
    Impossible,
    /// A limit stopped the search first.
    Unknown(StopReason),
}

/// Decides whether `graph` can be colored with `k` colors.
///
/// The bounds answer first, without a search: DSATUR's coloring when it uses at most `k`
/// colors (it never needs more than the largest degree plus one, so any larger `k` is
/// answered at once, in memory that does not grow with `k`), and "impossible" when a
/// clique has more than `k` vertices or Mycielski's construction, found on a clique,
/// needs more than `k` colors.
///
/// ```
/// use bitcsp::coloring::{self, Decision, Graph, Limits};
/// let triangle = Graph::from_edges(3, [(0, 1), (1, 2), (2, 0)]);
/// assert_eq!(coloring::color_with(&triangle, 2, &Limits::default())?, Decision::Impossible);
/// let Decision::Coloring(c) = coloring::color_with(&triangle, 1_000_000, &Limits::default())?
/// else { panic!("three colors suffice") };
/// assert!(triangle.is_proper_coloring(&c));
/// # Ok::<(), bitcsp::ModelError>(())
/// ```
///
/// # Errors
/// As [`model`].
pub fn color_with(graph: &Graph, k: usize, limits: &Limits) -> Result<Decision, ModelError> {
    let watch = Watch::start(limits);
    if graph.num_vertices() == 0 {
        return Ok(Decision::Coloring(Vec::new()));
    }
    if k == 0 {
        return Ok(Decision::Impossible);
    }
    let greedy = match dsatur_watched(graph, &watch) {
        Ok(coloring) => coloring,
        Err(reason) => return Ok(Decision::Unknown(reason)),
    };
    if colors_used(&greedy) <= k {
        return Ok(Decision::Coloring(greedy));
    }
    let cliques = match Cliques::of(graph, &watch) {
        Ok(cliques) => cliques,
        Err(reason) => return Ok(Decision::Unknown(reason)),
    };
    if cliques.largest.len() > k {
        return Ok(Decision::Impossible);
    }
    match mycielski::tower(graph, &cliques.largest, &watch) {
        Ok(tower) if tower.bound() > k => return Ok(Decision::Impossible),
        Ok(_) => {}
        Err(reason) => return Ok(Decision::Unknown(reason)),
    }
    decide(graph, k, limits, &cliques, &watch)
}

/// [`color_with`] on cliques found beforehand, without the quick answers: a search.
fn decide(
    graph: &Graph,
    k: usize,
    limits: &Limits,
    cliques: &Cliques,
    watch: &Watch,
) -> Result<Decision, ModelError> {
    if graph.num_vertices() == 0 {
        return Ok(Decision::Coloring(Vec::new()));
    }
    if k == 0 {
        return Ok(Decision::Impossible);
    }
    let (m, vertices) = match model_on(graph, k, cliques, watch) {
        Built::Model(m, vertices) => (m, vertices),
        Built::Invalid(e) => return Err(e),
        Built::Stopped(reason) => return Ok(Decision::Unknown(reason)),
    };
    if let Err(reason) = watch.check() {
        return Ok(Decision::Unknown(reason));
    }
    let mut solver = Solver::new(&m);
    if let Err(reason) = watch.check() {
        return Ok(Decision::Unknown(reason));
    }
    let time = match (limits.time, watch.remaining()) {
        (Some(own), Some(left)) => Some(own.min(left)),
        (own, left) => own.or(left),
    };
    solver
        .set_variable_order(VariableOrder::MrvDynamicDegree)
        .set_value_symmetry(ValueSymmetry::Interchangeable)
        .set_time_limit(time)
        .set_node_limit(limits.nodes)
        .set_cancel_flag(limits.cancel.clone())
        .set_progress_sink(limits.progress.clone());
    let result = if limits.threads > 1 {
        solver.solve_parallel(limits.threads)
    } else {
        solver.solve()
    };
    Ok(match result {
        SolveResult::Solution(s) => {
            let coloring: Vec<usize> = vertices.iter().map(|&v| s.value(v) as usize).collect();
            if graph.is_proper_coloring(&coloring) {
                Decision::Coloring(coloring)
            } else {
                // Cannot happen if the engine is right; refuse to report a wrong answer.
                Decision::Unknown(StopReason::Cancelled)
            }
        }
        SolveResult::Unsatisfiable => Decision::Impossible,
        SolveResult::Stopped(reason) => Decision::Unknown(reason),
    })
}

/// The chromatic number, or the best bounds when a limit stops the search.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Chromatic {
    /// Proved lower bound (a clique, Mycielski's construction on one, or an impossible k
    /// plus one).
    pub lower: usize,
    /// Colors of the best coloring found.
    pub upper: usize,
    /// The best coloring found, colors `0..upper`, verified.
    pub coloring: Vec<usize>,
    /// Why the search stopped before `lower == upper`, if it did.
    pub stopped: Option<StopReason>,
}

impl Chromatic {
    /// True when the chromatic number is known: `lower == upper`.
    pub fn is_exact(&self) -> bool {
        self.lower == self.upper
    }
}

/// Node budget of each bottom-up probe in [`chromatic_number`].
const PROBE_NODES: u64 = 20_000;

/// Finds the chromatic number: bounds from a greedy clique (raised by Mycielski's
/// construction where it is found) and DSATUR, then two phases.
/// Bottom-up: ask for a coloring with `lower` colors on a small node budget; an answer
/// either ends the search (a coloring) or raises `lower` (impossible), and the probe is
/// repeated. With few colors propagation is strong, so when the clique bound is the
/// chromatic number (most benchmark graphs, and the Leighton graphs that defeat DSATUR)
/// this is the quickest proof. Top-down, once a probe runs out of budget: tabu search
/// lowers `upper` while it finds colorings with one color fewer (a fixed number of
/// seeded moves each), then the search asks for colorings with `upper - 1`, `upper - 2`,
/// ... colors until one is impossible or `lower` is met.
///
/// # Errors
/// As [`model`].
pub fn chromatic_number(graph: &Graph, limits: &Limits) -> Result<Chromatic, ModelError> {
    let started = Instant::now();
    let watch = Watch::start(limits);
    let mut best = Chromatic {
        lower: usize::from(graph.num_vertices() > 0),
        upper: graph.num_vertices(),
        coloring: (0..graph.num_vertices()).collect(),
        stopped: None,
    };
    match dsatur_watched(graph, &watch) {
        Ok(coloring) => {
            best.upper = colors_used(&coloring);
            best.coloring = coloring;
        }
        Err(reason) => {
            best.stopped = Some(reason);
            return Ok(best);
        }
    }
    let cliques = match Cliques::of(graph, &watch) {
        Ok(cliques) => cliques,
        Err(reason) => {
            best.stopped = Some(reason);
            return Ok(best);
        }
    };
    best.lower = best.lower.max(cliques.largest.len());
    if best.lower < best.upper {
        match mycielski::tower(graph, &cliques.largest, &watch) {
            Ok(tower) => best.lower = best.lower.max(tower.bound()),
            Err(reason) => {
                best.stopped = Some(reason);
                return Ok(best);
            }
        }
    }
    let remaining = |best: &mut Chromatic| -> Option<Option<Duration>> {
        match limits.time {
            Some(t) => match t.checked_sub(started.elapsed()) {
                Some(r) => Some(Some(r)),
                None => {
                    best.stopped = Some(StopReason::TimeLimit);
                    None
                }
            },
            None => Some(None),
        }
    };
    // Bottom-up probes.
    while best.lower < best.upper {
        let Some(time) = remaining(&mut best) else {
            return Ok(best);
        };
        let probe = Limits {
            time,
            nodes: Some(limits.nodes.map_or(PROBE_NODES, |n| n.min(PROBE_NODES))),
            cancel: limits.cancel.clone(),
            threads: 1,
            progress: limits.progress.clone(),
        };
        match decide(graph, best.lower, &probe, &cliques, &watch)? {
            Decision::Coloring(c) => {
                best.upper = colors_used(&c);
                best.coloring = c;
            }
            Decision::Impossible => best.lower += 1,
            Decision::Unknown(StopReason::NodeLimit) => break,
            Decision::Unknown(reason) => {
                best.stopped = Some(reason);
                return Ok(best);
            }
        }
    }
    // Fewer colors than DSATUR's by local search, while it finds them: the descent then
    // starts lower, and a coloring with as many colors as the lower bound ends it.
    let deadline = watch.deadline();
    while best.lower < best.upper {
        if let Err(reason) = watch.check() {
            best.stopped = Some(reason);
            return Ok(best);
        }
        match tabu::tabu_coloring(
            graph,
            best.upper - 1,
            &best.coloring,
            tabu::MOVES,
            deadline,
            limits.cancel.as_deref(),
        ) {
            Some(c) => {
                best.upper = colors_used(&c);
                best.coloring = c;
            }
            None => break,
        }
    }
    // Top-down descent.
    while best.lower < best.upper {
        let Some(time) = remaining(&mut best) else {
            break;
        };
        let step = Limits {
            time,
            ..limits.clone()
        };
        match decide(graph, best.upper - 1, &step, &cliques, &watch)? {
            Decision::Coloring(c) => {
                best.upper = colors_used(&c);
                best.coloring = c;
            }
            Decision::Impossible => best.lower = best.upper,
            Decision::Unknown(reason) => {
                best.stopped = Some(reason);
                break;
            }
        }
    }
    Ok(best)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_edge_lies_in_a_clique_of_the_cover() {
        // The 9×9 queen graph: the vertices' cliques miss some rows and columns, the
        // edges' cliques complete them.
        let n = 9;
        let graph = Graph::queen(n).expect("a small board");
        let cliques = Cliques::of(&graph, &Watch::default()).unwrap();
        let cover = cliques.cover(&Watch::default()).unwrap();
        let all: Vec<&Vec<usize>> = cover.around_vertices.iter().chain(&cover.extra).collect();
        for (u, v) in graph.edges() {
            assert!(
                all.iter().any(|c| c.contains(&u) && c.contains(&v)),
                "edge {u}-{v}"
            );
        }
        for c in &all {
            assert!(c.len() >= 3);
            for (i, &a) in c.iter().enumerate() {
                assert!(c[i + 1..].iter().all(|&b| graph.adjacent(a, b)));
            }
        }
        // Every row and column is a clique of nine in the model (as posted for k = 9).
        let nines = all.iter().filter(|c| c.len() == n).count();
        assert!(nines >= 2 * n, "{nines} cliques of nine");
        assert_eq!(cliques.largest.len(), n);
    }

    #[test]
    fn local_search_finds_the_coloring_the_search_budget_misses() {
        // Hidden color v % 10, random edges between different colors (40 %), and one
        // vertex of each color joined into a clique: the chromatic number is 10. DSATUR
        // needs 22 colors, and with 2,000 nodes per search the exhaustive search alone
        // stops at 19.
        let k = 10;
        let graph = Graph::planted(200, k, 40, 0x5DEE_CE66_D1CE_4E5B);
        assert!(colors_used(&dsatur(&graph)) > k);
        let limits = Limits {
            nodes: Some(2_000),
            ..Limits::default()
        };
        let r = chromatic_number(&graph, &limits).unwrap();
        assert_eq!((r.lower, r.upper), (k, k));
        assert!(graph.is_proper_coloring(&r.coloring));
    }
}
