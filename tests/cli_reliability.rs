//! What a hostile user tries, run as real processes: lost output (`/dev/full`, closed
//! pipes), Ctrl-C while waiting or writing, limits in every phase, memory under a resource
//! limit, output files that are inputs, and options that would do nothing. Each test names
//! the guarantee of docs/RELIABILITY.md it checks.
#![cfg(unix)]

use std::fs::File;
use std::io::Read;
use std::path::Path;
use std::process::{Child, Stdio};
use std::time::{Duration, Instant};

mod common;
use common::{
    assert_no_panic, binary, bitcsp, interrupt_after, lines, run, run_limited, run_with_stdin,
    temp_dir, temp_file, Random, PUZZLE, SOLUTION,
};

/// A virtual-memory cap the binary meets with room to spare, and that the unbounded
/// versions of the cases below (a color table per vertex, a file read whole, one template
/// per board size) exceed.
const MEMORY_KIB: u64 = 450_000;

fn dev_full() -> Option<File> {
    let full = File::options().write(true).open("/dev/full");
    if full.is_err() {
        eprintln!("skipped: /dev/full is not available");
    }
    full.ok()
}

fn spawn(args: &[&str]) -> Child {
    binary()
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("binary runs")
}

/// A random graph of `n` vertices and `m` edges in DIMACS form.
fn random_graph(n: u64, m: u64, seed: u64) -> String {
    let mut random = Random(seed);
    let mut text = format!("p edge {n} {m}\n");
    for _ in 0..m {
        let u = random.below(n) + 1;
        let v = (u + random.below(n - 1)) % n + 1;
        text.push_str(&format!("e {u} {v}\n"));
    }
    text
}

// Memory and time that do not grow with `--colors K`.

#[test]
fn a_million_colors_are_answered_at_once_in_bounded_memory() {
    let graph = temp_file("two_of_2000.col", b"p edge 2000 1\ne 1 2\n");
    let started = Instant::now();
    let out = run_limited(
        MEMORY_KIB,
        &["color", &graph, "--colors", "1000000", "--threads", "1"],
        "",
    );
    assert_no_panic(&out);
    assert_eq!(out.status.code(), Some(0));
    let answer = lines(&out.stdout);
    assert_eq!(answer[0], "1000000");
    assert_eq!(
        answer.len(),
        2001,
        "the count line and one color per vertex"
    );
    assert!(started.elapsed() < Duration::from_secs(3));
}

// Write errors and closed pipes.

