//! A small parser for Python literals (the subset upstream data uses when it
//! stores lists as their Python `repr`): strings in `'` or `"` quotes (also
//! triple-quoted, with `r`/`u`/`b` prefixes and adjacent-literal
//! concatenation), integers, floats, `True`/`False`/`None`, lists, tuples and
//! dicts, nested arbitrarily.
//!
//! Upstream files sometimes hold `"['assert f(1) == 2', \"x = 'a'\"]"` instead
//! of a JSON array, and the OOP keyword lists live inside Python code such as
//! `assert candidate([["class A", "def f"]]) == True`. We parse these without
//! running Python.

use std::fmt;

/// A parsed Python literal.
#[derive(Debug, Clone, PartialEq)]
pub enum PyValue {
    Str(String),
    Int(i128),
    Float(f64),
    Bool(bool),
    None,
    List(Vec<PyValue>),
    Tuple(Vec<PyValue>),
    Dict(Vec<(PyValue, PyValue)>),
    /// A set display `{a, b}` (each element once, in the order written).
    Set(Vec<PyValue>),
}

/// Where and why parsing failed (byte offset into the input).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PyLitError {
    pub offset: usize,
    pub message: String,
}

impl fmt::Display for PyLitError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "invalid Python literal at byte {}: {}",
            self.offset, self.message
        )
    }
}

impl std::error::Error for PyLitError {}

impl PyValue {
    /// The value as text the way a test line should read: strings as
    /// themselves, everything else as its Python `repr`.
    pub fn to_line(&self) -> String {
        match self {
            PyValue::Str(s) => s.clone(),
            other => other.repr(),
        }
    }

    /// Python's `repr` of the value (floats approximately: shortest
    /// round-trip digits, `e+NN` exponents for very large/small magnitudes).
    pub fn repr(&self) -> String {
        let mut out = String::new();
        self.write_repr(&mut out);
        out
    }

    fn write_repr(&self, out: &mut String) {
        match self {
            PyValue::Str(s) => out.push_str(&repr_str(s)),
            PyValue::Int(i) => out.push_str(&i.to_string()),
            PyValue::Float(f) => out.push_str(&repr_float(*f)),
            PyValue::Bool(true) => out.push_str("True"),
            PyValue::Bool(false) => out.push_str("False"),
            PyValue::None => out.push_str("None"),
            PyValue::List(items) => {
                out.push('[');
                for (i, v) in items.iter().enumerate() {
                    if i > 0 {
                        out.push_str(", ");
                    }
                    v.write_repr(out);
                }
                out.push(']');
            }
            PyValue::Tuple(items) => {
                out.push('(');
                for (i, v) in items.iter().enumerate() {
                    if i > 0 {
                        out.push_str(", ");
                    }
                    v.write_repr(out);
                }
                if items.len() == 1 {
                    out.push(',');
                }
                out.push(')');
            }
            PyValue::Dict(items) => {
                out.push('{');
                for (i, (k, v)) in items.iter().enumerate() {
                    if i > 0 {
                        out.push_str(", ");
                    }
                    k.write_repr(out);
                    out.push_str(": ");
                    v.write_repr(out);
                }
                out.push('}');
            }
            PyValue::Set(items) if items.is_empty() => out.push_str("set()"),
            PyValue::Set(items) => {
                out.push('{');
                for (i, v) in items.iter().enumerate() {
                    if i > 0 {
                        out.push_str(", ");
                    }
                    v.write_repr(out);
                }
                out.push('}');
            }
        }
    }

    /// The elements when the value is a list or tuple.
    pub fn as_seq(&self) -> Option<&[PyValue]> {
        match self {
            PyValue::List(v) | PyValue::Tuple(v) => Some(v),
            _ => None,
        }
    }

    pub fn as_str(&self) -> Option<&str> {
        match self {
            PyValue::Str(s) => Some(s),
            _ => None,
        }
    }
}

fn repr_float(f: f64) -> String {
    if f.is_nan() {
        return "nan".into();
    }
    if f.is_infinite() {
        return if f > 0.0 { "inf".into() } else { "-inf".into() };
    }
    let a = f.abs();
    if a != 0.0 && !(1e-4..1e16).contains(&a) {
        // Rust prints `1e16`; Python prints `1e+16`.
        let s = format!("{f:e}");
        match s.split_once('e') {
            Some((m, e)) if !e.starts_with('-') => format!("{m}e+{e:0>2}"),
            Some((m, e)) => format!("{m}e-{:0>2}", &e[1..]),
            None => s,
        }
    } else {
        format!("{f:?}")
    }
}

