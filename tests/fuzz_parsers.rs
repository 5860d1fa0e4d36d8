//! Property-based fuzzing of every parser: arbitrary text and bytes, and mutations of valid
//! inputs (which reach deeper than random noise). A parser may reject anything, but must
//! never panic, and whatever it accepts must survive modelling and a bounded search.
//!
//! The number of cases comes from `BITCSP_FUZZ_CASES` (`.ci/run` sets it; default 256).

use bitcsp::coloring::{self, Graph, Limits};
use bitcsp::sudoku::{self, Board, BoxShape};
use bitcsp::Solver;
use proptest::prelude::*;

fn cases() -> u32 {
    std::env::var("BITCSP_FUZZ_CASES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(256)
}

const PUZZLE: &str =
    "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79";

/// Everything a successfully parsed board must allow without panicking.
fn exercise_board(board: &Board) {
    let _ = board.to_line();
    let _ = board.to_block();
    let _ = board.to_numbers();
    let _ = board.find_clash();
    if let Ok((model, _)) = sudoku::model(board) {
        let mut solver = Solver::new(&model);
        solver.set_node_limit(Some(200));
        let _ = solver.solve();
    }
}

fn exercise_text(text: &str) {
    for board in [
        Board::parse(text),
        Board::from_line(text),
        Board::from_numbers(text),
        Board::from_block(text),
        Board::from_leetcode(text),
        Board::parse_with_shape(text, Some(BoxShape { rows: 2, cols: 3 })),
        Board::parse_with_shape(text, Some(BoxShape { rows: 0, cols: 3 })),
    ]
    .into_iter()
    .flatten()
    {
        exercise_board(&board);
    }
    if let Ok(parsed) = Graph::from_dimacs(text) {
        let limits = Limits {
            nodes: Some(200),
            ..Limits::default()
        };
        if parsed.graph.num_vertices() <= 200 {
            let _ = coloring::chromatic_number(&parsed.graph, &limits);
        }
    }
}

/// A valid input with a few random edits: replace, insert or delete characters.
fn mutated(seed: &'static str) -> impl Strategy<Value = String> {
    let edit = (any::<prop::sample::Index>(), any::<char>(), 0u8..3);
    proptest::collection::vec(edit, 1..6).prop_map(move |edits| {
        let mut chars: Vec<char> = seed.chars().collect();
        for (at, ch, kind) in edits {
            if chars.is_empty() {
                chars.push(ch);
                continue;
            }
            let i = at.index(chars.len());
            match kind {
                0 => chars[i] = ch,
                1 => chars.insert(i, ch),
                _ => {
                    chars.remove(i);
                }
            }
        }
        chars.into_iter().collect()
    })
}

const LEETCODE: &str = r#"["53..7....","6..195...",".98....6.","8...6...3","4..8.3..1","7...2...6",".6....28.","...419..5","....8..79"]"#;
const BLOCK: &str = "5 3 . | . 7 . | . . .\n6 . . | 1 9 5 | . . .\n. 9 8 | . . . | . 6 .\n------+-------+------\n8 . . | . 6 . | . . 3\n4 . . | 8 . 3 | . . 1\n7 . . | . 2 . | . . 6\n------+-------+------\n. 6 . | . . . | 2 8 .\n. . . | 4 1 9 | . . 5\n. . . | . 8 . | 7 9 .\n";
const FLATZINC: &str = "array [1..2] of int: a = [1, -1];\nvar 1..9: x :: output_var;\nvar {1, 3}: y;\nvar 0..9: z;\n\
array [1..2] of var int: v :: output_array([1..2]) = [x, y];\nconstraint int_lin_le(a, [x, y], 3);\n\
constraint int_lin_ne([1, -1], [x, z], 2);\nconstraint int_lin_ne([1, -1], [y, z], 1);\n\
constraint int_lin_eq([1, 2, -1], [x, y, z], 2) :: domain;\nconstraint bitcsp_count_eq([x, y, z], 1, y);\n\
constraint bitcsp_cumulative([x, y], [2, 3], [1, 1], 1);\nconstraint array_int_element(y, [4, 5, 6], z);\n\
solve :: seq_search([int_search(v, first_fail, indomain_split, complete), int_search([z], dom_w_deg, indomain_max, complete)]) minimize x;\n";
const DIMACS: &str = "c small\np edge 5 6\ne 1 2\ne 2 3\ne 3 4\ne 4 5\ne 5 1\ne 1 3\n";

proptest! {
    #![proptest_config(ProptestConfig::with_cases(cases()))]

    #[test]
    fn arbitrary_text_never_panics(text in any::<String>()) {
        exercise_text(&text);
    }

    #[test]
    fn arbitrary_bytes_never_panic(bytes in proptest::collection::vec(any::<u8>(), 0..400)) {
        exercise_text(&String::from_utf8_lossy(&bytes));
    }

    #[test]
    fn text_from_the_formats_alphabet_never_panics(
        text in "[0-9A-Za-z.|+\\- \\[\\]\",\n\r\tpec#]{0,300}"
    ) {
        exercise_text(&text);
    }

    #[test]
    fn mutated_line_never_panics(text in mutated(PUZZLE)) {
        exercise_text(&text);
    }

    #[test]
    fn mutated_leetcode_array_never_panics(text in mutated(LEETCODE)) {
        exercise_text(&text);
    }

    #[test]
    fn mutated_block_never_panics(text in mutated(BLOCK)) {
        exercise_text(&text);
    }

    #[test]
    fn mutated_flatzinc_never_panics(text in mutated(FLATZINC)) {
        if let Ok(items) = bitcsp::flatzinc::parse(&text) {
            if let Ok(built) = bitcsp::flatzinc::build(&items) {
                let mut solver = bitcsp::Solver::new(&built.model);
                solver.set_node_limit(Some(1000));
                if let bitcsp::Optimum::Optimal { solution, .. } = solver.optimize() {
                    let _ = built.format(&solution);
                }
            }
        }
    }

    #[test]
    fn arbitrary_text_never_panics_the_flatzinc_reader(text in any::<String>()) {
        let _ = bitcsp::flatzinc::parse(&text);
    }

    #[test]
    fn mutated_dimacs_never_panics(text in mutated(DIMACS)) {
        exercise_text(&text);
    }

    #[test]
    fn streaming_dimacs_reads_any_bytes_as_the_text_reader_does(
        bytes in proptest::collection::vec(
            prop_oneof![
                Just(b'\n'), Just(b'\r'), Just(b' '), Just(b'p'), Just(b'e'), Just(b'c'),
                Just(b'1'), Just(b'2'), Just(b'3'), Just(0xFF), any::<u8>(),
            ],
            0..300,
        ),
        capacity in 1usize..16,
    ) {
        // A tiny buffer puts chunk boundaries everywhere, inside lines and `\r\n` pairs.
        let streamed = Graph::read_dimacs(std::io::BufReader::with_capacity(capacity, &bytes[..]));
        let whole = Graph::read_dimacs(&bytes[..]);
        prop_assert_eq!(
            streamed.as_ref().map(|p| &p.graph).ok(),
            whole.as_ref().map(|p| &p.graph).ok()
        );
        prop_assert_eq!(streamed.err(), whole.err());
        if let Ok(text) = std::str::from_utf8(&bytes) {
            prop_assert_eq!(
                Graph::from_dimacs(text).map(|p| p.graph).ok(),
                Graph::read_dimacs(&bytes[..]).map(|p| p.graph).ok()
            );
        }
    }

    #[test]
    fn mutated_dimacs_streams_as_it_parses(text in mutated(DIMACS), capacity in 1usize..64) {
        let streamed = Graph::read_dimacs(std::io::BufReader::with_capacity(capacity, text.as_bytes()));
        prop_assert_eq!(streamed.map(|p| p.graph).ok(), Graph::from_dimacs(&text).map(|p| p.graph).ok());
    }

    #[test]
    fn parsed_boards_print_back_to_the_same_board(text in mutated(PUZZLE)) {
        if let Ok(board) = Board::from_line(&text) {
            prop_assert_eq!(Board::from_line(&board.to_line()).unwrap(), board.clone());
            prop_assert_eq!(Board::parse(&board.to_block()).unwrap(), board.clone());
            prop_assert_eq!(Board::from_numbers(&board.to_numbers()).unwrap(), board);
        }
    }
}

/// A line past the limit is an error that names it, and costs no more than the limit.
#[test]
fn an_overlong_dimacs_line_is_refused_with_its_number() {
    let mut text = b"p edge 2 1\nc ".to_vec();
    text.resize(text.len() + coloring::MAX_LINE + 10, b'x');
    text.extend_from_slice(b"\ne 1 2\n");
    assert_eq!(
        Graph::read_dimacs(&text[..]).unwrap_err(),
        coloring::DimacsError::LineTooLong {
            line: 2,
            max: coloring::MAX_LINE
        }
    );
}

/// A file that repeats one edge costs what the edge costs.
#[test]
fn repeated_edges_are_kept_once() {
    let mut text = String::from("p edge 3 200000\n");
    for _ in 0..100_000 {
        text.push_str("e 1 2\ne 2 1\n");
    }
    let parsed = Graph::from_dimacs(&text).unwrap();
    assert_eq!(parsed.graph.num_edges(), 1);
    assert_eq!(parsed.graph.neighbours(0), &[1]);
}

/// Inputs that once broke something, kept as regressions.
#[test]
fn known_troublemakers_are_handled() {
    // (input, read as a board by `Board::parse`, read as a DIMACS graph): the 1×1 board
    // "0", a one-row LeetCode array and an empty graph are valid; the rest is rejected.
    for (text, board, graph) in [
        ("", false, false),
        ("\u{feff}", false, false),
        ("[", false, false),
        ("]", false, false),
        ("[[]]", false, false),
        ("[\"\"]", false, false),
        ("[\"1\"]", true, false),
        ("0", true, false),
        ("p edge 0 0", false, true),
        ("p edge 18446744073709551615 1", false, false),
        ("p edge 3 1\ne 1 2 3 4\n", false, false),
        ("\u{feff}p edge 2 1\ne 1 2\n", false, true),
        ("P EDGE 2 1\r\nE 1 2\r\n", false, true),
        ("abc", false, false),
        ("s 9", false, false),
    ] {
        assert_eq!(Board::parse(text).is_ok(), board, "{text:?} as a board");
        assert_eq!(
            Graph::from_dimacs(text).is_ok(),
            graph,
            "{text:?} as a graph"
        );
        exercise_text(text);
    }
}
