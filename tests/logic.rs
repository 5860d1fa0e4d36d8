//! Booleans, clauses, reification, counting and tables on whole models: the job shop
//! ft06 (optimum 55), random 3-SAT against exhaustive enumeration, the nurse roster and
//! configuration examples checked against their rules, and the typed errors.

use bitcsp::{Literal, Model, ModelError, Optimum, SolveResult, Solver};

mod common;
use common::Random;

#[path = "../examples/jobshop.rs"]
#[allow(dead_code)]
mod jobshop;

#[path = "../examples/nurses.rs"]
#[allow(dead_code)]
mod nurses;

#[path = "../examples/configuration.rs"]
#[allow(dead_code)]
mod configuration;

#[test]
fn ft06_is_proved_optimal_at_55_with_a_valid_schedule() {
    let instance = jobshop::parse(include_str!("../examples/data/ft06.txt")).expect("ft06");
    let (model, starts, makespan) = jobshop::model(&instance).expect("model");
    let Optimum::Optimal {
        solution,
        objective,
    } = Solver::new(&model).optimize()
    else {
        panic!("not proved optimal");
    };
    assert_eq!(objective, 55);
    assert_eq!(solution.value(makespan), 55);
    let mut by_machine: Vec<Vec<(i32, i32)>> = vec![Vec::new(); instance.machines];
    for (job, s) in instance.jobs.iter().zip(&starts) {
        let mut free = 0;
        for (&(m, d), &v) in job.iter().zip(s) {
            let start = solution.value(v);
            assert!(
                start >= free,
                "an operation starts before its predecessor ends"
            );
            free = start + d;
            by_machine[m].push((start, start + d));
        }
        assert!(free <= 55);
    }
    for ops in &mut by_machine {
        ops.sort_unstable();
        assert!(
            ops.windows(2).all(|w| w[0].1 <= w[1].0),
            "a machine runs two at once"
        );
    }
}

/// A random 3-SAT formula over `n` variables: clauses of three distinct variables.
fn formula(n: usize, m: usize, random: &mut Random) -> Vec<Vec<(usize, bool)>> {
    (0..m)
        .map(|_| {
            let mut vars: Vec<usize> = Vec::new();
            while vars.len() < 3 {
                let v = random.below(n as u64) as usize;
                if !vars.contains(&v) {
                    vars.push(v);
                }
            }
            vars.into_iter()
                .map(|v| (v, random.below(2) == 0))
                .collect()
        })
        .collect()
}

fn satisfies(clauses: &[Vec<(usize, bool)>], a: &[i32]) -> bool {
    clauses
        .iter()
        .all(|c| c.iter().any(|&(v, p)| (a[v] == 1) == p))
}

#[test]
fn random_3_sat_counts_equal_exhaustive_enumeration() {
    let mut random = Random::seeded(0x5A7);
    let n = 12;
    for round in 0..40 {
        let m = 30 + round; // from loose to near the threshold (4.26 n)
        let clauses = formula(n, m, &mut random);
        let mut model = Model::new();
        let x = model.new_bools(n).unwrap();
        for c in &clauses {
            let lits: Vec<Literal> = c
                .iter()
                .map(|&(v, p)| {
                    if p {
                        Literal::yes(x[v])
                    } else {
                        Literal::not(x[v])
                    }
                })
                .collect();
            model.clause(&lits).unwrap();
        }
        let expected = (0..1u32 << n)
            .filter(|bits| {
                let a: Vec<i32> = (0..n).map(|i| (bits >> i & 1) as i32).collect();
                satisfies(&clauses, &a)
            })
            .count() as u64;
        assert_eq!(
            Solver::new(&model).count(None).count,
            expected,
            "round {round}"
        );
        match Solver::new(&model).solve() {
            SolveResult::Solution(s) => {
                let a: Vec<i32> = x.iter().map(|&v| s.value(v)).collect();
                assert!(satisfies(&clauses, &a));
            }
            SolveResult::Unsatisfiable => assert_eq!(expected, 0),
            SolveResult::Stopped(r) => panic!("{r:?}"),
        }
    }
}

