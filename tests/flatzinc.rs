//! FlatZinc read and built into models: MiniZinc's own flattening of the ft06 job shop
//! (optimum 55) and of 16 queens (a solution checked against the rules), and small texts
//! whose answers are known, printed as FlatZinc prints them.

use bitcsp::flatzinc::{build, parse, Goal};
use bitcsp::{Optimum, SolveResult, Solver};

mod common;
use common::{run, run_with_stdin};

fn built(text: &str) -> bitcsp::flatzinc::Built {
    build(&parse(text).expect("parsed")).expect("built")
}

#[test]
fn ft06_from_minizinc_is_proved_optimal_at_55() {
    let b = built(include_str!("data/flatzinc/jobshop_ft06.fzn"));
    assert!(matches!(b.goal, Goal::Minimize(_)));
    let Optimum::Optimal {
        objective,
        solution,
    } = Solver::new(&b.model).optimize()
    else {
        panic!("not proved optimal");
    };
    assert_eq!(objective, 55);
    assert!(b.format(&solution).contains("makespan = 55;"));
}

#[test]
fn sixteen_queens_from_minizinc_are_placed_by_the_rules() {
    let b = built(include_str!("data/flatzinc/queens_16.fzn"));
    let SolveResult::Solution(s) = Solver::new(&b.model).solve() else {
        panic!("no solution");
    };
    assert_queens_placed(&b.format(&s), 16);
}

/// Checks that the first array printed in `text` places `n` queens none of which attack
/// another.
fn assert_queens_placed(text: &str, n: usize) {
    let list = text
        .split('[')
        .nth(1)
        .and_then(|t| t.split(']').next())
        .expect("an array in the output");
    let q: Vec<i64> = list
        .split(',')
        .map(|v| v.trim().parse().expect("a number"))
        .collect();
    assert_eq!(q.len(), n);
    for i in 0..n {
        for j in i + 1..n {
            let d = (j - i) as i64;
            assert!(
                q[i] != q[j] && (q[i] - q[j]).abs() != d,
                "queens {i} and {j} attack"
            );
        }
    }
}

/// The number `bitcsp fzn -s` printed as `%%%mzn-stat: NAME=`; a test failure when
/// there is none.
fn mzn_stat(printed: &str, name: &str) -> u64 {
    printed
        .split(&format!("%%%mzn-stat: {name}="))
        .nth(1)
        .and_then(|t| t.lines().next())
        .and_then(|t| t.parse().ok())
        .unwrap_or_else(|| panic!("no {name} in:\n{printed}"))
}

