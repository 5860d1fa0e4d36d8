//! The pattern finders, one file per family. Each looks at the candidates alone and
//! returns the first instance of its pattern that changes something.

mod cages;
mod chains;
mod colouring;
mod combinations;
mod fish;
mod locked;
mod rectangle;
mod single_digit;
mod singles;
mod subsets;
mod wings;

use super::grid::Grid;
use super::step::Found;
use super::technique::Technique;

/// The first productive step of `technique`, if any. [`Technique::Guess`] finds none:
/// guessing is not a pattern.
pub(crate) fn find(grid: &Grid, technique: Technique) -> Option<Found> {
    match technique {
        Technique::FullHouse => singles::full_house(grid),
        Technique::NakedSingle => singles::naked_single(grid),
        Technique::HiddenSingle => singles::hidden_single(grid),
        Technique::CageCombinations => cages::cage_combinations(grid),
        Technique::Pointing => locked::pointing(grid),
        Technique::Claiming => locked::claiming(grid),
        Technique::NakedPair => subsets::naked(grid, 2, technique),
        Technique::NakedTriple => subsets::naked(grid, 3, technique),
        Technique::NakedQuad => subsets::naked(grid, 4, technique),
        Technique::HiddenPair => subsets::hidden(grid, 2, technique),
        Technique::HiddenTriple => subsets::hidden(grid, 3, technique),
        Technique::HiddenQuad => subsets::hidden(grid, 4, technique),
        Technique::XWing => fish::fish(grid, 2, technique),
        Technique::Swordfish => fish::fish(grid, 3, technique),
        Technique::Jellyfish => fish::fish(grid, 4, technique),
        Technique::Skyscraper => single_digit::skyscraper(grid),
        Technique::TwoStringKite => single_digit::two_string_kite(grid),
        Technique::XyWing => wings::xy_wing(grid),
        Technique::XyzWing => wings::xyz_wing(grid),
        Technique::WWing => wings::w_wing(grid),
        Technique::UniqueRectangle1 => rectangle::unique_rectangle(grid),
        Technique::SimpleColouring => colouring::simple_colouring(grid),
        Technique::XChain => chains::chain(grid, chains::Kind::X),
        Technique::XyChain => chains::chain(grid, chains::Kind::Xy),
        Technique::Aic => chains::chain(grid, chains::Kind::Any),
        Technique::Guess => None,
    }
}
