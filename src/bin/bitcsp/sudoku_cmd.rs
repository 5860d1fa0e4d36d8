//! `bitcsp sudoku solve|count|check`: batches of puzzles, one a line, answered in input
//! order on as many threads as asked.

use std::borrow::Cow;
use std::cell::RefCell;

use std::sync::atomic::AtomicBool;
use std::sync::Arc;
use std::time::{Duration, Instant};

use bitcsp::sudoku::large;
use bitcsp::sudoku::learning::{self, Learned};
use bitcsp::sudoku::variants::{VariantPuzzle, VariantSolver, Variants};
use bitcsp::sudoku::{self, Board, BoxShape, ParseError, PuzzleSolver, SudokuError};
use bitcsp::{Count, CountStatus, SearchStatus, Solver, Statistics, StopReason};

use crate::batch;
use crate::exit::Outcome;
use crate::input::{Line, LineContent, LineReader, Source};
use crate::output::{Lost, Output};
use crate::progress::Progress;
use crate::{interrupt, say};

/// What to do with each puzzle.
#[derive(Clone, Copy, Debug)]
pub enum Action {
    /// Print the first solution.
    Solve,
    /// Print the number of solutions up to the limit.
    Count { limit: u64 },
    /// Print `valid` or `invalid` without solving.
    Check,
    /// The workshop: pencil marks, hints, explanations, grades.
    Workshop(crate::workshop_cmd::Task),
}

/// How solutions are printed.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Format {
    /// One line of N² symbols per puzzle.
    Line,
    /// A block with box separators, boards separated by a blank line.
    Block,
}

/// Settings shared by every puzzle of a run.
#[derive(Clone, Debug)]
pub struct Settings {
    pub action: Action,
    pub format: Format,
    pub unique: bool,
    pub stats: bool,
    pub shape: Option<BoxShape>,
    pub variants: Option<Variants>,
    pub threads: usize,
    pub time_limit: Option<Duration>,
    pub node_limit: Option<u64>,
}

/// The answer for one puzzle line.
#[derive(Debug, Default)]
struct Report {
    /// What goes to stdout (`None`: an empty line in line format, nothing in block format).
    out: Option<Cow<'static, str>>,
    /// Messages for stderr, each printed as `FILE:LINE: message`.
    messages: Vec<String>,
    outcome: Outcome,
    stats: Option<Statistics>,
}

impl Report {
    fn failed(message: String) -> Self {
        Report {
            messages: vec![message],
            outcome: Outcome::FAILED,
            ..Report::default()
        }
    }

    /// A search that a limit or Ctrl-C stopped before it found anything.
    fn stopped_by(reason: StopReason) -> Self {
        let mut report = Report::default();
        report.stopped(reason);
        report
    }

    fn stopped(&mut self, reason: StopReason) {
        self.messages.push(reason.to_string());
        self.outcome.merge(Outcome::stopped(reason));
    }
}

/// Runs the command over `files` (standard input when empty) and returns the outcome.
pub fn run(files: &[String], settings: &Settings) -> Outcome {
    batch::quiet_panics();
    let pool = match batch::pool(settings.threads) {
        Ok(p) => p,
        Err(e) => {
            say!("bitcsp: {e}");
            return Outcome::FAILED;
        }
    };
    let cancel = interrupt::flag();
    let mut total = Outcome::default();
    let mut printer = Printer::new(settings);
    let names: Vec<String> = if files.is_empty() {
        vec!["-".to_string()]
    } else {
        files.to_vec()
    };
    for name in &names {
        let source = match Source::open(name) {
            Ok(s) => s,
            Err(e) => {
                say!("{name}: cannot read: {e}");
                total.failed = true;
                continue;
            }
        };
        let file = source.name.clone();
        let progress = Progress::new(source.total_bytes);
        let reader = LineReader::spawn(source);
        let mut size = batch::ChunkSize::new(pool.current_num_threads());
        let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
        loop {
            let chunk = reader.next_chunk(size.inputs());
            let started = Instant::now();
            // Threads the chunk leaves spare go to its large boards' searches (a file of
            // one large board races a search per thread, at most one per core: each
            // search holds a board's worth of clauses); the answers do not depend on it.
            let searches = (pool.current_num_threads() / chunk.lines.len().max(1)).clamp(1, cores);
            let reports = batch::run_ordered(
                &pool,
                &chunk.lines,
                |line| process(line, settings, &cancel, searches),
                |_, msg| Report::failed(format!("internal error (please report): {msg}")),
            );
            size.took(started.elapsed());
            for report in &reports {
                total.merge(report.outcome);
            }
            let printed = if printer.writes_stderr(&reports) {
                progress.suspend(|| printer.print_chunk(&file, &chunk.lines, &reports))
            } else {
                printer.print_chunk(&file, &chunk.lines, &reports)
            };
            if printed.is_err() {
                total.failed = true;
                break;
            }
            progress.set_position(reader.bytes_read(), printer.puzzles);
            if let Some(e) = chunk.error {
                progress.suspend(|| say!("{file}: read error: {e}"));
                total.failed = true;
                break;
            }
            if chunk.finished || interrupt::interrupted() {
                break;
            }
        }
        progress.finish();
        if interrupt::interrupted() || printer.lost {
            total.interrupted |= interrupt::interrupted();
            break;
        }
    }
    if printer.finish(settings).is_err() {
        total.failed = true;
    }
    total
}

