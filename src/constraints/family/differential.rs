//! The family against the groups it replaces: on random overlapping layouts with random
//! domains, the family's fixed point at the root equals that of the same groups compiled
//! as separate `AllDifferent` and `LockedValues` propagators, and it never removes a value
//! of a solution found by brute force.

use std::sync::Arc;

use super::cache::forget_kept_families;
use super::pairs_later::PairsLater;
use crate::constraints::{compile_with, Constraint, Families};
use crate::propagate::{Engine, Watchers};
use crate::store::Store;
use crate::xorshift::XorShift;
use crate::{Consistency, Model, Relation, VarId};

/// A layout: the number of variables, each group as (variables, offsets), and the values
/// `1..=values`.
struct Layout {
    vars: usize,
    values: i32,
    groups: Vec<(Vec<usize>, Vec<i32>)>,
}

fn plain(vars: Vec<usize>) -> (Vec<usize>, Vec<i32>) {
    let offsets = vec![0; vars.len()];
    (vars, offsets)
}

/// Rows and columns of an n×n square.
fn latin(n: usize) -> Layout {
    let rows = (0..n).map(|r| plain((0..n).map(|c| r * n + c).collect()));
    let cols = (0..n).map(|c| plain((0..n).map(|r| r * n + c).collect()));
    Layout {
        vars: n * n,
        values: n as i32,
        groups: rows.chain(cols).collect(),
    }
}

/// A Sudoku board with boxes of `r`×`c` cells.
fn sudoku(r: usize, c: usize) -> Layout {
    let n = r * c;
    let mut layout = latin(n);
    for b in 0..n {
        let (top, left) = (b / r * r, b % r * c);
        let cells = (0..n).map(|i| (top + i / c) * n + left + i % c).collect();
        layout.groups.push(plain(cells));
    }
    layout
}

/// N-Queens: the row of each column, all different, and both diagonals as offsets.
fn queens(n: usize) -> Layout {
    let vars: Vec<usize> = (0..n).collect();
    let up = (0..n as i32).collect();
    let down = (0..n as i32).map(|i| -i).collect();
    Layout {
        vars: n,
        values: n as i32,
        groups: vec![plain(vars.clone()), (vars.clone(), up), (vars, down)],
    }
}

/// `layout` with each value kept in each domain with probability `keep` %, and each group
/// of the given strength. With `aligned`, every variable is made over `1..=values` and
/// loses the values not kept, so that a bit means the same value in every domain and the
/// family gets a value-major view (and its pairs come later); else each variable is made
/// from its values, with a base of its own, and the family takes the general shape.
fn random_model(
    layout: &Layout,
    keep: u64,
    strength: Consistency,
    aligned: bool,
    random: &mut XorShift,
) -> Model {
    let mut model = Model::new();
    let vars: Vec<VarId> = (0..layout.vars)
        .map(|_| {
            let mut values: Vec<i32> = (1..=layout.values)
                .filter(|_| random.next_u64() % 100 < keep)
                .collect();
            if values.is_empty() {
                values.push(1 + (random.next_u64() % layout.values as u64) as i32);
            }
            if !aligned {
                return model.new_var_from_values(&values).expect("domain");
            }
            let var = model.new_var(1..=layout.values).expect("domain");
            for value in (1..=layout.values).filter(|v| !values.contains(v)) {
                model
                    .remove_value(var, value)
                    .expect("a value of the domain");
            }
            var
        })
        .collect();
    for (group, offsets) in &layout.groups {
        let group: Vec<VarId> = group.iter().map(|&v| vars[v]).collect();
        model
            .all_different_offset_with(&group, offsets, strength)
            .expect("group");
    }
    model
}

/// The domains after propagating the root, or `None` on a conflict.
fn root_fixed_point(model: &Model, families: Families) -> Option<Vec<Vec<i32>>> {
    root_propagated(model, families).0
}

