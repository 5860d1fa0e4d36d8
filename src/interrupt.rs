//! Stopping work in its middle: a signal from outside (a search's deadline, its
//! cancellation flags) read at intervals of work units (search nodes, propagator runs)
//! that adapt to what the units cost.
//!
//! Reading the clock costs about as much as a cheap unit of work, so it is read once in a
//! run of units: the run doubles while it takes less than half of [`READ_PERIOD`] and
//! shrinks in proportion when it takes longer, so that units of milliseconds each are
//! followed by a reading each.

use std::fmt::Debug;
use std::sync::Arc;
use std::time::{Duration, Instant};

/// How long work should go between two readings of the clock: a stop comes about this
/// late, unless a single unit of work takes longer.
pub(crate) const READ_PERIOD: Duration = Duration::from_millis(1);

/// What tells work to stop: true once it must (at the time `now`).
pub(crate) trait StopSignal: Debug + Send + Sync {
    /// Whether the work must stop at `now`.
    fn stop_at(&self, now: Instant) -> bool;
}

/// The run of work units from one reading of the clock to the next.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Pace {
    interval: u64,
    most: u64,
    last_read: Option<Instant>,
}

impl Pace {
    /// A pace that starts at one unit and grows to at most `most`, with no reading yet
    /// unless `now` gives one.
    pub(crate) fn new(most: u64, now: Option<Instant>) -> Self {
        Pace {
            interval: 1,
            most,
            last_read: now,
        }
    }

    /// Back to a reading after the next unit (work that is about to turn expensive).
    pub(crate) fn reset(&mut self) {
        self.interval = 1;
    }

    /// A reading at `now`: adapts the run to how long the last one took and returns the
    /// units until the next reading.
    pub(crate) fn read(&mut self, now: Instant) -> u64 {
        let took = self
            .last_read
            .map_or(Duration::ZERO, |t| now.saturating_duration_since(t));
        self.last_read = Some(now);
        self.interval = if took < READ_PERIOD / 2 {
            (self.interval * 2).min(self.most)
        } else {
            let ratio = took.as_nanos() / READ_PERIOD.as_nanos();
            let ratio = u64::try_from(ratio).unwrap_or(u64::MAX).max(1);
            (self.interval / ratio).max(1)
        };
        self.interval
    }
}

/// The longest run of propagator runs between two readings.
const MOST_RUNS: u64 = 1024;

/// The propagator runs a propagation makes before its first reading: the search reads
/// the clock between nodes, so only a propagation longer than this needs readings of
/// its own, and the many short ones take none.
pub(crate) const FIRST_READING: u64 = 64;

/// A propagation's side of a search's limits: while armed with a signal, a propagation
/// that has made [`FIRST_READING`] propagator runs reads it, and then every so many runs,
/// so that a time limit or a cancellation stops even a propagation that takes seconds (a
/// large global constraint at the root). Disarmed, the count of runs only goes down, and
/// a reading is never taken.
#[derive(Clone, Debug)]
pub(crate) struct Interruption {
    signal: Option<Arc<dyn StopSignal>>,
    pace: Pace,
    /// Runs until the next reading (`u64::MAX` when disarmed).
    runs_to_read: u64,
    /// What `runs_to_read` starts from in each propagation (1 once stopped).
    first: u64,
    stopped: bool,
}

impl Default for Interruption {
    fn default() -> Self {
        Interruption {
            signal: None,
            pace: Pace::new(MOST_RUNS, None),
            runs_to_read: u64::MAX,
            first: u64::MAX,
            stopped: false,
        }
    }
}

impl Interruption {
    /// Reads `signal` in each propagation from its [`FIRST_READING`]th run on (nothing
    /// happens without a signal).
    pub(crate) fn arm(&mut self, signal: Option<Arc<dyn StopSignal>>) {
        if signal.is_some() {
            self.signal = signal;
            self.first = FIRST_READING;
        }
    }

