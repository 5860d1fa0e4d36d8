//! `z = table[i]` over constants, 0-based: an index outside the table, or whose entry `z`
//! cannot take, leaves `i`; a value of `z` that no index left gives leaves `z`. Domain
//! consistent.

use super::filter_by_image;
use crate::propagator::{Conflict, Domains, Propagator, Strength};
use crate::var::VarId;

/// The table, then `[i, z]`.
#[derive(Debug)]
pub(crate) struct Element {
    table: Vec<i32>,
    vars: [VarId; 2],
}

impl Element {
    pub(crate) fn new(table: &[i32], index: VarId, z: VarId) -> Self {
        Element {
            table: table.to_vec(),
            vars: [index, z],
        }
    }
}

impl Propagator for Element {
    fn name(&self) -> &str {
        "element"
    }

    fn vars(&self) -> &[VarId] {
        &self.vars
    }

    fn consistency(&self) -> Strength {
        Strength::Domain
    }

    fn propagate(&self, d: &mut Domains<'_>) -> Result<(), Conflict> {
        let [i, z] = self.vars;
        filter_by_image(d, i, z, |k| {
            usize::try_from(k)
                .ok()
                .and_then(|k| self.table.get(k))
                .copied()
        })
    }
}
