//! Arithmetic and lookups on the model: `z = x·y`, `x / y`, `x mod y`, `x^y`, `|x|`, the
//! minimum and maximum of a list, `table[i]`, and linear `≠`. Integer semantics as Rust's:
//! division truncates toward zero and the remainder takes the dividend's sign; a division
//! by zero, a negative exponent or a result outside `i32` has no value, so the assignment
//! that would need one is not a solution (never a panic, never a wrapped result).

use super::{check_coefficients, check_distinct, Model};
use crate::constraints::arithmetic::{Binary, EqualOffset, Extremum, LinearNotEqual, Unary};
use crate::error::ModelError;
use crate::posted::Posted;
use crate::var::VarId;

impl Model {
    /// Requires `z = x · y`.
    ///
    /// ```
    /// use bitcsp::{Model, Solver};
    /// let mut model = Model::new();
    /// let [x, y, z] = [0; 3].map(|_| model.new_var(-3..=3).expect("range"));
    /// model.times(x, y, z)?;
    /// model.fix(z, -2)?;
    /// assert_eq!(Solver::new(&model).count(None).count, 4); // (±1, ∓2), (±2, ∓1)
    /// # Ok::<(), bitcsp::ModelError>(())
    /// ```
    ///
    /// # Errors
    /// [`ModelError::UnknownVariable`]; [`ModelError::DuplicateVariable`] when `z` is `x`
    /// or `y` (`x` and `y` may be the same variable: a square).
    pub fn times(&mut self, x: VarId, y: VarId, z: VarId) -> Result<(), ModelError> {
        self.function(
            x,
            y,
            z,
            "times",
            |a, b| a.checked_mul(b),
            |a| a.checked_mul(a),
        )
    }

    /// Requires `z = x / y`, truncated toward zero; `y = 0` has no value.
    ///
    /// # Errors
    /// As [`times`](Model::times).
    pub fn div(&mut self, x: VarId, y: VarId, z: VarId) -> Result<(), ModelError> {
        self.function(
            x,
            y,
            z,
            "div",
            |a, b| a.checked_div(b),
            |a| a.checked_div(a),
        )
    }

    /// Requires `z = x mod y` with the sign of `x` (Rust's `%`); `y = 0` has no value.
    ///
    /// # Errors
    /// As [`times`](Model::times).
    pub fn modulo(&mut self, x: VarId, y: VarId, z: VarId) -> Result<(), ModelError> {
        self.function(
            x,
            y,
            z,
            "mod",
            |a, b| a.checked_rem(b),
            |a| a.checked_rem(a),
        )
    }

    /// Requires `z = x ^ y`; for a negative exponent, `z = 1 / x^|y|` truncated toward
    /// zero (MiniZinc's meaning: 1 or -1 when `x` is, 0 for any other `x`, and `x = 0`
    /// has no value).
    ///
    /// # Errors
    /// As [`times`](Model::times).
    pub fn pow(&mut self, x: VarId, y: VarId, z: VarId) -> Result<(), ModelError> {
        self.function(x, y, z, "pow", power, |a| power(a, a))
    }

    /// Requires `y = |x|`.
    ///
    /// # Errors
    /// [`ModelError::UnknownVariable`], [`ModelError::DuplicateVariable`] when `x == y`.
    pub fn abs(&mut self, x: VarId, y: VarId) -> Result<(), ModelError> {
        self.post(Unary::new("abs", x, y, |a| a.checked_abs()))
    }

    /// Requires `y` to be the smallest of `xs` (at least one).
    ///
    /// # Errors
    /// [`ModelError::UnknownVariable`], [`ModelError::DuplicateVariable`],
    /// [`ModelError::EmptyDomain`] for an empty list.
    pub fn min(&mut self, xs: &[VarId], y: VarId) -> Result<(), ModelError> {
        if xs.is_empty() {
            return Err(ModelError::EmptyDomain);
        }
        self.post(Extremum::new(xs, y, true))
    }

    /// Requires `y` to be the largest of `xs` (at least one).
    ///
    /// # Errors
    /// As [`min`](Model::min).
    pub fn max(&mut self, xs: &[VarId], y: VarId) -> Result<(), ModelError> {
        if xs.is_empty() {
            return Err(ModelError::EmptyDomain);
        }
        self.post(Extremum::new(xs, y, false))
    }

