//! The `bitcsp` command line: a thin layer over the library's public API.
//!
//! Exit statuses are listed in `exit.rs` and docs/RELIABILITY.md: 0 all answered, 1 some
//! input malformed or unsatisfiable (or output lost), 2 bad usage, 3 a limit stopped some
//! search, 130 interrupted by Ctrl-C, 141 output closed by its reader.
#![forbid(unsafe_code)]

mod batch;
mod color_cmd;
mod exit;
mod files;
mod fzn_cmd;
mod fzn_install;
mod generate_cmd;
mod input;
mod interrupt;
mod output;
mod progress;
mod queens_cmd;
mod read_ahead;
mod split_cmd;
mod sudoku_cmd;
mod workshop_cmd;

use std::process::ExitCode;
use std::time::Duration;

use bitcsp::sudoku::BoxShape;
use clap::{ArgGroup, Args, Parser, Subcommand};

use bitcsp::sudoku::variants::Variants;
use bitcsp::sudoku::workshop::Technique;
use sudoku_cmd::{Action, Format, Settings};
use workshop_cmd::Task;

/// Constraint solving from the command line: Sudoku, N-Queens and graph coloring.
#[derive(Parser, Debug)]
#[command(name = "bitcsp", version, about, propagate_version = true)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// Solve, count or check Sudoku puzzles, one per line.
    #[command(subcommand)]
    Sudoku(SudokuCommand),
    /// Place N non-attacking queens: one board, a count, or every solution.
    Queens(QueensArgs),
    /// Color a DIMACS graph: the chromatic number, or whether K colors suffice.
    Color(ColorArgs),
    /// Solve a FlatZinc model as MiniZinc expects of a solver (`-` reads standard input).
    Fzn(FznArgs),
    /// Count each part line of a split (from `queens --count --split K`) and print its
    /// answer line.
    Part(PartArgs),
    /// Add up the answer lines of one split, or list the parts missing or unfinished.
    Merge(MergeArgs),
}

/// Options of `bitcsp part`.
#[derive(Args, Debug)]
struct PartArgs {
    /// Files of part lines (`-` or none: standard input).
    files: Vec<String>,
    #[command(flatten)]
    limits: LimitArgs,
}

/// Options of `bitcsp merge`.
#[derive(Args, Debug)]
struct MergeArgs {
    /// Files of answer lines (`-` or none: standard input).
    files: Vec<String>,
}

/// Options of `bitcsp fzn`, with MiniZinc's standard flags.
#[derive(Args, Debug)]
struct FznArgs {
    /// The FlatZinc model, or `-` for standard input.
    #[arg(required_unless_present = "install")]
    file: Option<String>,
    /// Make bitcsp a MiniZinc solver: write its solver configuration, launcher and
    /// library into DIR (default: MiniZinc's user solver folder, ~/.minizinc/solvers).
    #[arg(long, value_name = "DIR", num_args = 0..=1, conflicts_with = "file")]
    install: Option<Option<std::path::PathBuf>>,
    /// Every solution of a satisfaction problem; every improving solution of an
    /// optimisation problem.
    #[arg(short = 'a', long = "all-solutions")]
    all: bool,
    /// Every improving solution of an optimisation problem.
    #[arg(short = 'i', long = "intermediate")]
    intermediate: bool,
    /// Stop after this many solutions.
    #[arg(short = 'n', long = "num-solutions", value_parser = clap::value_parser!(u64).range(1..))]
    solutions: Option<u64>,
    /// Time limit in milliseconds.
    #[arg(short = 't', long = "time-limit", value_name = "MS")]
    time_ms: Option<u64>,
    /// Print statistics as `%%%mzn-stat` lines.
    #[arg(short = 's', long = "statistics")]
    statistics: bool,
    /// Free search: the model's search annotations are ignored.
    #[arg(short = 'f', long = "free-search")]
    free: bool,
    /// Threads (the answers do not depend on them; see docs/FLATZINC.md).
    #[arg(short = 'p', long = "parallel", value_parser = clap::value_parser!(u64).range(1..=1024))]
    threads: Option<u64>,
    /// Random seed of the values restarted attempts draw (the same seed, the same search).
    #[arg(short = 'r', long = "random-seed")]
    seed: Option<u64>,
}

