//! An independent checker for the workshop's explanations.
//!
//! It shares no code with the pattern finders: it keeps its own pencil marks, computed
//! from the givens by row, column and box coordinates, and re-derives every step from
//! what the step says it rests on. The cells and candidates of the pattern, and the
//! targets, become a small constraint problem: each cell takes one of its pattern digits,
//! or "another digit" when it has candidates outside the pattern (which clashes with
//! nothing, so the problem only knows what the pattern names); cells sharing a row,
//! column or box differ; each house the step names must hold each digit whose every
//! place in that house belongs to the pattern. An elimination is derived when the problem
//! has no solution with the target holding the digit; a placement when it has none with
//! the cell holding anything else. Unique rectangles may also assume the puzzle has one
//! solution: no four pattern cells on two rows, two columns and two boxes may hold
//! `a b / b a`. A step that is only true because of the solution fails here.

#![allow(dead_code)]

use bitcsp::sudoku::variants::{Variant, VariantPuzzle};
use bitcsp::sudoku::workshop::{Explanation, HouseKind, Step, Technique};
use bitcsp::sudoku::Board;

/// Pencil marks: the digit of each cell (0 empty) and each empty cell's candidates, with
/// the board's rules: the groups whose digits differ, which of them hold every digit, and
/// the killer cages' sums.
#[derive(Clone, Debug)]
pub struct Marks {
    pub n: usize,
    pub values: Vec<u8>,
    pub cands: Vec<u64>,
    /// Whether two cells must differ, `n² × n²`.
    differ: Vec<bool>,
    /// Houses by kind and number: `(kind, index, cells)`; each holds every digit.
    houses: Vec<(HouseKind, usize, Vec<usize>)>,
    /// Killer cages: cells and sum, numbered from 1 in order.
    cages: Vec<(Vec<usize>, i64)>,
}

impl Marks {
    /// A plain board: rows, columns and boxes, by coordinates.
    pub fn new(board: &Board) -> Marks {
        let n = board.side();
        let shape = board.shape();
        let mut houses = Vec::new();
        for k in 0..n {
            houses.push((HouseKind::Row, k + 1, (0..n).map(|c| k * n + c).collect()));
            houses.push((
                HouseKind::Column,
                k + 1,
                (0..n).map(|r| r * n + k).collect(),
            ));
            let (top, left) = (
                (k / (n / shape.cols)) * shape.rows,
                (k % (n / shape.cols)) * shape.cols,
            );
            let cells = (0..n)
                .map(|i| (top + i / shape.cols) * n + left + i % shape.cols)
                .collect();
            houses.push((HouseKind::Box, k + 1, cells));
        }
        Marks::build(board, houses, Vec::new(), Vec::new())
    }

    /// A variant puzzle: its groups as the puzzle defines them (rows and columns, boxes
    /// or regions, diagonals, windows), cages and knight or king pairs.
    pub fn for_variant(puzzle: &VariantPuzzle) -> Marks {
        let n = puzzle.side();
        let groups = puzzle.groups();
        let mut houses = Vec::new();
        for k in 0..n {
            houses.push((HouseKind::Row, k + 1, groups[2 * k].clone()));
            houses.push((HouseKind::Column, k + 1, groups[2 * k + 1].clone()));
        }
        let block = if puzzle.regions.is_some() {
            HouseKind::Region
        } else {
            HouseKind::Box
        };
        for k in 0..n {
            houses.push((block, k + 1, groups[2 * n + k].clone()));
        }
        let mut at = 3 * n;
        if puzzle.variants.has(Variant::X) {
            for k in 0..2 {
                houses.push((HouseKind::Diagonal, k + 1, groups[at + k].clone()));
            }
            at += 2;
        }
        if puzzle.variants.has(Variant::Windoku) {
            for k in 0..4 {
                houses.push((HouseKind::Window, k + 1, groups[at + k].clone()));
            }
        }
        let cages = puzzle
            .cages
            .iter()
            .map(|c| (c.cells.clone(), c.sum))
            .collect();
        Marks::build(&puzzle.board, houses, cages, puzzle.different_pairs())
    }

