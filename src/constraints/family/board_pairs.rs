//! Groups of two cells beside a 9×9 board's 27 (cells a knight's or a king's move apart
//! that differ, orthogonal neighbours whose values are not consecutive): a board that has
//! them still runs band by band (see [`board`](super::board)), and when it places a cell
//! its value's companions leave the cell's partners here. A group of two cells whose
//! values must differ and that lie in one row, column or box is left to the family's
//! generic run: when its cells hold two values between them, those values leave the rest
//! of the unit (a naked pair), which the board's words do not see. Any other group of two
//! holds no value a pigeonhole, a hidden single or a locked value could use, so a placed
//! cell passing its value on is all that it does, as in the generic run.

/// A cell's partners whose values differ from its own by `delta` (value `v` placed in the
/// cell takes value `v + delta` from them), as one word of cells per band.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Partners {
    delta: i8,
    cells: [u32; 3],
}

/// The partners of each board position, in compressed rows.
#[derive(Clone, Debug)]
pub(super) struct BoardPairs {
    /// Where each position's partners start in `partners` (82 entries).
    start: Vec<u16>,
    partners: Vec<Partners>,
}

impl BoardPairs {
    /// The partners from the pairs of cells, each given as its two board positions and
    /// the two shifts of its group (cell value plus shift must differ); `None` when the
    /// board's run cannot take them (two cells that must differ within one row, column or
    /// box).
    pub(super) fn new(pairs: &[[(u8, u32); 2]]) -> Option<BoardPairs> {
        let mut by_position: Vec<Vec<Partners>> = vec![Vec::new(); 81];
        for &[a, b] in pairs {
            for ((from, from_shift), (to, to_shift)) in [(a, b), (b, a)] {
                // Value `v` in `from` meets value `v + from_shift - to_shift` in `to`.
                let delta = i64::from(from_shift) - i64::from(to_shift);
                if delta == 0 && shares_a_unit(from, to) {
                    return None;
                }
                // Values 0–8 nine or more apart never meet.
                let Some(delta) = i8::try_from(delta).ok().filter(|d| d.unsigned_abs() < 9) else {
                    continue;
                };
                let list = &mut by_position[usize::from(from)];
                let (band, bit) = (usize::from(to) / 27, usize::from(to) % 27);
                match list.iter_mut().find(|p| p.delta == delta) {
                    Some(p) => p.cells[band] |= 1 << bit,
                    None => {
                        let mut cells = [0; 3];
                        cells[band] = 1 << bit;
                        list.push(Partners { delta, cells });
                    }
                }
            }
        }
        let mut start = Vec::with_capacity(82);
        let mut partners = Vec::new();
        for list in by_position {
            start.push(partners.len() as u16);
            partners.extend(list);
        }
        start.push(partners.len() as u16);
        Some(BoardPairs { start, partners })
    }

    /// Value `value` (0–8) placed at board position `p` leaves its partners: each loses
    /// the value its pair forbids, in the sub-bands `now` (value `v` in band `b` at
    /// `v * 3 + b`).
    #[inline]
    pub(super) fn pass_on(&self, p: usize, value: usize, now: &mut [u32; 27]) {
        let (from, to) = (self.start[p], self.start[p + 1]);
        for partners in &self.partners[usize::from(from)..usize::from(to)] {
            let Some(other) = value
                .checked_add_signed(isize::from(partners.delta))
                .filter(|&v| v < 9)
            else {
                continue;
            };
            for (band, &cells) in partners.cells.iter().enumerate() {
                now[other * 3 + band] &= !cells;
            }
        }
    }
}

/// Whether board positions `a` and `b` lie in one row, column or box (where the board's
/// own groups already keep their values apart).
fn shares_a_unit(a: u8, b: u8) -> bool {
    let (ra, ca, rb, cb) = (a / 9, a % 9, b / 9, b % 9);
    ra == rb || ca == cb || (ra / 3 == rb / 3 && ca / 3 == cb / 3)
}

#[cfg(test)]
mod tests {
    use super::super::band_tables::BAND;
    use super::*;

    #[test]
    fn a_placed_value_leaves_the_partners_its_pairs_name() {
        // A knight's move across two boxes (2 and 13: rows 0 and 1, columns 2 and 4) and a
        // non-consecutive pair (40 and 49, one below the other, offsets 0 and 1: the
        // value below may not be one less).
        let pairs = [[(2, 0), (13, 0)], [(40, 0), (49, 1)]];
        let board = BoardPairs::new(&pairs).expect("pairs the board can run");
        let mut now = [BAND; 27];
        board.pass_on(2, 4, &mut now);
        // Value index 4 leaves position 13 (band 0, bit 13) and nothing else.
        let changed: Vec<usize> = (0..27).filter(|&k| now[k] != BAND).collect();
        assert_eq!(changed, [4 * 3]);
        assert_eq!(now[4 * 3], BAND & !(1 << 13));
        let mut now = [BAND; 27];
        board.pass_on(40, 4, &mut now);
        // 49 is band 1, bit 22; index 4 at 40 forbids index 3 there.
        assert_eq!(now[3 * 3 + 1], BAND & !(1 << 22));
        board.pass_on(49, 0, &mut now);
        // Index 0 at 49 forbids index 1 at 40 (band 1, bit 13); index -1 is none.
        assert_eq!(now[3 + 1], BAND & !(1 << 13));
        assert_eq!((0..27).filter(|&k| now[k] != BAND).count(), 2);
        // Two cells that must differ in a row (0 and 1) or a box (0 and 19, a knight's
        // move): left to the generic run.
        assert!(BoardPairs::new(&[[(0, 0), (1, 0)]]).is_none());
        assert!(BoardPairs::new(&[[(2, 0), (13, 0)], [(0, 0), (19, 0)]]).is_none());
    }
}