/// Options of `bitcsp queens`.
#[derive(Args, Debug)]
#[command(group(ArgGroup::new("many").args(["count", "all"])))]
#[command(group(ArgGroup::new("counting").args(["count"])))]
struct QueensArgs {
    /// The board size (1 to 1000).
    #[arg(value_parser = clap::value_parser!(u64).range(1..=bitcsp::queens::MAX_N as u64))]
    n: u64,
    /// Print the number of solutions instead of one board.
    #[arg(long, conflicts_with = "all")]
    count: bool,
    /// Print every solution, one line each: the 1-based row of each column.
    #[arg(long)]
    all: bool,
    /// Stop after this many solutions (printed as `L+` with --count).
    #[arg(long, value_name = "L", requires = "many", value_parser = clap::value_parser!(u64).range(1..))]
    limit: Option<u64>,
    /// Count with the mirror symmetry broken (half the boards, doubled).
    #[arg(long, requires = "counting", conflicts_with = "limit")]
    symmetry: bool,
    /// Print about K part lines instead of counting: each a self-contained subproblem for
    /// `bitcsp part`, whose answers `bitcsp merge` adds up (docs/DISTRIBUTED.md).
    #[arg(long, value_name = "K", requires = "counting", conflicts_with = "limit", value_parser = clap::value_parser!(u64).range(1..=1_000_000))]
    split: Option<u64>,
    /// Worker threads for --count and --all (default: one per core). Counts and the order
    /// of --all do not depend on it.
    #[arg(long, requires = "many", value_parser = clap::value_parser!(u64).range(1..=1024))]
    threads: Option<u64>,
    #[command(flatten)]
    limits: LimitArgs,
}

/// Options of `bitcsp color`.
#[derive(Args, Debug)]
struct ColorArgs {
    /// The graph, in DIMACS `.col` format.
    file: String,
    /// Decide whether K colors suffice instead of finding the chromatic number.
    #[arg(long, value_name = "K", value_parser = clap::value_parser!(u64).range(0..=1_000_000))]
    colors: Option<u64>,
    /// Also write the colored graph as Graphviz DOT to this file.
    #[arg(long, value_name = "FILE")]
    dot: Option<String>,
    /// Print at least P part lines deciding whether K colors suffice, for `bitcsp part`
    /// and `bitcsp merge` (docs/DISTRIBUTED.md).
    #[arg(long, value_name = "P", requires = "colors", conflicts_with = "dot", value_parser = clap::value_parser!(u64).range(1..=1_000_000))]
    split: Option<u64>,
    /// Worker threads for the exhaustive searches (default: one per core). The answer and
    /// the coloring printed do not depend on it.
    #[arg(long, value_parser = clap::value_parser!(u64).range(1..=1024))]
    threads: Option<u64>,
    #[command(flatten)]
    limits: LimitArgs,
}

