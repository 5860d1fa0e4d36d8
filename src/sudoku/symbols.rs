//! The symbols of the character forms: `1`-`9`, then `A`-`Z` for 10 to 35 (letters in
//! either case); `.` or `0` for an empty cell. Boards wider than 35 use the numbers form.

/// The largest side the character forms can write.
pub const MAX_SYMBOL_SIDE: usize = 35;

/// The symbols of digits 0 to 35, in order.
const SYMBOLS: &[u8; 36] = b".123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ";

/// The digit of every byte, [`NO_DIGIT`] for a byte that is no symbol: one lookup per
/// character where a puzzle line is read (a batch reads millions).
const DIGITS: [u8; 256] = digit_table();

/// A byte that is no symbol in [`DIGITS`].
const NO_DIGIT: u8 = u8::MAX;

const fn digit_table() -> [u8; 256] {
    let mut table = [NO_DIGIT; 256];
    table[b'0' as usize] = 0;
    let mut d = 0;
    while d < SYMBOLS.len() {
        let upper = SYMBOLS[d];
        table[upper as usize] = d as u8;
        table[upper.to_ascii_lowercase() as usize] = d as u8;
        d += 1;
    }
    table
}

/// The ASCII byte of digit `d`'s symbol (`.` for 0). Digits above 35 have no symbol and
/// print `?`.
pub(crate) fn symbol_byte(d: u8) -> u8 {
    SYMBOLS.get(usize::from(d)).copied().unwrap_or(b'?')
}

/// The character of digit `d` (`.` for 0). Digits above 35 have no symbol and print `?`.
pub(crate) fn symbol(d: u8) -> char {
    char::from(symbol_byte(d))
}

// A byte that is no symbol reads as a digit above every board's side, so that the board's
// range check refuses it.
const _: () = assert!(NO_DIGIT as usize > super::board::MAX_SIZE);

/// The digit of a byte of ASCII text, as [`digit_of`].
pub(crate) fn digit_of_byte(b: u8) -> Option<u8> {
    Some(DIGITS[usize::from(b)]).filter(|&d| d != NO_DIGIT)
}

/// The digits of a line of symbols, a byte that is no symbol as a digit above
/// [`MAX_SIZE`](super::board::MAX_SIZE): a board's range check refuses the line then.
/// One table lookup per byte, with no branch, for the reader's usual case.
pub(crate) fn digits_or_out_of_range(bytes: &[u8]) -> Vec<u8> {
    bytes.iter().map(|&b| DIGITS[usize::from(b)]).collect()
}

/// The digit of a character: `Some(0)` for an empty mark, `None` for a character that is no
/// symbol at all (its range against the board side is checked by the caller).
pub(crate) fn digit_of(ch: char) -> Option<u8> {
    u8::try_from(ch)
        .ok()
        .filter(u8::is_ascii)
        .and_then(digit_of_byte)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_tables_read_every_character_as_the_rules_say() {
        // The rules spelled out character by character, against the lookup tables.
        for code in 0..0x300u32 {
            let Some(ch) = char::from_u32(code) else {
                continue;
            };
            let expected = match ch {
                '.' | '0' => Some(0),
                '1'..='9' => Some(code as u8 - b'0'),
                'A'..='Z' => Some(code as u8 - b'A' + 10),
                'a'..='z' => Some(code as u8 - b'a' + 10),
                _ => None,
            };
            assert_eq!(digit_of(ch), expected, "{ch:?}");
        }
        for d in 0..=255u8 {
            let expected = match d {
                0 => '.',
                1..=9 => char::from(b'0' + d),
                10..=35 => char::from(b'A' + d - 10),
                _ => '?',
            };
            assert_eq!(symbol(d), expected, "{d}");
        }
    }

    #[test]
    fn symbols_round_trip() {
        for d in 0..=35u8 {
            assert_eq!(digit_of(symbol(d)), Some(d));
        }
        assert_eq!(digit_of('g'), Some(16));
        assert_eq!(digit_of('#'), None);
    }
}
