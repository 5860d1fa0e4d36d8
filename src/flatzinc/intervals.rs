//! Which integer variables of a FlatZinc model are better kept as intervals.
//!
//! A variable over more than 64 values is a bitset of several words, whose bounds take a
//! scan of its words to read. In a scheduling model nearly every variable is a start time
//! that only sums, orderings, maxima and cumulative constraints read, and only by their
//! bounds: none of them ever removes a value from between the bounds. Such a variable
//! loses nothing as an interval ([`Domain::interval`](crate::Domain::interval)), whose
//! bounds are two store words read at once. A variable keeps its bitset as soon as one
//! constraint on it could make a hole (all-different, disequalities, tables, element,
//! reified equalities, domain-consistent equations, arithmetic), or a search annotation
//! tries one of its values between the bounds first.

use std::collections::{HashMap, HashSet};

use super::parse::{Annotation, Expr, Item, Located, Type};

/// Domains of at most this many values stay bitsets: one word, read as fast as an
/// interval.
const ONE_WORD: i64 = 64;

/// The names of the integer variables declared with a range of more than one word of
/// values on which every constraint reasons by bounds only.
pub(crate) fn bounds_only(items: &[Located]) -> HashSet<String> {
    let mut candidates = HashSet::new();
    let mut arrays: HashMap<&str, &[Expr]> = HashMap::new();
    for located in items {
        match &located.item {
            Item::Variable {
                name,
                ty: Type::Range(lo, hi),
                array: None,
                value: None,
                ..
            } if hi.saturating_sub(*lo) >= ONE_WORD => {
                candidates.insert(name.clone());
            }
            Item::Variable {
                name,
                value: Some(Expr::Array(elements)),
                ..
            } => {
                arrays.insert(name, elements);
            }
            _ => {}
        }
    }
    let mut holes = Holes {
        arrays,
        marked: HashSet::new(),
    };
    for located in items {
        match &located.item {
            Item::Constraint {
                name,
                args,
                annotations,
            } if !holes.keeps_to_bounds(name, args, annotations) => {
                args.iter().for_each(|a| holes.mark(a, 0));
            }
            Item::Solve { annotations, .. } => {
                annotations.iter().for_each(|a| holes.mark_search(a));
            }
            _ => {}
        }
    }
    candidates.retain(|name| !holes.marked.contains(name.as_str()));
    candidates
}

/// The variables that may get holes, as they are found.
struct Holes<'a> {
    /// The arrays of variables, by name, as declared.
    arrays: HashMap<&'a str, &'a [Expr]>,
    marked: HashSet<&'a str>,
}

/// How deep [`Holes::mark`] follows names through arrays. A valid FlatZinc array holds
/// names and constants only, so one level is all a model needs; the cap keeps an invalid
/// file that names an array inside itself from recursing without end (the build refuses
/// it afterwards).
const MAX_DEPTH: usize = 4;

impl<'a> Holes<'a> {
    /// Whether constraint `name` reads and narrows its integer variables by their bounds
    /// only.
    fn keeps_to_bounds(&self, name: &str, args: &[Expr], annotations: &[Annotation]) -> bool {
        let name = name.strip_prefix("fzn_").unwrap_or(name);
        match name {
            "int_le" | "int_lt" | "int_le_reif" | "int_lt_reif" | "int_le_imp" | "int_lt_imp"
            | "int_lin_le" | "int_lin_le_reif" | "int_lin_le_imp" | "int_min" | "int_max"
            | "array_int_minimum" | "array_int_maximum" | "bitcsp_cumulative" => true,
            // A sum, unless asked for domains or written over two variables (listed or
            // named), which may be a difference `x - y = c`, kept domain consistent.
            "int_lin_eq" => {
                let terms = match args.get(1) {
                    Some(Expr::Array(terms)) => Some(terms.len()),
                    Some(Expr::Ident(array)) => self.arrays.get(array.as_str()).map(|t| t.len()),
                    _ => None,
                };
                terms != Some(2) && !annotations.iter().any(|a| a.name == "domain")
            }
            _ => false,
        }
    }

