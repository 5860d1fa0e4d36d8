//! bitcsp against Gecode on random small MiniZinc models: integer and Boolean variables,
//! arithmetic (`div`, `mod`, `pow`, `min`, `max`, `abs`), comparisons, reification and
//! Boolean connectives, `element`, `table`, `count`, `all_different`, `increasing`,
//! `all_equal`, and other globals (lexicographic order, `inverse`, `global_cardinality`,
//! `nvalue`, `among`, `circuit`, `cumulative`, `maximum`, `minimum`,
//! `alldifferent_except_0`, `value_precede`, `member`), alone or inside connectives; a
//! third of the models optimising. With `--more`, a third grammar adds scheduling,
//! packing and sorting globals (`disjunctive`, `diffn`, `bin_packing_load`,
//! `bin_packing_capa`, `knapsack`, `sort`, `arg_max`, `arg_min`, `subcircuit`,
//! `sliding_sum`, `regular`, `count` with a variable value, `strictly_increasing`),
//! Boolean clauses, sums and conditionals, up to three Booleans, and a random search
//! annotation on the solve item, which must not change the answer. Both solvers run through `minizinc`, so the
//! flattening is MiniZinc's with each solver's own library of globals. A satisfaction
//! model's solutions (`-a`, as sets of printed assignments, on one and on two threads)
//! and an optimisation's optimum must be the same from both, whenever both answer within
//! the time limit; a model only one side answers is printed too.
//!
//! `cargo run --release -p bitcsp-compare --bin minizinc_fuzz -- [--models N] [--seed S]
//! [--span K] [--limit SECONDS] [--more] [--print K]`: the variables' bounds are drawn from `-K..=0` and
//! `0..=K` (default 3; 70 and more give domains wider than a 64-bit word, and most
//! satisfaction models then have too many solutions to list within the time limit, 20 s
//! a run by default).
//!
//! Needs `minizinc` with Gecode, and bitcsp installed as a MiniZinc solver (`bitcsp fzn
//! --install`). Prints each model on which the answers differ, with its text; the exit
//! status is 1 if any does.

use std::collections::BTreeSet;
use std::path::Path;
use std::process::{Command, ExitCode};

/// A small seeded generator (SplitMix64).
struct Random(u64);

impl Random {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// A number in `low..=high`.
    fn range(&mut self, low: i64, high: i64) -> i64 {
        low + (self.next() % (high - low + 1) as u64) as i64
    }

    /// True with probability `percent` %.
    fn chance(&mut self, percent: u64) -> bool {
        self.next() % 100 < percent
    }

    fn pick<'a, T>(&mut self, items: &'a [T]) -> &'a T {
        &items[(self.next() % items.len() as u64) as usize]
    }

    /// `k` numbers in `low..=high`, as a MiniZinc list's inside.
    fn constants(&mut self, k: usize, low: i64, high: i64) -> String {
        (0..k)
            .map(|_| self.range(low, high).to_string())
            .collect::<Vec<_>>()
            .join(", ")
    }

    /// `k` distinct items of `items` (all of them if there are fewer).
    fn sample(&mut self, items: &[String], k: usize) -> Vec<String> {
        let mut pool = items.to_vec();
        let mut out = Vec::new();
        while out.len() < k && !pool.is_empty() {
            let i = (self.next() % pool.len() as u64) as usize;
            out.push(pool.swap_remove(i));
        }
        out
    }
}

/// An integer expression over `ints`.
fn expression(r: &mut Random, ints: &[String], depth: u32) -> String {
    if depth > 2 || r.chance(30) {
        return if r.chance(80) {
            r.pick(ints).clone()
        } else {
            r.range(-3, 3).to_string()
        };
    }
    let a = expression(r, ints, depth + 1);
    let b = expression(r, ints, depth + 1);
    match r.range(0, 8) {
        0 => format!("abs({a})"),
        1 => format!("min({a}, {b})"),
        2 => format!("max({a}, {b})"),
        3 => format!("pow({a}, {})", r.range(0, 2)),
        4 => format!("({a} div {})", r.pick(&[2, 3, -2])),
        5 => format!("({a} mod {})", r.pick(&[2, 3, -2])),
        6 => format!("({a} * {b})"),
        7 => format!("({a} - {b})"),
        _ => format!("({a} + {b})"),
    }
}

