//! Ctrl-C: the first press sets a flag that every running search watches; the commands then
//! print what they know and exit with status 130.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, OnceLock};

static FLAG: OnceLock<Arc<AtomicBool>> = OnceLock::new();

/// The shared flag, installing the handler on first use. If the handler cannot be installed
/// (another one exists), Ctrl-C keeps its default effect; the flag still works.
pub fn flag() -> Arc<AtomicBool> {
    FLAG.get_or_init(|| {
        let flag = Arc::new(AtomicBool::new(false));
        let for_handler = Arc::clone(&flag);
        let _ = ctrlc::set_handler(move || for_handler.store(true, Ordering::SeqCst));
        flag
    })
    .clone()
}

/// True once Ctrl-C was pressed.
pub fn interrupted() -> bool {
    flag().load(Ordering::SeqCst)
}