    /// Marks every variable `e` names, through arrays of variables (`depth`: how many
    /// arrays were followed to reach `e`).
    fn mark(&mut self, e: &'a Expr, depth: usize) {
        if depth > MAX_DEPTH {
            return;
        }
        match e {
            Expr::Ident(name) => match self.arrays.get(name.as_str()) {
                Some(elements) => elements.iter().for_each(|x| self.mark(x, depth + 1)),
                None => {
                    self.marked.insert(name);
                }
            },
            Expr::Access(name, i) => {
                let element = self.arrays.get(name.as_str()).and_then(|elements| {
                    usize::try_from(*i - 1).ok().and_then(|k| elements.get(k))
                });
                match element {
                    Some(x) => self.mark(x, depth + 1),
                    None => {
                        self.marked.insert(name);
                    }
                }
            }
            Expr::Array(items) => items.iter().for_each(|x| self.mark(x, depth + 1)),
            Expr::Call(_, args) => args.iter().for_each(|x| self.mark(x, depth + 1)),
            _ => {}
        }
    }

    /// Marks the variables of a search annotation whose value choice may try a value
    /// between the bounds first (an interval's refutation `x ≠ v` removes bounds only).
    fn mark_search(&mut self, a: &'a Annotation) {
        self.mark_search_call(&a.name, &a.args);
    }

    fn mark_search_call(&mut self, name: &str, args: &'a [Expr]) {
        match name {
            "seq_search" => {
                if let Some(Expr::Array(items)) = args.first() {
                    for item in items {
                        if let Expr::Call(n, a) = item {
                            self.mark_search_call(n, a);
                        }
                    }
                }
            }
            "int_search" => {
                let by_bounds = matches!(
                    args.get(2),
                    Some(Expr::Ident(v)) if matches!(
                        v.as_str(),
                        "indomain" | "indomain_min" | "indomain_max" | "indomain_split"
                            | "indomain_reverse_split"
                    )
                );
                if !by_bounds {
                    if let Some(vars) = args.first() {
                        self.mark(vars, 0);
                    }
                }
            }
            _ => {}
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::flatzinc::parse;

    fn kept(text: &str) -> Vec<String> {
        let items = parse(text).expect("valid FlatZinc");
        let mut names: Vec<String> = bounds_only(&items).into_iter().collect();
        names.sort();
        names
    }

    #[test]
    fn sums_and_orderings_keep_intervals_and_hole_makers_keep_bitsets() {
        let text = "var 0..100: a;\nvar 0..100: b;\nvar 0..100: c;\nvar 0..100: d;\n\
                    var 0..10: small;\nvar {0, 5, 200}: set;\n\
                    array [1..2] of var int: xs = [c, d];\n\
                    constraint int_lin_le([1, -1], [a, b], -3);\n\
                    constraint int_lin_eq([1, 1, -1], [a, small, set], 0);\n\
                    constraint int_ne(xs[2], small);\n\
                    constraint int_max(b, c, a);\n\
                    solve satisfy;\n";
        // d is in a disequality through the array; `small` and `set` are no candidates.
        assert_eq!(kept(text), vec!["a", "b", "c"]);
    }

    #[test]
    fn differences_domain_annotations_and_middle_values_keep_bitsets() {
        let text = "var 0..100: a;\nvar 0..100: b;\nvar 0..100: c;\nvar 0..100: d;\n\
                    var 0..100: e;\nvar 0..100: f;\nvar 0..100: g;\nvar 0..100: h;\n\
                    array [1..2] of var int: gh = [g, h];\n\
                    constraint int_lin_eq([1, -1], [a, b], 3);\n\
                    constraint int_lin_eq([1, -1], gh, 3);\n\
                    constraint int_lin_eq([1, 1, 1], [c, d, e], 9) :: domain;\n\
                    constraint int_lin_le([1, 1], [e, f], 9);\n\
                    solve :: seq_search([int_search([f], input_order, indomain_median, \
                    complete)]) satisfy;\n";
        assert!(kept(text).is_empty());
        let by_min = "var 0..100: f;\nconstraint int_lin_le([1], [f], 9);\n\
                      solve :: int_search([f], first_fail, indomain_min, complete) satisfy;\n";
        assert_eq!(kept(by_min), vec!["f"]);
    }

    #[test]
    fn arrays_that_name_themselves_end() {
        // Invalid FlatZinc (the build refuses it), which must not recurse without end.
        let text = "var 0..100: a;\narray [1..2] of var int: xs = [a, xs];\n\
                    array [1..1] of var int: ys = [ys[1]];\n\
                    constraint int_ne(xs, ys[1]);\nsolve satisfy;\n";
        assert!(kept(text).is_empty());
    }
}
