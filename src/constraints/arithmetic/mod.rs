//! Arithmetic and lookup constraints, each a [`Propagator`](crate::Propagator) in a file of
//! its own, posted through the model's methods (`Model::times`, `Model::abs`, ...). They
//! run through the public contract, like a user's propagator: a dynamic call per run,
//! which a benchmark has yet to show matters for them.

mod element;
mod function;
mod linear_ne;
mod min_max;

pub(crate) use element::Element;
pub(crate) use function::{Binary, Unary};
pub(crate) use linear_ne::LinearNotEqual;
pub(crate) use min_max::Extremum;