/// A constraint over `ints` and `bools`.
fn constraint(r: &mut Random, ints: &[String], bools: &[String], depth: u32, more: bool) -> String {
    let list = |r: &mut Random, k: usize| r.sample(ints, k).join(", ");
    if r.chance(20) {
        return global(r, ints, more);
    }
    let k = r.range(0, 99);
    match k {
        0..=24 if depth < 2 => {
            let op = r.pick(&["/\\", "\\/", "->", "<->", "xor"]);
            let a = constraint(r, ints, bools, depth + 1, more);
            let b = constraint(r, ints, bools, depth + 1, more);
            format!("({a} {op} {b})")
        }
        25..=29 if more && !bools.is_empty() => boolean(r, ints, bools),
        25..=34 if !bools.is_empty() => {
            let b = r.pick(bools).clone();
            if r.chance(50) {
                b
            } else {
                format!("not {b}")
            }
        }
        35..=44 => {
            let global = r.pick(&["all_different", "increasing", "decreasing", "all_equal"]);
            let n = r.range(2, 4) as usize;
            format!("{global}([{}])", list(r, n))
        }
        45..=51 => {
            let xs = list(r, 3);
            let relation = r.pick(&["=", "<=", ">="]);
            format!(
                "count([{xs}], {}) {relation} {}",
                r.range(-2, 2),
                r.range(0, 2)
            )
        }
        52..=57 => {
            let xs = list(r, 3);
            format!("{} = [{xs}][{}]", r.pick(ints), r.pick(ints))
        }
        58..=63 if !bools.is_empty() => {
            let b = r.pick(bools).clone();
            let relation = r.pick(&["<", "=", "!="]);
            let (x, y) = (expression(r, ints, 0), expression(r, ints, 0));
            format!("{b} <-> ({x} {relation} {y})")
        }
        64..=69 => {
            let xs = list(r, 2);
            let rows: Vec<String> = (0..r.range(1, 5))
                .map(|_| format!("{},{}", r.range(-3, 3), r.range(-3, 3)))
                .collect();
            format!("table([{xs}], [|{}|])", rows.join("|"))
        }
        _ => {
            let relation = r.pick(&["<", "<=", "=", "!=", ">=", ">"]);
            let (x, y) = (expression(r, ints, 0), expression(r, ints, 0));
            format!("{x} {relation} {y}")
        }
    }
}

/// One of MiniZinc's other globals over `ints` (with `more`, the third grammar's too).
fn global(r: &mut Random, ints: &[String], more: bool) -> String {
    if more && r.chance(50) {
        return scheduling_or_packing(r, ints);
    }
    let list = |r: &mut Random, k: usize| r.sample(ints, k).join(", ");
    let n = r.range(2, 3) as usize;
    match r.range(0, 13) {
        0 => format!("lex_lesseq([{}], [{}])", list(r, n), list(r, n)),
        1 => format!("lex_less([{}], [{}])", list(r, n), list(r, n)),
        2 => format!("inverse([{}], [{}])", list(r, n), list(r, n)),
        3 => {
            let xs = list(r, 3);
            let counts = list(r, 2);
            format!(
                "global_cardinality([{xs}], [{}], [{counts}])",
                r.constants(2, -2, 2)
            )
        }
        4 => format!("nvalue({}, [{}])", r.pick(ints), list(r, 3)),
        5 => {
            let set = r.constants(2, -2, 2);
            format!("among({}, [{}], {{{set}}})", r.pick(ints), list(r, 3))
        }
        6 => format!("circuit([{}])", list(r, 3)),
        7 => {
            let starts = list(r, 3);
            let durations = r.constants(3, 0, 2);
            let resources = r.constants(3, 1, 2);
            format!(
                "cumulative([{starts}], [{durations}], [{resources}], {})",
                r.range(1, 3)
            )
        }
        8 => format!("maximum({}, [{}])", r.pick(ints), list(r, 3)),
        9 => format!("minimum({}, [{}])", r.pick(ints), list(r, 3)),
        10 => format!("alldifferent_except_0([{}])", list(r, 3)),
        11 => format!(
            "value_precede({}, {}, [{}])",
            r.range(-2, 2),
            r.range(-2, 2),
            list(r, 3)
        ),
        12 => format!("member([{}], {})", list(r, 3), r.pick(ints)),
        _ => format!("sum([{}]) = {}", list(r, 3), r.pick(ints)),
    }
}

