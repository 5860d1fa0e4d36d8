//! Alternating inference chains: X-chains (one digit), XY-chains (bivalue cells) and
//! AICs (both), found shortest first by a breadth-first search over candidates.
//!
//! A chain alternates strong links (at least one end is true: the two places of a
//! digit in a house, or the two candidates of a bivalue cell) and weak links (at most
//! one end is true: one digit in two cells that see each other, or two digits of one
//! cell). Starting from "the first candidate is false", each strong link makes the next
//! true and each weak link the next false; ending on a strong link proves that one of
//! the two ends is true, which removes whatever contradicts both. AICs also use groups:
//! the places of a digit where a box meets a row or column, as one node ("one of these
//! cells holds the digit").

use smallvec::SmallVec;

use super::super::digits::{bit, Digits};
use super::super::grid::Grid;
use super::super::step::{symbol, Found};
use super::super::technique::Technique;

/// Which links a chain may use.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// One digit: conjugate pairs and peers.
    X,
    /// Bivalue cells, joined by one digit between cells that see each other.
    Xy,
    /// Any strong and weak links, with groups.
    Any,
}

/// Chains longer than this many links are not looked for: a person would not follow
/// them.
const MAX_LINKS: usize = 24;

/// The shortest productive chain of `kind`.
pub fn chain(grid: &Grid, kind: Kind) -> Option<Found> {
    let mut search = Search::new(grid, kind);
    let starts: Vec<u32> = search.starts();
    for &s in &starts {
        search.from(s, 0);
    }
    for &s in &starts {
        search.from(s, 1);
    }
    let (path, result) = search.best.take()?;
    Some(search.describe(&path, result))
}

/// What a chain proves.
enum Result {
    /// Candidates that contradict both ends.
    Eliminations(Vec<(usize, u8)>),
    /// The chain came back to its start as true: the start is true.
    Placement(usize, u8),
    /// The chain from "the start is true" came back to it as false: the start's
    /// candidates are false.
    Contradiction(Vec<(usize, u8)>),
}

/// The places of a digit where a box meets a line, two or more.
struct Group {
    cells: Vec<usize>,
    digit: u8,
}

/// The cells of a node and its digit.
type Cells = SmallVec<[usize; 4]>;

struct Search<'a, 'g> {
    grid: &'a Grid<'g>,
    kind: Kind,
    n: usize,
    /// Node numbers from this one on are groups.
    first_group: u32,
    groups: Vec<Group>,
    /// The groups inside each house for each digit (index `house * n + digit - 1`).
    groups_in: Vec<Vec<u32>>,
    /// Parent state of each visited state (node * 2 + truth).
    parent: Vec<u32>,
    depth: Vec<u16>,
    stamp: Vec<u32>,
    now: u32,
    queue: Vec<u32>,
    best: Option<(Vec<u32>, Result)>,
    best_len: usize,
}

impl<'a, 'g> Search<'a, 'g> {
    fn new(grid: &'a Grid<'g>, kind: Kind) -> Self {
        let n = grid.geo.side;
        let first_group = (grid.geo.cells() * n) as u32;
        let groups = if kind == Kind::Any {
            groups(grid)
        } else {
            Vec::new()
        };
        let states = (first_group as usize + groups.len()) * 2;
        let mut groups_in = vec![Vec::new(); grid.geo.houses.len() * n];
        for (i, g) in groups.iter().enumerate() {
            let geo = grid.geo;
            for h in geo.houses_of[g.cells[0]] {
                if g.cells.iter().all(|&c| geo.houses_of[c].contains(&h)) {
                    groups_in[h * n + g.digit as usize - 1].push(first_group + i as u32);
                }
            }
        }
        Search {
            grid,
            kind,
            n,
            first_group,
            groups,
            groups_in,
            parent: vec![0; states],
            depth: vec![0; states],
            stamp: vec![0; states],
            now: 0,
            queue: Vec::new(),
            best: None,
            best_len: MAX_LINKS + 1,
        }
    }

    fn node(&self, cell: usize, d: u8) -> u32 {
        (cell * self.n + d as usize - 1) as u32
    }

    /// The cells and digit of a node.
    fn split(&self, node: u32) -> (Cells, u8) {
        if node >= self.first_group {
            let g = &self.groups[(node - self.first_group) as usize];
            return (g.cells.iter().copied().collect(), g.digit);
        }
        let node = node as usize;
        let mut cells = Cells::new();
        cells.push(node / self.n);
        (cells, (node % self.n) as u8 + 1)
    }

    /// The single cell of a cell node.
    fn cell_of(&self, node: u32) -> Option<(usize, u8)> {
        (node < self.first_group).then(|| {
            let node = node as usize;
            (node / self.n, (node % self.n) as u8 + 1)
        })
    }

