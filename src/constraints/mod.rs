//! The propagators, one file each, and the enum that dispatches to them.
//!
//! Adding a constraint:
//! 1. write its propagator in a new file: a struct built from the posted arguments with a
//!    `propagate(&self, &mut Engine) -> Result<(), Conflict>` that reaches its own fixed point;
//! 2. add a variant to [`Constraint`] and to the `match`es below;
//! 3. add a `Model` method that validates the arguments (in `model.rs`) and its compilation
//!    in [`compile`];
//! 4. test it against brute force in `tests/brute_force.rs`.
//!
//! Dispatch is a `match` on an enum rather than a trait object: the set of constraints is
//! closed, and the compiler can inline the small ones into the propagation loop.

mod all_different;
mod not_equal;

pub(crate) use all_different::AllDifferent;
pub(crate) use not_equal::NotEqual;

use crate::model::{Model, Posted};
use crate::propagate::{Conflict, Engine, Event};
use crate::store::Store;

/// One compiled constraint.
#[derive(Clone, Debug)]
pub(crate) enum Constraint {
    AllDifferent(AllDifferent),
    NotEqual(NotEqual),
}

impl Constraint {
    /// Narrows domains; `Err` when the constraint cannot be satisfied any more.
    #[inline]
    pub(crate) fn propagate(&self, engine: &mut Engine) -> Result<(), Conflict> {
        match self {
            Constraint::AllDifferent(c) => c.propagate(engine),
            Constraint::NotEqual(c) => c.propagate(engine),
        }
    }

    /// The variables it watches.
    pub(crate) fn vars(&self) -> Vec<usize> {
        match self {
            Constraint::AllDifferent(c) => c.vars().to_vec(),
            Constraint::NotEqual(c) => c.vars().to_vec(),
        }
    }

    /// Which domain changes wake it.
    pub(crate) fn event(&self) -> Event {
        match self {
            Constraint::AllDifferent(_) => Event::Change,
            Constraint::NotEqual(_) => Event::Fix,
        }
    }

    /// How many words of [`Engine::scratch`] it needs.
    pub(crate) fn scratch_words(&self) -> usize {
        match self {
            Constraint::AllDifferent(c) => c.scratch_words(),
            Constraint::NotEqual(_) => 0,
        }
    }
}

/// Compiles the posted constraints of `model` for the domains laid out in `store`.
pub(crate) fn compile(model: &Model, store: &Store) -> Vec<Constraint> {
    model
        .posted()
        .iter()
        .map(|p| match p {
            Posted::AllDifferent { vars, offsets } => {
                Constraint::AllDifferent(AllDifferent::new(store, vars, offsets))
            }
            Posted::NotEqual { x, y, offset } => {
                Constraint::NotEqual(NotEqual::new(x.index(), y.index(), *offset))
            }
        })
        .collect()
}