    fn build(
        board: &Board,
        houses: Vec<(HouseKind, usize, Vec<usize>)>,
        cages: Vec<(Vec<usize>, i64)>,
        pairs: Vec<(usize, usize)>,
    ) -> Marks {
        let n = board.side();
        let cells = n * n;
        let mut differ = vec![false; cells * cells];
        let groups = houses
            .iter()
            .map(|(_, _, c)| c)
            .chain(cages.iter().map(|(c, _)| c));
        for group in groups {
            for &a in group {
                for &b in group {
                    differ[a * cells + b] = a != b;
                }
            }
        }
        for (a, b) in pairs {
            differ[a * cells + b] = true;
            differ[b * cells + a] = true;
        }
        let mut m = Marks {
            n,
            values: vec![0; cells],
            cands: vec![if n == 64 { u64::MAX } else { (1u64 << n) - 1 }; cells],
            differ,
            houses,
            cages,
        };
        for (i, &d) in board.cells().iter().enumerate() {
            if d != 0 {
                m.place(i, d);
            }
        }
        m
    }

    /// Whether two different cells must differ.
    pub fn see(&self, a: usize, b: usize) -> bool {
        self.differ[a * self.n * self.n + b]
    }

    fn place(&mut self, i: usize, d: u8) {
        self.values[i] = d;
        self.cands[i] = 0;
        for j in 0..self.n * self.n {
            if self.see(i, j) {
                self.cands[j] &= !(1 << (d - 1));
            }
        }
    }

    fn has(&self, i: usize, d: u8) -> bool {
        self.cands[i] >> (d - 1) & 1 == 1
    }

    fn rc(&self, i: usize) -> (usize, usize) {
        (i / self.n, i % self.n)
    }

    /// The block (box or region) of a cell: its house of that kind.
    fn boxed(&self, i: usize) -> usize {
        self.houses
            .iter()
            .position(|(k, _, cells)| {
                matches!(k, HouseKind::Box | HouseKind::Region) && cells.contains(&i)
            })
            .unwrap_or(usize::MAX)
    }

    /// The cells of a house that holds every digit, by its kind and 1-based number.
    fn house_cells(&self, kind: HouseKind, index: usize) -> Option<&Vec<usize>> {
        self.houses
            .iter()
            .find(|(k, i, _)| *k == kind && *i == index)
            .map(|(_, _, cells)| cells)
    }
}

/// One cell of the small problem: the pattern digits it may hold, and whether it may
/// hold some other digit.
#[derive(Clone, Copy, Debug)]
struct Dom {
    digits: u64,
    other: bool,
}

impl Dom {
    fn size(self) -> u32 {
        self.digits.count_ones() + self.other as u32
    }
}

struct Problem<'m> {
    marks: &'m Marks,
    cells: Vec<usize>,
    /// For each house constraint: the problem's cells in it, and the digit.
    musts: Vec<(Vec<usize>, u8)>,
    /// Cage sums: the problem's cells of the cage, the sum they must make (the cage's
    /// placed digits taken off).
    sums: Vec<(Vec<usize>, i64)>,
    unique: bool,
}

