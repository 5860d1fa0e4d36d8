//! Reading puzzle files line by line in bounded memory.
//!
//! Lines are numbered as they stand in the file. A UTF-8 byte order mark at the start of the
//! file, a trailing `\r` and trailing whitespace are stripped; blank lines and lines starting
//! with `#` are skipped. A line longer than [`MAX_LINE`] bytes is consumed but not kept, so a
//! file of any shape is read in constant memory.

use std::io::{self, BufRead, BufReader};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::mpsc::{sync_channel, Receiver, RecvTimeoutError, TryRecvError};
use std::sync::Arc;
use std::time::Duration;

use crate::batch::MAX_CHUNK;
use crate::interrupt;
use crate::read_ahead::{Budget, Lease};

/// How often a wait for input looks at the Ctrl-C flag.
const POLL: Duration = Duration::from_millis(50);

/// The longest line kept, in bytes; far above any board (a 64×64 numbers form is ~12 KiB).
pub const MAX_LINE: usize = 1 << 16;

/// One puzzle line as read, or why it cannot be used.
#[derive(Debug)]
pub enum LineContent {
    /// The text of the line, stripped.
    Text(String),
    /// The line is not valid UTF-8; the 1-based byte column of the first bad byte.
    InvalidUtf8 { column: usize },
    /// The line is too long to be a board.
    TooLong { bytes: usize },
}

/// A numbered puzzle line.
#[derive(Debug)]
pub struct Line {
    /// 1-based line number in the file.
    pub number: usize,
    /// Its content.
    pub content: LineContent,
}

/// A named input: a file or standard input.
pub struct Source {
    /// The name used in messages (`<stdin>` for standard input).
    pub name: String,
    reader: Box<dyn BufRead + Send>,
    line_number: usize,
    /// Bytes consumed so far, for progress bars.
    pub bytes_read: u64,
    /// Total bytes when known (regular files).
    pub total_bytes: Option<u64>,
}

impl Source {
    /// Opens `path` (`-` is standard input).
    pub fn open(path: &str) -> io::Result<Source> {
        if path == "-" {
            return Ok(Source::stdin());
        }
        let file = crate::files::open_input(path)?;
        let total_bytes = file
            .metadata()
            .ok()
            .filter(|m| m.is_file())
            .map(|m| m.len());
        Ok(Source {
            name: path.to_string(),
            reader: Box::new(BufReader::with_capacity(1 << 16, file)),
            line_number: 0,
            bytes_read: 0,
            total_bytes,
        })
    }

    /// Standard input.
    pub fn stdin() -> Source {
        Source {
            name: "<stdin>".to_string(),
            reader: Box::new(BufReader::new(io::stdin())),
            line_number: 0,
            bytes_read: 0,
            total_bytes: None,
        }
    }

    /// Wraps any reader (for tests).
    #[cfg(test)]
    pub fn from_reader(name: &str, reader: impl std::io::Read + Send + 'static) -> Source {
        Source {
            name: name.to_string(),
            reader: Box::new(BufReader::new(reader)),
            line_number: 0,
            bytes_read: 0,
            total_bytes: None,
        }
    }

    /// The next puzzle line, skipping blank and comment lines; `None` at the end.
    pub fn next_puzzle_line(&mut self) -> io::Result<Option<Line>> {
        let mut buf = Vec::new();
        loop {
            buf.clear();
            let Some(length) = self.read_raw_line(&mut buf)? else {
                return Ok(None);
            };
            self.line_number += 1;
            if self.line_number == 1 && buf.starts_with(b"\xEF\xBB\xBF") {
                buf.drain(..3);
            }
            if length > MAX_LINE {
                return Ok(Some(Line {
                    number: self.line_number,
                    content: LineContent::TooLong { bytes: length },
                }));
            }
            while buf.last().is_some_and(|b| b.is_ascii_whitespace()) {
                buf.pop();
            }
            let is_skipped = buf.iter().all(u8::is_ascii_whitespace) || buf.first() == Some(&b'#');
            if is_skipped {
                continue;
            }
            let content = match String::from_utf8(std::mem::take(&mut buf)) {
                Ok(text) => LineContent::Text(text),
                Err(e) => LineContent::InvalidUtf8 {
                    column: e.utf8_error().valid_up_to() + 1,
                },
            };
            return Ok(Some(Line {
                number: self.line_number,
                content,
            }));
        }
    }

    /// Reads one raw line (without its `\n`) into `buf`, keeping at most `MAX_LINE + 1`
    /// bytes; returns the full length, or `None` at end of input.
    fn read_raw_line(&mut self, buf: &mut Vec<u8>) -> io::Result<Option<usize>> {
        let mut length = 0usize;
        let mut saw_any = false;
        loop {
            let chunk = match self.reader.fill_buf() {
                Ok(c) => c,
                Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
                Err(e) => return Err(e),
            };
            if chunk.is_empty() {
                return Ok(saw_any.then_some(length));
            }
            saw_any = true;
            let (part, used, done) = match memchr::memchr(b'\n', chunk) {
                Some(i) => (&chunk[..i], i + 1, true),
                None => (chunk, chunk.len(), false),
            };
            let room = (MAX_LINE + 1).saturating_sub(buf.len());
            buf.extend_from_slice(&part[..part.len().min(room)]);
            length += part.len();
            self.reader.consume(used);
            self.bytes_read += used as u64;
            if done {
                return Ok(Some(length));
            }
        }
    }
}

