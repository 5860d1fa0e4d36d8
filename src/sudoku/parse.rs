//! Reading boards from text: the 81-character line, the numbers form, the block of N lines,
//! and LeetCode's arrays. Every error carries the line and column of what is wrong.

use super::board::{Board, BoxShape, MAX_SIZE};
use super::error::ParseError;
use super::symbols::{digit_of, digits_or_out_of_range, MAX_SYMBOL_SIDE};

/// One cell as read: its digit (0 empty) and where it was written.
#[derive(Clone, Copy, Debug)]
struct Read {
    digit: usize,
    line: usize,
    column: usize,
    /// Digits of the numbers form may be long; keep the text for the error.
    ch: Option<char>,
}

impl Board {
    /// Reads any supported form, detected from the text: a LeetCode array when it starts
    /// with `[`, a block when it has several non-empty lines, the numbers form when its one
    /// line has whitespace between cells, else the line form. The box shape is the usual
    /// one for the side (see [`BoxShape::for_side`]).
    ///
    /// ```
    /// use bitcsp::sudoku::Board;
    /// let a = Board::parse(r#"["53..7....","6..195...",".98....6.","8...6...3","4..8.3..1","7...2...6",".6....28.","...419..5","....8..79"]"#)?;
    /// let b = Board::parse("53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79")?;
    /// assert_eq!(a, b);
    /// # Ok::<(), bitcsp::sudoku::ParseError>(())
    /// ```
    ///
    /// # Errors
    /// A [`ParseError`] naming the line and column of the first problem.
    pub fn parse(text: &str) -> Result<Self, ParseError> {
        Self::parse_with_shape(text, None)
    }

    /// As [`Board::parse`], with an explicit box shape when `shape` is given.
    ///
    /// # Errors
    /// A [`ParseError`] naming the line and column of the first problem.
    pub fn parse_with_shape(text: &str, shape: Option<BoxShape>) -> Result<Self, ParseError> {
        if let Some(board) = quick_line(text, shape) {
            return Ok(board);
        }
        let text = text.strip_prefix('\u{feff}').unwrap_or(text);
        let trimmed = text.trim_start();
        if trimmed.starts_with('[') {
            return Self::from_leetcode_with_shape(text, shape);
        }
        let lines = text.lines().filter(|l| !l.trim().is_empty()).count();
        if lines > 1 {
            return Self::from_block_with_shape(text, shape);
        }
        let line = text.lines().find(|l| !l.trim().is_empty()).unwrap_or("");
        if line.trim().contains(char::is_whitespace) {
            Self::from_numbers_with_shape(text, shape)
        } else {
            Self::from_line_with_shape(text, shape)
        }
    }

    /// Reads the line form: N² symbols in row order, `.` or `0` empty; surrounding
    /// whitespace is ignored.
    ///
    /// # Errors
    /// [`ParseError::InvalidCharacter`] with its column, [`ParseError::WrongLength`].
    pub fn from_line(line: &str) -> Result<Self, ParseError> {
        Self::from_line_with_shape(line, None)
    }

    /// As [`Board::from_line`] with an explicit box shape.
    ///
    /// # Errors
    /// As [`Board::from_line`], and [`ParseError::BadBoxShape`].
    pub fn from_line_with_shape(line: &str, shape: Option<BoxShape>) -> Result<Self, ParseError> {
        match quick_line(line, shape) {
            Some(board) => Ok(board),
            None => read_line(line, shape),
        }
    }

    /// Reads the numbers form: N² whitespace-separated numbers, `0` or `.` empty (any
    /// side up to 64, over any number of lines).
    ///
    /// # Errors
    /// [`ParseError::InvalidCharacter`], [`ParseError::ValueOutOfRange`],
    /// [`ParseError::WrongLength`].
    pub fn from_numbers(text: &str) -> Result<Self, ParseError> {
        Self::from_numbers_with_shape(text, None)
    }

    /// As [`Board::from_numbers`] with an explicit box shape.
    ///
    /// # Errors
    /// As [`Board::from_numbers`], and [`ParseError::BadBoxShape`].
    pub fn from_numbers_with_shape(
        text: &str,
        shape: Option<BoxShape>,
    ) -> Result<Self, ParseError> {
        let mut cells = Vec::new();
        for (line_no, line) in text.lines().enumerate() {
            for (column, token) in tokens(line) {
                cells.push(read_number(token, line_no + 1, column)?);
            }
        }
        build(cells, shape)
    }

