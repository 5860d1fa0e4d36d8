//! The engine against exhaustive enumeration on small random models: same solution count,
//! same set of solutions, for every strategy, on narrow and wide (multi-word) domains.

use std::collections::BTreeSet;

use bitcsp::{
    Consistency, CountStatus, Model, SolveResult, Solver, ValueOrder, VarId, VariableOrder,
};
use proptest::prelude::*;

#[derive(Clone, Debug)]
enum Spec {
    AllDifferent {
        vars: Vec<usize>,
        offsets: Vec<i32>,
        consistency: Consistency,
    },
    NotEqual {
        x: usize,
        y: usize,
        offset: i32,
    },
}

#[derive(Clone, Debug)]
struct Instance {
    domains: Vec<Vec<i32>>,
    constraints: Vec<Spec>,
}

impl Instance {
    fn model(&self) -> (Model, Vec<VarId>) {
        let mut m = Model::new();
        let vars: Vec<VarId> = self
            .domains
            .iter()
            .map(|d| m.new_var_from_values(d).unwrap())
            .collect();
        for c in &self.constraints {
            match c {
                Spec::AllDifferent {
                    vars: vs,
                    offsets,
                    consistency,
                } => {
                    let ids: Vec<VarId> = vs.iter().map(|&i| vars[i]).collect();
                    m.all_different_with(&ids, offsets, *consistency).unwrap();
                }
                Spec::NotEqual { x, y, offset } => {
                    m.not_equal_offset(vars[*x], vars[*y], *offset).unwrap()
                }
            }
        }
        (m, vars)
    }

    /// The same problem with every all-different replaced by pairwise not-equal.
    fn decomposed(&self) -> Instance {
        let mut constraints = Vec::new();
        for c in &self.constraints {
            match c {
                Spec::AllDifferent { vars, offsets, .. } => {
                    for i in 0..vars.len() {
                        for j in i + 1..vars.len() {
                            // x_i + c_i != x_j + c_j  <=>  x_i != x_j + (c_j - c_i)
                            constraints.push(Spec::NotEqual {
                                x: vars[i],
                                y: vars[j],
                                offset: offsets[j] - offsets[i],
                            });
                        }
                    }
                }
                other => constraints.push(other.clone()),
            }
        }
        Instance {
            domains: self.domains.clone(),
            constraints,
        }
    }

    fn satisfied(&self, a: &[i32]) -> bool {
        self.constraints.iter().all(|c| match c {
            Spec::AllDifferent { vars, offsets, .. } => {
                let vals: Vec<i64> = vars
                    .iter()
                    .zip(offsets)
                    .map(|(&v, &o)| i64::from(a[v]) + i64::from(o))
                    .collect();
                let set: BTreeSet<i64> = vals.iter().copied().collect();
                set.len() == vals.len()
            }
            Spec::NotEqual { x, y, offset } => {
                i64::from(a[*x]) != i64::from(a[*y]) + i64::from(*offset)
            }
        })
    }

    fn brute_force(&self) -> BTreeSet<Vec<i32>> {
        let mut out = BTreeSet::new();
        let mut current = Vec::with_capacity(self.domains.len());
        self.enumerate(&mut current, &mut out);
        out
    }

    fn enumerate(&self, current: &mut Vec<i32>, out: &mut BTreeSet<Vec<i32>>) {
        if current.len() == self.domains.len() {
            if self.satisfied(current) {
                out.insert(current.clone());
            }
            return;
        }
        for &v in &self.domains[current.len()] {
            current.push(v);
            self.enumerate(current, out);
            current.pop();
        }
    }
}

fn engine_solutions(inst: &Instance, var: VariableOrder, val: ValueOrder) -> Vec<Vec<i32>> {
    let (model, vars) = inst.model();
    let mut solver = Solver::new(&model);
    solver.set_variable_order(var).set_value_order(val);
    let sols: Vec<Vec<i32>> = solver
        .solutions()
        .map(|s| vars.iter().map(|&v| s.value(v)).collect())
        .collect();
    assert_eq!(solver.stop_reason(), None);
    sols
}

