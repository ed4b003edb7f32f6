//! JavaScript's literal syntax: `_` separators, `0o` and leading-zero
//! octal, BigInts (`123n`), strings in `'…'`, `"…"` and template literals
//! (`${…}` interpolates: not a literal) whose unknown escapes drop the
//! backslash, `true`/`false`/`null`/`undefined`/`NaN`/`Infinity`, arrays,
//! object literals (`{a: 1, 'b c': [true]}`) and `new Map([[k, v]])`/
//! `new Set([…])`.

use super::JavaScript;
use crate::literal::number::{LeadingZero, NumberSyntax};
use crate::literal::shape::{set, Shape};
use crate::literal::string::common_escape;
use crate::literal::{self, not_literal, python_constant, Grammar, LiteralSyntax, Reader, R};
use crate::value::{format_float, Value};

const NUMBERS: NumberSyntax = NumberSyntax {
    separator: '_',
    octal_prefix: true,
    int_suffixes: &[],
    bigint_suffix: true,
    float_markers: &['f'],
    float_suffixes: &[],
    leading_zero: LeadingZero::Octal,
};

impl LiteralSyntax for JavaScript {
    fn parse_literal(&self, text: &str) -> R<Value> {
        literal::read(self, text)
    }
}

impl Grammar for JavaScript {
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
            '\'' | '`' => Some(r.string()),
            '[' => {
                r.advance(1);
                Some(r.list_until(']', shape, depth))
            }
            '{' => Some(object(r, depth)),
            _ => None,
        }
    }

    fn named(&self, r: &mut Reader<'_>, name: &str, _: &Shape, depth: usize) -> R<Value> {
        match name {
            "true" => return Ok(Value::Bool(true)),
            "false" => return Ok(Value::Bool(false)),
            "null" => return Ok(Value::Null),
            "undefined" => return Ok(Value::Undefined),
            "NaN" => return Ok(Value::Float(f64::NAN)),
            "Infinity" => return Ok(Value::Float(f64::INFINITY)),
            _ => {}
        }
        if let Some(invalid) = python_constant(name) {
            return invalid;
        }
        if name == "new" {
            return constructed(r, depth);
        }
        not_literal(format!("the name `{name}`"))
    }

    fn string_part(&self, _: &mut Reader<'_>, _: char) -> Option<R<String>> {
        None
    }

    fn interpolates(&self, quote: char, c: char, next: Option<char>) -> bool {
        quote == '`' && c == '$' && next == Some('{')
    }

    fn escape(&self, r: &mut Reader<'_>, _: char, e: char, out: &mut String) -> R<()> {
        if let Some(c) = common_escape(e) {
            out.push(c);
            return Ok(());
        }
        match e {
            '`' => out.push('`'),
            '0' if !r.peek().is_some_and(|d| d.is_ascii_digit()) => out.push('\0'),
            'b' => out.push('\x08'),
            'f' => out.push('\x0c'),
            'v' => out.push('\x0b'),
            // A line continuation.
            '\n' => {}
            'x' => r.hex_escape(2, true, out)?,
            'u' if r.peek() == Some('{') => r.braced_unicode_escape(out)?,
            'u' => r.unicode_escape(out)?,
            // Unknown escapes drop the backslash.
            other => out.push(other),
        }
        Ok(())
    }

    fn byte_strings(&self) -> bool {
        false
    }

    fn adjacent_strings_concatenate(&self) -> bool {
        false
    }
}

/// An object literal: keys are names, strings or numbers; a later key
/// replaces an earlier one in its place.
fn object(r: &mut Reader<'_>, depth: usize) -> R<Value> {
    r.expect("{")?;
    let mut fields: Vec<(String, Value)> = Vec::new();
    loop {
        r.ws();
        if r.eat("}") {
            break;
        }
        let key = match r.peek() {
            Some('"' | '\'') => match r.string()? {
                Value::Str(s) => s,
                _ => return not_literal("bad key"),
            },
            Some(c) if c.is_ascii_digit() => match r.number()? {
                Value::Int(i) => i.to_string(),
                Value::Float(f) => format_float(f),
                _ => return not_literal("bad key"),
            },
            Some('[') => return not_literal("a computed key"),
            _ => {
                let n = r.name();
                if n.is_empty() || n.contains('.') {
                    return not_literal("bad key");
                }
                n
            }
        };
        if !r.eat(":") {
            return not_literal("a shorthand property");
        }
        let v = r.value_shaped(&Shape::Unknown, depth + 1)?;
        if let Some(slot) = fields.iter_mut().find(|(k, _)| *k == key) {
            slot.1 = v;
        } else {
            fields.push((key, v));
        }
        if !r.eat(",") {
            r.expect("}")?;
            break;
        }
    }
    Ok(Value::Object {
        type_name: "Object".into(),
        fields: Some(fields),
    })
}

/// After `new`: `Map` of `[key, value]` arrays, or `Set` of an array.
fn constructed(r: &mut Reader<'_>, depth: usize) -> R<Value> {
    let ctor = r.name();
    r.expect("(")?;
    match ctor.as_str() {
        "Map" | "Set" => {
            r.ws();
            let inner = if r.peek() == Some(')') {
                Value::List(vec![])
            } else {
                r.value_shaped(&Shape::Unknown, depth + 1)?
            };
            r.expect(")")?;
            let Value::List(items) = inner else {
                return not_literal("new Map/Set of a non-array");
            };
            if ctor == "Set" {
                return Ok(set(items));
            }
            let mut pairs = Vec::new();
            for it in items {
                match it {
                    Value::List(mut kv) if kv.len() == 2 => {
                        let v = kv.pop().unwrap_or(Value::Null);
                        let k = kv.pop().unwrap_or(Value::Null);
                        pairs.push((k, v));
                    }
                    _ => return not_literal("a Map entry is [key, value]"),
                }
            }
            Ok(Value::Map(pairs))
        }
        _ => not_literal(format!("new {ctor}(…)")),
    }
}
