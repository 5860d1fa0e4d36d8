//! Experiment: node counts of search strategies on carved puzzles (a solved board with
//! cells removed by a seeded pseudo-random sequence).
//! `cargo run --release -p bitcsp-compare --bin orders -- [BOX_SIDE=5] [KEEP_PERCENT=50] [SEEDS=12] [FIRST_SEED=0]`
//! (`ONLY=NAME` in the environment runs one column).
//!
//! Columns: `MrvDegree` and the default `MrvDynamicDegree` without restarts, the default
//! order and plain `Mrv` with the restarts `sudoku::restarts` recommends for the board,
//! `DomWdeg` (what `sudoku::variable_order` recommends from 16×16 up) without and with
//! those restarts, and the default order and `DomWdeg` with restarts and
//! `LastConflict::BranchFirst` (the last is what `sudoku::configure` sets from 16×16 up).
//! Every search stops after 60,000 nodes.
use bitcsp::sudoku::{self, Board, BoxShape};
use bitcsp::{LastConflict, Restarts, Solver, VariableOrder};

/// The tests' carving routine, so that a seed names the same puzzle here and there.
#[path = "../../../tests/common/carve.rs"]
mod carve;
use carve::carve;

fn arg(k: usize, default: u64) -> u64 {
    std::env::args()
        .nth(k)
        .and_then(|a| a.parse().ok())
        .unwrap_or(default)
}

fn main() {
    let side = arg(1, 5) as usize;
    let keep = arg(2, 50);
    let seeds = arg(3, 12);
    let first_seed = arg(4, 0);
    let only = std::env::var("ONLY").ok();
    let shape = BoxShape {
        rows: side,
        cols: side,
    };
    let empty = Board::empty(shape).unwrap();
    let (m, cells) = sudoku::model(&empty).unwrap();
    let mut s = Solver::new(&m);
    s.set_variable_order(VariableOrder::MrvDegree);
    let bitcsp::SolveResult::Solution(sol) = s.solve() else {
        panic!()
    };
    let grid = sudoku::decode(&empty, &cells, &sol);
    let restarts = sudoku::restarts(&empty);
    let (ignore, first) = (LastConflict::Ignore, LastConflict::BranchFirst);
    let strategies = [
        (
            "MrvDegree",
            VariableOrder::MrvDegree,
            Restarts::Never,
            ignore,
        ),
        (
            "default",
            VariableOrder::MrvDynamicDegree,
            Restarts::Never,
            ignore,
        ),
        (
            "default+restarts",
            VariableOrder::MrvDynamicDegree,
            restarts,
            ignore,
        ),
        ("mrv+restarts", VariableOrder::Mrv, restarts, ignore),
        ("domwdeg", VariableOrder::DomWdeg, Restarts::Never, ignore),
        ("domwdeg+restarts", VariableOrder::DomWdeg, restarts, ignore),
        (
            "default+restarts+lc",
            VariableOrder::MrvDynamicDegree,
            restarts,
            first,
        ),
        (
            "domwdeg+restarts+lc",
            VariableOrder::DomWdeg,
            restarts,
            first,
        ),
    ];
    let mut totals = [(0u64, 0.0f64, 0u64); 8];
    for seed in first_seed..first_seed + seeds {
        let puzzle = carve(&grid, keep, seed);
        let (model, _) = sudoku::model(&puzzle).unwrap();
        let mut line = format!("seed {seed}:");
        for (k, (name, order, restarts, last_conflict)) in strategies.iter().enumerate() {
            if only.as_deref().is_some_and(|o| o != *name) {
                continue;
            }
            let mut solver = Solver::new(&model);
            solver
                .set_variable_order(*order)
                .set_restarts(*restarts)
                .set_last_conflict(*last_conflict)
                .set_node_limit(Some(60_000));
            let t = std::time::Instant::now();
            let r = solver.solve();
            let secs = t.elapsed().as_secs_f64();
            let ok = matches!(r, bitcsp::SolveResult::Solution(_));
            let stats = solver.stats();
            totals[k].0 += stats.nodes;
            totals[k].1 += secs;
            totals[k].2 += u64::from(!ok);
            line += &format!(
                " | {name} {} nodes, {} restarts, {secs:.2}s{}",
                stats.nodes,
                stats.restarts,
                if ok { "" } else { " (not solved)" }
            );
        }
        println!("{line}");
    }
    for ((name, _, _, _), (nodes, secs, unsolved)) in strategies.iter().zip(totals) {
        println!("total {name}: {nodes} nodes, {secs:.1} s, {unsolved} not solved");
    }
}
