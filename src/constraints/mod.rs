//! The built-in propagators, one file each, and the enum that dispatches to them.
//!
//! Every propagator keeps the engine's contract (`propagate::Propagate`: the variables it
//! watches, the event that wakes it, its cost class, and a `propagate` that never removes
//! a value of a solution, reports failure as `Err(Conflict)` and leaves its own fixed
//! point). Adding a built-in constraint:
//! 1. write its propagator in a new file: a struct built from the posted arguments, with
//!    `vars`, `event` and `propagate(&self, &mut Engine) -> Result<(), Conflict>`;
//! 2. add a variant to [`Constraint`] and one line to each delegating `match` below;
//! 3. add a `Posted` variant (`posted.rs`), a `Model` method that validates the arguments
//!    (`model.rs`), and its compilation in [`compile_with`];
//! 4. add it to the harness in `tests/propagators.rs` with the strength it claims
//!    (soundness against brute force for all, supports for bounds or domain consistency),
//!    and to `tests/brute_force.rs`.
//!
//! A constraint that one model needs can instead be a propagator of the user's own
//! ([`Propagator`](crate::propagator::Propagator), posted with `Model::post`), which the
//! `Custom` variant runs with no change here.
//!
//! Dispatch is a `match` on an enum rather than a trait object: the built-in set is
//! closed, and the compiler inlines the small ones into the propagation loop (see
//! `cargo bench --bench queens`).

mod all_different;
pub(crate) mod arithmetic;
mod circuit;
mod counting;
mod custom;
mod family;
mod forbidden;
mod hall_intervals;
mod knapsack;
mod linear;
mod locked_values;
pub(crate) mod logic;
mod matching;
mod matching_words;
mod not_equal;
mod scheduling;
mod table;
mod wide_all_different;
mod wide_member;

use std::collections::BTreeMap;
use std::iter::repeat;
use std::sync::Arc;

pub(crate) use all_different::AllDifferent;
use arithmetic::{Element, ElementVar, WordElement, WordLookup};
pub(crate) use circuit::Circuit;
pub(crate) use counting::{Among, GlobalCardinality};
use custom::Custom;
pub(crate) use family::{Family, FamilyGroup};
pub(crate) use forbidden::Forbidden;
use knapsack::Knapsack;
use linear::Linear;
pub(crate) use locked_values::LockedValues;
use logic::{Clauses, Indicators, Lit, Reification, ReifiedLinear, WordIndicators};
pub(crate) use not_equal::NotEqual;
pub(crate) use scheduling::Cumulative;
use table::Table;
use wide_all_different::WideAllDifferent;
use wide_member::WideMember;

use crate::difference_cycles::Difference;
use crate::posted::{Consistency, Offsets, Posted};
use crate::propagate::{Conflict, Engine, Event, Propagate};
use crate::store::Store;
use crate::var::VarId;

/// One compiled constraint.
#[derive(Clone, Debug)]
pub(crate) enum Constraint {
    AllDifferent(AllDifferent),
    WideAllDifferent(WideAllDifferent),
    WideMember(WideMember),
    Clauses(Box<Clauses>),
    Indicators(Box<WordIndicators>),
    Element(WordElement),
    Lookup(WordLookup),
    Table(Box<Table>),
    NotEqual(NotEqual),
    LockedValues(LockedValues),
    Family(Arc<Family>),
    Linear(Linear),
    ReifiedLinear(Box<ReifiedLinear>),
    Knapsack(Knapsack),
    Custom(Custom),
}

