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
pub fn groups(labels: &[&str]) -> Vec<(String, Vec<usize>)> {
    let mut out: Vec<(String, Vec<usize>)> = Vec::new();
    // The group of the cell before: neighbours along a row mostly share a label.
    let mut last = 0;
    for (cell, &label) in labels.iter().enumerate() {
        if label == "." {
            continue;
        }
        let at = match out.get(last) {
            Some((l, _)) if l == label => Some(last),
            _ => out.iter().position(|(l, _)| l == label),
        };
        last = match at {
            Some(at) => {
                out[at].1.push(cell);
                at
            }
            None => {
                out.push((label.to_owned(), vec![cell]));
                out.len() - 1
            }
        };
    }
    out
}

/// Whether `cells` of a board of side `n` are orthogonally connected.
pub fn connected(cells: &[usize], n: usize) -> bool {
    let Some(&first) = cells.first() else {
        return true;
    };
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
}
