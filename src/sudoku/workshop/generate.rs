//! New puzzles: a random full grid, then givens removed in random order while the engine
//! proves the puzzle still has one solution.
//!
//! One pass over the cells (or over the orbits of a symmetry) in random order gives a
//! minimal puzzle: a given that could not be removed at some point cannot be removed
//! later either, since removing others only adds solutions.
//!
//! When the givens left force the removed digit back by a naked or hidden single, the
//! solution stays unique and no search is needed; when the removal leaves a swap of the
//! grid without a given (two digits exchanged, or two lines' digits along a cycle: see
//! `swaps.rs`), the grid after the swap is a second solution and the given stays, again
//! without a search; every other removal is decided by the engine, and the engine proves
//! the finished puzzle unique.

use std::fmt;
use std::str::FromStr;

use smallvec::SmallVec;

use super::class::Class;
use super::desk::{Workshop, WorkshopError};
use super::geometry::Geometry;
use super::house_digits::HouseDigits;
use super::swaps::Swaps;
use crate::sudoku::{Board, BoxShape, PuzzleSolver, SudokuError};
use crate::xorshift::XorShift;
use crate::{SearchStatus, VarId, VariableOrder};

/// The cells given or removed together, the first named first.
type Orbit = SmallVec<[usize; 4]>;

/// The symmetry of the givens' positions.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Symmetry {
    /// None: the puzzle is minimal cell by cell.
    #[default]
    None,
    /// Half-turn rotation.
    Rotate180,
    /// Quarter-turn rotation.
    Rotate90,
    /// Left-right mirror.
    Mirror,
    /// Reflection in the main diagonal.
    Diagonal,
}

impl Symmetry {
    /// Every symmetry.
    pub const ALL: [Symmetry; 5] = [
        Symmetry::None,
        Symmetry::Rotate180,
        Symmetry::Rotate90,
        Symmetry::Mirror,
        Symmetry::Diagonal,
    ];

    /// The name used on the command line.
    pub fn name(self) -> &'static str {
        match self {
            Symmetry::None => "none",
            Symmetry::Rotate180 => "rotate180",
            Symmetry::Rotate90 => "rotate90",
            Symmetry::Mirror => "mirror",
            Symmetry::Diagonal => "diagonal",
        }
    }

    /// The cells that must be given or removed together with `(r, c)` on a board of
    /// side `n`, `(r, c)` first.
    fn orbit(self, n: usize, r: usize, c: usize) -> Orbit {
        let m = n - 1;
        let points: &[(usize, usize)] = match self {
            Symmetry::None => &[(r, c)],
            Symmetry::Rotate180 => &[(r, c), (m - r, m - c)],
            Symmetry::Rotate90 => &[(r, c), (c, m - r), (m - r, m - c), (m - c, r)],
            Symmetry::Mirror => &[(r, c), (r, m - c)],
            Symmetry::Diagonal => &[(r, c), (c, r)],
        };
        let mut cells = Orbit::new();
        for &(r, c) in points {
            if !cells.contains(&(r * n + c)) {
                cells.push(r * n + c);
            }
        }
        cells[1..].sort_unstable();
        cells
    }
}

impl fmt::Display for Symmetry {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A name that is not a symmetry's.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("unknown symmetry {0:?} (known: none, rotate180, rotate90, mirror, diagonal)")]
pub struct UnknownSymmetry(pub String);

impl FromStr for Symmetry {
    type Err = UnknownSymmetry;
    fn from_str(text: &str) -> Result<Self, Self::Err> {
        Symmetry::ALL
            .into_iter()
            .find(|s| s.name().eq_ignore_ascii_case(text.trim()))
            .ok_or_else(|| UnknownSymmetry(text.to_owned()))
    }
}

/// Makes minimal puzzles with one solution. Puzzle `i` of a seed depends on the seed and
/// `i` alone, so a batch split over threads gives the same puzzles.
///
/// ```
/// use bitcsp::sudoku::workshop::{Generator, Symmetry};
/// use bitcsp::sudoku::{self, BoxShape};
/// let mut generator = Generator::new(BoxShape { rows: 3, cols: 3 }, Symmetry::None, None, 7)?;
/// let puzzle = generator.puzzle(0)?;
/// assert_eq!(sudoku::count_solutions(&puzzle, 2)?.count, 1);
/// assert_eq!(generator.puzzle(0)?, puzzle);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub struct Generator {
    shape: BoxShape,
    symmetry: Symmetry,
    class: Option<Class>,
    seed: u64,
    solver: PuzzleSolver,
    workshop: Option<Workshop>,
    geo: Geometry,
    swaps: Swaps,
    given: HouseDigits,
    window: Window,
}

