//! Choosing the branching variable and value.
//!
//! Both run once per search node, so they read the domains directly and allocate nothing.

use super::strategy::{ValueOrder, VariableOrder};
use crate::bits::set_bits;
use crate::compiled::{NeighbourBits, Neighbours, VarInfo, BITSET_WORDS};
use crate::store::Store;

/// The variable to branch on, or `None` when every variable is fixed. `weights` are the
/// conflict weights of [`VariableOrder::DomWdeg`] (one per variable; unused by the other
/// orders).
#[inline]
pub(crate) fn select_variable(
    store: &Store,
    info: &VarInfo,
    order: VariableOrder,
    weights: &[u32],
) -> Option<usize> {
    let n = store.num_vars();
    match store.uniform_words() {
        // One-word domains are read straight from the flat word array.
        Some(words) => {
            // Sliced to the variables, so that the compiler sees every `v < n` in bounds.
            let words = &words[..n];
            if let Some(chosen) = unfixed_neighbours_on_words(words, info, order) {
                return chosen;
            }
            select_by_size(n, |v| words[v].count_ones(), true, info, order, weights)
        }
        None => select_by_size(n, |v| store.size(v), false, info, order, weights),
    }
}

impl VariableOrder {
    /// Orders with no fast path of their own: one scan of the candidates by
    /// [`select_among`]; [`select_variable`] does not take them.
    pub(crate) fn is_plain_scan(self) -> bool {
        matches!(
            self,
            VariableOrder::MostValues
                | VariableOrder::Smallest
                | VariableOrder::Largest
                | VariableOrder::Occurrence
        )
    }
}

/// The variable of `candidates` to branch on under `order`, or `None` when they are all
/// fixed: one scan, for the variables of a search phase and the orders with no fast path.
/// [`VariableOrder::MrvDynamicDegree`] breaks ties as [`VariableOrder::MrvDegree`] here.
/// Never inlined, so that the fast paths of [`select_variable`] stay as they were.
#[inline(never)]
pub(crate) fn select_among(
    store: &Store,
    info: &VarInfo,
    order: VariableOrder,
    weights: &[u32],
    candidates: impl Iterator<Item = usize>,
) -> Option<usize> {
    use std::cmp::Reverse;
    let mut unfixed = candidates.filter(|&v| store.size(v) > 1);
    let low = |v: usize| store.bounds(v).map_or(i32::MAX, |b| b.0);
    let high = |v: usize| store.bounds(v).map_or(i32::MIN, |b| b.1);
    // `min_by_key` keeps the first of equal keys: ties go to the earlier candidate.
    match order {
        VariableOrder::InputOrder => unfixed.next(),
        VariableOrder::Mrv => unfixed.min_by_key(|&v| store.size(v)),
        VariableOrder::MrvDegree | VariableOrder::MrvDynamicDegree => {
            unfixed.min_by_key(|&v| (store.size(v), Reverse(info.degree[v])))
        }
        VariableOrder::DomWdeg => fewest_per_weight(unfixed, weights, |v| store.size(v)),
        VariableOrder::MostValues => unfixed.min_by_key(|&v| Reverse(store.size(v))),
        VariableOrder::Smallest => unfixed.min_by_key(|&v| low(v)),
        VariableOrder::Largest => unfixed.min_by_key(|&v| Reverse(high(v))),
        VariableOrder::Occurrence => unfixed.min_by_key(|&v| Reverse(info.degree[v])),
    }
}

/// [`fewest_per_weight`] over every variable.
#[inline]
fn fewest_per_weight_of_all(weights: &[u32], size: impl Fn(usize) -> u32) -> Option<usize> {
    fewest_per_weight(0..weights.len(), weights, size)
}

