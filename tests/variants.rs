//! Sudoku variants: every shared puzzle solved to its recorded solution and proved
//! unique, every unsatisfiable one refuted, malformed lines refused with the reason, and
//! every combination of variants on 4×4 boards against brute force over all 4×4 Latin
//! squares.

use bitcsp::sudoku::variants::{self, Variant, VariantError, VariantPuzzle, Variants};
use bitcsp::sudoku::Board;

const VARIANTS: [&str; 7] = [
    "x",
    "windoku",
    "jigsaw",
    "killer",
    "antiknight",
    "antiking",
    "nonconsecutive",
];

fn lines(file: &str) -> Vec<String> {
    std::fs::read_to_string(format!("tests/data/sudoku/variants/{file}"))
        .expect("test data")
        .lines()
        .filter(|l| !l.trim().is_empty() && !l.starts_with('#'))
        .map(str::to_owned)
        .collect()
}

#[test]
fn every_shared_puzzle_has_its_recorded_solution_and_no_other() {
    for name in VARIANTS {
        let variants: Variants = name.parse().unwrap();
        let puzzles = lines(&format!("{name}.txt"));
        let solutions = lines(&format!("{name}.solutions.txt"));
        assert_eq!(puzzles.len(), 40, "{name}");
        for (i, (line, expected)) in puzzles.iter().zip(&solutions).enumerate() {
            let puzzle = VariantPuzzle::parse(line, &variants, None)
                .unwrap_or_else(|e| panic!("{name} line {}: {e}", i + 1));
            let solution = variants::solve(&puzzle).unwrap().expect("a solution");
            assert_eq!(solution.to_line(), *expected, "{name} line {}", i + 1);
            puzzle.check_solution(&solution).unwrap();
            assert_eq!(
                variants::count_solutions(&puzzle, 2).unwrap().count,
                1,
                "{name} line {}",
                i + 1
            );
            // The recorded solution breaks no rule of the plain board either.
            assert!(Board::parse(expected).unwrap().is_complete());
        }
    }
}

#[test]
fn every_unsatisfiable_puzzle_is_proved_so() {
    for name in VARIANTS {
        let variants: Variants = name.parse().unwrap();
        for (i, line) in lines(&format!("{name}.unsat.txt")).iter().enumerate() {
            let puzzle = VariantPuzzle::parse(line, &variants, None).unwrap();
            let count = variants::count_solutions(&puzzle, 1).unwrap();
            assert_eq!(count.count, 0, "{name} unsat line {}", i + 1);
            assert_eq!(count.status, bitcsp::CountStatus::Complete);
        }
    }
}

/// The first line of a shared file, its fields.
fn fields(file: &str) -> Vec<String> {
    lines(file)[0].split(' ').map(str::to_owned).collect()
}

fn parse(line: &str, variants: &str) -> Result<VariantPuzzle, VariantError> {
    VariantPuzzle::parse(line, &variants.parse().unwrap(), None)
}