#[test]
fn a_full_disk_is_reported_once_with_status_1() {
    let puzzles = temp_file("full_disk.txt", format!("{PUZZLE}\n").repeat(3).as_bytes());
    let graph = temp_file("full_disk.col", b"p edge 3 3\ne 1 2\ne 2 3\ne 3 1\n");
    let commands: [&[&str]; 4] = [
        &["sudoku", "solve", &puzzles],
        &["queens", "10", "--all"],
        &["queens", "8", "--count"],
        &["color", &graph],
    ];
    for args in commands {
        let Some(full) = dev_full() else { return };
        let out = binary()
            .args(args)
            .stdout(full)
            .output()
            .expect("binary runs");
        assert_no_panic(&out);
        assert_eq!(out.status.code(), Some(1), "{args:?}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(err.matches("cannot write").count(), 1, "{args:?}: {err}");
    }
}

#[test]
fn a_closed_pipe_ends_the_program_with_status_141_and_no_panic() {
    let mut child = binary()
        .args(["queens", "500"])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("binary runs");
    let mut stdout = child.stdout.take().expect("stdout");
    let mut first = [0u8; 10];
    stdout.read_exact(&mut first).expect("some output");
    drop(stdout);
    let out = child.wait_with_output().expect("finishes");
    assert_no_panic(&out);
    assert_eq!(out.status.code(), Some(141));
}

#[test]
fn a_closed_stderr_never_panics() {
    let puzzles = temp_file("closed_stderr.txt", format!("{PUZZLE}\n").as_bytes());
    let mut child = spawn(&["sudoku", "solve", "--stats", &puzzles]);
    drop(child.stderr.take());
    let out = child.wait_with_output().expect("finishes");
    assert_eq!(
        out.status.code(),
        Some(141),
        "as a program killed by SIGPIPE"
    );
}

#[test]
fn a_full_stderr_loses_no_answer_and_fails_the_run() {
    let puzzles = temp_file(
        "full_stderr.txt",
        format!("{PUZZLE}\n").repeat(2).as_bytes(),
    );
    let Some(full) = dev_full() else { return };
    let out = binary()
        .args(["sudoku", "solve", "--stats", &puzzles])
        .stderr(full)
        .output()
        .expect("binary runs");
    assert_eq!(lines(&out.stdout), vec![SOLUTION, SOLUTION]);
    assert_eq!(out.status.code(), Some(1), "the statistics were lost");
}

// Ctrl-C in every phase.

#[test]
fn ctrl_c_while_waiting_for_input_ends_the_run() {
    let child = spawn(&["sudoku", "solve"]);
    let (out, took) = interrupt_after(child, Duration::from_millis(300));
    assert_eq!(out.status.code(), Some(130));
    assert!(took < Duration::from_secs(2), "{took:?}");
}

#[test]
fn ctrl_c_while_reading_an_endless_line_ends_the_run() {
    let child = spawn(&["sudoku", "solve", "/dev/zero"]);
    let (out, took) = interrupt_after(child, Duration::from_millis(300));
    assert_eq!(out.status.code(), Some(130));
    assert!(took < Duration::from_secs(2), "{took:?}");
}

#[test]
fn ctrl_c_while_a_write_is_blocked_ends_the_run() {
    // Nobody reads the output: the pipe fills and the next write blocks.
    let child = spawn(&["queens", "14", "--all", "--threads", "1"]);
    let (out, took) = interrupt_after(child, Duration::from_millis(500));
    assert_eq!(out.status.code(), Some(130));
    assert!(took < Duration::from_secs(2), "{took:?}");
}

#[test]
fn ctrl_c_while_a_large_graph_is_prepared_ends_the_run() {
    let graph = temp_file(
        "interrupt.col",
        random_graph(300_000, 600_000, 7).as_bytes(),
    );
    let child = spawn(&["color", &graph, "--colors", "3"]);
    let (out, took) = interrupt_after(child, Duration::from_millis(1_200));
    assert_no_panic(&out);
    assert_eq!(out.status.code(), Some(130));
    assert!(took < Duration::from_secs(2), "{took:?}");
}

// Limits in every phase.

#[test]
fn a_time_limit_holds_while_a_large_graph_is_prepared_and_split() {
    let graph = temp_file("limit.col", random_graph(300_000, 600_000, 11).as_bytes());
    for limit in ["0", "0.5"] {
        let started = Instant::now();
        let out = run(&["color", &graph, "--colors", "3", "--time-limit", limit]);
        let took = started.elapsed();
        assert_no_panic(&out);
        assert_eq!(out.status.code(), Some(3), "limit {limit}");
        assert_eq!(lines(&out.stdout), vec!["unknown"]);
        // Reading the file is not limited; it takes well under a second here.
        assert!(took < Duration::from_secs(3), "limit {limit}: {took:?}");
    }
}

// Output files.

#[test]
fn an_output_file_that_is_the_input_is_refused() {
    let text = b"p edge 3 3\ne 1 2\ne 2 3\ne 3 1\n";
    let graph = temp_file("same.col", text);
    let other_name = Path::new(&graph)
        .parent()
        .expect("folder")
        .join(".")
        .join("same.col");
    let out = run(&["color", &graph, "--dot", &other_name.to_string_lossy()]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("would overwrite the input"));
    assert_eq!(std::fs::read(&graph).expect("input"), text);
}

#[test]
fn dot_output_is_written_whole_or_not_at_all() {
    let graph = temp_file("dot.col", b"p edge 3 3\ne 1 2\ne 2 3\ne 3 1\n");
    let dot = temp_dir().join("dot.gv");
    let out = run(&["color", &graph, "--dot", &dot.to_string_lossy()]);
    assert_eq!(out.status.code(), Some(0));
    let written = std::fs::read_to_string(&dot).expect("dot file");
    assert!(written.starts_with("graph coloring {") && written.ends_with("}\n"));
    assert_eq!(written.matches(" -- ").count(), 3);
    let missing = temp_dir().join("no-such-folder").join("x.gv");
    let out = run(&["color", &graph, "--dot", &missing.to_string_lossy()]);
    assert_eq!(out.status.code(), Some(1));
    assert!(!missing.exists());
    let leftovers: Vec<_> = std::fs::read_dir(temp_dir())
        .expect("folder")
        .filter_map(Result::ok)
        .filter(|e| e.file_name().to_string_lossy().ends_with(".tmp"))
        .collect();
    assert!(leftovers.is_empty(), "{leftovers:?}");
}

// Input read in bounded memory.

#[test]
fn an_endless_dimacs_line_is_refused_in_bounded_memory() {
    let started = Instant::now();
    let out = run_limited(MEMORY_KIB, &["color", "/dev/zero"], "");
    assert_no_panic(&out);
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("/dev/zero:1: longer than"), "{err}");
    assert!(started.elapsed() < Duration::from_secs(5));
}

