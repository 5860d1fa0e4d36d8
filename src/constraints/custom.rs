//! A propagator of the user's own ([`Propagator`]), run through the public [`Domains`]
//! view until it narrows nothing more.

use std::sync::Arc;

use crate::difference_cycles::Difference;
use crate::propagate::{Conflict, Engine, Event};
use crate::propagator::{Cost, Domains, Propagator, Watch};

/// A user's propagator and its variables as store indices.
#[derive(Clone, Debug)]
pub(crate) struct Custom {
    propagator: Arc<dyn Propagator>,
    vars: Vec<usize>,
}

impl Custom {
    /// Wraps `propagator` (its variables validated by the model).
    pub(crate) fn new(propagator: Arc<dyn Propagator>) -> Self {
        let vars = propagator.vars().iter().map(|v| v.index()).collect();
        Custom { propagator, vars }
    }

    pub(crate) fn vars(&self) -> &[usize] {
        &self.vars
    }

    pub(crate) fn event(&self) -> Event {
        match self.propagator.watch() {
            Watch::AnyChange => Event::Change,
            Watch::Bounds => Event::Bounds,
            Watch::Fixed => Event::Fix,
        }
    }

    pub(crate) fn is_costly(&self) -> bool {
        self.propagator.cost() == Cost::Costly
    }

    /// Runs the propagator until a run narrows nothing: the engine does not wake a
    /// propagator for its own writes, and the contract promises a run after each of them.
    #[inline(never)]
    pub(crate) fn propagate(
        &self,
        engine: &mut Engine,
        scratch: &mut [u64],
    ) -> Result<(), Conflict> {
        let changes = if self.reads_changes() {
            let bits = &mut scratch[..self.scratch_words()];
            engine.take_changes(bits);
            Some(&*bits)
        } else {
            None
        };
        let mut domains = Domains::new(engine, changes);
        loop {
            self.propagator.propagate(&mut domains)?;
            domains.forget_changes();
            if !domains.take_narrowed() {
                return Ok(());
            }
        }
    }

    /// Adds to `out` the differences the user's propagator reports (see
    /// `difference_cycles`), as constraint `source`.
    pub(crate) fn differences(&self, engine: &mut Engine, source: u32, out: &mut Vec<Difference>) {
        let mut pairs = Vec::new();
        self.propagator
            .differences(&Domains::new(engine, None), &mut pairs);
        out.extend(pairs.into_iter().map(|(x, y, bound)| Difference {
            x: x.index(),
            y: y.index(),
            bound,
            source,
        }));
    }

    /// Whether the engine keeps its changed variables (only "any change" watches record
    /// them).
    pub(crate) fn reads_changes(&self) -> bool {
        self.propagator.reads_changes() && matches!(self.propagator.watch(), Watch::AnyChange)
    }

    /// Scratch words: the bitset of changed variables, when it reads them.
    pub(crate) fn scratch_words(&self) -> usize {
        if self.reads_changes() {
            self.vars.len().div_ceil(64)
        } else {
            0
        }
    }
}
