//! One harness for every propagator, built in or written by a user through the public
//! `Propagator` trait: on small random domains, the solutions the solver finds are exactly
//! those of brute force (nothing lost, nothing that breaks the constraint), the root's
//! propagation removes no value of a solution, and a propagator that claims bounds or
//! domain consistency leaves only values with supports. The same checks run again at
//! every step of random dives below the root (fixes pushed and popped level by level), where
//! propagators run incrementally from the state they keep, and a propagation that fixes
//! every variable must have found a solution. Propagators that claim only soundness but
//! document rules of their own (clauses, global cardinality, cumulative) are held to those
//! rules after every propagation of such dives.

use bitcsp::{
    Compare, Consistency, Literal, Model, ModelError, Relation, Solver, Strength, TupleSet, VarId,
};

#[path = "../examples/custom_propagator.rs"]
#[allow(dead_code)]
mod example;

mod common;
use common::Random;

/// The predicate a posted constraint stands for.
type Holds = Box<dyn Fn(&[i32]) -> bool>;

/// Posts a constraint on the variables (its parameters drawn at random) and returns its
/// predicate.
type Post = Box<dyn Fn(&mut Model, &[VarId], &mut Random) -> Result<Holds, ModelError>>;

/// A constraint under test: how to post it on `n` variables and the strength it claims.
/// Linear constraints claim bounds consistency on the real relaxation (`bounds(R)`, as
/// Gecode and the literature define it for linear sums), which the harness checks through
/// `relaxed`, a test of whether a bound can be completed with reals in the other
/// variables' intervals.
struct Case {
    name: &'static str,
    arity: std::ops::RangeInclusive<usize>,
    post: Post,
    strength: Strength,
}

/// Every assignment of `domains` that `holds`.
fn brute_force(domains: &[Vec<i32>], holds: &dyn Fn(&[i32]) -> bool) -> Vec<Vec<i32>> {
    let mut out = Vec::new();
    let mut tuple = vec![0; domains.len()];
    fn extend(
        i: usize,
        domains: &[Vec<i32>],
        tuple: &mut Vec<i32>,
        holds: &dyn Fn(&[i32]) -> bool,
        out: &mut Vec<Vec<i32>>,
    ) {
        if i == domains.len() {
            if holds(tuple) {
                out.push(tuple.clone());
            }
            return;
        }
        for &v in &domains[i] {
            tuple[i] = v;
            extend(i + 1, domains, tuple, holds, out);
        }
    }
    extend(0, domains, &mut tuple, holds, &mut out);
    out
}

/// The most assignments of the boxes around the narrowed domains that a bounds check
/// enumerates.
const MAX_BOX_TUPLES: usize = 1 << 20;

fn check(case: &Case, cases: usize, seed: u64) {
    check_over(case, cases, seed, &[-2, -1, 0, 1, 2, 3], case.strength);
}

/// [`check`] with domains drawn from subsets of `values`, holding the propagator to
/// `claim`.
fn check_over(case: &Case, cases: usize, seed: u64, values: &[i32], claim: Strength) {
    let mut random = Random::seeded(seed);
    for round in 0..cases {
        let n = *case.arity.start()
            + random.below((case.arity.end() - case.arity.start() + 1) as u64) as usize;
        let domains: Vec<Vec<i32>> = (0..n).map(|_| random_subset(values, &mut random)).collect();
        let mut model = Model::new();
        let vars = vars_over(&mut model, &domains);
        let drawn = random.0;
        let holds = (case.post)(&mut model, &vars, &mut random).expect("posted");
        let label = format!("{} round {round}: domains {domains:?}", case.name);
        let mut expected = brute_force(&domains, &*holds);
        expected.sort();
        assert_eq!(
            sorted_solutions(&model, &vars),
            expected,
            "{label}: solutions differ from brute force"
        );
        // The same constraint over wide domains of the same values (kept as intervals).
        let mut wide = Model::new();
        let wide_vars: Vec<VarId> = domains.iter().map(|d| wide_var(&mut wide, d)).collect();
        let _same_predicate =
            (case.post)(&mut wide, &wide_vars, &mut Random(drawn)).expect("posted");
        assert_eq!(
            sorted_solutions(&wide, &wide_vars),
            expected,
            "{label}: solutions over wide domains differ from brute force"
        );
        hold_to_claim(&label, &model, &vars, &expected, &*holds, claim);
        dive(&label, &model, &vars, &expected, &*holds, claim, drawn);
        // Over wide domains (kept as intervals) the all-different groups claim bounds
        // consistency, whatever they were asked for beyond the fast rules: no matching
        // of values as bits there. The other propagators claim soundness only.
        let wide_claim = if case.name.starts_with("all_different") && claim != Strength::Sound {
            Strength::Bounds
        } else {
            Strength::Sound
        };
        let wide_label = format!("{label} (wide)");
        hold_to_claim(
            &wide_label,
            &wide,
            &wide_vars,
            &expected,
            &*holds,
            wide_claim,
        );
        dive(
            &wide_label,
            &wide,
            &wide_vars,
            &expected,
            &*holds,
            wide_claim,
            drawn,
        );
    }
}

/// Random dives below the root, where the propagators run as a search runs them: on the
/// changes a fix makes, from state they keep between runs, undone level by level. After
/// every step the domains are held to `claim` against the solutions that agree with the
/// fixes in place.
fn dive(
    label: &str,
    model: &Model,
    vars: &[VarId],
    expected: &[Vec<i32>],
    holds: &dyn Fn(&[i32]) -> bool,
    claim: Strength,
    seed: u64,
) {
    dive_steps(model, vars, seed, |fixes, left| {
        let agreeing: Vec<Vec<i32>> = expected
            .iter()
            .filter(|t| fixes.iter().all(|&(i, v)| t[i] == v))
            .cloned()
            .collect();
        let at = format!("{label}, fixes {fixes:?}");
        match left {
            None => assert!(
                agreeing.is_empty(),
                "{at}: propagation failed with solutions left"
            ),
            Some(left) => check_left(&at, left, &agreeing, holds, claim),
        }
    });
}

/// The steps of a random dive: fixes pushed one level at a time (each a value left in its
/// variable's domain), levels popped at random and after a failure. After each step,
/// `step` sees the fixes in place and the domains (`None` when the propagation failed).
fn dive_steps(
    model: &Model,
    vars: &[VarId],
    seed: u64,
    mut step: impl FnMut(&[(usize, i32)], Option<&[Vec<i32>]>),
) {
    let mut random = Random::seeded(seed ^ 0xD1CE);
    let mut solver = Solver::new(model);
    // The fix each open level made.
    let mut fixes: Vec<(usize, i32)> = Vec::new();
    let mut failed = false;
    for _ in 0..4 * vars.len() {
        let left = domains_of(&solver, vars);
        let open: Vec<usize> = (0..vars.len()).filter(|&i| left[i].len() > 1).collect();
        let pop = failed || open.is_empty() || random.below(4) == 0;
        if pop && !fixes.is_empty() {
            for _ in 0..=random.below(fixes.len() as u64) {
                fixes.pop();
                assert!(solver.pop(), "a level to pop");
            }
            failed = false;
        } else if !open.is_empty() && !failed {
            let i = open[random.below(open.len() as u64) as usize];
            let value = left[i][random.below(left[i].len() as u64) as usize];
            fixes.push((i, value));
            failed = !solver.push(&[(vars[i], value)]).expect("known variable");
        } else {
            break;
        }
        if failed {
            step(&fixes, None);
        } else if !fixes.is_empty() {
            step(&fixes, Some(&domains_of(&solver, vars)));
        }
    }
}

/// Clauses promise more than soundness: unit propagation to its fixed point, after every
/// fix of a search. A clause with every literal false but one must have made that one true.
#[test]
fn clauses_propagate_every_unit_below_the_root() {
    let mut random = Random::seeded(0xC1A5);
    for round in 0..300 {
        let n = 3 + random.below(6) as usize;
        let mut model = Model::new();
        let vars = model.new_vars(n, 0..=1).expect("variables");
        let mut cnf: Vec<Vec<(usize, bool)>> = Vec::new();
        for _ in 0..n + random.below(2 * n as u64) as usize {
            let lits: Vec<(Literal, usize, bool)> = (0..2 + random.below(2))
                .map(|_| literal(&vars, &mut random, n))
                .collect();
            model
                .clause(&lits.iter().map(|l| l.0).collect::<Vec<_>>())
                .expect("clause");
            cnf.push(lits.iter().map(|&(_, i, p)| (i, p)).collect());
        }
        let satisfied = |t: &[i32]| {
            cnf.iter()
                .all(|clause| clause.iter().any(|&(i, p)| (t[i] == 1) == p))
        };
        let expected = brute_force(&vec![vec![0, 1]; n], &satisfied);
        dive_steps(&model, &vars, round, |fixes, left| {
            let at = format!("round {round}: clauses {cnf:?}, fixes {fixes:?}");
            let Some(left) = left else {
                assert!(
                    !expected
                        .iter()
                        .any(|t| fixes.iter().all(|&(i, v)| t[i] == v)),
                    "{at}: propagation failed with solutions left"
                );
                return;
            };
            let truth = |(i, p): (usize, bool)| match left[i].as_slice() {
                [v] => Some((*v == 1) == p),
                _ => None,
            };
            for clause in &cnf {
                let open = clause.iter().filter(|&&l| truth(l).is_none()).count();
                let true_lits = clause.iter().filter(|&&l| truth(l) == Some(true)).count();
                assert!(
                    true_lits > 0 || open > 1,
                    "{at}: clause {clause:?} left with {open} open literals and none true \
                     (domains {left:?})"
                );
            }
        });
    }
}

