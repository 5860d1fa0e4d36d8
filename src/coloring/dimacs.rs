//! Reading DIMACS `.col` graphs: `c` comments, one `p edge N M` (or `p col N M`) header,
//! then `e U V` lines with 1-based vertices.
//!
//! Tolerated: repeated and reversed edges, extra fields on the `p` line, `n` (vertex
//! weight) lines, blank lines, a UTF-8 byte order mark, `\r\n` line ends, upper-case line
//! kinds and formats (`P EDGE`), and bytes that are not UTF-8 in comments. Warnings (not errors): self-loops and lines of unknown kinds
//! (such as a solver's `s` line), which are ignored, and an edge count that differs from
//! the header.

use std::io::BufRead;

use super::graph::{Graph, GraphBuilder};

/// Ignored lines reported one by one; more are only counted, so that a garbage file
/// cannot flood the warnings.
const MAX_IGNORED_REPORTED: usize = 10;

/// The most vertices a graph may declare.
pub const MAX_VERTICES: usize = 1 << 20;

/// The longest line accepted, in bytes: far above any real header, edge or comment line,
/// and a bound on what one line of a damaged file (or of `/dev/zero`) costs.
pub const MAX_LINE: usize = 1 << 16;

/// Why a DIMACS text is not a graph; `line` is 1-based.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum DimacsError {
    /// Reading the input failed.
    #[error("line {line}: read error: {message}")]
    Read {
        /// The line being read.
        line: usize,
        /// The system's message.
        message: String,
    },
    /// A line longer than [`MAX_LINE`] bytes.
    #[error("line {line}: longer than {max} bytes")]
    LineTooLong {
        /// The line.
        line: usize,
        /// The maximum.
        max: usize,
    },
    /// An `e` line with more than two vertices.
    #[error("line {line}: unexpected {field:?} after the edge's two vertices")]
    ExtraField {
        /// The line.
        line: usize,
        /// The first extra field.
        field: String,
    },
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
#[non_exhaustive]
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
        Self::read_dimacs(text.as_bytes())
    }

    /// Reads a DIMACS `.col` graph from a stream, line by line: memory follows the graph
    /// (its vertices and distinct edges), not the file, and no line may be longer than
    /// [`MAX_LINE`] bytes.
    ///
    /// ```
    /// use std::io::BufReader;
    /// use bitcsp::coloring::Graph;
    /// let file: &[u8] = b"p edge 2 3\ne 1 2\ne 2 1\ne 1 2\n";
    /// let parsed = Graph::read_dimacs(BufReader::new(file))?;
    /// assert_eq!(parsed.graph.num_edges(), 1);
    /// # Ok::<(), bitcsp::coloring::DimacsError>(())
    /// ```
    ///
    /// # Errors
    /// The first problem, with its line number, as a [`DimacsError`]; a failed read is
    /// [`DimacsError::Read`].
    pub fn read_dimacs(mut reader: impl BufRead) -> Result<Parsed, DimacsError> {
        let mut reading = Reading::default();
        let mut buf = Vec::new();
        let mut line = 0usize;
        while let Some(length) = read_line_capped(&mut reader, &mut buf, line + 1)? {
            line += 1;
            if length > MAX_LINE {
                return Err(DimacsError::LineTooLong {
                    line,
                    max: MAX_LINE,
                });
            }
            if line == 1 && buf.starts_with(BOM) {
                buf.drain(..BOM.len());
            }
            reading.line(line, &buf)?;
        }
        reading.finish(line)
    }
}

/// The UTF-8 byte order mark some editors put first.
const BOM: &[u8] = b"\xEF\xBB\xBF";

/// What has been read so far.
#[derive(Default)]
struct Reading {
    /// The header's line, vertex count and announced edge count.
    header: Option<(usize, usize, u64)>,
    graph: Option<GraphBuilder>,
    warnings: Vec<DimacsWarning>,
    edge_lines: u64,
    ignored: usize,
}

impl Reading {
    fn line(&mut self, line: usize, bytes: &[u8]) -> Result<(), DimacsError> {
        let mut fields = bytes
            .split(u8::is_ascii_whitespace)
            .filter(|field| !field.is_empty());
        let Some(kind) = fields.next() else {
            return Ok(());
        };
        match kind.to_ascii_lowercase().as_slice() {
            b"p" => self.header(line, fields),
            b"e" => self.edge(line, fields),
            b"n" => Ok(()),
            other if other.starts_with(b"c") => Ok(()),
            _ => {
                self.ignored += 1;
                if self.ignored <= MAX_IGNORED_REPORTED {
                    self.warnings.push(DimacsWarning::IgnoredLine {
                        line,
                        kind: shown(kind, 20),
                    });
                }
                Ok(())
            }
        }
    }