/// [`root_fixed_point`], with the compiled constraints after the propagation.
fn root_propagated(model: &Model, families: Families) -> (Option<Vec<Vec<i32>>>, Vec<Constraint>) {
    let (engine, constraints, _) = propagated_root(model, families);
    (engine.map(|e| domains_of(&e.store)), constraints)
}

/// The engine of `model` after propagating its root (`None` on a conflict), its compiled
/// constraints, and scratch space for more propagation.
fn propagated_root(
    model: &Model,
    families: Families,
) -> (Option<Engine>, Vec<Constraint>, Vec<u64>) {
    let laid_out = Store::new(model.domains());
    let constraints: Vec<Constraint> = compile_with(model.posted(), &laid_out, families);
    let aux = constraints.iter().map(Constraint::aux_words).sum();
    let store = Store::with_layout(model.domains(), laid_out.shared_layout(), aux);
    let watchers = Arc::new(Watchers::new(store.num_vars(), &constraints, None));
    let mut engine = Engine::new(store, &constraints, watchers);
    let scratch_words = constraints.iter().map(Constraint::scratch_words).max();
    let mut scratch = vec![0; scratch_words.unwrap_or(0)];
    engine.reset();
    if engine.store.any_empty() || engine.propagate(&constraints, &mut scratch).is_err() {
        return (None, constraints, scratch);
    }
    (Some(engine), constraints, scratch)
}

/// The domains held by `store`.
fn domains_of(store: &Store) -> Vec<Vec<i32>> {
    (0..store.num_vars())
        .map(|v| {
            let base = store.layout(v).base;
            let words = store.words(v);
            (0..words.len() * 64)
                .filter(|&i| words[i / 64] >> (i % 64) & 1 == 1)
                .map(|i| base + i as i32)
                .collect()
        })
        .collect()
}

/// `layout`'s groups over variables made as [`random_model`] made them (with `aligned`,
/// over `1..=values`; else from their `initial` values, so that each keeps its base and
/// the groups their shape), narrowed to `domains`.
fn model_over(layout: &Layout, initial: &[Vec<i32>], domains: &[Vec<i32>], aligned: bool) -> Model {
    let mut model = Model::new();
    let vars: Vec<VarId> = initial
        .iter()
        .zip(domains)
        .map(|(from, values)| {
            let var = if aligned {
                model.new_var(1..=layout.values).expect("domain")
            } else {
                model.new_var_from_values(from).expect("domain")
            };
            for value in (1..=layout.values).filter(|v| !values.contains(v)) {
                if model.domain(var).is_some_and(|d| d.contains(value)) {
                    model
                        .remove_value(var, value)
                        .expect("a value of the domain");
                }
            }
            var
        })
        .collect();
    for (group, offsets) in &layout.groups {
        let group: Vec<VarId> = group.iter().map(|&v| vars[v]).collect();
        model
            .all_different_offset_with(&group, offsets, Consistency::Fast)
            .expect("group");
    }
    model
}

/// Checks on `cases` random models of `layout` (each value kept with a probability
/// between `keep_from` and `keep_to` %) the runs after the root's, as a search makes them:
/// from the root's fixed point, a few steps each narrow one variable (fix it to one of
/// its values or take one away) and propagate, then are undone or kept; after each, the
/// family's domains must be the fixed point of the separate groups over the domains
/// before the step, narrowed the same way.
fn check_later_runs(layout: &Layout, cases: usize, (keep_from, keep_to): (u64, u64), seed: u64) {
    check_later_runs_in(layout, cases, (keep_from, keep_to), seed, |case| {
        case % 2 == 0
    });
}

/// [`check_later_runs`], case `k` with a view (pairs built after the root) when
/// `aligned(k)`, else in the general shape.
fn check_later_runs_in(
    layout: &Layout,
    cases: usize,
    (keep_from, keep_to): (u64, u64),
    seed: u64,
    aligned: impl Fn(usize) -> bool,
) {
    let make = |case, random: &mut XorShift| {
        let keep = keep_from + random.next_u64() % (keep_to - keep_from + 1);
        let aligned = aligned(case);
        let model = random_model(layout, keep, Consistency::Fast, aligned, random);
        (model, aligned)
    };
    check_later_runs_of(layout, cases, seed, make, |_| {});
}

