//! The FlatZinc grammar: items separated by `;`, each a predicate declaration, a parameter,
//! a variable, a constraint or the solve item; expressions are literals, identifiers,
//! ranges, sets, arrays and array accesses, with annotations after `::`.

use std::fmt;

/// A problem in a FlatZinc text, with the line it was found on (1-based).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("line {line}: {message}")]
pub struct FznError {
    /// The line.
    pub line: usize,
    /// What is wrong.
    pub message: String,
}

/// An item and the line it starts on.
#[derive(Clone, Debug, PartialEq)]
pub struct Located {
    /// The line (1-based).
    pub line: usize,
    /// The item.
    pub item: Item,
}

/// The type of a declaration.
#[derive(Clone, Debug, PartialEq)]
pub enum Type {
    /// `int` (a parameter) or `var int` (no domain).
    Int,
    /// `bool`.
    Bool,
    /// `lo..hi` (a variable's domain).
    Range(i64, i64),
    /// `{a, b, ...}` (a variable's domain).
    Set(Vec<i64>),
    /// `set of int` (a parameter).
    SetOfInt,
    /// `float`: not supported by the engine, kept so that the error can name it.
    Float,
}

/// A FlatZinc expression.
#[derive(Clone, Debug, PartialEq)]
pub enum Expr {
    /// An integer.
    Int(i64),
    /// `true` or `false`.
    Bool(bool),
    /// A float literal (refused when used).
    Float(String),
    /// A parameter's or variable's name.
    Ident(String),
    /// `lo..hi`.
    Range(i64, i64),
    /// `{a, b, ...}`.
    Set(Vec<i64>),
    /// `[a, b, ...]`.
    Array(Vec<Expr>),
    /// `a[i]` (1-based).
    Access(String, i64),
    /// A string literal (in annotations).
    Str(String),
    /// An annotation written as a call inside an annotation's arguments
    /// (`seq_search([int_search(...), ...])`).
    Call(String, Vec<Expr>),
}

/// An annotation: a name with optional arguments (`output_array([1..3])`).
#[derive(Clone, Debug, PartialEq)]
pub struct Annotation {
    /// The name.
    pub name: String,
    /// The arguments (expressions, or nested annotations written as calls).
    pub args: Vec<AnnotationArg>,
}

/// An annotation's argument.
pub type AnnotationArg = Expr;

/// What the solve item asks for.
#[derive(Clone, Debug, PartialEq)]
pub enum SolveGoal {
    /// Any solution.
    Satisfy,
    /// The least value of the expression.
    Minimize(Expr),
    /// The greatest value of the expression.
    Maximize(Expr),
}

/// One FlatZinc item.
#[derive(Clone, Debug, PartialEq)]
pub enum Item {
    /// `predicate ...;` (declarations of the solver's own predicates; nothing to do).
    Predicate,
    /// A parameter: `int: n = 3;`, `array [1..2] of int: a = [1, 2];`.
    Parameter {
        /// Its name.
        name: String,
        /// Its element type.
        ty: Type,
        /// `Some(length)` for an array.
        array: Option<usize>,
        /// Its value.
        value: Expr,
    },
    /// A variable or an array of variables.
    Variable {
        /// Its name.
        name: String,
        /// Its element type (with the domain).
        ty: Type,
        /// `Some(length)` for an array.
        array: Option<usize>,
        /// The value it is bound to, if any (another variable, a constant, an array).
        value: Option<Expr>,
        /// Its annotations (`output_var`, `output_array([...])`, ...).
        annotations: Vec<Annotation>,
    },
    /// `constraint name(args) :: annotations;`.
    Constraint {
        /// The predicate.
        name: String,
        /// The arguments.
        args: Vec<Expr>,
        /// Its annotations.
        annotations: Vec<Annotation>,
    },
    /// `solve :: annotations goal;`.
    Solve {
        /// The goal.
        goal: SolveGoal,
        /// The search annotations.
        annotations: Vec<Annotation>,
    },
}

/// Reads a whole FlatZinc text.
///
/// # Errors
/// [`FznError`] for the first item that does not follow the grammar, with its line.
pub fn parse(text: &str) -> Result<Vec<Located>, FznError> {
    let tokens = tokenize(text)?;
    let mut parser = Parser {
        tokens,
        at: 0,
        depth: 0,
    };
    let mut items = Vec::new();
    while !parser.done() {
        let line = parser.line();
        let item = parser.item()?;
        items.push(Located { line, item });
    }
    Ok(items)
}

#[derive(Clone, Debug, PartialEq)]
enum Token {
    Word(String),
    Int(i64),
    Float(String),
    Str(String),
    Punct(&'static str),
}

impl fmt::Display for Token {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Token::Word(w) | Token::Float(w) => write!(f, "'{w}'"),
            Token::Int(i) => write!(f, "'{i}'"),
            Token::Str(s) => write!(f, "\"{s}\""),
            Token::Punct(p) => write!(f, "'{p}'"),
        }
    }
}

