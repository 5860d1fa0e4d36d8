//! The engine model of a variant puzzle: the Sudoku model (or rows and columns with
//! jigsaw regions) plus the variants' constraints, all from the public API.

use super::cages;
use super::puzzle::VariantPuzzle;
use crate::sudoku::{self, Board, SudokuError};
use crate::{Consistency, Count, Model, Relation, Solver, VarId};

/// Tables of a cage hold at most this many tuples; a larger cage gets a sum, its digits
/// restricted to those of the combinations, and each digit every combination holds
/// required once (`cargo run --release -p bitcsp-compare --bin variants` measures the
/// trade between a table's strength and its cost per puzzle).
const TABLE_LIMIT: usize = 2_000;

/// The model of `puzzle`: one variable per cell over `1..=N` (row order), an
/// all-different per row, column and box (jigsaw: region), and per variant:
/// all-different diagonals (x) and windows (windoku); `x ≠ y` for cells a knight's or
/// king's move apart and `x − y ≠ ±1` for orthogonal neighbours (non-consecutive), each
/// as an all-different group of two (with offsets for the second); for each
/// killer cage a table of the orderings of the sets of distinct digits that make its sum
/// (so that digits no combination uses are pruned, not only bounds), or for a cage whose
/// table would be too large its cells pairwise different, a sum and the combinations'
/// digits.
///
/// # Errors
/// [`SudokuError::Model`] only if the engine rejects the model, which a parsed puzzle
/// cannot cause.
pub fn model(puzzle: &VariantPuzzle) -> Result<(Model, Vec<VarId>), SudokuError> {
    let (mut m, cells) = rules(puzzle)?;
    for (i, &d) in puzzle.board.cells().iter().enumerate() {
        if d != 0 {
            m.fix(cells[i], i32::from(d))?;
        }
    }
    Ok((m, cells))
}

/// [`model`] without the givens: the puzzle's rules.
fn rules(puzzle: &VariantPuzzle) -> Result<(Model, Vec<VarId>), SudokuError> {
    let n = puzzle.side();
    let consistency = if n >= 16 {
        Consistency::Domain
    } else {
        Consistency::Fast
    };
    let (mut m, cells) = match &puzzle.regions {
        None => sudoku::templates::template(&puzzle.board, consistency)?,
        Some(_) => latin_square(n, consistency)?,
    };
    let vars = |group: &[usize]| -> Vec<VarId> { group.iter().map(|&c| cells[c]).collect() };
    // Boxes come first after the lines; the template has posted them (and the lines)
    // unless regions replace the boxes.
    let skip = if puzzle.regions.is_some() { 0 } else { n };
    let cage_groups = puzzle.cages.iter().filter(|c| c.cells.len() > 1).count();
    let groups = puzzle.groups_beyond_lines();
    let mut group_vars: Vec<VarId> = Vec::with_capacity(n);
    for group in &groups[skip..groups.len() - cage_groups] {
        group_vars.clear();
        group_vars.extend(group.iter().map(|&c| cells[c]));
        m.all_different_with(&group_vars, consistency)?;
    }
    // A pair that must differ is posted as a group of two, not as `x ≠ y`: the groups
    // then join the units' family, whose rule for a fixed value clears it from all the
    // cell's peers in one pass, instead of waking a propagator per pair
    // (`cargo run --release -p bitcsp-compare --bin variants`).
    let shares_a_group = shared_groups(n, &groups[..groups.len() - cage_groups]);
    for (a, b) in puzzle.different_pairs() {
        if !shares_a_group(a, b) {
            m.all_different(&[cells[a], cells[b]])?;
        }
    }
    for (a, b) in puzzle.neighbour_pairs() {
        m.all_different_offset(&[cells[a], cells[b]], &[0, 1])?;
        m.all_different_offset(&[cells[a], cells[b]], &[0, -1])?;
    }
    if !puzzle.cages.is_empty() {
        // The counts of large cages share one variable fixed to 1. It exists in every
        // killer model, used or not, so that every killer model of a board has the same
        // variables: then their units' compiled family, whose working words follow the
        // variables', is shared from puzzle to puzzle instead of compiled again.
        let once = m.new_var(1..=1)?;
        for cage in &puzzle.cages {
            post_cage(&mut m, &vars(&cage.cells), n, cage.sum, once)?;
        }
    }
    Ok((m, cells))
}