#[test]
fn malformed_lines_are_refused_with_the_reason() {
    let jig = fields("jigsaw.txt");
    let (givens, regions) = (&jig[0], &jig[1]);
    // Wrong number of fields, wrong lengths.
    assert!(matches!(
        parse(givens, "jigsaw"),
        Err(VariantError::Fields {
            expected: 2,
            found: 1,
            ..
        })
    ));
    assert!(matches!(
        parse(&format!("{givens} {}", &regions[1..]), "jigsaw"),
        Err(VariantError::Length { .. })
    ));
    assert!(matches!(
        parse(&format!("{} {regions}", &givens[1..]), "jigsaw"),
        Err(VariantError::Givens(_))
    ));
    // A region label used 8 and one 10 times.
    let first = regions.chars().next().unwrap();
    let other = regions.chars().find(|&c| c != first).unwrap();
    let at = regions.find(other).unwrap();
    let mut moved = regions.clone();
    moved.replace_range(at..at + 1, &first.to_string());
    let e = parse(&format!("{givens} {moved}"), "jigsaw").unwrap_err();
    assert!(matches!(e, VariantError::RegionSize { .. }), "{e}");
    // The boxes as regions (and, labelled A to I with sums of 45, as cages) are valid;
    // swapping the labels of the two far corners leaves regions 1 and 9 (cages A and I)
    // in two pieces; the one met first, 9 (I), is named.
    let boxes: String = (0..81)
        .map(|c: usize| char::from(b'1' + (c / 27 * 3 + c % 9 / 3) as u8))
        .collect();
    let corners_swapped = |labels: &str| -> String {
        let mut chars: Vec<char> = labels.chars().collect();
        chars.swap(0, 80);
        chars.into_iter().collect()
    };
    let empty = ".".repeat(81);
    parse(&format!("{empty} {boxes}"), "jigsaw").unwrap();
    let e = parse(&format!("{empty} {}", corners_swapped(&boxes)), "jigsaw").unwrap_err();
    assert!(
        matches!(&e, VariantError::NotConnected { kind: "region", label } if label == "9"),
        "{e}"
    );
    let box_cages: String = boxes
        .chars()
        .map(|c| char::from(c as u8 - b'1' + b'A'))
        .collect();
    let box_sums = "A=45,B=45,C=45,D=45,E=45,F=45,G=45,H=45,I=45";
    parse(&format!("{empty} {box_cages} {box_sums}"), "killer").unwrap();
    let e = parse(
        &format!("{empty} {} {box_sums}", corners_swapped(&box_cages)),
        "killer",
    )
    .unwrap_err();
    assert!(
        matches!(&e, VariantError::NotConnected { kind: "cage", label } if label == "I"),
        "{e}"
    );
    // A cage of more than 9 cells: the first row and the cell below its start; the other
    // cells in no cage.
    let big = format!("{}{}", "A".repeat(10), ".".repeat(71));
    let e = parse(&format!("{empty} {big} A=45"), "killer").unwrap_err();
    assert!(
        matches!(
            e,
            VariantError::CageTooLarge {
                size: 10,
                max: 9,
                ..
            }
        ),
        "{e}"
    );
    let killer = fields("killer.txt");
    let (kg, cages, sums) = (&killer[0], &killer[1], &killer[2]);
    let line = |c: &str, s: &str| format!("{kg} {c} {s}");
    parse(&line(cages, sums), "killer").unwrap();
    // A sum no distinct digits make, a cage without a sum, a sum without a cage.
    let first_label = cages.chars().next().unwrap();
    let impossible: String = sums
        .split(',')
        .map(|e| {
            if e.starts_with(first_label) {
                format!("{first_label}=99")
            } else {
                e.to_owned()
            }
        })
        .collect::<Vec<_>>()
        .join(",");
    assert!(matches!(
        parse(&line(cages, &impossible), "killer"),
        Err(VariantError::ImpossibleSum { sum: 99, .. })
    ));
    let missing: String = sums.split(',').skip(1).collect::<Vec<_>>().join(",");
    assert!(matches!(
        parse(&line(cages, &missing), "killer"),
        Err(VariantError::CageWithoutSum(_))
    ));
    let extra = format!("{sums},#=5");
    assert!(matches!(
        parse(&line(cages, &extra), "killer"),
        Err(VariantError::SumWithoutCage(_))
    ));
    assert!(matches!(
        parse(&line(cages, "A10"), "killer"),
        Err(VariantError::BadSum(_))
    ));
    // Windoku is 9x9 only.
    assert!(matches!(
        parse(&".".repeat(16), "windoku"),
        Err(VariantError::WindokuSize(4))
    ));
}

/// A small reproducible generator for the brute-force cases.
struct Random(u64);

impl Random {
    fn below(&mut self, n: usize) -> usize {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        (self.0 % n as u64) as usize
    }
}

/// Every 4×4 Latin square, as 16 digits.
fn latin_squares() -> Vec<Vec<u8>> {
    let mut out = Vec::new();
    let mut grid = vec![0u8; 16];
    fn fill(i: usize, grid: &mut Vec<u8>, out: &mut Vec<Vec<u8>>) {
        if i == 16 {
            out.push(grid.clone());
            return;
        }
        let (r, c) = (i / 4, i % 4);
        for d in 1..=4u8 {
            if (0..c).all(|k| grid[r * 4 + k] != d) && (0..r).all(|k| grid[k * 4 + c] != d) {
                grid[i] = d;
                fill(i + 1, grid, out);
            }
        }
        grid[i] = 0;
    }
    fill(0, &mut grid, &mut out);
    out
}

/// Random connected groups of at most `max` cells covering the 4×4 board.
fn random_cages(random: &mut Random, max: usize) -> Vec<usize> {
    let mut label = vec![usize::MAX; 16];
    let mut next = 0;
    for start in 0..16 {
        if label[start] != usize::MAX {
            continue;
        }
        label[start] = next;
        let size = 1 + random.below(max);
        let mut cells = vec![start];
        while cells.len() < size {
            let free: Vec<usize> = cells
                .iter()
                .flat_map(|&c| {
                    let (r, k) = (c / 4, c % 4);
                    [
                        (r + 1, k),
                        (r, k + 1),
                        (r.wrapping_sub(1), k),
                        (r, k.wrapping_sub(1)),
                    ]
                })
                .filter(|&(r, k)| r < 4 && k < 4)
                .map(|(r, k)| r * 4 + k)
                .filter(|&c| label[c] == usize::MAX)
                .collect();
            if free.is_empty() {
                break;
            }
            let c = free[random.below(free.len())];
            label[c] = next;
            cells.push(c);
        }
        next += 1;
    }
    label
}