/// [`VariableOrder::DomWdeg`]: the unfixed variable of `candidates` with the fewest values
/// per unit of weight (`size(v) / weights[v]`); at equal ratios the heavier, then the
/// earlier.
#[inline]
fn fewest_per_weight(
    candidates: impl Iterator<Item = usize>,
    weights: &[u32],
    size: impl Fn(usize) -> u32,
) -> Option<usize> {
    let mut best: Option<(usize, u64, u64)> = None;
    for v in candidates {
        let w = weights[v];
        let size = u64::from(size(v));
        if size <= 1 {
            continue;
        }
        let w = u64::from(w);
        // Compared as cross products, without a division. At equal ratios the heavier
        // variable wins: more of the failures so far came through its constraints.
        let better = best.is_none_or(|(_, best_size, best_w)| {
            let (mine, theirs) = (size * best_w, best_size * w);
            mine < theirs || (mine == theirs && w > best_w)
        });
        if better {
            best = Some((v, size, w));
        }
    }
    best.map(|(v, _, _)| v)
}

/// [`select_variable`] over `size(v)`, the number of values of each variable; `one_word`
/// when no variable can have more than 64 values (one-word domains).
#[inline]
fn select_by_size(
    n: usize,
    size: impl Fn(usize) -> u32,
    one_word: bool,
    info: &VarInfo,
    order: VariableOrder,
    weights: &[u32],
) -> Option<usize> {
    match order {
        VariableOrder::InputOrder => (0..n).find(|&v| size(v) > 1),
        VariableOrder::Mrv => fewest_values(n, size),
        VariableOrder::MrvDegree => fewest_then_most_constraints(n, size, one_word, info),
        VariableOrder::DomWdeg => fewest_per_weight_of_all(weights, size),
        VariableOrder::MostValues
        | VariableOrder::Smallest
        | VariableOrder::Largest
        | VariableOrder::Occurrence => None, // not taken here: see `is_plain_scan`
        VariableOrder::MrvDynamicDegree => {
            let Some(neighbours) = info.neighbours.get().filter(|n| !n.unused) else {
                // Every variable neighbours every other (one N-Queens family links all
                // cells), the lists would be too large, or they are not built: no tie to
                // break that way.
                return fewest_then_most_constraints(n, size, one_word, info);
            };
            if let Some(bits) = &neighbours.bits {
                return fewest_then_most_unfixed_neighbours(n, size, one_word, bits);
            }
            fewest_then_most_unfixed_listed(n, size, one_word, neighbours)
        }
    }
}

/// [`VariableOrder::MrvDegree`]: MRV with ties to the variable in the most constraints.
#[inline(always)]
fn fewest_then_most_constraints(
    n: usize,
    size: impl Fn(usize) -> u32,
    one_word: bool,
    info: &VarInfo,
) -> Option<usize> {
    if info.equal_degrees {
        return fewest_values(n, size);
    }
    fewest_values_then_most(n, size, one_word, |v| info.degree[v])
}

/// MRV: the first variable with the fewest values (more than one). Each variable's key
/// packs its count above its index, so the choice is a plain minimum with no branch on
/// the counts (which variables are fixed is a coin toss for the branch predictor). Two
/// is the fewest possible, so the scan stops after the block of [`MRV_BLOCK`] variables
/// where it first meets a variable with two.
#[inline]
fn fewest_values(n: usize, size: impl Fn(usize) -> u32) -> Option<usize> {
    // Counts 0 and 1 wrap around to the two largest keys.
    let key = |v: usize| u64::from(size(v).wrapping_sub(2)) << 32 | v as u64;
    let mut best = u64::MAX;
    let mut start = 0;
    while start < n {
        let end = n.min(start + MRV_BLOCK);
        best = (start..end).fold(best, |best, v| best.min(key(v)));
        if best >> 32 == 0 {
            break;
        }
        start = end;
    }
    // The index fits the key's low half: a model holds at most `MAX_VARIABLES` (2^28).
    (best >> 32 < u64::from(u32::MAX - 1)).then_some((best & u64::from(u32::MAX)) as usize)
}

/// How many variables [`fewest_values`] scans between two looks for a variable with two
/// values.
const MRV_BLOCK: usize = 16;

