//! `a[0]·x[0] + … + a[n-1]·x[n-1] ≠ c`: once all terms but one are fixed, the value that
//! would make the sum equal `c` leaves the last variable; a complete assignment summing to
//! `c` fails. That is domain consistency for this constraint (a sum with two or more free
//! terms can always avoid one value).

use crate::propagator::{Conflict, Domains, Propagator, Strength, Watch};
use crate::var::VarId;

/// The compiled disequality (terms with a zero coefficient dropped).
#[derive(Debug)]
pub(crate) struct LinearNotEqual {
    vars: Vec<VarId>,
    coeffs: Vec<i64>,
    rhs: i64,
}

impl LinearNotEqual {
    pub(crate) fn new(vars: &[VarId], coeffs: &[i32], rhs: i64) -> Self {
        let (vars, coeffs) = vars
            .iter()
            .zip(coeffs)
            .filter(|(_, &a)| a != 0)
            .map(|(&v, &a)| (v, i64::from(a)))
            .unzip();
        LinearNotEqual { vars, coeffs, rhs }
    }
}

impl Propagator for LinearNotEqual {
    fn name(&self) -> &str {
        "linear_ne"
    }

    fn vars(&self) -> &[VarId] {
        &self.vars
    }

    fn watch(&self) -> Watch {
        Watch::Fixed
    }

    fn consistency(&self) -> Strength {
        Strength::Domain
    }

    fn propagate(&self, d: &mut Domains<'_>) -> Result<(), Conflict> {
        let mut free = None;
        let mut sum: i128 = 0;
        for (&x, &a) in self.vars.iter().zip(&self.coeffs) {
            match d.value(x) {
                Some(v) => sum += i128::from(a) * i128::from(v),
                None if free.is_none() => free = Some((x, a)),
                None => return Ok(()), // two free terms: nothing to do yet
            }
        }
        let rest = i128::from(self.rhs) - sum;
        match free {
            None if rest == 0 => Err(Conflict),
            None => Ok(()),
            Some((x, a)) => {
                let a = i128::from(a);
                if rest % a == 0 {
                    if let Ok(v) = i32::try_from(rest / a) {
                        d.remove(x, v)?;
                    }
                }
                Ok(())
            }
        }
    }
}