#[derive(Subcommand, Debug)]
enum SudokuCommand {
    /// Print the solution of each puzzle (an empty line when there is none).
    Solve {
        /// Output format of solutions.
        #[arg(long, value_enum, default_value_t = Format::Line)]
        format: Format,
        #[command(flatten)]
        search: SearchArgs,
        #[command(flatten)]
        input: InputArgs,
    },
    /// Print the number of solutions of each puzzle, up to a limit (`N+` when reached).
    Count {
        /// Stop counting at this many solutions.
        #[arg(long, default_value_t = 2, value_parser = clap::value_parser!(u64).range(1..))]
        limit: u64,
        /// Print at least P part lines counting the (one) puzzle's solutions up to the
        /// limit, for `bitcsp part` and `bitcsp merge` (docs/DISTRIBUTED.md).
        #[arg(long, value_name = "P", value_parser = clap::value_parser!(u64).range(1..=1_000_000))]
        split: Option<u64>,
        #[command(flatten)]
        search: SearchArgs,
        #[command(flatten)]
        input: InputArgs,
    },
    /// Print `valid` or `invalid` for each board, without solving.
    Check(InputArgs),
    /// Print each puzzle's pencil marks: each empty cell's digits not placed in its row,
    /// column or box, or those left after the steps up to a technique.
    Candidates {
        /// Show the candidates after every step of the techniques up to this one
        /// (e.g. `hidden-single`, `x-wing`, `aic`).
        #[arg(long, value_name = "TECHNIQUE")]
        after: Option<Technique>,
        #[command(flatten)]
        input: InputArgs,
    },
    /// Print the next step a person would take, simplest technique first.
    Hint {
        /// `text`, or `json` for one JSON object per puzzle line.
        #[arg(long, value_enum, default_value_t = Report::Text)]
        format: Report,
        /// When no technique applies, show a guess after which the rest is logic (or
        /// the shortest sequence of guesses found).
        #[arg(long)]
        guess: bool,
        #[command(flatten)]
        input: InputArgs,
    },
    /// Print the whole solve as numbered steps, ending in the solution and the grade.
    Explain {
        /// `text`, or `json` for one JSON object per puzzle line.
        #[arg(long, value_enum, default_value_t = Report::Text)]
        format: Report,
        #[command(flatten)]
        input: InputArgs,
    },
    /// Print each puzzle's difficulty as `RATING CLASS` (docs/WORKSHOP.md gives the scale).
    Grade(InputArgs),
    /// Print new puzzles, one per line: each has exactly one solution and is minimal.
    Generate(generate_cmd::GenerateArgs),
}

/// How the workshop prints its answers.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
enum Report {
    /// For people.
    Text,
    /// One JSON object per puzzle line (JSON Lines).
    Json,
}

/// Where the Sudoku commands read puzzles, and how.
#[derive(Args, Debug)]
struct InputArgs {
    /// Puzzle files, one puzzle per line (`-` or none: standard input).
    files: Vec<String>,
    /// Worker threads (default: one per core). Output order does not depend on it, nor
    /// do the answers: threads a batch leaves spare race differently seeded searches of
    /// its boards from 36×36 up, to an answer that does not depend on the threads.
    #[arg(long, value_parser = clap::value_parser!(u64).range(1..=1024))]
    threads: Option<u64>,
    /// Box shape RxC (R rows, C columns per box); default: from the line length.
    #[arg(long, value_name = "RxC", value_parser = parse_shape)]
    size: Option<BoxShape>,
    /// Sudoku variants, comma-separated to combine: x, windoku, jigsaw, killer,
    /// antiknight, antiking, nonconsecutive (line formats: docs/FORMATS.md).
    #[arg(long, value_name = "LIST")]
    variant: Option<Variants>,
}

/// Options of the Sudoku commands that search.
#[derive(Args, Debug)]
struct SearchArgs {
    /// Print search statistics per puzzle and in total on stderr.
    #[arg(long)]
    stats: bool,
    /// Treat a puzzle with more than one solution as an error.
    #[arg(long)]
    unique: bool,
    #[command(flatten)]
    limits: LimitArgs,
}

/// Search limits, applied to each puzzle or search separately.
#[derive(Args, Debug, Clone, Copy)]
struct LimitArgs {
    /// Stop a search after this many seconds (decimals allowed).
    #[arg(long, value_name = "SECONDS", value_parser = parse_seconds)]
    time_limit: Option<Duration>,
    /// Stop a search after this many nodes.
    #[arg(long, value_name = "N")]
    node_limit: Option<u64>,
}