/// MRV with ties to the largest `tie(v)`, then to the earlier variable.
#[inline]
fn fewest_values_then_most(
    n: usize,
    size: impl Fn(usize) -> u32,
    one_word: bool,
    tie: impl Fn(usize) -> u32,
) -> Option<usize> {
    let fewest = fewest_values_count(n, &size, one_word)?;
    first_with_most((0..n).filter(|&v| size(v) == fewest), tie)
}

/// Among `candidates` (ascending), the first with the largest `tie(v)`.
#[inline]
fn first_with_most<T: Ord + Copy>(
    candidates: impl Iterator<Item = usize>,
    tie: impl Fn(usize) -> T,
) -> Option<usize> {
    // A fold (internal iteration), which the nested iterator of bitset members compiles
    // into plain nested loops.
    candidates
        .fold(None, |best: Option<(usize, T)>, v| {
            let t = tie(v);
            match best {
                Some((_, best_tie)) if t <= best_tie => best,
                _ => Some((v, t)),
            }
        })
        .map(|(v, _)| v)
}

/// MRV with ties to the most unfixed neighbours, counted with bitsets. A function of its
/// own: inlined, its arrays and loops weigh on the register allocation of the whole
/// search loop, for every order, even on models that never come here
/// (`cargo bench --bench queens`).
#[inline(never)]
fn fewest_then_most_unfixed_neighbours(
    n: usize,
    size: impl Fn(usize) -> u32,
    one_word: bool,
    bits: &NeighbourBits,
) -> Option<usize> {
    // Bitsets in arrays no longer than needed (up to 128 variables: two words), since
    // every call zeroes them.
    match (bits.words, one_word) {
        (0 | 1, true) => fewest_then_most_by_bytes::<1>(n, size, bits),
        (2, true) => fewest_then_most_by_bytes::<2>(n, size, bits),
        (0 | 1, false) => fewest_then_most_in::<1>(n, size, one_word, bits),
        (2, false) => fewest_then_most_in::<2>(n, size, one_word, bits),
        _ => fewest_then_most_in::<BITSET_WORDS>(n, size, one_word, bits),
    }
}

/// [`fewest_then_most_in`] for up to `64 * W` variables of at most 64 values each (a 9×9
/// Sudoku: 81 variables, two words): one pass counts each variable's values once, keeping
/// the counts as bytes; the fewest is a minimum over the bytes (which vectorises), and the
/// unfixed and tied bitsets come from the bytes eight at a time ([`byte_masks`]), where a
/// second pass used to count every domain again. Same choices as the general form.
#[inline(always)]
fn fewest_then_most_by_bytes<const W: usize>(
    n: usize,
    size: impl Fn(usize) -> u32,
    bits: &NeighbourBits,
) -> Option<usize> {
    let mut counts = [[0u8; 64]; W];
    let flat = counts.as_flattened_mut();
    let n = n.min(flat.len());
    for (v, count) in flat[..n].iter_mut().enumerate() {
        // At most 64 values: the count fits a byte.
        *count = size(v) as u8;
    }
    fewest_then_most_of_counts(&counts, n, bits)
}

/// The choice of [`fewest_then_most_by_bytes`] from the counts of the first `n` variables
/// (the bytes past them zero).
#[inline(always)]
fn fewest_then_most_of_counts<const W: usize>(
    counts: &[[u8; 64]; W],
    n: usize,
    bits: &NeighbourBits,
) -> Option<usize> {
    // The fewest values above one, as a minimum over all the bytes (a vector minimum):
    // counts 0 and 1 (and the padding past `n`) wrap around to keys above any count.
    let key = counts
        .as_flattened()
        .iter()
        .fold(u8::MAX, |least, &c| least.min(c.wrapping_sub(2)));
    if key > 62 {
        return None;
    }
    let fewest = key + 2;
    let mut unfixed = [0u64; W];
    let mut tied = [0u64; W];
    for (k, ((chunk, free), same)) in counts.iter().zip(&mut unfixed).zip(&mut tied).enumerate() {
        // Bytes past the last variable are zero: neither tied nor unfixed.
        let used = n.saturating_sub(k * 64).min(64);
        (*same, *free) = byte_masks(chunk, used, fewest);
    }
    debug_assert_eq!(W, bits.words.max(1), "one bitset word per row word");
    most_among_set(&tied, |v| {
        tie_key(bits.count_in(v, &unfixed), bits.count_in(v, &tied))
    })
}

