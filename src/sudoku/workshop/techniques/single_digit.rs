//! Skyscraper and 2-string kite: two conjugate pairs of one digit, joined.

use super::super::grid::Grid;
use super::super::step::{symbol, Found};
use super::super::technique::Technique;

/// A house holding a digit in exactly two cells: one of them has it.
#[derive(Clone, Copy, Debug)]
pub struct Link {
    pub house: usize,
    pub a: usize,
    pub b: usize,
}

/// The conjugate pairs of digit `d` in houses `range` (rows `0..n`, columns `n..2n`,
/// boxes `2n..3n`).
pub fn links(grid: &Grid, d: u8, range: std::ops::Range<usize>) -> Vec<Link> {
    range
        .filter_map(|h| {
            let mut cells = grid.cells_with(h, d);
            match (cells.next(), cells.next(), cells.next()) {
                (Some(a), Some(b), None) => Some(Link { house: h, a, b }),
                _ => None,
            }
        })
        .collect()
}

/// Two conjugate pairs `p` and `q` whose ends `p.a` and `q.a` share `joint`: one of the
/// far ends `p.b`, `q.b` has the digit, so cells seeing both lose it.
fn joined(
    grid: &Grid,
    d: u8,
    technique: Technique,
    p: Link,
    q: Link,
    joint: usize,
) -> Option<Found> {
    let geo = grid.geo;
    let ends = [p.a, p.b, q.a, q.b];
    let mut distinct = ends;
    distinct.sort_unstable();
    if distinct.windows(2).any(|w| w[0] == w[1]) {
        return None;
    }
    let eliminations: Vec<(usize, u8)> = geo.peers[p.b]
        .iter()
        .copied()
        .filter(|&c| geo.sees(c, q.b) && !ends.contains(&c) && grid.has(c, d))
        .map(|c| (c, d))
        .collect();
    if eliminations.is_empty() {
        return None;
    }
    let mut f = Found::new(
        technique,
        format!(
            "{} in {} ({} {}) and {} ({} {}), joined in {}",
            symbol(d),
            geo.house(p.house),
            geo.cell(p.a),
            geo.cell(p.b),
            geo.house(q.house),
            geo.cell(q.a),
            geo.cell(q.b),
            geo.house(joint)
        ),
    );
    f.eliminations = eliminations;
    f.houses = vec![p.house, q.house, joint];
    f.cells = ends.to_vec();
    f.pattern = ends.iter().map(|&c| (c, d)).collect();
    Some(f)
}

/// Both ends of every orientation of the pairs `p` and `q`.
fn orientations(p: Link, q: Link) -> [(Link, Link); 4] {
    let flip = |l: Link| Link {
        house: l.house,
        a: l.b,
        b: l.a,
    };
    [(p, q), (flip(p), q), (p, flip(q)), (flip(p), flip(q))]
}

/// Two conjugate pairs in parallel lines with one end of each on a common cross line.
pub fn skyscraper(grid: &Grid) -> Option<Found> {
    let n = grid.geo.side;
    for d in 1..=n as u8 {
        for (lines, cross) in [(0..n, 1), (n..2 * n, 0)] {
            let ls = links(grid, d, lines);
            for (i, &p) in ls.iter().enumerate() {
                for &q in &ls[i + 1..] {
                    for (p, q) in orientations(p, q) {
                        let joint = grid.geo.houses_of[p.a][cross];
                        if joint != grid.geo.houses_of[q.a][cross]
                            || joint == grid.geo.houses_of[p.b][cross]
                        {
                            continue;
                        }
                        let found = joined(grid, d, Technique::Skyscraper, p, q, joint);
                        if found.is_some() {
                            return found;
                        }
                    }
                }
            }
        }
    }
    None
}

/// A conjugate pair in a row and one in a column with one end of each in a common box.
pub fn two_string_kite(grid: &Grid) -> Option<Found> {
    let n = grid.geo.side;
    for d in 1..=n as u8 {
        let rows = links(grid, d, 0..n);
        let cols = links(grid, d, n..2 * n);
        for &p in &rows {
            for &q in &cols {
                for (p, q) in orientations(p, q) {
                    let joint = grid.geo.houses_of[p.a][2];
                    if joint != grid.geo.houses_of[q.a][2]
                        || joint == grid.geo.houses_of[p.b][2]
                        || joint == grid.geo.houses_of[q.b][2]
                    {
                        continue;
                    }
                    let found = joined(grid, d, Technique::TwoStringKite, p, q, joint);
                    if found.is_some() {
                        return found;
                    }
                }
            }
        }
    }
    None
}