/// The side from which boards keep the engine's variable order for Sudoku.
const LARGE_SIDE: usize = 16;

/// How many undecided orbits of the removal order one [`Window`] spans.
const WINDOW: usize = 8;

/// A stretch of the removal order whose engine checks share one propagation. While the
/// generator goes through the stretch, only its undecided cells change, so every other
/// cell given when the stretch opens stays given for all its checks: those givens are
/// pushed once as an assumption level ([`crate::Solver::push`]), and each check assumes
/// only the stretch's cells still given, over that level's propagated state.
#[derive(Default)]
struct Window {
    /// Whether a level is pushed.
    open: bool,
    /// The position in the order where the stretch ends (exclusive).
    end: usize,
    /// The stretch's cells.
    cells: Vec<usize>,
    /// Which cells are the stretch's.
    member: Vec<bool>,
    /// Fixes handed to the engine (kept for the allocation).
    fixes: Vec<(VarId, i32)>,
}

impl Generator {
    /// A generator of puzzles with boxes of `shape`, givens placed with `symmetry`, of
    /// difficulty `class` when given (puzzles of other classes are drawn and dropped).
    ///
    /// # Errors
    /// [`WorkshopError::Sudoku`] when `shape` gives no board.
    pub fn new(
        shape: BoxShape,
        symmetry: Symmetry,
        class: Option<Class>,
        seed: u64,
    ) -> Result<Self, WorkshopError> {
        let mut solver = PuzzleSolver::new(shape)?;
        if shape.side() < LARGE_SIDE {
            // The searches of small boards are a few nodes each (a grid's completion, a
            // second solution next to the grid), where choosing by fewest values costs
            // more than it saves; large boards need it (`profile generate`, and
            // `sudoku generate --size` timed).
            solver
                .engine()
                .set_variable_order(VariableOrder::InputOrder);
        }
        Ok(Generator {
            shape,
            symmetry,
            class,
            seed,
            solver,
            workshop: class.map(|_| Workshop::new(shape)).transpose()?,
            geo: Geometry::new(shape),
            swaps: Swaps::default(),
            given: HouseDigits::default(),
            window: Window::default(),
        })
    }

    /// Puzzle number `index` of this generator's seed.
    ///
    /// # Errors
    /// Only if the engine fails on a board it should take (a bug).
    pub fn puzzle(&mut self, index: u64) -> Result<Board, WorkshopError> {
        let mut attempt = 0u64;
        loop {
            let mut random = XorShift(mix(self.seed, index, attempt));
            attempt += 1;
            let Some(grid) = self.full_grid(&mut random)? else {
                continue;
            };
            let puzzle = self.minimise(grid, &mut random)?;
            if let (Some(class), Some(w)) = (self.class, self.workshop.as_mut()) {
                if w.grade(&puzzle)?.class != class {
                    continue;
                }
            }
            return Ok(puzzle);
        }
    }

    /// Full grid number `index` of this generator's seed: random, valid, and the same for
    /// the same seed and index (the grids puzzles are carved from).
    ///
    /// # Errors
    /// Only if the engine fails on a board it should take (a bug).
    pub fn grid(&mut self, index: u64) -> Result<Board, WorkshopError> {
        for attempt in 0.. {
            let mut random = XorShift(mix(self.seed, index, attempt));
            if let Some(grid) = self.full_grid(&mut random)? {
                return Ok(grid);
            }
        }
        unreachable!("the attempts never end")
    }

