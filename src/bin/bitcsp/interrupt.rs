//! Ctrl-C: the first press sets a flag that every running search and every wait watches;
//! the commands then print what they know and exit with status 130.
//!
//! Some waits cannot watch a flag (a write blocked on a full pipe, a read of a terminal in
//! a library call), so the press also starts a grace period: a command still running when
//! it ends is stopped with status 130 (any temporary output file removed first). A second
//! press stops it at once.

use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, OnceLock};
use std::time::Duration;

/// The exit status after Ctrl-C: 128 + `SIGINT`.
pub const STATUS: u8 = 130;

/// How long a command has after Ctrl-C to stop on its own.
const GRACE: Duration = Duration::from_millis(200);

static FLAG: OnceLock<Arc<AtomicBool>> = OnceLock::new();

/// Temporary files to remove if the process is stopped from outside the command.
static TEMPORARY: Mutex<Vec<PathBuf>> = Mutex::new(Vec::new());

/// Installs the handler (once; later calls do nothing). If it cannot be installed (another
/// one exists), Ctrl-C keeps its default effect; the flag still works.
pub fn install() {
    let _ = flag();
}

/// The shared flag, installing the handler on first use.
pub fn flag() -> Arc<AtomicBool> {
    FLAG.get_or_init(|| {
        let flag = Arc::new(AtomicBool::new(false));
        let for_handler = Arc::clone(&flag);
        let _ = ctrlc::set_handler(move || {
            if for_handler.swap(true, Ordering::SeqCst) {
                stop_now();
            }
            std::thread::spawn(|| {
                std::thread::sleep(GRACE);
                stop_now();
            });
        });
        flag
    })
    .clone()
}

/// True once Ctrl-C was pressed.
pub fn interrupted() -> bool {
    flag().load(Ordering::SeqCst)
}

/// Remembers a temporary file to remove if the process is stopped before it is renamed.
pub fn track_temporary(path: PathBuf) {
    if let Ok(mut files) = TEMPORARY.lock() {
        files.push(path);
    }
}

/// Forgets a temporary file (renamed into place, or removed).
pub fn untrack_temporary(path: &std::path::Path) {
    if let Ok(mut files) = TEMPORARY.lock() {
        files.retain(|p| p != path);
    }
}

fn stop_now() -> ! {
    if let Ok(files) = TEMPORARY.lock() {
        for path in files.iter() {
            let _ = std::fs::remove_file(path);
        }
    }
    std::process::exit(i32::from(STATUS))
}
