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
        if first_pairs_uncovered(pairs, pair_cells, n) {
            return None;
        }
        let segments = Segments::of(pairs, pair_cells, n);
        let mut scratch = CoverScratch::new(n, segments.start.len() - 1);
        let mut pair_segments = Vec::new();
        let mut b_from = Vec::with_capacity(pairs.len());
        let mut pair_start = Vec::with_capacity(pairs.len() + 1);
        pair_start.push(0);
        for (p, parts) in pairs.iter().enumerate() {
            let side = |from: u32, to: u32| &pair_cells[from as usize..to as usize];
            pair_segments.push(segments.of_pair[p]);
            if !scratch.cover(
                &segments,
                side(parts.only_a, parts.only_b),
                &mut pair_segments,
            ) {
                return None;
            }
            b_from.push(pair_segments.len() as u32);
            if !scratch.cover(&segments, side(parts.only_b, parts.end), &mut pair_segments) {
                return None;
            }
            pair_start.push(pair_segments.len() as u32);
        }
        (!pairs.is_empty()).then_some(SegmentCover {
            segment_start: segments.start,
            segment_cells: segments.cells,
            pair_start,
            pair_segments,
            b_from,
        })
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

/// Pairs whose covers [`first_pairs_uncovered`] tries before the cover is built.
const FIRST_PAIRS: usize = 8;

/// Whether one of the first [`FIRST_PAIRS`] pairs has an outside part that no set of
/// intersections makes up exactly, found on bitsets of cells: irregular regions (jigsaw)
/// fail here at once, without the cover's segments being built. A pass proves nothing
/// about the other pairs: the cover checks them all.
fn first_pairs_uncovered(pairs: &[PairParts], pair_cells: &[u32], n: usize) -> bool {
    let words = n.div_ceil(64);
    // Every pair's intersection as a row of bits, in one vector (repeats kept: a repeated
    // intersection is counted once below).
    let mut bits = vec![0u64; pairs.len() * words];
    for (p, parts) in pairs.iter().enumerate() {
        for &c in &pair_cells[parts.begin as usize..parts.only_a as usize] {
            bits[p * words + c as usize / 64] |= 1 << (c % 64);
        }
    }
    let row = |p: usize| &bits[p * words..(p + 1) * words];
    let mut side = vec![0u64; words];
    let mut union = vec![0u64; words];
    let mut exactly_covered = |cells: &[u32]| {
        side.fill(0);
        union.fill(0);
        for &c in cells {
            side[c as usize / 64] |= 1 << (c % 64);
        }
        let mut count = 0;
        for p in 0..pairs.len() {
            let segment = row(p);
            let inside = segment.iter().zip(&side).all(|(x, y)| x & !y == 0);
            // A repeat of an earlier pair's intersection is the same segment.
            if !inside || (0..p).any(|q| row(q) == segment) {
                continue;
            }
            for (u, x) in union.iter_mut().zip(segment) {
                count += x.count_ones();
                *u |= x;
            }
        }
        union == side && count == cells.len() as u32
    };
    pairs.iter().take(FIRST_PAIRS).any(|p| {
        let part = |from: u32, to: u32| &pair_cells[from as usize..to as usize];
        !exactly_covered(part(p.only_a, p.only_b)) || !exactly_covered(part(p.only_b, p.end))
    })
}

/// The distinct intersections of the pairs, in order of their sorted cells, as compressed
/// rows; each pair's intersection among them; each cell's segments.
struct Segments {
    start: Vec<u32>,
    cells: Vec<u32>,
    of_pair: Vec<u32>,
    cell_start: Vec<u32>,
    cell_segments: Vec<u32>,
}

impl Segments {
    fn of(pairs: &[PairParts], pair_cells: &[u32], n: usize) -> Self {
        // Each pair's intersection, sorted, in one vector.
        let mut shared = Vec::with_capacity(pair_cells.len());
        let mut bounds = Vec::with_capacity(pairs.len());
        for p in pairs {
            let from = shared.len();
            shared.extend_from_slice(&pair_cells[p.begin as usize..p.only_a as usize]);
            shared[from..].sort_unstable();
            bounds.push((from, shared.len()));
        }
        let part = |p: usize| &shared[bounds[p].0..bounds[p].1];
        let mut order: Vec<usize> = (0..pairs.len()).collect();
        order.sort_unstable_by(|&a, &b| part(a).cmp(part(b)));
        let mut segments = Segments {
            start: vec![0],
            cells: Vec::new(),
            of_pair: vec![0; pairs.len()],
            cell_start: vec![0; n + 1],
            cell_segments: Vec::new(),
        };
        for (k, &p) in order.iter().enumerate() {
            if k == 0 || part(p) != part(order[k - 1]) {
                segments.cells.extend_from_slice(part(p));
                segments.start.push(segments.cells.len() as u32);
            }
            segments.of_pair[p] = (segments.start.len() - 2) as u32;
        }
        for &c in &segments.cells {
            segments.cell_start[c as usize + 1] += 1;
        }
        for c in 0..n {
            segments.cell_start[c + 1] += segments.cell_start[c];
        }
        let mut next = segments.cell_start.clone();
        let mut cell_segments = vec![0; segments.cells.len()];
        for s in 0..segments.start.len() - 1 {
            for &c in segments.cells_of(s) {
                cell_segments[next[c as usize] as usize] = s as u32;
                next[c as usize] += 1;
            }
        }
        segments.cell_segments = cell_segments;
        segments
    }

