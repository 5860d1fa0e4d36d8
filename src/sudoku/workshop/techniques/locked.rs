//! Locked candidates: a digit confined to the intersection of a box and a line.

use super::super::grid::Grid;
use super::super::step::{symbol, Found};
use super::super::technique::Technique;

/// Pointing (from a box or region onto another house) or claiming (from any other house):
/// a digit whose places in one house all lie in one other house is removed from the rest
/// of that other house.
fn locked(grid: &Grid, technique: Technique) -> Option<Found> {
    let geo = grid.geo;
    let n = geo.side;
    let pointing = technique == Technique::Pointing;
    for h in 0..geo.houses.len() {
        if geo.is_block(h) != pointing {
            continue;
        }
        for d in 1..=n as u8 {
            let cells: Vec<usize> = grid.cells_with(h, d).collect();
            if cells.len() < 2 {
                continue;
            }
            // Another house holding all of them.
            for &target in &geo.all_houses_of[cells[0]] {
                if target == h
                    || cells
                        .iter()
                        .any(|&c| !geo.all_houses_of[c].contains(&target))
                {
                    continue;
                }
                let eliminations: Vec<(usize, u8)> = grid
                    .cells_with(target, d)
                    .filter(|c| !cells.contains(c))
                    .map(|c| (c, d))
                    .collect();
                if eliminations.is_empty() {
                    continue;
                }
                let mut f = Found::new(
                    technique,
                    format!(
                        "{} in {} is on {}",
                        symbol(d),
                        geo.house(h),
                        geo.house(target)
                    ),
                );
                f.eliminations = eliminations;
                f.houses = vec![h, target];
                f.pattern = cells.iter().map(|&c| (c, d)).collect();
                f.cells = cells;
                return Some(f);
            }
        }
    }
    None
}

/// A digit of a box confined to one row or column.
pub fn pointing(grid: &Grid) -> Option<Found> {
    locked(grid, Technique::Pointing)
}

/// A digit of a row or column confined to one box.
pub fn claiming(grid: &Grid) -> Option<Found> {
    locked(grid, Technique::Claiming)
}