/// [`check_later_runs`] on the models `make(case, random)` makes over `layout`, each with
/// whether its variables are aligned (as [`model_over`] takes it); `also` posts on the
/// reference models what `make` posts beside the groups.
fn check_later_runs_of(
    layout: &Layout,
    cases: usize,
    seed: u64,
    mut make: impl FnMut(usize, &mut XorShift) -> (Model, bool),
    also: impl Fn(&mut Model),
) {
    let mut random = XorShift(seed);
    for case in 0..cases {
        let (model, aligned) = make(case, &mut random);
        let initial: Vec<Vec<i32>> = model
            .vars()
            .map(|v| model.domain(v).expect("variable").iter().collect())
            .collect();
        forget_kept_families();
        let (Some(mut engine), constraints, mut scratch) =
            propagated_root(&model, Families::Formed)
        else {
            continue;
        };
        for step in 0..8 {
            let before = domains_of(&engine.store);
            let open: Vec<usize> = (0..before.len()).filter(|&v| before[v].len() > 1).collect();
            if open.is_empty() {
                break;
            }
            let var = open[(random.next_u64() % open.len() as u64) as usize];
            let values = &before[var];
            let value = values[(random.next_u64() % values.len() as u64) as usize];
            let fix = random.next_u64() % 2 == 0;
            let base = engine.store.layout(var).base;
            let bit = 1u64 << (value - base);
            let word = engine.store.first_word(var);
            let narrowed_word = if fix { bit } else { word & !bit };
            let mut narrowed = before.clone();
            narrowed[var].retain(|&v| if fix { v == value } else { v != value });
            engine.store.push_level();
            let family = engine
                .set_one_word(var, narrowed_word)
                .and_then(|()| engine.propagate(&constraints, &mut scratch))
                .ok()
                .map(|()| domains_of(&engine.store));
            let mut reference = model_over(layout, &initial, &narrowed, aligned);
            also(&mut reference);
            let separate = root_fixed_point(&reference, Families::Never);
            assert_eq!(family, separate, "case {case}, step {step}");
            if family.is_none() || random.next_u64() % 2 == 0 {
                engine.abandon_queue();
                engine.store.pop_level();
                assert_eq!(domains_of(&engine.store), before, "case {case}: undo");
            }
        }
    }
}

#[test]
fn runs_after_the_root_reach_the_fixed_point_of_separate_groups() {
    // After a root that leaves cells open, a family with a view runs with the pairs it
    // built then (box-line records on the 9×9 board, the general pairs on the others),
    // which the root's fixed points above never reach, and a run sees only the cells
    // changed since the last; undo must restore the view with the domains.
    check_later_runs(&sudoku(3, 3), 300, (40, 95), 0x1B1B);
    check_later_runs(&queens(8), 100, (45, 95), 0x7B7B);
    check_later_runs(&latin(10), 30, (60, 95), 0x2C2C);
    let mut random = XorShift(0x3D3D);
    let layout = jigsaw(9, &mut random);
    check_later_runs(&layout, 30, (60, 95), 0x4E4E);
    // Groups of two: a change inside a pair's intersection can leave such a group with
    // as many values as cells, and must bring the pair another look.
    let layout = latin_with_neighbours(9, 40, &mut random);
    check_later_runs_in(&layout, 200, (30, 60), 0x5F5F, |_| true);
    check_later_runs(&layout, 100, (30, 60), 0x6F6F);
    check_later_runs(&sudoku(2, 3), 60, (45, 95), 0x6A6A);
}