/// A Boolean constraint of the third grammar: clauses, sums of Booleans, Booleans in
/// integer terms, conditionals, and lexicographic order on Booleans.
fn boolean(r: &mut Random, ints: &[String], bools: &[String]) -> String {
    let literal = |r: &mut Random| {
        let b = r.pick(bools).clone();
        if r.chance(50) {
            b
        } else {
            format!("not {b}")
        }
    };
    let n = r.range(1, 3) as usize;
    let literals: Vec<String> = (0..n).map(|_| literal(r)).collect();
    match r.range(0, 5) {
        0 => format!("exists([{}])", literals.join(", ")),
        1 => format!("forall([{}])", literals.join(", ")),
        2 => format!(
            "sum([{}]) {} {}",
            r.sample(bools, 3).join(", "),
            r.pick(&["=", "<=", ">="]),
            r.range(0, 2)
        ),
        3 => format!(
            "{} = bool2int({}) + {}",
            r.pick(ints),
            literal(r),
            expression(r, ints, 1)
        ),
        4 => format!(
            "{} = if {} then {} else {} endif",
            r.pick(ints),
            literal(r),
            expression(r, ints, 1),
            expression(r, ints, 1)
        ),
        _ => format!(
            "lex_lesseq([{}], [{}])",
            r.sample(bools, 2).join(", "),
            r.sample(bools, 2).join(", ")
        ),
    }
}

/// A global of the third grammar over `ints`: scheduling, packing, sorting, automata,
/// index-valued globals and counting.
fn scheduling_or_packing(r: &mut Random, ints: &[String]) -> String {
    let list = |r: &mut Random, k: usize| r.sample(ints, k).join(", ");
    match r.range(0, 13) {
        0 => format!("disjunctive([{}], [{}])", list(r, 3), r.constants(3, 0, 2)),
        1 => format!(
            "diffn([{}], [{}], [{}], [{}])",
            list(r, 2),
            list(r, 2),
            r.constants(2, 0, 2),
            r.constants(2, 0, 2)
        ),
        2 => format!(
            "bin_packing_load([{}], [{}], [{}])",
            list(r, 2),
            list(r, 3),
            r.constants(3, 0, 2)
        ),
        3 => format!(
            "bin_packing_capa([{}], [{}], [{}])",
            r.constants(2, 0, 3),
            list(r, 3),
            r.constants(3, 0, 2)
        ),
        4 => format!(
            "knapsack([{}], [{}], [{}], {}, {})",
            r.constants(2, 0, 2),
            r.constants(2, 0, 2),
            list(r, 2),
            r.pick(ints),
            r.pick(ints)
        ),
        5 => format!("sort([{}], [{}])", list(r, 3), list(r, 3)),
        6 => format!("arg_max([{}]) = {}", list(r, 3), r.pick(ints)),
        7 => format!("arg_min([{}]) = {}", list(r, 3), r.pick(ints)),
        8 => format!("subcircuit([{}])", list(r, 3)),
        9 => format!(
            "sliding_sum({}, {}, 2, [{}])",
            r.range(-2, 1),
            r.range(0, 3),
            list(r, 3)
        ),
        10 => {
            // A random automaton over the symbols 1..2 with three states, 0 the failing one.
            let rows: Vec<String> = (0..3)
                .map(|_| format!("{}, {}", r.range(0, 3), r.range(0, 3)))
                .collect();
            format!(
                "regular([{}], 3, 2, [|{}|], 1, {{{}}})",
                list(r, 3),
                rows.join("|"),
                r.constants(2, 1, 3)
            )
        }
        11 => format!(
            "count([{}], {}) = {}",
            list(r, 3),
            r.pick(ints),
            r.pick(ints)
        ),
        12 => format!("strictly_increasing([{}])", list(r, 2)),
        _ => format!(
            "{} = sum(i in 1..2)([{}][i] * {})",
            r.pick(ints),
            list(r, 2),
            r.range(-2, 2)
        ),
    }
}

