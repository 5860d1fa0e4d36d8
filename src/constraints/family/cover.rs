//! Intersecting pairs whose outside parts are exact unions of other pairs' intersections
//! ("segments"), for families without 9×9 box-line records: Sudoku boards of any box
//! shape, where a box-line pair's outside parts are the box's and the line's other
//! segments. A locked-values sweep over many pairs then forms each segment's union once
//! and a pair's three unions from a few segment unions, instead of loading every cell of
//! both groups for every pair.

use super::PairParts;

/// The pairs' parts as segments (see [`Family::cover`](super::Family::cover)).
#[derive(Clone, Debug, Default)]
pub(super) struct SegmentCover {
    /// Each segment's cells, compressed rows.
    segment_start: Vec<u32>,
    segment_cells: Vec<u32>,
    /// Each pair's segments (compressed rows): its intersection, then A's, then B's,
    /// with `b_from[p]` where B's begin.
    pair_start: Vec<u32>,
    pair_segments: Vec<u32>,
    b_from: Vec<u32>,
}

impl SegmentCover {
    /// The cover of `pairs` (bounds into `pair_cells`: shared, only A, only B, end) over
    /// `n` cells, or `None` when some pair's outside part is not an exact union of
    /// intersections.
    pub(super) fn new(pairs: &[PairParts], pair_cells: &[u32], n: usize) -> Option<Self> {
        let sorted = |cells: &[u32]| {
            let mut cells = cells.to_vec();
            cells.sort_unstable();
            cells
        };
        let part = |from: u32, to: u32| sorted(&pair_cells[from as usize..to as usize]);
        let mut segments: Vec<Vec<u32>> = pairs.iter().map(|p| part(p.begin, p.only_a)).collect();
        segments.sort_unstable();
        segments.dedup();
        let mut of_cell: Vec<Vec<u32>> = vec![Vec::new(); n];
        for (s, cells) in segments.iter().enumerate() {
            for &c in cells {
                of_cell[c as usize].push(s as u32);
            }
        }
        // Scratch bitsets over the cells, cleared after each use: the side's cells, and the
        // cells covered so far.
        let words = n.div_ceil(64);
        let mut side_bits = vec![0u64; words];
        let mut covered_bits = vec![0u64; words];
        let mut seen = vec![false; segments.len()];
        let has = |bits: &[u64], c: u32| bits[c as usize / 64] >> (c % 64) & 1 == 1;
        // The segments that make up `side` exactly (each cell in exactly one of them).
        let mut cover = |side: &[u32]| -> Option<Vec<u32>> {
            for &c in side {
                side_bits[c as usize / 64] |= 1 << (c % 64);
            }
            let mut inside = Vec::new();
            let mut exact = true;
            for &c in side {
                for &s in &of_cell[c as usize] {
                    if seen[s as usize] {
                        continue;
                    }
                    seen[s as usize] = true;
                    let cells = &segments[s as usize];
                    if !cells.iter().all(|&d| has(&side_bits, d)) {
                        continue;
                    }
                    inside.push(s);
                    for &d in cells {
                        exact &= !has(&covered_bits, d);
                        covered_bits[d as usize / 64] |= 1 << (d % 64);
                    }
                }
            }
            let all_covered = side.iter().all(|&c| has(&covered_bits, c));
            for &c in side {
                side_bits[c as usize / 64] = 0;
                covered_bits[c as usize / 64] = 0;
                for &s in &of_cell[c as usize] {
                    seen[s as usize] = false;
                }
            }
            inside.sort_unstable();
            (exact && all_covered).then_some(inside)
        };
        let mut out = SegmentCover {
            segment_start: vec![0],
            pair_start: vec![0],
            ..SegmentCover::default()
        };
        for cells in &segments {
            out.segment_cells.extend_from_slice(cells);
            out.segment_start.push(out.segment_cells.len() as u32);
        }
        for &PairParts {
            begin,
            only_a,
            only_b,
            end,
        } in pairs
        {
            let shared = segments.binary_search(&part(begin, only_a)).ok()? as u32;
            let a = cover(&part(only_a, only_b))?;
            let b = cover(&part(only_b, end))?;
            out.pair_segments.push(shared);
            out.pair_segments.extend_from_slice(&a);
            out.b_from.push(out.pair_segments.len() as u32);
            out.pair_segments.extend_from_slice(&b);
            out.pair_start.push(out.pair_segments.len() as u32);
        }
        (!pairs.is_empty()).then_some(out)
    }

