//! The text lines of a split search: a part line (what to search) and an answer line
//! (what one part found), each self-contained, so that any job runner can carry them.
//!
//! ```text
//! bitcsp-part split=5c1e0d4a9b7f3e21 model=0b8e2f6a1d9c4e77 part=3/120 problem=queens n=14 symmetry=1 piece=0 weight=2 fixes=13:6,12:3
//! bitcsp-answer split=5c1e0d4a9b7f3e21 model=0b8e2f6a1d9c4e77 part=3/120 count=5210 weight=2 status=complete nodes=10412 failures=5200 ms=12.5
//! ```
//!
//! `model` is a fingerprint of the problem (kind and parameters); `split` one of the whole
//! split (the model, how many parts were asked for, and every part's fixes), so that a part
//! or an answer of another split is refused. docs/DISTRIBUTED.md describes both.

use std::fmt;

/// FNV-1a, 64 bits: a stable fingerprint of text (not a secure hash; it tells splits
/// apart, it does not resist tampering).
pub fn fingerprint(text: &str) -> u64 {
    text.bytes().fold(0xcbf2_9ce4_8422_2325, |h, b| {
        (h ^ u64::from(b)).wrapping_mul(0x0000_0100_0000_01b3)
    })
}

/// The fingerprint of the queens problem with these parameters.
pub fn queens_model(n: usize, symmetry: bool) -> u64 {
    fingerprint(&format!("queens n={n} symmetry={}", u8::from(symmetry)))
}

/// What a part line asks.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PartLine {
    pub split: u64,
    pub model: u64,
    pub index: usize,
    pub of: usize,
    pub n: usize,
    pub symmetry: bool,
    /// Which piece of the mirror split (0 without symmetry).
    pub piece: usize,
    pub weight: u64,
    pub fixes: Vec<(usize, i32)>,
}

impl fmt::Display for PartLine {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let fixes: Vec<String> = self.fixes.iter().map(|(v, x)| format!("{v}:{x}")).collect();
        write!(
            f,
            "bitcsp-part split={:016x} model={:016x} part={}/{} problem=queens n={} symmetry={} piece={} weight={} fixes={}",
            self.split,
            self.model,
            self.index,
            self.of,
            self.n,
            u8::from(self.symmetry),
            self.piece,
            self.weight,
            fixes.join(",")
        )
    }
}

/// What one part found.
#[derive(Clone, Debug, PartialEq)]
pub struct AnswerLine {
    pub split: u64,
    pub model: u64,
    pub index: usize,
    pub of: usize,
    pub count: u64,
    pub weight: u64,
    /// `complete`, or why the search stopped.
    pub status: String,
    pub nodes: u64,
    pub failures: u64,
    pub ms: f64,
}

impl AnswerLine {
    /// Whether the part was searched to the end.
    pub fn finished(&self) -> bool {
        self.status == "complete"
    }
}

impl fmt::Display for AnswerLine {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "bitcsp-answer split={:016x} model={:016x} part={}/{} count={} weight={} status={} nodes={} failures={} ms={:.1}",
            self.split,
            self.model,
            self.index,
            self.of,
            self.count,
            self.weight,
            self.status,
            self.nodes,
            self.failures,
            self.ms
        )
    }
}

/// The `key=value` fields of a line that starts with `tag`.
fn fields<'a>(line: &'a str, tag: &str) -> Result<Vec<(&'a str, &'a str)>, String> {
    let mut words = line.split_whitespace();
    match words.next() {
        Some(t) if t == tag => {}
        Some(t) => return Err(format!("expected a line starting with {tag}, found {t:?}")),
        None => return Err("empty line".into()),
    }
    words
        .map(|w| {
            w.split_once('=')
                .ok_or_else(|| format!("{w:?} is not key=value"))
        })
        .collect()
}

fn get<'a>(fields: &[(&'a str, &'a str)], key: &str) -> Result<&'a str, String> {
    fields
        .iter()
        .find(|(k, _)| *k == key)
        .map(|&(_, v)| v)
        .ok_or_else(|| format!("no {key}="))
}

fn number<T: std::str::FromStr>(fields: &[(&str, &str)], key: &str) -> Result<T, String> {
    let text = get(fields, key)?;
    text.parse()
        .map_err(|_| format!("{key}={text} is not a number"))
}

