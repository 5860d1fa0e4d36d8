//! Reading DIMACS `.col` graphs: `c` comments, one `p edge N M` (or `p col N M`) header,
//! then `e U V` lines with 1-based vertices.
//!
//! Tolerated: repeated and reversed edges, extra fields on the `p` line, `n` (vertex
//! weight) lines, blank lines. Warnings (not errors): self-loops and lines of unknown kinds
//! (such as a solver's `s` line), which are ignored, and an edge count that differs from
//! the header.

use super::graph::Graph;

/// Ignored lines reported one by one; more are only counted, so that a garbage file
/// cannot flood the warnings.
const MAX_IGNORED_REPORTED: usize = 10;

/// The most vertices a graph may declare.
pub const MAX_VERTICES: usize = 1 << 20;

/// Why a DIMACS text is not a graph; `line` is 1-based.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum DimacsError {
    /// No `p` line before the first edge, or none at all.
    #[error("line {line}: missing header: expected `p edge VERTICES EDGES` before any edge")]
    MissingHeader {
        /// Where an edge appeared first (or the last line when there is none).
        line: usize,
    },
    /// A second `p` line.
    #[error("line {line}: a second header (the first is on line {first})")]
    DuplicateHeader {
        /// The repeated header.
        line: usize,
        /// The first header.
        first: usize,
    },
    /// A `p` line without a format, vertex count and edge count.
    #[error("line {line}: malformed header: {reason}")]
    BadHeader {
        /// The header line.
        line: usize,
        /// What is wrong.
        reason: String,
    },
    /// A token that should be a number and is not.
    #[error("line {line}: {token:?} is not a number")]
    NonNumeric {
        /// The line.
        line: usize,
        /// The token.
        token: String,
    },
    /// An `e` line without two vertices.
    #[error("line {line}: an edge needs two vertices")]
    IncompleteEdge {
        /// The line.
        line: usize,
    },
    /// A vertex outside `1..=N`.
    #[error("line {line}: vertex {vertex} is out of range 1..={vertices}")]
    VertexOutOfRange {
        /// The line.
        line: usize,
        /// The vertex as written.
        vertex: u64,
        /// The declared number of vertices.
        vertices: usize,
    },
    /// More vertices than [`MAX_VERTICES`].
    #[error("line {line}: {vertices} vertices is more than the maximum of {max}")]
    TooManyVertices {
        /// The header line.
        line: usize,
        /// The declared count.
        vertices: u64,
        /// The maximum.
        max: usize,
    },
}

/// Something odd but harmless in a DIMACS text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum DimacsWarning {
    /// An edge from a vertex to itself, ignored.
    SelfLoop {
        /// The line.
        line: usize,
        /// The vertex (1-based).
        vertex: u64,
    },
    /// A line of an unknown kind (such as a solver's `s` line), ignored.
    IgnoredLine {
        /// The line.
        line: usize,
        /// Its first token.
        kind: String,
    },
    /// The header announced a different number of edge lines.
    EdgeCountMismatch {
        /// Edges announced.
        declared: u64,
        /// `e` lines found.
        found: u64,
    },
}

impl std::fmt::Display for DimacsWarning {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            DimacsWarning::SelfLoop { line, vertex } => {
                write!(f, "line {line}: self-loop on vertex {vertex} ignored")
            }
            DimacsWarning::IgnoredLine { line, kind } => {
                write!(f, "line {line}: unknown line type {kind:?} ignored")
            }
            DimacsWarning::EdgeCountMismatch { declared, found } => write!(
                f,
                "the header announces {declared} edges but {found} edge lines follow"
            ),
        }
    }
}

/// A parsed graph and the warnings met on the way.
#[derive(Clone, Debug)]
pub struct Parsed {
    /// The graph (0-based vertices).
    pub graph: Graph,
    /// Harmless oddities.
    pub warnings: Vec<DimacsWarning>,
}