    fn cells_of(&self, s: usize) -> &[u32] {
        &self.cells[self.start[s] as usize..self.start[s + 1] as usize]
    }

    fn of_cell(&self, c: u32) -> &[u32] {
        let c = c as usize;
        &self.cell_segments[self.cell_start[c] as usize..self.cell_start[c + 1] as usize]
    }
}

/// Scratch bitsets for [`CoverScratch::cover`], cleared after each use.
struct CoverScratch {
    side: Vec<u64>,
    covered: Vec<u64>,
    seen: Vec<bool>,
}

impl CoverScratch {
    fn new(n: usize, segments: usize) -> Self {
        CoverScratch {
            side: vec![0; n.div_ceil(64)],
            covered: vec![0; n.div_ceil(64)],
            seen: vec![false; segments],
        }
    }

    /// Appends to `out`, in order, the segments that make up `side` exactly (each of its
    /// cells in exactly one of them); false (and `out` unspecified) when there are none.
    fn cover(&mut self, segments: &Segments, side: &[u32], out: &mut Vec<u32>) -> bool {
        let has = |bits: &[u64], c: u32| bits[c as usize / 64] >> (c % 64) & 1 == 1;
        for &c in side {
            self.side[c as usize / 64] |= 1 << (c % 64);
        }
        let from = out.len();
        let mut exact = true;
        for &c in side {
            for &s in segments.of_cell(c) {
                if std::mem::replace(&mut self.seen[s as usize], true) {
                    continue;
                }
                let cells = segments.cells_of(s as usize);
                if !cells.iter().all(|&d| has(&self.side, d)) {
                    continue;
                }
                out.push(s);
                for &d in cells {
                    exact &= !has(&self.covered, d);
                    self.covered[d as usize / 64] |= 1 << (d % 64);
                }
            }
        }
        let all_covered = side.iter().all(|&c| has(&self.covered, c));
        for &c in side {
            self.side[c as usize / 64] = 0;
            self.covered[c as usize / 64] = 0;
            for &s in segments.of_cell(c) {
                self.seen[s as usize] = false;
            }
        }
        out[from..].sort_unstable();
        exact && all_covered
    }
}

#[cfg(test)]
mod tests {
    use super::super::compile::pairs_of;
    use super::super::FamilyGroup;
    use super::*;

    /// Shifts of zero for groups of up to this many cells.
    const ZEROS: [u32; 16] = [0; 16];

    /// Groups without shifts, as many values as cells, over the cell lists `cells`.
    fn plain(cells: &[Vec<usize>]) -> Vec<FamilyGroup<'_>> {
        cells
            .iter()
            .map(|vars| FamilyGroup {
                vars,
                shifts: &ZEROS[..vars.len()],
                tight: true,
                aligned: true,
            })
            .collect()
    }

    /// The cells of each box of `rows` × `cols` cells of a board of side `rows * cols`.
    fn boxes(rows: usize, cols: usize) -> impl Iterator<Item = Vec<usize>> {
        let n = rows * cols;
        (0..n).map(move |b| {
            let (top, left) = (b / (n / cols) * rows, b % (n / cols) * cols);
            (0..n)
                .map(|k| (top + k / cols) * n + left + k % cols)
                .collect()
        })
    }

    /// A 4×4 Sudoku's rows and boxes, and their intersecting pairs as the family's
    /// compiler lays them out.
    fn four_by_four_pairs() -> (Vec<PairParts>, Vec<u32>) {
        let rows = (0..4).map(|r| (0..4).map(|c| r * 4 + c).collect());
        let cells: Vec<Vec<usize>> = rows.chain(boxes(2, 2)).collect();
        pairs_of(&plain(&cells), 16)
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

    #[test]
    fn boards_of_every_box_shape_have_a_cover() {
        for (rows, cols) in [(2, 3), (3, 2), (3, 4), (4, 4), (2, 5)] {
            let n: usize = rows * cols;
            let lines = (0..n).flat_map(|i| {
                [
                    (0..n).map(|c| i * n + c).collect(),
                    (0..n).map(|r| r * n + i).collect(),
                ]
            });
            let groups: Vec<Vec<usize>> = lines.chain(boxes(rows, cols)).collect();
            let (pairs, cells) = pairs_of(&plain(&groups), n * n);
            assert!(!pairs.is_empty());
            assert!(
                SegmentCover::new(&pairs, &cells, n * n).is_some(),
                "{rows}x{cols} boxes"
            );
        }
    }
}
