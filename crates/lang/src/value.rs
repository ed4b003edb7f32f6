//! The typed value model: what an observer reports about the value of an
//! expression under test, and what a parsed expected literal is.
//!
//! Wire format (JSON, written by the preludes, read here):
//!
//! | value | JSON |
//! |---|---|
//! | null / None / nullptr | `null` |
//! | JS `undefined` | `{"undefined":null}` |
//! | bool | `true` / `false` |
//! | int (fits i64) | `42` (a JSON number without `.`/`e`) |
//! | int (any size) | `{"int":"123456789012345678901234567890"}` |
//! | float (finite) | `2.0`, `1e-9` (a JSON number with `.` or `e`) |
//! | float (non-finite) | `{"float":"nan"}`, `{"float":"inf"}`, `{"float":"-inf"}` |
//! | string | `"text"` |
//! | char (C++/Java/C#) | `{"char":97}` (code unit) |
//! | list / array / vector | `[…]` or `{"list":[…]}` |
//! | tuple / pair | `{"tuple":[…]}` |
//! | set | `{"set":[…]}` |
//! | map / dict / PHP non-list array | `{"map":[[k,v],…]}` (pairs in iteration order) |
//! | other object | `{"object":"TypeName"}`, optionally `"fields":[["name",v],…]` |
//! | gave up (depth/size bound) | `{"truncated":null}` |
//!
//! A JSON number is an int when it has no fraction or exponent, so an
//! observer must print a float `2.0` as `2.0`, never `2`.

use serde::de::{self, Deserializer};
use serde::ser::{SerializeMap, SerializeSeq, Serializer};
use serde::{Deserialize, Serialize};
use std::fmt;

#[derive(Debug, Clone, PartialEq)]
pub enum Value {
    Null,
    /// JavaScript `undefined` (distinct from `null` under strict equality).
    Undefined,
    Bool(bool),
    Int(i128),
    /// An integer beyond i128, as its canonical decimal text (`-` and digits,
    /// no leading zeros).
    BigInt(String),
    Float(f64),
    Str(String),
    /// A character as its code unit/point (C++ `char`, Java/C# `char`).
    Char(u32),
    List(Vec<Value>),
    Tuple(Vec<Value>),
    Set(Vec<Value>),
    /// Key-value pairs in the order the program iterated them.
    Map(Vec<(Value, Value)>),
    /// A value the observer does not look into: its type name, and for
    /// languages whose equality is structural (JS objects, Go structs) its fields.
    Object {
        type_name: String,
        fields: Option<Vec<(String, Value)>>,
    },
    /// The observer stopped (nesting or size bound): never equal to anything.
    Truncated,
}

impl Value {
    pub fn object(type_name: impl Into<String>) -> Value {
        Value::Object {
            type_name: type_name.into(),
            fields: None,
        }
    }

    /// An integer from decimal text of any size.
    pub fn int_from_decimal(text: &str) -> Option<Value> {
        let t = text.trim();
        let (neg, digits) = match t.strip_prefix('-') {
            Some(d) => (true, d),
            None => (false, t.strip_prefix('+').unwrap_or(t)),
        };
        if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
            return None;
        }
        let trimmed = digits.trim_start_matches('0');
        let canon = if trimmed.is_empty() {
            "0".to_string()
        } else if neg {
            format!("-{trimmed}")
        } else {
            trimmed.to_string()
        };
        Some(match canon.parse::<i128>() {
            Ok(i) => Value::Int(i),
            Err(_) => Value::BigInt(canon),
        })
    }

    /// Short kind name for messages ("int", "list" …).
    pub fn kind(&self) -> &'static str {
        match self {
            Value::Null => "null",
            Value::Undefined => "undefined",
            Value::Bool(_) => "bool",
            Value::Int(_) | Value::BigInt(_) => "int",
            Value::Float(_) => "float",
            Value::Str(_) => "str",
            Value::Char(_) => "char",
            Value::List(_) => "list",
            Value::Tuple(_) => "tuple",
            Value::Set(_) => "set",
            Value::Map(_) => "map",
            Value::Object { .. } => "object",
            Value::Truncated => "truncated",
        }
    }

    /// Number of nodes (for bounding work on hostile input).
    pub fn size(&self) -> usize {
        match self {
            Value::List(v) | Value::Tuple(v) | Value::Set(v) => {
                1 + v.iter().map(Value::size).sum::<usize>()
            }
            Value::Map(kv) => 1 + kv.iter().map(|(k, v)| k.size() + v.size()).sum::<usize>(),
            Value::Object {
                fields: Some(f), ..
            } => 1 + f.iter().map(|(_, v)| v.size()).sum::<usize>(),
            _ => 1,
        }
    }
}