/// Python's `repr` of a string: single quotes unless the text contains a
/// single quote and no double quote.
pub fn repr_str(s: &str) -> String {
    let quote = if s.contains('\'') && !s.contains('"') {
        '"'
    } else {
        '\''
    };
    let mut out = String::with_capacity(s.len() + 2);
    out.push(quote);
    for c in s.chars() {
        match c {
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            c if c == quote => {
                out.push('\\');
                out.push(c);
            }
            c if (c as u32) < 0x20 || c as u32 == 0x7f => {
                out.push_str(&format!("\\x{:02x}", c as u32))
            }
            c if !c.is_ascii() && !is_printable(c) => match c as u32 {
                n if n < 0x100 => out.push_str(&format!("\\x{n:02x}")),
                n if n < 0x10000 => out.push_str(&format!("\\u{n:04x}")),
                n => out.push_str(&format!("\\U{n:08x}")),
            },
            c => out.push(c),
        }
    }
    out.push(quote);
    out
}

/// Python's `str.isprintable` for one non-ASCII character: false for the
/// general categories Cc, Cf, Cs, Co, Cn, Zl, Zp and Zs (which `repr`
/// escapes). Category data: `regex-syntax`'s Unicode tables.
fn is_printable(c: char) -> bool {
    use regex_syntax::hir::{Class, ClassUnicode, HirKind};
    use std::sync::OnceLock;
    static NON_PRINTABLE: OnceLock<ClassUnicode> = OnceLock::new();
    let class = NON_PRINTABLE.get_or_init(|| {
        let hir = regex_syntax::parse(r"[\p{Cc}\p{Cf}\p{Co}\p{Cn}\p{Zl}\p{Zp}\p{Zs}]")
            .expect("valid class");
        match hir.kind() {
            HirKind::Class(Class::Unicode(class)) => class.clone(),
            _ => unreachable!("a Unicode class parses to a class"),
        }
    });
    class
        .ranges()
        .binary_search_by(|r| {
            if r.end() < c {
                std::cmp::Ordering::Less
            } else if r.start() > c {
                std::cmp::Ordering::Greater
            } else {
                std::cmp::Ordering::Equal
            }
        })
        .is_err()
}

/// Parse one complete Python literal (surrounding whitespace allowed).
pub fn parse(src: &str) -> Result<PyValue, PyLitError> {
    let mut p = Parser { src, pos: 0 };
    let v = p.value()?;
    p.skip_ws();
    if p.pos != src.len() {
        return Err(p.err("unexpected text after the literal"));
    }
    Ok(v)
}

/// Parse a literal that starts at byte `start` of `src`; returns the value
/// and the byte offset just after it (trailing text is allowed).
pub fn parse_prefix(src: &str, start: usize) -> Result<(PyValue, usize), PyLitError> {
    if !src.is_char_boundary(start) || start > src.len() {
        return Err(PyLitError {
            offset: start,
            message: "start offset is not a character boundary".into(),
        });
    }
    let mut p = Parser { src, pos: start };
    let v = p.value()?;
    Ok((v, p.pos))
}

/// Parse a literal that must be a list (or tuple) of strings, e.g. a test list.
/// Nested lists are flattened; non-string scalars become their `repr`.
pub fn parse_string_list(src: &str) -> Result<Vec<String>, PyLitError> {
    let v = parse(src)?;
    match v.as_seq() {
        Some(items) => {
            let mut out = Vec::with_capacity(items.len());
            flatten_lines(items, &mut out);
            Ok(out)
        }
        None => Err(PyLitError {
            offset: 0,
            message: "expected a list".into(),
        }),
    }
}

/// Append each element as a line; nested sequences are flattened.
pub fn flatten_lines(items: &[PyValue], out: &mut Vec<String>) {
    for item in items {
        match item.as_seq() {
            Some(inner) => flatten_lines(inner, out),
            None => out.push(item.to_line()),
        }
    }
}

struct Parser<'a> {
    src: &'a str,
    pos: usize,
}

impl<'a> Parser<'a> {
    fn err(&self, message: impl Into<String>) -> PyLitError {
        PyLitError {
            offset: self.pos,
            message: message.into(),
        }
    }