impl Propagate for Constraint {
    #[inline]
    fn propagate(&self, engine: &mut Engine, scratch: &mut [u64]) -> Result<(), Conflict> {
        match self {
            Constraint::AllDifferent(c) => c.propagate(engine, scratch),
            Constraint::WideAllDifferent(c) => c.propagate(engine, scratch),
            Constraint::WideMember(c) => c.propagate(engine),
            Constraint::Clauses(c) => c.propagate(engine, scratch),
            Constraint::Indicators(c) => c.propagate(engine, scratch),
            Constraint::Element(c) => c.propagate(engine),
            Constraint::Lookup(c) => c.propagate(engine),
            Constraint::Table(c) => c.propagate(engine, scratch),
            Constraint::NotEqual(c) => c.propagate(engine),
            Constraint::LockedValues(c) => c.propagate(engine),
            Constraint::Family(c) => c.propagate(engine, scratch),
            Constraint::Linear(c) => c.propagate(engine, scratch),
            Constraint::ReifiedLinear(c) => c.propagate(engine, scratch),
            Constraint::Knapsack(c) => c.propagate(engine, scratch),
            Constraint::Custom(c) => c.propagate(engine, scratch),
        }
    }

    fn differences(&self, engine: &mut Engine, source: u32, out: &mut Vec<Difference>) {
        match self {
            Constraint::Linear(c) => c.differences(&engine.store, source, out),
            Constraint::ReifiedLinear(c) => c.differences(&engine.store, source, out),
            Constraint::Custom(c) => c.differences(engine, source, out),
            _ => {}
        }
    }

    /// The variables it watches.
    fn vars(&self) -> &[usize] {
        match self {
            Constraint::AllDifferent(c) => c.vars(),
            Constraint::WideAllDifferent(c) => c.vars(),
            Constraint::WideMember(c) => c.vars(),
            Constraint::Clauses(c) => c.vars(),
            Constraint::Indicators(c) => c.vars(),
            Constraint::Element(c) => c.vars(),
            Constraint::Lookup(c) => c.vars(),
            Constraint::Table(c) => c.vars(),
            Constraint::NotEqual(c) => c.vars(),
            Constraint::LockedValues(c) => c.vars(),
            Constraint::Family(c) => c.vars(),
            Constraint::Linear(c) => c.vars(),
            Constraint::ReifiedLinear(c) => c.vars(),
            Constraint::Knapsack(c) => c.vars(),
            Constraint::Custom(c) => c.vars(),
        }
    }

    /// Which domain changes wake it.
    fn event(&self) -> Event {
        match self {
            Constraint::AllDifferent(c) => c.event(),
            Constraint::LockedValues(_)
            | Constraint::WideAllDifferent(_)
            | Constraint::WideMember(_)
            | Constraint::Clauses(_)
            | Constraint::Indicators(_)
            | Constraint::Element(_)
            | Constraint::Lookup(_)
            | Constraint::Table(_)
            | Constraint::Family(_) => Event::Change,
            Constraint::Linear(_) | Constraint::ReifiedLinear(_) | Constraint::Knapsack(_) => {
                Event::Bounds
            }
            Constraint::NotEqual(_) => Event::Fix,
            Constraint::Custom(c) => c.event(),
        }
    }

    /// Whether it runs after the cheap propagators have settled: the locked-values pairs,
    /// and the matching of domain-consistent groups: they reach the same fixed point when
    /// run once the cheap rules have settled instead of on every change, at a fraction of
    /// the cost (`cargo bench --bench sudoku -- sudoku_large`).
    fn is_costly(&self) -> bool {
        match self {
            Constraint::LockedValues(_) | Constraint::Knapsack(_) => true,
            Constraint::AllDifferent(c) => c.is_costly(),
            Constraint::Custom(c) => c.is_costly(),
            _ => false,
        }
    }

    /// Whether it reads which of its variables others changed since it last ran
    /// ([`Engine::store_and_changes`]) instead of looking at all of them.
    fn keeps_changes(&self) -> bool {
        matches!(
            self,
            Constraint::Family(_)
                | Constraint::WideAllDifferent(_)
                | Constraint::Clauses(_)
                | Constraint::Indicators(_)
                | Constraint::Table(_)
        ) || matches!(self, Constraint::Custom(c) if c.reads_changes())
    }
}