/// A search annotation for the solve item over `ints`, or none.
fn annotation(r: &mut Random, ints: &[String]) -> String {
    if r.chance(40) {
        return String::new();
    }
    let vars = r.sample(ints, ints.len()).join(", ");
    let choice = r.pick(&[
        "input_order",
        "first_fail",
        "anti_first_fail",
        "smallest",
        "largest",
        "occurrence",
        "most_constrained",
        "max_regret",
        "dom_w_deg",
    ]);
    let value = r.pick(&[
        "indomain_min",
        "indomain_max",
        "indomain_median",
        "indomain_split",
        "indomain_reverse_split",
        "indomain_random",
        "indomain",
    ]);
    format!(" :: int_search([{vars}], {choice}, {value})")
}

/// The text of random model `seed` with bounds within `-span..=span`, and whether it
/// optimises.
fn model(seed: u64, span: i64, more: bool) -> (String, bool) {
    let mut r = Random(seed);
    let ints: Vec<String> = (0..r.range(2, 5)).map(|i| format!("x{i}")).collect();
    let most_bools = if more { 3 } else { 2 };
    let bools: Vec<String> = (0..r.range(0, most_bools))
        .map(|i| format!("b{i}"))
        .collect();
    let mut text = String::from("include \"globals.mzn\";\n");
    for x in &ints {
        text += &format!("var {}..{}: {x};\n", r.range(-span, 0), r.range(0, span));
    }
    for b in &bools {
        text += &format!("var bool: {b};\n");
    }
    for _ in 0..r.range(1, 4) {
        text += &format!(
            "constraint {};\n",
            constraint(&mut r, &ints, &bools, 0, more)
        );
    }
    let optimises = r.chance(30);
    let search = if more {
        annotation(&mut r, &ints)
    } else {
        String::new()
    };
    if optimises {
        let sense = r.pick(&["minimize", "maximize"]);
        let objective = expression(&mut r, &ints, 0);
        text += &format!("solve{search} {sense} {objective};\n");
    } else {
        text += &format!("solve{search} satisfy;\n");
    }
    (text, optimises)
}

/// What a solver answered, in a form two solvers' answers compare in: the set of printed
/// solutions and final status lines, or the last objective and status.
fn answer(
    solver: &str,
    extra: &[&str],
    (path, optimises): (&Path, bool),
    limit_ms: &str,
) -> Result<String, String> {
    let mut command = Command::new("minizinc");
    command.args(["--solver", solver]).args(extra);
    if solver == "gecode" {
        command.args(["-G", "std"]);
    }
    if optimises {
        command.arg("--output-objective");
    } else {
        command.arg("-a");
    }
    let output = command
        .args(["-t", limit_ms])
        .arg(path)
        .output()
        .map_err(|e| format!("minizinc: {e}"))?;
    let text = String::from_utf8_lossy(&output.stdout);
    let kept = |l: &&str| {
        ["x", "b", "_objective", "-----", "====="]
            .iter()
            .any(|p| l.starts_with(p))
    };
    let lines: Vec<&str> = text.lines().filter(kept).collect();
    if optimises {
        let last: Vec<&str> = lines
            .iter()
            .rev()
            .filter(|l| l.starts_with("_objective") || l.starts_with("====="))
            .take(2)
            .copied()
            .collect();
        return Ok(last.join("\n"));
    }
    let mut blocks = BTreeSet::new();
    let mut current = Vec::new();
    for line in lines {
        if line.starts_with("-----") {
            blocks.insert(current.join("\n"));
            current.clear();
        } else if line.starts_with("=====") {
            blocks.insert(line.to_string());
        } else {
            current.push(line);
        }
    }
    Ok(blocks.into_iter().collect::<Vec<_>>().join("\n##\n"))
}

