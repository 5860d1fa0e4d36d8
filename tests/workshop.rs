//! The Sudoku workshop: every step of every explanation is re-derived by an independent
//! checker (tests/step_checker), on real puzzle sets and on one known puzzle per
//! technique; hints, grades, pencil marks and generated puzzles are checked against the
//! rules and the engine.

mod step_checker;

use bitcsp::sudoku::workshop::{
    self, Class, Generator, Hint, Mark, Step, Symmetry, Technique, Workshop, WorkshopError,
};
use bitcsp::sudoku::{self, Board, BoxShape};
use step_checker::{derive, replay, Marks};

const NINE: BoxShape = BoxShape { rows: 3, cols: 3 };

fn puzzles(file: &str, take: usize) -> Vec<Board> {
    let text = std::fs::read_to_string(format!("tests/data/sudoku/{file}")).expect("test data");
    text.lines()
        .filter(|l| !l.trim().is_empty())
        .take(take)
        .map(|l| Board::parse(l).expect("a valid board"))
        .collect()
}

/// Explains every puzzle and re-derives each step; returns how many needed no guess.
fn check_set(file: &str, take: usize) -> (usize, usize) {
    let mut workshop = Workshop::new(NINE).unwrap();
    let boards = puzzles(file, take);
    let mut logic_only = 0;
    for (i, board) in boards.iter().enumerate() {
        let explanation = workshop.explain(board).unwrap();
        match replay(board, &explanation) {
            Ok(0) => logic_only += 1,
            Ok(_) => {}
            Err(e) => panic!("{file} puzzle {}: {e}", i + 1),
        }
    }
    (logic_only, boards.len())
}

#[test]
fn every_step_of_the_17_clue_sample_rederives() {
    let (logic, total) = check_set("17_clue_sample.txt", 400);
    assert!(
        logic * 100 >= total * 95,
        "{logic} of {total} by logic alone"
    );
}

#[test]
fn every_step_of_the_magictour_sample_rederives() {
    let (logic, total) = check_set("magictour_sample.txt", 232);
    assert!(
        logic * 100 >= total * 40,
        "{logic} of {total} by logic alone"
    );
}

#[test]
fn every_step_of_the_kaggle_sample_rederives_without_a_guess() {
    let (logic, total) = check_set("kaggle_sample.txt", 200);
    assert_eq!(logic, total);
}

#[test]
fn every_step_of_the_hardest_puzzles_rederives_and_they_need_guesses() {
    let (logic, total) = check_set("forum_hardest_1905_sample.txt", 40);
    assert_eq!(logic, 0, "of {total}");
    check_set("forum_hardest_1106_sample.txt", 25);
}

#[test]
fn each_technique_has_a_known_puzzle_whose_explanation_uses_it_soundly() {
    let text = std::fs::read_to_string("tests/data/sudoku/workshop/techniques.txt").unwrap();
    let mut workshop = Workshop::new(NINE).unwrap();
    let mut covered = Vec::new();
    for line in text
        .lines()
        .filter(|l| !l.starts_with('#') && !l.is_empty())
    {
        let (name, puzzle) = line.split_once(';').unwrap();
        let technique: Technique = name.parse().unwrap();
        let board = Board::parse(puzzle).unwrap();
        let explanation = workshop.explain(&board).unwrap();
        assert!(
            explanation.steps.iter().any(|s| s.technique == technique),
            "{name}: the explanation no longer uses it"
        );
        replay(&board, &explanation).unwrap_or_else(|e| panic!("{name}: {e}"));
        covered.push(technique);
    }
    // Cage combinations need killer cages: tests/data/sudoku/variants covers them.
    for t in Technique::LADDER.iter().chain(&[Technique::Guess]) {
        assert!(
            covered.contains(t) || *t == Technique::CageCombinations,
            "no fixture for {t}"
        );
    }
}

fn first_step(board: &Board) -> Step {
    match workshop::hint(board).unwrap() {
        Hint::Step(s) => s,
        other => panic!("expected a step, got {other:?}"),
    }
}