    /// A random full grid: the boxes on the diagonal filled with random permutations
    /// (they share no row or column, so they never clash), completed by the engine, then
    /// shuffled by the transformations that keep a grid valid (digits relabelled, rows
    /// within bands, bands, columns within stacks, stacks). `None` if the engine finds
    /// no completion, which the caller answers with another attempt.
    fn full_grid(&mut self, random: &mut XorShift) -> Result<Option<Board>, WorkshopError> {
        // A minimisation cut short by an error leaves its window's level open.
        self.close_window();
        let (n, rows, cols) = (self.shape.side(), self.shape.rows, self.shape.cols);
        let mut seeds = Board::empty(self.shape).map_err(crate::sudoku::SudokuError::from)?;
        for b in 0..rows.min(cols) {
            let digits = permutation(n, random);
            for (i, &d) in digits.iter().enumerate() {
                seeds.set(b * rows + i / cols, b * cols + i % cols, d as u8 + 1);
            }
        }
        let Some(solved) = self.solver.solve(&seeds)? else {
            return Ok(None);
        };
        Ok(Some(shuffle(&solved, self.shape, random)))
    }

    /// Removes givens (orbit by orbit) in random order while the puzzle keeps one
    /// solution.
    fn minimise(&mut self, grid: Board, random: &mut XorShift) -> Result<Board, WorkshopError> {
        let n = self.shape.side();
        let mut order: Vec<usize> = (0..n * n).collect();
        for i in (1..order.len()).rev() {
            order.swap(i, random.below(i + 1));
        }
        let mut puzzle = grid.clone();
        self.swaps.learn(&self.geo, &grid);
        self.given.learn(&self.geo, &grid);
        let mut done = vec![false; n * n];
        for (pos, &cell) in order.iter().enumerate() {
            if done[cell] {
                continue;
            }
            let orbit = self.symmetry.orbit(n, cell / n, cell % n);
            let mut frees_a_swap = false;
            for &c in &orbit {
                done[c] = true;
                puzzle.set(c / n, c % n, 0);
                self.given.take(&self.geo, c, grid.cells()[c]);
                frees_a_swap |= self.swaps.remove(c);
            }
            let keeps = if orbit.iter().all(|&c| {
                self.given
                    .forced_by_a_single(&self.geo, puzzle.cells(), c, grid.cells()[c])
            }) {
                true
            } else if frees_a_swap {
                false
            } else {
                if pos >= self.window.end {
                    self.open_window(&puzzle, &order, pos, &done)?;
                }
                self.still_unique(&puzzle, &orbit, &grid)?
            };
            if !keeps {
                for &c in &orbit {
                    puzzle.set(c / n, c % n, grid.cells()[c]);
                    self.given.give(&self.geo, c, grid.cells()[c]);
                    self.swaps.restore(c);
                }
            }
        }
        self.close_window();
        // Removals forced by a single kept the solution unique by that argument; the
        // engine proves it once more for the finished puzzle.
        if self.solver.count(&puzzle, 2)?.count != 1 {
            return Err(WorkshopError::MultipleSolutions);
        }
        Ok(puzzle)
    }
}

impl Generator {
    /// Opens the window of the removal order that starts at `pos` (whose orbit has just
    /// been emptied): it spans the next [`WINDOW`] undecided orbits, and every other cell
    /// given in `puzzle` is pushed as the engine's assumption level.
    fn open_window(
        &mut self,
        puzzle: &Board,
        order: &[usize],
        pos: usize,
        done: &[bool],
    ) -> Result<(), WorkshopError> {
        self.close_window();
        let n = self.shape.side();
        let w = &mut self.window;
        w.member.clear();
        w.member.resize(n * n, false);
        w.cells.clear();
        let mut orbits = 0;
        let mut end = pos;
        while end < order.len() && orbits < WINDOW {
            let first = order[end];
            // The orbit at `pos`, just emptied, is marked done already.
            let undecided = end == pos || !done[first];
            end += 1;
            if undecided && !w.member[first] {
                for c in self.symmetry.orbit(n, first / n, first % n) {
                    w.member[c] = true;
                    w.cells.push(c);
                }
                orbits += 1;
            }
        }
        w.end = end;
        let cells = self.solver.cells();
        w.fixes.clear();
        w.fixes.extend(
            puzzle
                .cells()
                .iter()
                .enumerate()
                .filter(|&(c, &d)| d != 0 && !w.member[c])
                .map(|(c, &d)| (cells[c], i32::from(d))),
        );
        let engine = self.solver.engine();
        engine.push(&w.fixes).map_err(SudokuError::from)?;
        w.open = true;
        Ok(())
    }