#[test]
fn one_board_of_every_side_stays_in_bounded_memory() {
    // Full boards of every side 2..=64: no search, but one model template per size.
    let mut text = String::new();
    for n in 2..=64usize {
        let shape = bitcsp::sudoku::BoxShape::for_side(n);
        let (r, c) = (shape.rows, shape.cols);
        let cells: Vec<String> = (0..n * n)
            .map(|i| {
                let (row, col) = (i / n, i % n);
                ((row % r * c + row / r + col) % n + 1).to_string()
            })
            .collect();
        text.push_str(&cells.join(" "));
        text.push('\n');
    }
    let file = temp_file("every_side.txt", text.as_bytes());
    let out = run_limited(
        MEMORY_KIB,
        &["sudoku", "solve", "--threads", "1", &file],
        "",
    );
    assert_no_panic(&out);
    assert_eq!(out.status.code(), Some(0));
    assert_eq!(lines(&out.stdout).len(), 63);
}

// The progress bar.

#[test]
fn the_progress_bar_redraws_a_few_times_a_second_not_per_puzzle() {
    if std::process::Command::new("script")
        .arg("--version")
        .output()
        .is_err()
    {
        eprintln!("skipped: `script` (util-linux) is not installed");
        return;
    }
    let puzzles = temp_file(
        "progress.txt",
        format!("{PUZZLE}\n").repeat(20_000).as_bytes(),
    );
    // `script` gives the command a terminal for stderr; its stdout goes to /dev/null.
    let command = format!(
        "{} sudoku solve {puzzles} > /dev/null",
        env!("CARGO_BIN_EXE_bitcsp")
    );
    let out = std::process::Command::new("script")
        .args(["-qec", &command, "/dev/null"])
        .stdin(Stdio::null())
        .output()
        .expect("script runs");
    assert_eq!(out.status.code(), Some(0));
    // One redraw per puzzle would write megabytes of escape codes.
    assert!(out.stdout.len() < 100_000, "{} bytes", out.stdout.len());
}

// One rule for every command.

#[test]
fn no_solution_exits_1_whether_solving_or_counting() {
    for args in [["queens", "2", "--count"], ["queens", "3", "--count"]] {
        let (out, _, code) = bitcsp(&args);
        assert_eq!((out.as_str(), code), ("0\n", Some(1)), "{args:?}");
    }
    let (_, _, code) = bitcsp(&["queens", "2"]);
    assert_eq!(code, Some(1));
    let unsolvable = "11".to_string() + &".".repeat(79);
    let file = temp_file("unsolvable.txt", format!("{unsolvable}\n").as_bytes());
    let (_, _, code) = bitcsp(&["sudoku", "count", &file]);
    assert_eq!(code, Some(1));
}

