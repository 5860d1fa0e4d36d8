//! A [`Model`] from FlatZinc items: parameters become constants, variables become the
//! model's variables (a variable bound to another is the same variable), each constraint
//! one of the model's constraints, and the solve item the objective. The output
//! annotations say what a solution prints.

use std::collections::{HashMap, HashSet};

use super::cliques;
use super::intervals;
use super::parse::{Expr, FznError, Item, Located, SolveGoal, Type};
use super::search::{self, SearchAnnotations};
use crate::{
    Compare, Consistency, Domain, LastConflict, LinearConstraint, LinearExpr, Literal, Model,
    ModelError, Relation, Restarts, Solution, Solver, VarId, VariableOrder,
};

/// The restarts of an optimisation that no search annotation orders: Luby's sequence on
/// 100 failures, each attempt guided by the best solution so far.
const FREE_OPTIMISATION_RESTARTS: Restarts = Restarts::Luby { scale: 100 };

/// The restarts of a satisfaction problem's search for one solution when no search
/// annotation orders it: Luby's sequence on 1,000 failures, so that a search that ends
/// within its first thousand failures runs as it would without restarts
/// (docs/FLATZINC.md, Restarts).
const FREE_SATISFACTION_RESTARTS: Restarts = Restarts::Luby { scale: 1000 };

/// A model built from FlatZinc, with what to print of a solution.
#[derive(Debug)]
pub struct Built {
    /// The model.
    pub model: Model,
    /// What the solve item asks for.
    pub goal: Goal,
    /// The outputs, in the order of their declarations.
    pub outputs: Vec<Output>,
    /// The solve item's search annotations, as a search plan.
    pub search: SearchAnnotations,
}

/// The solve item's goal.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Goal {
    /// Any solution.
    Satisfy,
    /// The least value of the variable.
    Minimize(VarId),
    /// The greatest value of the variable.
    Maximize(VarId),
}

/// One printed name: a variable, or an array with its index sets.
#[derive(Clone, Debug)]
pub struct Output {
    name: String,
    vars: Vec<VarId>,
    boolean: bool,
    /// `None` for a single variable; the index sets of an array.
    dims: Option<Vec<(i64, i64)>>,
}

impl Built {
    /// Sets `solver`'s search as `bitcsp fzn` runs it: the search annotations' plan
    /// (unless `free_search`), and for every variable it leaves, dom/wdeg with the last
    /// failed decision's variable first. MiniZinc models often come without annotations
    /// and full of introduced Booleans, where what finds good branches is learning which
    /// variables the failures come from (docs/FLATZINC.md gives the comparison).
    ///
    /// Restarts follow a `restart_*` annotation; without one, see [`Built::restarts`].
    ///
    /// ```
    /// use bitcsp::flatzinc::{build, parse};
    /// use bitcsp::Solver;
    /// let items = parse("var 1..3: x :: output_var;\nsolve :: int_search([x], input_order, indomain_max, complete) satisfy;\n")?;
    /// let built = build(&items)?;
    /// let mut solver = Solver::new(&built.model);
    /// built.configure(&mut solver, false);
    /// let first = solver.solve().solution().map(|s| built.format(&s));
    /// assert_eq!(first.as_deref(), Some("x = 3;\n"));
    /// # Ok::<(), bitcsp::flatzinc::FznError>(())
    /// ```
    pub fn configure(&self, solver: &mut Solver, free_search: bool) {
        solver
            .set_variable_order(VariableOrder::DomWdeg)
            .set_last_conflict(LastConflict::BranchFirst);
        let planned = !free_search && !self.search.phases.is_empty();
        if planned {
            // The plan's variables are the model's own: it cannot be refused.
            let _ = solver.set_search_plan(&self.search.phases);
        }
        let restarts = self.restarts(free_search);
        solver
            .set_restarts(restarts)
            .set_solution_guided(self.goal != Goal::Satisfy && restarts != Restarts::Never);
    }

    /// The restarts [`Built::configure`] sets. A `restart_*` annotation decides. Without
    /// one, a search that no plan orders (none in the model, or `free_search`) restarts
    /// on Luby's sequence: an optimisation on 100 failures, each attempt guided by the
    /// best solution so far ([`Solver::set_solution_guided`]), and a satisfaction problem
    /// on 1,000 failures, with random values at each later attempt. A plan the model's
    /// author wrote runs without restarts. Restarts serve only the search for one
    /// solution or the best: enumerating never restarts (see [`Solver::solutions`]).
    ///
    /// ```
    /// use bitcsp::flatzinc::{build, parse};
    /// use bitcsp::Restarts;
    /// let free = build(&parse("var 1..3: x :: output_var;\nsolve satisfy;\n")?)?;
    /// assert_eq!(free.restarts(false), Restarts::Luby { scale: 1000 });
    /// let plan = "solve :: int_search([x], input_order, indomain_min, complete) satisfy;\n";
    /// let planned = build(&parse(&format!("var 1..3: x :: output_var;\n{plan}"))?)?;
    /// assert_eq!(planned.restarts(false), Restarts::Never);
    /// assert_eq!(planned.restarts(true), Restarts::Luby { scale: 1000 });
    /// # Ok::<(), bitcsp::flatzinc::FznError>(())
    /// ```
    pub fn restarts(&self, free_search: bool) -> Restarts {
        let planned = !free_search && !self.search.phases.is_empty();
        match (self.search.restarts, planned, self.goal) {
            (Some(asked), _, _) => asked,
            (None, true, _) => Restarts::Never,
            (None, false, Goal::Satisfy) => FREE_SATISFACTION_RESTARTS,
            (None, false, _) => FREE_OPTIMISATION_RESTARTS,
        }
    }

    /// Every variable the outputs print, in the order of the outputs: what tells two
    /// printed solutions apart (see [`Solver::set_projection`](crate::Solver::set_projection)).
    pub fn output_vars(&self) -> Vec<VarId> {
        self.outputs
            .iter()
            .flat_map(|o| o.vars.iter().copied())
            .collect()
    }