/// What a chunk read from a [`LineReader`] holds.
pub struct Chunk {
    /// The puzzle lines, as many as were asked for at most.
    pub lines: Vec<Line>,
    /// The read error that ended the input, if any.
    pub error: Option<io::Error>,
    /// The input is exhausted (or failed).
    pub finished: bool,
    /// The lines' bytes, given back to the reader's budget when the chunk is dropped.
    lease: Lease,
}

enum Message {
    Line(Line),
    Failed(io::Error),
}

/// Reads a [`Source`] on its own thread, so that a chunk holds whatever lines are ready
/// (an interactive standard input is answered line by line) while memory stays bounded:
/// the channel holds [`MAX_CHUNK`] lines at most, so that the next chunk is ready when
/// one is answered, and the lines read ahead, waiting or in a chunk, hold
/// [`READ_AHEAD_BYTES`](crate::read_ahead::READ_AHEAD_BYTES) of text at most.
pub struct LineReader {
    receiver: Receiver<Message>,
    bytes_read: Arc<AtomicU64>,
    budget: Arc<Budget>,
}

impl LineReader {
    /// Starts reading `source`.
    pub fn spawn(mut source: Source) -> Self {
        let (sender, receiver) = sync_channel(MAX_CHUNK);
        let bytes_read = Arc::new(AtomicU64::new(0));
        let counter = Arc::clone(&bytes_read);
        let budget = Arc::new(Budget::default());
        let held = Arc::clone(&budget);
        std::thread::spawn(move || loop {
            let message = match source.next_puzzle_line() {
                Ok(Some(line)) => Message::Line(line),
                Ok(None) => return,
                Err(e) => Message::Failed(e),
            };
            counter.store(source.bytes_read, Ordering::Relaxed);
            let failed = matches!(message, Message::Failed(_));
            if !held.hold(message_bytes(&message)) || sender.send(message).is_err() || failed {
                return;
            }
        });
        LineReader {
            receiver,
            bytes_read,
            budget,
        }
    }

    /// Waits for at least one line (or the end, or Ctrl-C), then takes every line already
    /// read, up to `most`. After Ctrl-C the chunk is empty and finished; the reading
    /// thread may still be blocked in a read, and ends with the process. A chunk holds
    /// its lines' share of the read-ahead budget until it is dropped, so drop one before
    /// asking for the next.
    pub fn next_chunk(&self, most: usize) -> Chunk {
        let mut chunk = Chunk {
            lines: Vec::new(),
            error: None,
            finished: false,
            lease: Lease::new(Arc::clone(&self.budget)),
        };
        let mut next = loop {
            match self.receiver.recv_timeout(POLL) {
                Ok(message) => break Ok(message),
                Err(RecvTimeoutError::Disconnected) => break Err(TryRecvError::Disconnected),
                Err(RecvTimeoutError::Timeout) if interrupt::interrupted() => {
                    chunk.finished = true;
                    return chunk;
                }
                Err(RecvTimeoutError::Timeout) => {}
            }
        };
        loop {
            match next {
                Ok(Message::Line(line)) => {
                    chunk.lease.add(line_bytes(&line));
                    chunk.lines.push(line);
                }
                Ok(Message::Failed(e)) => {
                    chunk.error = Some(e);
                    chunk.finished = true;
                    return chunk;
                }
                Err(TryRecvError::Disconnected) => {
                    chunk.finished = true;
                    return chunk;
                }
                Err(TryRecvError::Empty) => return chunk,
            }
            if chunk.lines.len() >= most {
                return chunk;
            }
            next = self.receiver.try_recv();
        }
    }

    /// Bytes of the input consumed so far.
    pub fn bytes_read(&self) -> u64 {
        self.bytes_read.load(Ordering::Relaxed)
    }
}

impl Drop for LineReader {
    fn drop(&mut self) {
        // A reader waiting for budget would otherwise wait for ever.
        self.budget.close();
    }
}

/// The bytes a line keeps in memory (its text).
fn line_bytes(line: &Line) -> usize {
    match &line.content {
        LineContent::Text(text) => text.len(),
        LineContent::InvalidUtf8 { .. } | LineContent::TooLong { .. } => 0,
    }
}

fn message_bytes(message: &Message) -> usize {
    match message {
        Message::Line(line) => line_bytes(line),
        Message::Failed(_) => 0,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lines(bytes: &'static [u8]) -> Vec<(usize, String)> {
        let mut src = Source::from_reader("t", bytes);
        let mut out = Vec::new();
        while let Some(line) = src.next_puzzle_line().unwrap() {
            let text = match line.content {
                LineContent::Text(t) => t,
                LineContent::InvalidUtf8 { column } => format!("<utf8 {column}>"),
                LineContent::TooLong { bytes } => format!("<long {bytes}>"),
            };
            out.push((line.number, text));
        }
        out
    }

    #[test]
    fn bom_crlf_comments_and_blanks_are_handled() {
        let got = lines(b"\xEF\xBB\xBFabc\r\n\n# note\n  \ndef  \t\r\nxyz");
        assert_eq!(
            got,
            vec![(1, "abc".into()), (5, "def".into()), (6, "xyz".into())]
        );
    }

    #[test]
    fn invalid_utf8_is_reported_with_its_column() {
        assert_eq!(lines(b"ab\xFFcd\n"), vec![(1, "<utf8 3>".into())]);
    }

    #[test]
    fn overlong_line_is_consumed_without_being_kept() {
        let long: &'static [u8] = Box::leak(
            [vec![b'1'; MAX_LINE * 3], b"\nok\n".to_vec()]
                .concat()
                .into_boxed_slice(),
        );
        assert_eq!(
            lines(long),
            vec![(1, format!("<long {}>", MAX_LINE * 3)), (2, "ok".into())]
        );
    }
}
