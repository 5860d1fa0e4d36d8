//! Booleans and reification: clauses over 0/1 variables (two watched literals, in the
//! engine's own form, since they keep watches in the store) and reified comparisons
//! (through the public [`Propagator`](crate::Propagator) contract).

mod clauses;
mod indicators;
mod reified;
mod word_indicators;

pub(crate) use clauses::{Clauses, Lit};
pub(crate) use indicators::Indicators;
pub(crate) use reified::{LinearRelation, Reification, ReifiedEqual, ReifiedLinear, MAX_VALUES};
pub(crate) use word_indicators::WordIndicators;
