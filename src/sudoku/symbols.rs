//! The symbols of the character forms: `1`-`9`, then `A`-`Z` for 10 to 35 (letters in
//! either case); `.` or `0` for an empty cell. Boards wider than 35 use the numbers form.

/// The largest side the character forms can write.
pub const MAX_SYMBOL_SIDE: usize = 35;

/// The character of digit `d` (`.` for 0). Digits above 35 have no symbol and print `?`.
pub(crate) fn symbol(d: u8) -> char {
    match d {
        0 => '.',
        1..=9 => char::from(b'0' + d),
        10..=35 => char::from(b'A' + d - 10),
        _ => '?',
    }
}

/// The digit of a character: `Some(0)` for an empty mark, `None` for a character that is no
/// symbol at all (its range against the board side is checked by the caller).
pub(crate) fn digit_of(ch: char) -> Option<u8> {
    match ch {
        '.' | '0' => Some(0),
        '1'..='9' => Some(ch as u8 - b'0'),
        'A'..='Z' => Some(ch as u8 - b'A' + 10),
        'a'..='z' => Some(ch as u8 - b'a' + 10),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn symbols_round_trip() {
        for d in 0..=35u8 {
            assert_eq!(digit_of(symbol(d)), Some(d));
        }
        assert_eq!(digit_of('g'), Some(16));
        assert_eq!(digit_of('#'), None);
    }
}
