//! A budget of bytes that a reading thread may hold ahead of its consumer: lines read but
//! not yet answered. The channel between them bounds how many lines wait; this bounds
//! their size too, so that long lines cannot make a large chunk a large allocation.

use std::sync::{Arc, Condvar, Mutex, MutexGuard, PoisonError};

/// Bytes of line text read ahead at most (a chunk of 9×9 puzzles holds well under one
/// megabyte; only lines near [`MAX_LINE`](crate::input::MAX_LINE) come near it).
pub const READ_AHEAD_BYTES: usize = 8 << 20;

/// The bytes held, shared by the reader and the chunks it handed over.
#[derive(Default)]
pub struct Budget {
    state: Mutex<State>,
    freed: Condvar,
}

#[derive(Default)]
struct State {
    held: usize,
    /// The consumer is gone: the reader must not wait for bytes to come back.
    closed: bool,
}

impl Budget {
    fn state(&self) -> MutexGuard<'_, State> {
        // The state is two plain fields, valid whatever a panicking holder did.
        self.state.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// Waits until `bytes` more fit (a line always fits when nothing is held), then holds
    /// them. False when the consumer has gone.
    pub fn hold(&self, bytes: usize) -> bool {
        let mut state = self.state();
        while !state.closed && state.held > 0 && state.held.saturating_add(bytes) > READ_AHEAD_BYTES
        {
            state = self
                .freed
                .wait(state)
                .unwrap_or_else(PoisonError::into_inner);
        }
        state.held = state.held.saturating_add(bytes);
        !state.closed
    }

    /// Gives `bytes` back, waking the reader if it waits for them.
    pub fn release(&self, bytes: usize) {
        let mut state = self.state();
        state.held = state.held.saturating_sub(bytes);
        self.freed.notify_all();
    }

    /// The consumer is gone: a waiting reader stops waiting.
    pub fn close(&self) {
        self.state().closed = true;
        self.freed.notify_all();
    }
}

/// Bytes of a handed-over chunk, given back to the budget when the chunk is dropped
/// (answered and printed).
pub struct Lease {
    budget: Arc<Budget>,
    bytes: usize,
}

impl Lease {
    /// A lease of nothing yet on `budget`.
    pub fn new(budget: Arc<Budget>) -> Self {
        Lease { budget, bytes: 0 }
    }

    /// Adds `bytes` already held to the lease.
    pub fn add(&mut self, bytes: usize) {
        self.bytes = self.bytes.saturating_add(bytes);
    }
}

impl Drop for Lease {
    fn drop(&mut self) {
        self.budget.release(self.bytes);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    #[test]
    fn a_reader_waits_until_a_lease_gives_its_bytes_back() {
        let budget = Arc::new(Budget::default());
        assert!(budget.hold(READ_AHEAD_BYTES - 10));
        let mut lease = Lease::new(Arc::clone(&budget));
        lease.add(READ_AHEAD_BYTES - 10);
        let reader = {
            let budget = Arc::clone(&budget);
            std::thread::spawn(move || budget.hold(100))
        };
        std::thread::sleep(Duration::from_millis(50));
        assert!(!reader.is_finished(), "100 bytes do not fit yet");
        drop(lease);
        assert!(reader.join().expect("the reader ends"));
        assert_eq!(budget.state().held, 100);
    }

    #[test]
    fn a_closed_budget_stops_a_waiting_reader() {
        let budget = Arc::new(Budget::default());
        assert!(budget.hold(READ_AHEAD_BYTES));
        let reader = {
            let budget = Arc::clone(&budget);
            std::thread::spawn(move || budget.hold(1))
        };
        std::thread::sleep(Duration::from_millis(20));
        budget.close();
        assert!(!reader.join().expect("the reader ends"));
    }

    #[test]
    fn a_line_larger_than_the_budget_still_passes_alone() {
        let budget = Budget::default();
        assert!(budget.hold(READ_AHEAD_BYTES * 2));
    }
}