/// A chain of 100,000 implications: fixing the first literal propagates to the end.
#[test]
fn a_long_implication_chain_propagates_in_one_node() {
    let mut model = Model::new();
    let x = model.new_bools(100_001).unwrap();
    for pair in x.windows(2) {
        model.implies(pair[0].into(), pair[1].into()).unwrap();
    }
    model.clause(&[x[0].into()]).unwrap();
    let mut solver = Solver::new(&model);
    let SolveResult::Solution(s) = solver.solve() else {
        panic!("unsatisfiable");
    };
    assert!(x.iter().all(|&v| s.value(v) == 1));
    assert_eq!(solver.stats().nodes, 0);
}

#[test]
fn the_nurse_roster_keeps_every_rule() {
    let (model, shift) = nurses::model(5, 7).unwrap();
    let SolveResult::Solution(s) = Solver::new(&model).solve() else {
        panic!("no roster");
    };
    let value = |n: usize, d: usize| s.value(shift[n][d]);
    for d in 0..7 {
        let on = |k: i32| (0..5).filter(|&n| value(n, d) == k).count();
        assert_eq!((on(nurses::DAY), on(nurses::NIGHT)), (2, 1));
    }
    for n in 0..5 {
        let worked = (0..7).filter(|&d| value(n, d) != nurses::OFF).count();
        assert!((4..=5).contains(&worked));
        assert!((0..6).all(|d| !(value(n, d) == nurses::NIGHT && value(n, d + 1) == nurses::DAY)));
    }
}

#[test]
fn the_cheapest_configuration_equals_enumeration() {
    for (min_speed, max_watts) in [(80, 90), (40, 100), (60, 120), (85, 200), (90, 500)] {
        let (model, _, _) = configuration::model(min_speed, max_watts).unwrap();
        let mut best = None;
        for (c, cpu) in configuration::CPUS.iter().enumerate() {
            for (b, board) in configuration::BOARDS.iter().enumerate() {
                for (m, memory) in configuration::MEMORY.iter().enumerate() {
                    let fits = configuration::CPU_BOARD.contains(&[c as i32, b as i32])
                        && configuration::BOARD_MEMORY.contains(&[b as i32, m as i32])
                        && cpu.speed >= min_speed
                        && cpu.watts + board.watts + memory.watts <= max_watts;
                    if fits {
                        let price = i64::from(cpu.price + board.price + memory.price);
                        best = Some(best.map_or(price, |p: i64| p.min(price)));
                    }
                }
            }
        }
        match (Solver::new(&model).optimize(), best) {
            (Optimum::Optimal { objective, .. }, Some(p)) => assert_eq!(objective, p),
            (Optimum::Infeasible, None) => {}
            (other, best) => panic!("{other:?} against {best:?}"),
        }
    }
}

#[test]
fn bad_models_get_typed_errors_and_empty_constraints_are_unsatisfiable() {
    let mut m = Model::new();
    let x = m.new_var(0..=2).unwrap();
    let b = m.new_bool().unwrap();
    assert_eq!(
        m.clause(&[Literal::yes(x), b.into()]),
        Err(ModelError::NotBoolean { var: x })
    );
    assert!(matches!(
        m.table(&[x, b], &[vec![0, 1], vec![1]]),
        Err(ModelError::TupleArity {
            tuple: 1,
            expected: 2,
            found: 1
        })
    ));
    assert!(matches!(
        m.global_cardinality_bounds(&[x], &[1], &[-1], &[1]),
        Err(ModelError::CardinalityOutOfRange { .. })
    ));
    // A tautology and a repeated tuple are accepted and change nothing.
    m.clause(&[b.into(), Literal::not(b)]).unwrap();
    m.table(&[x, b], &[vec![0, 1], vec![0, 1], vec![2, 0]])
        .unwrap();
    assert_eq!(Solver::new(&m).count(None).count, 2);
    let mut empty_clause = m.clone();
    empty_clause.clause(&[]).unwrap();
    assert_eq!(Solver::new(&empty_clause).count(None).count, 0);
    let mut empty_table = m.clone();
    empty_table.table(&[x], &[]).unwrap();
    assert_eq!(Solver::new(&empty_table).count(None).count, 0);
}
