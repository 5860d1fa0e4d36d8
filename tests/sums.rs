//! Sum constraints on known puzzles, their propagation strength, and their edge cases.
//! (Random models against exhaustive enumeration: `brute_force.rs`.)

use bitcsp::{CountStatus, Model, Relation, SolveResult, Solver, VarId};

/// A cryptarithm `addends[0] + addends[1] + ... = total` (distinct letters, distinct
/// digits, no leading zero) as one weighted sum: each letter's coefficient is the sum of
/// its place values, positive in the addends and negative in the total.
fn cryptarithm(addends: &[&str], total: &str) -> (Model, Vec<char>, Vec<VarId>) {
    let mut letters: Vec<char> = addends
        .iter()
        .chain([&total])
        .flat_map(|w| w.chars())
        .collect();
    letters.sort_unstable();
    letters.dedup();
    let mut m = Model::new();
    let vars = m.new_vars(letters.len(), 0..=9).unwrap();
    let index = |c: char| letters.iter().position(|&l| l == c).unwrap();
    let mut coeffs = vec![0i32; letters.len()];
    for (word, sign) in addends.iter().map(|w| (*w, 1)).chain([(total, -1)]) {
        let mut place = 1;
        for c in word.chars().rev() {
            coeffs[index(c)] += sign * place;
            place *= 10;
        }
        let lead = word.chars().next().unwrap();
        m.remove_value(vars[index(lead)], 0).unwrap();
    }
    m.all_different(&vars).unwrap();
    m.weighted_sum(&vars, &coeffs, Relation::Equal, 0).unwrap();
    (m, letters, vars)
}

/// Every digit assignment of a cryptarithm, by trying all of them.
fn cryptarithm_by_brute_force(addends: &[&str], total: &str, letters: &[char]) -> Vec<Vec<i32>> {
    let value = |word: &str, digits: &[i32]| {
        word.chars().fold(0i64, |acc, c| {
            acc * 10 + i64::from(digits[letters.iter().position(|&l| l == c).unwrap()])
        })
    };
    let leads: Vec<usize> = addends
        .iter()
        .chain([&total])
        .map(|w| letters.iter().position(|&l| w.starts_with(l)).unwrap())
        .collect();
    let mut found = Vec::new();
    let mut digits = Vec::new();
    let mut used = [false; 10];
    fn place(
        k: usize,
        digits: &mut Vec<i32>,
        used: &mut [bool; 10],
        check: &dyn Fn(&[i32]) -> bool,
        found: &mut Vec<Vec<i32>>,
        n: usize,
    ) {
        if k == n {
            if check(digits) {
                found.push(digits.clone());
            }
            return;
        }
        for d in 0..10 {
            if !used[d] {
                used[d] = true;
                digits.push(d as i32);
                place(k + 1, digits, used, check, found, n);
                digits.pop();
                used[d] = false;
            }
        }
    }
    let check = |digits: &[i32]| {
        leads.iter().all(|&i| digits[i] != 0)
            && addends.iter().map(|w| value(w, digits)).sum::<i64>() == value(total, digits)
    };
    place(0, &mut digits, &mut used, &check, &mut found, letters.len());
    found
}

/// SEND + MORE = MONEY has its one solution, 9567 + 1085 = 10652, and smaller
/// cryptarithms have exactly the solutions that trying every assignment finds.
#[test]
fn cryptarithms_have_exactly_their_solutions() {
    let (m, letters, vars) = cryptarithm(&["SEND", "MORE"], "MONEY");
    let count = Solver::new(&m).count(None);
    assert_eq!((count.count, count.status), (1, CountStatus::Complete));
    let solution = Solver::new(&m).solve().solution().expect("one solution");
    let digit = |c: char| solution.value(vars[letters.iter().position(|&l| l == c).unwrap()]);
    let number = |w: &str| w.chars().fold(0, |acc, c| acc * 10 + digit(c));
    assert_eq!(
        (number("SEND"), number("MORE"), number("MONEY")),
        (9567, 1085, 10652)
    );

    for (addends, total) in [
        (&["TWO", "TWO"][..], "FOUR"),
        (&["AB", "BA"][..], "CDC"),
        (&["ONE", "ONE"][..], "TWO"),
        (&["A", "B", "C"][..], "DE"),
    ] {
        let (m, letters, vars) = cryptarithm(addends, total);
        let mut solver = Solver::new(&m);
        let mut found: Vec<Vec<i32>> = solver
            .solutions()
            .map(|s| vars.iter().map(|&v| s.value(v)).collect())
            .collect();
        found.sort();
        let expected = cryptarithm_by_brute_force(addends, total, &letters);
        assert!(!expected.is_empty(), "{addends:?} = {total} has solutions");
        assert_eq!(found, expected, "{addends:?} = {total}");
    }
}