/// Bit `i` set where byte `i` of `bytes` equals `value`, and bit `i` set where it is above
/// 1, for the first `used` bytes rounded up to a multiple of eight (the rest read as
/// zero), with eight bytes to a word (SWAR): a handful of word operations per eight
/// variables, where LLVM vectorised a per-byte loop into 64-bit lanes and shifts.
#[inline(always)]
fn byte_masks(bytes: &[u8; 64], used: usize, value: u8) -> (u64, u64) {
    const LOW7: u64 = 0x7F7F_7F7F_7F7F_7F7F;
    const HIGH: u64 = 0x8080_8080_8080_8080;
    // The high bit of each byte of `x` that is not zero, exactly (no borrow between bytes).
    let nonzero = |x: u64| (((x & LOW7) + LOW7) | x) & HIGH;
    // Packs the high bit of each byte into the low 8 bits, byte 0 first.
    let gather = |high: u64| (high >> 7).wrapping_mul(0x0102_0408_1020_4080) >> 56;
    let spread = u64::from_ne_bytes([value; 8]);
    bytes
        .chunks_exact(8)
        .take(used.div_ceil(8))
        .enumerate()
        .fold((0, 0), |(equal, above_one), (k, chunk)| {
            let word = u64::from_le_bytes(chunk.try_into().unwrap_or([0; 8]));
            let differs = nonzero(word ^ spread);
            let big = nonzero(word & 0xFEFE_FEFE_FEFE_FEFE);
            (
                equal | gather(differs ^ HIGH) << (8 * k),
                above_one | gather(big) << (8 * k),
            )
        })
}

/// [`VariableOrder::MrvDynamicDegree`] on one-word domains `words` with neighbour bitsets
/// of up to two words (a 9×9 Sudoku: 81 variables), its counts read off the words in one
/// pass over the slice, with no bounds check per variable. `None` when the order or the
/// sizes are others.
#[inline]
fn unfixed_neighbours_on_words(
    words: &[u64],
    info: &VarInfo,
    order: VariableOrder,
) -> Option<Option<usize>> {
    if order != VariableOrder::MrvDynamicDegree {
        return None;
    }
    let bits = info.neighbours.get().filter(|n| !n.unused)?.bits.as_ref()?;
    match bits.words {
        0 | 1 if words.len() <= 64 => Some(fewest_then_most_of_words::<1>(words, bits)),
        2 if words.len() <= 128 => Some(fewest_then_most_of_words::<2>(words, bits)),
        _ => None,
    }
}

/// [`fewest_then_most_by_bytes`] with the counts of the one-word domains `words` (at most
/// `64 * W`). A function of its own, as [`fewest_then_most_unfixed_neighbours`] is.
#[inline(never)]
fn fewest_then_most_of_words<const W: usize>(words: &[u64], bits: &NeighbourBits) -> Option<usize> {
    let mut counts = [[0u8; 64]; W];
    for (count, &w) in counts.as_flattened_mut().iter_mut().zip(words) {
        // At most 64 values: the count fits a byte.
        *count = w.count_ones() as u8;
    }
    fewest_then_most_of_counts(&counts, words.len(), bits)
}

/// [`fewest_then_most_unfixed_neighbours`] with bitsets of `W` words (at least
/// `bits.words`).
#[inline(always)]
fn fewest_then_most_in<const W: usize>(
    n: usize,
    size: impl Fn(usize) -> u32,
    one_word: bool,
    bits: &NeighbourBits,
) -> Option<usize> {
    let words = bits.words;
    let fewest = fewest_values_count(n, &size, one_word)?;
    let mut unfixed = [0u64; W];
    let mut tied = [0u64; W];
    unfixed_and_tied(n, &size, fewest, &mut unfixed[..words], &mut tied[..words]);
    if words == W {
        // Rows of exactly `W` words: a bitset of known length, so the count unrolls.
        return most_among_set(&tied, |v| {
            tie_key(bits.count_in(v, &unfixed), bits.count_in(v, &tied))
        });
    }
    let (unfixed, tied) = (&unfixed[..words], &tied[..words]);
    most_among_set(tied, |v| {
        tie_key(bits.count_in(v, unfixed), bits.count_in(v, tied))
    })
}