    /// Closes the open window's assumption level, if any.
    fn close_window(&mut self) {
        if std::mem::take(&mut self.window.open) {
            self.solver.engine().pop();
        }
        self.window.end = 0;
    }

    /// Whether `puzzle`, made from a puzzle with the one solution `grid` by emptying
    /// `emptied` (inside the open window), still has one solution. Any other solution
    /// differs from `grid` in an emptied cell; for one cell the engine looks for exactly
    /// that (one search that need not find `grid` first), for several it counts to two.
    fn still_unique(
        &mut self,
        puzzle: &Board,
        emptied: &[usize],
        grid: &Board,
    ) -> Result<bool, WorkshopError> {
        let w = &mut self.window;
        let cells = self.solver.cells();
        let values = puzzle.cells();
        w.fixes.clear();
        w.fixes.extend(
            w.cells
                .iter()
                .filter(|&&c| values[c] != 0)
                .map(|&c| (cells[c], i32::from(values[c]))),
        );
        let excluded = match emptied {
            &[cell] => Some((cells[cell], i32::from(grid.cells()[cell]))),
            _ => None,
        };
        let engine = self.solver.engine();
        engine.assume(&w.fixes).map_err(SudokuError::from)?;
        let Some(excluded) = excluded else {
            return Ok(engine.count(Some(2)).count == 1);
        };
        engine
            .assume_excluded(&[excluded])
            .map_err(SudokuError::from)?;
        let other = engine.solve_in_place() == SearchStatus::Solved;
        engine.assume_excluded(&[]).map_err(SudokuError::from)?;
        Ok(!other)
    }
}

/// Puzzles `0..count` of `seed` with these settings, as [`Generator::puzzle`] makes
/// each.
///
/// # Errors
/// As [`Generator::new`] and [`Generator::puzzle`].
pub fn generate(
    shape: BoxShape,
    symmetry: Symmetry,
    class: Option<Class>,
    seed: u64,
    count: u64,
) -> Result<Vec<Board>, WorkshopError> {
    let mut generator = Generator::new(shape, symmetry, class, seed)?;
    (0..count).map(|i| generator.puzzle(i)).collect()
}

/// A nonzero generator state from the seed, the puzzle number and the attempt
/// (splitmix64's finaliser, so that neighbouring inputs give unrelated streams).
fn mix(seed: u64, index: u64, attempt: u64) -> u64 {
    let mut z = seed
        .wrapping_add(index.wrapping_mul(0x9E37_79B9_7F4A_7C15))
        .wrapping_add(attempt.wrapping_mul(0xD1B5_4A32_D192_ED03));
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^= z >> 31;
    if z == 0 {
        1
    } else {
        z
    }
}

/// A random permutation of `0..k`.
fn permutation(k: usize, random: &mut XorShift) -> Vec<usize> {
    let mut p: Vec<usize> = (0..k).collect();
    for i in (1..k).rev() {
        p.swap(i, random.below(i + 1));
    }
    p
}

/// A random order of `groups` groups of `size` consecutive indices, shuffled within
/// each group too.
fn grouped_permutation(groups: usize, size: usize, random: &mut XorShift) -> Vec<usize> {
    let outer = permutation(groups, random);
    outer
        .into_iter()
        .flat_map(|g| {
            permutation(size, random)
                .into_iter()
                .map(move |i| g * size + i)
                .collect::<Vec<_>>()
        })
        .collect()
}

/// `grid` with digits relabelled and rows and columns permuted within their bands and
/// stacks, and bands and stacks permuted: still a valid grid.
fn shuffle(grid: &Board, shape: BoxShape, random: &mut XorShift) -> Board {
    let n = shape.side();
    let digits = permutation(n, random);
    let rows = grouped_permutation(n / shape.rows, shape.rows, random);
    let cols = grouped_permutation(n / shape.cols, shape.cols, random);
    let mut out = grid.clone();
    for (r, &from_row) in rows.iter().enumerate() {
        for (c, &from_col) in cols.iter().enumerate() {
            let d = grid.cells()[from_row * n + from_col];
            out.set(r, c, digits[d as usize - 1] as u8 + 1);
        }
    }
    out
}
