//! Linear expressions read as written: random comparisons between random expressions
//! over small domains have exactly the solutions that evaluating them finds.

use bitcsp::{Compare, LinearExpr, Model, Solver, VarId};

mod common;
use common::Random;

#[test]
fn comparisons_have_exactly_the_solutions_of_their_evaluation() {
    let mut random = Random::seeded(0xE4E4);
    for round in 0..400 {
        let mut model = Model::new();
        let vars: Vec<VarId> = (0..3)
            .map(|_| model.new_var(-2..=2).expect("var"))
            .collect();
        // Build both sides from random terms, keeping their evaluation alongside.
        let mut sides = Vec::new();
        for _ in 0..2 {
            let mut expr = LinearExpr::from(0);
            let mut eval: Vec<(usize, i64)> = Vec::new();
            for _ in 0..random.below(3) + 1 {
                let i = random.below(3) as usize;
                let k = random.below(7) as i64 - 3;
                if random.below(2) == 0 {
                    expr = expr + vars[i] * k;
                    eval.push((i, k));
                } else {
                    expr = expr - k * vars[i];
                    eval.push((i, -k));
                }
            }
            let constant = random.below(9) as i64 - 4;
            sides.push((expr + constant, eval, constant));
        }
        let (right, right_eval, right_c) = sides.pop().expect("right");
        let (left, left_eval, left_c) = sides.pop().expect("left");
        let which = random.below(6);
        let constraint = match which {
            0 => left.equals(right),
            1 => left.not_equal(right),
            2 => left.less_than(right),
            3 => left.at_most(right),
            4 => left.greater_than(right),
            _ => left.at_least(right),
        };
        model.require(constraint).expect("posted");
        let value = |eval: &[(usize, i64)], c: i64, t: &[i64]| -> i64 {
            eval.iter().map(|&(i, k)| k * t[i]).sum::<i64>() + c
        };
        let mut expected = 0;
        for a in -2..=2i64 {
            for b in -2..=2i64 {
                for c in -2..=2i64 {
                    let t = [a, b, c];
                    let (l, r) = (
                        value(&left_eval, left_c, &t),
                        value(&right_eval, right_c, &t),
                    );
                    let holds = match which {
                        0 => l == r,
                        1 => l != r,
                        2 => l < r,
                        3 => l <= r,
                        4 => l > r,
                        _ => l >= r,
                    };
                    expected += u64::from(holds);
                }
            }
        }
        assert_eq!(
            Solver::new(&model).count(None).count,
            expected,
            "round {round}"
        );
    }
}

#[test]
fn huge_coefficients_are_refused_not_wrapped() {
    let mut model = Model::new();
    let x = model.new_var(0..=1).expect("var");
    assert_eq!(
        model.require((x * i64::MAX).at_most(1)),
        Err(bitcsp::ModelError::CoefficientOutOfRange)
    );
    assert_eq!(
        model.require(x.at_most(LinearExpr::from(i64::MAX))),
        Err(bitcsp::ModelError::CoefficientOutOfRange)
    );
}
