//! Choosing k items of a short list, in lexicographic order, without allocating per
//! choice.

/// Calls `visit` with each k-subset of `0..n` (as sorted indices) until it returns
/// `Some`, and returns that.
pub fn first_combination<R>(
    n: usize,
    k: usize,
    mut visit: impl FnMut(&[usize]) -> Option<R>,
) -> Option<R> {
    if k == 0 || k > n {
        return None;
    }
    let mut chosen: Vec<usize> = (0..k).collect();
    loop {
        if let Some(r) = visit(&chosen) {
            return Some(r);
        }
        // The rightmost index that can still move right.
        let i = (0..k).rev().find(|&i| chosen[i] < n - k + i)?;
        chosen[i] += 1;
        for j in i + 1..k {
            chosen[j] = chosen[j - 1] + 1;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_subset_is_visited_once_in_order() {
        let mut seen = Vec::new();
        let none: Option<()> = first_combination(5, 3, |c| {
            seen.push(c.to_vec());
            None
        });
        assert!(none.is_none());
        assert_eq!(seen.len(), 10);
        assert_eq!(seen[0], vec![0, 1, 2]);
        assert_eq!(seen[9], vec![2, 3, 4]);
        let mut sorted = seen.clone();
        sorted.sort();
        sorted.dedup();
        assert_eq!(sorted, seen);
    }

    #[test]
    fn the_search_stops_at_the_first_answer() {
        let found = first_combination(6, 2, |c| (c[0] + c[1] == 5).then(|| c.to_vec()));
        assert_eq!(found, Some(vec![0, 5]));
    }
}