impl Constraint {
    /// Calls `blame` with the variables a failure of its last run is charged to (for
    /// heuristics that learn from conflicts), `scratch` being as that run left it: its
    /// variables, except for a family, which spans the whole model (a Sudoku board), so
    /// that weighting all of it would teach nothing: there, the cells its failing run had
    /// narrowed (all of them if it failed before narrowing any).
    pub(crate) fn for_each_blamed(&self, scratch: &[u64], mut blame: impl FnMut(usize)) {
        if let Constraint::Clauses(clauses) = self {
            clauses.for_each_blamed(scratch, blame);
            return;
        }
        if let Constraint::Family(family) = self {
            let mut any = false;
            for v in family.narrowed_before_failing(scratch) {
                blame(v);
                any = true;
            }
            if any {
                return;
            }
        }
        self.vars().iter().for_each(|&v| blame(v));
    }

    /// Adds to `rows[x]` the variables that `x` constrains directly through it: every
    /// other variable, except in a family, where a cell's neighbours are the cells of its
    /// groups (the family as a whole links every cell).
    pub(crate) fn add_neighbours<R: NeighbourRows + ?Sized>(&self, rows: &mut R) {
        if let Constraint::Clauses(clauses) = self {
            clauses.add_neighbours(rows);
            return;
        }
        if let Constraint::Family(family) = self {
            family.add_neighbours(rows);
            return;
        }
        let vars = self.vars();
        for &a in vars {
            rows.extend_row(a, vars.iter().filter(|&&b| b != a).map(|&b| b as u32));
        }
    }

    /// An upper bound on the entries [`Constraint::add_neighbours`] adds.
    pub(crate) fn neighbour_entries(&self) -> usize {
        if let Constraint::Clauses(clauses) = self {
            return clauses.neighbour_entries();
        }
        if let Constraint::Family(family) = self {
            return family.peer_entries();
        }
        let k = self.vars().len();
        k.saturating_mul(k.saturating_sub(1))
    }

    /// Adds to each of its variables' degree how many times it constrains the variable:
    /// once, except in the clauses' propagator, where a variable counts each clause.
    pub(crate) fn add_degrees(&self, degree: &mut [u32]) {
        match self {
            Constraint::Clauses(clauses) => clauses.add_degrees(degree),
            _ => self.vars().iter().for_each(|&v| degree[v] += 1),
        }
    }

    /// Whether it may mark itself entailed ([`Engine::dispose_current`]), so that the
    /// model needs the store's bitset of disposed constraints.
    pub(crate) fn disposes_of_itself(&self) -> bool {
        matches!(self, Constraint::ReifiedLinear(_))
    }

    /// How many words of its own it keeps in the store, after the domains.
    pub(crate) fn aux_words(&self) -> usize {
        match self {
            Constraint::Family(c) => c.aux_words(),
            Constraint::Clauses(c) => c.aux_words(),
            Constraint::Indicators(c) => c.aux_words(),
            Constraint::Table(c) => c.aux_words(),
            _ => 0,
        }
    }

    /// How many words of the engine's scratch space it needs.
    pub(crate) fn scratch_words(&self) -> usize {
        match self {
            Constraint::AllDifferent(c) => c.scratch_words(),
            Constraint::WideAllDifferent(c) => c.scratch_words(),
            Constraint::Clauses(c) => c.scratch_words(),
            Constraint::Indicators(c) => c.scratch_words(),
            Constraint::Table(c) => c.scratch_words(),
            Constraint::Family(c) => c.scratch_words(),
            Constraint::Linear(c) => c.scratch_words(),
            Constraint::ReifiedLinear(c) => c.scratch_words(),
            Constraint::Knapsack(c) => c.scratch_words(),
            Constraint::Custom(c) => c.scratch_words(),
            Constraint::NotEqual(_)
            | Constraint::WideMember(_)
            | Constraint::LockedValues(_)
            | Constraint::Element(_)
            | Constraint::Lookup(_) => 0,
        }
    }
}

