//! Sum constraints through the library in a page: SEND + MORE = MONEY, and the 3×3 magic
//! squares.
//!
//! Run with `cargo run --example sums`.

use bitcsp::{Model, ModelError, Relation, Solver, VarId};

fn main() -> Result<(), ModelError> {
    // Eight different digits; S and M lead their numbers, so neither is 0.
    let mut m = Model::new();
    let letters = m.new_vars(8, 0..=9)?;
    let [s, e, n, d, big_m, o, r, y] = [0, 1, 2, 3, 4, 5, 6, 7].map(|i| letters[i]);
    m.remove_value(s, 0)?;
    m.remove_value(big_m, 0)?;
    m.all_different(&letters)?;
    // SEND + MORE - MONEY = 0, one term per letter and place value.
    let terms: [(VarId, i32); 13] = [
        (s, 1000),
        (e, 100),
        (n, 10),
        (d, 1),
        (big_m, 1000),
        (o, 100),
        (r, 10),
        (e, 1),
        (big_m, -10000),
        (o, -1000),
        (n, -100),
        (e, -10),
        (y, -1),
    ];
    let (vars, coeffs): (Vec<VarId>, Vec<i32>) = terms.into_iter().unzip();
    m.weighted_sum(&vars, &coeffs, Relation::Equal, 0)?;
    if let Some(sol) = Solver::new(&m).solve().solution() {
        let v = |x: VarId| sol.value(x);
        println!(
            "  {}{}{}{}\n+ {}{}{}{}\n={}{}{}{}{}",
            v(s),
            v(e),
            v(n),
            v(d),
            v(big_m),
            v(o),
            v(r),
            v(e),
            v(big_m),
            v(o),
            v(n),
            v(e),
            v(y)
        );
    }

    // Magic squares: the digits 1-9, every row, column and diagonal summing to 15.
    let mut m = Model::new();
    let cells = m.new_vars(9, 1..=9)?;
    m.all_different(&cells)?;
    for line in [
        [0, 1, 2],
        [3, 4, 5],
        [6, 7, 8],
        [0, 3, 6],
        [1, 4, 7],
        [2, 5, 8],
        [0, 4, 8],
        [2, 4, 6],
    ] {
        m.sum(&line.map(|i| cells[i]), Relation::Equal, 15)?;
    }
    let mut solver = Solver::new(&m);
    for (k, square) in solver.solutions().enumerate() {
        let digits: Vec<i32> = cells.iter().map(|&c| square.value(c)).collect();
        println!("magic square {}: {:?}", k + 1, digits);
    }
    Ok(())
}
