//! Reasoning across two overlapping all-different groups ("locked candidates" in Sudoku,
//! stated for any model).
//!
//! Let groups A and B share the variables I = A ∩ B. When A has exactly as many candidate
//! values as variables, every one of those values must be used in A. If value v's places in
//! A all lie in I, some variable of I takes v, and since I ⊆ B, no variable of B \ I can:
//! v leaves B \ I. The same holds with A and B swapped.
//!
//! The compiler posts one of these for every pair of plain all-different groups (no offsets,
//! one-word domains, one common base) that share at least two variables, where one is a
//! permutation, and that are not already in one [`Family`](super::Family) — a family
//! applies the same rule to its own pairs on its private copy of the domains (Sudoku's 54
//! box-line intersections). Coloring cliques meet this case.

use crate::propagate::{Conflict, Engine};

/// The two groups, split into the shared part and the two private parts.
#[derive(Clone, Debug)]
pub(crate) struct LockedValues {
    shared: Vec<usize>,
    only_a: Vec<usize>,
    only_b: Vec<usize>,
    /// All variables, for the watch lists.
    all: Vec<usize>,
}

impl LockedValues {
    /// The intersection constraint of groups `a` and `b` (which must share variables).
    pub(crate) fn new(a: &[usize], b: &[usize]) -> Self {
        let shared: Vec<usize> = a.iter().copied().filter(|v| b.contains(v)).collect();
        let only_a: Vec<usize> = a.iter().copied().filter(|v| !shared.contains(v)).collect();
        let only_b: Vec<usize> = b.iter().copied().filter(|v| !shared.contains(v)).collect();
        let all = shared
            .iter()
            .chain(&only_a)
            .chain(&only_b)
            .copied()
            .collect();
        LockedValues {
            shared,
            only_a,
            only_b,
            all,
        }
    }

    pub(crate) fn vars(&self) -> &[usize] {
        &self.all
    }

    pub(crate) fn propagate(&self, e: &mut Engine) -> Result<(), Conflict> {
        loop {
            let (to_b, to_a) = locked_values(
                [
                    union(e, &self.shared),
                    union(e, &self.only_a),
                    union(e, &self.only_b),
                ],
                self.shared.len() + self.only_a.len(),
                self.shared.len() + self.only_b.len(),
            );
            let mut changed = remove_from(e, &self.only_b, to_b)?;
            changed |= remove_from(e, &self.only_a, to_a)?;
            if !changed {
                return Ok(());
            }
        }
    }
}

/// The rule itself, on groups A and B sharing the cells I: from the unions of the values
/// of I, of A \ I and of B \ I, and the sizes of A and B, the values to take out of
/// B \ I and out of A \ I. A group left with exactly as many values as cells uses every
/// one of them, so a value it can hold only in I is placed in I, hence nowhere else in
/// the other group. Only values still present on the other side are returned, so that a
/// caller can skip the pass over its cells.
#[inline]
pub(crate) fn locked_values(
    [inside, outside_a, outside_b]: [u64; 3],
    len_a: usize,
    len_b: usize,
) -> (u64, u64) {
    let confined = |outside: u64, other: u64, len: usize| {
        let values = inside & !outside & other;
        if values != 0 && (inside | outside).count_ones() as usize == len {
            values
        } else {
            0
        }
    };
    (
        confined(outside_a, outside_b, len_a),
        confined(outside_b, outside_a, len_b),
    )
}

#[inline]
fn union(e: &Engine, vars: &[usize]) -> u64 {
    vars.iter().fold(0, |acc, &v| acc | e.store.first_word(v))
}

/// Removes `values` from every variable of `vars`; true when something changed.
#[inline]
fn remove_from(e: &mut Engine, vars: &[usize], values: u64) -> Result<bool, Conflict> {
    if values == 0 {
        return Ok(false);
    }
    let mut changed = false;
    for &v in vars {
        let d = e.store.first_word(v);
        if d & values != 0 {
            e.set_one_word(v, d & !values)?;
            changed = true;
        }
    }
    Ok(changed)
}
