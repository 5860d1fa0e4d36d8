//! Counters of one search call.

use std::time::Duration;

/// What the last `solve`, `count` or solution iteration did.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Statistics {
    /// Branching decisions taken (search nodes).
    pub nodes: u64,
    /// Nodes whose propagation failed.
    pub failures: u64,
    /// Propagator runs.
    pub propagations: u64,
    /// Solutions reached.
    pub solutions: u64,
    /// Restarts from the root (see [`Restarts`](crate::Restarts)).
    pub restarts: u64,
    /// Nogoods recorded at those restarts (see [`Restarts`](crate::Restarts)).
    pub nogoods: u64,
    /// Deepest search level reached.
    pub max_depth: u64,
    /// Wall-clock time of the call.
    pub elapsed: Duration,
}
