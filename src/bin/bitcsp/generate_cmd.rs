//! `bitcsp sudoku generate`: new minimal puzzles with one solution, in batches over
//! threads; puzzle `i` depends on the seed and `i` alone, so the output does not depend
//! on the thread count.

use std::cell::RefCell;

use bitcsp::sudoku::workshop::{Class, Generator, Symmetry};
use bitcsp::sudoku::BoxShape;
use clap::Args;

use crate::exit::Outcome;
use crate::output::Output;
use crate::{batch, interrupt, say};

/// Options of `sudoku generate`.
#[derive(Args, Debug)]
pub struct GenerateArgs {
    /// How many puzzles.
    #[arg(long, default_value_t = 1)]
    pub count: u64,
    /// Only puzzles of this class: easy, medium, hard, expert, extreme (puzzles of other
    /// classes are drawn and dropped, so the rare classes take long).
    #[arg(long)]
    pub class: Option<Class>,
    /// Symmetry of the givens: none, rotate180, rotate90, mirror, diagonal.
    #[arg(long, default_value_t = Symmetry::None)]
    pub symmetry: Symmetry,
    /// Seed: the same seed gives the same puzzles.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Box shape RxC (R rows, C columns per box).
    #[arg(long, value_name = "RxC", value_parser = crate::parse_shape, default_value = "3x3")]
    pub size: BoxShape,
    /// Worker threads (default: one per core).
    #[arg(long, value_parser = clap::value_parser!(u64).range(1..=1024))]
    pub threads: Option<u64>,
}

/// Puzzles made per hand-over to the printer.
const CHUNK: u64 = 64;

/// Runs the command.
pub fn run(args: &GenerateArgs, threads: usize) -> Outcome {
    let pool = match batch::pool(threads) {
        Ok(p) => p,
        Err(e) => {
            say!("bitcsp: {e}");
            return Outcome::FAILED;
        }
    };
    let mut out = Output::new();
    let mut outcome = Outcome::default();
    let mut start = 0;
    while start < args.count {
        let indices: Vec<u64> = (start..args.count.min(start.saturating_add(CHUNK))).collect();
        start += indices.len() as u64;
        let lines = batch::run_ordered(
            &pool,
            &indices,
            |&i| puzzle(args, i),
            |_, msg| Err(format!("internal error (please report): {msg}")),
        );
        for line in lines {
            let written = match line {
                Ok(text) => writeln!(out, "{text}"),
                Err(e) => {
                    say!("bitcsp sudoku generate: {e}");
                    outcome.failed = true;
                    Ok(())
                }
            };
            if written.is_err() || out.flush().is_err() {
                outcome.failed = true;
                return outcome;
            }
        }
        if interrupt::interrupted() {
            outcome.interrupted = true;
            return outcome;
        }
    }
    outcome
}

/// Puzzle `i` as a line, made with this thread's generator.
fn puzzle(args: &GenerateArgs, i: u64) -> Result<String, String> {
    type Key = (BoxShape, Symmetry, Option<Class>, u64);
    thread_local! {
        static GENERATOR: RefCell<Option<(Key, Generator)>> = const { RefCell::new(None) };
    }
    let key = (args.size, args.symmetry, args.class, args.seed);
    let cached = GENERATOR
        .with(|cell| cell.borrow_mut().take())
        .filter(|(k, _)| *k == key);
    let mut generator = match cached {
        Some((_, g)) => g,
        None => Generator::new(args.size, args.symmetry, args.class, args.seed)
            .map_err(|e| e.to_string())?,
    };
    let made = generator
        .puzzle(i)
        .map(|b| b.to_line())
        .map_err(|e| e.to_string());
    GENERATOR.with(|cell| *cell.borrow_mut() = Some((key, generator)));
    made
}