#[test]
fn the_checker_refuses_steps_the_pattern_does_not_prove() {
    let board = puzzles("17_clue_sample.txt", 1).remove(0);
    let marks = Marks::new(&board);
    let solution = sudoku::solve(&board).unwrap().unwrap();
    let real = first_step(&board);
    derive(&marks, &real).unwrap();
    // The same pattern, with a removal that is true of the solution but not implied.
    let (row, col) = (0..81)
        .map(|i| (i / 9 + 1, i % 9 + 1))
        .find(|&(r, c)| {
            board.get(r - 1, c - 1).is_none()
                && real.placements.iter().all(|p| (p.row, p.col) != (r, c))
        })
        .unwrap();
    let wrong_digit = (1..=9u8)
        .find(|&d| {
            solution.get(row - 1, col - 1) != Some(d)
                && marks.cands[(row - 1) * 9 + col - 1] >> (d - 1) & 1 == 1
        })
        .unwrap();
    let mut forged = real.clone();
    forged.eliminations.push(Mark {
        row,
        col,
        digit: wrong_digit,
    });
    assert!(derive(&marks, &forged).is_err());
    // A placement of the solution's digit that no pattern supports.
    let mut guessed = real.clone();
    guessed.placements = vec![Mark {
        row,
        col,
        digit: solution.get(row - 1, col - 1).unwrap(),
    }];
    assert!(derive(&marks, &guessed).is_err());
    // A pattern candidate that is not a candidate.
    let mut bogus = real;
    bogus.pattern.push(Mark {
        row: 1,
        col: 1,
        digit: 9,
    });
    let given = board.get(0, 0).is_some() || marks.cands[0] >> 8 & 1 == 0;
    assert_eq!(derive(&marks, &bogus).is_err(), given);
}

#[test]
fn pencil_marks_are_the_digits_not_placed_in_row_column_or_box() {
    for board in puzzles("serg_sample.txt", 50) {
        let ours = workshop::candidates(&board);
        let theirs = Marks::new(&board);
        for i in 0..81 {
            let (r, c) = (i / 9, i % 9);
            let mine: u64 = ours
                .candidates(r, c)
                .iter()
                .fold(0, |m, d| m | 1 << (d - 1));
            assert_eq!(mine, theirs.cands[i], "cell r{}c{}", r + 1, c + 1);
            assert_eq!(ours.digit(r, c), board.get(r, c));
        }
    }
}

#[test]
fn candidates_after_singles_solve_an_easy_puzzle_and_keep_the_solution() {
    let mut workshop = Workshop::new(NINE).unwrap();
    for board in puzzles("kaggle_sample.txt", 20) {
        let solution = sudoku::solve(&board).unwrap().unwrap();
        let after = workshop
            .candidates_after(&board, Technique::HiddenSingle)
            .unwrap();
        for r in 0..9 {
            for c in 0..9 {
                assert_eq!(after.digit(r, c), solution.get(r, c));
            }
        }
    }
    for board in puzzles("magictour_sample.txt", 10) {
        let solution = sudoku::solve(&board).unwrap().unwrap();
        let before = workshop::candidates(&board).total();
        let after = workshop
            .candidates_after(&board, Technique::Claiming)
            .unwrap();
        assert!(after.total() <= before);
        for r in 0..9 {
            for c in 0..9 {
                let d = solution.get(r, c).unwrap();
                assert!(after.digit(r, c) == Some(d) || after.candidates(r, c).contains(d));
            }
        }
    }
}

#[test]
fn hints_refuse_boards_without_exactly_one_solution() {
    let empty = Board::empty(NINE).unwrap();
    assert!(matches!(
        workshop::hint(&empty),
        Err(WorkshopError::MultipleSolutions)
    ));
    let mut clash = empty.clone();
    clash.set(0, 0, 5);
    clash.set(0, 1, 5);
    assert!(matches!(
        workshop::hint(&clash),
        Err(WorkshopError::NoSolution)
    ));
    assert!(matches!(
        workshop::explain(&clash),
        Err(WorkshopError::NoSolution)
    ));
    assert!(matches!(
        workshop::grade(&empty),
        Err(WorkshopError::MultipleSolutions)
    ));
    let solved = sudoku::solve(&puzzles("kaggle_sample.txt", 1)[0])
        .unwrap()
        .unwrap();
    assert_eq!(workshop::hint(&solved).unwrap(), Hint::Solved);
}

