//! The solve item's search annotations as a search plan: `int_search`, `bool_search` and
//! `seq_search` become [`SearchPhase`]s, and `restart_*` the search's [`Restarts`]; a choice
//! the engine cannot honour is replaced by the nearest it can, with a warning naming it.

use super::parse::{Annotation, Expr, FznError};
use crate::{Restarts, SearchPhase, ValueOrder, VarId, VariableOrder};

/// The search plan of a solve item, and what of its annotations was not honoured as
/// written (one warning each).
#[derive(Clone, Debug, Default)]
pub struct SearchAnnotations {
    /// The phases, in the order the annotations give them.
    pub phases: Vec<SearchPhase>,
    /// The restarts a `restart_*` annotation asks for, if one does.
    pub restarts: Option<Restarts>,
    /// One line per annotation or choice that was replaced or ignored.
    pub warnings: Vec<String>,
}

/// Reads the search annotations of the solve item; `vars` gives the variables of an
/// annotation's first argument (constants left out).
pub(crate) fn read(
    annotations: &[Annotation],
    vars: &mut dyn FnMut(&Expr) -> Result<Vec<VarId>, FznError>,
) -> Result<SearchAnnotations, FznError> {
    let mut out = SearchAnnotations::default();
    for a in annotations {
        read_one(&a.name, &a.args, vars, &mut out)?;
    }
    out.warnings.sort();
    out.warnings.dedup();
    Ok(out)
}

fn read_one(
    name: &str,
    args: &[Expr],
    vars: &mut dyn FnMut(&Expr) -> Result<Vec<VarId>, FznError>,
    out: &mut SearchAnnotations,
) -> Result<(), FznError> {
    match name {
        "seq_search" => {
            let inner = match args.first() {
                Some(Expr::Array(items)) => items.as_slice(),
                _ => &[],
            };
            for item in inner {
                match item {
                    Expr::Call(n, a) => read_one(n, a, vars, out)?,
                    Expr::Ident(n) => read_one(n, &[], vars, out)?,
                    _ => out
                        .warnings
                        .push("seq_search: an entry that is not a search".into()),
                }
            }
        }
        "int_search" | "bool_search" => {
            let (Some(list), Some(var_choice), Some(value_choice)) =
                (args.first(), args.get(1), args.get(2))
            else {
                out.warnings
                    .push(format!("{name} without its three arguments: ignored"));
                return Ok(());
            };
            let variable_order = variable_order(ident(var_choice), &mut out.warnings);
            let value_order = value_order(ident(value_choice), &mut out.warnings);
            if let Some(strategy) = args.get(3).map(ident) {
                if strategy != "complete" {
                    out.warnings.push(format!(
                        "{name}: exploration '{strategy}' is searched completely"
                    ));
                }
            }
            out.phases.push(SearchPhase {
                vars: vars(list)?,
                variable_order,
                value_order,
            });
        }
        "restart_none" => out.restarts = Some(Restarts::Never),
        "restart_luby" | "restart_constant" | "restart_linear" | "restart_geometric" => {
            out.restarts = Some(restarts(name, args, &mut out.warnings));
        }
        _ => out.warnings.push(format!(
            "search annotation '{name}' is not supported: ignored"
        )),
    }
    Ok(())
}

/// The engine's restarts for a `restart_*` annotation: Luby's sequence on its scale (the
/// last argument), the only sequence the engine has; another sequence keeps its scale, with
/// a warning.
fn restarts(name: &str, args: &[Expr], warnings: &mut Vec<String>) -> Restarts {
    let scale = match args.last() {
        Some(&Expr::Int(scale)) if scale > 0 => scale.unsigned_abs(),
        _ => {
            warnings.push(format!(
                "{name} without a positive scale: a scale of 100 is used"
            ));
            100
        }
    };
    if name != "restart_luby" {
        warnings.push(format!(
            "{name} is taken as restart_luby on the same scale (bitcsp restarts on the Luby \
             sequence only)"
        ));
    }
    Restarts::Luby { scale }
}

fn ident(e: &Expr) -> &str {
    match e {
        Expr::Ident(name) | Expr::Call(name, _) => name,
        _ => "",
    }
}

/// The engine's order for a FlatZinc variable choice.
fn variable_order(name: &str, warnings: &mut Vec<String>) -> VariableOrder {
    match name {
        "input_order" => VariableOrder::InputOrder,
        "first_fail" => VariableOrder::Mrv,
        "anti_first_fail" => VariableOrder::MostValues,
        "smallest" => VariableOrder::Smallest,
        "largest" => VariableOrder::Largest,
        "occurrence" => VariableOrder::Occurrence,
        "most_constrained" => VariableOrder::MrvDegree,
        "dom_w_deg" => VariableOrder::DomWdeg,
        other => {
            warnings.push(format!(
                "variable choice '{other}' is not supported: first_fail with ties to the \
                 most constrained is used"
            ));
            VariableOrder::MrvDegree
        }
    }
}

/// The engine's order for a FlatZinc value choice.
fn value_order(name: &str, warnings: &mut Vec<String>) -> ValueOrder {
    match name {
        "indomain" | "indomain_min" => ValueOrder::Ascending,
        "indomain_max" => ValueOrder::Descending,
        "indomain_median" => ValueOrder::Median,
        "indomain_middle" => ValueOrder::MiddleOut,
        "indomain_split" => ValueOrder::SplitLower,
        "indomain_reverse_split" => ValueOrder::SplitUpper,
        "indomain_random" => ValueOrder::Random,
        "indomain_interval" => {
            warnings.push(format!(
                "value choice '{name}' is taken as indomain_split (bitcsp halves domains, \
                 it does not split them at their holes)"
            ));
            ValueOrder::SplitLower
        }
        other => {
            warnings.push(format!(
                "value choice '{other}' is not supported: indomain_min is used"
            ));
            ValueOrder::Ascending
        }
    }
}