#[test]
fn runs_after_the_root_of_hard_puzzles_reach_the_fixed_point_of_separate_groups() {
    // Hard 9×9 puzzles leave most cells open at the root, and a step there often places
    // a cascade of cells across a band (which a board's run writes back band by band),
    // where random domains mostly fail or settle at the root.
    let puzzles: Vec<&str> =
        include_str!("../../../tests/data/sudoku/forum_hardest_1905_sample.txt")
            .lines()
            .take(60)
            .collect();
    let layout = sudoku(3, 3);
    // Alone, the family's run writes all the cells back in one copy; watched by another
    // constraint (a sum every solution meets), it writes back and announces the changed
    // cells only.
    let watch_all = |model: &mut Model| {
        let vars: Vec<VarId> = model.vars().collect();
        model.sum(&vars, Relation::AtMost, 405).expect("sum");
    };
    let unwatched = |_: &mut Model| {};
    check_later_runs_of(
        &layout,
        30,
        0x7C7C,
        puzzle_model(&puzzles, &layout, unwatched),
        unwatched,
    );
    check_later_runs_of(
        &layout,
        60,
        0x7D7D,
        puzzle_model(&puzzles, &layout, watch_all),
        watch_all,
    );
}

/// The models of `puzzles` (9×9 lines) over `layout`'s groups, with what `also` posts.
fn puzzle_model<'a>(
    puzzles: &'a [&str],
    layout: &'a Layout,
    also: impl Fn(&mut Model) + 'a,
) -> impl FnMut(usize, &mut XorShift) -> (Model, bool) + 'a {
    move |case, _| {
        let mut model = Model::new();
        for symbol in puzzles[case].bytes() {
            // Over 1..=9 and narrowed, as a board's cells must be to run as one.
            let var = model.new_var(1..=9).expect("domain");
            if let b'1'..=b'9' = symbol {
                for value in (1..=9).filter(|&v| v != i32::from(symbol - b'0')) {
                    model.remove_value(var, value).expect("a value");
                }
            }
        }
        let vars: Vec<VarId> = model.vars().collect();
        for (group, offsets) in &layout.groups {
            let group: Vec<VarId> = group.iter().map(|&v| vars[v]).collect();
            model
                .all_different_offset_with(&group, offsets, Consistency::Fast)
                .expect("group");
        }
        also(&mut model);
        (model, true)
    }
}

/// An n×n square's rows and columns, and `pairs` random horizontally adjacent cells that
/// differ too: groups of two, looser than permutations.
fn latin_with_neighbours(n: usize, pairs: usize, random: &mut XorShift) -> Layout {
    let mut layout = latin(n);
    for _ in 0..pairs {
        let r = (random.next_u64() % n as u64) as usize;
        let c = (random.next_u64() % (n as u64 - 1)) as usize;
        layout.groups.push(plain(vec![r * n + c, r * n + c + 1]));
    }
    layout
}

/// Every solution of `layout` over `domains`, by backtracking over the variables in order.
fn brute_force(layout: &Layout, domains: &[Vec<i32>]) -> Vec<Vec<i32>> {
    fn extend(
        layout: &Layout,
        domains: &[Vec<i32>],
        partial: &mut Vec<i32>,
        out: &mut Vec<Vec<i32>>,
    ) {
        let v = partial.len();
        if v == layout.vars {
            out.push(partial.clone());
            return;
        }
        for &value in &domains[v] {
            let clashes = layout.groups.iter().any(|(group, offsets)| {
                let Some(at) = group.iter().position(|&g| g == v) else {
                    return false;
                };
                group
                    .iter()
                    .zip(offsets)
                    .any(|(&u, &o)| u < v && partial[u] + o == value + offsets[at] && u != v)
            });
            if !clashes {
                partial.push(value);
                extend(layout, domains, partial, out);
                partial.pop();
            }
        }
    }
    let mut out = Vec::new();
    extend(layout, domains, &mut Vec::new(), &mut out);
    out
}

