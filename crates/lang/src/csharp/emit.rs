//! C#: the call goes through the judge prelude's `PolyevalCall`
//! (`PolyevalCall.Call(PolyevalCall.Create(typeof(C), …), "m", …)`), which
//! converts the plain argument values (`PolyevalCall.List(1, 2)`) to the
//! types the candidate declared: `int[]`, `List<int>`, `IList<long>`,
//! `IEnumerable<string>`, `double`, `float`, `decimal` … all compile and
//! run. The check throws `System.Exception("test failed")` (C#'s
//! `Debug.Assert` depends on DEBUG); its form tells the judge the expected
//! value (`!=` for scalars, `Enumerable.SequenceEqual` for lists,
//! `StructuralEqualityComparer` for nested lists); judged, the call's value is
//! observed and compared outside by value.

use super::CSharp;
use crate::emit::*;
use crate::ty::Ty;
use crate::value::Value;
use crate::Language;

fn ty(t: &Ty, s: Style) -> String {
    match t {
        Ty::Bool => "bool".into(),
        Ty::Int { wide: false } => "int".into(),
        Ty::Int { wide: true } => "long".into(),
        Ty::Float => "double".into(),
        Ty::Str => "string".into(),
        Ty::List(e) if s.arrays => format!("{}[]", ty(e, s)),
        Ty::List(e) => format!("List<{}>", ty(e, s)),
        other => format!("/* {other} */"),
    }
}

fn string(x: &str) -> String {
    quoted(x, &|c| {
        c_escape(c, &|c| format!("\\u{:04x}", c as u32))
            .or_else(|| (!c.is_ascii()).then(|| utf16_escape(c)))
    })
}

fn value(v: &Value, t: &Ty, s: Style) -> Result<String, String> {
    Ok(match (v, t) {
        (Value::Bool(b), _) => b.to_string(),
        (Value::Int(i), Ty::Int { wide: true }) => format!("{i}L"),
        (Value::Int(_) | Value::Float(_), _) => number_text(v, t).unwrap_or_default(),
        (Value::Str(x), _) => string(x),
        (Value::List(items), Ty::List(e)) => format!(
            "new {}{{{}}}",
            ty(t, s),
            items
                .iter()
                .map(|x| value(x, e, s))
                .collect::<Result<Vec<_>, _>>()?
                .join(", ")
        ),
        (v, t) => return Err(format!("a {} where {t} was expected", v.kind())),
    })
}

/// `v` as a plain argument value for `PolyevalCall` (lists as
/// `PolyevalCall.List(…)`; the call converts them to the declared type).
fn plain(v: &Value, t: &Ty) -> Result<String, String> {
    match (v, t) {
        (Value::List(items), Ty::List(e)) => Ok(format!(
            "PolyevalCall.List({})",
            items
                .iter()
                .map(|x| plain(x, e))
                .collect::<Result<Vec<_>, _>>()?
                .join(", ")
        )),
        _ => value(v, t, Style::default()),
    }
}

fn default_value(t: &Ty, s: Style) -> String {
    match t {
        Ty::Bool => "false".into(),
        Ty::Int { wide: false } => "0".into(),
        Ty::Int { wide: true } => "0L".into(),
        Ty::Float => "0.0".into(),
        Ty::Str => "\"\"".into(),
        Ty::List(_) => format!("new {}{{}}", ty(t, s)),
        _ => "null".into(),
    }
}

impl Translation for CSharp {
    fn target(&self) -> Option<&'static dyn Target> {
        Some(&CSharp)
    }
}

impl Target for CSharp {
    fn representable(&self, v: &Value, _: &Ty) -> Result<(), String> {
        common_representable(v)
    }
    fn preamble(&self) -> Vec<String> {
        Vec::new()
    }
    fn question_source(&self) -> Option<Language> {
        None
    }
    fn question(&self, _: &str, _: &Typed) -> Option<String> {
        None
    }
    fn supports(&self, t: &Ty) -> Result<(), String> {
        typed_support(t, "C#")
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
        let call = format!(
            "PolyevalCall.Call(PolyevalCall.Create(typeof({}){}), \"{}\"{})",
            t.class,
            sep(&ctor),
            t.method,
            sep(&args)
        );
        let rhs = value(&test.expected, &t.result, Style { arrays: true })?;
        let throw = "{ throw new System.Exception(\"test failed\"); }";
        Ok(vec![match &t.result {
            Ty::List(e) if matches!(**e, Ty::List(_)) => format!(
                "if (!System.Collections.StructuralComparisons.StructuralEqualityComparer.Equals({call}, {rhs})) {throw}"
            ),
            Ty::List(_) => {
                format!("if (!System.Linq.Enumerable.SequenceEqual({call}, {rhs})) {throw}")
            }
            _ => format!("if ({call} != {rhs}) {throw}"),
        }])
    }
    fn keywords(&self, t: &Typed, s: Style) -> Vec<Vec<String>> {
        vec![self.syntax(s).keywords(t)]
    }
    fn skeleton(&self, t: &Typed, s: Style) -> String {
        self.syntax(s).skeleton(t)
    }
}

impl CSharp {
    fn syntax(&self, style: Style) -> ClassSyntax {
        ClassSyntax {
            class: "class",
            header: "using System;\nusing System.Collections.Generic;\n\n",
            target: &CSharp,
            style,
            ty,
            default_value,
        }
    }
}
