//! N-Queens as a thin model: one variable per column holding the row of its queen, and
//! three all-different groups: rows, and the two diagonal directions through offsets
//! (`row[i] + i` and `row[i] - i` all different).
//!
//! ```
//! use bitcsp::{queens, Solver};
//! let (model, _) = queens::model(8)?;
//! assert_eq!(Solver::new(&model).count(None).count, 92);
//! // Mirror symmetry: count half the boards and double.
//! let total: u64 = queens::mirror_parts(8)?
//!     .iter()
//!     .map(|part| part.weight * Solver::new(&part.model).count(None).count)
//!     .sum();
//! assert_eq!(total, 92);
//! # Ok::<(), bitcsp::ModelError>(())
//! ```

use crate::{Model, ModelError, SolveResult, Solver, ValueOrder, VarId};

/// The largest board the models accept: beyond it a first solution takes minutes.
pub const MAX_N: usize = 1000;

/// The model for an `n`×`n` board and its column variables (values `0..n`, the row).
///
/// # Errors
/// [`ModelError::EmptyDomain`] for `n = 0`, [`ModelError::DomainTooLarge`] above [`MAX_N`].
pub fn model(n: usize) -> Result<(Model, Vec<VarId>), ModelError> {
    if n > MAX_N {
        return Err(ModelError::DomainTooLarge {
            span: n as u64,
            max: MAX_N as u64,
        });
    }
    let mut m = Model::new();
    let top = i32::try_from(n).map_err(|_| ModelError::EmptyDomain)? - 1;
    let rows = m.new_vars(n, 0..=top)?;
    let rising: Vec<i32> = (0..=top).collect();
    let falling: Vec<i32> = (0..=top).map(|i| -i).collect();
    m.all_different(&rows)?;
    m.all_different_offset(&rows, &rising)?;
    m.all_different_offset(&rows, &falling)?;
    Ok((m, rows))
}

/// A part of a symmetry-reduced count: its solutions count `weight` times.
#[derive(Clone, Debug)]
pub struct Part {
    /// The restricted model.
    pub model: Model,
    /// The column variables.
    pub rows: Vec<VarId>,
    /// How many boards each of its solutions stands for.
    pub weight: u64,
}

/// The board split by its mirror symmetry (top/bottom): the first queen in the upper half
/// (each solution stands for itself and its mirror image, weight 2), plus for odd `n` the
/// first queen on the middle row (weight 1). The weighted counts add up to the full count.
///
/// # Errors
/// As [`model`].
pub fn mirror_parts(n: usize) -> Result<Vec<Part>, ModelError> {
    let mut parts = Vec::new();
    let (mut upper, rows) = model(n)?;
    if n == 0 {
        return Ok(vec![Part {
            model: upper,
            rows,
            weight: 1,
        }]);
    }
    let half = (n / 2) as i32;
    for row in half..n as i32 {
        upper.remove_value(rows[0], row)?;
    }
    if half > 0 {
        parts.push(Part {
            model: upper,
            rows: rows.clone(),
            weight: 2,
        });
    }
    if n % 2 == 1 {
        let (mut middle, rows) = model(n)?;
        middle.fix(rows[0], half)?;
        parts.push(Part {
            model: middle,
            rows,
            weight: 1,
        });
    }
    Ok(parts)
}

/// One solution (rows of the queens, column by column) found with the middle-out value
/// order, or `None` when there is none (n = 2, 3).
///
/// # Errors
/// As [`model`].
pub fn solve(n: usize) -> Result<Option<Vec<usize>>, ModelError> {
    let (m, rows) = model(n)?;
    let mut solver = Solver::new(&m);
    solver.set_value_order(ValueOrder::MiddleOut);
    Ok(match solver.solve() {
        SolveResult::Solution(s) => Some(rows.iter().map(|&r| s.value(r) as usize).collect()),
        _ => None,
    })
}

/// True when `rows` (the row of the queen in each column) places non-attacking queens on
/// an `rows.len()`-square board.
pub fn is_solution(rows: &[usize]) -> bool {
    let n = rows.len();
    rows.iter().all(|&r| r < n)
        && (0..n)
            .all(|i| (i + 1..n).all(|j| rows[i] != rows[j] && rows[i].abs_diff(rows[j]) != j - i))
}

/// The board as text: one line per row, `Q` for a queen and `.` for an empty square.
pub fn render(rows: &[usize]) -> String {
    let n = rows.len();
    let mut out = String::with_capacity(n * (n + 1));
    for row in 0..n {
        out.extend(rows.iter().map(|&r| if r == row { 'Q' } else { '.' }));
        out.push('\n');
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn checker_rejects_attacks() {
        assert!(is_solution(&[1, 3, 0, 2]));
        assert!(!is_solution(&[0, 1, 2, 3]));
        assert!(!is_solution(&[1, 1, 0, 2]));
        assert!(!is_solution(&[1, 3, 0, 4]));
    }

    #[test]
    fn rendering_puts_one_queen_per_column() {
        assert_eq!(render(&[1, 3, 0, 2]), "..Q.\nQ...\n...Q\n.Q..\n");
    }
}
