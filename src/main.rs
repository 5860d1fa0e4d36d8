//! The `bitcsp` command line.
#![forbid(unsafe_code)]

use clap::Parser;

/// Constraint solving from the command line: Sudoku, N-Queens and graph colouring.
#[derive(Parser, Debug)]
#[command(name = "bitcsp", version, about)]
struct Cli {}

fn main() {
    let _cli = Cli::parse();
}