pub(crate) fn parse_shape(text: &str) -> Result<BoxShape, String> {
    let (r, c) = text
        .split_once(['x', 'X'])
        .ok_or_else(|| format!("expected RxC such as 3x3, got {text:?}"))?;
    let number = |s: &str| -> Result<usize, String> {
        s.trim()
            .parse::<usize>()
            .ok()
            .filter(|&v| v >= 1)
            .ok_or_else(|| format!("{s:?} is not a positive whole number"))
    };
    let shape = BoxShape {
        rows: number(r)?,
        cols: number(c)?,
    };
    match shape.rows.checked_mul(shape.cols) {
        Some(side) if side <= bitcsp::sudoku::MAX_SIZE => Ok(shape),
        _ => Err(format!(
            "boxes of {shape} make a side above the maximum of {}",
            bitcsp::sudoku::MAX_SIZE
        )),
    }
}

fn parse_seconds(text: &str) -> Result<Duration, String> {
    let seconds: f64 = text
        .trim()
        .parse()
        .map_err(|_| format!("{text:?} is not a number of seconds"))?;
    if !seconds.is_finite() || seconds < 0.0 {
        return Err(format!("{text:?} is not a non-negative number of seconds"));
    }
    Duration::try_from_secs_f64(seconds).map_err(|e| format!("{text:?}: {e}"))
}

fn threads(requested: Option<u64>) -> usize {
    requested.map_or_else(
        || std::thread::available_parallelism().map_or(1, |n| n.get()),
        |n| n as usize,
    )
}

fn sudoku(command: SudokuCommand) -> exit::Outcome {
    let no_search = SearchArgs {
        stats: false,
        unique: false,
        limits: LimitArgs {
            time_limit: None,
            node_limit: None,
        },
    };
    let (action, format, search, input) = match command {
        SudokuCommand::Solve {
            format,
            search,
            input,
        } => (Action::Solve, format, search, input),
        SudokuCommand::Count {
            limit,
            split: Some(p),
            search,
            input,
        } => return split_sudoku(&input, limit, p as usize, search.limits),
        SudokuCommand::Count {
            limit,
            split: None,
            search,
            input,
        } => (Action::Count { limit }, Format::Line, search, input),
        SudokuCommand::Check(input) => (Action::Check, Format::Line, no_search, input),
        SudokuCommand::Candidates { after, input } => (
            Action::Workshop(Task::Candidates { after }),
            Format::Line,
            no_search,
            input,
        ),
        SudokuCommand::Hint {
            format,
            guess,
            input,
        } => (
            Action::Workshop(Task::Hint {
                json: format == Report::Json,
                guess,
            }),
            Format::Line,
            no_search,
            input,
        ),
        SudokuCommand::Explain { format, input } => (
            Action::Workshop(Task::Explain {
                json: format == Report::Json,
            }),
            Format::Line,
            no_search,
            input,
        ),
        SudokuCommand::Grade(input) => (
            Action::Workshop(Task::Grade),
            Format::Line,
            no_search,
            input,
        ),
        SudokuCommand::Generate(args) => return generate_cmd::run(&args, threads(args.threads)),
    };
    let settings = Settings {
        action,
        format,
        unique: search.unique,
        stats: search.stats,
        shape: input.size,
        variants: input.variant,
        threads: threads(input.threads),
        time_limit: search.limits.time_limit,
        node_limit: search.limits.node_limit,
    };
    sudoku_cmd::run(&input.files, &settings)
}

