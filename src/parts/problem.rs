//! What a split searches: the problems a part line can name, their models and solvers.

use std::fmt;

use crate::coloring::Graph;
use crate::sudoku::{self, Board};
use crate::{queens, Model, Solver, ValueOrder, ValueSymmetry, VarId, VariableOrder};

/// A problem whose search can be split into parts.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Problem {
    /// Count the N-Queens boards, optionally cut by the mirror symmetry first.
    Queens {
        /// The board size.
        n: usize,
        /// Whether the count is cut by the mirror symmetry (pieces with weights).
        symmetry: bool,
    },
    /// Count the solutions of a Sudoku board (given in the line form).
    Sudoku {
        /// The board.
        board: Board,
    },
    /// Is the graph in a DIMACS file `colors`-colourable? The file is read again where
    /// the part runs, and must be the same (its fingerprint is in the part).
    Color {
        /// The path of the DIMACS file.
        file: String,
        /// Fingerprint of the file's bytes.
        graph: u64,
        /// The number of colours.
        colors: usize,
    },
}

/// One piece of a problem's search: a model, its variables in a fixed order, and how
/// many solutions each of its solutions stands for.
pub(crate) struct Piece {
    pub model: Model,
    pub vars: Vec<VarId>,
    pub weight: u64,
}

impl Problem {
    /// Whether the parts count solutions (or look for one: colouring).
    pub fn counts(&self) -> bool {
        !matches!(self, Problem::Color { .. })
    }

    /// The problem in words, for fingerprints: kind and parameters.
    pub(crate) fn describe(&self) -> String {
        match self {
            Problem::Queens { n, symmetry } => {
                format!("queens n={n} symmetry={}", u8::from(*symmetry))
            }
            Problem::Sudoku { board } => format!("sudoku board={}", board.to_line()),
            Problem::Color { graph, colors, .. } => {
                format!("color graph={graph:016x} colors={colors}")
            }
        }
    }

    /// The pieces of the problem (one, but for the mirror split of N-Queens).
    pub(crate) fn pieces(&self, graph: Option<&Graph>) -> Result<Vec<Piece>, String> {
        match self {
            Problem::Queens { n, symmetry } => {
                let made = if *symmetry {
                    queens::mirror_parts(*n)
                } else {
                    queens::model(*n).map(|(model, rows)| {
                        vec![queens::Part {
                            model,
                            rows,
                            weight: 1,
                        }]
                    })
                };
                Ok(made
                    .map_err(|e| e.to_string())?
                    .into_iter()
                    .map(|p| Piece {
                        model: p.model,
                        vars: p.rows,
                        weight: p.weight,
                    })
                    .collect())
            }
            Problem::Sudoku { board } => {
                let (model, vars) = sudoku::model(board).map_err(|e| e.to_string())?;
                Ok(vec![Piece {
                    model,
                    vars,
                    weight: 1,
                }])
            }
            Problem::Color { colors, .. } => {
                let graph = graph.ok_or("the graph was not read")?;
                let (model, vars) =
                    crate::coloring::model(graph, *colors).map_err(|e| e.to_string())?;
                Ok(vec![Piece {
                    model,
                    vars,
                    weight: 1,
                }])
            }
        }
    }

    /// The solver every part of the problem (and the split itself) searches with: the
    /// split depends on it, so both sides must agree.
    pub(crate) fn solver(&self, piece: &Piece) -> Solver {
        let mut solver = Solver::new(&piece.model);
        match self {
            Problem::Queens { .. } => {
                solver.set_value_order(ValueOrder::MiddleOut);
            }
            Problem::Sudoku { board } => {
                sudoku::configure(&mut solver, board);
            }
            Problem::Color { .. } => {
                solver
                    .set_variable_order(VariableOrder::MrvDynamicDegree)
                    .set_value_symmetry(ValueSymmetry::Interchangeable);
            }
        }
        solver
    }
}

impl fmt::Display for Problem {
    /// The problem's fields of a part line.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Problem::Queens { n, symmetry } => {
                write!(f, "problem=queens n={n} symmetry={}", u8::from(*symmetry))
            }
            // Boards above 35×35 have no line form: their numbers form, commas between
            // the numbers, keeps the field one word.
            Problem::Sudoku { board } => write!(
                f,
                "problem=sudoku board={}",
                board.to_line().replace(' ', ",")
            ),
            Problem::Color {
                file,
                graph,
                colors,
            } => write!(
                f,
                "problem=color colors={colors} graph={graph:016x} file={file}"
            ),
        }
    }
}