/// A satisfaction model's `restart_luby` is honoured when one solution is asked for
/// (the search for one solution restarts; enumerating never does), and the solution it
/// ends on keeps the rules.
#[test]
fn satisfaction_restarts_when_its_annotation_asks() {
    let text = include_str!("data/flatzinc/queens_16.fzn");
    let run_with = |annotation: &str, args: &[&str]| {
        let model = text.replace("solve  satisfy;", &format!("solve {annotation} satisfy;"));
        let out = run_with_stdin(&[&["fzn", "-", "-s"], args].concat(), model.as_bytes());
        assert_eq!(out.status.code(), Some(0));
        let printed = String::from_utf8_lossy(&out.stdout).into_owned();
        let restarts = mzn_stat(&printed, "restarts");
        (printed, restarts)
    };
    let plan = ":: int_search(q, input_order, indomain_min, complete)";
    let (printed, restarts) = run_with(&format!("{plan} :: restart_luby(1)"), &[]);
    assert!(restarts > 0, "no restarts:\n{printed}");
    assert_queens_placed(&printed, 16);
    assert!(printed.contains("----------\n"));
    // Several threads print the same solution.
    let (threaded, _) = run_with(&format!("{plan} :: restart_luby(1)"), &["-p", "2"]);
    let solution = |p: &str| {
        p.lines()
            .filter(|l| !l.starts_with("%%%"))
            .collect::<Vec<_>>()
            .join("\n")
    };
    assert_eq!(solution(&threaded), solution(&printed));
    // -r draws the restarted attempts' values from another seed: the same seed, the
    // same search on any number of threads; the seeds tried here give other searches.
    let seeded = |seed: &str, threads: &str| {
        run_with(
            &format!("{plan} :: restart_luby(1)"),
            &["-r", seed, "-p", threads],
        )
        .0
    };
    // What a run printed but its time: the solution and the search's counts.
    let search = |p: &str| -> Vec<String> {
        p.lines()
            .filter(|l| !l.starts_with("%%%mzn-stat: solveTime="))
            .map(str::to_owned)
            .collect()
    };
    let five = seeded("5", "1");
    assert_queens_placed(&five, 16);
    assert_eq!(search(&five), search(&seeded("5", "1")));
    assert_eq!(solution(&seeded("5", "2")), solution(&five));
    assert_eq!(search(&seeded("0", "1")), search(&printed));
    let searches: std::collections::HashSet<_> = ["0", "1", "5", "9"]
        .iter()
        .map(|seed| mzn_stat(&seeded(seed, "1"), "nodes"))
        .collect();
    assert!(
        searches.len() > 1,
        "every seed searched alike: {searches:?}"
    );
    assert_eq!(run_with(plan, &[]).1, 0);
    assert_eq!(run_with(&format!("{plan} :: restart_none"), &["-f"]).1, 0);
    // Two solutions asked for: the search enumerates, and does not restart.
    let (printed, restarts) = run_with(&format!("{plan} :: restart_luby(1)"), &["-n", "2"]);
    assert_eq!(restarts, 0);
    assert_eq!(printed.matches("----------\n").count(), 2);
}

/// A satisfaction problem whose search no plan orders restarts on Luby's sequence of
/// 1,000 failures: a search that ends sooner never restarts, and a longer one restarts
/// and still ends with the right answer.
#[test]
fn free_satisfaction_restarts_after_a_thousand_failures() {
    let text = include_str!("data/flatzinc/queens_16.fzn");
    let run = |model: &str| {
        let out = run_with_stdin(&["fzn", "-", "-s"], model.as_bytes());
        assert_eq!(out.status.code(), Some(0));
        let printed = String::from_utf8_lossy(&out.stdout).into_owned();
        let (failures, restarts) = (
            mzn_stat(&printed, "failures"),
            mzn_stat(&printed, "restarts"),
        );
        (printed, failures, restarts)
    };
    // Queens 16 falls within the first attempt.
    let (printed, failures, restarts) = run(text);
    assert!(failures < 1000, "{failures} failures");
    assert_eq!(restarts, 0);
    assert_queens_placed(&printed, 16);
    // Nine even terms cannot sum to 27, and bounds reasoning sees it only once eight of
    // them are fixed: the proof takes thousands of failures, through restarts, and
    // with the restarts' nogoods it still ends.
    let vars: String = (1..=9)
        .map(|i| format!("var 0..3: x{i} :: output_var;\n"))
        .collect();
    let terms: Vec<String> = (1..=9).map(|i| format!("x{i}")).collect();
    let parity = format!(
        "{vars}constraint int_lin_eq([2, 2, 2, 2, 2, 2, 2, 2, 2], [{}], 27);\nsolve satisfy;\n",
        terms.join(", ")
    );
    let (printed, failures, restarts) = run(&parity);
    assert!(
        printed.starts_with("=====UNSATISFIABLE=====\n"),
        "{printed}"
    );
    assert!(failures > 1000, "{failures} failures");
    assert!(restarts > 0, "no restarts");
}

#[test]
fn outputs_print_as_flatzinc_does() {
    let text = "array [1..2] of int: c = [1, 1];\n\
        var 1..3: x :: output_var;\n\
        var bool: b :: output_var;\n\
        var 0..9: y;\n\
        array [1..2] of var int: v :: output_array([0..1]) = [x, y];\n\
        constraint int_lin_eq(c, [x, y], 7);\n\
        constraint int_le_reif(x, 2, b);\n\
        constraint bool_clause([b], []);\n\
        solve maximize y;\n";
    let b = built(text);
    let Optimum::Optimal {
        solution,
        objective,
    } = Solver::new(&b.model).optimize()
    else {
        panic!("not optimal");
    };
    assert_eq!(objective, 6);
    assert_eq!(
        b.format(&solution),
        "x = 1;\nb = true;\nv = array1d(0..1, [1, 6]);\n"
    );
}

