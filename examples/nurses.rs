//! A week of nurse rostering with counting constraints: each day needs exactly two
//! nurses on the day shift and one on the night shift (`count`); each nurse works four or
//! five shifts a week (`among`); no nurse works a day shift right after a night shift
//! (forbidden pairs). The roster found is printed, and the rosters are counted up to 100,000.
//!
//! `cargo run --release --example nurses`

use std::process::ExitCode;

use bitcsp::{Model, ModelError, SolveResult, Solver, VarId};

/// Shifts a nurse can take on one day.
pub const OFF: i32 = 0;
/// The day shift.
pub const DAY: i32 = 1;
/// The night shift.
pub const NIGHT: i32 = 2;

/// The model: `shift[n][d]` for `nurses` nurses over `days` days (returned).
///
/// # Errors
/// The model's errors (none for sensible sizes).
pub fn model(nurses: usize, days: usize) -> Result<(Model, Vec<Vec<VarId>>), ModelError> {
    let mut model = Model::new();
    let shift: Vec<Vec<VarId>> = (0..nurses)
        .map(|_| model.new_vars(days, OFF..=NIGHT))
        .collect::<Result<_, _>>()?;
    for d in 0..days {
        let today: Vec<VarId> = shift.iter().map(|row| row[d]).collect();
        let on_day = model.new_var(2..=2)?;
        let on_night = model.new_var(1..=1)?;
        model.count(&today, DAY, on_day)?;
        model.count(&today, NIGHT, on_night)?;
    }
    let mut worked = Vec::with_capacity(nurses);
    for row in &shift {
        let shifts = model.new_var(4..=5)?;
        model.among(row, &[DAY, NIGHT], shifts)?;
        worked.push(shifts);
        for pair in row.windows(2) {
            model.forbidden(pair, &[vec![NIGHT, DAY]])?;
        }
    }
    // Implied, and what makes the search fast: the nurses' shifts add up to the shifts
    // the days need (without it, a choice of too few shifts each is found out only deep
    // in the search).
    let needed = i64::try_from(3 * days).unwrap_or(i64::MAX);
    model.sum(&worked, bitcsp::Relation::Equal, needed)?;
    Ok((model, shift))
}

fn main() -> ExitCode {
    let (nurses, days) = (5, 7);
    let (model, shift) = match model(nurses, days) {
        Ok(m) => m,
        Err(e) => {
            eprintln!("nurses: {e}");
            return ExitCode::FAILURE;
        }
    };
    let SolveResult::Solution(roster) = Solver::new(&model).solve() else {
        println!("no roster");
        return ExitCode::FAILURE;
    };
    for (n, row) in shift.iter().enumerate() {
        let week: String = row
            .iter()
            .map(|&v| match roster.value(v) {
                DAY => 'D',
                NIGHT => 'N',
                _ => '.',
            })
            .collect();
        println!("nurse {n}: {week}");
    }
    let count = Solver::new(&model).count(Some(100_000));
    println!(
        "rosters: {}{}",
        count.count,
        if count.status == bitcsp::CountStatus::Complete {
            ""
        } else {
            "+"
        }
    );
    ExitCode::SUCCESS
}
