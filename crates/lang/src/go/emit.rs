//! Go: each class a struct type, created by `New<Class>(…)` returning a
//! pointer (the convention polyeval's Go questions state), methods on the
//! pointer; the check `polyevalAssertEqual(call, expected)` (Go has no
//! assertion; the MultiOOP Go harness defines it, the judge observes `call`).
//! The call goes through the judge prelude's `polyevalCall`
//! (`polyevalCall((*C).m, polyevalCall(NewC, …), …)`), which converts plain
//! argument values (`polyevalList(1, 2)`) to the parameter types the
//! candidate declared (`[]int`, `[]int64`, `[]uint`, `[]float32` …) and the
//! receiver to a pointer or a value; a method expression reaches unexported
//! methods too.

use super::Go;
use crate::emit::*;
use crate::ty::Ty;
use crate::value::Value;
use crate::Language;

use super::judging::ASSERT_EQUAL as GO_ASSERT_EQUAL;

fn ty(t: &Ty) -> String {
    match t {
        Ty::Bool => "bool".into(),
        Ty::Int { .. } => "int".into(),
        Ty::Float => "float64".into(),
        Ty::Str => "string".into(),
        Ty::List(e) => format!("[]{}", ty(e)),
        other => format!("/* {other} */"),
    }
}

fn string(s: &str) -> String {
    quoted(s, &|c| c_escape(c, &|c| format!("\\x{:02x}", c as u32)))
}

/// `v` as an expression; `typed`: lists carry their type (`[]int{…}`),
/// else only braces (elements of a composite literal).
fn value(v: &Value, t: &Ty, typed: bool) -> Result<String, String> {
    Ok(match (v, t) {
        (Value::Bool(b), _) => b.to_string(),
        (Value::Int(_) | Value::Float(_), _) => number_text(v, t).unwrap_or_default(),
        (Value::Str(s), _) => string(s),
        (Value::List(items), Ty::List(e)) => {
            let parts = items
                .iter()
                .map(|x| value(x, e, false))
                .collect::<Result<Vec<_>, _>>()?
                .join(", ");
            if typed {
                format!("{}{{{parts}}}", ty(t))
            } else {
                format!("{{{parts}}}")
            }
        }
        (v, t) => return Err(format!("a {} where {t} was expected", v.kind())),
    })
}

/// `v` as a plain argument value for `polyevalCall` (lists as
/// `polyevalList(…)`; the call converts them to the declared type).
fn plain(v: &Value, t: &Ty) -> Result<String, String> {
    match (v, t) {
        (Value::List(items), Ty::List(e)) => Ok(format!(
            "polyevalList({})",
            items
                .iter()
                .map(|x| plain(x, e))
                .collect::<Result<Vec<_>, _>>()?
                .join(", ")
        )),
        _ => value(v, t, true),
    }
}

fn default_value(t: &Ty) -> String {
    match t {
        Ty::Bool => "false".into(),
        Ty::Int { .. } => "0".into(),
        Ty::Float => "0.0".into(),
        Ty::Str => "\"\"".into(),
        _ => "nil".into(),
    }
}

impl Translation for Go {
    fn target(&self) -> Option<&'static dyn Target> {
        Some(&Go)
    }
}

impl Target for Go {
    fn representable(&self, v: &Value, _: &Ty) -> Result<(), String> {
        common_representable(v)
    }
    fn preamble(&self) -> Vec<String> {
        Vec::new()
    }
    fn question_source(&self) -> Option<Language> {
        // Go has no upstream file.
        Some(Language::JavaScript)
    }
    fn question(&self, source_question: &str, t: &Typed) -> Option<String> {
        Some(question(source_question, t))
    }
    fn supports(&self, t: &Ty) -> Result<(), String> {
        typed_support(t, "Go")
    }
    fn test_lines(
        &self,
        t: &Typed,
        _: Style,
        test: &TypedTest,
        _: &mut usize,
    ) -> Result<Vec<String>, String> {
        let (ctor, args) = arguments(t, test, &|v, vt| plain(v, vt))?;
        let sep = |a: &str| {
            if a.is_empty() {
                String::new()
            } else {
                format!(", {a}")
            }
        };
        Ok(vec![format!(
            "{GO_ASSERT_EQUAL}(polyevalCall((*{c}).{}, polyevalCall(New{c}{}){}), {})",
            t.method,
            sep(&ctor),
            sep(&args),
            value(&test.expected, &t.result, true)?,
            c = t.class,
        )])
    }
    fn keywords(&self, t: &Typed, _: Style) -> Vec<Vec<String>> {
        let mut k: Vec<String> = t
            .classes
            .iter()
            .map(|c| format!("type {c} struct"))
            .collect();
        k.push(format!("func New{}(", t.class));
        let (public, private) = public_then_private(t);
        k.extend(
            public
                .into_iter()
                .chain(private)
                .map(|m| format!(") {}(", m.name)),
        );
        vec![k]
    }
    fn skeleton(&self, t: &Typed, _: Style) -> String {
        let mut out = String::from("package main\n\n");
        for c in other_classes(t) {
            out.push_str(&format!("type {c} struct{{}}\n\n"));
        }
        let ctor: Vec<(String, String)> = t
            .ctor
            .iter()
            .enumerate()
            .map(|(i, (n, vt))| (param_name(n, i), ty(vt)))
            .collect();
        let write = |n: &str, ty: &str| format!("{n} {ty}");
        out.push_str(&format!(
            "type {c} struct{{}}\n\nfunc New{c}({}) *{c} {{\n\treturn &{c}{{}}\n}}\n\n",
            params(&ctor, &write),
            c = t.class
        ));
        let (public, private) = public_then_private(t);
        for m in public.into_iter().chain(private) {
            let args: Vec<(String, String)> = if m.name == t.method && !m.private {
                t.args
                    .iter()
                    .enumerate()
                    .map(|(i, a)| (format!("arg{i}"), ty(a)))
                    .collect()
            } else {
                Vec::new()
            };
            let (ret, body) = match &m.ret {
                Some(r) if r.is_none() => (String::new(), String::new()),
                Some(r) if self.supports(r).is_ok() => (
                    format!(" {}", ty(r)),
                    format!("\n\treturn {}\n", default_value(r)),
                ),
                _ => (" int".to_string(), "\n\treturn 0\n".to_string()),
            };
            out.push_str(&format!(
                "func (c *{}) {}({}){ret} {{{body}}}\n\n",
                t.class,
                m.name,
                params(&args, &write)
            ));
        }
        out
    }
}

/// The Go question: JavaScript's with the language named Go, plus the
/// struct-and-constructor convention (Go has no classes) with the
/// constructor's traced parameter types.
fn question(js_question: &str, t: &Typed) -> String {
    let q = js_question.replace("JavaScript", "Go");
    let params: Vec<String> = t
        .ctor
        .iter()
        .enumerate()
        .map(|(i, (n, vt))| format!("{} {}", param_name(n, i), ty(vt)))
        .collect();
    let inherit = if q.to_ascii_lowercase().contains("inherit") {
        " (a class that inherits embeds the struct of the class it inherits from)"
    } else {
        ""
    };
    format!(
        "{}\nGo has no classes: write each class as a struct type with its functions as methods on a pointer to it, named exactly as above{inherit}, and create a **{c}** with the constructor function **New{c}({})** returning `*{c}`.",
        q.trim_end(),
        params.join(", "),
        c = t.class
    )
}