/// Checks on `cases` random models of `layout` that the family's fixed point at the root
/// is that of the separate groups, without the brute-force search (for layouts too
/// large for it), each value kept in a domain with a probability between `keep_from` and
/// `keep_to` %.
fn check_fixed_points(layout: &Layout, cases: usize, (keep_from, keep_to): (u64, u64), seed: u64) {
    let mut random = XorShift(seed);
    for case in 0..cases {
        let keep = keep_from + random.next_u64() % (keep_to - keep_from + 1);
        // Alternately with a view (pairs later) and in the general shape.
        let model = random_model(layout, keep, Consistency::Fast, case % 2 == 0, &mut random);
        forget_kept_families();
        let family = root_fixed_point(&model, Families::Formed);
        let separate = root_fixed_point(&model, Families::Never);
        assert_eq!(family, separate, "case {case}: keep {keep} %");
    }
}

/// Checks `cases` random models of `layout`, each value kept in a domain with a
/// probability between `keep_from` and `keep_to` % (loose domains make brute force slow
/// on the larger layouts).
fn check(layout: &Layout, cases: usize, (keep_from, keep_to): (u64, u64), seed: u64) {
    let mut random = XorShift(seed);
    for case in 0..cases {
        let keep = keep_from + random.next_u64() % (keep_to - keep_from + 1);
        let strength = if random.next_u64() % 3 == 0 {
            Consistency::Domain
        } else {
            Consistency::Fast
        };
        // Alternately with a view (pairs later) and in the general shape.
        let model = random_model(layout, keep, strength, case % 2 == 0, &mut random);
        // Each case compiles its own family, which builds its pairs (if it has any) only
        // if the run needs them.
        forget_kept_families();
        let family = root_fixed_point(&model, Families::Formed);
        let separate = root_fixed_point(&model, Families::Never);
        assert_eq!(family, separate, "case {case}: {strength:?}, keep {keep} %");
        let initial: Vec<Vec<i32>> = model
            .vars()
            .map(|v| model.domain(v).expect("variable").iter().collect())
            .collect();
        let solutions = brute_force(layout, &initial);
        match &family {
            None => assert!(solutions.is_empty(), "case {case}: a solution was lost"),
            Some(domains) => {
                for solution in &solutions {
                    for (v, value) in solution.iter().enumerate() {
                        assert!(
                            domains[v].contains(value),
                            "case {case}: {value} removed from variable {v}, which a solution uses"
                        );
                    }
                }
            }
        }
    }
}

#[test]
fn latin_squares_reach_the_fixed_point_of_separate_groups() {
    for n in 3..=5 {
        check(&latin(n), 150, (45, 95), 0x1234 + n as u64);
    }
}

#[test]
fn sudoku_boards_reach_the_fixed_point_of_separate_groups() {
    check(&sudoku(2, 2), 300, (45, 95), 0x5151);
    check(&sudoku(2, 3), 60, (40, 60), 0x6161);
}

#[test]
fn queens_layouts_reach_the_fixed_point_of_separate_groups() {
    for n in 4..=9 {
        check(&queens(n), 200, (45, 95), 0x7777 + n as u64);
    }
}

/// A layout of irregular regions: an n×n square's rows and columns, and its cells cut
/// into n regions of n cells each by a random walk over the cells in snake order, so that
/// regions straddle rows and columns.
fn jigsaw(n: usize, random: &mut XorShift) -> Layout {
    let mut layout = latin(n);
    let snake: Vec<usize> = (0..n)
        .flat_map(|r| (0..n).map(move |c| r * n + if r % 2 == 0 { c } else { n - 1 - c }))
        .collect();
    // A random rotation of the snake, so that the regions' cuts fall anywhere.
    let shift = (random.next_u64() % (n * n) as u64) as usize;
    for k in 0..n {
        let cells = (0..n)
            .map(|i| snake[(shift + k * n + i) % (n * n)])
            .collect();
        layout.groups.push(plain(cells));
    }
    layout
}

