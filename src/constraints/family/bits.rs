//! The working masks of a small family as a fixed-size array (the general bitset helpers
//! are in the crate's `bits` module).

use super::SMALL;

/// The first [`SMALL`] working masks as an array: a cell index reduced modulo its length
/// (the identity for the cells of a family that small) needs no bounds check, where a
/// slice index checks every load.
#[inline(always)]
pub(super) fn small(masks: &[u64]) -> &[u64; SMALL] {
    // The working masks always span at least SMALL words (`Family::span`).
    debug_assert!(masks.len() >= SMALL, "the working masks span SMALL words");
    match masks.first_chunk() {
        Some(array) => array,
        None => &[0; SMALL],
    }
}
