//! Simple colouring: the conjugate pairs of one digit, two-coloured.

use super::super::grid::Grid;
use super::super::step::{symbol, Found};
use super::super::technique::Technique;
use super::single_digit::{links, Link};

/// One connected group of conjugate pairs, its cells two-coloured so that the digit is
/// in every cell of one colour and in none of the other.
struct Cluster {
    cells: Vec<usize>,
    colour: Vec<bool>,
    links: Vec<Link>,
}

/// The clusters of digit `d` with at least two links.
fn clusters(grid: &Grid, d: u8) -> Vec<Cluster> {
    let all = links(grid, d, 0..grid.geo.houses.len());
    let mut done = vec![false; all.len()];
    let mut out = Vec::new();
    for start in 0..all.len() {
        if done[start] {
            continue;
        }
        let mut cluster = Cluster {
            cells: vec![all[start].a],
            colour: vec![true],
            links: Vec::new(),
        };
        let mut frontier = 0;
        while frontier < cluster.cells.len() {
            let (cell, colour) = (cluster.cells[frontier], cluster.colour[frontier]);
            frontier += 1;
            for (i, l) in all.iter().enumerate() {
                let other = if l.a == cell {
                    l.b
                } else if l.b == cell {
                    l.a
                } else {
                    continue;
                };
                if !done[i] {
                    done[i] = true;
                    cluster.links.push(*l);
                }
                if !cluster.cells.contains(&other) {
                    cluster.cells.push(other);
                    cluster.colour.push(!colour);
                }
            }
        }
        if cluster.links.len() >= 2 {
            out.push(cluster);
        }
    }
    out
}

/// Colour wrap (two cells of one colour see each other: that colour is false) or colour
/// trap (a cell outside the cluster sees both colours: it is false).
pub fn simple_colouring(grid: &Grid) -> Option<Found> {
    let geo = grid.geo;
    for d in 1..=geo.side as u8 {
        for cluster in clusters(grid, d) {
            let cells = &cluster.cells;
            let wrapped = [true, false].into_iter().find(|&colour| {
                cells.iter().enumerate().any(|(i, &a)| {
                    cluster.colour[i] == colour
                        && cells[i + 1..]
                            .iter()
                            .enumerate()
                            .any(|(j, &b)| cluster.colour[i + 1 + j] == colour && geo.sees(a, b))
                })
            });
            let (eliminations, how): (Vec<(usize, u8)>, String) = match wrapped {
                Some(colour) => (
                    cells
                        .iter()
                        .zip(&cluster.colour)
                        .filter(|&(_, &c)| c == colour)
                        .map(|(&c, _)| (c, d))
                        .collect(),
                    "two cells of one colour see each other".into(),
                ),
                None => (
                    (0..geo.cells())
                        .filter(|&c| grid.has(c, d) && !cells.contains(&c))
                        .filter(|&c| {
                            [true, false].iter().all(|&colour| {
                                cells
                                    .iter()
                                    .zip(&cluster.colour)
                                    .any(|(&o, &k)| k == colour && geo.sees(c, o))
                            })
                        })
                        .map(|c| (c, d))
                        .collect(),
                    "cells seeing both colours".into(),
                ),
            };
            if eliminations.is_empty() {
                continue;
            }
            let mut f = Found::new(
                Technique::SimpleColouring,
                format!("{} coloured over {} cells: {how}", symbol(d), cells.len()),
            );
            f.eliminations = eliminations;
            f.houses = cluster.links.iter().map(|l| l.house).collect();
            f.cells = cells.clone();
            f.pattern = cells.iter().map(|&c| (c, d)).collect();
            return Some(f);
        }
    }
    None
}
