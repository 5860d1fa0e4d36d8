//! Helpers shared by the tests that run the `bitcsp` binary as a process.
#![allow(dead_code)]

use std::process::Command;

/// Runs `bitcsp` with `args`; returns stdout, stderr and the exit code.
pub fn bitcsp(args: &[&str]) -> (String, String, Option<i32>) {
    let out = Command::new(env!("CARGO_BIN_EXE_bitcsp"))
        .args(args)
        .output()
        .expect("binary runs");
    (
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
        out.status.code(),
    )
}

/// Writes `content` to a file `name` in a directory of this test process; returns its path.
pub fn temp_file(name: &str, content: &[u8]) -> String {
    let dir = std::env::temp_dir().join(format!("bitcsp-tests-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temporary directory");
    let path = dir.join(name);
    std::fs::write(&path, content).expect("temporary file");
    path.to_string_lossy().into_owned()
}
