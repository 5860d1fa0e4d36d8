//! Every FlatZinc constraint the front end reads, against brute force. A case is one to
//! five random constraints over three small integer variables and two Booleans, their arguments
//! drawn with repeats and constants (as MiniZinc's output has them: `int_times(x, x, y)`,
//! an element whose index is also an entry of its array, a constant met twice). The
//! solutions of the model `bitcsp::flatzinc::build` makes, as `bitcsp fzn` prints them,
//! must be exactly the assignments that satisfy the constraint's FlatZinc meaning, each
//! printed once.

use std::collections::BTreeSet;
use std::fmt::Write as _;

use bitcsp::flatzinc::{build, parse};
use bitcsp::Solver;

/// Cases per constraint.
const CASES: usize = 150;

/// One argument position's content.
#[derive(Clone, Debug)]
enum Term {
    /// Integer variable `xK`.
    Int(usize),
    /// Boolean variable `bK`.
    Bool(usize),
    /// An integer constant.
    Const(i64),
    /// A Boolean constant.
    Truth(bool),
}

#[derive(Clone, Debug)]
enum Arg {
    One(Term),
    Many(Vec<Term>),
    /// A parameter array.
    Ints(Vec<i64>),
    /// A parameter array of Booleans.
    Truths(Vec<bool>),
    /// A set literal `{a, b}`.
    Set(Vec<i64>),
}

/// The variables' domains: three integer variables (sets of values) and two Booleans.
struct Pool {
    ints: Vec<Vec<i64>>,
}

const BOOLS: usize = 2;

/// A small deterministic generator (xorshift64*), so that a failure names its case.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
    fn range(&mut self, lo: i64, hi: i64) -> i64 {
        lo + self.below((hi - lo + 1) as usize) as i64
    }
    fn coin(&mut self) -> bool {
        self.next() & 1 == 1
    }
}

impl Pool {
    /// Three variables of up to seven values each; with `wide`, the first one spans more
    /// than one word of values (so that the front end may keep it as an interval).
    fn random(rng: &mut Rng, wide: bool) -> Pool {
        let ints = (0..3)
            .map(|k| {
                if wide && k == 0 {
                    return (-3..=rng.range(61, 70)).collect();
                }
                let lo = rng.range(-3, 1);
                let hi = rng.range(lo, 3);
                let mut values: Vec<i64> = (lo..=hi).filter(|_| rng.below(5) > 0).collect();
                if values.is_empty() {
                    values.push(lo);
                }
                values
            })
            .collect();
        Pool { ints }
    }

    fn int(&self, rng: &mut Rng) -> Term {
        if rng.below(5) == 0 {
            Term::Const(rng.range(-2, 2))
        } else {
            Term::Int(rng.below(self.ints.len()))
        }
    }

    fn ints(&self, rng: &mut Rng, lo: usize, hi: usize) -> Vec<Term> {
        let n = lo + rng.below(hi - lo + 1);
        (0..n).map(|_| self.int(rng)).collect()
    }

    fn boolean(rng: &mut Rng) -> Term {
        if rng.below(6) == 0 {
            Term::Truth(rng.coin())
        } else {
            Term::Bool(rng.below(BOOLS))
        }
    }

    fn bools(rng: &mut Rng, lo: usize, hi: usize) -> Vec<Term> {
        let n = lo + rng.below(hi - lo + 1);
        (0..n).map(|_| Pool::boolean(rng)).collect()
    }
}

fn coeffs(rng: &mut Rng, n: usize) -> Vec<i64> {
    (0..n).map(|_| rng.range(-3, 3)).collect()
}

fn set(rng: &mut Rng) -> Vec<i64> {
    (-3..=3).filter(|_| rng.coin()).collect()
}

