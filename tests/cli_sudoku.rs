//! `bitcsp sudoku` run as a process: output lines, `FILE:LINE` errors and exit statuses.

use std::process::Output;

mod common;
use common::{board_36, engine_count, run_with_stdin as bitcsp, temp_file, PUZZLE, SOLUTION};

use bitcsp::sudoku::Board;

fn stdout_lines(out: &Output) -> Vec<String> {
    String::from_utf8_lossy(&out.stdout)
        .lines()
        .map(str::to_string)
        .collect()
}

fn stderr(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

#[test]
fn mixed_batch_keeps_one_line_per_puzzle_and_reports_each_bad_line() {
    let clash = PUZZLE.replacen('3', "5", 1);
    let mut bad_char = PUZZLE.to_string();
    bad_char.replace_range(20..21, "x");
    let unsat = format!("12345678.{}", ".".repeat(35) + "9" + &".".repeat(36));
    let input = format!(
        "# comment\n{PUZZLE}\n\n{clash}\n{bad_char}\n{}\n{unsat}\n{PUZZLE}\r\n",
        &PUZZLE[..80]
    );
    let path = temp_file("mixed.txt", input.as_bytes());
    let out = bitcsp(&["sudoku", "solve", &path], b"");
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(stdout_lines(&out), vec![SOLUTION, "", "", "", "", SOLUTION]);
    let err = stderr(&out);
    assert!(
        err.contains(&format!(
            "{path}:4: digit 5 appears twice in a row: r1c1 and r1c2"
        )),
        "{err}"
    );
    assert!(
        err.contains(&format!("{path}:5: column 21: invalid character 'x'")),
        "{err}"
    );
    assert!(
        err.contains(&format!(
            "{path}:6: expected 81 (a square number) cells, found 80"
        )),
        "{err}"
    );
    assert!(err.contains(&format!("{path}:7: no solution")), "{err}");
}

#[test]
fn standard_input_is_named_in_messages() {
    let out = bitcsp(&["sudoku", "solve"], b"garbage!\n");
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(stdout_lines(&out), vec![""]);
    assert!(stderr(&out).starts_with("<stdin>:1: "), "{}", stderr(&out));
}

#[test]
fn all_good_batch_exits_zero_and_order_holds_with_any_thread_count() {
    let text = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/data/sudoku/magictour_sample.txt"
    ))
    .unwrap();
    let one = bitcsp(&["sudoku", "solve", "--threads", "1"], text.as_bytes());
    let four = bitcsp(&["sudoku", "solve", "--threads", "4"], text.as_bytes());
    assert_eq!(one.status.code(), Some(0));
    assert_eq!(one.stdout, four.stdout);
    let lines = stdout_lines(&one);
    let puzzles: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), puzzles.len());
    for (p, s) in puzzles.iter().zip(&lines) {
        let puzzle = Board::from_line(p).unwrap();
        Board::from_line(s).unwrap().check_solves(&puzzle).unwrap();
    }
}

#[test]
fn count_prints_plus_at_the_limit_and_unique_flags_several_solutions() {
    let empty = ".".repeat(81);
    let input = format!("{PUZZLE}\n{empty}\n");
    let out = bitcsp(&["sudoku", "count", "--limit", "3"], input.as_bytes());
    assert_eq!(stdout_lines(&out), vec!["1", "3+"]);
    assert_eq!(out.status.code(), Some(0));
    let out = bitcsp(&["sudoku", "solve", "--unique"], input.as_bytes());
    assert_eq!(stdout_lines(&out), vec![SOLUTION, ""]);
    assert!(stderr(&out).contains("<stdin>:2: more than one solution"));
    assert_eq!(out.status.code(), Some(1));
}

#[test]
fn check_answers_valid_or_invalid_without_solving() {
    let clash = PUZZLE.replacen('3', "5", 1);
    let input = format!("{PUZZLE}\n{clash}\nxyz\n");
    let out = bitcsp(&["sudoku", "check"], input.as_bytes());
    assert_eq!(stdout_lines(&out), vec!["valid", "invalid", "invalid"]);
    assert_eq!(out.status.code(), Some(1));
}

#[test]
fn block_format_separates_boards_with_a_blank_line() {
    let input = format!("{PUZZLE}\n{PUZZLE}\n");
    let out = bitcsp(&["sudoku", "solve", "--format", "block"], input.as_bytes());
    let text = String::from_utf8(out.stdout).unwrap();
    let blocks: Vec<&str> = text.split("\n\n").collect();
    assert_eq!(blocks.len(), 2);
    for b in blocks {
        assert_eq!(Board::parse(b).unwrap().to_line(), SOLUTION);
    }
}

