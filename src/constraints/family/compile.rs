//! Building a family from its groups, once per compiled model: the cells' groups and
//! peers, the intersecting pairs, the removal tables and the value-major view.

use super::segments::Segments;
use super::view::{ValueView, MAX_VIEW_CELLS};
use super::{Family, FamilyGroup, LANES, MAX_REMOVALS, NO_RUN, SMALL};

impl Family {
    /// The family of `groups`, whose variables' words sit at `word_of(var)`.
    /// `width` bounds the bits of the variables' domains (bit `width - 1` is the highest
    /// that can be set).
    /// The family keeps its value-major view, if any, in the store from index `aux_start`
    /// on (see [`Family::aux_words`]).
    pub(crate) fn new(
        groups: &[FamilyGroup],
        width: u32,
        word_of: impl Fn(usize) -> u32,
        aux_start: u32,
    ) -> Self {
        let mut vars: Vec<usize> = groups.iter().flat_map(|g| g.vars.iter().copied()).collect();
        vars.sort_unstable();
        vars.dedup();
        let local = |v: usize| vars.binary_search(&v).unwrap_or(0) as u32;
        let mut group_start = vec![0];
        let mut group_cells = Vec::new();
        let mut group_shifts = Vec::new();
        let mut by_cell: Vec<Vec<(u32, u32)>> = vec![Vec::new(); vars.len()];
        for (g, group) in groups.iter().enumerate() {
            for (&v, &shift) in group.vars.iter().zip(&group.shifts) {
                group_cells.push(local(v));
                group_shifts.push(shift);
                by_cell[local(v) as usize].push((g as u32, shift));
            }
            group_start.push(group_cells.len() as u32);
        }
        let mut cell_start = vec![0];
        let mut cell_groups = Vec::new();
        let mut peer_start = vec![0];
        let mut peers = Vec::new();
        let mut peer_pattern: Vec<u128> = Vec::new();
        for (cell, memberships) in by_cell.iter().enumerate() {
            cell_groups.extend(memberships.iter().map(|&(g, _)| g));
            cell_start.push(cell_groups.len() as u32);
            let mut mine: Vec<(u32, i32)> = memberships
                .iter()
                .flat_map(|&(g, own)| {
                    let group = &groups[g as usize];
                    group
                        .vars
                        .iter()
                        .zip(&group.shifts)
                        .map(move |(&v, &theirs)| (local(v), own as i32 - theirs as i32))
                })
                .filter(|&(c, _)| c as usize != cell)
                .collect();
            mine.sort_unstable();
            let row_start = peers.len();
            for (c, d) in mine {
                // Shifts lie in 0..64, so 64 + d lies in 1..128.
                let bit = 1u128 << (64 + d);
                if peers.len() > row_start && peers.last() == Some(&c) {
                    if let Some(pattern) = peer_pattern.last_mut() {
                        *pattern |= bit;
                    }
                } else {
                    peers.push(c);
                    peer_pattern.push(bit);
                }
            }
            peer_start.push(peers.len() as u32);
        }
        let mut pairs = Vec::new();
        let mut pair_cells = Vec::new();
        for (a, ga) in groups.iter().enumerate() {
            for gb in groups.iter().skip(a + 1) {
                if !ga.aligned() || !gb.aligned() {
                    continue;
                }
                let (ga, gb) = (&ga.vars, &gb.vars);
                let shared: Vec<u32> = ga
                    .iter()
                    .filter(|v| gb.contains(v))
                    .map(|&v| local(v))
                    .collect();
                if shared.len() < 2 {
                    continue;
                }
                let begin = pair_cells.len() as u32;
                pair_cells.extend_from_slice(&shared);
                let only_a = pair_cells.len() as u32;
                pair_cells.extend(ga.iter().filter(|v| !gb.contains(v)).map(|&v| local(v)));
                let only_b = pair_cells.len() as u32;
                pair_cells.extend(gb.iter().filter(|v| !ga.contains(v)).map(|&v| local(v)));
                pairs.push([begin, only_a, only_b, pair_cells.len() as u32]);
            }
        }
        let tight: Vec<bool> = groups.iter().map(|g| g.tight).collect();
        let plain: Vec<bool> = groups.iter().map(FamilyGroup::aligned).collect();
        let group_run: Vec<u32> = (0..groups.len())
            .map(|g| {
                let cells = &group_cells[group_start[g] as usize..group_start[g + 1] as usize];
                let consecutive = cells.windows(2).all(|w| w[1] == w[0] + 1);
                match cells.first() {
                    Some(&first) if consecutive => first,
                    _ => NO_RUN,
                }
            })
            .collect();
        let pair_words = pairs.len().div_ceil(64);
        let mut cell_pairs = vec![0u64; vars.len() * pair_words];
        for (p, &[_, only_a, _, end]) in pairs.iter().enumerate() {
            for &c in &pair_cells[only_a as usize..end as usize] {
                cell_pairs[c as usize * pair_words + p / 64] |= 1 << (p % 64);
            }
        }
        let cell_marks = if groups.len() <= 64 && pair_words <= 1 {
            by_cell
                .iter()
                .enumerate()
                .map(|(c, m)| {
                    let groups = m
                        .iter()
                        .filter(|&&(g, _)| tight[g as usize])
                        .fold(0u64, |acc, &(g, _)| acc | 1 << g);
                    [groups, cell_pairs.get(c).copied().unwrap_or(0)]
                })
                .collect()
        } else {
            Vec::new()
        };
        let same_marks = match cell_marks.split_first() {
            Some((first, rest)) if rest.iter().all(|m| m == first) => Some(*first),
            _ => None,
        };
        let all_marks = (!cell_marks.is_empty()).then(|| {
            cell_marks
                .iter()
                .fold([0, 0], |[g, p], &[mg, mp]| [g | mg, p | mp])
        });
        let words: Vec<u32> = vars.iter().map(|&v| word_of(v)).collect();
        let consecutive = words.windows(2).all(|w| w[1] == w[0] + 1);
        let aligned = groups.iter().all(FamilyGroup::aligned);
        let n = vars.len();
        // Every cell a peer of every other (N-Queens: one group holds them all), and the
        // removals laid out over all cells fit the table's budget.
        let row = n.next_multiple_of(LANES);
        let dense = !aligned
            && row <= 64
            && (0..n).all(|c| (peer_start[c + 1] - peer_start[c]) as usize + 1 == n)
            && n * row * width as usize <= MAX_REMOVALS;
        let row = if dense { row } else { n };
        let removals = if aligned {
            Vec::new()
        } else if dense {
            // Laid out over all cells, the cell itself included (nothing to remove), so
            // that a fixed cell's row lines up with the cells' masks.
            let pattern = |cell: usize, other: usize| {
                let entry = other - usize::from(other > cell);
                peer_pattern[peer_start[cell] as usize + entry]
            };
            // Rows padded with zeros up to `row`: removing nothing from the padding.
            (0..width as usize)
                .flat_map(|bit| {
                    (0..n).flat_map(move |cell| {
                        (0..row).map(move |other| {
                            if other == cell || other >= n {
                                0
                            } else {
                                ((pattern(cell, other) << bit) >> 64) as u64
                            }
                        })
                    })
                })
                .collect()
        } else if peer_pattern.len() * width as usize <= MAX_REMOVALS {
            (0..width)
                .flat_map(|bit| peer_pattern.iter().map(move |&p| ((p << bit) >> 64) as u64))
                .collect()
        } else {
            Vec::new()
        };
        let view = (aligned && vars.len() <= MAX_VIEW_CELLS && width <= 64).then(|| {
            let cell_words = vars.len().div_ceil(64);
            let mut peer_bits = vec![0u64; vars.len() * cell_words];
            for cell in 0..vars.len() {
                let range = peer_start[cell] as usize..peer_start[cell + 1] as usize;
                for &p in &peers[range] {
                    peer_bits[cell * cell_words + p as usize / 64] |= 1 << (p % 64);
                }
            }
            let mut group_bits = vec![0u64; groups.len() * cell_words];
            for (g, group) in groups.iter().enumerate() {
                for &v in &group.vars {
                    let c = local(v) as usize;
                    group_bits[g * cell_words + c / 64] |= 1 << (c % 64);
                }
            }
            ValueView {
                cell_words,
                values: width as usize,
                start: aux_start,
                peer_bits,
                group_bits,
            }
        });
        let box_lines: Vec<[u8; 15]> = pairs
            .iter()
            .map(|&[begin, only_a, only_b, end]| {
                let shape = (only_a - begin, only_b - only_a, end - only_b);
                // Cell indices below 256 (the family has at most SMALL cells).
                (shape == (3, 6, 6))
                    .then(|| std::array::from_fn(|i| pair_cells[begin as usize + i] as u8))
            })
            .collect::<Option<Vec<_>>>()
            .filter(|_| n <= SMALL)
            .unwrap_or_default();
        Family {
            dense,
            row,
            view,
            removals,
            first_word: words.first().copied().filter(|_| consecutive),
            words,
            aligned,
            cell_marks,
            same_marks,
            all_marks,
            cell_pairs,
            pair_words,
            tight,
            scans: (0..groups.len())
                .map(|g| {
                    [
                        group_start[g],
                        group_start[g + 1],
                        group_run[g],
                        u32::from(plain[g]),
                    ]
                })
                .collect(),
            vars,
            group_start,
            group_cells,
            group_shifts,
            cell_start,
            cell_groups,
            peer_start,
            peers,
            peer_pattern,
            segments: Segments::new(&box_lines),
            box_lines,
            pairs,
            pair_cells,
        }
    }
}
