//! Graph coloring: chromatic numbers from the literature, brute force on random graphs,
//! DIMACS errors, and the command line.

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;
use std::time::Duration;

mod common;
use common::bitcsp;

use bitcsp::coloring::{self, Decision, DimacsError, Graph, Limits};
use bitcsp::{SolveResult, Solver, StopReason, ValueSymmetry, VariableOrder};
use proptest::prelude::*;

fn data(name: &str) -> String {
    format!("{}/tests/data/coloring/{name}", env!("CARGO_MANIFEST_DIR"))
}

fn load(name: &str) -> Graph {
    let text = std::fs::read_to_string(data(&format!("{name}.col"))).unwrap();
    Graph::from_dimacs(&text).unwrap().graph
}

/// The instances of chromatic.csv, with the known chromatic number.
fn known() -> Vec<(String, usize, usize, usize)> {
    std::fs::read_to_string(data("chromatic.csv"))
        .unwrap()
        .lines()
        .skip(1)
        .map(|l| {
            let f: Vec<&str> = l.split(',').collect();
            (
                f[0].to_string(),
                f[1].parse().unwrap(),
                f[2].parse().unwrap(),
                f[3].parse().unwrap(),
            )
        })
        .collect()
}

#[test]
fn chromatic_numbers_match_the_literature() {
    let instances = known();
    assert_eq!(instances.len(), 33);
    for (name, vertices, edges, chi) in instances {
        let graph = load(&name);
        assert_eq!(
            (graph.num_vertices(), graph.num_edges()),
            (vertices, edges),
            "{name}"
        );
        let limits = Limits {
            time: Some(Duration::from_secs(60)),
            ..Limits::default()
        };
        let r = coloring::chromatic_number(&graph, &limits).unwrap();
        assert!(
            r.is_exact(),
            "{name}: stopped at [{}, {}]",
            r.lower,
            r.upper
        );
        assert_eq!(r.upper, chi, "{name}");
        assert!(graph.is_proper_coloring(&r.coloring), "{name}");
        assert_eq!(coloring::colors_used(&r.coloring), chi, "{name}");
    }
}

#[test]
fn raw_files_with_both_directions_and_self_loops_read_the_same_graph() {
    for name in ["homer", "queen8_8"] {
        let raw = std::fs::read_to_string(data(&format!("raw/{name}.col"))).unwrap();
        let parsed = Graph::from_dimacs(&raw).unwrap();
        assert_eq!(parsed.graph, load(name), "{name}");
    }
    let raw = std::fs::read_to_string(data("raw/homer.col")).unwrap();
    assert_eq!(Graph::from_dimacs(&raw).unwrap().warnings.len(), 2);
}

/// Interchangeable colors: trying one unused color per node instead of each of them
/// proves myciel5 (chromatic number 6) not 5-colorable in 49,413 nodes, where the plain
/// search needs 296,279 (measured); capped at 60,000 nodes, only the first finishes.
#[test]
fn interchangeable_colors_cut_the_proof_that_myciel5_needs_six() {
    let (model, _) = coloring::model(&load("myciel5"), 5).unwrap();
    let run = |symmetry| {
        let mut solver = Solver::new(&model);
        solver
            .set_variable_order(VariableOrder::MrvDynamicDegree)
            .set_value_symmetry(symmetry)
            .set_node_limit(Some(60_000));
        solver.solve()
    };
    assert_eq!(
        run(ValueSymmetry::Interchangeable),
        SolveResult::Unsatisfiable
    );
    assert_eq!(
        run(ValueSymmetry::None),
        SolveResult::Stopped(StopReason::NodeLimit)
    );
}

