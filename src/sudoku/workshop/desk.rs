//! The workshop: pencil marks, hints, explanations and grades for puzzles of one box
//! shape, with the engine proving that each puzzle has one solution first.

use super::candidates::Candidates;
use super::class::{Class, Grade};
use super::geometry::Geometry;
use super::grid::Grid;
use super::logic::{self, Rules};
use super::step::{symbol, Found, Step};
use super::technique::Technique;
use crate::sudoku::variants::{VariantPuzzle, VariantSolver};
use crate::sudoku::{self, Board, BoxShape, PuzzleSolver, SudokuError};

/// Why the workshop cannot explain a board.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum WorkshopError {
    /// The puzzle has no solution.
    #[error("no solution")]
    NoSolution,
    /// The puzzle has more than one solution: no logic can decide it.
    #[error("more than one solution")]
    MultipleSolutions,
    /// The board could not be loaded.
    #[error(transparent)]
    Sudoku(#[from] SudokuError),
    /// The puzzle's variant is one the workshop does not take.
    #[error("{0}")]
    Unsupported(String),
    /// A step disagreed with the solution the engine found: a bug, reported rather than
    /// printed as a deduction.
    #[error("internal error (please report): the step \"{0}\" contradicts the solution")]
    Unsound(String),
}

/// A whole solve as a person would do it.
#[derive(Clone, Debug, PartialEq)]
pub struct Explanation {
    /// The steps, in order; the last one completes the grid.
    pub steps: Vec<Step>,
    /// How many steps are guesses (trial and error); 0 when logic alone solves it.
    pub guesses: usize,
    /// The solution.
    pub solution: Board,
}

impl Explanation {
    /// The grade: the rating and class of the hardest step.
    pub fn grade(&self) -> Grade {
        grade_of(self.steps.iter().map(|s| s.technique), self.guesses)
    }
}

/// The next step for a board.
#[derive(Clone, Debug, PartialEq)]
pub enum Hint {
    /// The simplest step that applies.
    Step(Step),
    /// No technique applies: the puzzle needs trial and error. `guesses` holds, when
    /// asked for, guesses after which logic finishes the puzzle: one when a single guess
    /// suffices, else the shortest sequence found.
    NeedsGuess {
        /// The guesses (empty unless asked for).
        guesses: Vec<Step>,
    },
    /// The board is already complete.
    Solved,
}

/// Pencil marks, hints, explanations and grades for boards of one box shape.
///
/// ```
/// use bitcsp::sudoku::workshop::{Class, Technique, Workshop};
/// use bitcsp::sudoku::{Board, BoxShape};
/// let mut workshop = Workshop::new(BoxShape { rows: 3, cols: 3 })?;
/// let board = Board::parse(
///     "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79",
/// )?;
/// let explanation = workshop.explain(&board)?;
/// assert_eq!(explanation.guesses, 0);
/// assert!(explanation.solution.check_solves(&board).is_ok());
/// assert_eq!(workshop.grade(&board)?.class, Class::Easy);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub struct Workshop {
    shape: BoxShape,
    geo: Geometry,
    solver: PuzzleSolver,
}

impl Workshop {
    /// A workshop for boards with boxes of `shape`.
    ///
    /// # Errors
    /// [`SudokuError::Parse`] when `shape` gives no board.
    pub fn new(shape: BoxShape) -> Result<Self, SudokuError> {
        let solver = PuzzleSolver::new(shape)?;
        Ok(Workshop {
            shape,
            geo: Geometry::new(shape),
            solver,
        })
    }

    /// The box shape of the boards this workshop takes.
    pub fn shape(&self) -> BoxShape {
        self.shape
    }

    fn check_shape(&self, board: &Board) -> Result<(), WorkshopError> {
        if board.shape() == self.shape {
            Ok(())
        } else {
            Err(SudokuError::ShapeMismatch {
                expected: self.shape,
                found: board.shape(),
            }
            .into())
        }
    }

    /// The solution of `board`, proved to be the only one.
    ///
    /// # Errors
    /// [`WorkshopError::NoSolution`] or [`WorkshopError::MultipleSolutions`].
    pub fn unique_solution(&mut self, board: &Board) -> Result<Board, WorkshopError> {
        self.check_shape(board)?;
        if board.find_clash().is_some() {
            return Err(WorkshopError::NoSolution);
        }
        let (solver, cells) = self.solver.load(board)?;
        only_solution(solver, board, cells)
    }