#[test]
fn other_sizes_are_detected_or_given() {
    let six = Board::parse(&"......".repeat(6)).unwrap();
    assert_eq!(six.shape().rows, 2);
    let out = bitcsp(
        &["sudoku", "solve"],
        format!("{}\n", ".".repeat(36)).as_bytes(),
    );
    let line = &stdout_lines(&out)[0];
    Board::from_line(line).unwrap().check_solves(&six).unwrap();
    let out = bitcsp(
        &["sudoku", "solve", "--size", "3x2"],
        format!("{}\n", ".".repeat(36)).as_bytes(),
    );
    let board = Board::from_line_with_shape(
        &stdout_lines(&out)[0],
        Some(bitcsp::sudoku::BoxShape { rows: 3, cols: 2 }),
    )
    .unwrap();
    assert!(board.is_valid() && board.is_complete());
}

#[test]
fn limits_stop_a_puzzle_say_so_and_exit_three() {
    let empty25 = ".".repeat(625);
    let out = bitcsp(
        &[
            "sudoku",
            "count",
            "--limit",
            "1000000",
            "--node-limit",
            "50",
        ],
        format!("{empty25}\n").as_bytes(),
    );
    assert_eq!(out.status.code(), Some(3));
    let lines = stdout_lines(&out);
    assert!(lines[0].ends_with('+'), "{lines:?}");
    assert!(stderr(&out).contains("<stdin>:1: stopped by node limit"));
}

#[test]
fn bad_usage_exits_two() {
    for args in [
        vec!["sudoku", "solve", "--threads", "zero"],
        vec!["sudoku", "solve", "--size", "3by3"],
        vec!["sudoku", "solve", "--time-limit", "-1"],
        vec!["sudoku", "frobnicate"],
        vec!["sudoku", "count", "--limit", "0"],
    ] {
        let out = bitcsp(&args, b"");
        assert_eq!(out.status.code(), Some(2), "{args:?}");
    }
}

#[test]
fn missing_file_is_reported_and_the_next_file_still_solved() {
    let good = temp_file("good.txt", format!("{PUZZLE}\n").as_bytes());
    let out = bitcsp(&["sudoku", "solve", "/no/such/file.txt", &good], b"");
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(stdout_lines(&out), vec![SOLUTION]);
    assert!(stderr(&out).contains("/no/such/file.txt: cannot read"));
}

#[test]
fn help_and_version_work() {
    let out = bitcsp(&["--help"], b"");
    assert_eq!(out.status.code(), Some(0));
    assert!(String::from_utf8_lossy(&out.stdout).contains("sudoku"));
    let out = bitcsp(&["--version"], b"");
    assert!(String::from_utf8_lossy(&out.stdout).starts_with("bitcsp "));
}

/// Clashing givens are reported as such by every searching command, also when a limit
/// stops the search first (the command line looks for a clash once a search has found no
/// solution).
#[test]
fn clashing_givens_are_named_by_every_searching_command() {
    let clash = PUZZLE.replacen('3', "5", 1);
    let path = temp_file("clash.txt", format!("{clash}\n{PUZZLE}\n").as_bytes());
    for args in [
        vec!["sudoku", "solve"],
        vec!["sudoku", "solve", "--unique"],
        vec!["sudoku", "count", "--limit", "2"],
        vec!["sudoku", "solve", "--node-limit", "0"],
        vec!["sudoku", "count", "--limit", "2", "--node-limit", "0"],
    ] {
        let mut all = args.clone();
        all.push(&path);
        let out = bitcsp(&all, b"");
        assert_eq!(out.status.code(), Some(1), "{args:?}");
        assert_eq!(stdout_lines(&out)[0], "", "{args:?}");
        let err = stderr(&out);
        assert!(
            err.contains(&format!(
                "{path}:1: digit 5 appears twice in a row: r1c1 and r1c2"
            )),
            "{args:?}: {err}"
        );
    }
}

#[test]
fn large_boards_are_solved_by_learning_with_its_statistics_and_limits() {
    let boards = [board_36(1, 65), board_36(2, 60)];
    let input = format!("{}\n{}\n", boards[0].to_numbers(), boards[1].to_numbers());
    let out = bitcsp(&["sudoku", "solve", "--stats"], input.as_bytes());
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let lines = stdout_lines(&out);
    assert_eq!(lines.len(), 2);
    for (line, board) in lines.iter().zip(&boards) {
        let solved = Board::parse(line).expect("a board");
        solved.check_solves(board).expect("a solution of the board");
    }
    assert!(
        stderr(&out).contains("<stdin>:2: nodes "),
        "{}",
        stderr(&out)
    );
    // A half-kept board needs more than five choices.
    let hard = format!("{}\n", board_36(3, 50).to_numbers());
    let out = bitcsp(&["sudoku", "solve", "--node-limit", "5"], hard.as_bytes());
    assert_eq!(out.status.code(), Some(3));
    assert!(stderr(&out).contains("<stdin>:1: stopped by node limit"));
}

