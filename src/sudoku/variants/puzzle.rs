//! A variant puzzle: the givens, the variants, and the regions and cages of its line.

use super::cages;
use super::error::VariantError;
use super::labels;
use super::variant::{Variant, Variants};
use crate::sudoku::{Board, BoxShape};

/// A killer cage: its cells (row order), the sum of their digits, and its label.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Cage {
    /// The label on the line.
    pub label: String,
    /// The cells, numbered in row order from 0.
    pub cells: Vec<usize>,
    /// The sum of their digits.
    pub sum: i64,
}

/// A puzzle of one or more variants, read from one line: `GIVENS [REGIONS] [CAGES SUMS]`
/// (docs/FORMATS.md).
///
/// ```
/// use bitcsp::sudoku::variants::{self, VariantPuzzle};
/// // A 4x4 jigsaw: the regions 1-4 replace the 2x2 boxes.
/// let line = "1............... 1112122233343444";
/// let puzzle = VariantPuzzle::parse(line, &"jigsaw".parse()?, None)?;
/// let solution = variants::solve(&puzzle)?.expect("a solution");
/// assert!(puzzle.check_solution(&solution).is_ok());
/// // The same givens with a region of 3 cells are refused, saying why.
/// let bad = VariantPuzzle::parse("1............... 1112122233343441", &"jigsaw".parse()?, None);
/// assert_eq!(bad.unwrap_err().to_string(), "region 1 has 5 cells, not 4");
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct VariantPuzzle {
    /// The givens (for jigsaw, the board's boxes are not used).
    pub board: Board,
    /// The variants.
    pub variants: Variants,
    /// Jigsaw: the region of each cell, numbered from 0 in order of first appearance.
    pub regions: Option<Vec<usize>>,
    /// Killer: the cages.
    pub cages: Vec<Cage>,
}

impl VariantPuzzle {
    /// Reads a line with the fields of `variants`, in order: the givens; `REGIONS` for
    /// jigsaw; `CAGES SUMS` for killer. `shape` sets the box shape of the givens when the
    /// line length alone does not.
    ///
    /// # Errors
    /// A [`VariantError`] naming the field and what is wrong with it.
    pub fn parse(
        line: &str,
        variants: &Variants,
        shape: Option<BoxShape>,
    ) -> Result<VariantPuzzle, VariantError> {
        let fields: Vec<&str> = line.split_whitespace().collect();
        let mut names = vec!["GIVENS"];
        if variants.has(Variant::Jigsaw) {
            names.push("REGIONS");
        }
        if variants.has(Variant::Killer) {
            names.extend(["CAGES", "SUMS"]);
        }
        if fields.len() != names.len() {
            return Err(VariantError::Fields {
                expected: names.len(),
                fields: names.join(" "),
                found: fields.len(),
            });
        }
        let board = Board::parse_with_shape(fields[0], shape).map_err(VariantError::Givens)?;
        let n = board.side();
        if variants.has(Variant::Windoku) && n != 9 {
            return Err(VariantError::WindokuSize(n));
        }
        let mut at = 1;
        let regions = if variants.has(Variant::Jigsaw) {
            at += 1;
            Some(regions(fields[1], n)?)
        } else {
            None
        };
        let cages = if variants.has(Variant::Killer) {
            read_cages(fields[at], fields[at + 1], n)?
        } else {
            Vec::new()
        };
        Ok(VariantPuzzle {
            board,
            variants: variants.clone(),
            regions,
            cages,
        })
    }

    /// The board side.
    pub fn side(&self) -> usize {
        self.board.side()
    }

    /// The groups of cells whose digits all differ: rows, columns, boxes (or jigsaw
    /// regions), diagonals, windows and cages.
    pub fn groups(&self) -> Vec<Vec<usize>> {
        let n = self.side();
        let mut out: Vec<Vec<usize>> = Vec::new();
        for i in 0..n {
            out.push((0..n).map(|c| i * n + c).collect());
            out.push((0..n).map(|r| r * n + i).collect());
        }
        out.extend(self.groups_beyond_lines());
        out
    }