    /// No more readings, and no stop.
    pub(crate) fn disarm(&mut self) {
        self.signal = None;
        self.runs_to_read = u64::MAX;
        self.first = u64::MAX;
        self.stopped = false;
    }

    /// A propagation starts: its first reading comes after [`FIRST_READING`] runs (at
    /// once when the signal said stop already).
    #[inline(always)]
    pub(crate) fn begin(&mut self) {
        self.runs_to_read = self.first;
    }

    /// Whether the signal said stop since the interruption was armed.
    pub(crate) fn stopped(&self) -> bool {
        self.stopped
    }

    /// Counts one propagator run; true when the propagation must stop now.
    #[inline(always)]
    pub(crate) fn tick(&mut self) -> bool {
        self.runs_to_read -= 1;
        self.runs_to_read == 0 && self.read()
    }

    /// The reading [`tick`](Interruption::tick) came to. Once stopped, every run stops.
    #[cold]
    #[inline(never)]
    fn read(&mut self) -> bool {
        let Some(signal) = &self.signal else {
            self.runs_to_read = u64::MAX;
            return false;
        };
        if self.stopped {
            self.runs_to_read = 1;
            return true;
        }
        let now = Instant::now();
        // The first reading of a propagation measures the time since the last one, which
        // may span many nodes: the pace shrinks, and grows back while the runs are quick.
        self.runs_to_read = self.pace.read(now);
        self.stopped = signal.stop_at(now);
        if self.stopped {
            self.runs_to_read = 1;
            self.first = 1;
        }
        self.stopped
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::{AtomicBool, Ordering};

    #[derive(Debug, Default)]
    struct Flag(AtomicBool);

    impl StopSignal for Flag {
        fn stop_at(&self, _now: Instant) -> bool {
            self.0.load(Ordering::Relaxed)
        }
    }

    /// A raised flag as a signal.
    fn raised(raised: bool) -> (Arc<Flag>, Arc<dyn StopSignal>) {
        let flag = Arc::new(Flag::default());
        flag.0.store(raised, Ordering::Relaxed);
        (flag.clone(), flag)
    }

    #[test]
    fn a_disarmed_interruption_never_stops() {
        let (_, signal) = raised(true);
        let mut interruption = Interruption::default();
        interruption.begin();
        assert!((0..10_000).all(|_| !interruption.tick()));
        interruption.arm(Some(Arc::clone(&signal)));
        interruption.disarm();
        interruption.begin();
        assert!((0..10_000).all(|_| !interruption.tick()));
        assert!(!interruption.stopped());
    }

    #[test]
    fn short_propagations_never_read_the_signal() {
        let (_, signal) = raised(true);
        let mut interruption = Interruption::default();
        interruption.arm(Some(Arc::clone(&signal)));
        for _ in 0..1_000 {
            interruption.begin();
            assert!((1..FIRST_READING).all(|_| !interruption.tick()));
        }
        assert!(!interruption.stopped());
    }

    #[test]
    fn a_long_propagation_stops_within_the_longest_run_and_stays_stopped() {
        let (flag, signal) = raised(false);
        let mut interruption = Interruption::default();
        interruption.arm(Some(Arc::clone(&signal)));
        interruption.begin();
        assert!((0..5_000).all(|_| !interruption.tick()));
        flag.0.store(true, Ordering::Relaxed);
        let runs = (1..=MOST_RUNS).find(|_| interruption.tick());
        assert!(runs.is_some(), "stopped within {MOST_RUNS} runs");
        assert!(interruption.stopped());
        assert!(interruption.tick(), "every later run stops too");
        interruption.begin();
        assert!(
            interruption.tick(),
            "and the first run of the next propagation"
        );
        interruption.disarm();
        assert!(!interruption.stopped());
    }

    #[test]
    fn slow_runs_are_each_followed_by_a_reading() {
        let mut pace = Pace::new(256, Some(Instant::now()));
        std::thread::sleep(READ_PERIOD * 4);
        assert_eq!(pace.read(Instant::now()), 1);
        let quick = pace.read(Instant::now());
        assert!(quick <= 2, "{quick}");
    }
}
