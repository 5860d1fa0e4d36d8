//! Counting constraints, each a [`Propagator`](crate::Propagator) posted through the
//! model's methods (`Model::count`, `Model::among`, `Model::global_cardinality`).

mod among;
mod cardinality;

pub(crate) use among::Among;
pub(crate) use cardinality::GlobalCardinality;
