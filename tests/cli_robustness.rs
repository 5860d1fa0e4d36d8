//! The batch promise for any input file, run as a process: exactly one stdout line per
//! puzzle line, each bad line reported as `FILE:LINE`, no panic, exit status 1 when
//! something failed; limits and Ctrl-C stop cleanly with a partial report.

use std::io::Write;
use std::process::{Command, Stdio};
use std::time::Duration;

mod common;
use common::{assert_no_panic, interrupt_after, lines, run, temp_file, PUZZLE, SOLUTION};

use bitcsp::sudoku::Board;

#[test]
fn empty_file_gives_no_output_and_success() {
    let path = temp_file("empty.txt", b"");
    let out = run(&["sudoku", "solve", &path]);
    assert_eq!((out.stdout.len(), out.status.code()), (0, Some(0)));
}

#[test]
fn binary_garbage_gives_one_line_per_line_and_located_errors() {
    // Pseudo-random bytes without newlines, '#' or whitespace, cut into 300 lines.
    let mut state: u32 = 12345;
    let mut content = Vec::new();
    for _ in 0..300 {
        for _ in 0..(state % 200 + 1) {
            state = state.wrapping_mul(1_103_515_245).wrapping_add(12345);
            let b = (state >> 16) as u8;
            content.push(if b.is_ascii_whitespace() || b == b'#' {
                b'!'
            } else {
                b
            });
        }
        content.push(b'\n');
    }
    let path = temp_file("garbage.bin", &content);
    for command in ["solve", "count", "check"] {
        let out = run(&["sudoku", command, &path]);
        assert_no_panic(&out);
        assert_eq!(lines(&out.stdout).len(), 300, "{command}");
        let err = lines(&out.stderr);
        assert_eq!(err.len(), 300, "{command}");
        for (i, e) in err.iter().enumerate() {
            assert!(e.starts_with(&format!("{path}:{}: ", i + 1)), "{e}");
        }
        assert_eq!(out.status.code(), Some(1));
    }
}

#[test]
fn invalid_utf8_is_reported_with_its_column() {
    let mut content = PUZZLE.as_bytes().to_vec();
    content[10] = 0xFF;
    content.extend_from_slice(b"\n");
    content.extend_from_slice(PUZZLE.as_bytes());
    let path = temp_file("utf8.txt", &content);
    let out = run(&["sudoku", "solve", &path]);
    assert_eq!(lines(&out.stdout), vec!["", SOLUTION]);
    assert!(String::from_utf8_lossy(&out.stderr)
        .contains(&format!("{path}:1: column 11: invalid UTF-8")));
    assert_eq!(out.status.code(), Some(1));
}

#[test]
fn crlf_line_ends_and_a_byte_order_mark_are_stripped() {
    let content = format!("\u{feff}{PUZZLE}\r\n# comment\r\n\r\n{PUZZLE}  \r\n");
    let path = temp_file("crlf.txt", content.as_bytes());
    let out = run(&["sudoku", "solve", &path]);
    assert_eq!(lines(&out.stdout), vec![SOLUTION, SOLUTION]);
    assert_eq!(out.status.code(), Some(0));
}

#[test]
fn ten_megabyte_line_is_rejected_without_losing_its_neighbours() {
    let mut content = format!("{PUZZLE}\n").into_bytes();
    content.extend(std::iter::repeat_n(b'1', 10 << 20));
    content.extend_from_slice(format!("\n{PUZZLE}\n").as_bytes());
    let path = temp_file("long.txt", &content);
    let out = run(&["sudoku", "solve", &path]);
    assert_eq!(lines(&out.stdout), vec![SOLUTION, "", SOLUTION]);
    assert!(String::from_utf8_lossy(&out.stderr).contains(&format!("{path}:2: line too long")));
    assert_eq!(out.status.code(), Some(1));
}

#[test]
fn a_million_lines_give_a_million_answers() {
    let mut content = String::with_capacity(9_000_000);
    for i in 0..1_000_000 {
        if i % 1000 == 0 {
            content.push_str(PUZZLE);
        } else {
            content.push_str("bad");
        }
        content.push('\n');
    }
    let path = temp_file("million.txt", content.as_bytes());
    let out = run(&["sudoku", "solve", &path]);
    assert_no_panic(&out);
    let answers = lines(&out.stdout);
    assert_eq!(answers.len(), 1_000_000);
    assert_eq!(
        answers.iter().filter(|l| l.as_str() == SOLUTION).count(),
        1000
    );
    assert_eq!(answers[1000], SOLUTION);
    assert_eq!(out.status.code(), Some(1));
}

#[test]
fn hard_but_legal_inputs_finish() {
    let empty25 = temp_file("empty25.txt", format!("{}\n", ".".repeat(625)).as_bytes());
    let out = run(&["sudoku", "solve", &empty25]);
    assert_eq!(out.status.code(), Some(0));
    let grid = Board::from_line(&lines(&out.stdout)[0]).unwrap();
    assert!(grid.is_complete() && grid.is_valid());

    // The largest board (3,530 nodes with the recommended search, about 1.5 s in a
    // release build; unsolved in a minute under the default order). The limit turns a
    // regression into a failure rather than a hang.
    let empty64 = temp_file("empty64.txt", format!("{}\n", ".".repeat(4096)).as_bytes());
    let out = run(&["sudoku", "solve", "--time-limit", "60", &empty64]);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let grid = Board::parse(&lines(&out.stdout)[0]).unwrap();
    assert!(grid.side() == 64 && grid.is_complete() && grid.is_valid());

    let unsat = format!("12345678.{}9{}\n", ".".repeat(35), ".".repeat(36));
    let unsat = temp_file("unsat.txt", unsat.as_bytes());
    let out = run(&["sudoku", "count", &unsat]);
    assert_eq!(lines(&out.stdout), vec!["0"]);
    assert!(String::from_utf8_lossy(&out.stderr).contains(":1: no solution"));
    assert_eq!(out.status.code(), Some(1));

    let out = run(&["queens", "500"]);
    assert_eq!(out.status.code(), Some(0));
    assert_eq!(lines(&out.stdout).len(), 500);
}

