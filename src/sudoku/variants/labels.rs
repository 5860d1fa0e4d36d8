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
    // First each cell's group and each group's size, then the groups filled at their size.
    let mut names: Vec<&str> = Vec::new();
    let mut sizes: Vec<usize> = Vec::new();
    let mut group_of: Vec<usize> = Vec::with_capacity(labels.len());
    // The group of the cell before: neighbours along a row mostly share a label.
    let mut last = 0;
    for &label in labels {
        if label == "." {
            group_of.push(usize::MAX);
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
    let mut out: Vec<(String, Vec<usize>)> = names
        .iter()
        .zip(&sizes)
        .map(|(&name, &size)| (name.to_owned(), Vec::with_capacity(size)))
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
