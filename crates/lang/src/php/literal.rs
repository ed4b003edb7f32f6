//! PHP's literal syntax: `_` separators, `0o` octal and leading-zero octal,
//! single-quoted strings (only `\\` and `\'` escape) and double-quoted
//! ones (escapes, `$name`/`{$…}` interpolation: not a literal), byte
//! strings, case-insensitive `true`/`false`/`null`, `NAN`/`INF`, and arrays
//! (`[…]`, `array(…)`) with PHP's key rules: int-like string keys become
//! ints, and an array keyed 0..n-1 in order is a list.

use super::Php;
use crate::literal::number::{LeadingZero, NumberSyntax};
use crate::literal::shape::Shape;
use crate::literal::string::common_escape;
use crate::literal::{self, not_literal, Grammar, LiteralSyntax, Reader, R};
use crate::value::Value;

const NUMBERS: NumberSyntax = NumberSyntax {
    separator: '_',
    octal_prefix: true,
    int_suffixes: &[],
    bigint_suffix: false,
    float_markers: &['f'],
    float_suffixes: &[],
    leading_zero: LeadingZero::Octal,
};

impl LiteralSyntax for Php {
    fn parse_literal(&self, text: &str) -> R<Value> {
        literal::read(self, text)
    }
}

impl Grammar for Php {
    fn numbers(&self) -> &'static NumberSyntax {
        &NUMBERS
    }

    fn value_at(
        &self,
        r: &mut Reader<'_>,
        c: char,
        shape: &Shape,
        depth: usize,
    ) -> Option<R<Value>> {
        match c {
            '\'' => Some(r.string()),
            '[' => {
                r.advance(1);
                Some(array_until(r, ']', shape, depth))
            }
            _ => None,
        }
    }

    fn named(&self, r: &mut Reader<'_>, name: &str, shape: &Shape, depth: usize) -> R<Value> {
        // Constants are case-insensitive; NAN and INF are not.
        match name.to_ascii_lowercase().as_str() {
            "true" => Ok(Value::Bool(true)),
            "false" => Ok(Value::Bool(false)),
            "null" => Ok(Value::Null),
            "nan" if name == "NAN" => Ok(Value::Float(f64::NAN)),
            "inf" if name == "INF" => Ok(Value::Float(f64::INFINITY)),
            "array" => {
                r.expect("(")?;
                array_until(r, ')', shape, depth)
            }
            _ => not_literal(format!("the name `{name}`")),
        }
    }

    fn string_part(&self, _: &mut Reader<'_>, _: char) -> Option<R<String>> {
        None
    }

    fn interpolates(&self, quote: char, c: char, next: Option<char>) -> bool {
        quote == '"'
            && match c {
                '$' => next.is_some_and(|n| n.is_alphabetic() || n == '_' || n == '{'),
                '{' => next == Some('$'),
                _ => false,
            }
    }

    fn escape(&self, r: &mut Reader<'_>, quote: char, e: char, out: &mut String) -> R<()> {
        if quote == '\'' {
            // Single-quoted: only \\ and \' are escapes.
            match e {
                '\\' | '\'' => out.push(e),
                other => {
                    out.push('\\');
                    out.push(other);
                }
            }
            return Ok(());
        }
        if let Some(c) = common_escape(e) {
            out.push(c);
            return Ok(());
        }
        match e {
            // Octal escapes take three digits whatever their value.
            '0'..='7' => r.octal_escape(e, false, out),
            'f' => out.push('\x0c'),
            'v' => out.push('\x0b'),
            'e' => out.push('\x1b'),
            '$' => out.push('$'),
            'x' => r.hex_escape(2, false, out)?,
            'u' if r.peek() == Some('{') => r.braced_unicode_escape(out)?,
            // Unknown escapes stay as written.
            other => {
                out.push('\\');
                out.push(other);
            }
        }
        Ok(())
    }

    fn byte_strings(&self) -> bool {
        true
    }

    fn adjacent_strings_concatenate(&self) -> bool {
        false
    }
}

/// An array's items up to `close`, each a value or `key => value`.
fn array_until(r: &mut Reader<'_>, close: char, shape: &Shape, depth: usize) -> R<Value> {
    let elem = shape.element();
    let mut items = Vec::new();
    let mut keyed: Vec<(Value, Value)> = Vec::new();
    let mut is_map = false;
    let mut next_index: i128 = 0;
    r.items_until(close, |r| {
        let v = r.value_shaped(&elem, depth + 1)?;
        if r.eat("=>") {
            let key = match v {
                Value::Str(ref s) if int_key(s).is_some() => Value::Int(int_key(s).unwrap_or(0)),
                Value::Bool(b) => Value::Int(b as i128),
                Value::Float(f) => Value::Int(f.trunc() as i128),
                Value::Null => Value::Str(String::new()),
                other => other,
            };
            let val = r.value_shaped(&elem, depth + 1)?;
            if let Value::Int(i) = key {
                next_index = next_index.max(i.wrapping_add(1));
            }
            is_map = true;
            upsert(&mut keyed, key, val);
        } else {
            upsert(&mut keyed, Value::Int(next_index), v.clone());
            next_index = next_index.wrapping_add(1);
            items.push(v);
        }
        Ok(())
    })?;
    if !is_map {
        return Ok(Value::List(items));
    }
    // An array whose keys are 0..n-1 in order is a list.
    let list_like = keyed
        .iter()
        .enumerate()
        .all(|(i, (k, _))| *k == Value::Int(i as i128));
    if list_like {
        return Ok(Value::List(keyed.into_iter().map(|(_, v)| v).collect()));
    }
    Ok(Value::Map(keyed))
}

fn upsert(pairs: &mut Vec<(Value, Value)>, key: Value, val: Value) {
    match pairs.iter_mut().find(|(k, _)| *k == key) {
        Some(slot) => slot.1 = val,
        None => pairs.push((key, val)),
    }
}

/// PHP turns decimal-integer string keys ("7", "-3", not "07") into ints.
fn int_key(s: &str) -> Option<i128> {
    let digits = s.strip_prefix('-').unwrap_or(s);
    if digits.is_empty()
        || !digits.bytes().all(|b| b.is_ascii_digit())
        || (digits.len() > 1 && digits.starts_with('0'))
        || s == "-0"
    {
        return None;
    }
    s.parse().ok()
}
