//! `bitcsp fzn --install [DIR]`: makes bitcsp a MiniZinc solver. Writes, into MiniZinc's
//! user solver folder (`$HOME/.minizinc/solvers`) or `DIR`, the solver configuration
//! `bitcsp.msc`, the launcher `bitcsp-fzn` that runs this binary's `fzn` command, and
//! `bitcsp/`, the library of globals kept native. The library is built into the binary,
//! so an installed `bitcsp` needs no checkout.

use std::io;
use std::path::{Path, PathBuf};

use crate::exit::Outcome;
use crate::files::write_atomically;
use crate::say;

/// One file of `share/minizinc/bitcsp`, embedded.
macro_rules! library_file {
    ($name:literal) => {
        (
            $name,
            include_str!(concat!("../../../share/minizinc/bitcsp/", $name)),
        )
    };
}

/// The library of globals kept native, as `(file name, text)`.
const LIBRARY: [(&str, &str); 14] = [
    library_file!("bitcsp_successor.mzn"),
    library_file!("fzn_all_different_int.mzn"),
    library_file!("fzn_among.mzn"),
    library_file!("fzn_circuit.mzn"),
    library_file!("fzn_circuit_reif.mzn"),
    library_file!("fzn_count_eq.mzn"),
    library_file!("fzn_cumulative.mzn"),
    library_file!("fzn_global_cardinality.mzn"),
    library_file!("fzn_global_cardinality_low_up.mzn"),
    library_file!("fzn_subcircuit_reif.mzn"),
    library_file!("fzn_table_bool.mzn"),
    library_file!("fzn_table_int.mzn"),
    library_file!("fzn_value_precede_int_reif.mzn"),
    library_file!("redefinitions.mzn"),
];

/// Installs into `dir`, or MiniZinc's user solver folder when `None`.
pub fn run(dir: Option<&Path>) -> Outcome {
    let dir = match dir.map(Path::to_path_buf).or_else(user_solver_folder) {
        Some(dir) => dir,
        None => {
            say!("bitcsp fzn --install: HOME is not set; name the folder: --install DIR");
            return Outcome::USAGE;
        }
    };
    match install(&dir) {
        Ok(()) => {
            say!(
                "bitcsp fzn --install: wrote {} (bitcsp.msc, bitcsp-fzn, bitcsp/); \
                 run `minizinc --solver bitcsp MODEL.mzn`",
                dir.display()
            );
            Outcome::default()
        }
        Err((path, e)) => {
            say!("bitcsp fzn --install: {}: {e}", path.display());
            Outcome::FAILED
        }
    }
}

/// `$HOME/.minizinc/solvers`, where MiniZinc looks for the user's solver configurations.
fn user_solver_folder() -> Option<PathBuf> {
    let home = std::env::var_os("HOME").filter(|h| !h.is_empty())?;
    Some(Path::new(&home).join(".minizinc").join("solvers"))
}

fn install(dir: &Path) -> Result<(), (PathBuf, io::Error)> {
    let at = |path: &Path| {
        let path = path.to_path_buf();
        move |e| (path, e)
    };
    let library = dir.join("bitcsp");
    std::fs::create_dir_all(&library).map_err(at(&library))?;
    for (name, text) in LIBRARY {
        let path = library.join(name);
        write_atomically(&path, text.as_bytes()).map_err(at(&path))?;
    }
    let exe = std::env::current_exe().map_err(at(Path::new("bitcsp")))?;
    let launcher = dir.join("bitcsp-fzn");
    write_atomically(&launcher, launcher_text(&exe).as_bytes()).map_err(at(&launcher))?;
    make_executable(&launcher).map_err(at(&launcher))?;
    let msc = dir.join("bitcsp.msc");
    let config = configuration(&launcher, &library);
    write_atomically(&msc, config.as_bytes()).map_err(at(&msc))
}

/// A shell script that runs `exe fzn` with MiniZinc's arguments.
fn launcher_text(exe: &Path) -> String {
    format!(
        "#!/bin/sh\n# Written by `bitcsp fzn --install`: MiniZinc runs this with the standard \
         flags and the FlatZinc file.\nexec {} fzn \"$@\"\n",
        shell_quoted(&exe.to_string_lossy())
    )
}

/// `text` in single quotes, for the shell.
fn shell_quoted(text: &str) -> String {
    format!("'{}'", text.replace('\'', r"'\''"))
}

/// The checked-in solver configuration, whose library and launcher are named relative to
/// `share/minizinc/solvers`.
const CONFIGURATION: &str = include_str!("../../../share/minizinc/solvers/bitcsp.msc");

/// The solver configuration, naming the launcher and the library by absolute path.
fn configuration(launcher: &Path, library: &Path) -> String {
    let json = |p: &Path| {
        let escaped = p
            .to_string_lossy()
            .replace('\\', r"\\")
            .replace('"', "\\\"");
        format!("\"{escaped}\"")
    };
    CONFIGURATION
        .replace("\"../bitcsp\"", &json(library))
        .replace("\"../bitcsp-fzn\"", &json(launcher))
}

#[cfg(unix)]
fn make_executable(path: &Path) -> io::Result<()> {
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(path, std::fs::Permissions::from_mode(0o755))
}

#[cfg(not(unix))]
fn make_executable(_: &Path) -> io::Result<()> {
    Ok(())
}
