//! JSON Lines for programs: one object per puzzle line, written by hand (the shapes are
//! few and flat).

use super::desk::{Explanation, Hint};
use super::step::{Mark, Step};
use crate::sudoku::Board;

/// `{"steps": [...], "guesses": G, "solution": "..."}` for a whole explanation.
pub fn explanation(e: &Explanation) -> String {
    object(&e.steps, e.guesses, &e.solution)
}

/// The same shape for a hint: one step (or the guesses asked for, or none when the
/// board is complete), `guesses` the number of guess steps given.
pub fn hint(h: &Hint, solution: &Board) -> String {
    match h {
        Hint::Step(s) => object(std::slice::from_ref(s), 0, solution),
        Hint::NeedsGuess { guesses } => object(guesses, guesses.len(), solution),
        Hint::Solved => object(&[], 0, solution),
    }
}

/// `{"error": "..."}`.
pub fn error(message: &str) -> String {
    format!("{{\"error\":{}}}", string(message))
}

fn object(steps: &[Step], guesses: usize, solution: &Board) -> String {
    let steps: Vec<String> = steps.iter().map(step).collect();
    format!(
        "{{\"steps\":[{}],\"guesses\":{guesses},\"solution\":{}}}",
        steps.join(","),
        string(&solution.to_line())
    )
}

/// One step with what it rests on.
pub fn step(s: &Step) -> String {
    let houses: Vec<String> = s.houses.iter().map(|h| string(&h.to_string())).collect();
    let cells: Vec<String> = s
        .cells
        .iter()
        .map(|c| format!("[{},{}]", c.row, c.col))
        .collect();
    format!(
        "{{\"technique\":{},\"placements\":{},\"eliminations\":{},\"houses\":[{}],\"cells\":[{}],\"pattern\":{},\"text\":{}}}",
        string(s.technique.name()),
        marks(&s.placements),
        marks(&s.eliminations),
        houses.join(","),
        cells.join(","),
        marks(&s.pattern),
        string(&s.to_string())
    )
}

fn marks(marks: &[Mark]) -> String {
    let inner: Vec<String> = marks
        .iter()
        .map(|m| format!("[{},{},{}]", m.row, m.col, m.digit))
        .collect();
    format!("[{}]", inner.join(","))
}

/// A JSON string literal.
pub fn string(text: &str) -> String {
    let mut out = String::with_capacity(text.len() + 2);
    out.push('"');
    for ch in text.chars() {
        match ch {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            c if (c as u32) < 0x20 => out.push_str(&format!("\\u{:04x}", c as u32)),
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn strings_escape_quotes_and_control_characters() {
        assert_eq!(string("a\"b\\c\n\u{1}"), "\"a\\\"b\\\\c\\n\\u0001\"");
    }
}