/// The chromatic number by trying every assignment (tiny graphs only).
fn brute_force_chromatic(graph: &Graph) -> usize {
    let n = graph.num_vertices();
    (0..=n)
        .find(|&k| {
            let total = (k as u64).pow(n as u32);
            (0..total).any(|mut code| {
                let colors: Vec<usize> = (0..n)
                    .map(|_| {
                        let c = (code % k as u64) as usize;
                        code /= k as u64;
                        c
                    })
                    .collect();
                graph.is_proper_coloring(&colors)
            })
        })
        .unwrap_or(n)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(150))]

    #[test]
    fn chromatic_number_equals_brute_force_on_random_graphs(
        n in 1usize..=7,
        edges in proptest::collection::vec((0usize..7, 0usize..7), 0..18),
    ) {
        let graph = Graph::from_edges(n, edges);
        let r = coloring::chromatic_number(&graph, &Limits::default()).unwrap();
        prop_assert!(r.is_exact());
        prop_assert_eq!(r.upper, brute_force_chromatic(&graph));
        prop_assert!(graph.is_proper_coloring(&r.coloring));
    }
}

#[test]
fn too_few_colors_are_impossible_and_enough_are_found() {
    let graph = load("myciel4");
    let limits = Limits::default();
    assert_eq!(
        coloring::color_with(&graph, 4, &limits).unwrap(),
        Decision::Impossible
    );
    let Decision::Coloring(c) = coloring::color_with(&graph, 5, &limits).unwrap() else {
        panic!("myciel4 is 5-colorable")
    };
    assert!(graph.is_proper_coloring(&c));
}

/// A random graph on `n` vertices with edge probability one half (fixed seed): hard for
/// exact coloring.
fn dense_random(n: usize) -> Vec<(usize, usize)> {
    let mut random = common::Random(7);
    let mut edges = Vec::new();
    for u in 0..n {
        for v in u + 1..n {
            if random.next_u64() % 2 == 0 {
                edges.push((u, v));
            }
        }
    }
    edges
}

#[test]
fn a_short_time_limit_reports_bounds_and_a_valid_coloring() {
    let graph = Graph::from_edges(150, dense_random(150));
    let limits = Limits {
        time: Some(Duration::from_millis(200)),
        ..Limits::default()
    };
    let started = std::time::Instant::now();
    let r = coloring::chromatic_number(&graph, &limits).unwrap();
    assert!(started.elapsed() < Duration::from_secs(5));
    assert!(r.lower < r.upper, "[{}, {}]", r.lower, r.upper);
    assert_eq!(r.stopped, Some(bitcsp::StopReason::TimeLimit));
    assert!(graph.is_proper_coloring(&r.coloring));
    assert_eq!(coloring::colors_used(&r.coloring), r.upper);
}

#[test]
fn malformed_dimacs_is_reported_with_its_line() {
    let cases: [(&str, DimacsError); 3] = [
        ("c x\ne 1 2\n", DimacsError::MissingHeader { line: 2 }),
        (
            "p edge 3 1\ne 1 4\n",
            DimacsError::VertexOutOfRange {
                line: 2,
                vertex: 4,
                vertices: 3,
            },
        ),
        (
            "p edge 3 1\ne one 2\n",
            DimacsError::NonNumeric {
                line: 2,
                token: "one".into(),
            },
        ),
    ];
    for (text, want) in cases {
        assert_eq!(Graph::from_dimacs(text).unwrap_err(), want);
    }
}

fn coloring_of(out: &str) -> Vec<usize> {
    out.lines()
        .skip(1)
        .map(|l| {
            let (v, c) = l.split_once(' ').unwrap();
            assert!(v.parse::<usize>().unwrap() >= 1);
            c.parse::<usize>().unwrap() - 1
        })
        .collect()
}

#[test]
fn command_line_prints_the_chromatic_number_and_a_verified_coloring() {
    let (out, _, code) = bitcsp(&["color", &data("queen6_6.col")]);
    assert_eq!(code, Some(0));
    assert_eq!(out.lines().next(), Some("7"));
    let colors = coloring_of(&out);
    assert_eq!(colors.len(), 36);
    assert!(load("queen6_6").is_proper_coloring(&colors));
}

