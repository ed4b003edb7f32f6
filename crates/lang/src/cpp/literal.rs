//! C++'s literal syntax: `'` digit separators and `ull`/`f` suffixes, byte
//! strings with octal/hex/`\u`/`\U` escapes, adjacent strings that
//! concatenate, `u8"…"`-prefixed strings, `true`/`false`/`nullptr`, and the
//! standard containers (`std::vector<int>{…}`, `std::map<K, V>{{k, v}}`,
//! `std::make_pair(…)`, `std::string("…")`) read by their template type.

use super::Cpp;
use crate::literal::number::{LeadingZero, NumberSyntax};
use crate::literal::shape::{split_generics, Shape};
use crate::literal::string::{common_escape, unknown_escape};
use crate::literal::{self, not_literal, python_constant, Grammar, LiteralSyntax, Reader, R};
use crate::value::Value;

const NUMBERS: NumberSyntax = NumberSyntax {
    separator: '\'',
    octal_prefix: false,
    int_suffixes: &["ull", "llu", "ll", "ul", "lu", "u", "l", "z", "uz", "zu"],
    bigint_suffix: false,
    float_markers: &[],
    float_suffixes: &[('f', true), ('l', false)],
    leading_zero: LeadingZero::Octal,
};

impl LiteralSyntax for Cpp {
    fn parse_literal(&self, text: &str) -> R<Value> {
        literal::read(self, text)
    }
}

impl Grammar for Cpp {
    fn numbers(&self) -> &'static NumberSyntax {
        &NUMBERS
    }

    fn value_at(&self, _: &mut Reader<'_>, _: char, _: &Shape, _: usize) -> Option<R<Value>> {
        None
    }

    fn named(&self, r: &mut Reader<'_>, name: &str, _: &Shape, depth: usize) -> R<Value> {
        // String prefixes: u8"…", L"…", u"…", U"…" and R"(…)".
        if r.rest().starts_with('"') {
            return match name {
                "u8" | "L" | "u" | "U" => r.string(),
                _ => not_literal("a raw or prefixed string"),
            };
        }
        match name {
            "true" => Ok(Value::Bool(true)),
            "false" => Ok(Value::Bool(false)),
            "nullptr" => Ok(Value::Null),
            _ => match python_constant(name) {
                Some(invalid) => invalid,
                None => container(r, name, depth),
            },
        }
    }

    fn string_part(&self, _: &mut Reader<'_>, _: char) -> Option<R<String>> {
        None
    }

    fn interpolates(&self, _: char, _: char, _: Option<char>) -> bool {
        false
    }

    fn escape(&self, r: &mut Reader<'_>, _: char, e: char, out: &mut String) -> R<()> {
        if let Some(c) = common_escape(e) {
            out.push(c);
            return Ok(());
        }
        match e {
            '0'..='7' => r.octal_escape(e, true, out),
            'a' => out.push('\x07'),
            'b' => out.push('\x08'),
            'f' => out.push('\x0c'),
            'v' => out.push('\x0b'),
            '?' => out.push('?'),
            // A line continuation.
            '\n' => {}
            'x' => r.hex_escape(8, false, out)?,
            'u' => r.unicode_escape(out)?,
            'U' => r.long_unicode_escape(out)?,
            other => return unknown_escape(other),
        }
        Ok(())
    }

    fn byte_strings(&self) -> bool {
        true
    }

    fn adjacent_strings_concatenate(&self) -> bool {
        true
    }
}

/// A standard container, pair or string written as `name<generics>` followed
/// by `{…}` or `(…)`.
fn container(r: &mut Reader<'_>, name: &str, depth: usize) -> R<Value> {
    let generics = r.generics()?;
    let shape = shape_of(name, &generics);
    match name.trim_start_matches("std::") {
        "string" | "string_view" => {
            r.ws();
            if r.peek() == Some('{') {
                r.advance(1);
                let v = r.string()?;
                r.expect("}")?;
                return Ok(v);
            }
            let mut a = r.args(&Shape::Str, depth)?;
            match (a.len(), a.pop()) {
                (0, _) => Ok(Value::Str(String::new())),
                (1, Some(v @ Value::Str(_))) => Ok(v),
                _ => not_literal("std::string(…) of a non-string"),
            }
        }
        "make_pair" | "make_tuple" => Ok(Value::Tuple(r.args(&Shape::Unknown, depth)?)),
        "vector" | "list" | "deque" | "array" | "set" | "unordered_set" | "multiset" | "map"
        | "unordered_map" | "pair" | "tuple" => {
            r.ws();
            let v = if r.peek() == Some('(') {
                let mut a = r.args(&shape, depth)?;
                match &shape {
                    Shape::Tuple(_) => return Ok(Value::Tuple(a)),
                    _ if a.is_empty() => return Ok(shape.empty()),
                    _ if a.len() == 1 => a.pop().unwrap_or(Value::Null),
                    _ => return not_literal("a container constructor with arguments"),
                }
            } else {
                r.braced(&shape, depth)?
            };
            Ok(shape.reshape(v))
        }
        _ => not_literal(format!("the name `{name}`")),
    }
}

/// The shape of a C++ type written as `name<generics>`.
fn shape_of(name: &str, generics: &str) -> Shape {
    let args = split_generics(generics);
    let arg_shape = |i: usize| -> Shape {
        args.get(i)
            .map(|a| {
                let (n, g) = match a.find('<') {
                    Some(p) if a.ends_with('>') => (&a[..p], &a[p + 1..a.len() - 1]),
                    _ => (a.as_str(), ""),
                };
                shape_of(n.trim(), g)
            })
            .unwrap_or(Shape::Unknown)
    };
    match name.trim_start_matches("std::") {
        "vector" | "list" | "deque" | "array" => Shape::List(Box::new(arg_shape(0))),
        "set" | "unordered_set" => Shape::Set(Box::new(arg_shape(0))),
        "multiset" | "unordered_multiset" => Shape::Multiset(Box::new(arg_shape(0))),
        "map" | "unordered_map" => Shape::Map(Box::new(arg_shape(0)), Box::new(arg_shape(1))),
        "pair" | "tuple" => Shape::Tuple((0..args.len()).map(arg_shape).collect()),
        "string" | "string_view" => Shape::Str,
        _ => Shape::Scalar,
    }
}
