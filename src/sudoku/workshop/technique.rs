//! The techniques a person uses, simplest first, with their difficulty ratings.

use std::fmt;
use std::str::FromStr;

/// A solving technique. [`Technique::LADDER`] lists them simplest first; a step always
/// uses the simplest technique that applies. Ratings follow the spirit of Sudoku
/// Explainer's scale (docs/WORKSHOP.md gives the table and the reasons).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[non_exhaustive]
pub enum Technique {
    /// The last empty cell of a row, column or box.
    FullHouse,
    /// A cell with one candidate left.
    NakedSingle,
    /// A digit with one place left in a row, column or box.
    HiddenSingle,
    /// Killer: the digits of a cage's cells that no set of distinct digits making its sum
    /// (and fitting the other cells' candidates) uses.
    CageCombinations,
    /// A digit confined to one row or column within a box: gone from the rest of that line.
    Pointing,
    /// A digit confined to one box within a row or column: gone from the rest of that box.
    Claiming,
    /// Two cells of a house with the same two candidates.
    NakedPair,
    /// A digit on two rows (columns) confined to the same two columns (rows).
    XWing,
    /// Two digits confined to the same two cells of a house.
    HiddenPair,
    /// Three cells of a house whose candidates make three digits.
    NakedTriple,
    /// The three-line fish.
    Swordfish,
    /// Three digits confined to the same three cells of a house.
    HiddenTriple,
    /// Two conjugate pairs of a digit in parallel lines, joined at one end.
    Skyscraper,
    /// A conjugate pair in a row and one in a column, joined in a box.
    TwoStringKite,
    /// A bivalue pivot and two bivalue pincers.
    XyWing,
    /// A trivalue pivot and two bivalue pincers.
    XyzWing,
    /// Two equal bivalue cells joined by a conjugate pair.
    WWing,
    /// Three corners of a rectangle over two boxes hold the same two digits alone: the
    /// fourth cannot, or the puzzle would have two solutions. Only for puzzles known to
    /// have one solution.
    UniqueRectangle1,
    /// Four cells of a house whose candidates make four digits.
    NakedQuad,
    /// The four-line fish.
    Jellyfish,
    /// Four digits confined to the same four cells of a house.
    HiddenQuad,
    /// Two-colouring of a digit's conjugate pairs.
    SimpleColouring,
    /// An alternating chain on one digit.
    XChain,
    /// A chain of bivalue cells.
    XyChain,
    /// An alternating inference chain over digits and cells.
    Aic,
    /// Trial and error: a digit placed without a deduction.
    Guess,
}

impl Technique {
    /// The techniques that deduce, simplest first (without [`Technique::Guess`]).
    pub const LADDER: [Technique; 25] = [
        Technique::FullHouse,
        Technique::NakedSingle,
        Technique::HiddenSingle,
        Technique::CageCombinations,
        Technique::Pointing,
        Technique::Claiming,
        Technique::NakedPair,
        Technique::XWing,
        Technique::HiddenPair,
        Technique::NakedTriple,
        Technique::Swordfish,
        Technique::HiddenTriple,
        Technique::Skyscraper,
        Technique::TwoStringKite,
        Technique::XyWing,
        Technique::XyzWing,
        Technique::WWing,
        Technique::UniqueRectangle1,
        Technique::NakedQuad,
        Technique::Jellyfish,
        Technique::HiddenQuad,
        Technique::SimpleColouring,
        Technique::XChain,
        Technique::XyChain,
        Technique::Aic,
    ];

    /// The name used in hints, explanations, JSON and `--after`.
    pub fn name(self) -> &'static str {
        match self {
            Technique::FullHouse => "full house",
            Technique::NakedSingle => "naked single",
            Technique::HiddenSingle => "hidden single",
            Technique::CageCombinations => "cage combinations",
            Technique::Pointing => "pointing",
            Technique::Claiming => "claiming",
            Technique::NakedPair => "naked pair",
            Technique::XWing => "x-wing",
            Technique::HiddenPair => "hidden pair",
            Technique::NakedTriple => "naked triple",
            Technique::Swordfish => "swordfish",
            Technique::HiddenTriple => "hidden triple",
            Technique::Skyscraper => "skyscraper",
            Technique::TwoStringKite => "2-string kite",
            Technique::XyWing => "xy-wing",
            Technique::XyzWing => "xyz-wing",
            Technique::WWing => "w-wing",
            Technique::UniqueRectangle1 => "unique rectangle type 1",
            Technique::NakedQuad => "naked quad",
            Technique::Jellyfish => "jellyfish",
            Technique::HiddenQuad => "hidden quad",
            Technique::SimpleColouring => "simple colouring",
            Technique::XChain => "x-chain",
            Technique::XyChain => "xy-chain",
            Technique::Aic => "aic",
            Technique::Guess => "guess",
        }
    }

    /// The difficulty of a step using this technique.
    pub fn rating(self) -> f64 {
        match self {
            Technique::FullHouse => 1.0,
            Technique::NakedSingle => 1.5,
            Technique::HiddenSingle => 2.0,
            Technique::CageCombinations => 2.3,
            Technique::Pointing => 2.6,
            Technique::Claiming => 2.8,
            Technique::NakedPair => 3.0,
            Technique::XWing => 3.2,
            Technique::HiddenPair => 3.4,
            Technique::NakedTriple => 3.6,
            Technique::Swordfish => 3.8,
            Technique::HiddenTriple => 4.0,
            Technique::Skyscraper => 4.0,
            Technique::TwoStringKite => 4.1,
            Technique::XyWing => 4.2,
            Technique::XyzWing => 4.4,
            Technique::WWing => 4.4,
            Technique::UniqueRectangle1 => 4.5,
            Technique::NakedQuad => 5.0,
            Technique::Jellyfish => 5.2,
            Technique::HiddenQuad => 5.4,
            Technique::SimpleColouring => 5.6,
            Technique::XChain => 6.6,
            Technique::XyChain => 6.8,
            Technique::Aic => 7.0,
            Technique::Guess => 10.0,
        }
    }

    /// Whether the technique rests on the puzzle having exactly one solution.
    pub fn assumes_uniqueness(self) -> bool {
        self == Technique::UniqueRectangle1
    }
}

impl fmt::Display for Technique {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A name that is not a technique's.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("unknown technique {0:?} (known: full house, naked single, hidden single, ..., aic; see `bitcsp sudoku hint --help`)")]
pub struct UnknownTechnique(pub String);

impl FromStr for Technique {
    type Err = UnknownTechnique;

    /// A technique from its name, ignoring case, with `-`, `_` or spaces between words
    /// (`hidden-single`, `X-Wing`, `unique rectangle type 1`).
    fn from_str(text: &str) -> Result<Self, Self::Err> {
        let key = |s: &str| -> String {
            s.chars()
                .filter(|c| !matches!(c, '-' | '_' | ' '))
                .flat_map(char::to_lowercase)
                .collect()
        };
        let wanted = key(text);
        Technique::LADDER
            .iter()
            .chain(&[Technique::Guess])
            .copied()
            .find(|t| key(t.name()) == wanted)
            .ok_or_else(|| UnknownTechnique(text.to_owned()))
    }
}
