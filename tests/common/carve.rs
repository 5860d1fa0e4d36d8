//! One seeded random sequence and one carving routine, shared by the tests and by the
//! experiments of `compare/` (which include this file by path), so that a puzzle named by
//! its seed is the same puzzle everywhere.
#![allow(dead_code)]

use bitcsp::sudoku::Board;

/// A xorshift generator: repeatable, no dependency.
pub struct Random(pub u64);

impl Random {
    /// The generator the carving routine uses for `seed`.
    pub fn seeded(seed: u64) -> Self {
        Random(0x9E37_79B9_7F4A_7C15 ^ seed.wrapping_mul(0x2545_F491_4F6C_DD1D))
    }

    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }

    /// A number below `n` (`n > 0`).
    pub fn below(&mut self, n: u64) -> u64 {
        self.next_u64() % n
    }
}

/// A puzzle from the solved `grid`: each cell kept with probability `keep_percent` %, by
/// the sequence of `seed`.
pub fn carve(grid: &Board, keep_percent: u64, seed: u64) -> Board {
    let mut puzzle = grid.clone();
    let n = grid.side();
    let mut random = Random::seeded(seed);
    for i in 0..n * n {
        if random.below(100) >= keep_percent {
            puzzle.set(i / n, i % n, 0);
        }
    }
    puzzle
}