/// The report for one input line; a large board's learning search races `searches`
/// searches ([`large::Limits::threads`]).
fn process(line: &Line, settings: &Settings, cancel: &Arc<AtomicBool>, searches: usize) -> Report {
    let text = match &line.content {
        LineContent::Text(t) => t,
        LineContent::InvalidUtf8 { column } => {
            return unreadable(settings, format!("column {column}: invalid UTF-8"))
        }
        LineContent::TooLong { bytes } => {
            return unreadable(settings, format!("line too long ({bytes} bytes)"))
        }
    };
    if let Some(list) = &settings.variants {
        return process_variant(text, list, settings, cancel);
    }
    let board = match Board::parse_with_shape(text, settings.shape) {
        Ok(b) => b,
        Err(e) => return unreadable(settings, describe(&e)),
    };
    if let Action::Workshop(task) = settings.action {
        return workshop_report(crate::workshop_cmd::answer(task, &board), settings);
    }
    if let Action::Check = settings.action {
        return match board.find_clash() {
            Some(clash) => unreadable(settings, clash.to_string()),
            None => Report {
                out: Some("valid".into()),
                ..Report::default()
            },
        };
    }
    if board.side() >= learning::LEARNING_SIDE {
        let limits = large_limits(settings, cancel, searches);
        match settings.action {
            Action::Solve if !settings.unique => return solve_large(&board, &limits, settings),
            Action::Solve => return count_large(&board, 2, true, &limits, settings),
            Action::Count { limit } => return count_large(&board, limit, false, &limits, settings),
            Action::Check | Action::Workshop(_) => {}
        }
    }
    with_puzzle_solver(board.shape(), |puzzles| {
        let (solver, cells) = match puzzles.map(|p| p.load(&board)) {
            Ok(Ok(loaded)) => loaded,
            Ok(Err(e)) | Err(e) => return Report::failed(e.to_string()),
        };
        solver
            .set_time_limit(settings.time_limit)
            .set_node_limit(settings.node_limit)
            .set_cancel_flag(Some(Arc::clone(cancel)));
        let mut report = match settings.action {
            Action::Solve if settings.unique => solve_unique(solver, &board, cells, settings),
            Action::Solve => solve_first(solver, &board, cells, settings),
            Action::Count { limit } => count(solver, limit, settings.unique),
            Action::Check | Action::Workshop(_) => Report::default(),
        };
        let stats = solver.stats();
        if stats.solutions == 0 {
            // Clashing givens leave no solution: looked for only then (most puzzles solve).
            if let Some(clash) = board.find_clash() {
                return unreadable(settings, clash.to_string());
            }
        }
        report.stats = Some(stats);
        report
    })
}

/// The report of a workshop answer; a multi-line answer ends with a blank line, to
/// separate it from the next.
fn workshop_report(answer: Result<String, String>, settings: &Settings) -> Report {
    match answer {
        Ok(text) => {
            let text = text.trim_end_matches('\n');
            let gap = if text.contains('\n') { "\n" } else { "" };
            Report {
                out: Some(format!("{text}{gap}").into()),
                ..Report::default()
            }
        }
        Err(message) => unreadable(settings, message),
    }
}