#[test]
fn a_stuck_puzzle_gets_guesses_after_which_logic_finishes_it() {
    let mut workshop = Workshop::new(NINE).unwrap();
    for board in puzzles("forum_hardest_1905_sample.txt", 3) {
        assert_eq!(
            workshop.hint(&board, false).unwrap(),
            Hint::NeedsGuess { guesses: vec![] }
        );
        let Hint::NeedsGuess { guesses } = workshop.hint(&board, true).unwrap() else {
            panic!("expected guesses");
        };
        assert!(!guesses.is_empty());
        let mut helped = board.clone();
        for g in &guesses {
            assert_eq!(g.technique, Technique::Guess);
            for p in &g.placements {
                helped.set(p.row - 1, p.col - 1, p.digit);
            }
        }
        assert_eq!(workshop.explain(&helped).unwrap().guesses, 0);
    }
}

#[test]
fn grades_follow_the_hardest_step() {
    let mut workshop = Workshop::new(NINE).unwrap();
    for board in puzzles("kaggle_sample.txt", 50) {
        let grade = workshop.grade(&board).unwrap();
        assert_eq!(grade.class, Class::Easy, "{}", board.to_line());
    }
    for board in puzzles("forum_hardest_1905_sample.txt", 20) {
        let grade = workshop.grade(&board).unwrap();
        assert_eq!(grade.class, Class::Extreme);
        assert!(grade.guesses > 0);
    }
    for board in puzzles("magictour_sample.txt", 30) {
        let e = workshop.explain(&board).unwrap();
        let grade = workshop.grade(&board).unwrap();
        let hardest = e
            .steps
            .iter()
            .map(|s| s.technique.rating())
            .fold(0.0, f64::max);
        assert_eq!(grade.rating, hardest);
        assert_eq!(grade, e.grade());
        assert_eq!(grade.class, Class::of(grade.rating));
    }
}

#[test]
fn technique_names_round_trip() {
    for t in Technique::LADDER.iter().chain(&[Technique::Guess]) {
        assert_eq!(t.name().parse::<Technique>().unwrap(), *t);
    }
    assert_eq!(
        "Hidden_Single".parse::<Technique>().unwrap(),
        Technique::HiddenSingle
    );
    assert!("fishy".parse::<Technique>().is_err());
    let ratings: Vec<f64> = Technique::LADDER.iter().map(|t| t.rating()).collect();
    assert!(
        ratings.windows(2).all(|w| w[0] <= w[1]),
        "the ladder is simplest first"
    );
}

/// Whether no given of `puzzle` can be removed (orbit by orbit under `symmetry`)
/// without losing uniqueness.
fn is_minimal(puzzle: &Board, orbits: &[Vec<usize>]) -> bool {
    orbits.iter().all(|orbit| {
        let mut fewer = puzzle.clone();
        let n = puzzle.side();
        for &c in orbit {
            fewer.set(c / n, c % n, 0);
        }
        sudoku::count_solutions(&fewer, 2).unwrap().count > 1
    })
}

#[test]
fn generated_puzzles_are_unique_and_minimal_for_every_shape() {
    for (shape, count) in [
        (BoxShape { rows: 2, cols: 2 }, 10),
        (BoxShape { rows: 2, cols: 3 }, 10),
        (NINE, 20),
        (BoxShape { rows: 3, cols: 4 }, 2),
    ] {
        let n = shape.side();
        let mut generator = Generator::new(shape, Symmetry::None, None, 11).unwrap();
        for i in 0..count {
            let p = generator.puzzle(i).unwrap();
            assert_eq!(sudoku::count_solutions(&p, 2).unwrap().count, 1);
            let givens: Vec<Vec<usize>> = (0..n * n)
                .filter(|&c| p.cells()[c] != 0)
                .map(|c| vec![c])
                .collect();
            assert!(is_minimal(&p, &givens), "{shape}: {}", p.to_line());
        }
    }
}

#[test]
fn symmetric_puzzles_keep_their_symmetry_and_no_orbit_can_go() {
    let n = 9;
    for symmetry in Symmetry::ALL {
        let mut generator = Generator::new(NINE, symmetry, None, 5).unwrap();
        for i in 0..5 {
            let p = generator.puzzle(i).unwrap();
            assert_eq!(sudoku::count_solutions(&p, 2).unwrap().count, 1);
            let image = |r: usize, c: usize| -> Vec<(usize, usize)> {
                match symmetry {
                    Symmetry::None => vec![],
                    Symmetry::Rotate180 => vec![(8 - r, 8 - c)],
                    Symmetry::Rotate90 => vec![(c, 8 - r), (8 - r, 8 - c), (8 - c, r)],
                    Symmetry::Mirror => vec![(r, 8 - c)],
                    Symmetry::Diagonal => vec![(c, r)],
                }
            };
            let mut orbits: Vec<Vec<usize>> = Vec::new();
            for c in 0..n * n {
                let given = p.cells()[c] != 0;
                let mut orbit = vec![c];
                for (r2, c2) in image(c / n, c % n) {
                    assert_eq!(
                        p.cells()[r2 * n + c2] != 0,
                        given,
                        "{symmetry}: {}",
                        p.to_line()
                    );
                    orbit.push(r2 * n + c2);
                }
                orbit.sort_unstable();
                orbit.dedup();
                if given && !orbits.contains(&orbit) {
                    orbits.push(orbit);
                }
            }
            assert!(is_minimal(&p, &orbits), "{symmetry}: {}", p.to_line());
        }
    }
}