    /// The solution as FlatZinc prints it: `name = value;` per output, arrays as
    /// `arrayNd(index sets, [values])`.
    pub fn format(&self, solution: &Solution) -> String {
        let mut out = String::new();
        for o in &self.outputs {
            let show = |v: VarId| {
                let value = solution.value(v);
                if o.boolean {
                    (value == 1).to_string()
                } else {
                    value.to_string()
                }
            };
            match &o.dims {
                None => out.push_str(&format!("{} = {};\n", o.name, show(o.vars[0]))),
                Some(dims) => {
                    let sets: Vec<String> =
                        dims.iter().map(|(lo, hi)| format!("{lo}..{hi}")).collect();
                    let values: Vec<String> = o.vars.iter().map(|&v| show(v)).collect();
                    out.push_str(&format!(
                        "{} = array{}d({}, [{}]);\n",
                        o.name,
                        dims.len(),
                        sets.join(", "),
                        values.join(", ")
                    ));
                }
            }
        }
        out
    }
}

/// A value a name stands for.
#[derive(Clone, Debug)]
enum Value {
    Int(i64),
    Bool(bool),
    Var(VarId),
    Array(Vec<Value>),
    Set(Vec<i64>),
    /// `lo..hi`, kept as its bounds (it may be far too wide to list).
    Range(i64, i64),
}

/// The widest range listed value by value (as a set argument); wider ones are refused
/// rather than cut short.
const MAX_LISTED_RANGE: i64 = 1 << 20;

struct Builder {
    model: Model,
    names: HashMap<String, Value>,
    constants: HashMap<i64, VarId>,
    outputs: Vec<Output>,
    line: usize,
    /// The counts of fixed values read so far, by the array they count in: (value,
    /// count) pairs, posted together when the items are read.
    counts: Vec<(Vec<VarId>, Vec<CountOf>)>,
    /// `x != y + c` between two distinct variables, gathered into all-different
    /// constraints when the items are read.
    disequalities: Vec<(VarId, VarId, i64)>,
    /// The strength the constraint being read asks for: `:: domain`, `:: bounds` or
    /// `:: value_propagation` (the fast rules), if any.
    strength_asked: Option<Consistency>,
    /// The variables declared as intervals (`intervals.rs`).
    intervals: HashSet<String>,
}

/// The most tuples a `:: domain` equation is listed with.
const MAX_EQUATION_TUPLES: usize = 4096;

/// The most combinations of values listed to find them.
const MAX_LISTED_COMBINATIONS: usize = 1 << 16;

/// Every solution of `Σ coeffs·vars = rhs` within the variables' domains, found by
/// listing every value of all variables but the last and computing the last; `None` when
/// a variable repeats, the last coefficient is 0, or the listing would pass
/// [`MAX_EQUATION_TUPLES`].
fn solutions_of(model: &Model, vars: &[VarId], coeffs: &[i32], rhs: i64) -> Option<Vec<Vec<i32>>> {
    let (&last, listed) = vars.split_last()?;
    let a = i64::from(*coeffs.last()?);
    let distinct: std::collections::HashSet<_> = vars.iter().collect();
    if a == 0 || distinct.len() != vars.len() {
        return None;
    }
    let domains: Vec<Vec<i32>> = listed
        .iter()
        .map(|&v| model.domain(v).map(|d| d.iter().collect()))
        .collect::<Option<_>>()?;
    // The listing visits every combination: a bounded number of them.
    let product = domains
        .iter()
        .try_fold(1usize, |n, d| n.checked_mul(d.len()))?;
    if product > MAX_LISTED_COMBINATIONS {
        return None;
    }
    let last_domain = model.domain(last)?;
    let mut tuples = Vec::new();
    let mut at = vec![0usize; domains.len()];
    'odometer: loop {
        let partial: i64 = at
            .iter()
            .zip(&domains)
            .zip(coeffs)
            .map(|((&k, d), &c)| i64::from(c) * i64::from(d[k]))
            .sum();
        let rest = rhs - partial;
        if rest % a == 0 {
            if let Ok(value) = i32::try_from(rest / a) {
                if last_domain.contains(value) {
                    let mut tuple: Vec<i32> = at.iter().zip(&domains).map(|(&k, d)| d[k]).collect();
                    tuple.push(value);
                    tuples.push(tuple);
                    if tuples.len() > MAX_EQUATION_TUPLES {
                        return None;
                    }
                }
            }
        }
        for (k, d) in at.iter_mut().zip(&domains) {
            *k += 1;
            if *k < d.len() {
                continue 'odometer;
            }
            *k = 0;
        }
        return Some(tuples);
    }
}

/// `(x, y)` when `coeffs · vars` is `x - y` over two distinct variables (written either
/// way round).
fn difference(vars: &[VarId], coeffs: &[i32]) -> Option<(VarId, VarId)> {
    match (vars, coeffs) {
        (&[x, y], &[1, -1]) if x != y => Some((x, y)),
        (&[x, y], &[-1, 1]) if x != y => Some((y, x)),
        _ => None,
    }
}

/// An argument of a comparison: a variable or a constant.
#[derive(Clone, Copy, Debug)]
enum Term {
    Var(VarId),
    Constant(i64),
}

impl Term {
    fn var(self) -> Option<VarId> {
        match self {
            Term::Var(v) => Some(v),
            Term::Constant(_) => None,
        }
    }

    fn expr(self) -> LinearExpr {
        match self {
            Term::Var(v) => v.into(),
            Term::Constant(c) => c.into(),
        }
    }
}

/// A value counted, and the variable holding its count.
type CountOf = (i32, VarId);

