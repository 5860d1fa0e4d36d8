//! Random job shops in Taillard's style: each job visits every machine once, in an order
//! drawn uniformly at random, each operation taking 1 to 99 time units drawn uniformly.
//!
//! `cargo run --release -p bitcsp-compare --bin jobshops -- --out DIR [--sizes 10x5,15x5,8x8]
//! [--seeds 1..=3]`
//!
//! Writes `DIR/jobshop/jobshop.mzn` (a textbook model with no search annotation: both
//! solvers search as they choose), one `DIR/jobshop/js-JxM-sSEED.dzn` per instance and
//! `DIR/reference.csv`, the layout `minizinc_suite --data DIR` reads: both solvers then run
//! the same instances through MiniZinc in one run, and Gecode checks bitcsp's schedules.
//! The instances depend only on the size and the seed.

use std::path::PathBuf;

/// The model both solvers run: precedences within a job, and two operations on one
/// machine one after the other, in either order; the makespan minimised.
const MODEL: &str = "\
% Job shop: every job visits every machine once, in its own order; minimise the makespan.
int: jobs;
int: machines;
array[1..jobs, 1..machines] of 1..machines: machine;
array[1..jobs, 1..machines] of int: duration;
int: horizon = sum(duration);
array[1..jobs, 1..machines] of var 0..horizon: start;
var 0..horizon: makespan;
constraint forall(j in 1..jobs, k in 1..machines - 1)(
  start[j, k] + duration[j, k] <= start[j, k + 1]);
constraint forall(j in 1..jobs)(start[j, machines] + duration[j, machines] <= makespan);
constraint forall(m in 1..machines, j1, j2 in 1..jobs, k1, k2 in 1..machines
    where j1 < j2 /\\ machine[j1, k1] = m /\\ machine[j2, k2] = m)(
  start[j1, k1] + duration[j1, k1] <= start[j2, k2]
  \\/ start[j2, k2] + duration[j2, k2] <= start[j1, k1]);
solve minimize makespan;
output [\"makespan = \", show(makespan), \";\\nstart = \", show(start), \";\\n\"];
";

/// A xorshift generator, seeded away from zero.
struct Random(u64);

impl Random {
    fn new(seed: u64) -> Self {
        Random(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1)
    }

    /// A number in `0..n`.
    fn below(&mut self, n: usize) -> usize {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        (self.0 % n as u64) as usize
    }
}

/// The machine orders (1-based) and durations of a `jobs` × `machines` shop, row by job.
fn instance(jobs: usize, machines: usize, seed: u64) -> (Vec<usize>, Vec<usize>) {
    let mut random = Random::new(seed ^ ((jobs as u64) << 40) ^ ((machines as u64) << 20));
    let mut order = Vec::with_capacity(jobs * machines);
    let mut duration = Vec::with_capacity(jobs * machines);
    for _ in 0..jobs {
        let mut visits: Vec<usize> = (1..=machines).collect();
        for i in (1..machines).rev() {
            visits.swap(i, random.below(i + 1));
        }
        order.extend(visits);
        duration.extend((0..machines).map(|_| 1 + random.below(99)));
    }
    (order, duration)
}

fn matrix(values: &[usize], columns: usize) -> String {
    let rows: Vec<String> = values
        .chunks(columns)
        .map(|row| {
            row.iter()
                .map(|v| v.to_string())
                .collect::<Vec<_>>()
                .join(", ")
        })
        .collect();
    format!("[|{}|]", rows.join("\n |"))
}

fn arg(name: &str) -> Option<String> {
    let args: Vec<String> = std::env::args().collect();
    args.iter()
        .position(|a| a == name)
        .and_then(|i| args.get(i + 1).cloned())
}

fn size(text: &str) -> (usize, usize) {
    let (jobs, machines) = text.split_once('x').expect("JOBSxMACHINES");
    (
        jobs.trim().parse().expect("jobs"),
        machines.trim().parse().expect("machines"),
    )
}

fn main() -> std::io::Result<()> {
    let Some(out) = arg("--out").map(PathBuf::from) else {
        eprintln!("usage: jobshops --out DIR [--sizes 10x5,15x5,8x8] [--seeds 1..=3]");
        std::process::exit(2);
    };
    let sizes: Vec<(usize, usize)> = arg("--sizes")
        .unwrap_or_else(|| "10x5,15x5,8x8".into())
        .split(',')
        .map(size)
        .collect();
    let seeds = arg("--seeds").unwrap_or_else(|| "1..=3".into());
    let (from, to) = seeds.split_once("..=").expect("A..=B");
    let (from, to): (u64, u64) = (from.parse().expect("A"), to.parse().expect("B"));
    let folder = out.join("jobshop");
    std::fs::create_dir_all(&folder)?;
    std::fs::write(folder.join("jobshop.mzn"), MODEL)?;
    let mut reference = String::from(
        "family,model,data,kind,status,objective,gecode_seconds,gecode_config,uses_sets\n",
    );
    for &(jobs, machines) in &sizes {
        for seed in from..=to {
            let (order, duration) = instance(jobs, machines, seed);
            let name = format!("js-{jobs}x{machines}-s{seed}.dzn");
            let data = format!(
                "jobs = {jobs};\nmachines = {machines};\nmachine = {};\nduration = {};\n",
                matrix(&order, machines),
                matrix(&duration, machines)
            );
            std::fs::write(folder.join(&name), data)?;
            reference.push_str(&format!(
                "jobshop,jobshop.mzn,{name},min,SATISFIED,,-,-G gecode_presolver,no\n"
            ));
        }
    }
    std::fs::write(out.join("reference.csv"), reference)?;
    println!(
        "{} instances in {}",
        sizes.len() as u64 * (to + 1 - from),
        out.display()
    );
    Ok(())
}