/// Random arguments for the constraint `name`.
fn arguments(name: &str, pool: &Pool, rng: &mut Rng) -> Vec<Arg> {
    use Arg::{Ints, Many, One, Set};
    let int = |rng: &mut Rng| One(pool.int(rng));
    let boolean = |rng: &mut Rng| One(Pool::boolean(rng));
    match name {
        "int_eq" | "int_ne" | "int_le" | "int_lt" | "int_abs" => vec![int(rng), int(rng)],
        "int_eq_reif" | "int_ne_reif" | "int_le_reif" | "int_lt_reif" | "int_eq_imp"
        | "int_ne_imp" | "int_le_imp" | "int_lt_imp" => vec![int(rng), int(rng), boolean(rng)],
        "bool_eq" | "bool_le" | "bool_lt" | "bool_not" | "bool_xor2" => {
            vec![boolean(rng), boolean(rng)]
        }
        "bool2int" => vec![boolean(rng), int(rng)],
        "bool_eq_reif" | "bool_le_reif" | "bool_lt_reif" | "bool_and" | "bool_or" | "bool_xor" => {
            vec![boolean(rng), boolean(rng), boolean(rng)]
        }
        "int_plus" | "int_times" | "int_div" | "int_mod" | "int_pow" | "int_min" | "int_max" => {
            vec![int(rng), int(rng), int(rng)]
        }
        "array_int_minimum" | "array_int_maximum" => vec![int(rng), Many(pool.ints(rng, 1, 3))],
        "int_lin_eq" | "int_lin_le" | "int_lin_ne" => {
            let xs = pool.ints(rng, 1, 3);
            vec![
                Ints(coeffs(rng, xs.len())),
                Many(xs),
                Arg::Ints(vec![rng.range(-4, 4)]),
            ]
        }
        "int_lin_eq_reif" | "int_lin_le_reif" | "int_lin_ne_reif" | "int_lin_eq_imp"
        | "int_lin_le_imp" | "int_lin_ne_imp" => {
            let xs = pool.ints(rng, 1, 3);
            let c = Arg::Ints(vec![rng.range(-4, 4)]);
            vec![Ints(coeffs(rng, xs.len())), Many(xs), c, boolean(rng)]
        }
        "bool_lin_eq" => {
            let bs = Pool::bools(rng, 1, 3);
            vec![Ints(coeffs(rng, bs.len())), Many(bs), int(rng)]
        }
        "bool_lin_le" => {
            let bs = Pool::bools(rng, 1, 3);
            let c = Arg::Ints(vec![rng.range(-3, 3)]);
            vec![Ints(coeffs(rng, bs.len())), Many(bs), c]
        }
        "array_bool_and" | "array_bool_or" => vec![Many(Pool::bools(rng, 0, 3)), boolean(rng)],
        "array_bool_xor" => vec![Many(Pool::bools(rng, 0, 3))],
        "bool_clause" => vec![Many(Pool::bools(rng, 0, 2)), Many(Pool::bools(rng, 0, 2))],
        "bool_clause_reif" => vec![
            Many(Pool::bools(rng, 0, 2)),
            Many(Pool::bools(rng, 0, 2)),
            boolean(rng),
        ],
        "array_int_element" => {
            let n = 1 + rng.below(4);
            vec![
                int(rng),
                Ints((0..n).map(|_| rng.range(-3, 3)).collect()),
                int(rng),
            ]
        }
        "array_bool_element" => {
            let n = 1 + rng.below(4);
            let table = (0..n).map(|_| rng.coin()).collect();
            vec![int(rng), Arg::Truths(table), boolean(rng)]
        }
        "array_var_int_element" => vec![int(rng), Many(pool.ints(rng, 1, 4)), int(rng)],
        "array_var_bool_element" => vec![int(rng), Many(Pool::bools(rng, 1, 3)), boolean(rng)],
        "set_in" => vec![int(rng), Set(set(rng))],
        "set_in_reif" | "set_in_imp" => vec![int(rng), Set(set(rng)), boolean(rng)],
        "fzn_all_different_int" => vec![Many(pool.ints(rng, 0, 4))],
        "fzn_table_int" => {
            let xs = pool.ints(rng, 1, 3);
            let tuples = rng.below(6);
            let flat = (0..tuples * xs.len()).map(|_| rng.range(-3, 3)).collect();
            vec![Many(xs), Ints(flat)]
        }
        "fzn_table_bool" => {
            let bs = Pool::bools(rng, 1, 3);
            let flat = (0..rng.below(4) * bs.len()).map(|_| rng.coin()).collect();
            vec![Many(bs), Arg::Truths(flat)]
        }
        "fzn_among" => vec![int(rng), Many(pool.ints(rng, 0, 4)), Set(set(rng))],
        "bitcsp_count_eq" => vec![
            Many(pool.ints(rng, 0, 4)),
            Ints(vec![rng.range(-2, 2)]),
            int(rng),
        ],
        "fzn_global_cardinality" => {
            let cover: Vec<i64> = (-3..=3).filter(|_| rng.below(3) == 0).collect();
            let counts = (0..cover.len()).map(|_| pool.int(rng)).collect();
            vec![Many(pool.ints(rng, 0, 4)), Ints(cover), Many(counts)]
        }
        "fzn_global_cardinality_low_up" => {
            let cover: Vec<i64> = (-3..=3).filter(|_| rng.below(3) == 0).collect();
            let low: Vec<i64> = cover.iter().map(|_| rng.range(0, 1)).collect();
            let up: Vec<i64> = low.iter().map(|&l| l + rng.range(0, 2)).collect();
            vec![Many(pool.ints(rng, 0, 4)), Ints(cover), Ints(low), Ints(up)]
        }
        "bitcsp_cumulative" => {
            let n = rng.below(4);
            let starts = (0..n).map(|_| pool.int(rng)).collect();
            let d = (0..n).map(|_| rng.range(0, 3)).collect();
            let r = (0..n).map(|_| rng.range(0, 2)).collect();
            vec![Many(starts), Ints(d), Ints(r), Ints(vec![rng.range(0, 3)])]
        }
        "bitcsp_circuit" => {
            let offset = rng.range(-2, 1);
            vec![Ints(vec![offset]), Many(pool.ints(rng, 1, 3))]
        }
        // The shapes the front end gathers across constraints.
        "int_lin_ne_diff" => {
            let c = if rng.coin() { vec![1, -1] } else { vec![-1, 1] };
            let xy = vec![Term::Int(rng.below(3)), Term::Int(rng.below(3))];
            vec![Ints(c), Many(xy), Arg::Ints(vec![rng.range(-2, 2)])]
        }
        "bitcsp_count_eq_all" => {
            let xs = (0..3).map(Term::Int).collect();
            vec![Many(xs), Ints(vec![rng.range(-2, 2)]), int(rng)]
        }
        "int_eq_reif_value" => {
            let x = One(Term::Int(rng.below(3)));
            vec![x, One(Term::Const(rng.range(-3, 3))), boolean(rng)]
        }
        other => panic!("no generator for {other}"),
    }
}