/// One line of a variant puzzle: read with the variants' fields, then solved, counted or
/// checked on its own model.
fn process_variant(
    text: &str,
    list: &Variants,
    settings: &Settings,
    cancel: &Arc<AtomicBool>,
) -> Report {
    let puzzle = match VariantPuzzle::parse(text, list, settings.shape) {
        Ok(p) => p,
        Err(e) => return unreadable(settings, e.to_string()),
    };
    match settings.action {
        Action::Check => {
            return match puzzle.find_clash() {
                Some(clash) => unreadable(settings, clash),
                None => Report {
                    out: Some("valid".into()),
                    ..Report::default()
                },
            }
        }
        Action::Workshop(task) => {
            return workshop_report(crate::workshop_cmd::answer_variant(task, &puzzle), settings)
        }
        _ => {}
    }
    thread_local! {
        static SOLVER: RefCell<VariantSolver> = RefCell::new(VariantSolver::new());
    }
    // Taken out while in use, so that a panic drops it rather than leaving it half-used.
    let mut variant_solver = SOLVER.with(|cell| cell.take());
    let report = solve_variant(&mut variant_solver, &puzzle, settings, cancel);
    SOLVER.with(|cell| *cell.borrow_mut() = variant_solver);
    report
}

fn solve_variant(
    variant_solver: &mut VariantSolver,
    puzzle: &VariantPuzzle,
    settings: &Settings,
    cancel: &Arc<AtomicBool>,
) -> Report {
    let (solver, cells) = match variant_solver.load(puzzle) {
        Ok(loaded) => loaded,
        Err(e) => return Report::failed(e.to_string()),
    };
    solver
        .set_time_limit(settings.time_limit)
        .set_node_limit(settings.node_limit)
        .set_cancel_flag(Some(Arc::clone(cancel)));
    let board = &puzzle.board;
    let mut report = match settings.action {
        Action::Solve if settings.unique => solve_unique(solver, board, cells, settings),
        Action::Solve => solve_first(solver, board, cells, settings),
        Action::Count { limit } => count(solver, limit, settings.unique),
        Action::Check | Action::Workshop(_) => Report::default(),
    };
    if solver.stats().solutions == 0 {
        if let Some(clash) = puzzle.find_clash() {
            return unreadable(settings, clash);
        }
    }
    report.stats = Some(solver.stats());
    report
}

/// Runs `work` with this thread's solver for puzzles of `shape` (built on first use, or
/// the error that stopped it): a batch's puzzles share one compiled model and solver per
/// worker thread instead of building both for each puzzle. The solver is taken out while
/// `work` runs, so a panic inside drops it rather than leaving it half-used.
fn with_puzzle_solver<T>(
    shape: BoxShape,
    work: impl FnOnce(Result<&mut PuzzleSolver, SudokuError>) -> T,
) -> T {
    thread_local! {
        static SOLVER: RefCell<Option<(BoxShape, Box<PuzzleSolver>)>> = const { RefCell::new(None) };
    }
    // Boxed: taking it out and putting it back moves a pointer, not the solver.
    let cached = SOLVER
        .with(|cell| cell.borrow_mut().take())
        .filter(|(cached_shape, _)| *cached_shape == shape);
    let mut solver = match cached {
        Some((_, solver)) => solver,
        None => match PuzzleSolver::new(shape) {
            Ok(solver) => Box::new(solver),
            Err(e) => return work(Err(e)),
        },
    };
    let out = work(Ok(&mut solver));
    SOLVER.with(|cell| *cell.borrow_mut() = Some((shape, solver)));
    out
}

/// A line that is not a valid board: `invalid` for check, an empty answer otherwise.
fn unreadable(settings: &Settings, message: String) -> Report {
    let json = match settings.action {
        Action::Workshop(task) if task.json() => {
            Some(bitcsp::sudoku::workshop::json::error(&message))
        }
        _ => None,
    };
    let mut report = Report::failed(message);
    match settings.action {
        Action::Check => report.out = Some("invalid".into()),
        Action::Workshop(_) => report.out = json.map(Cow::Owned),
        _ => {}
    }
    report
}

/// A parse error for a one-line puzzle: the column matters, the line is the file's.
fn describe(e: &ParseError) -> String {
    let text = e.to_string();
    match text.strip_prefix("line 1, ") {
        Some(rest) => rest.to_string(),
        None => text,
    }
}