#[test]
fn dimacs_files_are_read_as_other_readers_read_them() {
    let bom = temp_file("bom.col", b"\xEF\xBB\xBFP EDGE 2 1\r\nE 1 2\r\n");
    let (out, err, code) = bitcsp(&["color", &bom]);
    assert_eq!(
        (lines(out.as_bytes())[0].as_str(), code),
        ("2", Some(0)),
        "{err}"
    );
    let extra = temp_file("extra.col", b"p edge 3 1\ne 1 2 3\n");
    let (_, err, code) = bitcsp(&["color", &extra]);
    assert_eq!(code, Some(1));
    assert!(err.contains("extra.col:2: unexpected \"3\""), "{err}");
}

#[test]
fn options_without_effect_are_refused() {
    let puzzles = temp_file("options.txt", format!("{PUZZLE}\n").as_bytes());
    let refused: [&[&str]; 9] = [
        &["queens", "8", "--all", "--symmetry"],
        &["queens", "8", "--symmetry"],
        &["queens", "8", "--limit", "3"],
        &["queens", "8", "--threads", "2"],
        &["sudoku", "check", "--format", "block", &puzzles],
        &["sudoku", "check", "--unique", &puzzles],
        &["sudoku", "check", "--stats", &puzzles],
        &["sudoku", "check", "--time-limit", "1", &puzzles],
        &["sudoku", "count", "--format", "block", &puzzles],
    ];
    for args in refused {
        let (out, _, code) = bitcsp(args);
        assert_eq!((out.as_str(), code), ("", Some(2)), "{args:?}");
    }
}

#[test]
fn a_folder_given_as_input_cannot_be_read() {
    let folder = temp_dir();
    let folder = folder.to_string_lossy();
    for args in [
        vec!["sudoku", "solve", &folder],
        vec!["sudoku", "check", &folder],
        vec!["color", &folder],
    ] {
        let (_, err, code) = bitcsp(&args);
        assert_eq!(code, Some(1), "{args:?}");
        assert!(err.contains(&format!("{folder}: cannot read:")), "{err}");
    }
}

/// Split → part → merge on N-Queens: the totals, whatever the number of parts.
fn split_part_merge(n: &str, k: &str, symmetry: bool) -> (String, Option<i32>) {
    let mut args = vec!["queens", n, "--count", "--split", k];
    if symmetry {
        args.push("--symmetry");
    }
    let parts = run_with_stdin(&args, b"");
    assert_eq!(parts.status.code(), Some(0));
    let again = run_with_stdin(&args, b"");
    assert_eq!(parts.stdout, again.stdout, "the split is deterministic");
    let answers = run_with_stdin(&["part"], &parts.stdout);
    assert_eq!(answers.status.code(), Some(0));
    let merged = run_with_stdin(&["merge"], &answers.stdout);
    (
        String::from_utf8_lossy(&merged.stdout).trim().to_owned(),
        merged.status.code(),
    )
}

#[test]
fn split_counts_add_up_to_the_whole_count_for_any_number_of_parts() {
    for (n, total) in [("8", "92"), ("10", "724"), ("12", "14200")] {
        for k in ["1", "7", "50", "300"] {
            for symmetry in [false, true] {
                assert_eq!(
                    split_part_merge(n, k, symmetry),
                    (total.to_owned(), Some(0)),
                    "n {n} k {k} symmetry {symmetry}"
                );
            }
        }
    }
}

fn answer_lines(n: &str, k: &str) -> Vec<String> {
    let parts = run_with_stdin(&["queens", n, "--count", "--split", k], b"");
    let answers = run_with_stdin(&["part"], &parts.stdout);
    String::from_utf8_lossy(&answers.stdout)
        .lines()
        .map(str::to_owned)
        .collect()
}