/// The root's propagation and then each step of random dives of `model` over `vars`:
/// `rules` must hold of the domains left whenever a propagation did not fail (a broken
/// rule is reported under `label`, with the domains).
fn at_every_fixed_point(
    label: &str,
    model: &Model,
    vars: &[VarId],
    seed: u64,
    rules: impl Fn(&[Vec<i32>]) -> Result<(), String>,
) {
    let mut root = Solver::new(model);
    if root.propagate().is_ok() {
        let left = domains_of(&root, vars);
        if let Err(broken) = rules(&left) {
            panic!("{label}, at the root: {broken} (domains {left:?})");
        }
    }
    dive_steps(model, vars, seed, |fixes, left| {
        if let Some(left) = left {
            if let Err(broken) = rules(left) {
                panic!("{label}, fixes {fixes:?}: {broken} (domains {left:?})");
            }
        }
    });
}

/// `global_cardinality` claims more than soundness: after every propagation, each count
/// lies between the variables fixed to its value and those still holding it; a count
/// that can only be the first leaves the value to the fixed ones alone, and one that can
/// only be the second fixes every holder to it. Counts are drawn apart from the
/// variables or among them (as in a magic sequence), and values may repeat.
#[test]
fn global_cardinality_keeps_its_counting_rules_below_the_root() {
    let mut random = Random::seeded(0x6CC);
    for round in 0..1500 {
        let n = 3 + random.below(4) as usize;
        let among = random.below(3) == 0;
        let values: Vec<i32> = (0..1 + random.below(3))
            .map(|_| random.below(4) as i32 - 1)
            .collect();
        let mut domains: Vec<Vec<i32>> = (0..n)
            .map(|_| random_subset(&[-1, 0, 1, 2], &mut random))
            .collect();
        let counts: Vec<usize> = if among {
            values
                .iter()
                .map(|_| random.below(n as u64) as usize)
                .collect()
        } else {
            let range: Vec<i32> = (0..=n as i32).collect();
            let first = domains.len();
            domains.extend(values.iter().map(|_| random_subset(&range, &mut random)));
            (first..domains.len()).collect()
        };
        let mut model = Model::new();
        let vars = vars_over(&mut model, &domains);
        let count_vars: Vec<VarId> = counts.iter().map(|&c| vars[c]).collect();
        model
            .global_cardinality(&vars[..n], &values, &count_vars)
            .expect("posted");
        let label =
            format!("round {round}: domains {domains:?}, values {values:?}, counts {counts:?}");
        at_every_fixed_point(&label, &model, &vars, round, |left| {
            for (&value, &c) in values.iter().zip(&counts) {
                let sure = left[..n].iter().filter(|d| d[..] == [value]).count() as i32;
                let possible = left[..n].iter().filter(|d| d.contains(&value)).count() as i32;
                let (low, high) = match (left[c].first(), left[c].last()) {
                    (Some(&low), Some(&high)) => (low, high),
                    _ => return Err(format!("count x{c} empty")),
                };
                let broken = if low < sure || high > possible {
                    "the count outside [fixed, holding]"
                } else if high == sure && possible > sure {
                    "the count at its fixed number, the value still held elsewhere"
                } else if low == possible && sure < possible {
                    "the count at its holding number, a holder not fixed to the value"
                } else {
                    continue;
                };
                return Err(format!(
                    "value {value}, {sure} fixed, {possible} holding, count x{c} \
                     in {low}..={high}: {broken}"
                ));
            }
            Ok(())
        });
    }
}

/// `cumulative` claims time-tabling: after every propagation, the tasks' compulsory parts
/// (from the latest start to the earliest end) stay within the capacity, and each task
/// fits on top of the others' parts both at its earliest and at its latest start.
#[test]
fn cumulative_keeps_time_tabling_below_the_root() {
    let mut random = Random::seeded(0xC0C0);
    for round in 0..1500 {
        let n = 2 + random.below(4) as usize;
        let durations: Vec<i32> = (0..n).map(|_| random.below(4) as i32).collect();
        let uses: Vec<i32> = (0..n).map(|_| random.below(3) as i32).collect();
        let capacity = 1 + random.below(3) as i32;
        let domains: Vec<Vec<i32>> = (0..n)
            .map(|_| random_subset(&[0, 1, 2, 3, 4, 5, 6], &mut random))
            .collect();
        let mut model = Model::new();
        let vars = vars_over(&mut model, &domains);
        model
            .cumulative(&vars, &durations, &uses, capacity)
            .expect("posted");
        let label = format!(
            "round {round}: starts {domains:?}, durations {durations:?}, uses {uses:?}, \
             capacity {capacity}"
        );
        at_every_fixed_point(&label, &model, &vars, round, |left| {
            let ends = |i: usize| (left[i][0], left[i][left[i].len() - 1]);
            // Task i's compulsory part: from its latest start to its earliest end.
            let part = |i: usize| {
                let (earliest, latest) = ends(i);
                latest..earliest + durations[i]
            };
            let used_by_others = |t: i32, skip: usize| -> i32 {
                (0..n)
                    .filter(|&j| j != skip && part(j).contains(&t))
                    .map(|j| uses[j])
                    .sum()
            };
            for t in 0..=12 {
                let used = used_by_others(t, usize::MAX);
                if used > capacity {
                    return Err(format!("parts use {used} at {t}"));
                }
            }
            for i in 0..n {
                let (earliest, latest) = ends(i);
                for start in [earliest, latest] {
                    let clash = (start..start + durations[i])
                        .find(|&t| used_by_others(t, i) + uses[i] > capacity);
                    if let Some(t) = clash {
                        return Err(format!("task {i} starting at {start} overloads time {t}"));
                    }
                }
            }
            Ok(())
        });
    }
}

/// `circuit` claims that no chain of fixed successors closes on itself before it holds
/// every node: after every propagation, the last node of a shorter chain has lost the
/// chain's first node as a successor.
#[test]
fn circuit_keeps_chains_open_below_the_root() {
    let mut random = Random::seeded(0xC1C);
    for round in 0..1500 {
        let n = 2 + random.below(5) as usize;
        let nodes: Vec<i32> = (0..n as i32).collect();
        let domains: Vec<Vec<i32>> = (0..n).map(|_| random_subset(&nodes, &mut random)).collect();
        let mut model = Model::new();
        let vars = vars_over(&mut model, &domains);
        model.circuit(&vars).expect("posted");
        let label = format!("round {round}: successors {domains:?}");
        at_every_fixed_point(&label, &model, &vars, round, |left| {
            let fixed = |i: usize| match left[i][..] {
                [s] => usize::try_from(s).ok(),
                _ => None,
            };
            // Each node's predecessor among the fixed successors, if any.
            let mut before = vec![None; n];
            for i in 0..n {
                if let Some(s) = fixed(i) {
                    if before[s].replace(i).is_some() {
                        return Err(format!("two nodes lead to {s}"));
                    }
                }
            }
            for last in (0..n).filter(|&i| fixed(i).is_none()) {
                let (mut first, mut len) = (last, 1);
                while let Some(p) = before[first] {
                    (first, len) = (p, len + 1);
                }
                if len < n && left[last].contains(&(first as i32)) {
                    return Err(format!(
                        "the chain from {first} to {last} holds {len} of {n} nodes and \
                         may close"
                    ));
                }
            }
            Ok(())
        });
    }
}

