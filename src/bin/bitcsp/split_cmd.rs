//! `--split` on `queens --count`, `color --colors K` and `sudoku count`; `bitcsp part`
//! and `bitcsp merge`: a search split into self-contained part lines, each part searched
//! anywhere, the answers added up (the formats: `bitcsp::parts`, docs/DISTRIBUTED.md).

use std::io::BufRead;
use std::time::Duration;

use bitcsp::coloring::Graph;
use bitcsp::parts::{self, Answer, Part, Problem};

use crate::exit::Outcome;
use crate::output::{Lost, Output};
use crate::{interrupt, say};

/// Limits for the split or for each part.
#[derive(Clone, Copy, Debug)]
pub struct Limits {
    pub time: Option<Duration>,
    pub nodes: Option<u64>,
}

impl Limits {
    fn library(self) -> parts::Limits {
        parts::Limits {
            time: self.time,
            nodes: self.nodes,
            cancel: Some(interrupt::flag()),
        }
    }
}

/// Reads the graph of a colouring problem, with its file's fingerprint.
fn read_graph(file: &str) -> Result<(Graph, u64), String> {
    let bytes = std::fs::read(file).map_err(|e| format!("{file}: cannot read: {e}"))?;
    let parsed = Graph::read_dimacs(&bytes[..]).map_err(|e| format!("{file}: {e}"))?;
    Ok((parsed.graph, parts::fingerprint(&bytes)))
}

/// Prints the part lines of `problem` split into at least `k` parts.
pub fn split(problem: &Problem, k: usize, limit: Option<u64>, limits: Limits) -> Outcome {
    let graph = match problem {
        Problem::Color { file, .. } => match read_graph(file) {
            Ok((g, _)) => Some(g),
            Err(e) => {
                say!("bitcsp: {e}");
                return Outcome::FAILED;
            }
        },
        _ => None,
    };
    let made = match parts::split(problem, graph.as_ref(), k, limit, &limits.library()) {
        Ok(p) => p,
        Err(e) => {
            say!("bitcsp: {e}");
            return Outcome::FAILED;
        }
    };
    let mut out = Output::new();
    for part in &made {
        if writeln!(out, "{part}").is_err() {
            return Outcome::FAILED;
        }
    }
    match out.flush() {
        Ok(()) => Outcome::default(),
        Err(Lost) => Outcome::FAILED,
    }
}

/// The colouring problem of `file` with `colors` colours, with the file's fingerprint.
pub fn color_problem(file: &str, colors: usize) -> Result<Problem, String> {
    let (_, graph) = read_graph(file)?;
    Ok(Problem::Color {
        file: file.to_owned(),
        graph,
        colors,
    })
}

/// Reads every line of `files` (standard input when empty or `-`), calling `each` with
/// the source name, line number and text of each line that is not blank or a comment.
pub fn read_lines(files: &[String], mut each: impl FnMut(&str, usize, &str) -> bool) -> bool {
    let names: Vec<String> = if files.is_empty() {
        vec!["-".into()]
    } else {
        files.to_vec()
    };
    let mut ok = true;
    for name in &names {
        let reader: Box<dyn BufRead> = if name == "-" {
            Box::new(std::io::BufReader::new(std::io::stdin()))
        } else {
            match std::fs::File::open(name) {
                Ok(f) => Box::new(std::io::BufReader::new(f)),
                Err(e) => {
                    say!("{name}: cannot read: {e}");
                    ok = false;
                    continue;
                }
            }
        };
        let shown = if name == "-" {
            "<stdin>"
        } else {
            name.as_str()
        };
        for (i, line) in reader.lines().enumerate() {
            let line = match line {
                Ok(l) => l,
                Err(e) => {
                    say!("{shown}:{}: read error: {e}", i + 1);
                    ok = false;
                    break;
                }
            };
            let text = line.trim();
            if text.is_empty() || text.starts_with('#') {
                continue;
            }
            if !each(shown, i + 1, text) || interrupt::interrupted() {
                return false;
            }
        }
    }
    ok
}