    /// The node whose cells are exactly `cells` (a cell, or a group in house `h`),
    /// holding `d`.
    fn node_of(&self, h: usize, cells: &[usize], d: u8) -> Option<u32> {
        match cells {
            [] => None,
            [c] => Some(self.node(*c, d)),
            _ => self.groups_in[h * self.n + d as usize - 1]
                .iter()
                .copied()
                .find(|&g| self.groups[(g - self.first_group) as usize].cells == cells),
        }
    }

    /// The nodes a chain of this kind may start from.
    fn starts(&self) -> Vec<u32> {
        let grid = self.grid;
        let mut out: Vec<u32> = grid
            .empty_cells()
            .filter(|&c| self.kind != Kind::Xy || grid.count(c) == 2)
            .flat_map(|c| Digits(grid.cands[c]).iter().map(move |d| (c, d)))
            .map(|(c, d)| self.node(c, d))
            .collect();
        out.extend((0..self.groups.len() as u32).map(|g| self.first_group + g));
        out
    }

    /// The houses holding every cell of `cells`.
    fn houses_of(&self, cells: &[usize]) -> impl Iterator<Item = usize> + '_ {
        let geo = self.grid.geo;
        let all: Cells = cells.iter().copied().collect();
        let first: &[usize] = cells.first().map_or(&[], |&c| &geo.all_houses_of[c]);
        first
            .iter()
            .copied()
            .filter(move |&h| all.iter().all(|&c| geo.all_houses_of[c].contains(&h)))
    }

    /// The nodes strongly linked to `node`.
    fn strong(&self, node: u32, out: &mut Vec<u32>) {
        let (cells, d) = self.split(node);
        let grid = self.grid;
        if let Some((cell, _)) = self.cell_of(node) {
            if self.kind != Kind::X && grid.count(cell) == 2 {
                if let Some(e) = Digits(grid.cands[cell] & !bit(d)).first() {
                    out.push(self.node(cell, e));
                }
            }
        }
        if self.kind == Kind::Xy {
            return;
        }
        let houses: Cells = self.houses_of(&cells).collect();
        for h in houses {
            let rest: Cells = grid
                .cells_with(h, d)
                .filter(|c| !cells.contains(c))
                .collect();
            if let Some(m) = self.node_of(h, &rest, d) {
                out.push(m);
            }
        }
    }

    /// The nodes weakly linked to `node`.
    fn weak(&self, node: u32, out: &mut Vec<u32>) {
        let (cells, d) = self.split(node);
        let grid = self.grid;
        let geo = grid.geo;
        let sees_all = |c: usize| cells.iter().all(|&o| geo.sees(c, o));
        for &p in &geo.peers[cells[0]] {
            if grid.has(p, d) && sees_all(p) && (self.kind != Kind::Xy || grid.count(p) == 2) {
                out.push(self.node(p, d));
            }
        }
        for h in geo.houses_of[cells[0]] {
            for &g in &self.groups_in[h * self.n + d as usize - 1] {
                let group = &self.groups[(g - self.first_group) as usize];
                if group.cells.iter().all(|&c| sees_all(c)) {
                    out.push(g);
                }
            }
        }
        if let (Kind::Any, Some((cell, _))) = (self.kind, self.cell_of(node)) {
            for e in Digits(grid.cands[cell]).iter().filter(|&e| e != d) {
                out.push(self.node(cell, e));
            }
        }
    }

    /// Breadth-first from "`s` is false" (`truth` 0), keeping the shortest chain whose
    /// ends remove something; or from "`s` is true" (`truth` 1), looking for a way back
    /// to "`s` is false", which removes `s`.
    fn from(&mut self, s: u32, truth: u32) {
        self.now += 1;
        let start = s * 2 + truth;
        self.stamp[start as usize] = self.now;
        self.depth[start as usize] = 0;
        self.queue.clear();
        self.queue.push(start);
        let mut head = 0;
        let mut links = Vec::new();
        while head < self.queue.len() {
            let state = self.queue[head];
            head += 1;
            let depth = self.depth[state as usize] as usize;
            if depth + 1 >= self.best_len {
                return;
            }
            let (node, now_true) = (state / 2, state % 2 == 1);
            links.clear();
            if now_true {
                self.weak(node, &mut links);
            } else {
                self.strong(node, &mut links);
            }
            for &m in &links {
                let next = m * 2 + u32::from(!now_true);
                if self.stamp[next as usize] == self.now {
                    continue;
                }
                self.stamp[next as usize] = self.now;
                self.parent[next as usize] = state;
                self.depth[next as usize] = (depth + 1) as u16;
                self.queue.push(next);
                let result = if truth == 1 {
                    (next == s * 2).then(|| {
                        let (cells, d) = self.split(s);
                        Result::Contradiction(cells.iter().map(|&c| (c, d)).collect())
                    })
                } else if now_true {
                    None
                } else {
                    // A true end, reached over a strong link.
                    self.proves(s, m)
                };
                if let Some(result) = result {
                    self.best = Some((self.path(next), result));
                    self.best_len = depth + 1;
                    return;
                }
            }
        }
    }

    /// What "`s` or `e`" removes, if anything.
    fn proves(&self, s: u32, e: u32) -> Option<Result> {
        let grid = self.grid;
        let geo = grid.geo;
        if s == e {
            let (c, d) = self.cell_of(s)?;
            return Some(Result::Placement(c, d));
        }
        let ((cs, d1), (ce, d2)) = (self.split(s), self.split(e));
        let eliminations: Vec<(usize, u8)> = match (self.cell_of(s), self.cell_of(e)) {
            (Some((c1, _)), Some((c2, _))) if c1 == c2 => Digits(grid.cands[c1])
                .iter()
                .filter(|&d| d != d1 && d != d2)
                .map(|d| (c1, d))
                .collect(),
            _ if d1 == d2 => geo.peers[cs[0]]
                .iter()
                .copied()
                .filter(|c| !cs.contains(c) && !ce.contains(c) && grid.has(*c, d1))
                .filter(|&c| cs.iter().chain(&ce).all(|&o| geo.sees(c, o)))
                .map(|c| (c, d1))
                .collect(),
            (Some((c1, _)), Some((c2, _))) if geo.sees(c1, c2) => [(c1, d2), (c2, d1)]
                .into_iter()
                .filter(|&(c, d)| grid.has(c, d))
                .collect(),
            _ => Vec::new(),
        };
        (!eliminations.is_empty()).then_some(Result::Eliminations(eliminations))
    }

    /// The states from the start to `end`.
    fn path(&self, end: u32) -> Vec<u32> {
        let mut path = vec![end];
        let mut at = end;
        while self.depth[at as usize] > 0 {
            at = self.parent[at as usize];
            path.push(at);
        }
        path.reverse();
        path
    }

    /// The house where the two nodes are all the places of `d`, for a strong link
    /// between cells.
    fn link_house(&self, a: &[usize], b: &[usize], d: u8) -> Option<usize> {
        let both: Cells = a.iter().chain(b).copied().collect();
        let found = self
            .houses_of(&both)
            .find(|&h| self.grid.places(h, d).count_ones() as usize == both.len());
        found
    }

    fn describe(&mut self, path: &[u32], result: Result) -> Found {
        let geo = self.grid.geo;
        let technique = match self.kind {
            Kind::X => Technique::XChain,
            Kind::Xy => Technique::XyChain,
            Kind::Any => Technique::Aic,
        };
        let mut text = String::new();
        let mut f = Found::new(technique, String::new());
        for (i, &state) in path.iter().enumerate() {
            let (cells, d) = self.split(state / 2);
            if i > 0 {
                // A link into a true state is strong.
                let strong = state % 2 == 1;
                text.push_str(if strong { " = " } else { " - " });
                let (prev, prev_d) = self.split(path[i - 1] / 2);
                if strong && prev_d == d {
                    if let Some(h) = self.link_house(&prev, &cells, d) {
                        if !f.houses.contains(&h) {
                            f.houses.push(h);
                        }
                    }
                }
            }
            let names: Vec<String> = cells.iter().map(|&c| geo.cell(c).to_string()).collect();
            text.push_str(&format!("({}){}", symbol(d), names.join("+")));
            for &cell in &cells {
                if !f.pattern.contains(&(cell, d)) {
                    f.pattern.push((cell, d));
                }
                if !f.cells.contains(&cell) {
                    f.cells.push(cell);
                }
            }
        }
        match result {
            Result::Eliminations(e) => f.eliminations = e,
            Result::Placement(c, d) => {
                text.push_str(" (the start is true)");
                f.placements.push((c, d));
            }
            Result::Contradiction(e) => {
                text.push_str(" (the start is false)");
                f.eliminations = e;
            }
        }
        f.summary = text;
        f
    }
}

/// The groups of the grid: for each box, each row or column through it and each digit,
/// the places of the digit where they meet, when there are two or more.
fn groups(grid: &Grid) -> Vec<Group> {
    let geo = grid.geo;
    let n = geo.side;
    let mut out = Vec::new();
    for b in 2 * n..3 * n {
        let mut lines: Vec<usize> = geo.houses[b]
            .iter()
            .flat_map(|&c| [geo.houses_of[c][0], geo.houses_of[c][1]])
            .collect();
        lines.sort_unstable();
        lines.dedup();
        for &l in &lines {
            for d in 1..=n as u8 {
                let cells: Vec<usize> = grid
                    .cells_with(b, d)
                    .filter(|&c| geo.houses_of[c].contains(&l))
                    .collect();
                if cells.len() >= 2 {
                    out.push(Group { cells, digit: d });
                }
            }
        }
    }
    out
}
