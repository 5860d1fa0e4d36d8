//! The start of a run: the domains copied in, the cells others wrote looked at again,
//! and the first run of a search set up in bulk.

use super::shape::{Shape, Work};
use super::{Family, SMALL};
use crate::bits::set_bits;
use crate::bits::singles_among;
use crate::propagate::{Conflict, Engine};

impl Family {
    /// Copies the domains into the working masks and takes note of the variables others
    /// wrote since the last run: their groups need another look, and their value if fixed.
    pub(super) fn load<S: Shape>(&self, e: &mut Engine, work: &mut Work<'_, S>) -> bool {
        let (store, changes) = e.store_and_changes();
        if let Some(view) = self.view::<S>() {
            let start = view.start as usize;
            work.places
                .copy_from_slice(store.words_from(start, work.places.len()));
        }
        if let (true, Some(taken)) = (S::DENSE, self.taken) {
            work.taken = store.word_at(taken.start as usize);
        }
        if let Some(first) = self.first_word {
            // The family's words lie side by side in the store (Sudoku, N-Queens): one copy.
            let n = self.vars.len();
            work.masks[..n].copy_from_slice(store.words_from(first as usize, n));
        } else {
            for (mask, &w) in work.masks.iter_mut().zip(&self.words) {
                *mask = store.word_at(w as usize);
            }
        }
        if self.view::<S>().is_some() && self.holds_every_cell(changes) {
            // The first run of a search: see `start_afresh`.
            changes.fill(0);
            return true;
        }
        for (k, word) in changes.iter_mut().enumerate() {
            for i in set_bits(*word).map(|b| k * 64 + b) {
                self.look_again(i, work);
            }
            *word = 0;
        }
        false
    }

    /// The start of a run in which every cell changed (the first run of a search), in a
    /// family with a value-major view: the view is built from the domains' set bits
    /// rather than by rewriting every cell's bit of every value, every group and pair is
    /// marked at once, and rule 1 runs for every fixed cell (a puzzle's givens) in bulk.
    /// Most peers of a given still hold its value, so rather than visit them one by one
    /// through the view (a branchy loop with its bookkeeping per holder), each fixed value
    /// leaves all the cell's peers in a loop of fixed length, and the cells left with one
    /// value are found in one pass afterwards. Outlined: it runs once per search.
    #[inline(never)]
    pub(super) fn start_afresh<S: Shape>(&self, work: &mut Work<'_, S>) -> Result<(), Conflict> {
        let Some(view) = self.view::<S>() else {
            return Ok(());
        };
        let (words, fixed_at, n) = (view.cell_words, view.fixed_at(), self.vars.len());
        view.rebuild(&work.masks[..n], work.places);
        match self.all_marks {
            Some([groups, pairs]) => self.mark_with(groups, pairs, work),
            None => (0..n).for_each(|i| self.mark(i, work)),
        }
        for k in 0..words {
            for c in set_bits(work.places[fixed_at + k]).map(|b| k * 64 + b) {
                let value = work.masks[c];
                if value == 0 {
                    // Emptied by a fixed peer with the same value.
                    return Err(Conflict);
                }
                let peer_bits = &view.peer_bits[c * words..(c + 1) * words];
                if let Some(masks) = work.masks.first_chunk_mut::<SMALL>().filter(|_| n <= SMALL) {
                    // Indices below SMALL: no bounds checks.
                    for (j, &bits) in peer_bits.iter().enumerate() {
                        for b in set_bits(bits) {
                            masks[(j * 64 + b) % SMALL] &= !value;
                        }
                    }
                } else {
                    for (j, &bits) in peer_bits.iter().enumerate() {
                        for b in set_bits(bits) {
                            work.masks[j * 64 + b] &= !value;
                        }
                    }
                }
                let places = value.trailing_zeros() as usize * words;
                for (j, &bits) in peer_bits.iter().enumerate() {
                    work.places[places + j] &= !bits;
                    work.changed[j] |= bits;
                }
            }
        }
        // The fixed cells' values have left their peers: a cell with one value outside the
        // view's bitset of fixed cells was narrowed to it just now. Gathered as a bitset
        // first: which cells are is a coin toss for the predictor.
        let mut empty = false;
        for k in 0..words {
            let (singles, none) = singles_among(&work.masks[k * 64..n.min(k * 64 + 64)]);
            empty |= none;
            for b in set_bits(singles & !work.places[fixed_at + k]) {
                work.push(k * 64 + b);
            }
        }
        if empty {
            return Err(Conflict);
        }
        Ok(())
    }

    #[inline]
    fn look_again<S: Shape>(&self, cell: usize, work: &mut Work<'_, S>) {
        if let Some(view) = self.view::<S>() {
            view.refresh(cell, work.masks[cell], work.places);
        }
        self.note_change(cell, work.masks[cell], work);
    }
}
