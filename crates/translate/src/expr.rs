//! The small subset of Python expressions MultiOOP tests are written in:
//! constants, lists, tuples, dicts, sets, names, calls, method calls,
//! attribute access, unary minus and one `==`. Anything outside it is an
//! error naming what was found; the translator then drops the test (it never
//! emits a line it could not read).
//!
//! Strings and numbers are read by `polyeval_lang::python::pylit` (prefixes, escapes,
//! adjacent-literal concatenation, underscores, radix prefixes).

use polyeval_lang::python::pylit::{self, PyValue};
use polyeval_lang::value::Value;
use std::fmt;

/// A parsed expression.
#[derive(Debug, Clone, PartialEq)]
pub enum Expr {
    /// A scalar constant: int, float, str, bool or None.
    Const(Value),
    List(Vec<Expr>),
    Tuple(Vec<Expr>),
    Set(Vec<Expr>),
    Dict(Vec<(Expr, Expr)>),
    Name(String),
    Call {
        func: Box<Expr>,
        args: Vec<Expr>,
    },
    Attr {
        value: Box<Expr>,
        name: String,
    },
    Neg(Box<Expr>),
    Eq(Box<Expr>, Box<Expr>),
}

/// Why a text is outside the subset.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ParseError {
    pub offset: usize,
    pub message: String,
}

impl fmt::Display for ParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} (at byte {})", self.message, self.offset)
    }
}

type R<T> = Result<T, ParseError>;

/// A test line `assert <expr>` (a message after a comma is not allowed: no
/// MultiOOP test has one, and dropping it silently would change the test).
pub fn parse_assert(line: &str) -> R<Expr> {
    let t = line.trim();
    let rest = t
        .strip_prefix("assert")
        .filter(|r| r.starts_with(|c: char| c.is_whitespace() || c == '('))
        .ok_or_else(|| ParseError {
            offset: 0,
            message: "not an `assert` statement".into(),
        })?;
    parse_expr(rest)
}

/// One whole expression.
pub fn parse_expr(text: &str) -> R<Expr> {
    let mut p = Parser { src: text, pos: 0 };
    let e = p.comparison()?;
    p.ws();
    if p.pos != text.len() {
        return Err(p.err(format!("unexpected `{}`", p.rest_short())));
    }
    Ok(e)
}

/// A test function `def NAME(p1, p2):` followed by `return <expr>` (the form
/// of every MultiOOP `test_function`): the parameter names and the expression.
pub fn parse_test_function(text: &str) -> R<(String, Vec<String>, Expr)> {
    let err = |m: &str| ParseError {
        offset: 0,
        message: m.into(),
    };
    let mut lines = text.lines().filter(|l| !l.trim().is_empty());
    let def = lines
        .next()
        .ok_or_else(|| err("empty test function"))?
        .trim();
    let head = def
        .strip_prefix("def ")
        .and_then(|d| d.strip_suffix(':'))
        .ok_or_else(|| err("the test function does not start with `def NAME(...):`"))?;
    let (name, params) = head
        .split_once('(')
        .ok_or_else(|| err("the test function has no parameter list"))?;
    let params = params
        .trim_end()
        .strip_suffix(')')
        .ok_or_else(|| err("the parameter list is not closed"))?;
    let params: Vec<String> = params
        .split(',')
        .map(str::trim)
        .filter(|p| !p.is_empty())
        .map(str::to_string)
        .collect();
    if params.iter().any(|p| !is_identifier(p)) || !is_identifier(name.trim()) {
        return Err(err("parameters other than plain names"));
    }
    let body = lines
        .next()
        .ok_or_else(|| err("the test function has no body"))?
        .trim();
    if lines.next().is_some() {
        return Err(err("the test function has more than one statement"));
    }
    let ret = body
        .strip_prefix("return ")
        .ok_or_else(|| err("the test function's body is not `return <expr>`"))?;
    Ok((name.trim().to_string(), params, parse_expr(ret)?))
}

fn is_identifier(s: &str) -> bool {
    s.chars()
        .next()
        .is_some_and(|c| c.is_alphabetic() || c == '_')
        && s.chars().all(|c| c.is_alphanumeric() || c == '_')
}

