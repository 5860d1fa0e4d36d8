//! The tables a 9×9 board's run looks up, one value's cells in one band at a time (see
//! [`board`](super::board)). A band is three rows of nine cells, bit `row * 9 + column`;
//! its boxes are columns 0–2, 3–5 and 6–8, and a mini-row is one row's three cells in one
//! box. Each table is indexed by nine bits and built when the crate is compiled.

/// Every cell of a band.
pub(super) const BAND: u32 = (1 << 27) - 1;

/// Nine bits: a row of a band, or a set of columns.
pub(super) const NINE: u32 = 0x1ff;

/// For a row's nine cells, which of its three mini-rows hold any (bit `box`).
pub(super) static MINI_ROWS: [u8; 512] = mini_rows();

/// For the band's nine mini-rows (bit `row * 3 + box`, those that hold the value), the
/// cells of the mini-rows that some placement of the value can use. The value goes once
/// in each row and once in each box of the band, so its three mini-rows are one per row
/// and one per box: a placement is a permutation from rows to boxes, and a mini-row no
/// permutation through the held ones uses cannot hold it. Zero when none exists.
pub(super) static PLACEABLE: [u32; 512] = placeable();

/// For the columns a band can place the value in, the cells the other two bands may keep:
/// a box of the band whose value can only lie in one column takes that column from them.
pub(super) static LEFT_TO_OTHERS: [u32; 512] = left_to_others();

/// For columns that only this band can give the value (each column holds it once, so the
/// band must), the cells the band may keep: in a box with one such column, that column
/// only; in a box with two or more, none (the box holds the value once).
pub(super) static FORCED_COLUMNS: [u32; 512] = forced_columns();

/// A row's nine cells if just one of them holds the value, else zero.
pub(super) static ALONE: [u16; 512] = alone();

/// For each cell of a band, the band's other cells in its row or its box.
pub(super) static BAND_PEERS: [u32; 27] = band_peers();

/// The cells of mini-row `row * 3 + box` of a band.
const fn mini_row_cells(mini: usize) -> u32 {
    7 << (mini / 3 * 9 + mini % 3 * 3)
}

/// Column set `columns` repeated on the band's three rows.
const fn on_every_row(columns: u32) -> u32 {
    columns | columns << 9 | columns << 18
}

const fn mini_rows() -> [u8; 512] {
    let mut table = [0; 512];
    let mut row = 0;
    while row < 512 {
        let mut found = 0;
        let mut b = 0;
        while b < 3 {
            if row >> (b * 3) & 7 != 0 {
                found |= 1 << b;
            }
            b += 1;
        }
        table[row] = found;
        row += 1;
    }
    table
}

/// The six permutations from rows to boxes: the box of rows 0, 1 and 2.
const PERMUTATIONS: [[usize; 3]; 6] = [
    [0, 1, 2],
    [0, 2, 1],
    [1, 0, 2],
    [1, 2, 0],
    [2, 0, 1],
    [2, 1, 0],
];

const fn placeable() -> [u32; 512] {
    let mut table = [0; 512];
    let mut held = 0;
    while held < 512 {
        let mut cells = 0;
        let mut p = 0;
        while p < PERMUTATIONS.len() {
            let boxes = PERMUTATIONS[p];
            let mut row = 0;
            let mut fits = true;
            let mut used = 0;
            while row < 3 {
                let mini = row * 3 + boxes[row];
                fits = fits && held >> mini & 1 == 1;
                used |= mini_row_cells(mini);
                row += 1;
            }
            if fits {
                cells |= used;
            }
            p += 1;
        }
        table[held] = cells;
        held += 1;
    }
    table
}

const fn left_to_others() -> [u32; 512] {
    let mut table = [0; 512];
    let mut columns: u32 = 0;
    while columns < 512 {
        let mut taken = 0;
        let mut b = 0;
        while b < 3 {
            let in_box = columns & 7 << (b * 3);
            if in_box.count_ones() == 1 {
                taken |= in_box;
            }
            b += 1;
        }
        table[columns as usize] = BAND & !on_every_row(taken);
        columns += 1;
    }
    table
}

const fn forced_columns() -> [u32; 512] {
    let mut table = [0; 512];
    let mut forced: u32 = 0;
    while forced < 512 {
        let mut keep = 0;
        let mut b = 0;
        while b < 3 {
            let stack: u32 = 7 << (b * 3);
            let in_box = forced & stack;
            keep |= match in_box.count_ones() {
                0 => stack,
                1 => in_box,
                _ => 0,
            };
            b += 1;
        }
        table[forced as usize] = on_every_row(keep);
        forced += 1;
    }
    table
}

const fn alone() -> [u16; 512] {
    let mut table = [0; 512];
    let mut row = 0;
    while row < 512 {
        if (row as u32).count_ones() == 1 {
            table[row] = row as u16;
        }
        row += 1;
    }
    table
}

const fn band_peers() -> [u32; 27] {
    let mut table = [0; 27];
    let mut cell = 0;
    while cell < 27 {
        let (row, column) = (cell / 9, cell % 9);
        let row_cells = NINE << (row * 9);
        let box_cells = on_every_row(7 << (column / 3 * 3));
        table[cell] = (row_cells | box_cells) & !(1 << cell);
        cell += 1;
    }
    table
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Whether the value can be placed in the band's cells `cells`: one cell in each row
    /// and each box, found by trying every choice of cells.
    fn placements(cells: u32) -> u32 {
        let mut used = 0;
        for a in 0..9 {
            for b in 0..9 {
                for c in 0..9 {
                    let picked = [a, 9 + b, 18 + c];
                    let boxes = [a / 3, b / 3, c / 3];
                    let distinct =
                        boxes[0] != boxes[1] && boxes[0] != boxes[2] && boxes[1] != boxes[2];
                    if distinct && picked.iter().all(|&i| cells >> i & 1 == 1) {
                        used |= picked.iter().fold(0, |m, &i| m | 1 << i);
                    }
                }
            }
        }
        used
    }

    #[test]
    fn placeable_cells_are_those_some_placement_uses_when_boxes_decide() {
        // Every set of held mini-rows, each held mini-row full: the cells some placement
        // uses are the table's.
        for held in 0..512u32 {
            let cells = (0..9)
                .filter(|m| held >> m & 1 == 1)
                .fold(0, |a, m| a | mini_row_cells(m));
            assert_eq!(
                PLACEABLE[held as usize],
                placements(cells),
                "held {held:09b}"
            );
        }
    }

    #[test]
    fn each_small_table_gives_its_hand_worked_cases() {
        let columns = 0b000_010_111; // box 0: columns 0-2; box 1: column 4 only; box 2: none
        let left = LEFT_TO_OTHERS[columns];
        assert_eq!(left, BAND & !on_every_row(1 << 4));
        assert_eq!(FORCED_COLUMNS[1 << 4], on_every_row(0b111_010_111));
        assert_eq!(FORCED_COLUMNS[0b11], on_every_row(0b111_111_000));
        assert_eq!(BAND_PEERS[0].count_ones(), 8 + 8 - 2);
        assert_eq!(MINI_ROWS[0b100_000_001], 0b101);
        assert_eq!(
            (ALONE[0b000_100_000], ALONE[0b000_100_001], ALONE[0]),
            (0b000_100_000, 0, 0)
        );
    }
}
