//! The translator's emitters: typed suites written out per target language
//! (test lines — setup lines and one always-running check per test, in a
//! form the judge's splitter turns into an observation —, pass@o keyword
//! lists, and the typed skeleton the soundness check runs the tests
//! against). [`Translation`] is the [`Dialect`](crate::Dialect)'s part:
//! each language folder's `emit.rs` says whether the language is a target
//! and implements [`Target`]; this file holds what the targets write from
//! ([`Typed`]) and the helpers they share.

use crate::ty::Ty;
use crate::value::Value;
use crate::Language;
use serde::Serialize;

/// Whether a language is one the translator writes suites for.
pub trait Translation {
    /// The language's writer; `None` for the translator's source language
    /// (Python), whose tests every target's suite is written from.
    fn target(&self) -> Option<&'static dyn Target>;
}

/// Where a test comes from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case", tag = "kind", content = "index")]
pub enum Origin {
    /// Line `n` (0-based) of the upstream `test_list`.
    Upstream(usize),
    /// Input `n` of the extra inputs (augmentation).
    Extra(usize),
}

impl std::fmt::Display for Origin {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Origin::Upstream(i) => write!(f, "test {}", i + 1),
            Origin::Extra(i) => write!(f, "extra input {}", i + 1),
        }
    }
}

/// A suite with types: what every target writes from.
#[derive(Debug, Clone, Serialize)]
pub struct Typed {
    pub class: String,
    pub method: String,
    /// Constructor parameters (names from the reference) with their types.
    pub ctor: Vec<(String, Ty)>,
    pub args: Vec<Ty>,
    pub result: Ty,
    pub tests: Vec<TypedTest>,
    /// Classes the keyword list names (the tested class included).
    pub classes: Vec<String>,
    /// Methods the keyword list names, the tested one first.
    pub methods: Vec<KwMethod>,
}

#[derive(Debug, Clone, Serialize)]
pub struct TypedTest {
    pub origin: Origin,
    pub ctor: Vec<Value>,
    pub args: Vec<Value>,
    pub expected: Value,
}

/// A method of the keyword list: its name as the targets write it (no
/// leading underscores), whether it is private, and its return type when the
/// trace knows it.
#[derive(Debug, Clone, Serialize)]
pub struct KwMethod {
    pub name: String,
    pub private: bool,
    pub ret: Option<Ty>,
}

/// Per-language choices read from the language's question.
#[derive(Debug, Clone, Copy, Default)]
pub struct Style {
    /// Java/C#: lists are arrays (`int[]`) when the question speaks of
    /// arrays, `List<…>` when it speaks only of lists.
    pub arrays: bool,
}

impl Style {
    pub fn from_question(question: &str) -> Style {
        let q = question.to_ascii_lowercase();
        Style {
            arrays: q.contains("array") || !q.contains("list"),
        }
    }
}

/// One target language's writer.
pub trait Target: Sync {
    /// Whether values of `ty` can be passed and returned (else why not).
    fn supports(&self, ty: &Ty) -> Result<(), String>;
    /// Whether `v` (of type `ty`) can be written exactly.
    fn representable(&self, v: &Value, ty: &Ty) -> Result<(), String>;
    /// Lines before the tests (JavaScript: `require('node:assert')`).
    fn preamble(&self) -> Vec<String>;
    /// The language whose upstream task file (question and other fields)
    /// this target's records start from, when it has no file of its own
    /// (Go: JavaScript's); `None`: its own.
    fn question_source(&self) -> Option<Language>;
    /// The target's question written from the source's `question`, when it
    /// differs (Go states its struct-and-constructor convention); `None`
    /// keeps the upstream question as it is.
    fn question(&self, question: &str, t: &Typed) -> Option<String>;
    /// The lines of one test: setup lines, then the check. `next_var`
    /// numbers the input variables across the suite.
    fn test_lines(
        &self,
        t: &Typed,
        style: Style,
        test: &TypedTest,
        next_var: &mut usize,
    ) -> Result<Vec<String>, String>;
    /// The pass@o keyword lists: one, or alternatives when the language
    /// spells a feature several ways (its MultiOOP layer then accepts any
    /// list, `OopLanguage::any_keyword_list`).
    fn keywords(&self, t: &Typed, style: Style) -> Vec<Vec<String>>;
    /// Classes and methods with the traced types and default bodies.
    fn skeleton(&self, t: &Typed, style: Style) -> String;
}

/// Whether a value of `ty` has one reasonable type in every typed target
/// (a boolean, a string), so a keyword may name it. Numbers (int or long,
/// float or double) and lists (arrays, lists, vectors …) are the
/// candidate's choice: no question states a target type (in MultiOOP none
/// names `long`, `int[]`, `List<…>` or `vector<…>`).
pub fn single_representation(ty: &Ty) -> bool {
    matches!(ty, Ty::Bool | Ty::Str)
}