    /// Reads a block: N rows of N cells, one row a line. Box separators (`|`, `+`, `-`) and
    /// spaces are ignored and lines made only of them are skipped. A row of exactly N
    /// whitespace-separated tokens is read as numbers; otherwise each symbol is a cell.
    ///
    /// # Errors
    /// [`ParseError::InvalidCharacter`], [`ParseError::WrongRowLength`],
    /// [`ParseError::WrongRowCount`].
    pub fn from_block(text: &str) -> Result<Self, ParseError> {
        Self::from_block_with_shape(text, None)
    }

    /// As [`Board::from_block`] with an explicit box shape.
    ///
    /// # Errors
    /// As [`Board::from_block`], and [`ParseError::BadBoxShape`].
    pub fn from_block_with_shape(text: &str, shape: Option<BoxShape>) -> Result<Self, ParseError> {
        let text = text.strip_prefix('\u{feff}').unwrap_or(text);
        let rows: Vec<(usize, Vec<(usize, &str)>)> = text
            .lines()
            .enumerate()
            .map(|(i, l)| (i + 1, block_tokens(l)))
            .filter(|(_, t)| !t.is_empty())
            .collect();
        let n = shape.map_or(rows.len(), BoxShape::side);
        if n > MAX_SIZE {
            return Err(match shape {
                Some(s) => ParseError::ShapeTooLarge {
                    rows: s.rows,
                    cols: s.cols,
                    max: MAX_SIZE,
                },
                None => ParseError::TooLarge {
                    size: n,
                    max: MAX_SIZE,
                },
            });
        }
        if rows.len() != n {
            return Err(ParseError::WrongRowCount {
                expected: n,
                actual: rows.len(),
            });
        }
        let mut cells = Vec::with_capacity(n * n);
        for (line_no, toks) in rows {
            let row = if toks.len() == n && n > 1 {
                toks.iter()
                    .map(|&(col, t)| read_number_or_symbol(t, line_no, col))
                    .collect::<Result<Vec<_>, _>>()?
            } else {
                symbols_of(&toks, line_no)?
            };
            if row.len() != n {
                return Err(ParseError::WrongRowLength {
                    line: line_no,
                    expected: n,
                    actual: row.len(),
                });
            }
            cells.extend(row);
        }
        build(cells, shape)
    }

    /// Reads LeetCode's arrays: `["53..7....", ...]` (one string a row) or
    /// `[["5","3",".", ...], ...]` (one string a cell).
    ///
    /// # Errors
    /// [`ParseError::MalformedArray`] for broken syntax, and the errors of the line form
    /// for the cells.
    pub fn from_leetcode(text: &str) -> Result<Self, ParseError> {
        Self::from_leetcode_with_shape(text, None)
    }

    fn from_leetcode_with_shape(text: &str, shape: Option<BoxShape>) -> Result<Self, ParseError> {
        let strings = quoted_strings(text)?;
        let all_single = strings.iter().all(|s| s.text.chars().count() == 1);
        let mut cells = Vec::new();
        if all_single && strings.len() > 1 {
            for s in &strings {
                for (i, ch) in s.text.chars().enumerate() {
                    cells.push(read_symbol(ch, s.line, s.column + i)?);
                }
            }
        } else {
            let n = strings.len();
            for s in &strings {
                let row: Vec<Read> = s
                    .text
                    .chars()
                    .enumerate()
                    .map(|(i, ch)| read_symbol(ch, s.line, s.column + i))
                    .collect::<Result<_, _>>()?;
                if row.len() != n {
                    return Err(ParseError::WrongRowLength {
                        line: s.line,
                        expected: n,
                        actual: row.len(),
                    });
                }
                cells.extend(row);
            }
        }
        build(cells, shape)
    }
}