/// The character standing for byte `b` (0x80 and up) of a byte string that
/// is not UTF-8 there: U+10FF00 + b. C++ and PHP strings hold bytes; their
/// observers and the literal reader map them alike, so `"\xff"` equals a
/// string holding that byte and not `"ÿ"` (which is two bytes, c3 bf).
pub fn byte_marker(b: u8) -> char {
    char::from_u32(0x10FF00 + u32::from(b)).unwrap_or('\u{fffd}')
}

/// The byte a [`byte_marker`] stands for.
pub fn marked_byte(c: char) -> Option<u8> {
    let v = u32::from(c);
    (0x10FF80..=0x10FFFF)
        .contains(&v)
        .then(|| (v - 0x10FF00) as u8)
}

/// Bytes as text: well-formed UTF-8 as its characters, any other byte as its
/// [`byte_marker`].
pub fn text_of_bytes(bytes: &[u8]) -> String {
    let mut out = String::with_capacity(bytes.len());
    let mut rest = bytes;
    while !rest.is_empty() {
        match std::str::from_utf8(rest) {
            Ok(s) => {
                out.push_str(s);
                break;
            }
            Err(e) => {
                let (good, bad) = rest.split_at(e.valid_up_to());
                out.push_str(std::str::from_utf8(good).unwrap_or_default());
                let skip = e.error_len().unwrap_or(bad.len()).max(1);
                for &b in &bad[..skip] {
                    out.push(byte_marker(b));
                }
                rest = &bad[skip..];
            }
        }
    }
    out
}

/// Compact, language-neutral rendering for verdict details
/// (`[1, 2.5, "a", 'b', {1: None}]`), cut at `limit` characters.
pub fn render(v: &Value, limit: usize) -> String {
    let mut s = String::new();
    write_value(&mut s, v, limit);
    if s.len() > limit {
        let mut end = limit;
        while !s.is_char_boundary(end) {
            end -= 1;
        }
        s.truncate(end);
        s.push('…');
    }
    s
}

fn write_value(out: &mut String, v: &Value, limit: usize) {
    if out.len() > limit {
        return;
    }
    let seq = |out: &mut String, items: &[Value], open: &str, close: &str| {
        out.push_str(open);
        for (i, x) in items.iter().enumerate() {
            if i > 0 {
                out.push_str(", ");
            }
            write_value(out, x, limit);
            if out.len() > limit {
                return;
            }
        }
        out.push_str(close);
    };
    match v {
        Value::Null => out.push_str("null"),
        Value::Undefined => out.push_str("undefined"),
        Value::Bool(b) => out.push_str(if *b { "true" } else { "false" }),
        Value::Int(i) => out.push_str(&i.to_string()),
        Value::BigInt(s) => out.push_str(s),
        Value::Float(f) => out.push_str(&format_float(*f)),
        Value::Str(s) => out.push_str(&serde_json::to_string(s).unwrap_or_default()),
        Value::Char(c) => match char::from_u32(*c) {
            Some(ch) => {
                out.push('\'');
                out.extend(ch.escape_default());
                out.push('\'');
            }
            None => out.push_str(&format!("char({c})")),
        },
        Value::List(items) => seq(out, items, "[", "]"),
        Value::Tuple(items) => seq(out, items, "(", ")"),
        Value::Set(items) => seq(out, items, "set{", "}"),
        Value::Map(kv) => {
            out.push('{');
            for (i, (k, x)) in kv.iter().enumerate() {
                if i > 0 {
                    out.push_str(", ");
                }
                write_value(out, k, limit);
                out.push_str(": ");
                write_value(out, x, limit);
                if out.len() > limit {
                    return;
                }
            }
            out.push('}');
        }
        Value::Object { type_name, fields } => {
            out.push('<');
            out.push_str(type_name);
            if let Some(fields) = fields {
                out.push(' ');
                for (i, (k, x)) in fields.iter().enumerate() {
                    if i > 0 {
                        out.push_str(", ");
                    }
                    out.push_str(k);
                    out.push('=');
                    write_value(out, x, limit);
                }
            }
            out.push('>');
        }
        Value::Truncated => out.push_str("<truncated>"),
    }
}