fn hex(fields: &[(&str, &str)], key: &str) -> Result<u64, String> {
    let text = get(fields, key)?;
    u64::from_str_radix(text, 16).map_err(|_| format!("{key}={text} is not a fingerprint"))
}

fn part_of(fields: &[(&str, &str)]) -> Result<(usize, usize), String> {
    let text = get(fields, "part")?;
    let (i, k) = text
        .split_once('/')
        .ok_or_else(|| format!("part={text} is not I/K"))?;
    let (i, k): (usize, usize) = (
        i.parse().map_err(|_| format!("part={text} is not I/K"))?,
        k.parse().map_err(|_| format!("part={text} is not I/K"))?,
    );
    if i == 0 || i > k {
        return Err(format!("part={text}: I must lie in 1..=K"));
    }
    Ok((i, k))
}

impl std::str::FromStr for PartLine {
    type Err = String;
    fn from_str(line: &str) -> Result<Self, String> {
        let f = fields(line, "bitcsp-part")?;
        let problem = get(&f, "problem")?;
        if problem != "queens" {
            return Err(format!("problem={problem}: this bitcsp splits queens only"));
        }
        let (index, of) = part_of(&f)?;
        let fixes_text = get(&f, "fixes")?;
        let fixes = fixes_text
            .split(',')
            .filter(|s| !s.is_empty())
            .map(|pair| {
                let (v, x) = pair
                    .split_once(':')
                    .ok_or_else(|| format!("fix {pair:?} is not VAR:VALUE"))?;
                Ok((
                    v.parse()
                        .map_err(|_| format!("fix {pair:?} is not VAR:VALUE"))?,
                    x.parse()
                        .map_err(|_| format!("fix {pair:?} is not VAR:VALUE"))?,
                ))
            })
            .collect::<Result<Vec<(usize, i32)>, String>>()?;
        let symmetry = match get(&f, "symmetry")? {
            "0" => false,
            "1" => true,
            other => return Err(format!("symmetry={other} is not 0 or 1")),
        };
        let part = PartLine {
            split: hex(&f, "split")?,
            model: hex(&f, "model")?,
            index,
            of,
            n: number(&f, "n")?,
            symmetry,
            piece: number(&f, "piece")?,
            weight: number(&f, "weight")?,
            fixes,
        };
        if queens_model(part.n, part.symmetry) != part.model {
            return Err("the model fingerprint does not match the problem's parameters".into());
        }
        Ok(part)
    }
}

impl std::str::FromStr for AnswerLine {
    type Err = String;
    fn from_str(line: &str) -> Result<Self, String> {
        let f = fields(line, "bitcsp-answer")?;
        let (index, of) = part_of(&f)?;
        Ok(AnswerLine {
            split: hex(&f, "split")?,
            model: hex(&f, "model")?,
            index,
            of,
            count: number(&f, "count")?,
            weight: number(&f, "weight")?,
            status: get(&f, "status")?.to_owned(),
            nodes: number(&f, "nodes")?,
            failures: number(&f, "failures")?,
            ms: number(&f, "ms")?,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn part_and_answer_lines_round_trip() {
        let part = PartLine {
            split: 0x1234,
            model: queens_model(8, true),
            index: 2,
            of: 5,
            n: 8,
            symmetry: true,
            piece: 0,
            weight: 2,
            fixes: vec![(7, 3), (6, 1)],
        };
        assert_eq!(part.to_string().parse::<PartLine>(), Ok(part.clone()));
        let answer = AnswerLine {
            split: 0x1234,
            model: part.model,
            index: 2,
            of: 5,
            count: 11,
            weight: 2,
            status: "complete".into(),
            nodes: 40,
            failures: 29,
            ms: 0.5,
        };
        assert_eq!(answer.to_string().parse::<AnswerLine>(), Ok(answer));
    }

    #[test]
    fn a_part_whose_parameters_were_changed_is_refused() {
        let mut part = PartLine {
            split: 1,
            model: queens_model(8, false),
            index: 1,
            of: 1,
            n: 8,
            symmetry: false,
            piece: 0,
            weight: 1,
            fixes: vec![],
        };
        part.n = 9;
        let e = part.to_string().parse::<PartLine>().unwrap_err();
        assert!(e.contains("fingerprint"), "{e}");
        assert!("bitcsp-part part=0/3".parse::<PartLine>().is_err());
        assert!("hello".parse::<AnswerLine>().is_err());
    }
}