    /// [`VariantPuzzle::groups`] without the rows and columns (the groups every
    /// variant's model shares): boxes or regions, diagonals, windows and cages.
    pub(crate) fn groups_beyond_lines(&self) -> Vec<Vec<usize>> {
        let n = self.side();
        let mut out: Vec<Vec<usize>> = Vec::new();
        match &self.regions {
            Some(regions) => {
                let first = out.len();
                out.extend((0..n).map(|_| Vec::with_capacity(n)));
                for (c, &region) in regions.iter().enumerate() {
                    if let Some(cells) = out.get_mut(first + region) {
                        cells.push(c);
                    }
                }
            }
            None => {
                let BoxShape { rows, cols } = self.board.shape();
                for b in 0..n {
                    let (top, left) = ((b / (n / cols)) * rows, (b % (n / cols)) * cols);
                    out.push(
                        (0..rows * cols)
                            .map(|i| (top + i / cols) * n + left + i % cols)
                            .collect(),
                    );
                }
            }
        }
        if self.variants.has(Variant::X) {
            out.push((0..n).map(|i| i * n + i).collect());
            out.push((0..n).map(|i| i * n + (n - 1 - i)).collect());
        }
        if self.variants.has(Variant::Windoku) {
            for (top, left) in [(1, 1), (1, 5), (5, 1), (5, 5)] {
                out.push((0..9).map(|i| (top + i / 3) * n + left + i % 3).collect());
            }
        }
        out.extend(
            self.cages
                .iter()
                .filter(|c| c.cells.len() > 1)
                .map(|c| c.cells.clone()),
        );
        out
    }

    /// Pairs of cells whose digits differ (anti-knight, anti-king), each once.
    pub fn different_pairs(&self) -> Vec<(usize, usize)> {
        let mut steps: Vec<(i64, i64)> = Vec::new();
        if self.variants.has(Variant::AntiKnight) {
            steps.extend([(1, 2), (2, 1), (1, -2), (2, -1)]);
        }
        if self.variants.has(Variant::AntiKing) {
            steps.extend([(1, 1), (1, -1), (0, 1), (1, 0)]);
        }
        self.pairs(&steps)
    }

    /// Orthogonal neighbours, each pair once (non-consecutive).
    pub fn neighbour_pairs(&self) -> Vec<(usize, usize)> {
        if self.variants.has(Variant::NonConsecutive) {
            self.pairs(&[(0, 1), (1, 0)])
        } else {
            Vec::new()
        }
    }

    /// The pairs `(c, c + step)` inside the board, for steps that go forward.
    fn pairs(&self, steps: &[(i64, i64)]) -> Vec<(usize, usize)> {
        let n = self.side() as i64;
        let mut out = Vec::new();
        for r in 0..n {
            for c in 0..n {
                for &(dr, dc) in steps {
                    let (r2, c2) = (r + dr, c + dc);
                    if (0..n).contains(&r2) && (0..n).contains(&c2) {
                        out.push(((r * n + c) as usize, (r2 * n + c2) as usize));
                    }
                }
            }
        }
        out.sort_unstable();
        out.dedup();
        out
    }

    /// Whether `grid` is complete, keeps the givens and obeys every rule; the first
    /// broken rule otherwise. Written from the rules, apart from the engine's model.
    ///
    /// # Errors
    /// A sentence naming the broken rule.
    pub fn check_solution(&self, grid: &Board) -> Result<(), String> {
        let n = self.side();
        let v = grid.cells();
        if v.len() != n * n || v.iter().any(|&d| d == 0 || d as usize > n) {
            return Err("the grid is not complete".into());
        }
        for (i, &g) in self.board.cells().iter().enumerate() {
            if g != 0 && v[i] != g {
                return Err(format!("cell {} changes a given", i + 1));
            }
        }
        for group in self.groups() {
            let mut seen = 0u64;
            for &c in &group {
                let bit = 1u64 << (v[c] - 1);
                if seen & bit != 0 {
                    return Err(format!("digit {} twice in a group", v[c]));
                }
                seen |= bit;
            }
        }
        for (a, b) in self.different_pairs() {
            if v[a] == v[b] {
                return Err(format!("cells {} and {} hold the same digit", a + 1, b + 1));
            }
        }
        for (a, b) in self.neighbour_pairs() {
            if v[a].abs_diff(v[b]) == 1 {
                return Err(format!(
                    "neighbours {} and {} are consecutive",
                    a + 1,
                    b + 1
                ));
            }
        }
        for cage in &self.cages {
            let sum: i64 = cage.cells.iter().map(|&c| i64::from(v[c])).sum();
            if sum != cage.sum {
                return Err(format!(
                    "cage {} sums to {sum}, not {}",
                    cage.label, cage.sum
                ));
            }
        }
        Ok(())
    }

