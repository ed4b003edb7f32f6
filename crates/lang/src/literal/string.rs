//! Strings and chars: quoted text, adjacent literals, and the escape
//! building blocks a language's [`Grammar::escape`](super::Grammar::escape)
//! is made of (octal, hex, `\u`, `\U`, byte escapes).

use super::{invalid, not_literal, Reader, R};
use crate::value::{byte_marker, marked_byte, text_of_bytes, Value};

/// `\n \t \r \\ \" \'`: the escapes every language here shares.
pub fn common_escape(e: char) -> Option<char> {
    Some(match e {
        'n' => '\n',
        't' => '\t',
        'r' => '\r',
        '\\' => '\\',
        '"' => '"',
        '\'' => '\'',
        _ => return None,
    })
}

/// The unknown escape `\e`, invalid in the language.
pub fn unknown_escape<T>(e: char) -> R<T> {
    invalid(format!("an unknown escape \\{e}"))
}

impl Reader<'_> {
    /// A string literal, or (where the language concatenates them) a run of
    /// adjacent ones.
    pub fn string(&mut self) -> R<Value> {
        let grammar = self.grammar;
        let mut text = String::new();
        loop {
            self.ws();
            let Some(c) = self.peek() else { break };
            match c {
                '"' | '\'' | '`' => {
                    let (s, interpolates) = self.quoted(c)?;
                    if interpolates {
                        return not_literal("an interpolating string");
                    }
                    text.push_str(&s);
                }
                _ => match grammar.string_part(self, c) {
                    Some(part) => text.push_str(&part?),
                    None => break,
                },
            }
            if !grammar.adjacent_strings_concatenate() {
                break;
            }
            self.ws();
            if self.peek() != Some('"') {
                break;
            }
        }
        Ok(Value::Str(text))
    }

    /// A char literal `'c'`.
    pub fn char_literal(&mut self) -> R<Value> {
        let (text, _) = self.quoted('\'')?;
        let mut chars = text.chars();
        match (chars.next(), chars.next()) {
            (Some(c), None) => {
                let code = u32::from(c);
                if self.grammar.byte_strings() && code > 0x7f {
                    // A non-ASCII char literal is a multi-byte (int) literal
                    // where a char is a byte.
                    return invalid("a multi-byte character literal");
                }
                Ok(Value::Char(code))
            }
            (None, _) => invalid("an empty character literal"),
            _ => invalid(format!("a multi-character literal '{text}'")),
        }
    }

    /// Quoted text starting at the current quote: the decoded text, and
    /// whether it interpolates.
    pub fn quoted(&mut self, quote: char) -> R<(String, bool)> {
        let grammar = self.grammar;
        self.advance(quote.len_utf8());
        let mut out = String::new();
        let mut interpolates = false;
        loop {
            let Some(c) = self.peek() else {
                return not_literal("unterminated string");
            };
            self.advance(c.len_utf8());
            if c == quote {
                break;
            }
            if c == '\n' && quote != '`' {
                return not_literal("newline in a string");
            }
            if grammar.interpolates(quote, c, self.peek()) {
                interpolates = true;
            }
            if c != '\\' {
                out.push(c);
                continue;
            }
            let Some(e) = self.peek() else {
                return not_literal("unterminated escape");
            };
            self.advance(e.len_utf8());
            grammar.escape(self, quote, e, &mut out)?;
        }
        if grammar.byte_strings() {
            out = text_of_bytes(&bytes_of_text(&out));
        }
        Ok((out, interpolates))
    }

    /// The character a byte escape (`\xff`, `\377`) of value `v` stands
    /// for: where strings hold bytes, a byte from 0x80 up is the marker of
    /// that byte (see [`text_of_bytes`]) until the string is decoded;
    /// elsewhere it is the code point.
    pub fn byte_char(&self, v: u32) -> char {
        if self.grammar.byte_strings() && v >= 0x80 {
            byte_marker(v as u8)
        } else {
            char::from_u32(v).unwrap_or('\u{fffd}')
        }
    }

    /// An octal escape whose first digit `first` was read: up to two more
    /// digits (only while the value fits a byte if `byte_bounded`), the
    /// value's low byte.
    pub fn octal_escape(&mut self, first: char, byte_bounded: bool, out: &mut String) {
        let mut v = first.to_digit(8).unwrap_or(0);
        for _ in 0..2 {
            match self.peek().and_then(|d| d.to_digit(8)) {
                Some(d) if v * 8 + d <= 0o377 || !byte_bounded => {
                    v = v * 8 + d;
                    self.advance(1);
                }
                _ => break,
            }
        }
        out.push(self.byte_char(v & 0xff));
    }

    /// A `\x` escape: up to `max` hex digits (exactly `max` if `exact`).
    pub fn hex_escape(&mut self, max: usize, exact: bool, out: &mut String) -> R<()> {
        let digits: String = self
            .rest()
            .chars()
            .take_while(|d| d.is_ascii_hexdigit())
            .take(max)
            .collect();
        if digits.is_empty() || (exact && digits.len() != max) {
            return invalid("a bad \\x escape");
        }
        self.advance(digits.len());
        let v = u32::from_str_radix(&digits, 16).unwrap_or(0);
        out.push(if v <= 0xff {
            self.byte_char(v)
        } else {
            char::from_u32(v).unwrap_or('\u{fffd}')
        });
        Ok(())
    }

    /// `\uXXXX` (after the `u`): exactly four hex digits, a UTF-16 code unit.
    pub fn unicode_escape(&mut self, out: &mut String) -> R<()> {
        let d: String = self.rest().chars().take(4).collect();
        if d.len() != 4 || !d.chars().all(|x| x.is_ascii_hexdigit()) {
            return invalid("a bad \\u escape");
        }
        self.advance(4);
        self.push_code_unit(u32::from_str_radix(&d, 16).unwrap_or(0xfffd), out);
        Ok(())
    }

    /// `\u{X…}` (after the `u`, at the `{`): a code point.
    pub fn braced_unicode_escape(&mut self, out: &mut String) -> R<()> {
        self.advance(1);
        let d: String = self
            .rest()
            .chars()
            .take_while(|d| d.is_ascii_hexdigit())
            .collect();
        self.advance(d.len());
        if !self.eat("}") {
            return invalid("a bad \\u{…} escape");
        }
        self.push_code_unit(u32::from_str_radix(&d, 16).unwrap_or(0xfffd), out);
        Ok(())
    }

    /// `\UXXXXXXXX` (after the `U`): exactly eight hex digits, a code point.
    pub fn long_unicode_escape(&mut self, out: &mut String) -> R<()> {
        let d: String = self.rest().chars().take(8).collect();
        if d.len() != 8 || !d.chars().all(|x| x.is_ascii_hexdigit()) {
            return invalid("a bad \\U escape");
        }
        self.advance(8);
        let v = u32::from_str_radix(&d, 16).unwrap_or(0xfffd);
        out.push(char::from_u32(v).unwrap_or('\u{fffd}'));
        Ok(())
    }

    /// Push code unit `v`, joined with a low surrogate written as the next
    /// `\u` escape (UTF-16 surrogate pairs).
    fn push_code_unit(&mut self, v: u32, out: &mut String) {
        if (0xD800..0xDC00).contains(&v) && self.rest().starts_with("\\u") {
            let low: String = self.rest()[2..].chars().take(4).collect();
            if let Ok(l) = u32::from_str_radix(&low, 16) {
                if (0xDC00..0xE000).contains(&l) {
                    self.advance(6);
                    let c = 0x10000 + ((v - 0xD800) << 10) + (l - 0xDC00);
                    out.push(char::from_u32(c).unwrap_or('\u{fffd}'));
                    return;
                }
            }
        }
        out.push(char::from_u32(v).unwrap_or('\u{fffd}'));
    }
}

/// The bytes of a byte string read so far: characters as UTF-8, byte
/// markers as their byte.
fn bytes_of_text(text: &str) -> Vec<u8> {
    let mut out = Vec::with_capacity(text.len());
    for c in text.chars() {
        match marked_byte(c) {
            Some(b) => out.push(b),
            None => {
                let mut buf = [0u8; 4];
                out.extend_from_slice(c.encode_utf8(&mut buf).as_bytes());
            }
        }
    }
    out
}
