//! Counting constraints, each a [`Propagator`](crate::Propagator) posted through the
//! model's methods (`Model::count`, `Model::among`, `Model::global_cardinality`).

mod among;

pub(crate) use among::Among;