/// A float as a literal that reads back as a float (`2.0`, not `2`).
pub fn format_float(f: f64) -> String {
    if f.is_nan() {
        "nan".into()
    } else if f.is_infinite() {
        if f > 0.0 { "inf" } else { "-inf" }.into()
    } else {
        let s = format!("{f:?}");
        s
    }
}

impl fmt::Display for Value {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&render(self, 400))
    }
}

struct Pairs<'a, K: Serialize>(&'a [(K, Value)]);

impl<K: Serialize> Serialize for Pairs<'_, K> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut seq = s.serialize_seq(Some(self.0.len()))?;
        for (k, v) in self.0 {
            seq.serialize_element(&(k, v))?;
        }
        seq.end()
    }
}

impl Serialize for Value {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        fn tagged<S: Serializer, T: Serialize + ?Sized>(
            s: S,
            tag: &str,
            v: &T,
        ) -> Result<S::Ok, S::Error> {
            let mut m = s.serialize_map(Some(1))?;
            m.serialize_entry(tag, v)?;
            m.end()
        }
        match self {
            Value::Null => s.serialize_unit(),
            Value::Undefined => tagged(s, "undefined", &()),
            Value::Bool(b) => s.serialize_bool(*b),
            Value::Int(i) => match i64::try_from(*i) {
                Ok(small) => s.serialize_i64(small),
                Err(_) => tagged(s, "int", &i.to_string()),
            },
            Value::BigInt(text) => tagged(s, "int", text),
            Value::Float(f) if f.is_finite() => s.serialize_f64(*f),
            Value::Float(f) => tagged(s, "float", &format_float(*f)),
            Value::Str(text) => s.serialize_str(text),
            Value::Char(c) => tagged(s, "char", c),
            Value::List(items) => items.serialize(s),
            Value::Tuple(items) => tagged(s, "tuple", items),
            Value::Set(items) => tagged(s, "set", items),
            Value::Map(kv) => tagged(s, "map", &Pairs(kv)),
            Value::Object { type_name, fields } => {
                let mut m = s.serialize_map(Some(1 + fields.is_some() as usize))?;
                m.serialize_entry("object", type_name)?;
                if let Some(fields) = fields {
                    m.serialize_entry("fields", &Pairs(fields))?;
                }
                m.end()
            }
            Value::Truncated => tagged(s, "truncated", &()),
        }
    }
}

/// Why a JSON document is not a [`Value`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ValueError(pub String);

impl fmt::Display for ValueError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

/// Deepest nesting accepted from an observer (deeper input is `Truncated`).
pub const MAX_DEPTH: usize = 200;

impl TryFrom<&serde_json::Value> for Value {
    type Error = ValueError;
    fn try_from(j: &serde_json::Value) -> Result<Value, ValueError> {
        from_json(j, 0)
    }
}

fn err<T>(msg: impl Into<String>) -> Result<T, ValueError> {
    Err(ValueError(msg.into()))
}