fn merge(lines: &[String]) -> (String, String, Option<i32>) {
    let input: String = lines.iter().map(|l| format!("{l}\n")).collect();
    let out = run_with_stdin(&["merge"], input.as_bytes());
    (
        String::from_utf8_lossy(&out.stdout).trim().to_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
        out.status.code(),
    )
}

#[test]
fn merge_refuses_a_total_while_parts_are_missing_unfinished_or_foreign() {
    let lines = answer_lines("10", "20");
    let k = lines.len();
    assert_eq!(merge(&lines).0, "724");
    // A part missing: no total, the missing part named; answering it completes the total.
    let mut missing = lines.clone();
    let third = missing.remove(2);
    let (out, err, status) = merge(&missing);
    assert_eq!((out.as_str(), status), ("", Some(1)));
    assert!(err.contains(&format!("missing 1 of {k} parts: 3")), "{err}");
    missing.push(third);
    assert_eq!(merge(&missing).0, "724");
    // A duplicate is reported and counted once.
    let mut twice = lines.clone();
    twice.push(lines[0].clone());
    let (out, err, status) = merge(&twice);
    assert_eq!((out.as_str(), status), ("724", Some(0)));
    assert!(
        err.contains("answered more than once (kept one): 1"),
        "{err}"
    );
    // Two different counts for one part: refused.
    let mut conflict = lines.clone();
    conflict.push(lines[0].replacen(" count=", " count=9", 1));
    assert_eq!(merge(&conflict).2, Some(1));
    // An answer of another split: refused.
    let mut foreign = lines.clone();
    foreign.push(answer_lines("10", "5")[0].clone());
    let (_, err, status) = merge(&foreign);
    assert_eq!(status, Some(1));
    assert!(err.contains("another split"), "{err}");
    // Unfinished parts (a node limit of 1): listed, no total.
    let parts = run_with_stdin(&["queens", "10", "--count", "--split", "20"], b"");
    let limited = run_with_stdin(&["part", "--node-limit", "1"], &parts.stdout);
    assert_eq!(limited.status.code(), Some(3));
    let limited: Vec<String> = String::from_utf8_lossy(&limited.stdout)
        .lines()
        .map(str::to_owned)
        .collect();
    let (out, err, status) = merge(&limited);
    assert_eq!((out.as_str(), status), ("", Some(1)));
    assert!(err.contains("unfinished"), "{err}");
}

#[test]
fn a_part_line_of_another_model_or_garbled_is_refused_and_the_rest_answered() {
    let parts = run_with_stdin(&["queens", "8", "--count", "--split", "10"], b"");
    let text = String::from_utf8_lossy(&parts.stdout).into_owned();
    let lines: Vec<&str> = text.lines().collect();
    let tampered = lines[0].replacen(" n=8 ", " n=9 ", 1);
    let input = format!("{tampered}\nnot a part\n{}\n", lines[1..].join("\n"));
    let path = temp_file("parts.txt", input.as_bytes());
    let out = run_with_stdin(&["part", &path], b"");
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains(&format!("{path}:1: the model fingerprint")),
        "{err}"
    );
    assert!(err.contains(&format!("{path}:2: ")), "{err}");
    assert_eq!(
        String::from_utf8_lossy(&out.stdout).lines().count(),
        lines.len() - 1
    );
}