fn render(board: &Board, settings: &Settings) -> String {
    match settings.format {
        Format::Line => board.to_line(),
        Format::Block => board.to_block(),
    }
}

fn solve_first(
    solver: &mut Solver,
    board: &Board,
    cells: &[bitcsp::VarId],
    settings: &Settings,
) -> Report {
    match solver.solve_in_place() {
        SearchStatus::Solved => Report {
            // Read from the solver in place: no copy of the values, nor a board, in
            // between for a line.
            out: match settings.format {
                Format::Line => sudoku::solved_line(board, cells, solver).map(Cow::Owned),
                Format::Block => {
                    sudoku::solved_board(board, cells, solver).map(|b| b.to_block().into())
                }
            },
            ..Report::default()
        },
        SearchStatus::Unsatisfiable => Report::failed("no solution".into()),
        SearchStatus::Stopped(reason) => Report::stopped_by(reason),
    }
}

/// The command's limits, the interrupt flag and the threads to race on, for a large
/// board's search.
fn large_limits(settings: &Settings, cancel: &Arc<AtomicBool>, threads: usize) -> large::Limits {
    large::Limits {
        time: settings.time_limit,
        nodes: settings.node_limit,
        cancel: Some(Arc::clone(cancel)),
        threads,
    }
}

/// `sudoku count`, or `sudoku solve --unique` (`unique`: the first solution printed, a
/// second one an error), of a large board ([`large::count`]).
fn count_large(
    board: &Board,
    limit: u64,
    unique: bool,
    limits: &large::Limits,
    settings: &Settings,
) -> Report {
    let (found, stats) = match large::count(board, Some(limit), limits) {
        Ok(counted) => counted,
        Err(e) => return unreadable(settings, e.to_string()),
    };
    let mut report = if unique {
        unique_report(found.count, found.first.as_ref(), settings)
    } else {
        count_report(found.count, settings.unique)
    };
    report.stats = Some(stats);
    report
}

/// A first solution of a large board ([`large::solve`]).
fn solve_large(board: &Board, limits: &large::Limits, settings: &Settings) -> Report {
    let solved = large::solve(board, limits);
    let (learned, stats) = match solved {
        Ok(solved) => solved,
        Err(e) => return unreadable(settings, e.to_string()),
    };
    let mut report = match learned {
        Learned::Solved(solution) => Report {
            out: Some(render(&solution, settings).into()),
            ..Report::default()
        },
        Learned::NoSolution => Report::failed("no solution".into()),
        Learned::Stopped(reason) => Report::stopped_by(reason),
    };
    report.stats = Some(stats);
    report
}

fn solve_unique(
    solver: &mut Solver,
    board: &Board,
    cells: &[bitcsp::VarId],
    settings: &Settings,
) -> Report {
    let found: Vec<bitcsp::Solution> = solver.solutions().take(2).collect();
    let status = match solver.stop_reason() {
        Some(reason) => CountStatus::Stopped(reason),
        None if found.len() == 2 => CountStatus::LimitReached,
        None => CountStatus::Complete,
    };
    let count = Count {
        count: found.len() as u64,
        status,
    };
    let first = found.first().map(|s| sudoku::decode(board, cells, s));
    unique_report(count, first.as_ref(), settings)
}

/// The answer of `solve --unique` from a count to two and its first solution: the
/// solution, or why there is none to print.
fn unique_report(count: Count, first: Option<&Board>, settings: &Settings) -> Report {
    match (count.count, count.status) {
        (2.., _) => Report::failed("more than one solution".into()),
        (0, CountStatus::Complete) => Report::failed("no solution".into()),
        (_, status) => {
            let mut r = Report {
                out: first.map(|b| render(b, settings).into()),
                ..Report::default()
            };
            if let CountStatus::Stopped(reason) = status {
                r.stopped(reason);
            }
            r
        }
    }
}

fn count(solver: &mut Solver, limit: u64, unique: bool) -> Report {
    count_report(solver.count(Some(limit)), unique)
}