/// Builds the model of `items`.
///
/// # Errors
/// [`FznError`] naming the line of an item the engine cannot take: an unknown name, a
/// float, an unsupported constraint, or a model error.
pub fn build(items: &[Located]) -> Result<Built, FznError> {
    let mut b = Builder {
        model: Model::new(),
        names: HashMap::new(),
        constants: HashMap::new(),
        outputs: Vec::new(),
        line: 1,
        counts: Vec::new(),
        disequalities: Vec::new(),
        strength_asked: None,
        intervals: intervals::bounds_only(items),
    };
    let mut goal = Goal::Satisfy;
    let mut plan = SearchAnnotations::default();
    for located in items {
        b.line = located.line;
        match &located.item {
            Item::Predicate => {}
            Item::Parameter { name, value, .. } => {
                let v = b.value(value)?;
                b.names.insert(name.clone(), v);
            }
            Item::Variable {
                name,
                ty,
                array,
                value,
                annotations,
            } => {
                let interval = b.intervals.contains(name);
                let v = b.variable(ty, *array, value.as_ref(), interval)?;
                let output_array = annotations.iter().find(|a| a.name == "output_array");
                if annotations.iter().any(|a| a.name == "output_var") || output_array.is_some() {
                    let vars = b.vars(&v)?;
                    let dims = match output_array {
                        Some(a) => Some(dims_of(&a.args).ok_or_else(|| b.err("bad output_array"))?),
                        None => None,
                    };
                    b.outputs.push(Output {
                        name: name.clone(),
                        vars,
                        boolean: *ty == Type::Bool,
                        dims,
                    });
                }
                b.names.insert(name.clone(), v);
            }
            Item::Constraint {
                name,
                args,
                annotations,
            } => {
                let args = args
                    .iter()
                    .map(|a| b.value(a))
                    .collect::<Result<Vec<_>, _>>()?;
                b.strength_asked = annotations.iter().find_map(|a| match a.name.as_str() {
                    "domain" => Some(Consistency::Domain),
                    "bounds" => Some(Consistency::Bounds),
                    "value_propagation" => Some(Consistency::Fast),
                    _ => None,
                });
                b.constraint(name, &args)?;
            }
            Item::Solve {
                goal: g,
                annotations,
            } => {
                plan = search::read(annotations, &mut |e| b.searched_vars(e))?;
                goal = match g {
                    SolveGoal::Satisfy => Goal::Satisfy,
                    SolveGoal::Minimize(e) => {
                        let v = b.value(e)?;
                        let var = b.var(&v)?;
                        b.model.minimize(var).map_err(|e| b.model_err(e))?;
                        Goal::Minimize(var)
                    }
                    SolveGoal::Maximize(e) => {
                        let v = b.value(e)?;
                        let var = b.var(&v)?;
                        b.model.maximize(var).map_err(|e| b.model_err(e))?;
                        Goal::Maximize(var)
                    }
                };
            }
        }
    }
    b.post_disequalities()?;
    for (xs, pairs) in std::mem::take(&mut b.counts) {
        let (values, counts): (Vec<i32>, Vec<VarId>) = pairs.into_iter().unzip();
        b.model
            .global_cardinality(&xs, &values, &counts)
            .map_err(|e| b.model_err(e))?;
    }
    Ok(Built {
        model: b.model,
        goal,
        outputs: b.outputs,
        search: plan,
    })
}

/// The index sets of `output_array([1..2, 1..3])`.
fn dims_of(args: &[Expr]) -> Option<Vec<(i64, i64)>> {
    match args.first()? {
        Expr::Array(sets) => sets
            .iter()
            .map(|s| match s {
                Expr::Range(lo, hi) => Some((*lo, *hi)),
                _ => None,
            })
            .collect(),
        _ => None,
    }
}

impl Builder {
    fn err(&self, message: impl Into<String>) -> FznError {
        FznError {
            line: self.line,
            message: message.into(),
        }
    }

    fn model_err(&self, e: ModelError) -> FznError {
        self.err(e.to_string())
    }

    fn value(&self, e: &Expr) -> Result<Value, FznError> {
        Ok(match e {
            Expr::Int(i) => Value::Int(*i),
            Expr::Bool(b) => Value::Bool(*b),
            Expr::Float(f) => return Err(self.err(format!("float {f}: floats are not supported"))),
            Expr::Str(_) => return Err(self.err("a string is not a value")),
            Expr::Call(name, _) => {
                return Err(self.err(format!("annotation '{name}' is not a value")))
            }
            Expr::Ident(name) => self
                .names
                .get(name)
                .cloned()
                .ok_or_else(|| self.err(format!("unknown name '{name}'")))?,
            Expr::Range(lo, hi) => Value::Range(*lo, *hi),
            Expr::Set(values) => Value::Set(values.clone()),
            Expr::Array(items) => Value::Array(
                items
                    .iter()
                    .map(|i| self.value(i))
                    .collect::<Result<_, _>>()?,
            ),
            Expr::Access(name, index) => {
                let Some(Value::Array(items)) = self.names.get(name) else {
                    return Err(self.err(format!("'{name}' is not an array")));
                };
                usize::try_from(*index - 1)
                    .ok()
                    .and_then(|i| items.get(i))
                    .cloned()
                    .ok_or_else(|| self.err(format!("index {index} is outside '{name}'")))?
            }
        })
    }

    /// A declared variable (`interval`: kept as an interval, see `intervals.rs`), or what
    /// it is bound to.
    fn variable(
        &mut self,
        ty: &Type,
        array: Option<usize>,
        value: Option<&Expr>,
        interval: bool,
    ) -> Result<Value, FznError> {
        if let Some(e) = value {
            let v = self.value(e)?;
            let v = match (array, v) {
                (None, Value::Int(i)) => Value::Var(self.constant(i)?),
                (None, Value::Bool(b)) => Value::Var(self.constant(i64::from(b))?),
                (_, v) => v,
            };
            // `var 1..1: y = x` and `array [..] of var 0..5: ys = [..]` declare a domain
            // for what they name: it constrains those variables.
            match &v {
                Value::Array(items) => {
                    for item in items {
                        self.keep_within(item, ty)?;
                    }
                }
                single => self.keep_within(single, ty)?,
            }
            return Ok(v);
        }
        if array.is_some() {
            return Err(self.err("an array of variables needs its elements"));
        }
        let var = match ty {
            Type::Bool => self.model.new_bool(),
            Type::Int => self.model.new_var(i32::MIN..=i32::MAX),
            Type::Range(lo, hi) => {
                let (lo, hi) = (
                    narrow(*lo).map_err(|_| self.err("bound beyond i32"))?,
                    narrow(*hi).map_err(|_| self.err("bound beyond i32"))?,
                );
                if interval {
                    Domain::interval(lo..=hi).and_then(|d| self.model.new_var_with_domain(d))
                } else {
                    self.model.new_var(lo..=hi)
                }
            }
            Type::Set(values) => {
                let values = values
                    .iter()
                    .map(|&v| narrow(v))
                    .collect::<Result<Vec<_>, _>>()
                    .map_err(|_| self.err("value beyond i32"))?;
                self.model.new_var_from_values(&values)
            }
            Type::Float => return Err(self.err("float variables are not supported")),
            Type::SetOfInt => return Err(self.err("set variables are not supported")),
        }
        .map_err(|e| self.model_err(e))?;
        Ok(Value::Var(var))
    }