fn from_json(j: &serde_json::Value, depth: usize) -> Result<Value, ValueError> {
    use serde_json::Value as J;
    if depth > MAX_DEPTH {
        return Ok(Value::Truncated);
    }
    let list = |items: &J| -> Result<Vec<Value>, ValueError> {
        match items {
            J::Array(a) => a.iter().map(|x| from_json(x, depth + 1)).collect(),
            _ => err("expected an array"),
        }
    };
    Ok(match j {
        J::Null => Value::Null,
        J::Bool(b) => Value::Bool(*b),
        J::Number(n) => {
            if let Some(i) = n.as_i64() {
                Value::Int(i as i128)
            } else if let Some(u) = n.as_u64() {
                Value::Int(u as i128)
            } else {
                // serde_json stores numbers with a fraction/exponent (and huge
                // integers) as f64; an integer too big for u64 must be sent as
                // {"int": "..."} by the observer.
                Value::Float(n.as_f64().unwrap_or(f64::NAN))
            }
        }
        J::String(s) => Value::Str(s.clone()),
        J::Array(a) => Value::List(
            a.iter()
                .map(|x| from_json(x, depth + 1))
                .collect::<Result<_, _>>()?,
        ),
        J::Object(m) => {
            if let Some(name) = m.get("object") {
                let J::String(name) = name else {
                    return err("`object` must name a type");
                };
                let fields = match m.get("fields") {
                    None | Some(J::Null) => None,
                    Some(J::Array(pairs)) => Some(
                        pairs
                            .iter()
                            .map(|p| match p {
                                J::Array(kv) if kv.len() == 2 => {
                                    let J::String(k) = &kv[0] else {
                                        return err("field names must be strings");
                                    };
                                    Ok((k.clone(), from_json(&kv[1], depth + 1)?))
                                }
                                _ => err("`fields` must hold [name, value] pairs"),
                            })
                            .collect::<Result<_, _>>()?,
                    ),
                    Some(_) => return err("`fields` must be an array"),
                };
                return Ok(Value::Object {
                    type_name: name.clone(),
                    fields,
                });
            }
            if m.len() != 1 {
                return err(format!(
                    "a tagged value has exactly one key, found {}",
                    m.len()
                ));
            }
            let (tag, body) = m.iter().next().expect("one entry");
            match tag.as_str() {
                "undefined" => Value::Undefined,
                "truncated" => Value::Truncated,
                "int" => match body {
                    J::String(s) => Value::int_from_decimal(s)
                        .ok_or_else(|| ValueError(format!("`int` is not decimal: {s:?}")))?,
                    J::Number(n) if n.is_i64() || n.is_u64() => Value::Int(
                        n.as_i64()
                            .map(i128::from)
                            .unwrap_or_else(|| n.as_u64().map(i128::from).unwrap_or_default()),
                    ),
                    _ => return err("`int` must be a decimal string"),
                },
                "float" => match body {
                    J::String(s) => match s.as_str() {
                        "nan" | "NaN" => Value::Float(f64::NAN),
                        "inf" | "Infinity" => Value::Float(f64::INFINITY),
                        "-inf" | "-Infinity" => Value::Float(f64::NEG_INFINITY),
                        other => match other.parse::<f64>() {
                            Ok(f) => Value::Float(f),
                            Err(_) => return err(format!("`float` is not a number: {other:?}")),
                        },
                    },
                    J::Number(n) => Value::Float(n.as_f64().unwrap_or(f64::NAN)),
                    _ => return err("`float` must be a number or nan/inf/-inf"),
                },
                "char" => match body.as_u64() {
                    Some(c) if c <= u32::MAX as u64 => Value::Char(c as u32),
                    _ => match body {
                        J::String(s) if s.chars().count() == 1 => {
                            Value::Char(s.chars().next().map(u32::from).unwrap_or(0))
                        }
                        _ => return err("`char` must be a code unit number"),
                    },
                },
                "list" => Value::List(list(body)?),
                "tuple" => Value::Tuple(list(body)?),
                "set" => Value::Set(list(body)?),
                "map" => match body {
                    J::Array(pairs) => Value::Map(
                        pairs
                            .iter()
                            .map(|p| match p {
                                J::Array(kv) if kv.len() == 2 => Ok((
                                    from_json(&kv[0], depth + 1)?,
                                    from_json(&kv[1], depth + 1)?,
                                )),
                                _ => err("`map` must hold [key, value] pairs"),
                            })
                            .collect::<Result<_, _>>()?,
                    ),
                    _ => return err("`map` must be an array of pairs"),
                },
                other => return err(format!("unknown value tag `{other}`")),
            }
        }
    })
}

impl<'de> Deserialize<'de> for Value {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Value, D::Error> {
        let j = serde_json::Value::deserialize(d)?;
        Value::try_from(&j).map_err(de::Error::custom)
    }
}

/// Which language's equality a check uses.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Equality {
    Python,
    Cpp,
    Java,
    CSharp,
    /// PHP `===` / `!==`.
    PhpStrict,
    /// PHP `==` / `!=`.
    PhpLoose,
    /// node `assert.deepEqual` / `assert.equal`.
    JsLoose,
    /// node `assert.deepStrictEqual` / `assert.strictEqual`.
    JsStrict,
    Go,
}

/// Float tolerance: `|a − b| ≤ max(rel · max(|a|, |b|), abs)`.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct Tolerance {
    pub rel: f64,
    pub abs: f64,
}

impl Tolerance {
    pub const DEFAULT: Tolerance = Tolerance {
        rel: 1e-9,
        abs: 1e-12,
    };
    /// Exact comparison (what upstream's `==` does).
    pub const EXACT: Tolerance = Tolerance { rel: 0.0, abs: 0.0 };
}