    /// The first rule the givens break on their own, if any (`check`).
    pub fn find_clash(&self) -> Option<String> {
        let v = self.board.cells();
        let cell = |c: usize| crate::sudoku::Cell {
            row: c / self.side() + 1,
            col: c % self.side() + 1,
        };
        for group in self.groups() {
            let given: Vec<usize> = group.iter().copied().filter(|&c| v[c] != 0).collect();
            for (i, &a) in given.iter().enumerate() {
                if let Some(&b) = given[i + 1..].iter().find(|&&b| v[b] == v[a]) {
                    return Some(format!(
                        "digit {} appears twice in one group: {} and {}",
                        v[a],
                        cell(a),
                        cell(b)
                    ));
                }
            }
        }
        for (a, b) in self.different_pairs() {
            if v[a] != 0 && v[a] == v[b] {
                return Some(format!(
                    "{} and {} hold the same digit {}",
                    cell(a),
                    cell(b),
                    v[a]
                ));
            }
        }
        for (a, b) in self.neighbour_pairs() {
            if v[a] != 0 && v[b] != 0 && v[a].abs_diff(v[b]) == 1 {
                return Some(format!("{} and {} are consecutive", cell(a), cell(b)));
            }
        }
        None
    }
}

/// The regions of a jigsaw line: each label used by `n` connected cells.
fn regions(field: &str, n: usize) -> Result<Vec<usize>, VariantError> {
    if n.checked_mul(n).is_some_and(|cells| cells <= 128)
        && field.is_ascii()
        && !field.contains(',')
    {
        return regions_of_bytes(field.as_bytes(), n);
    }
    regions_of_labels(field, n)
}

/// [`regions`] for any labels (comma-separated ones, larger boards).
fn regions_of_labels(field: &str, n: usize) -> Result<Vec<usize>, VariantError> {
    let labels = labels::split(field);
    if labels.len() != n * n {
        return Err(VariantError::Length {
            field: "regions",
            expected: n * n,
            found: labels.len(),
        });
    }
    let groups = labels::groups(&labels);
    let mut region = vec![0; n * n];
    for (i, (label, cells)) in groups.iter().enumerate() {
        if cells.len() != n || *label == "." {
            return Err(VariantError::RegionSize {
                label: (*label).to_owned(),
                found: cells.len(),
                expected: n,
            });
        }
        if !labels::connected(cells, n) {
            return Err(VariantError::NotConnected {
                kind: "region",
                label: (*label).to_owned(),
            });
        }
        for &c in cells {
            region[c] = i;
        }
    }
    let unlabelled = labels.iter().filter(|l| **l == ".").count();
    no_unlabelled_cells(unlabelled, n)?;
    Ok(region)
}

/// A region field's error for `unlabelled` cells labelled `.`, if any.
fn no_unlabelled_cells(unlabelled: usize, n: usize) -> Result<(), VariantError> {
    if unlabelled > 0 {
        return Err(VariantError::RegionSize {
            label: ".".into(),
            found: unlabelled,
            expected: n,
        });
    }
    Ok(())
}

/// [`regions`] of a line of one-byte labels on a board of at most 128 cells: each cell's
/// region found through a table of bytes and each region's cells gathered as a bitset, no
/// label strings or cell lists. The same errors, in the same order.
fn regions_of_bytes(labels: &[u8], n: usize) -> Result<Vec<usize>, VariantError> {
    if labels.len() != n * n {
        return Err(VariantError::Length {
            field: "regions",
            expected: n * n,
            found: labels.len(),
        });
    }
    let mut index = [usize::MAX; 256];
    // Each region's label and cells, in order of first appearance.
    let mut found: Vec<(u8, u128)> = Vec::with_capacity(n);
    let mut region = Vec::with_capacity(n * n);
    let mut unlabelled = 0;
    for (c, &label) in labels.iter().enumerate() {
        if label == b'.' {
            unlabelled += 1;
            region.push(0);
            continue;
        }
        let slot = &mut index[usize::from(label)];
        if *slot == usize::MAX {
            *slot = found.len();
            found.push((label, 0));
        }
        found[*slot].1 |= 1 << c;
        region.push(*slot);
    }
    for &(label, cells) in &found {
        let label = || char::from(label).to_string();
        let size = cells.count_ones() as usize;
        if size != n {
            return Err(VariantError::RegionSize {
                label: label(),
                found: size,
                expected: n,
            });
        }
        if !labels::set_is_connected(cells, n) {
            return Err(VariantError::NotConnected {
                kind: "region",
                label: label(),
            });
        }
    }
    no_unlabelled_cells(unlabelled, n)?;
    Ok(region)
}