    /// Requires `v` to lie in the declared type `ty` when its domain does not already:
    /// bounds for a range, the values for a set.
    fn keep_within(&mut self, v: &Value, ty: &Type) -> Result<(), FznError> {
        let allowed = match ty {
            Type::Range(lo, hi) => Value::Range(*lo, *hi),
            Type::Set(values) => Value::Set(values.clone()),
            _ => return Ok(()),
        };
        let var = match v {
            Value::Var(x) => *x,
            Value::Int(i) => self.constant(*i)?,
            _ => return Ok(()),
        };
        let inside = self.model.domain(var).is_some_and(|d| match &allowed {
            Value::Range(lo, hi) => d
                .min()
                .zip(d.max())
                .is_some_and(|(a, b)| i64::from(a) >= *lo && i64::from(b) <= *hi),
            Value::Set(values) => !d.is_wide() && d.iter().all(|x| values.contains(&i64::from(x))),
            _ => false,
        });
        if inside {
            return Ok(());
        }
        self.constraint("set_in", &[Value::Var(var), allowed])
    }

    fn constant(&mut self, value: i64) -> Result<VarId, FznError> {
        if let Some(&v) = self.constants.get(&value) {
            return Ok(v);
        }
        let c = narrow(value).map_err(|_| self.err(format!("constant {value} beyond i32")))?;
        let v = self.model.new_var(c..=c).map_err(|e| self.model_err(e))?;
        self.constants.insert(value, v);
        Ok(v)
    }

    fn var(&mut self, v: &Value) -> Result<VarId, FznError> {
        match v {
            Value::Var(x) => Ok(*x),
            Value::Int(i) => self.constant(*i),
            Value::Bool(b) => self.constant(i64::from(*b)),
            _ => Err(self.err("expected a variable or a constant")),
        }
    }

    /// The variables of a search annotation's list, constants left out.
    fn searched_vars(&self, e: &Expr) -> Result<Vec<VarId>, FznError> {
        let items = match self.value(e)? {
            Value::Array(items) => items,
            single => vec![single],
        };
        Ok(items
            .iter()
            .filter_map(|v| match v {
                Value::Var(x) => Some(*x),
                _ => None,
            })
            .collect())
    }

    /// `b ⇒ c` for a FlatZinc `_imp` constraint, else `b ⇔ c`.
    fn reified(&mut self, name: &str, b: Literal, c: LinearConstraint) -> Result<(), ModelError> {
        if name.ends_with("_imp") {
            self.model.implies_constraint(b, c)
        } else {
            self.model.reify(b, c)
        }
    }

    /// A variable, or a constant kept as one.
    fn term(&mut self, v: &Value) -> Result<Term, FznError> {
        match v {
            Value::Int(i) => Ok(Term::Constant(*i)),
            Value::Bool(b) => Ok(Term::Constant(i64::from(*b))),
            other => self.var(other).map(Term::Var),
        }
    }

    fn vars(&mut self, v: &Value) -> Result<Vec<VarId>, FznError> {
        match v {
            Value::Array(items) => items.iter().map(|i| self.var(i)).collect(),
            single => Ok(vec![self.var(single)?]),
        }
    }

    fn int(&self, v: &Value) -> Result<i64, FznError> {
        match v {
            Value::Int(i) => Ok(*i),
            Value::Bool(b) => Ok(i64::from(*b)),
            _ => Err(self.err("expected an integer constant")),
        }
    }

    fn ints(&self, v: &Value) -> Result<Vec<i64>, FznError> {
        match v {
            Value::Array(items) => items.iter().map(|i| self.int(i)).collect(),
            Value::Set(values) => Ok(values.clone()),
            Value::Range(lo, hi) if hi.saturating_sub(*lo) < MAX_LISTED_RANGE => {
                Ok((*lo..=*hi).collect())
            }
            Value::Range(lo, hi) => {
                Err(self.err(format!("the set {lo}..{hi} is too wide to list")))
            }
            _ => Err(self.err("expected an array of integers")),
        }
    }

    fn coeff(&self, v: &Value) -> Result<i32, FznError> {
        narrow(self.int(v)?).map_err(|_| self.err("a constant beyond the engine's integers"))
    }

    fn coeffs(&self, v: &Value) -> Result<Vec<i32>, FznError> {
        self.ints(v)?
            .into_iter()
            .map(|c| narrow(c).map_err(|_| self.err("coefficient beyond i32")))
            .collect()
    }

    fn linear(&mut self, coeffs: &Value, vars: &Value) -> Result<LinearExpr, FznError> {
        let coeffs = self.ints(coeffs)?;
        let vars = self.vars(vars)?;
        Ok(coeffs
            .iter()
            .zip(vars)
            .fold(LinearExpr::default(), |acc, (&c, x)| acc + x * c))
    }

    fn lit(&mut self, v: &Value) -> Result<Literal, FznError> {
        Ok(Literal::yes(self.var(v)?))
    }

    fn lits(&mut self, v: &Value) -> Result<Vec<Literal>, FznError> {
        Ok(self.vars(v)?.into_iter().map(Literal::yes).collect())
    }

    /// `b`, or a fresh copy of it when it is one of `used` (a reified literal must not
    /// occur in its own comparison).
    fn apart(&mut self, b: Literal, used: &[VarId]) -> Result<Literal, FznError> {
        if !used.contains(&b.var()) {
            return Ok(b);
        }
        let copy = self.model.new_bool().map_err(|e| self.model_err(e))?;
        self.model
            .require(copy.equals(b.var()))
            .map_err(|e| self.model_err(e))?;
        Ok(Literal::yes(copy))
    }

