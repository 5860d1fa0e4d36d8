//! Experiment: node counts of two variable orders on carved puzzles.
//! `cargo run --release -p bitcsp-compare --bin orders -- [BOX_SIDE=5] [KEEP_PERCENT=50]`
use bitcsp::sudoku::{self, Board, BoxShape};
use bitcsp::{Solver, VariableOrder};

fn carved(grid: &Board, n: usize, keep: u64, seed: u64) -> Board {
    let mut puzzle = grid.clone();
    let mut state: u64 = 0x9E37_79B9_7F4A_7C15 ^ seed.wrapping_mul(0x2545_F491_4F6C_DD1D);
    for i in 0..n * n {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        if state % 100 >= keep {
            puzzle.set(i / n, i % n, 0);
        }
    }
    puzzle
}

fn main() {
    let side: usize = std::env::args()
        .nth(1)
        .and_then(|a| a.parse().ok())
        .unwrap_or(5);
    let keep: u64 = std::env::args()
        .nth(2)
        .and_then(|a| a.parse().ok())
        .unwrap_or(50);
    let shape = BoxShape {
        rows: side,
        cols: side,
    };
    let n = side * side;
    let empty = Board::empty(shape).unwrap();
    let (m, cells) = sudoku::model(&empty).unwrap();
    let mut s = Solver::new(&m);
    s.set_variable_order(VariableOrder::MrvDegree);
    let bitcsp::SolveResult::Solution(sol) = s.solve() else {
        panic!()
    };
    let grid = sudoku::decode(&empty, &cells, &sol);
    for seed in 0..12 {
        let puzzle = carved(&grid, n, keep, seed);
        let (model, _) = sudoku::model(&puzzle).unwrap();
        let mut line = format!("seed {seed}:");
        for order in [VariableOrder::MrvDegree, VariableOrder::MrvDynamicDegree] {
            let mut solver = Solver::new(&model);
            solver
                .set_variable_order(order)
                .set_node_limit(Some(60_000));
            let t = std::time::Instant::now();
            let r = solver.solve();
            let ok = matches!(r, bitcsp::SolveResult::Solution(_));
            line += &format!(
                " {:?} {} nodes {:.2}s{}",
                order,
                solver.stats().nodes,
                t.elapsed().as_secs_f64(),
                if ok { "" } else { " (not solved)" }
            );
        }
        println!("{line}");
    }
}
