//! XY-Wing, XYZ-Wing and W-Wing: small patterns of bivalue cells.

use super::super::digits::{bit, Digits};
use super::super::grid::Grid;
use super::super::step::{symbol, Found};
use super::super::technique::Technique;
use super::single_digit::links;

/// Cells holding `d` that see every cell of `cells`, none of them in `cells`.
fn seeing_all(grid: &Grid, cells: &[usize], d: u8) -> Vec<(usize, u8)> {
    let geo = grid.geo;
    geo.peers[cells[0]]
        .iter()
        .copied()
        .filter(|&c| grid.has(c, d) && !cells.contains(&c))
        .filter(|&c| cells.iter().all(|&o| geo.sees(c, o)))
        .map(|c| (c, d))
        .collect()
}

/// A pivot and two pincers seeing it: `{x,y}` (or `{x,y,z}` for XYZ) with `{x,z}` and
/// `{y,z}`. Whatever the pivot holds, one pincer holds `z`.
fn wing(grid: &Grid, technique: Technique) -> Option<Found> {
    let geo = grid.geo;
    let pivot_size = if technique == Technique::XyzWing {
        3
    } else {
        2
    };
    for pivot in grid.empty_cells().filter(|&c| grid.count(c) == pivot_size) {
        let pincers: Vec<usize> = geo.peers[pivot]
            .iter()
            .copied()
            .filter(|&c| grid.count(c) == 2)
            .collect();
        for (i, &a) in pincers.iter().enumerate() {
            for &b in &pincers[i + 1..] {
                let (pa, pb, pp) = (grid.cands[a], grid.cands[b], grid.cands[pivot]);
                let z = pa & pb;
                if z.count_ones() != 1 || pa == pb {
                    continue;
                }
                let fits = if pivot_size == 2 {
                    z & pp == 0 && (pa | pb) & !z == pp
                } else {
                    pa | pb == pp
                };
                if !fits {
                    continue;
                }
                let d = z.trailing_zeros() as u8 + 1;
                let seen: Vec<usize> = if pivot_size == 2 {
                    vec![a, b]
                } else {
                    vec![a, b, pivot]
                };
                let mut eliminations = seeing_all(grid, &seen, d);
                eliminations.retain(|&(c, _)| c != pivot);
                if eliminations.is_empty() {
                    continue;
                }
                let mut f = Found::new(
                    technique,
                    format!(
                        "pivot {} {{{}}}, pincers {} {{{}}} and {} {{{}}}: one of the pincers is {}",
                        geo.cell(pivot),
                        Digits(pp),
                        geo.cell(a),
                        Digits(pa),
                        geo.cell(b),
                        Digits(pb),
                        symbol(d)
                    ),
                );
                f.eliminations = eliminations;
                f.cells = vec![pivot, a, b];
                f.pattern = grid.marks(&f.cells, u64::MAX);
                return Some(f);
            }
        }
    }
    None
}

/// The XY-Wing.
pub fn xy_wing(grid: &Grid) -> Option<Found> {
    wing(grid, Technique::XyWing)
}

/// The XYZ-Wing.
pub fn xyz_wing(grid: &Grid) -> Option<Found> {
    wing(grid, Technique::XyzWing)
}

/// Two cells `{x,y}` that do not see each other, joined by a conjugate pair of `x` with
/// one end seeing each: one of the two cells is `y`.
pub fn w_wing(grid: &Grid) -> Option<Found> {
    let geo = grid.geo;
    let bivalue: Vec<usize> = grid.empty_cells().filter(|&c| grid.count(c) == 2).collect();
    for (i, &a) in bivalue.iter().enumerate() {
        for &b in &bivalue[i + 1..] {
            if grid.cands[a] != grid.cands[b] || geo.sees(a, b) {
                continue;
            }
            for x in Digits(grid.cands[a]).iter() {
                let y = Digits(grid.cands[a] & !bit(x)).first()?;
                let eliminations = seeing_all(grid, &[a, b], y);
                if eliminations.is_empty() {
                    continue;
                }
                for link in links(grid, x, 0..geo.houses.len()) {
                    let ends = [(link.a, link.b), (link.b, link.a)];
                    let Some(&(ea, eb)) = ends.iter().find(|&&(ea, eb)| {
                        geo.sees(ea, a)
                            && geo.sees(eb, b)
                            && ![ea, eb].contains(&a)
                            && ![ea, eb].contains(&b)
                    }) else {
                        continue;
                    };
                    let mut f = Found::new(
                        Technique::WWing,
                        format!(
                            "{} and {} {{{}}} joined by {} in {} ({} {}): one of them is {}",
                            geo.cell(a),
                            geo.cell(b),
                            Digits(grid.cands[a]),
                            symbol(x),
                            geo.house(link.house),
                            geo.cell(ea),
                            geo.cell(eb),
                            symbol(y)
                        ),
                    );
                    f.eliminations = eliminations;
                    f.houses = vec![link.house];
                    f.cells = vec![a, b, ea, eb];
                    f.pattern = grid.marks(&[a, b], u64::MAX);
                    f.pattern.extend([(ea, x), (eb, x)]);
                    return Some(f);
                }
            }
        }
    }
    None
}
