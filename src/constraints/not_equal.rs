//! `x != y + c`: once one side is fixed, its counterpart value leaves the other side.

use crate::propagate::{Conflict, Engine};

/// `x != y + offset`.
#[derive(Clone, Debug)]
pub(crate) struct NotEqual {
    vars: [usize; 2],
    offset: i64,
}

impl NotEqual {
    pub(crate) fn new(x: usize, y: usize, offset: i32) -> Self {
        NotEqual {
            vars: [x, y],
            offset: i64::from(offset),
        }
    }

    pub(crate) fn vars(&self) -> &[usize] {
        &self.vars
    }

    /// One pass in each direction is a fixed point: if pruning `y` fixes it, its value
    /// already differs from `x - c`, so `x` has nothing left to lose.
    #[inline]
    pub(crate) fn propagate(&self, e: &mut Engine) -> Result<(), Conflict> {
        let [x, y] = self.vars;
        if let Some(vy) = fixed_value(e, y) {
            e.remove(x, vy + self.offset)?;
        }
        if let Some(vx) = fixed_value(e, x) {
            e.remove(y, vx - self.offset)?;
        }
        Ok(())
    }
}

fn fixed_value(e: &Engine, var: usize) -> Option<i64> {
    e.store.fixed_value(var).map(i64::from)
}
