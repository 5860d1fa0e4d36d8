//! The variant rules by name, and sets of them.

use std::fmt;
use std::str::FromStr;

/// A rule added to (or, for jigsaw, replacing part of) plain Sudoku.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Variant {
    /// Both main diagonals all-different.
    X,
    /// Four extra 3×3 windows with top-left cells r2c2, r2c6, r6c2, r6c6 (9×9 only).
    Windoku,
    /// Irregular regions replace the boxes.
    Jigsaw,
    /// Cages: all-different, with a given sum.
    Killer,
    /// Cells a knight's move apart differ.
    AntiKnight,
    /// Cells a king's move apart differ.
    AntiKing,
    /// Orthogonal neighbours do not hold consecutive digits.
    NonConsecutive,
}

impl Variant {
    /// Every variant, in the order their fields come on a line.
    pub const ALL: [Variant; 7] = [
        Variant::X,
        Variant::Windoku,
        Variant::Jigsaw,
        Variant::Killer,
        Variant::AntiKnight,
        Variant::AntiKing,
        Variant::NonConsecutive,
    ];

    /// The name used on the command line and in files.
    pub fn name(self) -> &'static str {
        match self {
            Variant::X => "x",
            Variant::Windoku => "windoku",
            Variant::Jigsaw => "jigsaw",
            Variant::Killer => "killer",
            Variant::AntiKnight => "antiknight",
            Variant::AntiKing => "antiking",
            Variant::NonConsecutive => "nonconsecutive",
        }
    }
}

impl fmt::Display for Variant {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A name that is not a variant's.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("unknown variant {0:?} (known: x, windoku, jigsaw, killer, antiknight, antiking, nonconsecutive)")]
pub struct UnknownVariant(pub String);

impl FromStr for Variant {
    type Err = UnknownVariant;
    fn from_str(text: &str) -> Result<Self, Self::Err> {
        let key: String = text
            .trim()
            .chars()
            .filter(|c| !matches!(c, '-' | '_'))
            .flat_map(char::to_lowercase)
            .collect();
        Variant::ALL
            .into_iter()
            .find(|v| v.name() == key)
            .ok_or_else(|| UnknownVariant(text.to_owned()))
    }
}

/// A combination of variants (`x,killer`), kept in a fixed order.
///
/// ```
/// use bitcsp::sudoku::variants::{Variant, Variants};
/// let v: Variants = "killer,x".parse()?;
/// assert!(v.has(Variant::X) && v.has(Variant::Killer) && !v.has(Variant::Jigsaw));
/// assert_eq!(v.to_string(), "x,killer");
/// # Ok::<(), bitcsp::sudoku::variants::UnknownVariant>(())
/// ```
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct Variants(Vec<Variant>);

impl Variants {
    /// The variants of `list`, each once.
    pub fn new(list: &[Variant]) -> Variants {
        let mut v = list.to_vec();
        v.sort_unstable();
        v.dedup();
        Variants(v)
    }

    /// Whether `variant` is one of them.
    pub fn has(&self, variant: Variant) -> bool {
        self.0.contains(&variant)
    }

    /// The variants, in field order.
    pub fn iter(&self) -> impl Iterator<Item = Variant> + '_ {
        self.0.iter().copied()
    }
}

impl FromStr for Variants {
    type Err = UnknownVariant;
    fn from_str(text: &str) -> Result<Self, Self::Err> {
        let list = text
            .split(',')
            .filter(|s| !s.trim().is_empty())
            .map(str::parse)
            .collect::<Result<Vec<Variant>, _>>()?;
        Ok(Variants::new(&list))
    }
}

impl fmt::Display for Variants {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let names: Vec<&str> = self.0.iter().map(|v| v.name()).collect();
        f.write_str(&names.join(","))
    }
}
