//! The solver's form of a model's constraints: propagators, watch lists and the static
//! facts the heuristics use. Built once per model structure and shared (through `Arc`) by
//! every solver of that model and of its clones.

use std::sync::Arc;

mod var_info;

pub(crate) use var_info::{NeighbourBits, Neighbours, VarInfo, BITSET_WORDS};

use crate::constraints::{compile, Constraint};
use crate::domain::Domain;
use crate::posted::Posted;
use crate::propagate::Watchers;
use crate::store::{Layout, Store};

/// Compiled constraints of one model structure.
#[derive(Clone, Debug)]
pub(crate) struct Compiled {
    pub(crate) constraints: Arc<[Constraint]>,
    pub(crate) watchers: Arc<Watchers>,
    pub(crate) info: Arc<VarInfo>,
    pub(crate) scratch_words: usize,
    /// Words the propagators keep in the store beyond the domains.
    pub(crate) aux_words: usize,
    /// Where each variable's words lie in a store of this model.
    pub(crate) layout: Arc<[Layout]>,
}

impl Compiled {
    /// Compiles the constraints `posted` over variables of `domains`.
    pub(crate) fn new(domains: &[Domain], posted: &[Posted]) -> Self {
        let store = Store::new(domains);
        let constraints: Arc<[Constraint]> = compile(posted, &store).into();
        let mut aux_words: usize = constraints.iter().map(Constraint::aux_words).sum();
        // The bitset of disposed constraints follows the propagators' own words, in a
        // model where any constraint disposes of itself.
        let disposed_from = constraints
            .iter()
            .any(Constraint::disposes_of_itself)
            .then(|| store.len() + aux_words)
            .and_then(|from| u32::try_from(from).ok());
        if disposed_from.is_some() {
            aux_words += constraints.len().div_ceil(64);
        }
        Compiled {
            layout: store.shared_layout(),
            aux_words,
            watchers: Arc::new(Watchers::new(store.num_vars(), &constraints, disposed_from)),
            info: Arc::new(VarInfo::new(domains, &constraints)),
            scratch_words: constraints
                .iter()
                .map(Constraint::scratch_words)
                .max()
                .unwrap_or(0),
            constraints,
        }
    }
}