    /// The candidates after the steps of every technique up to `technique` (included),
    /// taken simplest first until none applies. Unique rectangles are used only when
    /// the engine proves the board has one solution.
    ///
    /// # Errors
    /// [`WorkshopError::Sudoku`] for a board of another shape.
    pub fn candidates_after(
        &mut self,
        board: &Board,
        technique: Technique,
    ) -> Result<Candidates, WorkshopError> {
        self.check_shape(board)?;
        let unique =
            technique >= Technique::UniqueRectangle1 && self.unique_solution(board).is_ok();
        Ok(candidates_after_on(&self.geo, board, technique, unique))
    }

    /// The next step for `board`: the simplest technique that applies to its pencil
    /// marks. With `guess`, a board that needs trial and error also gets the guesses
    /// after which logic finishes it.
    ///
    /// # Errors
    /// [`WorkshopError::NoSolution`] or [`WorkshopError::MultipleSolutions`]: a hint for
    /// such a board would be a guess.
    pub fn hint(&mut self, board: &Board, guess: bool) -> Result<Hint, WorkshopError> {
        Ok(self.hint_and_solution(board, guess)?.0)
    }

    /// [`Workshop::hint`] and the solution it was checked against.
    ///
    /// # Errors
    /// As [`Workshop::hint`].
    pub fn hint_and_solution(
        &mut self,
        board: &Board,
        guess: bool,
    ) -> Result<(Hint, Board), WorkshopError> {
        let solution = self.unique_solution(board)?;
        let hint = hint_on(&self.geo, board, &solution, guess)?;
        Ok((hint, solution))
    }

    /// The whole solve, step by step, always the simplest step that applies; when none
    /// does, a guess (the solution's digit in a cell with the fewest candidates).
    ///
    /// # Errors
    /// [`WorkshopError::NoSolution`] or [`WorkshopError::MultipleSolutions`].
    pub fn explain(&mut self, board: &Board) -> Result<Explanation, WorkshopError> {
        let mut steps = Vec::new();
        let (guesses, solution) = self.walk(board, |f, geo| steps.push(f.to_step(geo)))?;
        Ok(Explanation {
            steps,
            guesses,
            solution,
        })
    }

    /// The grade of `board`: the rating of the hardest step of its explanation.
    ///
    /// # Errors
    /// [`WorkshopError::NoSolution`] or [`WorkshopError::MultipleSolutions`].
    pub fn grade(&mut self, board: &Board) -> Result<Grade, WorkshopError> {
        let mut used = Vec::new();
        let (guesses, _) = self.walk(board, |f, _| {
            used.push(f.technique.unwrap_or(Technique::Guess));
        })?;
        Ok(grade_of(used.into_iter(), guesses))
    }

    /// Solves `board` by steps and guesses, checking each against the solution; returns
    /// the number of guesses and the solution.
    fn walk(
        &mut self,
        board: &Board,
        visit: impl FnMut(&Found, &Geometry),
    ) -> Result<(usize, Board), WorkshopError> {
        let solution = self.unique_solution(board)?;
        let guesses = walk_on(&self.geo, board, &solution, visit)?;
        Ok((guesses, solution))
    }
}

/// The candidates of `board` after every step up to `technique`.
fn candidates_after_on(
    geo: &Geometry,
    board: &Board,
    technique: Technique,
    unique: bool,
) -> Candidates {
    let mut grid = Grid::new(geo, board);
    let rules = Rules {
        up_to: technique,
        unique,
    };
    logic::run(&mut grid, rules, |_| {});
    Candidates::of(&grid, board.shape())
}

/// The next step for `board`, whose one solution is `solution`.
fn hint_on(
    geo: &Geometry,
    board: &Board,
    solution: &Board,
    guess: bool,
) -> Result<Hint, WorkshopError> {
    if board.is_complete() {
        return Ok(Hint::Solved);
    }
    let grid = Grid::new(geo, board);
    if let Some(step) = logic::next_step(&grid, Rules::all(true)) {
        check(&step, solution, geo)?;
        return Ok(Hint::Step(step.to_step(geo)));
    }
    let guesses = if guess {
        guess_plan(&grid, solution)
            .iter()
            .map(|f| f.to_step(geo))
            .collect()
    } else {
        Vec::new()
    };
    Ok(Hint::NeedsGuess { guesses })
}

