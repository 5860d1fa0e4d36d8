//! The digits given in each house of a puzzle being carved, as bit masks: whether the
//! givens force a digit back into an emptied cell by a single is then a few mask
//! operations per cell of the cell's houses, instead of a walk over every peer.

use super::digits::{bit, Digits};
use super::geometry::Geometry;
use crate::sudoku::Board;

/// For each house of a plain board (rows, columns, boxes), the digits given in it.
#[derive(Clone, Debug, Default)]
pub(crate) struct HouseDigits {
    masks: Vec<u64>,
}

impl HouseDigits {
    /// The masks of `board`'s givens.
    pub fn learn(&mut self, geo: &Geometry, board: &Board) {
        self.masks.clear();
        self.masks.resize(geo.houses.len(), 0);
        for (cell, &d) in board.cells().iter().enumerate() {
            self.give(geo, cell, d);
        }
    }

    /// `d` given in `cell`.
    pub fn give(&mut self, geo: &Geometry, cell: usize, d: u8) {
        for &h in &geo.houses_of[cell] {
            self.masks[h] |= bit(d);
        }
    }

    /// `d` no longer given in `cell`.
    pub fn take(&mut self, geo: &Geometry, cell: usize, d: u8) {
        for &h in &geo.houses_of[cell] {
            self.masks[h] &= !bit(d);
        }
    }

    /// The digits given in `cell`'s houses.
    fn seen(&self, geo: &Geometry, cell: usize) -> u64 {
        geo.houses_of[cell]
            .iter()
            .fold(0, |m, &h| m | self.masks[h])
    }

    /// Whether the givens (`values`, with `cell` empty, and these masks kept in step)
    /// force `d` into `cell`: every other digit is given among its peers (a naked
    /// single), or in one of its houses every other empty cell sees a given `d` (a hidden
    /// single).
    pub fn forced_by_a_single(&self, geo: &Geometry, values: &[u8], cell: usize, d: u8) -> bool {
        let d = bit(d);
        if self.seen(geo, cell) | d == Digits::all(geo.side).0 {
            return true;
        }
        geo.houses_of[cell].iter().any(|&h| {
            geo.houses[h]
                .iter()
                .all(|&c| c == cell || values[c] != 0 || self.seen(geo, c) & d != 0)
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sudoku::BoxShape;
    use crate::xorshift::XorShift;

    /// The check by a walk over the peers, written from the definition.
    fn forced_by_walking(geo: &Geometry, values: &[u8], cell: usize, d: u8) -> bool {
        let seen = geo.peers[cell]
            .iter()
            .fold(0u64, |m, &p| m | bit(values[p]));
        if seen | bit(d) == Digits::all(geo.side).0 {
            return true;
        }
        let sees_d = |c: usize| geo.peers[c].iter().any(|&p| values[p] == d);
        geo.houses_of[cell].iter().any(|&h| {
            geo.houses[h]
                .iter()
                .all(|&c| c == cell || values[c] != 0 || sees_d(c))
        })
    }

    #[test]
    fn masks_agree_with_a_walk_over_the_peers_as_givens_leave() {
        let shape = BoxShape { rows: 3, cols: 3 };
        let geo = Geometry::new(shape);
        let grid = Board::from_line(
            "534678912672195348198342567859761423426853791713924856961537284287419635345286179",
        )
        .expect("a valid grid");
        let mut board = grid.clone();
        let mut masks = HouseDigits::default();
        masks.learn(&geo, &board);
        let mut random = XorShift(12345);
        let (mut forced, mut not_forced) = (0, 0);
        for _ in 0..60 {
            let state = random.next_u64();
            let cell = (state % 81) as usize;
            let d = grid.cells()[cell];
            if board.cells()[cell] == 0 {
                continue;
            }
            board.set(cell / 9, cell % 9, 0);
            masks.take(&geo, cell, d);
            let fast = masks.forced_by_a_single(&geo, board.cells(), cell, d);
            assert_eq!(fast, forced_by_walking(&geo, board.cells(), cell, d));
            forced += usize::from(fast);
            not_forced += usize::from(!fast);
            if !fast && state % 2 == 0 {
                board.set(cell / 9, cell % 9, d);
                masks.give(&geo, cell, d);
            }
        }
        assert!(
            forced > 0 && not_forced > 0,
            "both answers seen: {forced} forced, {not_forced} not"
        );
    }
}
