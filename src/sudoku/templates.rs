//! The empty grids that [`model`](super::model) starts from, kept for reuse.
//!
//! A template is built once per box shape and strength and cloned for each puzzle, so that
//! solving many puzzles of one shape compiles the constraints once (clones of a model share
//! their compiled form). The cache is bounded: each template is weighed by its cells times
//! its digits (side³: 729 for 9×9, 262,144 for 64×64), and the least recently used ones
//! are dropped while the total passes [`BUDGET`], so a file of boards of every size keeps
//! at most a few large templates alive, not one per size.

use std::sync::{Mutex, OnceLock};

use super::{Board, BoxShape, SudokuError};
use crate::{Consistency, Model, VarId};

/// The most cells × digits the cache holds: four 64×64 templates, or thousands of 9×9.
pub const BUDGET: usize = 1 << 20;

/// A template and the cells' variables.
type Template = (Model, Vec<VarId>);

/// Templates, the most recently used last.
#[derive(Default)]
struct Cache {
    entries: Vec<((BoxShape, Consistency), usize, Template)>,
    weight: usize,
}

impl Cache {
    fn get(&mut self, key: (BoxShape, Consistency)) -> Option<Template> {
        let at = self.entries.iter().position(|(k, _, _)| *k == key)?;
        let entry = self.entries.remove(at);
        let found = entry.2.clone();
        self.entries.push(entry);
        Some(found)
    }

    fn insert(&mut self, key: (BoxShape, Consistency), weight: usize, template: Template) {
        if weight > BUDGET {
            return;
        }
        while self.weight + weight > BUDGET && !self.entries.is_empty() {
            let (_, dropped, _) = self.entries.remove(0);
            self.weight -= dropped;
        }
        self.entries.push((key, weight, template));
        self.weight += weight;
    }
}

/// The empty grid of `board`'s shape: cell variables and one all-different per unit.
pub(super) fn template(board: &Board, consistency: Consistency) -> Result<Template, SudokuError> {
    static CACHE: OnceLock<Mutex<Cache>> = OnceLock::new();
    let key = (board.shape(), consistency);
    let cache = CACHE.get_or_init(Mutex::default);
    if let Some(found) = cache.lock().ok().and_then(|mut c| c.get(key)) {
        return Ok(found);
    }
    let built = build(board, consistency)?;
    let n = board.side();
    let weight = n.saturating_mul(n).saturating_mul(n);
    if let Ok(mut c) = cache.lock() {
        c.insert(key, weight, built.clone());
    }
    Ok(built)
}

fn build(board: &Board, consistency: Consistency) -> Result<Template, SudokuError> {
    let n = board.side();
    let mut m = Model::new();
    let top = i32::try_from(n).map_err(|_| SudokuError::from(crate::ModelError::EmptyDomain))?;
    let cells = m.new_vars(n * n, 1..=top)?;
    for (_, unit) in board.units() {
        let vars: Vec<VarId> = unit.iter().map(|&i| cells[i]).collect();
        m.all_different_with(&vars, consistency)?;
    }
    Ok((m, cells))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_least_recently_used_template_goes_first() {
        let shape = |r| BoxShape { rows: r, cols: 1 };
        let key = |r| (shape(r), Consistency::Fast);
        let empty = || (Model::new(), Vec::new());
        let mut cache = Cache::default();
        cache.insert(key(1), BUDGET / 2, empty());
        cache.insert(key(2), BUDGET / 2, empty());
        assert!(cache.get(key(1)).is_some()); // 1 is now the most recent
        cache.insert(key(3), BUDGET / 2, empty());
        assert!(cache.get(key(2)).is_none());
        assert!(cache.get(key(1)).is_some() && cache.get(key(3)).is_some());
        assert!(cache.weight <= BUDGET);
        cache.insert(key(4), BUDGET + 1, empty());
        assert!(cache.get(key(4)).is_none(), "too heavy to keep");
    }
}