/// Where [`Constraint::add_neighbours`] writes: each variable's neighbours, as lists
/// (repeats allowed) or as bitsets.
pub(crate) trait NeighbourRows {
    /// Adds `others` to the neighbours of variable `x`.
    fn extend_row(&mut self, x: usize, others: impl Iterator<Item = u32>);

    /// Adds the variables of the bitset `others` (bit `v` of word `v / 64` for variable
    /// `v`) to the neighbours of `x` and returns true, when the rows are bitsets that hold
    /// them; else returns false and adds nothing.
    fn extend_row_bits(&mut self, _x: usize, _others: &[u64]) -> bool {
        false
    }
}

impl NeighbourRows for [Vec<u32>] {
    fn extend_row(&mut self, x: usize, others: impl Iterator<Item = u32>) {
        self[x].extend(others);
    }
}

/// Compiles the constraints `posted` for the domains laid out in `store`.
///
/// All-different groups whose values fit one word (offsets included) and that overlap
/// other such groups are gathered into one [`Family`] per set of overlapping groups whose
/// permutation groups (as many values as variables) cover all their variables. A
/// [`Consistency::Domain`] or [`Consistency::Bounds`] group in a family also keeps its own
/// [`AllDifferent`] for the matching or the Hall intervals, run after the cheap
/// propagators settle (see [`Constraint::is_costly`]).
/// Other overlapping plain groups get [`LockedValues`] between them.
pub(crate) fn compile(posted: &[Posted], store: &Store) -> Vec<Constraint> {
    compile_with(posted, store, Families::Formed)
}

/// Whether [`compile_with`] gathers overlapping groups into families.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Families {
    /// Where permutation groups cover a set of overlapping groups (the default).
    Formed,
    /// Never: every group runs on its own, with locked values between overlapping plain
    /// groups (the reference the family is tested against).
    #[cfg_attr(not(test), allow(dead_code))]
    Never,
}