/// [`fewest_then_most_unfixed_neighbours`] through the neighbour lists (models too large
/// for bitsets), in a function of its own for the same reason. The candidates are looked
/// at in order until their lists add up to [`TIE_BREAK_VISITS_PER_VAR`] entries per
/// variable (the first is always looked at): where one large constraint links most
/// variables, counting every candidate's neighbours cost time quadratic in their number
/// at every node (`tests/core.rs::a_large_permutation_beside_a_free_variable_is_found`).
#[inline(never)]
fn fewest_then_most_unfixed_listed(
    n: usize,
    size: impl Fn(usize) -> u32,
    one_word: bool,
    neighbours: &Neighbours,
) -> Option<usize> {
    let fewest = fewest_values_count(n, &size, one_word)?;
    let mut budget = TIE_BREAK_VISITS_PER_VAR.saturating_mul(n);
    let candidates = (0..n).filter(|&v| size(v) == fewest).take_while(|&v| {
        let within = budget > 0;
        budget = budget.saturating_sub(neighbours.of(v).len().max(1));
        within
    });
    first_with_most(candidates, |v| {
        let (unfixed, tied) = neighbours.of(v).iter().fold((0, 0), |(u, t), &w| {
            let s = size(w as usize);
            (u + u32::from(s > 1), t + u32::from(s == fewest))
        });
        tie_key(unfixed, tied)
    })
}

/// The tie-break of [`VariableOrder::MrvDynamicDegree`] for a variable with `unfixed`
/// unfixed neighbours, `tied` of them with as few values as it: the most unfixed
/// neighbours, then the most tied ones (a decision among equally constrained neighbours
/// reaches furthest): fewer nodes than unfixed neighbours alone on the hard Sudoku sets
/// (`cargo bench --bench sudoku -- forum_hardest`).
#[inline(always)]
fn tie_key(unfixed: u32, tied: u32) -> u64 {
    u64::from(unfixed) << 32 | u64::from(tied)
}

/// The fewest values (more than one) of any variable; `None` when every variable is
/// fixed. Each count of two to 65 values sets one bit of a word, and the lowest bit set is
/// the answer: no comparison to branch on (whether a variable has fewer values than the
/// best so far is a coin toss for the predictor, and LLVM compiled a plain minimum into
/// branches). Larger counts (multi-word domains, never when `one_word`) fall back to a
/// minimum, which is also the pass that finds every variable fixed (at a solution).
#[inline]
fn fewest_values_count(n: usize, size: impl Fn(usize) -> u32, one_word: bool) -> Option<u32> {
    // Sizes 0 and 1 wrap around to the largest keys.
    let key = |v| size(v).wrapping_sub(2);
    let seen = (0..n).fold(0u64, |seen, v| {
        let k = key(v);
        seen | u64::from(k < 64) << (k % 64)
    });
    if seen != 0 {
        return Some(seen.trailing_zeros() + 2);
    }
    if one_word {
        // At most 64 values each: no count escaped the word, so every variable is fixed.
        return None;
    }
    let large = (0..n).map(key).min()?;
    (large < u32::MAX - 1).then(|| large + 2)
}

/// Writes the unfixed variables into the bitset `unfixed` and those with exactly
/// `fewest` values into `tied` (models of at most `MAX_BITSET_VARS` variables; the words
/// are overwritten), each word built in a register.
#[inline]
fn unfixed_and_tied(
    n: usize,
    size: impl Fn(usize) -> u32,
    fewest: u32,
    unfixed: &mut [u64],
    tied: &mut [u64],
) {
    for (k, (free_word, tied_word)) in unfixed.iter_mut().zip(tied.iter_mut()).enumerate() {
        let (mut free, mut same) = (0u64, 0u64);
        for v in k * 64..n.min(k * 64 + 64) {
            let s = size(v);
            free |= u64::from(s > 1) << (v % 64);
            same |= u64::from(s == fewest) << (v % 64);
        }
        *free_word = free;
        *tied_word = same;
    }
}