/// Forbidden tuples claim that once all but one variable are fixed, the values that
/// would complete a forbidden tuple have left the last one.
#[test]
fn forbidden_tuples_leave_the_last_variable_below_the_root() {
    let mut random = Random::seeded(0xF0B);
    for round in 0..1500 {
        let n = 2 + random.below(3) as usize;
        let values = [-1, 0, 1, 2];
        let domains: Vec<Vec<i32>> = (0..n)
            .map(|_| random_subset(&values, &mut random))
            .collect();
        let tuples: Vec<Vec<i32>> = (0..1 + random.below(12))
            .map(|_| (0..n).map(|_| values[random.below(4) as usize]).collect())
            .collect();
        let mut model = Model::new();
        let vars = vars_over(&mut model, &domains);
        model.forbidden(&vars, &tuples).expect("posted");
        let label = format!("round {round}: domains {domains:?}, forbidden {tuples:?}");
        at_every_fixed_point(&label, &model, &vars, round, |left| {
            let open: Vec<usize> = (0..n).filter(|&i| left[i].len() > 1).collect();
            let [last] = open[..] else {
                return Ok(());
            };
            let completing = tuples.iter().find(|t| {
                (0..n).all(|i| i == last || left[i][..] == [t[i]]) && left[last].contains(&t[last])
            });
            match completing {
                Some(t) => Err(format!("{:?} left in x{last} completes {t:?}", t[last])),
                None => Ok(()),
            }
        });
    }
}

/// Checks the root's propagation of `model` against the solutions `expected`: no value
/// of a solution removed, and the propagator's `claim` kept.
fn hold_to_claim(
    label: &str,
    model: &Model,
    vars: &[VarId],
    expected: &[Vec<i32>],
    holds: &dyn Fn(&[i32]) -> bool,
    claim: Strength,
) {
    let mut solver = Solver::new(model);
    if solver.propagate().is_err() {
        assert!(
            expected.is_empty(),
            "{label}: the root failed with solutions left"
        );
        return;
    }
    check_left(label, &domains_of(&solver, vars), expected, holds, claim);
}

/// The current domains of `vars` in `solver`.
fn domains_of(solver: &Solver, vars: &[VarId]) -> Vec<Vec<i32>> {
    vars.iter()
        .map(|&v| {
            solver
                .domain(v)
                .map(|d| d.iter().collect())
                .unwrap_or_default()
        })
        .collect()
}

/// Checks domains `left` after a propagation against the solutions `expected` that the
/// propagation had to keep: none of their values removed, and `claim` kept.
fn check_left(
    label: &str,
    left: &[Vec<i32>],
    expected: &[Vec<i32>],
    holds: &dyn Fn(&[i32]) -> bool,
    claim: Strength,
) {
    // Whatever the strength claimed, a propagation that fixes every variable without
    // failing has found a solution.
    if left.iter().all(|d| d.len() == 1) {
        let tuple: Vec<i32> = left.iter().map(|d| d[0]).collect();
        assert!(
            holds(&tuple),
            "{label}: every variable fixed to {tuple:?}, which is no solution"
        );
    }
    for t in expected {
        for (i, value) in t.iter().enumerate() {
            assert!(
                left[i].contains(value),
                "{label}: {value} of a solution removed from x{i}"
            );
        }
    }
    match claim {
        Strength::Domain => {
            for (i, values) in left.iter().enumerate() {
                for value in values {
                    assert!(
                        expected.iter().any(|t| t[i] == *value),
                        "{label}: {value} left in x{i} has no support (domains {left:?})"
                    );
                }
            }
        }
        Strength::Bounds => {
            let within = |t: &Vec<i32>, skip: usize| {
                t.iter().enumerate().all(|(j, v)| {
                    j == skip || (left[j].first() <= Some(v) && left[j].last() >= Some(v))
                })
            };
            // Supports over the other variables' intervals, holes included.
            let boxes: Vec<Vec<i32>> = left
                .iter()
                .map(|d| match (d.first(), d.last()) {
                    (Some(&lo), Some(&hi)) => (lo..=hi).collect(),
                    _ => Vec::new(),
                })
                .collect();
            // Values spread over several words can make the boxes too many to
            // enumerate: such a round is held to soundness only.
            let tuples = boxes.iter().try_fold(1usize, |n, b| n.checked_mul(b.len()));
            if tuples.is_none_or(|n| n > MAX_BOX_TUPLES) {
                return;
            }
            let relaxed = brute_force(&boxes, holds);
            for (i, values) in left.iter().enumerate() {
                for bound in [values.first(), values.last()].into_iter().flatten() {
                    assert!(
                        relaxed.iter().any(|t| t[i] == *bound && within(t, i)),
                        "{label}: bound {bound} of x{i} has no support (domains {left:?})"
                    );
                }
            }
        }
        _ => {}
    }
}

/// A subset of `values`, each kept with probability 0.6; one of them when none is.
fn random_subset(values: &[i32], random: &mut Random) -> Vec<i32> {
    let mut d: Vec<i32> = values
        .iter()
        .copied()
        .filter(|_| random.below(100) < 60)
        .collect();
    if d.is_empty() {
        d.push(values[random.below(values.len() as u64) as usize]);
    }
    d
}

/// A variable of `model` over each of `domains`.
fn vars_over(model: &mut Model, domains: &[Vec<i32>]) -> Vec<VarId> {
    domains
        .iter()
        .map(|d| model.new_var_from_values(d))
        .collect::<Result<_, _>>()
        .expect("variables")
}

/// Every solution of `model`, as the values of `vars`, sorted.
fn sorted_solutions(model: &Model, vars: &[VarId]) -> Vec<Vec<i32>> {
    let mut found: Vec<Vec<i32>> = Solver::new(model)
        .solutions()
        .map(|s| vars.iter().map(|&v| s.value(v)).collect())
        .collect();
    found.sort();
    found
}

/// A variable over `values` whose domain is wide: one far value makes it so, and removing
/// it keeps the shape.
fn wide_var(model: &mut Model, values: &[i32]) -> VarId {
    const FAR: i32 = 1 << 30;
    let mut wide = values.to_vec();
    wide.push(FAR);
    let var = model.new_var_from_values(&wide).expect("wide variable");
    model.remove_value(var, FAR).expect("far value removed");
    var
}

/// `x < y` on bounds, which is bounds(Z) consistent.
#[derive(Debug)]
struct Less([VarId; 2]);

impl bitcsp::Propagator for Less {
    fn name(&self) -> &str {
        "less"
    }
    fn vars(&self) -> &[VarId] {
        &self.0
    }
    fn consistency(&self) -> Strength {
        Strength::Bounds
    }
    fn propagate(&self, d: &mut bitcsp::Domains<'_>) -> Result<(), bitcsp::Conflict> {
        let [x, y] = self.0;
        d.set_max(x, d.max(y) - 1)?;
        d.set_min(y, d.min(x) + 1)
    }
}

/// `z = f(x, y)` on three variables, `f` undefined where it returns `None`.
fn binary(
    name: &'static str,
    post: fn(&mut Model, VarId, VarId, VarId) -> Result<(), ModelError>,
    f: fn(i32, i32) -> Option<i32>,
) -> Case {
    Case {
        name,
        arity: 3..=3,
        post: Box::new(move |m, v, _| {
            post(m, v[0], v[1], v[2])?;
            Ok(Box::new(move |t: &[i32]| f(t[0], t[1]) == Some(t[2])))
        }),
        strength: Strength::Domain,
    }
}