/// Turns the cells read into a board: checks the count is side², the digits are in range.
fn build(cells: Vec<Read>, shape: Option<BoxShape>) -> Result<Board, ParseError> {
    if cells.is_empty() {
        return Err(ParseError::Empty);
    }
    let shape = match shape {
        Some(s) => {
            let Some(wanted) = s.checked_cells().filter(|_| s.side() <= MAX_SIZE) else {
                return Err(ParseError::ShapeTooLarge {
                    rows: s.rows,
                    cols: s.cols,
                    max: MAX_SIZE,
                });
            };
            if wanted != cells.len() || s.rows == 0 || s.cols == 0 {
                if wanted != 0 && cells.len() != wanted {
                    return Err(ParseError::WrongLength {
                        expected: wanted.to_string(),
                        actual: cells.len(),
                    });
                }
                return Err(ParseError::BadBoxShape {
                    rows: s.rows,
                    cols: s.cols,
                    cells: cells.len(),
                });
            }
            s
        }
        None => {
            let n = cells.len().isqrt();
            if n * n != cells.len() {
                let nearest = (cells.len() as f64).sqrt().round() as usize;
                return Err(ParseError::WrongLength {
                    expected: format!("{} (a square number)", (nearest * nearest).max(1)),
                    actual: cells.len(),
                });
            }
            BoxShape::for_side(n)
        }
    };
    let n = shape.side();
    if n > MAX_SIZE {
        return Err(ParseError::TooLarge {
            size: n,
            max: MAX_SIZE,
        });
    }
    let mut digits = Vec::with_capacity(cells.len());
    for r in cells {
        if r.digit > n {
            return Err(match r.ch {
                Some(ch) => ParseError::InvalidCharacter {
                    line: r.line,
                    column: r.column,
                    ch,
                },
                None => ParseError::ValueOutOfRange {
                    line: r.line,
                    column: r.column,
                    value: r.digit.to_string(),
                    max: n,
                },
            });
        }
        digits.push(r.digit as u8);
    }
    Board::from_cells(shape, digits)
}

/// [`Board::from_line_with_shape`] for any text: each cell read with its position, for
/// the error messages.
fn read_line(line: &str, shape: Option<BoxShape>) -> Result<Board, ParseError> {
    let (line_no, text) = first_content_line(line);
    let lead = text.chars().take_while(|c| c.is_whitespace()).count();
    let body = text.trim();
    // One allocation: a cell is at most one byte of the line.
    let mut cells = Vec::with_capacity(body.len());
    for (i, ch) in body.chars().enumerate() {
        let column = lead + i + 1;
        let digit = digit_of(ch).ok_or(ParseError::InvalidCharacter {
            line: line_no,
            column,
            ch,
        })?;
        cells.push(Read {
            digit: usize::from(digit),
            line: line_no,
            column,
            ch: Some(ch),
        });
    }
    build(cells, shape)
}

/// The usual case of the line form, read without a record per cell (only an error
/// message needs positions): the text, trimmed, is one line of N² ASCII symbols, each a
/// digit of the board. `None` for anything else, which the general readers then read
/// or report with its line and column.
fn quick_line(text: &str, shape: Option<BoxShape>) -> Option<Board> {
    let body = text.trim().as_bytes();
    let shape = shape.unwrap_or_else(|| BoxShape::for_side(body.len().isqrt()));
    if shape.checked_cells() != Some(body.len()) {
        return None;
    }
    // A byte that is no symbol (a byte of a multi-byte character among them) reads as a
    // digit above the side, and `from_cells` refuses it with an empty or too large board.
    Board::from_cells(shape, digits_or_out_of_range(body)).ok()
}

/// The first non-blank line and its 1-based number (line 1 when all are blank).
fn first_content_line(text: &str) -> (usize, &str) {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    text.lines()
        .enumerate()
        .find(|(_, l)| !l.trim().is_empty())
        .map_or((1, ""), |(i, l)| (i + 1, l))
}

/// Whitespace-separated tokens with their 1-based character columns.
fn tokens(line: &str) -> Vec<(usize, &str)> {
    let mut out = Vec::new();
    let mut start: Option<(usize, usize)> = None;
    let mut column = 0;
    for (byte, ch) in line.char_indices() {
        column += 1;
        match (ch.is_whitespace(), start) {
            (false, None) => start = Some((byte, column)),
            (true, Some((b, c))) => {
                out.push((c, &line[b..byte]));
                start = None;
            }
            _ => {}
        }
    }
    if let Some((b, c)) = start {
        out.push((c, &line[b..]));
    }
    out
}

/// Tokens of a block row with the box separators treated as spaces.
fn block_tokens(line: &str) -> Vec<(usize, &str)> {
    let mut out = Vec::new();
    for (col, tok) in tokens(line) {
        let mut offset = 0;
        for part in tok.split(['|', '+', '-']) {
            if !part.is_empty() {
                let chars_before = tok[..offset].chars().count();
                out.push((col + chars_before, part));
            }
            offset += part.len() + 1;
        }
    }
    out
}

fn symbols_of(toks: &[(usize, &str)], line: usize) -> Result<Vec<Read>, ParseError> {
    let mut row = Vec::new();
    for &(col, t) in toks {
        for (i, ch) in t.chars().enumerate() {
            row.push(read_symbol(ch, line, col + i)?);
        }
    }
    Ok(row)
}

