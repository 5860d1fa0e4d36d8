//! Opening input files and writing output files safely.
//!
//! An output file is never one of the inputs (compared by identity, device and inode, so
//! another name for the same file is caught too), and it is written atomically: into a
//! temporary file in the same folder, renamed over the target only once complete, so a
//! failure or an interruption never leaves half a file.

use std::fs::{File, OpenOptions};
use std::io::{self, Write};
use std::path::{Path, PathBuf};

use crate::interrupt;

/// Opens `path` for reading; a folder is refused here, where opening it would succeed and
/// only the first read would fail.
pub fn open_input(path: &str) -> io::Result<File> {
    let file = File::open(path)?;
    if file.metadata()?.is_dir() {
        return Err(io::Error::other("is a folder, not a file"));
    }
    Ok(file)
}

/// True when `a` and `b` name the same existing file.
pub fn same_file(a: &Path, b: &Path) -> bool {
    match (std::fs::metadata(a), std::fs::metadata(b)) {
        (Ok(x), Ok(y)) => same_identity(&x, &y, a, b),
        _ => false,
    }
}

#[cfg(unix)]
fn same_identity(x: &std::fs::Metadata, y: &std::fs::Metadata, _: &Path, _: &Path) -> bool {
    use std::os::unix::fs::MetadataExt;
    x.dev() == y.dev() && x.ino() == y.ino()
}

#[cfg(not(unix))]
fn same_identity(_: &std::fs::Metadata, _: &std::fs::Metadata, a: &Path, b: &Path) -> bool {
    match (a.canonicalize(), b.canonicalize()) {
        (Ok(x), Ok(y)) => x == y,
        _ => false,
    }
}

/// Writes `contents` to `path` atomically (see the module documentation).
pub fn write_atomically(path: &Path, contents: &[u8]) -> io::Result<()> {
    let temporary = temporary_beside(path)?;
    interrupt::track_temporary(temporary.clone());
    let written = write_new(&temporary, contents).and_then(|()| std::fs::rename(&temporary, path));
    if written.is_err() {
        let _ = std::fs::remove_file(&temporary);
    }
    interrupt::untrack_temporary(&temporary);
    written
}

/// A fresh name in the folder of `path`.
fn temporary_beside(path: &Path) -> io::Result<PathBuf> {
    let name = path
        .file_name()
        .ok_or_else(|| io::Error::other("not a file name"))?
        .to_string_lossy();
    let folder = path.parent().unwrap_or(Path::new(""));
    Ok(folder.join(format!(".{name}.{}.tmp", std::process::id())))
}

fn write_new(path: &Path, contents: &[u8]) -> io::Result<()> {
    let mut file = OpenOptions::new().write(true).create_new(true).open(path)?;
    file.write_all(contents)?;
    file.sync_all()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_file_is_the_same_as_itself_under_another_name() {
        let folder = std::env::temp_dir().join(format!("bitcsp-files-{}", std::process::id()));
        std::fs::create_dir_all(&folder).unwrap();
        let a = folder.join("a.txt");
        std::fs::write(&a, "x").unwrap();
        let other_name = folder.join(".").join("a.txt");
        assert!(same_file(&a, &other_name));
        let b = folder.join("b.txt");
        write_atomically(&b, b"y").unwrap();
        assert!(!same_file(&a, &b));
        assert_eq!(std::fs::read(&b).unwrap(), b"y");
        let leftovers = std::fs::read_dir(&folder).unwrap().count();
        assert_eq!(leftovers, 2, "no temporary file is left behind");
        std::fs::remove_dir_all(&folder).unwrap();
    }
}
