//! The workshop's answers for one puzzle line: `candidates`, `hint`, `explain`, `grade`.
//! Batching, threads, input and errors are `sudoku_cmd`'s.

use std::cell::RefCell;
use std::fmt::Write as _;

use bitcsp::sudoku::variants::VariantPuzzle;
use bitcsp::sudoku::workshop::{
    json, Explanation, Hint, Technique, VariantWorkshop, Workshop, WorkshopError,
};
use bitcsp::sudoku::{Board, BoxShape};

/// What the workshop prints for each puzzle.
#[derive(Clone, Copy, Debug)]
pub enum Task {
    /// The pencil marks, after the steps up to a technique when given.
    Candidates { after: Option<Technique> },
    /// The next step; with `guess`, the guesses a stuck puzzle needs.
    Hint { json: bool, guess: bool },
    /// The whole solve.
    Explain { json: bool },
    /// `RATING CLASS`.
    Grade,
}

impl Task {
    /// Whether answers, errors included, are JSON lines.
    pub fn json(self) -> bool {
        matches!(
            self,
            Task::Hint { json: true, .. } | Task::Explain { json: true }
        )
    }
}

/// The answer for `board`, or the reason there is none.
pub fn answer(task: Task, board: &Board) -> Result<String, String> {
    with_workshop(board.shape(), |workshop| {
        let workshop = workshop.map_err(|e| e.to_string())?;
        run(task, workshop, board).map_err(|e| e.to_string())
    })
}

fn run(task: Task, workshop: &mut Workshop, board: &Board) -> Result<String, WorkshopError> {
    match task {
        Task::Candidates { after: None } => {
            Ok(bitcsp::sudoku::workshop::candidates(board).to_string())
        }
        Task::Candidates { after: Some(t) } => Ok(workshop.candidates_after(board, t)?.to_string()),
        Task::Grade => Ok(workshop.grade(board)?.to_string()),
        Task::Explain { json } => Ok(explanation(&workshop.explain(board)?, json)),
        Task::Hint { json, guess } => {
            let (hint, solution) = workshop.hint_and_solution(board, guess)?;
            Ok(hint_answer(hint, &solution, json))
        }
    }
}

/// The answer for a variant puzzle, or the reason there is none.
pub fn answer_variant(task: Task, puzzle: &VariantPuzzle) -> Result<String, String> {
    thread_local! {
        static WORKSHOP: RefCell<VariantWorkshop> = RefCell::new(VariantWorkshop::new());
    }
    // Taken out while in use, so that a panic drops it rather than leaving it half-used.
    let mut workshop = WORKSHOP.with(|cell| cell.take());
    let out = run_variant(task, &mut workshop, puzzle).map_err(|e| e.to_string());
    WORKSHOP.with(|cell| *cell.borrow_mut() = workshop);
    out
}

fn run_variant(
    task: Task,
    workshop: &mut VariantWorkshop,
    puzzle: &VariantPuzzle,
) -> Result<String, WorkshopError> {
    match task {
        Task::Candidates { after } => Ok(workshop.candidates(puzzle, after)?.to_string()),
        Task::Grade => Ok(workshop.grade(puzzle)?.to_string()),
        Task::Explain { json } => Ok(explanation(&workshop.explain(puzzle)?, json)),
        Task::Hint { json, guess } => {
            let (hint, solution) = workshop.hint_and_solution(puzzle, guess)?;
            Ok(hint_answer(hint, &solution, json))
        }
    }
}

/// An explanation as JSON or text.
fn explanation(e: &Explanation, json: bool) -> String {
    if json {
        json::explanation(e)
    } else {
        explanation_text(e)
    }
}

/// A hint as JSON (with the solution) or text.
fn hint_answer(hint: Hint, solution: &Board, json: bool) -> String {
    if json {
        json::hint(&hint, solution)
    } else {
        hint_text(hint)
    }
}

/// Numbered steps, the solution and the grade.
fn explanation_text(e: &Explanation) -> String {
    let mut out = String::new();
    for (i, step) in e.steps.iter().enumerate() {
        let _ = writeln!(out, "{}. {step}", i + 1);
    }
    let grade = e.grade();
    let _ = write!(
        out,
        "solution: {}\ngrade: {grade} ({} guesses; hardest step: {})\n",
        e.solution.to_line(),
        e.guesses,
        grade.hardest
    );
    out
}

/// A hint for people.
fn hint_text(hint: Hint) -> String {
    match hint {
        Hint::Step(step) => step.to_string(),
        Hint::Solved => "solved".to_owned(),
        Hint::NeedsGuess { guesses } if guesses.is_empty() => {
            "no technique applies: the puzzle needs trial and error (--guess shows a guess)"
                .to_owned()
        }
        Hint::NeedsGuess { guesses } => {
            let steps: Vec<String> = guesses.iter().map(|g| g.to_string()).collect();
            format!(
                "no technique applies: the puzzle needs trial and error; after {} the rest is logic:\n{}",
                if steps.len() == 1 { "this guess" } else { "these guesses" },
                steps.join("\n")
            )
        }
    }
}

/// Runs `work` with this thread's workshop for `shape`, built on first use.
fn with_workshop<T>(
    shape: BoxShape,
    work: impl FnOnce(Result<&mut Workshop, bitcsp::sudoku::SudokuError>) -> T,
) -> T {
    thread_local! {
        static WORKSHOP: RefCell<Option<Workshop>> = const { RefCell::new(None) };
    }
    let cached = WORKSHOP
        .with(|cell| cell.borrow_mut().take())
        .filter(|w| w.shape() == shape);
    let mut workshop = match cached {
        Some(w) => w,
        None => match Workshop::new(shape) {
            Ok(w) => w,
            Err(e) => return work(Err(e)),
        },
    };
    let out = work(Ok(&mut workshop));
    WORKSHOP.with(|cell| *cell.borrow_mut() = Some(workshop));
    out
}