/// Non-finite floats and integers at the edge of 64 bits have no plain
/// literal in the typed targets.
pub(crate) fn common_representable(v: &Value) -> Result<(), String> {
    match v {
        Value::Float(f) if !f.is_finite() => Err(format!("the float {f} has no literal")),
        Value::Int(i) if *i <= i64::MIN as i128 => {
            Err(format!("the integer {i} has no plain literal"))
        }
        Value::List(items) | Value::Tuple(items) => items.iter().try_for_each(common_representable),
        _ => Ok(()),
    }
}

/// Only scalars and (nested) lists of them, fully known.
pub(crate) fn typed_support(ty: &Ty, lang: &str) -> Result<(), String> {
    match ty {
        Ty::Bool | Ty::Int { .. } | Ty::Float | Ty::Str => Ok(()),
        Ty::List(e) => typed_support(e, lang),
        Ty::Unknown => Err(format!(
            "an element type nothing determines (every such list is empty) cannot be written in {lang}"
        )),
        other => Err(format!("{other} is not supported in {lang}")),
    }
}

/// A float literal: shortest round-trip digits, always with `.` or `e`.
pub(crate) fn float_text(f: f64) -> String {
    let t = format!("{f:?}");
    if t.contains(['.', 'e', 'E']) {
        t
    } else {
        format!("{t}.0")
    }
}

/// The number `v` in a slot of type `ty` (ints in float slots as floats).
pub(crate) fn number_text(v: &Value, ty: &Ty) -> Option<String> {
    match (v, ty) {
        (Value::Int(i), Ty::Float) => Some(float_text(*i as f64)),
        (Value::Int(i), _) => Some(i.to_string()),
        (Value::Float(f), _) => Some(float_text(*f)),
        _ => None,
    }
}

/// Whether a type holds a float anywhere (lists of floats compare loosely in PHP).
pub(crate) fn has_float(ty: &Ty) -> bool {
    match ty {
        Ty::Float => true,
        Ty::List(e) | Ty::Set(e) | Ty::Optional(e) => has_float(e),
        Ty::Tuple(ts) => ts.iter().any(has_float),
        Ty::Map(k, v) => has_float(k) || has_float(v),
        _ => false,
    }
}

/// A C-family escape of `c`, or `None` to write it as is. `other` writes
/// remaining control characters.
pub(crate) fn c_escape(c: char, other: &dyn Fn(char) -> String) -> Option<String> {
    Some(match c {
        '"' => "\\\"".into(),
        '\\' => "\\\\".into(),
        '\n' => "\\n".into(),
        '\t' => "\\t".into(),
        '\r' => "\\r".into(),
        c if (c as u32) < 0x20 || c as u32 == 0x7f => other(c),
        _ => return None,
    })
}

/// `s` as a double-quoted literal, escaping with `esc` (which returns `None`
/// for characters written as they are).
pub(crate) fn quoted(s: &str, esc: &dyn Fn(char) -> Option<String>) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    out.push('"');
    for c in s.chars() {
        match esc(c) {
            Some(e) => out.push_str(&e),
            None => out.push(c),
        }
    }
    out.push('"');
    out
}

/// `\uXXXX` escapes of a character (a surrogate pair beyond the BMP).
pub(crate) fn utf16_escape(c: char) -> String {
    let mut buf = [0u16; 2];
    c.encode_utf16(&mut buf)
        .iter()
        .map(|u| format!("\\u{u:04x}"))
        .collect()
}

/// A test's constructor and method arguments, each written by `value`, as
/// two comma-separated lists.
pub(crate) fn arguments(
    t: &Typed,
    test: &TypedTest,
    value: &dyn Fn(&Value, &Ty) -> Result<String, String>,
) -> Result<(String, String), String> {
    let list = |vals: &[Value], tys: &mut dyn Iterator<Item = &Ty>| -> Result<String, String> {
        Ok(vals
            .iter()
            .zip(tys)
            .map(|(v, vt)| value(v, vt))
            .collect::<Result<Vec<_>, _>>()?
            .join(", "))
    };
    Ok((
        list(&test.ctor, &mut t.ctor.iter().map(|c| &c.1))?,
        list(&test.args, &mut t.args.iter())?,
    ))
}

/// Method names of the keyword list, public first (as upstream orders them).
pub(crate) fn public_then_private(t: &Typed) -> (Vec<&KwMethod>, Vec<&KwMethod>) {
    (
        t.methods.iter().filter(|m| !m.private).collect(),
        t.methods.iter().filter(|m| m.private).collect(),
    )
}

/// Classes in the order a skeleton declares them: the tested class last.
pub(crate) fn other_classes(t: &Typed) -> impl Iterator<Item = &String> {
    t.classes.iter().filter(move |c| **c != t.class)
}

/// The parameter list of a skeleton's constructor / tested method.
pub(crate) fn params(names: &[(String, String)], write: &dyn Fn(&str, &str) -> String) -> String {
    names
        .iter()
        .map(|(n, ty)| write(n, ty))
        .collect::<Vec<_>>()
        .join(", ")
}