/// Every constraint name the front end reads (`bool_xor2` is the two-argument `bool_xor`).
const NAMES: &[&str] = &[
    "int_eq",
    "int_ne",
    "int_le",
    "int_lt",
    "int_abs",
    "int_eq_reif",
    "int_ne_reif",
    "int_le_reif",
    "int_lt_reif",
    "int_eq_imp",
    "int_ne_imp",
    "int_le_imp",
    "int_lt_imp",
    "bool_eq",
    "bool_le",
    "bool_lt",
    "bool_not",
    "bool_xor2",
    "bool2int",
    "bool_eq_reif",
    "bool_le_reif",
    "bool_lt_reif",
    "bool_and",
    "bool_or",
    "bool_xor",
    "int_plus",
    "int_times",
    "int_div",
    "int_mod",
    "int_pow",
    "int_min",
    "int_max",
    "array_int_minimum",
    "array_int_maximum",
    "int_lin_eq",
    "int_lin_le",
    "int_lin_ne",
    "int_lin_eq_reif",
    "int_lin_le_reif",
    "int_lin_ne_reif",
    "int_lin_eq_imp",
    "int_lin_le_imp",
    "int_lin_ne_imp",
    "bool_lin_eq",
    "bool_lin_le",
    "array_bool_and",
    "array_bool_or",
    "array_bool_xor",
    "bool_clause",
    "bool_clause_reif",
    "array_int_element",
    "array_bool_element",
    "array_var_int_element",
    "array_var_bool_element",
    "set_in",
    "set_in_reif",
    "set_in_imp",
    "fzn_all_different_int",
    "fzn_table_int",
    "fzn_table_bool",
    "fzn_among",
    "bitcsp_count_eq",
    "fzn_global_cardinality",
    "fzn_global_cardinality_low_up",
    "bitcsp_cumulative",
    "bitcsp_circuit",
];