#[test]
fn generation_by_class_gives_puzzles_of_that_class() {
    for class in [Class::Easy, Class::Medium, Class::Hard] {
        let mut generator = Generator::new(NINE, Symmetry::None, Some(class), 3).unwrap();
        for i in 0..3 {
            let p = generator.puzzle(i).unwrap();
            assert_eq!(workshop::grade(&p).unwrap().class, class);
        }
    }
}

#[test]
fn the_checker_refuses_a_chain_with_a_link_left_out() {
    let text = std::fs::read_to_string("tests/data/sudoku/workshop/techniques.txt").unwrap();
    let line = text.lines().find(|l| l.starts_with("aic;")).unwrap();
    let board = Board::parse(&line[4..]).unwrap();
    let explanation = workshop::explain(&board).unwrap();
    let mut marks = Marks::new(&board);
    for step in &explanation.steps {
        if step.technique == Technique::Aic && step.pattern.len() >= 4 {
            derive(&marks, step).unwrap();
            let mut cut = step.clone();
            cut.pattern.remove(cut.pattern.len() / 2);
            cut.houses.clear();
            assert!(derive(&marks, &cut).is_err(), "{step}");
            return;
        }
        step_checker::apply(&mut marks, step);
    }
    panic!("no chain of four candidates or more");
}

#[test]
fn every_step_of_every_variant_explanation_rederives_with_the_variant_rules() {
    use bitcsp::sudoku::variants::{VariantPuzzle, Variants};
    use bitcsp::sudoku::workshop::VariantWorkshop;
    let mut workshop = VariantWorkshop::new();
    for name in ["x", "windoku", "jigsaw", "killer", "antiknight", "antiking"] {
        let variants: Variants = name.parse().unwrap();
        let text =
            std::fs::read_to_string(format!("tests/data/sudoku/variants/{name}.txt")).unwrap();
        let mut used = std::collections::BTreeSet::new();
        for (i, line) in text.lines().filter(|l| !l.is_empty()).enumerate() {
            let puzzle = VariantPuzzle::parse(line, &variants, None).unwrap();
            let explanation = workshop.explain(&puzzle).unwrap();
            step_checker::replay_variant(&puzzle, &explanation)
                .unwrap_or_else(|e| panic!("{name} line {}: {e}", i + 1));
            used.extend(explanation.steps.iter().map(|s| s.technique.name()));
            assert!(explanation
                .steps
                .iter()
                .all(|s| s.technique != Technique::UniqueRectangle1));
        }
        if name == "killer" {
            assert!(used.contains("cage combinations"), "{used:?}");
        }
    }
    // Without its cage (and so its sum), a cage step proves nothing.
    let line = std::fs::read_to_string("tests/data/sudoku/variants/killer.txt").unwrap();
    let puzzle = VariantPuzzle::parse(
        line.lines().next().unwrap(),
        &"killer".parse().unwrap(),
        None,
    )
    .unwrap();
    let explanation = workshop.explain(&puzzle).unwrap();
    let mut marks = step_checker::Marks::for_variant(&puzzle);
    let mut refused = false;
    for step in &explanation.steps {
        if step.technique == Technique::CageCombinations {
            derive(&marks, step).unwrap();
            let mut cut = step.clone();
            cut.houses.clear();
            assert!(derive(&marks, &cut).is_err(), "{step}");
            refused = true;
            break;
        }
        step_checker::apply(&mut marks, step);
    }
    assert!(refused, "the first killer puzzle uses a cage step");
    let nc = "..............................................................................1..";
    let puzzle = VariantPuzzle::parse(nc, &"nonconsecutive".parse().unwrap(), None).unwrap();
    assert!(matches!(
        workshop.explain(&puzzle),
        Err(WorkshopError::Unsupported(_))
    ));
}