/// [`compile`], with or without families.
pub(crate) fn compile_with(
    posted: &[Posted],
    store: &Store,
    families: Families,
) -> Vec<Constraint> {
    let candidates = Candidates::of(posted, store);
    // A family pays where permutation groups (Sudoku's units, N-Queens' rows) cover every
    // variable: their hidden singles need every change anyway, and the other groups ride
    // along. Elsewhere (coloring cliques, whose variables are not all in permutation
    // groups) the groups are cheaper run one by one, each woken only when a variable is
    // fixed (`cargo bench --bench coloring`).
    let components: Vec<Vec<usize>> = overlapping_components(store, &candidates)
        .into_iter()
        .filter(|_| families == Families::Formed)
        .filter(|c| candidates.covered_by_permutations(c, store.num_vars()))
        .collect();
    let mut in_family = vec![false; posted.len()];
    for &i in components.iter().flatten() {
        in_family[candidates.list[i].posted] = true;
    }
    let mut compiled: Vec<Constraint> = posted
        .iter()
        .enumerate()
        .filter(|&(p, posted)| !in_family[p] || keeps_own_matching(posted))
        .filter(|(_, posted)| !matches!(posted, Posted::Clause(_) | Posted::Indicator { .. }))
        .map(|(_, posted)| match posted {
            Posted::AllDifferent {
                vars,
                offsets,
                consistency,
            } => {
                let indices: Vec<usize> = vars.iter().map(|v| v.index()).collect();
                let offsets = offsets.to_vec(vars.len());
                if needs_values_not_bits(store, &indices, &offsets) {
                    Constraint::WideAllDifferent(WideAllDifferent::new(
                        &indices,
                        &offsets,
                        *consistency,
                    ))
                } else {
                    Constraint::AllDifferent(AllDifferent::new(store, vars, &offsets, *consistency))
                }
            }
            Posted::NotEqual { x, y, offset } => {
                Constraint::NotEqual(NotEqual::new(x.index(), y.index(), *offset))
            }
            Posted::Linear {
                vars,
                coeffs,
                relation,
                rhs,
            } => {
                let vars: Vec<usize> = vars.iter().map(|v| v.index()).collect();
                Constraint::Linear(Linear::new(&vars, coeffs, *relation, *rhs, store))
            }
            Posted::ReifiedLinear {
                b,
                vars,
                coeffs,
                relation,
                rhs,
                kind,
            } => {
                let vars: Vec<usize> = vars.iter().map(|v| v.index()).collect();
                Constraint::ReifiedLinear(Box::new(ReifiedLinear::new(
                    b.index(),
                    &vars,
                    coeffs,
                    *relation,
                    *rhs,
                    *kind,
                    store,
                )))
            }
            Posted::Knapsack {
                items,
                weights,
                profits,
                capacity,
                profit,
            } => {
                let items: Vec<usize> = items.iter().map(|v| v.index()).collect();
                Constraint::Knapsack(Knapsack::new(
                    &items,
                    weights,
                    profits,
                    capacity.index(),
                    profit.index(),
                ))
            }
            Posted::WideMember {
                var,
                values,
                allowed,
            } => Constraint::WideMember(WideMember::new(var.index(), values, *allowed)),
            Posted::Table { vars, tuples } => {
                let vars: Vec<usize> = vars.iter().map(|v| v.index()).collect();
                Constraint::Table(Box::new(Table::new(&vars, tuples.compiled())))
            }
            Posted::Clause(_) | Posted::Indicator { .. } => {
                unreachable!("clauses and indicators are gathered below")
            }
            Posted::ElementVar { xs, index, z } => {
                let entries: Vec<usize> = xs.iter().map(|v| v.index()).collect();
                match WordElement::new(store, &entries, index.index(), z.index()) {
                    Some(native) => Constraint::Element(native),
                    None => {
                        Constraint::Custom(Custom::new(Arc::new(ElementVar::new(xs, *index, *z))))
                    }
                }
            }
            Posted::Element { table, index, z } => {
                match WordLookup::new(store, table, index.index(), z.index()) {
                    Some(native) => Constraint::Lookup(native),
                    None => {
                        Constraint::Custom(Custom::new(Arc::new(Element::new(table, *index, *z))))
                    }
                }
            }
            Posted::Custom(propagator) => Constraint::Custom(Custom::new(Arc::clone(propagator))),
        })
        .collect();
    // Propagators' own words follow the domains, in the order the propagators are built.
    let mut aux_next = store.len() as u32;
    for members in &components {
        let groups: Vec<FamilyGroup> = members.iter().map(|&i| candidates.group(i)).collect();
        let width = members
            .iter()
            .fold(0u64, |a, &i| a | candidates.list[i].words);
        // The highest bit any variable of the family can take, plus one.
        let width = 64 - width.leading_zeros();
        let family = Family::shared(&groups, width, |v| store.layout(v).start, aux_next);
        aux_next += family.aux_words() as u32;
        compiled.push(Constraint::Family(family));
    }
    if let Some(clauses) = gather_clauses(posted, aux_next) {
        aux_next += clauses.aux_words() as u32;
        compiled.push(Constraint::Clauses(Box::new(clauses)));
    }
    let indicators = gather_indicators(posted, store, aux_next);
    aux_next += indicators.iter().map(Constraint::aux_words).sum::<usize>() as u32;
    compiled.extend(indicators);
    // Tables' words come last, so that a family's words start where they did in another
    // model on the same groups whatever its tables (see `Family::shared`).
    for constraint in &mut compiled {
        if let Constraint::Table(table) = constraint {
            table.place_words(aux_next);
            aux_next += table.aux_words() as u32;
        }
    }
    let outside: Vec<&[usize]> = (0..candidates.list.len())
        .filter(|&i| candidates.list[i].plain && !in_family[candidates.list[i].posted])
        .map(|i| candidates.group(i).vars)
        .collect();
    compiled.extend(
        overlapping_pairs(store, &outside)
            .into_iter()
            .map(|(a, b)| Constraint::LockedValues(LockedValues::new(a, b))),
    );
    compiled
}