/// The binary comparisons, whose `_reif` and `_imp` forms take a third, Boolean argument.
const COMPARISONS: &[&str] = &[
    "int_eq", "int_ne", "int_le", "int_lt", "bool_eq", "bool_le", "bool_lt",
];

/// Constraints the front end gathers when they meet: `x - y != c` into all-different
/// groups, counts of one array into one global cardinality, a variable's reified values
/// into one propagator.
const GATHERED: &[&str] = &[
    "int_lin_ne_diff",
    "int_lin_ne_diff",
    "bitcsp_count_eq_all",
    "int_eq_reif_value",
    "int_eq_reif_value",
    "int_ne",
    "int_le",
    "fzn_all_different_int",
];

/// The FlatZinc constraint a name of [`NAMES`] or [`GATHERED`] stands for.
fn fzn_name(name: &str) -> &str {
    match name {
        "bool_xor2" => "bool_xor",
        "int_lin_ne_diff" => "int_lin_ne",
        "bitcsp_count_eq_all" => "bitcsp_count_eq",
        "int_eq_reif_value" => "int_eq_reif",
        other => other,
    }
}

/// An assignment: the integer variables' values, then the Booleans'.
struct Values<'a> {
    ints: &'a [i64],
    bools: &'a [bool],
}

impl Values<'_> {
    fn int(&self, t: &Term) -> i64 {
        match *t {
            Term::Int(k) => self.ints[k],
            Term::Bool(k) => i64::from(self.bools[k]),
            Term::Const(c) => c,
            Term::Truth(b) => i64::from(b),
        }
    }
    fn truth(&self, t: &Term) -> bool {
        self.int(t) != 0
    }
}

fn one(a: &Arg) -> &Term {
    match a {
        Arg::One(t) => t,
        other => panic!("expected one term, got {other:?}"),
    }
}

fn many(a: &Arg) -> &[Term] {
    match a {
        Arg::Many(ts) => ts,
        other => panic!("expected terms, got {other:?}"),
    }
}

fn ints(a: &Arg) -> Vec<i64> {
    match a {
        Arg::Ints(v) | Arg::Set(v) => v.clone(),
        Arg::Truths(v) => v.iter().map(|&b| i64::from(b)).collect(),
        other => panic!("expected constants, got {other:?}"),
    }
}

/// `x ^ k` as MiniZinc defines it (`1 div x^|k|` for a negative `k`); `None` where it has
/// no value.
fn power(x: i64, k: i64) -> Option<i64> {
    if k >= 0 {
        return x.checked_pow(u32::try_from(k).ok()?);
    }
    match x {
        0 => None,
        1 => Some(1),
        -1 => Some(if k % 2 == 0 { 1 } else { -1 }),
        _ => Some(0),
    }
}

