//! The undo log: every domain word changed at a search level is saved once, with its old
//! value, and restored when the search backtracks past that level.
//!
//! Each level gets a fresh stamp; a word whose stamp equals the current one was already
//! saved at this level and is not saved again (MiniCP's "trail once per level"). Level 0
//! is never undone, so its stamp is the one every word starts with: nothing is saved
//! there (the root propagation writes most words of the store once).
//!
//! A small store (at most [`COPY_WORDS`] words: N-Queens, Sudoku up to 25×25) is copied
//! whole at each level instead: a node there changes a good share of its words, and one
//! copy of them all costs less than a stamp test and a saved entry for each (`profile
//! queens`; docs/PERFORMANCE.md has the measurements that set the limit).

/// Undo log of domain words, organised in levels.
#[derive(Clone, Debug)]
pub(crate) struct Trail {
    entries: Vec<(u32, u64)>,
    stamps: Vec<u32>,
    levels: Vec<Level>,
    next_stamp: u32,
    /// The stamp of the newest level (kept apart: it is read on every write).
    stamp: u32,
    /// In a small store, a copy of every word for each open level above 0, one after
    /// another, in place of `entries`.
    copies: Option<Vec<u64>>,
}

/// Stores of at most this many words are copied whole at each level rather than saved
/// word by word.
pub(crate) const COPY_WORDS: usize = 1024;

#[derive(Clone, Copy, Debug)]
struct Level {
    mark: usize,
    stamp: u32,
}

impl Trail {
    /// A trail for a store of `words` words, at level 0.
    pub(crate) fn new(words: usize) -> Self {
        Trail::of(words, words <= COPY_WORDS)
    }

    /// A trail for `words` words that copies them at each level, or saves the changed
    /// ones (only that way needs the stamps).
    fn of(words: usize, copying: bool) -> Self {
        Trail {
            entries: Vec::new(),
            stamps: if copying { Vec::new() } else { vec![0; words] },
            levels: vec![Level { mark: 0, stamp: 0 }],
            next_stamp: 1,
            stamp: 0,
            copies: copying.then(Vec::new),
        }
    }

    /// Saves `old`, the value of word `index` before its first change at this level (a
    /// copying trail has it in the level's copy already).
    #[inline]
    pub(crate) fn save(&mut self, index: usize, old: u64) {
        if self.copies.is_some() {
            return;
        }
        let stamp = self.stamp;
        if self.stamps[index] != stamp {
            self.stamps[index] = stamp;
            self.entries.push((index as u32, old));
        }
    }

    /// True at level 0, where nothing is saved.
    #[inline]
    pub(crate) fn at_root(&self) -> bool {
        self.levels.len() == 1
    }

    /// True when levels are copies of every word: then nothing needs saving before a
    /// write.
    #[inline]
    pub(crate) fn copies_levels(&self) -> bool {
        self.copies.is_some()
    }

    /// Opens a new level over the store's `words`.
    pub(crate) fn push_level(&mut self, words: &[u64]) {
        if let Some(copies) = &mut self.copies {
            if copies.capacity() == 0 {
                // Room for a few levels at the first one, as for `entries` below.
                copies.reserve(words.len() * 16);
            }
            copies.extend_from_slice(words);
            self.levels.push(Level { mark: 0, stamp: 0 });
            return;
        }
        if self.entries.capacity() == 0 {
            // Reserved at the first level rather than when the trail is built: nothing is
            // saved at level 0, and a search settled there (most easy Sudoku puzzles)
            // never needs the room.
            self.entries.reserve(self.stamps.len() * 4);
        }
        if self.next_stamp == u32::MAX {
            // Stamps only need to differ from every stamp still on a word; after wrapping
            // around, clearing all of them restores that (level 0 keeps stamp 0).
            self.stamps.iter_mut().for_each(|s| *s = 0);
            for (level, stamp) in self.levels.iter_mut().zip(0..) {
                level.stamp = stamp;
            }
            self.next_stamp = self.levels.len() as u32;
        }
        self.levels.push(Level {
            mark: self.entries.len(),
            stamp: self.next_stamp,
        });
        self.stamp = self.next_stamp;
        self.next_stamp += 1;
    }

