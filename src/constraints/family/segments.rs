//! A 9×9-shaped family's box-line pairs described by their three-cell segments, so that a
//! locked-values sweep forms each segment's union once.

/// The pairs' intersections as segments (see [`Family::segments`](super::Family::segments)); empty when the pairs
/// are not all box-line records whose outside parts are unions of two segments.
#[derive(Clone, Debug, Default)]
pub(super) struct Segments {
    /// Each segment's three cells.
    pub(super) cells: Vec<[u8; 3]>,
    /// Each pair's segments: its intersection, then A's two, then B's two.
    pub(super) pairs: Vec<[u8; 5]>,
}

impl Segments {
    pub(super) fn new(box_lines: &[[u8; 15]]) -> Self {
        let sorted = |cells: &[u8]| {
            let mut cells = cells.to_vec();
            cells.sort_unstable();
            cells
        };
        let mut cells: Vec<Vec<u8>> = box_lines.iter().map(|r| sorted(&r[..3])).collect();
        cells.sort_unstable();
        cells.dedup();
        if box_lines.len() > 64 || cells.len() > 64 {
            return Segments::default();
        }
        let index = |segment: &[u8]| cells.iter().position(|c| c.as_slice() == segment);
        // The two segments whose cells make up `side` exactly, if there are two.
        let cover = |side: &[u8]| -> Option<[u8; 2]> {
            let side = sorted(side);
            let inside: Vec<usize> = (0..cells.len())
                .filter(|&s| cells[s].iter().all(|c| side.contains(c)))
                .collect();
            match inside[..] {
                [x, y] if sorted(&[cells[x].clone(), cells[y].clone()].concat()) == side => {
                    Some([x as u8, y as u8])
                }
                _ => None,
            }
        };
        let pairs: Option<Vec<[u8; 5]>> = box_lines
            .iter()
            .map(|r| {
                let i = index(&sorted(&r[..3]))? as u8;
                let [a1, a2] = cover(&r[3..9])?;
                let [b1, b2] = cover(&r[9..])?;
                Some([i, a1, a2, b1, b2])
            })
            .collect();
        match pairs {
            Some(pairs) if !pairs.is_empty() => Segments {
                cells: cells.iter().map(|c| [c[0], c[1], c[2]]).collect(),
                pairs,
            },
            _ => Segments::default(),
        }
    }
}