impl Graph {
    /// Reads a DIMACS `.col` text.
    ///
    /// ```
    /// use bitcsp::coloring::Graph;
    /// let parsed = Graph::from_dimacs("c a triangle\np edge 3 3\ne 1 2\ne 2 3\ne 3 1\n")?;
    /// assert_eq!(parsed.graph.num_edges(), 3);
    /// # Ok::<(), bitcsp::coloring::DimacsError>(())
    /// ```
    ///
    /// # Errors
    /// The first problem, with its line number, as a [`DimacsError`].
    pub fn from_dimacs(text: &str) -> Result<Parsed, DimacsError> {
        let mut header: Option<(usize, usize, u64)> = None;
        let mut edges = Vec::new();
        let mut warnings = Vec::new();
        let mut edge_lines = 0u64;
        let mut last_line = 0;
        let mut ignored = 0usize;
        for (i, raw) in text.lines().enumerate() {
            let line = i + 1;
            last_line = line;
            let mut fields = raw.split_whitespace();
            let Some(kind) = fields.next() else { continue };
            match kind {
                "c" | "n" => {}
                "p" => {
                    if let Some((first, _, _)) = header {
                        return Err(DimacsError::DuplicateHeader { line, first });
                    }
                    let (n, m) = parse_header(line, fields)?;
                    header = Some((line, n, m));
                }
                "e" => {
                    let Some((_, n, _)) = header else {
                        return Err(DimacsError::MissingHeader { line });
                    };
                    edge_lines += 1;
                    let u = vertex(line, fields.next(), n)?;
                    let v = vertex(line, fields.next(), n)?;
                    if u == v {
                        warnings.push(DimacsWarning::SelfLoop {
                            line,
                            vertex: u as u64 + 1,
                        });
                    } else {
                        edges.push((u, v));
                    }
                }
                other if other.starts_with('c') => {}
                other => {
                    ignored += 1;
                    if ignored <= MAX_IGNORED_REPORTED {
                        warnings.push(DimacsWarning::IgnoredLine {
                            line,
                            kind: other.chars().take(20).collect(),
                        });
                    }
                }
            }
        }
        let Some((_, n, declared)) = header else {
            return Err(DimacsError::MissingHeader {
                line: last_line.max(1),
            });
        };
        if declared != edge_lines {
            warnings.push(DimacsWarning::EdgeCountMismatch {
                declared,
                found: edge_lines,
            });
        }
        Ok(Parsed {
            graph: Graph::from_edges(n, edges),
            warnings,
        })
    }
}

fn parse_header<'a>(
    line: usize,
    mut fields: impl Iterator<Item = &'a str>,
) -> Result<(usize, u64), DimacsError> {
    let bad = |reason: &str| DimacsError::BadHeader {
        line,
        reason: reason.to_string(),
    };
    let format = fields
        .next()
        .ok_or_else(|| bad("no format (expected `edge`)"))?;
    if !matches!(format, "edge" | "edges" | "col" | "color" | "colour") {
        return Err(bad(&format!("unknown format {format:?} (expected `edge`)")));
    }
    let n = number(line, fields.next().ok_or_else(|| bad("no vertex count"))?)?;
    let m = number(line, fields.next().ok_or_else(|| bad("no edge count"))?)?;
    if n > MAX_VERTICES as u64 {
        return Err(DimacsError::TooManyVertices {
            line,
            vertices: n,
            max: MAX_VERTICES,
        });
    }
    Ok((n as usize, m))
}

fn number(line: usize, token: &str) -> Result<u64, DimacsError> {
    token.parse().map_err(|_| DimacsError::NonNumeric {
        line,
        token: token.chars().take(40).collect(),
    })
}

fn vertex(line: usize, token: Option<&str>, n: usize) -> Result<usize, DimacsError> {
    let token = token.ok_or(DimacsError::IncompleteEdge { line })?;
    let v = number(line, token)?;
    if v == 0 || v > n as u64 {
        return Err(DimacsError::VertexOutOfRange {
            line,
            vertex: v,
            vertices: n,
        });
    }
    Ok(v as usize - 1)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tolerated_oddities_give_warnings_not_errors() {
        let text = "c x\np edge 3 4 extra\ne 1 2\ne 2 1\ne 2 2\ne 3 1\n";
        let parsed = Graph::from_dimacs(text).unwrap();
        assert_eq!(parsed.graph.num_edges(), 2);
        assert_eq!(
            parsed.warnings,
            vec![DimacsWarning::SelfLoop { line: 5, vertex: 2 }]
        );
        let parsed = Graph::from_dimacs("p edge 2 1\ne 1 2\ns 2\n").unwrap();
        assert_eq!(
            parsed.warnings,
            vec![DimacsWarning::IgnoredLine {
                line: 3,
                kind: "s".into()
            }]
        );
        let parsed = Graph::from_dimacs("p col 2 5\ne 1 2\n").unwrap();
        assert_eq!(
            parsed.warnings,
            vec![DimacsWarning::EdgeCountMismatch {
                declared: 5,
                found: 1
            }]
        );
    }

    #[test]
    fn errors_name_the_line() {
        let err = |t: &str| Graph::from_dimacs(t).unwrap_err();
        assert_eq!(err("e 1 2\n"), DimacsError::MissingHeader { line: 1 });
        assert_eq!(err("c only\n"), DimacsError::MissingHeader { line: 1 });
        assert_eq!(
            err("p edge 2 1\ne 1 3\n"),
            DimacsError::VertexOutOfRange {
                line: 2,
                vertex: 3,
                vertices: 2
            }
        );
        assert_eq!(
            err("p edge 2 1\n\ne 1 x\n"),
            DimacsError::NonNumeric {
                line: 3,
                token: "x".into()
            }
        );
        assert!(matches!(
            err("p edge\n"),
            DimacsError::BadHeader { line: 1, .. }
        ));
        assert!(matches!(
            err("p edge 2 1\np edge 2 1\n"),
            DimacsError::DuplicateHeader { line: 2, first: 1 }
        ));
        assert!(matches!(
            err("p edge 2 1\ne 1\n"),
            DimacsError::IncompleteEdge { line: 2 }
        ));
        assert!(matches!(
            err("p edge 99999999999 0\n"),
            DimacsError::TooManyVertices { .. }
        ));
    }
}
