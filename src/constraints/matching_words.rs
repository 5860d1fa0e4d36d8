//! Domain consistency for an all-different group whose values span several words (up to
//! 64, 4,096 values): the rule of [`super::matching`] (Régin 1994) on bitsets of `W`
//! words, with the value graph walked node by node instead of in whole words.
//!
//! A full matching of variables to values is found by augmenting paths (none: fail).
//! Over the variables, `x → y` means "x can take y's matched value", so that y can move
//! on. A value `v` of `x`, other than its matched value, belongs to some full matching
//! exactly when `v` is free, or its owner can reach a variable holding a free value, or
//! its owner reaches `x` (then `x`, `v`'s owner and the variables between them shift
//! along a cycle): the owner lies in `x`'s strongly connected component. The components
//! come from Tarjan's algorithm, run with explicit stacks.
//!
//! Every table lives on the stack as `[[u16; 64]; W]`, indexed by value or by variable
//! (a group that passed the pigeonhole rule has at most `64·W` variables).

use crate::propagate::Conflict;

const NONE: u16 = u16::MAX;

/// A table with an entry per value (or per variable) of a `W`-word value space.
type Table<const W: usize> = [[u16; 64]; W];

fn get<const W: usize>(t: &Table<W>, i: usize) -> u16 {
    t[i / 64][i % 64]
}

fn set<const W: usize>(t: &mut Table<W>, i: usize, value: u16) {
    t[i / 64][i % 64] = value;
}

fn has(bits: &[u64], v: usize) -> bool {
    bits[v / 64] >> (v % 64) & 1 != 0
}

/// The lowest set bit of `bits` at `from` or above.
fn next_bit(bits: &[u64], from: usize) -> Option<usize> {
    let mut k = from / 64;
    let mut word = *bits.get(k)? & (u64::MAX << (from % 64));
    loop {
        if word != 0 {
            return Some(k * 64 + word.trailing_zeros() as usize);
        }
        k += 1;
        word = *bits.get(k)?;
    }
}

/// Removes from `masks` (`W` words a variable, every domain non-empty) every value that
/// belongs to no full matching; returns whether anything was removed.
pub(crate) fn prune_words<const W: usize>(masks: &mut [u64]) -> Result<bool, Conflict> {
    let n = masks.len() / W;
    if n > 64 * W {
        return Err(Conflict);
    }
    let domain = |masks: &[u64], x: usize| -> [u64; W] {
        let mut d = [0u64; W];
        d.copy_from_slice(&masks[x * W..(x + 1) * W]);
        d
    };
    let mut owner: Table<W> = [[NONE; 64]; W];
    let mut matched: Table<W> = [[NONE; 64]; W];
    let mut claimed = [0u64; W];
    for x in 0..n {
        let mut visited = [0u64; W];
        if !augment::<W>(
            x,
            masks,
            &mut owner,
            &mut matched,
            &mut claimed,
            &mut visited,
        ) {
            return Err(Conflict);
        }
    }
    // Variables that can reach a free value: backwards from the holders of free values.
    let mut all = [0u64; W];
    for x in 0..n {
        all.iter_mut()
            .zip(domain(masks, x))
            .for_each(|(a, d)| *a |= d);
    }
    let free: [u64; W] = std::array::from_fn(|k| all[k] & !claimed[k]);
    let reaches_free = vars_reaching_free::<W>(masks, n, &matched, &free);
    let component = components::<W>(masks, n, &owner, &matched);
    let mut changed = false;
    for x in 0..n {
        let own = usize::from(get(&matched, x));
        let d = domain(masks, x);
        let mut kept = [0u64; W];
        let mut v = 0;
        while let Some(u) = next_bit(&d, v) {
            v = u + 1;
            let y = get(&owner, u);
            let keep = u == own
                || y == NONE
                || has(&reaches_free, usize::from(y))
                || get(&component, usize::from(y)) == get(&component, x);
            if keep {
                kept[u / 64] |= 1 << (u % 64);
            }
        }
        if kept != d {
            masks[x * W..(x + 1) * W].copy_from_slice(&kept);
            changed = true;
        }
    }
    Ok(changed)
}

