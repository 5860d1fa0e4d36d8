//! Graph coloring through the library in a page: read a DIMACS graph, find its chromatic
//! number, decide k-colorability, verify the coloring.
//!
//! Run with `cargo run --example coloring`.

use bitcsp::coloring::{self, Decision, Graph, Limits};

const MYCIEL3: &str = "c the Groetzsch graph: triangle-free, yet 4 colors are needed
p edge 11 20
e 1 2\ne 1 4\ne 1 7\ne 1 9\ne 2 3\ne 2 6\ne 2 8\ne 3 5\ne 3 7\ne 3 10
e 4 5\ne 4 6\ne 4 10\ne 5 8\ne 5 9\ne 6 11\ne 7 11\ne 8 11\ne 9 11\ne 10 11
";

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let parsed = Graph::from_dimacs(MYCIEL3)?;
    let graph = parsed.graph;
    println!(
        "{} vertices, {} edges",
        graph.num_vertices(),
        graph.num_edges()
    );
    println!(
        "bounds: clique {}, DSATUR {}",
        coloring::greedy_clique(&graph).len(),
        coloring::colors_used(&coloring::dsatur(&graph))
    );

    let result = coloring::chromatic_number(&graph, &Limits::default())?;
    println!(
        "chromatic number: {} (exact: {})",
        result.upper,
        result.is_exact()
    );
    assert!(graph.is_proper_coloring(&result.coloring));
    for (v, c) in result.coloring.iter().enumerate() {
        println!("vertex {} -> color {}", v + 1, c + 1);
    }

    // The model itself: one variable per vertex, not-equal per edge, cliques all-different.
    match coloring::color_with(&graph, 3, &Limits::default())? {
        Decision::Coloring(_) => println!("3 colors suffice"),
        Decision::Impossible => println!("3 colors are not enough"),
        Decision::Unknown(reason) => println!("3 colors: unknown ({reason})"),
    }
    Ok(())
}