impl Problem<'_> {
    /// Whether some assignment of `doms` satisfies every rule.
    fn satisfiable(&self, doms: &mut [Dom]) -> bool {
        if !self.propagate(doms) {
            return false;
        }
        let open = (0..doms.len())
            .filter(|&v| doms[v].size() > 1)
            .min_by_key(|&v| doms[v].size());
        let Some(v) = open else {
            return (!self.unique || !self.deadly(doms)) && self.sums_hold(doms);
        };
        let dom = doms[v];
        let mut choices: Vec<Dom> = (0..64)
            .filter(|b| dom.digits >> b & 1 == 1)
            .map(|b| Dom {
                digits: 1 << b,
                other: false,
            })
            .collect();
        if dom.other {
            choices.push(Dom {
                digits: 0,
                other: true,
            });
        }
        choices.into_iter().any(|choice| {
            let mut next = doms.to_vec();
            next[v] = choice;
            self.satisfiable(&mut next)
        })
    }

    /// Removes assigned digits from the cells that see them and fills houses' last
    /// places, to a fixed point; false on a wipe-out.
    fn propagate(&self, doms: &mut [Dom]) -> bool {
        loop {
            let mut changed = false;
            for a in 0..doms.len() {
                if doms[a].size() == 0 {
                    return false;
                }
                if doms[a].size() != 1 || doms[a].digits == 0 {
                    continue;
                }
                for b in 0..doms.len() {
                    if self.marks.see(self.cells[a], self.cells[b])
                        && doms[b].digits & doms[a].digits != 0
                    {
                        doms[b].digits &= !doms[a].digits;
                        changed = true;
                    }
                }
            }
            for (members, d) in &self.musts {
                let bit = 1u64 << (d - 1);
                let able: Vec<usize> = members
                    .iter()
                    .copied()
                    .filter(|&v| doms[v].digits & bit != 0)
                    .collect();
                match able.as_slice() {
                    [] => return false,
                    [v] if doms[*v].size() > 1 => {
                        doms[*v] = Dom {
                            digits: bit,
                            other: false,
                        };
                        changed = true;
                    }
                    _ => {}
                }
            }
            if !changed {
                return true;
            }
        }
    }

    /// Whether every cage sum holds (a cage with a cell of unnamed digit cannot be judged,
    /// and passes).
    fn sums_hold(&self, doms: &[Dom]) -> bool {
        self.sums.iter().all(|(vars, sum)| {
            if vars.iter().any(|&v| doms[v].digits == 0) {
                return true;
            }
            let total: i64 = vars
                .iter()
                .map(|&v| i64::from(doms[v].digits.trailing_zeros() + 1))
                .sum();
            total == *sum
        })
    }

    /// Whether four cells on two rows, two columns and two boxes hold `a b / b a`.
    fn deadly(&self, doms: &[Dom]) -> bool {
        let m = self.marks;
        let value = |v: usize| doms[v].digits;
        for (i, &a) in self.cells.iter().enumerate() {
            for (j, &b) in self.cells.iter().enumerate() {
                let ((ra, ca), (rb, cb)) = (m.rc(a), m.rc(b));
                if ra >= rb || ca >= cb || value(i) == 0 || value(i) != value(j) {
                    continue;
                }
                let at = |r: usize, c: usize| self.cells.iter().position(|&x| x == r * m.n + c);
                let (Some(k), Some(l)) = (at(ra, cb), at(rb, ca)) else {
                    continue;
                };
                let mut boxes = [
                    m.boxed(a),
                    m.boxed(b),
                    m.boxed(self.cells[k]),
                    m.boxed(self.cells[l]),
                ];
                boxes.sort_unstable();
                let distinct = 1 + boxes.windows(2).filter(|w| w[0] != w[1]).count();
                if distinct == 2 && value(k) != 0 && value(k) == value(l) && value(k) != value(i) {
                    return true;
                }
            }
        }
        false
    }
}

fn index(marks: &Marks, row: usize, col: usize) -> usize {
    (row - 1) * marks.n + col - 1
}

