//! Scheduling constraints, each a [`Propagator`](crate::Propagator) posted through the
//! model's methods (`Model::cumulative`).

mod cumulative;

pub(crate) use cumulative::Cumulative;