    /// How many segments there are (the words a sweep's unions take).
    pub(super) fn segments(&self) -> usize {
        self.segment_start.len() - 1
    }

    /// How many cells the segments hold together (the loads of forming every union).
    pub(super) fn cells(&self) -> usize {
        self.segment_cells.len()
    }

    /// Writes each segment's union of `masks` into `unions`.
    #[inline]
    pub(super) fn form_unions(&self, masks: &[u64], unions: &mut [u64]) {
        for (union, bounds) in unions.iter_mut().zip(self.segment_start.windows(2)) {
            let cells = &self.segment_cells[bounds[0] as usize..bounds[1] as usize];
            *union = cells.iter().fold(0, |acc, &c| acc | masks[c as usize]);
        }
    }

    /// Pair `p`'s three unions (shared, only A, only B) from the segments' `unions`.
    #[inline]
    pub(super) fn pair_unions(&self, p: usize, unions: &[u64]) -> [u64; 3] {
        let (from, b, to) = (
            self.pair_start[p] as usize,
            self.b_from[p] as usize,
            self.pair_start[p + 1] as usize,
        );
        let or = |segments: &[u32]| segments.iter().fold(0, |acc, &s| acc | unions[s as usize]);
        let shared = unions[self.pair_segments[from] as usize];
        [
            shared,
            or(&self.pair_segments[from + 1..b]),
            or(&self.pair_segments[b..to]),
        ]
    }
}

#[cfg(test)]
mod tests {
    use super::super::compile::pairs_of;
    use super::super::FamilyGroup;
    use super::*;

    /// A 4×4 Sudoku's rows and boxes, and their intersecting pairs as the family's
    /// compiler lays them out.
    fn four_by_four_pairs() -> (Vec<PairParts>, Vec<u32>) {
        let group = |vars: Vec<usize>| FamilyGroup {
            shifts: vec![0; vars.len()],
            vars,
            tight: true,
        };
        let rows = (0..4).map(|r| group((0..4).map(|c| r * 4 + c).collect()));
        let boxes = (0..4).map(|b| {
            group(
                (0..4)
                    .map(|k| (b / 2 * 2 + k / 2) * 4 + b % 2 * 2 + k % 2)
                    .collect(),
            )
        });
        let groups: Vec<FamilyGroup> = rows.chain(boxes).collect();
        pairs_of(&groups, 16)
    }

    #[test]
    fn box_line_pairs_are_covered_by_their_segments() {
        let (pairs, cells) = four_by_four_pairs();
        let cover = SegmentCover::new(&pairs, &cells, 16).expect("a cover");
        assert_eq!(cover.segments(), 8);
        // Each cell its own value: a union is the set of its segment's cells.
        let masks: Vec<u64> = (0..16).map(|c| 1u64 << c).collect();
        let mut unions = vec![0; cover.segments()];
        cover.form_unions(&masks, &mut unions);
        for (
            p,
            &PairParts {
                begin,
                only_a,
                only_b,
                end,
            },
        ) in pairs.iter().enumerate()
        {
            let union = |from: u32, to: u32| {
                cells[from as usize..to as usize]
                    .iter()
                    .fold(0u64, |acc, &c| acc | 1 << c)
            };
            assert_eq!(
                cover.pair_unions(p, &unions),
                [
                    union(begin, only_a),
                    union(only_a, only_b),
                    union(only_b, end)
                ],
                "pair {p}"
            );
        }
    }

    #[test]
    fn a_part_that_is_no_union_of_segments_has_no_cover() {
        // Two groups {0, 1, 2} and {0, 1, 3}: the outside parts {2} and {3} are no
        // intersection of any pair.
        let pairs = [PairParts {
            begin: 0,
            only_a: 2,
            only_b: 3,
            end: 4,
        }];
        let cells = [0, 1, 2, 3];
        assert!(SegmentCover::new(&pairs, &cells, 4).is_none());
    }
}
