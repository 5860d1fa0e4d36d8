//! FlatZinc, the language MiniZinc compiles models to for a solver: reading it.
//!
//! [`parse`] turns a FlatZinc text into its items — parameters, variables, constraints and
//! the solve item — each with the line it starts on, so that the front end that builds a
//! [`Model`](crate::Model) from them can say where a problem lies. Only the public API is
//! used; nothing here is known to the core.
//!
//! ```
//! use bitcsp::flatzinc::{parse, Item};
//! let items = parse("var 1..3: x :: output_var;\nconstraint int_ne(x, 2);\nsolve satisfy;\n")?;
//! assert_eq!(items.len(), 3);
//! assert!(matches!(&items[1].item, Item::Constraint { name, .. } if name == "int_ne"));
//! # Ok::<(), bitcsp::flatzinc::FznError>(())
//! ```

mod build;
mod cliques;
mod intervals;
mod parse;
mod search;

pub use build::{build, Built, Goal, Output};
pub use parse::{parse, Annotation, AnnotationArg, Expr, FznError, Item, Located, SolveGoal, Type};
pub use search::SearchAnnotations;
