//! Expected values from the right-hand sides of test lines, read in Rust per
//! language, so that they never have to enter the sandbox.
//!
//! Each language reads the literal forms the language itself accepts there
//! (numbers with the language's separators and suffixes, strings with its
//! escapes, chars, booleans, null, and collection constructors such as
//! `std::vector<int>{…}`, `new int[]{…}`, `Arrays.asList(…)`, `List.of(…)`,
//! `new List<int>{…}`, PHP `[…]`/`array(…)`, JS arrays and objects, Go
//! `[]int{…}`) and rejects, as [`LiteralError::Invalid`], text that the
//! language would reject (a Python `True` in C++, a `[…]` list in Java): the
//! judge's split keeps such lines as in-process lines so their compile error
//! stays what it was upstream. Anything else (names, calls, arithmetic) is
//! [`LiteralError::NotLiteral`].
//!
//! [`LiteralSyntax`] is the concern a language folder implements (its
//! `literal.rs`). Python reads its literals with its own reader
//! ([`crate::python::pylit`]); the other languages share one
//! recursive-descent [`Reader`] here and answer its questions through
//! [`Grammar`]: their numbers ([`NumberSyntax`]), string escapes,
//! interpolation, keywords and collection constructors. The reader's parts:
//! [`number`] (number tokens), [`string`] (quoted text and
//! escapes), `collection` (lists, brace initialisers, arguments) and
//! [`shape`] (what a typed brace list stands for).
//!
//! A language that reads literals as another one does delegates to it
//! (`fn parse_literal(&self, text: &str) -> R<Value> { JavaScript.parse_literal(text) }`).

mod collection;
pub mod number;
pub mod shape;
pub mod string;
#[cfg(test)]
mod tests;

pub use number::{LeadingZero, NumberSyntax};
pub use shape::Shape;

use crate::value::Value;

/// Why a right-hand side gave no expected value.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum LiteralError {
    /// A literal the language does not accept there (would not compile / would throw).
    #[error("not valid in the language: {0}")]
    Invalid(String),
    /// Not a literal (an expression we do not evaluate).
    #[error("not a literal: {0}")]
    NotLiteral(String),
}

/// A reading's result.
pub type R<T> = Result<T, LiteralError>;

/// [`LiteralError::Invalid`] with message `m`.
pub fn invalid<T>(m: impl Into<String>) -> R<T> {
    Err(LiteralError::Invalid(m.into()))
}

/// [`LiteralError::NotLiteral`] with message `m`.
pub fn not_literal<T>(m: impl Into<String>) -> R<T> {
    Err(LiteralError::NotLiteral(m.into()))
}

/// How a language's expected values are read (a supertrait of
/// [`Dialect`](crate::Dialect)).
pub trait LiteralSyntax {
    /// The expected value written as `text` in a test line of this language.
    fn parse_literal(&self, text: &str) -> R<Value>;
}

/// The questions the shared [`Reader`] asks a language. No default methods:
/// a language answers every one.
pub trait Grammar: Send + Sync {
    /// How it writes numbers.
    fn numbers(&self) -> &'static NumberSyntax;

    /// Its own reading of a value that starts with `c` (a quote other than
    /// `"`, a bracket, a sigil), or `None` for the shared reading: `'…'` is a
    /// char, `[…]` is invalid, and `{…}` is a brace initialiser (invalid as a
    /// whole operand).
    fn value_at(
        &self,
        r: &mut Reader<'_>,
        c: char,
        shape: &Shape,
        depth: usize,
    ) -> Option<R<Value>>;

