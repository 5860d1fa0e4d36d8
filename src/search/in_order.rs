//! Work on a list of items spread over threads, each result handed back in list order as
//! soon as it and all before it are ready.
//!
//! Workers take the items in list order, one at a time, so a long item delays nobody but
//! itself (batches of a fixed size would wait for their slowest item); at most `lookahead`
//! results wait to be handed back, so memory stays bounded when results are large.

use std::panic::{self, AssertUnwindSafe};
use std::sync::{Condvar, Mutex, MutexGuard, PoisonError};
use std::thread;

/// The shared state: the next item to take, how many results were handed back, whether the
/// consumer wants no more, and the results waiting.
struct Queue<R> {
    next: usize,
    consumed: usize,
    halted: bool,
    results: Vec<Option<thread::Result<R>>>,
}

/// Runs `work(i, &items[i])` for every item on `workers` threads and hands the results to
/// `consume` in list order, on the calling thread, until it returns false. A panic in
/// `work` or `consume` stops the workers taking items and resumes on the calling thread.
pub(crate) fn run_in_order<T: Sync, R: Send>(
    items: &[T],
    workers: usize,
    lookahead: usize,
    work: impl Fn(usize, &T) -> R + Sync,
    mut consume: impl FnMut(R) -> bool,
) {
    let queue = Mutex::new(Queue {
        next: 0,
        consumed: 0,
        halted: false,
        results: items.iter().map(|_| None).collect(),
    });
    let changed = Condvar::new();
    let lookahead = lookahead.max(1);
    let mut panicked = None;
    thread::scope(|scope| {
        for _ in 0..workers.clamp(1, items.len().max(1)) {
            scope.spawn(|| {
                while let Some(i) = take_next(&queue, &changed, lookahead) {
                    let result = panic::catch_unwind(AssertUnwindSafe(|| work(i, &items[i])));
                    let mut q = lock(&queue);
                    q.halted |= result.is_err();
                    q.results[i] = Some(result);
                    drop(q);
                    changed.notify_all();
                }
            });
        }
        for i in 0..items.len() {
            // A panic here, in `work` or in `consume`, must still release the workers
            // (they may be waiting for the consumer to move on), so it is caught and
            // resumed once they have stopped.
            let result = wait_for(&queue, &changed, i)
                .and_then(|r| panic::catch_unwind(AssertUnwindSafe(|| consume(r))));
            let go_on = match result {
                Ok(go_on) => go_on,
                Err(payload) => {
                    panicked = Some(payload);
                    false
                }
            };
            let mut q = lock(&queue);
            q.consumed = i + 1;
            q.halted |= !go_on;
            drop(q);
            changed.notify_all();
            if !go_on {
                break;
            }
        }
    });
    if let Some(payload) = panicked {
        panic::resume_unwind(payload);
    }
}

/// The next item for a worker, once it is within `lookahead` of the results handed back;
/// `None` when every item is taken or the consumer halted.
fn take_next<R>(queue: &Mutex<Queue<R>>, changed: &Condvar, lookahead: usize) -> Option<usize> {
    let mut q = lock(queue);
    loop {
        if q.halted || q.next >= q.results.len() {
            return None;
        }
        if q.next < q.consumed + lookahead {
            q.next += 1;
            return Some(q.next - 1);
        }
        q = changed.wait(q).unwrap_or_else(PoisonError::into_inner);
    }
}

/// Waits for the result of item `i`.
fn wait_for<R>(queue: &Mutex<Queue<R>>, changed: &Condvar, i: usize) -> thread::Result<R> {
    let mut q = lock(queue);
    loop {
        if let Some(result) = q.results[i].take() {
            return result;
        }
        q = changed.wait(q).unwrap_or_else(PoisonError::into_inner);
    }
}

/// The queue's lock. No code panics while holding it, but a poisoned lock would still hold
/// consistent state, so it is taken either way.
fn lock<R>(queue: &Mutex<Queue<R>>) -> MutexGuard<'_, Queue<R>> {
    queue.lock().unwrap_or_else(PoisonError::into_inner)
}

#[cfg(test)]
mod tests {
    use super::run_in_order;
    use std::sync::atomic::{AtomicUsize, Ordering};

    #[test]
    fn results_come_in_list_order_whatever_the_workers() {
        let items: Vec<u64> = (0..200).collect();
        for workers in [1, 2, 3, 8] {
            let mut seen = Vec::new();
            run_in_order(
                &items,
                workers,
                4,
                |_, &x| {
                    // Uneven work, so that results finish out of order.
                    std::thread::sleep(std::time::Duration::from_micros(x * 7919 % 13 * 50));
                    x
                },
                |r| {
                    seen.push(r);
                    true
                },
            );
            assert_eq!(seen, items, "workers = {workers}");
        }
    }

    #[test]
    fn a_halt_stops_the_workers_taking_items() {
        let items: Vec<usize> = (0..1000).collect();
        let taken = AtomicUsize::new(0);
        let mut seen = Vec::new();
        run_in_order(
            &items,
            2,
            3,
            |_, &x| {
                taken.fetch_add(1, Ordering::Relaxed);
                x
            },
            |r| {
                seen.push(r);
                r < 10
            },
        );
        assert_eq!(seen, (0..=10).collect::<Vec<_>>());
        // At most `lookahead` items past the last one handed back, plus one per worker
        // taken before it saw the halt.
        assert!(taken.load(Ordering::Relaxed) <= 11 + 3 + 2);
    }

    #[test]
    #[should_panic(expected = "item 5")]
    fn a_panic_in_the_work_reaches_the_caller() {
        let items: Vec<usize> = (0..50).collect();
        run_in_order(
            &items,
            2,
            4,
            |_, &x| {
                assert!(x != 5, "item 5");
                x
            },
            |_| true,
        );
    }

    #[test]
    #[should_panic(expected = "consumer")]
    fn a_panic_in_the_consumer_releases_the_workers() {
        // Workers wait for the consumer once they are `lookahead` items ahead: a consumer
        // that panics must not leave them waiting forever.
        let items: Vec<usize> = (0..100).collect();
        run_in_order(
            &items,
            2,
            2,
            |_, &x| x,
            |x| {
                assert!(x != 3, "consumer");
                true
            },
        );
    }
}
