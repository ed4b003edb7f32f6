//! Go's literal syntax: `_` separators, `0o` octal (a leading zero is
//! invalid), `\x`/`\u` escapes, `true`/`false`/`nil`, and slice and array
//! composite literals (`[]int{1, 2}`, `[][]string{{"a"}, {}}`, `[3]int{…}`)
//! read by their element type. A bare `{…}` is invalid.

use super::Go;
use crate::literal::number::{LeadingZero, NumberSyntax};
use crate::literal::shape::Shape;
use crate::literal::string::{common_escape, unknown_escape};
use crate::literal::{self, not_literal, Grammar, LiteralSyntax, Reader, R};
use crate::value::Value;

const NUMBERS: NumberSyntax = NumberSyntax {
    separator: '_',
    octal_prefix: true,
    int_suffixes: &[],
    bigint_suffix: false,
    float_markers: &['f'],
    float_suffixes: &[],
    leading_zero: LeadingZero::Invalid,
};

impl LiteralSyntax for Go {
    fn parse_literal(&self, text: &str) -> R<Value> {
        literal::read(self, text)
    }
}

impl Grammar for Go {
    fn numbers(&self) -> &'static NumberSyntax {
        &NUMBERS
    }

    fn value_at(&self, r: &mut Reader<'_>, c: char, _: &Shape, depth: usize) -> Option<R<Value>> {
        (c == '[').then(|| composite(r, depth))
    }

    fn named(&self, _: &mut Reader<'_>, name: &str, _: &Shape, _: usize) -> R<Value> {
        match name {
            "true" => Ok(Value::Bool(true)),
            "false" => Ok(Value::Bool(false)),
            "nil" => Ok(Value::Null),
            _ => not_literal(format!("the name `{name}`")),
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
            '0' if !r.peek().is_some_and(|d| d.is_ascii_digit()) => out.push('\0'),
            'b' => out.push('\x08'),
            'f' => out.push('\x0c'),
            'v' => out.push('\x0b'),
            'x' => r.hex_escape(8, false, out)?,
            'u' => r.unicode_escape(out)?,
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

/// A slice or array composite literal, `[]T{…}` / `[N]T{…}`, nested
/// (`[][]int{{1, 2}, {3}}`, inner types elided or written out).
fn composite(r: &mut Reader<'_>, depth: usize) -> R<Value> {
    let shape = slice_type(r)?;
    r.ws();
    if r.peek() != Some('{') {
        return not_literal("a Go type without a composite literal");
    }
    r.braced(&shape, depth)
}

/// A slice/array type (`[]int`, `[3][]string`) as a [`Shape`].
fn slice_type(r: &mut Reader<'_>) -> R<Shape> {
    r.ws();
    if r.eat("[") {
        r.ws();
        while r.peek().is_some_and(|c| c.is_ascii_digit()) {
            r.advance(1);
        }
        r.expect("]")?;
        return Ok(Shape::List(Box::new(slice_type(r)?)));
    }
    match r.name().as_str() {
        "" => not_literal("a Go type expected"),
        "string" => Ok(Shape::Str),
        "map" | "struct" | "func" | "chan" | "interface" => {
            not_literal("a Go composite literal other than a slice or array")
        }
        _ => Ok(Shape::Scalar),
    }
}