#[test]
fn jigsaw_boards_reach_the_fixed_point_of_separate_groups() {
    let mut random = XorShift(0x9191);
    for n in [4, 5] {
        for _ in 0..3 {
            let layout = jigsaw(n, &mut random);
            let seed = random.next_u64();
            check(&layout, 60, (45, 95), seed);
        }
    }
}

/// The pairs of the family among `constraints` as a run left them: `Some(true)` built,
/// `Some(false)` still to come, `None` for a family that had them from the start.
fn pairs_built(constraints: &[Constraint]) -> Option<bool> {
    constraints.iter().find_map(|c| match c {
        Constraint::Family(family) => family
            .pairs_later
            .as_deref()
            .map(|later| PairsLater::built(later).is_some()),
        _ => None,
    })
}

#[test]
fn larger_boards_reach_the_fixed_point_of_separate_groups() {
    // Larger boards, where removals chain through several rules within one run; from
    // 16×16 a bitset of cells takes more than two words.
    let mut random = XorShift(0xD4D4);
    check_fixed_points(&sudoku(4, 4), 40, (70, 95), 0xC7C7);
    check_fixed_points(&sudoku(3, 3), 200, (55, 90), 0xE5E5);
    for _ in 0..3 {
        let layout = jigsaw(9, &mut random);
        let seed = random.next_u64();
        check_fixed_points(&layout, 150, (55, 90), seed);
    }
}

/// The groups of `layout` (without offsets) as all-different groups over `vars`.
fn post_groups(model: &mut Model, layout: &Layout, vars: &[VarId]) {
    for (group, _) in &layout.groups {
        let group: Vec<VarId> = group.iter().map(|&v| vars[v]).collect();
        model.all_different(&group).expect("group");
    }
}

#[test]
fn a_family_builds_its_pairs_only_when_a_run_leaves_cells_open() {
    let layout = sudoku(2, 2);
    // Every cell fixed but one, to a solution: fixed values settle it.
    let solution = [1, 2, 3, 4, 3, 4, 1, 2, 2, 1, 4, 3, 4, 3, 2, 1];
    let mut model = Model::new();
    let vars = model.new_vars(16, 1..=4).expect("variables");
    for (&var, &value) in vars.iter().zip(&solution).skip(1) {
        model.fix(var, value).expect("a value of the domain");
    }
    post_groups(&mut model, &layout, &vars);
    forget_kept_families();
    let (domains, constraints) = root_propagated(&model, Families::Formed);
    let fixed: Vec<Vec<i32>> = solution.iter().map(|&v| vec![v]).collect();
    assert_eq!(domains, Some(fixed));
    assert_eq!(pairs_built(&constraints), Some(false));
    // No givens: every cell stays open, and the pairs are built for the search to come.
    let mut model = Model::new();
    let vars = model.new_vars(16, 1..=4).expect("variables");
    post_groups(&mut model, &layout, &vars);
    forget_kept_families();
    let (domains, constraints) = root_propagated(&model, Families::Formed);
    assert_eq!(
        domains.map(|d| d.iter().all(|values| values.len() == 4)),
        Some(true)
    );
    assert_eq!(pairs_built(&constraints), Some(true));
}

#[test]
fn a_family_without_pairs_finds_a_locked_value_on_its_view() {
    // A 4×4 board whose only deduction is a locked value: 1 has left the bottom row of the
    // top-left box, so in that box it lies in the top row, and leaves the top row's other
    // cells. No cell is fixed and no value has one place: only the locked-values rule,
    // read off the view before any pair is built, finds it.
    let layout = sudoku(2, 2);
    let mut model = Model::new();
    let vars = model.new_vars(16, 1..=4).expect("variables");
    for cell in [4, 5] {
        model
            .remove_value(vars[cell], 1)
            .expect("a value of the domain");
    }
    post_groups(&mut model, &layout, &vars);
    forget_kept_families();
    let (domains, constraints) = root_propagated(&model, Families::Formed);
    assert_eq!(pairs_built(&constraints), Some(true));
    let domains = domains.expect("no conflict");
    for cell in [2, 3, 4, 5] {
        assert_eq!(domains[cell], vec![2, 3, 4], "cell {cell}");
    }
    assert_eq!(Some(domains), root_fixed_point(&model, Families::Never));
}