/// Java and C# declare classes and methods alike: their keyword lists and
/// skeletons differ only in how a class is declared, the file's header and
/// the language's types.
pub(crate) struct ClassSyntax {
    /// `public class` (Java) or `class` (C#).
    pub(crate) class: &'static str,
    /// Imports the skeleton starts with.
    pub(crate) header: &'static str,
    pub(crate) target: &'static dyn Target,
    pub(crate) style: Style,
    pub(crate) ty: fn(&Ty, Style) -> String,
    pub(crate) default_value: fn(&Ty, Style) -> String,
}

impl ClassSyntax {
    pub(crate) fn keywords(&self, t: &Typed) -> Vec<String> {
        let mut k: Vec<String> = t
            .classes
            .iter()
            .map(|c| format!("{} {c}", self.class))
            .collect();
        let (public, private) = public_then_private(t);
        let mut private_unchecked = false;
        for m in public.into_iter().chain(private) {
            let access = if m.private { "private" } else { "public" };
            k.push(match &m.ret {
                Some(r) if r.is_none() => format!("{access} void {}", m.name),
                Some(r) if single_representation(r) && self.target.supports(r).is_ok() => {
                    format!("{access} {} {}", (self.ty)(r, self.style), m.name)
                }
                // The return type is the candidate's choice (int or long,
                // an array or a list …): only the name is required.
                _ => {
                    private_unchecked |= m.private;
                    m.name.clone()
                }
            });
        }
        if private_unchecked {
            k.push("private ".into());
        }
        k
    }

    pub(crate) fn skeleton(&self, t: &Typed) -> String {
        let mut out = String::from(self.header);
        for c in other_classes(t) {
            out.push_str(&format!("{} {c} {{\n}}\n\n", self.class));
        }
        let write = |n: &str, ty: &str| format!("{ty} {n}");
        let ctor: Vec<(String, String)> = t
            .ctor
            .iter()
            .enumerate()
            .map(|(i, (n, vt))| (param_name(n, i), (self.ty)(vt, self.style)))
            .collect();
        out.push_str(&format!(
            "{} {c} {{\n    public {c}({}) {{}}\n",
            self.class,
            params(&ctor, &write),
            c = t.class
        ));
        let (public, private) = public_then_private(t);
        for m in public.into_iter().chain(private) {
            let access = if m.private { "private" } else { "public" };
            let (ret, body) = match &m.ret {
                Some(r) if r.is_none() => ("void".to_string(), String::new()),
                Some(r) if self.target.supports(r).is_ok() => (
                    (self.ty)(r, self.style),
                    format!(" return {}; ", (self.default_value)(r, self.style)),
                ),
                _ => ("int".to_string(), " return 0; ".to_string()),
            };
            let args: Vec<(String, String)> = if m.name == t.method && !m.private {
                t.args
                    .iter()
                    .enumerate()
                    .map(|(i, a)| (format!("arg{i}"), (self.ty)(a, self.style)))
                    .collect()
            } else {
                Vec::new()
            };
            out.push_str(&format!(
                "    {access} {ret} {}({}) {{{body}}}\n",
                m.name,
                params(&args, &write)
            ));
        }
        out.push_str("}\n");
        out
    }
}

/// Safe parameter names for skeletons (the reference's, unless they clash
/// with a target keyword).
pub fn param_name(name: &str, i: usize) -> String {
    const RESERVED: &[&str] = &[
        "int",
        "long",
        "double",
        "float",
        "char",
        "string",
        "bool",
        "new",
        "class",
        "default",
        "function",
        "var",
        "let",
        "const",
        "func",
        "type",
        "map",
        "range",
        "len",
        "string",
        "object",
        "in",
        "is",
        "params",
        "ref",
        "out",
        "base",
        "this",
        "self",
        "public",
        "private",
        "static",
        "package",
        "import",
        "interface",
        "struct",
        "case",
        "switch",
        "break",
        "go",
        "select",
        "chan",
        "defer",
        "fallthrough",
        "goto",
        "delete",
        "operator",
        "template",
        "typename",
        "union",
        "enum",
        "echo",
        "list",
        "array",
        "print",
        "fn",
        "match",
    ];
    let ok = name.chars().next().is_some_and(|c| c.is_ascii_alphabetic())
        && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
        && !RESERVED.contains(&name);
    if ok {
        name.to_string()
    } else {
        format!("arg{i}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn floats_always_look_like_floats() {
        assert_eq!(float_text(3.0), "3.0");
        assert_eq!(float_text(0.1), "0.1");
        assert_eq!(float_text(1e-7), "1e-7");
        assert_eq!(float_text(-2.5e20), "-2.5e20");
        assert_eq!(number_text(&Value::Int(2), &Ty::Float).unwrap(), "2.0");
    }

    #[test]
    fn style_follows_the_question() {
        assert!(Style::from_question("Given an integer array nums").arrays);
        assert!(!Style::from_question("Given a list of words").arrays);
        assert!(Style::from_question("Given a string").arrays);
        assert_eq!(utf16_escape('é'), "\\u00e9");
        assert_eq!(utf16_escape('😀'), "\\ud83d\\ude00");
    }
}