#[test]
fn command_line_decides_k_colorability() {
    let file = data("myciel4.col");
    let (out, _, code) = bitcsp(&["color", "--colors", "5", &file]);
    assert_eq!((out.lines().next(), code), (Some("5"), Some(0)));
    assert!(load("myciel4").is_proper_coloring(&coloring_of(&out)));
    assert_eq!(
        bitcsp(&["color", "--colors", "4", &file]).0,
        "unsatisfiable\n"
    );
    assert_eq!(bitcsp(&["color", "--colors", "4", &file]).2, Some(1));
}

#[test]
fn coloring_searches_publish_their_progress() {
    // queen8_8 has no 8-coloring, and neither its largest clique (8 vertices) nor any
    // Mycielski construction in it shows that: the search explores its whole tree, so
    // the share published ends at one (in parts per billion), on one thread and on two.
    let graph = load("queen8_8");
    for threads in [1, 2] {
        let sink = Arc::new(AtomicU64::new(0));
        let limits = Limits {
            threads,
            progress: Some(Arc::clone(&sink)),
            ..Limits::default()
        };
        let decision = coloring::color_with(&graph, 8, &limits).unwrap();
        assert_eq!(decision, Decision::Impossible);
        assert_eq!(
            sink.load(Ordering::Relaxed),
            1_000_000_000,
            "{threads} threads"
        );
    }
}

#[test]
fn command_line_answers_do_not_depend_on_threads() {
    // queen8_8's refutation of 8 colors is a search, split between the threads from two
    // up; myciel5's bounds meet without one.
    for (name, colors) in [
        ("myciel5", None),
        ("queen8_8", None),
        ("queen8_8", Some("8")),
    ] {
        let file = data(&format!("{name}.col"));
        let run = |threads: &str| {
            let mut args = vec!["color", "--threads", threads, file.as_str()];
            if let Some(k) = colors {
                args.extend(["--colors", k]);
            }
            bitcsp(&args)
        };
        let one = run("1");
        assert_eq!(one.2, Some(if colors.is_some() { 1 } else { 0 }), "{name}");
        for threads in ["2", "3"] {
            assert_eq!(run(threads), one, "{name}, {threads} threads");
        }
    }
}