/// The 3×3 magic squares (rows, columns and both diagonals summing to 15 over the digits
/// 1–9): the Lo Shu square in its 8 rotations and reflections.
#[test]
fn magic_squares_of_order_three_number_eight() {
    let mut m = Model::new();
    let cells = m.new_vars(9, 1..=9).unwrap();
    m.all_different(&cells).unwrap();
    // Rows, columns, the main diagonal and the anti-diagonal, as cell indices.
    let lines: Vec<[usize; 3]> = (0..3)
        .map(|r| [3 * r, 3 * r + 1, 3 * r + 2])
        .chain((0..3).map(|c| [c, c + 3, c + 6]))
        .chain([[0, 4, 8], [2, 4, 6]])
        .collect();
    for &line in &lines {
        let vars: Vec<VarId> = line.iter().map(|&i| cells[i]).collect();
        m.sum(&vars, Relation::Equal, 15).unwrap();
    }
    let mut solver = Solver::new(&m);
    let squares: Vec<Vec<i32>> = solver
        .solutions()
        .map(|s| cells.iter().map(|&c| s.value(c)).collect())
        .collect();
    assert_eq!(squares.len(), 8);
    // On threads: the same squares in the same order.
    for threads in [1, 2, 3] {
        let (found, stop) = Solver::new(&m).solutions_parallel(None, threads);
        assert_eq!(stop, None);
        let found: Vec<Vec<i32>> = found
            .iter()
            .map(|s| cells.iter().map(|&c| s.value(c)).collect())
            .collect();
        assert_eq!(found, squares, "{threads} threads");
    }
    for square in &squares {
        assert_eq!(square[4], 5, "the centre of every 3×3 magic square is 5");
        for line in &lines {
            assert_eq!(line.iter().map(|&i| square[i]).sum::<i32>(), 15);
        }
    }
}

/// Models that bounds reasoning alone settles, so the search makes no decision: a sum at
/// its largest value forces every variable to its largest, and a difference at its
/// extreme forces both sides, which a check of complete assignments only would not.
#[test]
fn bounds_reasoning_settles_these_models_at_the_root() {
    let mut m = Model::new();
    let xs = m.new_vars(5, 0..=9).unwrap();
    m.sum(&xs, Relation::Equal, 45).unwrap();
    let mut solver = Solver::new(&m);
    let solution = solver.solve().solution().expect("all nines");
    assert!(xs.iter().all(|&x| solution.value(x) == 9));
    assert_eq!(solver.stats().nodes, 0);

    let mut m = Model::new();
    let x = m.new_var(0..=10).unwrap();
    let y = m.new_var(0..=10).unwrap();
    m.weighted_sum(&[x, y], &[1, -1], Relation::AtLeast, 10)
        .unwrap();
    let mut solver = Solver::new(&m);
    let solution = solver.solve().solution().expect("x = 10, y = 0");
    assert_eq!((solution.value(x), solution.value(y)), (10, 0));
    assert_eq!(solver.stats().nodes, 0);

    let mut m = Model::new();
    let x = m.new_var(-5..=5).unwrap();
    let y = m.new_var(-5..=5).unwrap();
    // 3x - 2y <= -25 is reached only by x = -5, y = 5 (-15 - 10).
    m.weighted_sum(&[x, y], &[3, -2], Relation::AtMost, -25)
        .unwrap();
    let mut solver = Solver::new(&m);
    let solution = solver.solve().solution().expect("x = -5, y = 5");
    assert_eq!((solution.value(x), solution.value(y)), (-5, 5));
    assert_eq!(solver.stats().nodes, 0);
}