    fn rest(&self) -> &'a str {
        &self.src[self.pos..]
    }

    fn peek(&self) -> Option<char> {
        self.rest().chars().next()
    }

    /// Skip whitespace, line continuations and comments (lists spread over lines may have them).
    fn skip_ws(&mut self) {
        loop {
            let Some(c) = self.peek() else { return };
            if c.is_whitespace() {
                self.pos += c.len_utf8();
            } else if c == '\\'
                && (self.rest().starts_with("\\\n") || self.rest().starts_with("\\\r\n"))
            {
                self.pos += if self.rest().starts_with("\\\n") {
                    2
                } else {
                    3
                };
            } else if c == '#' {
                match self.rest().find('\n') {
                    Some(i) => self.pos += i,
                    None => self.pos = self.src.len(),
                }
            } else {
                return;
            }
        }
    }

    fn value(&mut self) -> Result<PyValue, PyLitError> {
        self.skip_ws();
        let Some(c) = self.peek() else {
            return Err(self.err("unexpected end of input, expected a value"));
        };
        match c {
            '[' => {
                self.pos += 1;
                Ok(PyValue::List(self.seq(']')?))
            }
            '(' => {
                self.pos += 1;
                let (items, trailing_comma) = self.seq_with_comma(')')?;
                // `(x)` is just x, `(x,)` is a tuple.
                if items.len() == 1 && !trailing_comma {
                    Ok(items.into_iter().next().unwrap_or(PyValue::None))
                } else {
                    Ok(PyValue::Tuple(items))
                }
            }
            '{' => {
                self.pos += 1;
                self.dict()
            }
            '\'' | '"' => self.strings(),
            c if c.is_ascii_digit() || c == '.' || c == '-' || c == '+' => self.number(),
            c if c.is_alphabetic() || c == '_' => {
                let ident_len = self
                    .rest()
                    .find(|ch: char| !(ch.is_alphanumeric() || ch == '_'))
                    .unwrap_or(self.rest().len());
                let ident = &self.rest()[..ident_len];
                let after = &self.rest()[ident_len..];
                if (after.starts_with('\'') || after.starts_with('"')) && is_string_prefix(ident) {
                    return self.strings();
                }
                let v = match ident {
                    "True" => PyValue::Bool(true),
                    "False" => PyValue::Bool(false),
                    "None" => PyValue::None,
                    "inf" => PyValue::Float(f64::INFINITY),
                    "nan" => PyValue::Float(f64::NAN),
                    _ => {
                        return Err(self.err(format!(
                            "unexpected name `{ident}` (only literals are supported)"
                        )))
                    }
                };
                self.pos += ident_len;
                Ok(v)
            }
            other => Err(self.err(format!("unexpected character `{other}`"))),
        }
    }

    fn seq(&mut self, close: char) -> Result<Vec<PyValue>, PyLitError> {
        Ok(self.seq_with_comma(close)?.0)
    }

    /// Elements up to `close`; also whether the last element was followed by a comma.
    fn seq_with_comma(&mut self, close: char) -> Result<(Vec<PyValue>, bool), PyLitError> {
        let mut items = Vec::new();
        let mut trailing_comma = false;
        loop {
            self.skip_ws();
            match self.peek() {
                None => return Err(self.err(format!("unterminated sequence, expected `{close}`"))),
                Some(c) if c == close => {
                    self.pos += 1;
                    return Ok((items, trailing_comma));
                }
                _ => {}
            }
            items.push(self.value()?);
            self.skip_ws();
            match self.peek() {
                Some(',') => {
                    self.pos += 1;
                    trailing_comma = true;
                }
                Some(c) if c == close => {
                    trailing_comma = false;
                }
                Some(c) => return Err(self.err(format!("expected `,` or `{close}`, found `{c}`"))),
                None => return Err(self.err(format!("unterminated sequence, expected `{close}`"))),
            }
        }
    }

    /// After `{`: a dict display, or a set display when its first element
    /// is not followed by `:`.
    fn dict(&mut self) -> Result<PyValue, PyLitError> {
        let mut items = Vec::new();
        self.skip_ws();
        if self.peek() != Some('}') {
            let save = self.pos;
            self.value()?;
            self.skip_ws();
            let is_set = self.peek() != Some(':');
            self.pos = save;
            if is_set {
                let mut elements: Vec<PyValue> = Vec::new();
                for v in self.seq('}')? {
                    if !elements.contains(&v) {
                        elements.push(v);
                    }
                }
                return Ok(PyValue::Set(elements));
            }
        }
        loop {
            self.skip_ws();
            match self.peek() {
                None => return Err(self.err("unterminated dict, expected `}`")),
                Some('}') => {
                    self.pos += 1;
                    return Ok(PyValue::Dict(items));
                }
                _ => {}
            }
            let k = self.value()?;
            self.skip_ws();
            if self.peek() != Some(':') {
                return Err(self.err("expected `:` in dict"));
            }
            self.pos += 1;
            let v = self.value()?;
            items.push((k, v));
            self.skip_ws();
            match self.peek() {
                Some(',') => self.pos += 1,
                Some('}') => {}
                _ => return Err(self.err("expected `,` or `}` in dict")),
            }
        }
    }

    fn number(&mut self) -> Result<PyValue, PyLitError> {
        let start = self.pos;
        let mut negative = false;
        while let Some(c @ ('-' | '+')) = self.peek() {
            if c == '-' {
                negative = !negative;
            }
            self.pos += 1;
            self.skip_ws();
        }
        let rest = self.rest();
        if rest.starts_with("inf") || rest.starts_with("nan") {
            self.pos += 3;
            let f = if rest.starts_with("inf") {
                f64::INFINITY
            } else {
                f64::NAN
            };
            return Ok(PyValue::Float(if negative { -f } else { f }));
        }
        let len = rest
            .char_indices()
            .find(|&(i, c)| {
                !(c.is_ascii_alphanumeric()
                    || c == '_'
                    || c == '.'
                    || ((c == '-' || c == '+')
                        && i > 0
                        && matches!(rest.as_bytes()[i - 1], b'e' | b'E')
                        && !rest.starts_with("0x")))
            })
            .map(|(i, _)| i)
            .unwrap_or(rest.len());
        let text: String = rest[..len].chars().filter(|&c| c != '_').collect();
        if text.is_empty() {
            self.pos = start;
            return Err(self.err("expected a number"));
        }
        let lower = text.to_ascii_lowercase();
        let int = if let Some(h) = lower.strip_prefix("0x") {
            i128::from_str_radix(h, 16).ok()
        } else if let Some(o) = lower.strip_prefix("0o") {
            i128::from_str_radix(o, 8).ok()
        } else if let Some(b) = lower.strip_prefix("0b") {
            i128::from_str_radix(b, 2).ok()
        } else if lower.bytes().all(|b| b.is_ascii_digit()) {
            lower.parse::<i128>().ok()
        } else {
            None
        };
        let value = match int {
            Some(i) => PyValue::Int(if negative { -i } else { i }),
            None => match lower.parse::<f64>() {
                Ok(f) if !lower.starts_with("0x") => PyValue::Float(if negative { -f } else { f }),
                _ => {
                    self.pos = start;
                    return Err(self.err(format!("invalid number `{text}`")));
                }
            },
        };
        self.pos += len;
        Ok(value)
    }

    /// One or more adjacent string literals (Python concatenates them).
    fn strings(&mut self) -> Result<PyValue, PyLitError> {
        let mut out = self.string()?;
        loop {
            let save = self.pos;
            self.skip_ws();
            let rest = self.rest();
            let prefix_len = rest
                .find(['\'', '"'])
                .filter(|&i| is_string_prefix(&rest[..i]));
            match prefix_len {
                Some(_) => out.push_str(&self.string()?),
                None => {
                    self.pos = save;
                    return Ok(PyValue::Str(out));
                }
            }
        }
    }

    fn string(&mut self) -> Result<String, PyLitError> {
        let start = self.pos;
        let rest = self.rest();
        let quote_at = rest
            .find(['\'', '"'])
            .ok_or_else(|| self.err("expected a string"))?;
        let prefix = rest[..quote_at].to_ascii_lowercase();
        if !is_string_prefix(&prefix) {
            return Err(self.err("expected a string"));
        }
        let raw = prefix.contains('r');
        let q = rest.as_bytes()[quote_at] as char;
        let triple = format!("{q}{q}{q}");
        let is_triple = rest[quote_at..].starts_with(&triple);
        self.pos += quote_at + if is_triple { 3 } else { 1 };
        let mut out = String::new();
        loop {
            let Some(c) = self.peek() else {
                self.pos = start;
                return Err(self.err("unterminated string"));
            };
            if is_triple {
                if self.rest().starts_with(&triple) {
                    self.pos += 3;
                    return Ok(out);
                }
            } else if c == q {
                self.pos += 1;
                return Ok(out);
            } else if c == '\n' {
                return Err(self.err("newline inside a single-quoted string"));
            }
            self.pos += c.len_utf8();
            if c != '\\' {
                out.push(c);
                continue;
            }
            let Some(e) = self.peek() else {
                self.pos = start;
                return Err(self.err("unterminated string"));
            };
            self.pos += e.len_utf8();
            if raw {
                // Raw strings keep the backslash; it only protects the quote.
                out.push('\\');
                out.push(e);
                continue;
            }
            match e {
                '\n' => {}
                '\\' => out.push('\\'),
                '\'' => out.push('\''),
                '"' => out.push('"'),
                'n' => out.push('\n'),
                't' => out.push('\t'),
                'r' => out.push('\r'),
                'a' => out.push('\x07'),
                'b' => out.push('\x08'),
                'f' => out.push('\x0c'),
                'v' => out.push('\x0b'),
                '0'..='7' => {
                    let mut digits = String::from(e);
                    while digits.len() < 3 {
                        match self.peek() {
                            Some(d @ '0'..='7') => {
                                digits.push(d);
                                self.pos += 1;
                            }
                            _ => break,
                        }
                    }
                    let code = u32::from_str_radix(&digits, 8).unwrap_or(0);
                    out.push(char::from_u32(code).unwrap_or('\u{fffd}'));
                }
                'x' | 'u' | 'U' => {
                    let n = match e {
                        'x' => 2,
                        'u' => 4,
                        _ => 8,
                    };
                    let hex: String = self.rest().chars().take(n).collect();
                    if hex.len() != n || !hex.chars().all(|h| h.is_ascii_hexdigit()) {
                        return Err(self.err(format!("invalid \\{e} escape")));
                    }
                    self.pos += n;
                    let code = u32::from_str_radix(&hex, 16).unwrap_or(0xfffd);
                    out.push(char::from_u32(code).unwrap_or('\u{fffd}'));
                }
                other => {
                    // Python keeps unknown escapes verbatim.
                    out.push('\\');
                    out.push(other);
                }
            }
        }
    }
}

