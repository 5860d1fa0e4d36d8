//! `circuit`: the successor variables `next[i]` (0-based) form one cycle through every
//! node. Posted with an all-different over the successors (which makes them a
//! permutation); this propagator forbids the shorter cycles: each chain of fixed
//! successors, from its first node to its last, may not close on itself before it holds
//! every node, so the last node's successor loses the first node. Sound, and complete on
//! fixed successors; it is neither bounds nor domain consistent.

use smallvec::SmallVec;

use crate::propagator::{Conflict, Domains, Propagator, Watch};
use crate::var::VarId;

/// The successors of nodes `0..n`.
#[derive(Debug)]
pub(crate) struct Circuit {
    next: Vec<VarId>,
}

impl Circuit {
    pub(crate) fn new(next: &[VarId]) -> Self {
        Circuit {
            next: next.to_vec(),
        }
    }
}

impl Propagator for Circuit {
    fn name(&self) -> &str {
        "circuit"
    }

    fn vars(&self) -> &[VarId] {
        &self.next
    }

    fn watch(&self) -> Watch {
        Watch::Fixed
    }

    fn propagate(&self, d: &mut Domains<'_>) -> Result<(), Conflict> {
        let n = self.next.len();
        let last = i32::try_from(n).unwrap_or(i32::MAX) - 1;
        let fixed: SmallVec<[Option<usize>; 64]> = self
            .next
            .iter()
            .map(|&x| {
                d.value(x)
                    .and_then(|v| usize::try_from(v).ok())
                    .filter(|&v| v < n)
            })
            .collect();
        let mut has_pred: SmallVec<[bool; 64]> = SmallVec::from_elem(false, n);
        for &s in fixed.iter().flatten() {
            has_pred[s] = true;
        }
        let mut seen: SmallVec<[bool; 64]> = SmallVec::from_elem(false, n);
        for start in 0..n {
            if has_pred[start] {
                continue;
            }
            // A chain of fixed successors from `start` to `end`.
            let (mut end, mut length) = (start, 0);
            seen[start] = true;
            while let Some(s) = fixed[end] {
                if seen[s] {
                    // Two fixed nodes share a successor (the all-different has not run yet).
                    return Err(Conflict);
                }
                end = s;
                length += 1;
                seen[end] = true;
            }
            if length + 1 < n && length > 0 {
                d.remove(self.next[end], start as i32)?;
            }
        }
        // Fixed nodes not reached from a chain's start lie on closed cycles: each must hold
        // every node.
        for i in 0..n {
            if seen[i] {
                continue;
            }
            let (mut node, mut length) = (i, 0);
            while !seen[node] {
                seen[node] = true;
                length += 1;
                match fixed[node] {
                    Some(s) => node = s,
                    None => break,
                }
            }
            if length < n {
                return Err(Conflict);
            }
        }
        for &x in &self.next {
            d.set_min(x, 0)?;
            d.set_max(x, last)?;
        }
        if n > 1 {
            for (i, &x) in self.next.iter().enumerate() {
                d.remove(x, i as i32)?;
            }
        }
        Ok(())
    }
}