impl Default for Tolerance {
    fn default() -> Self {
        Tolerance::DEFAULT
    }
}

/// Equality plus tolerance.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct Semantics {
    pub equality: Equality,
    pub tolerance: Tolerance,
}

impl Semantics {
    pub fn new(equality: Equality) -> Semantics {
        Semantics {
            equality,
            tolerance: Tolerance::DEFAULT,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rt(v: &Value) -> Value {
        let text = serde_json::to_string(v).unwrap();
        serde_json::from_str(&text).unwrap()
    }

    #[test]
    fn bytes_that_are_not_utf8_have_markers_of_their_own() {
        assert_eq!(text_of_bytes("ÿ".as_bytes()), "ÿ");
        let one = text_of_bytes(&[b'a', 0xff, b'b']);
        assert_eq!(one.chars().nth(1).and_then(marked_byte), Some(0xff));
        assert_ne!(one, "aÿb");
        // A cut sequence at the end: each byte its own marker.
        let cut = text_of_bytes(&[0xc3]);
        assert_eq!(
            cut.chars().map(marked_byte).collect::<Vec<_>>(),
            vec![Some(0xc3)]
        );
        assert_eq!(marked_byte('a'), None);
    }

    #[test]
    fn wire_format_round_trips_every_kind() {
        let v = Value::List(vec![
            Value::Null,
            Value::Undefined,
            Value::Bool(true),
            Value::Int(-3),
            Value::Int(i128::MAX),
            Value::BigInt("-1234567890123456789012345678901234567890123".into()),
            Value::Float(2.0),
            Value::Float(-0.0),
            Value::Float(f64::INFINITY),
            Value::Str("a\"b\u{e9}".into()),
            Value::Char(97),
            Value::Tuple(vec![Value::Int(1), Value::Str("x".into())]),
            Value::Set(vec![Value::Int(1)]),
            Value::Map(vec![(Value::Str("k".into()), Value::List(vec![]))]),
            Value::object("Foo"),
            Value::Object {
                type_name: "P".into(),
                fields: Some(vec![("x".into(), Value::Int(1))]),
            },
            Value::Truncated,
        ]);
        assert_eq!(rt(&v), v);
        let Value::List(items) = rt(&Value::List(vec![Value::Float(-0.0)])) else {
            panic!()
        };
        assert!(matches!(items[0], Value::Float(f) if f == 0.0 && f.is_sign_negative()));
        // NaN survives (as a tag) even though NaN != NaN.
        assert!(matches!(rt(&Value::Float(f64::NAN)), Value::Float(f) if f.is_nan()));
    }

    #[test]
    fn json_numbers_are_ints_only_without_fraction_or_exponent() {
        let v: Value = serde_json::from_str("[2, 2.0, 1e3, 18446744073709551615]").unwrap();
        assert_eq!(
            v,
            Value::List(vec![
                Value::Int(2),
                Value::Float(2.0),
                Value::Float(1000.0),
                Value::Int(u64::MAX as i128)
            ])
        );
        assert_eq!(Value::int_from_decimal("-000123"), Some(Value::Int(-123)));
        assert_eq!(
            Value::int_from_decimal(&"9".repeat(50)),
            Some(Value::BigInt("9".repeat(50)))
        );
        assert_eq!(Value::int_from_decimal("12a"), None);
    }

    #[test]
    fn malformed_tags_are_errors_not_panics() {
        for bad in [
            r#"{"int": "x"}"#,
            r#"{"map": [[1]]}"#,
            r#"{"a": 1, "b": 2}"#,
            r#"{"nope": 1}"#,
            r#"{"object": 3}"#,
            r#"{"char": -1}"#,
        ] {
            assert!(serde_json::from_str::<Value>(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn deep_nesting_is_truncated_not_a_stack_overflow() {
        let deep = format!("{}{}", "[".repeat(300), "]".repeat(300));
        // serde_json itself limits recursion to 128; both outcomes are fine, neither panics.
        let _ = serde_json::from_str::<Value>(&deep);
    }

    #[test]
    fn render_is_short_and_typed() {
        let v = Value::List(vec![
            Value::Float(2.0),
            Value::Char(98),
            Value::Str("a".into()),
        ]);
        assert_eq!(render(&v, 100), "[2.0, 'b', \"a\"]");
        assert!(render(&Value::Str("x".repeat(1000)), 20).chars().count() <= 21);
    }
}
