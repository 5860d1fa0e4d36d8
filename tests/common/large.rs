//! Large Sudoku boards for the tests: seeded 36×36 boards, and the depth-first engine's
//! count as an oracle for them.
#![allow(dead_code)]

use bitcsp::sudoku::workshop::{Generator, Symmetry};
use bitcsp::sudoku::{self, Board, BoxShape};
use bitcsp::{Count, Solver, VarId};

/// A 36×36 board from the seeded full grid of `seed`, with `keep` percent of its cells
/// kept ([`carve`](super::carve)).
pub fn board_36(seed: u64, keep: u64) -> Board {
    let shape = BoxShape { rows: 6, cols: 6 };
    let mut generator = Generator::new(shape, Symmetry::None, None, seed).expect("a shape");
    super::carve(&generator.grid(0).expect("a grid"), keep, seed)
}

/// The depth-first engine's solver for `board`, with the search `sudoku::configure`
/// sets, and the board's cell variables.
pub fn engine(board: &Board) -> (Solver, Vec<VarId>) {
    let (model, cells) = sudoku::model(board).expect("a model");
    let mut solver = Solver::new(&model);
    sudoku::configure(&mut solver, board);
    (solver, cells)
}

/// The engine's count of `board`'s solutions up to `limit` (it never restarts when
/// counting).
pub fn engine_count(board: &Board, limit: Option<u64>) -> Count {
    engine(board).0.count(limit)
}