const PUNCTUATION: [&str; 12] = ["::", "..", ":", ";", ",", "(", ")", "[", "]", "{", "}", "="];

fn tokenize(text: &str) -> Result<Vec<(usize, Token)>, FznError> {
    let mut tokens = Vec::new();
    for (n, line) in text.lines().enumerate() {
        let line_no = n + 1;
        let err = |message: String| FznError {
            line: line_no,
            message,
        };
        let bytes = line.as_bytes();
        let mut i = 0;
        while i < bytes.len() {
            let c = bytes[i];
            if c == b'%' {
                break;
            }
            if c.is_ascii_whitespace() {
                i += 1;
                continue;
            }
            if let Some(p) = PUNCTUATION.iter().find(|p| line[i..].starts_with(**p)) {
                tokens.push((line_no, Token::Punct(p)));
                i += p.len();
                continue;
            }
            if c == b'"' {
                let end = line[i + 1..]
                    .find('"')
                    .ok_or_else(|| err("a string is not closed on its line".into()))?;
                tokens.push((line_no, Token::Str(line[i + 1..i + 1 + end].to_string())));
                i += end + 2;
                continue;
            }
            if c.is_ascii_digit() || (c == b'-' && bytes.get(i + 1).is_some_and(u8::is_ascii_digit))
            {
                let start = i;
                i += 1;
                while i < bytes.len() && bytes[i].is_ascii_digit() {
                    i += 1;
                }
                let float =
                    i + 1 < bytes.len() && bytes[i] == b'.' && bytes[i + 1].is_ascii_digit()
                        || bytes.get(i).is_some_and(|&b| b == b'e' || b == b'E');
                if float {
                    while i < bytes.len()
                        && (bytes[i].is_ascii_alphanumeric() || b".-+".contains(&bytes[i]))
                    {
                        i += 1;
                    }
                    tokens.push((line_no, Token::Float(line[start..i].to_string())));
                } else {
                    let number = line[start..i].parse::<i64>().map_err(|_| {
                        err(format!("integer '{}' is out of range", &line[start..i]))
                    })?;
                    tokens.push((line_no, Token::Int(number)));
                }
                continue;
            }
            if c.is_ascii_alphabetic() || c == b'_' {
                let start = i;
                while i < bytes.len() && (bytes[i].is_ascii_alphanumeric() || bytes[i] == b'_') {
                    i += 1;
                }
                tokens.push((line_no, Token::Word(line[start..i].to_string())));
                continue;
            }
            let ch = line[i..].chars().next().unwrap_or('?');
            return Err(err(format!("unexpected character '{ch}'")));
        }
    }
    Ok(tokens)
}

struct Parser {
    tokens: Vec<(usize, Token)>,
    at: usize,
    /// How deep the expression being read is nested.
    depth: usize,
}

/// The deepest nesting of arrays and calls read: FlatZinc nests two or three levels, and a
/// limit keeps a hostile text from exhausting the stack.
const MAX_DEPTH: usize = 32;

impl Parser {
    fn done(&self) -> bool {
        self.at >= self.tokens.len()
    }

    fn line(&self) -> usize {
        self.tokens
            .get(self.at)
            .or(self.tokens.last())
            .map_or(1, |t| t.0)
    }

    fn error<T>(&self, message: impl Into<String>) -> Result<T, FznError> {
        Err(FznError {
            line: self.line(),
            message: message.into(),
        })
    }

    fn peek(&self) -> Option<&Token> {
        self.tokens.get(self.at).map(|t| &t.1)
    }

    fn next(&mut self) -> Result<Token, FznError> {
        match self.tokens.get(self.at) {
            Some((_, t)) => {
                self.at += 1;
                Ok(t.clone())
            }
            None => self.error("the text ends inside an item"),
        }
    }

    fn is_punct(&self, p: &str) -> bool {
        matches!(self.peek(), Some(Token::Punct(q)) if *q == p)
    }

    fn is_word(&self, w: &str) -> bool {
        matches!(self.peek(), Some(Token::Word(v)) if v == w)
    }

    fn expect(&mut self, p: &str) -> Result<(), FznError> {
        match self.next()? {
            Token::Punct(q) if q == p => Ok(()),
            other => {
                self.at -= 1;
                self.error(format!("expected '{p}', found {other}"))
            }
        }
    }

    fn word(&mut self) -> Result<String, FznError> {
        match self.next()? {
            Token::Word(w) => Ok(w),
            other => {
                self.at -= 1;
                self.error(format!("expected a name, found {other}"))
            }
        }
    }