#[test]
fn a_lone_large_board_races_searches_on_every_thread_for_the_same_answer() {
    // 40 % kept: thousands of solutions, and the printed one must not depend on the
    // number of threads (the chunk's one board gets them all).
    let board = board_36(1, 40);
    let line = format!("{}\n", board.to_numbers());
    let answers: Vec<(Vec<String>, Vec<String>)> = ["1", "2", "3"]
        .iter()
        .map(|threads| {
            let solve = bitcsp(&["sudoku", "solve", "--threads", threads], line.as_bytes());
            assert_eq!(solve.status.code(), Some(0), "{}", stderr(&solve));
            let count = bitcsp(
                &["sudoku", "count", "--limit", "20", "--threads", threads],
                line.as_bytes(),
            );
            assert_eq!(count.status.code(), Some(0), "{}", stderr(&count));
            (stdout_lines(&solve), stdout_lines(&count))
        })
        .collect();
    let (solved, counted) = &answers[0];
    Board::parse(&solved[0])
        .expect("a board")
        .check_solves(&board)
        .expect("a solution of the board");
    assert_eq!(counted, &["20+"]);
    assert!(answers.iter().all(|a| a == &answers[0]), "{answers:?}");
}

#[test]
fn large_boards_are_counted_by_learning_as_the_engine_counts() {
    use bitcsp::CountStatus;
    let boards: Vec<Board> = [(4, 70), (5, 58), (6, 75), (7, 60), (8, 72)]
        .iter()
        .map(|&(seed, keep)| board_36(seed, keep))
        .collect();
    // The oracle: the depth-first engine, which settles boards this full quickly.
    let expected: Vec<String> = boards
        .iter()
        .map(|board| {
            let count = engine_count(board, Some(2));
            match count.status {
                CountStatus::Complete => count.count.to_string(),
                CountStatus::LimitReached => format!("{}+", count.count),
                CountStatus::Stopped(reason) => panic!("the engine stopped: {reason}"),
            }
        })
        .collect();
    assert!(
        expected.contains(&"1".to_string()) && expected.contains(&"2+".to_string()),
        "unique and ambiguous boards both: {expected:?}"
    );
    let input: String = boards.iter().map(|b| b.to_numbers() + "\n").collect();
    let out = bitcsp(&["sudoku", "count", "--stats"], input.as_bytes());
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert_eq!(stdout_lines(&out), expected);
    assert!(
        stderr(&out).contains("<stdin>:5: nodes "),
        "{}",
        stderr(&out)
    );
    // Half kept: past the engine's count, which never restarts, while learning finds two
    // solutions (`tests/cover.rs` checks such solutions against the rules).
    let half = board_36(2, 50);
    let line = format!("{}\n", half.to_numbers());
    let out = bitcsp(&["sudoku", "count", "--time-limit", "60"], line.as_bytes());
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert_eq!(stdout_lines(&out), ["2+"]);
    // `solve --unique`: the unique boards' solutions; for each other one an empty line
    // (answers stay on their puzzles' lines) and an error.
    let out = bitcsp(&["sudoku", "solve", "--unique"], input.as_bytes());
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    let lines = stdout_lines(&out);
    assert_eq!(lines.len(), boards.len());
    for (i, ((line, board), e)) in lines.iter().zip(&boards).zip(&expected).enumerate() {
        let message = format!("<stdin>:{}: more than one solution", i + 1);
        assert_eq!(
            stderr(&out).contains(&message),
            e == "2+",
            "{}",
            stderr(&out)
        );
        if e == "1" {
            let solved = Board::parse(line).expect("a board");
            solved.check_solves(board).expect("a solution of the board");
        } else {
            assert!(line.is_empty(), "line {}: {line}", i + 1);
        }
    }
}

