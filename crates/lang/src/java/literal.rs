//! Java's literal syntax: `_` separators, `L` and `f`/`d` suffixes, octal
//! and `\u` escapes (and `\s`), `true`/`false`/`null`, the `Double`/
//! `Integer`/`Long` constants, arrays (`new int[]{…}`), the collection
//! factories (`Arrays.asList`, `List.of`, `Set.of`, `Map.of`) and
//! constructors (`new ArrayList<>(…)`) and the boxing calls
//! (`Integer.valueOf(…)`). A `[…]` list or a bare `{…}` is invalid.

use super::Java;
use crate::literal::number::{LeadingZero, NumberSyntax};
use crate::literal::shape::{set, Shape};
use crate::literal::string::{common_escape, unknown_escape};
use crate::literal::{
    self, float_constant, not_literal, python_constant, Grammar, LiteralSyntax, Reader, R,
};
use crate::value::Value;

const NUMBERS: NumberSyntax = NumberSyntax {
    separator: '_',
    octal_prefix: false,
    int_suffixes: &["l"],
    bigint_suffix: false,
    float_markers: &['f', 'd'],
    float_suffixes: &[('f', true), ('d', false)],
    leading_zero: LeadingZero::Octal,
};

impl LiteralSyntax for Java {
    fn parse_literal(&self, text: &str) -> R<Value> {
        literal::read(self, text)
    }
}

impl Grammar for Java {
    fn numbers(&self) -> &'static NumberSyntax {
        &NUMBERS
    }

    fn value_at(&self, _: &mut Reader<'_>, _: char, _: &Shape, _: usize) -> Option<R<Value>> {
        None
    }

    fn named(&self, r: &mut Reader<'_>, name: &str, shape: &Shape, depth: usize) -> R<Value> {
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
            "new" => constructed(r, shape, depth),
            "Arrays.asList" | "List.of" | "java.util.List.of" | "Collections.emptyList" => {
                Ok(Value::List(r.args(&Shape::Unknown, depth)?))
            }
            "Set.of" | "Collections.emptySet" => Ok(set(r.args(&Shape::Unknown, depth)?)),
            "Map.of" | "Collections.emptyMap" => {
                let a = r.args(&Shape::Unknown, depth)?;
                if a.len() % 2 != 0 {
                    return not_literal("Map.of with an odd number of arguments");
                }
                let mut it = a.into_iter();
                let mut pairs = Vec::new();
                while let (Some(k), Some(v)) = (it.next(), it.next()) {
                    pairs.push((k, v));
                }
                Ok(Value::Map(pairs))
            }
            "Integer.valueOf" | "Long.valueOf" | "Double.valueOf" | "Boolean.valueOf"
            | "Character.valueOf" | "String.valueOf" => {
                let mut a = r.args(&Shape::Scalar, depth)?;
                match (name, a.len(), a.pop()) {
                    ("String.valueOf", 1, Some(Value::Str(s))) => Ok(Value::Str(s)),
                    ("String.valueOf", _, _) => not_literal("String.valueOf of a non-string"),
                    (_, 1, Some(v)) => Ok(v),
                    _ => not_literal(format!("{name}(…)")),
                }
            }
            "Integer.MAX_VALUE" => Ok(Value::Int(i32::MAX as i128)),
            "Integer.MIN_VALUE" => Ok(Value::Int(i32::MIN as i128)),
            "Long.MAX_VALUE" => Ok(Value::Int(i64::MAX as i128)),
            "Long.MIN_VALUE" => Ok(Value::Int(i64::MIN as i128)),
            other => not_literal(format!("the name `{other}`")),
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
            'b' => out.push('\x08'),
            'f' => out.push('\x0c'),
            's' => out.push(' '),
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

/// After `new`: an array initialiser (`new int[][]{{1}, {}}`), a
/// collection constructor, a `String` or a boxed primitive.
fn constructed(r: &mut Reader<'_>, shape: &Shape, depth: usize) -> R<Value> {
    let ty = r.name();
    r.generics()?;
    r.ws();
    if r.rest().starts_with('[') {
        while r.eat("[") {
            r.expect("]")?;
        }
        let elem = if ty == "String" || ty == "java.lang.String" {
            Shape::Str
        } else {
            Shape::Unknown
        };
        return r.braced(&Shape::List(Box::new(elem)), depth);
    }
    match ty.as_str() {
        "ArrayList" | "LinkedList" | "HashSet" | "TreeSet" | "LinkedHashSet" | "HashMap"
        | "TreeMap" | "LinkedHashMap" => {
            let mut a = r.args(shape, depth)?;
            let is_set = ty.ends_with("Set");
            let v = match (a.len(), a.pop()) {
                (0, _) if ty.ends_with("Map") => Value::Map(vec![]),
                (0, _) => Value::List(vec![]),
                (1, Some(v)) => v,
                _ => return not_literal(format!("new {ty}(…)")),
            };
            Ok(match (is_set, v) {
                (true, Value::List(items)) => set(items),
                (_, v) => v,
            })
        }
        "String" => {
            let mut a = r.args(&Shape::Str, depth)?;
            match (a.len(), a.pop()) {
                (0, _) => Ok(Value::Str(String::new())),
                (1, Some(v @ Value::Str(_))) => Ok(v),
                _ => not_literal("new String(…)"),
            }
        }
        "Integer" | "Long" | "Double" | "Boolean" | "Character" => {
            let mut a = r.args(&Shape::Scalar, depth)?;
            match (a.len(), a.pop()) {
                (1, Some(v)) => Ok(v),
                _ => not_literal(format!("new {ty}(…)")),
            }
        }
        other => not_literal(format!("new {other}(…)")),
    }
}
