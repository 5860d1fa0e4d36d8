//! Quasigroup-with-holes instances: a random Latin square of order n (the Jacobson–Matthews
//! Markov chain, which samples Latin squares uniformly in the limit), a share of its cells
//! kept uniformly at random, the rest holes. Every instance has a solution (the square).
//!
//! `cargo run --release -p bitcsp-compare --bin qwh -- --out DIR [--orders 30,35,40,45,50]
//! [--seeds 1..=3] [--keep 0.42]`
//!
//! Writes `DIR/qwh/qwh.mzn`, one `DIR/qwh/qwh-N-sSEED.dzn` per instance and
//! `DIR/reference.csv`, the layout `minizinc_suite --data DIR` reads: both solvers then run
//! the same instances through MiniZinc in one run, and Gecode checks bitcsp's solutions.
//! The instances depend only on the order, the seed and the share kept.

use std::path::PathBuf;

/// The model both solvers run: a Latin square with the givens fixed.
const MODEL: &str = "\
% Quasigroup with holes: complete a partial Latin square (0 marks a hole).
include \"alldifferent.mzn\";
int: n;
array[1..n, 1..n] of 0..n: given;
array[1..n, 1..n] of var 1..n: q;
constraint forall(i, j in 1..n where given[i, j] > 0)(q[i, j] = given[i, j]);
constraint forall(i in 1..n)(alldifferent([q[i, j] | j in 1..n]));
constraint forall(j in 1..n)(alldifferent([q[i, j] | i in 1..n]));
solve satisfy;
output [\"q = \", show(q), \";\\n\"];
";

/// A xorshift generator, seeded away from zero.
struct Random(u64);

impl Random {
    fn new(seed: u64) -> Self {
        Random(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1)
    }

    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }

    /// A number in `0..n`.
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

/// The incidence cube of a Latin square: `cube[(r * n + c) * n + s]` is 1 when cell
/// (r, c) holds symbol s. During the chain one entry may be -1 (an improper square).
struct Cube {
    n: usize,
    cube: Vec<i8>,
}

impl Cube {
    fn cyclic(n: usize) -> Self {
        let mut cube = vec![0; n * n * n];
        for r in 0..n {
            for c in 0..n {
                cube[(r * n + c) * n + (r + c) % n] = 1;
            }
        }
        Cube { n, cube }
    }

    fn at(&self, r: usize, c: usize, s: usize) -> i8 {
        self.cube[(r * self.n + c) * self.n + s]
    }

    fn add(&mut self, r: usize, c: usize, s: usize, d: i8) {
        let n = self.n;
        self.cube[(r * n + c) * n + s] += d;
    }

    /// The indices `i` along one line where `value(i)` is 1, at most two.
    fn ones(&self, value: impl Fn(usize) -> i8) -> Vec<usize> {
        (0..self.n).filter(|&i| value(i) == 1).collect()
    }

    /// One step of the chain from (r, c, s), a 0 cell of a proper cube or the -1 cell of
    /// an improper one; returns the -1 cell the step leaves, if any.
    fn step(
        &mut self,
        (r, c, s): (usize, usize, usize),
        random: &mut Random,
    ) -> Option<(usize, usize, usize)> {
        let pick = |v: Vec<usize>, random: &mut Random| v[random.below(v.len())];
        let r2 = pick(self.ones(|i| self.at(i, c, s)), random);
        let c2 = pick(self.ones(|i| self.at(r, i, s)), random);
        let s2 = pick(self.ones(|i| self.at(r, c, i)), random);
        for (a, b, d, sign) in [
            (r, c, s, 1),
            (r, c2, s2, 1),
            (r2, c, s2, 1),
            (r2, c2, s, 1),
            (r, c, s2, -1),
            (r, c2, s, -1),
            (r2, c, s, -1),
            (r2, c2, s2, -1),
        ] {
            self.add(a, b, d, sign);
        }
        (self.at(r2, c2, s2) == -1).then_some((r2, c2, s2))
    }

    /// Runs the chain for at least `moves` steps and until the square is proper again.
    fn shuffle(&mut self, moves: usize, random: &mut Random) {
        let n = self.n;
        let mut improper = None;
        let mut done = 0;
        while done < moves || improper.is_some() {
            let cell = match improper {
                Some(cell) => cell,
                None => loop {
                    let (r, c, s) = (random.below(n), random.below(n), random.below(n));
                    if self.at(r, c, s) == 0 {
                        break (r, c, s);
                    }
                },
            };
            improper = self.step(cell, random);
            done += 1;
        }
    }

    /// The square's symbols, 1-based, in row order.
    fn square(&self) -> Vec<usize> {
        let n = self.n;
        (0..n * n)
            .map(|cell| {
                (0..n)
                    .find(|&s| self.cube[cell * n + s] == 1)
                    .map_or(0, |s| s + 1)
            })
            .collect()
    }
}

/// The random Latin square of order `n` for `seed`, and the partial square with
/// `round(keep * n²)` of its cells kept, chosen uniformly (holes are 0).
fn instance(n: usize, seed: u64, keep: f64) -> (Vec<usize>, Vec<usize>) {
    let mut random = Random::new(seed ^ (n as u64) << 32);
    let mut cube = Cube::cyclic(n);
    cube.shuffle(n * n * n, &mut random);
    let full = cube.square();
    let mut square = full.clone();
    let mut cells: Vec<usize> = (0..n * n).collect();
    for i in (1..cells.len()).rev() {
        cells.swap(i, random.below(i + 1));
    }
    let kept = ((n * n) as f64 * keep).round() as usize;
    for &cell in &cells[kept.min(n * n)..] {
        square[cell] = 0;
    }
    (full, square)
}

fn is_latin(square: &[usize], n: usize) -> bool {
    (0..n).all(|i| {
        let mut row = vec![false; n + 1];
        let mut col = vec![false; n + 1];
        (0..n).all(|j| {
            let (a, b) = (square[i * n + j], square[j * n + i]);
            (1..=n).contains(&a)
                && (1..=n).contains(&b)
                && !std::mem::replace(&mut row[a], true)
                && !std::mem::replace(&mut col[b], true)
        })
    })
}

fn dzn(n: usize, square: &[usize]) -> String {
    let rows: Vec<String> = square
        .chunks(n)
        .map(|row| {
            row.iter()
                .map(|v| v.to_string())
                .collect::<Vec<_>>()
                .join(",")
        })
        .collect();
    format!("n = {n};\ngiven = [|{}|];\n", rows.join("\n|"))
}

fn arg(name: &str) -> Option<String> {
    let args: Vec<String> = std::env::args().collect();
    args.iter()
        .position(|a| a == name)
        .and_then(|i| args.get(i + 1).cloned())
}

fn main() -> std::io::Result<()> {
    let Some(out) = arg("--out").map(PathBuf::from) else {
        eprintln!("usage: qwh --out DIR [--orders 30,35,40,45,50] [--seeds 1..=3] [--keep 0.42]");
        std::process::exit(2);
    };
    let orders: Vec<usize> = arg("--orders")
        .unwrap_or_else(|| "30,35,40,45,50".into())
        .split(',')
        .map(|o| o.trim().parse().expect("an order"))
        .collect();
    let seeds = arg("--seeds").unwrap_or_else(|| "1..=3".into());
    let (from, to) = seeds.split_once("..=").expect("A..=B");
    let (from, to): (u64, u64) = (from.parse().expect("A"), to.parse().expect("B"));
    let keep: f64 = arg("--keep").and_then(|k| k.parse().ok()).unwrap_or(0.42);
    let folder = out.join("qwh");
    std::fs::create_dir_all(&folder)?;
    std::fs::write(folder.join("qwh.mzn"), MODEL)?;
    let mut reference = String::from(
        "family,model,data,kind,status,objective,gecode_seconds,gecode_config,uses_sets\n",
    );
    for &n in &orders {
        for seed in from..=to {
            let (full, partial) = instance(n, seed, keep);
            assert!(is_latin(&full, n), "the chain must end on a Latin square");
            let name = format!("qwh-{n}-s{seed}.dzn");
            std::fs::write(folder.join(&name), dzn(n, &partial))?;
            reference.push_str(&format!("qwh,qwh.mzn,{name},sat,SATISFIED,,-,,no\n"));
        }
    }
    std::fs::write(out.join("reference.csv"), reference)?;
    println!(
        "{} instances in {}",
        orders.len() as u64 * (to + 1 - from),
        out.display()
    );
    Ok(())
}