#[test]
fn large_board_splits_are_counted_by_learning_and_add_up_to_the_engine_count() {
    use bitcsp::CountStatus;
    let mut counts = Vec::new();
    for (seed, keep) in [(1, 58), (2, 57), (3, 60), (4, 55)] {
        let board = board_36(seed, keep);
        // The oracle: the depth-first engine, counting every solution.
        let count = engine_count(&board, None);
        assert_eq!(count.status, CountStatus::Complete);
        counts.push(count.count);
        let line = format!("{}\n", board.to_numbers());
        let parts = bitcsp(
            &["sudoku", "count", "--limit", "1000000", "--split", "12"],
            line.as_bytes(),
        );
        assert_eq!(parts.status.code(), Some(0), "{}", stderr(&parts));
        let part_lines = stdout_lines(&parts);
        // Fewer than asked when most branches fail early, but more than one.
        assert!(part_lines.len() > 1, "{} parts", part_lines.len());
        // Part lines keep the board in one field, whatever its side.
        for part in &part_lines {
            let board_field = part.split_once(" board=").expect("a board field").1;
            assert!(!board_field.contains(' '), "{part}");
        }
        let answers = bitcsp(&["part"], &parts.stdout);
        assert_eq!(answers.status.code(), Some(0), "{}", stderr(&answers));
        let merged = bitcsp(&["merge"], &answers.stdout);
        assert_eq!(stdout_lines(&merged), [count.count.to_string()]);
        // A part whose fix repeats a given is the whole board; one that contradicts it,
        // or names no digit, has no solution (as in the engine).
        let n = board.side();
        let given = (0..n * n)
            .find_map(|c| board.get(c / n, c % n).map(|d| (c, d)))
            .expect("a given");
        let digit = usize::from(given.1);
        for (fix, expected) in [
            (format!("{}:{digit}", given.0), count.count),
            (format!("{}:{}", given.0, digit % n + 1), 0),
            (format!("{}:{}", given.0, n + 1), 0),
        ] {
            let first = &part_lines[0];
            let (head, tail) = first.split_once(" fixes=").expect("fixes");
            let tail = tail.split_once(' ').expect("more fields").1;
            let edited = format!("{head} part=1/1 fixes={fix} {tail}\n")
                .replace(&format!(" part=1/{} ", part_lines.len()), " ");
            let answer = bitcsp(&["part"], edited.as_bytes());
            assert_eq!(answer.status.code(), Some(0), "{}", stderr(&answer));
            let text = String::from_utf8_lossy(&answer.stdout).into_owned();
            assert!(
                text.contains(&format!(" count={expected} ")) && text.contains("status=complete"),
                "{fix}: {text}"
            );
        }
        // Each part stops at the limit, and so does the total.
        let capped = bitcsp(
            &["sudoku", "count", "--limit", "3", "--split", "12"],
            line.as_bytes(),
        );
        let answers = bitcsp(&["part"], &capped.stdout);
        let merged = bitcsp(&["merge"], &answers.stdout);
        let expected = if count.count > 3 {
            "3+".to_string()
        } else {
            count.count.to_string()
        };
        assert_eq!(stdout_lines(&merged), [expected]);
    }
    assert!(counts.iter().any(|&c| c > 3), "{counts:?}");
}

#[test]
fn answers_and_messages_read_together_keep_the_input_order() {
    // Both streams into one file, as `2>&1` does: each bad line's message must follow
    // its own (empty) answer line and come before the next puzzle's answer, whatever
    // the batching.
    let bad = [2, 5, 40, 41, 170, 299];
    let input: String = (1..=300)
        .map(|n| {
            if bad.contains(&n) {
                "bad\n".to_string()
            } else {
                format!("{PUZZLE}\n")
            }
        })
        .collect();
    let path = temp_file("ordered_streams.txt", input.as_bytes());
    let combined = common::temp_dir().join("ordered_streams.out");
    let file = std::fs::File::create(&combined).expect("an output file");
    let status = common::binary()
        .args(["sudoku", "solve", "--threads", "2", &path])
        .stdout(file.try_clone().expect("a second handle"))
        .stderr(file)
        .status()
        .expect("binary runs");
    assert_eq!(status.code(), Some(1));
    let text = std::fs::read_to_string(&combined).expect("the combined output");
    let mut expected = Vec::new();
    for n in 1..=300 {
        if bad.contains(&n) {
            expected.push(String::new());
            expected.push(format!("{path}:{n}:"));
        } else {
            expected.push(SOLUTION.to_string());
        }
    }
    let got: Vec<&str> = text.lines().collect();
    assert_eq!(got.len(), expected.len(), "{text}");
    for (k, (line, want)) in got.iter().zip(&expected).enumerate() {
        if want.ends_with(':') {
            assert!(
                line.starts_with(want.as_str()),
                "line {k}: {line:?}, expected {want}…"
            );
        } else {
            assert_eq!(line, want, "line {k}");
        }
    }
}