impl Expr {
    /// The constant value of the expression (literals, containers, negated
    /// numbers), or what keeps it from being one.
    pub fn value(&self) -> Result<Value, String> {
        Ok(match self {
            Expr::Const(v) => v.clone(),
            Expr::List(items) => Value::List(values(items)?),
            Expr::Tuple(items) => Value::Tuple(values(items)?),
            Expr::Set(items) => {
                let mut out: Vec<Value> = Vec::new();
                for v in values(items)? {
                    if !out.contains(&v) {
                        out.push(v);
                    }
                }
                Value::Set(out)
            }
            Expr::Dict(pairs) => {
                let mut out: Vec<(Value, Value)> = Vec::new();
                for (k, v) in pairs {
                    let (k, v) = (k.value()?, v.value()?);
                    match out.iter_mut().find(|(x, _)| *x == k) {
                        Some(slot) => slot.1 = v,
                        None => out.push((k, v)),
                    }
                }
                Value::Map(out)
            }
            Expr::Neg(e) => match e.value()? {
                Value::Int(i) => Value::Int(-i),
                Value::Float(f) => Value::Float(-f),
                Value::Bool(b) => Value::Int(-(b as i128)),
                other => return Err(format!("`-` applied to {}", other.kind())),
            },
            Expr::Name(n) => return Err(format!("the name `{n}`")),
            Expr::Call { .. } => return Err("a call".into()),
            Expr::Attr { name, .. } => return Err(format!("the attribute `.{name}`")),
            Expr::Eq(..) => return Err("a comparison".into()),
        })
    }

    /// The expression with every name in `bindings` replaced by its value.
    pub fn substitute(&self, bindings: &[(String, Expr)]) -> Expr {
        let sub = |e: &Expr| e.substitute(bindings);
        let all = |es: &[Expr]| es.iter().map(sub).collect();
        match self {
            Expr::Name(n) => bindings
                .iter()
                .find(|(b, _)| b == n)
                .map(|(_, e)| e.clone())
                .unwrap_or_else(|| self.clone()),
            Expr::Const(_) => self.clone(),
            Expr::List(v) => Expr::List(all(v)),
            Expr::Tuple(v) => Expr::Tuple(all(v)),
            Expr::Set(v) => Expr::Set(all(v)),
            Expr::Dict(p) => Expr::Dict(p.iter().map(|(k, v)| (sub(k), sub(v))).collect()),
            Expr::Call { func, args } => Expr::Call {
                func: Box::new(sub(func)),
                args: all(args),
            },
            Expr::Attr { value, name } => Expr::Attr {
                value: Box::new(sub(value)),
                name: name.clone(),
            },
            Expr::Neg(e) => Expr::Neg(Box::new(sub(e))),
            Expr::Eq(a, b) => Expr::Eq(Box::new(sub(a)), Box::new(sub(b))),
        }
    }
}

fn values(items: &[Expr]) -> Result<Vec<Value>, String> {
    items.iter().map(Expr::value).collect()
}

/// A Python literal for `v` (the tracer's input): exact for every value a
/// test can hold (floats in shortest round-trip form, `float('inf')` …).
pub fn python_literal(v: &Value) -> Result<String, String> {
    let join = |items: &[Value]| -> Result<String, String> {
        Ok(items
            .iter()
            .map(python_literal)
            .collect::<Result<Vec<_>, _>>()?
            .join(", "))
    };
    Ok(match v {
        Value::Null => "None".into(),
        Value::Bool(true) => "True".into(),
        Value::Bool(false) => "False".into(),
        Value::Int(i) => format!("({i})"),
        Value::BigInt(s) => format!("({s})"),
        Value::Float(f) if f.is_nan() => "float('nan')".into(),
        Value::Float(f) if f.is_infinite() => {
            format!("float('{}inf')", if *f < 0.0 { "-" } else { "" })
        }
        Value::Float(f) => format!("({f:?})"),
        Value::Str(s) => pylit::repr_str(s),
        Value::List(items) => format!("[{}]", join(items)?),
        Value::Tuple(items) if items.len() == 1 => format!("({},)", join(items)?),
        Value::Tuple(items) => format!("({})", join(items)?),
        Value::Set(items) if items.is_empty() => "set()".into(),
        Value::Set(items) => format!("{{{}}}", join(items)?),
        Value::Map(pairs) => format!(
            "{{{}}}",
            pairs
                .iter()
                .map(|(k, v)| Ok(format!("{}: {}", python_literal(k)?, python_literal(v)?)))
                .collect::<Result<Vec<_>, String>>()?
                .join(", ")
        ),
        other => return Err(format!("a {} has no Python literal", other.kind())),
    })
}

