//! Booleans and reification: clauses over 0/1 variables (two watched literals, in the
//! engine's own form, since they keep watches in the store), reified sums (in the
//! engine's own form too: scheduling models run them most), and reified equalities of two
//! variables (through the public [`Propagator`](crate::Propagator) contract).

mod clauses;
mod indicators;
mod reified;
mod reified_linear;
mod word_indicators;

pub(crate) use clauses::{Clauses, Lit};
pub(crate) use indicators::Indicators;
pub(crate) use reified::{LinearRelation, Reification, ReifiedEqual, MAX_VALUES};
pub(crate) use reified_linear::ReifiedLinear;
pub(crate) use word_indicators::WordIndicators;
