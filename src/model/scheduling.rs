//! Scheduling on the model: `cumulative`.

use std::sync::Arc;

use super::Model;
use crate::constraints::Cumulative;
use crate::error::ModelError;
use crate::posted::Posted;
use crate::var::VarId;

impl Model {
    /// Requires tasks that start at `starts[i]`, last `durations[i]` and use
    /// `uses[i]` units of a resource while they run (from the start, inclusive, to the
    /// start plus the duration, exclusive) never to use more than `capacity` units at
    /// once. Propagated by time-tabling: the parts of tasks that surely run make a profile,
    /// which fails above the capacity and keeps other tasks' starts off the times where
    /// they would not fit. When no two tasks fit together (a machine), the tasks' energy
    /// is also checked against every window between an earliest start and a latest end
    /// (overload checking). Not bounds consistent (that needs edge finding and energetic
    /// reasoning); sound, and exact once the starts are fixed.
    ///
    /// ```
    /// use bitcsp::{Model, Solver};
    /// // Three tasks of 2 time units, each using 2 of 3 units: one at a time.
    /// let mut model = Model::new();
    /// let starts = model.new_vars(3, 0..=4)?;
    /// model.cumulative(&starts, &[2, 2, 2], &[2, 2, 2], 3)?;
    /// assert_eq!(Solver::new(&model).count(None).count, 6); // 3! orders, no slack
    /// # Ok::<(), bitcsp::ModelError>(())
    /// ```
    ///
    /// # Errors
    /// [`ModelError::UnknownVariable`]; [`ModelError::CoefficientsLengthMismatch`] when
    /// the lists differ in length; [`ModelError::NegativeTaskTerm`] for a negative
    /// duration, use or capacity.
    pub fn cumulative(
        &mut self,
        starts: &[VarId],
        durations: &[i32],
        uses: &[i32],
        capacity: i32,
    ) -> Result<(), ModelError> {
        if durations.len() != starts.len() || uses.len() != starts.len() {
            return Err(ModelError::CoefficientsLengthMismatch {
                vars: starts.len(),
                coeffs: durations.len().min(uses.len()),
            });
        }
        if capacity < 0 || durations.iter().chain(uses).any(|&t| t < 0) {
            return Err(ModelError::NegativeTaskTerm);
        }
        self.check_vars(starts)?;
        let propagator = Cumulative::new(starts, durations, uses, capacity);
        self.post_validated(Posted::Custom(Arc::new(propagator)));
        Ok(())
    }
}