struct Parser<'a> {
    src: &'a str,
    pos: usize,
}

impl<'a> Parser<'a> {
    fn err(&self, message: impl Into<String>) -> ParseError {
        ParseError {
            offset: self.pos,
            message: message.into(),
        }
    }
    fn rest(&self) -> &'a str {
        &self.src[self.pos..]
    }
    fn rest_short(&self) -> String {
        self.rest().chars().take(20).collect()
    }
    fn peek(&self) -> Option<char> {
        self.rest().chars().next()
    }
    fn ws(&mut self) {
        while let Some(c) = self.peek() {
            if c == ' ' || c == '\t' || c == '\n' || c == '\r' {
                self.pos += 1;
            } else if c == '\\' && self.rest()[1..].starts_with('\n') {
                self.pos += 2;
            } else {
                break;
            }
        }
    }
    fn eat(&mut self, s: &str) -> bool {
        self.ws();
        if self.rest().starts_with(s) {
            self.pos += s.len();
            true
        } else {
            false
        }
    }

    fn comparison(&mut self) -> R<Expr> {
        let left = self.unary()?;
        self.ws();
        if self.rest().starts_with("==") {
            self.pos += 2;
            let right = self.unary()?;
            self.ws();
            if self.rest().starts_with("==") {
                return Err(self.err("a chained comparison"));
            }
            return Ok(Expr::Eq(Box::new(left), Box::new(right)));
        }
        for op in [
            "!=", "<=", ">=", "<", ">", " and ", " or ", " in ", " is ", " if ",
        ] {
            if self.rest().starts_with(op.trim_start()) || self.rest().starts_with(op) {
                return Err(self.err(format!("the operator `{}`", op.trim())));
            }
        }
        Ok(left)
    }

    fn unary(&mut self) -> R<Expr> {
        self.ws();
        match self.peek() {
            Some('-') => {
                self.pos += 1;
                Ok(Expr::Neg(Box::new(self.unary()?)))
            }
            Some('+') => {
                self.pos += 1;
                self.unary()
            }
            _ => self.postfix(),
        }
    }

    fn postfix(&mut self) -> R<Expr> {
        let mut e = self.atom()?;
        loop {
            self.ws();
            match self.peek() {
                Some('(') => {
                    if !matches!(e, Expr::Name(_) | Expr::Attr { .. } | Expr::Call { .. }) {
                        return Err(self.err("a call of something that is not a name"));
                    }
                    self.pos += 1;
                    let (args, _) = self.items(')')?;
                    e = Expr::Call {
                        func: Box::new(e),
                        args,
                    };
                }
                Some('.') => {
                    self.pos += 1;
                    self.ws();
                    let name = self.identifier();
                    if name.is_empty() {
                        return Err(self.err("`.` not followed by a name"));
                    }
                    e = Expr::Attr {
                        value: Box::new(e),
                        name,
                    };
                }
                Some('[') => return Err(self.err("subscripts")),
                _ => return Ok(e),
            }
        }
    }

    fn identifier(&mut self) -> String {
        let r = self.rest();
        let len = r
            .char_indices()
            .find(|&(i, c)| !(c.is_alphanumeric() || c == '_') || (i == 0 && c.is_ascii_digit()))
            .map(|(i, _)| i)
            .unwrap_or(r.len());
        self.pos += len;
        r[..len].to_string()
    }

    /// Comma-separated expressions up to `close`; also whether a comma followed the last.
    fn items(&mut self, close: char) -> R<(Vec<Expr>, bool)> {
        let mut out = Vec::new();
        let mut trailing = false;
        loop {
            self.ws();
            if self.peek() == Some(close) {
                self.pos += 1;
                return Ok((out, trailing));
            }
            if self.rest().starts_with('*') {
                return Err(self.err("starred arguments"));
            }
            let e = self.comparison()?;
            self.ws();
            if self.peek() == Some('=') && !self.rest().starts_with("==") {
                return Err(self.err("keyword arguments"));
            }
            if self.rest().starts_with(" for ") || self.rest().starts_with("for ") {
                return Err(self.err("a comprehension"));
            }
            out.push(e);
            self.ws();
            match self.peek() {
                Some(',') => {
                    self.pos += 1;
                    trailing = true;
                }
                Some(c) if c == close => trailing = false,
                Some(c) => return Err(self.err(format!("expected `,` or `{close}`, found `{c}`"))),
                None => return Err(self.err(format!("`{close}` missing"))),
            }
        }
    }

    fn atom(&mut self) -> R<Expr> {
        self.ws();
        let Some(c) = self.peek() else {
            return Err(self.err("an expression is missing"));
        };
        match c {
            '[' => {
                self.pos += 1;
                Ok(Expr::List(self.items(']')?.0))
            }
            '(' => {
                self.pos += 1;
                let (items, trailing) = self.items(')')?;
                if items.len() == 1 && !trailing {
                    Ok(items.into_iter().next().unwrap_or(Expr::Tuple(vec![])))
                } else {
                    Ok(Expr::Tuple(items))
                }
            }
            '{' => {
                self.pos += 1;
                self.brace()
            }
            '\'' | '"' => self.literal(),
            c if c.is_ascii_digit() || c == '.' => self.literal(),
            c if c.is_alphabetic() || c == '_' => {
                let start = self.pos;
                let name = self.identifier();
                if matches!(self.peek(), Some('\'' | '"')) {
                    let prefix = name.to_ascii_lowercase();
                    if prefix.contains('b') || prefix.contains('f') {
                        return Err(self.err(format!("a `{name}` string")));
                    }
                    self.pos = start;
                    return self.literal();
                }
                Ok(match name.as_str() {
                    "True" => Expr::Const(Value::Bool(true)),
                    "False" => Expr::Const(Value::Bool(false)),
                    "None" => Expr::Const(Value::Null),
                    "lambda" | "not" | "await" | "yield" => {
                        return Err(self.err(format!("`{name}`")))
                    }
                    _ => Expr::Name(name),
                })
            }
            other => Err(self.err(format!("unexpected `{other}`"))),
        }
    }

    /// `{…}`: a dict, or a set when there is no `:`.
    fn brace(&mut self) -> R<Expr> {
        self.ws();
        if self.eat("}") {
            return Ok(Expr::Dict(vec![]));
        }
        let first = self.comparison()?;
        if self.eat(":") {
            let mut pairs = vec![(first, self.comparison()?)];
            loop {
                if self.eat("}") {
                    return Ok(Expr::Dict(pairs));
                }
                if !self.eat(",") {
                    return Err(self.err("expected `,` or `}` in a dict"));
                }
                if self.eat("}") {
                    return Ok(Expr::Dict(pairs));
                }
                let k = self.comparison()?;
                if !self.eat(":") {
                    return Err(self.err("expected `:` in a dict"));
                }
                pairs.push((k, self.comparison()?));
            }
        }
        let mut items = vec![first];
        loop {
            if self.eat("}") {
                return Ok(Expr::Set(items));
            }
            if !self.eat(",") {
                return Err(self.err("expected `,` or `}` in a set"));
            }
            if self.eat("}") {
                return Ok(Expr::Set(items));
            }
            items.push(self.comparison()?);
        }
    }

    /// A number or string(s), read by the shared literal parser.
    fn literal(&mut self) -> R<Expr> {
        let (v, end) = pylit::parse_prefix(self.src, self.pos).map_err(|e| {
            // `1j`: the literal parser knows no imaginary suffix.
            let number = self.src[self.pos..]
                .trim_start_matches(|c: char| c.is_ascii_alphanumeric() || c == '.' || c == '_');
            let token = &self.src[self.pos..self.src.len() - number.len()];
            if token.ends_with(['j', 'J']) {
                self.err("a complex number")
            } else {
                ParseError {
                    offset: e.offset,
                    message: e.message,
                }
            }
        })?;
        if self.src[self.pos..end].contains('j') && !matches!(v, PyValue::Str(_)) {
            return Err(self.err("a complex number"));
        }
        self.pos = end;
        Ok(Expr::Const(match v {
            PyValue::Str(s) => Value::Str(s),
            PyValue::Int(i) => Value::Int(i),
            PyValue::Float(f) => Value::Float(f),
            PyValue::Bool(b) => Value::Bool(b),
            PyValue::None => Value::Null,
            _ => return Err(self.err("a container where a number or string was expected")),
        }))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use Value::*;

    fn name(n: &str) -> Expr {
        Expr::Name(n.into())
    }

    #[test]
    fn test_lines_and_test_functions_parse() {
        let e = parse_assert("assert candidate([0, -4, 4.5], 'a\"b')== True").unwrap();
        let Expr::Eq(call, expected) = e else {
            panic!()
        };
        assert_eq!(*expected, Expr::Const(Bool(true)));
        let Expr::Call { func, args } = *call else {
            panic!()
        };
        assert_eq!(*func, name("candidate"));
        assert_eq!(
            args[0].value().unwrap(),
            List(vec![Int(0), Int(-4), Float(4.5)])
        );
        assert_eq!(args[1].value().unwrap(), Str("a\"b".into()));
        let (f, params, body) = parse_test_function(
            "def candidate(content1,content2):\n    return SN_FDSB(content1).find_subarray(content2)",
        )
        .unwrap();
        assert_eq!(f, "candidate");
        assert_eq!(params, vec!["content1", "content2"]);
        let Expr::Call { func, args } = body else {
            panic!()
        };
        assert_eq!(args, vec![name("content2")]);
        let Expr::Attr { value, name: m } = *func else {
            panic!()
        };
        assert_eq!(m, "find_subarray");
        assert!(matches!(*value, Expr::Call { .. }));
    }

    #[test]
    fn containers_tuples_sets_dicts() {
        let v = |s: &str| parse_expr(s).unwrap().value().unwrap();
        assert_eq!(v("(1,)"), Tuple(vec![Int(1)]));
        assert_eq!(v("(1)"), Int(1));
        assert_eq!(v("()"), Tuple(vec![]));
        assert_eq!(v("{1, 2, 1}"), Set(vec![Int(1), Int(2)]));
        assert_eq!(v("{}"), Map(vec![]));
        assert_eq!(
            v("{'a': [1], 'b': -2.5, 'a': None}"),
            Map(vec![
                (Str("a".into()), Null),
                (Str("b".into()), Float(-2.5))
            ])
        );
        assert_eq!(v("'ab' \"cd\""), Str("abcd".into()));
        assert_eq!(v("1_000"), Int(1000));
        assert_eq!(v("- -3"), Int(3));
    }

    #[test]
    fn outside_the_subset_is_an_error_naming_it() {
        for (text, what) in [
            ("f(x=1)", "keyword arguments"),
            ("f(*a)", "starred"),
            ("a[0]", "subscripts"),
            ("a < b", "operator `<`"),
            ("a == b == c", "chained"),
            ("[x for x in y]", "comprehension"),
            ("b'x'", "`b` string"),
            ("lambda: 1", "`lambda`"),
            ("1j", "complex"),
        ] {
            let e = parse_expr(text).unwrap_err();
            assert!(e.message.contains(what), "{text}: {e}");
        }
        assert!(parse_assert("print(1)").is_err());
        assert!(parse_test_function("def c(a):\n    return A(a).f==5()").is_err());
        assert!(parse_test_function("def c(a):\n    return A(a).()").is_err());
        assert_eq!(parse_expr("f(1)").unwrap().value().unwrap_err(), "a call");
    }

    #[test]
    fn substitution_and_python_literals_round_trip() {
        let (_, params, body) =
            parse_test_function("def candidate(a, b):\n    return C(a).m(b)").unwrap();
        let args = [parse_expr("[1, 2]").unwrap(), parse_expr("'x'").unwrap()];
        let bound: Vec<(String, Expr)> = params.into_iter().zip(args).collect();
        assert_eq!(
            body.substitute(&bound),
            parse_expr("C([1, 2]).m('x')").unwrap()
        );
        for v in [
            List(vec![Int(-3), Float(0.1), Float(1e-7), Float(3.0)]),
            Tuple(vec![Str("a'\"\n\u{e9}".into())]),
            Set(vec![Int(1)]),
            Map(vec![(Str("k".into()), Bool(false))]),
            Null,
            Float(f64::NEG_INFINITY),
        ] {
            let text = python_literal(&v).unwrap();
            if let Value::Float(f) = v {
                if !f.is_finite() {
                    // No literal: a call of `float`, which the tracer evaluates.
                    assert!(text.starts_with("float('"), "{text}");
                    continue;
                }
            }
            let back = parse_expr(&text).unwrap().value().unwrap();
            assert_eq!(back, v, "{text}");
        }
    }
}