#[test]
fn command_line_limits_print_unknown_or_bounds_and_exit_three() {
    let edges = dense_random(150);
    let lines: Vec<String> = edges
        .iter()
        .map(|(u, v)| format!("e {} {}", u + 1, v + 1))
        .collect();
    let text = format!("p edge 150 {}\n{}\n", edges.len(), lines.join("\n"));
    let dir = std::env::temp_dir().join(format!("bitcsp-color-limit-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("dense.col").to_string_lossy().into_owned();
    std::fs::write(&path, text).unwrap();
    let (out, err, code) = bitcsp(&["color", "--time-limit", "0.2", &path]);
    let bounds: Vec<usize> = out
        .lines()
        .next()
        .unwrap()
        .split(' ')
        .map(|t| t.parse().unwrap())
        .collect();
    assert_eq!(bounds.len(), 2);
    assert!(bounds[0] < bounds[1]);
    assert!(err.contains("stopped by time limit"));
    assert_eq!(code, Some(3));
    let graph = Graph::from_edges(150, edges);
    assert!(graph.is_proper_coloring(&coloring_of(&out)));
    let (out, _, code) = bitcsp(&["color", "--colors", "12", "--node-limit", "50", &path]);
    assert_eq!((out.as_str(), code), ("unknown\n", Some(3)));
}

#[test]
fn command_line_reports_bad_files_with_their_line_and_writes_dot() {
    let dir = std::env::temp_dir().join(format!("bitcsp-color-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let bad = dir.join("bad.col");
    std::fs::write(&bad, "p edge 3 2\ne 1 2\ne 2 9\n").unwrap();
    let bad = bad.to_string_lossy().into_owned();
    let (_, err, code) = bitcsp(&["color", &bad]);
    assert_eq!(code, Some(1));
    assert!(
        err.contains(&format!("{bad}:3: vertex 9 is out of range 1..=3")),
        "{err}"
    );
    let dot = dir.join("g.dot").to_string_lossy().into_owned();
    let (_, _, code) = bitcsp(&["color", "--dot", &dot, &data("myciel3.col")]);
    assert_eq!(code, Some(0));
    let text = std::fs::read_to_string(&dot).unwrap();
    assert!(text.starts_with("graph coloring {") && text.matches(" -- ").count() == 20);
    assert_eq!(bitcsp(&["color", "/no/such.col"]).2, Some(1));
    assert_eq!(bitcsp(&["color", "--colors", "x", &bad]).2, Some(2));
}

#[test]
fn generated_queen_graphs_are_the_dimacs_ones() {
    for n in 5..=8 {
        assert_eq!(
            Graph::queen(n),
            Some(load(&format!("queen{n}_{n}"))),
            "queen{n}_{n}"
        );
    }
    assert_eq!(Graph::queen(usize::MAX), None);
}

#[test]
fn generated_mycielski_graphs_have_the_dimacs_sizes_and_chromatic_numbers() {
    // From one edge (χ = 2) each Mycielskian adds one colour; the DIMACS files number
    // their vertices another way, so sizes and χ are compared, not edge lists.
    let mut graph = Graph::from_edges(2, [(0, 1)]);
    graph = graph.mycielskian().expect("a small graph");
    for k in 3..=5 {
        graph = graph.mycielskian().expect("a small graph");
        let file = load(&format!("myciel{k}"));
        assert_eq!(
            (graph.num_vertices(), graph.num_edges()),
            (file.num_vertices(), file.num_edges()),
            "myciel{k}"
        );
        let chromatic = coloring::chromatic_number(&graph, &Limits::default()).unwrap();
        assert_eq!(
            (chromatic.lower, chromatic.upper),
            (k + 1, k + 1),
            "myciel{k}"
        );
        assert!(graph.is_proper_coloring(&chromatic.coloring));
        let triangle = graph.edges().any(|(a, b)| {
            graph
                .neighbours(a)
                .iter()
                .any(|&c| graph.adjacent(b, c as usize))
        });
        assert!(!triangle, "myciel{k} has a triangle");
    }
}

#[test]
fn mycielski_graphs_are_proved_by_the_construction_they_hold() {
    // myciel6 (95 vertices, χ = 7) and myciel7 (191, χ = 8), relabelled: every clique
    // is an edge, so the clique bound says 2 and a search alone does not finish; the
    // Mycielski construction found inside them proves the rest.
    let mut graph = Graph::from_edges(2, [(0, 1)]);
    for _ in 0..4 {
        graph = graph.mycielskian().expect("a small graph");
    }
    for chromatic in [7, 8] {
        graph = graph.mycielskian().expect("a small graph");
        let n = graph.num_vertices();
        // A fixed permutation that mixes the layers: vertex v becomes (v * 37) mod n
        // (37 is prime to 95 and 191).
        let shuffled = Graph::from_edges(n, graph.edges().map(|(a, b)| (a * 37 % n, b * 37 % n)));
        assert_eq!(shuffled.num_edges(), graph.num_edges());
        let result = coloring::chromatic_number(&shuffled, &Limits::default()).unwrap();
        assert_eq!(
            (result.lower, result.upper),
            (chromatic, chromatic),
            "{n} vertices"
        );
        assert!(shuffled.is_proper_coloring(&result.coloring));
        assert_eq!(
            coloring::color_with(&shuffled, chromatic - 1, &Limits::default()).unwrap(),
            Decision::Impossible
        );
    }
}