/// `layout` over variables `gap..`, after `gap` variables in no group: a family whose
/// variables are not the first ones, with local indices of its own.
fn after(gap: usize, layout: Layout) -> Layout {
    Layout {
        vars: layout.vars + gap,
        values: layout.values,
        groups: layout
            .groups
            .into_iter()
            .map(|(vars, offsets)| (vars.into_iter().map(|v| v + gap).collect(), offsets))
            .collect(),
    }
}

#[test]
fn families_over_later_variables_reach_the_fixed_point_of_separate_groups() {
    check(&after(2, latin(3)), 100, (45, 95), 0xA1A1);
    check(&after(3, sudoku(2, 2)), 60, (60, 95), 0xB2B2);
    check(&after(1, queens(5)), 100, (45, 95), 0xC3C3);
}

/// A 4×4 board with boxes of 2×2 whose horizontally adjacent cells also differ, as
/// groups of two: groups with fewer cells than values, which the locked-values rule must
/// use only when their cells can hold no more values than there are cells.
fn sudoku_with_neighbours() -> Layout {
    let mut layout = sudoku(2, 2);
    for r in 0..4 {
        for c in 0..3 {
            layout.groups.push(plain(vec![r * 4 + c, r * 4 + c + 1]));
        }
    }
    layout
}

#[test]
fn groups_looser_than_permutations_reach_the_fixed_point_of_separate_groups() {
    check(&sudoku_with_neighbours(), 300, (45, 95), 0xF6F6);
}

/// `items` in a random order (Fisher–Yates).
fn shuffle<T>(items: &mut [T], random: &mut XorShift) {
    for i in (1..items.len()).rev() {
        items.swap(i, random.below(i + 1));
    }
}

/// A 9×9 board with boxes of 3×3 whose cells are numbered in a random order, and whose
/// groups, and each group's cells, come in a random order.
fn scrambled_sudoku(random: &mut XorShift) -> Layout {
    let mut layout = sudoku(3, 3);
    let mut number: Vec<usize> = (0..layout.vars).collect();
    shuffle(&mut number, random);
    for (group, _) in &mut layout.groups {
        group.iter_mut().for_each(|v| *v = number[*v]);
        shuffle(group, random);
    }
    shuffle(&mut layout.groups, random);
    layout
}

/// Whether `layout`'s groups, posted over aligned domains `1..=values`, compile to a
/// family that runs as a 9×9 board.
fn runs_as_board(layout: &Layout) -> bool {
    let mut random = XorShift(0xB0A2D);
    let model = random_model(layout, 100, Consistency::Fast, true, &mut random);
    forget_kept_families();
    let constraints = compile_with(
        model.posted(),
        &Store::new(model.domains()),
        Families::Formed,
    );
    constraints
        .iter()
        .any(|c| matches!(c, Constraint::Family(family) if family.board.is_some()))
}

/// `layout` over every other variable: a family whose domains do not lie side by side
/// in the store.
fn spread(layout: Layout) -> Layout {
    Layout {
        vars: layout.vars * 2,
        values: layout.values,
        groups: layout
            .groups
            .into_iter()
            .map(|(vars, offsets)| (vars.into_iter().map(|v| v * 2).collect(), offsets))
            .collect(),
    }
}