/// Among the variables of the bitset `set`, the first with the largest `tie(v)`.
#[inline]
fn most_among_set<T: Ord + Copy>(set: &[u64], tie: impl Fn(usize) -> T) -> Option<usize> {
    first_with_most(members(set), tie)
}

/// The members of the bitset `set` (bit `b` of word `k` is `64k + b`), ascending.
#[inline]
fn members(set: &[u64]) -> impl Iterator<Item = usize> + '_ {
    set.iter()
        .enumerate()
        .flat_map(|(k, &w)| set_bits(w).map(move |b| k * 64 + b))
}

/// How many neighbours per variable of the model the listed tie-break may visit at one
/// node: enough to see every candidate in the sparse constraint graphs it is for
/// (coloring benchmarks: at most about 45 neighbours a variable on average), and no more
/// than a few scans of the variables where a large constraint links most of them.
const TIE_BREAK_VISITS_PER_VAR: usize = 4;

/// How the value to try first is chosen: by the value order, or (the attempts of a
/// restarted search) by a random number drawn for this node.
#[derive(Clone, Copy, Debug)]
pub(crate) enum ValueRule {
    Ordered(ValueOrder),
    Random(u64),
}

/// The value of `var` to try first.
#[inline]
pub(crate) fn select_value(store: &Store, info: &VarInfo, var: usize, rule: ValueRule) -> i64 {
    if store.is_wide(var) {
        return wide_value(store, info, var, rule);
    }
    let base = i64::from(store.layout(var).base);
    let bit = match rule {
        ValueRule::Random(random) => return random_value(store, var, random),
        // The random order draws as `ValueRule::Random`; as an order (the parallel split
        // lists values in it) it lists them ascending.
        ValueRule::Ordered(ValueOrder::Ascending | ValueOrder::Random) => {
            lowest_bit_from(store.words(var), 0)
        }
        ValueRule::Ordered(ValueOrder::Descending) => {
            highest_bit_upto(store.words(var), usize::MAX)
        }
        ValueRule::Ordered(ValueOrder::MiddleOut) => {
            let mid = info.middle[var] as usize;
            let words = store.words(var);
            match (highest_bit_upto(words, mid), lowest_bit_from(words, mid)) {
                (Some(lo), Some(hi)) => Some(if mid - lo <= hi - mid { lo } else { hi }),
                (lo, hi) => lo.or(hi),
            }
        }
        ValueRule::Ordered(ValueOrder::Median) => {
            let words = store.words(var);
            let rank = (store.size(var).saturating_sub(1) / 2) as usize;
            members(words).nth(rank)
        }
        ValueRule::Ordered(ValueOrder::SplitLower | ValueOrder::SplitUpper) => {
            return split_point(store, var);
        }
    };
    // A variable chosen for branching has at least two values, so a bit is always found.
    base + bit.unwrap_or(0) as i64
}

/// The value of a wide `var` to try first: always one of its bounds, since the refutation
/// `x != v` can only narrow a wide domain at a bound. The middle-out order takes the bound
/// nearer the initial middle, a random choice either bound.
#[cold]
fn wide_value(store: &Store, info: &VarInfo, var: usize, rule: ValueRule) -> i64 {
    let base = i64::from(store.layout(var).base);
    let (lo, hi) = store.wide_offsets(var);
    let (lo, hi) = (lo as i64, hi as i64);
    let high = match rule {
        ValueRule::Random(random) => random & 1 == 1,
        ValueRule::Ordered(ValueOrder::SplitLower | ValueOrder::SplitUpper) => {
            return split_point(store, var);
        }
        ValueRule::Ordered(ValueOrder::Ascending | ValueOrder::Median | ValueOrder::Random) => {
            false
        }
        ValueRule::Ordered(ValueOrder::Descending) => true,
        ValueRule::Ordered(ValueOrder::MiddleOut) => {
            let mid = i64::from(info.middle[var]);
            hi - mid < mid - lo
        }
    };
    base + if high { hi } else { lo }
}