#[test]
fn what_cannot_be_built_names_its_line() {
    let err = build(&parse("var 1..3: x;\nconstraint float_lin_eq([1.0], [x], 2.0);\n").unwrap())
        .unwrap_err();
    assert_eq!(err.line, 2);
    let err = build(&parse("var 1..3: x;\nconstraint my_global(x);\n").unwrap()).unwrap_err();
    assert!(err.message.contains("not supported"), "{err}");
    let err = build(&parse("constraint int_ne(x, 2);\n").unwrap()).unwrap_err();
    assert!(err.message.contains("unknown name 'x'"), "{err}");
    // Set and float variables are refused by name, with their line.
    let err = parse("var 1..3: x;\nvar set of 1..5: s;\nsolve satisfy;\n").unwrap_err();
    assert_eq!(
        (err.line, err.message.as_str()),
        (2, "unsupported: set variables")
    );
    let err = parse("var float: f;\nsolve satisfy;\n").unwrap_err();
    assert_eq!(
        (err.line, err.message.as_str()),
        (1, "unsupported: float variables")
    );
}

#[test]
fn the_command_prints_solutions_and_the_search_status() {
    let all = run_with_stdin(
        &["fzn", "-", "-a"],
        b"var 1..3: x :: output_var;\nconstraint int_ne(x, 2);\nsolve satisfy;\n",
    );
    assert_eq!(
        String::from_utf8_lossy(&all.stdout),
        "x = 1;\n----------\nx = 3;\n----------\n==========\n"
    );
    assert_eq!(all.status.code(), Some(0));
    let unsat = run_with_stdin(
        &["fzn", "-"],
        b"var 1..3: x;\nconstraint int_lt(x, 1);\nsolve satisfy;\n",
    );
    assert_eq!(
        String::from_utf8_lossy(&unsat.stdout),
        "=====UNSATISFIABLE=====\n"
    );
    assert_eq!(unsat.status.code(), Some(0));
    let bad = run_with_stdin(
        &["fzn", "-"],
        b"var 1..3: x;\nconstraint foo(x);\nsolve satisfy;\n",
    );
    assert_eq!(String::from_utf8_lossy(&bad.stdout), "=====ERROR=====\n");
    assert!(String::from_utf8_lossy(&bad.stderr).contains("-:2: constraint 'foo' is not supported"));
    assert_eq!(bad.status.code(), Some(1));
}

#[test]
fn every_solution_is_printed_once_whatever_the_variables_not_printed() {
    // y is an introduced variable that nothing fixes once x is: each x would otherwise
    // be printed once for every value y can take beside it.
    let text = b"var 1..3: x :: output_var;\nvar 1..4: y :: var_is_introduced;\n\
                 constraint int_ne(x, y);\nsolve satisfy;\n";
    for threads in ["1", "2"] {
        let all = run_with_stdin(&["fzn", "-", "-a", "-p", threads], text);
        assert_eq!(
            String::from_utf8_lossy(&all.stdout),
            "x = 1;\n----------\nx = 2;\n----------\nx = 3;\n----------\n==========\n",
            "{threads} threads"
        );
        let two = run_with_stdin(&["fzn", "-", "-n", "2", "-p", threads], text);
        assert_eq!(
            String::from_utf8_lossy(&two.stdout),
            "x = 1;\n----------\nx = 2;\n----------\n",
            "{threads} threads"
        );
    }
}

