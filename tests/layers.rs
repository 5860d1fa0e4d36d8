//! The core's layers point one way (docs/ARCHITECTURE.md, "Layers"): a file may name the
//! modules of its own layer and of the layers below it, never one above; and the models on
//! top (Sudoku, N-Queens, coloring) reach the engine only through its public API (the
//! crate root's re-exports), besides the small utilities of the bottom layer. Checked on
//! the source text: every `crate::NAME` outside comments and test code.

use std::fs;
use std::path::Path;

/// The layers, bottom first.
const LAYERS: &[&[&str]] = &[
    &[
        "bits",
        "interrupt",
        "xorshift",
        "trail",
        "var",
        "difference_cycles",
    ],
    &["error"],
    &["domain"],
    &["store"],
    &["propagate"],
    &["propagator"],
    &["posted"],
    &["constraints"],
    &["compiled"],
    &["model"],
    &["search", "cover"],
    &["coloring", "flatzinc", "parts", "queens", "sudoku"],
];

fn layer_of(module: &str) -> Option<usize> {
    LAYERS.iter().position(|layer| layer.contains(&module))
}

/// The crate modules a file's code names (outside comments and `#[cfg(test)]` code).
fn named_modules(text: &str) -> Vec<(usize, String)> {
    let mut named = Vec::new();
    for (number, line) in text.lines().enumerate() {
        let code = line.split("//").next().unwrap_or("");
        if line.trim_start().starts_with("#[cfg(test)]") {
            break; // unit tests come last, and may use anything
        }
        let mut rest = code;
        while let Some(at) = rest.find("crate::") {
            rest = &rest[at + "crate::".len()..];
            let module: String = rest
                .chars()
                .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
                .collect();
            named.push((number + 1, module));
        }
    }
    named
}

/// Modules declared under `#[cfg(test)]` (`mod x;` after the attribute): test code.
fn test_only_files(folder: &Path) -> Vec<String> {
    let mut names = Vec::new();
    for entry in walk(folder) {
        let text = fs::read_to_string(&entry).unwrap_or_default();
        let lines: Vec<&str> = text.lines().collect();
        for pair in lines.windows(2) {
            if pair[0].trim() == "#[cfg(test)]" {
                if let Some(name) = pair[1]
                    .trim()
                    .strip_prefix("mod ")
                    .and_then(|n| n.strip_suffix(';'))
                {
                    names.push(format!("{name}.rs"));
                }
            }
        }
    }
    names
}

fn walk(folder: &Path) -> Vec<std::path::PathBuf> {
    let mut files = Vec::new();
    for entry in fs::read_dir(folder).expect("source folder").flatten() {
        let path = entry.path();
        if path.is_dir() {
            files.extend(walk(&path));
        } else if path.extension().is_some_and(|e| e == "rs") {
            files.push(path);
        }
    }
    files
}

#[test]
fn no_core_file_names_a_layer_above_its_own() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let test_only = test_only_files(&src);
    let mut upward = Vec::new();
    let mut checked = 0;
    for path in walk(&src) {
        let relative = path.strip_prefix(&src).expect("under src");
        let mut parts = relative
            .components()
            .map(|c| c.as_os_str().to_string_lossy());
        let first = parts.next().expect("a file").to_string();
        let module = first.trim_end_matches(".rs").to_string();
        if module == "lib" || module == "bin" {
            continue; // the crate root and the command line see everything
        }
        let file_name = path
            .file_name()
            .expect("a name")
            .to_string_lossy()
            .to_string();
        if test_only.contains(&file_name) {
            continue;
        }
        let own = layer_of(&module).unwrap_or_else(|| {
            panic!(
                "{}: module {module} has no layer in LAYERS",
                relative.display()
            )
        });
        let text = fs::read_to_string(&path).expect("readable source");
        for (line, named) in named_modules(&text) {
            let model = own == LAYERS.len() - 1;
            match layer_of(&named) {
                Some(layer)
                    if model
                        && layer > 0
                        && layer < own
                        && !["domain", "propagator", "cover"].contains(&named.as_str()) =>
                {
                    upward.push(format!(
                        "{}:{line}: the {module} model names the engine's internal module {named}",
                        relative.display()
                    ))
                }
                Some(layer) if layer > own => upward.push(format!(
                    "{}:{line}: {module} names {named}",
                    relative.display()
                )),
                Some(_) => {}
                None if named.is_empty() => {}
                // Re-exports at the crate root (`crate::Model`) are the public API: allowed
                // only to the models on top.
                None if own == LAYERS.len() - 1 => {}
                None => upward.push(format!(
                    "{}:{line}: {module} names crate::{named}, not a layer",
                    relative.display()
                )),
            }
        }
        checked += 1;
    }
    assert!(checked > 30, "only {checked} files checked");
    assert!(
        upward.is_empty(),
        "imports against the layers:\n{}",
        upward.join("\n")
    );
}
