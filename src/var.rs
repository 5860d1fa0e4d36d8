//! Variable handles: the bottom of the core, named by every layer above.

use std::fmt;

/// A handle to a variable of one [`Model`](crate::Model).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct VarId(u32);

impl VarId {
    /// The variable at position `index` of its model.
    pub(crate) fn new(index: u32) -> Self {
        VarId(index)
    }

    /// The position of the variable in its model, in creation order.
    pub fn index(self) -> usize {
        self.0 as usize
    }
}

impl fmt::Display for VarId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "x{}", self.0)
    }
}