fn queens(args: QueensArgs) -> exit::Outcome {
    if let Some(k) = args.split {
        let limits = split_cmd::Limits {
            time: args.limits.time_limit,
            nodes: args.limits.node_limit,
        };
        let problem = bitcsp::parts::Problem::Queens {
            n: args.n as usize,
            symmetry: args.symmetry,
        };
        return split_cmd::split(&problem, k as usize, None, limits);
    }
    let mode = if args.count {
        queens_cmd::Mode::Count {
            limit: args.limit,
            symmetry: args.symmetry,
        }
    } else if args.all {
        queens_cmd::Mode::All { limit: args.limit }
    } else {
        queens_cmd::Mode::One
    };
    queens_cmd::run(&queens_cmd::Settings {
        n: args.n as usize,
        mode,
        threads: threads(args.threads),
        time_limit: args.limits.time_limit,
        node_limit: args.limits.node_limit,
    })
}

/// `sudoku count --split P`: the one puzzle of the input, split.
fn split_sudoku(input: &InputArgs, limit: u64, p: usize, limits: LimitArgs) -> exit::Outcome {
    let mut boards = Vec::new();
    let read = split_cmd::read_lines(&input.files, |file, number, text| {
        boards.push((file.to_owned(), number, text.to_owned()));
        true
    });
    if !read {
        return exit::Outcome::FAILED;
    }
    let [(file, number, text)] = boards.as_slice() else {
        say!(
            "bitcsp sudoku count --split: expected one puzzle, found {}",
            boards.len()
        );
        return exit::Outcome::FAILED;
    };
    let board = match bitcsp::sudoku::Board::parse_with_shape(text, input.size) {
        Ok(b) => b,
        Err(e) => {
            say!("{file}:{number}: {e}");
            return exit::Outcome::FAILED;
        }
    };
    let limits = split_cmd::Limits {
        time: limits.time_limit,
        nodes: limits.node_limit,
    };
    split_cmd::split(
        &bitcsp::parts::Problem::Sudoku { board },
        p,
        Some(limit),
        limits,
    )
}

fn color(args: ColorArgs) -> exit::Outcome {
    if let (Some(p), Some(k)) = (args.split, args.colors) {
        let limits = split_cmd::Limits {
            time: args.limits.time_limit,
            nodes: args.limits.node_limit,
        };
        return match split_cmd::color_problem(&args.file, k as usize) {
            Ok(problem) => split_cmd::split(&problem, p as usize, None, limits),
            Err(e) => {
                say!("bitcsp color: {e}");
                exit::Outcome::FAILED
            }
        };
    }
    color_cmd::run(&color_cmd::Settings {
        file: args.file,
        colors: args.colors.map(|k| k as usize),
        time_limit: args.limits.time_limit,
        node_limit: args.limits.node_limit,
        dot: args.dot,
        threads: threads(args.threads),
    })
}

/// Prints clap's message (help, version, or a usage error) and gives the exit status.
fn parse_failure(e: &clap::Error) -> u8 {
    let usage_error = e.use_stderr();
    match e.print() {
        Ok(()) if usage_error => exit::USAGE,
        Ok(()) => 0,
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => output::BROKEN_PIPE,
        Err(_) => 1,
    }
}