    #[allow(clippy::too_many_lines)]
    fn constraint(&mut self, name: &str, a: &[Value]) -> Result<(), FznError> {
        let name = name.strip_prefix("fzn_").unwrap_or(name);
        let line = self.line;
        let arg = |k: usize| {
            a.get(k).ok_or_else(|| FznError {
                line,
                message: format!("'{name}' takes more arguments"),
            })
        };
        let m = |b: &Self, r: Result<(), ModelError>| r.map_err(|e| b.model_err(e));
        match name {
            "bool_eq" | "bool2int" => {
                // On 0/1 domains the sum's bounds are the whole domains.
                let (x, y) = (self.var(arg(0)?)?, self.var(arg(1)?)?);
                let r = self.model.require(x.equals(y));
                m(self, r)
            }
            "int_eq" => {
                // Domain consistent: a value that leaves one side leaves the other, where a
                // sum would pass on bounds only.
                let (x, y) = (self.var(arg(0)?)?, self.var(arg(1)?)?);
                if x == y {
                    return Ok(());
                }
                let r = self.model.equal_offset(x, y, 0);
                m(self, r)
            }
            "int_ne" | "bool_ne" => {
                let mut xy = [self.var(arg(0)?)?, self.var(arg(1)?)?];
                self.all_apart(&mut xy)?;
                let r = self.model.not_equal(xy[0], xy[1]);
                m(self, r)
            }
            "bool_xor" if a.len() == 2 => {
                // The two-argument form: a ≠ b.
                let (x, y) = (self.lit(arg(0)?)?, self.lit(arg(1)?)?);
                let r = self.model.clause(&[x, y]);
                let r = r.and_then(|()| self.model.clause(&[!x, !y]));
                m(self, r)
            }
            "bool_not" => {
                let (x, y) = (self.lit(arg(0)?)?, self.lit(arg(1)?)?);
                let r = self.model.not(x, y);
                m(self, r)
            }
            "int_le" | "bool_le" | "int_lt" | "bool_lt" => {
                let (x, y) = (self.var(arg(0)?)?, self.var(arg(1)?)?);
                let c = if name.ends_with("lt") {
                    x.less_than(y)
                } else {
                    x.at_most(y)
                };
                let r = self.model.require(c);
                m(self, r)
            }
            "int_lin_ne" if self.kept_disequality(a)? => Ok(()),
            "int_plus" => {
                let (x, y, z) = (self.var(arg(0)?)?, self.var(arg(1)?)?, self.var(arg(2)?)?);
                let r = self.model.require((x + y).equals(z));
                m(self, r)
            }
            "bool_lin_eq" if !matches!(arg(2)?, Value::Int(_)) => {
                // A variable right-hand side: Σ cᵢ·bᵢ - c = 0.
                let sum = self.linear(arg(0)?, arg(1)?)?;
                let c = self.var(arg(2)?)?;
                let r = self.model.require((sum - c).equals(0));
                m(self, r)
            }
            "int_lin_eq" | "int_lin_le" | "int_lin_ne" | "bool_lin_eq" | "bool_lin_le" => {
                let coeffs = self.coeffs(arg(0)?)?;
                let mut vars = self.vars(arg(1)?)?;
                let rhs = self.int(arg(2)?)?;
                if name == "int_lin_ne" {
                    self.all_apart(&mut vars)?;
                }
                // `x - y = c` on domains (every value of one side has its partner), where
                // the sum would keep bounds only.
                let r = match (name, difference(&vars, &coeffs)) {
                    ("int_lin_ne", _) => self.model.linear_not_equal(&vars, &coeffs, rhs),
                    ("int_lin_eq", Some((x, y))) => self.model.equal_offset(x, y, rhs),
                    // `:: domain`: a small equation becomes the table of its solutions.
                    ("int_lin_eq", None) if self.strength_asked == Some(Consistency::Domain) => {
                        match solutions_of(&self.model, &vars, &coeffs, rhs) {
                            Some(tuples) => self.model.table(&vars, &tuples),
                            None => self
                                .model
                                .weighted_sum(&vars, &coeffs, Relation::Equal, rhs),
                        }
                    }
                    (n, _) if n.ends_with("eq") => {
                        self.model
                            .weighted_sum(&vars, &coeffs, Relation::Equal, rhs)
                    }
                    _ => self
                        .model
                        .weighted_sum(&vars, &coeffs, Relation::AtMost, rhs),
                };
                m(self, r)
            }
            "int_eq_reif" | "int_ne_reif" | "int_le_reif" | "int_lt_reif" | "bool_eq_reif"
            | "bool_le_reif" | "bool_lt_reif" | "int_eq_imp" | "int_ne_imp" | "int_le_imp"
            | "int_lt_imp" | "bool_eq_imp" | "bool_le_imp" | "bool_lt_imp" => {
                // Constants stay constants, so that `b ⇔ x = 3` is the engine's reified
                // value rather than an equality with a fixed variable.
                let (x, y, b) = (self.term(arg(0)?)?, self.term(arg(1)?)?, self.lit(arg(2)?)?);
                let used: Vec<VarId> = [&x, &y].iter().filter_map(|t| t.var()).collect();
                let b = self.apart(b, &used)?;
                let (x, y) = (x.expr(), y.expr());
                let stem = name.trim_end_matches("_reif").trim_end_matches("_imp");
                let c = match &stem[stem.len() - 2..] {
                    "eq" => x.equals(y),
                    "ne" => x.not_equal(y),
                    "le" => x.at_most(y),
                    _ => x.less_than(y),
                };
                let r = self.reified(name, b, c);
                m(self, r)
            }
            "int_lin_eq_reif" | "int_lin_le_reif" | "int_lin_ne_reif" | "int_lin_eq_imp"
            | "int_lin_le_imp" | "int_lin_ne_imp" => {
                let terms = self.vars(arg(1)?)?;
                let sum = self.linear(arg(0)?, arg(1)?)?;
                let rhs = self.int(arg(2)?)?;
                let b = self.lit(arg(3)?)?;
                let b = self.apart(b, &terms)?;
                let c = match &name[8..10] {
                    "eq" => sum.equals(rhs),
                    "ne" => sum.not_equal(rhs),
                    _ => sum.at_most(rhs),
                };
                let r = self.reified(name, b, c);
                m(self, r)
            }
            "int_times" | "int_div" | "int_mod" | "int_pow" | "int_min" | "int_max" => {
                let (x, y, z) = (self.var(arg(0)?)?, self.var(arg(1)?)?, self.var(arg(2)?)?);
                // `x` and `y` may be one variable (a square), `z` never either of them, and
                // the extrema take three distinct variables.
                let [x, y, z] = if name == "int_min" || name == "int_max" {
                    let mut xyz = [x, y, z];
                    self.all_apart(&mut xyz)?;
                    xyz
                } else {
                    [x, y, self.apart_from(z, &[x, y])?]
                };
                let r = match name {
                    "int_times" => self.model.times(x, y, z),
                    "int_div" => self.model.div(x, y, z),
                    "int_mod" => self.model.modulo(x, y, z),
                    "int_pow" => self.model.pow(x, y, z),
                    "int_min" => self.model.min(&[x, y], z),
                    _ => self.model.max(&[x, y], z),
                };
                m(self, r)
            }
            "int_abs" => {
                let x = self.var(arg(0)?)?;
                let y = self.var(arg(1)?)?;
                let y = self.apart_from(y, &[x])?;
                let r = self.model.abs(x, y);
                m(self, r)
            }
            "array_int_minimum" | "array_int_maximum" => {
                let mut xs = self.vars(arg(1)?)?;
                xs.push(self.var(arg(0)?)?);
                self.all_apart(&mut xs)?;
                let y = xs.pop().ok_or_else(|| self.err("an empty array"))?;
                let r = if name.ends_with("minimum") {
                    self.model.min(&xs, y)
                } else {
                    self.model.max(&xs, y)
                };
                m(self, r)
            }
            "array_int_element"
            | "array_bool_element"
            | "array_var_int_element"
            | "array_var_bool_element" => {
                let z = self.var(arg(2)?)?;
                // The index stands apart from the result and the entries.
                let mut others = vec![z];
                if name.contains("var") {
                    others.extend(self.vars(arg(1)?)?);
                }
                let index = self.var(arg(0)?)?;
                let index = self.apart_from(index, &others)?;
                // FlatZinc counts from 1, the model from 0: the array gets a first entry
                // that the index, kept at 1 or more, never points at. (An index shifted
                // through a linear equation would lose its holes.)
                let r = self.model.require(index.at_least(1));
                m(self, r)?;
                let r = if name.contains("var") {
                    let xs = self.vars(arg(1)?)?;
                    let padded: Vec<VarId> = xs.first().into_iter().chain(&xs).copied().collect();
                    self.model.element_var(&padded, index, z)
                } else {
                    let table = self.coeffs(arg(1)?)?;
                    let padded: Vec<i32> =
                        table.first().into_iter().chain(&table).copied().collect();
                    self.model.element(&padded, index, z)
                };
                m(self, r)
            }
            "bool_clause" => {
                let mut lits = self.lits(arg(0)?)?;
                lits.extend(self.lits(arg(1)?)?.into_iter().map(|l| !l));
                let r = self.model.clause(&lits);
                m(self, r)
            }
            "array_bool_and" | "array_bool_or" => {
                let (lits, r) = (self.lits(arg(0)?)?, self.lit(arg(1)?)?);
                let res = if name.ends_with("and") {
                    self.model.and(&lits, r)
                } else {
                    self.model.or(&lits, r)
                };
                m(self, res)
            }
            "array_bool_xor" => {
                let lits = self.lits(arg(0)?)?;
                self.odd(&lits)
            }
            "bool_clause_reif" => {
                let mut lits = self.lits(arg(0)?)?;
                lits.extend(self.lits(arg(1)?)?.into_iter().map(|l| !l));
                let r = self.lit(arg(2)?)?;
                let res = self.model.or(&lits, r);
                m(self, res)
            }
            "bool_and" | "bool_or" | "bool_xor" => {
                let (x, y, r) = (self.lit(arg(0)?)?, self.lit(arg(1)?)?, self.lit(arg(2)?)?);
                let res = match name {
                    "bool_and" => self.model.and(&[x, y], r),
                    "bool_or" => self.model.or(&[x, y], r),
                    _ => self.model.xor(x, y, r),
                };
                m(self, res)
            }
            "all_different_int" => {
                let mut xs = self.vars(arg(0)?)?;
                self.all_apart(&mut xs)?;
                let consistency = self
                    .strength_asked
                    .unwrap_or_else(|| self.default_consistency(&xs));
                let r = self.model.all_different_with(&xs, consistency);
                m(self, r)
            }
            "table_int" | "table_bool" => {
                let mut xs = self.vars(arg(0)?)?;
                self.all_apart(&mut xs)?;
                let flat = self.coeffs(arg(1)?)?;
                let tuples: Vec<Vec<i32>> =
                    flat.chunks(xs.len().max(1)).map(<[i32]>::to_vec).collect();
                let r = self.model.table(&xs, &tuples);
                m(self, r)
            }
            "set_in" => {
                let x = self.var(arg(0)?)?;
                let r = match arg(1)? {
                    // A range is bounds, whatever its width.
                    Value::Range(lo, hi) => self
                        .model
                        .require(x.at_least(*lo))
                        .and_then(|()| self.model.require(x.at_most(*hi))),
                    set => {
                        let allowed = self.coeffs(&Value::Set(self.ints(set)?))?;
                        let tuples: Vec<Vec<i32>> = allowed.iter().map(|&v| vec![v]).collect();
                        self.model.table(&[x], &tuples)
                    }
                };
                m(self, r)
            }
            "set_in_reif" | "set_in_imp" => {
                // b ⇔ x ∈ S is "among [x], S, b" (b counts x when it lies in S).
                let x = self.var(arg(0)?)?;
                let set = self.coeffs(&Value::Set(self.ints(arg(1)?)?))?;
                let b = self.var(arg(2)?)?;
                if name == "set_in_reif" {
                    return self.among_of(&[x], &set, b);
                }
                // b ⇒ x ∈ S: among into a fresh count that b bounds from below.
                let counted = self.model.new_bool().map_err(|e| self.model_err(e))?;
                let r = self.model.among(&[x], &set, counted);
                let r = r.and_then(|()| self.model.implies(b.into(), counted.into()));
                m(self, r)
            }
            // The natives of share/minizinc/bitcsp (see docs/FLATZINC.md).
            "bitcsp_count_eq" => {
                // Gathered by array, and posted at the end as one global cardinality.
                let xs = self.vars(arg(0)?)?;
                let value = self.coeff(arg(1)?)?;
                let n = self.var(arg(2)?)?;
                let at = match self.counts.iter().position(|(ys, _)| *ys == xs) {
                    Some(at) => at,
                    None => {
                        self.counts.push((xs, Vec::new()));
                        self.counts.len() - 1
                    }
                };
                self.counts[at].1.push((value, n));
                Ok(())
            }
            "among" => {
                let n = self.var(arg(0)?)?;
                let xs = self.vars(arg(1)?)?;
                let set = self.coeffs(&Value::Set(self.ints(arg(2)?)?))?;
                self.among_of(&xs, &set, n)
            }
            "global_cardinality" => {
                let xs = self.vars(arg(0)?)?;
                let cover = self.coeffs(arg(1)?)?;
                let counts = self.vars(arg(2)?)?;
                self.cardinalities(&xs, &cover, &counts)
            }
            "global_cardinality_low_up" => {
                let xs = self.vars(arg(0)?)?;
                let cover = self.coeffs(arg(1)?)?;
                let (low, up) = (self.coeffs(arg(2)?)?, self.coeffs(arg(3)?)?);
                if low.len() != cover.len() || up.len() != cover.len() {
                    return Err(self.err("global_cardinality_low_up: lists of different lengths"));
                }
                let mut counts = Vec::with_capacity(cover.len());
                for (&lo, &hi) in low.iter().zip(&up) {
                    let r = self.model.new_var(lo.max(0)..=hi);
                    counts.push(r.map_err(|e| self.model_err(e))?);
                }
                self.cardinalities(&xs, &cover, &counts)
            }
            "bitcsp_cumulative" => {
                let starts = self.vars(arg(0)?)?;
                let (durations, uses) = (self.coeffs(arg(1)?)?, self.coeffs(arg(2)?)?);
                let capacity = self.coeff(arg(3)?)?;
                let r = self.model.cumulative(&starts, &durations, &uses, capacity);
                m(self, r)
            }
            "bitcsp_circuit" => {
                let offset = self.coeff(arg(0)?)?;
                let mut xs = self.vars(arg(1)?)?;
                self.all_apart(&mut xs)?;
                self.circuit_from(offset, &xs)
            }
            other => Err(self.err(format!("constraint '{other}' is not supported"))),
        }
    }