/// Whether the constraint `name(args)` holds under `v`: FlatZinc's meaning, written out.
#[allow(clippy::too_many_lines)]
fn holds(name: &str, args: &[Arg], v: &Values) -> bool {
    let name = fzn_name(name);
    let i = |k: usize| v.int(one(&args[k]));
    let b = |k: usize| v.truth(one(&args[k]));
    let is = |k: usize| -> Vec<i64> { many(&args[k]).iter().map(|t| v.int(t)).collect() };
    let bs = |k: usize| -> Vec<bool> { many(&args[k]).iter().map(|t| v.truth(t)).collect() };
    let stem = name.trim_end_matches("_reif").trim_end_matches("_imp");
    let compare = |op: &str, x: i64, y: i64| match op {
        "eq" => x == y,
        "ne" => x != y,
        "le" => x <= y,
        _ => x < y,
    };
    let reified = |inner: bool, r: bool| {
        if name.ends_with("_imp") {
            !r || inner
        } else {
            r == inner
        }
    };
    let dot = |k: usize| -> i64 { ints(&args[0]).iter().zip(is(k)).map(|(c, x)| c * x).sum() };
    match name {
        "int_eq" | "int_ne" | "int_le" | "int_lt" | "bool_eq" | "bool_le" | "bool_lt" => {
            compare(&name[name.len() - 2..], i(0), i(1))
        }
        _ if name != stem && COMPARISONS.contains(&stem) => {
            reified(compare(&stem[stem.len() - 2..], i(0), i(1)), b(2))
        }
        "bool_not" => b(0) != b(1),
        "bool_xor" if args.len() == 2 => b(0) != b(1),
        "bool2int" => i(0) == i(1),
        "bool_and" => (b(0) && b(1)) == b(2),
        "bool_or" => (b(0) || b(1)) == b(2),
        "bool_xor" => (b(0) != b(1)) == b(2),
        "int_abs" => i(1) == i(0).abs(),
        "int_plus" => i(0) + i(1) == i(2),
        "int_times" => i(0) * i(1) == i(2),
        "int_div" => i(1) != 0 && i(0) / i(1) == i(2),
        "int_mod" => i(1) != 0 && i(0) % i(1) == i(2),
        "int_pow" => power(i(0), i(1)) == Some(i(2)),
        "int_min" => i(0).min(i(1)) == i(2),
        "int_max" => i(0).max(i(1)) == i(2),
        "array_int_minimum" => is(1).into_iter().min() == Some(i(0)),
        "array_int_maximum" => is(1).into_iter().max() == Some(i(0)),
        "int_lin_eq" | "int_lin_le" | "int_lin_ne" => {
            compare(&name[8..10], dot(1), ints(&args[2])[0])
        }
        _ if stem.starts_with("int_lin_") => {
            reified(compare(&stem[8..10], dot(1), ints(&args[2])[0]), b(3))
        }
        "bool_lin_eq" => dot(1) == i(2),
        "bool_lin_le" => dot(1) <= ints(&args[2])[0],
        "array_bool_and" => bs(0).iter().all(|&x| x) == b(1),
        "array_bool_or" => bs(0).iter().any(|&x| x) == b(1),
        "array_bool_xor" => bs(0).iter().filter(|&&x| x).count() % 2 == 1,
        "bool_clause" | "bool_clause_reif" => {
            let clause = bs(0).iter().any(|&x| x) || bs(1).iter().any(|&x| !x);
            name == "bool_clause" && clause || name != "bool_clause" && clause == b(2)
        }
        "array_int_element" | "array_bool_element" => {
            let table = ints(&args[1]);
            let index = usize::try_from(i(0) - 1).ok();
            index.and_then(|k| table.get(k)) == Some(&i(2))
        }
        "array_var_int_element" | "array_var_bool_element" => {
            let xs = is(1);
            let index = usize::try_from(i(0) - 1).ok();
            index.and_then(|k| xs.get(k)) == Some(&i(2))
        }
        "set_in" => ints(&args[1]).contains(&i(0)),
        "set_in_reif" | "set_in_imp" => reified(ints(&args[1]).contains(&i(0)), b(2)),
        "fzn_all_different_int" => {
            let xs = is(0);
            xs.iter().collect::<BTreeSet<_>>().len() == xs.len()
        }
        "fzn_table_int" | "fzn_table_bool" => {
            let xs = is(0);
            ints(&args[1]).chunks(xs.len()).any(|t| t == xs.as_slice())
        }
        "fzn_among" => {
            let set = ints(&args[2]);
            is(1).iter().filter(|x| set.contains(x)).count() as i64 == i(0)
        }
        "bitcsp_count_eq" => {
            let value = ints(&args[1])[0];
            is(0).iter().filter(|&&x| x == value).count() as i64 == i(2)
        }
        "fzn_global_cardinality" => {
            let xs = is(0);
            let counted = |c: i64| xs.iter().filter(|&&x| x == c).count() as i64;
            ints(&args[1])
                .iter()
                .zip(is(2))
                .all(|(&c, n)| counted(c) == n)
        }
        "fzn_global_cardinality_low_up" => {
            let xs = is(0);
            let counted = |c: i64| xs.iter().filter(|&&x| x == c).count() as i64;
            let (cover, low, up) = (ints(&args[1]), ints(&args[2]), ints(&args[3]));
            (0..cover.len()).all(|k| (low[k]..=up[k]).contains(&counted(cover[k])))
        }
        "bitcsp_cumulative" => {
            let (s, d, r, cap) = (is(0), ints(&args[1]), ints(&args[2]), ints(&args[3])[0]);
            let used = |t: i64| -> i64 {
                (0..s.len())
                    .filter(|&k| s[k] <= t && t < s[k] + d[k])
                    .map(|k| r[k])
                    .sum()
            };
            s.iter().all(|&t| used(t) <= cap)
        }
        "bitcsp_circuit" => {
            let offset = ints(&args[0])[0];
            let next = is(1);
            let n = next.len();
            let mut at = 0usize;
            let mut seen = vec![false; n];
            for _ in 0..n {
                if seen[at] {
                    return false;
                }
                seen[at] = true;
                match usize::try_from(next[at] - offset).ok().filter(|&k| k < n) {
                    Some(k) => at = k,
                    None => return false,
                }
            }
            at == 0 && seen.iter().all(|&s| s)
        }
        other => panic!("no meaning for {other}"),
    }
}