#[test]
fn the_command_optimises_with_statistics() {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/data/flatzinc/jobshop_ft06.fzn"
    );
    let out = run(&["fzn", path, "-s"]);
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("makespan = 55;\n"));
    assert!(text.contains("----------\n==========\n%%%mzn-stat: nodes="));
    assert!(text
        .contains("%%%mzn-stat: objective=55\n%%%mzn-stat: objectiveBound=55\n%%%mzn-stat-end\n"));
    assert_eq!(out.status.code(), Some(0));
}

#[test]
fn the_solutions_statistic_counts_every_improving_solution() {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/data/flatzinc/jobshop_ft06.fzn"
    );
    let all = run(&["fzn", path, "-s", "-a"]);
    let listed = String::from_utf8_lossy(&all.stdout);
    let printed = listed.matches("----------\n").count() as u64;
    assert!(printed > 1, "{listed}");
    assert_eq!(mzn_stat(&listed, "solutions"), printed);
    // The same search without the listing finds as many.
    let best = run(&["fzn", path, "-s"]);
    let text = String::from_utf8_lossy(&best.stdout);
    assert_eq!(text.matches("----------\n").count(), 1);
    assert_eq!(mzn_stat(&text, "solutions"), printed);
}

#[test]
fn free_optimisations_restart_around_their_best_solution() {
    // ft06 as MiniZinc flattens it has no search annotation: it restarts, and still proves
    // 55. Restart annotations and plans of the model's own decide otherwise.
    let text = include_str!("data/flatzinc/jobshop_ft06.fzn");
    let optimise = |text: &str, free_search: bool| {
        let b = built(text);
        let mut solver = Solver::new(&b.model);
        b.configure(&mut solver, free_search);
        let answer = solver.optimize();
        let Optimum::Optimal { objective, .. } = answer else {
            panic!("not proved optimal: {answer:?}");
        };
        (objective, solver.stats().restarts)
    };
    let (objective, restarts) = optimise(text, false);
    assert_eq!(objective, 55);
    assert!(restarts > 0, "no restarts");
    let with = |annotation: &str| {
        text.replace(
            "solve  minimize",
            &format!("solve :: {annotation} minimize"),
        )
    };
    assert_eq!(optimise(&with("restart_none"), false), (55, 0));
    let planned = with("int_search(s, input_order, indomain_min, complete)");
    assert_eq!(optimise(&planned, false), (55, 0));
    // -f drops the plan, and the free search restarts again.
    assert!(optimise(&planned, true).1 > 0);
    let geometric = built(&with("restart_geometric(1.5, 50)"));
    assert_eq!(
        geometric.search.restarts,
        Some(bitcsp::Restarts::Luby { scale: 50 })
    );
    assert!(geometric
        .search
        .warnings
        .iter()
        .any(|w| w.contains("restart_geometric")));
}

/// Whether `minizinc` runs here (the tests that need it skip with a message otherwise).
fn minizinc_available() -> bool {
    std::process::Command::new("minizinc")
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success())
}

/// MiniZinc runs bitcsp through `share/minizinc` (skipped when `minizinc` is not installed).
#[test]
fn minizinc_runs_bitcsp_as_a_solver() {
    if !minizinc_available() {
        eprintln!("skipped: minizinc is not installed");
        return;
    }
    let root = env!("CARGO_MANIFEST_DIR");
    let out = std::process::Command::new("minizinc")
        .env("MZN_SOLVER_PATH", format!("{root}/share/minizinc/solvers"))
        .env("BITCSP", env!("CARGO_BIN_EXE_bitcsp"))
        .args(["--solver", "bitcsp"])
        .arg(format!("{root}/compare/minizinc/jobshop.mzn"))
        .arg(format!("{root}/compare/minizinc/jobshop_ft06.dzn"))
        .output()
        .expect("minizinc runs");
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("makespan = 55;"), "{text}");
    assert!(text.contains("=========="), "{text}");
}

