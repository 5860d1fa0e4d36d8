//! The propagators, one file each, and the enum that dispatches to them.
//!
//! Adding a constraint:
//! 1. write its propagator in a new file: a struct built from the posted arguments with a
//!    `propagate(&self, &mut Engine) -> Result<(), Conflict>` that reaches its own fixed point;
//! 2. add a variant to [`Constraint`] and to the `match`es below;
//! 3. add a `Model` method that validates the arguments (in `model.rs`) and its compilation
//!    in [`compile`];
//! 4. test it against brute force in `tests/brute_force.rs`.
//!
//! Dispatch is a `match` on an enum rather than a trait object: the set of constraints is
//! closed, and the compiler can inline the small ones into the propagation loop.

mod all_different;
mod family;
mod locked_values;
mod matching;
mod not_equal;

use std::collections::{BTreeMap, BTreeSet};

pub(crate) use all_different::AllDifferent;
pub(crate) use family::Family;
pub(crate) use locked_values::LockedValues;
pub(crate) use not_equal::NotEqual;

use crate::model::{Consistency, Model, Posted};
use crate::propagate::{Conflict, Engine, Event};
use crate::store::Store;

/// One compiled constraint.
#[derive(Clone, Debug)]
pub(crate) enum Constraint {
    AllDifferent(AllDifferent),
    NotEqual(NotEqual),
    LockedValues(LockedValues),
    Family(Family),
}

impl Constraint {
    /// Narrows domains; `Err` when the constraint cannot be satisfied any more.
    #[inline]
    pub(crate) fn propagate(
        &self,
        engine: &mut Engine,
        scratch: &mut [u64],
    ) -> Result<(), Conflict> {
        match self {
            Constraint::AllDifferent(c) => c.propagate(engine, scratch),
            Constraint::NotEqual(c) => c.propagate(engine),
            Constraint::LockedValues(c) => c.propagate(engine),
            Constraint::Family(c) => c.propagate(engine, scratch),
        }
    }

    /// The variables it watches.
    pub(crate) fn vars(&self) -> Vec<usize> {
        match self {
            Constraint::AllDifferent(c) => c.vars().to_vec(),
            Constraint::NotEqual(c) => c.vars().to_vec(),
            Constraint::LockedValues(c) => c.vars().to_vec(),
            Constraint::Family(c) => c.vars().to_vec(),
        }
    }

    /// Which domain changes wake it.
    pub(crate) fn event(&self) -> Event {
        match self {
            Constraint::AllDifferent(c) => c.event(),
            Constraint::LockedValues(_) | Constraint::Family(_) => Event::Change,
            Constraint::NotEqual(_) => Event::Fix,
        }
    }

    /// Whether it runs after the cheap propagators have settled.
    pub(crate) fn is_costly(&self) -> bool {
        matches!(self, Constraint::LockedValues(_))
    }

    /// How many words of the engine's scratch space it needs.
    pub(crate) fn scratch_words(&self) -> usize {
        match self {
            Constraint::AllDifferent(c) => c.scratch_words(),
            Constraint::Family(c) => c.scratch_words(),
            Constraint::NotEqual(_) | Constraint::LockedValues(_) => 0,
        }
    }
}