/// Whether two cells of a board of side `n` lie in one row, column or one of `groups`
/// (the first 64 of them): such cells differ already, so a pair that says so again is
/// left out. It would add only one inference (the two cells' values, when they have two
/// between them, leave the rest of that group: a naked pair), and it would keep a 9×9
/// board's family from running band by band (`constraints/family/board_pairs.rs`), which
/// costs far more than the few nodes that inference saves (docs/PERFORMANCE.md, the
/// anti-knight and anti-king boards).
fn shared_groups(n: usize, groups: &[Vec<usize>]) -> impl Fn(usize, usize) -> bool {
    let mut member = vec![0u64; n * n];
    for (g, group) in groups.iter().take(64).enumerate() {
        for &c in group {
            if let Some(bits) = member.get_mut(c) {
                *bits |= 1 << g;
            }
        }
    }
    move |a, b| {
        let line = n > 0 && (a / n == b / n || a % n == b % n);
        let group = match (member.get(a), member.get(b)) {
            (Some(x), Some(y)) => x & y != 0,
            _ => false,
        };
        line || group
    }
}

/// One killer cage over `xs` summing to `sum`: a table of the orderings of its digit
/// combinations, or for a cage whose table would be too large, its cells pairwise
/// different and [`combination_digits`].
fn post_cage(
    m: &mut Model,
    xs: &[VarId],
    n: usize,
    sum: i64,
    once: VarId,
) -> Result<(), SudokuError> {
    let k = xs.len();
    let combos = cages::combinations_cached(k, n, sum);
    match cages::tuple_count(combos.len(), k, TABLE_LIMIT) {
        // The table's tuples hold distinct digits: nothing else is needed beside it.
        Some(_) => m.table_set(xs, &cages::tuples_cached(k, n, sum)?)?,
        None => {
            different_pairwise(m, xs)?;
            combination_digits(m, xs, &combos, sum, once)?;
        }
    }
    Ok(())
}

/// The cells of a cage pairwise different. An all-different group over them would add
/// little: a cage holds fewer cells than digits, so inside the units' family such a group
/// acts mostly through the peers of fixed cells, as the differences do (`bitcsp sudoku
/// solve --variant killer --stats` shows searches of about the same size either way).
/// But it would join the family and make every puzzle's family new, where the units
/// alone are compiled once and shared.
fn different_pairwise(m: &mut Model, xs: &[VarId]) -> Result<(), SudokuError> {
    for (i, &x) in xs.iter().enumerate() {
        for &y in &xs[i + 1..] {
            m.not_equal(x, y)?;
        }
    }
    Ok(())
}

/// A cage too large for a table: its sum, its cells limited to the digits of the
/// combinations that make the sum, and each digit that every combination holds
/// required once (`once` is fixed to 1).
fn combination_digits(
    m: &mut Model,
    xs: &[VarId],
    combos: &[u64],
    sum: i64,
    once: VarId,
) -> Result<(), SudokuError> {
    m.sum(xs, Relation::Equal, sum)?;
    let union = combos.iter().fold(0u64, |a, &c| a | c);
    let common = combos.iter().fold(u64::MAX, |a, &c| a & c);
    for d in 1..=64 {
        let bit = 1u64 << (d - 1);
        if union & bit == 0 {
            for &x in xs {
                m.remove_value(x, d)?;
            }
        } else if common & bit != 0 {
            m.count(xs, d, once)?;
        }
    }
    Ok(())
}

/// Rows and columns of a board of side `n` all-different, the jigsaw regions added by the
/// caller.
fn latin_square(n: usize, consistency: Consistency) -> Result<(Model, Vec<VarId>), SudokuError> {
    let mut m = Model::new();
    let top = i32::try_from(n).map_err(|_| SudokuError::from(crate::ModelError::EmptyDomain))?;
    let cells = m.new_vars(n * n, 1..=top)?;
    let mut line: Vec<VarId> = Vec::with_capacity(n);
    for i in 0..n {
        line.clear();
        line.extend((0..n).map(|c| cells[i * n + c]));
        m.all_different_with(&line, consistency)?;
        line.clear();
        line.extend((0..n).map(|r| cells[r * n + i]));
        m.all_different_with(&line, consistency)?;
    }
    Ok((m, cells))
}

/// What a puzzle's model depends on besides its givens.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Structure {
    shape: crate::sudoku::BoxShape,
    variants: super::Variants,
    regions: Option<Vec<usize>>,
    cages: Vec<super::Cage>,
}

impl Structure {
    fn of(puzzle: &VariantPuzzle) -> Structure {
        Structure {
            shape: puzzle.board.shape(),
            variants: puzzle.variants.clone(),
            regions: puzzle.regions.clone(),
            cages: puzzle.cages.clone(),
        }
    }
}