/// Kuhn's augmenting path from variable `x`: a value nobody owns, or one whose owner
/// can move on; `visited` holds the owned values already tried on this path.
fn augment<const W: usize>(
    x: usize,
    masks: &[u64],
    owner: &mut Table<W>,
    matched: &mut Table<W>,
    claimed: &mut [u64; W],
    visited: &mut [u64; W],
) -> bool {
    let d = &masks[x * W..(x + 1) * W];
    // No array in the frame: a path may recurse once per variable.
    let unowned = (0..W).find_map(|k| {
        let w = d[k] & !claimed[k];
        (w != 0).then(|| k * 64 + w.trailing_zeros() as usize)
    });
    if let Some(u) = unowned {
        claimed[u / 64] |= 1 << (u % 64);
        set(owner, u, x as u16);
        set(matched, x, u as u16);
        return true;
    }
    let mut from = 0;
    while let Some(u) = next_bit(d, from) {
        from = u + 1;
        if has(visited, u) {
            continue;
        }
        visited[u / 64] |= 1 << (u % 64);
        let y = usize::from(get(owner, u));
        if augment::<W>(y, masks, owner, matched, claimed, visited) {
            set(owner, u, x as u16);
            set(matched, x, u as u16);
            return true;
        }
    }
    false
}

/// The variables (as a bitset over variables) from which a free value can be reached:
/// a variable holding a free value, then every variable holding the matched value of
/// one already found.
fn vars_reaching_free<const W: usize>(
    masks: &[u64],
    n: usize,
    matched: &Table<W>,
    free: &[u64; W],
) -> [u64; W] {
    let mut found = [0u64; W];
    let mut queue: Table<W> = [[0; 64]; W];
    let (mut head, mut tail) = (0, 0);
    let holds = |x: usize, bits: &[u64; W]| (0..W).any(|k| masks[x * W + k] & bits[k] != 0);
    for x in (0..n).filter(|&x| holds(x, free)) {
        found[x / 64] |= 1 << (x % 64);
        set(&mut queue, tail, x as u16);
        tail += 1;
    }
    while head < tail {
        let value = usize::from(get(matched, usize::from(get(&queue, head))));
        head += 1;
        for x in 0..n {
            if !has(&found, x) && has(&masks[x * W..(x + 1) * W], value) {
                found[x / 64] |= 1 << (x % 64);
                set(&mut queue, tail, x as u16);
                tail += 1;
            }
        }
    }
    found
}

/// Tarjan's strongly connected components of the variables, where `x → y` when `x`
/// holds `y`'s matched value: each variable's component number.
fn components<const W: usize>(
    masks: &[u64],
    n: usize,
    owner: &Table<W>,
    matched: &Table<W>,
) -> Table<W> {
    let mut t = Tarjan::<W> {
        index: [[NONE; 64]; W],
        low: [[0; 64]; W],
        component: [[NONE; 64]; W],
        stack: [[0; 64]; W],
        on_stack: [0; W],
        path: [[0; 64]; W],
        cursor: [[0; 64]; W],
        depth: 0,
        top: 0,
        counter: 0,
        components: 0,
    };
    for root in 0..n {
        if get(&t.index, root) != NONE {
            continue;
        }
        t.enter(root);
        while t.depth > 0 {
            let x = usize::from(get(&t.path, t.depth - 1));
            let own = usize::from(get(matched, x));
            let from = usize::from(get(&t.cursor, t.depth - 1));
            let domain = &masks[x * W..(x + 1) * W];
            // The next successor: a value of x other than its own, owned by someone.
            let next = std::iter::successors(next_bit(domain, from), |&u| next_bit(domain, u + 1))
                .find(|&u| u != own && get(owner, u) != NONE);
            match next {
                Some(u) => {
                    set(&mut t.cursor, t.depth - 1, (u + 1) as u16);
                    let y = usize::from(get(owner, u));
                    if get(&t.index, y) == NONE {
                        t.enter(y);
                    } else if has(&t.on_stack, y) {
                        let l = get(&t.low, x).min(get(&t.index, y));
                        set(&mut t.low, x, l);
                    }
                }
                None => t.leave(x),
            }
        }
    }
    t.component
}