/// Solves `board` by steps and guesses, checking each against `solution`; returns the
/// number of guesses.
fn walk_on(
    geo: &Geometry,
    board: &Board,
    solution: &Board,
    mut visit: impl FnMut(&Found, &Geometry),
) -> Result<usize, WorkshopError> {
    let mut grid = Grid::new(geo, board);
    let mut guesses = 0;
    while !grid.is_solved() {
        let step = match logic::next_step(&grid, Rules::all(true)) {
            Some(step) => step,
            None => {
                guesses += 1;
                guess_at(&grid, solution, fewest_candidates(&grid))
            }
        };
        check(&step, solution, geo)?;
        grid.apply(&step);
        visit(&step, geo);
    }
    Ok(guesses)
}

/// The workshop for variant puzzles whose rules keep digits apart in houses, cages and
/// pairs: x, windoku, jigsaw, killer, anti-knight and anti-king, alone or combined
/// (non-consecutive is no such rule). The same techniques run over the variant's houses
/// (its diagonals, windows or regions), cells see each other through cages and knight or
/// king moves too, killer cages add [`Technique::CageCombinations`], and unique
/// rectangles are left out (a variant's rules may forbid the swap they rest on).
///
/// ```
/// use bitcsp::sudoku::variants::VariantPuzzle;
/// use bitcsp::sudoku::workshop::VariantWorkshop;
/// let x = "8.3.7.........8.69..7.......193..2..4............4.....64....7............8.6...1";
/// let puzzle = VariantPuzzle::parse(x, &"x".parse()?, None)?;
/// let explanation = VariantWorkshop::new().explain(&puzzle)?;
/// assert!(puzzle.check_solution(&explanation.solution).is_ok());
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Default)]
pub struct VariantWorkshop {
    solver: VariantSolver,
}

impl VariantWorkshop {
    /// A workshop for variant puzzles.
    pub fn new() -> Self {
        VariantWorkshop::default()
    }

    fn geometry(puzzle: &VariantPuzzle) -> Result<Geometry, WorkshopError> {
        Geometry::for_variant(puzzle).map_err(WorkshopError::Unsupported)
    }

    /// The solution of `puzzle`, proved to be the only one.
    ///
    /// # Errors
    /// [`WorkshopError::NoSolution`] or [`WorkshopError::MultipleSolutions`].
    pub fn unique_solution(&mut self, puzzle: &VariantPuzzle) -> Result<Board, WorkshopError> {
        if puzzle.find_clash().is_some() {
            return Err(WorkshopError::NoSolution);
        }
        let (solver, cells) = self.solver.load(puzzle)?;
        only_solution(solver, &puzzle.board, cells)
    }

    /// The pencil marks of `puzzle` (digits not placed in any cell it must differ from),
    /// or those after every step up to `after`.
    ///
    /// # Errors
    /// [`WorkshopError::Unsupported`] for a variant the workshop does not take.
    pub fn candidates(
        &mut self,
        puzzle: &VariantPuzzle,
        after: Option<Technique>,
    ) -> Result<Candidates, WorkshopError> {
        let geo = Self::geometry(puzzle)?;
        Ok(match after {
            None => Candidates::of(&Grid::new(&geo, &puzzle.board), puzzle.board.shape()),
            Some(t) => candidates_after_on(&geo, &puzzle.board, t, false),
        })
    }

    /// The next step (see [`Workshop::hint`]).
    ///
    /// # Errors
    /// As [`Workshop::hint`], and [`WorkshopError::Unsupported`].
    pub fn hint(&mut self, puzzle: &VariantPuzzle, guess: bool) -> Result<Hint, WorkshopError> {
        Ok(self.hint_and_solution(puzzle, guess)?.0)
    }

    /// [`VariantWorkshop::hint`] and the solution it was checked against.
    ///
    /// # Errors
    /// As [`VariantWorkshop::hint`].
    pub fn hint_and_solution(
        &mut self,
        puzzle: &VariantPuzzle,
        guess: bool,
    ) -> Result<(Hint, Board), WorkshopError> {
        let geo = Self::geometry(puzzle)?;
        let solution = self.unique_solution(puzzle)?;
        let hint = hint_on(&geo, &puzzle.board, &solution, guess)?;
        Ok((hint, solution))
    }

    /// The whole solve (see [`Workshop::explain`]).
    ///
    /// # Errors
    /// As [`Workshop::explain`], and [`WorkshopError::Unsupported`].
    pub fn explain(&mut self, puzzle: &VariantPuzzle) -> Result<Explanation, WorkshopError> {
        let geo = Self::geometry(puzzle)?;
        let solution = self.unique_solution(puzzle)?;
        let mut steps = Vec::new();
        let guesses = walk_on(&geo, &puzzle.board, &solution, |f, geo| {
            steps.push(f.to_step(geo))
        })?;
        Ok(Explanation {
            steps,
            guesses,
            solution,
        })
    }