fn term_text(t: &Term) -> String {
    match t {
        Term::Int(k) => format!("x{k}"),
        Term::Bool(k) => format!("b{k}"),
        Term::Const(c) => c.to_string(),
        Term::Truth(b) => b.to_string(),
    }
}

fn list<T>(items: &[T], show: impl Fn(&T) -> String) -> String {
    items.iter().map(show).collect::<Vec<_>>().join(",")
}

fn arg_text(a: &Arg) -> String {
    match a {
        Arg::One(t) => term_text(t),
        Arg::Many(ts) => format!("[{}]", list(ts, term_text)),
        Arg::Ints(v) if v.len() == 1 => v[0].to_string(),
        Arg::Ints(v) => format!("[{}]", list(v, i64::to_string)),
        Arg::Truths(v) => format!("[{}]", list(v, bool::to_string)),
        Arg::Set(v) => format!("{{{}}}", list(v, i64::to_string)),
    }
}

/// One constraint: its name (as [`NAMES`] has it) and arguments.
type Constraint = (&'static str, Vec<Arg>);

/// The FlatZinc text of one case.
fn flatzinc(pool: &Pool, constraints: &[Constraint]) -> String {
    let mut text = String::new();
    for (k, d) in pool.ints.iter().enumerate() {
        let _ = writeln!(
            text,
            "var {{{}}}: x{k} :: output_var;",
            list(d, i64::to_string)
        );
    }
    for k in 0..BOOLS {
        let _ = writeln!(text, "var bool: b{k} :: output_var;");
    }
    for (name, args) in constraints {
        let name = fzn_name(name);
        let shown: Vec<String> = args
            .iter()
            .enumerate()
            .map(|(k, a)| match a {
                Arg::Ints(v) if array_arg(name, k) => format!("[{}]", list(v, i64::to_string)),
                other => arg_text(other),
            })
            .collect();
        let _ = writeln!(text, "constraint {name}({});", shown.join(","));
    }
    text.push_str("solve satisfy;\n");
    text
}

/// Whether argument `k` of `name` is an array of parameters (printed in brackets even
/// when it holds one value).
fn array_arg(name: &str, k: usize) -> bool {
    match name {
        "array_int_element" | "array_bool_element" => k == 1,
        _ if name.contains("_lin_") => k == 0,
        "fzn_table_int" | "fzn_table_bool" => k == 1,
        "fzn_global_cardinality" => k == 1,
        "fzn_global_cardinality_low_up" => (1..=3).contains(&k),
        "bitcsp_cumulative" => (1..=2).contains(&k),
        _ => false,
    }
}

/// What `bitcsp fzn` prints for the assignment.
fn printed(v: &Values) -> String {
    let mut out = String::new();
    for (k, x) in v.ints.iter().enumerate() {
        let _ = writeln!(out, "x{k} = {x};");
    }
    for (k, b) in v.bools.iter().enumerate() {
        let _ = writeln!(out, "b{k} = {b};");
    }
    out
}

/// Every assignment of the pool satisfying all the constraints, as printed.
fn brute_force(pool: &Pool, constraints: &[Constraint]) -> BTreeSet<String> {
    let mut found = BTreeSet::new();
    let sizes: Vec<usize> = pool.ints.iter().map(Vec::len).collect();
    let total: usize = sizes.iter().product::<usize>() << BOOLS;
    for mut code in 0..total {
        let bools: Vec<bool> = (0..BOOLS)
            .map(|_| {
                let b = code & 1 == 1;
                code >>= 1;
                b
            })
            .collect();
        let ints: Vec<i64> = pool
            .ints
            .iter()
            .map(|d| {
                let x = d[code % d.len()];
                code /= d.len();
                x
            })
            .collect();
        let v = Values {
            ints: &ints,
            bools: &bools,
        };
        if constraints.iter().all(|(name, args)| holds(name, args, &v)) {
            found.insert(printed(&v));
        }
    }
    found
}

/// The solutions of the built model, as printed, each once; or why it could not be built.
fn engine(text: &str) -> Result<BTreeSet<String>, String> {
    let items = parse(text).map_err(|e| e.to_string())?;
    let built = build(&items).map_err(|e| e.to_string())?;
    let mut solver = Solver::new(&built.model);
    let mut found = BTreeSet::new();
    for s in solver.solutions() {
        let shown = built.format(&s);
        if !found.insert(shown.clone()) {
            return Err(format!("printed twice:\n{shown}"));
        }
    }
    Ok(found)
}

/// Checks `cases` random cases against brute force, each with the constraints `pick`
/// chooses; the first failing case, if any, labelled with `label`.
fn check(
    label: &str,
    seed: u64,
    cases: usize,
    wide: bool,
    mut pick: impl FnMut(&mut Rng) -> Vec<&'static str>,
) -> Option<String> {
    let mut rng = Rng(0x9E37_79B9_7F4A_7C15 ^ seed.wrapping_mul(0xD1B5_4A32_D192_ED03));
    for case in 0..cases {
        let pool = Pool::random(&mut rng, wide);
        let constraints: Vec<Constraint> = pick(&mut rng)
            .into_iter()
            .map(|name| (name, arguments(name, &pool, &mut rng)))
            .collect();
        let text = flatzinc(&pool, &constraints);
        let expected = brute_force(&pool, &constraints);
        match engine(&text) {
            Ok(found) if found == expected => {}
            Ok(found) => {
                let missing: Vec<_> = expected.difference(&found).take(2).collect();
                let extra: Vec<_> = found.difference(&expected).take(2).collect();
                return Some(format!(
                    "{label} case {case}:\n{text}missing {missing:?}\nextra {extra:?}"
                ));
            }
            Err(e) => return Some(format!("{label} case {case}:\n{text}error: {e}")),
        }
    }
    None
}

#[test]
fn every_constraint_agrees_with_brute_force() {
    let failures: Vec<String> = (0..)
        .zip(NAMES)
        .filter_map(|(seed, &name)| check(name, seed + 1, CASES, false, |_| vec![name]))
        .collect();
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// Several constraints at once share variables, which is where the front end's gathering
/// works (disequalities into all-different groups, counts into one global cardinality,
/// a variable's reified values into one propagator, bounds-only variables as intervals).
#[test]
fn constraints_together_agree_with_brute_force() {
    let pick = |rng: &mut Rng| -> Vec<&'static str> {
        let n = 2 + rng.below(3);
        (0..n).map(|_| NAMES[rng.below(NAMES.len())]).collect()
    };
    let gathered = |rng: &mut Rng| -> Vec<&'static str> {
        let n = 2 + rng.below(4);
        (0..n)
            .map(|_| GATHERED[rng.below(GATHERED.len())])
            .collect()
    };
    let failures: Vec<String> = [
        check("together", 1000, 4 * CASES, false, pick),
        check("together (wide)", 2000, 4 * CASES, true, pick),
        check("gathered", 3000, 4 * CASES, false, gathered),
        check("gathered (wide)", 4000, 4 * CASES, true, gathered),
    ]
    .into_iter()
    .flatten()
    .collect();
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
