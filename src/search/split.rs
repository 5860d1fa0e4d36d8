//! A search split into parts that can run anywhere: the same deterministic split as the
//! parallel searches, handed out as root fixes.

use super::outcome::StopReason;
use super::solver::Solver;
use crate::model::VarId;

impl Solver {
    /// Splits the search into at least `target` parts (unless the tree has fewer branches
    /// near the root), each the root fixes that make one subproblem. The split goes level
    /// by level and always splits whole levels, so that the parts are of one depth and of
    /// like sizes; the number of parts can therefore pass `target` by up to one branching
    /// factor. Any
    /// solution lies in exactly one part, so counts over the parts add up to the count of
    /// the whole; with the fixes as assumptions ([`Solver::assume`]) a solver of the same
    /// model searches one part. Parts whose root fails are left out. The split depends
    /// only on the model, the search strategy and the current assumptions (which every
    /// part repeats), never on the machine or the thread count.
    ///
    /// ```
    /// use bitcsp::{queens, Solver};
    /// let (model, _) = queens::model(8)?;
    /// let mut solver = Solver::new(&model);
    /// let parts = solver.split(20).expect("no limit set");
    /// assert!(parts.len() >= 20);
    /// let mut total = 0;
    /// for fixes in &parts {
    ///     let mut part = Solver::new(&model);
    ///     part.assume(fixes)?;
    ///     total += part.count(None).count;
    /// }
    /// assert_eq!(total, 92);
    /// # Ok::<(), bitcsp::ModelError>(())
    /// ```
    ///
    /// # Errors
    /// The [`StopReason`] of a time limit or cancellation that stopped the split (each
    /// part costs a root propagation).
    pub fn split(&mut self, target: usize) -> Result<Vec<Vec<(VarId, i32)>>, StopReason> {
        let parts = self.split_fixes(target)?;
        Ok(parts
            .into_iter()
            .map(|fixes| {
                // A model's values are `i32`s: the clamp never changes one.
                fixes
                    .into_iter()
                    .map(|(var, value)| {
                        let value = value.clamp(i64::from(i32::MIN), i64::from(i32::MAX)) as i32;
                        (VarId::new(var), value)
                    })
                    .collect()
            })
            .collect())
    }
}
