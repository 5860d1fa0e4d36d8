//! Helpers shared by the tests that run the `bitcsp` binary as a process: runners (with
//! standard input, under a memory limit, interrupted), the shared puzzle constants and
//! temporary files.
#![allow(dead_code)]

mod carve;
mod large;
#[allow(unused_imports)]
pub use carve::{carve, Random};
#[allow(unused_imports)]
pub use large::{board_36, engine, engine_count};

use std::io::Write;
use std::process::{Child, Command, Output, Stdio};
use std::time::{Duration, Instant};

/// A classic 9×9 puzzle with one solution.
pub const PUZZLE: &str =
    "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79";

/// The solution of [`PUZZLE`].
pub const SOLUTION: &str =
    "534678912672195348198342567859761423426853791713924856961537284287419635345286179";

/// The binary under test.
pub fn binary() -> Command {
    Command::new(env!("CARGO_BIN_EXE_bitcsp"))
}

/// Runs `bitcsp` with `args` and no input.
pub fn run(args: &[&str]) -> Output {
    binary()
        .args(args)
        .stdin(Stdio::null())
        .output()
        .expect("binary runs")
}

/// Runs `bitcsp` with `args`; returns stdout, stderr and the exit code.
pub fn bitcsp(args: &[&str]) -> (String, String, Option<i32>) {
    let out = run(args);
    (
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
        out.status.code(),
    )
}

/// Runs `bitcsp` with `args`, writing `stdin` to its standard input.
pub fn run_with_stdin(args: &[&str], stdin: &[u8]) -> Output {
    let mut child = binary()
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("binary runs");
    let mut input = child.stdin.take().expect("stdin");
    let data = stdin.to_vec();
    let writer = std::thread::spawn(move || {
        let _ = input.write_all(&data);
    });
    let out = child.wait_with_output().expect("binary finishes");
    writer.join().expect("writer");
    out
}

/// Runs `bitcsp` with `args` through `sh`, whose `ulimit -v` caps its address space at
/// `kib` KiB; `redirect` is appended to the command line (e.g. `> /dev/null`).
#[cfg(unix)]
pub fn run_limited(kib: u64, args: &[&str], redirect: &str) -> Output {
    let script = format!("ulimit -v {kib} && exec \"$0\" \"$@\" {redirect}");
    Command::new("sh")
        .arg("-c")
        .arg(script)
        .arg(env!("CARGO_BIN_EXE_bitcsp"))
        .args(args)
        .stdin(Stdio::null())
        .output()
        .expect("sh runs")
}

/// The lines of an output stream.
pub fn lines(bytes: &[u8]) -> Vec<String> {
    String::from_utf8_lossy(bytes)
        .lines()
        .map(str::to_string)
        .collect()
}

/// Fails if the process printed a panic or an internal error.
pub fn assert_no_panic(out: &Output) {
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(!err.contains("panicked"), "{err}");
    assert!(!err.contains("internal error"), "{err}");
}

/// Sends `SIGINT` to `child`.
#[cfg(unix)]
pub fn send_interrupt(child: &Child) {
    let status = Command::new("kill")
        .args(["-INT", &child.id().to_string()])
        .status()
        .expect("kill runs");
    assert!(status.success());
}

/// Sends Ctrl-C after `delay`, closes the child's input, and returns its output and how
/// long it took to end after the signal.
#[cfg(unix)]
pub fn interrupt_after(mut child: Child, delay: Duration) -> (Output, Duration) {
    std::thread::sleep(delay);
    send_interrupt(&child);
    let sent = Instant::now();
    let input = child.stdin.take();
    let out = child.wait_with_output().expect("finishes");
    drop(input);
    (out, sent.elapsed())
}

/// Writes `content` to a file `name` in a directory of this test process; returns its path.
pub fn temp_file(name: &str, content: &[u8]) -> String {
    let path = temp_dir().join(name);
    std::fs::write(&path, content).expect("temporary file");
    path.to_string_lossy().into_owned()
}

/// A directory of this test process.
pub fn temp_dir() -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("bitcsp-tests-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temporary directory");
    dir
}

/// Whether `minizinc` runs here with Gecode among its solvers (the tests that compare
/// with Gecode skip with a message otherwise).
pub fn minizinc_with_gecode() -> bool {
    let listed = Command::new("minizinc")
        .arg("--solvers")
        .output()
        .is_ok_and(|o| o.status.success() && String::from_utf8_lossy(&o.stdout).contains("Gecode"));
    if !listed {
        eprintln!("skipped: minizinc with Gecode is not installed");
    }
    listed
}