    fn int(&mut self) -> Result<i64, FznError> {
        match self.next()? {
            Token::Int(i) => Ok(i),
            other => {
                self.at -= 1;
                self.error(format!("expected an integer, found {other}"))
            }
        }
    }

    fn item(&mut self) -> Result<Item, FznError> {
        let item = if self.is_word("predicate") {
            while !self.is_punct(";") {
                self.next()?;
            }
            Item::Predicate
        } else if self.is_word("constraint") {
            self.next()?;
            let name = self.word()?;
            self.expect("(")?;
            let args = self.list(")")?;
            let annotations = self.annotations()?;
            Item::Constraint {
                name,
                args,
                annotations,
            }
        } else if self.is_word("solve") {
            self.next()?;
            let annotations = self.annotations()?;
            let goal = match self.word()?.as_str() {
                "satisfy" => SolveGoal::Satisfy,
                "minimize" => SolveGoal::Minimize(self.expr()?),
                "maximize" => SolveGoal::Maximize(self.expr()?),
                other => return self.error(format!("unknown solve goal '{other}'")),
            };
            Item::Solve { goal, annotations }
        } else {
            self.declaration()?
        };
        self.expect(";")?;
        Ok(item)
    }

    fn declaration(&mut self) -> Result<Item, FznError> {
        let array = if self.is_word("array") {
            self.next()?;
            self.expect("[")?;
            let lo = self.int()?;
            self.expect("..")?;
            let hi = self.int()?;
            self.expect("]")?;
            if self.word()? != "of" {
                return self.error("expected 'of' after an array's index set");
            }
            if lo != 1 || hi < 0 {
                return self.error(format!("an array's index set must be 1..n, not {lo}..{hi}"));
            }
            Some(usize::try_from(hi).unwrap_or(0))
        } else {
            None
        };
        let var = self.is_word("var");
        if var {
            self.next()?;
            if self.is_word("set") {
                return self.error("unsupported: set variables");
            }
            if self.is_word("float") {
                return self.error("unsupported: float variables");
            }
        }
        let ty = self.ty()?;
        self.expect(":")?;
        let name = self.word()?;
        let annotations = self.annotations()?;
        let value = if self.is_punct("=") {
            self.next()?;
            Some(self.expr()?)
        } else {
            None
        };
        if var {
            Ok(Item::Variable {
                name,
                ty,
                array,
                value,
                annotations,
            })
        } else {
            match value {
                Some(value) => Ok(Item::Parameter {
                    name,
                    ty,
                    array,
                    value,
                }),
                None => self.error(format!("parameter '{name}' has no value")),
            }
        }
    }

    fn ty(&mut self) -> Result<Type, FznError> {
        match self.peek().cloned() {
            Some(Token::Word(w)) if w == "int" => {
                self.next()?;
                Ok(Type::Int)
            }
            Some(Token::Word(w)) if w == "bool" => {
                self.next()?;
                Ok(Type::Bool)
            }
            Some(Token::Word(w)) if w == "float" => {
                self.next()?;
                Ok(Type::Float)
            }
            Some(Token::Word(w)) if w == "set" => {
                self.next()?;
                if self.word()? != "of" || self.word()? != "int" {
                    return self.error("expected 'set of int'");
                }
                Ok(Type::SetOfInt)
            }
            Some(Token::Int(_)) => {
                let lo = self.int()?;
                self.expect("..")?;
                let hi = self.int()?;
                Ok(Type::Range(lo, hi))
            }
            Some(Token::Punct("{")) => {
                self.next()?;
                let mut values = Vec::new();
                while !self.is_punct("}") {
                    values.push(self.int()?);
                    if !self.is_punct("}") {
                        self.expect(",")?;
                    }
                }
                self.next()?;
                Ok(Type::Set(values))
            }
            Some(other) => self.error(format!("expected a type, found {other}")),
            None => self.error("the text ends inside a declaration"),
        }
    }

    /// Expressions up to the closing `close`, separated by commas.
    fn list(&mut self, close: &str) -> Result<Vec<Expr>, FznError> {
        let mut out = Vec::new();
        while !self.is_punct(close) {
            out.push(self.expr()?);
            if !self.is_punct(close) {
                self.expect(",")?;
            }
        }
        self.next()?;
        Ok(out)
    }

    fn expr(&mut self) -> Result<Expr, FznError> {
        if self.depth >= MAX_DEPTH {
            return self.error("expressions nested too deeply");
        }
        self.depth += 1;
        let expr = self.expr_inner();
        self.depth -= 1;
        expr
    }