/// A model over set variables, which MiniZinc turns into Booleans for bitcsp (`nosets.mzn`
/// in its library): every solution found, counted against enumeration (skipped when
/// `minizinc` is not installed).
#[test]
fn minizinc_set_variables_become_booleans() {
    if !minizinc_available() {
        eprintln!("skipped: minizinc is not installed");
        return;
    }
    let model = "var set of 1..5: s;\nvar set of 1..5: t;\nconstraint card(s) = 2;\n\
                 constraint t subset s;\nconstraint 3 in s \\/ 4 in t;\n\
                 constraint sum(i in t)(i) <= 5;\nsolve satisfy;\n";
    let dir = std::env::temp_dir().join(format!("bitcsp-sets-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temporary folder");
    let path = dir.join("sets.mzn");
    std::fs::write(&path, model).expect("model written");
    let root = env!("CARGO_MANIFEST_DIR");
    let out = std::process::Command::new("minizinc")
        .env("MZN_SOLVER_PATH", format!("{root}/share/minizinc/solvers"))
        .env("BITCSP", env!("CARGO_BIN_EXE_bitcsp"))
        .args(["--solver", "bitcsp", "-a"])
        .arg(&path)
        .output()
        .expect("minizinc runs");
    let _ = std::fs::remove_dir_all(&dir);
    let text = String::from_utf8_lossy(&out.stdout);
    let members = |set: u32| (1..=5).filter(move |i| set >> (i - 1) & 1 == 1);
    let expected = (0u32..32)
        .flat_map(|s| (0u32..32).map(move |t| (s, t)))
        .filter(|&(s, t)| {
            s.count_ones() == 2
                && t & !s == 0
                && (s >> 2 & 1 == 1 || t >> 3 & 1 == 1)
                && members(t).sum::<u32>() <= 5
        })
        .count();
    assert!(expected > 0);
    assert_eq!(text.matches("----------").count(), expected, "{text}");
    assert!(text.contains("=========="), "{text}");
}

/// `set_in_reif` and the half-reified comparisons: the count of solutions of a small text
/// against enumeration.
#[test]
fn set_membership_and_half_reification_count_as_enumerated() {
    let text = "var 0..5: x :: output_var;\n\
        var bool: b :: output_var;\n\
        var bool: c;\n\
        constraint set_in_reif(x, {1, 3, 4}, b);\n\
        constraint int_le_imp(x, 2, c);\n\
        constraint bool_le_imp(b, c, c);\n\
        solve satisfy;\n";
    let b = built(text);
    let expected = (0..=5)
        .flat_map(|x| (0..=1).flat_map(move |bb| (0..=1).map(move |c| (x, bb, c))))
        .filter(|&(x, bb, c)| {
            let member = [1, 3, 4].contains(&x);
            (bb == 1) == member && (c == 0 || x <= 2) && (c == 0 || bb <= c)
        })
        .count() as u64;
    assert_eq!(Solver::new(&b.model).count(None).count, expected);
}

/// A range too wide to list is never cut short: as a domain restriction it becomes bounds,
/// elsewhere the text is refused.
#[test]
fn wide_ranges_are_bounds_or_refused_never_cut() {
    let b = built("var int: x :: output_var;\nconstraint set_in(x, 1999999..2000001);\nconstraint int_ne(x, 2000000);\nsolve maximize x;\n");
    let Optimum::Optimal { objective, .. } = Solver::new(&b.model).optimize() else {
        panic!("not optimal");
    };
    assert_eq!(objective, 2_000_001);
    let err = build(&parse("var int: x;\nvar bool: b;\nconstraint set_in_reif(x, 1..2000000, b);\nsolve satisfy;\n").unwrap()).unwrap_err();
    assert_eq!(err.line, 3);
    assert!(err.message.contains("too wide"), "{err}");
}

/// `:: domain` on a small equation: the same solutions as without it, counted against
/// enumeration, and a hole in one variable reaches the others.
#[test]
fn domain_annotated_equations_keep_their_solutions() {
    let text = |annotation: &str| {
        format!(
            "var 1..3: x :: output_var;\nvar {{0, 1, 3, 4}}: y :: output_var;\n\
             var 0..20: z :: output_var;\n\
             constraint int_lin_eq([1, 2, -1], [x, y, z], 2){annotation};\nsolve satisfy;\n"
        )
    };
    let expected = (1..=3)
        .flat_map(|x| [0, 1, 3, 4].map(move |y| x + 2 * y - 2))
        .filter(|z| (0..=20).contains(z))
        .count() as u64;
    for annotation in ["", " :: domain"] {
        let b = built(&text(annotation));
        assert_eq!(
            Solver::new(&b.model).count(None).count,
            expected,
            "{annotation}"
        );
    }
    // Domain consistent on one constraint: every value has a support, so enumerating
    // the solutions never fails.
    let b = built(&text(" :: domain"));
    let mut solver = Solver::new(&b.model);
    assert_eq!(solver.count(None).count, expected);
    assert_eq!(solver.stats().failures, 0);
}

/// `bitcsp fzn --install DIR` writes the library exactly as `share/minizinc/bitcsp` holds
/// it, a configuration that differs from the checked-in one only in naming the library
/// and the launcher by absolute path, and a launcher that runs this binary's `fzn`.
#[test]
fn install_writes_the_checked_in_library_and_configuration() {
    let dir = std::env::temp_dir().join(format!("bitcsp-install-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let out = run(&["fzn", "--install", dir.to_str().expect("a UTF-8 path")]);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let share = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("share/minizinc");
    let names = |folder: &std::path::Path| {
        let mut names: Vec<_> = std::fs::read_dir(folder)
            .expect("a folder")
            .map(|e| e.expect("an entry").file_name())
            .collect();
        names.sort();
        names
    };
    let library = dir.join("bitcsp");
    assert_eq!(names(&library), names(&share.join("bitcsp")));
    for name in names(&library) {
        let written = std::fs::read(library.join(&name)).expect("written");
        let kept = std::fs::read(share.join("bitcsp").join(&name)).expect("checked in");
        assert!(
            written == kept,
            "{name:?} differs from share/minizinc/bitcsp"
        );
    }
    let launcher = dir.join("bitcsp-fzn");
    let written = std::fs::read_to_string(dir.join("bitcsp.msc")).expect("written");
    let kept = std::fs::read_to_string(share.join("solvers/bitcsp.msc")).expect("checked in");
    let quoted = |p: &std::path::Path| format!("\"{}\"", p.display());
    assert_eq!(
        written
            .replace(&quoted(&library), "\"../bitcsp\"")
            .replace(&quoted(&launcher), "\"../bitcsp-fzn\""),
        kept
    );
    let script = std::fs::read_to_string(&launcher).expect("written");
    assert!(script.contains(env!("CARGO_BIN_EXE_bitcsp")), "{script}");
    #[cfg(unix)]
    {
        let solved = std::process::Command::new(&launcher)
            .arg(concat!(
                env!("CARGO_MANIFEST_DIR"),
                "/tests/data/flatzinc/suite/golomb-golomb-09.fzn"
            ))
            .output()
            .expect("the launcher runs");
        assert!(String::from_utf8_lossy(&solved.stdout).contains("=========="));
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// `seq_search` of `int_search` and `bool_search` becomes a plan of two phases with the
/// mapped orders; a choice the engine lacks falls back with a warning naming it, and the
/// first solution follows the plan.
#[test]
fn search_annotations_become_a_plan() {
    let b = built(
        "var 1..3: x :: output_var;\nvar 1..3: y :: output_var;\nvar bool: p :: output_var;\n\
         constraint int_ne(x, y);\n\
         solve :: seq_search([int_search([y, x], input_order, indomain_max, complete), \
         bool_search([p], max_regret, indomain_min, complete)]) :: restart_luby(100) satisfy;\n",
    );
    let phases = &b.search.phases;
    assert_eq!(phases.len(), 2);
    assert_eq!(
        (
            phases[0].vars.len(),
            phases[0].variable_order,
            phases[0].value_order
        ),
        (
            2,
            bitcsp::VariableOrder::InputOrder,
            bitcsp::ValueOrder::Descending
        )
    );
    assert_eq!(phases[1].value_order, bitcsp::ValueOrder::Ascending);
    let warned = |text: &str| b.search.warnings.iter().any(|w| w.contains(text));
    assert!(warned("max_regret"), "{:?}", b.search.warnings);
    assert!(!warned("restart"), "{:?}", b.search.warnings);
    assert_eq!(
        b.search.restarts,
        Some(bitcsp::Restarts::Luby { scale: 100 })
    );
    let mut solver = Solver::new(&b.model);
    b.configure(&mut solver, false);
    let first = solver.solve().solution().map(|s| b.format(&s));
    // y first, at its largest, then x at its largest left, then p at false.
    assert_eq!(first.as_deref(), Some("x = 2;\ny = 3;\np = false;\n"));
}

/// The value of `name = V;` in a printed solution.
fn printed_int(block: &str, name: &str) -> i32 {
    let prefix = format!("{name} = ");
    let line = block
        .lines()
        .find(|l| l.starts_with(&prefix))
        .unwrap_or_else(|| panic!("no {name} in {block}"));
    let value = &line[prefix.len()..line.len() - 1];
    match value {
        "true" => 1,
        "false" => 0,
        v => v.parse().expect("an integer"),
    }
}

#[test]
fn a_job_shop_with_start_times_of_no_declared_bounds_is_proved_optimal() {
    // MiniZinc leaves `var int` start times unbounded: a search that orders three tasks
    // of one machine in a cycle must fail at once, not after their bounds crept across
    // the whole `i32` (see `tests/wide_domains.rs` for the engine's side).
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/data/flatzinc/jobshop_unbounded.fzn"
    );
    let out = run(&["fzn", path, "-t", "20000"]);
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.ends_with("----------\n==========\n"), "{text}");
    let last = text.rsplit("----------").nth(1).expect("a solution");
    assert_eq!(printed_int(last, "makespan"), 12);
    // s = array2d(1..4, 1..3, [...]); checked against the model's rules.
    let starts: Vec<i32> = last
        .split('[')
        .nth(1)
        .and_then(|rest| rest.split(']').next())
        .expect("the start times")
        .split(", ")
        .map(|v| v.parse().expect("a start time"))
        .collect();
    let durations = [3, 2, 2, 2, 1, 4, 4, 3, 1, 2, 2, 3];
    let machines = [1, 2, 3, 2, 1, 3, 3, 2, 1, 1, 3, 2];
    for t in 0..12 {
        assert!(starts[t] >= 0 && starts[t] + durations[t] <= 12, "task {t}");
        if t % 3 > 0 {
            assert!(
                starts[t - 1] + durations[t - 1] <= starts[t],
                "job order at {t}"
            );
        }
        for u in t + 1..12 {
            let apart =
                starts[t] + durations[t] <= starts[u] || starts[u] + durations[u] <= starts[t];
            assert!(
                machines[t] != machines[u] || apart,
                "tasks {t} and {u} overlap"
            );
        }
    }
}

#[test]
fn a_reified_sliding_sum_over_unbounded_partial_sums_lists_every_solution() {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/data/flatzinc/sliding_sum_reified.fzn"
    );
    // The FlatZinc's solutions by brute force (the model's text is at the head of the
    // file). MiniZinc decomposes the sliding sum inside the disjunction with partial sums
    // that nothing defines there, so the flattened disjunct can always be made true (a
    // partial sum far off breaks a window and the definitions at once): the second
    // constraint holds whatever the values, as Gecode finds on the same file too.
    let mut expected = std::collections::BTreeSet::new();
    for x0 in -3..=2 {
        for x1 in -3..=3 {
            for x2 in -2i32..=2 {
                for b0 in 0..=1 {
                    for b1 in 0..=1 {
                        let xs = [x2, x1, x0];
                        let element = (1..=3).contains(&x2) && x0 == xs[x2 as usize - 1];
                        let sorted = x0 <= x1 && x1 <= x2;
                        let count = [x1, x0, x2].iter().filter(|&&v| v == -2).count() >= 2;
                        let conditional = x2 == if b0 == 1 { x2 } else { x2 * x0 };
                        if element && (sorted || count) && conditional {
                            expected.insert([x0, x1, x2, b0, b1]);
                        }
                    }
                }
            }
        }
    }
    assert!(!expected.is_empty());
    let out = run(&["fzn", path, "-a", "-t", "20000"]);
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.ends_with("----------\n==========\n"), "{text}");
    let printed: Vec<[i32; 5]> = text
        .split("----------\n")
        .filter(|block| block.contains("x0 = "))
        .map(|block| ["x0", "x1", "x2", "b0", "b1"].map(|name| printed_int(block, name)))
        .collect();
    assert_eq!(printed.len(), expected.len(), "each solution once");
    assert_eq!(
        printed
            .into_iter()
            .collect::<std::collections::BTreeSet<_>>(),
        expected
    );
}

#[test]
fn indomain_random_draws_from_the_seed_of_r() {
    let text = b"var 1..9: x :: output_var;\nvar 1..9: y :: output_var;\n\
                 var 1..9: z :: output_var;\nconstraint fzn_all_different_int([x, y, z]);\n\
                 solve :: int_search([x, y, z], input_order, indomain_random, complete) \
                 satisfy;\n";
    let first = |seed: &str| {
        let out = run_with_stdin(&["fzn", "-", "-r", seed], text);
        assert!(
            String::from_utf8_lossy(&out.stderr).is_empty(),
            "a warning: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        String::from_utf8_lossy(&out.stdout).into_owned()
    };
    let firsts: std::collections::BTreeSet<String> =
        (1..=8).map(|seed| first(&seed.to_string())).collect();
    assert!(firsts.len() > 1, "one first solution for eight seeds");
    assert_eq!(first("3"), first("3"));
    let all = |seed: &str| {
        let out = run_with_stdin(&["fzn", "-", "-a", "-r", seed], text);
        let text = String::from_utf8_lossy(&out.stdout).into_owned();
        assert!(text.ends_with("==========\n"));
        let mut blocks: Vec<String> = text
            .split("----------\n")
            .filter(|b| b.contains("x = "))
            .map(str::to_owned)
            .collect();
        blocks.sort();
        blocks
    };
    let listed = all("1");
    assert_eq!(listed.len(), 9 * 8 * 7);
    assert_eq!(all("2"), listed);
}

#[test]
fn the_declared_domain_of_an_alias_constrains_what_it_names() {
    // MiniZinc writes `var 1..1: x0 = X_3` when flattening narrowed x0 below the domain of
    // the variable it became: every solution keeps x0 within 1..1.
    let solutions = |text: &str| {
        let b = built(text);
        let mut solver = Solver::new(&b.model);
        solver
            .solutions()
            .map(|s| b.format(&s))
            .collect::<Vec<String>>()
    };
    assert_eq!(
        solutions(
            "var 0..3: y;\nvar 1..1: x :: output_var = y;\nconstraint int_le(0, y);\n\
             solve satisfy;\n"
        ),
        ["x = 1;\n"]
    );
    assert_eq!(
        solutions("var 0..5: y;\nvar {1, 3}: x :: output_var = y;\nsolve satisfy;\n"),
        ["x = 1;\n", "x = 3;\n"]
    );
    let arrays = solutions(
        "var 0..5: y :: output_var;\nvar 0..5: z :: output_var;\n\
         array [1..2] of var 2..3: a = [y, z];\nsolve satisfy;\n",
    );
    assert_eq!(arrays.len(), 4, "{arrays:?}");
    assert!(arrays
        .iter()
        .all(|s| !s.contains(" = 0;") && !s.contains(" = 5;")));
    assert!(solutions("var 1..2: x :: output_var = 3;\nsolve satisfy;\n").is_empty());
    // A domain that already holds the variable's adds nothing and loses nothing.
    assert_eq!(
        solutions("var 1..2: y;\nvar 0..9: x :: output_var = y;\nsolve satisfy;\n"),
        ["x = 1;\n", "x = 2;\n"]
    );
}