fn cases() -> Vec<Case> {
    vec![
        Case {
            name: "not_equal",
            arity: 2..=2,
            post: Box::new(|m, v, r| {
                let offset = r.below(5) as i32 - 2;
                m.not_equal_offset(v[0], v[1], offset)?;
                Ok(Box::new(move |t: &[i32]| t[0] != t[1] + offset))
            }),
            strength: Strength::Domain,
        },
        Case {
            name: "all_different (domain)",
            arity: 2..=5,
            post: Box::new(|m, v, _| {
                m.all_different_with(v, Consistency::Domain)?;
                Ok(Box::new(|t: &[i32]| {
                    t.iter()
                        .enumerate()
                        .all(|(i, a)| t[i + 1..].iter().all(|b| a != b))
                }))
            }),
            strength: Strength::Domain,
        },
        Case {
            name: "all_different (bounds)",
            arity: 2..=5,
            post: Box::new(|m, v, _| {
                m.all_different_with(v, Consistency::Bounds)?;
                Ok(Box::new(|t: &[i32]| {
                    t.iter()
                        .enumerate()
                        .all(|(i, a)| t[i + 1..].iter().all(|b| a != b))
                }))
            }),
            strength: Strength::Bounds,
        },
        Case {
            name: "all_different with offsets (bounds)",
            arity: 2..=5,
            post: Box::new(|m, v, r| {
                let offsets: Vec<i32> = v.iter().map(|_| r.below(5) as i32 - 2).collect();
                m.all_different_offset_with(v, &offsets, Consistency::Bounds)?;
                Ok(Box::new(move |t: &[i32]| {
                    let s: Vec<i32> = t.iter().zip(&offsets).map(|(a, o)| a + o).collect();
                    s.iter()
                        .enumerate()
                        .all(|(i, a)| s[i + 1..].iter().all(|b| a != b))
                }))
            }),
            strength: Strength::Bounds,
        },
        Case {
            name: "all_different with offsets (fast)",
            arity: 2..=5,
            post: Box::new(|m, v, r| {
                let offsets: Vec<i32> = v.iter().map(|_| r.below(5) as i32 - 2).collect();
                m.all_different_offset(v, &offsets)?;
                Ok(Box::new(move |t: &[i32]| {
                    let s: Vec<i32> = t.iter().zip(&offsets).map(|(a, o)| a + o).collect();
                    s.iter()
                        .enumerate()
                        .all(|(i, a)| s[i + 1..].iter().all(|b| a != b))
                }))
            }),
            strength: Strength::Sound,
        },
        Case {
            name: "weighted_sum (a variable listed twice)",
            arity: 1..=3,
            post: Box::new(|m, v, r| {
                // The first variable again at the end, with a coefficient of its own that
                // may cancel the first one's.
                let listed: Vec<VarId> = v.iter().copied().chain([v[0]]).collect();
                let coeffs: Vec<i32> = listed.iter().map(|_| r.below(7) as i32 - 3).collect();
                let relation =
                    [Relation::Equal, Relation::AtMost, Relation::AtLeast][r.below(3) as usize];
                let rhs = r.below(9) as i64 - 4;
                m.weighted_sum(&listed, &coeffs, relation, rhs)?;
                Ok(Box::new(move |t: &[i32]| {
                    let again = i64::from(t[0] * coeffs[coeffs.len() - 1]);
                    let sum: i64 = again
                        + t.iter()
                            .zip(&coeffs)
                            .map(|(&a, &c)| i64::from(a * c))
                            .sum::<i64>();
                    match relation {
                        Relation::Equal => sum == rhs,
                        Relation::AtMost => sum <= rhs,
                        Relation::AtLeast => sum >= rhs,
                    }
                }))
            }),
            strength: Strength::Sound,
        },
        Case {
            name: "weighted_sum",
            arity: 1..=4,
            post: Box::new(|m, v, r| {
                let coeffs: Vec<i32> = v.iter().map(|_| r.below(7) as i32 - 3).collect();
                let relation =
                    [Relation::Equal, Relation::AtMost, Relation::AtLeast][r.below(3) as usize];
                let rhs = r.below(9) as i64 - 4;
                m.weighted_sum(v, &coeffs, relation, rhs)?;
                Ok(Box::new(move |t: &[i32]| {
                    let sum: i64 = t.iter().zip(&coeffs).map(|(&a, &c)| i64::from(a * c)).sum();
                    match relation {
                        Relation::Equal => sum == rhs,
                        Relation::AtMost => sum <= rhs,
                        Relation::AtLeast => sum >= rhs,
                    }
                }))
            }),
            // Bounds(R) only: checked by `linear_bounds_are_supported_over_the_reals`.
            strength: Strength::Sound,
        },
        Case {
            name: "less (user, bounds)",
            arity: 2..=2,
            post: Box::new(|m, v, _| {
                m.post(Less([v[0], v[1]]))?;
                Ok(Box::new(|t: &[i32]| t[0] < t[1]))
            }),
            strength: Strength::Bounds,
        },
        binary(
            "times",
            |m, x, y, z| m.times(x, y, z),
            |a, b| a.checked_mul(b),
        ),
        binary("div", |m, x, y, z| m.div(x, y, z), |a, b| a.checked_div(b)),
        binary(
            "mod",
            |m, x, y, z| m.modulo(x, y, z),
            |a, b| a.checked_rem(b),
        ),
        binary(
            "pow",
            |m, x, y, z| m.pow(x, y, z),
            |a, b| match (a, u32::try_from(b)) {
                (_, Ok(b)) => a.checked_pow(b),
                // A negative exponent: 1 / a^|b| truncated, as MiniZinc defines it.
                (0, Err(_)) => None,
                (1, Err(_)) => Some(1),
                (-1, Err(_)) => Some(if b % 2 == 0 { 1 } else { -1 }),
                (_, Err(_)) => Some(0),
            },
        ),
        Case {
            name: "times (square)",
            arity: 2..=2,
            post: Box::new(|m, v, _| {
                m.times(v[0], v[0], v[1])?;
                Ok(Box::new(|t: &[i32]| t[0] * t[0] == t[1]))
            }),
            strength: Strength::Domain,
        },
        Case {
            name: "abs",
            arity: 2..=2,
            post: Box::new(|m, v, _| {
                m.abs(v[0], v[1])?;
                Ok(Box::new(|t: &[i32]| t[0].abs() == t[1]))
            }),
            strength: Strength::Domain,
        },
        Case {
            name: "min",
            arity: 2..=5,
            post: Box::new(|m, v, _| {
                let (xs, y) = v.split_at(v.len() - 1);
                m.min(xs, y[0])?;
                Ok(Box::new(|t: &[i32]| {
                    t[..t.len() - 1].iter().min() == t.last()
                }))
            }),
            strength: Strength::Bounds,
        },
        Case {
            name: "max",
            arity: 2..=5,
            post: Box::new(|m, v, _| {
                let (xs, y) = v.split_at(v.len() - 1);
                m.max(xs, y[0])?;
                Ok(Box::new(|t: &[i32]| {
                    t[..t.len() - 1].iter().max() == t.last()
                }))
            }),
            strength: Strength::Bounds,
        },
        Case {
            name: "element",
            arity: 2..=2,
            post: Box::new(|m, v, r| {
                let table: Vec<i32> = (0..1 + r.below(5)).map(|_| r.below(6) as i32 - 2).collect();
                m.element(&table, v[0], v[1])?;
                Ok(Box::new(move |t: &[i32]| {
                    usize::try_from(t[0]).ok().and_then(|i| table.get(i)) == Some(&t[1])
                }))
            }),
            strength: Strength::Domain,
        },
        Case {
            name: "linear_not_equal",
            arity: 1..=4,
            post: Box::new(|m, v, r| {
                let coeffs: Vec<i32> = v.iter().map(|_| r.below(7) as i32 - 3).collect();
                let rhs = r.below(9) as i64 - 4;
                m.linear_not_equal(v, &coeffs, rhs)?;
                Ok(Box::new(move |t: &[i32]| {
                    t.iter()
                        .zip(&coeffs)
                        .map(|(&a, &c)| i64::from(a * c))
                        .sum::<i64>()
                        != rhs
                }))
            }),
            strength: Strength::Domain,
        },
        Case {
            name: "lex_less (user)",
            arity: 2..=6,
            post: Box::new(|m, v, _| {
                let half = v.len() / 2;
                m.post(example::LexLess::new(&v[..half], &v[half..2 * half]))?;
                Ok(Box::new(move |t: &[i32]| t[..half] < t[half..2 * half]))
            }),
            strength: Strength::Sound,
        },
        Case {
            name: "at_most_distinct (user)",
            arity: 1..=5,
            post: Box::new(|m, v, r| {
                let k = r.below(3) as usize + 1;
                m.post(example::AtMostDistinct::new(v, k))?;
                Ok(Box::new(move |t: &[i32]| {
                    let mut d = t.to_vec();
                    d.sort_unstable();
                    d.dedup();
                    d.len() <= k
                }))
            }),
            strength: Strength::Sound,
        },
    ]
}

/// A random literal over one of the first `n` variables.
fn literal(v: &[VarId], r: &mut Random, n: usize) -> (Literal, usize, bool) {
    let i = r.below(n as u64) as usize;
    let positive = r.below(2) == 0;
    let lit = if positive {
        Literal::yes(v[i])
    } else {
        Literal::not(v[i])
    };
    (lit, i, positive)
}