/// Solves many variant puzzles: the model of a puzzle's rules (without its givens) is
/// built, compiled and configured once and kept while the next puzzle has the same rules
/// (all x puzzles of a shape, say); the givens are the engine's assumptions, as in
/// [`PuzzleSolver`](crate::sudoku::PuzzleSolver). Jigsaw regions and killer cages differ
/// from puzzle to puzzle, so those puzzles get a model each.
///
/// ```
/// use bitcsp::sudoku::variants::{VariantPuzzle, VariantSolver};
/// let mut solver = VariantSolver::new();
/// let x = "8.3.7.........8.69..7.......193..2..4............4.....64....7............8.6...1";
/// let puzzle = VariantPuzzle::parse(x, &"x".parse()?, None)?;
/// let solution = solver.solve(&puzzle)?.expect("a solution");
/// assert!(puzzle.check_solution(&solution).is_ok());
/// assert_eq!(solver.count(&puzzle, 2)?.count, 1);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Default)]
pub struct VariantSolver {
    built: Option<(Structure, Solver, Vec<VarId>)>,
    givens: Vec<(VarId, i32)>,
}

impl VariantSolver {
    /// A solver with nothing built yet.
    pub fn new() -> Self {
        VariantSolver::default()
    }

    /// Makes `puzzle`'s givens the engine's assumptions, building the model of its rules
    /// first when they differ from the last puzzle's, and returns the engine with the cell
    /// variables (row order).
    ///
    /// # Errors
    /// As [`model`].
    pub fn load(&mut self, puzzle: &VariantPuzzle) -> Result<(&mut Solver, &[VarId]), SudokuError> {
        let structure = Structure::of(puzzle);
        if self.built.as_ref().is_none_or(|(s, _, _)| *s != structure) {
            let (m, cells) = rules(puzzle)?;
            let mut solver = Solver::new(&m);
            sudoku::configure(&mut solver, &puzzle.board);
            self.built = Some((structure, solver, cells));
        }
        let Some((_, solver, cells)) = self.built.as_mut() else {
            unreachable!("built just above");
        };
        self.givens.clear();
        for (i, &d) in puzzle.board.cells().iter().enumerate() {
            if d != 0 {
                self.givens.push((cells[i], i32::from(d)));
            }
        }
        solver.assume(&self.givens)?;
        Ok((solver, cells))
    }

    /// The first solution of `puzzle`, or `None` when it has none.
    ///
    /// # Errors
    /// As [`model`].
    pub fn solve(&mut self, puzzle: &VariantPuzzle) -> Result<Option<Board>, SudokuError> {
        let (solver, cells) = self.load(puzzle)?;
        Ok(solver
            .solve()
            .solution()
            .map(|s| sudoku::decode(&puzzle.board, cells, &s)))
    }

    /// The number of solutions of `puzzle`, up to `limit`.
    ///
    /// # Errors
    /// As [`model`].
    pub fn count(&mut self, puzzle: &VariantPuzzle, limit: u64) -> Result<Count, SudokuError> {
        let (solver, _) = self.load(puzzle)?;
        Ok(solver.count(Some(limit)))
    }
}

/// A solver for `puzzle`, with the search [`sudoku::configure`] sets for its board.
///
/// # Errors
/// As [`model`].
pub fn solver(puzzle: &VariantPuzzle) -> Result<(Solver, Vec<VarId>), SudokuError> {
    let (m, cells) = model(puzzle)?;
    let mut solver = Solver::new(&m);
    sudoku::configure(&mut solver, &puzzle.board);
    Ok((solver, cells))
}

/// The first solution of `puzzle`, or `None` when it has none.
///
/// # Errors
/// As [`model`].
pub fn solve(puzzle: &VariantPuzzle) -> Result<Option<Board>, SudokuError> {
    let (mut solver, cells) = solver(puzzle)?;
    Ok(solver
        .solve()
        .solution()
        .map(|s| sudoku::decode(&puzzle.board, &cells, &s)))
}

/// The number of solutions of `puzzle`, up to `limit`.
///
/// # Errors
/// As [`model`].
pub fn count_solutions(puzzle: &VariantPuzzle, limit: u64) -> Result<Count, SudokuError> {
    let (mut solver, _) = solver(puzzle)?;
    Ok(solver.count(Some(limit)))
}

#[cfg(test)]
mod tests {
    use super::shared_groups;

    #[test]
    fn cells_of_one_line_or_group_share_it_and_others_do_not() {
        // A 9×9 board's boxes as the groups.
        let boxes: Vec<Vec<usize>> = (0..9)
            .map(|b| {
                let (top, left) = (b / 3 * 3, b % 3 * 3);
                (0..9).map(|i| (top + i / 3) * 9 + left + i % 3).collect()
            })
            .collect();
        let shares = shared_groups(9, &boxes);
        // A row, a column, a box (a knight's move within it), then knight's and king's
        // moves across boxes.
        assert!(shares(0, 1) && shares(0, 9) && shares(0, 19));
        assert!(!shares(2, 13) && !shares(2, 21) && !shares(20, 30));
        // Without groups only the lines count.
        let lines = shared_groups(9, &[]);
        assert!(lines(0, 8) && lines(0, 72) && !lines(0, 10));
    }
}
