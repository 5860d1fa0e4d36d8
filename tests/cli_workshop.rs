//! `bitcsp sudoku candidates|hint|explain|grade|generate` run as processes: one answer per
//! puzzle line, JSON Lines that parse and stay aligned with the input, errors with
//! `FILE:LINE`, and output that does not depend on the thread count.

use std::process::Output;

mod common;
use common::{run_with_stdin as bitcsp, temp_file, PUZZLE, SOLUTION};

use bitcsp::sudoku::{self, Board};

fn stdout(out: &Output) -> String {
    String::from_utf8_lossy(&out.stdout).into_owned()
}

fn stderr(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

const HARDEST: &str =
    "98.7..6..75..4......3..8.7.5....7.3...94.........2.1..3.......1.9...5.8...52....6";

#[test]
fn json_lines_stay_aligned_with_the_input_and_carry_errors() {
    let several = ".".repeat(81);
    let input = format!("{PUZZLE}\nnot a puzzle\n{several}\n{HARDEST}\n");
    let path = temp_file("workshop.txt", input.as_bytes());
    for command in ["explain", "hint"] {
        let out = bitcsp(&["sudoku", command, "--format", "json", &path], b"");
        assert_eq!(out.status.code(), Some(1), "{command}");
        let lines: Vec<serde_json::Value> = stdout(&out)
            .lines()
            .map(|l| serde_json::from_str(l).expect("a JSON line"))
            .collect();
        assert_eq!(lines.len(), 4, "{command}");
        assert_eq!(lines[0]["solution"], SOLUTION);
        assert!(lines[1]["error"].is_string());
        assert_eq!(lines[2]["error"], "more than one solution");
        assert!(lines[3]["guesses"].as_u64().is_some());
        let steps = lines[0]["steps"].as_array().unwrap();
        assert!(!steps.is_empty());
        for step in steps {
            assert!(step["technique"].is_string());
            for key in ["placements", "eliminations", "pattern"] {
                for mark in step[key].as_array().unwrap() {
                    let m = mark.as_array().unwrap();
                    assert_eq!(m.len(), 3);
                    assert!(m.iter().all(|v| (1..=9).contains(&v.as_u64().unwrap())));
                }
            }
        }
        let err = stderr(&out);
        assert!(err.contains(&format!("{path}:2: ")), "{err}");
        assert!(
            err.contains(&format!("{path}:3: more than one solution")),
            "{err}"
        );
    }
}

#[test]
fn explain_json_places_every_empty_cell_and_ends_in_the_solution() {
    let out = bitcsp(
        &["sudoku", "explain", "--format", "json"],
        HARDEST.as_bytes(),
    );
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let v: serde_json::Value = serde_json::from_str(stdout(&out).trim()).unwrap();
    let board = Board::parse(HARDEST).unwrap();
    let solution = sudoku::solve(&board).unwrap().unwrap();
    assert_eq!(v["solution"], solution.to_line());
    let placed: usize = v["steps"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["placements"].as_array().unwrap().len())
        .sum();
    assert_eq!(placed, 81 - board.givens());
    let guesses = v["steps"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|s| s["technique"] == "guess")
        .count();
    assert_eq!(v["guesses"].as_u64().unwrap() as usize, guesses);
    assert!(guesses > 0);
}

#[test]
fn hint_names_the_step_and_a_stuck_puzzle_gets_a_guess_on_request() {
    let out = bitcsp(&["sudoku", "hint"], PUZZLE.as_bytes());
    assert_eq!(out.status.code(), Some(0));
    let text = stdout(&out);
    assert!(text.contains("single") && text.contains('→'), "{text}");
    let stuck = bitcsp(&["sudoku", "hint"], HARDEST.as_bytes());
    assert!(
        stdout(&stuck).contains("trial and error"),
        "{}",
        stdout(&stuck)
    );
    let guessed = bitcsp(&["sudoku", "hint", "--guess"], HARDEST.as_bytes());
    assert!(stdout(&guessed).contains("guess: "), "{}", stdout(&guessed));
}

#[test]
fn grades_and_explanations_do_not_depend_on_the_thread_count() {
    let text = std::fs::read_to_string("tests/data/sudoku/magictour_sample.txt").unwrap();
    let input: String = text.lines().take(40).map(|l| format!("{l}\n")).collect();
    for command in ["grade", "explain"] {
        let one = bitcsp(&["sudoku", command, "--threads", "1"], input.as_bytes());
        let two = bitcsp(&["sudoku", command, "--threads", "2"], input.as_bytes());
        assert_eq!(one.status.code(), Some(0));
        assert_eq!(stdout(&one), stdout(&two), "{command}");
    }
    let grades = bitcsp(&["sudoku", "grade"], input.as_bytes());
    for line in stdout(&grades).lines() {
        let (rating, class) = line.split_once(' ').unwrap();
        let rating: f64 = rating.parse().unwrap();
        assert!((1.0..=10.0).contains(&rating), "{line}");
        assert!(
            ["easy", "medium", "hard", "expert", "extreme"].contains(&class),
            "{line}"
        );
    }
}

#[test]
fn candidates_print_a_grid_and_after_singles_an_easy_puzzle_is_filled() {
    let out = bitcsp(&["sudoku", "candidates"], PUZZLE.as_bytes());
    let text = stdout(&out);
    assert_eq!(text.lines().filter(|l| l.starts_with('|')).count(), 9);
    assert!(text.contains("=5"));
    let after = bitcsp(
        &["sudoku", "candidates", "--after", "hidden-single"],
        PUZZLE.as_bytes(),
    );
    let filled = stdout(&after);
    let cells: Vec<&str> = filled
        .lines()
        .filter(|l| l.starts_with('|'))
        .flat_map(|l| l.split_whitespace())
        .filter(|w| *w != "|")
        .collect();
    assert_eq!(cells.len(), 81);
    assert!(cells.iter().all(|c| c.starts_with('=')), "{filled}");
    let wrong = bitcsp(
        &["sudoku", "candidates", "--after", "fishy"],
        PUZZLE.as_bytes(),
    );
    assert_eq!(wrong.status.code(), Some(2));
}

#[test]
fn generated_puzzles_depend_on_the_seed_alone_and_are_unique() {
    let one = bitcsp(
        &[
            "sudoku",
            "generate",
            "--count",
            "30",
            "--seed",
            "9",
            "--threads",
            "1",
        ],
        b"",
    );
    let two = bitcsp(
        &[
            "sudoku",
            "generate",
            "--count",
            "30",
            "--seed",
            "9",
            "--threads",
            "2",
        ],
        b"",
    );
    assert_eq!(one.status.code(), Some(0));
    assert_eq!(stdout(&one), stdout(&two));
    assert_eq!(stdout(&one).lines().count(), 30);
    let other = bitcsp(
        &["sudoku", "generate", "--count", "30", "--seed", "10"],
        b"",
    );
    assert_ne!(stdout(&one), stdout(&other));
    for line in stdout(&one).lines() {
        let board = Board::parse(line).unwrap();
        assert_eq!(sudoku::count_solutions(&board, 2).unwrap().count, 1);
    }
    let small = bitcsp(
        &[
            "sudoku",
            "generate",
            "--count",
            "5",
            "--size",
            "2x3",
            "--symmetry",
            "rotate180",
        ],
        b"",
    );
    for line in stdout(&small).lines() {
        assert_eq!(line.len(), 36);
        let board = Board::parse(line).unwrap();
        assert_eq!(sudoku::count_solutions(&board, 2).unwrap().count, 1);
    }
    let easy = bitcsp(
        &["sudoku", "generate", "--count", "3", "--class", "easy"],
        b"",
    );
    let graded = bitcsp(&["sudoku", "grade"], &easy.stdout);
    assert!(
        stdout(&graded).lines().all(|l| l.ends_with(" easy")),
        "{}",
        stdout(&graded)
    );
}

#[test]
fn variant_batches_answer_each_line_and_name_each_bad_one() {
    let dir = "tests/data/sudoku/variants";
    let killer = std::fs::read_to_string(format!("{dir}/killer.txt")).unwrap();
    let solutions = std::fs::read_to_string(format!("{dir}/killer.solutions.txt")).unwrap();
    let first = killer.lines().next().unwrap();
    let (givens, rest) = first.split_once(' ').unwrap();
    let short = format!("{} {rest}", &givens[1..]);
    let no_sum = first.rsplit_once(',').unwrap().0.to_owned();
    let input = format!("{first}\n{short}\n{no_sum}\n{first}\n");
    let path = temp_file("killer.txt", input.as_bytes());
    let out = bitcsp(&["sudoku", "solve", "--variant", "killer", &path], b"");
    assert_eq!(out.status.code(), Some(1));
    let expected = solutions.lines().next().unwrap();
    assert_eq!(
        stdout(&out).lines().collect::<Vec<_>>(),
        vec![expected, "", "", expected]
    );
    let err = stderr(&out);
    assert!(err.contains(&format!("{path}:2: givens: ")), "{err}");
    assert!(
        err.contains(&format!("{path}:3: cage ")) && err.contains("has no sum"),
        "{err}"
    );
    // Unsatisfiable puzzles count 0 and say so; check reads the rules' clashes.
    let unsat = bitcsp(
        &[
            "sudoku",
            "count",
            "--variant",
            "x",
            &format!("{dir}/x.unsat.txt"),
        ],
        b"",
    );
    assert!(stdout(&unsat).lines().all(|l| l == "0"));
    assert!(stderr(&unsat).contains("no solution"));
    let mut clash = ".".repeat(81);
    clash.replace_range(2..3, "5");
    clash.replace_range(12..13, "5");
    let checked = bitcsp(
        &["sudoku", "check", "--variant", "antiking"],
        clash.as_bytes(),
    );
    assert_eq!(stdout(&checked).trim(), "invalid");
    assert!(
        stderr(&checked).contains("r1c3 and r2c4 hold the same digit 5"),
        "{}",
        stderr(&checked)
    );
    let fine = bitcsp(
        &["sudoku", "check", "--variant", "x,antiknight"],
        &first.as_bytes()[..81],
    );
    assert_eq!(stdout(&fine).trim(), "valid");
    let unknown = bitcsp(&["sudoku", "solve", "--variant", "hexagonal"], b"");
    assert_eq!(unknown.status.code(), Some(2));
}
