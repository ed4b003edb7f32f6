//! Python's literal syntax: the literals of [`pylit`](super::pylit) (the
//! `ast.literal_eval` subset), after rejecting what it accepts but Python's
//! test header would not: bare `inf`/`nan` names, bytes, f-strings, complex
//! numbers.

use super::pylit::{self, PyValue};
use super::Python;
use crate::lex::mask;
use crate::literal::shape::set;
use crate::literal::{not_literal, LiteralError, LiteralSyntax, R};
use crate::value::Value;
use crate::Language;

impl LiteralSyntax for Python {
    fn parse_literal(&self, text: &str) -> R<Value> {
        let masked = mask(Language::Python, text);
        for word in masked
            .text
            .split(|c: char| !(c.is_alphanumeric() || c == '_'))
            .filter(|w| !w.is_empty())
        {
            match word {
                "inf" | "nan" => return not_literal(format!("the name `{word}`")),
                w if w.ends_with('j') && w.starts_with(|c: char| c.is_ascii_digit()) => {
                    return not_literal("a complex number")
                }
                _ => {}
            }
        }
        // String prefixes other than r/u (bytes and f-strings differ from str).
        // In the masked text a string's contents are blanked, so letters right
        // before a quote are a prefix (never the end of the previous string).
        let mb = masked.text.as_bytes();
        for (i, &b) in mb.iter().enumerate() {
            if b == b'\'' || b == b'"' {
                let mut j = i;
                while j > 0 && mb[j - 1].is_ascii_alphabetic() {
                    j -= 1;
                }
                let prefix = masked.text[j..i].to_ascii_lowercase();
                if prefix.contains('b') || prefix.contains('f') {
                    return not_literal(format!("a `{prefix}` string"));
                }
            }
        }
        let v = pylit::parse(text).map_err(|e| LiteralError::NotLiteral(e.to_string()))?;
        Ok(from_py(v))
    }
}

fn from_py(v: PyValue) -> Value {
    match v {
        PyValue::Str(s) => Value::Str(s),
        PyValue::Int(i) => Value::Int(i),
        PyValue::Float(f) => Value::Float(f),
        PyValue::Bool(b) => Value::Bool(b),
        PyValue::None => Value::Null,
        PyValue::List(items) => Value::List(items.into_iter().map(from_py).collect()),
        PyValue::Tuple(items) => Value::Tuple(items.into_iter().map(from_py).collect()),
        PyValue::Dict(kv) => Value::Map(
            kv.into_iter()
                .map(|(k, v)| (from_py(k), from_py(v)))
                .collect(),
        ),
        PyValue::Set(items) => set(items.into_iter().map(from_py).collect()),
    }
}