/// Constraints over 0/1 variables: clauses and the connectives built from them.
fn boolean_cases() -> Vec<Case> {
    vec![
        Case {
            name: "clause",
            arity: 1..=6,
            post: Box::new(|m, v, r| {
                let k = 1 + r.below(v.len() as u64 + 1) as usize;
                let lits: Vec<(Literal, usize, bool)> =
                    (0..k).map(|_| literal(v, r, v.len())).collect();
                let list: Vec<Literal> = lits.iter().map(|l| l.0).collect();
                m.clause(&list)?;
                Ok(Box::new(move |t: &[i32]| {
                    lits.iter().any(|&(_, i, p)| (t[i] == 1) == p)
                }))
            }),
            strength: Strength::Sound,
        },
        Case {
            // Several clauses over the same variables, propagated together: a clause made
            // unit by another's propagation must be seen.
            name: "clauses",
            arity: 2..=6,
            post: Box::new(|m, v, r| {
                let mut cnf: Vec<Vec<(usize, bool)>> = Vec::new();
                for _ in 0..2 + r.below(5) {
                    let lits: Vec<(Literal, usize, bool)> = (0..1 + r.below(3))
                        .map(|_| literal(v, r, v.len()))
                        .collect();
                    let list: Vec<Literal> = lits.iter().map(|l| l.0).collect();
                    m.clause(&list)?;
                    cnf.push(lits.iter().map(|&(_, i, p)| (i, p)).collect());
                }
                Ok(Box::new(move |t: &[i32]| {
                    cnf.iter()
                        .all(|clause| clause.iter().any(|&(i, p)| (t[i] == 1) == p))
                }))
            }),
            strength: Strength::Sound,
        },
        Case {
            name: "and / or / xor",
            arity: 3..=5,
            post: Box::new(|m, v, r| {
                let n = v.len() - 1;
                let lits: Vec<(Literal, usize, bool)> = (0..n).map(|_| literal(v, r, n)).collect();
                let list: Vec<Literal> = lits.iter().map(|l| l.0).collect();
                let out = v[n];
                let kind = r.below(3);
                match kind {
                    0 => m.and(&list, out.into())?,
                    1 => m.or(&list, out.into())?,
                    _ => m.xor(list[0], list[1], out.into())?,
                }
                Ok(Box::new(move |t: &[i32]| {
                    let truth: Vec<bool> = lits.iter().map(|&(_, i, p)| (t[i] == 1) == p).collect();
                    let expected = match kind {
                        0 => truth.iter().all(|&b| b),
                        1 => truth.iter().any(|&b| b),
                        _ => truth[0] != truth[1],
                    };
                    (t[n] == 1) == expected
                }))
            }),
            strength: Strength::Sound,
        },
    ]
}

/// A comparison of one of eight shapes over `x` (and `y`, and `z`), and its predicate.
fn comparison(v: &[VarId], r: &mut Random) -> (bitcsp::LinearConstraint, Holds) {
    let c = r.below(5) as i32 - 2;
    let (x, y, z) = (v[1], v[2], v[3]);
    match r.below(8) {
        // Scheduling's ordering of two tasks: x + d ≤ y, and x + d < y.
        6 => (
            (x + c).at_most(y),
            Box::new(move |t: &[i32]| t[1] + c <= t[2]),
        ),
        7 => (
            (x + c).less_than(y),
            Box::new(move |t: &[i32]| t[1] + c < t[2]),
        ),
        0 => (x.equals(c), Box::new(move |t: &[i32]| t[1] == c)),
        1 => (x.at_most(c), Box::new(move |t: &[i32]| t[1] <= c)),
        2 => (x.equals(y + c), Box::new(move |t: &[i32]| t[1] == t[2] + c)),
        3 => (
            (2 * x - y + z).at_least(c),
            Box::new(move |t: &[i32]| 2 * t[1] - t[2] + t[3] >= c),
        ),
        4 => (
            (x + y - z).not_equal(c),
            Box::new(move |t: &[i32]| t[1] + t[2] - t[3] != c),
        ),
        _ => (
            (x - 2 * z).equals(c),
            Box::new(move |t: &[i32]| t[1] - 2 * t[3] == c),
        ),
    }
}

/// Reification, counting, element over variables and tables, over small integer domains
/// (the reified literal is variable 0, kept to 0/1 by the harness's domains).
fn integer_cases() -> Vec<Case> {
    vec![
        Case {
            name: "reify (full and half, either sign)",
            arity: 4..=4,
            post: Box::new(|m, v, r| {
                for value in [-2, -1, 2, 3] {
                    m.remove_value(v[0], value)?;
                }
                let (c, holds) = comparison(v, r);
                let positive = r.below(2) == 0;
                let b = if positive {
                    Literal::yes(v[0])
                } else {
                    Literal::not(v[0])
                };
                let half = r.below(2) == 0;
                if half {
                    m.implies_constraint(b, c)?;
                } else {
                    m.reify(b, c)?;
                }
                Ok(Box::new(move |t: &[i32]| {
                    let lit = (t[0] == 1) == positive;
                    (0..=1).contains(&t[0])
                        && if half {
                            !lit || holds(t)
                        } else {
                            lit == holds(t)
                        }
                }))
            }),
            strength: Strength::Sound,
        },
        Case {
            // Several `b ⇔ x = v` on one x (compiled together), one indicator used twice,
            // full and half, either sign.
            name: "reified values of one variable",
            arity: 4..=5,
            post: Box::new(|m, v, r| {
                let x = v[v.len() - 1];
                let bools = &v[..v.len() - 1];
                for &b in bools {
                    for value in [-2, -1, 2, 3] {
                        m.remove_value(b, value)?;
                    }
                }
                let mut links = Vec::new();
                for k in 0..bools.len() + 1 {
                    // The last link reuses an indicator.
                    let b = bools[k % bools.len()];
                    let value = r.below(6) as i32 - 2;
                    let positive = r.below(3) != 0;
                    let half = r.below(3) == 0;
                    let lit = if positive {
                        Literal::yes(b)
                    } else {
                        Literal::not(b)
                    };
                    if half {
                        m.implies_constraint(lit, x.equals(value))?;
                    } else {
                        m.reify(lit, x.equals(value))?;
                    }
                    links.push((k % bools.len(), value, positive, half));
                }
                Ok(Box::new(move |t: &[i32]| {
                    let x = t[t.len() - 1];
                    links.iter().all(|&(k, value, positive, half)| {
                        let lit = (t[k] == 1) == positive;
                        (0..=1).contains(&t[k])
                            && if half {
                                !lit || x == value
                            } else {
                                lit == (x == value)
                            }
                    })
                }))
            }),
            strength: Strength::Sound,
        },
        Case {
            name: "count / among",
            arity: 2..=5,
            post: Box::new(|m, v, r| {
                let n = v.len() - 1;
                let set: Vec<i32> = (-2..=3).filter(|_| r.below(3) == 0).collect();
                m.among(&v[..n], &set, v[n])?;
                Ok(Box::new(move |t: &[i32]| {
                    t[..n].iter().filter(|x| set.contains(x)).count() as i32 == t[n]
                }))
            }),
            strength: Strength::Domain,
        },
        Case {
            name: "global_cardinality",
            arity: 4..=5,
            post: Box::new(|m, v, r| {
                let n = v.len() - 2;
                let values = [r.below(3) as i32 - 1, 2];
                m.global_cardinality(&v[..n], &values, &v[n..])?;
                Ok(Box::new(move |t: &[i32]| {
                    values.iter().enumerate().all(|(k, value)| {
                        t[..n].iter().filter(|x| *x == value).count() as i32 == t[n + k]
                    })
                }))
            }),
            strength: Strength::Sound,
        },
        Case {
            // Counts that are themselves counted, as in a magic sequence.
            name: "global_cardinality, counts among the variables",
            arity: 3..=5,
            post: Box::new(|m, v, r| {
                let values = [r.below(3) as i32 - 1, r.below(3) as i32 + 1];
                let counts = [v[0], v[v.len() - 1]];
                m.global_cardinality(v, &values, &counts)?;
                Ok(Box::new(move |t: &[i32]| {
                    let last = t.len() - 1;
                    let count = |value: i32| t.iter().filter(|&&x| x == value).count() as i32;
                    count(values[0]) == t[0] && count(values[1]) == t[last]
                }))
            }),
            strength: Strength::Sound,
        },
        Case {
            name: "cumulative",
            arity: 2..=4,
            post: Box::new(|m, v, r| {
                let durations: Vec<i32> = v.iter().map(|_| r.below(4) as i32).collect();
                let uses: Vec<i32> = v.iter().map(|_| r.below(3) as i32).collect();
                let capacity = r.below(4) as i32;
                m.cumulative(v, &durations, &uses, capacity)?;
                Ok(Box::new(move |t: &[i32]| {
                    (-10..10).all(|time| {
                        let used: i32 = t
                            .iter()
                            .zip(&durations)
                            .zip(&uses)
                            .filter(|((&s, &d), _)| s <= time && time < s + d)
                            .map(|(_, &u)| u)
                            .sum();
                        used <= capacity
                    })
                }))
            }),
            strength: Strength::Sound,
        },
        Case {
            name: "equality with an offset",
            arity: 2..=2,
            post: Box::new(|m, v, r| {
                let offset = i64::from(r.below(5) as i32 - 2);
                m.equal_offset(v[0], v[1], offset)?;
                Ok(Box::new(move |t: &[i32]| {
                    i64::from(t[0]) == i64::from(t[1]) + offset
                }))
            }),
            strength: Strength::Domain,
        },
        Case {
            name: "element over variables",
            arity: 3..=6,
            post: Box::new(|m, v, _| {
                let n = v.len() - 2;
                m.element_var(&v[..n], v[n], v[n + 1])?;
                Ok(Box::new(move |t: &[i32]| {
                    usize::try_from(t[n]).is_ok_and(|k| k < n && t[k] == t[n + 1])
                }))
            }),
            strength: Strength::Domain,
        },
        Case {
            // Entries repeated and `z` among them (FlatZinc's padding repeats the first).
            name: "element over variables, repeated entries",
            arity: 3..=5,
            post: Box::new(|m, v, r| {
                let n = v.len() - 2;
                let (i, z) = (v[n], v[n + 1]);
                let entries: Vec<usize> = (0..n + 1)
                    .map(|_| r.below(n as u64 + 1) as usize)
                    .map(|k| if k == n { n + 1 } else { k })
                    .collect();
                let xs: Vec<VarId> = entries.iter().map(|&k| v[k]).collect();
                m.element_var(&xs, i, z)?;
                Ok(Box::new(move |t: &[i32]| {
                    usize::try_from(t[n])
                        .is_ok_and(|k| k < entries.len() && t[entries[k]] == t[n + 1])
                }))
            }),
            strength: Strength::Sound,
        },
        Case {
            name: "table",
            arity: 1..=4,
            post: Box::new(|m, v, r| {
                let tuples: Vec<Vec<i32>> = (0..r.below(12))
                    .map(|_| v.iter().map(|_| r.below(6) as i32 - 2).collect())
                    .collect();
                m.table(v, &tuples)?;
                Ok(Box::new(move |t: &[i32]| tuples.iter().any(|u| u == t)))
            }),
            strength: Strength::Domain,
        },
        Case {
            // One tuple set shared by two tables over overlapping variables, compiled once.
            name: "tables sharing a tuple set",
            arity: 3..=4,
            post: Box::new(|m, v, r| {
                let k = v.len() - 1;
                let tuples: Vec<Vec<i32>> = (0..1 + r.below(10))
                    .map(|_| (0..k).map(|_| r.below(6) as i32 - 2).collect())
                    .collect();
                let set = TupleSet::new(k, &tuples)?;
                m.table_set(&v[..k], &set)?;
                m.table_set(&v[1..], &set)?;
                Ok(Box::new(move |t: &[i32]| {
                    tuples.iter().any(|u| u[..] == t[..k]) && tuples.iter().any(|u| u[..] == t[1..])
                }))
            }),
            strength: Strength::Sound,
        },
        Case {
            name: "circuit",
            arity: 1..=5,
            post: Box::new(|m, v, _| {
                m.circuit(v)?;
                let n = v.len();
                Ok(Box::new(move |t: &[i32]| {
                    let (mut node, mut steps) = (0usize, 0);
                    loop {
                        match usize::try_from(t[node]) {
                            Ok(s) if s < n => node = s,
                            _ => return false,
                        }
                        steps += 1;
                        if node == 0 || steps > n {
                            return node == 0 && steps == n;
                        }
                    }
                }))
            }),
            strength: Strength::Sound,
        },
        Case {
            name: "forbidden tuples",
            arity: 1..=4,
            post: Box::new(|m, v, r| {
                let tuples: Vec<Vec<i32>> = (0..r.below(12))
                    .map(|_| v.iter().map(|_| r.below(6) as i32 - 2).collect())
                    .collect();
                m.forbidden(v, &tuples)?;
                Ok(Box::new(move |t: &[i32]| !tuples.iter().any(|u| u == t)))
            }),
            strength: Strength::Sound,
        },
    ]
}

