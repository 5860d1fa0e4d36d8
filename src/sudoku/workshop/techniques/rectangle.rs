//! Unique rectangle type 1.

use super::super::digits::Digits;
use super::super::grid::Grid;
use super::super::step::Found;
use super::super::technique::Technique;

/// Four empty cells on two rows, two columns and two boxes, three of them holding the
/// same two candidates alone: if the fourth held one of the two as well, the two digits
/// could be swapped around the rectangle and the puzzle would have two solutions. So the
/// fourth loses both. Only sound for a puzzle known to have one solution.
pub fn unique_rectangle(grid: &Grid) -> Option<Found> {
    let geo = grid.geo;
    if !geo.plain {
        // A variant's extra rules may forbid the swap the argument rests on.
        return None;
    }
    let n = geo.side;
    for r1 in 0..n {
        for r2 in r1 + 1..n {
            for c1 in 0..n {
                for c2 in c1 + 1..n {
                    let corners = [r1 * n + c1, r1 * n + c2, r2 * n + c1, r2 * n + c2];
                    let mut boxes: Vec<usize> =
                        corners.iter().map(|&c| geo.houses_of[c][2]).collect();
                    boxes.sort_unstable();
                    boxes.dedup();
                    if boxes.len() != 2 || corners.iter().any(|&c| grid.values[c] != 0) {
                        continue;
                    }
                    let pairs: Vec<usize> = corners
                        .iter()
                        .copied()
                        .filter(|&c| grid.count(c) == 2)
                        .collect();
                    if pairs.len() != 3 {
                        continue;
                    }
                    let pair = grid.cands[pairs[0]];
                    let Some(&fourth) = corners.iter().find(|c| !pairs.contains(c)) else {
                        continue;
                    };
                    if pairs.iter().any(|&c| grid.cands[c] != pair)
                        || grid.cands[fourth] & pair != pair
                    {
                        continue;
                    }
                    let mut f = Found::new(
                        Technique::UniqueRectangle1,
                        format!(
                            "{} {} {} hold {{{}}} alone, and {} with them would make a second solution",
                            geo.cell(pairs[0]),
                            geo.cell(pairs[1]),
                            geo.cell(pairs[2]),
                            Digits(pair),
                            geo.cell(fourth)
                        ),
                    );
                    f.eliminations = Digits(pair).iter().map(|d| (fourth, d)).collect();
                    f.cells = corners.to_vec();
                    f.pattern = corners
                        .iter()
                        .flat_map(|&c| Digits(pair).iter().map(move |d| (c, d)))
                        .collect();
                    return Some(f);
                }
            }
        }
    }
    None
}