fn is_string_prefix(p: &str) -> bool {
    matches!(
        p.to_ascii_lowercase().as_str(),
        "" | "r" | "u" | "b" | "br" | "rb"
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn set_displays_are_sets_and_braces_with_colons_dicts() {
        assert_eq!(
            parse("{'a', 'b', 'a'}").unwrap(),
            PyValue::Set(vec![PyValue::Str("a".into()), PyValue::Str("b".into())])
        );
        assert_eq!(
            parse("{1: 'x'}").unwrap(),
            PyValue::Dict(vec![(PyValue::Int(1), PyValue::Str("x".into()))])
        );
        assert_eq!(parse("{}").unwrap(), PyValue::Dict(vec![]));
        assert_eq!(parse("{(1, 2)}").unwrap().repr(), "{(1, 2)}");
    }

    #[test]
    fn parses_test_list_with_mixed_quotes_and_escapes() {
        let src = r#"['assert f("a")==1', "x = 'b'", 'it\'s', "tab\there", 'uni\u00e9\x41']"#;
        let v = parse_string_list(src).unwrap();
        assert_eq!(
            v,
            vec![
                "assert f(\"a\")==1",
                "x = 'b'",
                "it's",
                "tab\there",
                "uniéA"
            ]
        );
    }

    #[test]
    fn parses_nested_lists_numbers_and_constants() {
        let v = parse("[[1, -2.5, 1e3], (True, False, None), (7,), 0x1F, {'k': [1]}]").unwrap();
        assert_eq!(
            v,
            PyValue::List(vec![
                PyValue::List(vec![
                    PyValue::Int(1),
                    PyValue::Float(-2.5),
                    PyValue::Float(1000.0)
                ]),
                PyValue::Tuple(vec![
                    PyValue::Bool(true),
                    PyValue::Bool(false),
                    PyValue::None
                ]),
                PyValue::Tuple(vec![PyValue::Int(7)]),
                PyValue::Int(31),
                PyValue::Dict(vec![(
                    PyValue::Str("k".into()),
                    PyValue::List(vec![PyValue::Int(1)])
                )]),
            ])
        );
    }

    #[test]
    fn flattens_nested_test_lines() {
        let v = parse_string_list("['a = 1', [1.5, None], 'b']").unwrap();
        assert_eq!(v, vec!["a = 1", "1.5", "None", "b"]);
    }

    #[test]
    fn triple_quoted_raw_and_concatenated_strings() {
        assert_eq!(
            parse("'''a\n'b'\"'''").unwrap(),
            PyValue::Str("a\n'b'\"".into())
        );
        assert_eq!(parse(r"r'a\nb'").unwrap(), PyValue::Str("a\\nb".into()));
        assert_eq!(parse("'ab' \"cd\"").unwrap(), PyValue::Str("abcd".into()));
        assert_eq!(parse("'a\\\nb'").unwrap(), PyValue::Str("ab".into()));
    }

    #[test]
    fn trailing_commas_and_comments() {
        assert_eq!(
            parse("[\n  'a',  # first\n  'b',\n]").unwrap(),
            PyValue::List(vec![PyValue::Str("a".into()), PyValue::Str("b".into())])
        );
    }

    #[test]
    fn errors_point_at_the_problem() {
        let e = parse("['a', 'b'").unwrap_err();
        assert!(e.message.contains("unterminated"), "{e}");
        let e = parse("['a' 'b' x]").unwrap_err();
        assert!(e.message.contains("expected `,`"), "{e}");
        let e = parse("[foo]").unwrap_err();
        assert!(e.message.contains("foo"), "{e}");
        assert_eq!(e.offset, 1);
        assert!(parse("'abc")
            .unwrap_err()
            .message
            .contains("unterminated string"));
        assert!(parse("[1] 2")
            .unwrap_err()
            .message
            .contains("after the literal"));
        assert!(parse_string_list("'abc'").is_err());
        assert!(parse("'\\x4'").is_err());
    }

    #[test]
    fn parse_prefix_reports_end() {
        let src = "assert candidate([[\"class A\", \"def f\"]]) == True";
        let start = src.find("[[").unwrap();
        let (v, end) = parse_prefix(src, start).unwrap();
        assert_eq!(&src[end..], ") == True");
        assert_eq!(v.repr(), "[['class A', 'def f']]");
    }

    #[test]
    fn float_repr_matches_python() {
        assert_eq!(PyValue::Float(1000000.0).repr(), "1000000.0");
        assert_eq!(PyValue::Float(1e16).repr(), "1e+16");
        assert_eq!(PyValue::Float(1.5e-7).repr(), "1.5e-07");
        assert_eq!(PyValue::Float(0.5).repr(), "0.5");
    }

    fn arb_value() -> impl Strategy<Value = PyValue> {
        let leaf = prop_oneof![
            any::<String>().prop_map(PyValue::Str),
            any::<i64>().prop_map(|i| PyValue::Int(i as i128)),
            (-1e12f64..1e12).prop_map(PyValue::Float),
            any::<bool>().prop_map(PyValue::Bool),
            Just(PyValue::None),
        ];
        leaf.prop_recursive(4, 32, 6, |inner| {
            prop_oneof![
                prop::collection::vec(inner.clone(), 0..6).prop_map(PyValue::List),
                prop::collection::vec(inner, 0..6).prop_map(PyValue::Tuple),
            ]
        })
    }

    proptest! {
        /// Whatever we print as a Python repr parses back to the same value.
        #[test]
        fn repr_round_trips(v in arb_value()) {
            let text = v.repr();
            let back = parse(&text).map_err(|e| TestCaseError::fail(format!("{e} in {text}")))?;
            prop_assert_eq!(back, v);
        }

        /// Arbitrary input never panics.
        #[test]
        fn never_panics(s in ".{0,64}") {
            let _ = parse(&s);
            let _ = parse_string_list(&s);
        }

        /// Arbitrary strings with quotes and backslashes survive repr + parse.
        #[test]
        fn strings_round_trip(s in "[a-z'\"\\\\\n\t ]{0,30}") {
            prop_assert_eq!(parse(&repr_str(&s)).unwrap(), PyValue::Str(s));
        }
    }
}