/// The state of [`components`]: Tarjan's numbers, its stack of visited variables, and
/// the depth-first path with, for each of its variables, the value at which to go on
/// scanning its domain.
struct Tarjan<const W: usize> {
    index: Table<W>,
    low: Table<W>,
    component: Table<W>,
    stack: Table<W>,
    on_stack: [u64; W],
    path: Table<W>,
    cursor: Table<W>,
    depth: usize,
    top: usize,
    counter: u16,
    components: u16,
}

impl<const W: usize> Tarjan<W> {
    fn enter(&mut self, x: usize) {
        set(&mut self.index, x, self.counter);
        set(&mut self.low, x, self.counter);
        self.counter += 1;
        set(&mut self.stack, self.top, x as u16);
        self.top += 1;
        self.on_stack[x / 64] |= 1 << (x % 64);
        set(&mut self.path, self.depth, x as u16);
        set(&mut self.cursor, self.depth, 0);
        self.depth += 1;
    }

    /// Done with `x`, the top of the path: closes its component when it is the root of
    /// one, and passes its low number to its parent.
    fn leave(&mut self, x: usize) {
        self.depth -= 1;
        if get(&self.low, x) == get(&self.index, x) {
            loop {
                self.top -= 1;
                let z = usize::from(get(&self.stack, self.top));
                self.on_stack[z / 64] &= !(1 << (z % 64));
                set(&mut self.component, z, self.components);
                if z == x {
                    break;
                }
            }
            self.components += 1;
        }
        if self.depth > 0 {
            let parent = usize::from(get(&self.path, self.depth - 1));
            let l = get(&self.low, parent).min(get(&self.low, x));
            set(&mut self.low, parent, l);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Whether `masks` (`W` words a variable) has a full matching using value `v` for
    /// variable `x`, by brute force.
    fn supported<const W: usize>(masks: &[u64], x: usize, v: usize) -> bool {
        fn go<const W: usize>(masks: &[u64], i: usize, used: &mut Vec<usize>) -> bool {
            if i * W == masks.len() {
                return true;
            }
            let d = &masks[i * W..(i + 1) * W];
            (0..64 * W).any(|u| {
                if !has(d, u) || used.contains(&u) {
                    return false;
                }
                used.push(u);
                let ok = go::<W>(masks, i + 1, used);
                used.pop();
                ok
            })
        }
        let mut fixed = masks.to_vec();
        fixed[x * W..(x + 1) * W].fill(0);
        fixed[x * W + v / 64] |= 1 << (v % 64);
        go::<W>(&fixed, 0, &mut Vec::new())
    }

    #[test]
    fn keeps_exactly_the_values_of_some_full_matching() {
        let mut seed = 0x9E37_79B9_7F4A_7C15u64;
        let mut next = move || {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed
        };
        // Values near the word boundaries of a two-word space.
        let values = [0, 1, 62, 63, 64, 65, 100, 127];
        for round in 0..3000 {
            let n = 2 + (next() % 5) as usize;
            let mut masks = vec![0u64; n * 2];
            for x in 0..n {
                for &v in &values {
                    if next() % 100 < 45 {
                        masks[x * 2 + v / 64] |= 1 << (v % 64);
                    }
                }
                if masks[x * 2..x * 2 + 2] == [0, 0] {
                    masks[x * 2] = 1;
                }
            }
            let before = masks.clone();
            let expected: Vec<u64> = (0..n)
                .flat_map(|x| {
                    let mut kept = [0u64; 2];
                    for v in 0..128 {
                        if has(&before[x * 2..x * 2 + 2], v) && supported::<2>(&before, x, v) {
                            kept[v / 64] |= 1 << (v % 64);
                        }
                    }
                    kept
                })
                .collect();
            match prune_words::<2>(&mut masks) {
                Err(Conflict) => assert!(
                    expected.chunks(2).any(|d| d == [0, 0]),
                    "round {round}: failed with a full matching ({before:?})"
                ),
                Ok(changed) => {
                    assert_eq!(masks, expected, "round {round}: {before:?}");
                    assert_eq!(changed, masks != before, "round {round}");
                }
            }
        }
    }
}