    /// A name at a value's start, already read (`r` is after it): keywords,
    /// constants, collection constructors; anything else is not a literal.
    fn named(&self, r: &mut Reader<'_>, name: &str, shape: &Shape, depth: usize) -> R<Value>;

    /// Its own string form starting with `c` (not a quote), read into text,
    /// or `None` when `c` starts no string.
    fn string_part(&self, r: &mut Reader<'_>, c: char) -> Option<R<String>>;

    /// Whether character `c` (followed by `next`) inside a `quote`-quoted
    /// string starts an interpolation (the string is then no literal).
    fn interpolates(&self, quote: char, c: char, next: Option<char>) -> bool;

    /// Decode the escape `\e` inside a `quote`-quoted string (`r` is after
    /// `e`) onto `out`.
    fn escape(&self, r: &mut Reader<'_>, quote: char, e: char, out: &mut String) -> R<()>;

    /// Whether its strings hold bytes (a byte escape from 0x80 up is that
    /// byte, not the code point; a char literal is one ASCII byte).
    fn byte_strings(&self) -> bool;

    /// Whether adjacent string literals concatenate (`"a" "b"`).
    fn adjacent_strings_concatenate(&self) -> bool;
}

/// The whole of `text` as one literal of `grammar`'s language.
pub fn read(grammar: &dyn Grammar, text: &str) -> R<Value> {
    let mut r = Reader {
        grammar,
        src: text,
        pos: 0,
    };
    let v = r.value()?;
    r.ws();
    if r.pos != text.len() {
        return not_literal(format!("unexpected `{}`", r.rest_short()));
    }
    Ok(v)
}

/// The non-finite float constants as Java and C# spell them (both readers
/// accept either language's spelling).
pub fn float_constant(name: &str) -> Option<f64> {
    match name {
        "Double.NaN" | "double.NaN" | "Float.NaN" => Some(f64::NAN),
        "Double.POSITIVE_INFINITY" | "double.PositiveInfinity" => Some(f64::INFINITY),
        "Double.NEGATIVE_INFINITY" | "double.NegativeInfinity" => Some(f64::NEG_INFINITY),
        _ => None,
    }
}

/// Python's `True`/`False`/`None` left in another language's test (an
/// upstream defect): invalid there.
pub fn python_constant(name: &str) -> Option<R<Value>> {
    matches!(name, "True" | "False" | "None").then(|| invalid(format!("Python's `{name}`")))
}

const MAX_NESTING: usize = 64;

/// The shared recursive-descent reader over one literal's text.
pub struct Reader<'a> {
    grammar: &'a dyn Grammar,
    src: &'a str,
    pos: usize,
}

impl<'a> Reader<'a> {
    /// The text not read yet.
    pub fn rest(&self) -> &'a str {
        &self.src[self.pos..]
    }
    fn rest_short(&self) -> String {
        self.rest().chars().take(24).collect()
    }
    /// The next character.
    pub fn peek(&self) -> Option<char> {
        self.rest().chars().next()
    }
    /// Move on by `bytes`.
    pub fn advance(&mut self, bytes: usize) {
        self.pos += bytes;
    }
    /// Skip whitespace.
    pub fn ws(&mut self) {
        while let Some(c) = self.peek() {
            if c.is_whitespace() {
                self.pos += c.len_utf8();
            } else {
                break;
            }
        }
    }
    /// After whitespace, `s` if it is next.
    pub fn eat(&mut self, s: &str) -> bool {
        self.ws();
        if self.rest().starts_with(s) {
            self.pos += s.len();
            true
        } else {
            false
        }
    }
    /// After whitespace, `s`, or not a literal.
    pub fn expect(&mut self, s: &str) -> R<()> {
        if self.eat(s) {
            Ok(())
        } else {
            not_literal(format!("expected `{s}` at `{}`", self.rest_short()))
        }
    }
    /// An identifier or a qualified name (`std::vector`, `Arrays.asList`).
    pub fn name(&mut self) -> String {
        self.ws();
        let start = self.pos;
        loop {
            let r = self.rest();
            let len = r
                .find(|c: char| !(c.is_alphanumeric() || c == '_' || c == '$'))
                .unwrap_or(r.len());
            if len == 0 {
                break;
            }
            self.pos += len;
            if self.rest().starts_with("::") {
                self.pos += 2;
            } else if self.rest().starts_with('.')
                && self.rest()[1..].starts_with(|c: char| c.is_alphabetic() || c == '_')
            {
                self.pos += 1;
            } else {
                break;
            }
        }
        self.src[start..self.pos].to_string()
    }
    /// A `<…>` template/generic argument list, returned as text (balanced).
    pub fn generics(&mut self) -> R<String> {
        self.ws();
        if !self.rest().starts_with('<') {
            return Ok(String::new());
        }
        let start = self.pos;
        let mut depth = 0usize;
        for (i, c) in self.rest().char_indices() {
            match c {
                '<' => depth += 1,
                '>' => {
                    depth -= 1;
                    if depth == 0 {
                        self.pos = start + i + 1;
                        return Ok(self.src[start + 1..start + i].to_string());
                    }
                }
                '(' | ')' | ';' | '{' | '}' | '"' | '\'' => break,
                _ => {}
            }
        }
        not_literal("unbalanced `<…>`")
    }

    /// A value of any shape.
    pub fn value(&mut self) -> R<Value> {
        self.value_shaped(&Shape::Unknown, 0)
    }

    /// A value where a value of `shape` is expected, `depth` levels down.
    pub fn value_shaped(&mut self, shape: &Shape, depth: usize) -> R<Value> {
        if depth > MAX_NESTING {
            return not_literal("nested too deeply");
        }
        self.ws();
        let Some(c) = self.peek() else {
            return not_literal("nothing after the operator");
        };
        let grammar = self.grammar;
        if let Some(v) = grammar.value_at(self, c, shape, depth) {
            return v;
        }
        match c {
            '-' | '+' => {
                self.pos += 1;
                let v = self.value_shaped(shape, depth + 1)?;
                match (c, v) {
                    ('+', v @ (Value::Int(_) | Value::Float(_) | Value::BigInt(_))) => Ok(v),
                    // Wrapping: `-0x8000…` (2^127, read as i128::MIN) is i128::MIN.
                    ('-', Value::Int(i)) => Ok(Value::Int(i.wrapping_neg())),
                    ('-', Value::Float(f)) => Ok(Value::Float(-f)),
                    ('-', Value::BigInt(b)) => Ok(match b.strip_prefix('-') {
                        Some(pos) => Value::int_from_decimal(pos).unwrap_or(Value::BigInt(b)),
                        None => Value::BigInt(format!("-{b}")),
                    }),
                    _ => not_literal("sign before a non-number"),
                }
            }
            '0'..='9' | '.' => self.number(),
            '"' => self.string(),
            '\'' => self.char_literal(),
            '[' => invalid("a `[…]` list"),
            // A braced list as an `==` operand is not an expression in C++,
            // Java or C#: upstream's line does not compile.
            '{' if depth == 0 => invalid("a bare `{…}` list"),
            '{' => self.braced(shape, depth),
            '(' => {
                self.pos += 1;
                let v = self.value_shaped(shape, depth + 1)?;
                self.expect(")")?;
                Ok(v)
            }
            c if c.is_alphabetic() || c == '_' || c == ':' => {
                let name = self.name();
                grammar.named(self, &name, shape, depth)
            }
            other => not_literal(format!("unexpected `{other}`")),
        }
    }
}