#[test]
fn logic_counting_and_tables_agree_with_brute_force_and_keep_their_claims() {
    for (i, case) in boolean_cases().iter().enumerate() {
        check_over(case, 400, 0xB001 + i as u64, &[0, 1], case.strength);
    }
    for (i, case) in integer_cases().iter().enumerate() {
        check(case, 400, 0x1CE + i as u64);
    }
}

#[test]
fn every_propagator_agrees_with_brute_force_and_keeps_its_claim() {
    for (i, case) in cases().iter().enumerate() {
        check(case, 300, 0xC0FFEE + i as u64);
    }
}

/// The bounds of `vars` after the root's propagation of `model`, or `None` when it fails.
fn root_bounds(model: &Model, vars: &[VarId]) -> Option<Vec<(i64, i64)>> {
    let mut solver = Solver::new(model);
    solver.propagate().ok()?;
    let bounds = vars
        .iter()
        .map(|&v| {
            let d = solver.domain(v).expect("variable");
            let (lo, hi) = (d.min().expect("not empty"), d.max().expect("not empty"));
            (i64::from(lo), i64::from(hi))
        })
        .collect();
    Some(bounds)
}

/// Weighted sums keep bounds(R) consistency: after the root's propagation, each bound of
/// each variable can be completed with real values within the other variables' intervals
/// (`c_i b + Σ_j c_j [lo_j, hi_j]` meets the right-hand side).
#[test]
fn linear_bounds_are_supported_over_the_reals() {
    let mut random = Random::seeded(0x11AE);
    for round in 0..2_000 {
        let n = 1 + random.below(4) as usize;
        let mut model = Model::new();
        let vars: Vec<VarId> = (0..n)
            .map(|_| {
                let lo = random.below(9) as i32 - 4;
                model
                    .new_var(lo..=lo + random.below(6) as i32)
                    .expect("variable")
            })
            .collect();
        let coeffs: Vec<i32> = vars.iter().map(|_| random.below(9) as i32 - 4).collect();
        let relation =
            [Relation::Equal, Relation::AtMost, Relation::AtLeast][random.below(3) as usize];
        let rhs = random.below(21) as i64 - 10;
        model
            .weighted_sum(&vars, &coeffs, relation, rhs)
            .expect("posted");
        let Some(bounds) = root_bounds(&model, &vars) else {
            continue;
        };
        for (i, &(lo_i, hi_i)) in bounds.iter().enumerate() {
            for b in [lo_i, hi_i] {
                let (mut low, mut high) = (i64::from(coeffs[i]) * b, i64::from(coeffs[i]) * b);
                for (j, &(lo, hi)) in bounds.iter().enumerate().filter(|&(j, _)| j != i) {
                    let (a, z) = (i64::from(coeffs[j]) * lo, i64::from(coeffs[j]) * hi);
                    low += a.min(z);
                    high += a.max(z);
                }
                let supported = match relation {
                    Relation::Equal => low <= rhs && rhs <= high,
                    Relation::AtMost => low <= rhs,
                    Relation::AtLeast => high >= rhs,
                };
                assert!(
                    supported,
                    "round {round}: {coeffs:?} {relation:?} {rhs}: bound {b} of x{i} unsupported in {bounds:?}"
                );
            }
        }
    }
}

/// Sums whose terms reach beyond `i64` when added up (coefficients near 2^30 over the
/// whole `i32` range) propagate exactly: `a·x + a·y ≥ 2a·max` leaves only the largest
/// value to both, and `a·x - a·y = 0` with `x` fixed fixes `y`.
#[test]
fn sums_of_huge_terms_propagate_exactly() {
    let a = (1 << 30) - 1;
    let top = i64::from(i32::MAX);
    let mut model = Model::new();
    let vars = model.new_vars(4, i32::MIN..=i32::MAX).expect("variables");
    let (x, y, z, w) = (vars[0], vars[1], vars[2], vars[3]);
    model
        .weighted_sum(&[x, y], &[a, a], Relation::AtLeast, 2 * i64::from(a) * top)
        .expect("posted");
    model.fix(z, -7).expect("fixed");
    model
        .weighted_sum(&[z, w], &[a, -a], Relation::Equal, 0)
        .expect("posted");
    let mut solver = Solver::new(&model);
    solver.propagate().expect("consistent");
    for (v, value) in [(x, i32::MAX), (y, i32::MAX), (w, -7)] {
        let d = solver.domain(v).expect("variable");
        assert_eq!((d.min(), d.max()), (Some(value), Some(value)));
    }
}

/// Sums wake only when a bound of one of their variables moves. Values leave domains
/// through several paths, each deciding whether a bound moved: one-word domains written
/// back by a group, domains of two words narrowed by a group or losing one value to a
/// disequality. Here an all-different group and a disequality run after the sum at the
/// root and take values from its variables, bounds among them; at the fixed point the
/// sum must have heard of every bound that moved: each bound of each of its variables is
/// completed by the others' intervals.
#[test]
fn sums_hear_of_every_bound_that_moves() {
    let mut random = Random::seeded(0xB0DE);
    let one_word: Vec<i32> = (0..7).collect();
    let two_words: Vec<i32> = vec![0, 1, 2, 3, 70, 71, 72];
    for round in 0..3_000 {
        let values = if round % 2 == 0 {
            &one_word
        } else {
            &two_words
        };
        let n = 3 + random.below(3) as usize;
        let domains: Vec<Vec<i32>> = (0..n)
            .map(|_| {
                if random.below(100) < 30 {
                    // Fixed from the start: its value leaves the group's other cells.
                    return vec![values[random.below(values.len() as u64) as usize]];
                }
                random_subset(values, &mut random)
            })
            .collect();
        let mut model = Model::new();
        let vars = vars_over(&mut model, &domains);
        let low: i64 = domains.iter().map(|d| i64::from(d[0])).sum();
        let high: i64 = domains.iter().map(|d| i64::from(d[d.len() - 1])).sum();
        let rhs = low + random.below((high - low + 1) as u64) as i64;
        // Posted first, so that it runs first and must be woken by what follows.
        model.sum(&vars, Relation::Equal, rhs).expect("sum");
        model.all_different(&vars[..n - 1]).expect("group");
        model
            .not_equal(vars[n - 2], vars[n - 1])
            .expect("disequality");
        let Some(bounds) = root_bounds(&model, &vars) else {
            continue;
        };
        let (all_low, all_high) = bounds
            .iter()
            .fold((0, 0), |(l, h), &(lo, hi)| (l + lo, h + hi));
        for (i, &(lo, hi)) in bounds.iter().enumerate() {
            for b in [lo, hi] {
                let (rest_low, rest_high) = (all_low - lo, all_high - hi);
                assert!(
                    rest_low <= rhs - b && rhs - b <= rest_high,
                    "round {round}: domains {domains:?}, sum {rhs}: bound {b} of x{i} \
                     unsupported in {bounds:?}"
                );
            }
        }
    }
}

