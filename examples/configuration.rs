//! Product configuration with tables: a computer is a processor, a board and memory, only
//! in the combinations the compatibility tables allow; each part has a price and a power
//! draw (lookups by `element`); the power supply limits the draw. The cheapest computer
//! with at least a given speed is found and proved cheapest.
//!
//! `cargo run --release --example configuration`

use std::process::ExitCode;

use bitcsp::{Compare, Model, ModelError, Optimum, Solver, VarId};

/// A part: its name, price and power draw (and, for a processor, its speed).
#[derive(Clone, Copy, Debug)]
pub struct Part {
    /// The name.
    pub name: &'static str,
    /// The price.
    pub price: i32,
    /// The power draw in watts.
    pub watts: i32,
    /// The speed score (processors only; 0 for the others).
    pub speed: i32,
}

/// Processors.
pub const CPUS: [Part; 4] = [
    part("budget 4-core", 90, 65, 40),
    part("mid 6-core", 180, 95, 65),
    part("fast 8-core", 310, 125, 85),
    part("low-power 8-core", 350, 65, 80),
];
/// Boards.
pub const BOARDS: [Part; 3] = [
    part("socket A basic", 80, 10, 0),
    part("socket A pro", 150, 15, 0),
    part("socket B", 120, 12, 0),
];
/// Memory kits.
pub const MEMORY: [Part; 3] = [
    part("2x8 GB slow", 40, 5, 0),
    part("2x16 GB", 85, 6, 0),
    part("2x16 GB fast", 130, 8, 0),
];
/// Which processor fits which board: `(cpu, board)`.
pub const CPU_BOARD: [[i32; 2]; 6] = [[0, 0], [0, 1], [1, 0], [1, 1], [2, 1], [3, 2]];
/// Which memory each board takes: `(board, memory)`.
pub const BOARD_MEMORY: [[i32; 2]; 6] = [[0, 0], [0, 1], [1, 1], [1, 2], [2, 1], [2, 2]];

const fn part(name: &'static str, price: i32, watts: i32, speed: i32) -> Part {
    Part {
        name,
        price,
        watts,
        speed,
    }
}

/// The model: the chosen `[cpu, board, memory]` (returned) and the total price
/// (minimised), with the speed at least `min_speed` and the draw at most `max_watts`.
///
/// # Errors
/// The model's errors (none for these tables).
pub fn model(min_speed: i32, max_watts: i32) -> Result<(Model, [VarId; 3], VarId), ModelError> {
    let mut model = Model::new();
    let cpu = model.new_var(0..=CPUS.len() as i32 - 1)?;
    let board = model.new_var(0..=BOARDS.len() as i32 - 1)?;
    let memory = model.new_var(0..=MEMORY.len() as i32 - 1)?;
    model.table(&[cpu, board], &CPU_BOARD.map(|t| t.to_vec()))?;
    model.table(&[board, memory], &BOARD_MEMORY.map(|t| t.to_vec()))?;
    let mut prices = Vec::new();
    let mut watts = Vec::new();
    for (choice, parts) in [
        (cpu, &CPUS[..]),
        (board, &BOARDS[..]),
        (memory, &MEMORY[..]),
    ] {
        let price = model.new_var(0..=1000)?;
        model.element(
            &parts.iter().map(|p| p.price).collect::<Vec<_>>(),
            choice,
            price,
        )?;
        prices.push(price);
        let watt = model.new_var(0..=1000)?;
        model.element(
            &parts.iter().map(|p| p.watts).collect::<Vec<_>>(),
            choice,
            watt,
        )?;
        watts.push(watt);
    }
    let speed = model.new_var(0..=100)?;
    model.element(&CPUS.map(|p| p.speed), cpu, speed)?;
    model.require(speed.at_least(min_speed))?;
    model.require((watts[0] + watts[1] + watts[2]).at_most(max_watts))?;
    let total = model.minimize_sum(&prices, &[1, 1, 1])?;
    Ok((model, [cpu, board, memory], total))
}

fn main() -> ExitCode {
    let (model, [cpu, board, memory], _) = match model(80, 90) {
        Ok(m) => m,
        Err(e) => {
            eprintln!("configuration: {e}");
            return ExitCode::FAILURE;
        }
    };
    match Solver::new(&model).optimize() {
        Optimum::Optimal {
            solution,
            objective,
        } => {
            let pick = |v: VarId, parts: &[Part]| parts[solution.value(v) as usize].name;
            println!("cheapest: {objective}");
            println!("processor: {}", pick(cpu, &CPUS));
            println!("board: {}", pick(board, &BOARDS));
            println!("memory: {}", pick(memory, &MEMORY));
            ExitCode::SUCCESS
        }
        Optimum::Infeasible => {
            println!("no configuration meets the requirements");
            ExitCode::FAILURE
        }
        other => {
            println!("{other:?}");
            ExitCode::FAILURE
        }
    }
}