    /// Whether `args` of an `int_lin_ne` are `x - y != c` (or `-x + y != c`) over two
    /// distinct variables: kept for [`Builder::post_disequalities`].
    fn kept_disequality(&mut self, args: &[Value]) -> Result<bool, FznError> {
        let (Some(coeffs), Some(vars), Some(rhs)) = (args.first(), args.get(1), args.get(2)) else {
            return Ok(false);
        };
        let (coeffs, vars, rhs) = (self.coeffs(coeffs)?, self.vars(vars)?, self.int(rhs)?);
        let Some((x, y)) = difference(&vars, &coeffs) else {
            return Ok(false);
        };
        self.disequalities.push((x, y, rhs));
        Ok(true)
    }

    /// Posts the kept disequalities: groups of them as all-different constraints with
    /// offsets (see [`cliques`]), the rest one by one.
    fn post_disequalities(&mut self) -> Result<(), FznError> {
        let kept = std::mem::take(&mut self.disequalities);
        let by_index: HashMap<u32, VarId> = kept
            .iter()
            .flat_map(|&(x, y, _)| [x, y])
            .map(|v| (v.index() as u32, v))
            .collect();
        let numbered: Vec<cliques::Disequality> = kept
            .iter()
            .map(|&(x, y, c)| (x.index() as u32, y.index() as u32, c))
            .collect();
        let gathered = cliques::gather(&numbered);
        let var = |k: u32| by_index[&k];
        let mut rest = gathered.rest;
        for group in gathered.groups {
            let offsets: Result<Vec<i32>, _> =
                group.iter().map(|&(_, p)| i32::try_from(p)).collect();
            let Ok(offsets) = offsets else {
                // Potentials beyond the engine's integers: the pairs one by one.
                for (i, &(u, pu)) in group.iter().enumerate() {
                    rest.extend(group[i + 1..].iter().map(|&(w, pw)| (u, w, pw - pu)));
                }
                continue;
            };
            let vars: Vec<VarId> = group.iter().map(|&(u, _)| var(u)).collect();
            let r = self.model.all_different_offset(&vars, &offsets);
            r.map_err(|e| self.model_err(e))?;
        }
        for (x, y, c) in rest {
            let r = match i32::try_from(c) {
                Ok(c) => self.model.not_equal_offset(var(x), var(y), c),
                Err(_) => self.model.linear_not_equal(&[var(x), var(y)], &[1, -1], c),
            };
            r.map_err(|e| self.model_err(e))?;
        }
        Ok(())
    }

