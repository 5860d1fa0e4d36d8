//! A progress bar on stderr for long runs, shown only when stderr is a terminal.

use std::io::IsTerminal;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Arc;
use std::thread::JoinHandle;
use std::time::Duration;

use indicatif::{ProgressBar, ProgressStyle};

/// A bar over bytes of input (or a spinner when the size is unknown), shown only when
/// stderr is a terminal and stdout is not: answers scrolling on the terminal show the
/// progress themselves, and a bar between them would be redrawn after every line.
pub struct Progress {
    bar: Option<ProgressBar>,
}

impl Progress {
    /// A bar for an input of `total_bytes` (`None`: unknown size).
    pub fn new(total_bytes: Option<u64>) -> Self {
        if !std::io::stderr().is_terminal() || std::io::stdout().is_terminal() {
            return Progress { bar: None };
        }
        let bar = match total_bytes {
            Some(total) => ProgressBar::new(total).with_style(
                ProgressStyle::with_template("{bar:40} {percent}% {msg} ({elapsed})")
                    .unwrap_or_else(|_| ProgressStyle::default_bar()),
            ),
            None => ProgressBar::new_spinner(),
        };
        bar.enable_steady_tick(Duration::from_millis(200));
        Progress { bar: Some(bar) }
    }

    /// Moves the bar to `bytes` read, `puzzles` done.
    pub fn set_position(&self, bytes: u64, puzzles: u64) {
        if let Some(bar) = &self.bar {
            bar.set_position(bytes);
            bar.set_message(format!("{puzzles} puzzles"));
        }
    }

    /// Runs `f` with the bar hidden, so that lines printed on stderr do not tear it. Each
    /// call redraws the bar: call it once per batch of lines, not once per line.
    pub fn suspend<R>(&self, f: impl FnOnce() -> R) -> R {
        match &self.bar {
            Some(bar) => bar.suspend(f),
            None => f(),
        }
    }

    /// Removes the bar.
    pub fn finish(&self) {
        if let Some(bar) = &self.bar {
            bar.finish_and_clear();
        }
    }
}

/// A bar for one long search, driven by the share of the search tree explored that the
/// solver publishes; silent when stderr is not a terminal.
pub struct SearchProgress {
    sink: Arc<AtomicU64>,
    stop: Arc<AtomicBool>,
    painter: Option<JoinHandle<()>>,
}

impl SearchProgress {
    /// Starts the bar (when stderr is a terminal).
    pub fn start() -> Self {
        Self::start_for("of the search tree")
    }

    /// Starts the bar, saying what its percentage is of.
    pub fn start_for(what: &str) -> Self {
        let template = format!("{{bar:40}} {{percent}}% {what} ({{elapsed}})");
        let sink = Arc::new(AtomicU64::new(0));
        let stop = Arc::new(AtomicBool::new(false));
        let painter = std::io::stderr().is_terminal().then(|| {
            let (sink, stop) = (Arc::clone(&sink), Arc::clone(&stop));
            std::thread::spawn(move || {
                let bar = ProgressBar::new(1_000_000_000).with_style(
                    ProgressStyle::with_template(&template)
                        .unwrap_or_else(|_| ProgressStyle::default_bar()),
                );
                while !stop.load(Ordering::Relaxed) {
                    bar.set_position(sink.load(Ordering::Relaxed));
                    std::thread::sleep(Duration::from_millis(100));
                }
                bar.finish_and_clear();
            })
        });
        SearchProgress {
            sink,
            stop,
            painter,
        }
    }

    /// Where the solver publishes its progress.
    pub fn sink(&self) -> Arc<AtomicU64> {
        Arc::clone(&self.sink)
    }

    /// Removes the bar.
    pub fn finish(self) {
        self.stop.store(true, Ordering::Relaxed);
        if let Some(painter) = self.painter {
            let _ = painter.join();
        }
    }
}