fn arg(name: &str) -> Option<u64> {
    let args: Vec<String> = std::env::args().collect();
    let at = args.iter().position(|a| a == name)?;
    args.get(at + 1)?.parse().ok()
}

fn main() -> ExitCode {
    let models = arg("--models").unwrap_or(200);
    let seed = arg("--seed").unwrap_or(1);
    let span = arg("--span").map_or(3, |k| k.min(1000) as i64);
    let more = std::env::args().any(|a| a == "--more");
    let limit_ms = (arg("--limit").unwrap_or(20).clamp(1, 3600) * 1000).to_string();
    if let Some(k) = arg("--print") {
        // The text of model k alone, to rerun or reduce a case by hand.
        print!(
            "{}",
            model(seed.wrapping_mul(1_000_003).wrapping_add(k), span, more).0
        );
        return ExitCode::SUCCESS;
    }
    if Command::new("minizinc").arg("--version").output().is_err() {
        eprintln!("minizinc_fuzz: needs minizinc (with Gecode) on the PATH");
        return ExitCode::FAILURE;
    }
    let path = std::env::temp_dir().join(format!("bitcsp-fuzz-{}.mzn", std::process::id()));
    let (mut differing, mut one_sided, mut neither) = (0, 0, 0);
    for k in 0..models {
        let (text, optimises) = model(seed.wrapping_mul(1_000_003).wrapping_add(k), span, more);
        if let Err(e) = std::fs::write(&path, &text) {
            eprintln!("{}: {e}", path.display());
            return ExitCode::FAILURE;
        }
        let case = (path.as_path(), optimises);
        let theirs = answer("gecode", &[], case, &limit_ms);
        let ours = answer("bitcsp", &[], case, &limit_ms);
        let ours_two = answer("bitcsp", &["-p", "2"], case, &limit_ms);
        // A search the time limit stopped, or a model MiniZinc refused, has no final
        // status line: its partial answer proves nothing.
        let finished = |a: &Result<String, String>| {
            a.as_ref()
                .is_ok_and(|t| t.contains("==========") || t.contains("=====UNSATISFIABLE====="))
        };
        let done = [&theirs, &ours, &ours_two].map(finished);
        if !done.contains(&true) {
            neither += 1;
            continue;
        }
        if done.contains(&false) {
            one_sided += 1;
            let [gecode, one, two] = done.map(|d| if d { "answered" } else { "did not" });
            println!("model {k}: gecode {gecode}, bitcsp {one}, bitcsp -p 2 {two}\n{text}");
            continue;
        }
        match (theirs, ours, ours_two) {
            (Ok(a), Ok(b), Ok(c)) if a == b && b == c => {}
            (a, b, c) => {
                differing += 1;
                println!("model {k} (seed {seed}): answers differ\n{text}");
                println!("gecode:\n{a:?}\nbitcsp:\n{b:?}\nbitcsp -p 2:\n{c:?}\n");
            }
        }
    }
    let _ = std::fs::remove_file(&path);
    println!(
        "{models} models: {differing} with answers that differ, {one_sided} answered by one \
         side only (above), {neither} by neither (the time limit, or a model MiniZinc refuses)"
    );
    if differing == 0 {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    }
}