/// An empty sum is 0: satisfied or not by the relation alone.
#[test]
fn an_empty_sum_is_zero() {
    for (relation, rhs, satisfiable) in [
        (Relation::Equal, 0, true),
        (Relation::Equal, 5, false),
        (Relation::AtMost, -1, false),
        (Relation::AtLeast, -1, true),
    ] {
        let mut m = Model::new();
        m.new_var(1..=3).unwrap();
        m.sum(&[], relation, rhs).unwrap();
        let count = Solver::new(&m).count(None).count;
        assert_eq!(count, if satisfiable { 3 } else { 0 }, "{relation:?} {rhs}");
        // Coefficients of zero drop their terms: the same as an empty sum.
        let mut m = Model::new();
        let y = m.new_var(1..=3).unwrap();
        m.weighted_sum(&[y], &[0], relation, rhs).unwrap();
        let count = Solver::new(&m).count(None).count;
        assert_eq!(count, if satisfiable { 3 } else { 0 }, "{relation:?} {rhs}");
    }
}

/// The largest coefficients on values at the ends of the `i32` range: no overflow, and
/// the answers of plain arithmetic.
#[test]
fn extreme_coefficients_and_values_do_not_overflow() {
    let mut m = Model::new();
    let x = m.new_var(i32::MAX - 3..=i32::MAX).unwrap();
    let y = m.new_var(i32::MIN..=i32::MIN + 3).unwrap();
    let coeffs = [i32::MAX, i32::MIN];
    // The largest sum is 2^63 - 2^32 + 1; this bound lets some of the 16 pairs through.
    let rhs = i64::MAX - (1 << 33);
    m.weighted_sum(&[x, y], &coeffs, Relation::AtLeast, rhs)
        .unwrap();
    let mut expected = 0;
    for a in i32::MAX - 3..=i32::MAX {
        for b in i32::MIN..=i32::MIN + 3 {
            let total =
                i128::from(coeffs[0]) * i128::from(a) + i128::from(coeffs[1]) * i128::from(b);
            expected += u64::from(total >= i128::from(rhs));
        }
    }
    assert!(
        expected > 0 && expected < 16,
        "{expected} of 16 pairs reach the bound"
    );
    assert_eq!(Solver::new(&m).count(None).count, expected);

    let mut m = Model::new();
    let x = m.new_var(i32::MAX - 3..=i32::MAX).unwrap();
    m.weighted_sum(&[x, x, x], &[i32::MAX; 3], Relation::Equal, i64::MIN)
        .unwrap();
    assert!(matches!(
        Solver::new(&m).solve(),
        SolveResult::Unsatisfiable
    ));
}

/// A variable may appear twice (argument errors: `tests/core.rs`, with every other
/// `ModelError`): x + x = 4 means x = 2.
#[test]
fn a_variable_may_appear_twice_in_a_sum() {
    let mut m = Model::new();
    let x = m.new_var(0..=3).unwrap();
    m.sum(&[x, x], Relation::Equal, 4).unwrap();
    let solution = Solver::new(&m).solve().solution().expect("x = 2");
    assert_eq!(solution.value(x), 2);
}

#[path = "../examples/magic_square.rs"]
#[allow(dead_code)]
mod magic_square;

#[test]
fn magic_squares_of_side_3_and_4_are_counted_exactly() {
    // OEIS A006052 counts them up to rotation and reflection: 1 and 880, eight times over.
    for (n, count) in [(3, 8), (4, 7_040)] {
        let (model, _) = magic_square::model(n).expect("model");
        assert_eq!(
            bitcsp::Solver::new(&model).count(None).count,
            count,
            "side {n}"
        );
    }
}