/// An indicator `b`, its value and its kind.
type IndicatorLink = (VarId, i32, Reification);

/// The posted indicators (`b ⇔ x = v`), one propagator per `x`: on the store's words
/// for a one-word `x` (keeping one word of its own each, from store index `aux_next`
/// on), else through the general propagator. An indicator variable met twice for one `x`
/// gets a propagator of its own the second time (a propagator's variables are distinct).
fn gather_indicators(posted: &[Posted], store: &Store, mut aux_next: u32) -> Vec<Constraint> {
    let mut by_var: BTreeMap<usize, Vec<IndicatorLink>> = BTreeMap::new();
    let mut alone = Vec::new();
    let mut seen: std::collections::HashSet<(usize, usize)> = std::collections::HashSet::new();
    for p in posted {
        if let Posted::Indicator { b, x, value, kind } = *p {
            if seen.insert((x.index(), b.index())) {
                by_var.entry(x.index()).or_default().push((b, value, kind));
            } else {
                alone.push((x.index(), vec![(b, value, kind)]));
            }
        }
    }
    by_var
        .into_iter()
        .chain(alone)
        .map(|(x, links)| {
            let on_words: Vec<(usize, i32, Reification)> = links
                .iter()
                .map(|&(b, value, kind)| (b.index(), value, kind))
                .collect();
            match WordIndicators::new(store, x, &on_words, aux_next) {
                Some(native) => {
                    aux_next += native.aux_words() as u32;
                    Constraint::Indicators(Box::new(native))
                }
                None => Constraint::Custom(Custom::new(Arc::new(Indicators::new(
                    VarId::new(x as u32),
                    &links,
                )))),
            }
        })
        .collect()
}

/// Every posted clause in one propagator whose watches start at store word `first_watch`,
/// or `None` when the model has no clause.
fn gather_clauses(posted: &[Posted], first_watch: u32) -> Option<Clauses> {
    let mut vars: Vec<usize> = Vec::new();
    let mut local: BTreeMap<usize, u32> = BTreeMap::new();
    let mut clauses: Vec<Vec<Lit>> = Vec::new();
    for p in posted {
        if let Posted::Clause(literals) = p {
            let clause = literals
                .iter()
                .map(|&(var, positive)| {
                    let next = vars.len() as u32;
                    let at = *local.entry(var.index()).or_insert_with(|| {
                        vars.push(var.index());
                        next
                    });
                    Lit { var: at, positive }
                })
                .collect();
            clauses.push(clause);
        }
    }
    (!clauses.is_empty()).then(|| Clauses::new(vars, &clauses, first_watch))
}

/// The widest value space, in bits, that an all-different group reasons on as a bitset.
pub(crate) const MAX_GROUP_BITS: i64 = 4096;

/// True when an all-different group has a wide variable, or a value space (the shifted
/// values of all its variables) wider than [`MAX_GROUP_BITS`]: it then reasons on values.
fn needs_values_not_bits(store: &Store, vars: &[usize], offsets: &[i32]) -> bool {
    if vars.iter().any(|&v| store.is_wide(v)) {
        return true;
    }
    if vars.is_empty() {
        return false;
    }
    let (mut lo, mut hi) = (i64::MAX, i64::MIN);
    for (&v, &c) in vars.iter().zip(offsets) {
        let l = store.layout(v);
        let base = i64::from(l.base) + i64::from(c);
        lo = lo.min(base);
        hi = hi.max(base + 64 * i64::from(l.len));
    }
    hi - lo > MAX_GROUP_BITS
}

/// A domain- or bounds-consistent all-different: in a family it still runs on its own, for
/// the matching or the Hall intervals the family's rules do not replace.
fn keeps_own_matching(posted: &Posted) -> bool {
    matches!(
        posted,
        Posted::AllDifferent {
            consistency: Consistency::Domain | Consistency::Bounds,
            ..
        }
    )
}

