//! Adding up the answers of one split, refusing to guess.

use super::lines::Answer;

/// The merged answers of one split.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Merged {
    /// The total (sum of count × weight), when every part finished, or when a count limit
    /// was reached (then `capped`).
    pub total: Option<u64>,
    /// The count limit was reached: the total is that limit and the count is at least it.
    pub capped: bool,
    /// A solution any part found (colouring).
    pub solution: Option<String>,
    /// Parts with no answer.
    pub missing: Vec<usize>,
    /// Parts stopped before the end.
    pub unfinished: Vec<usize>,
    /// Parts answered more than once alike (counted once).
    pub duplicates: Vec<usize>,
    /// Parts answered with different counts.
    pub conflicts: Vec<usize>,
    /// How many parts the split made.
    pub parts: usize,
    /// Whether the parts counted (else they looked for one solution).
    pub counting: bool,
}

/// Why answers cannot be merged at all.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum MergeError {
    /// Nothing to merge.
    #[error("no answer lines")]
    Empty,
    /// Answers of several splits.
    #[error(
        "{0} answers belong to another split than the first line's; merge one split at a time"
    )]
    Foreign(usize),
}

/// Merges the answers of one split.
///
/// # Errors
/// [`MergeError`] for no answers, or answers of several splits.
pub fn merge(answers: &[Answer]) -> Result<Merged, MergeError> {
    let first = answers.first().ok_or(MergeError::Empty)?;
    let foreign = answers
        .iter()
        .filter(|a| a.split != first.split || a.model != first.model || a.of != first.of)
        .count();
    if foreign > 0 {
        return Err(MergeError::Foreign(foreign));
    }
    let k = first.of;
    let mut merged = Merged {
        parts: k,
        counting: first.counting,
        ..Merged::default()
    };
    let mut by_part: Vec<Option<&Answer>> = vec![None; k];
    for a in answers {
        let slot = &mut by_part[a.index - 1];
        match *slot {
            None => *slot = Some(a),
            Some(seen) if seen.count == a.count && seen.status == a.status => {
                merged.duplicates.push(a.index)
            }
            Some(seen) if !seen.finished() => *slot = Some(a),
            Some(_) if !a.finished() => merged.duplicates.push(a.index),
            Some(_) => merged.conflicts.push(a.index),
        }
        if merged.solution.is_none() {
            merged.solution.clone_from(&a.solution);
        }
    }
    merged.missing = (1..=k).filter(|&i| by_part[i - 1].is_none()).collect();
    merged.unfinished = (1..=k)
        .filter(|&i| by_part[i - 1].is_some_and(|a| !a.finished()))
        .collect();
    let sum = by_part.iter().flatten().fold(0u64, |t, a| {
        t.saturating_add(a.count.saturating_mul(a.weight))
    });
    let limit = answers.iter().filter_map(|a| a.limit).min();
    if let Some(l) = limit.filter(|&l| sum >= l) {
        // The answered parts alone reach the limit: the count is at least that.
        merged.total = Some(l);
        merged.capped = true;
    } else if merged.missing.is_empty()
        && merged.unfinished.is_empty()
        && merged.conflicts.is_empty()
    {
        merged.total = Some(sum);
    }
    Ok(merged)
}
