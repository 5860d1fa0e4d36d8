//! Full house, naked single, hidden single: the steps that place a digit.

use super::super::grid::Grid;
use super::super::step::{symbol, Found};
use super::super::technique::Technique;

/// The only empty cell of a house.
pub fn full_house(grid: &Grid) -> Option<Found> {
    let geo = grid.geo;
    for (h, cells) in geo.houses.iter().enumerate() {
        let mut empty = cells.iter().copied().filter(|&c| grid.values[c] == 0);
        let (Some(cell), None) = (empty.next(), empty.next()) else {
            continue;
        };
        if grid.count(cell) != 1 {
            continue;
        }
        let d = grid.cands[cell].trailing_zeros() as u8 + 1;
        let summary = format!(
            "{} is the last empty cell of {}",
            geo.cell(cell),
            geo.house(h)
        );
        return Some(placement(Technique::FullHouse, summary, cell, d, Some(h)));
    }
    None
}

/// A cell with one candidate.
pub fn naked_single(grid: &Grid) -> Option<Found> {
    let cell = grid.empty_cells().find(|&c| grid.count(c) == 1)?;
    let d = grid.cands[cell].trailing_zeros() as u8 + 1;
    let summary = format!("{} can only be {}", grid.geo.cell(cell), symbol(d));
    Some(placement(Technique::NakedSingle, summary, cell, d, None))
}

/// A digit with one place in a house: boxes first, then rows, then columns, as a person
/// scans.
pub fn hidden_single(grid: &Grid) -> Option<Found> {
    let geo = grid.geo;
    let n = geo.side;
    let order = (2 * n..3 * n)
        .chain(0..2 * n)
        .chain(3 * n..geo.houses.len());
    for h in order {
        for d in 1..=n as u8 {
            let places = grid.places(h, d);
            if places.count_ones() != 1 {
                continue;
            }
            let cell = geo.houses[h][places.trailing_zeros() as usize];
            let summary = format!("{} in {}", symbol(d), geo.house(h));
            return Some(placement(
                Technique::HiddenSingle,
                summary,
                cell,
                d,
                Some(h),
            ));
        }
    }
    None
}

/// A step placing `d` in `cell`, resting on that candidate (and on `house`, whose other
/// cells cannot take `d`).
fn placement(
    technique: Technique,
    summary: String,
    cell: usize,
    d: u8,
    house: Option<usize>,
) -> Found {
    let mut f = Found::new(technique, summary);
    f.placements.push((cell, d));
    f.houses.extend(house);
    f.cells.push(cell);
    f.pattern.push((cell, d));
    f
}