#[test]
fn the_harness_catches_a_propagator_that_removes_a_solution() {
    /// Claims `x ≤ y` but prunes as if `x < y`: it loses the solutions with x = y.
    #[derive(Debug)]
    struct Wrong([VarId; 2]);
    impl bitcsp::Propagator for Wrong {
        fn name(&self) -> &str {
            "wrong"
        }
        fn vars(&self) -> &[VarId] {
            &self.0
        }
        fn propagate(&self, d: &mut bitcsp::Domains<'_>) -> Result<(), bitcsp::Conflict> {
            let [x, y] = self.0;
            d.set_max(x, d.max(y) - 1)?;
            d.set_min(y, d.min(x) + 1)
        }
    }
    let case = Case {
        name: "wrong",
        arity: 2..=2,
        post: Box::new(|m, v, _| {
            m.post(Wrong([v[0], v[1]]))?;
            Ok(Box::new(|t: &[i32]| t[0] <= t[1]))
        }),
        strength: Strength::Sound,
    };
    let caught = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| check(&case, 50, 1)));
    assert!(caught.is_err(), "the harness must reject it");
}

#[test]
fn user_propagators_work_in_the_parallel_search() {
    let mut model = Model::new();
    let rows: Vec<Vec<VarId>> = (0..3)
        .map(|_| model.new_vars(3, 1..=3).expect("row"))
        .collect();
    for pair in rows.windows(2) {
        model
            .post(example::LexLess::new(&pair[0], &pair[1]))
            .expect("posted");
    }
    for row in &rows {
        model
            .post(example::AtMostDistinct::new(row, 2))
            .expect("posted");
    }
    // 21 rows use at most two of three values; increasing chains of three: C(21, 3).
    assert_eq!(Solver::new(&model).count(None).count, 1330);
    assert_eq!(Solver::new(&model).count_parallel(None, 2).count, 1330);
}

#[test]
fn a_propagator_over_a_foreign_variable_is_refused() {
    let mut other = Model::new();
    let foreign = other.new_vars(5, 0..=1).expect("variables")[4];
    let mut model = Model::new();
    let x = model.new_var(0..=1).expect("variable");
    assert!(matches!(
        model.post(example::AtMostDistinct::new(&[x, foreign], 1)),
        Err(ModelError::UnknownVariable { .. })
    ));
    assert!(matches!(
        model.post(example::AtMostDistinct::new(&[x, x], 1)),
        Err(ModelError::DuplicateVariable { .. })
    ));
}

/// Past the enumeration limit, arithmetic still finds exactly the solutions (checked once
/// its arguments are fixed).
#[test]
fn arithmetic_on_wide_domains_finds_exactly_the_solutions() {
    let mut model = Model::new();
    let x = model.new_var(-60..=60).expect("x");
    let y = model.new_var(-60..=60).expect("y");
    let z = model.new_var(-100..=100).expect("z");
    model.times(x, y, z).expect("times");
    model.fix(z, 36).expect("fix");
    let expected = (-60..=60i32)
        .flat_map(|a| (-60..=60i32).map(move |b| (a, b)))
        .filter(|&(a, b)| a * b == 36)
        .count() as u64;
    assert_eq!(Solver::new(&model).count(None).count, expected);
    let mut model = Model::new();
    let x = model.new_var(-100..=100).expect("x");
    let y = model.new_var(-100..=100).expect("y");
    let z = model.new_var(-3..=3).expect("z");
    model.modulo(x, y, z).expect("mod");
    model.fix(x, 97).expect("fix");
    let expected = (-100..=100i32)
        .filter(|&b| 97i32.checked_rem(b).is_some_and(|r| (-3..=3).contains(&r)))
        .count() as u64;
    assert_eq!(Solver::new(&model).count(None).count, expected);
}

/// A tuple set of the wrong length for the variables is refused, as a table's tuple is.
#[test]
fn a_tuple_set_of_another_arity_is_refused() {
    let mut m = Model::new();
    let x = m.new_vars(3, 0..=2).expect("variables");
    let pairs = TupleSet::new(2, &[vec![0, 1]]).expect("pairs");
    assert!(matches!(
        m.table_set(&x, &pairs),
        Err(ModelError::TupleArity {
            expected: 3,
            found: 2,
            ..
        })
    ));
    assert!(matches!(
        TupleSet::new(2, &[vec![0, 1], vec![2]]),
        Err(ModelError::TupleArity {
            tuple: 1,
            expected: 2,
            found: 1
        })
    ));
}

/// A reified ordering that finds itself entailed stops being woken until the search
/// backtracks above that point. Checked on a store large enough to be undone by its trail
/// of saved words rather than by copying (the padding's fixed variables): every pair of
/// tasks, each in 0..=3, with the literals of both orders (`b ⇔ x + 1 ≤ y`,
/// `c ⇔ y + 1 ≤ x`, so that each task has two watchers) have exactly 16 solutions, so the
/// count over three pairs is 16³ only if each disposal is undone on the way back.
#[test]
fn entailed_reified_sums_wake_again_after_backtracking() {
    for padding in [0, 2_000] {
        let mut model = Model::new();
        model.new_vars(padding, 5..=5).expect("padding");
        for _ in 0..3 {
            let x = model.new_var(0..=3).expect("x");
            let y = model.new_var(0..=3).expect("y");
            let b = model.new_bool().expect("b");
            model.reify(b.into(), (x + 1).at_most(y)).expect("reify");
            let c = model.new_bool().expect("c");
            model.reify(c.into(), (y + 1).at_most(x)).expect("reify");
        }
        assert_eq!(
            Solver::new(&model).count(None).count,
            16u64.pow(3),
            "padding {padding}"
        );
    }
}

/// All-different groups whose value space spans several words (up to the widest bitset
/// group, 64 words): the same solutions as brute force, and the root's domains exactly
/// those of the group's rules run to their fixed point on sets ([`group_rules`]).
#[test]
fn all_different_across_words_is_exact_and_keeps_its_rules() {
    let mut random = Random::seeded(0xA11D);
    let values = [0, 1, 2, 62, 63, 64, 65, 127, 128];
    // Spans giving value spaces of 2, 3-4, 5-8, 9-16, 17-32 and 33-64 words.
    for span in [100i32, 200, 400, 900, 1900, 3900] {
        for round in 0..80 {
            let n = 2 + random.below(4) as usize;
            // Offsets from a handful, so that some shifted values meet across variables.
            let choices = [0, 1, 63, 64, span / 2, span - 130];
            let offsets: Vec<i32> = (0..n)
                .map(|_| choices[random.below(choices.len() as u64) as usize])
                .collect();
            // Even rounds: values near the first word boundaries, shifted apart by the
            // offsets. Odd rounds: every shifted value among `n` of those, so that the
            // group is tight (as many values as variables) and its pigeonhole and hidden
            // singles act.
            let domains: Vec<Vec<i32>> = if round % 2 == 0 {
                (0..n)
                    .map(|_| random_subset(&values, &mut random))
                    .collect()
            } else {
                let mut targets = values.to_vec();
                while targets.len() > n {
                    targets.remove(random.below(targets.len() as u64) as usize);
                }
                offsets
                    .iter()
                    .map(|&o| {
                        let shifted = random_subset(&targets, &mut random);
                        shifted.iter().map(|t| t - o).collect()
                    })
                    .collect()
            };
            let mut model = Model::new();
            let vars = vars_over(&mut model, &domains);
            model
                .all_different_offset(&vars, &offsets)
                .expect("group posted");
            let label = format!("span {span} round {round}: {domains:?} + {offsets:?}");
            let holds = |t: &[i32]| {
                let s: Vec<i32> = t.iter().zip(&offsets).map(|(a, o)| a + o).collect();
                (0..s.len()).all(|i| s[i + 1..].iter().all(|b| *b != s[i]))
            };
            let mut expected = brute_force(&domains, &holds);
            expected.sort();
            assert_eq!(sorted_solutions(&model, &vars), expected, "{label}");
            let mut solver = Solver::new(&model);
            let root = solver.propagate().ok().map(|_| {
                vars.iter()
                    .map(|&v| {
                        solver
                            .domain(v)
                            .map(|d| d.iter().collect())
                            .unwrap_or_default()
                    })
                    .collect::<Vec<Vec<i32>>>()
            });
            assert_eq!(root, group_rules(&domains, &offsets), "{label}");
        }
    }
}