const SYMBOLS: &[u8] = b"ABCDEFGHIJKLMNOP";

#[test]
fn every_combination_of_variants_counts_like_brute_force_on_4x4_boards() {
    let squares = latin_squares();
    assert_eq!(squares.len(), 576);
    let mut random = Random(0x9E37_79B9_7F4A_7C15);
    let choices = [
        Variant::X,
        Variant::Jigsaw,
        Variant::Killer,
        Variant::AntiKnight,
        Variant::AntiKing,
        Variant::NonConsecutive,
    ];
    let mut checked = 0;
    let mut with_solutions = 0;
    for case in 0..400 {
        let chosen: Vec<Variant> = choices
            .iter()
            .copied()
            .filter(|_| random.below(3) == 0)
            .collect();
        let variants = Variants::new(&chosen);
        // A source grid for givens and sums: any Latin square.
        let source = &squares[random.below(squares.len())];
        let givens: String = source
            .iter()
            .map(|&d| {
                if random.below(4) == 0 {
                    (b'0' + d) as char
                } else {
                    '.'
                }
            })
            .collect();
        let mut line = givens;
        if variants.has(Variant::Jigsaw) {
            let regions = random_cages(&mut random, 4);
            let labels: String = regions.iter().map(|&r| SYMBOLS[r % 16] as char).collect();
            line.push(' ');
            line.push_str(&labels);
        }
        if variants.has(Variant::Killer) {
            let cages = random_cages(&mut random, 3);
            let labels: String = cages.iter().map(|&r| SYMBOLS[r] as char).collect();
            let count = cages.iter().max().unwrap() + 1;
            let sums: Vec<String> = (0..count)
                .map(|k| {
                    let sum: u32 = (0..16)
                        .filter(|&c| cages[c] == k)
                        .map(|c| u32::from(source[c]))
                        .sum();
                    format!("{}={sum}", SYMBOLS[k] as char)
                })
                .collect();
            line.push_str(&format!(" {labels} {}", sums.join(",")));
        }
        let puzzle = match VariantPuzzle::parse(&line, &variants, None) {
            Ok(p) => p,
            // Random regions of the wrong size, or sums no distinct digits make.
            Err(_) => continue,
        };
        let expected = squares
            .iter()
            .filter(|g| {
                let grid = Board::parse(&g.iter().map(|d| (b'0' + d) as char).collect::<String>())
                    .unwrap();
                puzzle.check_solution(&grid).is_ok()
            })
            .count() as u64;
        let found = variants::count_solutions(&puzzle, 1000).unwrap().count;
        assert_eq!(found, expected, "case {case}: {variants} {line}");
        checked += 1;
        with_solutions += usize::from(expected > 0);
    }
    assert!(
        checked >= 150 && with_solutions >= 30,
        "{checked} cases, {with_solutions} with solutions"
    );
}

#[test]
fn comma_separated_labels_read_as_single_characters_do() {
    let givens = "1...............";
    let parse = |line: String, variant: &str| {
        VariantPuzzle::parse(&line, &variant.parse().unwrap(), None).unwrap()
    };
    let chars = "1112122233343444";
    let commas: Vec<String> = chars.chars().map(|c| format!("r{c}")).collect();
    let a = parse(format!("{givens} {chars}"), "jigsaw");
    let b = parse(format!("{givens} {}", commas.join(",")), "jigsaw");
    assert_eq!(a.regions, b.regions);
    let cages = "AABBAABBCCDDCCDD";
    let sums = "A=10,B=10,C=10,D=10";
    let long: Vec<String> = cages.chars().map(|c| format!("cage{c}")).collect();
    let long_sums = "cageA=10,cageB=10,cageC=10,cageD=10";
    let k1 = parse(format!("{givens} {cages} {sums}"), "killer");
    let k2 = parse(format!("{givens} {} {long_sums}", long.join(",")), "killer");
    assert_eq!(
        k1.cages
            .iter()
            .map(|c| (&c.cells, c.sum))
            .collect::<Vec<_>>(),
        k2.cages
            .iter()
            .map(|c| (&c.cells, c.sum))
            .collect::<Vec<_>>()
    );
    assert_eq!(
        variants::count_solutions(&k1, 100).unwrap().count,
        variants::count_solutions(&k2, 100).unwrap().count
    );
}