/// `bitcsp part`: searches each part line and prints its answer line.
pub fn part(files: &[String], limits: Limits) -> Outcome {
    let mut outcome = Outcome::default();
    let mut out = Output::new();
    let mut lost = false;
    // The graph of the last colouring part, kept while parts name the same file.
    let mut graph: Option<(String, u64, Graph)> = None;
    let read = read_lines(files, |file, number, text| {
        let answer = text
            .parse::<Part>()
            .map_err(|e| e.to_string())
            .and_then(|p| run_part(&p, &mut graph, limits));
        let answer = match answer {
            Ok(a) => a,
            Err(e) => {
                say!("{file}:{number}: {e}");
                outcome.failed = true;
                return true;
            }
        };
        if !answer.finished() {
            say!(
                "{file}:{number}: part {} of {} {}",
                answer.index,
                answer.of,
                answer.status
            );
            outcome.merge(Outcome::stopped(bitcsp::StopReason::TimeLimit));
        }
        lost = writeln!(out, "{answer}").is_err() || out.flush().is_err();
        !lost
    });
    outcome.failed |= !read || lost;
    outcome.interrupted |= interrupt::interrupted();
    outcome
}

fn run_part(
    part: &Part,
    graph: &mut Option<(String, u64, Graph)>,
    limits: Limits,
) -> Result<Answer, String> {
    if let Problem::Color {
        file,
        graph: wanted,
        ..
    } = &part.problem
    {
        if graph.as_ref().is_none_or(|(f, _, _)| f != file) {
            let (g, fp) = read_graph(file)?;
            *graph = Some((file.clone(), fp, g));
        }
        if graph.as_ref().is_some_and(|(_, fp, _)| fp != wanted) {
            return Err(format!(
                "{file} is not the file this part was split from (its fingerprint differs)"
            ));
        }
    }
    part.run(graph.as_ref().map(|(_, _, g)| g), &limits.library())
}

/// `bitcsp merge`: adds the answers of one split, or says what is missing.
pub fn merge(files: &[String]) -> Outcome {
    let mut answers: Vec<Answer> = Vec::new();
    let mut outcome = Outcome::default();
    let read = read_lines(files, |file, number, text| {
        match text.parse::<Answer>() {
            Ok(a) => answers.push(a),
            Err(e) => {
                say!("{file}:{number}: {e}");
                outcome.failed = true;
            }
        }
        true
    });
    outcome.failed |= !read;
    let merged = match parts::merge(&answers) {
        Ok(m) => m,
        Err(e) => {
            say!("bitcsp merge: {e}");
            return Outcome::FAILED;
        }
    };
    let k = merged.parts;
    let report = |what: &str, list: &[usize]| {
        if !list.is_empty() {
            let numbers: Vec<String> = list.iter().map(|p| p.to_string()).collect();
            say!(
                "bitcsp merge: {what} {} of {k} parts: {}",
                list.len(),
                numbers.join(" ")
            );
        }
    };
    report("answered more than once (kept one):", &merged.duplicates);
    report("answered with different counts:", &merged.conflicts);
    report("missing", &merged.missing);
    report("unfinished", &merged.unfinished);
    let colouring = !merged.counting;
    let k = answers.iter().find_map(|a| a.colors).unwrap_or(0);
    let text = if let Some(solution) = merged.solution.as_ref().filter(|_| colouring) {
        // A colouring from any part answers the question, whatever the others say.
        Some(format!("{k}-colorable: {solution}"))
    } else {
        match merged.total {
            Some(_) if colouring => Some(format!("not {k}-colorable")),
            Some(t) if merged.capped => Some(format!("{t}+")),
            Some(t) => Some(t.to_string()),
            None => None,
        }
    };
    let Some(text) = text else {
        say!("bitcsp merge: no total while parts are missing, unfinished or in conflict");
        return Outcome::FAILED;
    };
    let mut out = Output::new();
    if writeln!(out, "{text}").is_err() || out.flush().is_err() {
        return Outcome::FAILED;
    }
    outcome
}