/// The rules of an all-different group on `x[i] + offsets[i]`, run to their fixed point
/// on sets: fixed values leave the others; then fewer free values than unfixed variables
/// fail, and when they are as many, a value with one place left is fixed there (two such
/// values in one place fail); again until nothing changes. `None` on failure.
fn group_rules(domains: &[Vec<i32>], offsets: &[i32]) -> Option<Vec<Vec<i32>>> {
    use std::collections::BTreeSet;
    let mut sets: Vec<BTreeSet<i32>> = domains
        .iter()
        .zip(offsets)
        .map(|(d, o)| d.iter().map(|v| v + o).collect())
        .collect();
    let single = |s: &BTreeSet<i32>| (s.len() == 1).then(|| *s.iter().next().unwrap());
    loop {
        let fixed: Vec<(usize, i32)> = (0..sets.len())
            .filter_map(|i| single(&sets[i]).map(|v| (i, v)))
            .collect();
        let mut changed = false;
        for &(i, v) in &fixed {
            for (j, s) in sets.iter_mut().enumerate() {
                if j != i && s.remove(&v) {
                    changed = true;
                }
            }
        }
        if sets.iter().any(|s| s.is_empty()) {
            return None;
        }
        if changed {
            continue;
        }
        let unfixed: Vec<usize> = (0..sets.len()).filter(|&i| sets[i].len() > 1).collect();
        let free: BTreeSet<i32> = unfixed.iter().flat_map(|&i| sets[i].clone()).collect();
        if free.len() < unfixed.len() {
            return None;
        }
        if free.len() > unfixed.len() {
            break;
        }
        let before = sets.clone();
        for v in free {
            let places: Vec<usize> = unfixed
                .iter()
                .copied()
                .filter(|&i| before[i].contains(&v))
                .collect();
            if let [i] = places[..] {
                // Unfixed before this step, fixed in it to another value.
                if sets[i].len() == 1 {
                    return None;
                }
                sets[i] = BTreeSet::from([v]);
                changed = true;
            }
        }
        if !changed {
            break;
        }
    }
    Some(
        sets.iter()
            .zip(offsets)
            .map(|(s, o)| s.iter().map(|v| v - o).collect())
            .collect(),
    )
}

/// The same harness over values spread across several words, so that bitset domains
/// of two to five words meet every propagator.
#[test]
fn every_propagator_agrees_with_brute_force_over_several_words() {
    let values = [-70, -1, 0, 1, 64, 130, 200];
    for (i, case) in cases().iter().enumerate() {
        check_over(case, 60, 0x5EED + i as u64, &values, case.strength);
    }
}

/// Bounds-consistent all-different on interval domains, where Hall intervals show (two
/// variables over `1..=2` leave a third over `1..=4` with `3..=4`, which neither the
/// fixed values nor hidden singles find), in one word, over several words (one variable
/// spans 0 to 130) and over wide domains (kept as intervals): held to its claim.
#[test]
fn bounds_consistent_all_different_finds_hall_intervals() {
    let mut random = Random::seeded(0xA11);
    for round in 0..1500 {
        let n = 3 + random.below(4) as usize;
        let mut domains: Vec<Vec<i32>> = (0..n)
            .map(|_| {
                let lo = random.below(7) as i32;
                let hi = lo + random.below(3) as i32;
                (lo..=hi).collect()
            })
            .collect();
        let layout = round % 3;
        if layout == 1 {
            domains[0] = (0..=130).collect();
        }
        let offsets: Vec<i32> = (0..n).map(|_| random.below(3) as i32 - 1).collect();
        let holds = |t: &[i32]| {
            let s: Vec<i32> = t.iter().zip(&offsets).map(|(a, o)| a + o).collect();
            s.iter()
                .enumerate()
                .all(|(i, a)| s[i + 1..].iter().all(|b| a != b))
        };
        let mut model = Model::new();
        let vars: Vec<VarId> = if layout == 2 {
            domains.iter().map(|d| wide_var(&mut model, d)).collect()
        } else {
            vars_over(&mut model, &domains)
        };
        model
            .all_different_offset_with(&vars, &offsets, Consistency::Bounds)
            .expect("posted");
        let mut expected = brute_force(&domains, &holds);
        expected.sort();
        let label = format!("round {round}: domains {domains:?} offsets {offsets:?}");
        assert_eq!(sorted_solutions(&model, &vars), expected, "{label}");
        hold_to_claim(&label, &model, &vars, &expected, &holds, Strength::Bounds);
    }
}

#[test]
fn cumulative_fails_an_overloaded_window_at_the_root() {
    // Three tasks of 3 on a resource of 1, all within 0..8: no compulsory part shows it
    // (each may start as late as 5, after its earliest end), the tasks' energy does.
    let mut model = Model::new();
    let starts = model.new_vars(3, 0..=5).expect("starts");
    model
        .cumulative(&starts, &[3, 3, 3], &[1, 1, 1], 1)
        .expect("cumulative");
    let mut solver = Solver::new(&model);
    assert!(solver.propagate().is_err());
    assert_eq!(solver.stats().nodes, 0);
    // One more time unit, and the three fit one after the other.
    let mut model = Model::new();
    let starts = model.new_vars(3, 0..=6).expect("starts");
    model
        .cumulative(&starts, &[3, 3, 3], &[1, 1, 1], 1)
        .expect("cumulative");
    assert_eq!(Solver::new(&model).count(None).count, 6);
    // Two units of capacity, three tasks using both for 3, all within 0..6: no two fit
    // together, and they need 3 · 3 · 2 = 18 units of energy where the window gives 12.
    let mut model = Model::new();
    let starts = model.new_vars(3, 0..=3).expect("starts");
    model
        .cumulative(&starts, &[3, 3, 3], &[2, 2, 2], 2)
        .expect("cumulative");
    assert!(Solver::new(&model).propagate().is_err());
}

/// Keeps the values of `x` that `keep` accepts, all in one call: by `remove_values` or one
/// `remove` at a time; counts its own runs.
#[derive(Debug)]
struct KeepWhere {
    x: [VarId; 1],
    keep: fn(i32) -> bool,
    at_once: bool,
    runs: std::sync::Arc<std::sync::atomic::AtomicUsize>,
}

impl bitcsp::Propagator for KeepWhere {
    fn name(&self) -> &str {
        "keep where"
    }
    fn vars(&self) -> &[VarId] {
        &self.x
    }
    fn propagate(&self, d: &mut bitcsp::Domains<'_>) -> Result<(), bitcsp::Conflict> {
        self.runs.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        let x = self.x[0];
        let gone: Vec<i32> = d.values(x).filter(|&v| !(self.keep)(v)).collect();
        if self.at_once {
            d.remove_values(x, &gone)
        } else {
            gone.into_iter().try_for_each(|v| d.remove(x, v))
        }
    }
}

#[test]
fn removing_a_list_of_values_moves_a_wide_domains_bounds_past_both_runs_in_one_run() {
    // 1..=3000 is wide (its bounds only). Keeping the values from 1000 to 2000 that are
    // multiples of seven: from the top, one `remove` at a time moves the upper bound by
    // one value a run; the list moves both bounds at once.
    let keep = |v: i32| (1000..=2000).contains(&v) && v % 7 == 0;
    let mut runs_of = Vec::new();
    for at_once in [true, false] {
        let mut model = Model::new();
        let x = model.new_var(1..=3000).expect("a variable");
        let runs = std::sync::Arc::new(std::sync::atomic::AtomicUsize::new(0));
        model
            .post(KeepWhere {
                x: [x],
                keep,
                at_once,
                runs: std::sync::Arc::clone(&runs),
            })
            .expect("posted");
        let mut solver = Solver::new(&model);
        assert!(solver.propagate().is_ok());
        let d = solver.domain(x).expect("a domain");
        assert_eq!(
            (d.min(), d.max()),
            (Some(1001), Some(1995)),
            "at once: {at_once}"
        );
        runs_of.push(runs.load(std::sync::atomic::Ordering::Relaxed));
    }
    assert!(runs_of[0] <= 2, "{runs_of:?}");
    assert!(runs_of[1] > 100, "{runs_of:?}");
}
