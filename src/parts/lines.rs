//! Part and answer lines: self-contained text, so that any job runner can carry them.

use std::fmt;
use std::str::FromStr;

use super::problem::Problem;
use crate::sudoku::Board;

/// FNV-1a, 64 bits: a stable fingerprint (it tells splits and models apart; it does not
/// resist deliberate tampering).
pub fn fingerprint(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325, |h, &b| {
        (h ^ u64::from(b)).wrapping_mul(0x0000_0100_0000_01b3)
    })
}

/// One part of a split search: what to search (the problem, which piece of it, the root
/// fixes) and where it comes from (the split's and the model's fingerprints, `index` of
/// `of`).
///
/// ```
/// use bitcsp::parts::{self, Part, Problem};
/// let problem = Problem::Queens { n: 8, symmetry: false };
/// let split = parts::split(&problem, None, 10, None, &parts::Limits::default())?;
/// let line = split[0].to_string();
/// let back: Part = line.parse()?;
/// assert_eq!(back, split[0]);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Part {
    /// Fingerprint of the whole split.
    pub split: u64,
    /// Fingerprint of the problem.
    pub model: u64,
    /// This part's number, from 1.
    pub index: usize,
    /// How many parts the split made.
    pub of: usize,
    /// The problem.
    pub problem: Problem,
    /// The piece of the problem (0 but for the N-Queens mirror split).
    pub piece: usize,
    /// How many solutions each of the part's solutions stands for.
    pub weight: u64,
    /// Count at most this many solutions (the split's count limit).
    pub limit: Option<u64>,
    /// The root fixes: variable number (in the piece's model) and value.
    pub fixes: Vec<(usize, i32)>,
}

/// What one part found.
#[derive(Clone, Debug, PartialEq)]
pub struct Answer {
    /// Fingerprint of the split.
    pub split: u64,
    /// Fingerprint of the problem.
    pub model: u64,
    /// The part's number, from 1.
    pub index: usize,
    /// How many parts the split made.
    pub of: usize,
    /// Whether the part counted solutions (`kind=count`) or looked for one
    /// (`kind=decide`: colouring).
    pub counting: bool,
    /// Solutions found (counted, up to the limit; for colouring 1 when a colouring was
    /// found, else 0).
    pub count: u64,
    /// The part's weight.
    pub weight: u64,
    /// The count limit the part searched under, if any.
    pub limit: Option<u64>,
    /// `complete`, `limit` (the count limit was reached) or `stopped(REASON)`.
    pub status: String,
    /// A solution (colouring: the colour of each vertex, comma-separated).
    pub solution: Option<String>,
    /// The number of colours a colouring part tried (`kind=decide`).
    pub colors: Option<usize>,
    /// Search nodes.
    pub nodes: u64,
    /// Search failures.
    pub failures: u64,
    /// Milliseconds spent.
    pub ms: f64,
}

impl Answer {
    /// Whether the part was searched to the end (or to its count limit).
    pub fn finished(&self) -> bool {
        self.status == "complete" || self.status == "limit"
    }
}

impl fmt::Display for Part {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let fixes: Vec<String> = self.fixes.iter().map(|(v, x)| format!("{v}:{x}")).collect();
        // The problem comes last: a colouring's file path runs to the end of the line.
        write!(
            f,
            "bitcsp-part split={:016x} model={:016x} part={}/{} piece={} weight={}",
            self.split, self.model, self.index, self.of, self.piece, self.weight
        )?;
        if let Some(l) = self.limit {
            write!(f, " limit={l}")?;
        }
        write!(f, " fixes={} {}", fixes.join(","), self.problem)
    }
}

impl fmt::Display for Answer {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "bitcsp-answer split={:016x} model={:016x} part={}/{} kind={} count={} weight={}",
            self.split,
            self.model,
            self.index,
            self.of,
            if self.counting { "count" } else { "decide" },
            self.count,
            self.weight
        )?;
        if let Some(l) = self.limit {
            write!(f, " limit={l}")?;
        }
        if let Some(k) = self.colors {
            write!(f, " colors={k}")?;
        }
        write!(
            f,
            " status={} nodes={} failures={} ms={:.1}",
            self.status, self.nodes, self.failures, self.ms
        )?;
        if let Some(s) = &self.solution {
            write!(f, " solution={s}")?;
        }
        Ok(())
    }
}

/// Why a line is not a part or an answer.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct LineError(pub String);

fn err(text: impl Into<String>) -> LineError {
    LineError(text.into())
}

/// A line's `key=value` fields.
type Fields<'a> = Vec<(&'a str, &'a str)>;

/// The `key=value` fields after `tag`, and the rest of the line from `file=` on.
fn fields<'a>(line: &'a str, tag: &str) -> Result<(Fields<'a>, Option<&'a str>), LineError> {
    let (line, file) = match line.find(" file=") {
        Some(at) => (&line[..at], Some(&line[at + " file=".len()..])),
        None => (line, None),
    };
    let mut words = line.split_whitespace();
    match words.next() {
        Some(t) if t == tag => {}
        Some(t) => {
            return Err(err(format!(
                "expected a line starting with {tag}, found {t:?}"
            )))
        }
        None => return Err(err("empty line")),
    }
    let pairs = words
        .map(|w| {
            w.split_once('=')
                .ok_or_else(|| err(format!("{w:?} is not key=value")))
        })
        .collect::<Result<Vec<_>, _>>()?;
    Ok((pairs, file))
}