    /// Closes the newest level, writing the saved words back into `words`. Level 0 is
    /// never closed.
    pub(crate) fn pop_level(&mut self, words: &mut [u64]) {
        if self.levels.len() <= 1 {
            return;
        }
        if let Some(copies) = &mut self.copies {
            let start = copies.len().saturating_sub(words.len());
            words.copy_from_slice(&copies[start..]);
            copies.truncate(start);
            self.levels.pop();
            return;
        }
        if let Some(level) = self.levels.pop() {
            for &(index, old) in self.entries[level.mark..].iter().rev() {
                words[index as usize] = old;
            }
            self.entries.truncate(level.mark);
        }
        self.stamp = self.current_stamp();
    }

    /// The number of open levels above level 0.
    #[cfg(test)]
    pub(crate) fn depth(&self) -> usize {
        self.levels.len() - 1
    }

    /// Back to level 0 with nothing saved (the caller restores the words itself).
    pub(crate) fn clear(&mut self) {
        if let Some(copies) = &mut self.copies {
            copies.clear();
        }
        self.entries.clear();
        self.levels.truncate(1);
        self.stamps.iter_mut().for_each(|s| *s = 0);
        self.next_stamp = 1;
        self.levels[0].stamp = 0;
        self.stamp = 0;
    }

    #[inline]
    fn current_stamp(&self) -> u32 {
        self.levels.last().map_or(0, |l| l.stamp)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A trail that saves word by word, whatever the store's size.
    fn saving(words: usize) -> Trail {
        Trail::of(words, false)
    }

    #[test]
    fn word_is_saved_once_per_level_and_restored() {
        let mut words = vec![0b1111u64, 0b11];
        let mut trail = saving(2);
        trail.push_level(&words);
        trail.save(0, words[0]);
        words[0] = 0b0111;
        trail.save(0, words[0]);
        words[0] = 0b0011;
        assert_eq!(trail.entries.len(), 1);
        trail.push_level(&words);
        trail.save(0, words[0]);
        words[0] = 0b0001;
        trail.pop_level(&mut words);
        assert_eq!(words[0], 0b0011);
        trail.pop_level(&mut words);
        assert_eq!(words, vec![0b1111, 0b11]);
        assert_eq!(trail.depth(), 0);
    }

    #[test]
    fn level_zero_saves_nothing_and_levels_above_it_still_undo() {
        let mut words = vec![0b1111u64, 0b11];
        let mut trail = saving(2);
        trail.save(0, words[0]);
        words[0] = 0b0111;
        assert!(trail.entries.is_empty());
        trail.push_level(&words);
        trail.save(0, words[0]);
        words[0] = 0b0001;
        trail.save(1, words[1]);
        words[1] = 0b01;
        trail.pop_level(&mut words);
        assert_eq!(words, vec![0b0111, 0b11]);
        trail.clear();
        trail.save(1, words[1]);
        assert!(trail.entries.is_empty());
    }

    #[test]
    fn stamps_wrapping_around_keep_every_level_undoable() {
        let mut words = vec![5u64, 6];
        let mut trail = saving(2);
        trail.next_stamp = u32::MAX - 1;
        trail.push_level(&words);
        trail.save(0, words[0]);
        words[0] = 50;
        trail.push_level(&words); // wraps: stamps renumbered
        trail.save(0, words[0]);
        words[0] = 500;
        trail.save(1, words[1]);
        words[1] = 60;
        trail.pop_level(&mut words);
        assert_eq!(words, vec![50, 6]);
        trail.save(0, words[0]);
        words[0] = 51;
        trail.pop_level(&mut words);
        assert_eq!(words, vec![5, 6]);
    }

    #[test]
    fn a_copying_trail_restores_every_level() {
        let mut words = vec![0b1111u64, 0b11, 7];
        let mut trail = Trail::new(words.len());
        assert!(trail.copies.is_some(), "three words are copied");
        trail.save(0, words[0]);
        words[0] = 0b0111;
        trail.push_level(&words);
        words[0] = 0b0011;
        words[2] = 6;
        trail.push_level(&words);
        words[1] = 0b01;
        trail.pop_level(&mut words);
        assert_eq!(words, vec![0b0011, 0b11, 6]);
        trail.pop_level(&mut words);
        assert_eq!(words, vec![0b0111, 0b11, 7]);
        trail.pop_level(&mut words);
        assert_eq!(words, vec![0b0111, 0b11, 7], "level 0 is never undone");
        trail.push_level(&words);
        words[2] = 1;
        trail.clear();
        assert!(trail.at_root());
        assert_eq!(trail.copies.as_ref().map(Vec::len), Some(0));
        assert!(
            Trail::new(COPY_WORDS + 1).copies.is_none(),
            "a large store saves words"
        );
    }
}