fn read_symbol(ch: char, line: usize, column: usize) -> Result<Read, ParseError> {
    let digit = digit_of(ch).ok_or(ParseError::InvalidCharacter { line, column, ch })?;
    Ok(Read {
        digit: usize::from(digit),
        line,
        column,
        ch: Some(ch),
    })
}

fn read_number_or_symbol(token: &str, line: usize, column: usize) -> Result<Read, ParseError> {
    let mut chars = token.chars();
    match (chars.next(), chars.next()) {
        (Some(ch), None) => read_symbol(ch, line, column),
        _ => read_number(token, line, column),
    }
}

fn read_number(token: &str, line: usize, column: usize) -> Result<Read, ParseError> {
    if token == "." {
        return Ok(Read {
            digit: 0,
            line,
            column,
            ch: None,
        });
    }
    if let Some((i, ch)) = token.chars().enumerate().find(|(_, c)| !c.is_ascii_digit()) {
        return Err(ParseError::InvalidCharacter {
            line,
            column: column + i,
            ch,
        });
    }
    let out_of_range = || ParseError::ValueOutOfRange {
        line,
        column,
        value: token.to_string(),
        max: MAX_SIZE,
    };
    let digit: usize = token.parse().map_err(|_| out_of_range())?;
    if digit > MAX_SIZE {
        return Err(out_of_range());
    }
    Ok(Read {
        digit,
        line,
        column,
        ch: None,
    })
}

/// A string literal of a LeetCode array and where its first character stands.
struct Quoted {
    text: String,
    line: usize,
    column: usize,
}

/// Every `"..."` in an array text; anything outside strings must be brackets, commas or
/// whitespace.
fn quoted_strings(text: &str) -> Result<Vec<Quoted>, ParseError> {
    let mut out = Vec::new();
    let (mut line, mut column) = (1, 0);
    let mut current: Option<Quoted> = None;
    let mut depth: i64 = 0;
    for ch in text.chars() {
        if ch == '\n' {
            if current.is_some() {
                return Err(malformed(line, column + 1, "line break inside a string"));
            }
            line += 1;
            column = 0;
            continue;
        }
        column += 1;
        match (&mut current, ch) {
            (Some(_), '"') => out.extend(current.take()),
            (Some(q), c) => q.text.push(c),
            (None, '"') => {
                current = Some(Quoted {
                    text: String::new(),
                    line,
                    column: column + 1,
                })
            }
            (None, '[') => depth += 1,
            (None, ']') => {
                depth -= 1;
                if depth < 0 {
                    return Err(malformed(line, column, "unmatched ']'"));
                }
            }
            (None, c) if c == ',' || c.is_whitespace() || c == '\u{feff}' => {}
            (None, c) => {
                return Err(malformed(
                    line,
                    column,
                    &format!("unexpected {c:?} outside a string"),
                ))
            }
        }
    }
    if current.is_some() {
        return Err(malformed(line, column, "unterminated string"));
    }
    if depth != 0 {
        return Err(malformed(line, column, "unbalanced brackets"));
    }
    Ok(out)
}

fn malformed(line: usize, column: usize, reason: &str) -> ParseError {
    ParseError::MalformedArray {
        line,
        column,
        reason: reason.to_string(),
    }
}

/// Symbols above 35 are not written; keep the constant used so the docs stay true.
const _: () = assert!(MAX_SYMBOL_SIDE < MAX_SIZE);

#[cfg(test)]
mod tests {
    use super::*;

    const LINE: &str =
        "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79";

    #[test]
    fn quick_line_reads_what_the_general_reader_reads() {
        // Random texts near board sizes from symbols, blanks, letters past the side and
        // multi-byte characters: whenever the quick reader accepts one, the reader that
        // records positions reads the same board; and it accepts every plain valid line.
        let alphabet: Vec<char> = ".0123456789aAgGzZ #é[\n\t".chars().collect();
        let mut next = crate::sudoku::test_rng(0x2545_f491_4f6c_dd1du64);
        let shapes = [
            None,
            Some(BoxShape { rows: 2, cols: 2 }),
            Some(BoxShape { rows: 2, cols: 3 }),
            Some(BoxShape { rows: 3, cols: 3 }),
            Some(BoxShape { rows: 0, cols: 3 }),
        ];
        let mut accepted = 0;
        for round in 0..20_000 {
            let len = [16, 36, 81, 17, 0][round % 5];
            let plain = next() % 2 == 0;
            let text: String = (0..len)
                .map(|_| {
                    let pick = next() as usize;
                    if plain {
                        alphabet[pick % 10]
                    } else {
                        alphabet[pick % alphabet.len()]
                    }
                })
                .collect();
            let shape = shapes[next() as usize % shapes.len()];
            let general = read_line(&text, shape);
            match quick_line(&text, shape) {
                Some(board) => {
                    accepted += 1;
                    assert_eq!(general, Ok(board), "{text:?} {shape:?}");
                }
                None => {
                    let single = !text.trim().contains(char::is_whitespace);
                    assert!(general.is_err() || !single, "{text:?} {shape:?}");
                }
            }
        }
        assert!(accepted > 300, "{accepted}");
    }

