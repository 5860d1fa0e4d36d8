//! Naked and hidden pairs, triples and quads.

use super::super::digits::{bit, Digits};
use super::super::grid::Grid;
use super::super::step::Found;
use super::super::technique::Technique;
use super::combinations::first_combination;

/// k cells of a house whose candidates together are k digits: those digits leave the
/// house's other cells.
pub fn naked(grid: &Grid, k: usize, technique: Technique) -> Option<Found> {
    let geo = grid.geo;
    for (h, cells) in geo.houses.iter().enumerate() {
        let open: Vec<usize> = cells
            .iter()
            .copied()
            .filter(|&c| grid.values[c] == 0 && (2..=k as u32).contains(&grid.count(c)))
            .collect();
        let found = first_combination(open.len(), k, |chosen| {
            let digits = chosen.iter().fold(0, |m, &i| m | grid.cands[open[i]]);
            if digits.count_ones() as usize != k {
                return None;
            }
            let members: Vec<usize> = chosen.iter().map(|&i| open[i]).collect();
            let others: Vec<usize> = cells
                .iter()
                .copied()
                .filter(|c| !members.contains(c))
                .collect();
            let eliminations = grid.marks(&others, digits);
            subset(grid, technique, h, members, digits, "in", eliminations)
        });
        if found.is_some() {
            return found;
        }
    }
    None
}

/// k digits of a house confined to the same k cells: those cells lose their other
/// candidates.
pub fn hidden(grid: &Grid, k: usize, technique: Technique) -> Option<Found> {
    let geo = grid.geo;
    let n = geo.side;
    for (h, cells) in geo.houses.iter().enumerate() {
        let digits: Vec<u8> = (1..=n as u8)
            .filter(|&d| (2..=k as u32).contains(&grid.places(h, d).count_ones()))
            .collect();
        let found = first_combination(digits.len(), k, |chosen| {
            let places = chosen
                .iter()
                .fold(0u64, |m, &i| m | grid.places(h, digits[i]));
            if places.count_ones() as usize != k {
                return None;
            }
            let set = chosen.iter().fold(0u64, |m, &i| m | bit(digits[i]));
            let members: Vec<usize> = (0..cells.len())
                .filter(|i| places >> i & 1 == 1)
                .map(|i| cells[i])
                .collect();
            let eliminations = grid.marks(&members, !set);
            subset(grid, technique, h, members, set, "only in", eliminations)
        });
        if found.is_some() {
            return found;
        }
    }
    None
}

/// The step of a subset: the digits `set` `relation` (`in`, `only in`) the cells `members` of
/// house `h`, removing `eliminations` (none: no step). The pattern is the members'
/// candidates among `set` (for a naked subset, all of them).
fn subset(
    grid: &Grid,
    technique: Technique,
    h: usize,
    members: Vec<usize>,
    set: u64,
    relation: &str,
    eliminations: Vec<(usize, u8)>,
) -> Option<Found> {
    if eliminations.is_empty() {
        return None;
    }
    let geo = grid.geo;
    let names: Vec<String> = members.iter().map(|&c| geo.cell(c).to_string()).collect();
    let mut f = Found::new(
        technique,
        format!(
            "{{{}}} {relation} {} of {}",
            Digits(set),
            names.join(" "),
            geo.house(h)
        ),
    );
    f.eliminations = eliminations;
    f.houses.push(h);
    f.pattern = grid.marks(&members, set);
    f.cells = members;
    Some(f)
}