/// The answer of `count`: the number (`N+` when not exact), with a message when there is
/// no solution or, with `--unique`, more than one.
fn count_report(c: Count, unique: bool) -> Report {
    let mut report = Report {
        // The counts a batch prints most often are written without an allocation.
        out: Some(match (c.status, c.count) {
            (CountStatus::Complete, 0) => "0".into(),
            (CountStatus::Complete, 1) => "1".into(),
            (CountStatus::Complete, n) => n.to_string().into(),
            (_, 2) => "2+".into(),
            (_, n) => format!("{n}+").into(),
        }),
        ..Report::default()
    };
    if let CountStatus::Stopped(reason) = c.status {
        report.stopped(reason);
    } else if c.count == 0 {
        report.messages.push("no solution".into());
        report.outcome.failed = true;
    } else if unique && c.count > 1 {
        report.messages.push("more than one solution".into());
        report.outcome.failed = true;
    }
    report
}

/// Writes answers to stdout and messages to stderr, and keeps the totals for `--stats`.
struct Printer {
    out: Output,
    format: Format,
    stats: bool,
    puzzles: u64,
    printed_blocks: u64,
    total: Statistics,
    started: Instant,
    /// Stdout could not be written: stop working.
    lost: bool,
}

impl Printer {
    fn new(settings: &Settings) -> Self {
        Printer {
            out: Output::new(),
            format: settings.format,
            stats: settings.stats,
            puzzles: 0,
            printed_blocks: 0,
            total: Statistics::default(),
            started: Instant::now(),
            lost: false,
        }
    }

    /// Whether printing `reports` writes anything to stderr.
    fn writes_stderr(&self, reports: &[Report]) -> bool {
        reports
            .iter()
            .any(|r| !r.messages.is_empty() || (self.stats && r.stats.is_some()))
    }

    /// Prints a chunk's answers in input order and flushes them, so that an interactive
    /// user sees each answer as soon as it is known.
    fn print_chunk(&mut self, file: &str, lines: &[Line], reports: &[Report]) -> Result<(), Lost> {
        for (line, report) in lines.iter().zip(reports) {
            self.print(file, line, report)?;
        }
        self.flush()
    }

    fn print(&mut self, file: &str, line: &Line, report: &Report) -> Result<(), Lost> {
        self.puzzles += 1;
        let result = match (self.format, &report.out) {
            (Format::Line, out) => self.out.write_line(out.as_deref().unwrap_or("")),
            (Format::Block, Some(block)) if block.contains('\n') => {
                let sep = if self.printed_blocks > 0 { "\n" } else { "" };
                self.printed_blocks += 1;
                write!(self.out, "{sep}{block}")
            }
            (Format::Block, Some(word)) => writeln!(self.out, "{word}"),
            (Format::Block, None) => Ok(()),
        };
        self.lost |= result.is_err();
        result?;
        if !report.messages.is_empty() || (self.stats && report.stats.is_some()) {
            // The answers so far go out before the message, so that both streams read
            // together (`2>&1`) keep the input's order.
            self.flush()?;
        }
        for m in &report.messages {
            say!("{file}:{}: {m}", line.number);
        }
        if let Some(s) = report.stats.filter(|_| self.stats) {
            say!(
                "{file}:{}: nodes {}, failures {}, restarts {}, nogoods {}, propagations {}, time {:.3} ms",
                line.number,
                s.nodes,
                s.failures,
                s.restarts,
                s.nogoods,
                s.propagations,
                s.elapsed.as_secs_f64() * 1e3
            );
            self.total.nodes += s.nodes;
            self.total.failures += s.failures;
            self.total.restarts += s.restarts;
            self.total.nogoods += s.nogoods;
            self.total.propagations += s.propagations;
            self.total.elapsed += s.elapsed;
        }
        Ok(())
    }

    fn flush(&mut self) -> Result<(), Lost> {
        let flushed = self.out.flush();
        self.lost |= flushed.is_err();
        flushed
    }

    fn finish(&mut self, settings: &Settings) -> Result<(), Lost> {
        let flushed = if self.lost { Err(Lost) } else { self.flush() };
        if settings.stats {
            say!(
                "total: {} puzzles, nodes {}, failures {}, restarts {}, nogoods {}, propagations {}, search time {:.3} ms, wall time {:.3} ms",
                self.puzzles,
                self.total.nodes,
                self.total.failures,
                self.total.restarts,
                self.total.nogoods,
                self.total.propagations,
                self.total.elapsed.as_secs_f64() * 1e3,
                self.started.elapsed().as_secs_f64() * 1e3
            );
        }
        flushed
    }
}