/// An all-different group whose value space fits one word.
struct Candidate {
    /// Position among the posted constraints.
    posted: usize,
    /// Where its variables and shifts lie in [`Candidates`]' vectors.
    from: usize,
    to: usize,
    /// At most as many values as variables: a permutation, or no solution (a pigeonhole).
    tight: bool,
    /// Some variable has a nonzero shift.
    shifted: bool,
    /// No offsets and no shifts: a bit means the same value in every variable, as
    /// [`LockedValues`] needs.
    plain: bool,
    /// The union of its variables' words, unshifted.
    words: u64,
}

/// The all-different groups whose value space fits one word, their variables and shifts
/// laid out one group after the other in two vectors (two allocations in all, not two
/// per group).
struct Candidates {
    list: Vec<Candidate>,
    vars: Vec<usize>,
    shifts: Vec<u32>,
}

impl Candidates {
    fn of(posted: &[Posted], store: &Store) -> Self {
        let (groups, entries) = posted.iter().fold((0, 0), |(groups, entries), p| match p {
            Posted::AllDifferent { vars, .. } => (groups + 1, entries + vars.len()),
            _ => (groups, entries),
        });
        let mut candidates = Candidates {
            list: Vec::with_capacity(groups),
            vars: Vec::with_capacity(entries),
            shifts: Vec::with_capacity(entries),
        };
        for (p, posted) in posted.iter().enumerate() {
            if let Posted::AllDifferent { vars, offsets, .. } = posted {
                if vars.len() >= 2 {
                    candidates.push(store, p, vars, offsets);
                }
            }
        }
        candidates
    }

    /// Candidate `i`'s group.
    fn group(&self, i: usize) -> FamilyGroup<'_> {
        let c = &self.list[i];
        FamilyGroup {
            vars: &self.vars[c.from..c.to],
            shifts: &self.shifts[c.from..c.to],
            tight: c.tight,
            aligned: !c.shifted,
        }
    }

    /// Adds posted constraint `posted`, all-different over `vars[i] + offsets[i]`, when
    /// every variable has a one-word domain that stays within one word once shifted into
    /// the group's value space (as `value_space_shifts` places them); in one pass over
    /// the variables after their lowest base is found.
    fn push(&mut self, store: &Store, posted: usize, vars: &[VarId], offsets: &Offsets) {
        if let (Some(words), Offsets::Zero) = (store.uniform_words(), offsets) {
            self.push_unshifted(words, posted, vars);
            return;
        }
        let base_of = |i: usize, base: i32| i64::from(base) + i64::from(offsets.of(i));
        let Some(low) = vars
            .iter()
            .enumerate()
            .map(|(i, v)| base_of(i, store.layout(v.index()).base))
            .min()
        else {
            return;
        };
        let from = self.vars.len();
        let mut values = 0u64;
        let mut union = 0u64;
        let mut shifted = false;
        for (i, v) in vars.iter().enumerate() {
            let layout = store.layout(v.index());
            let shift = base_of(i, layout.base) - low;
            let word = store.word_at(layout.start as usize);
            let top = i64::from(63u32.saturating_sub(word.leading_zeros()));
            if layout.len != 1 || shift + top >= 64 {
                self.vars.truncate(from);
                self.shifts.truncate(from);
                return;
            }
            values |= word << shift;
            union |= word;
            shifted |= shift != 0;
            self.vars.push(v.index());
            self.shifts.push(shift as u32);
        }
        self.list.push(Candidate {
            posted,
            from,
            to: self.vars.len(),
            // As many values as variables: a permutation (fewer: no solution, which the
            // scans of tight groups find).
            tight: values.count_ones() as usize <= vars.len(),
            shifted,
            plain: offsets.all_zero() && !shifted,
            words: union,
        });
    }

    /// [`Candidates::push`] of a group without offsets over a uniform store (every
    /// variable's one word, `words`, with one base): no shifts, and every group fits.
    fn push_unshifted(&mut self, words: &[u64], posted: usize, vars: &[VarId]) {
        let from = self.vars.len();
        self.vars.extend(vars.iter().map(|v| v.index()));
        let values = self.vars[from..]
            .iter()
            .fold(0u64, |acc, &v| acc | words[v]);
        self.shifts.resize(self.vars.len(), 0);
        self.list.push(Candidate {
            posted,
            from,
            to: self.vars.len(),
            tight: values.count_ones() as usize <= vars.len(),
            shifted: false,
            plain: true,
            words: values,
        });
    }

    /// Whether every variable of candidates `members` lies in one of them that is a
    /// permutation.
    fn covered_by_permutations(&self, members: &[usize], num_vars: usize) -> bool {
        // Most often every group is a permutation without shifts (Sudoku's units).
        members
            .iter()
            .all(|&i| self.list[i].tight && !self.list[i].shifted)
            || covered_by_permutations(members.iter().map(|&i| self.group(i)), num_vars)
    }
}

