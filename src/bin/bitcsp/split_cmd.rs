//! `bitcsp queens N --count --split K`, `bitcsp part` and `bitcsp merge`: a count split
//! into self-contained part lines, each part counted anywhere, the answers added up.

use std::io::BufRead;
use std::time::{Duration, Instant};

use bitcsp::{queens, CountStatus, Solver, ValueOrder, VarId};

use crate::exit::Outcome;
use crate::output::{Lost, Output};
use crate::parts::{self, AnswerLine, PartLine};
use crate::{interrupt, say};

/// Limits for each part.
#[derive(Clone, Copy, Debug)]
pub struct Limits {
    pub time: Option<Duration>,
    pub nodes: Option<u64>,
}

/// The pieces of the queens count: the whole board, or its mirror split.
fn pieces(n: usize, symmetry: bool) -> Result<Vec<queens::Part>, String> {
    let made = if symmetry {
        queens::mirror_parts(n)
    } else {
        queens::model(n).map(|(model, rows)| {
            vec![queens::Part {
                model,
                rows,
                weight: 1,
            }]
        })
    };
    made.map_err(|e| e.to_string())
}

/// The solver every part line of the queens count is searched with (the split's too).
fn solver(piece: &queens::Part, limits: Limits) -> Solver {
    let mut solver = Solver::new(&piece.model);
    solver
        .set_value_order(ValueOrder::MiddleOut)
        .set_time_limit(limits.time)
        .set_node_limit(limits.nodes)
        .set_cancel_flag(Some(interrupt::flag()));
    solver
}

/// Prints about `k` part lines for counting the N-Queens boards.
pub fn split_queens(n: usize, symmetry: bool, k: usize, limits: Limits) -> Outcome {
    let pieces = match pieces(n, symmetry) {
        Ok(p) => p,
        Err(e) => {
            say!("bitcsp queens: {e}");
            return Outcome::FAILED;
        }
    };
    let per_piece = k.div_ceil(pieces.len()).max(1);
    // Each part: its mirror piece, the piece's weight, the root fixes.
    type Planned = (usize, u64, Vec<(usize, i32)>);
    let mut lines: Vec<Planned> = Vec::new();
    for (p, piece) in pieces.iter().enumerate() {
        match solver(piece, limits).split(per_piece) {
            Ok(parts) => lines.extend(parts.into_iter().map(|fixes| {
                let fixes = fixes.into_iter().map(|(v, x)| (v.index(), x)).collect();
                (p, piece.weight, fixes)
            })),
            Err(reason) => {
                say!("bitcsp queens: the split {reason}");
                return Outcome::stopped(reason);
            }
        }
    }
    let model = parts::queens_model(n, symmetry);
    let mut described = format!("{model:016x} k={k}");
    for (p, _, fixes) in &lines {
        described.push_str(&format!(" {p}:{fixes:?}"));
    }
    let split = parts::fingerprint(&described);
    let of = lines.len();
    let mut out = Output::new();
    for (i, (piece, weight, fixes)) in lines.into_iter().enumerate() {
        let line = PartLine {
            split,
            model,
            index: i + 1,
            of,
            n,
            symmetry,
            piece,
            weight,
            fixes,
        };
        if writeln!(out, "{line}").is_err() {
            return Outcome::FAILED;
        }
    }
    match out.flush() {
        Ok(()) => Outcome::default(),
        Err(Lost) => Outcome::FAILED,
    }
}