fn get<'a>(fields: &[(&'a str, &'a str)], key: &str) -> Result<&'a str, LineError> {
    fields
        .iter()
        .find(|(k, _)| *k == key)
        .map(|&(_, v)| v)
        .ok_or_else(|| err(format!("no {key}=")))
}

fn number<T: FromStr>(fields: &[(&str, &str)], key: &str) -> Result<T, LineError> {
    let text = get(fields, key)?;
    text.parse()
        .map_err(|_| err(format!("{key}={text} is not a number")))
}

fn hex(fields: &[(&str, &str)], key: &str) -> Result<u64, LineError> {
    let text = get(fields, key)?;
    u64::from_str_radix(text, 16).map_err(|_| err(format!("{key}={text} is not a fingerprint")))
}

fn part_of(fields: &[(&str, &str)]) -> Result<(usize, usize), LineError> {
    let text = get(fields, "part")?;
    let bad = || err(format!("part={text} is not I/K with I in 1..=K"));
    let (i, k) = text.split_once('/').ok_or_else(bad)?;
    let (i, k): (usize, usize) = (i.parse().map_err(|_| bad())?, k.parse().map_err(|_| bad())?);
    if i == 0 || i > k {
        return Err(bad());
    }
    Ok((i, k))
}

fn problem(fields: &[(&str, &str)], file: Option<&str>) -> Result<Problem, LineError> {
    match get(fields, "problem")? {
        "queens" => Ok(Problem::Queens {
            n: number(fields, "n")?,
            symmetry: match get(fields, "symmetry")? {
                "0" => false,
                "1" => true,
                other => return Err(err(format!("symmetry={other} is not 0 or 1"))),
            },
        }),
        "sudoku" => Ok(Problem::Sudoku {
            board: Board::parse(&get(fields, "board")?.replace(',', " "))
                .map_err(|e| err(format!("board: {e}")))?,
        }),
        "color" => Ok(Problem::Color {
            file: file.ok_or_else(|| err("no file="))?.to_owned(),
            graph: hex(fields, "graph")?,
            colors: number(fields, "colors")?,
        }),
        other => Err(err(format!(
            "problem={other} is not queens, sudoku or color"
        ))),
    }
}

impl FromStr for Part {
    type Err = LineError;

    /// A part line; refused when its problem's fingerprint does not match `model`.
    fn from_str(line: &str) -> Result<Self, LineError> {
        let (f, file) = fields(line, "bitcsp-part")?;
        let (index, of) = part_of(&f)?;
        let fixes = get(&f, "fixes")?
            .split(',')
            .filter(|s| !s.is_empty())
            .map(|pair| {
                let bad = || err(format!("fix {pair:?} is not VAR:VALUE"));
                let (v, x) = pair.split_once(':').ok_or_else(bad)?;
                Ok((v.parse().map_err(|_| bad())?, x.parse().map_err(|_| bad())?))
            })
            .collect::<Result<Vec<(usize, i32)>, LineError>>()?;
        let part = Part {
            split: hex(&f, "split")?,
            model: hex(&f, "model")?,
            index,
            of,
            problem: problem(&f, file)?,
            piece: number(&f, "piece")?,
            weight: number(&f, "weight")?,
            limit: match get(&f, "limit") {
                Ok(_) => Some(number(&f, "limit")?),
                Err(_) => None,
            },
            fixes,
        };
        if fingerprint(part.problem.describe().as_bytes()) != part.model {
            return Err(err(
                "the model fingerprint does not match the problem's parameters",
            ));
        }
        Ok(part)
    }
}

impl FromStr for Answer {
    type Err = LineError;
    fn from_str(line: &str) -> Result<Self, LineError> {
        let (f, _) = fields(line, "bitcsp-answer")?;
        let (index, of) = part_of(&f)?;
        Ok(Answer {
            split: hex(&f, "split")?,
            model: hex(&f, "model")?,
            index,
            of,
            counting: match get(&f, "kind")? {
                "count" => true,
                "decide" => false,
                other => return Err(err(format!("kind={other} is not count or decide"))),
            },
            count: number(&f, "count")?,
            weight: number(&f, "weight")?,
            limit: match get(&f, "limit") {
                Ok(_) => Some(number(&f, "limit")?),
                Err(_) => None,
            },
            status: get(&f, "status")?.to_owned(),
            solution: get(&f, "solution").ok().map(str::to_owned),
            colors: match get(&f, "colors") {
                Ok(_) => Some(number(&f, "colors")?),
                Err(_) => None,
            },
            nodes: number(&f, "nodes")?,
            failures: number(&f, "failures")?,
            ms: number(&f, "ms")?,
        })
    }
}
