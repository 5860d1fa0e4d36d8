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

/// A kept family with what it was compiled from besides its groups, store words and
/// tightness (which the family itself holds and is compared on).
struct Kept {
    /// [`fingerprint`] of the groups, compared first: most families that differ differ
    /// there.
    fingerprint: u64,
    width: u32,
    aux_start: u32,
    family: Arc<Family>,
}

/// A hash of groups' variables, shifts and tightness (FxHash's mix: cheap, and a
/// collision only costs the full comparison that follows).
fn fingerprint(groups: &[FamilyGroup]) -> u64 {
    const MIX: u64 = 0x517c_c1b7_2722_0a95;
    let add = |h: u64, x: u64| (h.rotate_left(5) ^ x).wrapping_mul(MIX);
    let mut h = groups.len() as u64;
    for g in groups {
        h = add(h, g.vars.len() as u64 * 2 + u64::from(g.tight));
        for (&v, &shift) in g.vars.iter().zip(g.shifts) {
            h = add(h, v as u64 | u64::from(shift) << 32);
        }
    }
    h
}

impl Family {
    /// Whether this family is compiled from `groups` over the store words `word_of`.
    fn compiled_from(&self, groups: &[FamilyGroup], word_of: &impl Fn(usize) -> u32) -> bool {
        self.tight.len() == groups.len()
            && groups.iter().enumerate().all(|(g, group)| {
                let (from, to) = (
                    self.group_start[g] as usize,
                    self.group_start[g + 1] as usize,
                );
                self.tight[g] == group.tight
                    && to - from == group.vars.len()
                    && group.shifts.len() == group.vars.len()
                    && group
                        .vars
                        .iter()
                        .zip(group.shifts)
                        .zip(&self.group_cells[from..to])
                        .zip(&self.group_shifts[from..to])
                        .all(|(((&v, &s), &cell), &shift)| {
                            self.vars[cell as usize] == v && shift == s
                        })
            })
            && self
                .vars
                .iter()
                .zip(&self.words)
                .all(|(&v, &w)| word_of(v) == w)
    }
}

thread_local! {
    static RECENT: RefCell<Vec<Kept>> = const { RefCell::new(Vec::new()) };
}

/// Forgets the families this thread kept, so that the next model compiles its own (a
/// family compiled afresh starts without its pairs: see `PairsLater`).
#[cfg(test)]
pub(crate) fn forget_kept_families() {
    RECENT.with(|recent| recent.borrow_mut().clear());
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
        let fingerprint = fingerprint(groups);
        let same = |kept: &Kept| {
            kept.fingerprint == fingerprint
                && kept.width == width
                && kept.aux_start == aux_start
                && kept.family.compiled_from(groups, &word_of)
        };
        RECENT.with(|recent| {
            let mut recent = recent.borrow_mut();
            if let Some(at) = recent.iter().position(same) {
                let kept = recent.remove(at);
                let family = Arc::clone(&kept.family);
                recent.insert(0, kept);
                return family;
            }
            let family = Arc::new(Family::new(groups, width, &word_of, aux_start));
            recent.insert(
                0,
                Kept {
                    fingerprint,
                    width,
                    aux_start,
                    family: Arc::clone(&family),
                },
            );
            recent.truncate(KEPT);
            family
        })
    }
}