fn main() -> ExitCode {
    interrupt::install();
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(e) => return ExitCode::from(parse_failure(&e)),
    };
    let outcome = match cli.command {
        Command::Sudoku(command) => sudoku(command),
        Command::Queens(args) => queens(args),
        Command::Color(args) => color(args),
        Command::Part(args) => split_cmd::part(
            &args.files,
            split_cmd::Limits {
                time: args.limits.time_limit,
                nodes: args.limits.node_limit,
            },
        ),
        Command::Merge(args) => split_cmd::merge(&args.files),
        Command::Fzn(FznArgs {
            install: Some(dir), ..
        }) => fzn_install::run(dir.as_deref()),
        Command::Fzn(args) => fzn_cmd::run(&fzn_cmd::Settings {
            file: args.file.unwrap_or_else(|| "-".to_owned()),
            all: args.all,
            intermediate: args.intermediate,
            solutions: args.solutions,
            time_limit: args.time_ms.map(Duration::from_millis),
            statistics: args.statistics,
            free_search: args.free,
            threads: args.threads.map_or(1, |t| t as usize),
            random_seed: args.seed.unwrap_or(0),
        }),
    };
    let status = match outcome.status() {
        // A message that could not be written is output lost.
        0 if output::stderr_lost() => 1,
        status => status,
    };
    ExitCode::from(status)
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn shapes_and_seconds_parse_or_explain() {
        assert_eq!(parse_shape("3x4"), Ok(BoxShape { rows: 3, cols: 4 }));
        assert!(parse_shape("0x4").is_err());
        assert!(parse_shape("9x9").is_err());
        assert!(parse_shape("3by3").is_err());
        assert_eq!(parse_seconds("0.25"), Ok(Duration::from_millis(250)));
        assert!(parse_seconds("-1").is_err());
        assert!(parse_seconds("NaN").is_err());
        assert!(parse_seconds("inf").is_err());
        assert!(parse_seconds("1e300").is_err());
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(
            std::env::var("BITCSP_FUZZ_CASES").ok().and_then(|v| v.parse().ok()).unwrap_or(256)
        ))]

        #[test]
        fn number_arguments_never_panic(text in any::<String>()) {
            let _ = parse_shape(&text);
            let _ = parse_seconds(&text);
            let _ = Cli::try_parse_from(["bitcsp", "queens", text.as_str()]);
            let _ = Cli::try_parse_from(["bitcsp", "sudoku", "count", "--limit", text.as_str()]);
            let _ = Cli::try_parse_from(["bitcsp", "color", "--colors", text.as_str(), "f"]);
            let _ = Cli::try_parse_from(["bitcsp", "sudoku", "solve", "--node-limit", text.as_str()]);
        }

        #[test]
        fn argument_combinations_never_panic(
            command in prop::sample::select(vec![
                vec!["queens", "8"],
                vec!["sudoku", "solve"],
                vec!["sudoku", "count"],
                vec!["sudoku", "check"],
                vec!["color", "g.col"],
            ]),
            options in prop::collection::vec(prop::sample::select(vec![
                "--count", "--all", "--symmetry", "--limit", "3", "--threads", "2",
                "--time-limit", "0.5", "--node-limit", "10", "--format", "block", "--stats",
                "--unique", "--size", "3x3", "--colors", "4", "--dot", "out.gv", "-", "--",
                "--help", "--version", "x",
            ]), 0..8),
        ) {
            let args: Vec<&str> = std::iter::once("bitcsp")
                .chain(command.iter().copied())
                .chain(options.iter().copied())
                .collect();
            if let Ok(cli) = Cli::try_parse_from(&args) {
                // What parses has an effect: the refused combinations stay refused.
                if let Command::Queens(q) = &cli.command {
                    prop_assert!(!q.symmetry || q.count, "{:?}", args);
                    prop_assert!(q.limit.is_none() || q.count || q.all, "{:?}", args);
                    prop_assert!(q.threads.is_none() || q.count || q.all, "{:?}", args);
                }
                if let Command::Sudoku(SudokuCommand::Check(_)) = &cli.command {
                    prop_assert!(
                        !args.iter().any(|a| ["--format", "--unique", "--stats", "--time-limit"].contains(a))
                            || args.contains(&"--"),
                        "{:?}", args
                    );
                }
            }
        }

        #[test]
        fn numeric_looking_arguments_never_panic(text in "[-+0-9.xXeE ]{0,30}") {
            let _ = parse_shape(&text);
            let _ = parse_seconds(&text);
            let _ = Cli::try_parse_from(["bitcsp", "sudoku", "solve", "--time-limit", text.as_str()]);
            let _ = Cli::try_parse_from(["bitcsp", "sudoku", "solve", "--size", text.as_str()]);
            let _ = Cli::try_parse_from(["bitcsp", "sudoku", "solve", "--threads", text.as_str()]);
        }
    }
}