    #[test]
    fn all_forms_of_one_board_agree() {
        let line = Board::from_line(LINE).unwrap();
        let strings = r#"["53..7....","6..195...",".98....6.","8...6...3","4..8.3..1","7...2...6",".6....28.","...419..5","....8..79"]"#;
        assert_eq!(Board::parse(strings).unwrap(), line);
        let nested: Vec<String> = LINE
            .chars()
            .collect::<Vec<_>>()
            .chunks(9)
            .map(|row| {
                let cells: Vec<String> = row.iter().map(|c| format!("\"{c}\"")).collect();
                format!("[{}]", cells.join(","))
            })
            .collect();
        let nested = format!("[{}]", nested.join(",\n "));
        assert_eq!(Board::parse(&nested).unwrap(), line);
        assert_eq!(Board::parse(&line.to_block()).unwrap(), line);
        assert_eq!(Board::parse(&line.to_numbers()).unwrap(), line);
        let plain_block: String = LINE
            .as_bytes()
            .chunks(9)
            .map(|r| format!("{}\n", String::from_utf8_lossy(r)))
            .collect();
        assert_eq!(Board::parse(&plain_block).unwrap(), line);
    }

    #[test]
    fn bad_character_is_located() {
        let mut bad = LINE.to_string();
        bad.replace_range(10..11, "x");
        assert_eq!(
            Board::from_line(&bad),
            Err(ParseError::InvalidCharacter {
                line: 1,
                column: 11,
                ch: 'x'
            })
        );
    }

    #[test]
    fn letter_beyond_the_side_is_invalid() {
        let mut bad = LINE.to_string();
        bad.replace_range(3..4, "A");
        assert!(matches!(
            Board::from_line(&bad),
            Err(ParseError::InvalidCharacter {
                column: 4,
                ch: 'A',
                ..
            })
        ));
    }

    #[test]
    fn short_line_reports_expected_and_actual_length() {
        let err = Board::from_line(&LINE[..80]).unwrap_err();
        assert_eq!(
            err.to_string(),
            "expected 81 (a square number) cells, found 80"
        );
    }

    #[test]
    fn block_row_of_wrong_length_is_located() {
        let mut block = Board::from_line(LINE).unwrap().to_block();
        block = block.replacen("5 3 .", "5 3", 1);
        assert!(matches!(
            Board::from_block(&block),
            Err(ParseError::WrongRowLength {
                line: 1,
                expected: 9,
                ..
            })
        ));
    }

    #[test]
    fn sixteen_board_uses_letters_and_numbers_alike() {
        let letters: String = (0..256)
            .map(|i| if i % 17 == 0 { 'G' } else { '.' })
            .collect();
        let b = Board::from_line(&letters).unwrap();
        assert_eq!(b.side(), 16);
        assert_eq!(b.get(0, 0), Some(16));
        assert_eq!(Board::from_numbers(&b.to_numbers()).unwrap(), b);
    }

    #[test]
    fn explicit_shape_must_tile_the_board() {
        let line: String = ".".repeat(36);
        let b = Board::from_line_with_shape(&line, Some(BoxShape { rows: 3, cols: 2 })).unwrap();
        assert_eq!(b.shape(), BoxShape { rows: 3, cols: 2 });
        assert!(matches!(
            Board::from_line_with_shape(&line, Some(BoxShape { rows: 3, cols: 3 })),
            Err(ParseError::WrongLength { .. })
        ));
    }

    #[test]
    fn broken_array_is_located() {
        assert!(matches!(
            Board::parse("[\"53..7....\", x]"),
            Err(ParseError::MalformedArray {
                line: 1,
                column: 15,
                ..
            })
        ));
        assert!(matches!(
            Board::parse("[\"53..7...."),
            Err(ParseError::MalformedArray { .. })
        ));
    }
}