    fn header<'a>(
        &mut self,
        line: usize,
        fields: impl Iterator<Item = &'a [u8]>,
    ) -> Result<(), DimacsError> {
        if let Some((first, _, _)) = self.header {
            return Err(DimacsError::DuplicateHeader { line, first });
        }
        let (n, m) = parse_header(line, fields)?;
        self.header = Some((line, n, m));
        self.graph = Some(GraphBuilder::new(n));
        Ok(())
    }

    fn edge<'a>(
        &mut self,
        line: usize,
        mut fields: impl Iterator<Item = &'a [u8]>,
    ) -> Result<(), DimacsError> {
        let (Some((_, n, _)), Some(graph)) = (self.header, self.graph.as_mut()) else {
            return Err(DimacsError::MissingHeader { line });
        };
        self.edge_lines += 1;
        let u = vertex(line, fields.next(), n)?;
        let v = vertex(line, fields.next(), n)?;
        if let Some(extra) = fields.next() {
            return Err(DimacsError::ExtraField {
                line,
                field: shown(extra, 40),
            });
        }
        if u == v {
            self.warnings.push(DimacsWarning::SelfLoop {
                line,
                vertex: u as u64 + 1,
            });
        } else {
            graph.add_edge(u, v);
        }
        Ok(())
    }

    fn finish(mut self, last_line: usize) -> Result<Parsed, DimacsError> {
        let (Some((_, _, declared)), Some(graph)) = (self.header, self.graph) else {
            return Err(DimacsError::MissingHeader {
                line: last_line.max(1),
            });
        };
        if declared != self.edge_lines {
            self.warnings.push(DimacsWarning::EdgeCountMismatch {
                declared,
                found: self.edge_lines,
            });
        }
        Ok(Parsed {
            graph: graph.build(),
            warnings: self.warnings,
        })
    }
}

/// Reads one line (without its `\n` and a `\r` before it) into `buf`, keeping at most
/// `MAX_LINE + 1` bytes; returns the line's length (past `MAX_LINE + 1`, a length at
/// which reading stopped), or `None` at the end.
fn read_line_capped(
    reader: &mut impl BufRead,
    buf: &mut Vec<u8>,
    line: usize,
) -> Result<Option<usize>, DimacsError> {
    buf.clear();
    let mut length = 0usize;
    let mut saw_any = false;
    loop {
        let chunk = match reader.fill_buf() {
            Ok(chunk) => chunk,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
            Err(e) => {
                return Err(DimacsError::Read {
                    line,
                    message: e.to_string(),
                })
            }
        };
        if chunk.is_empty() {
            break;
        }
        saw_any = true;
        let (part, used, done) = match chunk.iter().position(|&b| b == b'\n') {
            Some(i) => (&chunk[..i], i + 1, true),
            None => (chunk, chunk.len(), false),
        };
        let room = (MAX_LINE + 1).saturating_sub(buf.len());
        buf.extend_from_slice(&part[..part.len().min(room)]);
        length = length.saturating_add(part.len());
        reader.consume(used);
        if done {
            break;
        }
        if length > MAX_LINE + 1 {
            // Too long to be read as a line (the caller refuses it): the rest, which may
            // never end (`/dev/zero`), is not read.
            return Ok(Some(length));
        }
    }
    if buf.last() == Some(&b'\r') {
        buf.pop();
        length -= 1;
    }
    Ok(saw_any.then_some(length))
}

/// A field for a message: at most `max` characters, invalid UTF-8 replaced.
fn shown(field: &[u8], max: usize) -> String {
    String::from_utf8_lossy(field).chars().take(max).collect()
}

fn parse_header<'a>(
    line: usize,
    mut fields: impl Iterator<Item = &'a [u8]>,
) -> Result<(usize, u64), DimacsError> {
    let bad = |reason: &str| DimacsError::BadHeader {
        line,
        reason: reason.to_string(),
    };
    let format = fields
        .next()
        .ok_or_else(|| bad("no format (expected `edge`)"))?;
    let known: [&[u8]; 5] = [b"edge", b"edges", b"col", b"color", b"colour"];
    if !known.iter().any(|k| k.eq_ignore_ascii_case(format)) {
        let format = shown(format, 20);
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

fn number(line: usize, token: &[u8]) -> Result<u64, DimacsError> {
    std::str::from_utf8(token)
        .ok()
        .and_then(|t| t.parse().ok())
        .ok_or_else(|| DimacsError::NonNumeric {
            line,
            token: shown(token, 40),
        })
}

fn vertex(line: usize, token: Option<&[u8]>, n: usize) -> Result<usize, DimacsError> {
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