/// Compiles the posted constraints of `model` for the domains laid out in `store`.
///
/// Plain all-different groups (no offsets, [`Consistency::Fast`], one-word domains of one
/// base) that are permutations (as many values as variables) are gathered into one
/// [`Family`] per base when there are two or more of them. Other overlapping plain groups
/// get [`LockedValues`] between them.
pub(crate) fn compile(model: &Model, store: &Store) -> Vec<Constraint> {
    let plain = plain_groups(model, store);
    let mut families: BTreeMap<i32, Vec<usize>> = BTreeMap::new();
    for (p, vars) in &plain {
        if is_permutation(store, vars) {
            families
                .entry(store.layout(vars[0]).base)
                .or_default()
                .push(*p);
        }
    }
    families.retain(|_, members| members.len() >= 2);
    let in_family: BTreeSet<usize> = families.values().flatten().copied().collect();
    let mut compiled: Vec<Constraint> = model
        .posted()
        .iter()
        .enumerate()
        .filter(|(p, _)| !in_family.contains(p))
        .map(|(_, posted)| match posted {
            Posted::AllDifferent {
                vars,
                offsets,
                consistency,
            } => Constraint::AllDifferent(AllDifferent::new(store, vars, offsets, *consistency)),
            Posted::NotEqual { x, y, offset } => {
                Constraint::NotEqual(NotEqual::new(x.index(), y.index(), *offset))
            }
        })
        .collect();
    let group_of: BTreeMap<usize, &Vec<usize>> = plain.iter().map(|(p, v)| (*p, v)).collect();
    for members in families.values() {
        let groups: Vec<Vec<usize>> = members.iter().map(|p| group_of[p].clone()).collect();
        let family = Family::new(&groups, |v| store.layout(v).start);
        compiled.push(Constraint::Family(family));
    }
    let outside: Vec<&Vec<usize>> = plain
        .iter()
        .filter(|(p, _)| !in_family.contains(p))
        .map(|(_, v)| v)
        .collect();
    compiled.extend(
        overlapping_pairs(store, &outside)
            .into_iter()
            .map(|(a, b)| Constraint::LockedValues(LockedValues::new(a, b))),
    );
    compiled
}

/// The plain groups, as (position among the posted constraints, variables).
fn plain_groups(model: &Model, store: &Store) -> Vec<(usize, Vec<usize>)> {
    model
        .posted()
        .iter()
        .enumerate()
        .filter_map(|(p, posted)| match posted {
            Posted::AllDifferent {
                vars,
                offsets,
                consistency: Consistency::Fast,
            } if offsets.iter().all(|&c| c == 0) && !vars.is_empty() => {
                let vars: Vec<usize> = vars.iter().map(|v| v.index()).collect();
                let base = store.layout(vars[0]).base;
                let plain = vars
                    .iter()
                    .all(|&v| store.layout(v).len == 1 && store.layout(v).base == base);
                plain.then_some((p, vars))
            }
            _ => None,
        })
        .collect()
}

/// Pairs of plain groups of one base that share at least two variables, where at least
/// one group is a permutation: only then can the rule ever fire, and posting it for every
/// overlapping pair of a dense model would cost more than it finds.
fn overlapping_pairs<'a>(
    store: &Store,
    groups: &[&'a Vec<usize>],
) -> Vec<(&'a [usize], &'a [usize])> {
    let mut by_var: Vec<Vec<usize>> = vec![Vec::new(); store.num_vars()];
    for (g, vars) in groups.iter().enumerate() {
        for &v in vars.iter() {
            by_var[v].push(g);
        }
    }
    let mut pairs = Vec::new();
    let mut shared = vec![0usize; groups.len()];
    for (a, vars) in groups.iter().enumerate() {
        shared.iter_mut().for_each(|s| *s = 0);
        for &v in vars.iter() {
            for &b in &by_var[v] {
                shared[b] += 1;
            }
        }
        for b in a + 1..groups.len() {
            let same_base = store.layout(vars[0]).base == store.layout(groups[b][0]).base;
            if shared[b] >= 2
                && same_base
                && (is_permutation(store, vars) || is_permutation(store, groups[b]))
            {
                pairs.push((groups[a].as_slice(), groups[b].as_slice()));
            }
        }
    }
    pairs
}

/// True when the group's variables can take exactly as many values as there are variables.
fn is_permutation(store: &Store, vars: &[usize]) -> bool {
    let values = vars.iter().fold(0u64, |acc, &v| acc | store.first_word(v));
    values.count_ones() as usize == vars.len()
}