/// True when every variable of `groups` (variables below `num_vars`) is in one of them
/// that is a permutation.
fn covered_by_permutations<'a>(
    groups: impl Iterator<Item = FamilyGroup<'a>> + Clone,
    num_vars: usize,
) -> bool {
    let mut covered = vec![false; num_vars];
    for g in groups.clone().filter(|g| g.aligned() && g.tight) {
        for &v in g.vars {
            covered[v] = true;
        }
    }
    groups.clone().all(|g| g.vars.iter().all(|&v| covered[v]))
}

/// The sets (of two or more) of candidate groups linked by shared variables.
fn overlapping_components(store: &Store, candidates: &Candidates) -> Vec<Vec<usize>> {
    let mut parent: Vec<usize> = (0..candidates.list.len()).collect();
    fn root(parent: &mut [usize], mut i: usize) -> usize {
        while parent[i] != i {
            parent[i] = parent[parent[i]];
            i = parent[i];
        }
        i
    }
    // The first candidate holding each variable (`usize::MAX`: none yet).
    let mut owner: Vec<usize> = vec![usize::MAX; store.num_vars()];
    for i in 0..candidates.list.len() {
        // The root of i's set, kept as unions move it: i is a root when its turn comes.
        let mut ri = i;
        for &v in candidates.group(i).vars {
            match owner[v] {
                usize::MAX => owner[v] = i,
                j => {
                    let rj = root(&mut parent, j);
                    if rj != ri {
                        parent[ri] = rj;
                        ri = rj;
                    }
                }
            }
        }
    }
    // Indexed by root, so that the components come in the order of their roots.
    let mut components: Vec<Vec<usize>> = vec![Vec::new(); candidates.list.len()];
    for i in 0..candidates.list.len() {
        let r = root(&mut parent, i);
        components[r].push(i);
    }
    components.retain(|c| c.len() >= 2);
    components
}

/// Pairs of plain groups of one base that share at least two variables, where at least
/// one group is a permutation: only then can the rule ever fire, and posting it for every
/// overlapping pair of a dense model would cost more than it finds.
fn overlapping_pairs<'a>(store: &Store, groups: &[&'a [usize]]) -> Vec<(&'a [usize], &'a [usize])> {
    if groups.len() < 2 {
        return Vec::new();
    }
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
                && (is_permutation(store, vars, repeat(0))
                    || is_permutation(store, groups[b], repeat(0)))
            {
                pairs.push((groups[a], groups[b]));
            }
        }
    }
    pairs
}

/// True when the group's variables (one word each, each word moved up by its shift into
/// the group's value space) can take exactly as many values as there are variables.
fn is_permutation(store: &Store, vars: &[usize], shifts: impl IntoIterator<Item = u32>) -> bool {
    let values = vars.iter().zip(shifts).fold(0u64, |acc, (&v, s)| {
        acc | store.first_word(v).checked_shl(s).unwrap_or(0)
    });
    values.count_ones() as usize == vars.len()
}
