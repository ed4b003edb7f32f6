//! Number tokens: digits, a language's separators, radix prefixes and
//! suffixes, read by what the language's [`NumberSyntax`] says.

use super::{invalid, not_literal, LiteralError, Reader, R};
use crate::value::Value;

/// How a language writes numbers.
#[derive(Debug)]
pub struct NumberSyntax {
    /// The digit separator (`1_000`; C++ `1'000`); the other one is invalid.
    pub separator: char,
    /// Whether `0o17` is an octal number.
    pub octal_prefix: bool,
    /// Integer suffixes, lower-case, in the order they are tried.
    pub int_suffixes: &'static [&'static str],
    /// Whether `123n` is an integer of any size (a JS BigInt).
    pub bigint_suffix: bool,
    /// Suffix letters (lower-case) that make a token a float, besides a `.`
    /// and an exponent.
    pub float_markers: &'static [char],
    /// Float suffixes (lower-case), in the order they are tried, each with
    /// whether it makes the number single precision.
    pub float_suffixes: &'static [(char, bool)],
    /// What a leading zero (`010`) means.
    pub leading_zero: LeadingZero,
}

/// What a leading zero in a decimal integer means.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LeadingZero {
    /// An octal number (`010` is 8).
    Octal,
    /// Nothing: the number is decimal (`010` is 10).
    Decimal,
    /// The token is invalid.
    Invalid,
}

impl Reader<'_> {
    /// A number token at the current position.
    pub fn number(&mut self) -> R<Value> {
        let syntax = self.grammar.numbers();
        let r = self.rest();
        let len = r
            .char_indices()
            .find(|&(i, c)| {
                !(c.is_ascii_alphanumeric()
                    || c == '_'
                    || c == '.'
                    || c == syntax.separator
                    || ((c == '-' || c == '+')
                        && i > 0
                        && matches!(r.as_bytes()[i - 1], b'e' | b'E')
                        && !r[..i].starts_with("0x")
                        && !r[..i].starts_with("0X")))
            })
            .map(|(i, _)| i)
            .unwrap_or(r.len());
        let raw = &r[..len];
        self.advance(len);
        parse_number(syntax, raw)
    }
}

/// A number token (digits, separators, radix prefixes, suffixes).
pub fn parse_number(syntax: &NumberSyntax, raw: &str) -> R<Value> {
    if raw.is_empty() {
        return not_literal("an empty number");
    }
    let sep = syntax.separator;
    let other_sep = if sep == '\'' { '_' } else { '\'' };
    if raw.contains(other_sep) {
        return invalid(format!("`{raw}` (digit separator `{other_sep}`)"));
    }
    if raw.contains(sep) {
        // Separators only between digits.
        let b = raw.as_bytes();
        for (i, &c) in b.iter().enumerate() {
            if c == sep as u8 {
                let ok = i > 0
                    && i + 1 < b.len()
                    && b[i - 1].is_ascii_hexdigit()
                    && b[i + 1].is_ascii_hexdigit();
                if !ok {
                    return invalid(format!("`{raw}` (misplaced separator)"));
                }
            }
        }
    }
    let clean: String = raw.chars().filter(|&c| c != sep).collect();
    let lower = clean.to_ascii_lowercase();
    // Radix prefixes.
    for (prefix, radix) in [("0x", 16u32), ("0b", 2), ("0o", 8)] {
        if let Some(digits) = lower.strip_prefix(prefix) {
            if prefix == "0o" && !syntax.octal_prefix {
                return invalid(format!("`{raw}`"));
            }
            let digits = strip_int_suffix(syntax, digits)?;
            return match u128::from_str_radix(digits, radix) {
                Ok(v) => Ok(Value::Int(v as i128)),
                Err(_) => invalid(format!("`{raw}`")),
            };
        }
    }
    let is_float_text = |t: &str| t.contains('.') || t.contains('e');
    if is_float_text(&lower) || syntax.float_markers.iter().any(|&m| lower.ends_with(m)) {
        let (body, single) = strip_float_suffix(syntax, &lower)?;
        let f: f64 = body
            .parse()
            .map_err(|_| LiteralError::Invalid(format!("`{raw}`")))?;
        return Ok(Value::Float(if single { f as f32 as f64 } else { f }));
    }
    let digits = strip_int_suffix(syntax, &lower)?;
    if syntax.bigint_suffix {
        if let Some(big) = digits.strip_suffix('n') {
            return Value::int_from_decimal(big)
                .ok_or_else(|| LiteralError::Invalid(format!("`{raw}`")));
        }
    }
    if digits.len() > 1 && digits.starts_with('0') {
        return match syntax.leading_zero {
            LeadingZero::Octal => u128::from_str_radix(&digits[1..], 8)
                .map(|v| Value::Int(v as i128))
                .map_err(|_| LiteralError::Invalid(format!("`{raw}`"))),
            LeadingZero::Decimal => Value::int_from_decimal(digits)
                .ok_or_else(|| LiteralError::Invalid(format!("`{raw}`"))),
            LeadingZero::Invalid => invalid(format!("`{raw}` (leading zero)")),
        };
    }
    Value::int_from_decimal(digits).ok_or_else(|| LiteralError::Invalid(format!("`{raw}`")))
}

fn strip_int_suffix<'t>(syntax: &NumberSyntax, digits: &'t str) -> R<&'t str> {
    for s in syntax.int_suffixes {
        if let Some(d) = digits.strip_suffix(s) {
            if !d.is_empty() {
                return Ok(d);
            }
        }
    }
    if digits.chars().any(|c| c.is_ascii_alphabetic())
        && !(syntax.bigint_suffix && digits.ends_with('n'))
        && !digits.chars().all(|c| c.is_ascii_hexdigit())
    {
        return invalid(format!("`{digits}`"));
    }
    Ok(digits)
}

/// (number text, is single precision)
fn strip_float_suffix(syntax: &NumberSyntax, text: &str) -> R<(String, bool)> {
    let (body, single) = syntax
        .float_suffixes
        .iter()
        .find_map(|&(suffix, single)| text.strip_suffix(suffix).map(|b| (b, single)))
        .unwrap_or((text, false));
    if body.is_empty() || body.chars().any(|c| c.is_ascii_alphabetic() && c != 'e') {
        return invalid(format!("`{text}`"));
    }
    // "5." is a float in C-family/PHP/JS/Python; ".5" too.
    let normal = if body.ends_with('.') {
        format!("{body}0")
    } else if body.starts_with('.') {
        format!("0{body}")
    } else {
        body.replace(".e", ".0e")
    };
    Ok((normal, single))
}