fn instance(
    max_vars: usize,
    values: std::ops::RangeInclusive<i32>,
    offsets: std::ops::RangeInclusive<i32>,
) -> impl Strategy<Value = Instance> {
    (3..=max_vars).prop_flat_map(move |n| {
        let domain = proptest::collection::btree_set(values.clone(), 1..=5)
            .prop_map(|s| s.into_iter().collect::<Vec<i32>>());
        let offsets = offsets.clone();
        let all_diff = (
            proptest::sample::subsequence((0..n).collect::<Vec<_>>(), 2..=n),
            proptest::collection::vec(offsets.clone(), n),
            any::<bool>(),
        )
            .prop_map(|(vars, offs, domain)| {
                let offsets = offs[..vars.len()].to_vec();
                let consistency = if domain {
                    Consistency::Domain
                } else {
                    Consistency::Fast
                };
                Spec::AllDifferent {
                    vars,
                    offsets,
                    consistency,
                }
            });
        let not_equal = (0..n, 0..n, offsets).prop_filter_map("distinct", |(x, y, offset)| {
            (x != y).then_some(Spec::NotEqual { x, y, offset })
        });
        (
            proptest::collection::vec(domain, n),
            proptest::collection::vec(prop_oneof![all_diff, not_equal], 0..=4),
        )
            .prop_map(|(domains, constraints)| Instance {
                domains,
                constraints,
            })
    })
}

const VARIABLE_ORDERS: [VariableOrder; 4] = [
    VariableOrder::InputOrder,
    VariableOrder::Mrv,
    VariableOrder::MrvDegree,
    VariableOrder::MrvDynamicDegree,
];
const VALUE_ORDERS: [ValueOrder; 3] = [
    ValueOrder::Ascending,
    ValueOrder::Descending,
    ValueOrder::MiddleOut,
];

proptest! {
    #![proptest_config(ProptestConfig::with_cases(400))]

    #[test]
    fn solutions_equal_exhaustive_enumeration(inst in instance(7, -3..=3, -2..=2)) {
        let expected = inst.brute_force();
        for var in VARIABLE_ORDERS {
            for val in VALUE_ORDERS {
                let found = engine_solutions(&inst, var, val);
                let set: BTreeSet<Vec<i32>> = found.iter().cloned().collect();
                prop_assert_eq!(set.len(), found.len(), "a solution was reported twice");
                prop_assert_eq!(&set, &expected, "{:?} {:?}", var, val);
            }
        }
        let (model, _) = inst.model();
        let count = Solver::new(&model).count(None);
        prop_assert_eq!(count.count, expected.len() as u64);
        prop_assert_eq!(count.status, CountStatus::Complete);
    }

    #[test]
    fn wide_domains_match_exhaustive_enumeration(inst in instance(5, -100..=100, -90..=90)) {
        let expected = inst.brute_force();
        let found = engine_solutions(&inst, VariableOrder::MrvDegree, ValueOrder::MiddleOut);
        prop_assert_eq!(found.into_iter().collect::<BTreeSet<_>>(), expected);
    }

    #[test]
    fn all_different_agrees_with_pairwise_not_equal(inst in instance(7, -3..=3, -2..=2)) {
        let plain = engine_solutions(&inst, VariableOrder::InputOrder, ValueOrder::Ascending);
        let pairwise = engine_solutions(&inst.decomposed(), VariableOrder::InputOrder, ValueOrder::Ascending);
        // Same order too: input order and ascending values enumerate lexicographically.
        prop_assert_eq!(plain, pairwise);
    }

    #[test]
    fn count_stops_exactly_at_the_limit(inst in instance(6, -3..=3, -2..=2), limit in 1u64..6) {
        let total = inst.brute_force().len() as u64;
        let (model, _) = inst.model();
        let count = Solver::new(&model).count(Some(limit));
        if total >= limit {
            prop_assert_eq!(count.count, limit);
            prop_assert_eq!(count.status, CountStatus::LimitReached);
        } else {
            prop_assert_eq!(count.count, total);
            prop_assert_eq!(count.status, CountStatus::Complete);
        }
    }

    #[test]
    fn solve_finds_a_solution_exactly_when_one_exists(inst in instance(7, -3..=3, -2..=2)) {
        let expected = inst.brute_force();
        let (model, vars) = inst.model();
        match Solver::new(&model).solve() {
            SolveResult::Solution(s) => {
                let values: Vec<i32> = vars.iter().map(|&v| s.value(v)).collect();
                prop_assert!(expected.contains(&values));
            }
            SolveResult::Unsatisfiable => prop_assert!(expected.is_empty()),
            SolveResult::Stopped(r) => prop_assert!(false, "stopped without a limit: {:?}", r),
        }
    }
}

#[test]
fn two_hundred_value_domains_match_brute_force() {
    let domain: Vec<i32> = (-100..100).collect();
    let inst = Instance {
        domains: vec![domain.clone(), domain.clone(), domain],
        constraints: vec![
            Spec::AllDifferent {
                vars: vec![0, 1, 2],
                offsets: vec![0, 7, -150],
                consistency: Consistency::Domain,
            },
            Spec::NotEqual {
                x: 0,
                y: 2,
                offset: 3,
            },
        ],
    };
    let expected = inst.brute_force().len() as u64;
    let (model, _) = inst.model();
    assert_eq!(Solver::new(&model).count(None).count, expected);
}