    fn expr_inner(&mut self) -> Result<Expr, FznError> {
        match self.next()? {
            Token::Int(lo) if self.is_punct("..") => {
                self.next()?;
                Ok(Expr::Range(lo, self.int()?))
            }
            Token::Int(i) => Ok(Expr::Int(i)),
            Token::Float(f) => Ok(Expr::Float(f)),
            Token::Str(s) => Ok(Expr::Str(s)),
            Token::Word(w) if w == "true" || w == "false" => Ok(Expr::Bool(w == "true")),
            Token::Word(w) if self.is_punct("[") => {
                self.next()?;
                let index = self.int()?;
                self.expect("]")?;
                Ok(Expr::Access(w, index))
            }
            Token::Word(w) if self.is_punct("(") => {
                // An annotation written as a call inside an annotation's arguments.
                self.next()?;
                Ok(Expr::Call(w, self.list(")")?))
            }
            Token::Word(w) => Ok(Expr::Ident(w)),
            Token::Punct("[") => Ok(Expr::Array(self.list("]")?)),
            Token::Punct("{") => {
                let values = self.list("}")?;
                let ints = values
                    .into_iter()
                    .map(|e| match e {
                        Expr::Int(i) => Ok(i),
                        other => Err(other),
                    })
                    .collect::<Result<Vec<i64>, Expr>>();
                match ints {
                    Ok(ints) => Ok(Expr::Set(ints)),
                    Err(other) => self.error(format!("a set holds integers, not {other:?}")),
                }
            }
            other => {
                self.at -= 1;
                self.error(format!("expected an expression, found {other}"))
            }
        }
    }

    fn annotations(&mut self) -> Result<Vec<Annotation>, FznError> {
        let mut out = Vec::new();
        while self.is_punct("::") {
            self.next()?;
            let name = self.word()?;
            let args = if self.is_punct("(") {
                self.next()?;
                self.list(")")?
            } else {
                Vec::new()
            };
            out.push(Annotation { name, args });
        }
        Ok(out)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_kind_of_item_is_read_with_its_line() {
        let text = "predicate my_pred(var int: x);\n\
            int: n = 3;\n\
            array [1..3] of int: a = [1, -2, 3];\n\
            set of int: s = 1..5;\n\
            var 1..9: x :: output_var;\n\
            var {1, 3, 5}: y;\n\
            var bool: b :: var_is_introduced = true;\n\
            array [1..2] of var int: xs :: output_array([1..2]) = [x, y];\n\
            % a comment\n\
            constraint int_lin_le(a, [x, y, x], 10) :: domain;\n\
            solve :: int_search(xs, first_fail, indomain_min, complete) minimize x;\n";
        let items = parse(text).expect("parsed");
        assert_eq!(items.len(), 10);
        assert_eq!(items[1].line, 2);
        assert_eq!(
            items[2].item,
            Item::Parameter {
                name: "a".into(),
                ty: Type::Int,
                array: Some(3),
                value: Expr::Array(vec![Expr::Int(1), Expr::Int(-2), Expr::Int(3)]),
            }
        );
        assert!(
            matches!(&items[5].item, Item::Variable { ty: Type::Set(v), .. } if v == &[1, 3, 5])
        );
        assert!(matches!(
            &items[7].item,
            Item::Variable { array: Some(2), annotations, .. } if annotations[0].name == "output_array"
        ));
        assert_eq!(items[8].line, 10);
        let Item::Solve { goal, annotations } = &items[9].item else {
            panic!("no solve item");
        };
        assert_eq!(goal, &SolveGoal::Minimize(Expr::Ident("x".into())));
        assert_eq!(annotations[0].name, "int_search");
        assert_eq!(annotations[0].args.len(), 4);
    }

    #[test]
    fn errors_name_the_line() {
        let err = parse("var 1..3: x;\nconstraint int_ne(x 2);\n").unwrap_err();
        assert_eq!(err.line, 2);
        assert!(err.message.contains("expected ','"), "{err}");
        assert_eq!(parse("var 1..3: x").unwrap_err().line, 1);
        assert!(parse("int: n;\n").unwrap_err().message.contains("no value"));
        assert!(parse("var 1..3: x $ 2;")
            .unwrap_err()
            .message
            .contains("'$'"));
        assert!(parse("int: n = 99999999999999999999;").is_err());
        let deep = format!("int: n = {}1{};", "[".repeat(100_000), "]".repeat(100_000));
        assert!(parse(&deep).unwrap_err().message.contains("nested"));
    }

    #[test]
    fn flatzinc_from_minizinc_is_read_whole() {
        let text = include_str!("../../tests/data/flatzinc/jobshop_ft06.fzn");
        let items = parse(text).expect("parsed");
        let constraints = items
            .iter()
            .filter(|i| matches!(i.item, Item::Constraint { .. }))
            .count();
        assert_eq!(constraints, text.matches("constraint ").count());
        assert!(matches!(
            items.last().map(|i| &i.item),
            Some(Item::Solve {
                goal: SolveGoal::Minimize(_),
                ..
            })
        ));
    }
}
