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
    for (cell, &label) in labels.iter().enumerate() {
        if label == "." {
            continue;
        }
        match out.iter_mut().find(|(l, _)| l == label) {
            Some((_, cells)) => cells.push(cell),
            None => out.push((label.to_owned(), vec![cell])),
        }
    }
    out
}

/// Whether `cells` of a board of side `n` are orthogonally connected.
pub fn connected(cells: &[usize], n: usize) -> bool {
    let Some(&first) = cells.first() else {
        return true;
    };
    let mut seen = vec![first];
    let mut at = 0;
    while at < seen.len() {
        let c = seen[at];
        at += 1;
        let (r, k) = (c / n, c % n);
        for (dr, dc) in [(0i64, 1i64), (0, -1), (1, 0), (-1, 0)] {
            let (nr, nk) = (r as i64 + dr, k as i64 + dc);
            if nr < 0 || nk < 0 || nr >= n as i64 || nk >= n as i64 {
                continue;
            }
            let next = nr as usize * n + nk as usize;
            if cells.contains(&next) && !seen.contains(&next) {
                seen.push(next);
            }
        }
    }
    seen.len() == cells.len()
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
