//! A propagator of the user's own ([`Propagator`]), run through the public [`Domains`]
//! view until it narrows nothing more.

use std::sync::Arc;

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
            Watch::Fixed => Event::Fix,
        }
    }

    pub(crate) fn is_costly(&self) -> bool {
        self.propagator.cost() == Cost::Costly
    }

    /// Runs the propagator until a run narrows nothing: the engine does not wake a
    /// propagator for its own writes, and the contract promises a run after each of them.
    #[inline(never)]
    pub(crate) fn propagate(&self, engine: &mut Engine) -> Result<(), Conflict> {
        let mut domains = Domains::new(engine);
        loop {
            self.propagator.propagate(&mut domains)?;
            if !domains.take_narrowed() {
                return Ok(());
            }
        }
    }
}
