//! The families this thread compiled last, so that models built one after the other on
//! the same groups (a killer Sudoku per puzzle: new cages, the same 27 units) share one
//! compiled family instead of building it again.

use std::cell::RefCell;
use std::sync::Arc;

use super::{Family, FamilyGroup};

/// How many families a thread keeps.
const KEPT: usize = 4;

/// Families of more group entries than this are not kept: their compile is small beside
/// the search they go with, and their tables are large.
const MAX_ENTRIES: usize = 4096;

/// Everything a family is compiled from, its groups laid out flat (a few vectors, not
/// two per group: a key is built for every family compiled).
struct Key {
    /// Each group's variables and shifts, one after the other.
    entries: Vec<(usize, u32)>,
    /// Where each group's entries end, and whether it is tight.
    ends: Vec<(u32, bool)>,
    width: u32,
    words: Vec<u32>,
    aux_start: u32,
}

impl Key {
    fn new(groups: &[FamilyGroup], width: u32, words: Vec<u32>, aux_start: u32) -> Self {
        let mut entries = Vec::with_capacity(groups.iter().map(|g| g.vars.len()).sum());
        let mut ends = Vec::with_capacity(groups.len());
        for g in groups {
            entries.extend(g.vars.iter().copied().zip(g.shifts.iter().copied()));
            ends.push((entries.len() as u32, g.tight));
        }
        Key {
            entries,
            ends,
            width,
            words,
            aux_start,
        }
    }

    /// Whether the key's groups are `groups`.
    fn holds(&self, groups: &[FamilyGroup]) -> bool {
        if self.ends.len() != groups.len() {
            return false;
        }
        let mut from = 0;
        self.ends.iter().zip(groups).all(|(&(end, tight), g)| {
            let entries = &self.entries[from..end as usize];
            from = end as usize;
            tight == g.tight
                && entries.len() == g.vars.len()
                && g.shifts.len() == g.vars.len()
                && entries
                    .iter()
                    .zip(g.vars.iter().zip(&g.shifts))
                    .all(|(&(v, s), (&gv, &gs))| v == gv && s == gs)
        })
    }
}

thread_local! {
    static RECENT: RefCell<Vec<(Key, Arc<Family>)>> = const { RefCell::new(Vec::new()) };
}

impl Family {
    /// [`Family::new`], or the family this thread last compiled from the same groups,
    /// store words and auxiliary start.
    pub(crate) fn shared(
        groups: &[FamilyGroup],
        width: u32,
        word_of: impl Fn(usize) -> u32,
        aux_start: u32,
    ) -> Arc<Family> {
        let entries: usize = groups.iter().map(|g| g.vars.len()).sum();
        if entries > MAX_ENTRIES {
            return Arc::new(Family::new(groups, width, word_of, aux_start));
        }
        let words = || {
            groups
                .iter()
                .flat_map(|g| g.vars.iter().map(|&v| word_of(v)))
        };
        let same_key = |key: &Key| {
            key.width == width
                && key.aux_start == aux_start
                && key.holds(groups)
                && key.words.iter().copied().eq(words())
        };
        RECENT.with(|recent| {
            let mut recent = recent.borrow_mut();
            // Compared in place: building a key costs as much as a short compile.
            if let Some(at) = recent.iter().position(|(k, _)| same_key(k)) {
                let entry = recent.remove(at);
                let family = Arc::clone(&entry.1);
                recent.insert(0, entry);
                return family;
            }
            let mut key_words = Vec::with_capacity(entries);
            key_words.extend(words());
            let key = Key::new(groups, width, key_words, aux_start);
            let family = Arc::new(Family::new(groups, width, &word_of, aux_start));
            recent.insert(0, (key, Arc::clone(&family)));
            recent.truncate(KEPT);
            family
        })
    }
}
