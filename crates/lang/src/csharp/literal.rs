//! C#'s literal syntax: `_` separators, `UL` and `f`/`d`/`m` suffixes (a
//! leading zero is still decimal), `\x`/`\u`/`\U` escapes, verbatim strings
//! (`@"…"`, `""` for a quote; `$"…"` interpolates), `true`/`false`/`null`,
//! the `int.MaxValue`-style constants, arrays (`new[] {…}`, `new int[,]{…}`)
//! and collection initialisers (`new List<int>{…}`,
//! `new Dictionary<K, V>{{k, v}}`). A `[…]` list or a bare `{…}` is invalid.

use super::CSharp;
use crate::literal::number::{LeadingZero, NumberSyntax};
use crate::literal::shape::Shape;
use crate::literal::string::{common_escape, unknown_escape};
use crate::literal::{
    self, float_constant, not_literal, python_constant, Grammar, LiteralSyntax, Reader, R,
};
use crate::value::Value;

const NUMBERS: NumberSyntax = NumberSyntax {
    separator: '_',
    octal_prefix: false,
    int_suffixes: &["ul", "lu", "u", "l"],
    bigint_suffix: false,
    float_markers: &['f', 'd', 'm'],
    float_suffixes: &[('f', true), ('d', false), ('m', false)],
    leading_zero: LeadingZero::Decimal,
};

impl LiteralSyntax for CSharp {
    fn parse_literal(&self, text: &str) -> R<Value> {
        literal::read(self, text)
    }
}

impl Grammar for CSharp {
    fn numbers(&self) -> &'static NumberSyntax {
        &NUMBERS
    }

    fn value_at(&self, r: &mut Reader<'_>, c: char, _: &Shape, _: usize) -> Option<R<Value>> {
        match c {
            '@' => Some(r.string()),
            '$' => Some(not_literal("an interpolated string")),
            _ => None,
        }
    }

    fn named(&self, r: &mut Reader<'_>, name: &str, _: &Shape, depth: usize) -> R<Value> {
        match name {
            "true" => return Ok(Value::Bool(true)),
            "false" => return Ok(Value::Bool(false)),
            "null" => return Ok(Value::Null),
            _ => {}
        }
        if let Some(f) = float_constant(name) {
            return Ok(Value::Float(f));
        }
        if let Some(invalid) = python_constant(name) {
            return invalid;
        }
        match name {
            "new" => constructed(r, depth),
            "int.MaxValue" | "Int32.MaxValue" => Ok(Value::Int(i32::MAX as i128)),
            "int.MinValue" | "Int32.MinValue" => Ok(Value::Int(i32::MIN as i128)),
            "long.MaxValue" | "Int64.MaxValue" => Ok(Value::Int(i64::MAX as i128)),
            "long.MinValue" | "Int64.MinValue" => Ok(Value::Int(i64::MIN as i128)),
            "string.Empty" | "String.Empty" => Ok(Value::Str(String::new())),
            other => not_literal(format!("the name `{other}`")),
        }
    }

    fn string_part(&self, r: &mut Reader<'_>, c: char) -> Option<R<String>> {
        (c == '@').then(|| verbatim(r))
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
            '0' if !r.peek().is_some_and(|d| d.is_ascii_digit()) => out.push('\0'),
            'a' => out.push('\x07'),
            'b' => out.push('\x08'),
            'f' => out.push('\x0c'),
            'v' => out.push('\x0b'),
            'x' => r.hex_escape(4, false, out)?,
            'u' => r.unicode_escape(out)?,
            'U' => r.long_unicode_escape(out)?,
            other => return unknown_escape(other),
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

/// A verbatim string at its `@`: `""` is a quote, no escapes.
fn verbatim(r: &mut Reader<'_>) -> R<String> {
    r.advance(1);
    if r.peek() != Some('"') {
        return not_literal("`@` not followed by a string");
    }
    r.advance(1);
    let mut text = String::new();
    loop {
        let Some(ch) = r.peek() else {
            return not_literal("unterminated verbatim string");
        };
        r.advance(ch.len_utf8());
        if ch == '"' {
            if r.peek() == Some('"') {
                r.advance(1);
                text.push('"');
                continue;
            }
            break;
        }
        text.push(ch);
    }
    Ok(text)
}

/// After `new`: an array initialiser (`new[] {…}`, `new int[,]{…}`) or a
/// collection with an initialiser or an empty constructor call.
fn constructed(r: &mut Reader<'_>, depth: usize) -> R<Value> {
    r.ws();
    let ty = if r.rest().starts_with('[') {
        String::new()
    } else {
        r.name()
    };
    let generics = r.generics()?;
    r.ws();
    if r.rest().starts_with('[') {
        while r.eat("[") {
            while r.eat(",") {}
            r.expect("]")?;
        }
        let elem = if ty == "string" || ty == "String" {
            Shape::Str
        } else {
            Shape::Unknown
        };
        return r.braced(&Shape::List(Box::new(elem)), depth);
    }
    let shape = match ty.as_str() {
        "List" | "LinkedList" => Shape::List(Box::new(Shape::Unknown)),
        "HashSet" | "SortedSet" => Shape::Set(Box::new(Shape::Unknown)),
        "Dictionary" | "SortedDictionary" => {
            Shape::Map(Box::new(Shape::Unknown), Box::new(Shape::Unknown))
        }
        other => return not_literal(format!("new {other}{generics}(…)")),
    };
    r.ws();
    if r.peek() == Some('(') {
        let a = r.args(&shape, depth)?;
        if !a.is_empty() {
            return not_literal(format!("new {ty}(…) with arguments"));
        }
        r.ws();
        if r.peek() != Some('{') {
            return Ok(shape.empty());
        }
    }
    let v = r.braced(&shape, depth)?;
    Ok(shape.reshape(v))
}
