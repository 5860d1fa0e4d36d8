//! Label fields (regions, cages): one character per cell, or comma-separated labels for
//! boards with more regions or cages than characters.

/// The labels of `field`, one per cell: split at commas when it has any, else one per
/// character.
pub fn split(field: &str) -> Vec<&str> {
    if field.contains(',') {
        field.split(',').map(str::trim).collect()
    } else {
        field
            .char_indices()
            .map(|(i, c)| &field[i..i + c.len_utf8()])
            .collect()
    }
}

/// The groups of cells sharing a label, in order of first appearance, with the label;
/// cells labelled `.` belong to none.
pub fn groups<'a>(labels: &[&'a str]) -> Vec<(&'a str, Vec<usize>)> {
    // First each cell's group and each group's size, then the groups filled at their size.
    // About as many groups as a board has rows: room for that many before growing.
    let guess = labels.len().isqrt() + 1;
    let mut names: Vec<&'a str> = Vec::with_capacity(guess);
    let mut sizes: Vec<usize> = Vec::with_capacity(guess);
    let mut group_of: Vec<usize> = Vec::with_capacity(labels.len());
    // Labels of one byte (the usual case) find their group in a table.
    let mut by_byte = [usize::MAX; 256];
    // The group of the cell before: neighbours along a row mostly share a label.
    let mut last = 0;
    for &label in labels {
        if label == "." {
            group_of.push(usize::MAX);
            continue;
        }
        if let &[byte] = label.as_bytes() {
            let slot = &mut by_byte[usize::from(byte)];
            if *slot == usize::MAX {
                names.push(label);
                sizes.push(0);
                *slot = names.len() - 1;
            }
            sizes[*slot] += 1;
            group_of.push(*slot);
            continue;
        }
        let at = match names.get(last) {
            Some(&l) if l == label => last,
            _ => match names.iter().position(|&l| l == label) {
                Some(at) => at,
                None => {
                    names.push(label);
                    sizes.push(0);
                    names.len() - 1
                }
            },
        };
        sizes[at] += 1;
        group_of.push(at);
        last = at;
    }
    let mut out: Vec<(&'a str, Vec<usize>)> = names
        .iter()
        .zip(&sizes)
        .map(|(&name, &size)| (name, Vec::with_capacity(size)))
        .collect();
    for (cell, &g) in group_of.iter().enumerate() {
        if let Some((_, cells)) = out.get_mut(g) {
            cells.push(cell);
        }
    }
    out
}

/// Whether `cells` of a board of side `n` are orthogonally connected.
pub fn connected(cells: &[usize], n: usize) -> bool {
    let Some(&first) = cells.first() else {
        return true;
    };
    if let Some(board) = n.checked_mul(n).filter(|&b| b <= 128) {
        return connected_as_bits(cells, n, board);
    }
    connected_by_flood_fill(cells, n, first)
}

/// [`connected`] by a flood fill from `first` over a vector of cell states (boards of
/// any size).
fn connected_by_flood_fill(cells: &[usize], n: usize, first: usize) -> bool {
    // Per cell of the board: 1 when in `cells`, 2 once reached from the first.
    let mut state = vec![0u8; n * n];
    for &c in cells {
        if let Some(s) = state.get_mut(c) {
            *s = 1;
        }
    }
    let Some(s) = state.get_mut(first) else {
        return false;
    };
    *s = 2;
    let mut stack = vec![first];
    let mut reached = 1;
    while let Some(c) = stack.pop() {
        let (r, k) = (c / n, c % n);
        let neighbours = [
            (k + 1 < n).then(|| c + 1),
            (k > 0).then(|| c - 1),
            (r + 1 < n).then(|| c + n),
            (r > 0).then(|| c - n),
        ];
        for next in neighbours.into_iter().flatten() {
            if state[next] == 1 {
                state[next] = 2;
                reached += 1;
                stack.push(next);
            }
        }
    }
    reached == cells.len()
}

/// [`connected`] on a board of at most 128 cells: the region grown from its first cell
/// by a step in every direction at once, all cells as one bitset, until it stops growing.
fn connected_as_bits(cells: &[usize], n: usize, board: usize) -> bool {
    let mut set = 0u128;
    for &c in cells.iter().filter(|&&c| c < board) {
        set |= 1 << c;
    }
    if set.count_ones() as usize != cells.len() {
        // A cell off the board, or one listed twice.
        return false;
    }
    set_is_connected(set, n)
}

/// Whether the cells of the bitset `set` (bit `c` for cell `c`, every cell on the board)
/// of a board of side `n` (at most 128 cells) are orthogonally connected; true for no
/// cells.
pub fn set_is_connected(set: u128, n: usize) -> bool {
    if set == 0 || n == 0 {
        return set == 0;
    }
    // The cells of the first column: a step left or right must not wrap around a row.
    let first_column = (0..n).fold(0u128, |acc, r| acc | 1 << (r * n));
    let last_column = first_column << (n - 1);
    let mut reached = 1u128 << set.trailing_zeros();
    loop {
        let grown = reached
            | (reached & !last_column) << 1
            | (reached & !first_column) >> 1
            | reached << n
            | reached >> n;
        let grown = grown & set;
        if grown == reached {
            return reached == set;
        }
        reached = grown;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn labels_split_by_character_or_by_comma() {
        assert_eq!(split("AB"), vec!["A", "B"]);
        assert_eq!(split("10,10,11"), vec!["10", "10", "11"]);
    }

    #[test]
    fn a_diagonal_pair_is_not_connected() {
        assert!(connected(&[0, 1, 4], 3));
        assert!(!connected(&[0, 4], 3));
    }

    #[test]
    fn a_row_does_not_wrap_into_the_next() {
        // The last cell of row 0 and the first of row 1 are consecutive but not adjacent.
        assert!(!connected(&[2, 3], 3));
        assert!(connected(&[2, 5], 3));
    }

    #[test]
    fn bitset_connectivity_agrees_with_a_flood_fill() {
        let mut rng = crate::xorshift::XorShift(7);
        for n in [2usize, 3, 4, 6, 9, 11] {
            for _ in 0..300 {
                let size = 1 + rng.below(n * n);
                let mut cells: Vec<usize> = (0..n * n).collect();
                for i in 0..size {
                    let j = i + rng.below(n * n - i);
                    cells.swap(i, j);
                }
                cells.truncate(size);
                assert_eq!(
                    connected(&cells, n),
                    connected_by_flood_fill(&cells, n, cells[0]),
                    "{cells:?} on side {n}"
                );
            }
        }
    }
}
