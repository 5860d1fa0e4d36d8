//! Alternating inference chains: X-chains (one digit), XY-chains (bivalue cells) and
//! AICs (both), found shortest first by a breadth-first search over candidates.
//!
//! A chain alternates strong links (at least one end is true: the two places of a
//! digit in a house, or the two candidates of a bivalue cell) and weak links (at most
//! one end is true: one digit in two cells that see each other, or two digits of one
//! cell). Starting from "the first candidate is false", each strong link makes the next
//! true and each weak link the next false; ending on a strong link proves that one of
//! the two ends is true, which removes whatever contradicts both.

use super::super::digits::Digits;
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
    /// Any strong and weak links.
    Any,
}

/// Chains longer than this many links are not looked for: a person would not follow
/// them.
const MAX_LINKS: usize = 24;

/// The shortest productive chain of `kind`.
pub fn chain(grid: &Grid, kind: Kind) -> Option<Found> {
    let mut search = Search::new(grid, kind);
    let starts: Vec<u32> = search.candidates();
    for s in starts {
        search.from(s);
    }
    let (path, result) = search.best.take()?;
    Some(search.describe(&path, result))
}

/// What a chain from `s` to `e` proves.
enum Result {
    /// Candidates that contradict both ends.
    Eliminations(Vec<(usize, u8)>),
    /// The chain came back to its start as true: the start is true.
    Placement(usize, u8),
}

struct Search<'a, 'g> {
    grid: &'a Grid<'g>,
    kind: Kind,
    n: usize,
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
        let states = grid.geo.cells() * n * 2;
        Search {
            grid,
            kind,
            n,
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

    fn split(&self, node: u32) -> (usize, u8) {
        let node = node as usize;
        (node / self.n, (node % self.n) as u8 + 1)
    }

    /// The candidates a chain of this kind may start from.
    fn candidates(&self) -> Vec<u32> {
        let grid = self.grid;
        grid.empty_cells()
            .filter(|&c| self.kind != Kind::Xy || grid.count(c) == 2)
            .flat_map(|c| Digits(grid.cands[c]).iter().map(move |d| (c, d)))
            .map(|(c, d)| self.node(c, d))
            .collect()
    }

    /// The house where `a` and `b` are the only places of `d`, if any.
    fn conjugate_house(&self, a: usize, b: usize, d: u8) -> Option<usize> {
        let geo = self.grid.geo;
        (0..3).map(|k| geo.houses_of[a][k]).find(|&h| {
            geo.houses_of[b][k_of(geo.side, h)] == h && self.grid.places(h, d).count_ones() == 2
        })
    }

    /// The nodes strongly linked to `node`.
    fn strong(&self, node: u32, out: &mut Vec<u32>) {
        let (cell, d) = self.split(node);
        let grid = self.grid;
        if self.kind != Kind::X && grid.count(cell) == 2 {
            if let Some(e) = Digits(grid.cands[cell] & !super::super::digits::bit(d)).first() {
                out.push(self.node(cell, e));
            }
        }
        if self.kind != Kind::Xy {
            for k in 0..3 {
                let h = grid.geo.houses_of[cell][k];
                let mut places = grid.cells_with(h, d).filter(|&c| c != cell);
                if let (Some(o), None) = (places.next(), places.next()) {
                    out.push(self.node(o, d));
                }
            }
        }
    }

    /// The nodes weakly linked to `node`.
    fn weak(&self, node: u32, out: &mut Vec<u32>) {
        let (cell, d) = self.split(node);
        let grid = self.grid;
        for &p in &grid.geo.peers[cell] {
            if grid.has(p, d) && (self.kind != Kind::Xy || grid.count(p) == 2) {
                out.push(self.node(p, d));
            }
        }
        if self.kind == Kind::Any {
            for e in Digits(grid.cands[cell]).iter().filter(|&e| e != d) {
                out.push(self.node(cell, e));
            }
        }
    }

    /// Breadth-first from "`s` is false", keeping the shortest productive chain.
    fn from(&mut self, s: u32) {
        self.now += 1;
        let start = s * 2;
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
            let (node, truth) = (state / 2, state % 2);
            links.clear();
            if truth == 0 {
                self.strong(node, &mut links);
            } else {
                self.weak(node, &mut links);
            }
            for &m in &links {
                let next = m * 2 + (1 - truth);
                if self.stamp[next as usize] == self.now {
                    continue;
                }
                self.stamp[next as usize] = self.now;
                self.parent[next as usize] = state;
                self.depth[next as usize] = (depth + 1) as u16;
                self.queue.push(next);
                if truth == 1 {
                    continue;
                }
                // A true end, reached over a strong link.
                if let Some(result) = self.proves(s, m) {
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
            let (c, d) = self.split(s);
            return Some(Result::Placement(c, d));
        }
        let ((c1, d1), (c2, d2)) = (self.split(s), self.split(e));
        let eliminations: Vec<(usize, u8)> = if c1 == c2 {
            Digits(grid.cands[c1])
                .iter()
                .filter(|&d| d != d1 && d != d2)
                .map(|d| (c1, d))
                .collect()
        } else if d1 == d2 {
            geo.peers[c1]
                .iter()
                .copied()
                .filter(|&c| c != c2 && geo.sees(c, c2) && grid.has(c, d1))
                .map(|c| (c, d1))
                .collect()
        } else if geo.sees(c1, c2) {
            [(c1, d2), (c2, d1)]
                .into_iter()
                .filter(|&(c, d)| grid.has(c, d))
                .collect()
        } else {
            Vec::new()
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
            let (cell, d) = self.split(state / 2);
            if i > 0 {
                // States alternate false, true: a link into a true state is strong.
                text.push_str(if state % 2 == 1 { " = " } else { " - " });
                if state % 2 == 1 {
                    let (prev, _) = self.split(path[i - 1] / 2);
                    if prev != cell {
                        if let Some(h) = self.conjugate_house(prev, cell, d) {
                            if !f.houses.contains(&h) {
                                f.houses.push(h);
                            }
                        }
                    }
                }
            }
            text.push_str(&format!("({}){}", symbol(d), geo.cell(cell)));
            if !f.pattern.contains(&(cell, d)) {
                f.pattern.push((cell, d));
            }
            if !f.cells.contains(&cell) {
                f.cells.push(cell);
            }
        }
        match result {
            Result::Eliminations(e) => f.eliminations = e,
            Result::Placement(c, d) => {
                text.push_str(" (the start is true)");
                f.placements.push((c, d));
            }
        }
        f.summary = text;
        f
    }
}

/// Which of a cell's three houses (row 0, column 1, box 2) house `h` is.
fn k_of(side: usize, h: usize) -> usize {
    h / side
}
