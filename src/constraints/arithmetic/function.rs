//! `z = f(x)` and `z = f(x, y)` for integer functions that may be undefined (division by
//! zero) or leave the `i32` range: each value of `z` needs a support, found by trying the
//! arguments' values. Domain consistent while the arguments have at most
//! [`MAX_PAIRS`] combinations; beyond that, `z` is checked once the arguments are fixed
//! (sound, and complete on complete assignments).

use smallvec::SmallVec;

use super::{filter_by_image, keep_only, Values};
use crate::propagator::{Conflict, Domains, Propagator, Strength};
use crate::var::VarId;

/// The most argument combinations enumerated per run.
pub(crate) const MAX_PAIRS: u64 = 1 << 12;

/// `z = f(x)`.
#[derive(Debug)]
pub(crate) struct Unary {
    name: &'static str,
    vars: [VarId; 2],
    f: fn(i64) -> Option<i64>,
}

impl Unary {
    pub(crate) fn new(name: &'static str, x: VarId, z: VarId, f: fn(i64) -> Option<i64>) -> Self {
        Unary {
            name,
            vars: [x, z],
            f,
        }
    }
}

/// `f(a)` when it is defined and an `i32`.
fn apply1(f: fn(i64) -> Option<i64>, a: i32) -> Option<i32> {
    f(i64::from(a)).and_then(|v| i32::try_from(v).ok())
}

impl Propagator for Unary {
    fn name(&self) -> &str {
        self.name
    }

    fn vars(&self) -> &[VarId] {
        &self.vars
    }

    fn consistency(&self) -> Strength {
        Strength::Domain
    }

    fn propagate(&self, d: &mut Domains<'_>) -> Result<(), Conflict> {
        let [x, z] = self.vars;
        if u64::from(d.size(x)) > MAX_PAIRS {
            return match (d.value(x), apply1(self.f, d.min(x))) {
                (Some(_), Some(v)) => d.fix(z, v),
                (Some(_), None) => Err(Conflict),
                (None, _) => Ok(()),
            };
        }
        filter_by_image(d, x, z, |a| apply1(self.f, a))
    }
}

/// `z = f(x, y)`.
#[derive(Debug)]
pub(crate) struct Binary {
    name: &'static str,
    vars: Vec<VarId>,
    f: fn(i64, i64) -> Option<i64>,
}

impl Binary {
    /// `z = f(x, y)` (`x`, `y` and `z` distinct, or `x == y` given once).
    pub(crate) fn new(
        name: &'static str,
        x: VarId,
        y: VarId,
        z: VarId,
        f: fn(i64, i64) -> Option<i64>,
    ) -> Self {
        Binary {
            name,
            vars: vec![x, y, z],
            f,
        }
    }
}

/// The values of `values` whose bit in `supported` is clear.
fn unsupported(values: &[i32], supported: &[u64]) -> Values {
    let clear = |i: usize| supported[i / 64] >> (i % 64) & 1 == 0;
    (0..values.len())
        .filter(|&i| clear(i))
        .map(|i| values[i])
        .collect()
}

/// `f(a, b)` when it is defined and an `i32`.
fn apply2(f: fn(i64, i64) -> Option<i64>, a: i32, b: i32) -> Option<i32> {
    f(i64::from(a), i64::from(b)).and_then(|v| i32::try_from(v).ok())
}

impl Propagator for Binary {
    fn name(&self) -> &str {
        self.name
    }

    fn vars(&self) -> &[VarId] {
        &self.vars
    }

    fn consistency(&self) -> Strength {
        Strength::Domain
    }

    fn propagate(&self, d: &mut Domains<'_>) -> Result<(), Conflict> {
        let (x, y, z) = (self.vars[0], self.vars[1], self.vars[2]);
        let pairs = u64::from(d.size(x)) * u64::from(d.size(y));
        if pairs > MAX_PAIRS {
            return match (d.value(x), d.value(y)) {
                (Some(a), Some(b)) => match apply2(self.f, a, b) {
                    Some(v) => d.fix(z, v),
                    None => Err(Conflict),
                },
                _ => Ok(()),
            };
        }
        let xs: Values = d.values(x).collect();
        let ys: Values = d.values(y).collect();
        // Which values of x and y have a support, as bitsets (at most MAX_PAIRS values).
        let mut x_ok: SmallVec<[u64; 1]> = SmallVec::from_elem(0, xs.len().div_ceil(64));
        let mut y_ok: SmallVec<[u64; 1]> = SmallVec::from_elem(0, ys.len().div_ceil(64));
        let mut images = Values::new();
        for (i, &a) in xs.iter().enumerate() {
            for (j, &b) in ys.iter().enumerate() {
                if let Some(v) = apply2(self.f, a, b).filter(|&v| d.contains(z, v)) {
                    x_ok[i / 64] |= 1 << (i % 64);
                    y_ok[j / 64] |= 1 << (j % 64);
                    images.push(v);
                }
            }
        }
        d.remove_values(x, &unsupported(&xs, &x_ok))?;
        d.remove_values(y, &unsupported(&ys, &y_ok))?;
        keep_only(d, z, images)
    }
}