/// Re-derives `step` from `marks`; the reason when it does not follow.
pub fn derive(marks: &Marks, step: &Step) -> Result<(), String> {
    let mut pattern: Vec<(usize, u8)> = Vec::new();
    for m in &step.pattern {
        let i = index(marks, m.row, m.col);
        if !marks.has(i, m.digit) {
            return Err(format!("pattern candidate {m:?} is not a candidate"));
        }
        pattern.push((i, m.digit));
    }
    let mut cells: Vec<usize> = step
        .cells
        .iter()
        .map(|c| index(marks, c.row, c.col))
        .collect();
    cells.extend(pattern.iter().map(|&(i, _)| i));
    let targets: Vec<(usize, u8)> = step
        .placements
        .iter()
        .chain(&step.eliminations)
        .map(|m| (index(marks, m.row, m.col), m.digit))
        .collect();
    cells.extend(targets.iter().map(|&(i, _)| i));
    cells.sort_unstable();
    cells.dedup();
    let doms: Vec<Dom> = cells
        .iter()
        .map(|&i| {
            let digits = pattern
                .iter()
                .filter(|&&(c, _)| c == i)
                .fold(0u64, |m, &(_, d)| m | 1 << (d - 1));
            Dom {
                digits,
                other: marks.cands[i] & !digits != 0,
            }
        })
        .collect();
    let mut musts = Vec::new();
    let mut sums = Vec::new();
    for house in &step.houses {
        if house.kind == HouseKind::Cage {
            let Some((members, sum)) = marks.cages.get(house.index - 1) else {
                return Err(format!("no {house}"));
            };
            let placed: i64 = members.iter().map(|&c| i64::from(marks.values[c])).sum();
            let empty: Vec<usize> = members
                .iter()
                .copied()
                .filter(|&c| marks.values[c] == 0)
                .collect();
            // Judged only when every empty cell of the cage is in the problem.
            if let Some(vars) = empty
                .iter()
                .map(|c| cells.iter().position(|x| x == c))
                .collect::<Option<Vec<usize>>>()
            {
                sums.push((vars, sum - placed));
            }
            continue;
        }
        let Some(members) = marks.house_cells(house.kind, house.index) else {
            return Err(format!("no {house} on this board"));
        };
        for d in 1..=marks.n as u8 {
            let places: Vec<usize> = members
                .iter()
                .copied()
                .filter(|&i| marks.has(i, d))
                .collect();
            if places.is_empty() || !places.iter().all(|p| pattern.contains(&(*p, d))) {
                continue;
            }
            let vars = places
                .iter()
                .map(|p| cells.iter().position(|c| c == p).expect("pattern cell"))
                .collect();
            musts.push((vars, d));
        }
    }
    let problem = Problem {
        marks,
        cells: cells.clone(),
        musts,
        sums,
        unique: step.technique.assumes_uniqueness(),
    };
    let var = |i: usize| cells.iter().position(|&c| c == i).expect("target cell");
    for m in &step.eliminations {
        let (i, d) = (index(marks, m.row, m.col), m.digit);
        if !marks.has(i, d) {
            return Err(format!("eliminates {m:?}, which is not a candidate"));
        }
        let mut trial = doms.clone();
        trial[var(i)] = Dom {
            digits: 1 << (d - 1),
            other: false,
        };
        if problem.satisfiable(&mut trial) {
            return Err(format!(
                "elimination {m:?} does not follow from the pattern"
            ));
        }
    }
    for m in &step.placements {
        let (i, d) = (index(marks, m.row, m.col), m.digit);
        if !marks.has(i, d) {
            return Err(format!("places {m:?}, which is not a candidate"));
        }
        let mut trial = doms.clone();
        let v = var(i);
        trial[v].digits &= !(1 << (d - 1));
        // Without the digit, the cell may hold any other candidate it has.
        trial[v].other |= marks.cands[i] & !(1 << (d - 1)) & !trial[v].digits != 0;
        if problem.satisfiable(&mut trial) {
            return Err(format!("placement {m:?} does not follow from the pattern"));
        }
    }
    Ok(())
}

/// Applies a step's placements and eliminations.
pub fn apply(marks: &mut Marks, step: &Step) {
    for m in &step.placements {
        let i = index(marks, m.row, m.col);
        marks.place(i, m.digit);
    }
    for m in &step.eliminations {
        let i = index(marks, m.row, m.col);
        marks.cands[i] &= !(1 << (m.digit - 1));
    }
}

/// Replays `explanation` of `puzzle` from its givens, deriving every step but guesses
/// (which must agree with the solution); returns the number of guesses.
pub fn replay(puzzle: &Board, explanation: &Explanation) -> Result<usize, String> {
    explanation
        .solution
        .check_solves(puzzle)
        .map_err(|e| format!("the solution does not solve the puzzle: {e}"))?;
    replay_from(Marks::new(puzzle), explanation)
}

/// [`replay`] for a variant puzzle, with its own rules.
pub fn replay_variant(puzzle: &VariantPuzzle, explanation: &Explanation) -> Result<usize, String> {
    puzzle
        .check_solution(&explanation.solution)
        .map_err(|e| format!("the solution does not solve the puzzle: {e}"))?;
    replay_from(Marks::for_variant(puzzle), explanation)
}

fn replay_from(mut marks: Marks, explanation: &Explanation) -> Result<usize, String> {
    let mut guesses = 0;
    for (k, step) in explanation.steps.iter().enumerate() {
        if step.technique == Technique::Guess {
            guesses += 1;
            let ok = step.placements.len() == 1
                && step.eliminations.is_empty()
                && step
                    .placements
                    .iter()
                    .all(|m| explanation.solution.get(m.row - 1, m.col - 1) == Some(m.digit));
            if !ok {
                return Err(format!(
                    "step {}: a guess must place one solution digit",
                    k + 1
                ));
            }
        } else {
            derive(&marks, step).map_err(|e| format!("step {} ({step}): {e}", k + 1))?;
        }
        apply(&mut marks, step);
    }
    if marks.values != explanation.solution.cells() {
        return Err("the steps do not end in the solution".into());
    }
    if guesses != explanation.guesses {
        return Err(format!(
            "{guesses} guess steps, {} counted",
            explanation.guesses
        ));
    }
    Ok(guesses)
}