#[test]
fn a_9x9_board_runs_band_by_band_whatever_the_order_of_its_cells_and_groups() {
    let mut random = XorShift(0x9B9B);
    assert!(runs_as_board(&sudoku(3, 3)));
    let apart = spread(sudoku(3, 3));
    assert!(runs_as_board(&apart));
    check_fixed_points(&apart, 40, (55, 90), 0x5B5B);
    check_later_runs_in(&apart, 40, (40, 95), 0x6B6B, |_| true);
    for _ in 0..3 {
        let layout = scrambled_sudoku(&mut random);
        assert!(runs_as_board(&layout));
        let seed = random.next_u64();
        check_fixed_points(&layout, 60, (55, 90), seed);
        check_later_runs_in(&layout, 60, (40, 95), seed ^ 1, |_| true);
    }
}

/// A 9×9 board with groups of two beside its units: cells a knight's move apart in
/// different rows, columns and boxes that differ, and orthogonal neighbours `x` and `y`
/// with `x ≠ y + 1` and `x ≠ y - 1` (as offsets), each of these groups kept with
/// probability `percent` %.
fn sudoku_with_pairs(percent: u64, random: &mut XorShift) -> Layout {
    let mut layout = sudoku(3, 3);
    let cell = |r: usize, c: usize| r * 9 + c;
    let same_unit = |(r1, c1): (usize, usize), (r2, c2): (usize, usize)| {
        r1 == r2 || c1 == c2 || (r1 / 3 == r2 / 3 && c1 / 3 == c2 / 3)
    };
    for r in 0..9 {
        for c in 0..9 {
            for (dr, dc) in [(1, 2), (2, 1), (1, -2), (2, -1)] {
                let (r2, c2) = (r + dr, c as i64 + dc);
                if r2 < 9 && (0..9).contains(&c2) && random.next_u64() % 100 < percent {
                    let c2 = c2 as usize;
                    if !same_unit((r, c), (r2, c2)) {
                        layout.groups.push(plain(vec![cell(r, c), cell(r2, c2)]));
                    }
                }
            }
            for (r2, c2) in [(r, c + 1), (r + 1, c)] {
                for offset in [1, -1] {
                    if r2 < 9 && c2 < 9 && random.next_u64() % 100 < percent {
                        layout
                            .groups
                            .push((vec![cell(r, c), cell(r2, c2)], vec![0, offset]));
                    }
                }
            }
        }
    }
    layout
}

#[test]
fn a_9x9_board_with_groups_of_two_beside_it_reaches_the_fixed_point_of_separate_groups() {
    let mut random = XorShift(0x9A1F);
    for percent in [15, 40, 100] {
        let layout = sudoku_with_pairs(percent, &mut random);
        assert!(runs_as_board(&layout), "{percent} %");
        let seed = random.next_u64();
        check_fixed_points(&layout, 40, (55, 95), seed);
        check_later_runs_in(&layout, 60, (45, 95), seed ^ 1, |_| true);
    }
}

#[test]
fn layouts_that_are_no_9x9_board_keep_the_generic_run() {
    let mut random = XorShift(0xA1A1);
    let mut with_diagonals = sudoku(3, 3);
    with_diagonals
        .groups
        .push(plain((0..9).map(|i| i * 10).collect()));
    with_diagonals
        .groups
        .push(plain((0..9).map(|i| i * 8 + 8).collect()));
    let mut twice = sudoku(3, 3);
    twice.groups.push(twice.groups[0].clone());
    // Rows, columns and a box's row of three each as a group of their own.
    // Two cells of a box that differ: a naked pair there is the generic run's to find.
    let mut in_a_box = sudoku(3, 3);
    in_a_box.groups.push(plain(vec![0, 10]));
    let mut lines_only = latin(9);
    lines_only.groups.push(plain(vec![0, 1, 2]));
    for layout in [
        jigsaw(9, &mut random),
        with_diagonals,
        twice,
        in_a_box,
        latin(9),
        sudoku(2, 3),
        sudoku(4, 4),
    ] {
        assert!(!runs_as_board(&layout));
    }
    assert!(!runs_as_board(&lines_only));
}