#[test]
fn dense_graph_with_a_short_time_limit_reports_bounds() {
    // A random graph on 150 vertices with edge probability one half.
    let mut random = common::Random(7);
    let mut edges = Vec::new();
    for u in 1..=150 {
        for v in u + 1..=150 {
            if random.next_u64() % 2 == 0 {
                edges.push(format!("e {u} {v}"));
            }
        }
    }
    let text = format!("p edge 150 {}\n{}\n", edges.len(), edges.join("\n"));
    let path = temp_file("dense.col", text.as_bytes());
    let out = run(&["color", "--time-limit", "0.3", &path]);
    assert_no_panic(&out);
    let first = lines(&out.stdout)[0].clone();
    let bounds: Vec<usize> = first.split(' ').map(|t| t.parse().unwrap()).collect();
    assert_eq!(bounds.len(), 2, "{first}");
    assert!(bounds[0] < bounds[1]);
    assert_eq!(lines(&out.stdout).len(), 151);
    assert_eq!(out.status.code(), Some(3));
}

#[test]
fn time_and_node_limits_apply_to_every_command() {
    let out = run(&["queens", "30", "--count", "--time-limit", "0.2"]);
    assert!(lines(&out.stdout)[0].ends_with('+'));
    assert!(String::from_utf8_lossy(&out.stderr).contains("stopped by time limit"));
    assert_eq!(out.status.code(), Some(3));

    let empty = temp_file(
        "empty9.txt",
        format!("{}\n{PUZZLE}\n", ".".repeat(81)).as_bytes(),
    );
    let out = run(&[
        "sudoku",
        "count",
        "--limit",
        "100000000",
        "--time-limit",
        "0.05",
        &empty,
    ]);
    assert_eq!(out.status.code(), Some(3));
    let answers = lines(&out.stdout);
    assert!(answers[0].ends_with('+'));
    assert_eq!(answers[1], "1", "the next puzzle gets its own time limit");
    assert!(
        String::from_utf8_lossy(&out.stderr).contains(&format!("{empty}:1: stopped by time limit"))
    );

    let out = run(&["sudoku", "solve", "--node-limit", "0", &empty]);
    assert_eq!(lines(&out.stdout)[0], "");
    assert!(String::from_utf8_lossy(&out.stderr).contains(":1: stopped by node limit"));
}

#[test]
fn malformed_beats_limited_in_the_exit_status() {
    let mixed = temp_file("mixed.txt", format!("{}\nbad\n", ".".repeat(81)).as_bytes());
    let out = run(&[
        "sudoku",
        "count",
        "--limit",
        "100000",
        "--node-limit",
        "10",
        &mixed,
    ]);
    assert_eq!(out.status.code(), Some(1));
}

#[cfg(unix)]
#[test]
fn ctrl_c_stops_a_count_with_a_partial_report_and_status_130() {
    let child = Command::new(env!("CARGO_BIN_EXE_bitcsp"))
        .args(["queens", "20", "--count"])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let (out, _) = interrupt_after(child, Duration::from_millis(500));
    assert_eq!(out.status.code(), Some(130));
    assert!(lines(&out.stdout)[0].ends_with('+'));
}

#[cfg(unix)]
#[test]
fn ctrl_c_stops_a_batch_and_keeps_what_was_answered() {
    let mut child = Command::new(env!("CARGO_BIN_EXE_bitcsp"))
        .args(["sudoku", "count", "--limit", "100000000", "--threads", "1"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut input = child.stdin.take().unwrap();
    writeln!(input, "{PUZZLE}").unwrap();
    writeln!(input, "{}", ".".repeat(81)).unwrap();
    input.flush().unwrap();
    child.stdin = Some(input);
    let (out, _) = interrupt_after(child, Duration::from_millis(700));
    assert_eq!(out.status.code(), Some(130));
    let answers = lines(&out.stdout);
    assert_eq!(answers[0], "1");
    assert!(answers[1].ends_with('+'), "{answers:?}");
}

#[test]
fn a_piped_standard_input_is_answered_line_by_line() {
    // Each answer must come while standard input is still open: a batch takes the lines
    // that are ready, it does not wait for a chunk to fill.
    use std::io::{BufRead, BufReader};
    let mut child = Command::new(env!("CARGO_BIN_EXE_bitcsp"))
        .args(["sudoku", "solve", "-"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    let mut input = child.stdin.take().unwrap();
    let (sender, answers) = std::sync::mpsc::channel();
    let stdout = child.stdout.take().unwrap();
    std::thread::spawn(move || {
        for line in BufReader::new(stdout).lines() {
            if sender.send(line.unwrap_or_default()).is_err() {
                return;
            }
        }
    });
    for _ in 0..3 {
        writeln!(input, "{PUZZLE}").unwrap();
        input.flush().unwrap();
        let answer = answers.recv_timeout(Duration::from_secs(30));
        assert_eq!(
            answer.as_deref(),
            Ok(SOLUTION),
            "answered before the next line"
        );
    }
    drop(input);
    assert_eq!(child.wait().unwrap().code(), Some(0));
}
