//! Ordered parallel work on a chunk of inputs, with each item's panic contained.
//!
//! A batch streams: the caller reads a chunk, runs it here, prints the results in input
//! order and reads the next chunk, so memory does not grow with the input.

use std::panic::{catch_unwind, AssertUnwindSafe};

use rayon::prelude::*;
use rayon::ThreadPool;

/// Inputs read before a chunk is solved and printed: large enough to keep every thread
/// busy, small enough to bound memory and show output early.
pub const CHUNK: usize = 512;

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
