//! The whole-process peer for `bitcsp sudoku solve|count --threads 1`: reads a puzzle
//! file line by line, solves (or counts to 2) with the `sudoku` crate, and prints the same
//! answers, so that `time` on both processes compares reading, parsing, solving and
//! printing together.
//!
//! `cargo run --release -p bitcsp-compare --bin peer_sudoku -- [--count] FILE`

use std::io::{BufRead, BufWriter, Write};

use sudoku::Sudoku;

fn main() -> std::io::Result<()> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let count = args.iter().any(|a| a == "--count");
    let Some(path) = args.iter().find(|a| !a.starts_with("--")) else {
        eprintln!("usage: peer_sudoku [--count] FILE");
        std::process::exit(2);
    };
    let input = std::io::BufReader::new(std::fs::File::open(path)?);
    let out = std::io::stdout();
    let mut out = BufWriter::new(out.lock());
    for line in input.lines() {
        let line = line?;
        let line = line.trim_end();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        match Sudoku::from_str_line(line) {
            Ok(s) if count => writeln!(out, "{}", s.solutions_count_up_to(2))?,
            // The first solution found, as `bitcsp sudoku solve` prints (the crate's
            // `solution` would also prove it unique: the work of counting to 2).
            Ok(s) => match s.some_solution() {
                Some(solved) => writeln!(out, "{}", solved.to_str_line())?,
                None => writeln!(out)?,
            },
            Err(_) => writeln!(out)?,
        }
    }
    out.flush()
}