/// Reads every line of `files` (standard input when empty or `-`), calling `each` with
/// the source name, line number and text of each line that is not blank or a comment.
fn read_lines(files: &[String], mut each: impl FnMut(&str, usize, &str) -> bool) -> bool {
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

/// `bitcsp part`: counts each part line and prints its answer line.
pub fn part(files: &[String], limits: Limits) -> Outcome {
    let mut outcome = Outcome::default();
    let mut out = Output::new();
    let mut lost = false;
    let read = read_lines(files, |file, number, text| {
        let answer = match text
            .parse::<PartLine>()
            .and_then(|p| count_part(&p, limits))
        {
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

/// Counts one part.
fn count_part(part: &PartLine, limits: Limits) -> Result<AnswerLine, String> {
    let pieces = pieces(part.n, part.symmetry)?;
    let piece = pieces
        .get(part.piece)
        .ok_or_else(|| format!("piece={} does not exist for n={}", part.piece, part.n))?;
    if piece.weight != part.weight {
        return Err(format!(
            "weight={} is not piece {}'s weight",
            part.weight, part.piece
        ));
    }
    let fixes = part
        .fixes
        .iter()
        .map(|&(v, x)| {
            let var: VarId = *piece
                .rows
                .iter()
                .find(|r| r.index() == v)
                .ok_or_else(|| format!("fix {v}:{x}: no such variable"))?;
            Ok((var, x))
        })
        .collect::<Result<Vec<_>, String>>()?;
    let mut solver = solver(piece, limits);
    solver.assume(&fixes).map_err(|e| e.to_string())?;
    let started = Instant::now();
    let c = solver.count(None);
    let stats = solver.stats();
    let status = match c.status {
        CountStatus::Complete => "complete".to_owned(),
        CountStatus::LimitReached => "limit".to_owned(),
        CountStatus::Stopped(reason) => {
            format!("stopped({})", reason.to_string().replace(' ', "-"))
        }
    };
    Ok(AnswerLine {
        split: part.split,
        model: part.model,
        index: part.index,
        of: part.of,
        count: c.count,
        weight: part.weight,
        status,
        nodes: stats.nodes,
        failures: stats.failures,
        ms: started.elapsed().as_secs_f64() * 1e3,
    })
}

/// `bitcsp merge`: adds the answers of one split, or says what is missing.
pub fn merge(files: &[String]) -> Outcome {
    let mut answers: Vec<AnswerLine> = Vec::new();
    let mut outcome = Outcome::default();
    let read = read_lines(files, |file, number, text| {
        match text.parse::<AnswerLine>() {
            Ok(a) => answers.push(a),
            Err(e) => {
                say!("{file}:{number}: {e}");
                outcome.failed = true;
            }
        }
        true
    });
    outcome.failed |= !read;
    let Some(first) = answers.first().cloned() else {
        say!("bitcsp merge: no answer lines");
        return Outcome::FAILED;
    };
    let foreign: Vec<&AnswerLine> = answers
        .iter()
        .filter(|a| a.split != first.split || a.model != first.model || a.of != first.of)
        .collect();
    if !foreign.is_empty() {
        say!(
            "bitcsp merge: {} answers belong to another split than the first line's (split {:016x}); merge one split at a time",
            foreign.len(),
            first.split
        );
        return Outcome::FAILED;
    }
    let k = first.of;
    let mut by_part: Vec<Option<&AnswerLine>> = vec![None; k];
    let mut duplicates = Vec::new();
    let mut conflicts = Vec::new();
    for a in &answers {
        match by_part[a.index - 1] {
            None => by_part[a.index - 1] = Some(a),
            Some(seen) if seen.count == a.count && seen.status == a.status => {
                duplicates.push(a.index)
            }
            Some(seen) if !seen.finished() => by_part[a.index - 1] = Some(a),
            Some(_) if !a.finished() => duplicates.push(a.index),
            Some(_) => conflicts.push(a.index),
        }
    }
    let missing: Vec<usize> = (1..=k).filter(|&i| by_part[i - 1].is_none()).collect();
    let unfinished: Vec<usize> = (1..=k)
        .filter(|&i| by_part[i - 1].is_some_and(|a| !a.finished()))
        .collect();
    if !duplicates.is_empty() {
        say!(
            "bitcsp merge: answered more than once (kept one): {}",
            list(&duplicates)
        );
    }
    if !conflicts.is_empty() {
        say!(
            "bitcsp merge: answered twice with different counts: {}",
            list(&conflicts)
        );
    }
    if !missing.is_empty() {
        say!(
            "bitcsp merge: missing {} of {k} parts: {}",
            missing.len(),
            list(&missing)
        );
    }
    if !unfinished.is_empty() {
        say!(
            "bitcsp merge: unfinished {} of {k} parts: {}",
            unfinished.len(),
            list(&unfinished)
        );
    }
    if !missing.is_empty() || !unfinished.is_empty() || !conflicts.is_empty() {
        say!("bitcsp merge: no total while parts are missing, unfinished or in conflict");
        return Outcome::FAILED;
    }
    let total = by_part.iter().flatten().fold(0u64, |t, a| {
        t.saturating_add(a.count.saturating_mul(a.weight))
    });
    let mut out = Output::new();
    if writeln!(out, "{total}").is_err() || out.flush().is_err() {
        return Outcome::FAILED;
    }
    outcome
}

/// `1 4 7` for a list of part numbers.
fn list(parts: &[usize]) -> String {
    parts
        .iter()
        .map(|p| p.to_string())
        .collect::<Vec<_>>()
        .join(" ")
}
