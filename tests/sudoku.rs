//! Sudoku through the library on real puzzle sets: every solution checked by the rule
//! checker, uniqueness counts, and every board size.

mod common;
use common::carve;

use bitcsp::sudoku::{self, Board, BoxShape, CheckError};
use bitcsp::{Consistency, CountStatus, Restarts, SolveResult, Solver, VariableOrder};

fn puzzles(file: &str) -> Vec<Board> {
    let path = format!("{}/tests/data/sudoku/{file}", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    text.lines()
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        .enumerate()
        .map(|(i, l)| Board::from_line(l).unwrap_or_else(|e| panic!("{file}:{}: {e}", i + 1)))
        .collect()
}

/// Solves and proves unique: exactly one solution, and it obeys the rules.
fn assert_unique_and_checked(file: &str) {
    let boards = puzzles(file);
    assert!(!boards.is_empty());
    for (i, board) in boards.iter().enumerate() {
        let solution = sudoku::solve(board)
            .unwrap()
            .unwrap_or_else(|| panic!("{file}:{}: no solution", i + 1));
        solution
            .check_solves(board)
            .unwrap_or_else(|e| panic!("{file}:{}: {e}", i + 1));
        let count = sudoku::count_solutions(board, 2).unwrap();
        assert_eq!(count.count, 1, "{file}:{}", i + 1);
        assert_eq!(count.status, CountStatus::Complete);
    }
}

#[test]
fn leetcode_examples_solve_to_the_given_solutions_in_both_forms() {
    let path = format!(
        "{}/tests/data/sudoku/leetcode_examples.txt",
        env!("CARGO_MANIFEST_DIR")
    );
    let text = std::fs::read_to_string(path).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    let mut checked = 0;
    for (i, line) in lines.iter().enumerate() {
        let Some(array_start) = line.find('[') else {
            continue;
        };
        if !line.starts_with('#') {
            continue;
        }
        let from_array = Board::parse(&line[array_start..]).unwrap();
        let from_line = Board::from_line(lines[i + 1]).unwrap();
        assert_eq!(from_array, from_line);
        let expected = Board::from_line(lines[i + 2]).unwrap();
        let solved = sudoku::solve(&from_array).unwrap().unwrap();
        assert_eq!(solved, expected);
        assert_eq!(solved.to_line(), lines[i + 2]);
        checked += 1;
    }
    assert!(checked >= 2, "only {checked} examples found");
}

#[test]
fn seventeen_clue_sample_is_solved_uniquely() {
    assert_unique_and_checked("17_clue_sample.txt");
}

#[test]
fn forum_hardest_samples_are_solved_uniquely() {
    assert_unique_and_checked("forum_hardest_1905_sample.txt");
    assert_unique_and_checked("forum_hardest_1106_sample.txt");
}

#[test]
fn magictour_kaggle_and_norvig_samples_are_solved_uniquely() {
    assert_unique_and_checked("magictour_sample.txt");
    assert_unique_and_checked("kaggle_sample.txt");
    assert_unique_and_checked("norvig_hardest.txt");
}

#[test]
fn serg_benchmark_puzzles_have_several_solutions() {
    for (i, board) in puzzles("serg_sample.txt").iter().enumerate() {
        let count = sudoku::count_solutions(board, 2).unwrap();
        assert_eq!(count.count, 2, "serg line {}", i + 1);
        assert_eq!(count.status, CountStatus::LimitReached);
    }
}

#[test]
fn removing_a_clue_of_a_minimal_puzzle_gives_several_solutions() {
    for board in puzzles("17_clue_sample.txt").iter().take(50) {
        let mut sixteen = board.clone();
        let first_given = board.cells().iter().position(|&d| d != 0).unwrap();
        sixteen.set(first_given / 9, first_given % 9, 0);
        assert_eq!(sixteen.givens(), 16);
        assert_eq!(sudoku::count_solutions(&sixteen, 2).unwrap().count, 2);
    }
}

#[test]
fn empty_board_has_several_solutions() {
    let empty = Board::empty(BoxShape::for_side(9)).unwrap();
    let count = sudoku::count_solutions(&empty, 2).unwrap();
    assert_eq!((count.count, count.status), (2, CountStatus::LimitReached));
}

#[test]
fn small_boards_have_their_known_numbers_of_grids() {
    // 288 completed 4×4 grids; 28,200,960 of 6×6 (2×3 boxes), so 28,200,960 / 6! =
    // 39,168 complete a given first row (relabelling the symbols maps them one to one).
    let cases = [
        (".".repeat(16), 288),
        (format!("1234{}", ".".repeat(12)), 12),
        (format!("123456{}", ".".repeat(30)), 39_168),
    ];
    for (line, expected) in cases {
        let board = Board::from_line(&line).unwrap();
        let count = sudoku::count_solutions(&board, u64::MAX).unwrap();
        assert_eq!(
            (count.count, count.status),
            (expected, CountStatus::Complete),
            "{line}"
        );
    }
}

/// The default variable order's tie-break (most unfixed neighbours, then most neighbours
/// with as few values) as a bound on search: the magictour sample takes 1,346 nodes to
/// first solutions with it and 2,920 with plain MRV (measured), so a bound between the
/// two fails when the tie-break is lost. Every solution is checked as well.
#[test]
fn the_default_order_keeps_the_magictour_sample_search_small() {
    let (mut nodes, mut plain_nodes) = (0, 0);
    for board in puzzles("magictour_sample.txt") {
        let (model, cells) = sudoku::model(&board).unwrap();
        let mut solver = Solver::new(&model);
        let solution = solver.solve().solution().expect("solvable");
        let grid = sudoku::decode(&board, &cells, &solution);
        assert!(grid.check_solves(&board).is_ok());
        nodes += solver.stats().nodes;
        let mut plain = Solver::new(&model);
        plain.set_variable_order(VariableOrder::Mrv);
        assert!(plain.solve().solution().is_some());
        plain_nodes += plain.stats().nodes;
    }
    assert!(nodes <= 1_600, "{nodes} nodes, at most 1,600 expected");
    assert!(
        nodes < plain_nodes,
        "{nodes} against plain MRV's {plain_nodes}"
    );
}

/// Each of `lines` is solved without a decision (root propagation fixes every cell), and
/// the solution obeys the rules.
fn assert_settled_at_root(lines: &[&str]) {
    for &line in lines {
        let board = Board::from_line(line).unwrap();
        let (model, cells) = sudoku::model(&board).unwrap();
        let mut solver = Solver::new(&model);
        let solution = solver.solve().solution().expect("solvable");
        assert_eq!(solver.stats().nodes, 0, "{line}");
        let grid = sudoku::decode(&board, &cells, &solution);
        assert!(grid.check_solves(&board).is_ok(), "{line}");
    }
}

/// Three 17-clue puzzles (from the repository's sample) that the family settles without a
/// decision only with hidden singles: naked singles and locked values alone leave 9, 13
/// and 15 decisions (measured). Solutions stay right without the rule, so only the node
/// count shows it.
#[test]
fn hidden_singles_settle_these_puzzles_at_the_root() {
    let lines = [
        ".................1....23.4.........5..6.......74..28.......62..5..1.....91.....8.",
        ".................1....23.4.....35.2...6.7.....18.........1....6.3.....9.42.......",
        ".................1..2..3........4..5..3..2....6.....17....7.....56.1....8.4...2..",
    ];
    assert_settled_at_root(&lines);
}

/// Three 17-clue puzzles (from the shared 17_clue set) that the family settles without
/// a decision only with the locked-values rule across its box-line intersections:
/// singles alone leave them to search (one to three decisions each, measured).
#[test]
fn locked_values_settle_these_puzzles_at_the_root() {
    let lines = [
        ".................1..2..3.4..............42.5..6.1....7.....482..9.......71.6.....",
        ".................1..2..3.4........2....15.....647..........285..1...9....7....6..",
        ".................1..2..3.4......25.6.1..4...73....5.......7.......1...8...5...3..",
    ];
    assert_settled_at_root(&lines);
}

#[test]
fn clashing_givens_are_invalid_and_not_solved() {
    let mut line = ".".repeat(81);
    line.replace_range(0..1, "7");
    line.replace_range(40..41, "7"); // r5c5: no clash with r1c1
    assert!(sudoku::is_valid(&Board::from_line(&line).unwrap()));
    line.replace_range(72..73, "7"); // r9c1: same column as r1c1
    let board = Board::from_line(&line).unwrap();
    assert!(!sudoku::is_valid(&board));
    let err = sudoku::solve(&board).unwrap_err();
    assert_eq!(
        err.to_string(),
        "digit 7 appears twice in a column: r1c1 and r9c1"
    );
}

/// The engine, given clashing givens through `sudoku::model` (which does not check
/// them), finds no solution: the givens' values leave their peers at the first run, and
/// a given emptied by its twin is a conflict.
#[test]
fn models_with_clashing_givens_have_no_solutions() {
    let clashes = [(0, 72), (0, 20), (0, 8), (40, 44), (80, 60)];
    for (a, b) in clashes {
        let mut line = ".".repeat(81);
        line.replace_range(a..a + 1, "4");
        line.replace_range(b..b + 1, "4");
        line.replace_range(30..31, "9");
        let board = Board::from_line(&line).unwrap();
        assert!(!sudoku::is_valid(&board), "{line}");
        let (model, _) = sudoku::model(&board).unwrap();
        let count = Solver::new(&model).count(Some(2));
        assert_eq!(
            (count.count, count.status),
            (0, CountStatus::Complete),
            "{line}"
        );
        assert!(Solver::new(&model).solve().solution().is_none(), "{line}");
    }
}

/// Valid givens that leave r1c1 no digit while its row, column and box each still hold
/// every digit somewhere (no pigeonhole to notice it): 1-3 in its row, 4-6 in its column,
/// 7-9 in its box.
#[test]
fn a_cell_emptied_by_the_givens_alone_means_no_solution() {
    let mut line = ".".repeat(81);
    let givens = "123456789";
    for (&cell, digit) in [3, 4, 5, 27, 36, 45, 10, 11, 19].iter().zip(givens.chars()) {
        line.replace_range(cell..cell + 1, &digit.to_string());
    }
    let board = Board::from_line(&line).unwrap();
    assert!(sudoku::is_valid(&board));
    let (model, _) = sudoku::model(&board).unwrap();
    let count = Solver::new(&model).count(Some(2));
    assert_eq!((count.count, count.status), (0, CountStatus::Complete));
    assert_eq!(sudoku::solve(&board).unwrap(), None);
}

/// Row 1 holds 1-6 and a 7 in its box keeps 7 out of its three empty cells: three cells
/// for 8 and 9. The pigeonhole rule (fewer values than cells in a group) proves it at the
/// root; hidden singles alone see nothing there (no value has exactly one place).
#[test]
fn pigeonhole_proves_a_row_short_of_values_at_the_root() {
    let mut line = "...123456".to_string() + &".".repeat(72);
    line.replace_range(9..10, "7"); // r2c1
    let board = Board::from_line(&line).unwrap();
    assert!(sudoku::is_valid(&board));
    let (model, _) = sudoku::model(&board).unwrap();
    let mut solver = Solver::new(&model);
    assert_eq!(solver.solve(), SolveResult::Unsatisfiable);
    assert_eq!(solver.stats().nodes, 0);
}

#[test]
fn unsatisfiable_board_without_a_direct_clash_counts_zero() {
    // Row 1 lacks only a 9, and column 9 already has one: no cell is left for it.
    let mut line = "12345678.".to_string() + &".".repeat(72);
    line.replace_range(44..45, "9"); // r5c9
    let board = Board::from_line(&line).unwrap();
    assert!(sudoku::is_valid(&board));
    let count = sudoku::count_solutions(&board, 2).unwrap();
    assert_eq!((count.count, count.status), (0, CountStatus::Complete));
    assert_eq!(sudoku::solve(&board).unwrap(), None);
}

#[test]
fn checker_rejects_wrong_grids() {
    let board = puzzles("kaggle_sample.txt").remove(0);
    let solution = sudoku::solve(&board).unwrap().unwrap();
    let given = board.cells().iter().position(|&d| d != 0).unwrap();
    let mut changed = solution.clone();
    let other = solution.cells()[given] % 9 + 1;
    changed.set(given / 9, given % 9, other);
    assert!(matches!(
        changed.check_solves(&board),
        Err(CheckError::GivenChanged { .. })
    ));
    let mut holed = solution.clone();
    holed.set(4, 4, 0);
    assert!(matches!(
        holed.check_solves(&board),
        Err(CheckError::Incomplete(_))
    ));
    let free = board.cells().iter().position(|&d| d == 0).unwrap();
    let mut broken = solution.clone();
    broken.set(free / 9, free % 9, solution.cells()[free] % 9 + 1);
    assert!(matches!(
        broken.check_solves(&board),
        Err(CheckError::Clash(_))
    ));
}

/// A puzzle of the given shape: a solved empty board with cells removed by a fixed
/// pseudo-random sequence.
fn carved(shape: BoxShape, keep_percent: u64) -> Board {
    carved_with_seed(shape, keep_percent, 0)
}

/// As [`carved`], with the sequence chosen by `seed` (as in the `orders` experiment of
/// `compare/`).
fn carved_with_seed(shape: BoxShape, keep_percent: u64, seed: u64) -> Board {
    // The full grid comes from a fixed variable order, so that the puzzles stay the same
    // when the default order changes.
    let empty = Board::empty(shape).unwrap();
    let (model, cells) = sudoku::model(&empty).unwrap();
    let mut solver = Solver::new(&model);
    solver.set_variable_order(VariableOrder::MrvDegree);
    let SolveResult::Solution(full) = solver.solve() else {
        panic!("an empty board has solutions")
    };
    let grid = sudoku::decode(&empty, &cells, &full);
    carve(&grid, keep_percent, seed)
}

/// Solves `puzzle` (named `label` in failures) with the solver `setup` prepares, within
/// `limit` nodes (a panic otherwise), checks the solution against the rules and returns
/// the search's statistics.
fn solve_within(
    label: &str,
    puzzle: &Board,
    limit: u64,
    setup: impl FnOnce(&mut Solver),
) -> bitcsp::Statistics {
    let (model, cells) = sudoku::model(puzzle).unwrap();
    let mut solver = Solver::new(&model);
    setup(&mut solver);
    solver.set_node_limit(Some(limit));
    let SolveResult::Solution(s) = solver.solve() else {
        panic!("{label}: not solved in {limit} nodes: {:?}", solver.stats());
    };
    sudoku::decode(puzzle, &cells, &s)
        .check_solves(puzzle)
        .unwrap_or_else(|e| panic!("{label}: {e}"));
    solver.stats()
}

#[test]
fn every_board_size_is_solved_and_checked() {
    for (rows, cols) in [(2, 2), (2, 3), (3, 3), (3, 4), (4, 4), (5, 5)] {
        let shape = BoxShape { rows, cols };
        for keep in [20, 40, 60] {
            let puzzle = carved(shape, keep);
            let (model, cells) = sudoku::model(&puzzle).unwrap();
            let mut solver = Solver::new(&model);
            let SolveResult::Solution(s) = solver.solve() else {
                panic!("{shape} keep {keep}: no solution");
            };
            let solved = sudoku::decode(&puzzle, &cells, &s);
            solved
                .check_solves(&puzzle)
                .unwrap_or_else(|e| panic!("{shape} keep {keep}: {e}"));
            assert_eq!(Board::parse(&solved.to_line()).unwrap(), solved);
        }
    }
}

#[test]
fn empty_sixteen_and_half_filled_twenty_five_need_few_nodes() {
    let empty16 = Board::empty(BoxShape { rows: 4, cols: 4 }).unwrap();
    let (model, _) = sudoku::model(&empty16).unwrap();
    let mut solver = Solver::new(&model);
    assert!(matches!(solver.solve(), SolveResult::Solution(_)));
    assert!(solver.stats().nodes <= 1_000, "{:?}", solver.stats());

    let half25 = carved(BoxShape { rows: 5, cols: 5 }, 50);
    let (model, cells) = sudoku::model(&half25).unwrap();
    let mut solver = Solver::new(&model);
    let SolveResult::Solution(s) = solver.solve() else {
        panic!("no solution")
    };
    assert!(sudoku::decode(&half25, &cells, &s)
        .check_solves(&half25)
        .is_ok());
    assert!(solver.stats().nodes <= 20_000, "{:?}", solver.stats());
}

#[test]
fn restarts_end_the_long_searches_of_large_boards() {
    // Half-filled 25×25 puzzles whose search without restarts took 5,842, 23,172 and
    // 15,363 nodes (measured; heavy tails: most such puzzles take under 1,000). With the
    // restarts `sudoku::restarts` recommends they took 232, 358 and 767.
    let shape = BoxShape { rows: 5, cols: 5 };
    let mut restarts = 0;
    for seed in [0, 5, 9] {
        let puzzle = carved_with_seed(shape, 50, seed);
        let stats = solve_within(&format!("seed {seed}"), &puzzle, 4_000, |solver| {
            solver.set_restarts(sudoku::restarts(&puzzle));
        });
        restarts += stats.restarts;
        // The library's own solve uses the same restarts and finds a solution too.
        let solved = sudoku::solve(&puzzle).unwrap().expect("a solution");
        assert!(solved.check_solves(&puzzle).is_ok());
    }
    assert!(restarts > 0, "the restarts were never used");
    // Up to 12×12 there are none: a solve returns the first solution in search order.
    assert_eq!(
        sudoku::restarts(&carved(BoxShape { rows: 3, cols: 3 }, 30)),
        Restarts::Never
    );
}

#[test]
fn the_recommended_search_fills_an_empty_49_by_49_board() {
    // With the recommended restarts, the default order took 18,855 nodes (about 5 s)
    // and dom/wdeg 1,970 (measured); on the empty 64×64 board, unsolved in a minute
    // against 3,541 nodes.
    let board = Board::empty(BoxShape { rows: 7, cols: 7 }).unwrap();
    assert_eq!(sudoku::variable_order(&board), VariableOrder::DomWdeg);
    let (model, cells) = sudoku::model(&board).unwrap();
    let mut solver = Solver::new(&model);
    sudoku::configure(&mut solver, &board).set_node_limit(Some(5_000));
    let SolveResult::Solution(s) = solver.solve() else {
        panic!("not filled in 5,000 nodes: {:?}", solver.stats());
    };
    let filled = sudoku::decode(&board, &cells, &s);
    assert!(filled.check_solves(&board).is_ok());
    assert!(filled.cells().iter().all(|&d| d != 0));
    // Up to 12×12 the default order stays.
    let small = Board::empty(BoxShape { rows: 3, cols: 4 }).unwrap();
    assert_eq!(sudoku::variable_order(&small), VariableOrder::default());
}

#[test]
fn nogoods_from_restarts_cut_the_longest_restarted_search() {
    // The longest of 40 carved 25×25 puzzles with 45 % givens (`orders -- 5 45 40`, seed
    // 20) took 54,737 nodes over 155 restarts when restarts did not record nogoods, and
    // 10,912 nodes over 41 restarts with them (measured). On this puzzle the nogoods
    // cut the search; over 140 such puzzles they were neutral in aggregate (a fired
    // nogood also sends the random choices elsewhere; docs/PERFORMANCE.md). Since the
    // domain-consistent units also get the family's locked values (step 88) this search
    // takes 21,250 nodes over 65 restarts (the recommended one, `configure`, 46 nodes).
    let puzzle = carved_with_seed(BoxShape { rows: 5, cols: 5 }, 45, 20);
    let stats = solve_within("seed 20", &puzzle, 30_000, |solver| {
        solver.set_restarts(sudoku::restarts(&puzzle));
    });
    assert!(stats.nogoods > 0, "{stats:?}");
}

#[test]
fn fast_groups_on_large_boards_agree_with_domain_consistency() {
    // With `Consistency::Fast`, 16×16 and 25×25 boards are one family of more than 128
    // cells with more than 64 intersecting pairs (and, at 25×25, more than 64 groups):
    // the paths that visit a fixed value's holders word by word, mark cells through their
    // group lists and take dirty groups from a bitset of several words. Puzzles with a
    // few hundred solutions (873 and 114 here), each found and counted exactly as with
    // domain-consistent groups. (Dropping the holders of one word fails this test through the
    // family's debug check of its value-major view, which `cargo test` builds.)
    for (shape, keep) in [
        (BoxShape { rows: 4, cols: 4 }, 55),
        (BoxShape { rows: 5, cols: 5 }, 60),
    ] {
        let puzzle = carved(shape, keep);
        let (fast, cells) = sudoku::model_with(&puzzle, Consistency::Fast).unwrap();
        let mut solver = Solver::new(&fast);
        let SolveResult::Solution(s) = solver.solve() else {
            panic!("{shape}: no solution with fast groups");
        };
        sudoku::decode(&puzzle, &cells, &s)
            .check_solves(&puzzle)
            .unwrap_or_else(|e| panic!("{shape}: {e}"));
        let (domain, _) = sudoku::model_with(&puzzle, Consistency::Domain).unwrap();
        let count = |model: &bitcsp::Model| {
            let mut solver = Solver::new(model);
            solver.set_node_limit(Some(200_000));
            solver.count(None)
        };
        let (by_fast, by_domain) = (count(&fast), count(&domain));
        assert_eq!(
            by_fast.status,
            CountStatus::Complete,
            "{shape}: {by_fast:?}"
        );
        assert!(by_fast.count > 1, "{shape}: several solutions to count");
        assert_eq!(by_fast, by_domain, "{shape}");
    }
}

/// The family's locked values on pairs other than a 9×9 board's box-line records (the
/// general pair check, with its segment cover), on carved 25×25 puzzles with half the
/// givens, searched in a fixed order without restarts: 59, 60 and 179 nodes with the
/// rule, 5,842, 15,363 and 5,150 without it (measured with the rule switched off; the
/// test also fails when only the segment-cover sweep is switched off).
#[test]
fn locked_values_on_large_boards_cut_these_searches() {
    for seed in [0, 9, 12] {
        let puzzle = carved_with_seed(BoxShape { rows: 5, cols: 5 }, 50, seed);
        solve_within(&format!("seed {seed}"), &puzzle, 1_000, |solver| {
            solver.set_variable_order(VariableOrder::MrvDynamicDegree);
        });
    }
}

/// One `PuzzleSolver` for a stream of puzzles gives the one-shot functions' answers —
/// the same first solution and the same counts — while clashing, unsatisfiable,
/// node-limited and wrongly shaped boards come and go between them.
#[test]
fn a_puzzle_solver_answers_as_the_one_shot_functions() {
    use bitcsp::sudoku::{PuzzleSolver, SudokuError};
    let mut reused = PuzzleSolver::new(BoxShape { rows: 3, cols: 3 }).unwrap();
    let mut clash = ".".repeat(81);
    clash.replace_range(0..1, "7");
    clash.replace_range(72..73, "7");
    let clash = Board::from_line(&clash).unwrap();
    let mut short = "12345678.".to_string() + &".".repeat(72);
    short.replace_range(44..45, "9");
    let short = Board::from_line(&short).unwrap();
    let small = Board::empty(BoxShape { rows: 2, cols: 2 }).unwrap();
    let empty = Board::empty(BoxShape { rows: 3, cols: 3 }).unwrap();
    let mut seen = 0;
    for file in [
        "17_clue_sample.txt",
        "forum_hardest_1905_sample.txt",
        "magictour_sample.txt",
        "serg_sample.txt",
    ] {
        for board in puzzles(file).iter().take(60) {
            let solution = reused.solve(board).unwrap();
            assert_eq!(solution, sudoku::solve(board).unwrap(), "{file}");
            for limit in [2, 5] {
                let count = reused.count(board, limit).unwrap();
                assert_eq!(count, sudoku::count_solutions(board, limit).unwrap());
            }
            seen += 1;
            match seen % 4 {
                0 => {
                    assert!(matches!(reused.solve(&clash), Err(SudokuError::Clash(_))));
                    assert!(matches!(
                        reused.count(&clash, 2),
                        Err(SudokuError::Clash(_))
                    ));
                    // `load` leaves the clash to the search, which finds no solution.
                    let (engine, _) = reused.load(&clash).unwrap();
                    assert_eq!(engine.count(None).count, 0);
                }
                1 => {
                    assert_eq!(reused.solve(&short).unwrap(), None);
                    assert_eq!(reused.count(&short, 2).unwrap().count, 0);
                }
                2 => {
                    // The empty board needs a search; most of these puzzles do not.
                    reused.engine().set_node_limit(Some(0));
                    assert_eq!(reused.solve(&empty).unwrap(), None);
                    assert!(reused.engine().stop_reason().is_some());
                    reused.engine().set_node_limit(None);
                }
                _ => assert!(matches!(
                    reused.count(&small, 2),
                    Err(SudokuError::ShapeMismatch { .. })
                )),
            }
        }
    }
    assert_eq!(seen, 4 * 60);
}

/// Large boards too (domain-consistent units, dom/wdeg, restarts and their nogoods):
/// a reused solver finds the same solutions as a fresh one per puzzle, by the same search
/// (same nodes, failures, restarts and nogoods: none kept from an earlier puzzle), some of
/// the searches restarting.
#[test]
fn a_puzzle_solver_reuses_large_board_searches_exactly() {
    let shape = BoxShape { rows: 5, cols: 5 };
    let mut reused = sudoku::PuzzleSolver::new(shape).unwrap();
    let mut restarts = 0;
    // Carved 25×25 puzzles with 45 % givens whose searches take 4, 2, 2, 13 and 0 restarts.
    for seed in [13, 5, 19, 3, 2] {
        let board = carved_with_seed(shape, 45, seed);
        let solution = reused.solve(&board).unwrap();
        let (model, cells) = sudoku::model(&board).unwrap();
        let mut fresh = Solver::new(&model);
        sudoku::configure(&mut fresh, &board);
        let SolveResult::Solution(s) = fresh.solve() else {
            panic!("seed {seed}: no solution");
        };
        assert_eq!(
            solution,
            Some(sudoku::decode(&board, &cells, &s)),
            "seed {seed}"
        );
        solution.unwrap().check_solves(&board).unwrap();
        let (mine, theirs) = (reused.engine().stats(), fresh.stats());
        assert_eq!(
            (mine.nodes, mine.failures, mine.restarts, mine.nogoods),
            (
                theirs.nodes,
                theirs.failures,
                theirs.restarts,
                theirs.nogoods
            ),
            "seed {seed}"
        );
        restarts += mine.restarts;
    }
    assert!(restarts > 0, "no search restarted");
}

#[test]
fn a_solution_read_in_place_is_the_board_that_solve_returns() {
    // Empty boards of several shapes, up to 36×36 (past the one-symbol sides, where a
    // line is written as numbers), and two 9×9 puzzles: the line and the board read
    // from the solver in place are the decoded solution, checked against the rules.
    let mut boards: Vec<Board> = [(2, 2), (2, 3), (3, 3), (3, 4), (4, 4), (6, 6)]
        .into_iter()
        .map(|(rows, cols)| Board::empty(BoxShape { rows, cols }).expect("shape"))
        .collect();
    boards.extend(puzzles("norvig_hardest.txt").into_iter().take(2));
    for board in &boards {
        let (model, cells) = sudoku::model(board).expect("model");
        let mut solver = Solver::new(&model);
        let SolveResult::Solution(values) = solver.clone().solve() else {
            panic!("{}: no solution", board.side());
        };
        let decoded = sudoku::decode(board, &cells, &values);
        assert!(decoded.check_solves(board).is_ok());
        assert_eq!(
            sudoku::solved_line(board, &cells, &solver),
            None,
            "before a search"
        );
        assert_eq!(solver.solve_in_place(), bitcsp::SearchStatus::Solved);
        assert_eq!(
            sudoku::solved_board(board, &cells, &solver),
            Some(decoded.clone())
        );
        assert_eq!(
            sudoku::solved_line(board, &cells, &solver),
            Some(decoded.to_line())
        );
    }
    // A search that ends without a solution leaves nothing to read.
    let clash = Board::parse(&format!("11{}", ".".repeat(79))).expect("a board");
    let (model, cells) = sudoku::model(&clash).expect("model");
    let mut solver = Solver::new(&model);
    assert_eq!(solver.solve_in_place(), bitcsp::SearchStatus::Unsatisfiable);
    assert_eq!(sudoku::solved_line(&clash, &cells, &solver), None);
    assert_eq!(sudoku::solved_board(&clash, &cells, &solver), None);
}
