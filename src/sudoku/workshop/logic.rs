//! Solving by logic alone: the simplest step that applies, again and again.

use super::grid::Grid;
use super::step::Found;
use super::technique::Technique;
use super::techniques::find;

/// Which techniques a solve may use.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Rules {
    /// The hardest technique allowed.
    pub up_to: Technique,
    /// Whether the puzzle is known to have one solution (unique rectangles need it).
    pub unique: bool,
}

impl Rules {
    /// Every technique, uniqueness-based ones included when `unique`.
    pub fn all(unique: bool) -> Rules {
        Rules {
            up_to: Technique::Aic,
            unique,
        }
    }
}

/// The simplest productive step the rules allow.
pub(crate) fn next_step(grid: &Grid, rules: Rules) -> Option<Found> {
    Technique::LADDER
        .iter()
        .copied()
        .take_while(|&t| t <= rules.up_to)
        .filter(|t| rules.unique || !t.assumes_uniqueness())
        .find_map(|t| find(grid, t))
}

/// Applies steps until the grid is solved or none applies; `visit` sees each step.
pub(crate) fn run(grid: &mut Grid, rules: Rules, mut visit: impl FnMut(&Found)) {
    while !grid.is_solved() {
        let Some(step) = next_step(grid, rules) else {
            return;
        };
        grid.apply(&step);
        visit(&step);
    }
}