/// The middle of the bounds of `var`, rounded down: `x ≤ m` and `x > m` both keep values
/// of a variable with two or more.
fn split_point(store: &Store, var: usize) -> i64 {
    let (lo, hi) = store.bounds(var).unwrap_or((0, 0));
    (i64::from(lo) + i64::from(hi)).div_euclid(2)
}

/// A value of `var` chosen by `random` (uniform over its values up to the bias of a
/// remainder). Outlined: only restarted searches and the random order come here.
#[inline(never)]
fn random_value(store: &Store, var: usize, random: u64) -> i64 {
    let base = i64::from(store.layout(var).base);
    let rank = random % u64::from(store.size(var).max(1));
    // A variable chosen for branching has at least two values, so the rank is a member.
    let bit = members(store.words(var)).nth(rank as usize).unwrap_or(0);
    base + bit as i64
}

/// The lowest set bit at index `from` or above.
fn lowest_bit_from(words: &[u64], from: usize) -> Option<usize> {
    let first = from / 64;
    for (k, &w) in words.iter().enumerate().skip(first) {
        let w = if k == first {
            w & (u64::MAX << (from % 64))
        } else {
            w
        };
        if w != 0 {
            return Some(k * 64 + w.trailing_zeros() as usize);
        }
    }
    None
}

