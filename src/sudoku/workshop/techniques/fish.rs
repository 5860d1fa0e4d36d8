//! Basic fish: X-Wing, Swordfish, Jellyfish.

use super::super::grid::Grid;
use super::super::step::{symbol, Found};
use super::super::technique::Technique;
use super::combinations::first_combination;

/// A digit whose places on k rows (columns) lie in k columns (rows) alone: in those
/// columns (rows) it must sit on the k base lines, and leaves their other cells.
pub fn fish(grid: &Grid, k: usize, technique: Technique) -> Option<Found> {
    let geo = grid.geo;
    let n = geo.side;
    for d in 1..=n as u8 {
        for (base_start, cover_start) in [(0, n), (n, 0)] {
            let lines: Vec<(usize, u64)> = (base_start..base_start + n)
                .map(|h| (h, grid.places(h, d)))
                .filter(|&(_, p)| (2..=k as u32).contains(&p.count_ones()))
                .collect();
            let found = first_combination(lines.len(), k, |chosen| {
                let cover = chosen.iter().fold(0u64, |m, &i| m | lines[i].1);
                if cover.count_ones() as usize != k {
                    return None;
                }
                let base: Vec<usize> = chosen.iter().map(|&i| lines[i].0).collect();
                let covers: Vec<usize> = (0..n)
                    .filter(|i| cover >> i & 1 == 1)
                    .map(|i| cover_start + i)
                    .collect();
                let in_base = |c: usize| base.iter().any(|&b| geo.houses[b].contains(&c));
                let eliminations: Vec<(usize, u8)> = covers
                    .iter()
                    .flat_map(|&h| grid.cells_with(h, d))
                    .filter(|&c| !in_base(c))
                    .map(|c| (c, d))
                    .collect();
                if eliminations.is_empty() {
                    return None;
                }
                let names = |hs: &[usize]| -> String {
                    hs.iter()
                        .map(|&h| geo.house(h).to_string())
                        .collect::<Vec<_>>()
                        .join(", ")
                };
                let mut f = Found::new(
                    technique,
                    format!(
                        "{} in {} lies in {}",
                        symbol(d),
                        names(&base),
                        names(&covers)
                    ),
                );
                f.eliminations = eliminations;
                f.cells = base.iter().flat_map(|&h| grid.cells_with(h, d)).collect();
                f.pattern = f.cells.iter().map(|&c| (c, d)).collect();
                f.houses = base.iter().chain(&covers).copied().collect();
                Some(f)
            });
            if found.is_some() {
                return found;
            }
        }
    }
    None
}