    /// Requires `z = table[i]` (0-based; an index outside the table is no solution).
    ///
    /// ```
    /// use bitcsp::{Model, Solver};
    /// let mut model = Model::new();
    /// let i = model.new_var(-1..=5)?;
    /// let z = model.new_var(0..=100)?;
    /// model.element(&[10, 20, 10], i, z)?;
    /// assert_eq!(Solver::new(&model).count(None).count, 3);
    /// # Ok::<(), bitcsp::ModelError>(())
    /// ```
    ///
    /// # Errors
    /// [`ModelError::UnknownVariable`], [`ModelError::DuplicateVariable`] when `i == z`.
    pub fn element(&mut self, table: &[i32], i: VarId, z: VarId) -> Result<(), ModelError> {
        self.check_vars(&[i, z])?;
        check_distinct(&[i, z])?;
        self.post_validated(Posted::Element {
            table: table.to_vec(),
            index: i,
            z,
        });
        Ok(())
    }

    /// Requires `x = y + offset`, domain consistent (each value of either side keeps its
    /// partner in the other; on bounds alone for domains of more than 4,096 values),
    /// where [`require`](Model::require) keeps only bounds.
    ///
    /// ```
    /// use bitcsp::{Model, Solver};
    /// let mut model = Model::new();
    /// let x = model.new_var_from_values(&[1, 4, 6])?;
    /// let y = model.new_var(0..=9)?;
    /// model.equal_offset(x, y, 2)?;
    /// let mut solver = Solver::new(&model);
    /// solver.propagate().expect("consistent");
    /// let ys: Vec<i32> = solver.domain(y).expect("y").iter().collect();
    /// assert_eq!(ys, vec![2, 4]); // y = x - 2 for x in {4, 6}
    /// # Ok::<(), bitcsp::ModelError>(())
    /// ```
    ///
    /// # Errors
    /// [`ModelError::UnknownVariable`], [`ModelError::DuplicateVariable`] when `x == y`.
    pub fn equal_offset(&mut self, x: VarId, y: VarId, offset: i64) -> Result<(), ModelError> {
        self.post(EqualOffset::new(x, y, offset))
    }

    /// Requires `coeffs[0]·vars[0] + … ≠ rhs`.
    ///
    /// # Errors
    /// [`ModelError::UnknownVariable`], [`ModelError::DuplicateVariable`],
    /// [`ModelError::CoefficientsLengthMismatch`].
    pub fn linear_not_equal(
        &mut self,
        vars: &[VarId],
        coeffs: &[i32],
        rhs: i64,
    ) -> Result<(), ModelError> {
        check_coefficients(vars, coeffs)?;
        // `x - y != c` is the engine's own not-equal with an offset, which wakes only when
        // a variable is fixed and runs without the user-propagator layer.
        if let ([x, y], [a, b], Ok(c)) = (vars, coeffs, i32::try_from(rhs)) {
            if x != y && *a == -*b && a.abs() == 1 {
                let (x, y) = if *a == 1 { (*x, *y) } else { (*y, *x) };
                return self.not_equal_offset(x, y, c);
            }
        }
        self.post(LinearNotEqual::new(vars, coeffs, rhs))
    }

    /// `z = f(x, y)`, or `z = f(x, x)` through `square` when `x == y`.
    fn function(
        &mut self,
        x: VarId,
        y: VarId,
        z: VarId,
        name: &'static str,
        f: fn(i64, i64) -> Option<i64>,
        square: fn(i64) -> Option<i64>,
    ) -> Result<(), ModelError> {
        if x == y {
            return self.post(Unary::new(name, x, z, square));
        }
        self.post(Binary::new(name, x, y, z, f))
    }
}

/// `a ^ b`, with MiniZinc's meaning for a negative exponent (see [`Model::pow`]); `None`
/// where it has no value or leaves `i64`.
fn power(a: i64, b: i64) -> Option<i64> {
    match (a, u32::try_from(b)) {
        (_, Ok(b)) => a.checked_pow(b),
        (0, Err(_)) => None,
        (1, Err(_)) => Some(1),
        (-1, Err(_)) => Some(if b % 2 == 0 { 1 } else { -1 }),
        (_, Err(_)) => Some(0),
    }
}
