//! Difficulty classes and grades.

use std::fmt;
use std::str::FromStr;

use super::technique::Technique;

/// A difficulty class: a range of ratings (docs/WORKSHOP.md gives the table).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Class {
    /// Singles alone (ratings up to 2.0).
    Easy,
    /// Locked candidates, pairs, X-Wing (up to 3.4).
    Medium,
    /// Triples, quads, fish, wings, unique rectangles, colouring (up to 5.6).
    Hard,
    /// Chains (below 10).
    Expert,
    /// Trial and error (10 and above).
    Extreme,
}

impl Class {
    /// Every class, easiest first.
    pub const ALL: [Class; 5] = [
        Class::Easy,
        Class::Medium,
        Class::Hard,
        Class::Expert,
        Class::Extreme,
    ];

    /// The class of a rating.
    pub fn of(rating: f64) -> Class {
        if rating <= 2.0 {
            Class::Easy
        } else if rating <= 3.4 {
            Class::Medium
        } else if rating <= 5.6 {
            Class::Hard
        } else if rating < Technique::Guess.rating() {
            Class::Expert
        } else {
            Class::Extreme
        }
    }

    /// The class's name.
    pub fn name(self) -> &'static str {
        match self {
            Class::Easy => "easy",
            Class::Medium => "medium",
            Class::Hard => "hard",
            Class::Expert => "expert",
            Class::Extreme => "extreme",
        }
    }
}

impl fmt::Display for Class {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A name that is not a class's.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("unknown class {0:?} (known: easy, medium, hard, expert, extreme)")]
pub struct UnknownClass(pub String);

impl FromStr for Class {
    type Err = UnknownClass;
    fn from_str(text: &str) -> Result<Self, Self::Err> {
        Class::ALL
            .into_iter()
            .find(|c| c.name().eq_ignore_ascii_case(text.trim()))
            .ok_or_else(|| UnknownClass(text.to_owned()))
    }
}

/// A puzzle's difficulty: the rating of the hardest step its explanation needs, and its
/// class.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Grade {
    /// The rating of the hardest step (see [`Technique::rating`]).
    pub rating: f64,
    /// The class of that rating.
    pub class: Class,
    /// The technique of the hardest step.
    pub hardest: Technique,
    /// How many guesses the explanation made.
    pub guesses: usize,
}

impl fmt::Display for Grade {
    /// `RATING CLASS`, e.g. `4.2 hard`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{:.1} {}", self.rating, self.class)
    }
}