#[test]
fn gnu_parallel_runs_the_parts_and_merge_adds_them_up() {
    if std::process::Command::new("parallel")
        .arg("--version")
        .output()
        .is_err()
    {
        eprintln!("skipped: GNU parallel is not installed (apt-get install parallel)");
        return;
    }
    let binary = env!("CARGO_BIN_EXE_bitcsp");
    for (n, total) in [("14", "365596"), ("15", "2279184")] {
        let script = format!(
            "'{binary}' queens {n} --count --split 60 | parallel --will-cite --pipe -N 4 '{binary}' part | '{binary}' merge"
        );
        let out = std::process::Command::new("sh")
            .arg("-c")
            .arg(&script)
            .output()
            .expect("sh");
        assert_eq!(
            out.status.code(),
            Some(0),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        assert_eq!(String::from_utf8_lossy(&out.stdout).trim(), total);
    }
}

#[test]
fn colouring_splits_find_a_colouring_or_prove_there_is_none() {
    let graph = "tests/data/coloring/queen6_6.col"; // chi = 7
    let run = |k: &str| -> (String, Option<i32>) {
        let parts = run_with_stdin(&["color", graph, "--colors", k, "--split", "20"], b"");
        assert_eq!(parts.status.code(), Some(0));
        let answers = run_with_stdin(&["part"], &parts.stdout);
        let merged = run_with_stdin(&["merge"], &answers.stdout);
        (
            String::from_utf8_lossy(&merged.stdout).trim().to_owned(),
            merged.status.code(),
        )
    };
    let (found, status) = run("7");
    assert_eq!(status, Some(0));
    let colours: Vec<usize> = found
        .strip_prefix("7-colorable: ")
        .expect("a colouring")
        .split(',')
        .map(|c| c.parse().unwrap())
        .collect();
    let text = std::fs::read_to_string(graph).unwrap();
    let parsed = bitcsp::coloring::Graph::from_dimacs(&text).unwrap();
    assert!(parsed.graph.is_proper_coloring(&colours));
    assert!(colours.iter().all(|&c| c < 7));
    assert_eq!(run("6"), ("not 6-colorable".to_owned(), Some(0)));
}

#[test]
fn sudoku_count_splits_add_up_and_stop_at_the_limit() {
    let text = std::fs::read_to_string("tests/data/sudoku/17_clue_sample.txt").unwrap();
    for (k, line) in text.lines().take(4).enumerate() {
        // A 17-clue puzzle with one given removed: thousands of solutions.
        let mut cells: Vec<char> = line.chars().collect();
        let given = cells.iter().position(|&c| c != '.').unwrap();
        cells[given] = '.';
        let puzzle: String = cells.into_iter().collect();
        let whole = run_with_stdin(
            &["sudoku", "count", "--limit", "1000000"],
            puzzle.as_bytes(),
        );
        let parts = run_with_stdin(
            &["sudoku", "count", "--limit", "1000000", "--split", "25"],
            puzzle.as_bytes(),
        );
        let answers = run_with_stdin(&["part"], &parts.stdout);
        let merged = run_with_stdin(&["merge"], &answers.stdout);
        assert_eq!(merged.stdout, whole.stdout, "puzzle {k}");
        let capped = run_with_stdin(
            &["sudoku", "count", "--limit", "10", "--split", "25"],
            puzzle.as_bytes(),
        );
        let answers = run_with_stdin(&["part"], &capped.stdout);
        let merged = run_with_stdin(&["merge"], &answers.stdout);
        assert_eq!(String::from_utf8_lossy(&merged.stdout).trim(), "10+");
    }
    let two = format!(
        "{}\n{}\n",
        text.lines().next().unwrap(),
        text.lines().nth(1).unwrap()
    );
    let refused = run_with_stdin(&["sudoku", "count", "--split", "5"], two.as_bytes());
    assert_eq!(refused.status.code(), Some(1));
}

#[test]
fn ctrl_c_stops_a_part_which_answers_what_it_counted() {
    // One part: the whole of N-Queens 20, far longer than the test.
    let parts = run_with_stdin(&["queens", "20", "--count", "--split", "1"], b"");
    let path = temp_file("one_big_part.txt", &parts.stdout);
    let child = spawn(&["part", &path]);
    let (out, took) = interrupt_after(child, Duration::from_millis(500));
    assert_eq!(out.status.code(), Some(130));
    assert!(took < Duration::from_secs(2), "{took:?}");
    let answer = String::from_utf8_lossy(&out.stdout);
    assert!(answer.contains("status=stopped("), "{answer}");
    let merged = run_with_stdin(&["merge"], &out.stdout);
    assert_eq!(
        merged.status.code(),
        Some(1),
        "no total from an unfinished part"
    );
}
