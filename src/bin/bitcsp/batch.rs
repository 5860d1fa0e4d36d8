//! Ordered parallel work on a chunk of inputs, with each item's panic contained.
//!
//! A batch streams: the caller reads a chunk, runs it here, prints the results in input
//! order and reads the next chunk, so memory does not grow with the input.

use std::panic::{catch_unwind, AssertUnwindSafe};
use std::time::Duration;

use rayon::prelude::*;
use rayon::ThreadPool;

/// The most inputs a chunk takes: with quick puzzles, few hand-overs between the reader,
/// the workers and the printer, and little time lost waiting for a chunk's last puzzle.
pub const MAX_CHUNK: usize = 4096;

/// The fewest inputs a chunk takes, per thread: enough that the threads share its work.
const MIN_CHUNK_PER_THREAD: usize = 4;

/// A chunk answered within this time lets the next take twice as many inputs...
const QUICK: Duration = Duration::from_millis(20);

/// ...and one that took longer than this lets it take half as many, so that answers
/// and progress keep coming with slow puzzles.
const SLOW: Duration = Duration::from_millis(200);

/// How many inputs the next chunk takes, from how long the last one took: chunks grow
/// while they are answered quickly and shrink while they are slow. Only the batching
/// depends on it, never an answer or its order.
pub struct ChunkSize {
    inputs: usize,
    fewest: usize,
}

impl ChunkSize {
    /// Starts at the fewest inputs for `threads` workers.
    pub fn new(threads: usize) -> Self {
        let fewest = threads
            .max(1)
            .saturating_mul(MIN_CHUNK_PER_THREAD)
            .clamp(16, MAX_CHUNK);
        ChunkSize {
            inputs: fewest,
            fewest,
        }
    }

    /// How many inputs the next chunk takes.
    pub fn inputs(&self) -> usize {
        self.inputs
    }

    /// The last chunk, of [`inputs`](ChunkSize::inputs) or fewer, took `elapsed`.
    pub fn took(&mut self, elapsed: Duration) {
        if elapsed < QUICK {
            self.inputs = self.inputs.saturating_mul(2).min(MAX_CHUNK);
        } else if elapsed > SLOW {
            self.inputs = (self.inputs / 2).max(self.fewest);
        }
    }
}

/// A rayon pool of `threads` workers (0 means one per core).
pub fn pool(threads: usize) -> Result<ThreadPool, String> {
    rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .map_err(|e| format!("cannot start {threads} threads: {e}"))
}

/// Runs `work` on every item in `pool`, results in input order. An item whose work panics
/// gets `on_panic(item, message)` instead; the other items are unaffected.
pub fn run_ordered<T, R>(
    pool: &ThreadPool,
    items: &[T],
    work: impl Fn(&T) -> R + Sync,
    on_panic: impl Fn(&T, String) -> R + Sync,
) -> Vec<R>
where
    T: Sync,
    R: Send,
{
    pool.install(|| {
        items
            .par_iter()
            .map(|item| {
                catch_unwind(AssertUnwindSafe(|| work(item)))
                    .unwrap_or_else(|payload| on_panic(item, panic_message(payload.as_ref())))
            })
            .collect()
    })
}

fn panic_message(payload: &(dyn std::any::Any + Send)) -> String {
    if let Some(s) = payload.downcast_ref::<&str>() {
        (*s).to_string()
    } else if let Some(s) = payload.downcast_ref::<String>() {
        s.clone()
    } else {
        "unknown panic".to_string()
    }
}

/// Keeps the default panic report off stderr: a contained panic is reported as that
/// item's error instead.
pub fn quiet_panics() {
    std::panic::set_hook(Box::new(|_| {}));
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn chunks_grow_while_quick_and_shrink_while_slow_within_their_bounds() {
        let mut size = ChunkSize::new(2);
        assert_eq!(size.inputs(), 16);
        for _ in 0..20 {
            size.took(Duration::from_millis(1));
        }
        assert_eq!(size.inputs(), MAX_CHUNK);
        size.took(Duration::from_millis(100));
        assert_eq!(size.inputs(), MAX_CHUNK, "neither quick nor slow: kept");
        size.took(Duration::from_secs(1));
        assert_eq!(size.inputs(), MAX_CHUNK / 2);
        for _ in 0..20 {
            size.took(Duration::from_secs(1));
        }
        assert_eq!(size.inputs(), 16);
        assert_eq!(ChunkSize::new(64).inputs(), 256, "a share for every thread");
        assert_eq!(ChunkSize::new(0).inputs(), 16);
    }

    #[test]
    fn a_panicking_item_is_reported_and_the_others_are_answered_in_order() {
        let pool = pool(2).unwrap();
        let items: Vec<u32> = (0..100).collect();
        let results = run_ordered(
            &pool,
            &items,
            |&i| {
                if i == 37 {
                    panic!("boom at {i}");
                }
                format!("ok {i}")
            },
            |&i, msg| format!("error {i}: {msg}"),
        );
        assert_eq!(results.len(), 100);
        assert_eq!(results[36], "ok 36");
        assert_eq!(results[37], "error 37: boom at 37");
        assert_eq!(results[99], "ok 99");
    }
}
