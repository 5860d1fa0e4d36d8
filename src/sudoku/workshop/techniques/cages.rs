//! Killer cages: the combinations of distinct digits that can make a cage's sum.

use super::super::digits::{bit, Digits};
use super::super::grid::Grid;
use super::super::step::Found;
use super::super::technique::Technique;

/// Ways of filling one cage tried before the cage is passed over: a person does not
/// enumerate more.
const BUDGET: usize = 100_000;

/// For each cage, the candidates of its empty cells that no filling uses: a filling puts
/// distinct digits (none already placed in the cage) from the cells' candidates and
/// makes the cage's sum.
pub fn cage_combinations(grid: &Grid) -> Option<Found> {
    let geo = grid.geo;
    for (i, (cells, sum, name)) in geo.cages.iter().enumerate() {
        let empty: Vec<usize> = cells
            .iter()
            .copied()
            .filter(|&c| grid.values[c] == 0)
            .collect();
        if empty.is_empty() {
            continue;
        }
        let placed = cells.iter().fold(0u64, |m, &c| m | bit(grid.values[c]));
        let left = sum
            - cells
                .iter()
                .map(|&c| i64::from(grid.values[c]))
                .sum::<i64>();
        let mut used = vec![0u64; empty.len()];
        let mut tries = 0;
        if !fill(
            grid,
            &empty,
            0,
            placed,
            left,
            &mut Vec::new(),
            &mut used,
            &mut tries,
        ) {
            continue;
        }
        let eliminations: Vec<(usize, u8)> = empty
            .iter()
            .zip(&used)
            .flat_map(|(&c, &u)| Digits(grid.cands[c] & !u).iter().map(move |d| (c, d)))
            .collect();
        if eliminations.is_empty() {
            continue;
        }
        let mut f = Found::new(
            Technique::CageCombinations,
            format!(
                "the digits of {name} ({} cells) that can make {sum}",
                cells.len()
            ),
        );
        f.eliminations = eliminations;
        f.houses = vec![geo.houses.len() + i];
        f.pattern = grid.marks(&empty, u64::MAX);
        f.cells = cells.clone();
        return Some(f);
    }
    None
}

/// Tries every filling of `empty[at..]` with distinct digits outside `taken` summing to
/// `left`, marking in `used` the digits of the fillings found; false when the budget ran
/// out (nothing is concluded then).
#[allow(clippy::too_many_arguments)]
fn fill(
    grid: &Grid,
    empty: &[usize],
    at: usize,
    taken: u64,
    left: i64,
    chosen: &mut Vec<u8>,
    used: &mut [u64],
    tries: &mut usize,
) -> bool {
    *tries += 1;
    if *tries > BUDGET {
        return false;
    }
    if at == empty.len() {
        if left == 0 {
            for (u, &d) in used.iter_mut().zip(chosen.iter()) {
                *u |= bit(d);
            }
        }
        return true;
    }
    for d in Digits(grid.cands[empty[at]] & !taken).iter() {
        if i64::from(d) > left {
            break;
        }
        chosen.push(d);
        let ok = fill(
            grid,
            empty,
            at + 1,
            taken | bit(d),
            left - i64::from(d),
            chosen,
            used,
            tries,
        );
        chosen.pop();
        if !ok {
            return false;
        }
    }
    true
}
