//! Writing answers and messages without losing either silently.
//!
//! Every byte the commands print goes through here, so that one policy holds everywhere:
//! - standard output closed by its reader (`EPIPE`, as in `bitcsp queens 500 | head`):
//!   the process ends at once with status [`BROKEN_PIPE`] (141, what a shell reports for a
//!   program killed by `SIGPIPE`) and prints nothing more;
//! - any other write error on standard output (`ENOSPC`, `EIO`): reported once on standard
//!   error, the command stops, and the exit status is 1;
//! - a write error on standard error: a closed pipe ends the process with 141 as above;
//!   otherwise the message is lost, and the exit status becomes at least 1, since there is
//!   nowhere left to say what went wrong.
//!
//! Nothing here panics, which `print!` and `eprintln!` do on a write error.

use std::fmt;
use std::io::{self, BufWriter, Stdout, Write};
use std::sync::atomic::{AtomicBool, Ordering};

/// The exit status when a reader closed the output: 128 + `SIGPIPE`.
pub const BROKEN_PIPE: u8 = 141;

/// Set once a message could not be written to standard error.
static STDERR_LOST: AtomicBool = AtomicBool::new(false);

/// Writes one line to standard error (see the module documentation for errors).
pub fn message(args: fmt::Arguments<'_>) {
    let mut err = io::stderr().lock();
    let written = err.write_fmt(args).and_then(|()| err.write_all(b"\n"));
    if let Err(e) = written {
        if e.kind() == io::ErrorKind::BrokenPipe {
            end_on_broken_pipe();
        }
        STDERR_LOST.store(true, Ordering::Relaxed);
    }
}

/// True once a message to standard error was lost.
pub fn stderr_lost() -> bool {
    STDERR_LOST.load(Ordering::Relaxed)
}

/// Ends the process as a closed pipe would, printing nothing more.
pub fn end_on_broken_pipe() -> ! {
    std::process::exit(i32::from(BROKEN_PIPE))
}

/// `eprintln!` that never panics: one line to standard error through [`message`].
#[macro_export]
macro_rules! say {
    ($($arg:tt)*) => {
        $crate::output::message(format_args!($($arg)*))
    };
}

/// Standard output could not be written; the error has been reported on standard error.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Lost;

/// Buffered standard output whose writes report failure as [`Lost`].
///
/// `write!` and `writeln!` work on it directly. Call [`Output::flush`] before the end: a
/// buffer dropped unflushed would hide its write error.
pub struct Output {
    out: BufWriter<Stdout>,
    failed: bool,
}

impl Default for Output {
    fn default() -> Self {
        Self::new()
    }
}

impl Output {
    /// Standard output with a 64 KiB buffer.
    pub fn new() -> Self {
        Output {
            out: BufWriter::with_capacity(1 << 16, io::stdout()),
            failed: false,
        }
    }

    /// Formats into the buffer (the target of `write!`).
    pub fn write_fmt(&mut self, args: fmt::Arguments<'_>) -> Result<(), Lost> {
        if self.failed {
            return Err(Lost);
        }
        let written = self.out.write_fmt(args);
        self.check(written)
    }

    /// Writes `text` and a newline into the buffer, with no formatting in between.
    pub fn write_line(&mut self, text: &str) -> Result<(), Lost> {
        if self.failed {
            return Err(Lost);
        }
        let written = self
            .out
            .write_all(text.as_bytes())
            .and_then(|()| self.out.write_all(b"\n"));
        self.check(written)
    }

    /// Writes the buffer out.
    pub fn flush(&mut self) -> Result<(), Lost> {
        if self.failed {
            return Err(Lost);
        }
        let flushed = self.out.flush();
        self.check(flushed)
    }

    fn check(&mut self, result: io::Result<()>) -> Result<(), Lost> {
        result.map_err(|e| {
            if e.kind() == io::ErrorKind::BrokenPipe {
                end_on_broken_pipe();
            }
            self.failed = true;
            message(format_args!("bitcsp: cannot write the output: {e}"));
            Lost
        })
    }
}