    /// The grade (see [`Workshop::grade`]).
    ///
    /// # Errors
    /// As [`Workshop::grade`], and [`WorkshopError::Unsupported`].
    pub fn grade(&mut self, puzzle: &VariantPuzzle) -> Result<Grade, WorkshopError> {
        Ok(self.explain(puzzle)?.grade())
    }
}

/// The one solution of the search `solver` is loaded with (`board` completed), or why
/// there is not exactly one.
fn only_solution(
    solver: &mut crate::Solver,
    board: &Board,
    cells: &[crate::VarId],
) -> Result<Board, WorkshopError> {
    let found: Vec<crate::Solution> = solver.solutions().take(2).collect();
    match found.as_slice() {
        [] => Err(WorkshopError::NoSolution),
        [one] => Ok(sudoku::decode(board, cells, one)),
        _ => Err(WorkshopError::MultipleSolutions),
    }
}

/// The grade of a solve that used `techniques` and made `guesses` guesses.
fn grade_of(techniques: impl Iterator<Item = Technique>, guesses: usize) -> Grade {
    let hardest = techniques
        .max_by(|a, b| a.rating().total_cmp(&b.rating()))
        .unwrap_or(Technique::FullHouse);
    let rating = hardest.rating();
    Grade {
        rating,
        class: Class::of(rating),
        hardest,
        guesses,
    }
}

/// Refuses a step that contradicts the solution.
fn check(step: &Found, solution: &Board, geo: &Geometry) -> Result<(), WorkshopError> {
    let digit = |c: usize| solution.cells()[c];
    let wrong = step.placements.iter().any(|&(c, d)| digit(c) != d)
        || step.eliminations.iter().any(|&(c, d)| digit(c) == d);
    if wrong {
        Err(WorkshopError::Unsound(step.to_step(geo).to_string()))
    } else {
        Ok(())
    }
}

/// The empty cell with the fewest candidates (the first in row order on ties).
fn fewest_candidates(grid: &Grid) -> usize {
    grid.empty_cells()
        .min_by_key(|&c| grid.count(c))
        .unwrap_or_default()
}

/// A guess: the solution's digit in `cell`.
fn guess_at(grid: &Grid, solution: &Board, cell: usize) -> Found {
    let d = solution.cells()[cell];
    let mut f = Found::new(
        Technique::Guess,
        format!(
            "no technique applies; trial and error puts {} in {} (its candidates: {})",
            symbol(d),
            grid.geo.cell(cell),
            super::digits::Digits(grid.cands[cell])
        ),
    );
    f.placements.push((cell, d));
    f.cells.push(cell);
    f.pattern.push((cell, d));
    f
}

/// Whether logic alone finishes `grid`; returns the grid it reaches.
fn finish<'g>(mut grid: Grid<'g>) -> Grid<'g> {
    logic::run(&mut grid, Rules::all(true), |_| {});
    grid
}

/// Guesses after which logic finishes `grid`: a single one when some cell's solution
/// digit does it (cells with fewer candidates tried first), else a greedy sequence, each
/// guess the one that leaves the fewest empty cells.
fn guess_plan(grid: &Grid, solution: &Board) -> Vec<Found> {
    let mut cells: Vec<usize> = grid.empty_cells().collect();
    cells.sort_by_key(|&c| grid.count(c));
    for &c in &cells {
        let g = guess_at(grid, solution, c);
        let mut trial = grid.clone();
        trial.apply(&g);
        if finish(trial).is_solved() {
            return vec![g];
        }
    }
    let mut plan = Vec::new();
    let mut at = grid.clone();
    while !at.is_solved() {
        let fewest = at.empty_cells().map(|c| at.count(c)).min().unwrap_or(0);
        let best = at
            .empty_cells()
            .filter(|&c| at.count(c) == fewest)
            .map(|c| {
                let g = guess_at(&at, solution, c);
                let mut trial = at.clone();
                trial.apply(&g);
                let reached = finish(trial);
                (reached.empty_cells().count(), g, reached)
            })
            .min_by_key(|(left, _, _)| *left);
        let Some((_, g, reached)) = best else {
            break;
        };
        plan.push(g);
        at = reached;
    }
    plan
}