    /// `n` is the number of `xs` with a value in `set`, by the engine's domain-consistent
    /// `among`, which takes distinct variables: a variable met again (`n` among the `xs`,
    /// as in a magic sequence, or a constant repeated) is replaced by a copy of it.
    fn among_of(&mut self, xs: &[VarId], set: &[i32], n: VarId) -> Result<(), FznError> {
        let mut distinct: Vec<VarId> = xs.iter().copied().chain([n]).collect();
        self.all_apart(&mut distinct)?;
        let n = distinct.pop().unwrap_or(n);
        let r = self.model.among(&distinct, set, n);
        r.map_err(|e| self.model_err(e))
    }

    /// The all-different strength `bitcsp fzn` picks when the model asks for none: bounds
    /// consistency (Gecode's default) when the values span more than 64, the fast rules
    /// within one word. Within a word the fast rules (and the families of overlapping
    /// groups) already find most of what Hall intervals do at a fraction of the cost, while
    /// over wide spans (a Golomb ruler's differences) Hall intervals cut the search several
    /// times over; docs/PERFORMANCE.md gives the figures.
    fn default_consistency(&self, xs: &[VarId]) -> Consistency {
        let (mut lo, mut hi) = (i64::MAX, i64::MIN);
        for d in xs.iter().filter_map(|&x| self.model.domain(x)) {
            if let (Some(min), Some(max)) = (d.min(), d.max()) {
                lo = lo.min(i64::from(min));
                hi = hi.max(i64::from(max));
            }
        }
        if hi.saturating_sub(lo) >= 64 {
            Consistency::Bounds
        } else {
            Consistency::Fast
        }
    }

    /// Replaces every variable met again in `vars` by a copy of it. FlatZinc repeats
    /// variables freely (`int_times(x, x, y)`, an element whose index is also one of its
    /// entries, a constant twice in one list), where the engine's constraints take
    /// distinct variables; a copy keeps the meaning, its equality being domain consistent.
    fn all_apart(&mut self, vars: &mut [VarId]) -> Result<(), FznError> {
        let mut seen = HashSet::with_capacity(vars.len());
        for v in vars {
            if !seen.insert(*v) {
                *v = self.copy_of(*v)?;
            }
        }
        Ok(())
    }