/// The cages of a killer line.
fn read_cages(field: &str, sums: &str, n: usize) -> Result<Vec<Cage>, VariantError> {
    let labels = labels::split(field);
    if labels.len() != n * n {
        return Err(VariantError::Length {
            field: "cages",
            expected: n * n,
            found: labels.len(),
        });
    }
    let mut totals: Vec<(String, i64)> = Vec::new();
    for entry in sums.split(',').filter(|s| !s.is_empty()) {
        let (label, total) = entry
            .split_once('=')
            .ok_or_else(|| VariantError::BadSum(entry.to_owned()))?;
        let total: i64 = total
            .trim()
            .parse()
            .map_err(|_| VariantError::BadSum(entry.to_owned()))?;
        let label = label.trim().to_owned();
        if totals.iter().any(|(l, _)| *l == label) {
            return Err(VariantError::TwoSums(label));
        }
        totals.push((label, total));
    }
    let groups = labels::groups(&labels);
    if let Some((label, _)) = totals
        .iter()
        .find(|(l, _)| !groups.iter().any(|(g, _)| g == l))
    {
        return Err(VariantError::SumWithoutCage(label.clone()));
    }
    groups
        .into_iter()
        .map(|(label, cells)| {
            let label = label.to_owned();
            let sum = totals
                .iter()
                .find(|(l, _)| *l == label)
                .map(|&(_, s)| s)
                .ok_or_else(|| VariantError::CageWithoutSum(label.clone()))?;
            if cells.len() > n {
                return Err(VariantError::CageTooLarge {
                    label,
                    size: cells.len(),
                    max: n,
                });
            }
            if !labels::connected(&cells, n) {
                return Err(VariantError::NotConnected {
                    kind: "cage",
                    label,
                });
            }
            let (min, max) = cages::sum_range(cells.len(), n);
            if !(min..=max).contains(&sum) {
                return Err(VariantError::ImpossibleSum {
                    label,
                    size: cells.len(),
                    sum,
                    min,
                    max,
                });
            }
            Ok(Cage { label, cells, sum })
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Region fields of the test set, and the same fields broken in the ways a line can
    /// be: two cells' labels swapped (regions of the wrong size or no longer connected),
    /// a cell unlabelled, a cell dropped, a stray label.
    fn region_fields() -> Vec<String> {
        let mut rng = crate::xorshift::XorShift(11);
        let mut fields = Vec::new();
        for line in include_str!("../../../tests/data/sudoku/variants/jigsaw.txt").lines() {
            let Some(field) = line.split(' ').nth(1) else {
                continue;
            };
            fields.push(field.to_owned());
            let bytes = field.as_bytes();
            for _ in 0..20 {
                let mut broken = bytes.to_vec();
                let (a, b) = (rng.below(bytes.len()), rng.below(bytes.len()));
                match rng.below(4) {
                    0 => broken.swap(a, b),
                    1 => broken[a] = b'.',
                    2 => {
                        broken.remove(a);
                    }
                    _ => broken[a] = b'Z',
                }
                fields.push(String::from_utf8(broken).expect("ASCII"));
            }
        }
        fields
    }

    #[test]
    fn one_byte_regions_read_as_the_general_reader_reads_them() {
        let fields = region_fields();
        assert!(fields.len() > 100, "the test set is read");
        let mut errors = 0;
        for field in &fields {
            let general = regions_of_labels(field, 9);
            errors += usize::from(general.is_err());
            assert_eq!(regions(field, 9), general, "{field}");
        }
        // Both outcomes are exercised.
        assert!(errors > 0 && errors < fields.len());
    }
}
