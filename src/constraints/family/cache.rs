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
    /// A hash of everything below, compared first: most keys that differ differ there.
    fingerprint: u64,
    /// Each group's variables and shifts, one after the other.
    entries: Vec<(usize, u32)>,
    /// Where each group's entries end, and whether it is tight.
    ends: Vec<(u32, bool)>,
    width: u32,
    words: Vec<u32>,
    aux_start: u32,
}

impl Key {
    fn new(
        fingerprint: u64,
        groups: &[FamilyGroup],
        width: u32,
        words: Vec<u32>,
        aux_start: u32,
    ) -> Self {
        let mut entries = Vec::with_capacity(groups.iter().map(|g| g.vars.len()).sum());
        let mut ends = Vec::with_capacity(groups.len());
        for g in groups {
            entries.extend(g.vars.iter().copied().zip(g.shifts.iter().copied()));
            ends.push((entries.len() as u32, g.tight));
        }
        Key {
            fingerprint,
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

/// A hash of a family's groups, store words, width and auxiliary start (FxHash's mix:
/// cheap, and a collision only costs the full comparison that follows).
fn fingerprint(
    groups: &[FamilyGroup],
    width: u32,
    word_of: &impl Fn(usize) -> u32,
    aux_start: u32,
) -> u64 {
    const MIX: u64 = 0x517c_c1b7_2722_0a95;
    let add = |h: u64, x: u64| (h.rotate_left(5) ^ x).wrapping_mul(MIX);
    let mut h = add(u64::from(width), u64::from(aux_start));
    for g in groups {
        h = add(h, g.vars.len() as u64 * 2 + u64::from(g.tight));
        for (&v, &shift) in g.vars.iter().zip(&g.shifts) {
            h = add(h, v as u64 | u64::from(shift) << 32);
            h = add(h, u64::from(word_of(v)));
        }
    }
    h
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
        let fingerprint = fingerprint(groups, width, &word_of, aux_start);
        let same_key = |key: &Key| {
            key.fingerprint == fingerprint
                && key.width == width
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
            let key = Key::new(fingerprint, groups, width, key_words, aux_start);
            let family = Arc::new(Family::new(groups, width, &word_of, aux_start));
            recent.insert(0, (key, Arc::clone(&family)));
            recent.truncate(KEPT);
            family
        })
    }
}