    /// `x`, or a copy of it when it is one of `others`.
    fn apart_from(&mut self, x: VarId, others: &[VarId]) -> Result<VarId, FznError> {
        if others.contains(&x) {
            self.copy_of(x)
        } else {
            Ok(x)
        }
    }

    /// An odd number of `lits` hold (`array_bool_xor`): a chain of exclusive ors, each
    /// link domain consistent.
    fn odd(&mut self, lits: &[Literal]) -> Result<(), FznError> {
        let r = (|| {
            let Some((&first, rest)) = lits.split_first() else {
                return self.model.clause(&[]);
            };
            let mut parity = first;
            for &l in rest {
                let next = Literal::yes(self.model.new_bool()?);
                self.model.xor(parity, l, next)?;
                parity = next;
            }
            self.model.clause(&[parity])
        })();
        r.map_err(|e: ModelError| self.model_err(e))
    }

    /// A new variable equal to `x`, with the same domain (a domain-consistent equality).
    fn copy_of(&mut self, x: VarId) -> Result<VarId, FznError> {
        let domain = self.model.domain(x).cloned();
        let r = (|| {
            let copy = match domain {
                Some(d) => self.model.new_var_with_domain(d)?,
                None => self.model.new_var(0..=0)?,
            };
            self.model.equal_offset(copy, x, 0)?;
            Ok(copy)
        })();
        r.map_err(|e: ModelError| self.model_err(e))
    }

    /// `counts[i]` is the number of `xs` equal to `cover[i]`, with the implied
    /// `Σ counts ≤ |xs|`.
    fn cardinalities(
        &mut self,
        xs: &[VarId],
        cover: &[i32],
        counts: &[VarId],
    ) -> Result<(), FznError> {
        if cover.len() != counts.len() {
            return Err(self.err("global_cardinality: lists of different lengths"));
        }
        let r = self.model.global_cardinality(xs, cover, counts);
        r.map_err(|e| self.model_err(e))
    }

    /// A Hamiltonian circuit over successors numbered from `offset` (the first index of
    /// the MiniZinc array): the engine's circuit numbers them from 0, on copies tied to the
    /// successors value for value (a tour's costs are elements over the successors, and
    /// see only what a domain-consistent link passes on).
    fn circuit_from(&mut self, offset: i32, xs: &[VarId]) -> Result<(), FznError> {
        let r = (|| {
            if offset == 0 {
                return self.model.circuit(xs);
            }
            let mut next = Vec::with_capacity(xs.len());
            for &x in xs {
                let n = i32::try_from(xs.len()).unwrap_or(i32::MAX);
                let y = self.model.new_var(0..=n.saturating_sub(1))?;
                self.model.equal_offset(x, y, i64::from(offset))?;
                next.push(y);
            }
            self.model.circuit(&next)
        })();
        r.map_err(|e| self.model_err(e))
    }
}

fn narrow(v: i64) -> Result<i32, std::num::TryFromIntError> {
    i32::try_from(v)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::flatzinc::parse;

    /// The values of the output variables after the root's propagation of `text`, by name.
    fn root_domains(text: &str) -> HashMap<String, Vec<i32>> {
        let built = build(&parse(text).expect("parsed")).expect("built");
        let mut solver = Solver::new(&built.model);
        solver.propagate().expect("consistent");
        built
            .outputs
            .iter()
            .map(|o| {
                let d = solver.domain(o.vars[0]).expect("variable");
                (o.name.clone(), d.iter().collect())
            })
            .collect()
    }

    /// `x, y ∈ {1, 3}`, `z ∈ 1..3`, `w ∈ W`, all different, with `annotation`: the fast
    /// rules leave `w` alone, bounds consistency (the Hall interval 1..3) takes 1..3 from
    /// `w`, domain consistency also fixes `z` at 2.
    fn group(w: &str, annotation: &str) -> HashMap<String, Vec<i32>> {
        root_domains(&format!(
            "var {{1,3}}: x :: output_var;\nvar {{1,3}}: y :: output_var;\n\
             var 1..3: z :: output_var;\nvar {w}: w :: output_var;\n\
             constraint fzn_all_different_int([x,y,z,w]){annotation};\nsolve satisfy;\n"
        ))
    }

    /// A circuit over successors numbered from 1 runs on copies numbered from 0; values
    /// the circuit takes from a copy leave the successor too, interior ones included, so
    /// that constraints on the successors (a tour's costs) see them.
    #[test]
    fn circuit_removals_reach_the_successors() {
        let d = root_domains(
            "var {2,3,4}: a :: output_var;\nvar {3}: b :: output_var;\n\
             var 1..5: c :: output_var;\nvar 1..5: e :: output_var;\nvar 1..5: f :: output_var;\n\
             constraint bitcsp_circuit(1,[a,b,c,e,f]);\nsolve satisfy;\n",
        );
        // Node 2 goes to node 3: no other node may, so `a` keeps 2 and 4.
        assert_eq!(d["a"], vec![2, 4]);
        assert!(!d["e"].contains(&3) && !d["f"].contains(&3), "{d:?}");
    }

    #[test]
    fn equalities_pass_on_inner_values() {
        let d = root_domains(
            "var {1,3,5}: x :: output_var;\nvar 1..5: y :: output_var;\n\
             constraint int_eq(x,y);\nsolve satisfy;\n",
        );
        assert_eq!(d["y"], vec![1, 3, 5]);
    }

    #[test]
    fn all_different_strength_follows_annotations_and_span() {
        let fast = group("1..5", "");
        assert_eq!(
            (fast["z"].clone(), fast["w"].clone()),
            (vec![1, 2, 3], vec![1, 2, 3, 4, 5])
        );
        let bounds = group("1..5", " :: bounds");
        assert_eq!(
            (bounds["z"].clone(), bounds["w"].clone()),
            (vec![1, 2, 3], vec![4, 5])
        );
        let domain = group("1..5", " :: domain");
        assert_eq!(
            (domain["z"].clone(), domain["w"].clone()),
            (vec![2], vec![4, 5])
        );
        let values = group("{1,2,3,4,5,100}", " :: value_propagation");
        assert_eq!(values["w"], vec![1, 2, 3, 4, 5, 100]);
        // Values spanning more than 64: bounds consistency unless asked otherwise.
        let wide = group("{1,2,3,4,5,100}", "");
        assert_eq!(
            (wide["z"].clone(), wide["w"].clone()),
            (vec![1, 2, 3], vec![4, 5, 100])
        );
    }
}