/// The highest set bit at index `upto` or below.
fn highest_bit_upto(words: &[u64], upto: usize) -> Option<usize> {
    let last = (upto / 64).min(words.len().saturating_sub(1));
    for k in (0..=last).rev() {
        let w = words[k];
        let w = if k == upto / 64 {
            w & (u64::MAX >> (63 - upto % 64))
        } else {
            w
        };
        if w != 0 {
            return Some(k * 64 + 63 - w.leading_zeros() as usize);
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::{Model, Relation};

    fn neighbours_of(model: &Model) -> Neighbours {
        Neighbours::new(model.num_vars(), &model.compiled().constraints)
    }

    #[test]
    fn fewest_values_takes_the_first_variable_with_the_fewest_values_above_one() {
        // Counts around the block edges and the early stop at two, with fixed and empty
        // variables mixed in, against a plain scan.
        let mut random = crate::xorshift::XorShift(0x9E37_79B9_7F4A_7C15);
        for round in 0..2_000 {
            let n = round % (3 * MRV_BLOCK + 2);
            let sizes: Vec<u32> = (0..n)
                .map(|_| match random.next_u64() % 6 {
                    0 => 0,
                    1 | 2 => 1,
                    3 => 2 + (random.next_u64() % 3) as u32,
                    4 => u32::MAX - (random.next_u64() % 2) as u32,
                    _ => 2 + (random.next_u64() % 60) as u32,
                })
                .collect();
            let expected = (0..n)
                .filter(|&v| sizes[v] > 1)
                .min_by_key(|&v| (sizes[v], v));
            assert_eq!(fewest_values(n, |v| sizes[v]), expected, "sizes {sizes:?}");
        }
    }

    #[test]
    fn the_dynamic_degree_order_on_words_chooses_as_the_general_scan() {
        // Random graphs of differing pairs over 2 to 128 variables (neighbour bitsets of
        // one and two words), random one-word domains with fixed and empty variables
        // mixed in: the counts read off the words choose as the scan through `size`.
        let mut random = crate::xorshift::XorShift(0x51E1_EC7E_D0D0_CAFE);
        for round in 0..300 {
            let n = 2 + round % 127;
            let mut model = Model::new();
            let xs = model.new_vars(n, 1..=9).expect("valid range");
            for _ in 0..n * (1 + round % 4) {
                let (a, b) = (random.below(n), random.below(n));
                if a != b {
                    model.all_different(&[xs[a], xs[b]]).expect("two variables");
                }
            }
            let compiled = model.compiled();
            let info = &compiled.info;
            info.neighbours
                .get_or_init(|| Neighbours::new(n, &compiled.constraints));
            for _ in 0..20 {
                let words: Vec<u64> = (0..n)
                    .map(|_| match random.next_u64() % 4 {
                        0 => 1 << random.below(9),
                        1 if random.next_u64() % 8 == 0 => 0,
                        _ => random.next_u64() & 0x1ff,
                    })
                    .collect();
                let order = VariableOrder::MrvDynamicDegree;
                let scan = select_by_size(n, |v| words[v].count_ones(), false, info, order, &[]);
                let on_words = unfixed_neighbours_on_words(&words, info, order);
                let expected = info
                    .neighbours
                    .get()
                    .and_then(|nb| nb.bits.as_ref())
                    .map(|_| scan);
                assert_eq!(on_words, expected, "round {round}, words {words:?}");
            }
        }
    }

    #[test]
    fn byte_masks_agree_with_comparing_each_byte() {
        // Every byte value at every position, against every value compared with, plus
        // neighbours that could carry or borrow into the byte looked at.
        let mut random = crate::xorshift::XorShift(0x2545_F491_4F6C_DD1D);
        for value in 0..=255u8 {
            for round in 0..8 {
                let mut bytes = [0u8; 64];
                for (i, b) in bytes.iter_mut().enumerate() {
                    let word = random.next_u64();
                    *b = match (i + round) % 4 {
                        0 => value,
                        1 => value.wrapping_add(1),
                        2 => value.wrapping_sub(1),
                        _ => word as u8,
                    };
                }
                let (equal, above_one) = byte_masks(&bytes, 64, value);
                for (i, &b) in bytes.iter().enumerate() {
                    assert_eq!(
                        equal >> i & 1 == 1,
                        b == value,
                        "byte {b} at {i}, value {value}"
                    );
                    assert_eq!(above_one >> i & 1 == 1, b > 1, "byte {b} at {i}");
                }
                // Only the first `used` bytes, rounded up to eight, are read.
                let used = 17 + round;
                let (part_equal, part_above) = byte_masks(&bytes, used, value);
                let read = (1u64 << (used.div_ceil(8) * 8)) - 1;
                assert_eq!((part_equal, part_above), (equal & read, above_one & read));
            }
        }
    }

    #[test]
    fn neighbour_lists_stay_within_their_memory_bound() {
        // One sum over 4,200 variables: 4,200 · 4,199 entries, past the bound.
        let mut model = Model::new();
        let xs = model.new_vars(4_200, 0..=1).expect("valid range");
        model
            .sum(&xs, Relation::AtMost, 3)
            .expect("known variables");
        assert!(neighbours_of(&model).unused);
        // 4,000 stay within it and get lists (a free variable keeps the graph incomplete).
        let mut model = Model::new();
        let xs = model.new_vars(4_000, 0..=1).expect("valid range");
        model.new_var(0..=1).expect("valid range");
        model
            .sum(&xs, Relation::AtMost, 3)
            .expect("known variables");
        let neighbours = neighbours_of(&model);
        assert!(!neighbours.unused);
        assert_eq!(neighbours.of(0).len(), 3_999);
        assert!(neighbours.of(4_000).is_empty());
    }

    #[test]
    fn bit_scans_respect_their_bounds() {
        let words = [0b1001_0000u64, 1];
        assert_eq!(lowest_bit_from(&words, 0), Some(4));
        assert_eq!(lowest_bit_from(&words, 5), Some(7));
        assert_eq!(lowest_bit_from(&words, 8), Some(64));
        assert_eq!(lowest_bit_from(&words, 65), None);
        assert_eq!(highest_bit_upto(&words, usize::MAX), Some(64));
        assert_eq!(highest_bit_upto(&words, 63), Some(7));
        assert_eq!(highest_bit_upto(&words, 6), Some(4));
        assert_eq!(highest_bit_upto(&words, 3), None);
    }
}
